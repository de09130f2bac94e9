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
	for k, v := range p.Headers {
		h.Set(k, v)
	}
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
