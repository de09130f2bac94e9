package server_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image/png"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"vitrine/internal/account"
	vmail "vitrine/internal/mail"
	"vitrine/internal/server"
	"vitrine/internal/server/servertest"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// The security page over HTTP: a customer logged in by a session made
// directly with the account service, a clock the tests move (on a 30-second
// boundary, so TOTP steps are start+k*30s), and the page's JSON data read
// back from the rendered HTML.

const securityURL = "/my-account/security/"
const secPassword = "correct horse battery"

type secPage struct {
	TwoFactor  bool `json:"two_factor"`
	CodesLeft  int  `json:"recovery_codes_left"`
	Enrollment *struct {
		Secret       string   `json:"secret"`
		SecretGroups []string `json:"secret_groups"`
		QR           string   `json:"qr"`
		OTPAuthURL   string   `json:"otpauth_url"`
	} `json:"enrollment"`
	RecoveryCodes []string `json:"recovery_codes"`
	Devices       []struct {
		ID    int64  `json:"id"`
		Label string `json:"label"`
	} `json:"devices"`
	Nonces map[string]string `json:"nonces"`
	Notice *struct {
		Kind string `json:"kind"`
		Text string `json:"text"`
	} `json:"notice"`
	Errors map[string]string `json:"errors"`
}

type secFixture struct {
	t      *testing.T
	ctx    context.Context
	db     *sqlstore.DB
	srv    *server.Server
	clk    *storetest.Clock
	acc    *account.Service
	user   *account.User
	jar    servertest.Jar
	nonces map[string]string
}

func newSecFixture(t *testing.T, db *sqlstore.DB) *secFixture {
	t.Helper()
	clk := storetest.FrozenClock(time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC))
	srv := newServer(t, db, "", 2, server.Config{BaseURL: "https://shop.example", CacheBytes: 1 << 20, CacheMaxAge: time.Hour,
		ChangePoll: 10 * time.Millisecond, Now: clk.Now})
	servertest.Start(t, srv)
	f := &secFixture{t: t, ctx: context.Background(), db: db, srv: srv, clk: clk, acc: srv.AccountsForTest(), jar: servertest.Jar{}}
	u, err := f.acc.Register(f.ctx, account.Registration{Email: "ada@example.com", Password: secPassword, DisplayName: "Ada"})
	if err != nil {
		t.Fatal(err)
	}
	f.user = u
	f.logIn()
	return f
}

// logIn starts a session for the user and keeps its cookie.
func (f *secFixture) logIn() {
	f.t.Helper()
	token, _, err := f.acc.CreateSession(f.ctx, f.user.ID)
	if err != nil {
		f.t.Fatal(err)
	}
	f.jar[f.srv.LoginCookieNameForTest()] = &http.Cookie{Name: f.srv.LoginCookieNameForTest(), Value: token}
}

func (f *secFixture) loginToken() string {
	if c := f.jar[f.srv.LoginCookieNameForTest()]; c != nil {
		return c.Value
	}
	return ""
}

