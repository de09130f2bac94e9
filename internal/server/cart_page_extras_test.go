package server_test

import (
	"context"
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/coupon"
	"vitrine/internal/money"
)

// cartPageData is the cart page's inlined data, the parts these tests read.
type cartPageData struct {
	CrossSells []struct {
		ID     int64  `json:"id"`
		Name   string `json:"name"`
		Prices struct {
			Price        string `json:"price"`
			CurrencyCode string `json:"currency_code"`
		} `json:"prices"`
		IsPurchasable bool `json:"is_purchasable"`
		IsInStock     bool `json:"is_in_stock"`
	} `json:"cross_sells"`
	Cart struct {
		Extensions map[string]map[string]any `json:"extensions"`
	} `json:"cart"`
}

// cartPage fetches /cart/ for c: its HTML and data.
func (c *client) cartPage() (string, cartPageData) {
	c.s.t.Helper()
	r := c.do("GET", "/cart/", "")
	if r.status != 200 {
		c.s.t.Fatalf("cart page: %d", r.status)
	}
	var d cartPageData
	pageData(c.s.t, r.raw, &d)
	return r.raw, d
}

func (d cartPageData) crossSellIDs() []int64 {
	out := []int64{}
	for _, p := range d.CrossSells {
		out = append(out, p.ID)
	}
	return out
}

