package wcimport

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/checkout"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
	"vitrine/internal/wcimport/standin"
)

// generatedShop seeds h with the stand-in's products and answers a
// generated history over them.
func generatedShop(t testing.TB, h *historyShop, customers, orders int) (*standin.Shop, *memSource) {
	t.Helper()
	products := []standin.HistoryProduct{
		{ID: 501, Name: "Beanie", SKU: "beanie", Price: 1800},
		{ID: 502, Name: "Belt", SKU: "belt", Price: 5500},
		{ID: 503, Name: "Hoodie", SKU: "hoodie", Price: 4200, Variations: []int64{601, 602, 603, 604}},
		{ID: 504, Name: "Cap", SKU: "cap", Price: 1600},
		{ID: 505, Name: "Sunglasses", SKU: "sunglasses", Price: 9000},
	}
	for _, p := range products {
		h.product(t, p.ID, p.Name, 1000, p.Variations...)
	}
	sh := &standin.Shop{}
	replies := standin.GenerateHistory(sh, standin.HistoryOptions{Customers: customers, Coupons: 4, Orders: orders, Reviews: 12,
		Products: products, Start: time.Date(2025, 3, 1, 8, 0, 0, 0, time.UTC)})
	src := shopSource(sh)
	src.set("wp/v2/comments", replies)
	return sh, src
}

