package checkout

import (
	"encoding/json"
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"

	"vitrine/internal/money"
)

func usd() money.Currency { c, _ := money.Lookup("USD"); return c }
func jpy() money.Currency { c, _ := money.Lookup("JPY"); return c }

func validBilling() Address {
	return Address{FirstName: "Ada", LastName: "Lovelace", Address1: "1 Main St", City: "Springfield",
		State: "CA", Postcode: "90210", Country: "US", Email: "ada@example.com", Phone: "+1 (555) 010-2030"}
}

func TestCheckoutValidateAddress(t *testing.T) {
	rules := AddressRules{PhoneRequired: true}
	cases := []struct {
		name   string
		group  string
		edit   func(a *Address)
		fields []string // expected refused classic field names
		msgs   []string
		check  func(t *testing.T, a Address)
	}{
		{name: "valid", group: "billing", edit: func(a *Address) {}},
		{name: "missing first name", group: "billing", edit: func(a *Address) { a.FirstName = "  " },
			fields: []string{"billing_first_name"}, msgs: []string{"Billing First name is a required field."}},
		{name: "everything missing", group: "billing", edit: func(a *Address) { *a = Address{} },
			fields: []string{"billing_first_name", "billing_last_name", "billing_country", "billing_address_1",
				"billing_city", "billing_state", "billing_postcode", "billing_phone", "billing_email"},
			msgs: []string{"Billing Country / Region is a required field.", "Billing Postcode / ZIP is a required field.",
				"Billing Email address is a required field."}},
		{name: "US labels", group: "billing", edit: func(a *Address) { a.State, a.Postcode = "", "" },
			fields: []string{"billing_state", "billing_postcode"},
			msgs:   []string{"Billing State is a required field.", "Billing ZIP Code is a required field."}},
		{name: "bad zip", group: "billing", edit: func(a *Address) { a.Postcode = "9021" },
			fields: []string{"billing_postcode"}, msgs: []string{"Billing ZIP Code is not a valid postcode / ZIP."}},
		{name: "zip+4", group: "billing", edit: func(a *Address) { a.Postcode = "90210-1234" }},
		{name: "state by name", group: "billing", edit: func(a *Address) { a.State = "california" },
			check: func(t *testing.T, a Address) {
				if a.State != "CA" {
					t.Errorf("state %q", a.State)
				}
			}},
		{name: "bad state", group: "billing", edit: func(a *Address) { a.State = "ZZ" },
			fields: []string{"billing_state"}, msgs: []string{"Billing State is not valid. Please enter one of the following: Alabama, Alaska,"}},
		{name: "unknown country", group: "billing", edit: func(a *Address) { a.Country = "XX" },
			fields: []string{"billing_country"}, msgs: []string{"'XX' is not a valid country code."}},
		{name: "bad email", group: "billing", edit: func(a *Address) { a.Email = "ada@localhost" },
			fields: []string{"billing_email"}, msgs: []string{"Billing Email address is not a valid email address."}},
		{name: "bad phone letters", group: "billing", edit: func(a *Address) { a.Phone = "555-CALL-NOW" },
			fields: []string{"billing_phone"}, msgs: []string{"Billing Phone is not a valid phone number."}},
		{name: "phone too short", group: "billing", edit: func(a *Address) { a.Phone = "12345" },
			fields: []string{"billing_phone"}},
		{name: "phone too long", group: "billing", edit: func(a *Address) { a.Phone = "1234567890123456" },
			fields: []string{"billing_phone"}},
		{name: "GB postcode normalized", group: "billing", edit: func(a *Address) {
			a.Country, a.State, a.Postcode = "GB", "", "sw1a1aa"
		}, check: func(t *testing.T, a Address) {
			if a.Postcode != "SW1A 1AA" {
				t.Errorf("postcode %q", a.Postcode)
			}
		}},
		{name: "GB bad postcode", group: "billing", edit: func(a *Address) { a.Country, a.State, a.Postcode = "GB", "", "12345" },
			fields: []string{"billing_postcode"}, msgs: []string{"Billing Postcode is not a valid postcode / ZIP."}},
		{name: "CA province label", group: "billing", edit: func(a *Address) { a.Country, a.State, a.Postcode = "CA", "", "K1A0B1" },
			fields: []string{"billing_state"}, msgs: []string{"Billing Province is a required field."}},
		{name: "CA postal code", group: "billing", edit: func(a *Address) { a.Country, a.State, a.Postcode = "CA", "ON", "K1A 0D1" },
			fields: []string{"billing_postcode"}, msgs: []string{"Billing Postal code is not a valid postcode / ZIP."}},
		{name: "DE hides the state", group: "billing", edit: func(a *Address) { a.Country, a.State, a.Postcode = "DE", "BE", "10115" },
			check: func(t *testing.T, a Address) {
				if a.State != "" {
					t.Errorf("hidden state kept: %q", a.State)
				}
			}},
		{name: "shipping has no email, phone optional", group: "shipping", edit: func(a *Address) { a.Email, a.Phone = "x", "" },
			check: func(t *testing.T, a Address) {
				if a.Email != "" {
					t.Errorf("shipping email kept")
				}
			}},
		{name: "shipping label", group: "shipping", edit: func(a *Address) { a.City = "" },
			fields: []string{"shipping_city"}, msgs: []string{"Shipping Town / City is a required field."}},
		{name: "control characters", group: "billing", edit: func(a *Address) { a.FirstName = "A\x00d\na" },
			check: func(t *testing.T, a Address) {
				if a.FirstName != "A d a" {
					t.Errorf("first name %q", a.FirstName)
				}
			}},
		{name: "too long", group: "billing", edit: func(a *Address) { a.City = strings.Repeat("x", 101) },
			fields: []string{"billing_city"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := validBilling()
			tc.edit(&a)
			errs := ValidateAddress(tc.group, &a, rules)
			var got []string
			all := ""
			for _, e := range errs {
				got = append(got, e.Field)
				all += e.Message + "\n"
			}
			if strings.Join(got, ",") != strings.Join(tc.fields, ",") {
				t.Fatalf("fields %v, want %v (%s)", got, tc.fields, all)
			}
			for _, m := range tc.msgs {
				if !strings.Contains(all, m) {
					t.Errorf("messages lack %q:\n%s", m, all)
				}
			}
			if tc.check != nil {
				tc.check(t, a)
			}
		})
	}
}

