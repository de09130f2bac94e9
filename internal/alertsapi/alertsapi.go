// Package alertsapi is the back-in-stock alerts' HTTP surface: the "Notify
// me when available" form's post, the guest's confirmation link and the
// unsubscribe link (a page with a button on GET; the one-click POST of RFC
// 8058 from the mail's List-Unsubscribe-Post header works without login).
// The link pages are small server-side templates, whole in themselves, as
// the privacy links' are: the person may open them from a mail anywhere.
package alertsapi

import (
	"encoding/json"
	"errors"
	"log/slog"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"vitrine/internal/alerts"
	"vitrine/internal/botcheck"
	"vitrine/internal/httpx"
)

// Deps is what the surface uses.
type Deps struct {
	Alerts   *alerts.Service
	SiteName func() string
	// KickMail wakes the mail worker (a confirmation mail was queued).
	KickMail func()
	Log      *slog.Logger
}

// API serves the routes.
type API struct{ d Deps }

// New builds the surface.
func New(d Deps) *API {
	if d.Log == nil {
		d.Log = slog.Default()
	}
	return &API{d: d}
}

// Subscribed is the JSON answer to a subscription.
type Subscribed struct {
	Status  string `json:"status"` // pending (check your mail) or waiting
	Message string `json:"message"`
}

// The field names of the form.
const (
	FieldItem     = "product_id" // the simple product's or the chosen variation's id
	FieldEmail    = "email"
	FieldBotcheck = "altcha"
)

const postLimit = 8 << 10

// refusal is a subscription error's answer: status, code and message.
func refusal(err error) (int, string, string) {
	switch {
	case errors.Is(err, alerts.ErrInvalidEmail):
		return http.StatusBadRequest, "vitrine_alert_invalid_email", "Please enter a valid email address."
	case errors.Is(err, alerts.ErrUnknownItem):
		return http.StatusNotFound, "vitrine_alert_unknown_product", "This product could not be found."
	case errors.Is(err, alerts.ErrInStock):
		return http.StatusConflict, "vitrine_alert_in_stock", "This product is in stock: you can buy it now."
	case errors.Is(err, alerts.ErrChooseOption):
		return http.StatusBadRequest, "vitrine_alert_choose_option", "Please choose the product's options first."
	case botcheck.IsRefusal(err):
		return http.StatusForbidden, "vitrine_botcheck_failed", "The bot check could not be verified. Please try again."
	}
	return http.StatusServiceUnavailable, "vitrine_alert_unavailable", "Your request could not be saved now. Please try again in a few minutes."
}

// Subscribe answers POST /stock-alerts/subscribe/: JSON when the client
// accepts it (the form's script), else a small page (no script).
func (a *API) Subscribe(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	wantJSON := strings.Contains(r.Header.Get("Accept"), "application/json")
	fail := func(status int, code, msg string) {
		if wantJSON {
			httpx.WriteError(w, status, code, msg, nil)
			return
		}
		a.render(w, status, page{Title: "We could not set up your alert", Problem: true, Lead: []string{msg}, Links: backLinks(r.Referer())})
	}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct != "application/x-www-form-urlencoded" && ct != "multipart/form-data" {
		fail(http.StatusUnsupportedMediaType, "vitrine_alert_content_type", "The form must be sent as a form.")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, postLimit)
	var err error
	if ct == "multipart/form-data" {
		err = r.ParseMultipartForm(postLimit)
	} else {
		err = r.ParseForm()
	}
	if err != nil {
		fail(http.StatusBadRequest, "vitrine_alert_bad_form", "The form could not be read.")
		return
	}
	id, err := strconv.ParseInt(strings.TrimSpace(r.PostFormValue(FieldItem)), 10, 64)
	if err != nil || id <= 0 {
		status, code, msg := refusal(alerts.ErrUnknownItem)
		fail(status, code, msg)
		return
	}
	in := alerts.SubscribeInput{ItemID: id, Email: r.PostFormValue(FieldEmail), User: httpx.UserOf(r), Botcheck: r.PostFormValue(FieldBotcheck)}
	s, err := a.d.Alerts.Subscribe(r.Context(), in)
	if err != nil {
		status, code, msg := refusal(err)
		if status == http.StatusServiceUnavailable {
			a.d.Log.Error("stock alert subscribe", "err", err)
		}
		fail(status, code, msg)
		return
	}
	msg := "Thank you. We will email you once when this item is back in stock."
	if s.Status == alerts.StatusPending {
		msg = "Please check your inbox: open the link we sent you to confirm the alert."
		if !s.Already && a.d.KickMail != nil {
			a.d.KickMail()
		}
	}
	if wantJSON {
		httpx.WriteJSON(w, http.StatusOK, Subscribed{Status: s.Status, Message: msg})
		return
	}
	a.render(w, http.StatusOK, page{Title: "Back-in-stock alert", Lead: []string{msg}, Links: backLinks(r.Referer())})
}

