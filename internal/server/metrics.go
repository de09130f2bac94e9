package server

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

type metrics struct {
	reg         *prometheus.Registry
	requests    *prometheus.CounterVec
	latency     *prometheus.HistogramVec
	renders     prometheus.Histogram
	renderFails prometheus.Counter
	// rendersAhead: changed pages re-rendered right after the change,
	// before any request asked for them (internal/storefront).
	rendersAhead prometheus.Counter
	fragRenders  prometheus.Counter
	// connsRejected counts connections closed by LimitConnsPerIP.
	connsRejected prometheus.Counter
}

func newMetrics(s *Server) *metrics {
	m := &metrics{reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "vitrine_http_requests_total", Help: "HTTP requests by route, method and status.",
	}, []string{"route", "method", "code"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "vitrine_http_request_duration_seconds", Help: "HTTP request latency by route.",
		Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
	}, []string{"route"})
	m.renders = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "vitrine_render_duration_seconds", Help: "Server-side render time of a page in the JS engine.",
		Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25},
	})
	m.renderFails = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "vitrine_render_failures_total", Help: "Pages sent client-rendered because the server render failed.",
	})
	m.connsRejected = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "vitrine_connections_rejected_total", Help: "Connections closed at once because their address had --max-conns-per-ip open.",
	})
	m.fragRenders = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "vitrine_fragment_renders_total", Help: "Mini-cart fragment sets rendered (the rest came from the fragment cache).",
	})
	m.reg.MustRegister(m.fragRenders)
	m.rendersAhead = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "vitrine_page_renders_ahead_total", Help: "Changed pages re-rendered right after the change, before a request asked for them.",
	})
	m.reg.MustRegister(m.rendersAhead)
	if w, ok := s.engine.(interface{ Replaced() uint64 }); ok {
		m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "vitrine_render_worker_replacements_total",
			Help: "Render worker processes discarded (timed out, broken pipe, died) and replaced.",
		}, func() float64 { return float64(w.Replaced()) }))
	}
	m.reg.MustRegister(m.requests, m.latency, m.renders, m.renderFails, m.connsRejected,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	pool := func(name, help string, f func(read bool) float64) {
		for _, which := range []string{"read", "write"} {
			read := which == "read"
			m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
				Name: "vitrine_store_" + name, Help: help, ConstLabels: prometheus.Labels{"pool": which},
			}, func() float64 { return f(read) }))
		}
	}
	stats := func(read bool) (st struct{ open, inUse, idle, waits float64 }) {
		r, w := s.db.Stats()
		if !read {
			r = w
		}
		st.open, st.inUse, st.idle, st.waits = float64(r.OpenConnections), float64(r.InUse), float64(r.Idle), float64(r.WaitCount)
		return st
	}
	pool("open_connections", "Open store connections.", func(r bool) float64 { return stats(r).open })
	pool("in_use_connections", "Store connections in use.", func(r bool) float64 { return stats(r).inUse })
	pool("idle_connections", "Idle store connections.", func(r bool) float64 { return stats(r).idle })
	pool("wait_count", "Times a request waited for a store connection.", func(r bool) float64 { return stats(r).waits })
	for _, c := range []struct {
		name string
		f    func() float64
	}{
		{"vitrine_page_cache_entries", func() float64 { return float64(s.cache.Stats().Entries) }},
		{"vitrine_page_cache_bytes", func() float64 { return float64(s.cache.Stats().Bytes) }},
		{"vitrine_page_cache_hits", func() float64 { return float64(s.cache.Stats().Hits) }},
		{"vitrine_page_cache_misses", func() float64 { return float64(s.cache.Stats().Misses) }},
		{"vitrine_page_cache_invalidations", func() float64 { return float64(s.cache.Stats().Invalidations) }},
		{"vitrine_page_cache_staled", func() float64 { return float64(s.cache.Stats().Staled) }},
		{"vitrine_page_cache_stale_hits", func() float64 { return float64(s.cache.Stats().StaleHits) }},
		{"vitrine_page_renders_ahead_queued", func() float64 { q, _ := s.renderer.AheadStats(); return float64(q) }},
		{"vitrine_page_renders_ahead_skipped", func() float64 { _, n := s.renderer.AheadStats(); return float64(n) }},
		{"vitrine_api_cache_entries", func() float64 { return float64(s.api.Stats().Entries) }},
		{"vitrine_api_cache_bytes", func() float64 { return float64(s.api.Stats().Bytes) }},
		{"vitrine_api_cache_hits", func() float64 { return float64(s.api.Stats().Hits) }},
		{"vitrine_api_cache_misses", func() float64 { return float64(s.api.Stats().Misses) }},
	} {
		help := "Page cache counter."
		switch {
		case strings.HasPrefix(c.name, "vitrine_api_"):
			help = "Store API response cache counter."
		case strings.HasPrefix(c.name, "vitrine_page_renders_ahead_"):
			help = "Changed pages waiting to be rendered ahead (queued), or skipped because the cache dropped them first (skipped)."
		}
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: c.name, Help: help}, c.f))
	}
	backupMetrics(m.reg, s) // backups.go
	return m
}

// observe counts a request. Every label comes from a closed set: route is a
// pattern of the mux (or "unmatched"), method went through methodLabel, and
// the status is a three-digit code (else "other"), so no client can grow
// the number of series.
func (m *metrics) observe(route, method string, status int, d time.Duration) {
	code := methodOther
	if status >= 100 && status <= 599 {
		code = strconv.Itoa(status)
	}
	m.requests.WithLabelValues(route, method, code).Inc()
	m.latency.WithLabelValues(route).Observe(d.Seconds())
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}
