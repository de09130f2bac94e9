package pricing_test

// The shopper's-currency price reads against a real store with the demo
// catalogue, on every engine (storetest).

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/currency"
	"vitrine/internal/money"
	"vitrine/internal/pricing"
	"vitrine/internal/seed"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
	"vitrine/internal/storeapi"
)

var now = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

// countingStore counts the fixed-price reads by currency.
type countingStore struct {
	currency.Store
	mu    sync.Mutex
	reads map[string]int
}

func (c *countingStore) FixedPrices(ctx context.Context, code string, ids []int64) (map[int64]currency.FixedPrice, error) {
	c.mu.Lock()
	c.reads[code]++
	c.mu.Unlock()
	return c.Store.FixedPrices(ctx, code, ids)
}

func (c *countingStore) take() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.reads
	c.reads = map[string]int{}
	return r
}

type fixture struct {
	db     *sqlstore.DB
	store  *countingStore
	svc    *pricing.Service
	ids    map[string]int64
	varIDs []int64 // pocket-tee's variations
}

// newFixture seeds the demo catalogue and sells in EUR (0.92, "1.234,56
// €"), JPY (157.2, to tens) and a disabled GBP.
func newFixture(t *testing.T, db *sqlstore.DB) *fixture {
	t.Helper()
	ctx := context.Background()
	db.SetClock(func() time.Time { return now })
	if _, err := seed.Demo(ctx, db, now); err != nil {
		t.Fatal(err)
	}
	usd, _ := money.Lookup("USD")
	store := &countingStore{Store: db, reads: map[string]int{}}
	cache := catalog.NewCache(db, 0)
	cur := &currency.Service{Store: store, Base: usd, Products: cache, Now: func() time.Time { return now }}
	eur, _ := currency.Defaults("EUR")
	eur.Rate, _ = currency.ParseRate("0.92")
	eur.Position, eur.ThousandSep, eur.DecimalSep = money.PosRightSpace, ".", ","
	jpy, _ := currency.Defaults("JPY")
	jpy.Rate, _ = currency.ParseRate("157.2")
	jpy.Rounding, jpy.Step = currency.RoundNearest, 10
	gbp, _ := currency.Defaults("GBP")
	gbp.Rate, _ = currency.ParseRate("0.79")
	gbp.Enabled = false
	for _, c := range []currency.Currency{eur, jpy, gbp} {
		if err := cur.SaveCurrency(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	f := &fixture{db: db, store: store, ids: map[string]int64{},
		svc: &pricing.Service{Products: cache, Currencies: cur, Now: func() time.Time { return now }}}
	for _, slug := range []string{"striped-breton-tee", "pocket-tee", "weekend-set", "classic-tee", "alpaca-cardigan"} {
		p, err := db.ProductBySlug(ctx, slug)
		if err != nil {
			t.Fatalf("%s: %v", slug, err)
		}
		f.ids[slug] = p.ID
	}
	vs, err := db.Variations(ctx, f.ids["pocket-tee"])
	if err != nil || len(vs) < 2 {
		t.Fatalf("pocket-tee variations: %d %v", len(vs), err)
	}
	for _, v := range vs {
		f.varIDs = append(f.varIDs, v.ID)
	}
	return f
}

func (f *fixture) table(t *testing.T, code string) *currency.Table {
	t.Helper()
	tb, err := f.svc.Table(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func TestTableFallsBackToTheBase(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		for code, want := range map[string]string{"EUR": "EUR", "jpy": "JPY", "USD": "USD", "GBP": "USD", "XYZ": "USD", "": "USD"} {
			if got := f.table(t, code); got.Currency.Code != want || got.IsBase() != (want == "USD") {
				t.Errorf("%q: %s", code, got.Currency.Code)
			}
		}
	})
}

// PriceHTMLs is the Store API's price_html in the same currency, with one
// fixed-price read for the products and all their variations and
// children; unknown ids and drafts are left out.
func TestPriceHTMLs(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		tee, pocket, set := f.ids["striped-breton-tee"], f.ids["pocket-tee"], f.ids["weekend-set"]
		// A fixed price on one variation: the variable product's range is
		// taken after conversion.
		sale := int64(1500)
		if err := f.svc.Currencies.SetFixedPrice(ctx, currency.FixedPrice{ProductID: f.varIDs[0], Code: "EUR", Regular: 1900, Sale: &sale}); err != nil {
			t.Fatal(err)
		}
		ids := []int64{tee, pocket, set, f.ids["classic-tee"], f.varIDs[1], f.ids["alpaca-cardigan"], 999999}
		for _, code := range []string{"EUR", "JPY", "USD"} {
			tb := f.table(t, code)
			f.store.take()
			got, err := f.svc.PriceHTMLs(ctx, tb, ids)
			if err != nil {
				t.Fatal(err)
			}
			if reads := f.store.take(); code != "USD" && reads[code] != 1 || len(reads) > 1 || code == "USD" && len(reads) != 0 {
				t.Errorf("%s: fixed-price reads %v, want one", code, reads)
			}
			if len(got) != 5 {
				t.Errorf("%s: %d prices, want 5 (no draft, no unknown id): %v", code, len(got), got)
			}
			// The Store API's price_html, built on its own table.
			ps, err := db.Products(ctx, []int64{tee, pocket, set, f.ids["classic-tee"]})
			if err != nil {
				t.Fatal(err)
			}
			other := f.table(t, code)
			b := &storeapi.Builder{Currency: other.Currency.Money(), Now: now}
			if !other.IsBase() {
				b.Convert = other
			}
			list, err := b.Products(ctx, db, ps)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range list {
				if got[p.ID] != p.PriceHTML || p.PriceHTML == "" {
					t.Errorf("%s %s: %q, Store API %q", code, p.Name, got[p.ID], p.PriceHTML)
				}
			}
		}
		eur, _ := f.svc.PriceHTMLs(ctx, f.table(t, "EUR"), ids)
		for id, want := range map[int64]string{
			tee:                  "Current price is: 26,68 €.",
			pocket:               "Price range: 15,00 € through ",
			set:                  "Price range: 26,68 € through 63,48 €",
			f.varIDs[1]:          "22,08&nbsp;",
			f.ids["classic-tee"]: "25,76&nbsp;",
		} {
			if !strings.Contains(eur[id], want) {
				t.Errorf("EUR %d: %q not in %s", id, want, eur[id])
			}
		}
		if usd, _ := f.svc.PriceHTMLs(ctx, f.table(t, "USD"), []int64{tee}); !strings.Contains(usd[tee], "Current price is: $29.00.") {
			t.Errorf("base: %s", usd[tee])
		}
		if got, err := f.svc.PriceHTMLs(ctx, f.table(t, "EUR"), nil); err != nil || len(got) != 0 {
			t.Errorf("no ids: %v %v", got, err)
		}
	})
}

