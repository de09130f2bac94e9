package main_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vitrine/internal/currency"
	"vitrine/internal/money"
	"vitrine/internal/storage/storetest"
)

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
