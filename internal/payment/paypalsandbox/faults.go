package paypalsandbox

import (
	"net/http"
	"strings"
	"time"
)

// Fault changes the answers to the next matching requests. A request
// matches when its method equals Method ("" matches any) and its path,
// without the mount prefix, ends with PathSuffix ("/capture",
// "/v2/checkout/orders", "/v1/oauth2/token").
type Fault struct {
	Method     string
	PathSuffix string
	// Count is how many matching requests the fault applies to (at least 1).
	Count int
	// Status, when non-zero, replaces the answer with this status in
	// PayPal's error shape (a 5xx by convention).
	Status int
	// Delay holds the answer back this long (or until the client gives
	// up), so a client with a shorter timeout sees a timeout.
	Delay time.Duration
	// Drop closes the connection without answering.
	Drop bool
	// AfterProcessing lets the request take effect first (the capture
	// happens) and then delays, replaces or drops the answer: the answer
	// is lost, the state has changed. Without it the request is refused
	// before anything changes.
	AfterProcessing bool
}

// AddFault queues a fault; faults are matched in the order they were added.
func (s *Sandbox) AddFault(f Fault) {
	if f.Count <= 0 {
		f.Count = 1
	}
	s.mu.Lock()
	s.faults = append(s.faults, &f)
	s.mu.Unlock()
}

// FailNext answers the next n matching requests with status (PayPal's error
// shape) before they take effect.
func (s *Sandbox) FailNext(method, pathSuffix string, n, status int) {
	s.AddFault(Fault{Method: method, PathSuffix: pathSuffix, Count: n, Status: status})
}

// DelayNext lets the next n matching requests take effect and then holds
// their answers back for d: with a client timeout shorter than d, the
// capture succeeds at the sandbox but the answer is lost.
func (s *Sandbox) DelayNext(method, pathSuffix string, n int, d time.Duration) {
	s.AddFault(Fault{Method: method, PathSuffix: pathSuffix, Count: n, Delay: d, AfterProcessing: true})
}

// ClearFaults removes every queued fault.
func (s *Sandbox) ClearFaults() {
	s.mu.Lock()
	s.faults = nil
	s.mu.Unlock()
}

// takeFault consumes one use of the first fault matching the request.
func (s *Sandbox) takeFault(method, path string) *Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, f := range s.faults {
		if (f.Method == "" || strings.EqualFold(f.Method, method)) && strings.HasSuffix(path, f.PathSuffix) {
			f.Count--
			if f.Count <= 0 {
				s.faults = append(s.faults[:i:i], s.faults[i+1:]...)
			}
			c := *f
			return &c
		}
	}
	return nil
}

// applyFault writes the fault's answer. The caller writes the real answer
// afterwards when the fault only delays it (and returns true here).
func (s *Sandbox) applyFault(w http.ResponseWriter, r *http.Request, f *Fault) (answered bool) {
	if f.Delay > 0 {
		t := time.NewTimer(f.Delay)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
		case <-s.ctx.Done():
			t.Stop()
		}
	}
	switch {
	case f.Drop:
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				_ = conn.Close()
				return true
			}
		}
		panic(http.ErrAbortHandler)
	case f.Status != 0:
		name := "INTERNAL_SERVER_ERROR"
		msg := "An internal server error has occurred."
		switch {
		case f.Status == http.StatusServiceUnavailable:
			name, msg = "SERVICE_UNAVAILABLE", "Service Unavailable."
		case f.Status == http.StatusTooManyRequests:
			name, msg = "RATE_LIMIT_REACHED", "Too many requests. Blocked due to rate limiting."
		case f.Status < 500:
			name, msg = "UNPROCESSABLE_ENTITY", msg422
		}
		writeError(w, f.Status, name, msg)
		return true
	}
	return false
}
