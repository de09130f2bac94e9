package server_test

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/payment"
)

// The customer's account pages and checkout for customers over HTTP. A
// customer is logged in by creating a session directly and setting the
// login cookie, as the login form would.

const accountPassword = "correct horse battery staple"

var loginCookie = func() string {
	sum := md5.Sum([]byte("https://shop.example"))
	return "wordpress_logged_in_" + hex.EncodeToString(sum[:])
}()

func (s *shop) accounts() *account.Service { return &account.Service{Store: s.db, Now: s.db.Now} }

// customer registers email and answers a client logged in as it.
func (s *shop) customer(email string) (*client, *account.User) {
	s.t.Helper()
	ctx := context.Background()
	u, err := s.accounts().Register(ctx, account.Registration{Email: email, Password: accountPassword})
	if err != nil {
		s.t.Fatal(err)
	}
	c := s.client()
	c.logIn(u)
	return c, u
}

func (c *client) logIn(u *account.User) {
	c.s.t.Helper()
	tok, _, err := c.s.accounts().CreateSession(context.Background(), u.ID)
	if err != nil {
		c.s.t.Fatal(err)
	}
	c.cookies[loginCookie] = &http.Cookie{Name: loginCookie, Value: tok}
}

// placeFor places a one-tank order straight in the store for userID (0:
// a guest) with billing email.
func (s *shop) placeFor(userID int64, email string) *checkout.Order {
	s.t.Helper()
	ctx := context.Background()
	sess := fmt.Sprintf("t_%030x", time.Now().UnixNano())
	id := s.productID("cotton-tank-top")
	now := s.db.Now() // the shop's clock
	if _, err := s.db.AddLine(ctx, sess, cart.Line{ProductID: id, Quantity: 1, UnitPrice: 2200, Key: cart.LineKey(id, 0, nil)}, now, now.Add(time.Hour),
		func(*cart.Cart, int64, int64) error { return nil }); err != nil {
		s.t.Fatal(err)
	}
	b := cart.Address{FirstName: "Ada", LastName: "Lovelace", Address1: "1 Main St", City: "Sacramento", State: "CA", Postcode: "95814", Country: "US"}
	bill := b
	bill.Email = email
	o, _, err := s.db.PlaceOrder(ctx, checkout.PlaceOrderInput{Session: sess, CustomerID: userID, Method: payment.BankTransfer{},
		Status: checkout.StatusOnHold, Config: s.srv.CheckoutConfig(), Customer: checkout.Customer{Billing: bill, Shipping: b},
		IdempotencyScope: "test:" + sess, IdempotencyKey: sess, RequestHash: sess, Now: now})
	if err != nil {
		s.t.Fatal(err)
	}
	return o
}

type accountData struct {
	Page      string `json:"page"`
	Section   string `json:"section"`
	Notice    string `json:"notice"`
	LogoutURL string `json:"logout_url"`
	Customer  struct {
		DisplayName string `json:"display_name"`
		Email       string `json:"email"`
	} `json:"customer"`
	Errors *struct {
		Notices []string          `json:"notices"`
		Fields  map[string]string `json:"fields"`
	} `json:"errors"`
	Orders *struct {
		Rows []struct {
			ID          int64  `json:"id"`
			Status      string `json:"status"`
			StatusLabel string `json:"status_label"`
			Total       string `json:"total"`
			URL         string `json:"url"`
		} `json:"rows"`
		Page    int    `json:"page"`
		Pages   int    `json:"pages"`
		Total   int    `json:"total"`
		PrevURL string `json:"prev_url"`
		NextURL string `json:"next_url"`
	} `json:"orders"`
	Order *struct {
		ID     int64  `json:"id"`
		Number string `json:"number"`
		Lines  []any  `json:"lines"`
	} `json:"order"`
	Addresses *struct {
		Billing  map[string]string `json:"billing"`
		Shipping map[string]string `json:"shipping"`
	} `json:"addresses"`
	AddressForm *struct {
		Kind   string            `json:"kind"`
		Nonce  string            `json:"nonce"`
		Values map[string]string `json:"values"`
	} `json:"address_form"`
	Countries   []any `json:"countries"`
	AccountForm *struct {
		FirstName    string `json:"first_name"`
		DisplayName  string `json:"display_name"`
		Email        string `json:"email"`
		Nonce        string `json:"nonce"`
		DeleteNonce  string `json:"delete_nonce"`
		PrivacyNonce string `json:"privacy_nonce"`
	} `json:"account_form"`
}

