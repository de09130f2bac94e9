package wallet

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/money"
	"vitrine/internal/payment"
	"vitrine/internal/payment/paypal"
)

// The life of a wallet order (docs/decisions/0045-wallet-payment-keys.md):
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

// startPayment creates the PayPal order of a placed order from the
// order's own totals and records it (payment state wallet_order_created).
func (s *Service) startPayment(ctx context.Context, o *checkout.Order, shippingPref string) (*paypal.Order, error) {
	pu, err := s.orderUnit(ctx, o)
	if err != nil {
		return nil, err
	}
	base := strings.TrimRight(s.d.BaseURL, "/")
	req := paypal.CreateOrderRequest{Intent: paypal.IntentCapture, PurchaseUnits: []paypal.PurchaseUnit{pu},
		PaymentSource: &paypal.PaymentSource{PayPal: &paypal.PayPalSource{ExperienceContext: &paypal.ExperienceContext{
			UserAction: paypal.UserActionPayNow, ShippingPreference: shippingPref, BrandName: truncateRunes(s.cfg.BrandName, 127),
			ReturnURL: base + ReturnPath, CancelURL: base + CancelPath}}}}
	if pu.Shipping == nil && shippingPref == paypal.ShippingPreferenceProvided {
		req.PaymentSource.PayPal.ExperienceContext.ShippingPreference = paypal.ShippingPreferenceFromFile
	}
	cctx, cancel := s.callCtx(ctx)
	defer cancel()
	ppo, err := s.pp.CreateOrder(cctx, createKey(o.ID), req)
	if err != nil {
		return nil, err
	}
	err = s.d.Store.SetPaymentState(ctx, o.ID, checkout.PayNone, checkout.PayWalletOrderCreated,
		payment.ProviderIDs{ProviderOrderID: ppo.ID, ProviderRequestID: createKey(o.ID)}, s.now())
	if err != nil {
		return nil, err
	}
	return ppo, nil
}

// complete finishes a wallet order whose buyer approved it: the
// PayPal order must be APPROVED (or already COMPLETED); the buyer's name,
// email and address fill what the order lacks; the PayPal amounts are
// patched to the order's own when they differ; then one capture with the
// stored key, and the order is paid (a PENDING capture: on-hold). It is
// safe to run concurrently and again: the compare-and-set on the payment
// state and the capture key make exactly one capture and one payment.
//
// It answers the order after the step it reached. An *Error is a
// refusal; another error with a non-nil order means the outcome is unknown
// (the order is left for a retry, the webhook or the reconciler).
func (s *Service) complete(ctx context.Context, o *checkout.Order) (*checkout.Order, error) {
	for attempt := 0; attempt < 4; attempt++ {
		if o.Paid() {
			return o, nil
		}
		switch o.PaymentState {
		case checkout.PayCaptureRequested:
			if o.Status == checkout.StatusOnHold && o.CaptureID != "" {
				return o, nil // captured, PayPal still settling it
			}
			return s.capture(ctx, o)
		case checkout.PayWalletOrderCreated, checkout.PayApproved:
			if o.Status != checkout.StatusPending {
				return nil, ErrClosed
			}
			cctx, cancel := s.callCtx(ctx)
			ppo, err := s.pp.GetOrder(cctx, o.ProviderOrderID)
			cancel()
			if err != nil {
				return o, err
			}
			switch ppo.Status {
			case paypal.StatusCompleted:
				return s.settle(ctx, o, ppo)
			case paypal.StatusApproved:
			default:
				return nil, ErrNotApproved
			}
			if err := s.prepareCapture(ctx, o, ppo); err != nil {
				return o, err
			}
			err = s.d.Store.SetPaymentState(ctx, o.ID, o.PaymentState, checkout.PayCaptureRequested,
				payment.ProviderIDs{ProviderRequestID: captureKey(o.ID)}, s.now())
			if errors.Is(err, payment.ErrPaymentState) {
				// Another request (a second return, the webhook) moved it:
				// read it again and follow from there.
				if o, err = s.d.Store.Order(ctx, o.ID); err != nil {
					return nil, err
				}
				continue
			}
			if err != nil {
				return o, err
			}
			o.PaymentState, o.ProviderRequestID = checkout.PayCaptureRequested, captureKey(o.ID)
			return s.capture(ctx, o)
		default:
			return nil, ErrClosed
		}
	}
	return o, ErrState
}

