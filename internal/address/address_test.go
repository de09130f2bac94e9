package address_test

import (
	"slices"
	"strings"
	"testing"

	"vitrine/internal/address"
	"vitrine/internal/cart"
)

func full(country, state, city, postcode string) cart.Address {
	return cart.Address{FirstName: "Jane", LastName: "Doe", Company: "Acme", Address1: "1 Main St", Address2: "Suite 5",
		City: city, State: state, Postcode: postcode, Country: country, Email: "jane@example.com", Phone: "555"}
}

// Each main country's layout, with the shop in another country (so the
// country's name is written).
func TestFormatByCountry(t *testing.T) {
	cases := []struct {
		name string
		a    cart.Address
		want []string
	}{
		{"US: city, state code ZIP", full("US", "TX", "Austin", "73301"),
			[]string{"Jane Doe", "Acme", "1 Main St", "Suite 5", "Austin, TX 73301", "United States (US)"}},
		{"US state given by name", full("US", "oregon", "Portland", "97201"),
			[]string{"Jane Doe", "Acme", "1 Main St", "Suite 5", "Portland, OR 97201", "United States (US)"}},
		{"GB: the default layout, county by name", full("GB", "Greater London", "London", "SW1A 1AA"),
			[]string{"Jane Doe", "Acme", "1 Main St", "Suite 5", "London", "Greater London", "SW1A 1AA", "United Kingdom (UK)"}},
		{"CA: company first, province code", full("CA", "QC", "Montréal", "H2X 1Y4"),
			[]string{"Acme", "Jane Doe", "1 Main St", "Suite 5", "Montréal QC H2X 1Y4", "Canada"}},
		{"AU: state by name", full("AU", "NSW", "Sydney", "2000"),
			[]string{"Jane Doe", "Acme", "1 Main St", "Suite 5", "Sydney New South Wales 2000", "Australia"}},
		{"DE: postcode before city", full("DE", "", "Berlin", "10115"),
			[]string{"Acme", "Jane Doe", "1 Main St", "Suite 5", "10115 Berlin", "Germany"}},
		{"FR: postcode then the city in capitals", full("FR", "", "Paris", "75002"),
			[]string{"Acme", "Jane Doe", "1 Main St", "Suite 5", "75002 PARIS", "France"}},
		{"IT: province in capitals", full("IT", "Roma", "Roma", "00184"),
			[]string{"Acme", "Jane Doe", "1 Main St", "Suite 5", "00184", "Roma", "ROMA", "Italy"}},
		{"ES: province after the city", full("ES", "Madrid", "Madrid", "28013"),
			[]string{"Jane Doe", "Acme", "1 Main St", "Suite 5", "28013 Madrid", "Madrid", "Spain"}},
		{"NL", full("NL", "", "Amsterdam", "1012 AB"),
			[]string{"Acme", "Jane Doe", "1 Main St", "Suite 5", "1012 AB Amsterdam", "Netherlands"}},
		{"JP: postcode first, family name first", full("JP", "Tokyo", "Chiyoda", "100-0001"),
			[]string{"100-0001", "Tokyo Chiyoda 1 Main St", "Suite 5", "Acme", "Doe Jane", "Japan"}},
		{"CN: country first, name last", full("CN", "Beijing", "Beijing", "100000"),
			[]string{"CN 100000", "Beijing, Beijing, Suite 5, 1 Main St", "Acme", "Jane Doe"}},
		{"IN: state and country on one line", full("IN", "Karnataka", "Bengaluru", "560001"),
			[]string{"Acme", "Jane Doe", "1 Main St", "Suite 5", "Bengaluru 560001", "Karnataka, IN"}},
		{"BR: the default layout", full("BR", "SP", "São Paulo", "01000-000"),
			[]string{"Jane Doe", "Acme", "1 Main St", "Suite 5", "São Paulo", "SP", "01000-000", "BR"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := address.Format(c.a, "ZZ"); !slices.Equal(got, c.want) {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

// The shop's own country is left out (case-insensitively); without a base
// country it is always written.
func TestFormatOmitsShopCountry(t *testing.T) {
	a := full("US", "OR", "Portland", "97201")
	want := []string{"Jane Doe", "Acme", "1 Main St", "Suite 5", "Portland, OR 97201"}
	if got := address.Format(a, "US"); !slices.Equal(got, want) {
		t.Errorf("base US: %q", got)
	}
	if got := address.Format(a, " us "); !slices.Equal(got, want) {
		t.Errorf("base us: %q", got)
	}
	if got := address.Format(a, ""); got[len(got)-1] != "United States (US)" {
		t.Errorf("no base: %q", got)
	}
	fr := full("FR", "", "Paris", "75002")
	if got := address.Format(fr, "FR"); got[len(got)-1] != "75002 PARIS" {
		t.Errorf("base FR: %q", got)
	}
}

// Missing parts leave no empty line, no doubled space and no dangling
// comma; an unknown country uses the default layout with its code; a part
// with line breaks or control characters stays one line; nothing is
// escaped (the renderers escape).
func TestFormatEdgeCases(t *testing.T) {
	cases := []struct {
		name string
		a    cart.Address
		want []string
	}{
		{"US without a state", cart.Address{FirstName: "New", LastName: "Comer", Address1: "1 Main St", City: "Austin", Postcode: "73301", Country: "US"},
			[]string{"New Comer", "1 Main St", "Austin, 73301", "United States (US)"}},
		{"US without a city", cart.Address{Address1: "1 Main St", State: "TX", Postcode: "73301", Country: "US"},
			[]string{"1 Main St", "TX 73301", "United States (US)"}},
		{"FR without a company or second line", cart.Address{FirstName: "Jean", LastName: "Dupont", Address1: "2 rue de la Paix", City: "Paris", Postcode: "75002", Country: "FR"},
			[]string{"Jean Dupont", "2 rue de la Paix", "75002 PARIS", "France"}},
		{"first name only", cart.Address{FirstName: "Cher", City: "Berlin", Postcode: "10115", Country: "DE"},
			[]string{"Cher", "10115 Berlin", "Germany"}},
		{"CN without the second line", cart.Address{FirstName: "Li", LastName: "Wei", Address1: "1 Road", City: "Beijing", State: "Beijing", Country: "CN"},
			[]string{"CN", "Beijing, Beijing, 1 Road", "Li Wei"}},
		{"IN without a state", cart.Address{FirstName: "A", LastName: "B", Address1: "1 Road", City: "Pune", Country: "IN"},
			[]string{"A B", "1 Road", "Pune", "IN"}},
		{"unknown country, lower case", cart.Address{FirstName: "Ann", LastName: "Lee", Address1: "9 Rd", City: "Town", Postcode: "123", Country: "xq"},
			[]string{"Ann Lee", "9 Rd", "Town", "123", "XQ"}},
		{"no country", cart.Address{FirstName: "Ann", Address1: "9 Rd", City: "Town"},
			[]string{"Ann", "9 Rd", "Town"}},
		{"state not listed kept as given", cart.Address{City: "Austin", State: "Tejas", Postcode: "73301", Country: "US"},
			[]string{"Austin, TEJAS 73301", "United States (US)"}},
		{"line breaks and spaces inside parts", cart.Address{FirstName: " Ann\r\n", LastName: "Lee\t", Address1: "9  Rd\nBack door", City: "Town\u2028X", Country: "GB"},
			[]string{"Ann Lee", "9 Rd Back door", "Town X", "United Kingdom (UK)"}},
		{"markup stays text", cart.Address{FirstName: "<b>Ann</b>", Address1: "1 & 2 Rd", Country: "GB"},
			[]string{"<b>Ann</b>", "1 & 2 Rd", "United Kingdom (UK)"}},
		{"empty", cart.Address{}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := address.Format(c.a, "ZZ")
			if !slices.Equal(got, c.want) {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
			for _, l := range got {
				if l == "" || strings.Contains(l, "  ") || strings.ContainsAny(l, "\n\r\t") || strings.HasPrefix(l, ",") || strings.HasSuffix(l, ",") {
					t.Errorf("bad line %q", l)
				}
			}
		})
	}
}

func TestBlank(t *testing.T) {
	if !address.Blank(cart.Address{Country: "US", State: "CA"}) {
		t.Error("a country alone is not blank")
	}
	if !address.Blank(cart.Address{}) {
		t.Error("empty is not blank")
	}
	for _, a := range []cart.Address{{FirstName: "A"}, {Address1: "1 Rd"}, {City: "Paris"}, {Company: "Acme"}} {
		if address.Blank(a) {
			t.Errorf("%+v is blank", a)
		}
	}
}
