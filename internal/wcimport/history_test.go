package wcimport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/cart"
	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/contentpage"
	"vitrine/internal/coupon"
	"vitrine/internal/money"
	"vitrine/internal/orders"
	"vitrine/internal/pages"
	"vitrine/internal/payment"
	"vitrine/internal/settings"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
	"vitrine/internal/wcimport/standin"
	"vitrine/internal/webhook"
)

// The history's resources against records as WooCommerce 11 answers them
// (testdata/wc11: the shared reference recordings' bodies) and as the
// stand-in generates them, into a real store on both engines.

var historyNow = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

// memSource is a Source over fixed collections: path → records, served
// in pages of pageSize.
type memSource struct {
	mu       sync.Mutex
	lists    map[string][]json.RawMessage
	pageSize int
}

func (s *memSource) List(_ context.Context, path string, _ url.Values, page int) ([]json.RawMessage, int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	all := s.lists[path]
	size := s.pageSize
	if size == 0 {
		size = 100
	}
	pages := max((len(all)+size-1)/size, 1)
	lo, hi := (page-1)*size, page*size
	if lo >= len(all) {
		return nil, pages, nil
	}
	return all[lo:min(hi, len(all))], pages, nil
}

func (s *memSource) Get(context.Context, string) (json.RawMessage, error) {
	return nil, errors.New("not served")
}

func (s *memSource) Download(context.Context, string) ([]byte, string, error) {
	return nil, "", errors.New("not served")
}

func (s *memSource) set(path string, v any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lists == nil {
		s.lists = map[string][]json.RawMessage{}
	}
	var items []json.RawMessage
	switch v := v.(type) {
	case []json.RawMessage:
		items = v
	default:
		b, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		if err := json.Unmarshal(b, &items); err != nil {
			panic(err)
		}
	}
	s.lists[path] = items
}

// shopSource serves a stand-in Shop's history collections.
func shopSource(sh *standin.Shop) *memSource {
	s := &memSource{}
	s.set("wc/v3/customers", sh.Customers)
	s.set("wc/v3/coupons", sh.Coupons)
	s.set("wc/v3/orders", sh.Orders)
	for id, notes := range sh.OrderNotes {
		s.set(fmt.Sprintf("wc/v3/orders/%d/notes", id), notes)
	}
	for id, refunds := range sh.Refunds {
		s.set(fmt.Sprintf("wc/v3/orders/%d/refunds", id), refunds)
	}
	var reviews, replies []standin.Object
	for _, r := range sh.Reviews {
		if _, reply := r["parent"]; reply {
			replies = append(replies, r)
		} else {
			reviews = append(reviews, r)
		}
	}
	s.set("wc/v3/products/reviews", reviews)
	s.set("wp/v2/comments", replies)
	s.set("wp/v2/pages", sh.Pages)
	s.set("wc/v3/settings/general", sh.Settings["general"])
	s.set("wc/v3/settings/tax", sh.Settings["tax"])
	s.set("wc/v3/taxes", sh.Taxes)
	return s
}

func readJSON(t *testing.T, name string) []json.RawMessage {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "wc11", name))
	if err != nil {
		t.Fatal(err)
	}
	var items []json.RawMessage
	if b[0] == '{' {
		items = []json.RawMessage{b}
	} else if err := json.Unmarshal(b, &items); err != nil {
		t.Fatal(err)
	}
	return items
}

// referenceSource is the reference store's history: customers 4, 5, 2, 3;
// coupons 85 and 86; orders 87-90 with order 90's notes and refunds;
// reviews 2-4 and comment 25 (the admin's reply to review 2, shaped as
// WordPress's comments endpoint answers it); a page; the general settings.
func referenceSource(t *testing.T) *memSource {
	s := &memSource{}
	s.set("wc/v3/customers", readJSON(t, "wc-v3-customers.json"))
	s.set("wc/v3/coupons", readJSON(t, "wc-v3-coupons.json"))
	var ords []json.RawMessage
	for _, f := range []string{"wc-v3-orders-90-refunded.json", "wc-v3-orders-89-on-hold.json", "wc-v3-orders-88-completed-coupon-fee.json", "wc-v3-orders-87-processing.json"} {
		ords = append(ords, readJSON(t, f)...)
	}
	s.set("wc/v3/orders", ords)
	s.set("wc/v3/orders/90/notes", readJSON(t, "wc-v3-orders-90-notes.json"))
	s.set("wc/v3/orders/90/refunds", readJSON(t, "wc-v3-orders-90-refunds.json"))
	s.set("wc/v3/products/reviews", readJSON(t, "wc-v3-products-reviews.json"))
	s.set("wp/v2/comments", []standin.Object{{"id": 25, "post": 59, "parent": 2, "author": 1, "author_name": "admin",
		"date": "2026-11-29T04:07:42", "date_gmt": "2026-11-29T04:07:42", "status": "approved", "type": "comment",
		"content": standin.Object{"rendered": "<p>Thank you, Alice!</p>\n"}, "link": "https://shop.example/product/bench-tee/#comment-25"}})
	s.set("wp/v2/pages", []standin.Object{
		{"id": 7, "slug": "about-us", "status": "publish", "parent": 0, "link": "https://shop.example/about-us/",
			"title": standin.Object{"rendered": "About &#038; Us"}, "content": standin.Object{"rendered": "<p>We knit.</p>\n", "protected": false}},
		{"id": 8, "slug": "cart", "status": "publish", "parent": 0, "link": "https://shop.example/cart/",
			"title": standin.Object{"rendered": "Cart"}, "content": standin.Object{"rendered": "<!-- wp:woocommerce/cart /-->", "protected": false}},
	})
	s.set("wc/v3/settings/general", readJSON(t, "wc-v3-settings-general.json"))
	return s
}