func TestCheckoutAllowedCountries(t *testing.T) {
	a := validBilling()
	a.Country, a.State, a.Postcode = "FR", "", "75001"
	if errs := ValidateAddress("billing", &a, AddressRules{Allowed: []string{"US"}}); len(errs) != 1 || errs[0].Code != "invalid_country" {
		t.Fatalf("FR allowed by a US-only shop: %v", errs)
	}
}

func TestCheckoutEmailAndPhone(t *testing.T) {
	for _, e := range []struct {
		s  string
		ok bool
	}{{"a@b.co", true}, {"a@b.c", false}, {"ab@cd", false}, {"first.last+tag@sub.example.org", true},
		{"a..b@example.com", false}, {".a@example.com", false}, {"a@-example.com", false}, {"a@ex_ample.com", false},
		{"a b@example.com", false}, {"a@@example.com", false}, {"<a>@example.com", false}} {
		if ValidEmail(e.s) != e.ok {
			t.Errorf("ValidEmail(%q) = %v", e.s, !e.ok)
		}
	}
	for _, p := range []struct {
		s  string
		ok bool
	}{{"123456", true}, {"12345", false}, {"+44 (0)20 7946.0958", true}, {"123456789012345", true},
		{"1234567890123456", false}, {"555-0100x", false}, {"١٢٣٤٥٦", false}} {
		if ValidPhone(p.s) != p.ok {
			t.Errorf("ValidPhone(%q) = %v", p.s, !p.ok)
		}
	}
}