// page GETs an account page and reads its data; status is checked.
func (c *client) page(path string, status int) accountData {
	c.s.t.Helper()
	r := c.do("GET", path, "")
	if r.status != status {
		c.s.t.Fatalf("GET %s: %d, want %d", path, r.status, status)
	}
	if cc := r.header.Get("Cache-Control"); cc != "no-store, private" {
		c.s.t.Errorf("GET %s: Cache-Control %q", path, cc)
	}
	var d accountData
	pageData(c.s.t, r.raw, &d)
	if d.Page != "account" {
		c.s.t.Fatalf("GET %s: page %q", path, d.Page)
	}
	return d
}

func (c *client) postForm(path string, form url.Values) (cartResp, accountData) {
	c.s.t.Helper()
	r := c.do("POST", path, form.Encode())
	var d accountData
	if r.status != http.StatusSeeOther && r.status != http.StatusFound {
		pageData(c.s.t, r.raw, &d)
	}
	return r, d
}

func TestAccountPagesVisitors(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		c := s.client()
		for _, p := range []string{"/my-account/orders/", "/my-account/orders/2/", "/my-account/view-order/1/", "/my-account/edit-address/",
			"/my-account/edit-address/billing/", "/my-account/edit-account/"} {
			r := c.do("GET", p, "")
			if r.status != http.StatusFound || r.header.Get("Location") != "/my-account/" {
				t.Errorf("visitor GET %s: %d %q", p, r.status, r.header.Get("Location"))
			}
		}
		for _, p := range []string{"/my-account/edit-address/billing/", "/my-account/edit-account/", "/my-account/delete-account/"} {
			if r := c.do("POST", p, "delete_password=x"); r.status != http.StatusFound {
				t.Errorf("visitor POST %s: %d", p, r.status)
			}
		}
		// A session that ended is a visitor too.
		cust, u := s.customer("ada@example.com")
		if err := s.accounts().DeleteUserSessions(context.Background(), u.ID); err != nil {
			t.Fatal(err)
		}
		if r := cust.do("GET", "/my-account/orders/", ""); r.status != http.StatusFound {
			t.Errorf("ended session: %d", r.status)
		}
	})
}

