package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"vitrine/internal/account"
	"vitrine/internal/botcheck"
	vmail "vitrine/internal/mail"
	"vitrine/internal/server"
	"vitrine/internal/server/servertest"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
	"vitrine/internal/support"
)

// --- harness ---

type loginShop struct {
	t        *testing.T
	db       *sqlstore.DB
	srv      *server.Server
	clock    *storetest.Clock
	accounts *account.Service
}

const loginPass = "correct horse battery staple"

func newLoginShop(t *testing.T, db *sqlstore.DB, cfg server.Config) *loginShop {
	t.Helper()
	clock := storetest.FrozenClock(time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC))
	if cfg.BaseURL == "" {
		cfg.BaseURL = "https://shop.example"
	}
	cfg.Now = clock.Now
	cfg.Secret = []byte("0123456789abcdef0123456789abcdef")
	srv := newServer(t, db, "", 1, cfg)
	servertest.Start(t, srv)
	return &loginShop{t: t, db: db, srv: srv, clock: clock, accounts: &account.Service{Store: db, Now: clock.Now}}
}

func (s *loginShop) register(email string) *account.User {
	s.t.Helper()
	u, err := s.accounts.Register(context.Background(), account.Registration{Email: email, Password: loginPass})
	if err != nil {
		s.t.Fatal(err)
	}
	return u
}

// enroll turns two-factor on for u and returns its secret and recovery
// codes; the clock moves past the confirming code's step.
func (s *loginShop) enroll(u *account.User) (string, []string) {
	s.t.Helper()
	ctx := context.Background()
	e, err := s.accounts.EnrollTOTP(ctx, u.ID, loginPass)
	if err != nil {
		s.t.Fatal(err)
	}
	codes, err := s.accounts.ConfirmTOTP(ctx, u.ID, s.code(e.Secret))
	if err != nil {
		s.t.Fatal(err)
	}
	s.clock.Add(30 * time.Second)
	return e.Secret, codes
}

func (s *loginShop) code(secret string) string {
	s.t.Helper()
	c, err := totp.GenerateCode(secret, s.clock.Now())
	if err != nil {
		s.t.Fatal(err)
	}
	return c
}

// browser is a client with a cookie jar (deleted cookies are dropped) and
// a client address.
type browser struct {
	s       *loginShop
	addr    string
	cookies servertest.Jar
}

func (s *loginShop) browser() *browser {
	return &browser{s: s, addr: "192.0.2.10:4000", cookies: servertest.Jar{}}
}

type answer struct {
	status int
	header http.Header
	raw    string
	set    []*http.Cookie
}

func (a answer) json(t *testing.T) map[string]any {
	t.Helper()
	return jsonObject(t, a.status, a.raw)
}

func (b *browser) do(method, path string, form url.Values) answer {
	b.s.t.Helper()
	return b.send(servertest.FormRequest(method, path, form))
}

// send serves a request from the browser's address with its cookies, and
// keeps the cookies the answer sets (deleted ones are dropped).
func (b *browser) send(req *http.Request) answer {
	req.RemoteAddr = b.addr
	rec := b.cookies.Serve(b.s.srv, req)
	res := rec.Result()
	return answer{status: res.StatusCode, header: res.Header, raw: rec.Body.String(), set: res.Cookies()}
}

func (b *browser) cookie(prefix string) *http.Cookie {
	for name, c := range b.cookies {
		if strings.HasPrefix(name, prefix) {
			return c
		}
	}
	return nil
}

// solve fetches a challenge for purpose and solves it as the widget does.
func (b *browser) solve(purpose string) string {
	b.s.t.Helper()
	a := b.do("GET", "/wp-json/vitrine/v1/botcheck/"+purpose, nil)
	if a.status != 200 {
		b.s.t.Fatalf("challenge: %d %s", a.status, a.raw)
	}
	var c botcheck.Challenge
	if err := json.Unmarshal([]byte(a.raw), &c); err != nil {
		b.s.t.Fatal(err)
	}
	p, err := botcheck.Solve(c)
	if err != nil {
		b.s.t.Fatal(err)
	}
	return p
}

// authenticate posts wordfence_ls_authenticate with the fields given.
func (b *browser) authenticate(fields ...string) answer {
	b.s.t.Helper()
	f := url.Values{"action": {"wordfence_ls_authenticate"}}
	for i := 0; i+1 < len(fields); i += 2 {
		f.Set(fields[i], fields[i+1])
	}
	return b.do("POST", "/wp-admin/admin-ajax.php", f)
}