func (f *secFixture) do(method, path string, form url.Values) (*http.Response, string) {
	f.t.Helper()
	res := f.jar.Serve(f.srv, servertest.FormRequest(method, path, form)).Result()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

func (f *secFixture) data(html string) secPage {
	f.t.Helper()
	var p secPage
	pageData(f.t, html, &p)
	if p.Nonces != nil {
		f.nonces = p.Nonces
	}
	return p
}

// get loads the page (200 expected).
func (f *secFixture) get() (secPage, string) {
	f.t.Helper()
	res, html := f.do("GET", securityURL, nil)
	if res.StatusCode != 200 {
		f.t.Fatalf("GET %s: %d", securityURL, res.StatusCode)
	}
	if cc := res.Header.Get("Cache-Control"); cc != "no-store, private" {
		f.t.Errorf("Cache-Control %q", cc)
	}
	return f.data(html), html
}

// post sends a form with the action's nonce (from the last page seen).
func (f *secFixture) post(action string, kv ...string) (*http.Response, string) {
	f.t.Helper()
	if f.nonces == nil {
		f.get()
	}
	form := url.Values{"action": {action}, "_wpnonce": {f.nonces[action]}}
	for i := 0; i+1 < len(kv); i += 2 {
		form.Set(kv[i], kv[i+1])
	}
	return f.do("POST", securityURL, form)
}

func (f *secFixture) code(secret string, at time.Time) string {
	f.t.Helper()
	c, err := totp.GenerateCodeCustom(secret, at, totp.ValidateOpts{Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		f.t.Fatal(err)
	}
	return c
}

func (f *secFixture) wrongCode(secret string) string {
	for _, c := range []string{"000000", "111111", "222222"} {
		now := f.clk.Now()
		if c != f.code(secret, now) && c != f.code(secret, now.Add(-30*time.Second)) && c != f.code(secret, now.Add(30*time.Second)) {
			return c
		}
	}
	f.t.Fatal("no wrong code")
	return ""
}

// enable turns two-factor on through the page and returns the secret and
// the recovery codes shown.
func (f *secFixture) enable() (string, []string) {
	f.t.Helper()
	res, html := f.post("enroll", "password", secPassword)
	p := f.data(html)
	if res.StatusCode != 200 || p.Enrollment == nil {
		f.t.Fatalf("enroll: %d %+v", res.StatusCode, p.Enrollment)
	}
	secret := p.Enrollment.Secret
	res, html = f.post("confirm", "code", f.code(secret, f.clk.Now()))
	p = f.data(html)
	if res.StatusCode != 200 || len(p.RecoveryCodes) != account.RecoveryCodes {
		f.t.Fatalf("confirm: %d %+v", res.StatusCode, p)
	}
	return secret, p.RecoveryCodes
}

func (f *secFixture) outbox(kind string) []vmail.Queued {
	f.t.Helper()
	return queuedMails(f.t, f.db, kind)
}

func TestSecurityPageNeedsLogin(t *testing.T) {
	t.Parallel()
	each(t, newSecFixture, func(t *testing.T, f *secFixture) {
		delete(f.jar, f.srv.LoginCookieNameForTest())
		for _, m := range []string{"GET", "POST"} {
			var form url.Values
			if m == "POST" {
				form = url.Values{"action": {"enroll"}}
			}
			res, _ := f.do(m, securityURL, form)
			if res.StatusCode != http.StatusFound || res.Header.Get("Location") != "/my-account/" {
				t.Errorf("%s as a visitor: %d %q", m, res.StatusCode, res.Header.Get("Location"))
			}
			if cc := res.Header.Get("Cache-Control"); cc != "no-store, private" {
				t.Errorf("%s Cache-Control %q", m, cc)
			}
		}
		if u, _ := f.acc.User(f.ctx, f.user.ID); u.TOTPPending != "" {
			t.Error("a visitor's POST started a setup")
		}
		if res, _ := f.do("GET", "/my-account/security", nil); res.StatusCode != http.StatusMovedPermanently {
			t.Errorf("without the slash: %d", res.StatusCode)
		}
	})
}

func TestSecurityEnrollAndConfirm(t *testing.T) {
	t.Parallel()
	each(t, newSecFixture, func(t *testing.T, f *secFixture) {
		p, html := f.get()
		if p.TwoFactor || p.Enrollment != nil || p.RecoveryCodes != nil || len(p.Nonces) != 6 {
			t.Fatalf("fresh page: %+v", p)
		}
		if !strings.Contains(html, "Set up two-factor authentication") {
			t.Error("no setup button in the HTML")
		}
		res, html := f.post("enroll", "password", secPassword)
		p = f.data(html)
		if res.StatusCode != 200 || p.Enrollment == nil {
			t.Fatalf("enroll: %d", res.StatusCode)
		}
		e := p.Enrollment
		if len(e.Secret) != 32 || strings.Join(e.SecretGroups, "") != e.Secret || !strings.HasPrefix(e.OTPAuthURL, "otpauth://totp/") {
			t.Errorf("enrollment %+v", e)
		}
		raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(e.QR, "data:image/png;base64,"))
		if err != nil || !strings.HasPrefix(e.QR, "data:image/png;base64,") {
			t.Fatalf("QR %q…: %v", e.QR[:min(len(e.QR), 40)], err)
		}
		if img, err := png.Decode(bytes.NewReader(raw)); err != nil || img.Bounds().Dx() != 240 {
			t.Errorf("QR image: %v", err)
		}
		if !strings.Contains(html, `id="wfls-totp-secret"`) || !strings.Contains(html, strings.Join(e.SecretGroups, " ")) {
			t.Error("the secret is not on the page as text")
		}
		// Sealed at rest.
		if u, _ := f.db.UserByID(f.ctx, f.user.ID); u.TOTPPending == "" || strings.Contains(u.TOTPPending, e.Secret) {
			t.Errorf("pending secret stored as %q", u.TOTPPending)
		}
		// A wrong code: 400, the field's error, the same setup shown again.
		wrong := f.wrongCode(e.Secret)
		res, html = f.post("confirm", "code", wrong)
		p = f.data(html)
		if res.StatusCode != 400 || p.Errors["confirm_code"] == "" || p.Notice == nil || p.Notice.Kind != "error" {
			t.Fatalf("wrong code: %d %+v", res.StatusCode, p)
		}
		if p.Enrollment == nil || p.Enrollment.Secret != e.Secret {
			t.Errorf("setup not shown again after a wrong code: %+v", p.Enrollment)
		}
		if !strings.Contains(html, `aria-describedby="wfls-confirm-code-error"`) || !strings.Contains(html, `id="wfls-confirm-code-error"`) {
			t.Error("the code's error is not tied to its field")
		}
		for _, bad := range []string{"", "12345", "abcdef"} { // with the one above: 4 of the 5 allowed
			if res, _ := f.post("confirm", "code", bad); res.StatusCode != 400 {
				t.Errorf("code %q: %d", bad, res.StatusCode)
			}
		}
		if u, _ := f.acc.User(f.ctx, f.user.ID); u.TwoFactor() {
			t.Fatal("a wrong code turned two-factor on")
		}
		// The right code: on, 10 codes shown once, a new session token.
		before := f.loginToken()
		res, html = f.post("confirm", "code", f.code(e.Secret, f.clk.Now()))
		p = f.data(html)
		if res.StatusCode != 200 || len(p.RecoveryCodes) != 10 || !p.TwoFactor || p.CodesLeft != 10 {
			t.Fatalf("confirm: %d %+v", res.StatusCode, p)
		}
		if !strings.Contains(html, p.RecoveryCodes[0]) || !strings.Contains(html, `id="wfls-recovery-codes"`) {
			t.Error("codes not in the HTML")
		}
		after := f.loginToken()
		if after == "" || after == before {
			t.Fatal("session not renewed after turning two-factor on")
		}
		if _, err := f.acc.Session(f.ctx, before); err != account.ErrNoSession {
			t.Errorf("old session token after enabling: %v", err)
		}
		if err := f.acc.UseRecoveryCode(f.ctx, f.user.ID, p.RecoveryCodes[3]); err != nil {
			t.Errorf("a shown recovery code: %v", err)
		}
		// Never shown again.
		shown := p.RecoveryCodes
		p, html = f.get()
		if p.RecoveryCodes != nil || strings.Contains(html, shown[0]) || strings.Contains(html, `id="wfls-recovery-codes"`) {
			t.Errorf("codes shown again: %v %v %v", p.RecoveryCodes, strings.Contains(html, shown[0]), strings.Contains(html, `id="wfls-recovery-codes"`))
		}
		if !p.TwoFactor || p.CodesLeft != 9 || p.Enrollment != nil {
			t.Errorf("status page: %+v", p)
		}
		if !strings.Contains(html, "9 recovery codes left.") {
			t.Error("codes left not shown")
		}
		// Enrolling again is refused while on.
		if res, _ := f.post("enroll", "password", secPassword); res.StatusCode != http.StatusConflict {
			t.Errorf("enroll while on: %d", res.StatusCode)
		}
		if u, _ := f.db.UserByID(f.ctx, f.user.ID); !strings.HasPrefix(u.TOTPSecret, "v1:") {
			t.Errorf("active secret stored as %q", u.TOTPSecret)
		}
	})
}

// A replayed code is refused and its owner is told by mail, once an hour,
// delivered through a real SMTP server.
func TestSecurityReusedCodeMailed(t *testing.T) {
	t.Parallel()
	each(t, newSecFixture, func(t *testing.T, f *secFixture) {
		secret, _ := f.enable()
		used := f.code(secret, f.clk.Now()) // the confirming code
		res, html := f.post("new-codes", "code", used)
		p := f.data(html)
		if res.StatusCode != 400 || p.Errors["new_codes_code"] == "" || !strings.Contains(p.Notice.Text, "already used") || p.RecoveryCodes != nil {
			t.Fatalf("reused code: %d %+v", res.StatusCode, p)
		}
		if q := f.outbox(vmail.KindAccountCodeReused); len(q) != 1 {
			t.Fatalf("%d notices queued", len(q))
		}
		f.post("new-codes", "code", used)
		if q := f.outbox(vmail.KindAccountCodeReused); len(q) != 1 {
			t.Errorf("%d notices after a second replay in the hour", len(q))
		}

		sender, sink := servertest.SMTPSender(t)
		kinds := vmail.Renderers{vmail.KindAccountCodeReused: vmail.CodeReusedRenderer(f.srv.AccountOwnerView)}
		ob := vmail.NewOutbox(f.db, sender, kinds.Render, nil, vmail.Options{})
		if res, err := ob.RunOnce(context.Background()); err != nil || res.Sent != 1 {
			t.Fatalf("run: %+v %v", res, err)
		}
		got := sink.Messages()
		if len(got) != 1 || got[0].To[0] != "ada@example.com" {
			t.Fatalf("delivered %+v", got)
		}
		m, text, html := textAndHTML(t, got[0].Data)
		subject, _ := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
		if subject != "[Vitrine] A used security code was entered again" {
			t.Errorf("subject %q", subject)
		}
		for _, want := range []string{"Hi Ada,", "January 5, 2026 at 12:00 UTC", "https://shop.example/my-account/security/", "change your password"} {
			if !strings.Contains(text, want) {
				t.Errorf("text lacks %q:\n%s", want, text)
			}
		}
		if !strings.Contains(html, `href="https://shop.example/my-account/security/"`) {
			t.Errorf("html lacks the link:\n%s", html)
		}
	})
}

// A stolen login cookie alone cannot turn two-factor on (and so lock the
// owner out): the setup needs the current password; refused, nothing is
// started and confirm has nothing to confirm.
func TestSecurityEnrollNeedsPassword(t *testing.T) {
	t.Parallel()
	each(t, newSecFixture, func(t *testing.T, f *secFixture) {
		_, html := f.get()
		if !strings.Contains(html, `id="wfls-enroll-password"`) || !strings.Contains(html, "Current password") {
			t.Error("no password field on the setup form")
		}
		for _, pw := range []string{"", "wrong password!"} {
			res, html := f.post("enroll", "password", pw)
			p := f.data(html)
			if res.StatusCode != 400 || p.Enrollment != nil || p.Errors["enroll_password"] == "" || p.Notice == nil || p.Notice.Kind != "error" {
				t.Fatalf("enroll with %q: %d %+v", pw, res.StatusCode, p)
			}
			if !strings.Contains(html, `aria-describedby="wfls-enroll-password-error wfls-enroll-password-hint"`) {
				t.Error("the password's error is not tied to its field")
			}
		}
		if u, _ := f.acc.User(f.ctx, f.user.ID); u.TOTPPending != "" || u.TwoFactor() {
			t.Fatal("a refused enroll started a setup")
		}
		if res, _ := f.post("confirm", "code", "123456"); res.StatusCode != http.StatusConflict {
			t.Errorf("confirm without a setup: %d", res.StatusCode)
		}
		// Wrong passwords count towards the per-user limit of the
		// password forms: a stolen session cannot guess here either.
		for range account.CodeFailureLimit - 1 {
			f.post("enroll", "password", "still wrong!")
		}
		res, _ := f.post("enroll", "password", secPassword)
		if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" {
			t.Fatalf("enroll after the limit: %d", res.StatusCode)
		}
		f.clk.Add(account.FailureWindow + time.Second)
		f.enable()
	})
}