func TestAccountDashboardAndOrders(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		c, u := s.customer("ada@example.com")
		_, bob := s.customer("bob@example.com")

		if raw := c.do("GET", "/my-account/", "").raw; !strings.Contains(raw, "Hello <strong>ada</strong>") {
			t.Error("dashboard HTML lacks the greeting")
		}
		d := c.page("/my-account/", 200)
		if d.Section != "dashboard" || d.Customer.DisplayName != "ada" || !strings.HasPrefix(d.LogoutURL, "/my-account/customer-logout/?_wpnonce=") {
			t.Errorf("dashboard: %+v", d)
		}

		// No orders yet.
		d = c.page("/my-account/orders/", 200)
		if d.Section != "orders" || d.Orders == nil || d.Orders.Total != 0 || len(d.Orders.Rows) != 0 {
			t.Fatalf("empty orders: %+v", d.Orders)
		}

		var mine []*checkout.Order
		for range account.OrdersPerPage + 1 {
			mine = append(mine, s.placeFor(u.ID, u.Email))
		}
		bobs := s.placeFor(bob.ID, bob.Email)
		guest := s.placeFor(0, u.Email) // not linked: the email is not verified

		// Rendered on the server: the table in its scrolling region, the navigation.
		if raw := c.do("GET", "/my-account/orders/", "").raw; !strings.Contains(raw, `class="account-orders-scroll"`) ||
			!strings.Contains(raw, `aria-label="Account pages"`) || !strings.Contains(raw, `<meta name="robots" content="noindex, nofollow">`) {
			t.Error("orders page HTML lacks the table region, the navigation or noindex")
		}
		d = c.page("/my-account/orders/", 200)
		o := d.Orders
		if o.Total != len(mine) || o.Pages != 2 || len(o.Rows) != account.OrdersPerPage || o.Rows[0].ID != mine[len(mine)-1].ID ||
			o.NextURL != "/my-account/orders/2/" || o.PrevURL != "" {
			t.Fatalf("page 1: %+v", o)
		}
		row := o.Rows[0]
		if row.StatusLabel != "On hold" || row.URL != fmt.Sprintf("/my-account/view-order/%d/", row.ID) || !strings.HasSuffix(row.Total, " for 1 item") {
			t.Errorf("row: %+v", row)
		}
		for _, r := range o.Rows {
			if r.ID == bobs.ID || r.ID == guest.ID {
				t.Errorf("someone else's order listed: %d", r.ID)
			}
		}
		d = c.page("/my-account/orders/2/", 200)
		if len(d.Orders.Rows) != 1 || d.Orders.Rows[0].ID != mine[0].ID || d.Orders.PrevURL != "/my-account/orders/" || d.Orders.NextURL != "" {
			t.Errorf("page 2: %+v", d.Orders)
		}
		// Paging past the end, or nonsense, is a 404 with a notice.
		for _, p := range []string{"/my-account/orders/3/", "/my-account/orders/0/", "/my-account/orders/abc/"} {
			if d := c.page(p, 404); d.Errors == nil || len(d.Orders.Rows) != 0 {
				t.Errorf("%s: %+v", p, d)
			}
		}

		// One order; another customer's, a guest's or an unknown one is a 404 showing nothing.
		d = c.page(fmt.Sprintf("/my-account/view-order/%d/", mine[0].ID), 200)
		if d.Section != "view-order" || d.Order == nil || d.Order.ID != mine[0].ID || len(d.Order.Lines) != 1 {
			t.Errorf("view order: %+v", d.Order)
		}
		for _, id := range []string{itoa(bobs.ID), itoa(guest.ID), "999999", "x"} {
			r := c.do("GET", "/my-account/view-order/"+id+"/", "")
			if r.status != 404 || strings.Contains(r.raw, "Lovelace") {
				t.Errorf("view order %s: %d", id, r.status)
			}
			var d accountData
			pageData(t, r.raw, &d)
			if d.Order != nil || d.Errors == nil || d.Errors.Notices[0] != "Invalid order." {
				t.Errorf("view order %s: %+v", id, d)
			}
		}
	})
}

func TestAccountGuestOrdersLinkedAfterVerification(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		ctx := context.Background()
		// A guest buys through the Store API, then registers with that email.
		g := s.client()
		g.addItem(s.productID("cotton-tank-top"), 1)
		if r := g.do("POST", checkoutAPI, checkoutBody(withBilling(func(m map[string]string) { m["email"] = "Ada@Example.com" }), "")); r.status != 200 {
			t.Fatalf("guest checkout: %d %s", r.status, r.raw)
		}
		c, u := s.customer("ada@example.com")
		if d := c.page("/my-account/orders/", 200); d.Orders.Total != 0 {
			t.Fatalf("linked before verification: %+v", d.Orders)
		}
		tok, _, err := s.accounts().RequestEmailVerification(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.accounts().VerifyEmail(ctx, tok); err != nil {
			t.Fatal(err)
		}
		d := c.page("/my-account/orders/", 200)
		if d.Orders.Total != 1 {
			t.Fatalf("not linked after verification: %+v", d.Orders)
		}
		c.page(fmt.Sprintf("/my-account/view-order/%d/", d.Orders.Rows[0].ID), 200)
	})
}

