package main_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"vitrine/internal/currency"
	"vitrine/internal/money"
	"vitrine/internal/seed"
	"vitrine/internal/storage/storetest"
)

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

const currencyECB = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
<gesmes:subject>Reference rates</gesmes:subject>
<Cube><Cube time='2099-01-02'>
<Cube currency='USD' rate='1.0787'/><Cube currency='JPY' rate='167.88'/><Cube currency='CHF' rate='0.9773'/>
</Cube></Cube></gesmes:Envelope>`

// `vitrine currency set|list|rates` against a real store: settings and
// rates land in the store, bad input is refused (exit 2) and changes
// nothing.
func TestCurrencyCommand(t *testing.T) {
	dir := t.TempDir()
	ecb := filepath.Join(dir, "eurofxref-daily.xml")
	csvFile := filepath.Join(dir, "rates.csv")
	bad := filepath.Join(dir, "bad.csv")
	for f, body := range map[string]string{ecb: currencyECB, csvFile: "code,rate,date\nGBP,0.8012,2099-01-03\n", bad: "GBP,0.8\nEUR,lots\n"} {
		if err := os.WriteFile(f, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	forEachEngine(t, func(t *testing.T, bin, dsn string) {
		cur := func(stdin string, args ...string) (string, int) {
			return run(t, bin, stdin, append([]string{"--db", dsn, "--log-level", "warn", "currency"}, args...)...)
		}
		for _, c := range [][]string{
			{"set", "EUR", "--rate", "0.92", "--position", "right_space", "--thousand-sep", ".", "--decimal-sep", ","},
			{"set", "GBP", "--rate", "0.79", "--rounding", "up", "--step", "1", "--ending", "0.99", "--order", "1"},
			{"set", "JPY", "--rate", "157.2", "--rounding", "nearest", "--step", "10"},
		} {
			if out, code := cur("", c...); code != 0 || !strings.Contains(out, "added "+c[1]) {
				t.Fatalf("%v: %d %s", c, code, out)
			}
		}
		out, code := cur("", "set", "JPY", "--disable")
		if code != 0 || !strings.Contains(out, "updated JPY: 1 USD = 157.2 JPY (¥1,234), disabled") {
			t.Fatalf("disable: %d %s", code, out)
		}
		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"set", "CHF"}, "CHF is new: give its rate"},
			{[]string{"set", "XYZ", "--rate", "1"}, "not a known ISO 4217"},
			{[]string{"set", "USD", "--rate", "2"}, "base currency"},
			{[]string{"set", "EUR", "--rate", "-1"}, "--rate"},
			{[]string{"set", "EUR", "--rate", "1e3"}, "--rate"},
			{[]string{"set", "EUR", "--decimals", "7"}, "--decimals"},
			{[]string{"set", "EUR", "--position", "top"}, "--position"},
			{[]string{"set", "EUR", "--decimal-sep", "."}, "must differ"},
			{[]string{"set", "EUR", "--rounding", "sideways"}, "--rounding"},
			{[]string{"set", "EUR", "--step", "0.05"}, "needs a rounding rule"},
			{[]string{"set", "EUR", "--rounding", "up", "--step", "1", "--ending", "1.5"}, "--ending"},
			{[]string{"set", "EUR", "--rounding", "up", "--step", "0.001"}, "--step"},
			{[]string{"set", "EUR", "--enable", "--disable"}, "choose one"},
			{[]string{"set", "--rate", "1", "EUR"}, "code comes first"},
			{[]string{"rates"}, "name the rates file"},
			{[]string{"rates", bad}, "line 2"},
			{[]string{"rates", filepath.Join(dir, "missing.xml")}, "no such file"},
			{[]string{"rates", ecb, "--format", "json"}, "use ecb or csv"},
			{[]string{"rates", csvFile, "--format", "ecb"}, "not the ECB's rates XML"},
			{[]string{"convert"}, "usage: vitrine currency list"},
		} {
			out, code := cur("", c.args...)
			if code != 2 || !strings.Contains(out, c.want) {
				t.Errorf("%v: %d %s", c.args, code, out)
			}
		}

		out, code = cur("", "rates", ecb)
		if code != 0 || !strings.Contains(out, "3 rates recorded (ecb, newest 2099-01-02)") || !strings.Contains(out, "updated: EUR, JPY") ||
			!strings.Contains(out, "not sold in (history only; add with vitrine currency set): CHF") {
			t.Fatalf("rates ecb: %d %s", code, out)
		}
		out, code = cur("code,rate,date\nGBP,0.8012,2099-01-03\n", "rates", "-", "--format", "csv")
		if code != 0 || !strings.Contains(out, "updated: GBP") {
			t.Fatalf("rates csv from stdin: %d %s", code, out)
		}
		out, code = cur("", "list")
		for _, want := range []string{"USD   1 ", "base", "EUR   0.9270418096", "1.234,50 €", "GBP   0.8012", "up step 1.00 ending 0.99", "JPY   155.631779", "disabled"} {
			if code != 0 || !strings.Contains(out, want) {
				t.Errorf("list lacks %q: %d\n%s", want, code, out)
			}
		}

		// The store holds what the commands said, refused input changed nothing.
		st := storetest.OpenDSN(t, dsn)
		usd, _ := money.Lookup("USD")
		svc := &currency.Service{Store: st, Base: usd}
		ctx := context.Background()
		eur, err := svc.Currency(ctx, "EUR")
		if err != nil || eur.Rate.String() != "0.9270418096" || eur.Position != money.PosRightSpace || eur.Rounding != currency.RoundNone {
			t.Errorf("EUR %+v %v", eur, err)
		}
		gbp, _ := svc.Currency(ctx, "GBP")
		if gbp.Step != 100 || gbp.Ending != 99 || gbp.Order != 1 {
			t.Errorf("GBP %+v", gbp)
		}
		if _, ok, _ := svc.Configured(ctx, "CHF"); ok {
			t.Error("CHF was configured")
		}
		if h, _ := svc.RateHistory(ctx, "CHF", 5); len(h) != 1 {
			t.Errorf("CHF history %+v", h)
		}
		if h, _ := svc.RateHistory(ctx, "EUR", 5); len(h) != 2 {
			t.Errorf("EUR history %+v", h)
		}
	})
}

// `vitrine currency price` against a real store with the demo catalogue:
// set and delete fixed prices by id, slug or SKU; every refusal exits 2,
// says why, and changes nothing.
func TestCurrencyPriceCommand(t *testing.T) {
	forEachEngine(t, func(t *testing.T, bin, dsn string) {
		ctx := context.Background()
		st := storetest.OpenDSN(t, dsn)
		// Seeded now: the binary reads the real clock.
		if _, err := seed.Demo(ctx, st, time.Now().UTC()); err != nil {
			t.Fatal(err)
		}
		cur := func(args ...string) (string, int) {
			return run(t, bin, "", append([]string{"--db", dsn, "--log-level", "warn", "currency"}, args...)...)
		}
		for _, c := range [][]string{
			{"set", "EUR", "--rate", "0.92", "--position", "right_space", "--thousand-sep", ".", "--decimal-sep", ","},
			{"set", "JPY", "--rate", "157.2"},
			{"set", "GBP", "--rate", "0.79", "--disable"},
		} {
			if out, code := cur(c...); code != 0 {
				t.Fatalf("%v: %d %s", c, code, out)
			}
		}
		tee, err := st.ProductBySlug(ctx, "striped-breton-tee")
		if err != nil {
			t.Fatal(err)
		}
		pocket, err := st.ProductBySlug(ctx, "pocket-tee")
		if err != nil {
			t.Fatal(err)
		}
		vars, err := st.Variations(ctx, pocket.ID)
		if err != nil || len(vars) == 0 || vars[0].SKU == "" {
			t.Fatalf("pocket-tee variations %v %v", vars, err)
		}
		teeID, variation := itoa(tee.ID), vars[0]

		for _, c := range []struct {
			args []string
			want []string
		}{
			{[]string{"price", "striped-breton-tee", "EUR", "30", "25.00"}, []string{`fixed EUR price of "Striped Breton Tee" (id ` + teeID + `, SKU TEE-BRETON): regular 30,00 €, sale 25,00 €`}},
			{[]string{"price", teeID, "jpy", "1500"}, []string{"fixed JPY price of", "regular ¥1,500, no fixed sale price"}},
			{[]string{"price", variation.SKU, "EUR", "12.99"}, []string{"id " + itoa(variation.ID), "regular 12,99 €"}},
			{[]string{"price", "striped-breton-tee", "GBP", "24.99", "19.5"}, []string{"regular £24.99, sale £19.50", "GBP is disabled: shoppers see this price once it is enabled"}},
		} {
			out, code := cur(c.args...)
			for _, w := range c.want {
				if code != 0 || !strings.Contains(out, w) {
					t.Errorf("%v: %d %s (want %q)", c.args, code, out, w)
				}
			}
		}

		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"price", "striped-breton-tee", "EUR", "-5"}, "REGULAR: must be more than 0"},
			{[]string{"price", "striped-breton-tee", "EUR", "0"}, "REGULAR: must be more than 0"},
			{[]string{"price", "striped-breton-tee", "EUR", "20", "25"}, "SALE: must be more than 0 and less than the regular price"},
			{[]string{"price", "striped-breton-tee", "EUR", "20", "20"}, "less than the regular price"},
			{[]string{"price", "striped-breton-tee", "EUR", "20", "-1"}, "SALE: must be more than 0"},
			{[]string{"price", "striped-breton-tee", "EUR", "12,99"}, "with a point before the decimals"},
			{[]string{"price", "striped-breton-tee", "EUR", "12.999"}, "the currency has 2 decimals"},
			{[]string{"price", "striped-breton-tee", "JPY", "1500.5"}, "the currency has no decimals"},
			{[]string{"price", "striped-breton-tee", "EUR", "abc"}, "is not an amount"},
			{[]string{"price", "striped-breton-tee", "EUR", "1e3"}, "is not an amount"},
			{[]string{"price", "striped-breton-tee", "EUR", "99999999999999999"}, "too large"},
			{[]string{"price", "striped-breton-tee", "CHF", "10"}, `CODE: "CHF" is not configured`},
			{[]string{"price", "striped-breton-tee", "USD", "10"}, "CODE: USD is the base currency"},
			{[]string{"price", "striped-breton-tee", "XYZ", "10"}, "not a known ISO 4217"},
			{[]string{"price", "no-such-thing", "EUR", "10"}, `no product has the id, slug or SKU "no-such-thing"`},
			{[]string{"price", "999999", "EUR", "10"}, "no product or variation has id 999999"},
			{[]string{"price", "pocket-tee", "EUR", "10"}, "is a variable product: its prices are its variations'; set a fixed price on each variation — variations: id " + itoa(variation.ID) + " " + variation.SKU},
			{[]string{"price", "weekend-set", "EUR", "10"}, "is a grouped product"},
			{[]string{"price", "striped-breton-tee", "EUR"}, "give the product, the currency, the regular price"},
			{[]string{"price", "striped-breton-tee", "EUR", "1", "2", "3"}, "give the product, the currency, the regular price"},
			{[]string{"price", "--delete", "striped-breton-tee"}, "give the product and the currency"},
			{[]string{"price", "--frob", "striped-breton-tee", "EUR", "1"}, `unknown flag "--frob"`},
			{[]string{"price", "--delete", "striped-breton-tee", "XYZ"}, "not a known ISO 4217"},
		} {
			out, code := cur(c.args...)
			if code != 2 || !strings.Contains(out, c.want) {
				t.Errorf("%v: %d %s (want %q)", c.args, code, out, c.want)
			}
		}

		// The store holds what was set; the refusals changed nothing.
		usd, _ := money.Lookup("USD")
		svc := &currency.Service{Store: st, Base: usd}
		fixed := func(id int64, code string) string {
			t.Helper()
			f, ok, err := svc.FixedPrice(ctx, id, code)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				return "none"
			}
			if f.Sale == nil {
				return fmt.Sprint(f.Regular)
			}
			return fmt.Sprint(f.Regular, "/", *f.Sale)
		}
		for _, c := range []struct {
			id         int64
			code, want string
		}{{tee.ID, "EUR", "3000/2500"}, {tee.ID, "JPY", "1500"}, {tee.ID, "GBP", "2499/1950"}, {variation.ID, "EUR", "1299"},
			{pocket.ID, "EUR", "none"}, {tee.ID, "CHF", "none"}} {
			if got := fixed(c.id, c.code); got != c.want {
				t.Errorf("%d %s: %s, want %s", c.id, c.code, got, c.want)
			}
		}

		// Delete: back to conversion; a second delete changes nothing.
		out, code := cur("price", "--delete", "striped-breton-tee", "EUR")
		if code != 0 || !strings.Contains(out, "deleted the fixed EUR price of \"Striped Breton Tee\"") || !strings.Contains(out, "regular 30,00 €, sale 25,00 €") {
			t.Errorf("delete: %d %s", code, out)
		}
		out, code = cur("price", "--delete", "striped-breton-tee", "EUR")
		if code != 0 || !strings.Contains(out, "has no fixed EUR price: nothing changed") {
			t.Errorf("delete again: %d %s", code, out)
		}
		if out, code := cur("price", teeID, "JPY", "--delete"); code != 0 || !strings.Contains(out, "deleted the fixed JPY price") {
			t.Errorf("delete with the flag last: %d %s", code, out)
		}
		if got := fixed(tee.ID, "EUR") + " " + fixed(tee.ID, "JPY") + " " + fixed(tee.ID, "GBP"); got != "none none 2499/1950" {
			t.Errorf("after deletes: %s", got)
		}
		if out, code := cur("nope"); code != 2 || !strings.Contains(out, "vitrine currency price PRODUCT CODE REGULAR [SALE]") {
			t.Errorf("usage: %d %s", code, out)
		}
	})
}
