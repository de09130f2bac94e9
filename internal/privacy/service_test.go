package privacy_test

// The privacy use cases called directly, without HTTP, on every
// configured engine (storetest).

import (
	"archive/zip"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/alerts"
	"vitrine/internal/cart"
	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/contact"
	"vitrine/internal/money"
	"vitrine/internal/payment"
	"vitrine/internal/privacy"
	"vitrine/internal/review"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/sqlstore/sqlcore"
	"vitrine/internal/storage/storetest"
	"vitrine/internal/wishlist"
)

var start = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

// person is everything one shopper leaves in the shop; every string field
// is personal and must be gone after an erasure.
type person struct {
	First, Last, Email, Phone, Street, City, IP, UA string
	user                                            *account.User
	orders                                          []*checkout.Order
	review                                          *review.Review
	contact                                         int64
}

func (p *person) personal() []string {
	return []string{p.First, p.Last, p.Email, p.Phone, p.Street, p.City, p.IP, p.UA}
}

type fixture struct {
	t     testing.TB
	ctx   context.Context
	db    *sqlstore.DB
	clock *storetest.Clock
	svc   *privacy.Service
	mug   *catalog.Product
	cfg   checkout.Config
	mode  string
	n     int
}

func newFixture(t testing.TB, db *sqlstore.DB) *fixture {
	usd, _ := money.Lookup("USD")
	price := int64(1200)
	sealer, err := account.NewSealer([]byte("privacy test secret"))
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, ctx: context.Background(), db: db, clock: storetest.NewClock(start), cfg: checkout.DefaultConfig(usd),
		mug: &catalog.Product{Type: catalog.TypeSimple, Name: "Mug", Slug: "mug", Status: "publish", RegularPrice: &price, Purchasable: true}}
	f.svc = &privacy.Service{Store: db, Sealer: sealer, Now: f.clock.Now, Currency: "USD", SiteName: func() string { return "Test Shop" },
		ReviewsMode: func(context.Context) string { return f.mode }}
	if _, err := db.SaveProduct(f.ctx, f.mug, nil); err != nil {
		t.Fatal(err)
	}
	return f
}

// shopper makes a person with an account (or a guest), a saved address,
// two orders (one as a guest, billed to a differently cased address), a
// review, a contact message with a file, a session and a device.
func (f *fixture) shopper(first, last, email, phone, street, city, ip string, withAccount bool) *person {
	f.t.Helper()
	p := &person{First: first, Last: last, Email: email, Phone: phone, Street: street, City: city, IP: ip, UA: first + "Browser/1.0"}
	var uid int64
	if withAccount {
		u := &account.User{Email: email, DisplayName: first, Role: account.RoleCustomer, PasswordHash: "x", CreatedAt: start}
		id, err := f.db.CreateUser(f.ctx, u)
		if err != nil {
			f.t.Fatal(err)
		}
		u.ID, uid = id, id
		p.user = u
		if err := f.db.SetProfile(f.ctx, id, account.Profile{FirstName: first, LastName: last, DisplayName: first}); err != nil {
			f.t.Fatal(err)
		}
		if err := f.db.SaveAddress(f.ctx, id, account.AddressBilling, f.addr(p), start); err != nil {
			f.t.Fatal(err)
		}
		if err := f.db.InsertSession(f.ctx, account.HashToken("s-"+email), &account.Session{UserID: id, CreatedAt: start, LastSeenAt: start, ExpiresAt: start.Add(24 * time.Hour)}); err != nil {
			f.t.Fatal(err)
		}
		if _, err := f.db.InsertDevice(f.ctx, id, account.HashToken("d-"+email), "Firefox on Linux", start, start.Add(30*24*time.Hour)); err != nil {
			f.t.Fatal(err)
		}
		if _, _, err := f.db.SetWishlistItem(f.ctx, wishlist.Customer(id), wishlist.Item{ProductID: f.mug.ID, PriceAdded: 1200, AddedAt: start},
			true, 100, start, nil); err != nil {
			f.t.Fatal(err)
		}
	}
	if _, _, err := f.db.InsertStockAlert(f.ctx, &alerts.NewAlert{ProductID: f.mug.ID, Email: email, UserID: uid, Status: alerts.StatusWaiting, CreatedAt: start}); err != nil {
		f.t.Fatal(err)
	}
	p.orders = append(p.orders, f.order(p, uid, email), f.order(p, 0, strings.ToUpper(email[:1])+email[1:]))
	r := &review.Review{ProductID: f.mug.ID, Author: first + " " + last, Email: email, UserID: uid, Rating: 4,
		Content: "Holds tea well.", Status: review.StatusApproved, ClientIP: ip, CreatedAt: start}
	if err := f.db.InsertReview(f.ctx, r); err != nil {
		f.t.Fatal(err)
	}
	p.review = r
	id, err := f.db.InsertContactSubmission(f.ctx, &contact.Stored{FormID: 1, UnitTag: "wpcf7-f1-o1",
		Values:   map[string][]string{"your-name": {first + " " + last}, "your-email": {strings.ToUpper(email)}, "your-message": {"Call me on " + phone}},
		ClientIP: ip, UserAgent: p.UA, CreatedAt: start,
		Files: []contact.StoredFile{{Field: "file", Name: strings.ToLower(last) + ".txt", MIME: "text/plain", Size: 5, Content: []byte(street)}}}, 0)
	if err != nil {
		f.t.Fatal(err)
	}
	p.contact = id
	return p
}

