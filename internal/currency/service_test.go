package currency_test

// The currency use cases against a real store on every engine (storetest).

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/currency"
	"vitrine/internal/money"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

func currencyService(t *testing.T, db *sqlstore.DB, base string, now *time.Time) *currency.Service {
	m, ok := money.Lookup(base)
	if !ok {
		t.Fatalf("no currency %s", base)
	}
	return &currency.Service{Store: db, Base: m, Now: func() time.Time { return *now }}
}

func rate(t *testing.T, s string) currency.Rate {
	t.Helper()
	r, err := currency.ParseRate(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func newCurrency(t *testing.T, code, r string) currency.Currency {
	c, ok := currency.Defaults(code)
	if !ok {
		t.Fatalf("no defaults for %s", code)
	}
	c.Rate = rate(t, r)
	return c
}

func TestSaveAndListCurrencies(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		now := time.Date(2024, 5, 10, 15, 0, 0, 0, time.UTC)
		svc := currencyService(t, db, "USD", &now)

		eur := newCurrency(t, "EUR", "0.92")
		eur.Position, eur.ThousandSep, eur.DecimalSep = money.PosRightSpace, ".", ","
		eur.Rounding, eur.Step, eur.Ending = currency.RoundNearest, 100, 99
		eur.Order = 2
		gbp := newCurrency(t, "GBP", "0.79")
		gbp.Order = 1
		jpy := newCurrency(t, "JPY", "157.23")
		jpy.Enabled = false
		for _, c := range []currency.Currency{eur, gbp, jpy} {
			if err := svc.SaveCurrency(ctx, c); err != nil {
				t.Fatalf("save %s: %v", c.Code, err)
			}
		}
		list, err := svc.Currencies(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var codes []string
		for _, c := range list {
			codes = append(codes, c.Code)
		}
		if !slices.Equal(codes, []string{"USD", "GBP", "EUR"}) {
			t.Fatalf("enabled currencies %v, want USD GBP EUR (base first, then by order; JPY disabled)", codes)
		}
		got, err := svc.Currency(ctx, "eur")
		if err != nil {
			t.Fatal(err)
		}
		if got.Rate.String() != "0.92" || got.RateDate != "2024-05-10" || got.Step != 100 || got.Ending != 99 || got.BaseCode != "USD" {
			t.Errorf("EUR read back as %+v", got)
		}
		if s := got.Format(123456); s != "1.234,56 €" {
			t.Errorf("EUR formats 123456 as %q", s)
		}
		if _, err := svc.Currency(ctx, "JPY"); !errors.Is(err, currency.ErrUnknown) {
			t.Errorf("disabled JPY: %v", err)
		}
		if _, err := svc.Currency(ctx, "CHF"); !errors.Is(err, currency.ErrUnknown) {
			t.Errorf("unconfigured CHF: %v", err)
		}
		if base, err := svc.Currency(ctx, "USD"); err != nil || base.Rate != currency.One {
			t.Errorf("base: %+v %v", base, err)
		}

		// A change of rounding alone keeps the rate's date and adds no history.
		now = now.Add(48 * time.Hour)
		got.Rounding, got.Step, got.Ending = currency.RoundUp, 5, 0
		if err := svc.SaveCurrency(ctx, got); err != nil {
			t.Fatal(err)
		}
		again, _ := svc.Currency(ctx, "EUR")
		if again.RateDate != "2024-05-10" || again.Rounding != currency.RoundUp {
			t.Errorf("after a rounding change: %+v", again)
		}
		hist, err := svc.RateHistory(ctx, "EUR", 10)
		if err != nil || len(hist) != 1 || hist[0].Source != currency.SourceManual {
			t.Fatalf("history %+v %v", hist, err)
		}
		// A new rate is dated today and recorded.
		again.Rate = rate(t, "0.93")
		if err := svc.SaveCurrency(ctx, again); err != nil {
			t.Fatal(err)
		}
		hist, _ = svc.RateHistory(ctx, "EUR", 10)
		if len(hist) != 2 || hist[0].Rate.String() != "0.93" || hist[0].Date != "2024-05-12" {
			t.Errorf("history after a new rate: %+v", hist)
		}
	})
}

func TestSaveCurrencyRefusesBadSettings(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		now := time.Date(2024, 5, 10, 0, 0, 0, 0, time.UTC)
		svc := currencyService(t, db, "USD", &now)
		ok := newCurrency(t, "EUR", "0.92")
		cases := []struct {
			field string
			edit  func(c *currency.Currency)
		}{
			{"code", func(c *currency.Currency) { c.Code = "XXY" }},
			{"code", func(c *currency.Currency) { c.Code = "USD" }},
			{"decimals", func(c *currency.Currency) { c.Decimals = 5 }},
			{"decimals", func(c *currency.Currency) { c.Decimals = -1 }},
			{"rate", func(c *currency.Currency) { c.Rate = currency.Rate{} }},
			{"symbol", func(c *currency.Currency) { c.Symbol = "" }},
			{"symbol", func(c *currency.Currency) { c.Symbol = " €" }},
			{"position", func(c *currency.Currency) { c.Position = "middle" }},
			{"thousand-sep", func(c *currency.Currency) { c.ThousandSep = "1" }},
			{"decimal-sep", func(c *currency.Currency) { c.DecimalSep = "-" }},
			{"decimal-sep", func(c *currency.Currency) { c.DecimalSep = "" }},
			{"decimal-sep", func(c *currency.Currency) { c.DecimalSep, c.ThousandSep = ",", "," }},
			{"rounding", func(c *currency.Currency) { c.Rounding = "banker" }},
			{"rounding", func(c *currency.Currency) { c.Step = 5 }},
			{"step", func(c *currency.Currency) { c.Rounding, c.Step = currency.RoundUp, 0 }},
			{"ending", func(c *currency.Currency) { c.Rounding, c.Step, c.Ending = currency.RoundUp, 100, 100 }},
			{"ending", func(c *currency.Currency) { c.Rounding, c.Step, c.Ending = currency.RoundUp, 100, -1 }},
		}
		for _, tc := range cases {
			c := ok
			tc.edit(&c)
			err := svc.SaveCurrency(ctx, c)
			var in *currency.InputError
			if !errors.As(err, &in) || in.Field != tc.field {
				t.Errorf("%+v: %v, want an error on %s", c, err, tc.field)
			}
		}
		if list, err := db.Currencies(ctx); err != nil || len(list) != 0 {
			t.Errorf("refused settings were stored: %+v %v", list, err)
		}
	})
}

