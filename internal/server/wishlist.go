package server

import (
	"crypto/sha256"
	"encoding/base64"
	"strings"

	"vitrine/internal/httpx"
	"vitrine/internal/render"
	"vitrine/internal/wishlist"
	"vitrine/internal/wishlistapi"
)

// The wishlist as the server composes it (internal/wishlist): the service
// on the store and the product cache, its surface (internal/wishlistapi)
// on the storefront's pages. The login merges lists through it, admin-ajax
// answers YITH's actions through it, and the hourly cart cleaning deletes
// expired guests' lists.

func (s *Server) initWishlist() {
	s.wishlists = &wishlist.Service{Store: s.db, Catalog: s.products, Now: s.now, Log: s.log}
	s.wishlistAPI = wishlistapi.New(wishlistapi.Deps{Sessions: s.Sessions, Wishlists: s.wishlists, Pages: s.renderer, Loader: s.loader,
		BaseURL: s.cfg.BaseURL, Now: s.now, Log: s.log})
	// Every page carries YITH's localised script (its nonces are the
	// visitors', the same for everyone at a tick).
	s.loader.Localize = func() string { return s.wishlistAPI.L10nScript(httpx.NonceTickAt(s.now())) }
}

// Wishlists is the wishlist service (other capabilities read who wishes
// for what through its store).
func (s *Server) Wishlists() *wishlist.Service { return s.wishlists }

// WishlistL10n is YITH's localised object (yith_wcwl_l10n) at a nonce
// tick (tests check its nonces against the actions').
func (s *Server) WishlistL10n(tick int64) map[string]any { return s.wishlistAPI.L10n(tick) }

// cspCache is the policy of the current nonce tick.
type cspCache struct {
	tick   int64
	policy string
}

// contentSecurityPolicy is the shop's policy with the hashes of the
// wishlist's localised script at this nonce tick and the one before (a
// page cached near the end of a tick carries the older text; nonces of
// both ticks are accepted).
func (s *Server) contentSecurityPolicy() string {
	if s.wishlistAPI == nil {
		return httpx.ContentSecurityPolicy
	}
	tick := httpx.NonceTickAt(s.now())
	if c := s.csp.Load(); c != nil && c.tick == tick {
		return c.policy
	}
	hash := func(t int64) string {
		sum := sha256.Sum256([]byte(s.wishlistAPI.L10nScript(t)))
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	p := strings.Replace(httpx.ContentSecurityPolicy, render.HeadScriptCSP, render.HeadScriptCSP+" "+hash(tick)+" "+hash(tick-1), 1)
	s.csp.Store(&cspCache{tick: tick, policy: p})
	return p
}

// WishlistL10nScript is the localised script's text at a tick (tests).
func (s *Server) WishlistL10nScript(tick int64) string { return s.wishlistAPI.L10nScript(tick) }