// TestCartPageCrossSells: the cart page's "You may also like" lists the
// union of the cart products' cross-sells in cart order (a variation's
// are its product's), without what is in the cart, only those a shopper
// can buy (published, shown in the catalogue, purchasable, in stock), at
// most four, as product cards with add-to-cart buttons; in the shopper's
// currency.
func TestCartPageCrossSells(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		ctx := context.Background()
		save := func(slug string, edit func(p *catalog.Product)) int64 { return editProduct(t, s.db, slug, edit).ID }
		tee, tank := s.productID("classic-tee"), s.productID("cotton-tank-top")
		teeProduct, err := s.db.ProductBySlug(ctx, "classic-tee")
		if err != nil || len(teeProduct.CrossSells) < 2 {
			t.Fatalf("the demo's classic tee has cross-sells: %v %v", teeProduct.CrossSells, err)
		}
		vars, err := s.db.Variations(ctx, tee)
		if err != nil || len(vars) == 0 {
			t.Fatal(err)
		}
		var teeVar int64
		for _, v := range vars {
			if v.InStock() {
				teeVar = v.ID
				break
			}
		}

		// The tank top's cross-sells: three a shopper cannot buy, then six
		// that can be (one also the tee's), and the tee itself.
		draft := save("striped-lightweight-scarf", func(p *catalog.Product) { p.Status = catalog.StatusDraft })
		sold := save("pompom-beanie", func(p *catalog.Product) {
			p.ManageStock, p.StockQuantity, p.StockStatus = false, nil, catalog.StockOutOfStock
		})
		hidden := save("reversible-bucket-hat", func(p *catalog.Product) { p.CatalogVisibility = catalog.VisibilityHidden })
		pouch, bandana, weekender := s.productID("zip-pouch"), s.productID("printed-bandana"), s.productID("big-weekender-tote")
		staff, shorts := s.productID("studio-staff-cap"), s.productID("chino-shorts")
		sharedWithTee := teeProduct.CrossSells[0]
		save("cotton-tank-top", func(p *catalog.Product) {
			p.CrossSells = []int64{draft, sold, hidden, tee, sharedWithTee, pouch, bandana, weekender, staff, shorts}
		})

		// A tee alone: its cross-sells, in its order (each one the shop sells).
		c := s.client()
		c.addItem(teeVar, 1)
		_, d := c.cartPage()
		want := []int64{}
		for _, id := range teeProduct.CrossSells {
			want = append(want, id)
		}
		if got := d.crossSellIDs(); fmt.Sprint(got) != fmt.Sprint(want[:min(len(want), 4)]) {
			t.Errorf("tee's cross-sells: got %v, want %v", got, want)
		}
		for _, p := range d.CrossSells {
			if !p.IsPurchasable || !p.IsInStock || p.Prices.CurrencyCode != "USD" {
				t.Errorf("card %d %s: purchasable %v in stock %v currency %s", p.ID, p.Name, p.IsPurchasable, p.IsInStock, p.Prices.CurrencyCode)
			}
		}

		// The tee and the tank top: the tee's first (cart order), then the
		// tank's that are not the tee's, left out: what cannot be bought,
		// what is in the cart; four at most.
		c.addItem(tank, 1)
		page, d := c.cartPage()
		union := append([]int64{}, teeProduct.CrossSells...)
		for _, id := range []int64{pouch, bandana, weekender, staff, shorts} {
			if !contains(union, id) {
				union = append(union, id)
			}
		}
		if got := d.crossSellIDs(); fmt.Sprint(got) != fmt.Sprint(union[:4]) {
			t.Errorf("tee and tank: got %v, want %v", got, union[:4])
		}
		for _, id := range d.crossSellIDs() {
			if id == draft || id == sold || id == hidden || id == tee || id == tank {
				t.Errorf("cross-sell %d should be left out", id)
			}
		}
		// Cards with add-to-cart buttons, under the section's heading.
		i := strings.Index(page, `class="cross-sells`)
		if i < 0 || !strings.Contains(page[i:], "You may also like") {
			t.Fatal("no cross-sells section")
		}
		if n := strings.Count(page[i:], `class="button product_type_`); n != len(d.CrossSells) {
			t.Errorf("%d add buttons for %d cards", n, len(d.CrossSells))
		}

		// A cross-sell put in the cart leaves the list.
		first := d.CrossSells[0].ID
		if p, _ := s.db.Product(ctx, first); p != nil && p.Type == catalog.TypeSimple {
			c.addItem(first, 2) // the socks sell by two
			_, d = c.cartPage()
			if contains(d.crossSellIDs(), first) {
				t.Errorf("%d is in the cart and still suggested: %v", first, d.crossSellIDs())
			}
		}

		// Only the tank's buyable cross-sells: without a tee in the cart,
		// the tee is suggested (it is the tank's).
		c2 := s.client()
		c2.addItem(tank, 1)
		if _, d := c2.cartPage(); fmt.Sprint(d.crossSellIDs()) != fmt.Sprint([]int64{tee, sharedWithTee, pouch, bandana}) {
			t.Errorf("tank alone: got %v, want %v", d.crossSellIDs(), []int64{tee, sharedWithTee, pouch, bandana})
		}

		// In the shopper's currency: the cards' prices are the Store API's
		// prices in EUR.
		wmcConfigure(t, s.srv.Currencies())
		eur := s.inCurrency("EUR")
		eur.addItem(tank, 1)
		_, d = eur.cartPage()
		if len(d.CrossSells) == 0 {
			t.Fatal("no cross-sells in EUR")
		}
		for _, p := range d.CrossSells {
			api := eur.do("GET", fmt.Sprintf("/wp-json/wc/store/v1/products/%d", p.ID), "")
			prices, _ := api.body["prices"].(map[string]any)
			if p.Prices.CurrencyCode != "EUR" || prices["currency_code"] != "EUR" || prices["price"] != p.Prices.Price {
				t.Errorf("card %s in EUR: %s %s, Store API %v %v", p.Name, p.Prices.Price, p.Prices.CurrencyCode, prices["price"], prices["currency_code"])
			}
		}
	})
}

