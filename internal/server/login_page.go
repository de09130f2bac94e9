package server

import "net/http"

// Login and registration (helper A replaces this file).

func (s *Server) handleLoginPage(w http.ResponseWriter, r *http.Request) { s.handleNotFound(w, r) }

func (s *Server) handleLoginPost(w http.ResponseWriter, r *http.Request) { s.handleNotFound(w, r) }
