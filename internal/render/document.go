package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"strings"
)

// Head is what the server writes into a page's <head>: crawlers and link
// previews read it before any script runs.
type Head struct {
	Title       string
	Description string
	Canonical   string
	Robots      string // e.g. "noindex, follow"
	OGType      string // website, product
	OGImage     string
	SiteName    string
	// JSONLD holds schema.org objects, each written as its own script.
	JSONLD []any
	// Localize is a plugin's localised script (YITH WooCommerce
	// Wishlist's "var yith_wcwl_l10n = {…};"), written in its own script
	// element as WordPress's wp_localize_script does; the CSP allows it
	// by its hash (the server's policy names the current texts). Its
	// nonces are the visitors' (anonymous) ones, so one cached page serves
	// everyone.
	Localize string
	// StoreNoticeID is the store notice's id (pages.StoreNotice), read by
	// HeadScript; empty when the shop shows no notice.
	StoreNoticeID string
}

// HeadScript is the page's one inline script, run before first paint: it
// marks <html> with "js" (the header's script-only layout: the mobile
// Menu button, the dropdowns' state) and, when the store notice's dismiss
// cookie store_notice<id>=hidden is set, with "store-notice-hidden", which
// hides the notice in the stylesheet. It also holds the submit of a form
// marked data-hold-until-hydrated (the login and register forms, whose
// bot-check proof is obtained by the app) until the app has hydrated: a
// shopper who presses Register while the script is still loading is not
// refused as a bot; the form is marked data-held and the app submits it
// once it can (web/src/lib/page-hydration.ts). Cached pages are shared, so what
// depends on the visitor's cookie is applied here, never baked into the
// HTML.
//
// It loads the app (data-entry, with the chunks the entry imports in
// data-preload) once the first paint is on screen (the Paint Timing
// entry; two frames where the browser has none), or at once in a hidden
// tab: no
// element of the page names a script, so the browser's preload scanner
// fetches only the stylesheet and the pictures before the page is painted,
// and on a slow link the scripts never share it with them. The page works
// before the app arrives (links and forms; held forms as above), so
// hydrating a frame later costs a shopper nothing ([0120]).
//
// Its text never changes: the Content-Security-Policy allows it by
// hash (HeadScriptCSP), not with 'unsafe-inline'.
const HeadScript = `(function(d){var e=d.documentElement,s=d.currentScript,i=s&&s.getAttribute('data-store-notice'),m=s&&s.getAttribute('data-entry');e.classList.add('js');d.addEventListener('submit',function(v){var f=v.target;if(f.hasAttribute('data-hold-until-hydrated')&&!e.hasAttribute('data-hydrated')){v.preventDefault();f.setAttribute('data-held','')}},!0);if(i&&(';'+d.cookie.replace(/\s+/g,'')+';').indexOf(';store_notice'+i+'=hidden;')>-1)e.classList.add('store-notice-hidden');if(m){var o,P=window.PerformanceObserver,l=function(){if(o)return;o=1;(s.getAttribute('data-preload')||'').split(' ').forEach(function(h){if(h){var k=d.createElement('link');k.rel='modulepreload';k.href=h;d.head.appendChild(k)}});var t=d.createElement('script');t.type='module';t.src=m;d.head.appendChild(t)};if(d.hidden)l();else if(P&&(P.supportedEntryTypes||[]).indexOf('paint')>-1)new P(function(x,b){b.disconnect();setTimeout(l,0)}).observe({type:'paint',buffered:!0});else requestAnimationFrame(function(){requestAnimationFrame(l)})}})(document)`

// HeadScriptCSP is HeadScript's CSP source: its SHA-256, base64 (a test
// checks the two agree).
const HeadScriptCSP = "'sha256-lKn3iYbrPiOa+edb9Bnfg9TZgdR896mFudtYZ8coZmk='"

// Assets are the built app's entry script and stylesheets.
type Assets struct {
	Script string
	CSS    []string
	// Preload are the chunks the entry imports statically (a chunk the
	// build shares between the entry and the pages loaded on demand, such
	// as React): fetched with the entry instead of after it.
	Preload []string
}