// historyShop is a store with the services the history writes with.
type historyShop struct {
	db       *sqlstore.DB
	deps     Deps
	settings *settings.Service
	rules    *settings.Rules
	products map[int64]int64 // old product or variation id → new id
}

func newHistoryShop(t testing.TB, db *sqlstore.DB) *historyShop {
	t.Helper()
	clock := storetest.FrozenClock(historyNow)
	db.SetClock(clock.Now)
	usd, _ := money.Lookup("USD")
	h := &historyShop{db: db, products: map[int64]int64{},
		settings: &settings.Service{Store: db, Defaults: settings.FromPages("Vitrine", "", false, pages.DefaultSettings()), Now: clock.Now}, rules: &settings.Rules{Store: db, Now: clock.Now}}
	h.deps = Deps{Legacy: db, Now: clock.Now, History: StoreHistoryDeps(db, h.settings, h.rules, usd, clock.Now)}
	return h
}

// product creates a managed-stock product (and variations) as the old
// shop's old id (and variation ids), remembered as the catalogue would.
func (h *historyShop) product(t testing.TB, old int64, name string, stock int64, variations ...int64) {
	t.Helper()
	ctx := context.Background()
	n := stock
	p := &catalog.Product{Type: catalog.TypeSimple, Name: name, Slug: fmt.Sprintf("p-%d", old), RegularPrice: ptr(int64(9900)),
		ManageStock: true, StockQuantity: &n, Purchasable: true}
	var vars []*catalog.Product
	if len(variations) > 0 {
		p.Type = catalog.TypeVariable
		p.Attributes = []catalog.ProductAttribute{{Name: "Size", Visible: true, Variation: true}}
		for i := range variations {
			vars = append(vars, &catalog.Product{Type: catalog.TypeVariation, Name: name, RegularPrice: ptr(int64(9900)), Purchasable: true,
				Active: true, Variation: []catalog.VariationAttr{{Name: "size", Value: fmt.Sprint(i)}}})
		}
	}
	if _, err := h.db.SaveProduct(ctx, p, vars); err != nil {
		t.Fatal(err)
	}
	r := &Run{deps: h.deps}
	if err := r.remember(ctx, "product", old, p.ID, "", json.RawMessage(`{}`)); err != nil {
		t.Fatal(err)
	}
	h.products[old] = p.ID
	for i, v := range variations {
		if err := r.remember(ctx, "variation", v, vars[i].ID, "", json.RawMessage(`{}`)); err != nil {
			t.Fatal(err)
		}
		h.products[v] = vars[i].ID
	}
}

func ptr[T any](v T) *T { return &v }

// result is one run of the history's resources.
type result struct {
	counts   map[string]Count
	refusals []Refusal
}

func (res result) refused(resource, name string) string {
	for _, r := range res.refusals {
		if r.Resource == resource && r.Name == name {
			return r.Reason
		}
	}
	return ""
}

// runHistory reads each history resource page by page and imports each
// record with its one function, as a run does.
func runHistory(t *testing.T, h *historyShop, src Source, dry bool) result {
	t.Helper()
	ctx := context.Background()
	r := &Run{deps: h.deps, src: src, dry: dry, source: "https://shop.example"}
	res := result{counts: map[string]Count{}}
	for _, rs := range r.historyResources() {
		c := res.counts[rs.name]
		for page := 1; ; page++ {
			items, pages, err := src.List(ctx, rs.path, rs.query, page)
			if err != nil {
				t.Fatal(err)
			}
			for _, raw := range items {
				c.Read++
				out, err := rs.one(ctx, r, raw)
				var rf *refusal
				switch {
				case errors.As(err, &rf):
					c.Refused++
					res.refusals = append(res.refusals, Refusal{Resource: rs.name, Name: rf.name, Reason: rf.reason})
					continue
				case err != nil:
					t.Fatalf("%s: %v (record %s)", rs.name, err, raw)
				}
				switch out {
				case Created:
					c.Created++
				case Updated:
					c.Updated++
				case Unchanged:
					c.Unchanged++
				default:
					t.Fatalf("%s: outcome %d without a refusal", rs.name, out)
				}
			}
			if page >= pages {
				break
			}
		}
		res.counts[rs.name] = c
	}
	return res
}

