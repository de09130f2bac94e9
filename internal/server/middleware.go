package server

import (
	"bufio"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"vitrine/internal/adminapi"
	"vitrine/internal/contactapi"
	"vitrine/internal/httpx"
)

type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
	// route is the label the request is logged and counted under: the
	// mux's pattern (withRoute) or an edge answer's (noteRoute).
	route string
	// req and storeDown turn a 500 into the store-unavailable 503
	// (edge.go) while storeDown reports a failing store.
	req       *http.Request
	storeDown func() bool
	// replaced: the handler's answer was replaced; its writes are dropped.
	replaced bool
}

func (w *statusWriter) WriteHeader(code int) {
	if w.replaced {
		return
	}
	if code == http.StatusInternalServerError && w.status == 0 && w.storeDown != nil && w.storeDown() {
		// The store is unreachable or full: the handler's 500 is the
		// outage's, answered once here for every surface.
		w.replaced = true
		w.status = http.StatusServiceUnavailable
		storeDown(w.ResponseWriter, w.req)
		return
	}
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.replaced {
		return len(b), nil
	}
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("hijack not supported")
	}
	return h.Hijack()
}

// middleware wraps every request: panics become 500s, bodies are capped,
// security headers set, cross-origin writes refused, bad bytes refused
// (edge.go), a 500 while the store is unavailable answered 503, and each
// request is logged once and counted by route.
func (s *Server) middleware(next http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(refuseCrossOrigin))
	protected := cop.Handler(s.cleanInput(next)) // edge.go
	down := func() bool { return s.db != nil && s.db.Unavailable() != nil }
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, req: r, storeDown: down}
		h := sw.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Content-Security-Policy", s.contentSecurityPolicy())
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), interest-cohort=()")
		limit := s.cfg.MaxBodyBytes
		if contactapi.IsFeedback(r) {
			// Uploads: the forms' own limit, checked again per form by
			// the handler (internal/contactapi).
			limit = max(limit, s.contactAPI.MaxBody())
		}
		if isMediaUpload(r) {
			// The media library's uploads: the file's cap, checked
			// again by the handler (internal/adminapi/media.go).
			limit = max(limit, adminapi.UploadBodyLimit)
		}
		r.Body = http.MaxBytesReader(sw, r.Body, limit)
		// The method and path are chosen by the client: metrics and logs
		// only ever see a method from a closed set and a bounded path.
		method := methodLabel(r.Method)
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.log.Error("panic", "method", method, "path", logPath(r), "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				if sw.status == 0 {
					http.Error(sw, "Internal Server Error", http.StatusInternalServerError)
				}
			}
			route := sw.route
			if route == "" {
				route = r.Pattern
			}
			if route == "" || method == methodOther {
				// Unrouted (an outer mux, such as the sandbox's, may
				// have set a pattern of its own).
				route = "unmatched"
			}
			status := sw.status
			if status == 0 {
				status = http.StatusOK
			}
			d := time.Since(start)
			s.metrics.observe(route, method, status, d)
			level := slog.LevelInfo
			if status >= 500 && status != http.StatusNotImplemented { // 501: the client's unknown method
				level = slog.LevelError
			}
			s.log.Log(r.Context(), level, "request", "method", method, "path", logPath(r), "route", route,
				"status", status, "bytes", sw.bytes, "duration", d, "remote", r.RemoteAddr)
		}()
		if method == methodOther {
			// Before routing: no route answers a method outside HTTP's
			// standard set, and the catch-all 404 page must not either.
			notImplemented(sw, r)
			return
		}
		protected.ServeHTTP(sw, r)
	})
}

// methodOther is the label and log value of every method outside the
// standard set.
const methodOther = "other"

// methodLabel maps a request method onto a closed set: the methods of RFC
// 9110 and PATCH, else "other". Anything else would let a client mint a new
// metric series (and keep it in memory for ever) with every request.
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodDelete,
		http.MethodPatch, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m
	}
	return methodOther
}

// notImplemented answers a method outside the standard set with 501, in the
// shape of the surface the path belongs to.
func notImplemented(w http.ResponseWriter, r *http.Request) {
	switch {
	case strings.HasPrefix(r.URL.Path, "/wp-json/"):
		httpx.WriteError(w, http.StatusNotImplemented, "rest_not_implemented", "The request method is not supported.", nil)
	case r.URL.Path == "/wp-admin/admin-ajax.php":
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		w.WriteHeader(http.StatusNotImplemented)
		_, _ = w.Write([]byte("0"))
	default:
		http.Error(w, "Not Implemented: the request method is not supported.", http.StatusNotImplemented)
	}
}

// maxLogPath bounds the request path written to the log.
const maxLogPath = httpx.MaxLogBytes

// logPath is the request's path for a log line, cut to maxLogPath bytes.
func logPath(r *http.Request) string { return httpx.ClipLog(r.URL.Path) }
