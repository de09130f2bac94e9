package checkout_test

import (
	"context"
	"testing"

	"vitrine/internal/checkout"
	"vitrine/internal/currency"
	"vitrine/internal/money"
	"vitrine/internal/payment"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

func TestConfigIn(t *testing.T) {
	usd, _ := money.Lookup("USD")
	base := checkout.DefaultConfig(usd)
	if got, err := base.In(currency.Base(usd)); err != nil || got != &base {
		t.Fatalf("the base currency answers the settings themselves: %p %v", got, err)
	}
	eur, _ := currency.Defaults("EUR")
	eur.Rate, _ = currency.ParseRate("0.92")
	eur.Rounding, eur.Step, eur.Ending = currency.RoundUp, 100, 99 // price endings are not for fees
	jpy, _ := currency.Defaults("JPY")
	jpy.Rate, _ = currency.ParseRate("157.2")
	for _, tc := range []struct {
		cur  currency.Currency
		cost func(int64) int64
	}{
		{eur, func(v int64) int64 { return (v*92 + 50) / 100 }},
		{jpy, func(v int64) int64 { return (v*1572 + 500) / 1000 }},
	} {
		got, err := base.In(tc.cur)
		if err != nil {
			t.Fatal(err)
		}
		if got.Currency.Code != tc.cur.Code || got.Currency.MinorUnit != tc.cur.Decimals {
			t.Errorf("%s: settings currency %+v", tc.cur.Code, got.Currency)
		}
		n := 0
		for zi, z := range base.Zones {
			for mi, m := range z.Methods {
				gm := got.Zones[zi].Methods[mi]
				if gm.Cost != tc.cost(m.Cost) || gm.MinAmount != tc.cost(m.MinAmount) {
					t.Errorf("%s: %s cost %d→%d min %d→%d", tc.cur.Code, m.RateID(), m.Cost, gm.Cost, m.MinAmount, gm.MinAmount)
				}
				n++
			}
		}
		for i, m := range base.RestOfWorld.Methods {
			if got.RestOfWorld.Methods[i].Cost != tc.cost(m.Cost) {
				t.Errorf("%s: rest of world %s", tc.cur.Code, m.RateID())
			}
		}
		if n == 0 {
			t.Fatal("the default settings have no shipping methods to convert")
		}
		if len(got.TaxRates) != len(base.TaxRates) {
			t.Errorf("%s: tax rates changed", tc.cur.Code)
		}
	}
	// The base settings are left as they were.
	again := checkout.DefaultConfig(usd)
	if base.Zones[0].Methods[0].Cost != again.Zones[0].Methods[0].Cost || base.Currency.Code != "USD" {
		t.Error("In changed the settings it converted")
	}
}

// paypalLike takes only some currencies (payment.CurrencyLimited).
type paypalLike struct{ payment.BankTransfer }

func (paypalLike) ID() string                     { return "wallet" }
func (paypalLike) TakesCurrency(code string) bool { return code != "JPY" }

func TestServiceSellsInTheShoppersCurrency(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		usd, _ := money.Lookup("USD")
		cs := &currency.Service{Store: db, Base: usd}
		if n, err := cs.SeedDemo(ctx); err != nil || n != 3 {
			t.Fatalf("seed currencies: %d %v", n, err)
		}
		f.svc.Currencies = cs
		f.svc.Payments = payment.NewRegistry(payment.BankTransfer{}, paypalLike{})
		tank, shirt, breton := f.productID("cotton-tank-top"), f.productID("linen-overshirt"), f.productID("striped-breton-tee")
		if err := cs.SetFixedPrice(ctx, currency.FixedPrice{ProductID: shirt, Code: "EUR", Regular: 6900}); err != nil {
			t.Fatal(err)
		}
		sid := session(40)
		f.add(sid, tank, 2)
		f.add(sid, shirt, 1)
		f.add(sid, breton, 1) // on sale: its sale price is converted
		b := billing()
		if err := f.carts.UpdateCustomer(ctx, sid, &b, nil); err != nil {
			t.Fatal(err)
		}
		base, err := f.svc.Cart(ctx, sid, "")
		if err != nil {
			t.Fatal(err)
		}
		eur, err := f.svc.Cart(ctx, sid, "EUR")
		if err != nil {
			t.Fatal(err)
		}
		table, _ := cs.Table(ctx, "EUR")
		if eur.Pricing.Currency.Code != "EUR" || eur.Pricing.Config.Currency.Code != "EUR" || eur.Pricing.Table == nil {
			t.Fatalf("pricing: %+v", eur.Pricing)
		}
		for i, l := range eur.Lines {
			want, _ := currency.Convert(base.Lines[i].UnitPrice, 2, table.Currency)
			if l.ProductID == shirt {
				want = 6900 // the fixed price wins
			}
			if l.UnitPrice != want {
				t.Errorf("line %d (%d): %d EUR cents, want %d (base %d)", i, l.ProductID, l.UnitPrice, want, base.Lines[i].UnitPrice)
			}
		}
		// The stored cart keeps base prices: pricing converted a copy.
		if again, _ := f.svc.Cart(ctx, sid, ""); again.Quote.Total != base.Quote.Total {
			t.Errorf("base total changed after an EUR pricing: %d, was %d", again.Quote.Total, base.Quote.Total)
		}
		// Quote's invariant holds in the currency.
		q := eur.Quote
		sum := q.Shipping + q.ShippingTax
		for _, la := range q.Lines {
			sum += la.Subtotal + la.SubtotalTax
		}
		if sum != q.Total || q.Total == base.Quote.Total {
			t.Errorf("EUR quote: parts %d, total %d (base %d)", sum, q.Total, base.Quote.Total)
		}
		if h1, h2 := base.Hash(), eur.Hash(); h1 == h2 {
			t.Error("the cart hash does not change with the currency: fragments would not refresh")
		}
		// An unknown or disabled currency prices in the base.
		if x, err := f.svc.Cart(ctx, sid, "XYZ"); err != nil || x.Pricing.Currency.Code != "USD" || x.Quote.Total != base.Quote.Total {
			t.Errorf("unknown currency: %+v %v", x.Pricing, err)
		}

		// The order is placed in EUR with the rate, at the amounts quoted.
		pr := request(sid)
		pr.Currency = "EUR"
		o, err := f.svc.PlaceOrder(ctx, pr)
		if err != nil {
			t.Fatal(err)
		}
		if o.Currency != "EUR" || o.BaseCurrency != "USD" || o.CurrencyRate != table.Currency.Rate.String() || o.Total != q.Total {
			t.Errorf("order: %s rate %s base %s total %d, quoted %d", o.Currency, o.CurrencyRate, o.BaseCurrency, o.Total, q.Total)
		}
		stored, err := db.OrderByKey(ctx, o.Key)
		if err != nil {
			t.Fatal(err)
		}
		if stored.Currency != "EUR" || stored.CurrencyRate != o.CurrencyRate || stored.BaseCurrency != "USD" || stored.Total != o.Total {
			t.Errorf("stored order: %s rate %s base %s total %d", stored.Currency, stored.CurrencyRate, stored.BaseCurrency, stored.Total)
		}
		for i, l := range stored.Lines {
			if l.UnitPrice != eur.Lines[i].UnitPrice {
				t.Errorf("stored line %d: %d, quoted %d", i, l.UnitPrice, eur.Lines[i].UnitPrice)
			}
		}

		// A method that does not take the shopper's currency sells in the
		// base currency.
		sid2 := session(41)
		f.add(sid2, tank, 1)
		if err := f.carts.UpdateCustomer(ctx, sid2, &b, nil); err != nil {
			t.Fatal(err)
		}
		pr2 := request(sid2)
		pr2.Method, pr2.Currency = "wallet", "JPY"
		o2, err := f.svc.PlaceOrder(ctx, pr2)
		if err != nil {
			t.Fatal(err)
		}
		if o2.Currency != "USD" || o2.CurrencyRate != "1" || o2.BaseCurrency != "USD" {
			t.Errorf("JPY with a method that does not take it: %s rate %s", o2.Currency, o2.CurrencyRate)
		}
		if f.svc.SaleCurrency(paypalLike{}, "GBP") != "GBP" || f.svc.SaleCurrency(payment.BankTransfer{}, "JPY") != "JPY" {
			t.Error("SaleCurrency")
		}
	})
}