func (h *historyShop) count(t *testing.T, q string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := h.db.Read.GetContext(context.Background(), &n, h.db.Read.Rebind(q), args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

func (h *historyShop) legacy(t *testing.T, kind string, old int64) int64 {
	t.Helper()
	l, ok, err := h.db.LegacyByOldID(context.Background(), kind, old)
	if err != nil || !ok {
		t.Fatalf("%s %d not moved in (%v)", kind, old, err)
	}
	return l.NewID
}

// rowCounts are the history's tables' sizes.
func (h *historyShop) rowCounts(t *testing.T) map[string]int64 {
	out := map[string]int64{}
	for _, table := range []string{"users", "customer_addresses", "coupons", "orders", "order_lines", "order_notes", "order_refunds",
		"order_coupons", "order_meta", "reviews", "content_pages", "legacy_ids", "mail_outbox", "webhook_queue"} {
		out[table] = h.count(t, `SELECT COUNT(*) FROM `+table)
	}
	return out
}

func (h *historyShop) stocks(t *testing.T) map[int64]int64 {
	out := map[int64]int64{}
	for old, id := range h.products {
		out[old] = h.count(t, `SELECT COALESCE(stock_quantity, -1) FROM products WHERE id = ?`, id)
	}
	return out
}

func seedReferenceProducts(t *testing.T, h *historyShop) {
	h.product(t, 15, "T-Shirt", 40)
	h.product(t, 16, "Beanie", 30)
	h.product(t, 17, "Belt", 20)
	h.product(t, 20, "Hoodie with Pocket", 10)
	h.product(t, 59, "Bench Tee", 50, 70, 63)
	// 22 (Long Sleeve Tee) is left out: a product the old shop deleted.
}

func TestHistoryReference(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		h := newHistoryShop(t, db)
		seedReferenceProducts(t, h)
		stock := h.stocks(t)
		for _, topic := range []string{"order.created", "order.updated"} {
			if _, err := db.InsertWebhook(ctx, &webhook.Hook{Name: topic, Status: "active", Topic: topic, DeliveryURL: "https://hooks.example/in",
				Secret: "s", APIVersion: "wp_api_v3", CreatedAt: historyNow}, false, historyNow); err != nil {
				t.Fatal(err)
			}
		}
		res := runHistory(t, h, referenceSource(t), false)

		for name, want := range map[string]Count{
			"customers": {Read: 4, Created: 4}, "coupons": {Read: 2, Created: 2}, "orders": {Read: 4, Created: 4},
			"reviews": {Read: 3, Created: 3}, "review-replies": {Read: 1, Created: 1}, "pages": {Read: 2, Created: 1, Refused: 1},
		} {
			if got := res.counts[name]; got != want {
				t.Errorf("%s: %+v, want %+v (refusals %v)", name, got, want, res.refusals)
			}
		}
		if why := res.refused("pages", "cart"); !strings.Contains(why, "/cart/ is one of this shop's own pages") {
			t.Errorf("the cart page: %q", why)
		}

		// Customers with both addresses; Bob's shipping differs from his billing.
		accounts := h.deps.History.Customers.(*account.Service)
		bob, err := accounts.Customer(ctx, h.legacy(t, "customer", 5))
		if err != nil {
			t.Fatal(err)
		}
		if bob.Email != "bob.fixture@example.com" || bob.Username != "bob.fixture" || bob.FirstName != "Bob" || bob.Role != account.RoleCustomer ||
			!bob.CreatedAt.Equal(time.Date(2026, 11, 29, 4, 7, 40, 0, time.UTC)) {
			t.Errorf("bob: %+v (registered %v)", bob.User, bob.CreatedAt)
		}
		if bob.Billing.Address1 != "200 Broadway" || bob.Billing.Postcode != "10007" || bob.Billing.Phone != "212-555-0199" ||
			bob.Shipping.Address1 != "350 5th Ave" || bob.Shipping.Postcode != "10118" {
			t.Errorf("bob's addresses: %+v / %+v", bob.Billing, bob.Shipping)
		}

		// Order 88, field for field with the source.
		var src wcOrder
		if err := json.Unmarshal(readJSON(t, "wc-v3-orders-88-completed-coupon-fee.json")[0], &src); err != nil {
			t.Fatal(err)
		}
		if id := h.legacy(t, "order", 88); id != 88 {
			t.Fatalf("order 88 is %d here: its number is kept", id)
		}
		o, err := db.Order(ctx, 88)
		if err != nil {
			t.Fatal(err)
		}
		created := time.Date(2026, 11, 29, 4, 7, 42, 0, time.UTC)
		if o.Number != "88" || o.Status != "completed" || o.Currency != "USD" || !o.CreatedAt.Equal(created) || !o.UpdatedAt.Equal(created) ||
			o.PaidAt == nil || !o.PaidAt.Equal(created) || o.PaymentState != checkout.PayPaid || o.Key != src.OrderKey ||
			o.PaymentMethod != "cod" || o.PaymentMethodTitle != "Cash on delivery" || o.CustomerID != h.legacy(t, "customer", 5) {
			t.Errorf("order 88: %+v", o)
		}
		if o.Billing.Address1 != "200 Broadway" || o.Billing.Email != "bob.fixture@example.com" || o.Shipping.Address1 != "350 5th Ave" || o.Billing.Phone != "212-555-0199" {
			t.Errorf("order 88's addresses: %+v / %+v", o.Billing, o.Shipping)
		}
		wantLines := []checkout.Line{
			{ProductID: h.products[16], Name: "Beanie", SKU: "woo-beanie", Quantity: 2, UnitPrice: 1800, Subtotal: 3600, Total: 3240},
			{ProductID: h.products[15], Name: "T-Shirt", SKU: "woo-tshirt", Quantity: 1, UnitPrice: 1800, Subtotal: 1800, Total: 1620},
		}
		if !linesEqual(o.Lines, wantLines) {
			t.Errorf("order 88's lines:\n%+v\nwant\n%+v", o.Lines, wantLines)
		}
		if len(o.FeeLines) != 1 || o.FeeLines[0] != (checkout.FeeLine{Name: "Gift wrap", TaxStatus: "none", Total: 250}) {
			t.Errorf("order 88's fees: %+v", o.FeeLines)
		}
		if len(o.ShippingLines) != 1 || o.ShippingLines[0].Title != "Flat rate" || o.ShippingLines[0].MethodID != "flat_rate" || o.ShippingLines[0].Total != 500 {
			t.Errorf("order 88's shipping: %+v", o.ShippingLines)
		}
		if len(o.Coupons) != 1 || o.Coupons[0] != (checkout.CouponAmount{Code: "fixture10", Type: "percent", Discount: 540}) {
			t.Errorf("order 88's coupons: %+v", o.Coupons)
		}
		if o.ItemsSubtotal != 5400 || o.DiscountTotal != 540 || o.ShippingTotal != 500 || o.TotalTax != 0 || o.Total != 5610 || len(o.TaxLines) != 0 {
			t.Errorf("order 88's totals: items %d discount %d shipping %d tax %d total %d", o.ItemsSubtotal, o.DiscountTotal, o.ShippingTotal, o.TotalTax, o.Total)
		}
		// The parts add up to the total, fees included.
		if sum := o.ItemsSubtotal - o.DiscountTotal + o.ShippingTotal + o.FeeLines[0].Total + o.TotalTax; sum != o.Total {
			t.Errorf("order 88's parts sum to %d, total %d", sum, o.Total)
		}
		if o.Meta[orders.MetaMovedFrom] != "woocommerce" || o.Meta["_created_via"] != "rest-api" || o.Meta["_date_completed"] != fmt.Sprint(created.Unix()) {
			t.Errorf("order 88's meta: %v", o.Meta)
		}
		if n := h.count(t, `SELECT COUNT(*) FROM order_coupons WHERE order_id = 88 AND coupon_id = ?`, h.legacy(t, "coupon", 85)); n != 1 {
			t.Errorf("order 88's coupon use links the coupon: %d", n)
		}

		// Order 87: a variation line with its attributes as sold; its
		// stock was reduced there (_reduced_stock 2), so none is counted
		// as put back.
		o87, err := db.Order(ctx, 87)
		if err != nil {
			t.Fatal(err)
		}
		if len(o87.Lines) != 1 || o87.Lines[0].ProductID != h.products[59] || o87.Lines[0].VariationID != h.products[70] ||
			o87.Lines[0].Name != "Bench Tee - Blue, Large" || o87.Lines[0].UnitPrice != 1700 ||
			!slices.Equal(o87.Lines[0].Variation, []cart.Attr{{Attribute: "Color", Value: "Blue"}, {Attribute: "Size", Value: "Large"}}) {
			t.Errorf("order 87's line: %+v", o87.Lines)
		}
		if n := h.count(t, `SELECT restocked FROM order_lines WHERE order_id = 87`); n != 0 {
			t.Errorf("order 87's line counts %d units put back", n)
		}

		// Order 89: a guest's, on hold, unpaid; its Long Sleeve Tee was
		// not moved in: the line stays, unlinked, as sold.
		o89, err := db.Order(ctx, 89)
		if err != nil {
			t.Fatal(err)
		}
		if o89.CustomerID != 0 || o89.Status != "on-hold" || o89.PaidAt != nil || o89.PaymentState != checkout.PayNone || o89.Total != 5200 {
			t.Errorf("order 89: %+v", o89)
		}
		if len(o89.Lines) != 2 || o89.Lines[0].ProductID != 0 || o89.Lines[0].Name != "Long Sleeve Tee" || o89.Lines[0].Subtotal != 2500 ||
			o89.Lines[1].VariationID != h.products[63] {
			t.Errorf("order 89's lines: %+v", o89.Lines)
		}
		// The held-stock release never cancels an order moved in.
		held, err := db.AwaitingPaymentOrders(ctx, []string{payment.BankTransferID}, historyNow.Add(24*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		if len(held) != 0 {
			t.Errorf("the held-stock release lists %d orders moved in", len(held))
		}

		// Order 90: refunded, with both refunds and its nine notes.
		d, err := (&orders.Service{Store: db}).Get(ctx, 90)
		if err != nil {
			t.Fatal(err)
		}
		if d.Status != "refunded" || d.Total != 9500 || len(d.Notes) != 9 || len(d.Refunds) != 2 {
			t.Fatalf("order 90: status %s total %d, %d notes, %d refunds", d.Status, d.Total, len(d.Notes), len(d.Refunds))
		}
		var customerNotes []string
		for _, n := range d.Notes {
			if n.Customer {
				customerNotes = append(customerNotes, n.Note)
			}
			if n.Author != "WooCommerce" || !n.Created.Equal(time.Date(2026, 11, 29, 4, 7, 43, 0, time.UTC)) {
				t.Errorf("note %+v", n)
			}
		}
		if !slices.Equal(customerNotes, []string{"Customer returned the belt; refunded by bank transfer."}) {
			t.Errorf("order 90's customer notes: %q", customerNotes)
		}
		byAmount := map[int64]orders.Refund{}
		for _, rf := range d.Refunds {
			byAmount[rf.Amount] = rf
		}
		belt, rest := byAmount[5500], byAmount[4000]
		if belt.Reason != "Belt returned" || belt.Method != orders.MethodManual || belt.Status != orders.RefundCompleted ||
			!slices.Equal(belt.Lines, []orders.RefundLine{{Line: 1, Quantity: 1, Total: 5500}}) {
			t.Errorf("refund 91: %+v", belt)
		}
		if rest.Reason != "Order fully refunded." || len(rest.Lines) != 0 || d.Refunded != 9500 || d.Left() != 0 {
			t.Errorf("refund 92: %+v; refunded %d, left %d", rest, d.Refunded, d.Left())
		}
		if h.legacy(t, "refund", 91) != belt.ID || h.legacy(t, "refund", 92) != rest.ID {
			t.Errorf("refunds' old ids")
		}

		// Coupons: usage counts and limits as counted there.
		c85, err := db.CouponByCode(ctx, "fixture10")
		if err != nil {
			t.Fatal(err)
		}
		if c85.UsageCount != 1 || c85.UsageLimit != 5 || c85.Type != coupon.Percent || c85.Amount != 10_000 {
			t.Errorf("fixture10: %+v", c85)
		}
		c86, err := db.CouponByCode(ctx, "fixture5off")
		if err != nil {
			t.Fatal(err)
		}
		if c86.UsageCount != 0 || c86.MinimumAmount != 2000 || c86.Amount != 500 || c86.Type != coupon.FixedCart {
			t.Errorf("fixture5off: %+v", c86)
		}

		// Reviews: statuses, the reply, ratings recomputed from the
		// approved ones (review 4 is held).
		r2, err := db.ReviewByID(ctx, h.legacy(t, "review", 2))
		if err != nil {
			t.Fatal(err)
		}
		if r2.Status != "approved" || r2.Rating != 5 || r2.Email != "alice.fixture@example.com" || r2.Reply.Text != "Thank you, Alice!" ||
			r2.Reply.Author != "admin" || r2.ProductID != h.products[59] {
			t.Errorf("review 2: %+v", r2)
		}
		if r3, err := db.ReviewByID(ctx, h.legacy(t, "review", 3)); err != nil || r3.UserID != bob.ID || r3.ProductID != h.products[16] {
			t.Errorf("review 3 is not linked to bob's account: %v %+v", err, r3)
		}
		r4, err := db.ReviewByID(ctx, h.legacy(t, "review", 4))
		if err != nil {
			t.Fatal(err)
		}
		if r4.Status != "hold" || r4.Content != "Shrank a little after washing." {
			t.Errorf("review 4: %+v", r4)
		}
		if n := h.count(t, `SELECT review_count FROM products WHERE id = ?`, h.products[59]); n != 1 {
			t.Errorf("Bench Tee's review count %d, want 1 (the held one does not count)", n)
		}
		if n := h.count(t, `SELECT rating_5 FROM products WHERE id = ?`, h.products[59]); n != 1 {
			t.Errorf("Bench Tee's five-star count %d", n)
		}

		// Pages and settings.
		page, err := db.ContentPage(ctx, "about-us")
		if err != nil {
			t.Fatal(err)
		}
		if page.Title != "About & Us" || !strings.Contains(page.Body, "We knit.") || page.Status != contentpage.Published {
			t.Errorf("about-us: %+v", page)
		}
		if l, ok, _ := db.LegacyByPath(ctx, "/about-us/"); !ok || l.Kind != "page" {
			t.Errorf("the old page's path is not kept: %+v", l)
		}
		if a := h.settings.Current().Address; a.Line1 != "1 Anchor Way" || a.Country != "US" || a.State != "CA" {
			t.Errorf("the shop's address: %+v (%v)", a, res.refusals)
		}
		for _, id := range []string{"woocommerce_calc_taxes", "woocommerce_allowed_countries"} {
			if why := res.refused("settings", id); why != "" {
				t.Errorf("%s refused though it matches: %s", id, why)
			}
		}

		// History: no mail, no webhook, no stock moved.
		if n := h.count(t, `SELECT COUNT(*) FROM mail_outbox`); n != 0 {
			t.Errorf("%d mails queued", n)
		}
		if n := h.count(t, `SELECT COUNT(*) FROM webhook_queue`); n != 0 {
			t.Errorf("%d webhook deliveries queued", n)
		}
		if after := h.stocks(t); !mapsEqual(after, stock) {
			t.Errorf("stock moved: %v, was %v", after, stock)
		}

		// The next order placed here is numbered after the highest moved
		// in, and raises the order.created the moved-in ones did not.
		if id := placeOrder(t, h, h.products[16]); id <= 90 {
			t.Errorf("a new order is number %d, after orders up to 90", id)
		}
		if n := h.count(t, `SELECT COUNT(*) FROM webhook_queue WHERE topic = 'order.created'`); n != 1 {
			t.Errorf("%d order.created deliveries after one order placed", n)
		}
	})
}

func mapsEqual(a, b map[int64]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func linesEqual(got, want []checkout.Line) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.ProductID != w.ProductID || g.VariationID != w.VariationID || g.Name != w.Name || g.SKU != w.SKU || g.Quantity != w.Quantity ||
			g.UnitPrice != w.UnitPrice || g.Subtotal != w.Subtotal || g.SubtotalTax != w.SubtotalTax || g.Total != w.Total || g.TotalTax != w.TotalTax {
			return false
		}
	}
	return true
}

// placeOrder places an order through the checkout's own transaction and
// answers its number.
func placeOrder(t *testing.T, h *historyShop, product int64) int64 {
	t.Helper()
	ctx := context.Background()
	usd, _ := money.Lookup("USD")
	cfg := checkout.DefaultConfig(usd)
	const sess = "t_000000000000000000000000000001"
	l := cart.Line{ProductID: product, Quantity: 1, UnitPrice: 9900}
	l.Key = cart.LineKey(l.ProductID, 0, nil)
	if _, err := h.db.AddLine(ctx, sess, l, historyNow, historyNow.Add(cart.Lifetime), nil); err != nil {
		t.Fatal(err)
	}
	addr := checkout.Address{FirstName: "Ada", LastName: "Lovelace", Address1: "1 Main St", City: "Sacramento", State: "CA", Postcode: "95814", Country: "US", Email: "ada@example.com"}
	o, _, err := h.db.PlaceOrder(ctx, checkout.PlaceOrderInput{Session: sess, Method: payment.BankTransfer{}, Status: checkout.StatusOnHold,
		Config: &cfg, Now: historyNow, Customer: checkout.Customer{Billing: addr, Shipping: addr}})
	if err != nil {
		t.Fatal(err)
	}
	return o.ID
}

// A second run over the same records writes nothing; a run after the old
// shop changed an order's status and took a new order updates that order,
// adds the new one and leaves everything else as it was.
func TestHistoryRerun(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		h := newHistoryShop(t, db)
		seedReferenceProducts(t, h)
		src := referenceSource(t)
		runHistory(t, h, src, false)
		rows := h.rowCounts(t)

		again := runHistory(t, h, src, false)
		for name, c := range again.counts {
			if c.Created+c.Updated != 0 || (name != "pages" && name != "settings" && c.Refused != 0) {
				t.Errorf("second run, %s: %+v", name, c)
			}
		}
		if after := h.rowCounts(t); !mapsEqualS(after, rows) {
			t.Errorf("second run changed rows: %v, was %v", after, rows)
		}

		// Order 89 is paid and processing now, with a note; order 95 is new.
		var o89 map[string]any
		if err := json.Unmarshal(readJSON(t, "wc-v3-orders-89-on-hold.json")[0], &o89); err != nil {
			t.Fatal(err)
		}
		o89["status"], o89["date_paid_gmt"], o89["date_modified_gmt"] = "processing", "2026-11-30T10:00:00", "2026-11-30T10:00:00"
		o95 := map[string]any{}
		for k, v := range o89 {
			o95[k] = v
		}
		o95["id"], o95["number"], o95["order_key"], o95["status"] = 95, "95", "wc_order_new95newnew9", "completed"
		var ords []json.RawMessage
		for _, raw := range src.lists["wc/v3/orders"] {
			if !strings.Contains(string(raw), `"id": 89,`) {
				ords = append(ords, raw)
			}
		}
		b89, _ := json.Marshal(o89)
		b95, _ := json.Marshal(o95)
		src.set("wc/v3/orders", append(ords, b89, b95))
		src.set("wc/v3/orders/89/notes", []standin.Object{{"id": 30, "author": "Shop Manager", "date_created": "2026-11-30T10:00:00",
			"date_created_gmt": "2026-11-30T10:00:00", "note": "Paid by bank transfer.", "customer_note": false}})

		third := runHistory(t, h, src, false)
		if c := third.counts["orders"]; c != (Count{Read: 5, Created: 1, Updated: 1, Unchanged: 3}) {
			t.Errorf("third run's orders: %+v (%v)", c, third.refusals)
		}
		for _, name := range []string{"customers", "coupons", "reviews", "review-replies"} {
			if c := third.counts[name]; c.Created+c.Updated != 0 {
				t.Errorf("third run, %s: %+v", name, c)
			}
		}
		o, err := db.Order(ctx, 89)
		if err != nil {
			t.Fatal(err)
		}
		if o.Status != "processing" || o.PaidAt == nil || len(o.Lines) != 2 {
			t.Errorf("order 89 after the change: %s, paid %v, %d lines", o.Status, o.PaidAt, len(o.Lines))
		}
		notes, err := db.OrderNotes(ctx, 89)
		if err != nil {
			t.Fatal(err)
		}
		if len(notes) != 1 || notes[0].Note != "Paid by bank transfer." || notes[0].Author != "Shop Manager" {
			t.Errorf("order 89's notes: %+v", notes)
		}
		if h.legacy(t, "order", 95) != 95 {
			t.Errorf("order 95's number")
		}

		// An order deleted here since it was moved in, changed there, is
		// moved in again.
		if err := db.DeleteOrder(ctx, 88, historyNow); err != nil {
			t.Fatal(err)
		}
		var o88 map[string]any
		if err := json.Unmarshal(readJSON(t, "wc-v3-orders-88-completed-coupon-fee.json")[0], &o88); err != nil {
			t.Fatal(err)
		}
		o88["customer_note"] = "Wrap it nicely."
		b88, _ := json.Marshal(o88)
		var rest []json.RawMessage
		for _, raw := range src.lists["wc/v3/orders"] {
			if !strings.Contains(string(raw), `"id": 88,`) {
				rest = append(rest, raw)
			}
		}
		src.set("wc/v3/orders", append(rest, b88))
		fourth := runHistory(t, h, src, false)
		if c := fourth.counts["orders"]; c != (Count{Read: 5, Created: 1, Unchanged: 4}) {
			t.Errorf("fourth run's orders: %+v", c)
		}
		if o, err := db.Order(ctx, 88); err != nil || o.CustomerNote != "Wrap it nicely." || len(o.Lines) != 2 {
			t.Errorf("order 88 moved in again: %v %+v", err, o)
		}
		after := h.rowCounts(t)
		for table, delta := range map[string]int64{"orders": 1, "order_lines": 2, "order_notes": 1, "order_meta": 2} { // order 95's meta: moved from, created via
			if after[table]-rows[table] != delta {
				t.Errorf("%s: %d rows, was %d (want %+d)", table, after[table], rows[table], delta)
			}
		}
		for _, table := range []string{"users", "coupons", "order_refunds", "reviews", "mail_outbox", "webhook_queue"} {
			if after[table] != rows[table] {
				t.Errorf("%s: %d rows, was %d", table, after[table], rows[table])
			}
		}
	})
}

