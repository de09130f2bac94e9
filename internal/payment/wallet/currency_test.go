package wallet_test

import (
	"context"
	"fmt"
	"testing"

	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/currency"
	"vitrine/internal/money"
	"vitrine/internal/payment"
	"vitrine/internal/payment/paypal"
	"vitrine/internal/payment/paypalsandbox"
	"vitrine/internal/payment/wallet"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// TestGatewayCurrencies: the wallet takes the currencies PayPal takes, when
// the shop writes them with no more decimals than PayPal (forints with
// decimals cannot be paid exactly in whole forints).
func TestGatewayCurrencies(t *testing.T) {
	shop := map[string]int{"HUF": 0, "EUR": 2, "TWD": 2, "JPY": 0}
	g := wallet.Gateway{Decimals: func(code string) (int, bool) { n, ok := shop[code]; return n, ok }}
	for code, want := range map[string]bool{"EUR": true, "USD": true, "GBP": true, "JPY": true, "HUF": true, "TWD": false, "KWD": false, "INR": false, "": false} {
		if got := g.TakesCurrency(code); got != want {
			t.Errorf("TakesCurrency(%q) = %v, want %v", code, got, want)
		}
	}
	// Without the shop's decimals: ISO's (HUF has two).
	for code, want := range map[string]bool{"EUR": true, "JPY": true, "HUF": false, "KWD": false} {
		if got := wallet.Method.TakesCurrency(code); got != want {
			t.Errorf("Method.TakesCurrency(%q) = %v, want %v", code, got, want)
		}
	}
	var m payment.Method = g
	if cl, ok := m.(payment.CurrencyLimited); !ok || m.ID() != payment.WalletGatewayID || cl.TakesCurrency("KWD") {
		t.Error("the gateway is not a currency-limited ppcp-gateway")
	}
}

// TestOrderPurchaseUnitDecimals: an order's amounts reach PayPal in
// PayPal's decimals exactly; a total PayPal cannot write is refused, a
// unit price it cannot write leaves the lines out (the totals stay).
func TestOrderPurchaseUnitDecimals(t *testing.T) {
	huf2 := money.Currency{Code: "HUF", MinorUnit: 2}
	o := &checkout.Order{ID: 7, Number: "7", Currency: "HUF", ItemsSubtotal: 300000, ShippingTotal: 50000, Total: 350000,
		Lines: []checkout.Line{{Name: "Mug", Quantity: 2, Subtotal: 300000}}}
	pu, err := wallet.OrderPurchaseUnit(o, huf2)
	if err != nil || pu.Amount.Value != "3500" || pu.Amount.Breakdown.Shipping.Value != "500" || len(pu.Items) != 1 || pu.Items[0].UnitAmount.Value != "1500" {
		t.Fatalf("HUF unit: %+v, %v", pu.Amount, err)
	}
	odd := *o
	odd.ItemsSubtotal, odd.Total = 300003, 350003 // 3 000,03 Ft
	odd.Lines = []checkout.Line{{Name: "Mug", Quantity: 1, Subtotal: 300003}}
	if _, err := wallet.OrderPurchaseUnit(&odd, huf2); err == nil {
		t.Error("a total in fillér was sent to PayPal")
	}
	lines := *o
	lines.Lines = []checkout.Line{{Name: "Mug", Quantity: 16, Subtotal: 300000}} // 187,50 Ft each
	if pu, err := wallet.OrderPurchaseUnit(&lines, huf2); err != nil || len(pu.Items) != 0 || pu.Amount.Value != "3500" {
		t.Errorf("unit prices in fillér: %+v %d items, %v", pu.Amount, len(pu.Items), err)
	}
	if _, err := wallet.OrderPurchaseUnit(o, money.Currency{Code: "EUR", MinorUnit: 2}); err == nil {
		t.Error("an order written in another currency was accepted")
	}
}

// currencyFixture is a wallet fixture selling in EUR (PayPal takes it) and
// KWD (PayPal does not).
func currencyFixture(t *testing.T, db *sqlstore.DB) *fixture {
	t.Helper()
	f := newFixture(t, db, wallet.Config{})
	svc := &currency.Service{Store: db, Base: f.shop.Checkout.Config.Currency}
	f.shop.Checkout.Currencies = svc
	for code, rate := range map[string]string{"EUR": "0.92", "KWD": "0.3075"} {
		c, _ := currency.Defaults(code)
		c.Rate, _ = currency.ParseRate(rate)
		if err := svc.SaveCurrency(context.Background(), c); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// TestButtonsInShopperCurrency: the product and cart buttons (no form)
// quote, place and pay in the shopper's currency when PayPal takes it, in
// the base otherwise; the PayPal order's currency and amounts are the
// order's, the capture pays it exactly.
func TestButtonsInShopperCurrency(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := currencyFixture(t, db)
		ctx := context.Background()
		tee := f.productID("striped-breton-tee")
		for i, tc := range []struct{ shopper, sale, rate string }{{"EUR", "EUR", "0.92"}, {"KWD", "USD", "1"}, {"", "USD", "1"}} {
			if got := f.svc.SaleCurrency(tc.shopper); got != tc.sale && !(tc.shopper == "" && got == "") {
				t.Errorf("SaleCurrency(%q) = %q", tc.shopper, got)
			}
			sess := fmt.Sprintf("c_%030x", i+1)
			sim, err := f.svc.Simulate(ctx, sess, tc.shopper, []wallet.Product{{ID: fmt.Sprint(tee), Quantity: "2"}})
			if err != nil || sim.Currency.Code != tc.sale {
				t.Fatalf("%s: simulate %+v, %v", tc.shopper, sim.Currency, err)
			}
			qc, pu, err := f.svc.ChangeCart(ctx, sess, tc.shopper, []wallet.Product{{ID: fmt.Sprint(tee), Quantity: "2"}})
			if err != nil || qc.Currency.Code != tc.sale || pu.Amount.CurrencyCode != tc.sale || qc.Quote.Total != sim.Quote.Total {
				t.Fatalf("%s: change cart %+v %+v, %v (simulated %d)", tc.shopper, qc.Quote.Total, pu.Amount, err, sim.Quote.Total)
			}
			if v, _ := paypal.ParseValue(tc.sale, pu.Amount.Value); v != qc.Quote.Total {
				t.Errorf("%s: change-cart unit %s, quote %d", tc.shopper, pu.Amount.Value, qc.Quote.Total)
			}
			// The buyer's address is the one PayPal will return (the
			// sandbox's, San Jose): the order is priced for it, so the
			// approval captures it (another address's total is refused:
			// TestWalletAddressTax).
			sj := cart.Address{FirstName: "Demo", LastName: "Buyer", Address1: "2211 North First Street", City: "San Jose", State: "CA",
				Postcode: "95131", Country: "US", Email: paypalsandbox.DemoPayerEmail}
			if err := f.shop.SetCustomer(ctx, sess, cart.Customer{Billing: sj}); err != nil {
				t.Fatal(err)
			}
			if qc, err = f.svc.Cart(ctx, sess, tc.shopper); err != nil {
				t.Fatal(err)
			}
			c, err := f.svc.CreateOrder(ctx, wallet.CreateRequest{Session: sess, Context: "cart", Currency: tc.shopper, Remote: "192.0.2.1:1"})
			if err != nil {
				t.Fatalf("%s: create: %v", tc.shopper, err)
			}
			o := c.Order
			if o.Currency != tc.sale || o.CurrencyRate != tc.rate || o.Total != qc.Quote.Total {
				t.Errorf("%s: order %s rate %s total %d, want %s %s %d", tc.shopper, o.Currency, o.CurrencyRate, o.Total, tc.sale, tc.rate, qc.Quote.Total)
			}
			pp, _ := f.sb.Order(c.PayPal.ID)
			if a := pp.PurchaseUnits[0].Amount; a.CurrencyCode != tc.sale || a.Breakdown.ItemTotal.CurrencyCode != tc.sale {
				t.Errorf("%s: PayPal amount %+v", tc.shopper, a)
			} else if v, _ := paypal.ParseValue(tc.sale, a.Value); v != o.Total {
				t.Errorf("%s: PayPal total %s, order %d", tc.shopper, a.Value, o.Total)
			}
			f.approve(c.PayPal.ID, paypalsandbox.FundingPayPal)
			done, err := f.svc.Approve(ctx, sess, c.PayPal.ID)
			if err != nil || !done.Paid() || done.Currency != tc.sale {
				t.Fatalf("%s: approve %+v, %v", tc.shopper, done, err)
			}
			if got, _ := f.captured(c.PayPal.ID); got != o.Total {
				t.Errorf("%s: captured %d, order %d", tc.shopper, got, o.Total)
			}
		}
	})
}
