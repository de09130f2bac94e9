package adminapi

import (
	"errors"
	"net/http"
	"strings"

	"vitrine/internal/payment"
	"vitrine/internal/payment/paypal"
	"vitrine/internal/settings"
)

// Payment methods (settings.Payments, kept by settings.PaymentMethods):
// the whole document read and saved at once, versioned like the shop's
// settings. The PayPal secret is write-only: answers say secret_set, and a
// save without a secret keeps the one in force.

type paypalJSON struct {
	Enabled     bool   `json:"enabled"`
	ClientID    string `json:"client_id"`
	Secret      string `json:"secret,omitempty"` // requests only
	SecretSet   bool   `json:"secret_set"`
	Environment string `json:"environment"`
}

type paymentsJSON struct {
	BankTransfer   settings.BankTransfer   `json:"bacs"`
	CashOnDelivery settings.CashOnDelivery `json:"cod"`
	PayPal         paypalJSON              `json:"paypal"`
	// PayPalAppliesAtRestart says the wallet takes saved PayPal settings at the
	// next start (answers only).
	PayPalAppliesAtRestart bool   `json:"paypal_applies_at_restart"`
	Version                int64  `json:"version"`
	UpdatedAt              string `json:"updated_at,omitempty"`
}

func paymentsOut(d settings.Doc[settings.Payments]) paymentsJSON {
	p := d.Value
	out := paymentsJSON{BankTransfer: p.BankTransfer, CashOnDelivery: p.CashOnDelivery, Version: d.Version, UpdatedAt: savedAt(d.UpdatedAt),
		PayPalAppliesAtRestart: true, PayPal: paypalJSON{Enabled: p.PayPal.Enabled, ClientID: p.PayPal.ClientID, SecretSet: p.PayPal.Secret != "", Environment: p.PayPal.Environment}}
	if out.BankTransfer.Accounts == nil {
		out.BankTransfer.Accounts = []payment.BankAccount{}
	}
	return out
}

// GET /wp-json/vitrine/v1/admin/payments
func (a *API) paymentsGet(w http.ResponseWriter, _ *http.Request, _ Staff) error {
	WriteJSON(w, http.StatusOK, paymentsOut(a.d.Payments.Current()))
	return nil
}

// PUT /wp-json/vitrine/v1/admin/payments: the whole document and the
// version it was based on. PayPal credentials that changed are checked
// with PayPal first; refused ones save nothing.
func (a *API) paymentsPut(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var in paymentsJSON
	version, err := decodeSave(r, &in)
	if err != nil {
		return err
	}
	p := settings.Payments{BankTransfer: in.BankTransfer, CashOnDelivery: in.CashOnDelivery,
		PayPal: settings.PayPal{Enabled: in.PayPal.Enabled, ClientID: in.PayPal.ClientID, Secret: in.PayPal.Secret, Environment: in.PayPal.Environment}}
	before := a.d.Payments.Current().Value
	d, err := a.d.Payments.Update(r.Context(), p, version)
	if errors.Is(err, settings.ErrStale) {
		return staleSettings("the payment methods", paymentsOut(a.d.Payments.Current()))
	}
	if err != nil {
		return paymentsError(err)
	}
	Note(r, "settings.payments", "settings", 0, paymentsSummary(before, d.Value))
	WriteJSON(w, http.StatusOK, paymentsOut(d))
	return nil
}

// POST /wp-json/vitrine/v1/admin/payments/paypal/test {client_id, secret,
// environment}: the test call alone. Without a secret, the one in force.
func (a *API) paymentsPayPalTest(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var in paypalJSON
	if err := Decode(r, &in); err != nil {
		return err
	}
	p := settings.PayPal{ClientID: in.ClientID, Secret: in.Secret, Environment: in.Environment}
	if strings.TrimSpace(p.Secret) == "" {
		p.Secret = a.d.Payments.Current().Value.PayPal.Secret
	}
	if err := a.d.Payments.TestPayPal(r.Context(), p); err != nil {
		return paymentsError(err)
	}
	Note(r, "settings.payments.paypal_test", "settings", 0, "PayPal credentials checked ("+p.Environment+"): accepted")
	WriteJSON(w, http.StatusOK, map[string]any{"ok": true, "environment": strings.TrimSpace(p.Environment),
		"message": "PayPal accepted the credentials."})
	return nil
}

// paymentsError maps the payments document's refusals.
func paymentsError(err error) error {
	var ie *settings.InputError
	var ce *settings.CheckError
	var ae *paypal.APIError
	switch {
	case errors.As(err, &ie):
		return InvalidParam(ie.Field, ie.Message)
	case errors.As(err, &ce) && errors.As(err, &ae):
		// Staff see PayPal's own answer: it is what they need to fix it.
		msg := ae.Name
		if ae.Message != "" {
			msg += ": " + ae.Message
		}
		return &Error{Status: http.StatusBadRequest, Code: "vitrine_paypal_refused",
			Message: "PayPal refused the credentials (" + msg + "). Nothing was saved.",
			Data:    map[string]any{"params": map[string]string{"paypal.client_id": msg}, "paypal_status": ae.Status}}
	case errors.As(err, &ce):
		return &Error{Status: http.StatusBadGateway, Code: "vitrine_paypal_unreachable",
			Message: "PayPal could not be reached to check the credentials (" + ce.Err.Error() + "). Nothing was saved."}
	}
	return err
}

// paymentsSummary names what a save changed, for the audit log (never
// the secret itself).
func paymentsSummary(old, cur settings.Payments) string {
	var changed []string
	add := func(name string, differ bool) {
		if differ {
			changed = append(changed, name)
		}
	}
	add("bank transfer "+onOff(cur.BankTransfer.Enabled), old.BankTransfer.Enabled != cur.BankTransfer.Enabled)
	add("bank transfer text", old.BankTransfer.Title != cur.BankTransfer.Title || old.BankTransfer.Description != cur.BankTransfer.Description)
	add("bank accounts", !sameAccounts(old.BankTransfer, cur.BankTransfer))
	add("cash on delivery "+onOff(cur.CashOnDelivery.Enabled), old.CashOnDelivery.Enabled != cur.CashOnDelivery.Enabled)
	add("cash on delivery text", old.CashOnDelivery.Title != cur.CashOnDelivery.Title || old.CashOnDelivery.Instructions != cur.CashOnDelivery.Instructions)
	add("PayPal "+onOff(cur.PayPal.Enabled), old.PayPal.Enabled != cur.PayPal.Enabled)
	add("PayPal credentials", old.PayPal.ClientID != cur.PayPal.ClientID || old.PayPal.Secret != cur.PayPal.Secret ||
		old.PayPal.Environment != cur.PayPal.Environment)
	if len(changed) == 0 {
		return "Payment methods saved unchanged"
	}
	return "Payment methods: changed " + strings.Join(changed, ", ")
}

func sameAccounts(a, b settings.BankTransfer) bool {
	if len(a.Accounts) != len(b.Accounts) {
		return false
	}
	for i := range a.Accounts {
		if a.Accounts[i] != b.Accounts[i] {
			return false
		}
	}
	return true
}
