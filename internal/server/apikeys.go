package server

import (
	"context"
	"net/http"
	"strings"

	"vitrine/internal/analyticsapi"
	"vitrine/internal/integration"
	"vitrine/internal/integrationapi"
)

// REST API keys (internal/integration, internal/integrationapi): requests
// to /wp-json/wc/v3/ without a logged-in viewer may authenticate with a
// key (withRESTAuth), acting as the key's user.

// initIntegration builds the key service and its adapter.
func (s *Server) initIntegration() {
	s.keys = &integration.Service{Store: s.db, Now: s.now, Log: s.log}
	s.keyAuth = integrationapi.New(integrationapi.Deps{Keys: s.keys, HTTPS: s.requestHTTPS, ClientIP: s.clientIP, BaseURL: s.cfg.BaseURL})
}

// requestHTTPS reports whether the client reached the shop over HTTPS:
// TLS to this server, or X-Forwarded-Proto: https from a trusted proxy
// (--trusted-proxies; anyone else's header is ignored).
func (s *Server) requestHTTPS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	if _, trusted := s.fromTrustedProxy(r); !trusted {
		return false
	}
	protos := strings.Split(r.Header.Get("X-Forwarded-Proto"), ",")
	return strings.EqualFold(strings.TrimSpace(protos[len(protos)-1]), "https")
}

// keyPath reports whether p is one a key may be used on: WooCommerce's
// REST API, /wp-json/wc/v3/.
func keyPath(p string) bool {
	return strings.HasPrefix(p, "/wp-json/wc/v3/") || p == "/wp-json/wc/v3" || strings.HasPrefix(p, analyticsapi.Prefix+"/")
}

// KeyUpkeep deletes the spent OAuth nonces past their window (the upkeep
// loop, each minute).
func (s *Server) KeyUpkeep(ctx context.Context) {
	if _, err := s.keys.DeleteSpentNonces(ctx); err != nil && ctx.Err() == nil {
		s.log.Warn("delete spent OAuth nonces", "err", err)
	}
}
