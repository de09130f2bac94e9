package server_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"vitrine/internal/money"
)

// TestCartPageTotalsLines: the server-rendered cart page's totals show
// the lines that make the total, as the checkout does: the subtotal, the
// chosen shipping rate with its price, each tax line (CA Tax for a
// Californian address), and the total, which is their sum.
func TestCartPageTotalsLines(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		c := s.client()
		c.addItem(s.productID("cotton-tank-top"), 2)
		usd, _ := money.Lookup("USD")
		tag, comment := regexp.MustCompile(`<[^>]*>`), regexp.MustCompile(`<!--.*?-->`)
		rows := func() []string {
			page := c.do("GET", "/cart/", "")
			if page.status != 200 {
				t.Fatalf("cart page: %d", page.status)
			}
			i := strings.Index(page.raw, `class="cart_totals`)
			if i < 0 {
				t.Fatal("no cart totals")
			}
			block := page.raw[i:]
			block = block[:strings.Index(block, "</table>")]
			var out []string
			for _, tr := range strings.Split(block, "<tr")[1:] {
				out = append(out, strings.Join(strings.Fields(tag.ReplaceAllString(comment.ReplaceAllString("<tr"+tr, ""), " ")), " "))
			}
			return out
		}
		totals := func() map[string]any { return c.do("GET", cartAPI, "").body["totals"].(map[string]any) }
		amount := func(m map[string]any, k string) string {
			v, _ := strconv.ParseInt(m[k].(string), 10, 64)
			return usd.Format(v)
		}

		// No address yet: the shop's country, flat rate, no tax.
		tt := totals()
		want := []string{"Subtotal " + amount(tt, "total_items"), "Shipping Flat rate: " + amount(tt, "total_shipping"), "Total " + amount(tt, "total_price")}
		if got := rows(); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("cart totals without an address:\n got %q\nwant %q", got, want)
		}

		// A Californian address: CA tax on the items and the shipping.
		if r := c.do("POST", cartAPI+"/update-customer", `{"shipping_address":{"country":"US","state":"CA","city":"San Jose","postcode":"95131","address_1":"2211 North First Street","first_name":"a","last_name":"b"}}`); r.status != 200 {
			t.Fatalf("update-customer: %d %s", r.status, r.raw)
		}
		tt = totals()
		lines := tt["tax_lines"].([]any)
		if len(lines) != 1 {
			t.Fatalf("tax lines %v", lines)
		}
		line := lines[0].(map[string]any)
		want = []string{"Subtotal " + amount(tt, "total_items"), "Shipping Flat rate: " + amount(tt, "total_shipping"),
			line["name"].(string) + " " + amount(line, "price"), "Total " + amount(tt, "total_price")}
		if got := rows(); strings.Join(got, "|") != strings.Join(want, "|") || line["name"] != "CA Tax" {
			t.Errorf("cart totals for San Jose:\n got %q\nwant %q", got, want)
		}
	})
}
