package httpx

import (
	"html/template"
	"net/http"
)

// LinkPage is the small page a link from a mail opens (a privacy request's
// confirmation, a stock alert's opt-in or unsubscribe): the shop's name, a
// title, a few lines and either one button that POSTs the link's token
// back (so a mail scanner that fetches the link changes nothing) or links
// onward. It needs no app, script or stylesheet of the shop.
type LinkPage struct {
	Shop    string
	Title   string
	Lead    []string
	Action  string // the button's form action; "" for no form
	Token   string
	Button  string
	Problem bool       // the title says what went wrong
	Links   []PageLink // shown when there is no form, joined by "or"
}

// PageLink is a link at the end of a LinkPage.
type PageLink struct{ Href, Text string }

// Write sends the page with status, never stored, never indexed, and
// without a Referer (the token is in the URL).
func (p LinkPage) Write(w http.ResponseWriter, status int) error {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store, private")
	h.Set("X-Robots-Tag", "noindex")
	h.Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(status)
	return linkPageTmpl.Execute(w, p)
}

var linkPageTmpl = template.Must(template.New("link").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{{.Title}}{{if .Shop}} – {{.Shop}}{{end}}</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;color:#1c1917;background:#fafaf9;margin:0}
header,main{max-width:36rem;margin:0 auto;padding:1rem 1.25rem}
header a{color:#1c1917;font-weight:600;text-decoration:none}
h1{font-size:1.5rem;line-height:1.25}
.problem h1{color:#991b1b}
button{font:inherit;padding:.75rem 1.25rem;background:#292524;color:#fff;border:0;border-radius:4px;cursor:pointer}
button:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
</style>
</head>
<body>
<header>{{if .Shop}}<a href="/">{{.Shop}}</a>{{end}}</header>
<main{{if .Problem}} class="problem"{{end}}>
<h1>{{.Title}}</h1>
{{range .Lead}}<p>{{.}}</p>{{end}}
{{if .Action}}<form method="post" action="{{.Action}}">
<input type="hidden" name="token" value="{{.Token}}">
<button type="submit">{{.Button}}</button>
</form>{{else if .Links}}<p>{{range $i, $l := .Links}}{{if $i}} or {{end}}<a href="{{$l.Href}}">{{$l.Text}}</a>{{end}}.</p>{{end}}
</main>
</body>
</html>
`))
