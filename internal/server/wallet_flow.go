package server

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/pages"
	"vitrine/internal/payment/paypal"
	"vitrine/internal/storage/sqlstore"
)

// The life of a wallet order (docs/architecture.md, "Wallet checkout"):
//
//	none → wallet_order_created → (approved) → capture_requested → paid
//	                                              ↘ failed → wallet_order_created (declined: approve again)
//
// Every PayPal POST carries a key derived from the order id, which is stored
// before the call: vitrine-<id>-create and vitrine-<id>-capture. A retry,
// a concurrent return, the webhook or the reconciler after a crash all use
// the same key, so PayPal captures at most once, and MarkOrderPaid is
// idempotent, so the order is paid at most once.

func createKey(id int64) string  { return "vitrine-" + strconv.FormatInt(id, 10) + "-create" }
func captureKey(id int64) string { return "vitrine-" + strconv.FormatInt(id, 10) + "-capture" }

// Where the buyer is sent back to from the approval page.
const (
	walletReturnPath = "/checkout/paypal-return/"
	walletCancelPath = "/checkout/?wallet=cancelled"
)

// startWalletPayment creates the PayPal order of a placed order from the
// order's own totals and records it (payment state wallet_order_created).
func (s *Server) startWalletPayment(ctx context.Context, o *checkout.Order, shippingPref string) (*paypal.Order, error) {
	wl := s.wallet
	pu, err := orderPurchaseUnit(o)
	if err != nil {
		return nil, err
	}
	base := strings.TrimRight(s.cfg.BaseURL, "/")
	req := paypal.CreateOrderRequest{Intent: paypal.IntentCapture, PurchaseUnits: []paypal.PurchaseUnit{pu},
		PaymentSource: &paypal.PaymentSource{PayPal: &paypal.PayPalSource{ExperienceContext: &paypal.ExperienceContext{
			UserAction: paypal.UserActionPayNow, ShippingPreference: shippingPref, BrandName: truncateRunes(wl.cfg.BrandName, 127),
			ReturnURL: base + walletReturnPath, CancelURL: base + walletCancelPath}}}}
	if pu.Shipping == nil && shippingPref == paypal.ShippingPreferenceProvided {
		req.PaymentSource.PayPal.ExperienceContext.ShippingPreference = paypal.ShippingPreferenceFromFile
	}
	cctx, cancel := wl.callCtx(ctx)
	defer cancel()
	ppo, err := wl.pp.CreateOrder(cctx, createKey(o.ID), req)
	if err != nil {
		return nil, err
	}
	err = s.db.SetPaymentState(ctx, o.ID, checkout.PayNone, checkout.PayWalletOrderCreated,
		sqlstore.PaymentFields{ProviderOrderID: ppo.ID, ProviderRequestID: createKey(o.ID)}, s.now())
	if err != nil {
		return nil, err
	}
	return ppo, nil
}

// completeWalletOrder finishes a wallet order whose buyer approved it: the
// PayPal order must be APPROVED (or already COMPLETED); the buyer's name,
// email and address fill what the order lacks; the PayPal amounts are
// patched to the order's own when they differ; then one capture with the
// stored key, and the order is paid (a PENDING capture: on-hold). It is
// safe to run concurrently and again: the compare-and-set on the payment
// state and the capture key make exactly one capture and one payment.
//
// It answers the order after the step it reached. A *walletError is a
// refusal; another error with a non-nil order means the outcome is unknown
// (the order is left for a retry, the webhook or the reconciler).
func (s *Server) completeWalletOrder(ctx context.Context, o *checkout.Order) (*checkout.Order, error) {
	wl := s.wallet
	for attempt := 0; attempt < 4; attempt++ {
		if o.Paid() {
			return o, nil
		}
		switch o.PaymentState {
		case checkout.PayCaptureRequested:
			if o.Status == checkout.StatusOnHold && o.CaptureID != "" {
				return o, nil // captured, PayPal still settling it
			}
			return s.captureWalletOrder(ctx, o)
		case checkout.PayWalletOrderCreated, checkout.PayApproved:
			if o.Status != checkout.StatusPending {
				return nil, errWalletClosed
			}
			cctx, cancel := wl.callCtx(ctx)
			ppo, err := wl.pp.GetOrder(cctx, o.ProviderOrderID)
			cancel()
			if err != nil {
				return o, err
			}
			switch ppo.Status {
			case paypal.StatusCompleted:
				return s.settleWalletOrder(ctx, o, ppo)
			case paypal.StatusApproved:
			default:
				return nil, errWalletNotApproved
			}
			if err := s.prepareCapture(ctx, o, ppo); err != nil {
				return o, err
			}
			err = s.db.SetPaymentState(ctx, o.ID, o.PaymentState, checkout.PayCaptureRequested,
				sqlstore.PaymentFields{ProviderRequestID: captureKey(o.ID)}, s.now())
			if errors.Is(err, sqlstore.ErrPaymentState) {
				// Another request (a second return, the webhook) moved it:
				// read it again and follow from there.
				if o, err = s.db.Order(ctx, o.ID); err != nil {
					return nil, err
				}
				continue
			}
			if err != nil {
				return o, err
			}
			o.PaymentState, o.ProviderRequestID = checkout.PayCaptureRequested, captureKey(o.ID)
			return s.captureWalletOrder(ctx, o)
		default:
			return nil, errWalletClosed
		}
	}
	return o, errWalletState
}