// prepareCapture fills the order's missing addresses from the PayPal
// payer (product and cart buttons place the order before the buyer says who
// they are) and patches the PayPal order's amounts to the order's own when
// they differ: the captured amount is always the order's total.
//
// Taxes and shipping follow the address the order ships to, which PayPal
// returns (the buyer chose it there): when it prices the order otherwise
// than the address the order was placed with, nothing is captured
// (checkAddressTotal).
func (s *Service) prepareCapture(ctx context.Context, o *checkout.Order, ppo *paypal.Order) error {
	billing, shipping := o.Billing, o.Shipping
	if o.Billing.Email == "" {
		billing, shipping = payerAddresses(o, ppo)
	}
	if ship, ok := paypalShipping(ppo); ok && !sameLocation(ship, shipping) {
		if ship.FirstName == "" && ship.LastName == "" {
			ship.FirstName, ship.LastName = shipping.FirstName, shipping.LastName
		}
		ship.Phone = shipping.Phone
		shipping = cleanAddress(ship)
	}
	if err := s.checkAddressTotal(ctx, o, billing, shipping); err != nil {
		return err
	}
	if billing != o.Billing || shipping != o.Shipping {
		if _, err := s.d.Store.SetOrderAddresses(ctx, o.ID, billing, shipping, s.now()); err != nil {
			return err
		}
		o.Billing, o.Shipping = billing, shipping
	}
	want, err := s.orderUnit(ctx, o)
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
	cctx, cancel := s.callCtx(ctx)
	defer cancel()
	return s.pp.PatchOrder(cctx, ppo.ID, ops)
}

// checkAddressTotal compares what the order's cart costs for the
// addresses it was placed with and for those it carries once approved
// (PayPal's), both priced by the checkout's own price function
// (checkout.Service.Price, the cart and checkout's quote). The same total:
// nil. Another one (the product and cart buttons place the order before
// the buyer's address is known, so a state's sales tax or another zone's
// shipping appears only now): the amount the buyer approved at PayPal is
// not the order's, so nothing is captured. The order is cancelled (its
// stock comes back), PayPal's addresses are kept on the session's cart so
// the checkout shows the new total with its tax and shipping lines, and
// ErrTotalChanged asks the buyer to check it and pay again.
func (s *Service) checkAddressTotal(ctx context.Context, o *checkout.Order, billing, shipping cart.Address) error {
	if billing == o.Billing && shipping == o.Shipping || o.CartSession == "" {
		return nil
	}
	placed, err := s.d.Checkout.QuoteCartFor(ctx, o.CartSession, o.Currency, o.Billing, o.Shipping)
	if err != nil {
		return err
	}
	approved, err := s.d.Checkout.QuoteCartFor(ctx, o.CartSession, o.Currency, billing, shipping)
	if err != nil {
		return err
	}
	if placed.Empty || approved.Quote.Total == placed.Quote.Total {
		return nil
	}
	s.log.Info("wallet: the buyer's PayPal address changes the total; not captured", "order", o.ID,
		"placed_total", placed.Quote.Total, "address_total", approved.Quote.Total)
	if _, err := s.d.Store.CancelUnpaidOrder(ctx, o.ID, s.now()); err != nil {
		return err
	}
	if c, err := s.d.Checkout.Cart(ctx, o.CartSession); err == nil && c.Exists {
		cust := c.Customer
		cust.Billing, cust.Shipping = billing, shipping
		if err := s.d.Checkout.SetCustomer(ctx, o.CartSession, cust); err != nil {
			s.log.Warn("wallet: keep PayPal's address on the cart", "order", o.ID, "err", err)
		}
	}
	return ErrTotalChanged
}