// loginPage loads the login page's data.
func (b *browser) loginPage() map[string]any {
	b.s.t.Helper()
	a := b.do("GET", "/my-account/", nil)
	if a.status != 200 {
		b.s.t.Fatalf("login page: %d", a.status)
	}
	var m map[string]any
	pageData(b.s.t, a.raw, &m)
	return m
}

// submitLogin posts the real login form with the page's nonce (read as
// a visitor: a logged-in browser is shown its account instead).
func (b *browser) submitLogin(fields ...string) answer {
	b.s.t.Helper()
	guest := &browser{s: b.s, addr: b.addr, cookies: map[string]*http.Cookie{}}
	for n, c := range b.cookies {
		if !strings.HasPrefix(n, "wordpress_logged_in_") {
			guest.cookies[n] = c
		}
	}
	page := guest.loginPage()
	f := url.Values{"login": {"Log in"}, "woocommerce-login-nonce": {page["login_nonce"].(string)}}
	for i := 0; i+1 < len(fields); i += 2 {
		f.Set(fields[i], fields[i+1])
	}
	return b.do("POST", "/my-account/", f)
}

func (b *browser) submitRegister(fields ...string) answer {
	b.s.t.Helper()
	page := b.loginPage()
	f := url.Values{"register": {"Register"}, "woocommerce-register-nonce": {page["register_nonce"].(string)}}
	for i := 0; i+1 < len(fields); i += 2 {
		f.Set(fields[i], fields[i+1])
	}
	return b.do("POST", "/my-account/", f)
}

func str(m map[string]any, k string) string { s, _ := m[k].(string); return s }

// loggedIn reports whether the browser's login cookie names a live session
// (the log-out link answers a confirmation page to a customer and a
// redirect to a visitor).
func (b *browser) loggedIn() bool {
	b.s.t.Helper()
	a := b.do("GET", "/my-account/customer-logout/", nil)
	return a.status == 200
}

// --- the bot-check challenge ---

func TestBotcheckChallengeEndpoint(t *testing.T) {
	t.Parallel()
	eachLoginShop(t, func(t *testing.T, s *loginShop) {
		b := s.browser()
		for _, purpose := range []string{"login", "register"} {
			a := b.do("GET", "/wp-json/vitrine/v1/botcheck/"+purpose, nil)
			m := a.json(t)
			if a.status != 200 || a.header.Get("Cache-Control") != "no-store" || str(m, "algorithm") != "SHA-256" ||
				len(str(m, "challenge")) != 64 || str(m, "salt") == "" || len(str(m, "signature")) != 64 {
				t.Fatalf("%s: %d %v %s", purpose, a.status, a.header, a.raw)
			}
		}
		a := b.do("GET", "/wp-json/vitrine/v1/botcheck/contact-us", nil)
		if m := a.json(t); a.status != 404 || str(m, "code") != "rest_no_route" {
			t.Fatalf("unknown purpose: %d %s", a.status, a.raw)
		}
		// A register challenge does not pass the login check.
		a = b.authenticate("username", "nobody@example.com", "password", "x", "wfls-captcha", b.solve("register"))
		if m := a.json(t); !strings.Contains(str(m, "error"), "bot check") || m["reset"] != true {
			t.Fatalf("register payload on login: %s", a.raw)
		}
	})
}

// --- wordfence_ls_authenticate ---

