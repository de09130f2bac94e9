package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"vitrine/internal/httpx"
)

// Test doors into the logged-in frame (frame_test.go), so tests log in
// without the login endpoint.

// LoginCookieForTest starts a session for userID and answers the login
// cookie that names it.
func (s *Server) LoginCookieForTest(ctx context.Context, userID int64) (*http.Cookie, error) {
	token, _, err := s.accounts.CreateSession(ctx, userID)
	if err != nil {
		return nil, err
	}
	return &http.Cookie{Name: s.myAccount.LoginCookieName(), Value: token}, nil
}

// LogInForTest runs the my-account surface's LogIn for userID (what a
// login resets runs with it) and answers the new login cookie.
func (s *Server) LogInForTest(ctx context.Context, userID int64) (*http.Cookie, error) {
	u, err := s.accounts.User(ctx, userID)
	if err != nil {
		return nil, err
	}
	w := httptest.NewRecorder()
	if _, err := s.myAccount.LogIn(w, httptest.NewRequest(http.MethodPost, "/my-account/", nil).WithContext(ctx), u); err != nil {
		return nil, err
	}
	for _, c := range w.Result().Cookies() {
		if c.Name == s.myAccount.LoginCookieName() {
			return &http.Cookie{Name: c.Name, Value: c.Value}, nil
		}
	}
	return nil, http.ErrNoCookie
}

// RESTNonceForTest is userID's current wp_rest nonce.
func (s *Server) RESTNonceForTest(userID int64) string {
	return s.RESTNonce(userID, httpx.NonceTickAt(s.now()))
}