func TestSecurityCodeLockout(t *testing.T) {
	t.Parallel()
	each(t, newSecFixture, func(t *testing.T, f *secFixture) {
		_, html := f.post("enroll", "password", secPassword)
		secret := f.data(html).Enrollment.Secret
		wrong := f.wrongCode(secret)
		for i := range account.CodeFailureLimit {
			if res, _ := f.post("confirm", "code", wrong); res.StatusCode != 400 {
				t.Fatalf("wrong code %d: %d", i+1, res.StatusCode)
			}
		}
		res, html := f.post("confirm", "code", f.code(secret, f.clk.Now()))
		p := f.data(html)
		if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" {
			t.Fatalf("after %d wrong codes: %d Retry-After %q", account.CodeFailureLimit, res.StatusCode, res.Header.Get("Retry-After"))
		}
		if p.Notice == nil || !strings.Contains(p.Notice.Text, "Please try again in 15 minutes") || p.Errors["confirm_code"] == "" {
			t.Errorf("locked notice: %+v", p)
		}
		if u, _ := f.acc.User(f.ctx, f.user.ID); u.TwoFactor() {
			t.Fatal("the right code got through the lockout")
		}
		// The window ends: the right code works.
		f.clk.Add(15*time.Minute + 30*time.Second)
		if res, _ := f.post("confirm", "code", f.code(secret, f.clk.Now())); res.StatusCode != 200 {
			t.Errorf("after the window: %d", res.StatusCode)
		}
	})
}

