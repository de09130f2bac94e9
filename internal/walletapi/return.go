package walletapi

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"vitrine/internal/checkout"
	"vitrine/internal/httpx"
	"vitrine/internal/pages"
	"vitrine/internal/payment/wallet"
)

// Return answers GET /checkout/paypal-return/?token=…&PayerID=…, where
// the approval page sends the buyer: the service captures, and the buyer
// is sent to the order (or back to the checkout with a notice). The PayPal
// order id in token is what names the order.
func (a *API) Return(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	w.Header().Set("Referrer-Policy", "no-referrer")
	if a.d.Wallet == nil {
		a.d.Pages.NotFound(w, r)
		return
	}
	done, err := a.d.Wallet.Return(r.Context(), strings.TrimSpace(r.URL.Query().Get("token")))
	a.clearEmptiedCartCookies(w, r, done)
	var we *wallet.Error
	switch {
	case err == nil:
		http.Redirect(w, r, a.d.OrderReceivedURL(done), http.StatusSeeOther)
	case errors.Is(err, wallet.ErrDeclined):
		http.Redirect(w, r, "/checkout/?wallet=declined", http.StatusSeeOther)
	case errors.Is(err, wallet.ErrTotalChanged):
		// Nothing was charged: the checkout shows the total for the
		// address chosen at PayPal, and the buyer pays again.
		http.Redirect(w, r, "/checkout/?wallet=total", http.StatusSeeOther)
	case errors.As(err, &we):
		http.Redirect(w, r, "/checkout/?wallet=error", http.StatusSeeOther)
	case done == nil:
		a.d.Pages.PageError(w, "wallet return", err)
	default:
		// The outcome is unknown (PayPal did not answer): the order page
		// shows it pending; a reload, the webhook or the reconciler
		// finishes it with the same capture key.
		a.d.Log.Warn("wallet: capture outcome unknown", "order", done.ID, "err", err)
		http.Redirect(w, r, a.d.OrderReceivedURL(done), http.StatusSeeOther)
	}
}

// clearEmptiedCartCookies: a paid (or on-hold) wallet order emptied its
// cart, so the buyer's woocommerce_items_in_cart and woocommerce_cart_hash
// cookies are cleared, as a placed bank-transfer order's are; else every
// later page's header would still show the cart's items. Only in the
// browser of the order's own session, and only when that cart is empty
// now (a buyer back in another browser keeps that browser's cart).
func (a *API) clearEmptiedCartCookies(w http.ResponseWriter, r *http.Request, o *checkout.Order) {
	if o == nil || o.Status == checkout.StatusPending {
		return
	}
	if sess := a.d.Sessions.SessionNamed(r, a.d.Now()); sess.ID != o.CartSession {
		return
	}
	c, err := a.d.Carts.Get(r.Context(), o.CartSession)
	if err != nil || len(c.Lines) > 0 {
		return
	}
	a.d.SetCartCookies(w, r, false, "")
}

// notice is the checkout page's notice after a wallet redirect
// (?wallet=cancelled, declined, error or total), or nil.
func (a *API) notice(r *http.Request) []string {
	if a.d.Wallet == nil {
		return nil
	}
	switch r.URL.Query().Get("wallet") {
	case "cancelled":
		return []string{msgCancelled}
	case "declined":
		return []string{msgDeclined}
	case "error":
		return []string{msgGeneric}
	case "total":
		return []string{wallet.MsgTotalChanged}
	}
	return nil
}

// CheckoutNotices is notice as the checkout page's notices.
func (a *API) CheckoutNotices(r *http.Request) *pages.CheckoutErrors {
	n := a.notice(r)
	if n == nil {
		return nil
	}
	return &pages.CheckoutErrors{Notices: n, Fields: map[string]string{}}
}

// CheckoutView is the checkout page's wallet data, or nil without the wallet.
func (a *API) CheckoutView(sess httpx.Session, now time.Time) *pages.WalletView {
	if a.d.Wallet == nil {
		return nil
	}
	return &pages.WalletView{Nonces: a.nonces(sess, now)}
}
