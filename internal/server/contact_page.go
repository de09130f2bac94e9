package server

import (
	"context"
	"net/http"

	"vitrine/internal/pages"
)

// handleContact serves the contact page (/contact/). It is the same for every
// visitor, so it goes through servePage and is cached for guests under its
// path alone: query strings neither reach the page nor multiply cache
// entries. The form posts to the CF7 feedback route with scripts only.
func (s *Server) handleContact(w http.ResponseWriter, r *http.Request) {
	s.servePage(w, r, pages.ContactPath, func(ctx context.Context, u string) (*pages.Result, error) {
		return s.loader.Contact(ctx, u)
	})
}