func mapsEqualS(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// A dry run counts what it would write and writes nothing, and an order
// linking a customer of the same run counts as it would.
func TestHistoryDryRun(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		h := newHistoryShop(t, db)
		seedReferenceProducts(t, h)
		email := "alice.fixture@example.com" // would be linked
		if _, err := h.deps.History.Customers.CreateCustomer(context.Background(), account.CustomerEdit{Email: &email}); err != nil {
			t.Fatal(err)
		}
		rows := h.rowCounts(t)
		res := runHistory(t, h, referenceSource(t), true)
		for name, want := range map[string]Count{
			"customers": {Read: 4, Created: 3, Updated: 1}, "coupons": {Read: 2, Created: 2}, "orders": {Read: 4, Created: 4},
			"reviews": {Read: 3, Created: 3}, "pages": {Read: 2, Created: 1, Refused: 1},
		} {
			if got := res.counts[name]; got != want {
				t.Errorf("%s: %+v, want %+v", name, got, want)
			}
		}
		if after := h.rowCounts(t); !mapsEqualS(after, rows) {
			t.Errorf("a dry run wrote: %v, was %v", after, rows)
		}
		if a := h.settings.Current().Address; a.Line1 != "" {
			t.Errorf("a dry run saved the address %q", a.Line1)
		}
	})
}

