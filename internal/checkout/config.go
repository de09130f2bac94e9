package checkout

import (
	"reflect"

	"vitrine/internal/money"
	"vitrine/internal/payment"
)

// Shipping method types (WooCommerce method ids).
const (
	FlatRate     = "flat_rate"
	FreeShipping = "free_shipping"
	LocalPickup  = "local_pickup"
)

// Method is one shipping method instance of a zone. Its rate id is
// "<Type>:<InstanceID>" ("flat_rate:1"); instance ids are unique shop-wide.
type Method struct {
	InstanceID int    `json:"instance_id"`
	Type       string `json:"method_id"` // FlatRate, FreeShipping, LocalPickup
	Title      string `json:"title"`
	// Cost in minor units, excluding tax (flat rate and local pickup).
	Cost int64 `json:"cost"`
	// Taxable: shipping tax applies to Cost (rates marked Shipping).
	Taxable bool `json:"taxable"`
	// MinAmount: free shipping needs items worth at least this much
	// (prices as entered, before shipping).
	MinAmount int64 `json:"min_amount"`
}

// RateID is the method's rate id.
func (m Method) RateID() string { return m.Type + ":" + itoa(int64(m.InstanceID)) }

// Location is a zone region: a country, optionally one of its states.
type Location struct {
	Country string `json:"country"`
	State   string `json:"state"` // "" for the whole country
}

// Zone is a shipping zone: the first zone (in order) with a location that
// matches the destination gives the rates.
type Zone struct {
	ID        int        `json:"id"`
	Name      string     `json:"name"`
	Locations []Location `json:"locations"`
	Methods   []Method   `json:"methods"`
}

// TaxRate is one tax rate for a country (and optionally a state). Rate is in
// thousandths of a percent: 7.25 % is 7250. Rates of one priority do not
// stack (the most specific match wins: state before country); rates of
// different priorities all apply, each on the net amount.
type TaxRate struct {
	ID       int    `json:"id"`
	Country  string `json:"country"`
	State    string `json:"state"` // "" for the whole country
	Rate     int64  `json:"rate"`
	Label    string `json:"name"` // "Tax", "VAT"
	Priority int    `json:"priority"`
	Shipping bool   `json:"shipping"` // also taxes shipping
}

// Terms is the terms-and-conditions page shown in the checkout's lightbox.
type Terms struct {
	Title string `json:"title"`
	HTML  string `json:"html"`
}

// Config is the checkout's settings. The server passes one in; nothing here
// reads globals. The zero value means "use DefaultConfig".
type Config struct {
	// BaseCountry and BaseState are the shop's address: the default
	// customer location, and the tax location for local pickup.
	BaseCountry string
	BaseState   string
	// Currency is the shop's; all amounts below are its minor units.
	Currency money.Currency
	// PricesIncludeTax: catalogue prices are entered including tax.
	PricesIncludeTax bool
	TaxRates         []TaxRate
	// Zones are matched in order; RestOfWorld applies when none matches.
	Zones       []Zone
	RestOfWorld Zone
	// AllowedCountries limits where the shop sells; empty: every known one.
	AllowedCountries []string
	// PhoneRequired makes the billing phone required.
	PhoneRequired bool
	// BankAccounts are shown in bank-transfer instructions.
	BankAccounts []payment.BankAccount
	// Terms, when set, must be accepted on the classic checkout form.
	Terms *Terms
	// RateLimit caps checkout attempts per minute per cart session, and
	// RateLimitPerAddress per client address (an IPv6 client's /64); 0 turns
	// that limit off. The counters are kept in the store, shared by every
	// instance. Refused attempts answer 429 with Retry-After.
	RateLimit           int
	RateLimitPerAddress int
}

// Default checkout rate limits (the binary's flags): a shopper places an
// order or retries a refused one a few times a minute; many shoppers may
// share one address (an office, a mobile carrier's NAT).
const (
	DefaultRateLimit           = 5
	DefaultRateLimitPerAddress = 30
)

// IsZero reports whether c is the zero value.
func (c *Config) IsZero() bool { return reflect.ValueOf(*c).IsZero() }

// AddressRules are the config's address settings.
func (c *Config) AddressRules() AddressRules {
	return AddressRules{Allowed: c.AllowedCountries, PhoneRequired: c.PhoneRequired}
}

// DefaultConfig is the demo shop's checkout: based in the US; shipping in
// the US flat 5.00 (free from 100.00, or local pickup), Europe flat 15.00,
// everywhere else 25.00; a few US state and European VAT rates; prices
// entered excluding tax. Amounts scale with the currency's minor unit.
func DefaultConfig(cur money.Currency) Config {
	unit := int64(1)
	for i := 0; i < cur.MinorUnit; i++ {
		unit *= 10
	}
	return Config{
		BaseCountry: "US", BaseState: "CA", Currency: cur,
		TaxRates: []TaxRate{
			{ID: 1, Country: "US", State: "CA", Rate: 7250, Label: "CA Tax", Shipping: true},
			{ID: 2, Country: "US", State: "NY", Rate: 4000, Label: "NY Tax", Shipping: true},
			{ID: 3, Country: "DE", Rate: 19000, Label: "MwSt.", Shipping: true},
			{ID: 4, Country: "FR", Rate: 20000, Label: "TVA", Shipping: true},
			{ID: 5, Country: "GB", Rate: 20000, Label: "VAT", Shipping: true},
			{ID: 6, Country: "NL", Rate: 21000, Label: "BTW", Shipping: true},
		},
		Zones: []Zone{
			{ID: 1, Name: "United States", Locations: []Location{{Country: "US"}}, Methods: []Method{
				// Free shipping first: when the cart qualifies it is the
				// rate chosen by default (the first available one).
				{InstanceID: 2, Type: FreeShipping, Title: "Free shipping", MinAmount: 100 * unit},
				{InstanceID: 1, Type: FlatRate, Title: "Flat rate", Cost: 5 * unit, Taxable: true},
				{InstanceID: 3, Type: LocalPickup, Title: "Local pickup", Taxable: true},
			}},
			{ID: 2, Name: "Europe", Locations: []Location{{Country: "DE"}, {Country: "FR"}, {Country: "GB"},
				{Country: "NL"}, {Country: "ES"}, {Country: "IT"}}, Methods: []Method{
				{InstanceID: 4, Type: FlatRate, Title: "Flat rate", Cost: 15 * unit, Taxable: true},
			}},
		},
		RestOfWorld: Zone{ID: 0, Name: "Locations not covered by your other zones", Methods: []Method{
			{InstanceID: 5, Type: FlatRate, Title: "International", Cost: 25 * unit, Taxable: true},
		}},
		PhoneRequired: true,
		BankAccounts: []payment.BankAccount{{AccountName: "Vitrine Demo Shop", BankName: "Demo Bank",
			AccountNumber: "000123456789", RoutingNumber: "021000021", IBAN: "", BIC: "DEMOUS33"}},
		Terms: &Terms{Title: "Terms and conditions", HTML: "<p>This is a demonstration shop: orders are not " +
			"shipped and no money changes hands.</p><p>By placing an order you agree that the shop may keep the " +
			"details you enter for as long as the demonstration runs.</p>"},
	}
}