func TestCheckoutQuoteDefaults(t *testing.T) {
	cfg := DefaultConfig(usd())
	items := []Item{{Key: "a", Quantity: 2, UnitPrice: 2200, Taxable: true}, {Key: "b", Quantity: 1, UnitPrice: 999, Taxable: true}}
	cases := []struct {
		name                                string
		cust                                Customer
		items                               []Item
		rates                               []string
		selected                            string
		items_, itemsTax, ship, shipTax, tt int64
		taxLines                            []string
	}{
		{name: "no address: shop's country, no state tax", items: items,
			rates: []string{"flat_rate:1", "local_pickup:3"}, selected: "flat_rate:1",
			items_: 5399, ship: 500, tt: 5899},
		{name: "California tax on items and shipping", items: items,
			cust:  Customer{Shipping: Address{Country: "US", State: "CA"}},
			rates: []string{"flat_rate:1", "local_pickup:3"}, selected: "flat_rate:1",
			// 4400 × 7.25 % = 319, 999 × 7.25 % = 72.4275 → 72; shipping 500 → 36.25 → 36
			items_: 5399, itemsTax: 391, ship: 500, shipTax: 36, tt: 6326, taxLines: []string{"CA Tax 7.25% 427"}},
		{name: "local pickup taxed at the shop", items: items,
			cust:  Customer{Shipping: Address{Country: "US", State: "NY"}, RateID: "local_pickup:3"},
			rates: []string{"flat_rate:1", "local_pickup:3"}, selected: "local_pickup:3",
			items_: 5399, itemsTax: 391, tt: 5790, taxLines: []string{"CA Tax 7.25% 391"}},
		{name: "free shipping from 100", items: []Item{{Key: "a", Quantity: 5, UnitPrice: 2000, Taxable: true}},
			cust:  Customer{Shipping: Address{Country: "US", State: "TX"}, RateID: "free_shipping:2"},
			rates: []string{"free_shipping:2", "flat_rate:1", "local_pickup:3"}, selected: "free_shipping:2",
			items_: 10000, tt: 10000},
		{name: "free shipping is the default once the cart qualifies", items: []Item{{Key: "a", Quantity: 5, UnitPrice: 2000, Taxable: true}},
			cust:  Customer{Shipping: Address{Country: "US", State: "TX"}},
			rates: []string{"free_shipping:2", "flat_rate:1", "local_pickup:3"}, selected: "free_shipping:2",
			items_: 10000, tt: 10000},
		{name: "a chosen flat rate stays chosen above the free-shipping amount", items: []Item{{Key: "a", Quantity: 5, UnitPrice: 2000, Taxable: true}},
			cust:  Customer{Shipping: Address{Country: "US", State: "TX"}, RateID: "flat_rate:1"},
			rates: []string{"free_shipping:2", "flat_rate:1", "local_pickup:3"}, selected: "flat_rate:1",
			items_: 10000, ship: 500, tt: 10500},
		{name: "unknown rate falls back to the first", items: items,
			cust:  Customer{Shipping: Address{Country: "US", State: "TX"}, RateID: "free_shipping:2"},
			rates: []string{"flat_rate:1", "local_pickup:3"}, selected: "flat_rate:1", items_: 5399, ship: 500, tt: 5899},
		{name: "Germany VAT", items: items, cust: Customer{Billing: Address{Country: "DE"}},
			rates: []string{"flat_rate:4"}, selected: "flat_rate:4",
			// 4400 × 19 % = 836, 999 × 19 % = 189.81 → 190, shipping 1500 → 285
			items_: 5399, itemsTax: 1026, ship: 1500, shipTax: 285, tt: 8210, taxLines: []string{"MwSt. 19% 1311"}},
		{name: "rest of the world", items: items, cust: Customer{Shipping: Address{Country: "JP"}},
			rates: []string{"flat_rate:5"}, selected: "flat_rate:5", items_: 5399, ship: 2500, tt: 7899},
		{name: "untaxed product", items: []Item{{Key: "a", Quantity: 1, UnitPrice: 1000, Taxable: false}},
			cust: Customer{Shipping: Address{Country: "GB"}}, rates: []string{"flat_rate:4"}, selected: "flat_rate:4",
			items_: 1000, ship: 1500, shipTax: 300, tt: 2800, taxLines: []string{"VAT 20% 300"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q, err := Quote(tc.items, tc.cust, &cfg)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, r := range q.Packages[0].Rates {
				ids = append(ids, r.ID)
			}
			if strings.Join(ids, ",") != strings.Join(tc.rates, ",") || q.Selected == nil || q.Selected.ID != tc.selected {
				t.Fatalf("rates %v selected %+v", ids, q.Selected)
			}
			if q.ItemsSubtotal != tc.items_ || q.ItemsTax != tc.itemsTax || q.Shipping != tc.ship || q.ShippingTax != tc.shipTax || q.Total != tc.tt {
				t.Errorf("items %d tax %d ship %d shiptax %d total %d", q.ItemsSubtotal, q.ItemsTax, q.Shipping, q.ShippingTax, q.Total)
			}
			var tls []string
			for _, tl := range q.TaxLines {
				tls = append(tls, tl.Label+" "+tl.Rate+" "+itoa(tl.Amount()))
			}
			if strings.Join(tls, "|") != strings.Join(tc.taxLines, "|") {
				t.Errorf("tax lines %v, want %v", tls, tc.taxLines)
			}
		})
	}
}