func TestLoginAjaxAnswers(t *testing.T) {
	t.Parallel()
	eachLoginShop(t, func(t *testing.T, s *loginShop) {
		s.register("ann@example.com")
		b := s.browser()

		// Missing fields: the spec's error, no bot-check spent.
		for _, f := range [][]string{{"log", "ann@example.com"}, {"pwd", loginPass}, {}} {
			a := b.authenticate(f...)
			m := a.json(t)
			if a.status != 200 || str(m, "error") != "<strong>ERROR</strong>: A username and password must be provided." || m["reset"] != false {
				t.Fatalf("missing %v: %d %s", f, a.status, a.raw)
			}
		}

		// Bot-check: missing, the spec client's placeholder, malformed.
		for _, p := range []string{"", "grecaptcha-missing", "bm90IGpzb24=", strings.Repeat("A", 5000)} {
			a := b.authenticate("username", "ann@example.com", "password", loginPass, "wfls-captcha", p)
			m := a.json(t)
			if a.status != 200 || !strings.Contains(str(m, "error"), "bot check") || m["reset"] != true || m["captcha"] != nil {
				t.Fatalf("captcha %q: %d %s", p, a.status, a.raw)
			}
		}

		// Right password, no second factor: login 1 and a proof, never a login cookie.
		payload := b.solve("login")
		a := b.authenticate("username", "ann@example.com", "password", loginPass, "wfls-captcha", payload)
		m := a.json(t)
		if a.status != 200 || m["login"] != float64(1) || m["two_factor_required"] != nil || str(m, "captcha") == "" || m["error"] != nil {
			t.Fatalf("login: %d %s", a.status, a.raw)
		}
		if len(a.set) != 0 {
			t.Fatalf("the ajax check set cookies: %v", a.set)
		}
		// log/pwd work too.
		a = b.authenticate("log", "ann@example.com", "pwd", loginPass, "wfls-captcha", b.solve("login"))
		if m := a.json(t); m["login"] != float64(1) {
			t.Fatalf("log/pwd: %s", a.raw)
		}

		// The same payload again: replayed.
		a = b.authenticate("username", "ann@example.com", "password", loginPass, "wfls-captcha", payload)
		if m := a.json(t); !strings.Contains(str(m, "error"), "bot check") {
			t.Fatalf("replayed payload: %s", a.raw)
		}

		// Expired: solved now, sent eleven minutes later.
		late := b.solve("login")
		s.clock.Add(11 * time.Minute)
		a = b.authenticate("username", "ann@example.com", "password", loginPass, "wfls-captcha", late)
		if m := a.json(t); !strings.Contains(str(m, "error"), "bot check") {
			t.Fatalf("expired payload: %s", a.raw)
		}

		// Wrong password and unknown login: byte-identical answers, no proof.
		wrong := b.authenticate("username", "ann@example.com", "password", "not the password at all", "wfls-captcha", b.solve("login"))
		unknown := b.authenticate("username", "nobody@example.com", "password", "not the password at all", "wfls-captcha", b.solve("login"))
		if wrong.raw != unknown.raw || wrong.status != unknown.status || !strings.Contains(wrong.raw, "incorrect") || strings.Contains(wrong.raw, "captcha\"") {
			t.Fatalf("wrong %d %s / unknown %d %s", wrong.status, wrong.raw, unknown.status, unknown.raw)
		}
	})
}

func TestLoginLockout(t *testing.T) {
	t.Parallel()
	eachLoginShop(t, func(t *testing.T, s *loginShop) {
		s.register("bob@example.com")
		b := s.browser()
		for i := range 5 {
			a := b.authenticate("username", "bob@example.com", "password", "wrong password number", "wfls-captcha", b.solve("login"))
			if m := a.json(t); !strings.Contains(str(m, "error"), "incorrect") {
				t.Fatalf("failure %d: %s", i+1, a.raw)
			}
		}
		// The 6th, with the right password, is refused, with Retry-After.
		a := b.authenticate("username", "bob@example.com", "password", loginPass, "wfls-captcha", b.solve("login"))
		m := a.json(t)
		ra, _ := strconv.Atoi(a.header.Get("Retry-After"))
		if !strings.Contains(str(m, "error"), "Too many failed login attempts") || ra < 1 || ra > 900 || m["login"] != nil {
			t.Fatalf("6th: %v %s", a.header, a.raw)
		}
		// The real form is refused too, 429 with Retry-After.
		a = b.submitLogin("username", "bob@example.com", "password", loginPass, "wfls-captcha", b.solve("login"))
		if a.status != 429 || a.header.Get("Retry-After") == "" || !strings.Contains(a.raw, "Too many failed login attempts") {
			t.Fatalf("form after lockout: %d %v", a.status, a.header)
		}
		if b.cookie("wordpress_logged_in_") != nil {
			t.Fatal("logged in while locked out")
		}
		// After the window the right password works.
		s.clock.Add(16 * time.Minute)
		a = b.authenticate("username", "bob@example.com", "password", loginPass, "wfls-captcha", b.solve("login"))
		if m := a.json(t); m["login"] != float64(1) {
			t.Fatalf("after the window: %s", a.raw)
		}
	})
}