func TestSecurityDisable(t *testing.T) {
	t.Parallel()
	each(t, newSecFixture, func(t *testing.T, f *secFixture) {
		secret, _ := f.enable()
		if _, _, err := f.acc.RememberDevice(f.ctx, f.user.ID, "Firefox"); err != nil {
			t.Fatal(err)
		}
		f.clk.Add(30 * time.Second)
		res, html := f.post("disable", "password", "wrong password!", "code", f.code(secret, f.clk.Now()))
		p := f.data(html)
		if res.StatusCode != 400 || p.Errors["disable_password"] != "The password is not correct." || !p.TwoFactor {
			t.Fatalf("wrong password: %d %+v", res.StatusCode, p)
		}
		if !strings.Contains(html, `aria-describedby="wfls-disable-password-error"`) {
			t.Error("the password's error is not tied to its field")
		}
		// The password alone no longer turns it off: a stolen session
		// that learnt the password still needs the second factor.
		res, html = f.post("disable", "password", secPassword)
		p = f.data(html)
		if res.StatusCode != 400 || !strings.Contains(p.Errors["disable_code"], "recovery codes") || !p.TwoFactor {
			t.Fatalf("no code: %d %+v", res.StatusCode, p)
		}
		if !strings.Contains(html, `aria-describedby="wfls-disable-code-error wfls-disable-code-hint"`) {
			t.Error("the code's error is not tied to its field")
		}
		res, html = f.post("disable", "password", secPassword, "code", f.wrongCode(secret))
		if p = f.data(html); res.StatusCode != 400 || p.Errors["disable_code"] == "" || !p.TwoFactor {
			t.Fatalf("wrong code: %d %+v", res.StatusCode, p)
		}
		if u, _ := f.acc.User(f.ctx, f.user.ID); !u.TwoFactor() {
			t.Fatal("a refused disable turned two-factor off")
		}
		before := f.loginToken()
		res, _ = f.post("disable", "password", secPassword, "code", f.code(secret, f.clk.Now()))
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != securityURL {
			t.Fatalf("disable: %d %q", res.StatusCode, res.Header.Get("Location"))
		}
		if f.loginToken() == before {
			t.Error("session not renewed after turning two-factor off")
		}
		p, _ = f.get()
		if p.TwoFactor || p.Notice == nil || !strings.HasPrefix(p.Notice.Text, "Two-factor authentication is off.") || len(p.Devices) != 0 {
			t.Fatalf("after disabling: %+v", p)
		}
		if p, _ = f.get(); p.Notice != nil {
			t.Errorf("notice shown twice: %+v", p.Notice)
		}
		if res, _ := f.post("disable", "password", secPassword); res.StatusCode != http.StatusConflict {
			t.Errorf("disable while off: %d", res.StatusCode)
		}
	})
}