func TestCheckoutQuoteIncludingTax(t *testing.T) {
	cfg := DefaultConfig(usd())
	cfg.PricesIncludeTax = true
	// 1200 gross at 20 %: tax 200, net 1000; the gross never moves.
	q, err := Quote([]Item{{Key: "a", Quantity: 1, UnitPrice: 1200, Taxable: true}, {Key: "b", Quantity: 3, UnitPrice: 333, Taxable: true}},
		Customer{Shipping: Address{Country: "GB"}}, &cfg)
	if err != nil {
		t.Fatal(err)
	}
	if q.Lines[0].Subtotal != 1000 || q.Lines[0].SubtotalTax != 200 {
		t.Errorf("line 0 %+v", q.Lines[0])
	}
	// 999 gross: tax 999/6 = 166.5 → 167, net 832.
	if q.Lines[1].Subtotal != 832 || q.Lines[1].SubtotalTax != 167 {
		t.Errorf("line 1 %+v", q.Lines[1])
	}
	if q.ItemsSubtotal+q.ItemsTax != 1200+999 || q.Total != 2199+1500+300 {
		t.Errorf("total %d", q.Total)
	}
}

func TestCheckoutQuoteLimits(t *testing.T) {
	cfg := DefaultConfig(usd())
	for _, it := range []Item{{Quantity: 0, UnitPrice: 1}, {Quantity: 10000, UnitPrice: 1}, {Quantity: 1, UnitPrice: -1},
		{Quantity: 2, UnitPrice: 1 << 62}} {
		if _, err := Quote([]Item{it}, Customer{}, &cfg); err != ErrLimits {
			t.Errorf("%+v accepted: %v", it, err)
		}
	}
	// The largest allowed line is exact.
	q, err := Quote([]Item{{Quantity: MaxQuantity, UnitPrice: MaxUnitPrice, Taxable: true}}, Customer{Shipping: Address{Country: "NL"}}, &cfg)
	if err != nil || q.ItemsTax != MaxQuantity*MaxUnitPrice/100*21 {
		t.Fatalf("max line: %v %d", err, q.ItemsTax)
	}
}

