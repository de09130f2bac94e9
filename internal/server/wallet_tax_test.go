package server_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"vitrine/internal/money"
	"vitrine/internal/payment/paypal"
	"vitrine/internal/payment/paypalsandbox"
	"vitrine/internal/server/servertest"
)

// TestWalletButtonAddressTax: the cart's PayPal button places an order
// before the buyer's address is known (no tax); the sandbox buyer's
// address is San Jose, CA, where the checkout adds CA tax. The return
// charges nothing and sends the buyer to the checkout, which shows the CA
// tax line, the new total and why; the next press pays an order whose
// PayPal amount, totals and mails carry the CA tax, as the checkout
// computes it.
func TestWalletButtonAddressTax(t *testing.T) {
	t.Parallel()
	eachWalletShop(t, func(t *testing.T, ws *walletShop) {
		c := ws.client()
		c.addItem(ws.productID("studio-staff-cap"), 2)
		n := c.walletNonces()
		r := c.wallet("ppc-create-order", n, map[string]any{"context": "cart", "funding_source": "paypal"})
		if !r.success() {
			t.Fatalf("create-order: %s", r.raw)
		}
		first, _ := strconv.ParseInt(r.dataString("custom_id"), 10, 64)
		untaxed := ws.order(first)
		if untaxed.TotalTax != 0 {
			t.Fatalf("order without an address has tax %d", untaxed.TotalTax)
		}
		id := r.dataString("id")
		res := c.do("GET", ws.approve(id, paypalsandbox.FundingPayPal), "")
		if res.status != 303 || res.header.Get("Location") != "/checkout/?wallet=total" {
			t.Fatalf("return: %d %q", res.status, res.header.Get("Location"))
		}
		if ws.sb.Captures(id) != 0 || ws.order(first).Status != "cancelled" {
			t.Fatalf("the untaxed order was captured or kept: captures %d, %s", ws.sb.Captures(id), ws.order(first).Status)
		}
		// The checkout: the notice, San Jose's address, the CA tax line.
		page := c.do("GET", "/checkout/?wallet=total", "")
		cart := c.do("GET", cartAPI, "")
		totals := cart.body["totals"].(map[string]any)
		taxes, _ := totals["tax_lines"].([]any)
		if page.status != 200 || !strings.Contains(page.raw, "changes the taxes or shipping of your order") || !strings.Contains(page.raw, "CA Tax") ||
			!strings.Contains(page.raw, "San Jose") || len(taxes) != 1 {
			t.Fatalf("checkout after the refusal: %d, tax lines %v", page.status, taxes)
		}
		total, _ := strconv.ParseInt(totals["total_price"].(string), 10, 64)
		tax, _ := strconv.ParseInt(totals["total_tax"].(string), 10, 64)
		if tax <= 0 || total != untaxed.Total+tax {
			t.Fatalf("cart total %d tax %d, untaxed %d", total, tax, untaxed.Total)
		}

		// Paying again.
		r = c.wallet("ppc-create-order", n, map[string]any{"context": "cart", "funding_source": "paypal"})
		if !r.success() {
			t.Fatalf("create-order again: %s", r.raw)
		}
		id = r.dataString("id")
		oid, _ := strconv.ParseInt(r.dataString("custom_id"), 10, 64)
		pp, _ := ws.sb.Order(id)
		if v, _ := paypal.ParseValue("USD", pp.PurchaseUnits[0].Amount.Value); v != total {
			t.Errorf("PayPal amount %s, want %d", pp.PurchaseUnits[0].Amount.Value, total)
		}
		res = c.do("GET", ws.approve(id, paypalsandbox.FundingPayPal), "")
		if res.status != 303 || !strings.HasPrefix(res.header.Get("Location"), "/checkout/order-received/"+itoa(oid)+"/") {
			t.Fatalf("second return: %d %q", res.status, res.header.Get("Location"))
		}
		o := ws.order(oid)
		got, _ := ws.capturedMinor(id)
		if !o.Paid() || o.Total != total || o.TotalTax != tax || len(o.TaxLines) != 1 || o.TaxLines[0].Label != "CA Tax" || got != total {
			t.Fatalf("paid order total %d tax %d lines %+v captured %d; want %d %d", o.Total, o.TotalTax, o.TaxLines, got, total, tax)
		}

		// The order's mails, through a real SMTP server, carry the tax.
		sender, sink := servertest.SMTPSender(t)
		ob := orderOutbox(ws.db, ws.srv, sender)
		if res, err := ob.RunOnce(context.Background()); err != nil || res.Sent != 2 {
			for _, k := range []string{"confirmation", "new_order"} {
				q, ok, _ := ws.db.MailByDedupeKey(context.Background(), fmt.Sprintf("order:%d:%s", oid, k))
				t.Logf("%s %v %+v", k, ok, q)
			}
			t.Fatalf("outbox: %+v %v", res, err)
		}
		usd, _ := money.Lookup("USD")
		for _, m := range sink.Messages() {
			_, text, html := textAndHTML(t, m.Data)
			for _, want := range []string{o.Number, "CA Tax", usd.Format(tax), usd.Format(total)} {
				if !strings.Contains(text, want) || !strings.Contains(html, want) {
					t.Errorf("mail to %v lacks %q\n%s", m.To, want, text)
				}
			}
		}
	})
}
