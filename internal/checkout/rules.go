package checkout

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Rules are the parts of the checkout's settings staff edit in the admin
// while the shop runs: whether prices include tax, the tax
// rates, the shipping zones and the methods of the rest of the world. The
// rest of Config (countries, bank accounts, terms, limits) stays start-up
// configuration.
// Stored as JSON (internal/settings): amounts in the base currency's minor
// units, rates in thousandths of a percent.
type Rules struct {
	PricesIncludeTax bool      `json:"prices_include_tax"`
	TaxRates         []TaxRate `json:"tax_rates"`
	Zones            []Zone    `json:"zones"`
	RestOfWorld      Zone      `json:"rest_of_world"`
}

// Rules are c's.
func (c *Config) Rules() Rules {
	return Rules{PricesIncludeTax: c.PricesIncludeTax, TaxRates: c.TaxRates, Zones: c.Zones, RestOfWorld: c.RestOfWorld}
}

// With is c with r's rules.
func (c Config) With(r Rules) Config {
	c.PricesIncludeTax, c.TaxRates, c.Zones, c.RestOfWorld = r.PricesIncludeTax, r.TaxRates, r.Zones, r.RestOfWorld
	return c
}

// RuleError is a field of Rules that cannot be taken; Field is its path
// ("zones[1].methods[0].cost").
type RuleError struct {
	Field   string
	Message string
}

func (e *RuleError) Error() string { return e.Field + ": " + e.Message }

// Limits on what the rules hold.
const (
	MaxTaxRates = 500
	MaxZones    = 100
	MaxMethods  = 20
	MaxRate     = 100_000 // 100 % in thousandths of a percent
)

// Normalize trims and upper-cases codes and gives ids to new rates, zones
// and methods (0 when added in the admin): ids already given are kept, so
// a cart's chosen rate ("flat_rate:4") still names the same method after
// an edit elsewhere.
func (r *Rules) Normalize() {
	next := func(used map[int]bool) func() int {
		n := 0
		return func() int {
			for n++; used[n]; n++ {
			}
			used[n] = true
			return n
		}
	}
	rateIDs, zoneIDs, methodIDs := map[int]bool{}, map[int]bool{}, map[int]bool{}
	for _, t := range r.TaxRates {
		rateIDs[t.ID] = true
	}
	for _, z := range r.Zones {
		zoneIDs[z.ID] = true
	}
	zones := append(append([]*Zone{}, ptrs(r.Zones)...), &r.RestOfWorld)
	for _, z := range zones {
		for _, m := range z.Methods {
			methodIDs[m.InstanceID] = true
		}
	}
	nextRate, nextZone, nextMethod := next(rateIDs), next(zoneIDs), next(methodIDs)
	for i := range r.TaxRates {
		t := &r.TaxRates[i]
		t.Country, t.State, t.Label = strings.ToUpper(strings.TrimSpace(t.Country)), strings.ToUpper(strings.TrimSpace(t.State)), strings.TrimSpace(t.Label)
		if t.ID <= 0 {
			t.ID = nextRate()
		}
	}
	for i, z := range zones {
		z.Name = strings.TrimSpace(z.Name)
		if i < len(r.Zones) && z.ID <= 0 {
			z.ID = nextZone()
		}
		for j := range z.Locations {
			l := &z.Locations[j]
			l.Country, l.State = strings.ToUpper(strings.TrimSpace(l.Country)), strings.ToUpper(strings.TrimSpace(l.State))
		}
		for j := range z.Methods {
			m := &z.Methods[j]
			m.Title = strings.TrimSpace(m.Title)
			if m.InstanceID <= 0 {
				m.InstanceID = nextMethod()
			}
		}
	}
	r.RestOfWorld.ID, r.RestOfWorld.Locations = 0, nil
}

func ptrs(zs []Zone) []*Zone {
	out := make([]*Zone, len(zs))
	for i := range zs {
		out[i] = &zs[i]
	}
	return out
}