// paypalShipping is the shipping address of a PayPal order (with the
// name PayPal has for it), if it has one.
func paypalShipping(ppo *paypal.Order) (cart.Address, bool) {
	if len(ppo.PurchaseUnits) == 0 || ppo.PurchaseUnits[0].Shipping == nil || ppo.PurchaseUnits[0].Shipping.Address == nil {
		return cart.Address{}, false
	}
	sd := ppo.PurchaseUnits[0].Shipping
	a := sd.Address
	ship := cart.Address{Address1: a.AddressLine1, Address2: a.AddressLine2, City: a.AdminArea2, State: a.AdminArea1,
		Postcode: a.PostalCode, Country: a.CountryCode}
	if sd.Name != nil && sd.Name.FullName != "" {
		ship.FirstName, ship.LastName, _ = strings.Cut(sd.Name.FullName, " ")
	}
	return ship, ship.Address1 != "" && ship.Country != ""
}

// sameLocation: two addresses name the same place (what taxes, shipping
// and delivery read), after cleaning.
func sameLocation(a, b cart.Address) bool {
	a, b = cleanAddress(a), cleanAddress(b)
	return a.Address1 == b.Address1 && a.Address2 == b.Address2 && a.City == b.City && strings.EqualFold(a.State, b.State) &&
		a.Postcode == b.Postcode && strings.EqualFold(a.Country, b.Country)
}

// orderUnit is a placed order's purchase unit in its own currency.
func (s *Service) orderUnit(ctx context.Context, o *checkout.Order) (paypal.PurchaseUnit, error) {
	cur, err := s.d.Checkout.Currency(ctx, o.Currency)
	if err != nil {
		return paypal.PurchaseUnit{}, err
	}
	return OrderPurchaseUnit(o, cur)
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
	ship, _ := paypalShipping(ppo)
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

// capture captures an order in capture_requested with its
// stored key and settles the result.
func (s *Service) capture(ctx context.Context, o *checkout.Order) (*checkout.Order, error) {
	key := o.ProviderRequestID
	if !strings.HasSuffix(key, "-capture") {
		key = captureKey(o.ID)
	}
	cctx, cancel := s.callCtx(ctx)
	ppo, err := s.pp.CaptureOrder(cctx, o.ProviderOrderID, key)
	cancel()
	if err == nil {
		return s.settle(ctx, o, ppo)
	}
	switch {
	case paypal.HasIssue(err, paypal.IssueOrderAlreadyCaptured):
		cctx, cancel := s.callCtx(ctx)
		ppo, gerr := s.pp.GetOrder(cctx, o.ProviderOrderID)
		cancel()
		if gerr != nil {
			return o, gerr
		}
		return s.settle(ctx, o, ppo)
	case paypal.HasIssue(err, paypal.IssueInstrumentDeclined):
		s.resetDeclined(ctx, o)
		return nil, ErrDeclined
	case paypal.HasIssue(err, paypal.IssueOrderNotApproved), paypal.HasIssue(err, paypal.IssuePayerActionRequired):
		s.resetDeclined(ctx, o)
		return nil, ErrNotApproved
	}
	return o, err // no answer or a 5xx: outcome unknown; the key makes a retry safe
}

// resetDeclined puts a declined order back where the buyer can approve it
// again with another funding source: capture_requested → failed →
// wallet_order_created.
func (s *Service) resetDeclined(ctx context.Context, o *checkout.Order) {
	now := s.now()
	err := s.d.Store.SetPaymentState(ctx, o.ID, checkout.PayCaptureRequested, checkout.PayFailed, payment.ProviderIDs{}, now)
	if err == nil {
		err = s.d.Store.SetPaymentState(ctx, o.ID, checkout.PayFailed, checkout.PayWalletOrderCreated, payment.ProviderIDs{}, now)
	}
	if err != nil && !errors.Is(err, payment.ErrPaymentState) {
		s.log.Error("wallet: reset a declined order", "order", o.ID, "err", err)
	}
}

// settle records what PayPal says of an order's capture: a
// COMPLETED capture of exactly the order's total pays the order; PENDING
// (or a completed capture of another amount, which a person must look at)
// puts it on-hold; DECLINED or FAILED fails it. The cart the order came
// from is emptied once the order leaves pending.
func (s *Service) settle(ctx context.Context, o *checkout.Order, ppo *paypal.Order) (*checkout.Order, error) {
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
		cur, cerr := s.d.Checkout.Currency(ctx, o.Currency)
		if cerr != nil {
			return o, cerr
		}
		if !captureMatches(o, cur, c) {
			s.log.Error("wallet: captured amount differs from the order total; order put on-hold", "order", o.ID, "capture", c.ID)
			changed, err = s.d.Store.HoldOrderForCapture(ctx, o.ID, c.ID, now)
			break
		}
		changed, err = s.d.Store.MarkOrderPaid(ctx, o.ID, c.ID, now)
	case paypal.CaptureStatusPending:
		changed, err = s.d.Store.HoldOrderForCapture(ctx, o.ID, c.ID, now)
	case paypal.CaptureStatusDeclined, paypal.CaptureStatusFailed:
		changed, err = s.d.Store.FailOrderPayment(ctx, o.ID, now)
	}
	if err != nil {
		return o, err
	}
	if changed {
		s.kickMail() // a paid order's mails were queued with it
	}
	if changed && wasPending {
		if err := s.d.Checkout.ClearCart(ctx, o.CartSession); err != nil {
			s.log.Warn("wallet: empty the paid cart", "order", o.ID, "err", err)
		}
	}
	return s.d.Store.Order(ctx, o.ID)
}

