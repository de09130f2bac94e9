package server

import (
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"
	"vitrine/internal/httpx"
)

// The request edge: what the middleware (middleware.go) checks and answers
// before any route runs, each in the surface's shape (edgeAnswer).
//
//   - Bad bytes: a NUL or bytes that are not UTF-8 in the path, a query
//     value or key, a form field (urlencoded, or a multipart text field;
//     file contents are not text) or a JSON string are refused with 400.
//     PostgreSQL's text types cannot hold them (it answered 500), SQLite
//     stored them, and no legitimate client sends them.
//   - Cross-origin writes refused by http.CrossOriginProtection: 403.
//   - A store that is unreachable or whose disk is full: the 500 a handler
//     writes becomes a 503 with Retry-After (statusWriter).

// badBytesCode and badBytesMessage are the REST and ajax refusals' for bad
// bytes.
const (
	badBytesCode    = "vitrine_invalid_text"
	badBytesMessage = "The request holds a NUL character or bytes that are not UTF-8 text."
)

// Route labels of requests answered at the edge (metrics and logs).
const (
	routeBadBytes    = "invalid-text"
	routeCrossOrigin = "cross-origin"
)

// storeRetryAfter is the Retry-After of the answers given while the store
// is unavailable, in seconds.
const storeRetryAfter = "10"

const (
	storeDownCode    = "vitrine_store_unavailable"
	storeDownMessage = "The shop cannot reach its database right now. Please try again in a moment."
)

// cleanText reports whether s is UTF-8 without NUL.
func cleanText(s string) bool {
	return strings.IndexByte(s, 0) < 0 && utf8.ValidString(s)
}

// cleanQuery reports whether every key and value of a query string (or an
// urlencoded body), decoded, is clean text. A pair whose escapes do not
// decode is left to the handler (url.ParseQuery drops it).
func cleanQuery(q string) bool {
	plain := true
	for i := 0; i < len(q); i++ {
		if c := q[i]; c == '%' || c == 0 || c >= utf8.RuneSelf {
			plain = false
			break
		}
	}
	if plain {
		return true
	}
	for q != "" {
		var pair string
		pair, q, _ = strings.Cut(q, "&")
		k, v, _ := strings.Cut(pair, "=")
		for _, part := range [2]string{k, v} {
			d, err := url.QueryUnescape(part)
			if err != nil {
				continue
			}
			if !cleanText(d) {
				return false
			}
		}
	}
	return true
}

// cleanJSON reports whether a JSON body holds no NUL, raw or escaped
// (\u0000), and only UTF-8. A backslash is only valid inside a string, so
// a linear scan of escapes needs no parser; what is not valid JSON is left
// to the handler.
func cleanJSON(b []byte) bool {
	if bytes.IndexByte(b, 0) >= 0 || !utf8.Valid(b) {
		return false
	}
	for i := bytes.IndexByte(b, '\\'); i >= 0; {
		if i+1 < len(b) && b[i+1] == 'u' && i+6 <= len(b) && string(b[i+2:i+6]) == "0000" {
			return false
		}
		next := bytes.IndexByte(b[min(i+2, len(b)):], '\\')
		if next < 0 {
			break
		}
		i += 2 + next
	}
	return true
}

// cleanMultipart reports whether every field name and text field (a part
// without a file name) of a multipart body is clean text. A body that does
// not parse is left to the handler.
func cleanMultipart(b []byte, boundary string) bool {
	mr := multipart.NewReader(bytes.NewReader(b), boundary)
	for {
		p, err := mr.NextPart()
		if err != nil {
			return true
		}
		if !cleanText(p.FormName()) {
			return false
		}
		if p.FileName() != "" {
			continue // a file: its bytes are its own
		}
		v, err := io.ReadAll(p)
		if err != nil {
			return true
		}
		if bytes.IndexByte(v, 0) >= 0 || !utf8.Valid(v) {
			return false
		}
	}
}

// bodyKind is how the edge reads a body: not at all, or as a form, a
// multipart form or JSON.
type bodyKind int

const (
	bodySkip bodyKind = iota
	bodyForm
	bodyMultipart
	bodyJSON
	bodyMaybeJSON // no content type, or text/plain, under /wp-json/: JSON when it looks like it
)

func bodyKindOf(r *http.Request) (bodyKind, string) {
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
		return bodySkip, ""
	}
	ct := r.Header.Get("Content-Type")
	mt, params, err := mime.ParseMediaType(ct)
	if ct == "" {
		mt, err = "", nil
	}
	if err != nil {
		return bodySkip, ""
	}
	switch {
	case mt == "application/x-www-form-urlencoded":
		return bodyForm, ""
	case mt == "multipart/form-data" && params["boundary"] != "":
		return bodyMultipart, params["boundary"]
	case mt == "application/json" || strings.HasSuffix(mt, "+json"):
		return bodyJSON, ""
	case (mt == "" || mt == "text/plain") && strings.HasPrefix(r.URL.Path, "/wp-json/"):
		return bodyMaybeJSON, ""
	}
	return bodySkip, ""
}

// errBody replays a read error after the bytes read before it, so a
// handler sees a body that failed exactly as the client sent it.
type errBody struct {
	r   io.Reader
	err error
}

func (e *errBody) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err == io.EOF {
		err = e.err
	}
	return n, err
}

func (e *errBody) Close() error { return nil }

