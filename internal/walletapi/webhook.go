package walletapi

import (
	"errors"
	"io"
	"net/http"

	"vitrine/internal/httpx"
	"vitrine/internal/payment/paypal"
	"vitrine/internal/payment/wallet"
)

// Webhook answers POST /wp-json/paypal/v1/incoming, PayPal's webhook
// deliveries. The signature is verified first (the wallet's PayPal
// client): a rejected delivery answers 400 and changes nothing; a
// certificate that cannot be fetched answers 503 so PayPal delivers again.
// The wallet service applies the event once; when it could not be
// recorded or handled the answer is 503, so PayPal delivers it again.
func (a *API) Webhook(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	if a.d.Wallet == nil {
		a.d.NoRoute(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		httpx.WriteError(w, http.StatusRequestEntityTooLarge, "rest_request_too_large", "The request body is too large.", nil)
		return
	}
	ctx := r.Context()
	ev, err := a.d.Wallet.Config().PayPal.VerifyWebhook(ctx, r.Header, body)
	if err != nil {
		if paypal.IsNetworkError(err) {
			a.d.Log.Warn("wallet webhook: certificate unavailable", "err", err)
			httpx.WriteError(w, http.StatusServiceUnavailable, "paypal_webhook_unavailable", "The webhook could not be verified now; deliver it again.", nil)
			return
		}
		a.d.Log.Warn("wallet webhook: rejected", "err", err)
		httpx.WriteError(w, http.StatusBadRequest, "paypal_webhook_rejected", "The webhook signature is not valid.", nil)
		return
	}
	duplicate, err := a.d.Wallet.HandleEvent(ctx, ev)
	switch {
	case errors.Is(err, wallet.ErrEventNotRecorded):
		httpx.WriteError(w, http.StatusServiceUnavailable, "paypal_webhook_unavailable", "The webhook could not be recorded now; deliver it again.", nil)
	case err != nil:
		httpx.WriteError(w, http.StatusServiceUnavailable, "paypal_webhook_unavailable", "The webhook could not be handled now; deliver it again.", nil)
	case duplicate:
		httpx.WriteJSON(w, http.StatusOK, map[string]any{"received": true, "duplicate": true})
	default:
		httpx.WriteJSON(w, http.StatusOK, map[string]any{"received": true})
	}
}
