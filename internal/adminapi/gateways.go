package adminapi

import (
	"net/http"
	"strings"

	"vitrine/internal/payment"
	"vitrine/internal/settings"
)

// Payment gateways: WooCommerce REST v3's /wc/v3/payment_gateways on the
// shop's payment methods (settings.Payments, payments.go's screen): bank
// transfer (bacs), cash on delivery (cod) and the PayPal wallet
// (ppcp-gateway), in the checkout's order. A PUT turns a method on or off
// and changes the offline methods' title and text (WooCommerce's title,
// description, settings.title, settings.instructions); PayPal's
// credentials stay on the admin's screen (enabling it runs the same check
// with PayPal), and the order is fixed (decision 0090).

const gatewaysPath = wcPrefix + "/payment_gateways"

var errGatewayID = &Error{Status: http.StatusNotFound, Code: "woocommerce_rest_payment_gateway_invalid", Message: "Resource does not exist."}

type gatewayJSON struct {
	ID                   string                 `json:"id"`
	Title                string                 `json:"title"`
	Description          string                 `json:"description"`
	Order                int                    `json:"order"`
	Enabled              bool                   `json:"enabled"`
	MethodTitle          string                 `json:"method_title"`
	MethodDescription    string                 `json:"method_description"`
	MethodSupports       []string               `json:"method_supports"`
	Settings             map[string]settingJSON `json:"settings"`
	NeedsSetup           bool                   `json:"needs_setup"`
	PostInstallScripts   []any                  `json:"post_install_scripts"`
	SettingsURL          string                 `json:"settings_url"`
	ConnectionURL        *string                `json:"connection_url"`
	SetupHelpText        *string                `json:"setup_help_text"`
	RequiredSettingsKeys []string               `json:"required_settings_keys"`
	Links                map[string][]any       `json:"_links"`
}

var gatewayIDs = []string{payment.BankTransferID, payment.CashOnDeliveryID, payment.WalletGatewayID}

func (a *API) gatewaysOut(p settings.Payments) []gatewayJSON {
	out := make([]gatewayJSON, 0, len(gatewayIDs))
	for i, id := range gatewayIDs {
		out = append(out, a.gatewayOut(p, id, i+1))
	}
	return out
}

func (a *API) gatewayOut(p settings.Payments, id string, order int) gatewayJSON {
	titleSetting := func(value, def string) settingJSON {
		return settingJSON{ID: "title", Label: "Title", Type: "safe_text", Value: value, Default: def,
			Description: "This controls the title which the user sees during checkout.",
			Tip:         "This controls the title which the user sees during checkout."}
	}
	instructions := func(value string) settingJSON {
		return settingJSON{ID: "instructions", Label: "Instructions", Type: "textarea", Value: value,
			Description: "Instructions that will be added to the thank you page and emails.",
			Tip:         "Instructions that will be added to the thank you page and emails."}
	}
	g := gatewayJSON{ID: id, Order: order, MethodSupports: []string{"products"}, PostInstallScripts: []any{}, RequiredSettingsKeys: []string{},
		SettingsURL: a.d.BaseURL + "/wp-admin/admin.php?page=wc-settings&tab=checkout",
		Links: map[string][]any{
			"self":       {allow(a.d.BaseURL+gatewaysPath+"/"+id, "GET", "POST", "PUT", "PATCH")},
			"collection": {link(a.d.BaseURL + gatewaysPath)},
		}}
	switch id {
	case payment.BankTransferID:
		m := payment.BankTransfer{Label: p.BankTransfer.Title, Text: p.BankTransfer.Description}
		g.Title, g.Description, g.Enabled = m.Title(), m.Description(), p.BankTransfer.Enabled
		g.MethodTitle, g.MethodDescription = "Direct bank transfer", "Take payments in person via BACS. More commonly known as direct bank/wire transfer."
		g.Settings = map[string]settingJSON{"title": titleSetting(m.Title(), "Direct bank transfer"), "instructions": instructions(m.Instructions())}
	case payment.CashOnDeliveryID:
		m := payment.CashOnDelivery{Label: p.CashOnDelivery.Title, Text: p.CashOnDelivery.Instructions}
		g.Title, g.Description, g.Enabled = m.Title(), m.Description(), p.CashOnDelivery.Enabled
		g.MethodTitle, g.MethodDescription = "Cash on delivery", "Let your shoppers pay upon delivery — by cash or other methods of payment."
		g.Settings = map[string]settingJSON{"title": titleSetting(m.Title(), "Cash on delivery"), "instructions": instructions(m.Instructions())}
	default:
		m := payment.Wallet{}
		g.Title, g.Description, g.Enabled = m.Title(), m.Description(), p.PayPal.Enabled
		g.MethodTitle, g.MethodDescription = "PayPal", "PayPal's wallet: the buyer approves at PayPal, the order is paid when the capture completes."
		g.NeedsSetup = p.PayPal.ClientID == "" || p.PayPal.Secret == ""
		g.Settings = map[string]settingJSON{"title": titleSetting(m.Title(), "PayPal")}
	}
	return g
}