// LoadAssets reads Vite's manifest from the client build.
func LoadAssets(client fs.FS, entry string) (Assets, error) {
	raw, err := fs.ReadFile(client, ".vite/manifest.json")
	if err != nil {
		return Assets{}, fmt.Errorf("read vite manifest: %w", err)
	}
	var m map[string]struct {
		File    string   `json:"file"`
		CSS     []string `json:"css"`
		Imports []string `json:"imports"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return Assets{}, fmt.Errorf("parse vite manifest: %w", err)
	}
	e, ok := m[entry]
	if !ok || e.File == "" {
		return Assets{}, fmt.Errorf("vite manifest has no entry %q", entry)
	}
	a := Assets{Script: "/" + e.File}
	for _, c := range e.CSS {
		a.CSS = append(a.CSS, "/"+c)
	}
	// The static imports, and theirs, once each (chunks may import each
	// other and the entry back).
	seen := map[string]bool{entry: true}
	var walk func(keys []string)
	walk = func(keys []string) {
		for _, k := range keys {
			c, ok := m[k]
			if seen[k] || !ok || c.File == "" {
				continue
			}
			seen[k] = true
			a.Preload = append(a.Preload, "/"+c.File)
			for _, css := range c.CSS {
				a.CSS = append(a.CSS, "/"+css)
			}
			walk(c.Imports)
		}
	}
	walk(e.Imports)
	return a, nil
}

// docTemplate is the page. Its head links the web app manifest and icons
// (storefront/manifest.go; the theme colour is the mark's blue) and, for
// browsers without scripts, hides what only scripts work: a lazy image's
// scripted copy (its <noscript> twin shows instead) and the lazy videos'
// Play buttons (their link to the video stays). Its rel=expect link holds
// the first paint until main#content, which every page's layout puts right
// after the header: a slow device that paints a half-parsed header saw
// its right-aligned search, currency switcher and cart move as the rest of
// the bar arrived (a layout shift); browsers without rel=expect ignore it.
var docTemplate = template.Must(template.New("doc").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Head.Title}}</title>
{{- if .Head.Description}}
<meta name="description" content="{{.Head.Description}}">{{end}}
{{- if .Head.Robots}}
<meta name="robots" content="{{.Head.Robots}}">{{end}}
{{- if .Head.Canonical}}
<link rel="canonical" href="{{.Head.Canonical}}">{{end}}
<meta property="og:type" content="{{or .Head.OGType "website"}}">
<meta property="og:title" content="{{.Head.Title}}">
{{- if .Head.Description}}
<meta property="og:description" content="{{.Head.Description}}">{{end}}
{{- if .Head.Canonical}}
<meta property="og:url" content="{{.Head.Canonical}}">{{end}}
{{- if .Head.OGImage}}
<meta property="og:image" content="{{.Head.OGImage}}">{{end}}
{{- if .Head.SiteName}}
<meta property="og:site_name" content="{{.Head.SiteName}}">{{end}}
<meta name="twitter:card" content="summary_large_image">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="manifest" href="/manifest.webmanifest">
<link rel="apple-touch-icon" href="/apple-touch-icon.png">
<meta name="theme-color" content="#1f3a5f">
<noscript><style>img.lazyload,.lazy-video__play{display:none!important}</style></noscript>
{{- range .Assets.CSS}}
<link rel="stylesheet" href="{{.}}">{{end}}
<link rel="expect" href="#content" blocking="render">
<script{{if .Head.StoreNoticeID}} data-store-notice="{{.Head.StoreNoticeID}}"{{end}}{{if .Assets.Script}} data-entry="{{.Assets.Script}}"{{if .Assets.Preload}} data-preload="{{.PreloadList}}"{{end}}{{end}}>{{.HeadScript}}</script>
{{- range .JSONLD}}
<script type="application/ld+json">{{.}}</script>{{end}}
</head>
<body>
<div id="root">{{.App}}</div>
<script id="vitrine-data" type="application/json">{{.Data}}</script>
{{- if .Localize}}
<script id="jquery-yith-wcwl-js-extra">{{.Localize}}</script>{{end}}
</body>
</html>
`))

// Document writes the whole HTML page: the head, the server-rendered app
// (empty for a client-rendered fallback) and the page data the browser
// hydrates from. data must be JSON from encoding/json, which escapes <, >
// and & so it cannot close the script element.
func Document(head Head, assets Assets, appHTML string, data []byte) ([]byte, error) {
	ld := make([]template.JS, 0, len(head.JSONLD))
	for _, obj := range head.JSONLD {
		b, err := json.Marshal(obj)
		if err != nil {
			return nil, fmt.Errorf("json-ld: %w", err)
		}
		ld = append(ld, template.JS(b))
	}
	var buf bytes.Buffer
	buf.Grow(len(appHTML) + len(data) + 2048)
	err := docTemplate.Execute(&buf, struct {
		Head   Head
		Assets Assets
		App    template.HTML
		Data   template.JS
		JSONLD []template.JS
		// HeadScript is a constant (the CSP allows its hash).
		HeadScript  template.JS
		Localize    template.JS
		PreloadList string
	}{head, assets, template.HTML(appHTML), template.JS(data), ld, template.JS(HeadScript), template.JS(head.Localize), strings.Join(assets.Preload, " ")})
	return buf.Bytes(), err
}
