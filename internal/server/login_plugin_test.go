package server_test

import (
	"net/url"
	"strings"
	"testing"
)

// The login-security plugin's own script, run against our form, appends a
// second wfls-captcha-jwt input (it looks the field up by id) after the
// form's own, which may be empty: the body then carries an empty value
// first and the proof last. PHP keeps the last; so do we, skipping empty
// ones, on the ajax check and on the real form.
func TestLoginProofLastNonEmptyValue(t *testing.T) {
	t.Parallel()
	eachLoginShop(t, func(t *testing.T, s *loginShop) {
		s.register("pat@example.com")
		b := s.browser()
		creds := url.Values{"username": {"pat@example.com"}, "password": {loginPass}}
		with := func(extra url.Values) url.Values {
			f := url.Values{}
			for k, v := range creds {
				f[k] = v
			}
			for k, v := range extra {
				f[k] = v
			}
			return f
		}
		m := b.authenticate("username", "pat@example.com", "password", loginPass, "wfls-captcha", b.solve("login")).json(t)
		proof := str(m, "captcha")
		if m["login"] != float64(1) || proof == "" {
			t.Fatalf("first check: %v", m)
		}
		// The ajax check with the form's empty field first and the
		// plugin's field last.
		f := with(url.Values{"action": {"wordfence_ls_authenticate"}, "wfls-captcha-jwt": {"", proof}})
		m = b.do("POST", "/wp-admin/admin-ajax.php", f).json(t)
		if m["login"] != float64(1) || m["error"] != nil {
			t.Fatalf("empty then proof: %v", m)
		}
		proof = str(m, "captcha")
		// The real form, the same way (and a trailing empty value does not
		// hide the proof either).
		page := b.loginPage()
		f = with(url.Values{"login": {"Log in"}, "woocommerce-login-nonce": {str(page, "login_nonce")}, "wfls-captcha-jwt": {"", proof, ""}})
		a := b.do("POST", "/my-account/", f)
		if a.status != 303 || b.cookie("wordpress_logged_in_") == nil {
			t.Fatalf("real form with empty then proof: %d %s", a.status, a.raw)
		}
		// Only empty values: no proof, the bot-check refuses.
		b2 := s.browser()
		m = b2.do("POST", "/wp-admin/admin-ajax.php", with(url.Values{"action": {"wordfence_ls_authenticate"}, "wfls-captcha-jwt": {"", ""}})).json(t)
		if !strings.Contains(str(m, "error"), "bot check") {
			t.Fatalf("empty proofs: %v", m)
		}
	})
}

// A wrong password answers reset false, as the plugin does: the prompt is
// not torn down for a credential error.
func TestLoginWrongPasswordResetFalse(t *testing.T) {
	t.Parallel()
	eachLoginShop(t, func(t *testing.T, s *loginShop) {
		s.register("quinn@example.com")
		b := s.browser()
		for _, login := range []string{"quinn@example.com", "nobody@example.com"} {
			a := b.authenticate("username", login, "password", "not the password", "wfls-captcha", b.solve("login"))
			m := a.json(t)
			if a.status != 200 || !strings.Contains(str(m, "error"), "incorrect") || m["reset"] != false {
				t.Errorf("%s: %d %s", login, a.status, a.raw)
			}
		}
	})
}
