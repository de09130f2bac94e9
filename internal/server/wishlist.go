package server

import (
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
}

// Wishlists is the wishlist service (other capabilities read who wishes
// for what through its store).
func (s *Server) Wishlists() *wishlist.Service { return s.wishlists }

// WishlistL10n is YITH's localised object (yith_wcwl_l10n) at a nonce
// tick (tests check its nonces against the actions').
func (s *Server) WishlistL10n(tick int64) map[string]any { return s.wishlistAPI.L10n(tick) }