func contains(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// TestCartPageFreeShippingProgress: the cart page's free-shipping line is
// computed by the rule that offers the free-shipping rate (items as
// entered, after coupons): below the zone's minimum it says how much more
// (and the free rate is not offered), at it and above it says free
// shipping is reached (and the rate is offered); in the shopper's currency
// with the minimum converted; nothing for a zone without a minimum.
func TestCartPageFreeShippingProgress(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		usd, _ := money.Lookup("USD")
		cfg := s.srv.CheckoutConfig()
		var minUSD int64
		for _, z := range cfg.Zones {
			if z.Name == "United States" {
				for _, m := range z.Methods {
					if m.Type == checkout.FreeShipping {
						minUSD = m.MinAmount
					}
				}
			}
		}
		if minUSD <= 0 {
			t.Fatal("the demo's US zone has a free-shipping minimum")
		}
		tank := s.productID("cotton-tank-top")
		tag, comment := regexp.MustCompile(`<[^>]*>`), regexp.MustCompile(`<!--.*?-->`)
		text := func(s string) string {
			return strings.Join(strings.Fields(html.UnescapeString(tag.ReplaceAllString(comment.ReplaceAllString(s, ""), " "))), " ")
		}
		// progress answers the page's line (text and bar) and the Store API's
		// numbers: the extension, the items after coupons, whether the free
		// rate is offered.
		type state struct {
			line, bar            string
			min, amount, remain  int64
			reached, freeOffered bool
			currency             string
		}
		read := func(c *client) state {
			t.Helper()
			page, d := c.cartPage()
			var st state
			if i := strings.Index(page, `class="free-shipping-progress`); i >= 0 {
				block := page[i:]
				block = block[:strings.Index(block, "</progress>")]
				st.line = text(block[strings.Index(block, ">")+1:])
				st.bar = regexp.MustCompile(`<progress[^>]*>`).FindString(block)
			}
			ext := d.Cart.Extensions["vitrine/free-shipping"]
			r := c.do("GET", cartAPI, "")
			if ext != nil {
				st.min, st.amount, st.remain = atoi(ext["min_amount"].(string)), atoi(ext["amount"].(string)), atoi(ext["remaining"].(string))
				st.reached, st.currency = ext["reached"].(bool), ext["currency_code"].(string)
				api := r.body["extensions"].(map[string]any)["vitrine/free-shipping"].(map[string]any)
				if fmt.Sprint(api) != fmt.Sprint(ext) {
					t.Errorf("Store API's %v, page's %v", api, ext)
				}
				tt := r.totals()
				if items := atoi(tt["total_items"].(string)) - atoi(tt["total_discount"].(string)); items != st.amount {
					t.Errorf("amount %d, items after coupons %d", st.amount, items)
				}
			}
			for _, p := range r.body["shipping_rates"].([]any) {
				for _, rate := range p.(map[string]any)["shipping_rates"].([]any) {
					st.freeOffered = st.freeOffered || rate.(map[string]any)["method_id"] == checkout.FreeShipping
				}
			}
			return st
		}
		check := func(name string, st state, minimum int64, cur money.Currency) {
			t.Helper()
			if st.min != minimum || st.currency != cur.Code {
				t.Errorf("%s: minimum %d %s, want %d %s", name, st.min, st.currency, minimum, cur.Code)
			}
			if st.remain != max(0, minimum-st.amount) || st.reached != (st.amount >= minimum) || st.freeOffered != st.reached {
				t.Errorf("%s: amount %d remaining %d reached %v, free rate offered %v", name, st.amount, st.remain, st.reached, st.freeOffered)
			}
			want := "You get free shipping"
			if !st.reached {
				want = "Add " + cur.Format(st.remain) + " more for free shipping"
			}
			if st.line != text(want) {
				t.Errorf("%s: line %q, want %q", name, st.line, text(want))
			}
			if !strings.Contains(st.bar, `max="`+strconv.FormatInt(minimum, 10)+`"`) || !strings.Contains(st.bar, `value="`+strconv.FormatInt(min(st.amount, minimum), 10)+`"`) ||
				!strings.Contains(st.bar, `aria-labelledby="free-shipping-progress-text"`) {
				t.Errorf("%s: bar %s", name, st.bar)
			}
		}

		// Below: two tank tops.
		c := s.client()
		c.addItem(tank, 2)
		below := read(c)
		if below.reached || below.amount >= minUSD {
			t.Fatalf("two tank tops reach free shipping: %+v", below)
		}
		check("below", below, minUSD, usd)

		// Above: enough tank tops to pass the minimum.
		unit := below.amount / 2
		n := minUSD/unit + 1
		key := c.do("GET", cartAPI, "").items()[0]["key"].(string)
		if r := c.do("POST", cartAPI+"/update-item", fmt.Sprintf(`{"key":%q,"quantity":%d}`, key, n)); r.status != 200 {
			t.Fatalf("update: %d %s", r.status, r.raw)
		}
		above := read(c)
		if above.amount <= minUSD {
			t.Fatalf("%d tank tops: %d", n, above.amount)
		}
		check("above", above, minUSD, usd)

		// At: a fixed-cart coupon takes off exactly what is above the
		// minimum (the rule compares the amount after coupons).
		s.coupon(coupon.Coupon{Code: "to-the-minimum", Type: coupon.FixedCart, Amount: above.amount - minUSD})
		if r := c.do("POST", cartAPI+"/apply-coupon", `{"code":"to-the-minimum"}`); r.status != 200 {
			t.Fatalf("apply: %d %s", r.status, r.raw)
		}
		at := read(c)
		if at.amount != minUSD || !at.reached {
			t.Fatalf("at the minimum: %+v", at)
		}
		check("at", at, minUSD, usd)

		// A cent more off: one cent short.
		s.coupon(coupon.Coupon{Code: "one-cent", Type: coupon.FixedCart, Amount: 1})
		if r := c.do("POST", cartAPI+"/apply-coupon", `{"code":"one-cent"}`); r.status != 200 {
			t.Fatalf("apply: %d %s", r.status, r.raw)
		}
		short := read(c)
		if short.remain != 1 || short.reached {
			t.Fatalf("a cent short: %+v", short)
		}
		check("a cent short", short, minUSD, usd)

		// In EUR: the minimum converted as the checkout converts it.
		wmcConfigure(t, s.srv.Currencies())
		eurCur, err := s.srv.Currencies().Currency(context.Background(), "EUR")
		if err != nil {
			t.Fatal(err)
		}
		inEUR, err := cfg.In(eurCur)
		if err != nil {
			t.Fatal(err)
		}
		var minEUR int64
		for _, z := range inEUR.Zones {
			for _, m := range z.Methods {
				if z.Name == "United States" && m.Type == checkout.FreeShipping {
					minEUR = m.MinAmount
				}
			}
		}
		if minEUR <= 0 || minEUR == minUSD {
			t.Fatalf("EUR minimum %d", minEUR)
		}
		e := s.inCurrency("EUR")
		e.addItem(tank, 2)
		check("EUR below", read(e), minEUR, eurCur.Money())
		key = e.do("GET", cartAPI, "").items()[0]["key"].(string)
		if r := e.do("POST", cartAPI+"/update-item", fmt.Sprintf(`{"key":%q,"quantity":%d}`, key, n)); r.status != 200 {
			t.Fatalf("update: %d %s", r.status, r.raw)
		}
		check("EUR above", read(e), minEUR, eurCur.Money())

		// A zone without a minimum (Europe: flat rate only): no line.
		g := s.client()
		g.addItem(tank, 1)
		if r := g.do("POST", cartAPI+"/update-customer", `{"shipping_address":{"country":"DE","city":"Berlin","postcode":"10115","address_1":"Unter den Linden 1","first_name":"a","last_name":"b"}}`); r.status != 200 {
			t.Fatalf("update-customer: %d %s", r.status, r.raw)
		}
		if st := read(g); st.line != "" || st.min != 0 {
			t.Errorf("Germany: %+v", st)
		}
	})
}