func TestAccountAddresses(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		c, u := s.customer("ada@example.com")

		d := c.page("/my-account/edit-address/", 200)
		if d.Section != "edit-address" || d.Addresses == nil || d.Addresses.Billing != nil || d.AddressForm != nil {
			t.Fatalf("address book: %+v", d)
		}
		d = c.page("/my-account/edit-address/billing/", 200)
		f := d.AddressForm
		if f == nil || f.Kind != "billing" || len(f.Nonce) != 10 || f.Values["email"] != u.Email || f.Values["country"] != "US" || len(d.Countries) == 0 {
			t.Fatalf("billing form: %+v", d.AddressForm)
		}
		if r := c.do("GET", "/my-account/edit-address/office/", ""); r.status != 404 {
			t.Errorf("unknown kind: %d", r.status)
		}

		good := url.Values{"billing_first_name": {"Ada"}, "billing_last_name": {"Lovelace"}, "billing_address_1": {"1 Main St"},
			"billing_city": {"Sacramento"}, "billing_state": {"California"}, "billing_postcode": {"95814"}, "billing_country": {"US"},
			"billing_email": {"ada@example.com"}, "billing_phone": {"+1 555 010 0200"}, "action": {"edit_address"}}
		with := func(k, v string) url.Values {
			f := url.Values{}
			for kk, vv := range good {
				f[kk] = vv
			}
			f.Set(k, v)
			return f
		}
		saved := func() *account.Addresses {
			a, err := s.accounts().Addresses(context.Background(), u.ID)
			if err != nil {
				t.Fatal(err)
			}
			return a
		}

		// A bad or missing nonce: 403, nothing saved.
		for _, n := range []string{"", "0123456789"} {
			r, d := c.postForm("/my-account/edit-address/billing/", with("woocommerce-edit-address-nonce", n))
			if r.status != 403 || d.Errors == nil || d.AddressForm.Values["first_name"] != "Ada" {
				t.Errorf("nonce %q: %d %+v", n, r.status, d.Errors)
			}
		}
		// Another account's nonce is refused too.
		other, _ := s.customer("bob@example.com")
		bobNonce := other.page("/my-account/edit-address/billing/", 200).AddressForm.Nonce
		if r, _ := c.postForm("/my-account/edit-address/billing/", with("woocommerce-edit-address-nonce", bobNonce)); r.status != 403 {
			t.Errorf("another account's nonce: %d", r.status)
		}
		// Invalid: the checkout's messages, tied to fields.
		bad := with("woocommerce-edit-address-nonce", f.Nonce)
		bad.Set("billing_last_name", "")
		bad.Set("billing_postcode", "ABC")
		r, d := c.postForm("/my-account/edit-address/billing/", bad)
		if r.status != 400 || d.Errors.Fields["billing_last_name"] != "Billing Last name is a required field." ||
			d.Errors.Fields["billing_postcode"] == "" || len(d.Errors.Notices) != 2 || d.AddressForm.Values["postcode"] != "ABC" {
			t.Fatalf("invalid address: %d %+v", r.status, d.Errors)
		}
		if saved().Billing != nil {
			t.Fatal("a refused address was saved")
		}

		// Good: 303 to the address book, the notice shown once.
		r, _ = c.postForm("/my-account/edit-address/billing/", with("woocommerce-edit-address-nonce", f.Nonce))
		if r.status != 303 || r.header.Get("Location") != "/my-account/edit-address/" {
			t.Fatalf("save: %d %s", r.status, r.raw)
		}
		if a := saved(); a.Billing == nil || a.Billing.State != "CA" || a.Billing.Phone != "+1 555 010 0200" {
			t.Fatalf("saved: %+v", a.Billing)
		}
		d = c.page("/my-account/edit-address/", 200)
		if d.Notice != "Address changed successfully." || d.Addresses.Billing["state"] != "CA" || d.Addresses.Billing["email"] != "ada@example.com" {
			t.Errorf("after save: %q %+v", d.Notice, d.Addresses)
		}
		if d = c.page("/my-account/edit-address/", 200); d.Notice != "" {
			t.Errorf("notice shown twice: %q", d.Notice)
		}
		if d = c.page("/my-account/edit-address/billing/", 200); d.AddressForm.Values["address_1"] != "1 Main St" {
			t.Errorf("form not filled from the saved address: %+v", d.AddressForm.Values)
		}

		// Shipping: no email, no phone needed.
		ship := url.Values{"shipping_first_name": {"Ada"}, "shipping_last_name": {"Lovelace"}, "shipping_address_1": {"9 Dock Rd"},
			"shipping_city": {"Berlin"}, "shipping_postcode": {"10115"}, "shipping_country": {"DE"},
			"woocommerce-edit-address-nonce": {f.Nonce}}
		if r, d := c.postForm("/my-account/edit-address/shipping/", ship); r.status != 303 {
			t.Fatalf("shipping: %d %+v", r.status, d.Errors)
		}
		if a := saved(); a.Shipping == nil || a.Shipping.Country != "DE" || a.Shipping.Email != "" {
			t.Errorf("shipping saved: %+v", a.Shipping)
		}
	})
}