func TestSecurityNewRecoveryCodes(t *testing.T) {
	t.Parallel()
	each(t, newSecFixture, func(t *testing.T, f *secFixture) {
		secret, old := f.enable()
		// No proof, a wrong password: refused, old codes still good.
		res, html := f.post("new-codes")
		if p := f.data(html); res.StatusCode != 400 || p.Errors["new_codes_code"] == "" {
			t.Errorf("no proof: %d %+v", res.StatusCode, p.Errors)
		}
		res, html = f.post("new-codes", "password", "wrong password!")
		if p := f.data(html); res.StatusCode != 400 || p.Errors["new_codes_password"] == "" || p.RecoveryCodes != nil {
			t.Errorf("wrong password: %d %+v", res.StatusCode, p.Errors)
		}
		if err := f.acc.UseRecoveryCode(f.ctx, f.user.ID, old[0]); err != nil {
			t.Fatalf("old code after refusals: %v", err)
		}
		f.clk.Add(30 * time.Second)
		res, html = f.post("new-codes", "code", f.code(secret, f.clk.Now()))
		p := f.data(html)
		if res.StatusCode != 200 || len(p.RecoveryCodes) != 10 || p.CodesLeft != 10 {
			t.Fatalf("with a code: %d %+v", res.StatusCode, p)
		}
		if err := f.acc.UseRecoveryCode(f.ctx, f.user.ID, old[1]); err != account.ErrCodeInvalid {
			t.Errorf("an old code after renewal: %v", err)
		}
		res, html = f.post("new-codes", "password", secPassword)
		p2 := f.data(html)
		if res.StatusCode != 200 || len(p2.RecoveryCodes) != 10 || p2.RecoveryCodes[0] == p.RecoveryCodes[0] {
			t.Fatalf("with the password: %d %+v", res.StatusCode, p2)
		}
		if p, _ := f.get(); p.RecoveryCodes != nil {
			t.Error("new codes shown again")
		}
	})
}