// TestQuoteProperty: over many random carts, addresses and settings, in a
// 2-decimal and a 0-decimal currency, the parts always sum to the total to
// the minor unit, taxes are never negative, the tax lines sum to the total
// tax, and with prices entered including tax the items' gross is unchanged.
func TestCheckoutQuoteProperty(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 2000
	}
	countries := []Address{{}, {Country: "US", State: "CA"}, {Country: "US", State: "NY"}, {Country: "US", State: "TX"},
		{Country: "DE"}, {Country: "FR"}, {Country: "GB"}, {Country: "NL"}, {Country: "JP"}, {Country: "AU", State: "NSW"}}
	rateIDs := []string{"", "flat_rate:1", "free_shipping:2", "local_pickup:3", "flat_rate:4", "flat_rate:5", "bogus"}
	for _, cur := range []money.Currency{usd(), jpy()} {
		rng := rand.New(rand.NewPCG(1, uint64(cur.MinorUnit)))
		for i := 0; i < n; i++ {
			cfg := DefaultConfig(cur)
			cfg.PricesIncludeTax = rng.IntN(2) == 0
			if rng.IntN(4) == 0 { // a stacked second-priority rate
				cfg.TaxRates = append(cfg.TaxRates, TaxRate{ID: 9, Country: "US", Rate: rng.Int64N(15000) + 1, Label: "Extra", Priority: 1, Shipping: rng.IntN(2) == 0})
			}
			items := make([]Item, rng.IntN(8)+1)
			var gross int64
			for j := range items {
				price := rng.Int64N(500000) + 1
				if rng.IntN(20) == 0 {
					price = rng.Int64N(MaxUnitPrice) + 1
				}
				items[j] = Item{Key: itoa(int64(j)), Quantity: rng.Int64N(20) + 1, UnitPrice: price, Taxable: rng.IntN(5) != 0}
				gross += items[j].UnitPrice * items[j].Quantity
			}
			cust := Customer{Shipping: countries[rng.IntN(len(countries))], RateID: rateIDs[rng.IntN(len(rateIDs))]}
			q, err := Quote(items, cust, &cfg)
			if err != nil {
				t.Fatal(err)
			}
			var sum, sumTax, lineTax int64
			for _, l := range q.Lines {
				if l.SubtotalTax < 0 || l.Subtotal < 0 {
					t.Fatalf("negative line %+v", l)
				}
				sum += l.Subtotal + l.SubtotalTax
				lineTax += l.SubtotalTax
			}
			for _, tl := range q.TaxLines {
				sumTax += tl.Amount()
			}
			if sum+q.Shipping+q.ShippingTax != q.Total || lineTax != q.ItemsTax || sumTax != q.TotalTax ||
				q.ItemsTax+q.ShippingTax != q.TotalTax {
				t.Fatalf("%s cart %d: lines %d + shipping %d + %d != total %d (taxes %d/%d/%d)",
					cur.Code, i, sum, q.Shipping, q.ShippingTax, q.Total, lineTax, sumTax, q.TotalTax)
			}
			if cfg.PricesIncludeTax && q.ItemsSubtotal+q.ItemsTax != gross {
				t.Fatalf("gross changed: %d != %d", q.ItemsSubtotal+q.ItemsTax, gross)
			}
			if !cfg.PricesIncludeTax && q.ItemsSubtotal != gross {
				t.Fatalf("net changed: %d != %d", q.ItemsSubtotal, gross)
			}
		}
	}
}

func TestCheckoutRatePercent(t *testing.T) {
	for r, want := range map[int64]string{7250: "7.25%", 20000: "20%", 4000: "4%", 1: "0.001%", 12500: "12.5%"} {
		if got := RatePercent(r); got != want {
			t.Errorf("RatePercent(%d) = %q, want %q", r, got, want)
		}
	}
}

func TestCheckoutTransitions(t *testing.T) {
	allowed := [][2]string{{"pending", "processing"}, {"pending", "on-hold"}, {"on-hold", "processing"},
		{"processing", "completed"}, {"completed", "refunded"}, {"failed", "pending"}, {"cancelled", "processing"},
		{"checkout-draft", "pending"}, {"processing", "processing"}}
	refused := [][2]string{{"processing", "pending"}, {"completed", "pending"}, {"completed", "on-hold"},
		{"refunded", "processing"}, {"processing", "on-hold"}, {"completed", "processing"}, {"pending", "checkout-draft"},
		{"pending", "nonsense"}, {"nonsense", "nonsense"}}
	for _, p := range allowed {
		if !CanTransition(p[0], p[1]) {
			t.Errorf("%s → %s refused", p[0], p[1])
		}
	}
	for _, p := range refused {
		if CanTransition(p[0], p[1]) {
			t.Errorf("%s → %s allowed", p[0], p[1])
		}
	}
	if !CanMovePayment(PayNone, PayWalletOrderCreated) || !CanMovePayment(PayCaptureRequested, PayPaid) ||
		CanMovePayment(PayPaid, PayCaptureRequested) || CanMovePayment(PayCaptureRequested, PayApproved) || CanMovePayment(PayPaid, PayPaid) {
		t.Error("payment state machine")
	}
}

