package server

import (
	"context"
	"net/http"

	"vitrine/internal/contact"
	"vitrine/internal/pages"
)

// handleContact serves the contact page (/contact/). It is the same for every
// visitor, so it goes through servePage and is cached for guests under its
// path alone: query strings neither reach the page nor multiply cache
// entries. With scripts the form posts to the CF7 feedback route; without
// them (or when a script failed before it took the submit) the browser
// posts the form itself to /contact/. Both are internal/contactapi's.
func (s *Server) handleContact(w http.ResponseWriter, r *http.Request) {
	s.servePage(w, r, pages.ContactPath, func(ctx context.Context, u string) (*pages.Result, error) {
		return s.loader.Contact(ctx, u)
	})
}

// Contact is the contact service (the app composes its mail renderer).
func (s *Server) Contact() *contact.Service { return s.contact }
