package adminapi

import (
	"encoding/json"
	"html/template"
	"net/http"

	"vitrine/internal/account"
	"vitrine/internal/render"
)

// The admin: a React app of its own, web/src/admin, built as a second
// entry of the web build. Storefront pages never reference it (its entry
// is not the storefront's, and a test checks no page names its files);
// Shell serves its HTML at every /wp-admin/ address to staff, and the app
// calls this package's JSON API.

// ShellEntry is the admin app's entry in Vite's manifest.
const ShellEntry = "src/admin/main.tsx"

// Shell serves the admin app's shell.
type Shell struct {
	// Assets are the app's files in the web build; an empty Script
	// answers 503 (a build without the admin).
	Assets render.Assets
	// Viewer is the request's logged-in user, nil for visitors.
	Viewer func(*http.Request) *account.User
	// Nonce is the REST nonce of the user's calls now.
	Nonce func(userID int64) string
	// LogoutURL is the log-out link, with its nonce, for the request.
	LogoutURL func(*http.Request) string
	// SiteName is the shop's name now (staff may change it).
	SiteName func() string
	BaseURL  string
	Currency string // the base currency's code
}

// shellData is what the shell inlines for the app: who is logged in, the
// REST nonce its calls carry, and the shop it runs.
type shellData struct {
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

var shellPage = template.Must(template.New("admin").Parse(`<!doctype html>
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

// ServeHTTP answers every /wp-admin/ address with the shell (the app's
// screens route in the browser); visitors and customers are sent to the
// login.
func (sh *Shell) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Cache-Control", "no-store, private")
	u := sh.Viewer(r)
	if u == nil || !u.CanEditPages() {
		http.Redirect(w, r, "/my-account/", http.StatusFound)
		return
	}
	if sh.Assets.Script == "" {
		http.Error(w, "The admin app is missing from this build.", http.StatusServiceUnavailable)
		return
	}
	var d shellData
	d.User.ID, d.User.Name, d.User.Role = u.ID, u.DisplayName, u.Role
	if d.User.Name == "" {
		d.User.Name = u.Email
	}
	d.Nonce = sh.Nonce(u.ID)
	d.LogoutURL = sh.LogoutURL(r)
	d.Site.Name, d.Site.URL, d.Site.Currency = sh.SiteName(), sh.BaseURL, sh.Currency
	raw, err := json.Marshal(d)
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("X-Robots-Tag", "noindex, nofollow")
	// template.JS keeps the JSON as is; json.Marshal already escapes <, >
	// and &, so it cannot close the script element.
	_ = shellPage.Execute(w, map[string]any{"Site": d.Site.Name, "Assets": sh.Assets, "Data": template.JS(raw)})
}
