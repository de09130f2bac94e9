package server

import (
	"net/http"
	"time"

	"vitrine/internal/account"
)

// Hooks for the security page's tests (package server_test): the account
// service and the cookies of auth.go.

func (s *Server) AccountsForTest() *account.Service { return s.accounts }

func (s *Server) LoginCookieNameForTest() string { return s.loginCookieName() }

func (s *Server) SetDeviceCookieForTest(w http.ResponseWriter, userID int64, token string, expires time.Time) {
	s.setDeviceCookie(w, userID, token, expires)
}

func (s *Server) DeviceRememberedForTest(r *http.Request, userID int64) bool {
	return s.deviceRemembered(r, userID)
}