func TestCheckoutOrderKey(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		k := NewOrderKey()
		if len(k) != len("wc_order_")+13 || !strings.HasPrefix(k, "wc_order_") || strings.Trim(k[9:], keyChars) != "" || seen[k] {
			t.Fatalf("key %q", k)
		}
		seen[k] = true
	}
}

func TestCheckoutAttribution(t *testing.T) {
	form := url.Values{}
	form.Set("wc_order_attribution_source_type", "utm")
	form.Set("wc_order_attribution_utm_source", "newsletter")
	form.Set("wc_order_attribution_referrer", "https://example.com/<script>x</script>?a=1\r\nInjected: yes")
	form.Set("wc_order_attribution_session_pages", "3")
	form.Set("wc_order_attribution_user_agent", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148")
	form.Set("wc_order_attribution_utm_term", strings.Repeat("x", 1000))
	form.Set("wc_order_attribution_unknown", "dropped")
	f := AttributionFromForm(form)
	if f["referrer"] != "https://example.com/x?a=1 Injected: yes" || f["session_pages"] != "3" || len(f["utm_term"]) != 255 || f["unknown"] != "" {
		t.Errorf("fields %v", f)
	}
	m := AttributionMeta(f)
	if m["_wc_order_attribution_origin"] != "Source: Newsletter" || m["_wc_order_attribution_device_type"] != "Mobile" ||
		m["_wc_order_attribution_source_type"] != "utm" {
		t.Errorf("meta %v", m)
	}
	ext := AttributionFromExtension(json.RawMessage(`{"source_type":"organic","utm_source":"google","session_count":2,"user_agent":"Mozilla/5.0 (iPad; CPU OS 17_0)"}`))
	m = AttributionMeta(ext)
	if m["_wc_order_attribution_origin"] != "Organic: Google" || m["_wc_order_attribution_session_count"] != "2" ||
		m["_wc_order_attribution_device_type"] != "Tablet" {
		t.Errorf("extension meta %v", m)
	}
	if len(AttributionMeta(map[string]string{"referrer": "x"})) != 0 {
		t.Error("attribution recorded without a source type")
	}
	if len(AttributionFromExtension(json.RawMessage(`[1,2]`))) != 0 {
		t.Error("a non-object extension was read")
	}
	for ua, want := range map[string]string{"": "Unknown", "Mozilla/5.0 (Windows NT 10.0; Win64; x64)": "Desktop",
		"Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile Safari": "Mobile", "Mozilla/5.0 (Linux; Android 13; SM-X200)": "Tablet"} {
		if got := DeviceType(ua); got != want {
			t.Errorf("DeviceType(%q) = %q, want %q", ua, got, want)
		}
	}
	if Origin("typein", "(direct)") != "Direct" || Origin("referral", "example.com") != "Referral: Example.com" || Origin("", "") != "Unknown" {
		t.Error("origin labels")
	}
}

func TestCheckoutCountries(t *testing.T) {
	for _, code := range []string{"US", "CA", "GB", "DE", "FR", "NL", "ES", "IT", "AU", "JP"} {
		if _, ok := LookupCountry(code); !ok {
			t.Errorf("no %s", code)
		}
	}
	us, _ := LookupCountry("us")
	if us.FieldRule("postcode").Label != "ZIP Code" || us.FieldRule("city").Label != "Town / City" || len(us.States) < 50 {
		t.Error("US rules")
	}
	list := Countries()
	for i := 1; i < len(list); i++ {
		if list[i-1].Name > list[i].Name {
			t.Fatal("countries not sorted by name")
		}
	}
	for in, want := range map[[2]string]string{{"NL", "1234ab"}: "1234 AB", {"JP", "1000001"}: "100-0001", {"US", "  90210 "}: "90210"} {
		if got := NormalizePostcode(in[0], in[1]); got != want {
			t.Errorf("NormalizePostcode(%v) = %q", in, got)
		}
	}
	if ValidPostcode("NL", "1234 SA") || !ValidPostcode("NL", "1234 AB") || ValidPostcode("DE", "00123") || !ValidPostcode("XX", "anything") {
		t.Error("postcode formats")
	}
}