// token is the link's token, or false when it is missing or too long.
func token(r *http.Request) (string, bool) {
	t := r.FormValue("token")
	return t, t != "" && len(t) <= 100
}

var linkGone = page{Title: "This link was already used or has expired", Problem: true,
	Lead: []string{"A confirmation link works once, for 48 hours. Ask for the alert again on the product's page if you still want it."}}

// Confirm answers GET /stock-alerts/confirm/?token=…: what the link is for
// and a button (a mail scanner fetching the link confirms nothing).
func (a *API) Confirm(w http.ResponseWriter, r *http.Request) {
	tok, ok := token(r)
	if !ok {
		a.render(w, http.StatusBadRequest, page{Title: "This link is not valid", Problem: true,
			Lead: []string{"Open the link from the email again, whole: some mail programs cut long links."}})
		return
	}
	al, it, err := a.d.Alerts.PendingConfirm(r.Context(), tok)
	if errors.Is(err, alerts.ErrLinkInvalid) || errors.Is(err, alerts.ErrUnknownItem) {
		a.render(w, http.StatusGone, linkGone)
		return
	}
	if err != nil {
		a.unavailable(w, "stock alert confirm page", err)
		return
	}
	a.render(w, http.StatusOK, page{Title: "Confirm your back-in-stock alert", Action: alerts.ConfirmPath, Token: tok, Button: "Confirm alert",
		Lead: []string{"We will email " + al.Email + " once when \u201c" + it.Name + "\u201d is back in stock."}})
}

// ConfirmPost answers POST /stock-alerts/confirm/.
func (a *API) ConfirmPost(w http.ResponseWriter, r *http.Request) {
	tok, ok := token(r)
	if !ok {
		a.render(w, http.StatusGone, linkGone)
		return
	}
	_, err := a.d.Alerts.Confirm(r.Context(), tok)
	if errors.Is(err, alerts.ErrLinkInvalid) {
		a.render(w, http.StatusGone, linkGone)
		return
	}
	if err != nil {
		a.unavailable(w, "stock alert confirm", err)
		return
	}
	a.render(w, http.StatusOK, page{Title: "Your alert is confirmed",
		Lead: []string{"We will email you once when the item is back in stock. Each email has a link to stop them."}})
}

// Unsubscribe answers GET /stock-alerts/unsubscribe/?token=…: a button.
func (a *API) Unsubscribe(w http.ResponseWriter, r *http.Request) {
	tok, ok := token(r)
	if !ok || !a.d.Alerts.CheckUnsubscribe(tok) {
		a.render(w, http.StatusBadRequest, page{Title: "This link is not valid", Problem: true,
			Lead: []string{"Open the link from the email again, whole: some mail programs cut long links."}})
		return
	}
	a.render(w, http.StatusOK, page{Title: "Stop these emails?", Action: alerts.UnsubscribePath, Token: tok, Button: "Unsubscribe",
		Lead: []string{"You will get no more back-in-stock or price-drop emails of this kind from us."}})
}