func TestLoginTwoFactorAjax(t *testing.T) {
	t.Parallel()
	eachLoginShop(t, func(t *testing.T, s *loginShop) {
		u := s.register("cat@example.com")
		secret, recovery := s.enroll(u)
		b := s.browser()
		creds := []string{"username", "cat@example.com", "password", loginPass}

		a := b.authenticate(append(creds, "wfls-captcha", b.solve("login"))...)
		m := a.json(t)
		if m["login"] != float64(1) || m["two_factor_required"] != true || str(m, "captcha") == "" {
			t.Fatalf("2fa required: %s", a.raw)
		}
		proof := str(m, "captcha")

		// A wrong code keeps the overlay (reset false) and hands a new proof.
		a = b.authenticate(append(creds, "wfls-captcha-jwt", proof, "wfls-token", "000000")...)
		m = a.json(t)
		if !strings.Contains(str(m, "error"), "incorrect") || m["reset"] != false || str(m, "captcha") == "" {
			t.Fatalf("wrong code: %s", a.raw)
		}
		// That proof was spent: using it again needs a new proof of work.
		a = b.authenticate(append(creds, "wfls-captcha-jwt", proof, "wfls-token", s.code(secret))...)
		if m := a.json(t); !strings.Contains(str(m, "error"), "bot check") {
			t.Fatalf("spent proof: %s", a.raw)
		}
		proof = str(m, "captcha") // the wrong-code answer's new proof
		code := s.code(secret)
		a = b.authenticate(append(creds, "wfls-captcha-jwt", proof, "wfls-token", code)...)
		m = a.json(t)
		if m["login"] != float64(1) || m["two_factor_required"] != nil || str(m, "captcha") == "" {
			t.Fatalf("right code: %s", a.raw)
		}
		// The same code again: refused as reused, overlay kept.
		a = b.authenticate(append(creds, "wfls-captcha", b.solve("login"), "wfls-token", code)...)
		m = a.json(t)
		if !strings.Contains(str(m, "error"), "already used") || m["reset"] != false {
			t.Fatalf("reused code: %s", a.raw)
		}
		// A recovery code works once.
		a = b.authenticate(append(creds, "wfls-captcha", b.solve("login"), "wfls-token", strings.ToUpper(recovery[3]))...)
		if m := a.json(t); m["login"] != float64(1) || m["two_factor_required"] != nil {
			t.Fatalf("recovery code: %s", a.raw)
		}
		a = b.authenticate(append(creds, "wfls-captcha", b.solve("login"), "wfls-token", recovery[3])...)
		if m := a.json(t); !strings.Contains(str(m, "error"), "incorrect") {
			t.Fatalf("recovery code twice: %s", a.raw)
		}
		// A proof is bound to its login: another login's form refuses it.
		a = b.authenticate(append(creds, "wfls-captcha", b.solve("login"))...)
		other := str(a.json(t), "captcha")
		a = b.authenticate("username", "someone@example.com", "password", loginPass, "wfls-captcha-jwt", other)
		if m := a.json(t); !strings.Contains(str(m, "error"), "bot check") {
			t.Fatalf("proof for another login: %s", a.raw)
		}
		// ... and to its address.
		a = b.authenticate(append(creds, "wfls-captcha", b.solve("login"))...)
		other = str(a.json(t), "captcha")
		b2 := s.browser()
		b2.addr = "198.51.100.7:5000"
		a = b2.authenticate(append(creds, "wfls-captcha-jwt", other)...)
		if m := a.json(t); !strings.Contains(str(m, "error"), "bot check") {
			t.Fatalf("proof from another address: %s", a.raw)
		}
	})
}

// --- the real form ---