func (f *fixture) addr(p *person) cart.Address {
	return cart.Address{FirstName: p.First, LastName: p.Last, Address1: p.Street, City: p.City, State: "CA", Postcode: "95814", Country: "US", Phone: p.Phone}
}

func (f *fixture) order(p *person, customerID int64, email string) *checkout.Order {
	f.t.Helper()
	f.n++
	sess := fmt.Sprintf("t_%030x", f.n)
	l := cart.Line{ProductID: f.mug.ID, Quantity: 1, UnitPrice: 1200, Key: cart.LineKey(f.mug.ID, 0, nil)}
	if _, err := f.db.AddLine(f.ctx, sess, l, start, start.Add(time.Hour), func(*cart.Cart, int64, int64) error { return nil }); err != nil {
		f.t.Fatal(err)
	}
	billing := f.addr(p)
	billing.Email = email
	meta := checkout.AttributionMeta(map[string]string{"source_type": "utm", "utm_source": "newsletter", "user_agent": p.UA})
	meta["_customer_ip_address"] = p.IP
	meta["_customer_user_agent"] = p.UA
	o, _, err := f.db.PlaceOrder(f.ctx, checkout.PlaceOrderInput{Session: sess, CustomerID: customerID, Method: payment.BankTransfer{},
		Status: checkout.StatusOnHold, Config: &f.cfg, Customer: checkout.Customer{Billing: billing, Shipping: f.addr(p)},
		CustomerNote: "Ring " + p.Phone, Meta: meta,
		IdempotencyScope: "checkout:" + sess, IdempotencyKey: sess, RequestHash: sess, Now: start})
	if err != nil {
		f.t.Fatal(err)
	}
	return o
}

func ada(f *fixture) *person {
	return f.shopper("Adaline", "Quillfeather", "adaline@example.com", "+1 555 0142", "12 Orchard Lane", "Marrowby", "203.0.113.77", true)
}

func bob(f *fixture) *person {
	return f.shopper("Bartholo", "Nettlewick", "bartholo@example.org", "+1 555 0199", "9 Quarry Road", "Fennick", "198.51.100.23", true)
}

func unzip(t *testing.T, b []byte) map[string]string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, zf := range zr.File {
		rc, err := zf.Open()
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(rc)
		rc.Close()
		out[zf.Name] = string(body)
	}
	return out
}