func TestAccountDetails(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		ctx := context.Background()
		c, u := s.customer("ada@example.com")
		s.customer("taken@example.com")
		d := c.page("/my-account/edit-account/", 200)
		f := d.AccountForm
		if d.Section != "edit-account" || f == nil || f.Email != u.Email || f.DisplayName != "ada" || len(f.Nonce) != 10 || len(f.DeleteNonce) != 10 || f.Nonce == f.DeleteNonce {
			t.Fatalf("form: %+v", f)
		}
		base := func() url.Values {
			return url.Values{"account_first_name": {"Ada"}, "account_last_name": {"Lovelace"}, "account_display_name": {"Ada L."},
				"account_email": {"ada@example.com"}, "save-account-details-nonce": {f.Nonce}, "action": {"save_account_details"}}
		}
		user := func() *account.User {
			u2, err := s.accounts().User(ctx, u.ID)
			if err != nil {
				t.Fatal(err)
			}
			return u2
		}
		cases := []struct {
			name  string
			edit  func(url.Values)
			code  int
			field string
		}{
			{"bad nonce", func(v url.Values) { v.Set("save-account-details-nonce", "0000000000") }, 403, ""},
			{"delete nonce", func(v url.Values) { v.Set("save-account-details-nonce", f.DeleteNonce) }, 403, ""},
			{"no first name", func(v url.Values) { v.Set("account_first_name", " ") }, 400, "account_first_name"},
			{"email as display name", func(v url.Values) { v.Set("account_display_name", "a@b.co") }, 400, "account_display_name"},
			{"bad email", func(v url.Values) { v.Set("account_email", "nope"); v.Set("password_current", accountPassword) }, 400, "account_email"},
			{"email without password", func(v url.Values) { v.Set("account_email", "new@example.com") }, 400, "password_current"},
			{"email, wrong password", func(v url.Values) {
				v.Set("account_email", "new@example.com")
				v.Set("password_current", "wrong password here")
			}, 400, "password_current"},
			{"email taken", func(v url.Values) {
				v.Set("account_email", "taken@example.com")
				v.Set("password_current", accountPassword)
			}, 400, "account_email"},
			{"passwords differ", func(v url.Values) {
				v.Set("password_current", accountPassword)
				v.Set("password_1", "another long passphrase")
				v.Set("password_2", "another long passphrasf")
			}, 400, "password_2"},
			{"weak new password", func(v url.Values) {
				v.Set("password_current", accountPassword)
				v.Set("password_1", "short")
				v.Set("password_2", "short")
			}, 400, "password_1"},
			{"new password, wrong current", func(v url.Values) {
				v.Set("password_current", "wrong password here")
				v.Set("password_1", "another long passphrase")
				v.Set("password_2", "another long passphrase")
			}, 400, "password_current"},
		}
		for _, tc := range cases {
			form := base()
			tc.edit(form)
			r, d := c.postForm("/my-account/edit-account/", form)
			if r.status != tc.code || d.Errors == nil || len(d.Errors.Notices) == 0 || (tc.field != "" && d.Errors.Fields[tc.field] == "") {
				t.Errorf("%s: %d %+v", tc.name, r.status, d.Errors)
				continue
			}
			if d.AccountForm == nil || d.AccountForm.FirstName != form.Get("account_first_name") {
				t.Errorf("%s: values not kept: %+v", tc.name, d.AccountForm)
			}
			if got := user(); got.Email != "ada@example.com" || got.DisplayName != "ada" || got.PasswordHash != u.PasswordHash {
				t.Errorf("%s: something changed: %+v", tc.name, got)
			}
		}

		// Names: saved, 303 to the dashboard with the notice once.
		r, _ := c.postForm("/my-account/edit-account/", base())
		if r.status != 303 || r.header.Get("Location") != "/my-account/" {
			t.Fatalf("save names: %d %s", r.status, r.raw)
		}
		if d := c.page("/my-account/", 200); d.Notice != "Account details changed successfully." || d.Customer.DisplayName != "Ada L." {
			t.Errorf("after save: %q %q", d.Notice, d.Customer.DisplayName)
		}

		// Password: every session ends (another device too), this browser
		// gets a new session token.
		elsewhere := s.client()
		elsewhere.logIn(u)
		oldToken := c.cookies[loginCookie].Value
		form := base()
		form.Set("password_current", accountPassword)
		form.Set("password_1", "another long passphrase")
		form.Set("password_2", "another long passphrase")
		r, _ = c.postForm("/my-account/edit-account/", form)
		if r.status != 303 {
			t.Fatalf("change password: %d", r.status)
		}
		if nt := c.cookies[loginCookie].Value; nt == "" || nt == oldToken {
			t.Fatalf("session not renewed: %q", nt)
		}
		c.page("/my-account/edit-account/", 200)
		if r := elsewhere.do("GET", "/my-account/edit-account/", ""); r.status != 302 {
			t.Errorf("the other session survived: %d", r.status)
		}
		stale := s.client()
		stale.cookies[loginCookie] = &http.Cookie{Name: loginCookie, Value: oldToken}
		if r := stale.do("GET", "/my-account/edit-account/", ""); r.status != 302 {
			t.Errorf("the old token still works: %d", r.status)
		}
		if _, err := s.accounts().Authenticate(ctx, "ada@example.com", "another long passphrase", ""); err != nil {
			t.Errorf("new password: %v", err)
		}

		// Email with the (new) current password: unverified again.
		form = base()
		form.Set("account_email", "ada.new@example.com")
		form.Set("password_current", "another long passphrase")
		if r, d := c.postForm("/my-account/edit-account/", form); r.status != 303 {
			t.Fatalf("change email: %d %+v", r.status, d.Errors)
		}
		if got := user(); got.Email != "ada.new@example.com" || !got.EmailVerifiedAt.IsZero() {
			t.Errorf("email: %+v", got)
		}
	})
}