// The stand-in's generated history: every status, refunds, a deleted
// product's line, a customer with two addresses, a review reply, and a
// re-run that changes nothing.
func TestHistoryStandin(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		h := newHistoryShop(t, db)
		sh, src := generatedShop(t, h, 12, 45)
		stock := h.stocks(t)
		res := runHistory(t, h, src, false)

		trash := 0
		for _, o := range sh.Orders {
			if o["status"] == "trash" {
				trash++
			}
		}
		if c := res.counts["orders"]; c != (Count{Read: 45, Created: 45 - trash, Refused: trash}) || trash == 0 {
			t.Errorf("orders: %+v (%d in the trash; %v)", c, trash, res.refusals)
		}
		if c := res.counts["customers"]; c != (Count{Read: 12, Created: 12}) {
			t.Errorf("customers: %+v", c)
		}
		if c := res.counts["settings"]; c.Refused != 0 || c.Updated == 0 {
			t.Errorf("settings: %+v (%v)", c, res.refusals)
		}
		if c := res.counts["pages"]; c != (Count{Read: 4, Created: 3, Refused: 1}) {
			t.Errorf("pages: %+v", c)
		}

		// Every status but trash, each order's figures as the source's.
		seen := map[string]bool{}
		var highest int64
		taxed := 0
		for _, raw := range src.lists["wc/v3/orders"] {
			var w wcOrder
			if err := json.Unmarshal(raw, &w); err != nil {
				t.Fatal(err)
			}
			if w.Status == "trash" {
				continue
			}
			o, err := db.Order(ctx, h.legacy(t, "order", w.ID))
			if err != nil {
				t.Fatal(err)
			}
			seen[o.Status] = true
			highest = max(highest, o.ID)
			a := &amounts{minor: 2}
			if o.ID != w.ID || o.Status != w.Status || o.Total != a.read("", w.Total) || o.DiscountTotal != a.read("", w.DiscountTotal) ||
				len(o.Lines) != len(w.LineItems) || len(o.FeeLines) != len(w.FeeLines) || len(o.Coupons) != len(w.CouponLines) {
				t.Errorf("order %d: %+v", w.ID, o)
				continue
			}
			var fees int64
			for _, f := range o.FeeLines {
				fees += f.Total
			}
			if sum := o.ItemsSubtotal - o.DiscountTotal + o.ShippingTotal + fees + o.TotalTax; sum != o.Total {
				t.Errorf("order %d: parts sum to %d, total %d", w.ID, sum, o.Total)
			}
			if len(w.TaxLines) > 0 {
				taxed++
				tl := w.TaxLines[0]
				if len(o.TaxLines) != 1 || o.TaxLines[0].RateID != tl.RateID || o.TaxLines[0].Label != "Tax" || o.TaxLines[0].Rate != "10%" ||
					o.TaxLines[0].ItemsTax != a.read("", tl.TaxTotal) || o.TaxLines[0].ShippingTax != a.read("", tl.ShippingTaxTotal) ||
					o.ItemsTax != a.read("", w.CartTax) || o.ShippingTax != a.read("", w.ShippingTax) || o.TotalTax != a.read("", w.TotalTax) ||
					o.TotalTax == 0 || o.ShippingLines[0].TotalTax != o.ShippingTax {
					t.Errorf("order %d's taxes: %+v, items %d shipping %d total %d", w.ID, o.TaxLines, o.ItemsTax, o.ShippingTax, o.TotalTax)
				}
			}
			for i, l := range w.LineItems {
				got := o.Lines[i]
				if got.SubtotalTax != a.read("", l.SubtotalTax) || got.TotalTax != a.read("", l.TotalTax) {
					t.Errorf("order %d line %d's taxes: %d/%d", w.ID, i, got.SubtotalTax, got.TotalTax)
				}
				if got.Name != l.Name || got.Quantity != int64(l.Quantity) || got.Total != a.read("", l.Total) || got.SKU != l.SKU {
					t.Errorf("order %d line %d: %+v, source %+v", w.ID, i, got, l)
				}
				if l.ProductID == 0 && (got.ProductID != 0 || got.VariationID != 0) {
					t.Errorf("order %d: a deleted product's line links %d", w.ID, got.ProductID)
				}
				if l.ProductID != 0 && got.ProductID != h.products[l.ProductID] {
					t.Errorf("order %d line %d links %d, not %d", w.ID, i, got.ProductID, h.products[l.ProductID])
				}
			}
			d, err := db.OrderRefunds(ctx, o.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(d) != len(sh.Refunds[w.ID]) {
				t.Errorf("order %d: %d refunds, source %d", w.ID, len(d), len(sh.Refunds[w.ID]))
			}
			notes, err := db.OrderNotes(ctx, o.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(notes) != len(sh.OrderNotes[w.ID]) {
				t.Errorf("order %d: %d notes, source %d", w.ID, len(notes), len(sh.OrderNotes[w.ID]))
			}
		}
		if taxed == 0 {
			t.Error("no taxed order generated")
		}
		for _, s := range checkout.Statuses {
			if !seen[s] {
				t.Errorf("no %s order moved in", s)
			}
		}
		deleted := standin.FirstOrderID + 5
		if n := h.count(t, `SELECT COUNT(*) FROM order_lines WHERE order_id = ? AND product_id = 0 AND name = 'Discontinued Scarf'`, deleted); n != 1 {
			t.Errorf("order %d's deleted product's line: %d", deleted, n)
		}
		if n := h.count(t, `SELECT COUNT(*) FROM order_refunds`); n == 0 {
			t.Error("no refunds moved in")
		}

		// The first customer keeps two different addresses.
		c, err := h.deps.History.Customers.(*account.Service).Customer(ctx, h.legacy(t, "customer", standin.FirstCustomerID))
		if err != nil {
			t.Fatal(err)
		}
		if c.Billing.Address1 != "100 Market St" || c.Shipping.Address1 != "350 5th Ave" || c.Shipping.City != "New York" {
			t.Errorf("customer 1's addresses: %+v / %+v", c.Billing, c.Shipping)
		}

		// Coupons' usage counts as the old shop counted them.
		for _, raw := range src.lists["wc/v3/coupons"] {
			var w wcCoupon
			if err := json.Unmarshal(raw, &w); err != nil {
				t.Fatal(err)
			}
			cp, err := db.CouponByCode(ctx, w.Code)
			if err != nil {
				t.Fatal(err)
			}
			if cp.UsageCount != w.UsageCount {
				t.Errorf("coupon %s: used %d, source %d", w.Code, cp.UsageCount, w.UsageCount)
			}
		}

		// Reviews: the reply, and each product's figures from its approved reviews.
		first, err := db.ReviewByID(ctx, h.legacy(t, "review", standin.FirstReviewID))
		if err != nil {
			t.Fatal(err)
		}
		if first.Reply.Text != "Thank you for your review!" || first.Reply.Author != "Shop Manager" {
			t.Errorf("the first review's reply: %+v", first.Reply)
		}
		approved, stars := map[int64]int64{}, map[int64]int64{}
		for _, r := range sh.Reviews {
			if r["status"] == "approved" {
				approved[r["product_id"].(int64)]++
				stars[r["product_id"].(int64)] += int64(r["rating"].(int))
			}
		}
		for old, n := range approved {
			if got := h.count(t, `SELECT review_count FROM products WHERE id = ?`, h.products[old]); got != n {
				t.Errorf("product %d: %d reviews counted, %d approved", old, got, n)
			}
			if got := h.count(t, `SELECT CAST(ROUND(average_rating * 100) AS BIGINT) FROM products WHERE id = ?`, h.products[old]); got != stars[old]*100/n {
				t.Errorf("product %d: average %d/100, want %d/100", old, got, stars[old]*100/n)
			}
		}
		if h.count(t, `SELECT COUNT(*) FROM reviews WHERE status = 'spam'`) == 0 || h.count(t, `SELECT COUNT(*) FROM reviews WHERE status = 'trash'`) == 0 {
			t.Error("spam and trashed reviews are kept with their status")
		}

		// History moves no stock, queues no mail and no webhook; a re-run
		// changes nothing.
		if after := h.stocks(t); !mapsEqual(after, stock) {
			t.Errorf("stock moved: %v, was %v", after, stock)
		}
		if n := h.count(t, `SELECT COUNT(*) FROM mail_outbox`) + h.count(t, `SELECT COUNT(*) FROM webhook_queue`); n != 0 {
			t.Errorf("%d mails and webhook deliveries queued", n)
		}
		rows := h.rowCounts(t)
		again := runHistory(t, h, src, false)
		for name, c := range again.counts {
			if c.Created+c.Updated != 0 {
				t.Errorf("re-run, %s: %+v", name, c)
			}
		}
		if after := h.rowCounts(t); !mapsEqualS(after, rows) {
			t.Errorf("a re-run changed rows: %v, was %v", after, rows)
		}
		if id := placeOrder(t, h, h.products[501]); id <= highest || highest == 0 {
			t.Errorf("a new order is number %d, after orders up to %d", id, highest)
		}
	})
}

