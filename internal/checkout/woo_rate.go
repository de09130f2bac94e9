package checkout

import (
	"fmt"
	"strings"

	"vitrine/internal/money"
)

// WooRate is what a WooCommerce tax rate says beyond what TaxRate holds:
// the places it is limited to, whether it is compound, and its class. The
// REST API's taxes routes and the import from WooCommerce both ask
// HeldBy before they take a rate, so both refuse the same rates with the
// same words.
type WooRate struct {
	// Places is the field that limits the rate to postcodes or cities
	// ("postcode", "city", "postcodes" or "cities"), "" when none does.
	Places   string
	Compound bool
	Class    string // "" or "standard" for every taxable product
}

// HeldBy refuses what this shop's rates cannot hold: a rate for postcodes
// or cities (rates here are for a whole country or state), a compound rate
// (rates of different priorities each apply to the net amount), a rate of
// another class than standard (rates apply to every taxable product). The
// error's Field names the WooCommerce field.
func (w WooRate) HeldBy() *RuleError {
	switch {
	case w.Places != "":
		return &RuleError{w.Places, "Vitrine's tax rates apply to a whole country or state: leave postcodes and cities empty."}
	case w.Compound:
		return &RuleError{"compound", "Vitrine has no compound rates: rates of different priorities each apply to the net amount."}
	case w.Class != "" && w.Class != "standard":
		return &RuleError{"class", fmt.Sprintf("Vitrine's tax rates apply to every taxable product: class must be standard, not %q.", w.Class)}
	}
	return nil
}

// ParseWooRate reads a WooCommerce rate ("7.25", "20.0000") into
// thousandths of a percent, refusing more than 3 decimals.
func ParseWooRate(s string) (int64, *RuleError) {
	n, err := money.Parse(strings.TrimSpace(s), 4)
	if err != nil || n%10 != 0 {
		return 0, &RuleError{"rate", "A percentage such as 20 or 7.25 (at most 3 decimals)."}
	}
	return n / 10, nil
}