func TestExportHoldsEverySectionOfThePersonAndNobodyElse(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		a, b := ada(f), bob(f)
		r, token, err := f.svc.RequestForCustomer(f.ctx, a.user, privacy.KindExport, "192.0.2.1")
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != privacy.StatusPending || r.Email != a.Email || r.UserID != a.user.ID {
			t.Fatalf("request = %+v", r)
		}
		r, dl, err := f.svc.Confirm(f.ctx, token)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != privacy.StatusCompleted || !r.HasExport || dl == "" {
			t.Fatalf("after confirm: %+v, download token %q", r, dl)
		}
		_, body, err := f.svc.Download(f.ctx, dl)
		if err != nil {
			t.Fatal(err)
		}
		files := unzip(t, body)
		if len(files) != 2 || files["export.json"] == "" || files["index.html"] == "" {
			t.Fatalf("zip holds %d files: %v", len(files), keys(files))
		}
		var e privacy.Export
		if err := json.Unmarshal([]byte(files["export.json"]), &e); err != nil {
			t.Fatal(err)
		}
		if e.Account == nil || e.Account.Email != a.Email || e.Account.FirstName != a.First || e.Account.LastName != a.Last {
			t.Errorf("account = %+v", e.Account)
		}
		if len(e.Addresses) != 1 || e.Addresses[0].Address1 != a.Street {
			t.Errorf("addresses = %+v", e.Addresses)
		}
		if len(e.Orders) != 2 {
			t.Fatalf("orders = %d, want 2 (the account's and the guest order billed to the address)", len(e.Orders))
		}
		for _, o := range e.Orders {
			if o.Billing.Phone != a.Phone || o.IPAddress != a.IP || o.UserAgent != a.UA || len(o.Lines) != 1 || o.Lines[0].Name != "Mug" {
				t.Errorf("order = %+v", o)
			}
		}
		if len(e.Attribution) != 2 || e.Attribution[0].Fields["utm_source"] != "newsletter" {
			t.Errorf("attribution = %+v", e.Attribution)
		}
		if len(e.Reviews) != 1 || e.Reviews[0].IPAddress != a.IP || e.Reviews[0].Product != "Mug" {
			t.Errorf("reviews = %+v", e.Reviews)
		}
		if len(e.ContactMessages) != 1 || e.ContactMessages[0].Fields["your-message"][0] != "Call me on "+a.Phone ||
			len(e.ContactMessages[0].Files) != 1 {
			t.Errorf("contact messages = %+v", e.ContactMessages)
		}
		if len(e.Wishlist) != 1 || e.Wishlist[0].Product != "Mug" || e.Wishlist[0].PriceAdded != "$12.00" {
			t.Errorf("wishlist = %+v", e.Wishlist)
		}
		if len(e.StockAlerts) != 1 || e.StockAlerts[0].Product != "Mug" || e.StockAlerts[0].Email != a.Email {
			t.Errorf("stock alerts = %+v", e.StockAlerts)
		}
		if len(e.Sessions) != 1 || len(e.Devices) != 1 || e.Devices[0].Label != "Firefox on Linux" {
			t.Errorf("sessions = %+v, devices = %+v", e.Sessions, e.Devices)
		}
		for _, name := range []string{"export.json", "index.html"} {
			for _, v := range b.personal() {
				if strings.Contains(files[name], v) {
					t.Errorf("%s holds the other shopper's %q", name, v)
				}
			}
		}
		page := files["index.html"]
		for _, want := range []string{"<h2 id=\"account\">Account</h2>", `<a href="#orders">Orders</a>: 2 items`, "Orders", "Order attribution", "Reviews", "Contact messages",
			"Wishlist", "Stock alerts", "Sessions", "Remembered devices", a.Street, a.IP, "newsletter", "Holds tea well."} {
			if !strings.Contains(page, want) {
				t.Errorf("index.html lacks %q", want)
			}
		}
		if strings.Contains(page, "<script") || strings.Contains(page, "http://") || strings.Contains(page, "https://") {
			t.Error("index.html is not self-contained")
		}
	})
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestLinksAreOneTimeAndExpire(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		a := ada(f)
		_, token, err := f.svc.RequestForEmail(f.ctx, 1, privacy.KindExport, "  Adaline@Example.com ")
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"", "not-a-token", strings.Repeat("x", 500), token + "x"} {
			if _, _, err := f.svc.Confirm(f.ctx, bad); !errors.Is(err, privacy.ErrLinkInvalid) {
				t.Errorf("Confirm(%.20q) = %v, want ErrLinkInvalid", bad, err)
			}
		}
		if p, err := f.svc.PendingConfirm(f.ctx, token); err != nil || p.Kind != privacy.KindExport || p.Email != a.Email {
			t.Fatalf("PendingConfirm = %+v, %v", p, err)
		}
		r, dl, err := f.svc.Confirm(f.ctx, token)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.PendingConfirm(f.ctx, token); !errors.Is(err, privacy.ErrLinkInvalid) {
			t.Errorf("PendingConfirm of a used link = %v", err)
		}
		if r.UserID != a.user.ID {
			t.Errorf("a staff request for the address names its account: %d, want %d", r.UserID, a.user.ID)
		}
		// The second click: nothing changes, the link is spent.
		if _, _, err := f.svc.Confirm(f.ctx, token); !errors.Is(err, privacy.ErrLinkInvalid) {
			t.Fatalf("second confirm = %v", err)
		}
		again, _ := f.svc.Get(f.ctx, r.ID)
		if again.Status != privacy.StatusCompleted || *again.CompletedAt != *r.CompletedAt {
			t.Errorf("a replayed confirmation changed the request: %+v", again)
		}
		if _, _, err := f.svc.Download(f.ctx, dl); err != nil {
			t.Fatal(err)
		}
		if _, _, err := f.svc.Download(f.ctx, dl); !errors.Is(err, privacy.ErrLinkInvalid) {
			t.Errorf("second download = %v, want ErrLinkInvalid", err)
		}
		// Staff can still fetch it from the admin until it is purged.
		if _, b, err := f.svc.ExportFile(f.ctx, r.ID); err != nil || len(b) == 0 {
			t.Errorf("staff export = %d bytes, %v", len(b), err)
		}

		// An erasure link past its day; a download link past its days.
		_, late, err := f.svc.RequestForEmail(f.ctx, 1, privacy.KindErase, a.Email)
		if err != nil {
			t.Fatal(err)
		}
		_, tok2, err := f.svc.RequestForEmail(f.ctx, 1, privacy.KindExport, a.Email)
		if err != nil {
			t.Fatal(err)
		}
		_, dl2, err := f.svc.Confirm(f.ctx, tok2)
		if err != nil {
			t.Fatal(err)
		}
		f.clock.Add(privacy.ConfirmLifetime)
		if _, err := f.svc.PendingConfirm(f.ctx, late); !errors.Is(err, privacy.ErrLinkInvalid) {
			t.Errorf("PendingConfirm of an expired link = %v", err)
		}
		if _, _, err := f.svc.Confirm(f.ctx, late); !errors.Is(err, privacy.ErrLinkInvalid) {
			t.Errorf("expired confirm = %v", err)
		}
		f.clock.Add(privacy.DownloadLifetime)
		if _, _, err := f.svc.Download(f.ctx, dl2); !errors.Is(err, privacy.ErrLinkInvalid) {
			t.Errorf("expired download = %v", err)
		}
		if n, err := db.PurgePrivacyExports(f.ctx, f.clock.Now()); err != nil || n != 2 {
			t.Errorf("purged %d exports, %v; want 2", n, err)
		}
	})
}