// UnsubscribePost answers POST /stock-alerts/unsubscribe/?token=… (the
// page's button, or a mail client's one-click post with the body
// List-Unsubscribe=One-Click). It needs no login and is idempotent.
func (a *API) UnsubscribePost(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, postLimit)
	tok, ok := token(r)
	if !ok {
		a.render(w, http.StatusBadRequest, page{Title: "This link is not valid", Problem: true, Lead: []string{"The unsubscribe link is incomplete."}})
		return
	}
	err := a.d.Alerts.Unsubscribe(r.Context(), tok)
	if errors.Is(err, alerts.ErrLinkInvalid) {
		a.render(w, http.StatusBadRequest, page{Title: "This link is not valid", Problem: true, Lead: []string{"The unsubscribe link is incomplete."}})
		return
	}
	if err != nil {
		a.unavailable(w, "stock alert unsubscribe", err)
		return
	}
	a.render(w, http.StatusOK, page{Title: "You are unsubscribed", Lead: []string{"We will send you no more emails of this kind."}})
}

func (a *API) unavailable(w http.ResponseWriter, what string, err error) {
	a.d.Log.Error(what, "err", err)
	a.render(w, http.StatusServiceUnavailable, page{Title: "This could not be done now", Problem: true,
		Lead: []string{"Please try again in a few minutes."}})
}

type page = httpx.LinkPage

func (a *API) render(w http.ResponseWriter, status int, p page) {
	if a.d.SiteName != nil {
		p.Shop = a.d.SiteName()
	}
	if p.Action == "" && len(p.Links) == 0 {
		p.Links = backLinks("")
	}
	if err := p.Write(w, status); err != nil {
		a.d.Log.Error("alerts page", "err", err)
	}
}

// backLinks ends a page without a form: back to the product page the
// shopper came from (the Referer's path, same site only), and to the shop.
func backLinks(referer string) []httpx.PageLink {
	back := referer
	if back != "" && !strings.HasPrefix(back, "/") {
		back = ""
		if i := strings.Index(referer, "://"); i >= 0 {
			rest := referer[i+3:]
			if j := strings.IndexByte(rest, '/'); j >= 0 {
				back = rest[j:]
			}
		}
	}
	if back == "" || strings.HasPrefix(back, "//") {
		return []httpx.PageLink{{Href: "/", Text: "Back to the shop"}}
	}
	return []httpx.PageLink{{Href: back, Text: "Back to the product"}, {Href: "/", Text: "back to the shop"}}
}

// PrefsPath is the logged-in customer's wishlist mail choices (My account).
const PrefsPath = "/wp-json/vitrine/v1/alerts/prefs"

// Prefs answers GET /wp-json/vitrine/v1/alerts/prefs: the customer's choices.
func (a *API) Prefs(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	u := httpx.UserOf(r)
	if u == nil {
		httpx.WriteError(w, http.StatusUnauthorized, "rest_not_logged_in", "You are not currently logged in.", nil)
		return
	}
	p, err := a.d.Alerts.Prefs(r.Context(), u.ID)
	if err != nil {
		a.d.Log.Error("alert prefs", "err", err)
		httpx.WriteError(w, http.StatusServiceUnavailable, "vitrine_alert_unavailable", "Your choices could not be read now.", nil)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, p)
}

// SetPrefs answers POST /wp-json/vitrine/v1/alerts/prefs with a JSON body
// {"back_in_stock": bool, "price_drop": bool}; both fields are required.
func (a *API) SetPrefs(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	u := httpx.UserOf(r)
	if u == nil {
		httpx.WriteError(w, http.StatusUnauthorized, "rest_not_logged_in", "You are not currently logged in.", nil)
		return
	}
	var body struct {
		BackInStock *bool `json:"back_in_stock"`
		PriceDrop   *bool `json:"price_drop"`
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, postLimit))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil || body.BackInStock == nil || body.PriceDrop == nil {
		httpx.WriteError(w, http.StatusBadRequest, "rest_invalid_param", "Send back_in_stock and price_drop, each true or false.", nil)
		return
	}
	p := alerts.Prefs{BackInStock: *body.BackInStock, PriceDrop: *body.PriceDrop}
	if err := a.d.Alerts.SetPrefs(r.Context(), u.ID, p); err != nil {
		a.d.Log.Error("alert prefs", "err", err)
		httpx.WriteError(w, http.StatusServiceUnavailable, "vitrine_alert_unavailable", "Your choices could not be saved now.", nil)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, p)
}
