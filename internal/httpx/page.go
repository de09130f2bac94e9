package httpx

import (
	"net/http"
	"strconv"
	"strings"
	"vitrine/internal/render"
)

// WritePage sends a rendered page with an ETag so a revalidation costs
// nothing. Browsers revalidate every time: the HTML changes when the
// catalogue does.
func WritePage(w http.ResponseWriter, r *http.Request, p *render.Page) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	WriteBody(w, r, p)
}

// WriteBody sends precompressed bytes as the client accepts them, with
// the page's own headers (a page's CSP, Store API totals).
func WriteBody(w http.ResponseWriter, r *http.Request, p *render.Page) {
	h := w.Header()
	pageHeaders(h, p)
	h.Set("ETag", p.ETag)
	h.Add("Vary", "Accept-Encoding")
	if p.Status == http.StatusOK && r.Header.Get("If-None-Match") == p.ETag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	// The first encoding the client takes whose body is smaller than the
	// HTML. A page nobody stores (the cache off, a personal page) is
	// compressed here, for this answer, in that encoding only.
	body := p.HTML
	accept := r.Header.Get("Accept-Encoding")
	for _, enc := range [...]string{"br", "gzip"} {
		if !AcceptsEncoding(accept, enc) {
			continue
		}
		if b := p.Encoded(enc); len(b) < len(body) {
			h.Set("Content-Encoding", enc)
			body = b
			break
		}
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(p.Status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// WriteSpliced sends a shared page with one viewer's part in it
// (render.Page.Spliced): gzip when the client takes it, else the HTML;
// with the page's own headers, never stored by a browser or a proxy, and
// without the shared page's ETag (the body is this viewer's).
func WriteSpliced(w http.ResponseWriter, r *http.Request, p *render.Page, part []byte) {
	h := w.Header()
	pageHeaders(h, p)
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store, private")
	h.Add("Vary", "Accept-Encoding")
	enc := ""
	if AcceptsEncoding(r.Header.Get("Accept-Encoding"), "gzip") {
		enc = "gzip"
		h.Set("Content-Encoding", enc)
	}
	body := p.Spliced(part, enc)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(p.Status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// AcceptsEncoding reports whether an Accept-Encoding header accepts enc
// with a non-zero quality.
func AcceptsEncoding(header, enc string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), enc) {
			continue
		}
		q := 1.0
		if _, v, ok := strings.Cut(strings.ReplaceAll(params, " ", ""), "q="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		return q > 0
	}
	return false
}

// ContentSecurityPolicy allows only the shop's own scripts, and the pages'
// one inline script by its hash (render.HeadScript). Images may come from
// other hosts because imported catalogues keep remote image URLs. The
// middleware sets it on every answer.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self' " + render.HeadScriptCSP + "; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data: https: http:; font-src 'self'; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; " +
	"base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// FramingCSP is the policy of a page that frames the given origins (its
// video players, internal/richtext): the shop's policy with a frame-src
// naming them. Every other page keeps default-src 'self' for frames.
func FramingCSP(policy string, origins []string) string {
	if policy == "" {
		policy = ContentSecurityPolicy
	}
	return policy + "; frame-src 'self' " + strings.Join(origins, " ")
}

// pageHeaders sets a page's own headers, and lets the policy the request
// carries (the server's, set before the handler) frame what the page
// frames.
func pageHeaders(h http.Header, p *render.Page) {
	for k, v := range p.Headers {
		h.Set(k, v)
	}
	if len(p.FrameSrc) > 0 {
		h.Set("Content-Security-Policy", FramingCSP(h.Get("Content-Security-Policy"), p.FrameSrc))
	}
}

// MaxLogBytes bounds a client-chosen string (a path, a page URL) written
// to a log line.
const MaxLogBytes = 512

// ClipLog cuts a client-chosen string to MaxLogBytes bytes for a log line.
func ClipLog(s string) string {
	if len(s) > MaxLogBytes {
		s = strings.ToValidUTF8(s[:MaxLogBytes], "") + "…"
	}
	return s
}

// RedirectSlash answers 301 to the request's path with a trailing slash
// (the query kept), as WordPress's canonical redirect does.
func RedirectSlash(w http.ResponseWriter, r *http.Request) {
	u := *r.URL
	u.Path += "/"
	http.Redirect(w, r, u.RequestURI(), http.StatusMovedPermanently)
}