// Validate checks normalized rules, naming the first field at fault.
func (r *Rules) Validate() error {
	if len(r.TaxRates) > MaxTaxRates {
		return &RuleError{"tax_rates", fmt.Sprintf("At most %d tax rates.", MaxTaxRates)}
	}
	if len(r.Zones) > MaxZones {
		return &RuleError{"zones", fmt.Sprintf("At most %d zones.", MaxZones)}
	}
	seenRate := map[int]bool{}
	for i, t := range r.TaxRates {
		f := fmt.Sprintf("tax_rates[%d].", i)
		if seenRate[t.ID] {
			return &RuleError{f + "id", "Two tax rates have the same id."}
		}
		seenRate[t.ID] = true
		if err := checkPlace(f, t.Country, t.State); err != nil {
			return err
		}
		if t.Rate < 0 || t.Rate > MaxRate {
			return &RuleError{f + "rate", "A rate is a percentage from 0 to 100."}
		}
		if t.Label == "" || utf8.RuneCountInString(t.Label) > 50 {
			return &RuleError{f + "name", "Name the tax in 1 to 50 characters (it shows in the totals: VAT, Sales tax…)."}
		}
		if t.Priority < 0 || t.Priority > 99 {
			return &RuleError{f + "priority", "A priority is 0 to 99."}
		}
	}
	seenZone, seenMethod := map[int]bool{}, map[int]bool{}
	for i, z := range append(append([]Zone{}, r.Zones...), r.RestOfWorld) {
		f := fmt.Sprintf("zones[%d].", i)
		rest := i == len(r.Zones)
		if rest {
			f = "rest_of_world."
		} else {
			if seenZone[z.ID] {
				return &RuleError{f + "id", "Two zones have the same id."}
			}
			seenZone[z.ID] = true
			if z.Name == "" || utf8.RuneCountInString(z.Name) > 100 {
				return &RuleError{f + "name", "Name the zone in 1 to 100 characters."}
			}
			// A zone without locations matches no destination (WooCommerce
			// creates a zone first and gives it locations after).
			for j, l := range z.Locations {
				if err := checkPlace(fmt.Sprintf("%slocations[%d].", f, j), l.Country, l.State); err != nil {
					return err
				}
			}
		}
		if len(z.Methods) > MaxMethods {
			return &RuleError{f + "methods", fmt.Sprintf("At most %d methods in a zone.", MaxMethods)}
		}
		for j, m := range z.Methods {
			mf := fmt.Sprintf("%smethods[%d].", f, j)
			if seenMethod[m.InstanceID] {
				return &RuleError{mf + "instance_id", "Two shipping methods have the same id."}
			}
			seenMethod[m.InstanceID] = true
			switch m.Type {
			case FlatRate, FreeShipping, LocalPickup:
			default:
				return &RuleError{mf + "method_id", "A method is flat_rate, free_shipping or local_pickup."}
			}
			if m.Title == "" || utf8.RuneCountInString(m.Title) > 100 {
				return &RuleError{mf + "title", "Name the method in 1 to 100 characters (shoppers see it)."}
			}
			if m.Cost < 0 || m.MinAmount < 0 {
				return &RuleError{mf + "cost", "Amounts cannot be negative."}
			}
			if m.Type == FreeShipping && m.Cost != 0 {
				return &RuleError{mf + "cost", "Free shipping has no cost."}
			}
		}
	}
	return nil
}

// checkPlace checks a country code (and a state of it, when the country
// lists its states).
func checkPlace(f, country, state string) error {
	c, ok := LookupCountry(country)
	if !ok {
		return &RuleError{f + "country", fmt.Sprintf("%q is not a country code the shop knows (two letters, such as US).", country)}
	}
	if state == "" || len(c.States) == 0 {
		if len(state) > 20 {
			return &RuleError{f + "state", "A state code has at most 20 characters."}
		}
		return nil
	}
	for _, s := range c.States {
		if s.Code == state {
			return nil
		}
	}
	return &RuleError{f + "state", fmt.Sprintf("%q is not a state of %s.", state, c.Name)}
}