func TestSecurityDevices(t *testing.T) {
	t.Parallel()
	each(t, newSecFixture, func(t *testing.T, f *secFixture) {
		f.enable()
		label := `<script>alert(1)</script> Firefox on Linux`
		tok1, d1, err := f.acc.RememberDevice(f.ctx, f.user.ID, label)
		if err != nil {
			t.Fatal(err)
		}
		_, d2, _ := f.acc.RememberDevice(f.ctx, f.user.ID, "Safari on iPhone")
		other, _ := f.acc.Register(f.ctx, account.Registration{Email: "bob@example.com", Password: secPassword})
		_, d3, _ := f.acc.RememberDevice(f.ctx, other.ID, "Bob's browser")

		// The device's cookie skips the code for its user.
		rec := httptest.NewRecorder()
		f.srv.SetDeviceCookieForTest(rec, f.user.ID, tok1, d1.ExpiresAt)
		deviceCookie := rec.Result().Cookies()[0]
		remembered := func() bool {
			req := httptest.NewRequest("GET", "/my-account/", nil)
			req.AddCookie(deviceCookie)
			return f.srv.DeviceRememberedForTest(req, f.user.ID)
		}
		if !remembered() {
			t.Fatal("setup: the device is not remembered")
		}

		p, html := f.get()
		if len(p.Devices) != 2 {
			t.Fatalf("devices %+v", p.Devices)
		}
		if strings.Contains(html, "<script>alert(1)") || !strings.Contains(html, "&lt;script>alert(1)&lt;/script> Firefox on Linux") {
			t.Error("the device label is not escaped in the HTML")
		}
		// Another user's device, a made-up id, no id: 404, nothing forgotten.
		for _, id := range []string{fmt.Sprint(d3.ID), "999999", "", "x"} {
			if res, _ := f.post("forget-device", "device", id); res.StatusCode != http.StatusNotFound {
				t.Errorf("forget device %q: %d", id, res.StatusCode)
			}
		}
		if ds, _ := f.acc.ListDevices(f.ctx, other.ID); len(ds) != 1 {
			t.Error("another user's device was forgotten")
		}
		res, _ := f.post("forget-device", "device", fmt.Sprint(d1.ID))
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != securityURL {
			t.Fatalf("forget: %d", res.StatusCode)
		}
		if remembered() {
			t.Error("a forgotten device's cookie still skips the code")
		}
		p, _ = f.get()
		if len(p.Devices) != 1 || p.Devices[0].ID != d2.ID || p.Notice == nil || !strings.Contains(p.Notice.Text, "device was forgotten") {
			t.Fatalf("after forgetting one: %+v %+v", p.Devices, p.Notice)
		}
		res, _ = f.post("forget-all")
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("forget all: %d", res.StatusCode)
		}
		p, html = f.get()
		if len(p.Devices) != 0 || !strings.Contains(html, "No device is remembered.") {
			t.Errorf("after forgetting all: %+v", p.Devices)
		}
		if ds, _ := f.acc.ListDevices(f.ctx, other.ID); len(ds) != 1 {
			t.Error("forget all reached another user")
		}
	})
}

