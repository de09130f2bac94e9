package server

import (
	"net/http"
	"time"

	"vitrine/internal/account"
)

// Hooks for the security page's tests (package server_test): the account
// service and the cookies of internal/myaccount.

func (s *Server) AccountsForTest() *account.Service { return s.accounts }

func (s *Server) LoginCookieNameForTest() string { return s.myAccount.LoginCookieName() }

func (s *Server) SetDeviceCookieForTest(w http.ResponseWriter, userID int64, token string, expires time.Time) {
	s.myAccount.SetDeviceCookie(w, userID, token, expires)
}

func (s *Server) DeviceRememberedForTest(r *http.Request, userID int64) bool {
	return s.myAccount.DeviceRemembered(r, userID)
}