// prepareCapture fills the order's missing addresses from the PayPal
// payer (product and cart buttons place the order before the buyer says who
// they are) and patches the PayPal order's amounts to the order's own when
// they differ: the captured amount is always the order's total.
func (s *Server) prepareCapture(ctx context.Context, o *checkout.Order, ppo *paypal.Order) error {
	if o.Billing.Email == "" {
		billing, shipping := payerAddresses(o, ppo)
		if _, err := s.db.SetOrderAddresses(ctx, o.ID, billing, shipping, s.now()); err != nil {
			return err
		}
		o.Billing, o.Shipping = billing, shipping
	}
	want, err := orderPurchaseUnit(o)
	if err != nil {
		return err
	}
	if len(ppo.PurchaseUnits) == 1 && sameAmount(ppo.PurchaseUnits[0].Amount, want.Amount) {
		return nil
	}
	want.ReferenceID = "default"
	if len(ppo.PurchaseUnits) > 0 && ppo.PurchaseUnits[0].ReferenceID != "" {
		want.ReferenceID = ppo.PurchaseUnits[0].ReferenceID
	}
	var ops []paypal.PatchOp
	for _, op := range paypal.ReplaceOps(want) {
		if !strings.Contains(op.Path, "/shipping") { // the buyer's chosen address stays
			ops = append(ops, op)
		}
	}
	s.log.Warn("wallet: PayPal order amount differs from the order; patching", "order", o.ID, "paypal_order", ppo.ID)
	cctx, cancel := s.wallet.callCtx(ctx)
	defer cancel()
	return s.wallet.pp.PatchOrder(cctx, ppo.ID, ops)
}

// sameAmount compares two amounts exactly (currency and minor units).
func sameAmount(a, b *paypal.AmountWithBreakdown) bool {
	if a == nil || b == nil || a.CurrencyCode != b.CurrencyCode {
		return false
	}
	x, err1 := paypal.ParseValue(a.CurrencyCode, a.Value)
	y, err2 := paypal.ParseValue(b.CurrencyCode, b.Value)
	return err1 == nil && err2 == nil && x == y
}