// GET /wp-json/wc/v3/payment_gateways
func (a *API) gatewaysList(w http.ResponseWriter, _ *http.Request, _ Staff) error {
	WriteAll(w, a.gatewaysOut(a.d.Payments.Current().Value))
	return nil
}

func gatewayIndex(r *http.Request) (int, error) {
	for i, id := range gatewayIDs {
		if id == r.PathValue("id") {
			return i, nil
		}
	}
	return 0, errGatewayID
}

// GET /wp-json/wc/v3/payment_gateways/{id}
func (a *API) gatewayGet(w http.ResponseWriter, r *http.Request, _ Staff) error {
	i, err := gatewayIndex(r)
	if err != nil {
		return err
	}
	WriteJSON(w, http.StatusOK, a.gatewayOut(a.d.Payments.Current().Value, gatewayIDs[i], i+1))
	return nil
}

type gatewayBody struct {
	Enabled     *bool             `json:"enabled"`
	Title       *string           `json:"title"`
	Description *string           `json:"description"`
	Order       *int              `json:"order"`
	Settings    map[string]string `json:"settings"`
}

// PUT /wp-json/wc/v3/payment_gateways/{id} {enabled, title, description, settings}
func (a *API) gatewayUpdate(w http.ResponseWriter, r *http.Request, _ Staff) error {
	i, err := gatewayIndex(r)
	if err != nil {
		return err
	}
	id := gatewayIDs[i]
	var b gatewayBody
	if err := Decode(r, &b); err != nil {
		return err
	}
	if b.Order != nil && *b.Order != i+1 {
		return InvalidParam("order", "Vitrine's checkout lists its payment methods in a fixed order.")
	}
	title, text := b.Title, b.Description
	for k, v := range b.Settings {
		v := v
		switch {
		case k == "title":
			title = &v
		case k == "instructions" && id != payment.WalletGatewayID:
			text = &v
		default:
			return InvalidParam("settings."+k, "Not a setting of this payment method in Vitrine.")
		}
	}
	if id == payment.WalletGatewayID && (title != nil || text != nil) {
		return InvalidParam("title", "PayPal's title and text are fixed; its credentials are set in the admin's Payments screen.")
	}
	d, err := a.d.Payments.Edit(r.Context(), func(p *settings.Payments) error {
		switch id {
		case payment.BankTransferID:
			setOpt(&p.BankTransfer.Enabled, b.Enabled)
			setOpt(&p.BankTransfer.Title, title)
			setOpt(&p.BankTransfer.Description, text)
		case payment.CashOnDeliveryID:
			setOpt(&p.CashOnDelivery.Enabled, b.Enabled)
			setOpt(&p.CashOnDelivery.Title, title)
			setOpt(&p.CashOnDelivery.Instructions, text)
		default:
			setOpt(&p.PayPal.Enabled, b.Enabled)
		}
		return nil
	})
	if err != nil {
		return gatewayError(paymentsError(err))
	}
	g := a.gatewayOut(d.Value, id, i+1)
	Note(r, "settings.payments", "settings", 0, "Payment method "+g.Title+" saved through the REST API "+onOff(g.Enabled))
	WriteJSON(w, http.StatusOK, g)
	return nil
}

// gatewayError names the REST field of a payments document's refusal
// ("bacs.title" is title, "cod.instructions" description).
func gatewayError(err error) error {
	e, ok := err.(*Error)
	if !ok || e.Code != "rest_invalid_param" {
		return err
	}
	for field := range e.Data["params"].(map[string]string) {
		_, f, _ := strings.Cut(field, ".")
		switch f {
		case "description", "instructions":
			f = "description"
		case "title":
		default:
			return err
		}
		return InvalidParam(f, e.Data["params"].(map[string]string)[field])
	}
	return err
}

func setOpt[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}
