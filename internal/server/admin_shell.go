package server

import (
	"encoding/json"
	"html/template"
	"net/http"

	"vitrine/internal/adminapi"
	"vitrine/internal/audit"
	"vitrine/internal/catalog"
	"vitrine/internal/coupon"
	"vitrine/internal/httpx"
	"vitrine/internal/orders"
	"vitrine/internal/payment"
	"vitrine/internal/render"
)

// The admin: a React app of its own, web/src/admin, built as a
// second entry of the web build. Storefront pages never reference it (its
// entry is not the storefront's, and a test checks no page names its
// files); this file serves its shell at /wp-admin/ to staff, and mounts
// the JSON API it calls (internal/adminapi).

// adminEntry is the admin app's entry in Vite's manifest.
const adminEntry = "src/admin/main.tsx"

// initAdmin builds the audit log, the admin API and the shell's assets.
func (s *Server) initAdmin() {
	s.audit = &audit.Service{Store: s.db, Now: s.now, Log: s.log}
	// Wallet orders are refunded through PayPal; the others are recorded
	// as manual refunds.
	refunders := map[string]orders.Refunder{}
	if s.wallet != nil {
		refunders[payment.WalletGatewayID] = s.wallet
	}
	s.orders = &orders.Service{Store: s.db, Refunders: refunders, Kick: s.kickMail, Currency: s.currencyOf, Now: s.now, Log: s.log}
	s.initOrderMail()
	s.catalogAdmin = &catalog.Admin{Store: s.db, MinorUnit: s.cfg.Currency.MinorUnit, Now: s.now}
	s.admin = adminapi.New(adminapi.Deps{
		Viewer:     httpx.UserOf,
		ClientIP:   s.clientIP,
		Audit:      s.audit,
		Coupons:    &coupon.Service{Store: s.db, Currency: s.cfg.Checkout.Currency, Now: s.now},
		Settings:   s.settings,
		Rules:      s.rules,
		Payments:   s.paymentSettings,
		Base:       s.cfg.Currency,
		Currencies: s.currencies,
		TestMail:   s.sendTestMail,
		Orders:     s.orders,
		Currency:   s.currencyOf,
		Media:      s.media,
		Log:        s.log,
		Now:        s.now,
		Reviews:    s.reviews,
		Contact:    s.contact,
		BaseURL:    s.cfg.BaseURL,
		// The order screen's address lines leave the shop's country out.
		BaseCountry: s.cfg.Checkout.BaseCountry,
		Catalog:     s.catalogAdmin,
		// The instance that took a catalogue write applies it at once.
		CatalogChanged: s.applyChanges,
	})
	if a, err := render.LoadAssets(s.static, adminEntry); err == nil {
		s.adminAsset = a
	} else {
		s.log.Warn("the admin app is not in the web build", "err", err)
	}
}

// adminData is what the shell inlines for the app: who is logged in, the
// REST nonce its calls carry, and the shop it runs.
type adminData struct {
	User struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
		Role string `json:"role"`
	} `json:"user"`
	Nonce     string `json:"nonce"`
	LogoutURL string `json:"logout_url"`
	Site      struct {
		Name     string `json:"name"`
		URL      string `json:"url"`
		Currency string `json:"currency"`
	} `json:"site"`
}

var adminShell = template.Must(template.New("admin").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>Shop admin – {{.Site}}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
{{- range .Assets.CSS}}
<link rel="stylesheet" href="{{.}}">{{end}}
{{- range .Assets.Preload}}
<link rel="modulepreload" href="{{.}}">{{end}}
</head>
<body>
<div id="admin-root"><p class="admin-loading">Loading the shop admin…</p></div>
<noscript><p>The shop admin needs JavaScript. The shop itself works without it: <a href="/">back to the shop</a>.</p></noscript>
<script type="application/json" id="vitrine-admin-data">{{.Data}}</script>
<script type="module" src="{{.Assets.Script}}"></script>
</body>
</html>
`))

// handleWPAdmin serves the admin app's shell for every /wp-admin/ address
// (its screens route in the browser); visitors and customers are sent to
// the login.
func (s *Server) handleWPAdmin(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Cache-Control", "no-store, private")
	u := httpx.UserOf(r)
	if u == nil || !u.CanEditPages() {
		http.Redirect(w, r, "/my-account/", http.StatusFound)
		return
	}
	if s.adminAsset.Script == "" {
		http.Error(w, "The admin app is missing from this build.", http.StatusServiceUnavailable)
		return
	}
	var d adminData
	d.User.ID, d.User.Name, d.User.Role = u.ID, u.DisplayName, u.Role
	if d.User.Name == "" {
		d.User.Name = u.Email
	}
	d.Nonce = s.RESTNonce(u.ID, httpx.NonceTickAt(s.now()))
	d.LogoutURL = s.myAccount.LogoutURL(r)
	d.Site.Name, d.Site.URL, d.Site.Currency = s.siteName(), s.cfg.BaseURL, s.cfg.Currency.Code
	raw, err := json.Marshal(d)
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("X-Robots-Tag", "noindex, nofollow")
	// template.JS keeps the JSON as is; json.Marshal already escapes <, >
	// and &, so it cannot close the script element.
	_ = adminShell.Execute(w, map[string]any{"Site": s.siteName(), "Assets": s.adminAsset, "Data": template.JS(raw)})
}

// isMediaUpload says whether r is an upload to the media library, the one
// admin route whose body may be larger than MaxBodyBytes (middleware).
func isMediaUpload(r *http.Request) bool {
	return r.Method == http.MethodPost && r.URL.Path == "/wp-json/wp/v2/media"
}