func TestLoginFormSetsCookieAndRenewsSession(t *testing.T) {
	t.Parallel()
	eachLoginShop(t, func(t *testing.T, s *loginShop) {
		s.register("dan@example.com")
		b := s.browser()
		creds := []string{"username", "dan@example.com", "password", loginPass}

		// Page data: nonces, the bot-check URLs, remember-device on.
		page := b.loginPage()
		bc, _ := page["botcheck"].(map[string]any)
		if page["page"] != "account-login" || str(page, "login_nonce") == "" || str(bc, "login") != "/wp-json/vitrine/v1/botcheck/login" || page["remember_device"] != true {
			t.Fatalf("page data: %v", page)
		}

		// A bad nonce is refused.
		a := b.do("POST", "/my-account/", url.Values{"login": {"Log in"}, "woocommerce-login-nonce": {"0123456789"},
			"username": {"dan@example.com"}, "password": {loginPass}, "wfls-captcha": {b.solve("login")}})
		if a.status != 403 || b.cookie("wordpress_logged_in_") != nil {
			t.Fatalf("bad nonce: %d", a.status)
		}
		// Without a bot-check: refused, the login kept, the password not.
		a = b.submitLogin(creds...)
		var data map[string]any
		pageData(t, a.raw, &data)
		vals, _ := data["values"].(map[string]any)
		if a.status != 403 || !strings.Contains(a.raw, "bot check") || str(vals, "username") != "dan@example.com" || strings.Contains(a.raw, loginPass) {
			t.Fatalf("no bot-check: %d %v", a.status, vals)
		}

		// The ajax proof logs in through the real form.
		m := b.authenticate(append(creds, "wfls-captcha", b.solve("login"))...).json(t)
		proof := str(m, "captcha")
		a = b.submitLogin(append(creds, "wfls-captcha-jwt", proof, "redirect", "/checkout/")...)
		if a.status != 303 || a.header.Get("Location") != "/checkout/" {
			t.Fatalf("login: %d %v %s", a.status, a.header, a.raw)
		}
		c := b.cookie("wordpress_logged_in_")
		if c == nil || !c.HttpOnly || !c.Secure || c.SameSite != http.SameSiteLaxMode || c.Path != "/" {
			t.Fatalf("login cookie: %+v", c)
		}
		first := *c
		if !b.loggedIn() {
			t.Fatal("not logged in")
		}
		// The proof works once.
		b2 := s.browser()
		a = b2.submitLogin(append(creds, "wfls-captcha-jwt", proof)...)
		if a.status != 403 || b2.cookie("wordpress_logged_in_") != nil {
			t.Fatalf("replayed proof: %d", a.status)
		}

		// Logging in again renews the session id: the first cookie is dead.
		a = b.submitLogin(append(creds, "wfls-captcha", b.solve("login"), "redirect", "//evil.example/")...)
		if a.status != 303 || a.header.Get("Location") != "/my-account/" {
			t.Fatalf("second login: %d %v", a.status, a.header)
		}
		if c := b.cookie("wordpress_logged_in_"); c == nil || c.Value == first.Value {
			t.Fatal("session id not renewed")
		}
		old := s.browser()
		old.cookies[first.Name] = &first
		if old.loggedIn() {
			t.Fatal("the old session still works")
		}
	})
}

func TestLoginCookieNotSecureOnHTTP(t *testing.T) {
	t.Parallel()
	eachLoginShopWith(t, server.Config{BaseURL: "http://shop.test"}, func(t *testing.T, s *loginShop) {
		s.register("eve@example.com")
		b := s.browser()
		a := b.submitLogin("username", "eve@example.com", "password", loginPass, "wfls-captcha", b.solve("login"))
		c := b.cookie("wordpress_logged_in_")
		if a.status != 303 || c == nil || c.Secure || !c.HttpOnly {
			t.Fatalf("%d %+v", a.status, c)
		}
	})
}

func TestLoginFormTwoFactorAndRememberDevice(t *testing.T) {
	t.Parallel()
	eachLoginShop(t, func(t *testing.T, s *loginShop) {
		u := s.register("fay@example.com")
		secret, _ := s.enroll(u)
		creds := []string{"username", "fay@example.com", "password", loginPass}
		b := s.browser()

		// Enrolled, no code: refused.
		a := b.submitLogin(append(creds, "wfls-captcha", b.solve("login"))...)
		if a.status != 400 || b.cookie("wordpress_logged_in_") != nil || !strings.Contains(a.raw, "authenticator") {
			t.Fatalf("no code: %d", a.status)
		}
		// A wrong code: refused.
		a = b.submitLogin(append(creds, "wfls-captcha", b.solve("login"), "wfls-token", "123456")...)
		if a.status != 400 || b.cookie("wordpress_logged_in_") != nil {
			t.Fatalf("wrong code: %d", a.status)
		}
		// The code with "remember": logged in, the device remembered.
		code := s.code(secret)
		a = b.submitLogin(append(creds, "wfls-captcha", b.solve("login"), "wfls-token", code, "wfls-remember-device", "1")...)
		dev := b.cookie("wfls-remembered-")
		if a.status != 303 || b.cookie("wordpress_logged_in_") == nil || dev == nil || !dev.HttpOnly || !dev.Secure {
			t.Fatalf("code: %d %+v", a.status, dev)
		}
		if d := time.Until(dev.Expires); dev.Expires.Sub(s.clock.Now()) < 29*24*time.Hour || d == 0 {
			t.Fatalf("device cookie expiry %v", dev.Expires)
		}
		// The same code once more, in another browser: reused.
		b3 := s.browser()
		a = b3.submitLogin(append(creds, "wfls-captcha", b3.solve("login"), "wfls-token", code)...)
		if a.status != 400 || !strings.Contains(a.raw, "already used") {
			t.Fatalf("reused code on the form: %d", a.status)
		}

		// The remembered device skips the code (ajax and form).
		fresh := s.browser()
		fresh.cookies[dev.Name] = dev
		m := fresh.authenticate(append(creds, "wfls-captcha", fresh.solve("login"))...).json(t)
		if m["login"] != float64(1) || m["two_factor_required"] != nil {
			t.Fatalf("remembered device: %v", m)
		}
		a = fresh.submitLogin(append(creds, "wfls-captcha", fresh.solve("login"))...)
		if a.status != 303 {
			t.Fatalf("remembered device form: %d", a.status)
		}

		// A forged or edited remember cookie is ignored: the code is asked.
		parts := strings.Split(dev.Value, ".")
		forged := []string{
			parts[0] + "." + parts[1] + "." + strings.Repeat("0", len(parts[2])), // bad MAC
			parts[0] + ".AAAA" + parts[1][4:] + "." + parts[2],                   // other token
			strconv.FormatInt(u.ID+1, 10) + "." + parts[1] + "." + parts[2],      // other user
			"garbage",
		}
		for _, v := range forged {
			f := s.browser()
			f.cookies[dev.Name] = &http.Cookie{Name: dev.Name, Value: v}
			m := f.authenticate(append(creds, "wfls-captcha", f.solve("login"))...).json(t)
			if m["two_factor_required"] != true {
				t.Fatalf("forged cookie %q: %v", v, m)
			}
		}

		// With remembering off, the cookie is ignored and not offered.
		s2 := newLoginShop(t, s.db, server.Config{RememberDeviceOff: true})
		s2.clock.Set(s.clock.Now().Add(time.Minute))
		off := s2.browser()
		off.cookies[dev.Name] = dev
		if page := off.loginPage(); page["remember_device"] != false {
			t.Fatal("remember offered while off")
		}
		m = off.authenticate(append(creds, "wfls-captcha", off.solve("login"))...).json(t)
		if m["two_factor_required"] != true {
			t.Fatalf("remember off: %v", m)
		}
	})
}

