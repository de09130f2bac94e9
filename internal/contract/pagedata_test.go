// Package contract_test holds the page-data contract between the server and
// the React app: it drives the real server over the seeded demo shop through
// every page type a shopper, a customer or staff can reach, and records the
// data the server hands the app for each. With VITRINE_CONTRACT_DIR set, it
// writes each as <name>.json with a manifest naming the TypeScript type the
// app reads it as; web/contract/check.mjs then type-checks every one against
// web/src/types.ts (make test-contract), so the two sides cannot drift apart
// unnoticed.
package contract_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/botcheck"
	"vitrine/internal/contentpage"
	"vitrine/internal/money"
	"vitrine/internal/seed"
	"vitrine/internal/server"
	"vitrine/internal/server/servertest"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// The TypeScript modules the app reads page data with, relative to web/.
const (
	storefrontTypes = "src/types"
	adminTypes      = "src/admin/data"
)

var now = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

const password = "correct horse battery staple"

// Entry is one page's data and the type the app reads it as: the
// manifest's row.
type Entry struct {
	Name   string `json:"name"`
	Type   string `json:"type"`
	Module string `json:"module"`
	// Data is written to <name>.json.
	Data json.RawMessage `json:"-"`
}

// recorder is the server's renderer: it keeps the data of every render
// (pages, the quick view, cart fragments) and answers a placeholder, so no
// JavaScript runs and the data is exactly what the app would be given.
type recorder struct {
	mu   sync.Mutex
	data [][]byte
}

func (r *recorder) Render(_ context.Context, _ string, data []byte) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.data = append(r.data, bytes.Clone(data))
	return "<div></div>", nil
}

// take answers the renders since the last take.
func (r *recorder) take() [][]byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.data
	r.data = nil
	return out
}

// shop is a server on the seeded demo store and the page data it rendered.
type shop struct {
	t       *testing.T
	db      *sqlstore.DB
	srv     *server.Server
	rec     *recorder
	entries []Entry
}