// Every form refuses a missing, wrong or other form's nonce with 403 and
// changes nothing; an unknown action is a 400.
func TestSecurityBadNonce(t *testing.T) {
	t.Parallel()
	each(t, newSecFixture, func(t *testing.T, f *secFixture) {
		secret, _ := f.enable()
		_, d, _ := f.acc.RememberDevice(f.ctx, f.user.ID, "Firefox")
		f.clk.Add(30 * time.Second)
		fields := map[string][]string{
			"enroll":        {"password", secPassword},
			"confirm":       {"code", f.code(secret, f.clk.Now())},
			"new-codes":     {"password", secPassword},
			"disable":       {"password", secPassword, "code", f.code(secret, f.clk.Now())},
			"forget-device": {"device", fmt.Sprint(d.ID)},
			"forget-all":    nil,
		}
		for action, kv := range fields {
			other := "enroll"
			if action == "enroll" {
				other = "disable"
			}
			for _, nonce := range []string{"", "0123456789", f.nonces[other]} {
				form := url.Values{"action": {action}, "_wpnonce": {nonce}}
				for i := 0; i+1 < len(kv); i += 2 {
					form.Set(kv[i], kv[i+1])
				}
				res, html := f.do("POST", securityURL, form)
				if res.StatusCode != http.StatusForbidden {
					t.Errorf("%s with nonce %q: %d", action, nonce, res.StatusCode)
					continue
				}
				if p := f.data(html); p.Notice == nil || p.Notice.Kind != "error" || p.RecoveryCodes != nil {
					t.Errorf("%s: %+v", action, p.Notice)
				}
			}
		}
		u, _ := f.acc.User(f.ctx, f.user.ID)
		if !u.TwoFactor() || u.TOTPPending != "" {
			t.Error("a refused form changed two-factor")
		}
		if n, _ := f.acc.RecoveryCodesLeft(f.ctx, f.user.ID); n != 10 {
			t.Errorf("%d codes left", n)
		}
		if ds, _ := f.acc.ListDevices(f.ctx, f.user.ID); len(ds) != 1 {
			t.Error("a refused form forgot a device")
		}
		// A nonce is bound to the customer: another's does not pass.
		bob, _ := f.acc.Register(f.ctx, account.Registration{Email: "bob@example.com", Password: secPassword})
		g := &secFixture{t: t, ctx: f.ctx, db: f.db, srv: f.srv, clk: f.clk, acc: f.acc, user: bob, jar: servertest.Jar{}}
		g.logIn()
		g.get()
		res, _ := f.do("POST", securityURL, url.Values{"action": {"forget-all"}, "_wpnonce": {g.nonces["forget-all"]}})
		if res.StatusCode != http.StatusForbidden {
			t.Errorf("another customer's nonce: %d", res.StatusCode)
		}
		res, _ = f.post("nope")
		if res.StatusCode != http.StatusBadRequest {
			t.Errorf("unknown action: %d", res.StatusCode)
		}
	})
}