// The stand-in's records have exactly the keys of WooCommerce 11's
// answers (testdata/wc11), nested objects' included, and the same sizes
// generate the same records.
func TestGeneratedHistoryShapes(t *testing.T) {
	gen := func() (*standin.Shop, []standin.Object) {
		sh := &standin.Shop{}
		replies := standin.GenerateHistory(sh, standin.HistoryOptions{Customers: 30, Coupons: 4, Orders: 90, Reviews: 10,
			Products: []standin.HistoryProduct{{ID: 1, Name: "A", SKU: "a", Price: 1000}, {ID: 2, Name: "B", SKU: "b", Price: 2500, Variations: []int64{3, 4}}},
			Start:    time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)})
		return sh, replies
	}
	sh, replies := gen()
	again, replies2 := gen()
	a, _ := json.Marshal([]any{sh, replies})
	b, _ := json.Marshal([]any{again, replies2})
	if string(a) != string(b) {
		t.Error("two generations of the same sizes differ")
	}
	keys := func(v any) []string {
		var out []string
		var walk func(prefix string, v any)
		walk = func(prefix string, v any) {
			switch v := v.(type) {
			case map[string]any:
				for k, x := range v {
					if k == "_links" || k == "options" {
						continue
					}
					out = append(out, prefix+k)
					walk(prefix+k+".", x)
				}
			case []any:
				if len(v) > 0 {
					walk(prefix+"[].", v[0])
				}
			}
		}
		walk("", v)
		slices.Sort(out)
		return slices.Compact(out)
	}
	decode := func(v any) any {
		b, _ := json.Marshal(v)
		var out any
		_ = json.Unmarshal(b, &out)
		return out
	}
	// A generated record with the most parts of each kind.
	pick := func(list []standin.Object, want func(standin.Object) bool) any {
		for _, o := range list {
			if want(o) {
				return decode(o)
			}
		}
		t.Fatal("no such generated record")
		return nil
	}
	ref := func(name string, i int) any {
		var v any
		_ = json.Unmarshal(readJSON(t, name)[i], &v)
		return v
	}
	var refunds []standin.Object
	for _, rs := range sh.Refunds {
		refunds = append(refunds, rs...)
	}
	var notes []standin.Object
	for _, ns := range sh.OrderNotes {
		notes = append(notes, ns...)
	}
	for _, c := range []struct {
		name      string
		generated any
		reference any
	}{
		{"customer", decode(sh.Customers[0]), ref("wc-v3-customers.json", 0)},
		{"coupon", decode(sh.Coupons[0]), ref("wc-v3-coupons.json", 0)},
		{"order with coupon and fee", pick(sh.Orders, func(o standin.Object) bool {
			return len(o["coupon_lines"].([]any)) > 0 && len(o["fee_lines"].([]any)) > 0
		}), ref("wc-v3-orders-88-completed-coupon-fee.json", 0)},
		{"partial refund", pick(refunds, func(o standin.Object) bool { return len(o["line_items"].([]any)) > 0 }), ref("wc-v3-orders-90-refunds.json", 1)},
		{"note", decode(notes[0]), ref("wc-v3-orders-90-notes.json", 0)},
		{"review", decode(sh.Reviews[0]), ref("wc-v3-products-reviews.json", 0)},
		{"setting", decode(sh.Settings["general"][0]), ref("wc-v3-settings-general.json", 0)},
	} {
		g, r := keys(c.generated), keys(c.reference)
		// Where the reference's array is empty (an order's meta_data),
		// the generated entries' keys have nothing to match.
		g = slices.DeleteFunc(g, func(k string) bool {
			for i := strings.Index(k, ".[]."); i >= 0; {
				if arr, _ := lookup(c.reference, k[:i]).([]any); arr != nil && len(arr) == 0 {
					return true
				}
				next := strings.Index(k[i+4:], ".[].")
				if next < 0 {
					break
				}
				i += 4 + next
			}
			return false
		})
		// A coupon line's meta (coupon_info) and a refund line's image id
		// type differ in value only; keys must match.
		if !slices.Equal(g, r) {
			t.Errorf("%s keys:\ngenerated %v\nreference %v", c.name, g, r)
		}
	}
	statuses := map[string]bool{}
	for _, o := range sh.Orders {
		statuses[o["status"].(string)] = true
	}
	for _, s := range standin.OrderStatuses {
		if !statuses[s] {
			t.Errorf("no %s order generated", s)
		}
	}
}

// lookup follows a dotted key path ("line_items.[].meta_data") through
// decoded JSON, taking an array's first element at "[]".
func lookup(v any, path string) any {
	for _, part := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[part]
		case []any:
			if part != "[]" || len(x) == 0 {
				return nil
			}
			v = x[0]
		default:
			return nil
		}
	}
	return v
}