func TestRequestsRefuseBadInputAndDuplicates(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		a := ada(f)
		for _, c := range []struct {
			kind, email string
			want        error
		}{
			{"export", "not an email", privacy.ErrInvalidEmail},
			{"export", "", privacy.ErrInvalidEmail},
			{"delete", a.Email, privacy.ErrInvalidKind},
		} {
			if _, _, err := f.svc.RequestForEmail(f.ctx, 1, c.kind, c.email); !errors.Is(err, c.want) {
				t.Errorf("RequestForEmail(%q, %q) = %v, want %v", c.kind, c.email, err, c.want)
			}
		}
		if rs, _ := f.svc.List(f.ctx, ""); len(rs) != 0 {
			t.Fatalf("bad input stored %d requests", len(rs))
		}
		// An unknown address is a request all the same (a guest's orders).
		if _, _, err := f.svc.RequestForEmail(f.ctx, 1, privacy.KindErase, "nobody@example.net"); err != nil {
			t.Errorf("unknown address: %v", err)
		}
		if _, _, err := f.svc.RequestForCustomer(f.ctx, a.user, privacy.KindErase, "192.0.2.1"); err != nil {
			t.Fatal(err)
		}
		if _, _, err := f.svc.RequestForEmail(f.ctx, 1, privacy.KindErase, strings.ToUpper(a.Email)); !errors.Is(err, privacy.ErrPending) {
			t.Errorf("second open erasure = %v, want ErrPending", err)
		}
		// Approving before the person confirmed changes nothing.
		rs, _ := f.svc.List(f.ctx, privacy.KindErase)
		if _, err := f.svc.Approve(f.ctx, rs[0].ID, 1); !errors.Is(err, privacy.ErrNotConfirmed) {
			t.Errorf("approve unconfirmed = %v", err)
		}
		if _, err := f.svc.Approve(f.ctx, 99999, 1); !errors.Is(err, privacy.ErrNotFound) {
			t.Errorf("approve unknown = %v", err)
		}
		if u, err := db.UserByID(f.ctx, a.user.ID); err != nil || u.Email != a.Email {
			t.Errorf("account after refused approval: %v %v", u, err)
		}
		// Once the link expired, a new request may be made.
		f.clock.Add(privacy.ConfirmLifetime + time.Minute)
		if _, _, err := f.svc.RequestForEmail(f.ctx, 1, privacy.KindErase, a.Email); err != nil {
			t.Errorf("after the link expired: %v", err)
		}
	})
}