// payerAddresses fills an order's empty addresses from the PayPal order's
// payer and shipping: name and email on the billing address, the shipping
// name and address on both when the order has none.
func payerAddresses(o *checkout.Order, ppo *paypal.Order) (billing, shipping cart.Address) {
	billing, shipping = o.Billing, o.Shipping
	var ship cart.Address
	if len(ppo.PurchaseUnits) > 0 && ppo.PurchaseUnits[0].Shipping != nil {
		sd := ppo.PurchaseUnits[0].Shipping
		if a := sd.Address; a != nil {
			ship = cart.Address{Address1: a.AddressLine1, Address2: a.AddressLine2, City: a.AdminArea2, State: a.AdminArea1,
				Postcode: a.PostalCode, Country: a.CountryCode}
		}
		if sd.Name != nil && sd.Name.FullName != "" {
			first, last, _ := strings.Cut(sd.Name.FullName, " ")
			ship.FirstName, ship.LastName = first, last
		}
	}
	if p := ppo.Payer; p != nil {
		if billing.Email == "" {
			billing.Email = p.EmailAddress
		}
		if p.Name != nil && billing.FirstName == "" && billing.LastName == "" {
			billing.FirstName, billing.LastName = p.Name.GivenName, p.Name.Surname
		}
		if billing.Country == "" && p.Address != nil {
			billing.Country = p.Address.CountryCode
		}
	}
	if shipping.Address1 == "" && ship.Address1 != "" {
		shipping = ship
	}
	if billing.Address1 == "" && ship.Address1 != "" {
		names := [2]string{billing.FirstName, billing.LastName}
		email, phone := billing.Email, billing.Phone
		billing = ship
		billing.FirstName, billing.LastName, billing.Email, billing.Phone = names[0], names[1], email, phone
		if billing.FirstName == "" && billing.LastName == "" {
			billing.FirstName, billing.LastName = ship.FirstName, ship.LastName
		}
	}
	for _, a := range []*cart.Address{&billing, &shipping} {
		for _, k := range checkout.AddressFields {
			checkout.SetAddressValue(a, k, truncateRunes(checkout.Clean(checkout.AddressValue(a, k)), 200))
		}
	}
	shipping.Email = ""
	return billing, shipping
}

// captureWalletOrder captures an order in capture_requested with its
// stored key and settles the result.
func (s *Server) captureWalletOrder(ctx context.Context, o *checkout.Order) (*checkout.Order, error) {
	wl := s.wallet
	key := o.ProviderRequestID
	if !strings.HasSuffix(key, "-capture") {
		key = captureKey(o.ID)
	}
	cctx, cancel := wl.callCtx(ctx)
	ppo, err := wl.pp.CaptureOrder(cctx, o.ProviderOrderID, key)
	cancel()
	if err == nil {
		return s.settleWalletOrder(ctx, o, ppo)
	}
	switch {
	case paypal.HasIssue(err, paypal.IssueOrderAlreadyCaptured):
		cctx, cancel := wl.callCtx(ctx)
		ppo, gerr := wl.pp.GetOrder(cctx, o.ProviderOrderID)
		cancel()
		if gerr != nil {
			return o, gerr
		}
		return s.settleWalletOrder(ctx, o, ppo)
	case paypal.HasIssue(err, paypal.IssueInstrumentDeclined):
		s.resetDeclined(ctx, o)
		return nil, errWalletDeclined
	case paypal.HasIssue(err, paypal.IssueOrderNotApproved), paypal.HasIssue(err, paypal.IssuePayerActionRequired):
		s.resetDeclined(ctx, o)
		return nil, errWalletNotApproved
	}
	return o, err // no answer or a 5xx: outcome unknown; the key makes a retry safe
}

// resetDeclined puts a declined order back where the buyer can approve it
// again with another funding source: capture_requested → failed →
// wallet_order_created.
func (s *Server) resetDeclined(ctx context.Context, o *checkout.Order) {
	now := s.now()
	err := s.db.SetPaymentState(ctx, o.ID, checkout.PayCaptureRequested, checkout.PayFailed, sqlstore.PaymentFields{}, now)
	if err == nil {
		err = s.db.SetPaymentState(ctx, o.ID, checkout.PayFailed, checkout.PayWalletOrderCreated, sqlstore.PaymentFields{}, now)
	}
	if err != nil && !errors.Is(err, sqlstore.ErrPaymentState) {
		s.log.Error("wallet: reset a declined order", "order", o.ID, "err", err)
	}
}

