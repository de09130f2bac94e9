package wcimport

import (
	"context"
	"strings"
	"testing"

	"vitrine/internal/checkout"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
	"vitrine/internal/wcimport/standin"
)

// taxRecord is a rate as WooCommerce's /wc/v3/taxes answers it.
func taxRecord(id int64, country, state, rate, name string, priority int, extra standin.Object) standin.Object {
	o := standin.Object{"id": id, "country": country, "state": state, "postcode": "", "city": "", "postcodes": []string{}, "cities": []string{},
		"rate": rate, "name": name, "priority": priority, "compound": false, "shipping": true, "order": 0, "class": "standard"}
	for k, v := range extra {
		o[k] = v
	}
	return o
}

// Tax rates move into Shipping and tax: a new rate is added, one the shop
// has already is linked, not doubled, and what this shop's rates cannot
// hold is refused by name. A re-run changes nothing; a changed rate is
// updated in place.
func TestHistoryTaxRates(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		h := newHistoryShop(t, db)
		if _, err := h.rules.Edit(ctx, func(r *checkout.Rules) error {
			r.TaxRates = []checkout.TaxRate{{Country: "US", State: "CA", Rate: 7250, Label: "CA Tax", Priority: 1, Shipping: true}}
			r.Normalize()
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		caID := h.rules.Current().Value.TaxRates[0].ID
		src := &memSource{}
		records := []standin.Object{
			taxRecord(1, "US", "CA", "7.2500", "CA Tax", 1, nil),
			taxRecord(2, "US", "TX", "6.2500", "", 1, nil),
			taxRecord(3, "DE", "", "19.0000", "MwSt.", 1, standin.Object{"shipping": false}),
			taxRecord(4, "US", "NY", "8.8750", "NYC", 1, standin.Object{"postcodes": []string{"10001"}}),
			taxRecord(5, "CA", "QC", "9.9750", "QST", 2, standin.Object{"compound": true}),
			taxRecord(6, "GB", "", "5.0000", "VAT", 1, standin.Object{"class": "reduced-rate"}),
			taxRecord(7, "FR", "", "20.12345", "TVA", 1, nil),
		}
		src.set("wc/v3/taxes", records)
		res := runHistory(t, h, src, false)
		if c := res.counts["taxes"]; c.Read != 7 || c.Created != 2 || c.Updated != 1 || c.Refused != 4 {
			t.Errorf("taxes: %+v %v", c, res.refusals)
		}
		for name, want := range map[string]string{
			"US-NY 8.8750% (rate 4)": "postcodes and cities", "CA-QC 9.9750% (rate 5)": "compound",
			"GB 5.0000% (rate 6)": `class must be standard, not "reduced-rate"`, "FR 20.12345% (rate 7)": "at most 3 decimals"} {
			if why := res.refused("taxes", name); !strings.Contains(why, want) {
				t.Errorf("%s refused for %q, want %q", name, why, want)
			}
		}
		rates := h.rules.Current().Value.TaxRates
		if len(rates) != 3 {
			t.Fatalf("rates after moving in: %+v", rates)
		}
		want := []checkout.TaxRate{
			{ID: caID, Country: "US", State: "CA", Rate: 7250, Label: "CA Tax", Priority: 1, Shipping: true},
			{ID: int(h.legacy(t, "tax", 2)), Country: "US", State: "TX", Rate: 6250, Label: "Tax", Priority: 1, Shipping: true},
			{ID: int(h.legacy(t, "tax", 3)), Country: "DE", Rate: 19000, Label: "MwSt.", Priority: 1},
		}
		for i := range want {
			if rates[i] != want[i] {
				t.Errorf("rate %d: %+v, want %+v", i, rates[i], want[i])
			}
		}
		if h.legacy(t, "tax", 1) != int64(caID) {
			t.Error("the rate the shop had is not linked")
		}

		// Again: unchanged. Then the Texas rate changes in the old shop.
		res = runHistory(t, h, src, false)
		if c := res.counts["taxes"]; c.Unchanged != 3 || c.Created+c.Updated != 0 || c.Refused != 4 {
			t.Errorf("re-run: %+v", c)
		}
		records[1] = taxRecord(2, "US", "TX", "6.5000", "TX Tax", 1, nil)
		src.set("wc/v3/taxes", records)
		res = runHistory(t, h, src, false)
		if c := res.counts["taxes"]; c.Updated != 1 || c.Unchanged != 2 || c.Created != 0 {
			t.Errorf("after a change: %+v", c)
		}
		rates = h.rules.Current().Value.TaxRates
		if len(rates) != 3 || rates[1].ID != want[1].ID || rates[1].Rate != 6500 || rates[1].Label != "TX Tax" {
			t.Errorf("the changed rate: %+v", rates)
		}
	})
}