func TestCustomerRequestsAreRateLimited(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		a := ada(f)
		kinds := []string{privacy.KindExport, privacy.KindErase, privacy.KindExport}
		for i, k := range kinds {
			_, _, err := f.svc.RequestForCustomer(f.ctx, a.user, k, "192.0.2.1")
			if i < 2 && err != nil {
				t.Fatal(err)
			}
			if i == 2 && !errors.Is(err, privacy.ErrPending) {
				t.Fatalf("third = %v, want ErrPending", err)
			}
		}
		var le *privacy.LimitedError
		if _, _, err := f.svc.RequestForCustomer(f.ctx, a.user, privacy.KindExport, "192.0.2.1"); !errors.As(err, &le) || le.RetryAfter <= 0 {
			t.Errorf("fourth = %v, want a *LimitedError", err)
		}
	})
}

func TestConfirmMailCarriesTheLinkUntilUsed(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		a := ada(f)
		r, token, err := f.svc.RequestForCustomer(f.ctx, a.user, privacy.KindErase, "")
		if err != nil {
			t.Fatal(err)
		}
		render := f.svc.Renderer("https://shop.test/")
		ref := fmt.Sprint(r.ID)
		m, err := render(f.ctx, privacy.MailConfirm, ref)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.To) != 1 || m.To[0] != a.Email || !strings.Contains(m.Text, "https://shop.test"+privacy.ConfirmPath+"?token="+token) ||
			!strings.Contains(m.Subject, "Test Shop") {
			t.Errorf("mail = %+v", m)
		}
		if _, _, err := f.svc.Confirm(f.ctx, token); err != nil {
			t.Fatal(err)
		}
		if _, err := render(f.ctx, privacy.MailConfirm, ref); err == nil {
			t.Error("a used link was mailed")
		}
		if _, err := render(f.ctx, privacy.MailConfirm, "x"); err == nil {
			t.Error("a bad ref rendered")
		}
	})
}