func TestAccountDelete(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		ctx := context.Background()
		c, u := s.customer("ada@example.com")
		o := s.placeFor(u.ID, u.Email)
		f := c.page("/my-account/edit-account/", 200).AccountForm

		for _, tc := range []struct {
			form url.Values
			code int
		}{
			{url.Values{"delete-account-nonce": {f.Nonce}, "delete_password": {accountPassword}}, 403}, // the details form's nonce
			{url.Values{"delete_password": {accountPassword}}, 403},
			{url.Values{"delete-account-nonce": {f.DeleteNonce}, "delete_password": {"wrong password here"}}, 400},
			{url.Values{"delete-account-nonce": {f.DeleteNonce}}, 400},
		} {
			r, d := c.postForm("/my-account/delete-account/", tc.form)
			if r.status != tc.code || d.Errors == nil {
				t.Errorf("%v: %d", tc.form, r.status)
			}
			if tc.code == 400 && d.Errors.Fields["delete_password"] != "Your current password is incorrect." {
				t.Errorf("field error: %+v", d.Errors)
			}
			if _, err := s.accounts().User(ctx, u.ID); err != nil {
				t.Fatalf("deleted on a refusal: %v", err)
			}
		}
		r, _ := c.postForm("/my-account/delete-account/", url.Values{"delete-account-nonce": {f.DeleteNonce}, "delete_password": {accountPassword}})
		if r.status != 303 || r.header.Get("Location") != "/my-account/" {
			t.Fatalf("delete: %d", r.status)
		}
		if ck := c.cookies[loginCookie]; ck.Value != "" || ck.MaxAge >= 0 {
			t.Errorf("login cookie kept: %+v", ck)
		}
		if _, err := s.accounts().User(ctx, u.ID); !errors.Is(err, account.ErrNoUser) {
			t.Errorf("account still there: %v", err)
		}
		if got := s.order(o.ID); got.CustomerID != 0 {
			t.Errorf("order still linked: %d", got.CustomerID)
		}
	})
}