// captureMatches: the capture is the order's total in the order's
// currency, exactly (cur is how the shop writes that currency).
func captureMatches(o *checkout.Order, cur money.Currency, c paypal.Capture) bool {
	if c.Amount == nil || c.Amount.CurrencyCode != o.Currency || cur.Code != o.Currency {
		return false
	}
	v, err := c.Amount.Minor()
	if err != nil {
		return false
	}
	total, err := paypal.FromPayPal(o.Currency, cur.MinorUnit, v)
	return err == nil && total == o.Total
}

// Return finishes the order of a buyer back from the approval page: token
// is the PayPal order id, which names the order (a buyer may come back in
// another browser than the one that placed it). It answers the order after
// the step it reached: ErrUnknownOrder for a token the shop does not know;
// ErrDeclined when the funding source was declined (the buyer may approve
// again); another *Error for a refusal. Another error is an unknown outcome
// (PayPal did not answer) when the order is not nil: a reload, the webhook
// or the reconciler finishes it with the same capture key; with a nil order
// the order could not be read.
func (s *Service) Return(ctx context.Context, token string) (*checkout.Order, error) {
	if token == "" || len(token) > 64 {
		return nil, ErrUnknownOrder
	}
	o, err := s.d.Store.OrderByProviderOrderID(ctx, token)
	if isNotFound(err) {
		return nil, ErrUnknownOrder
	}
	if err != nil {
		return nil, err
	}
	done, err := s.complete(ctx, o)
	var we *Error
	if err != nil && !errors.As(err, &we) && done == nil {
		done = o
	}
	return done, err
}

// ownOrder finds the shop order of a PayPal order id posted by a session;
// another session's order is unknown to it.
func (s *Service) ownOrder(ctx context.Context, session, paypalOrderID string) (*checkout.Order, error) {
	if paypalOrderID == "" || len(paypalOrderID) > 64 {
		return nil, ErrUnknownOrder
	}
	o, err := s.d.Store.OrderByProviderOrderID(ctx, paypalOrderID)
	if isNotFound(err) || err == nil && o.CartSession != session {
		return nil, ErrUnknownOrder
	}
	return o, err
}

// Approve finishes a session's order whose buyer approved it in PayPal's
// window: it is captured and paid at once (there is no final review page).
func (s *Service) Approve(ctx context.Context, session, paypalOrderID string) (*checkout.Order, error) {
	o, err := s.ownOrder(ctx, session, paypalOrderID)
	if err != nil {
		return nil, err
	}
	return s.complete(ctx, o)
}

// PayPalOrder is one of a session's orders and its PayPal order as PayPal
// has it now.
func (s *Service) PayPalOrder(ctx context.Context, session, paypalOrderID string) (*checkout.Order, *paypal.Order, error) {
	o, err := s.ownOrder(ctx, session, paypalOrderID)
	if err != nil {
		return nil, nil, err
	}
	cctx, cancel := s.callCtx(ctx)
	ppo, err := s.pp.GetOrder(cctx, o.ProviderOrderID)
	cancel()
	if err != nil {
		return nil, nil, err
	}
	return o, ppo, nil
}