// textValues lists every value of every column of every table in the
// schema (read from the engine's catalogue, not a list kept here), as
// text: table.column -> values.
func textValues(t *testing.T, db *sqlstore.DB) map[string][]string {
	t.Helper()
	ctx := context.Background()
	var tables []string
	q := `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`
	if db.Engine == sqlcore.Postgres {
		q = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`
	}
	if err := db.Read.SelectContext(ctx, &tables, q); err != nil {
		t.Fatal(err)
	}
	if len(tables) < 40 {
		t.Fatalf("found %d tables", len(tables))
	}
	out := map[string][]string{}
	for _, tb := range tables {
		rows, err := db.Read.QueryxContext(ctx, `SELECT * FROM `+tb)
		if err != nil {
			t.Fatalf("%s: %v", tb, err)
		}
		for rows.Next() {
			m := map[string]any{}
			if err := rows.MapScan(m); err != nil {
				t.Fatal(err)
			}
			for col, v := range m {
				var s string
				switch v := v.(type) {
				case nil:
					continue
				case []byte:
					s = string(v)
				default:
					s = fmt.Sprint(v)
				}
				out[tb+"."+col] = append(out[tb+"."+col], s)
			}
		}
		rows.Close()
	}
	return out
}

func find(values map[string][]string, needle string) []string {
	var where []string
	n := strings.ToLower(needle)
	for col, vs := range values {
		for _, v := range vs {
			if strings.Contains(strings.ToLower(v), n) {
				where = append(where, col)
				break
			}
		}
	}
	return where
}

func TestErasureLeavesNoPersonalFieldInAnyTable(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		a, b := ada(f), bob(f)
		// Ada also left an export of her data behind, and a cart.
		_, tok, err := f.svc.RequestForCustomer(f.ctx, a.user, privacy.KindExport, "192.0.2.1")
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := f.svc.Confirm(f.ctx, tok); err != nil {
			t.Fatal(err)
		}
		before := textValues(t, db)
		for _, v := range a.personal() {
			if len(find(before, v)) == 0 {
				t.Fatalf("the fixture never stored %q: the scan proves nothing", v)
			}
		}
		r, tok, err := f.svc.RequestForEmail(f.ctx, 7, privacy.KindErase, a.Email)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := f.svc.Confirm(f.ctx, tok); err != nil {
			t.Fatal(err)
		}
		done, err := f.svc.Approve(f.ctx, r.ID, 7)
		if err != nil {
			t.Fatal(err)
		}
		want := privacy.Erased{Orders: 2, Reviews: 1, ReviewsMode: privacy.ReviewsAnonymise, ContactMessages: 1, AccountDeleted: true}
		if done.Status != privacy.StatusCompleted || done.Result == nil || *done.Result != want || done.ApprovedBy != 7 || done.Email != "" {
			t.Errorf("request after approval = %+v, result %+v", done, done.Result)
		}
		after := textValues(t, db)
		for _, v := range a.personal() {
			if cols := find(after, v); len(cols) > 0 {
				t.Errorf("%q is still in %v", v, cols)
			}
		}
		// The other shopper is untouched, and the books are kept.
		for _, v := range b.personal() {
			if len(find(after, v)) == 0 {
				t.Errorf("the erasure removed the other shopper's %q", v)
			}
		}
		for _, o := range a.orders {
			got, err := db.Order(f.ctx, o.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.Total != o.Total || len(got.Lines) != 1 || got.Lines[0].Name != "Mug" || got.TotalTax != o.TotalTax {
				t.Errorf("order %d lost its amounts or lines: %+v", o.ID, got)
			}
		}
		if _, err := db.UserByID(f.ctx, a.user.ID); !errors.Is(err, account.ErrNoUser) {
			t.Errorf("account still there: %v", err)
		}
		rv, err := db.PrivacyReviews(f.ctx, "", 0)
		if err != nil || len(rv) != 0 {
			t.Errorf("reviews matching nobody: %v %v", rv, err)
		}
		// A second approval changes nothing.
		if _, err := f.svc.Approve(f.ctx, r.ID, 7); !errors.Is(err, privacy.ErrNotConfirmed) {
			t.Errorf("second approval = %v", err)
		}
	})
}

func TestErasureAnonymisesOrDeletesReviews(t *testing.T) {
	for _, mode := range []string{privacy.ReviewsAnonymise, privacy.ReviewsDelete} {
		t.Run(mode, func(t *testing.T) {
			storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
				f := newFixture(t, db)
				f.mode = mode
				a, b := ada(f), bob(f)
				r, tok, err := f.svc.RequestForEmail(f.ctx, 1, privacy.KindErase, a.Email)
				if err != nil {
					t.Fatal(err)
				}
				if _, _, err := f.svc.Confirm(f.ctx, tok); err != nil {
					t.Fatal(err)
				}
				if _, err := f.svc.Approve(f.ctx, r.ID, 1); err != nil {
					t.Fatal(err)
				}
				var left []struct {
					ID       int64         `db:"id"`
					Author   string        `db:"author"`
					Email    string        `db:"email"`
					ClientIP string        `db:"client_ip"`
					UserID   sql.NullInt64 `db:"user_id"`
					Content  string        `db:"content"`
				}
				if err := db.Read.SelectContext(f.ctx, &left, db.Read.Rebind(`SELECT id, author, email, client_ip, user_id, content
					FROM reviews WHERE product_id = ?`), f.mug.ID); err != nil {
					t.Fatal(err)
				}
				var anon, others int
				for _, rv := range left {
					switch {
					case rv.ID == b.review.ID:
						others++
					case rv.ID == a.review.ID:
						if rv.Author != privacy.AnonymousName || rv.Email != "" || rv.ClientIP != "" || rv.UserID.Valid || rv.Content != a.review.Content {
							t.Errorf("anonymised review = %+v", rv)
						}
						anon++
					}
				}
				wantAnon := 1
				if mode == privacy.ReviewsDelete {
					wantAnon = 0
				}
				if anon != wantAnon || others != 1 {
					t.Errorf("reviews left: %d of the person (want %d), %d of the other", anon, wantAnon, others)
				}
				p, err := db.Product(f.ctx, f.mug.ID)
				if err != nil {
					t.Fatal(err)
				}
				if p.ReviewCount != 1+wantAnon {
					t.Errorf("review count = %d, want %d", p.ReviewCount, 1+wantAnon)
				}
			})
		})
	}
}

// BenchmarkExportFiftyOrders builds the export of a person with 50 orders,
// a review, a message, a session and a device (the whole Export and Zip),
// on SQLite, and reports the zip's size.
func BenchmarkExportFiftyOrders(b *testing.B) {
	db := storetest.Open(b, sqlstore.SQLite)
	f := newFixture(b, db)
	a := ada(f)
	for range 48 {
		f.order(a, a.user.ID, a.Email)
	}
	var size int
	b.ResetTimer()
	for b.Loop() {
		e, err := f.svc.Export(f.ctx, a.Email, a.user.ID)
		if err != nil {
			b.Fatal(err)
		}
		z, err := e.Zip()
		if err != nil {
			b.Fatal(err)
		}
		size = len(z)
	}
	b.ReportMetric(float64(size), "zip-bytes")
}