// settleWalletOrder records what PayPal says of an order's capture: a
// COMPLETED capture of exactly the order's total pays the order; PENDING
// (or a completed capture of another amount, which a person must look at)
// puts it on-hold; DECLINED or FAILED fails it. The cart the order came
// from is emptied once the order leaves pending.
func (s *Server) settleWalletOrder(ctx context.Context, o *checkout.Order, ppo *paypal.Order) (*checkout.Order, error) {
	caps := ppo.Captures()
	if len(caps) == 0 {
		return o, errors.New("wallet: PayPal order " + ppo.ID + " is " + ppo.Status + " without a capture")
	}
	c := caps[0]
	now := s.now()
	wasPending := o.Status == checkout.StatusPending
	var changed bool
	var err error
	switch c.Status {
	case paypal.CaptureStatusCompleted, paypal.CaptureStatusRefunded, paypal.CaptureStatusPartRefunded:
		if !s.captureMatches(o, c) {
			s.log.Error("wallet: captured amount differs from the order total; order put on-hold", "order", o.ID, "capture", c.ID)
			changed, err = s.db.HoldOrderForCapture(ctx, o.ID, c.ID, now)
			break
		}
		changed, err = s.db.MarkOrderPaid(ctx, o.ID, c.ID, now)
	case paypal.CaptureStatusPending:
		changed, err = s.db.HoldOrderForCapture(ctx, o.ID, c.ID, now)
	case paypal.CaptureStatusDeclined, paypal.CaptureStatusFailed:
		changed, err = s.db.FailOrderPayment(ctx, o.ID, now)
	}
	if err != nil {
		return o, err
	}
	if changed {
		s.kickMail() // a paid order's mails were queued with it
	}
	if changed && wasPending {
		if err := s.db.ClearCart(ctx, o.CartSession); err != nil {
			s.log.Warn("wallet: empty the paid cart", "order", o.ID, "err", err)
		}
	}
	return s.db.Order(ctx, o.ID)
}

// captureMatches: the capture is the order's total in the order's currency.
func (s *Server) captureMatches(o *checkout.Order, c paypal.Capture) bool {
	if c.Amount == nil || c.Amount.CurrencyCode != o.Currency {
		return false
	}
	v, err := c.Amount.Minor()
	return err == nil && v == o.Total
}

// handleWalletReturn answers GET /checkout/paypal-return/?token=…&PayerID=…,
// where the approval page sends the buyer: capture and show the order. The
// PayPal order id in token is what names the order (a buyer may come back
// in another browser than the one that placed it).
func (s *Server) handleWalletReturn(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	w.Header().Set("Referrer-Policy", "no-referrer")
	if s.wallet == nil {
		s.handleNotFound(w, r)
		return
	}
	token := strings.TrimSpace(r.URL.Query().Get("token"))
	if token == "" || len(token) > 64 {
		http.Redirect(w, r, "/checkout/?wallet=error", http.StatusSeeOther)
		return
	}
	ctx := r.Context()
	o, err := s.db.OrderByProviderOrderID(ctx, token)
	if errors.Is(err, sqlstore.ErrOrderNotFound) {
		http.Redirect(w, r, "/checkout/?wallet=error", http.StatusSeeOther)
		return
	}
	if err != nil {
		s.pageError(w, "wallet return", err)
		return
	}
	done, err := s.completeWalletOrder(ctx, o)
	var we *walletError
	switch {
	case err == nil:
		http.Redirect(w, r, orderReceivedURL(done), http.StatusSeeOther)
	case errors.Is(err, errWalletDeclined):
		http.Redirect(w, r, "/checkout/?wallet=declined", http.StatusSeeOther)
	case errors.As(err, &we):
		http.Redirect(w, r, "/checkout/?wallet=error", http.StatusSeeOther)
	default:
		// The outcome is unknown (PayPal did not answer): the order page
		// shows it pending; a reload, the webhook or the reconciler
		// finishes it with the same capture key.
		s.log.Warn("wallet: capture outcome unknown", "order", o.ID, "err", err)
		if done == nil {
			done = o
		}
		http.Redirect(w, r, orderReceivedURL(done), http.StatusSeeOther)
	}
}

// walletNotice is the checkout page's notice after a wallet redirect
// (?wallet=cancelled, declined or error), or nil.
func (s *Server) walletNotice(r *http.Request) []string {
	if s.wallet == nil {
		return nil
	}
	switch r.URL.Query().Get("wallet") {
	case "cancelled":
		return []string{msgWalletCancelled}
	case "declined":
		return []string{msgWalletDeclined}
	case "error":
		return []string{msgWalletGeneric}
	}
	return nil
}

// walletNoticeErrors is walletNotice as the checkout page's notices.
func (s *Server) walletNoticeErrors(r *http.Request) *pages.CheckoutErrors {
	n := s.walletNotice(r)
	if n == nil {
		return nil
	}
	return &pages.CheckoutErrors{Notices: n, Fields: map[string]string{}}
}

// walletView is the checkout page's wallet data, or nil without the wallet.
func (s *Server) walletView(sess cartSession, now time.Time) *pages.WalletView {
	if s.wallet == nil {
		return nil
	}
	return &pages.WalletView{Nonces: s.walletNonces(sess, now)}
}