func newShop(t *testing.T, db *sqlstore.DB, cfg server.Config) *shop {
	t.Helper()
	client, assets := servertest.WebApp(t)
	cfg.BaseURL, cfg.SiteName, cfg.Tagline = "https://shop.example", "Vitrine", "Everyday clothing, made to last"
	cfg.Currency, _ = money.Lookup("USD")
	cfg.VariationThreshold = 30
	cfg.Now = func() time.Time { return now }
	cfg.Secret = []byte("0123456789abcdef0123456789abcdef")
	rec := &recorder{}
	srv, err := server.New(cfg, db, rec, client, assets, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	servertest.Start(t, srv)
	return &shop{t: t, db: db, srv: srv, rec: rec}
}

// browser is a client with a cookie jar and the Store API nonce.
type browser struct {
	s       *shop
	cookies servertest.Jar
	nonce   string
}

func (s *shop) browser() *browser { return &browser{s: s, cookies: servertest.Jar{}} }

type answer struct {
	status int
	header http.Header
	body   string
}

func (b *browser) do(method, target, body string, headers ...string) answer {
	b.s.t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	req.RemoteAddr = "192.0.2.10:4000"
	switch {
	case strings.HasPrefix(body, "{"):
		req.Header.Set("Content-Type", "application/json")
	case body != "":
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if b.nonce != "" && method != http.MethodGet {
		req.Header.Set("Nonce", b.nonce)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := b.cookies.Serve(b.s.srv, req)
	res := rec.Result()
	if n := res.Header.Get("Nonce"); n != "" {
		b.nonce = n
	}
	return answer{status: res.StatusCode, header: res.Header, body: rec.Body.String()}
}

// page requests target and records the one page data it rendered as name,
// read by the app as tsType; the data's page discriminator must be page.
func (b *browser) page(name, tsType, page, method, target, body string) map[string]any {
	b.s.t.Helper()
	b.s.rec.take()
	a := b.do(method, target, body)
	got := b.s.rec.take()
	if len(got) == 0 {
		b.s.t.Fatalf("%s: %s %s rendered no page (%d %.300s)", name, method, target, a.status, a.body)
	}
	// Cart fragments render once per fragment, from the same data shape.
	return b.s.record(name, tsType, storefrontTypes, page, got[len(got)-1])
}

func (s *shop) record(name, tsType, module, page string, raw []byte) map[string]any {
	s.t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		s.t.Fatalf("%s: %v", name, err)
	}
	if got, _ := m["page"].(string); got != page {
		s.t.Fatalf("%s: page %q, want %q", name, got, page)
	}
	s.entries = append(s.entries, Entry{Name: name, Type: tsType, Module: module, Data: raw})
	return m
}

// logIn logs the browser in through the login form, as a person does.
func (b *browser) logIn(email string) {
	b.s.t.Helper()
	b.s.rec.take()
	a := b.do("GET", "/my-account/", "")
	var login struct {
		Nonce string `json:"login_nonce"`
	}
	if got := b.s.rec.take(); a.status != 200 || len(got) != 1 || json.Unmarshal(got[0], &login) != nil || login.Nonce == "" {
		b.s.t.Fatalf("login page: %d", a.status)
	}
	f := url.Values{"login": {"Log in"}, "woocommerce-login-nonce": {login.Nonce}, "username": {email},
		"password": {password}, "wfls-captcha": {b.solve("login")}}
	if a := b.do("POST", "/my-account/", f.Encode()); a.status != http.StatusSeeOther && a.status != http.StatusFound {
		b.s.t.Fatalf("log in %s: %d %.300s", email, a.status, a.body)
	}
	b.s.rec.take()
}

// solve answers a bot-check challenge for purpose as the widget does.
func (b *browser) solve(purpose string) string {
	b.s.t.Helper()
	a := b.do("GET", "/wp-json/vitrine/v1/botcheck/"+purpose, "")
	var c botcheck.Challenge
	if err := json.Unmarshal([]byte(a.body), &c); err != nil {
		b.s.t.Fatalf("challenge: %d %s", a.status, a.body)
	}
	p, err := botcheck.Solve(c)
	if err != nil {
		b.s.t.Fatal(err)
	}
	return p
}

// addToCart puts a product, or a variation with its attributes' values, in
// the cart through the Store API.
func (b *browser) addToCart(id int64, qty int, values map[string]any) {
	b.s.t.Helper()
	if b.nonce == "" {
		b.do("GET", "/wp-json/wc/store/v1/cart", "")
	}
	type choice struct {
		Attribute string `json:"attribute"`
		Value     any    `json:"value"`
	}
	item := struct {
		ID        int64    `json:"id"`
		Quantity  int      `json:"quantity"`
		Variation []choice `json:"variation,omitempty"`
	}{ID: id, Quantity: qty}
	for k, v := range values {
		item.Variation = append(item.Variation, choice{k, v})
	}
	body, _ := json.Marshal(item)
	if a := b.do("POST", "/wp-json/wc/store/v1/cart/add-item", string(body)); a.status != 201 {
		b.s.t.Fatalf("add %d: %d %s", id, a.status, a.body)
	}
}

// placeOrder checks the cart out by bank transfer and answers the
// order-received path.
func (b *browser) placeOrder(email string) string {
	b.s.t.Helper()
	billing, _ := json.Marshal(map[string]string{"first_name": "Ada", "last_name": "Lovelace", "address_1": "1 Main St",
		"city": "Sacramento", "state": "CA", "postcode": "95814", "country": "US", "email": email, "phone": "+1 555 010 0200"})
	a := b.do("POST", "/wp-json/wc/store/v1/checkout", `{"billing_address":`+string(billing)+`,"payment_method":"bacs","customer_note":"Gift wrap, please."}`)
	var out struct {
		Result struct {
			Redirect string `json:"redirect_url"`
		} `json:"payment_result"`
	}
	if err := json.Unmarshal([]byte(a.body), &out); err != nil || a.status != 200 || out.Result.Redirect == "" {
		b.s.t.Fatalf("checkout: %d %s", a.status, a.body)
	}
	u, err := url.Parse(out.Result.Redirect)
	if err != nil {
		b.s.t.Fatal(err)
	}
	return u.RequestURI()
}

func (s *shop) register(email, name, role string) {
	s.t.Helper()
	svc := &account.Service{Store: s.db, Now: func() time.Time { return now }}
	if _, err := svc.Register(context.Background(), account.Registration{Email: email, Password: password, DisplayName: name, Role: role}); err != nil {
		s.t.Fatal(err)
	}
}

func productID(t *testing.T, page map[string]any) int64 {
	t.Helper()
	p, _ := page["product"].(map[string]any)
	id, _ := p["id"].(float64)
	if id == 0 {
		t.Fatal("the product page has no product id")
	}
	return int64(id)
}

// TestPageDataContract renders every page type and, with
// VITRINE_CONTRACT_DIR set, writes their data for the TypeScript check.
func TestPageDataContract(t *testing.T) {
	db := storetest.Open(t, sqlstore.SQLite)
	db.SetClock(func() time.Time { return now })
	// The demo shop as --demo starts it: the catalogue and the content pages.
	if _, err := seed.Demo(context.Background(), db, now); err != nil {
		t.Fatal(err)
	}
	if _, err := (&contentpage.Service{Store: db, Now: db.Now}).SeedDemo(context.Background(), seed.DemoPages()); err != nil {
		t.Fatal(err)
	}
	s := newShop(t, db, server.Config{})
	s.register("carla@example.com", "Carla Customer", account.RoleCustomer)
	s.register("mia@example.com", "Mia Manager", account.RoleShopManager)

	// A visitor browses, buys and meets the forms' refusals.
	v := s.browser()
	v.page("home", "HomePage", "home", "GET", "/", "")
	v.page("shop", "ListingPage", "listing", "GET", "/shop/page/2/?orderby=price", "")
	v.page("category", "ListingPage", "listing", "GET", "/product-category/clothing/", "")
	v.page("subcategory", "ListingPage", "listing", "GET", "/product-category/clothing/t-shirts/", "")
	v.page("tag", "ListingPage", "listing", "GET", "/product-tag/bestseller/", "")
	v.page("shop-filtered", "ListingPage", "listing", "GET", "/shop/?filter_color=navy,black&query_type_color=or&min_price=10&max_price=90&rating_filter=4,5&filter_stock_status=instock&on_sale=1", "")
	v.page("search", "ListingPage", "listing", "GET", "/?s=tee&post_type=product", "")
	v.page("search-empty", "ListingPage", "listing", "GET", "/?s=nothing-matches-this&post_type=product", "")
	simple := v.page("product-simple", "ProductPage", "product", "GET", "/product/cotton-tank-top/", "")
	// Classic Tee has more variations than the threshold: they are fetched,
	// and the page carries their availability; Pocket Tee's are embedded.
	tee := v.page("product-variable", "ProductPage", "product", "GET", "/product/classic-tee/", "")
	v.page("product-variable-embedded", "ProductPage", "product", "GET", "/product/pocket-tee/", "")
	v.page("product-grouped", "ProductPage", "product", "GET", "/product/weekend-set/", "")
	v.page("quickview", "QuickViewPage", "quickview", "GET", fmt.Sprintf("/wp-admin/admin-ajax.php?action=flatsome_quickview&product=%d", productID(t, tee)), "")
	v.page("cart-empty", "CartPage", "cart", "GET", "/cart/", "")
	avail, _ := tee["variation_availability"].([]any)
	if len(avail) == 0 {
		t.Fatal("classic-tee: no variation availability")
	}
	last, _ := avail[len(avail)-1].(map[string]any)
	variation, _ := last["id"].(float64)
	values, _ := last["attributes"].(map[string]any)
	v.addToCart(int64(variation), 2, values)
	v.addToCart(productID(t, simple), 1, nil)
	v.page("cart", "CartPage", "cart", "GET", "/cart/", "")
	v.page("wishlist-empty", "WishlistPage", "wishlist", "GET", "/wishlist/", "")
	for _, id := range []int64{productID(t, simple), int64(variation)} {
		if a := v.do("POST", "/wishlist/", url.Values{"wishlist_action": {"add"}, "product_id": {strconv.FormatInt(id, 10)}}.Encode()); a.status != http.StatusSeeOther {
			t.Fatalf("wish %d: %d %.300s", id, a.status, a.body)
		}
	}
	shared := v.page("wishlist-shared-now", "WishlistPage", "wishlist", "POST", "/wishlist/", url.Values{"wishlist_action": {"share"}}.Encode())
	v.page("wishlist", "WishlistPage", "wishlist", "GET", "/wishlist/?wishlist_notice=added", "")
	link, _ := shared["share_url"].(string)
	if i := strings.Index(link, "/wishlist/view/"); i < 0 {
		t.Fatalf("no share link: %q", link)
	} else {
		s.browser().page("wishlist-view", "WishlistPage", "wishlist", "GET", link[i:], "")
	}
	v.page("fragments", "FragmentsPage", "fragments", "POST", "/?wc-ajax=get_refreshed_fragments", "time=1")
	checkout := v.page("checkout", "CheckoutPage", "checkout", "GET", "/checkout/", "")
	processNonce, _ := checkout["process_nonce"].(string)
	v.page("checkout-refused", "CheckoutPage", "checkout", "POST", "/checkout/",
		url.Values{"woocommerce-process-checkout-nonce": {processNonce}, "billing_first_name": {"Ada"}, "payment_method": {"bacs"}}.Encode())
	v.page("order-received", "OrderReceivedPage", "order-received", "GET", v.placeOrder("ada@example.com"), "")
	v.page("order-received-wrong-key", "OrderReceivedPage", "order-received", "GET", "/checkout/order-received/1/?key=wc_order_wrong", "")
	login := v.page("account-login", "AccountLoginPage", "account-login", "GET", "/my-account/", "")
	loginNonce, _ := login["login_nonce"].(string)
	v.page("account-login-refused", "AccountLoginPage", "account-login", "POST", "/my-account/",
		url.Values{"login": {"Log in"}, "woocommerce-login-nonce": {loginNonce}, "username": {"carla@example.com"}, "password": {"wrong"}}.Encode())
	v.page("lost-password", "LostPasswordPage", "account-lost-password", "GET", "/my-account/lost-password/", "")
	v.page("verify-email-invalid", "VerifyEmailPage", "account-verify-email", "GET", "/my-account/verify-email/?key=dead", "")
	contact := v.page("contact", "ContactPage", "contact", "GET", "/contact/", "")
	posted := url.Values{"your-name": {"Ada"}, "your-email": {"not-an-email"}, "your-message": {"Hello"}}
	form, _ := contact["form"].(map[string]any)
	hidden, _ := form["hidden"].([]any)
	for _, h := range hidden {
		f, _ := h.(map[string]any)
		posted.Set(f["name"].(string), f["value"].(string))
	}
	v.page("contact-answered", "ContactPage", "contact", "POST", "/contact/", posted.Encode())
	v.page("content", "ContentPageData", "content", "GET", "/about/", "")
	v.page("notfound", "NotFoundPage", "notfound", "GET", "/no-such-page/", "")
	v.page("review-error", "ReviewErrorPage", "review-error", "POST", "/wp-comments-post.php",
		url.Values{"comment_post_ID": {fmt.Sprint(productID(t, tee))}, "comment": {"Lovely."}, "rating": {"5"}}.Encode())

	// A customer buys, then visits the account's pages.
	c := s.browser()
	c.logIn("carla@example.com")
	c.page("product-customer", "ProductPage", "product", "GET", "/product/classic-tee/", "")
	c.addToCart(productID(t, simple), 1, nil)
	c.page("checkout-customer", "CheckoutPage", "checkout", "GET", "/checkout/", "")
	received := c.placeOrder("carla@example.com")
	c.page("account-dashboard", "AccountPage", "account", "GET", "/my-account/", "")
	c.page("account-orders", "AccountPage", "account", "GET", "/my-account/orders/", "")
	orderID := strings.Split(strings.TrimPrefix(received, "/checkout/order-received/"), "/")[0]
	c.page("account-view-order", "AccountPage", "account", "GET", "/my-account/view-order/"+orderID+"/", "")
	c.page("account-addresses", "AccountPage", "account", "GET", "/my-account/edit-address/", "")
	c.page("account-edit-address", "AccountPage", "account", "GET", "/my-account/edit-address/billing/", "")
	c.page("account-edit-account", "AccountPage", "account", "GET", "/my-account/edit-account/", "")
	c.page("account-security", "AccountSecurityPage", "account-security", "GET", "/my-account/security/", "")
	c.page("account-verify-email", "VerifyEmailPage", "account-verify-email", "GET", "/my-account/verify-email/", "")
	c.page("account-logout", "AccountLogoutPage", "account-logout", "GET", "/my-account/customer-logout/", "")

	// Staff see edit links and the admin.
	m := s.browser()
	m.logIn("mia@example.com")
	m.page("product-staff", "ProductPage", "product", "GET", "/product/classic-tee/", "")
	m.page("category-staff", "ListingPage", "listing", "GET", "/product-category/clothing/", "")
	m.page("content-staff", "ContentPageData", "content", "GET", "/about/", "")
	a := m.do("GET", "/wp-admin/", "")
	s.record("admin-shell", "AdminData", adminTypes, "", adminData(t, a.body))

	// In coming-soon mode, visitors get its page; staff the shop with a banner.
	soon := newShop(t, db, server.Config{ComingSoon: true})
	soon.browser().page("coming-soon", "ComingSoonPage", "coming-soon", "GET", "/shop/", "")
	ms := soon.browser()
	ms.logIn("mia@example.com")
	ms.page("home-staff-coming-soon", "HomePage", "home", "GET", "/", "")
	s.entries = append(s.entries, soon.entries...)

	if dir := os.Getenv("VITRINE_CONTRACT_DIR"); dir != "" {
		write(t, dir, s.entries)
	}
}

// adminData reads the admin shell's inlined data.
func adminData(t *testing.T, page string) []byte {
	t.Helper()
	const open = `<script type="application/json" id="vitrine-admin-data">`
	i := strings.Index(page, open)
	if i < 0 {
		t.Fatalf("the admin shell has no data: %.300s", page)
	}
	raw := page[i+len(open):]
	// The shell writes the JSON as it is (json.Marshal escapes <, > and &).
	return []byte(raw[:strings.Index(raw, "</script>")])
}

// write saves each page's data as <name>.json and the manifest.
func write(t *testing.T, dir string, entries []Entry) {
	t.Helper()
	seen := map[string]bool{}
	for _, e := range entries {
		if seen[e.Name] {
			t.Fatalf("two pages named %s", e.Name)
		}
		seen[e.Name] = true
		var out bytes.Buffer
		if err := json.Indent(&out, e.Data, "", "  "); err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name+".json"), out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	manifest, err := json.MarshalIndent(entries, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), manifest, 0o644); err != nil {
		t.Fatal(err)
	}
}