// --- registration ---

func TestRegisterForm(t *testing.T) {
	t.Parallel()
	eachLoginShop(t, func(t *testing.T, s *loginShop) {
		b := s.browser()
		// Without the bot-check: 403, the support link and its token.
		a := b.submitRegister("email", "gil@example.com", "password", loginPass)
		var data map[string]any
		pageData(t, a.raw, &data)
		if a.status != 403 || !strings.Contains(a.raw, "Message to Support") || str(data, "support_nonce") == "" || data["form"] != "register" {
			t.Fatalf("no bot-check: %d %v", a.status, data["notices"])
		}
		if _, err := s.db.UserByEmail(context.Background(), "gil@example.com"); err == nil {
			t.Fatal("registered without the bot-check")
		}
		// A weak password: 400, the email kept.
		a = b.submitRegister("email", "gil@example.com", "password", "short", "wfls-captcha", b.solve("register"))
		pageData(t, a.raw, &data)
		vals, _ := data["values"].(map[string]any)
		if a.status != 400 || str(vals, "reg_email") != "gil@example.com" {
			t.Fatalf("weak password: %d %v", a.status, vals)
		}
		// Success: the account is made (a posted username is ignored:
		// accounts made here log in by email), not logged in, and sent to
		// the login form with the notice; the login keeps the redirect.
		a = b.submitRegister("email", "Gil@Example.com", "username", "gil", "password", loginPass, "wfls-captcha", b.solve("register"), "redirect", "/checkout/")
		if a.status != 303 || a.header.Get("Location") != "/my-account/?redirect=%2Fcheckout%2F" || b.cookie("wordpress_logged_in_") != nil {
			t.Fatalf("register: %d %v %s", a.status, a.header, a.raw)
		}
		u, err := s.db.UserByEmail(context.Background(), "gil@example.com")
		if err != nil || u.Username != "" || u.Role != account.RoleCustomer {
			t.Fatalf("user: %+v %v", u, err)
		}
		page := b.do("GET", "/my-account/?redirect=%2Fcheckout%2F", nil)
		if !strings.Contains(page.raw, "If you are new here, your account is ready") {
			t.Fatalf("no notice after registering: %s", page.raw)
		}
		a = b.submitLogin("username", "gil@example.com", "password", loginPass, "wfls-captcha", b.solve("login"), "redirect", "/checkout/")
		if a.status != 303 || a.header.Get("Location") != "/checkout/" || !b.loggedIn() {
			t.Fatalf("login after registering: %d %v", a.status, a.header)
		}
		// The same email again: the same answer, nothing changed (the
		// owner is mailed instead: TestRegisterAnswersAlikeAndMailsOwner).
		b2 := s.browser()
		b2.addr = "192.0.2.11:4000"
		a = b2.submitRegister("email", "gil@example.com", "password", "another fine password", "wfls-captcha", b2.solve("register"))
		if a.status != 303 || a.header.Get("Location") != "/my-account/" || b2.cookie("wordpress_logged_in_") != nil {
			t.Fatalf("duplicate: %d %v", a.status, a.header)
		}
		again, _ := s.db.UserByEmail(context.Background(), "gil@example.com")
		if again.PasswordHash != u.PasswordHash || again.ID != u.ID {
			t.Fatal("the duplicate changed the account")
		}
		// A login challenge does not pass registration.
		b3 := s.browser()
		a = b3.submitRegister("email", "hal@example.com", "password", loginPass, "wfls-captcha", b3.solve("login"))
		if a.status != 403 {
			t.Fatalf("login payload on register: %d", a.status)
		}
	})
}

