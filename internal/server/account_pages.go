package server

import "net/http"

// The customer's account pages (helper B1 replaces this file).

func (s *Server) handleAccountDashboard(w http.ResponseWriter, r *http.Request) {
	s.handleNotFound(w, r)
}