// Records this shop cannot take are refused by name and change nothing;
// an account with the same email is linked, not duplicated.
func TestHistoryRefusalsAndLinks(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		h := newHistoryShop(t, db)
		seedReferenceProducts(t, h)
		accounts := h.deps.History.Customers.(*account.Service)
		email := "alice.fixture@example.com"
		had, err := accounts.CreateCustomer(ctx, account.CustomerEdit{Email: &email})
		if err != nil {
			t.Fatal(err)
		}
		staffEmail, admin, staffName := "bob.fixture@example.com", account.RoleAdministrator, "Boss"
		staff, err := accounts.CreateCustomer(ctx, account.CustomerEdit{By: account.RoleAdministrator, Email: &staffEmail, Role: &admin, FirstName: &staffName})
		if err != nil {
			t.Fatal(err)
		}
		src := referenceSource(t)
		var o88 map[string]any
		if err := json.Unmarshal(readJSON(t, "wc-v3-orders-88-completed-coupon-fee.json")[0], &o88); err != nil {
			t.Fatal(err)
		}
		trash := map[string]any{}
		for k, v := range o88 {
			trash[k] = v
		}
		trash["id"], trash["number"], trash["status"], trash["order_key"] = 96, "96", "trash", "wc_order_trash96trash"
		shipped := map[string]any{}
		for k, v := range o88 {
			shipped[k] = v
		}
		shipped["id"], shipped["number"], shipped["status"], shipped["order_key"] = 97, "97", "shipped", "wc_order_ship97shipp"
		stranger := map[string]any{}
		for k, v := range o88 {
			stranger[k] = v
		}
		stranger["id"], stranger["number"], stranger["customer_id"], stranger["order_key"] = 98, "98", 777, "wc_order_strange98str"
		src.set("wc/v3/orders", []any{trash, shipped, stranger})
		src.set("wc/v3/coupons", []standin.Object{{"id": 99, "code": "freeship", "amount": "0.00", "status": "publish", "discount_type": "fixed_cart",
			"free_shipping": true, "email_restrictions": []string{"vip@example.com"}, "product_ids": []int{}, "excluded_product_ids": []int{},
			"product_categories": []int{}, "excluded_product_categories": []int{}, "minimum_amount": "0.00", "maximum_amount": "0.00"}})
		team := func(id, parent int64, path, body string) standin.Object {
			return standin.Object{"id": id, "slug": "team", "status": "publish", "parent": parent, "link": "https://shop.example" + path,
				"title": standin.Object{"rendered": "Team"}, "content": standin.Object{"rendered": body, "protected": false}}
		}
		src.set("wp/v2/pages", []standin.Object{team(11, 7, "/about/team/", "<p>Our knitters.</p>"), team(12, 9, "/careers/team/", "<p>Join us.</p>")})
		res := runHistory(t, h, src, false)

		if why := res.refused("pages", "team"); !strings.Contains(why, "page 11 moved in as /team/ already") {
			t.Errorf("the second /team/: %q", why)
		}
		if p, err := db.ContentPage(ctx, "team"); err != nil || !strings.Contains(p.Body, "Our knitters.") {
			t.Errorf("/team/ is the first page moved in: %v %+v", err, p)
		}
		if id := h.legacy(t, "customer", 4); id != had.ID {
			t.Errorf("alice is account %d, the shop had %d", id, had.ID)
		}
		if n := h.count(t, `SELECT COUNT(*) FROM users WHERE email = ?`, email); n != 1 {
			t.Errorf("%d accounts for %s", n, email)
		}
		alice, err := accounts.Customer(ctx, had.ID)
		if err != nil {
			t.Fatal(err)
		}
		if alice.FirstName != "Alice" || alice.Billing.Address1 != "100 Market St" {
			t.Errorf("the linked account takes the old shop's details: %+v %+v", alice.FirstName, alice.Billing)
		}
		// A staff account with a customer's email is linked and keeps its own.
		if id := h.legacy(t, "customer", 5); id != staff.ID {
			t.Errorf("bob is account %d, the staff account is %d", id, staff.ID)
		}
		if boss, err := accounts.Customer(ctx, staff.ID); err != nil || boss.Role != account.RoleAdministrator || boss.FirstName != "Boss" {
			t.Errorf("the staff account changed: %v %+v", err, boss)
		}
		if c := res.counts["customers"]; c != (Count{Read: 4, Created: 2, Updated: 2}) {
			t.Errorf("customers: %+v (%v)", c, res.refusals)
		}
		if why := res.refused("orders", "#96"); !strings.Contains(why, "trash") {
			t.Errorf("the trashed order: %q", why)
		}
		if why := res.refused("orders", "#97"); !strings.Contains(why, `"shipped"`) {
			t.Errorf("the unknown status: %q", why)
		}
		if why := res.refused("coupons", "freeship"); !strings.Contains(why, "free shipping") || !strings.Contains(why, "vip@example.com") {
			t.Errorf("the free-shipping coupon: %q", why)
		}
		// An order whose customer was not moved in is a guest's, and says
		// whose it was.
		o98, err := db.Order(ctx, 98)
		if err != nil {
			t.Fatal(err)
		}
		if o98.CustomerID != 0 || o98.Meta[MetaOldCustomer] != "777" {
			t.Errorf("order 98: customer %d, meta %v", o98.CustomerID, o98.Meta)
		}
		if n := h.count(t, `SELECT COUNT(*) FROM orders`); n != 1 {
			t.Errorf("%d orders written, want only order 98", n)
		}
		if n := h.count(t, `SELECT COUNT(*) FROM coupons`); n != 0 {
			t.Errorf("%d coupons written", n)
		}
	})
}

