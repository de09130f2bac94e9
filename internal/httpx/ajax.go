package httpx

import (
	"net/http"
	"strconv"
)

// AjaxZero is WordPress's answer to an unknown action: wp_die('0', 400).
func AjaxZero(w http.ResponseWriter, status int) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=UTF-8")
	h.Set("X-Robots-Tag", "noindex")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write([]byte("0"))
}

// WCAjaxHeaders are the headers of every wc-ajax answer: JSON, not indexed,
// never cached (WordPress's nocache_headers).
func WCAjaxHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=UTF-8")
	h.Set("X-Robots-Tag", "noindex")
	h.Set("Cache-Control", "no-cache, must-revalidate, max-age=0, no-store, private")
	h.Set("Expires", "Wed, 11 Jan 1984 05:00:00 GMT")
}

// WCAjaxWrite answers 200 with body (an empty body when nil).
func WCAjaxWrite(w http.ResponseWriter, r *http.Request, body []byte) {
	WCAjaxHeaders(w)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}