const ecbDaily = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
	<gesmes:subject>Reference rates</gesmes:subject>
	<gesmes:Sender><gesmes:name>European Central Bank</gesmes:name></gesmes:Sender>
	<Cube>
		<Cube time='2024-05-10'>
			<Cube currency='USD' rate='1.0787'/>
			<Cube currency='JPY' rate='167.88'/>
			<Cube currency='GBP' rate='0.86088'/>
			<Cube currency='CHF' rate='0.9773'/>
		</Cube>
		<Cube time='2024-05-09'>
			<Cube currency='USD' rate='1.0750'/>
			<Cube currency='JPY' rate='167.40'/>
			<Cube currency='GBP' rate='0.86010'/>
			<Cube currency='CHF' rate='0.9750'/>
		</Cube>
	</Cube>
</gesmes:Envelope>`

func TestImportECBRebasesToTheShopsBase(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		now := time.Date(2024, 5, 10, 16, 0, 0, 0, time.UTC)
		svc := currencyService(t, db, "USD", &now)
		for _, c := range []currency.Currency{newCurrency(t, "EUR", "0.9"), newCurrency(t, "JPY", "150"), newCurrency(t, "GBP", "0.8")} {
			if err := svc.SaveCurrency(ctx, c); err != nil {
				t.Fatal(err)
			}
		}
		res, err := svc.ImportRates(ctx, strings.NewReader(ecbDaily), "") // format detected
		if err != nil {
			t.Fatal(err)
		}
		if res.Format != currency.FormatECB || res.Date != "2024-05-10" || res.Recorded != 8 ||
			!slices.Equal(res.Updated, []string{"EUR", "GBP", "JPY"}) || !slices.Equal(res.Unknown, []string{"CHF"}) {
			t.Fatalf("result %+v", res)
		}
		// EUR per USD = 1 / 1.0787; JPY per USD = 167.88 / 1.0787 (10 significant digits).
		for code, want := range map[string]string{"EUR": "0.9270418096", "JPY": "155.631779", "GBP": "0.798071753"} {
			c, err := svc.Currency(ctx, code)
			if err != nil || c.Rate.String() != want || c.RateDate != "2024-05-10" {
				t.Errorf("%s: %s on %s (%v), want %s", code, c.Rate, c.RateDate, err, want)
			}
		}
		hist, _ := svc.RateHistory(ctx, "JPY", 10)
		if len(hist) != 3 || hist[0].Source != currency.SourceECB || hist[1].Date != "2024-05-10" || hist[1].Source != currency.SourceManual ||
			hist[2].Date != "2024-05-09" || hist[2].Rate.String() != "155.7209302" {
			t.Errorf("JPY history %+v", hist)
		}
		// CHF is not configured: recorded, not sold in.
		if h, _ := svc.RateHistory(ctx, "CHF", 10); len(h) != 2 {
			t.Errorf("CHF history %+v", h)
		}
		if _, err := svc.Currency(ctx, "CHF"); !errors.Is(err, currency.ErrUnknown) {
			t.Errorf("CHF became a currency: %v", err)
		}
		// The same file again adds no copies and changes nothing.
		res, err = svc.ImportRates(ctx, strings.NewReader(ecbDaily), currency.FormatECB)
		if err != nil || len(res.Updated) != 0 {
			t.Fatalf("again: %+v %v", res, err)
		}
		if h, _ := svc.RateHistory(ctx, "JPY", 10); len(h) != 3 {
			t.Errorf("re-import added history: %+v", h)
		}
		// An older file records history but does not move the current rate back.
		old := strings.ReplaceAll(strings.ReplaceAll(ecbDaily, "2024-05-10", "2024-05-01"), "2024-05-09", "2024-04-30")
		res, err = svc.ImportRates(ctx, strings.NewReader(old), "")
		if err != nil || !slices.Equal(res.Stale, []string{"EUR", "GBP", "JPY"}) || len(res.Updated) != 0 {
			t.Fatalf("older file: %+v %v", res, err)
		}
		if c, _ := svc.Currency(ctx, "JPY"); c.RateDate != "2024-05-10" {
			t.Errorf("an older file moved the rate back to %s", c.RateDate)
		}

		// A shop based in EUR takes the ECB's rates as they are.
		eurShop := currencyService(t, storetest.Open(t, db.Engine), "EUR", &now)
		if err := eurShop.SaveCurrency(ctx, newCurrency(t, "USD", "1")); err != nil {
			t.Fatal(err)
		}
		if _, err := eurShop.ImportRates(ctx, strings.NewReader(ecbDaily), ""); err != nil {
			t.Fatal(err)
		}
		if c, _ := eurShop.Currency(ctx, "USD"); c.Rate.String() != "1.0787" {
			t.Errorf("EUR shop: USD rate %s", c.Rate)
		}
	})
}

func TestImportRefusesBadFilesAndChangesNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		now := time.Date(2024, 5, 10, 16, 0, 0, 0, time.UTC)
		svc := currencyService(t, db, "USD", &now)
		if err := svc.SaveCurrency(ctx, newCurrency(t, "EUR", "0.9")); err != nil {
			t.Fatal(err)
		}
		cases := []struct{ format, body, want string }{
			{"", `<gesmes:Envelope><Cube><Cube time="2024-05-10"><Cube currency="JPY" rate="167.88"/></Cube></Cube></gesmes:Envelope>`, "no rate for the base currency USD"},
			{"", `<gesmes:Envelope><Cube><Cube time="10/05/2024"><Cube currency="USD" rate="1.07"/></Cube></Cube></gesmes:Envelope>`, "not a date"},
			{"", `<gesmes:Envelope><Cube><Cube time="2024-05-10"><Cube currency="USD" rate="-1.07"/></Cube></Cube></gesmes:Envelope>`, "not a decimal number"},
			{"", `<html><body>not rates</body></html>`, "no <Cube time"},
			{"", `<unclosed`, "not the ECB's rates XML"},
			{"", "code,rate\nEUR,0.91\nGBP,abc\n", "line 3"},
			{"", "EUR,0.91,2024-13-01\n", "use YYYY-MM-DD"},
			{"", "XYZ,1.5\n", "not a known currency code"},
			{"", "USD,2\n", "base currency"},
			{"", "EUR,0.91\nEUR,0.92\n", "appears twice"},
			{"", "EUR\n", "want code,rate"},
			{"", "code,rate\n", "no rates"},
			{"yaml", "EUR: 0.91", "unknown rates format"},
		}
		for _, c := range cases {
			_, err := svc.ImportRates(ctx, strings.NewReader(c.body), c.format)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%q: %v, want %q", c.body, err, c.want)
			}
		}
		if c, _ := svc.Currency(ctx, "EUR"); c.Rate.String() != "0.9" {
			t.Errorf("a refused file changed EUR to %s", c.Rate)
		}
		if h, _ := svc.RateHistory(ctx, "EUR", 10); len(h) != 1 {
			t.Errorf("a refused file added history: %+v", h)
		}
		// A good CSV with a header, a dated and an undated line.
		res, err := svc.ImportRates(ctx, strings.NewReader("code,rate,date\nEUR,0.9123,2024-05-10\nJPY,155.5\n"), "")
		if err != nil || res.Format != currency.FormatCSV || !slices.Equal(res.Updated, []string{"EUR"}) || !slices.Equal(res.Unknown, []string{"JPY"}) {
			t.Fatalf("csv: %+v %v", res, err)
		}
		if h, _ := svc.RateHistory(ctx, "JPY", 10); len(h) != 1 || h[0].Date != "2024-05-10" || h[0].Source != currency.SourceCSV {
			t.Errorf("JPY csv history %+v", h)
		}
	})
}

func TestPricesFixedWinsOverConversion(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		now := time.Date(2024, 5, 10, 16, 0, 0, 0, time.UTC)
		svc := currencyService(t, db, "USD", &now)
		eur := newCurrency(t, "EUR", "0.92")
		eur.Rounding, eur.Step, eur.Ending = currency.RoundNearest, 100, 99
		if err := svc.SaveCurrency(ctx, eur); err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, slug := range []string{"tee", "cap", "mug"} {
			price := int64(1999)
			p := &catalog.Product{Type: catalog.TypeSimple, Name: slug, Slug: slug, Status: "publish", RegularPrice: &price, Purchasable: true}
			if _, err := db.SaveProduct(ctx, p, nil); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, p.ID)
		}
		sale := int64(1500)
		if err := svc.SetFixedPrice(ctx, currency.FixedPrice{ProductID: ids[0], Code: "EUR", Regular: 1700, Sale: &sale}); err != nil {
			t.Fatal(err)
		}
		if err := svc.SetFixedPrice(ctx, currency.FixedPrice{ProductID: ids[1], Code: "EUR", Regular: 2500}); err != nil {
			t.Fatal(err)
		}
		baseSale := int64(1000)
		in := []currency.ProductPrices{
			{ProductID: ids[0], Regular: 1999, Sale: &baseSale}, // fixed regular and sale
			{ProductID: ids[1], Regular: 1999, Sale: &baseSale}, // fixed regular, converted sale
			{ProductID: ids[2], Regular: 1999},                  // converted
		}
		out, c, err := svc.Prices(ctx, "EUR", in)
		if err != nil || c.Code != "EUR" {
			t.Fatal(err)
		}
		want := []struct {
			regular int64
			sale    int64
		}{{1700, 1500}, {2500, 899}, {1799, 0}} // 10.00 USD → 9.20 → 8.99; 19.99 → 18.39 → 17.99
		for i, w := range want {
			if out[i].Regular != w.regular || (w.sale == 0) != (out[i].Sale == nil) || (out[i].Sale != nil && *out[i].Sale != w.sale) {
				t.Errorf("product %d: %+v, want %+v", i, out[i], w)
			}
		}
		if in[0].Sale != &baseSale || *in[0].Sale != 1000 {
			t.Error("Prices changed its input")
		}
		if p, err := svc.Price(ctx, ids[2], 1999, false, "EUR"); err != nil || p != 1799 {
			t.Errorf("Price: %d %v", p, err)
		}
		if p, err := svc.Price(ctx, ids[0], 1000, true, "EUR"); err != nil || p != 1500 {
			t.Errorf("Price on sale: %d %v", p, err)
		}
		if p, err := svc.Price(ctx, ids[0], 1999, false, "USD"); err != nil || p != 1999 {
			t.Errorf("Price in the base: %d %v", p, err)
		}
		if _, err := svc.Price(ctx, ids[0], 1999, false, "GBP"); !errors.Is(err, currency.ErrUnknown) {
			t.Errorf("Price in GBP: %v", err)
		}
		// Bad fixed prices are refused; deleting one returns to conversion.
		for _, p := range []currency.FixedPrice{
			{ProductID: ids[2], Code: "GBP", Regular: 100},
			{ProductID: ids[2], Code: "EUR", Regular: 0},
			{ProductID: ids[2], Code: "EUR", Regular: 100, Sale: &sale},
		} {
			var in *currency.InputError
			if err := svc.SetFixedPrice(ctx, p); !errors.As(err, &in) {
				t.Errorf("%+v: %v", p, err)
			}
		}
		if err := db.DeleteFixedPrice(ctx, ids[1], "EUR"); err != nil {
			t.Fatal(err)
		}
		if p, _ := svc.Price(ctx, ids[1], 1999, false, "EUR"); p != 1799 {
			t.Errorf("after delete: %d", p)
		}
	})
}

// BenchmarkPrices24 is the price call's work for a page of 24 products in
// EUR on SQLite: one fixed-price read and 24 conversions (regular and
// sale for a third of them).
func BenchmarkPrices24(b *testing.B) {
	db := storetest.Open(b, sqlstore.SQLite)
	ctx := context.Background()
	m, _ := money.Lookup("USD")
	svc := &currency.Service{Store: db, Base: m}
	eur, _ := currency.Defaults("EUR")
	eur.Rate, _ = currency.ParseRate("0.9202171713")
	eur.Rounding, eur.Step, eur.Ending = currency.RoundNearest, 100, 99
	if err := svc.SaveCurrency(ctx, eur); err != nil {
		b.Fatal(err)
	}
	var in []currency.ProductPrices
	for i := 0; i < 24; i++ {
		price := int64(1000 + 137*i)
		p := &catalog.Product{Type: catalog.TypeSimple, Name: "P", Slug: "p-" + string(rune('a'+i)), Status: "publish", RegularPrice: &price, Purchasable: true}
		if _, err := db.SaveProduct(ctx, p, nil); err != nil {
			b.Fatal(err)
		}
		pp := currency.ProductPrices{ProductID: p.ID, Regular: price}
		if i%3 == 0 {
			s := price - 100
			pp.Sale = &s
		}
		if i%6 == 0 {
			if err := svc.SetFixedPrice(ctx, currency.FixedPrice{ProductID: p.ID, Code: "EUR", Regular: 1500}); err != nil {
				b.Fatal(err)
			}
		}
		in = append(in, pp)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := svc.Prices(ctx, "EUR", in); err != nil {
			b.Fatal(err)
		}
	}
}

func TestSeedDemo(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		now := time.Date(2024, 5, 10, 16, 0, 0, 0, time.UTC)
		svc := currencyService(t, db, "USD", &now)
		if n, err := svc.SeedDemo(ctx); err != nil || n != 3 {
			t.Fatalf("seed: %d %v", n, err)
		}
		if n, err := svc.SeedDemo(ctx); err != nil || n != 0 {
			t.Fatalf("seeded twice: %d %v", n, err)
		}
		list, _ := svc.Currencies(ctx)
		var got []string
		for _, c := range list {
			got = append(got, c.Code+" "+c.Rate.String()+" "+c.Format(123456))
		}
		want := []string{"USD 1 $1,234.56", "EUR 0.92 1.234,56 €", "GBP 0.79 £1,234.56", "JPY 157.2 ¥123,456"}
		if !slices.Equal(got, want) {
			t.Errorf("demo currencies %q, want %q", got, want)
		}
		if p, err := svc.Price(ctx, 0, 1999, false, "GBP"); err != nil || p != 1599 { // 15.79 up to .99
			t.Errorf("GBP price %d %v", p, err)
		}
		if p, err := svc.Price(ctx, 0, 1999, false, "JPY"); err != nil || p != 3140 { // 3142.43 to tens
			t.Errorf("JPY price %d %v", p, err)
		}
		// A EUR shop gets USD, GBP and JPY rebased.
		eurShop := currencyService(t, storetest.Open(t, db.Engine), "EUR", &now)
		if n, err := eurShop.SeedDemo(ctx); err != nil || n != 2 {
			t.Fatalf("EUR shop seed: %d %v", n, err)
		}
		if c, err := eurShop.Currency(ctx, "JPY"); err != nil || c.Rate.String() != "170.8695652" {
			t.Errorf("EUR shop JPY: %s %v", c.Rate, err)
		}
	})
}

// With Products set, SetFixedPrice refuses what has no price of its own;
// DeleteFixedPrice says whether there was one.
func TestFixedPriceProductChecksAndDelete(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		now := time.Date(2024, 5, 10, 16, 0, 0, 0, time.UTC)
		svc := currencyService(t, db, "USD", &now)
		svc.Products = db
		if err := svc.SaveCurrency(ctx, newCurrency(t, "EUR", "0.92")); err != nil {
			t.Fatal(err)
		}
		price := int64(1999)
		simple := &catalog.Product{Type: catalog.TypeSimple, Name: "Cap", Slug: "cap", Status: "publish", RegularPrice: &price, Purchasable: true}
		variable := &catalog.Product{Type: catalog.TypeVariable, Name: "Tee", Slug: "tee", Status: "publish"}
		grouped := &catalog.Product{Type: catalog.TypeGrouped, Name: "Set", Slug: "set", Status: "publish"}
		for _, p := range []*catalog.Product{simple, variable, grouped} {
			if _, err := db.SaveProduct(ctx, p, nil); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range []struct {
			p     currency.FixedPrice
			field string
			msg   string
		}{
			{currency.FixedPrice{ProductID: 999999, Code: "EUR", Regular: 100}, "product", "no product or variation has id 999999"},
			{currency.FixedPrice{ProductID: 0, Code: "EUR", Regular: 100}, "product", "not a product id"},
			{currency.FixedPrice{ProductID: variable.ID, Code: "EUR", Regular: 100}, "product", "variable product"},
			{currency.FixedPrice{ProductID: grouped.ID, Code: "EUR", Regular: 100}, "product", "grouped product"},
			{currency.FixedPrice{ProductID: simple.ID, Code: "USD", Regular: 100}, "currency", "USD is the base currency"},
			{currency.FixedPrice{ProductID: simple.ID, Code: "CHF", Regular: 100}, "currency", `"CHF" is not configured`},
			{currency.FixedPrice{ProductID: simple.ID, Code: "EUR", Regular: -100}, "regular", "more than 0"},
		} {
			var in *currency.InputError
			if err := svc.SetFixedPrice(ctx, c.p); !errors.As(err, &in) || in.Field != c.field || !strings.Contains(in.Message, c.msg) {
				t.Errorf("%+v: %v, want %s: %s", c.p, err, c.field, c.msg)
			}
		}
		for _, id := range []int64{simple.ID, variable.ID, grouped.ID} {
			if _, ok, err := svc.FixedPrice(ctx, id, "EUR"); ok || err != nil {
				t.Errorf("refused price of %d stored: %v", id, err)
			}
		}
		// Lower-case codes are the same currency.
		if err := svc.SetFixedPrice(ctx, currency.FixedPrice{ProductID: simple.ID, Code: "eur", Regular: 1800}); err != nil {
			t.Fatal(err)
		}
		if f, ok, err := svc.FixedPrice(ctx, simple.ID, "EUR"); !ok || err != nil || f.Regular != 1800 || f.Sale != nil {
			t.Errorf("stored %+v %v %v", f, ok, err)
		}
		if f, ok, err := svc.DeleteFixedPrice(ctx, simple.ID, "eur"); !ok || err != nil || f.Regular != 1800 {
			t.Errorf("delete: %+v %v %v", f, ok, err)
		}
		if _, ok, err := svc.DeleteFixedPrice(ctx, simple.ID, "EUR"); ok || err != nil {
			t.Errorf("second delete: %v %v", ok, err)
		}
		if p, _ := svc.Price(ctx, simple.ID, 1999, false, "EUR"); p != 1839 {
			t.Errorf("after delete: %d, want the converted 18.39", p)
		}
	})
}

func TestParseAmount(t *testing.T) {
	for _, c := range []struct {
		in       string
		decimals int
		want     int64
		err      string
	}{
		{"12.99", 2, 1299, ""}, {"12.5", 2, 1250, ""}, {"12", 2, 1200, ""}, {" 0.05 ", 2, 5, ""}, {".5", 2, 50, ""},
		{"12.500", 2, 1250, ""}, {"1500", 0, 1500, ""}, {"1500.00", 0, 1500, ""}, {"1.234", 3, 1234, ""},
		{"-5", 2, -500, ""}, {"0", 2, 0, ""}, {"999999999999999.99", 2, 99999999999999999, ""},
		{"12,99", 2, 0, "with a point"}, {"1,299.00", 2, 0, "with a point"}, {"12.999", 2, 0, "has 2 decimals"},
		{"1500.5", 0, 0, "no decimals"}, {"", 2, 0, "not an amount"}, {".", 2, 0, "not an amount"}, {"1e3", 2, 0, "not an amount"},
		{"12.9.9", 2, 0, "not an amount"}, {"+5", 2, 0, "not an amount"}, {"--5", 2, 0, "not an amount"}, {"5 €", 2, 0, "not an amount"},
		{"1000000000000000", 2, 0, "too large"}, {"999999999999999", 4, 0, "too large"}, {"99999999999999", 4, 999999999999990000, ""}, {"9999999999999", 4, 99999999999990000, ""},
	} {
		got, err := currency.ParseAmount(c.in, c.decimals)
		if c.err == "" && (err != nil || got != c.want) || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("ParseAmount(%q, %d) = %d, %v; want %d %q", c.in, c.decimals, got, err, c.want, c.err)
		}
	}
}
