package wallet_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/payment/paypal"
	"vitrine/internal/payment/paypalsandbox"
	"vitrine/internal/payment/wallet"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// TestWalletAddressTax: a cart-button order is placed before the buyer's
// address is known (priced for the shop's base country, no sales tax);
// PayPal returns the sandbox buyer's address in San Jose, CA, where the
// normal checkout adds CA tax. Nothing is captured at the untaxed amount:
// the order is cancelled (stock back), the cart keeps PayPal's address,
// and the next order carries the CA tax in the PayPal amount, the order
// totals and the captured amount, exactly as the checkout quotes it.
func TestWalletAddressTax(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db, wallet.Config{})
		ctx := context.Background()
		sess := "t_tax_000000000000000000000000001"
		capID := f.productID("studio-staff-cap")
		before := f.stock(capID)
		if err := f.shop.AddToCart(ctx, sess, capID, 2, nil); err != nil {
			t.Fatal(err)
		}
		c, err := f.svc.CreateOrder(ctx, wallet.CreateRequest{Session: sess, Context: "cart", FundingSource: "paypal", Remote: "192.0.2.1:1"})
		if err != nil {
			t.Fatal(err)
		}
		first := c.Order
		if first.TotalTax != 0 {
			t.Fatalf("an order placed without an address has tax %d", first.TotalTax)
		}
		f.approve(c.PayPal.ID, paypalsandbox.FundingPayPal)
		done, err := f.svc.Return(ctx, c.PayPal.ID)
		if !errors.Is(err, wallet.ErrTotalChanged) {
			t.Fatalf("return with a taxed address: %+v, %v", done, err)
		}
		if f.sb.Captures(c.PayPal.ID) != 0 {
			t.Errorf("the untaxed amount was captured")
		}
		if o := f.order(first.ID); o.Status != checkout.StatusCancelled || o.Paid() || f.mails(first.ID) != 0 || f.stock(capID) != before {
			t.Errorf("refused order: status %s paid %v mails %d stock %d (want %d)", o.Status, o.Paid(), f.mails(first.ID), f.stock(capID), before)
		}
		// The cart is kept, with PayPal's address: the checkout's quote has
		// the CA tax line.
		stored, err := f.shop.Cart(ctx, sess)
		if err != nil || len(stored.Lines) != 1 || stored.Customer.Shipping.City != "San Jose" || stored.Customer.Shipping.State != "CA" ||
			stored.Customer.Billing.Email != paypalsandbox.DemoPayerEmail {
			t.Fatalf("cart after the refusal: %+v, %v", stored, err)
		}
		want, err := f.shop.QuoteCart(ctx, sess, "")
		if err != nil {
			t.Fatal(err)
		}
		q := want.Quote
		if q.TotalTax <= 0 || len(q.TaxLines) != 1 || !strings.Contains(q.TaxLines[0].Label, "CA") || q.Total != first.Total+q.TotalTax {
			t.Fatalf("checkout quote for San Jose: tax %d lines %+v total %d (untaxed %d)", q.TotalTax, q.TaxLines, q.Total, first.Total)
		}
		// Paying again: the PayPal amount, the order and the capture carry
		// the tax.
		c2, err := f.svc.CreateOrder(ctx, wallet.CreateRequest{Session: sess, Context: "cart", FundingSource: "paypal", Remote: "192.0.2.1:1"})
		if err != nil {
			t.Fatal(err)
		}
		pp, _ := f.sb.Order(c2.PayPal.ID)
		amt := pp.PurchaseUnits[0].Amount
		if v, _ := paypal.ParseValue("USD", amt.Value); v != q.Total || amt.Breakdown == nil || amt.Breakdown.TaxTotal == nil {
			t.Fatalf("PayPal amount %+v, want %d with its tax", amt, q.Total)
		} else if tax, _ := paypal.ParseValue("USD", amt.Breakdown.TaxTotal.Value); tax != q.TotalTax {
			t.Errorf("PayPal tax_total %s, want %d", amt.Breakdown.TaxTotal.Value, q.TotalTax)
		}
		f.approve(c2.PayPal.ID, paypalsandbox.FundingPayPal)
		paid, err := f.svc.Return(ctx, c2.PayPal.ID)
		if err != nil || !paid.Paid() {
			t.Fatalf("second return: %+v, %v", paid, err)
		}
		if paid.Total != q.Total || paid.TotalTax != q.TotalTax || len(paid.TaxLines) != 1 || paid.TaxLines[0].Label != q.TaxLines[0].Label ||
			paid.Shipping.City != "San Jose" {
			t.Errorf("paid order total %d tax %d lines %+v ship %+v; want %d %d", paid.Total, paid.TotalTax, paid.TaxLines, paid.Shipping, q.Total, q.TotalTax)
		}
		if got, _ := f.captured(c2.PayPal.ID); got != q.Total {
			t.Errorf("captured %d, want %d", got, q.Total)
		}
		if f.mails(paid.ID) != 2 || f.stock(capID) != before-2 {
			t.Errorf("mails %d stock %d", f.mails(paid.ID), f.stock(capID))
		}
	})
}

// TestWalletAddressSameTotal: an address chosen at PayPal that prices the
// order as placed (same zone, same tax) pays it at once, and the order
// ships there.
func TestWalletAddressSameTotal(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db, wallet.Config{})
		ctx := context.Background()
		sess := "t_tax_000000000000000000000000002"
		if err := f.shop.AddToCart(ctx, sess, f.productID("studio-staff-cap"), 1, nil); err != nil {
			t.Fatal(err)
		}
		// The session's address is elsewhere in California: the same CA tax.
		la := cart.Address{FirstName: "Ada", LastName: "Lovelace", Address1: "1 Main St", City: "Los Angeles", State: "CA", Postcode: "90001",
			Country: "US", Email: "ada@example.com"}
		if err := f.shop.SetCustomer(ctx, sess, cart.Customer{Billing: la}); err != nil {
			t.Fatal(err)
		}
		c, err := f.svc.CreateOrder(ctx, wallet.CreateRequest{Session: sess, Context: "cart", Remote: "192.0.2.1:1"})
		if err != nil {
			t.Fatal(err)
		}
		if c.Order.TotalTax == 0 {
			t.Fatalf("order for a CA address without tax")
		}
		// The buyer picks another Californian address at PayPal.
		sj := &paypal.Address{AddressLine1: "2211 North First Street", AdminArea2: "San Jose", AdminArea1: "CA", PostalCode: "95131", CountryCode: "US"}
		if err := f.pp.PatchOrder(ctx, c.PayPal.ID, []paypal.PatchOp{{Op: "replace",
			Path: paypal.PurchaseUnitPath("default", "shipping/address"), Value: sj}}); err != nil {
			t.Fatal(err)
		}
		f.approve(c.PayPal.ID, paypalsandbox.FundingPayPal)
		paid, err := f.svc.Return(ctx, c.PayPal.ID)
		if err != nil || !paid.Paid() || paid.Total != c.Order.Total || paid.Shipping.City != "San Jose" || paid.Billing.City != "Los Angeles" {
			t.Fatalf("return: %+v, %v", paid, err)
		}
	})
}