// --- wordfence_ls_register_support ---

func TestRegisterSupport(t *testing.T) {
	t.Parallel()
	eachLoginShop(t, func(t *testing.T, s *loginShop) {
		b := s.browser()
		a := b.submitRegister("email", "ivy@example.com", "password", loginPass)
		var data map[string]any
		pageData(t, a.raw, &data)
		tok := str(data, "support_nonce")
		send := func(b *browser, tok, msg string) map[string]any {
			t.Helper()
			a := b.do("POST", "/wp-admin/admin-ajax.php", url.Values{"action": {"wordfence_ls_register_support"},
				"email": {"ivy@example.com"}, "username": {"ivy"}, "wfls-message": {msg}, "wfls-message-nonce": {tok}})
			if a.status != 200 {
				t.Fatalf("support: %d %s", a.status, a.raw)
			}
			return a.json(t)
		}
		// Bad token, and a good token from another address.
		if m := send(b, "123.abc", "Hello"); str(m, "error") == "" || m["message"] != nil {
			t.Fatalf("bad token: %v", m)
		}
		other := s.browser()
		other.addr = "203.0.113.9:1000"
		if m := send(other, tok, "Hello"); str(m, "error") == "" {
			t.Fatalf("other address: %v", m)
		}
		// Empty and too long.
		if m := send(b, tok, "   "); !strings.Contains(str(m, "error"), "write a message") {
			t.Fatalf("empty: %v", m)
		}
		if m := send(b, tok, strings.Repeat("é", 2001)); !strings.Contains(str(m, "error"), "too long") {
			t.Fatalf("long: %v", m)
		}
		// Two messages go; the third is over the limit.
		m := send(b, tok, "I cannot register <b>please</b> help")
		if !strings.Contains(str(m, "message"), "sent") {
			t.Fatalf("send: %v", m)
		}
		q, ok, err := s.db.MailByDedupeKey(context.Background(), support.KindMessage+":1")
		if err != nil || !ok || q.Kind != support.KindMessage {
			t.Fatalf("outbox: %+v %v %v", q, ok, err)
		}
		msg, err := s.db.SupportMessage(context.Background(), 1)
		if err != nil || msg.Text != "I cannot register <b>please</b> help" || msg.Email != "ivy@example.com" || msg.ClientIP != "192.0.2.10" {
			t.Fatalf("stored: %+v %v", msg, err)
		}
		if m := send(b, tok, strings.Repeat("é", 2000)); str(m, "message") == "" {
			t.Fatalf("second: %v", m)
		}
		if m := send(b, tok, "third"); !strings.Contains(str(m, "error"), "Too many messages") {
			t.Fatalf("third: %v", m)
		}
		// An expired token.
		s.clock.Add(61 * time.Minute)
		if m := send(b, tok, "late"); !strings.Contains(str(m, "error"), "expired") {
			t.Fatalf("expired token: %v", m)
		}

		// The outbox delivers it to the shop through a real SMTP server.
		sender, sink := servertest.SMTPSender(t)
		kinds := vmail.Renderers{support.KindMessage: support.Renderer(s.db, []string{"support@shop.example"})}
		ob := vmail.NewOutbox(s.db, sender, kinds.Render, nil, vmail.Options{})
		res, err := ob.RunOnce(context.Background())
		if err != nil || res.Sent != 2 {
			t.Fatalf("outbox: %+v %v", res, err)
		}
		got := sink.Messages()
		if len(got) != 2 || !strings.Contains(string(got[0].Data), "I cannot register <b>please</b> help") ||
			!strings.Contains(strings.Join(got[0].To, ","), "support@shop.example") {
			t.Fatalf("delivered: %+v", got)
		}
	})
}