func TestCheckoutForCustomers(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		ctx := context.Background()
		tank := s.productID("cotton-tank-top")
		checkoutData := func(c *client) (data struct {
			Checkout struct {
				Billing  map[string]string `json:"billing_address"`
				Shipping map[string]string `json:"shipping_address"`
				ShipTo   bool              `json:"ship_to_different_address"`
			} `json:"checkout"`
			CanCreate    bool `json:"can_create_account"`
			ProcessNonce string
			Errors       *struct {
				Notices []string          `json:"notices"`
				Fields  map[string]string `json:"fields"`
			} `json:"errors"`
		}) {
			r := c.do("GET", "/checkout/", "")
			if r.status != 200 {
				t.Fatalf("checkout page: %d", r.status)
			}
			pageData(t, r.raw, &data)
			var n struct {
				ProcessNonce string `json:"process_nonce"`
			}
			pageData(t, r.raw, &n)
			data.ProcessNonce = n.ProcessNonce
			return
		}

		// A customer without saved addresses: the account's email, no
		// "create an account"; the order carries the account and its
		// addresses become the saved ones.
		c, u := s.customer("ada@example.com")
		c.addItem(tank, 1)
		d := checkoutData(c)
		if d.CanCreate || d.Checkout.Billing["email"] != "ada@example.com" || d.Checkout.Billing["first_name"] != "" {
			t.Fatalf("customer checkout: %+v", d)
		}
		r := c.do("POST", checkoutAPI, checkoutBody(withBilling(func(m map[string]string) { m["first_name"] = "Adelaide" }), `"create_account":true`))
		if r.status != 200 || num(r.body["customer_id"]) != u.ID {
			t.Fatalf("customer order: %d %s", r.status, r.raw)
		}
		oid := num(r.body["order_id"])
		if got := s.order(oid); got.CustomerID != u.ID {
			t.Errorf("order customer: %d", got.CustomerID)
		}
		a, _ := s.accounts().Addresses(ctx, u.ID)
		if a.Billing == nil || a.Billing.FirstName != "Adelaide" || a.Shipping == nil {
			t.Fatalf("first order's addresses not saved: %+v", a)
		}
		// The next checkout starts from the saved address; a later order
		// does not overwrite it.
		c.addItem(tank, 1)
		if d := checkoutData(c); d.Checkout.Billing["first_name"] != "Adelaide" || d.Checkout.Billing["city"] != "Sacramento" {
			t.Errorf("not filled from the saved address: %+v", d.Checkout)
		}
		form := url.Values{"payment_method": {"bacs"}, "terms": {"on"}, "woocommerce-process-checkout-nonce": {checkoutData(c).ProcessNonce}}
		for k, v := range goodBilling() {
			form.Set("billing_"+k, v)
		}
		r = c.do("POST", "/checkout/", form.Encode())
		if r.status != 303 {
			t.Fatalf("classic customer order: %d", r.status)
		}
		id := atoi(strings.Split(strings.TrimPrefix(r.header.Get("Location"), "/checkout/order-received/"), "/")[0])
		if got := s.order(id); got.CustomerID != u.ID {
			t.Errorf("classic order customer: %d", got.CustomerID)
		}
		if a2, _ := s.accounts().Addresses(ctx, u.ID); a2.Billing.FirstName != "Adelaide" {
			t.Errorf("saved address overwritten: %+v", a2.Billing)
		}

		// A visitor is offered an account.
		v := s.client()
		v.addItem(tank, 1)
		if d := checkoutData(v); !d.CanCreate {
			t.Error("visitor not offered an account")
		}
		// A taken email, or no password: refused, no order, cart kept.
		for _, tc := range []struct{ body, code string }{
			{checkoutBody(goodBilling(), `"create_account":true,"customer_password":"`+accountPassword+`"`), "registration-error-email-exists"},
			{checkoutBody(withBilling(func(m map[string]string) { m["email"] = "new@example.com" }), `"create_account":true`), "registration-error-missing-password"},
			{checkoutBody(withBilling(func(m map[string]string) { m["email"] = "new@example.com" }), `"create_account":true,"customer_password":"short"`), "registration-error-invalid-password"},
		} {
			r := v.do("POST", checkoutAPI, tc.body)
			if r.status != 400 || r.code() != tc.code {
				t.Errorf("%s: %d %s", tc.code, r.status, r.raw)
			}
		}
		// An address refused by the checkout: no order, and no account left behind.
		r = v.do("POST", checkoutAPI, checkoutBody(withBilling(func(m map[string]string) {
			m["email"], m["postcode"] = "new@example.com", "nope"
		}), `"create_account":true,"customer_password":"`+accountPassword+`"`))
		if r.status != 400 || r.code() != "rest_invalid_param" {
			t.Errorf("invalid address: %d %s", r.status, r.raw)
		}
		if _, err := s.db.UserByEmail(ctx, "new@example.com"); !errors.Is(err, account.ErrNoUser) {
			t.Errorf("account left behind: %v", err)
		}
		if items := v.do("GET", cartAPI, "").items(); len(items) != 1 {
			t.Fatalf("cart emptied by a refusal: %d", len(items))
		}
		// Good: registered, linked, logged in.
		r = v.do("POST", checkoutAPI, checkoutBody(withBilling(func(m map[string]string) { m["email"] = "New@Example.com" }),
			`"create_account":true,"customer_password":"`+accountPassword+`"`))
		if r.status != 200 {
			t.Fatalf("create account: %d %s", r.status, r.raw)
		}
		nu, err := s.db.UserByEmail(ctx, "new@example.com")
		if err != nil || num(r.body["customer_id"]) != nu.ID || s.order(num(r.body["order_id"])).CustomerID != nu.ID {
			t.Fatalf("new account: %v %s", err, r.raw)
		}
		if ck := v.cookies[loginCookie]; ck == nil || ck.Value == "" {
			t.Fatal("not logged in after creating an account")
		}
		if d := v.page("/my-account/orders/", 200); d.Orders.Total != 1 {
			t.Errorf("new account's orders: %+v", d.Orders)
		}

		// The classic form: createaccount + account_password.
		w := s.client()
		w.addItem(tank, 1)
		form = url.Values{"payment_method": {"bacs"}, "terms": {"on"}, "createaccount": {"1"}, "account_password": {accountPassword},
			"woocommerce-process-checkout-nonce": {checkoutData(w).ProcessNonce}}
		for k, val := range goodBilling() {
			form.Set("billing_"+k, val)
		}
		r = w.do("POST", "/checkout/", form.Encode()) // ada@example.com is taken
		var refused struct {
			Checkout struct {
				CreateAccount bool `json:"create_account"`
			} `json:"checkout"`
			Errors struct {
				Fields map[string]string `json:"fields"`
			} `json:"errors"`
		}
		if r.status != 400 {
			t.Fatalf("classic taken email: %d", r.status)
		}
		pageData(t, r.raw, &refused)
		if !refused.Checkout.CreateAccount || !strings.Contains(refused.Errors.Fields["billing_email"], "already registered") {
			t.Errorf("classic taken email: %+v", refused)
		}
		if strings.Contains(r.raw, accountPassword) {
			t.Error("the password was sent back")
		}
		form.Set("billing_email", "classic@example.com")
		r = w.do("POST", "/checkout/", form.Encode())
		if r.status != 303 {
			t.Fatalf("classic create account: %d", r.status)
		}
		cu, err := s.db.UserByEmail(ctx, "classic@example.com")
		if err != nil {
			t.Fatal(err)
		}
		if d := w.page("/my-account/orders/", 200); d.Orders.Total != 1 || d.Customer.Email != cu.Email {
			t.Errorf("classic account's orders: %+v", d)
		}
	})
}

// The password on the account forms is limited like a second-factor code:
// five wrong ones, then 429 with Retry-After, even for the right one, and
// nothing changes.
func TestAccountPasswordLimit(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		c, u := s.customer("ada@example.com")
		f := c.page("/my-account/edit-account/", 200).AccountForm
		for i := range 5 {
			r, _ := c.postForm("/my-account/delete-account/", url.Values{"delete-account-nonce": {f.DeleteNonce}, "delete_password": {fmt.Sprintf("wrong password %d", i)}})
			if r.status != 400 {
				t.Fatalf("wrong password %d: %d", i+1, r.status)
			}
		}
		r, d := c.postForm("/my-account/delete-account/", url.Values{"delete-account-nonce": {f.DeleteNonce}, "delete_password": {accountPassword}})
		if r.status != 429 || r.header.Get("Retry-After") == "" || d.Errors == nil || !strings.Contains(d.Errors.Fields["delete_password"], "Too many wrong attempts") {
			t.Fatalf("after the limit: %d %q %+v", r.status, r.header.Get("Retry-After"), d.Errors)
		}
		if _, err := s.accounts().User(context.Background(), u.ID); err != nil {
			t.Fatalf("deleted under the lock: %v", err)
		}
	})
}
