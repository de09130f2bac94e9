package wcimport

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"vitrine/internal/checkout"
)

// wcTax is a tax rate of the REST API v3 (/wc/v3/taxes).
type wcTax struct {
	ID        int64    `json:"id"`
	Country   string   `json:"country"`
	State     string   `json:"state"`
	Postcode  string   `json:"postcode"`
	City      string   `json:"city"`
	Postcodes []string `json:"postcodes"`
	Cities    []string `json:"cities"`
	Rate      string   `json:"rate"`
	Name      string   `json:"name"`
	Priority  int      `json:"priority"`
	Compound  bool     `json:"compound"`
	Shipping  bool     `json:"shipping"`
	Class     string   `json:"class"`
}

// importTax moves a tax rate into the shop's rules (Shipping and tax). A
// rate the shop already has (same place, percentage and priority) is
// linked, not doubled. What this shop's rates cannot hold is refused with
// the REST API's own taxes endpoint's words (checkout.WooRate). Moved before the
// tax settings, so "calculate taxes" finds the rates it needs.
func importTax(ctx context.Context, r *Run, raw json.RawMessage) (Outcome, error) {
	var w wcTax
	if err := json.Unmarshal(raw, &w); err != nil || w.ID <= 0 {
		return Refused, refuse("", "not a tax rate record")
	}
	place := strings.ToUpper(strings.TrimSpace(w.Country))
	if s := strings.ToUpper(strings.TrimSpace(w.State)); s != "" {
		place += "-" + s
	}
	if place == "" {
		place = "everywhere"
	}
	name := fmt.Sprintf("%s %s%% (rate %d)", place, strings.TrimSpace(w.Rate), w.ID)
	prev, unchanged, err := r.seen(ctx, "tax", w.ID, raw)
	if err != nil {
		return 0, err
	}
	if unchanged {
		return Unchanged, nil
	}
	held := checkout.WooRate{Compound: w.Compound, Class: w.Class}
	if strings.TrimSpace(w.Postcode) != "" || strings.TrimSpace(w.City) != "" || len(w.Postcodes) > 0 || len(w.Cities) > 0 {
		held.Places = "postcodes"
	}
	if re := held.HeldBy(); re != nil {
		return Refused, refusalOf(name, re)
	}
	n, re := checkout.ParseWooRate(w.Rate)
	if re != nil {
		return Refused, refusalOf(name, re)
	}
	rate := checkout.TaxRate{Country: w.Country, State: w.State, Rate: n, Label: strings.TrimSpace(w.Name),
		Priority: w.Priority, Shipping: w.Shipping}
	if rate.Label == "" {
		rate.Label = "Tax" // WooCommerce's name for a rate left unnamed
	}
	same := func(t checkout.TaxRate) bool {
		return strings.EqualFold(t.Country, strings.TrimSpace(rate.Country)) && strings.EqualFold(t.State, strings.TrimSpace(rate.State)) &&
			t.Rate == rate.Rate && t.Priority == rate.Priority
	}
	out, id := Created, 0
	rules := r.deps.History.Rules
	if prev > 0 && slices.ContainsFunc(rules.Current().Value.TaxRates, func(t checkout.TaxRate) bool { return int64(t.ID) == prev }) {
		out, id = Updated, int(prev)
	} else if i := slices.IndexFunc(rules.Current().Value.TaxRates, same); i >= 0 {
		out, id = Updated, rules.Current().Value.TaxRates[i].ID // the shop has it already: linked
	}
	if r.dry {
		return out, r.remember(ctx, "tax", w.ID, int64(id), "", raw)
	}
	_, err = rules.Edit(ctx, func(ru *checkout.Rules) error {
		if i := slices.IndexFunc(ru.TaxRates, func(t checkout.TaxRate) bool { return t.ID == id }); id > 0 && i >= 0 {
			rate.ID = id
			ru.TaxRates[i] = rate
		} else {
			rate.ID = 0 // Normalize gives it the next id
			ru.TaxRates = append(ru.TaxRates, rate)
		}
		ru.Normalize()
		if id == 0 {
			id = ru.TaxRates[len(ru.TaxRates)-1].ID
		}
		return nil
	})
	if err != nil {
		return 0, refusalOf(name, err)
	}
	return out, r.remember(ctx, "tax", w.ID, int64(id), "", raw)
}