// Order numbers: an old number is kept when free, the next free one taken
// (the old kept in meta) when this shop gave it already, and the next
// order placed here is numbered after every one of them, from a fresh
// sequence too.
func TestHistoryOrderNumbers(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		order := func(id int64) json.RawMessage {
			var o map[string]any
			if err := json.Unmarshal(readJSON(t, "wc-v3-orders-88-completed-coupon-fee.json")[0], &o); err != nil {
				t.Fatal(err)
			}
			o["id"], o["number"], o["order_key"], o["coupon_lines"] = id, fmt.Sprint(id), fmt.Sprintf("wc_order_number%05d", id), []any{}
			b, _ := json.Marshal(o)
			return b
		}
		t.Run("fresh", func(t *testing.T) {
			fresh := storetest.Open(t, db.Engine)
			h := newHistoryShop(t, fresh)
			seedReferenceProducts(t, h)
			src := &memSource{}
			src.set("wc/v3/orders", []json.RawMessage{order(1)})
			runHistory(t, h, src, false)
			if id := h.legacy(t, "order", 1); id != 1 {
				t.Errorf("order 1 is %d here", id)
			}
			if id := placeOrder(t, h, h.products[16]); id != 2 {
				t.Errorf("the next order is %d, want 2", id)
			}
		})
		t.Run("taken", func(t *testing.T) {
			h := newHistoryShop(t, db)
			seedReferenceProducts(t, h)
			if id := placeOrder(t, h, h.products[16]); id != 1 {
				t.Fatalf("the shop's first order is %d", id)
			}
			src := &memSource{}
			src.set("wc/v3/orders", []json.RawMessage{order(1), order(3)})
			runHistory(t, h, src, false)
			one, three := h.legacy(t, "order", 1), h.legacy(t, "order", 3)
			if one == 1 || three != 3 {
				t.Errorf("old orders 1 and 3 are %d and %d here", one, three)
			}
			o, err := db.Order(ctx, one)
			if err != nil {
				t.Fatal(err)
			}
			if o.Meta[orders.MetaOldNumber] != "1" || o.Total != 5610 {
				t.Errorf("old order 1, number %s here: meta %v", o.Number, o.Meta)
			}
			if id := placeOrder(t, h, h.products[16]); id <= max(one, three) {
				t.Errorf("the next order is %d, after %d and %d", id, one, three)
			}
		})
	})
}
