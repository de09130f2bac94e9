package money

import "testing"

func TestFormat(t *testing.T) {
	usd, _ := Lookup("usd")
	jpy, _ := Lookup("JPY")
	cases := []struct {
		c    Currency
		in   int64
		want string
	}{
		{usd, 0, "$0.00"},
		{usd, 5, "$0.05"},
		{usd, 1250, "$12.50"},
		{usd, 123456789, "$1,234,567.89"},
		{usd, -1999, "$-19.99"},
		{jpy, 1500, "¥1,500"},
	}
	for _, tc := range cases {
		if got := tc.c.Format(tc.in); got != tc.want {
			t.Errorf("Format(%d %s) = %q, want %q", tc.in, tc.c.Code, got, tc.want)
		}
	}
}

func TestParse(t *testing.T) {
	cases := []struct {
		in    string
		minor int
		want  int64
		bad   bool
	}{
		{"12.50", 2, 1250, false},
		{"12.5", 2, 1250, false},
		{"12", 2, 1200, false},
		{".99", 2, 99, false},
		{"1,234.00", 2, 123400, false},
		{"12.500", 2, 1250, false},
		{"-3.10", 2, -310, false},
		{"1500", 0, 1500, false},
		{"12.505", 2, 0, true},
		{"abc", 2, 0, true},
		{"", 2, 0, true},
		{"1e5", 2, 0, true},
		{"99999999999999999999", 2, 0, true},
	}
	for _, tc := range cases {
		got, err := Parse(tc.in, tc.minor)
		if tc.bad {
			if err == nil {
				t.Errorf("Parse(%q) = %d, want error", tc.in, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Parse(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}

func TestAffixesAndPosition(t *testing.T) {
	eur, _ := Lookup("EUR")
	cases := []struct {
		pos, want string
	}{
		{PosLeft, "€1.234,50"},
		{PosRight, "1.234,50€"},
		{PosLeftSpace, "€ 1.234,50"},
		{PosRightSpace, "1.234,50 €"},
	}
	for _, tc := range cases {
		c := eur.WithFormat("€", tc.pos, ".", ",")
		if got := c.Format(123450); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.pos, got, tc.want)
		}
		if got := c.Position(); got != tc.pos {
			t.Errorf("Position() = %q, want %q", got, tc.pos)
		}
	}
	if _, _, ok := Affixes("€", "middle"); ok {
		t.Error("an unknown position was accepted")
	}
	kwd, ok := Lookup("kwd")
	if !ok || kwd.MinorUnit != 3 || kwd.Format(1234567) != "د.ك1,234.567" {
		t.Errorf("KWD: %+v %q", kwd, kwd.Format(1234567))
	}
}