// Exchange converts each entry in its currency with one fixed-price read
// per currency, and an entry that overflows fails alone.
func TestExchange(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		ctx := context.Background()
		tee, classic := f.ids["striped-breton-tee"], f.ids["classic-tee"]
		for _, p := range []currency.FixedPrice{{ProductID: tee, Code: "EUR", Regular: 3000}, {ProductID: tee, Code: "JPY", Regular: 5000}} {
			if err := f.svc.Currencies.SetFixedPrice(ctx, p); err != nil {
				t.Fatal(err)
			}
		}
		shopper := f.table(t, "EUR")
		f.store.take()
		got, err := f.svc.Exchange(ctx, shopper, []pricing.ExchangeRequest{
			{Code: "", ProductID: tee, Amount: 1000},        // the shopper's: tee's fixed EUR price
			{Code: "eur", ProductID: classic, Amount: 1000}, // converted: 9.20
			{Code: "JPY", ProductID: tee, Amount: 1000},     // tee's fixed JPY price
			{Code: "JPY", Amount: math.MaxInt64},            // overflows alone
			{Code: "JPY", ProductID: classic, Amount: 1000}, // 1572 → 1570
			{Code: "GBP", Amount: 1000},                     // disabled: the shopper's
			{Code: "XYZ", ProductID: -4, Amount: 1000},      // unknown: the shopper's
			{Code: "USD", ProductID: tee, Amount: 1000},     // the base: unchanged
		})
		if err != nil {
			t.Fatal(err)
		}
		if reads := f.store.take(); reads["EUR"] != 1 || reads["JPY"] != 1 || len(reads) != 2 {
			t.Errorf("fixed-price reads %v, want one per currency", reads)
		}
		want := []struct {
			code   string
			amount int64
			fails  bool
		}{{"EUR", 3000, false}, {"EUR", 920, false}, {"JPY", 5000, false}, {"JPY", 0, true}, {"JPY", 1570, false},
			{"EUR", 920, false}, {"EUR", 920, false}, {"USD", 1000, false}}
		for i, w := range want {
			g := got[i]
			if g.Currency.Code != w.code || g.Amount != w.amount || (g.Err != nil) != w.fails {
				t.Errorf("entry %d: %s %d %v, want %+v", i, g.Currency.Code, g.Amount, g.Err, w)
			}
		}
		if !errors.Is(got[3].Err, currency.ErrOverflow) {
			t.Errorf("overflow: %v", got[3].Err)
		}
	})
}