// --- log out ---

func TestLogout(t *testing.T) {
	t.Parallel()
	eachLoginShop(t, func(t *testing.T, s *loginShop) {
		s.register("jo@example.com")
		b := s.browser()
		if a := b.submitLogin("username", "jo@example.com", "password", loginPass, "wfls-captcha", b.solve("login")); a.status != 303 {
			t.Fatalf("login: %d", a.status)
		}
		// Without the nonce, or with a wrong one: a confirmation page, still logged in.
		a := b.do("GET", "/my-account/customer-logout/?_wpnonce=0000000000", nil)
		var data map[string]any
		pageData(t, a.raw, &data)
		link := str(data, "logout_url")
		if a.status != 200 || data["page"] != "account-logout" || !strings.Contains(link, "_wpnonce=") || b.cookie("wordpress_logged_in_") == nil {
			t.Fatalf("confirm: %d %v", a.status, data)
		}
		session := *b.cookie("wordpress_logged_in_")
		// With it: logged out, the session ended.
		a = b.do("GET", link, nil)
		if a.status != 302 || a.header.Get("Location") != "/my-account/" || b.cookie("wordpress_logged_in_") != nil {
			t.Fatalf("logout: %d %v", a.status, a.header)
		}
		replay := s.browser()
		replay.cookies[session.Name] = &session
		if replay.loggedIn() {
			t.Fatal("the session survived the logout")
		}
		// A visitor is sent to the login page.
		if a := s.browser().do("GET", "/my-account/customer-logout/", nil); a.status != 302 {
			t.Fatalf("visitor: %d", a.status)
		}
	})
}

// --- the store is down ---

func TestLoginStoreDown(t *testing.T) {
	t.Parallel()
	eachLoginShop(t, func(t *testing.T, s *loginShop) {
		b := s.browser()
		payload := b.solve("login")
		if err := s.db.Close(); err != nil {
			t.Fatal(err)
		}
		a := b.authenticate("username", "kim@example.com", "password", loginPass, "wfls-captcha", payload)
		if m := a.json(t); a.status != 503 || str(m, "error") == "" {
			t.Fatalf("store down: %d %s", a.status, a.raw)
		}
	})
}

// The page is rendered on the server: both forms with WooCommerce's field
// names, never cached, and the CSP lets the bot-check's worker start.
func TestLoginPageRenders(t *testing.T) {
	t.Parallel()
	eachLoginShop(t, func(t *testing.T, s *loginShop) {
		a := s.browser().do("GET", "/my-account/?redirect=/checkout/", nil)
		for _, want := range []string{`id="username"`, `name="password"`, `name="woocommerce-login-nonce"`, `id="reg_email"`,
			`name="woocommerce-register-nonce"`, `href="/my-account/lost-password/"`, `id="wfls-captcha-jwt"`,
			`<meta name="robots" content="noindex, nofollow">`} {
			// HTML attribute names are case-insensitive (React writes autoComplete).
			if !strings.Contains(strings.ToLower(a.raw), strings.ToLower(want)) {
				t.Errorf("page lacks %s", want)
			}
		}
		// The two-factor prompt is built only when a login asks for it
		// (Wordfence's script builds its own when no element has its id).
		for _, unwanted := range []string{`id="wfls-prompt-overlay"`, `name="wfls-token"`} {
			if strings.Contains(a.raw, unwanted) {
				t.Errorf("the page renders %s before it is needed", unwanted)
			}
		}
		var data map[string]any
		pageData(t, a.raw, &data)
		if a.status != 200 || a.header.Get("Cache-Control") != "no-store, private" || data["redirect"] != "/checkout/" {
			t.Fatalf("%d %v %v", a.status, a.header.Get("Cache-Control"), data["redirect"])
		}
		if csp := a.header.Get("Content-Security-Policy"); !strings.Contains(csp, "worker-src 'self' blob:") || !strings.Contains(csp, "script-src 'self' 'sha256-") || strings.Contains(csp, "unsafe-eval") {
			t.Fatalf("CSP: %s", csp)
		}
		// An off-site redirect is dropped.
		a = s.browser().do("GET", "/my-account/?redirect=https://evil.example/", nil)
		pageData(t, a.raw, &data)
		if data["redirect"] != "" {
			t.Fatalf("redirect kept: %v", data["redirect"])
		}
	})
}