// cleanInput refuses bad bytes (see the top of this file) before the routes
// run. A text body (form, multipart, JSON) is read once, into memory (it is
// capped by the middleware already), checked, and handed to the handler
// from there, byte for byte, so signatures over raw bodies still verify;
// a body that fails to read is handed on failing the same way, for the
// handler's own answer. Other bodies (uploads, rate files) are not read.
func (s *Server) cleanInput(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !cleanText(r.URL.Path) || !cleanQuery(r.URL.RawQuery) {
			refuseBadBytes(w, r)
			return
		}
		kind, boundary := bodyKindOf(r)
		if kind == bodySkip {
			next.ServeHTTP(w, r)
			return
		}
		var buf bytes.Buffer
		if r.ContentLength > 0 && r.ContentLength <= s.cfg.MaxBodyBytes {
			buf.Grow(int(r.ContentLength))
		}
		_, err := buf.ReadFrom(r.Body)
		b := buf.Bytes()
		if err != nil {
			r.Body = &errBody{bytes.NewReader(b), err}
			next.ServeHTTP(w, r)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(b))
		clean := true
		switch kind {
		case bodyForm:
			clean = cleanQuery(string(b))
		case bodyMultipart:
			clean = cleanMultipart(b, boundary)
		case bodyJSON:
			clean = cleanJSON(b)
		case bodyMaybeJSON:
			if t := bytes.TrimLeft(b, " \t\r\n"); len(t) > 0 && (t[0] == '{' || t[0] == '[') {
				clean = cleanJSON(b)
			}
		}
		if !clean {
			refuseBadBytes(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// refuseBadBytes answers 400 for bad bytes in the surface's shape.
func refuseBadBytes(w http.ResponseWriter, r *http.Request) {
	noteRoute(w, routeBadBytes)
	edgeAnswer(w, r, http.StatusBadRequest, badBytesCode, badBytesMessage,
		"Bad request", "The address or the form holds characters the shop cannot read. Go back and try again.")
}

// refuseCrossOrigin answers a cross-origin write http.CrossOriginProtection
// refused, in the surface's shape.
func refuseCrossOrigin(w http.ResponseWriter, r *http.Request) {
	noteRoute(w, routeCrossOrigin)
	edgeAnswer(w, r, http.StatusForbidden, "rest_cross_origin_refused",
		"Cross-origin requests that change something are not allowed.",
		"Forbidden", "This request came from another site and was refused.")
}

// storeDown answers 503 with Retry-After for a store that is unreachable
// or full, in the surface's shape.
func storeDown(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Retry-After", storeRetryAfter)
	edgeAnswer(w, r, http.StatusServiceUnavailable, storeDownCode, storeDownMessage,
		"The shop is busy", "The shop cannot reach its database right now. Please try again in a moment.")
}

// edgeAnswer writes an answer given before (or instead of) a handler's, in
// the shape of the surface the request belongs to: the REST error under
// /wp-json/, wp_send_json_error's on admin-ajax, a JSON error on the shop
// ajax (/?wc-ajax=), and a small HTML page elsewhere.
func edgeAnswer(w http.ResponseWriter, r *http.Request, status int, code, message, title, text string) {
	h := w.Header()
	for _, k := range []string{"Content-Length", "Content-Encoding", "ETag", "Last-Modified", "Vary"} {
		h.Del(k)
	}
	h.Set("Cache-Control", "no-store, private")
	switch {
	case strings.HasPrefix(r.URL.Path, "/wp-json/"):
		httpx.WriteErrorRaw(w, status, code, message, nil)
	case r.URL.Path == "/wp-admin/admin-ajax.php":
		// wp_send_json_error's shape, which the shop's JSON actions
		// (live search, prices, the login's) answer refusals in.
		httpx.WriteJSON(w, status, map[string]any{"success": false, "data": map[string]any{"code": code, "message": message}})
	case strings.Contains(r.URL.RawQuery, "wc-ajax="):
		// The cart calls' {"error":true} and the wallet's {"success":false}.
		httpx.WCAjaxHeaders(w)
		httpx.WriteJSON(w, status, map[string]any{"success": false, "error": true, "code": code, "message": message,
			"data": map[string]any{"code": code, "message": message}})
	default:
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("X-Robots-Tag", "noindex")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">`+
			`<title>`+title+`</title><body style="font-family:sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem">`+
			`<h1>`+title+`</h1><p>`+text+`</p><p><a href="/">Back to the shop</a></p></body></html>`)
	}
}

// noteRoute sets the route label the middleware logs and counts the
// request under. It reaches the middleware's writer through the writers
// wrapping it, so it works whatever request copy a handler holds.
func noteRoute(w http.ResponseWriter, route string) {
	if sw := statusWriterOf(w); sw != nil {
		sw.route = route
	}
}

// statusWriterOf finds the middleware's writer under w.
func statusWriterOf(w http.ResponseWriter) *statusWriter {
	for {
		switch x := w.(type) {
		case *statusWriter:
			return x
		case interface{ Unwrap() http.ResponseWriter }:
			w = x.Unwrap()
		default:
			return nil
		}
	}
}

// withRoute notes the mux's pattern for the middleware. The mux sets
// r.Pattern on the request it is given; the middleware holds the request
// before the viewer middleware (myaccount) and the other wrappers replaced
// it with copies (a logged-in viewer's), so it cannot read the pattern
// there.
func withRoute(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if sw := statusWriterOf(w); sw != nil && sw.route == "" {
				sw.route = r.Pattern
			}
		}()
		mux.ServeHTTP(w, r)
	})
}
