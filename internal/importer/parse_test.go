package importer

import (
	"encoding/binary"
	"reflect"
	"strings"
	"testing"
	"time"

	"vitrine/internal/catalog"
)

func TestSplitList(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"a", []string{"a"}},
		{"a, b,c ,, ", []string{"a", "b", "c"}},
		{`Cotton\, organic, Linen`, []string{"Cotton, organic", "Linen"}},
		{`a\b, c`, []string{`a\b`, "c"}},
		{`trailing\`, []string{`trailing\`}},
	}
	for _, tc := range cases {
		if got := splitList(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("splitList(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCategoryPaths(t *testing.T) {
	got := categoryPaths(`Clothing > Hoodies, Sale, Home > Kitchen > Mugs\, cups, > , A >> B`)
	want := [][]string{{"Clothing", "Hoodies"}, {"Sale"}, {"Home", "Kitchen", "Mugs, cups"}, {"A", "B"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("categoryPaths = %q, want %q", got, want)
	}
}

func TestParseBool(t *testing.T) {
	for _, s := range []string{"1", "yes", "YES", "true", "True"} {
		if b, err := parseBool(s); !b || err != nil {
			t.Errorf("parseBool(%q) = %v, %v; want true", s, b, err)
		}
	}
	for _, s := range []string{"", "0", "no", "false", "FALSE"} {
		if b, err := parseBool(s); b || err != nil {
			t.Errorf("parseBool(%q) = %v, %v; want false", s, b, err)
		}
	}
	if _, err := parseBool("maybe"); err == nil {
		t.Error("parseBool(maybe): no error")
	}
}

func TestParseDate(t *testing.T) {
	cases := []struct {
		in       string
		want     time.Time
		dateOnly bool
	}{
		{"2026-01-31", time.Date(2026, 1, 31, 0, 0, 0, 0, time.UTC), true},
		{"2026-01-31 23:59:59", time.Date(2026, 1, 31, 23, 59, 59, 0, time.UTC), false},
		{"2026-01-31 0:00:00", time.Date(2026, 1, 31, 0, 0, 0, 0, time.UTC), false}, // WooCommerce's "G" hour
		{"2026-01-31T10:00:00+02:00", time.Date(2026, 1, 31, 8, 0, 0, 0, time.UTC), false},
	}
	for _, tc := range cases {
		got, dateOnly, err := parseDate(tc.in)
		if err != nil || !got.Equal(tc.want) || dateOnly != tc.dateOnly || got.Location() != time.UTC {
			t.Errorf("parseDate(%q) = %v, %v, %v; want %v, %v", tc.in, got, dateOnly, err, tc.want, tc.dateOnly)
		}
	}
	if _, _, err := parseDate("31/01/2026"); err == nil {
		t.Error("parseDate(31/01/2026): no error")
	}
}

func TestParsePrice(t *testing.T) {
	cases := []struct {
		in      string
		want    int64
		wantErr string
	}{
		{"19.99", 1999, ""},
		{"15", 1500, ""},
		{"12,50", 1250, ""}, // decimal comma, as the exporter writes it for such shops
		{"1,234.50", 123450, ""},
		{"12,5x", 0, `"12,5x" is not a number`},
		{"abc", 0, `"abc" is not a number`},
		{"1.2.3", 0, `"1.2.3" is not a number`},
		{"12.345", 0, `"12.345" has more than 2 decimals`},
		{"-5", 0, `"-5" is negative`},
	}
	for _, tc := range cases {
		got, err := parsePrice(tc.in, 2)
		switch {
		case tc.wantErr == "" && (err != nil || got != tc.want):
			t.Errorf("parsePrice(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		case tc.wantErr != "" && (err == nil || err.Error() != tc.wantErr):
			t.Errorf("parsePrice(%q) error = %v; want %q", tc.in, err, tc.wantErr)
		}
	}
}

func TestUnescapeAndDescription(t *testing.T) {
	for in, want := range map[string]string{"'-1": "-1", "'=SUM(A1)": "=SUM(A1)", "'quoted'": "'quoted'", "'": "'"} {
		if got := unescape(in); got != want {
			t.Errorf("unescape(%q) = %q, want %q", in, got, want)
		}
	}
	if got, want := description(`line one\nline two \\n stays`), "line one\nline two \\n stays"; got != want {
		t.Errorf("description = %q, want %q", got, want)
	}
}

func TestParseRef(t *testing.T) {
	refs, err := parseRefs("MUG-1, id:10, ID: 7")
	want := []ref{{SKU: "MUG-1"}, {ID: 10}, {ID: 7}}
	if err != nil || !reflect.DeepEqual(refs, want) {
		t.Errorf("parseRefs = %v, %v; want %v", refs, err, want)
	}
	if _, err := parseRef("id:x"); err == nil {
		t.Error("parseRef(id:x): no error")
	}
}

func TestReadHeader(t *testing.T) {
	h, err := readHeader([]string{"\uFEFFid", "TYPE", "Name", "Weight (lbs)", "Attribute 2 Name", "Attribute 2 Value(s)", "Attribute 1 name", "Meta: _Custom Key"})
	if err != nil {
		t.Fatal(err)
	}
	if !h.has("id") || !h.has("type") || h.dims["weight"] != 3 {
		t.Errorf("header columns = %v, dims = %v", h.cols, h.dims)
	}
	if len(h.attrs) != 2 || h.attrs[0].n != 1 || h.attrs[1].n != 2 || h.attrs[1].value != 5 {
		t.Errorf("attrs = %+v", h.attrs)
	}
	if len(h.meta) != 1 || h.meta[0].key != "_Custom Key" {
		t.Errorf("meta = %+v", h.meta)
	}
	if _, err := readHeader([]string{"SKU", "Name"}); err == nil || !strings.Contains(err.Error(), "Type") {
		t.Errorf("missing Type column: err = %v", err)
	}
}

func TestParseRecord(t *testing.T) {
	titles := []string{"Type", "SKU", "Name", "Published", "In stock?", "Stock", "Backorders allowed?", "Regular price",
		"Date sale price ends", "Parent", "Attribute 1 name", "Attribute 1 value(s)", "Attribute 1 global", "Meta: _pre_order_date", "Meta: _step"}
	h, err := readHeader(titles)
	if err != nil {
		t.Fatal(err)
	}
	row := func(vals ...string) []string { return vals }

	rc, err := parseRecord(h, row("variation, virtual", "V-1", "", "0", "0", "'-2", "notify", "9.50", "2026-01-31", "P-1", "Colour", `Navy\, dark`, "1", "2026-03-01T10:00:00Z", "3"), 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	p := rc.product
	if p.Type != catalog.TypeVariation || !rc.virtual || p.Status != catalog.StatusPrivate || p.Visible {
		t.Errorf("type/status: %+v virtual=%v", p, rc.virtual)
	}
	if !p.ManageStock || *p.StockQuantity != -2 || p.StockStatus != catalog.StockOutOfStock || p.Backorders != catalog.BackordersNotify {
		t.Errorf("stock: manage=%v qty=%v status=%q backorders=%q", p.ManageStock, p.StockQuantity, p.StockStatus, p.Backorders)
	}
	if *p.RegularPrice != 950 || !p.SaleTo.Equal(time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("price %d, sale to %v", *p.RegularPrice, p.SaleTo)
	}
	if rc.parent == nil || rc.parent.SKU != "P-1" || len(rc.attrs) != 1 || rc.attrs[0].values[0] != "Navy, dark" || !rc.attrs[0].global {
		t.Errorf("parent %v attrs %+v", rc.parent, rc.attrs)
	}
	if p.PreOrderAt == nil || !p.PreOrderAt.Equal(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)) || p.Step != 3 || p.Meta["_step"] != "3" || p.Meta["_virtual"] != "yes" {
		t.Errorf("meta: at=%v step=%d meta=%v", p.PreOrderAt, p.Step, p.Meta)
	}

	bad := []struct {
		vals   []string
		reason string
	}{
		{row("simple", "S", "Shirt", "1", "", "", "", "12,5x"), `regular price "12,5x" is not a number`},
		{row("bundle", "S", "Shirt"), `unknown product type "bundle"`},
		{row("simple", "S", ""), "name is empty"},
		{row("variation", "S", ""), "variation has no Parent"},
		{row("simple", "S", "Shirt", "5"), `published "5" is not 1`},
		{row("simple", "S", "Shirt", "1", "maybe"), `in stock? "maybe"`},
		{row("simple", "S", "Shirt", "1", "1", "lots"), `stock "lots" is not a whole number`},
		{row("simple", "S", "Shirt", "1", "1", "", "", "", "soon"), `sale end date "soon" is not a date`},
	}
	for _, tc := range bad {
		_, err := parseRecord(h, tc.vals, 3, 2)
		if err == nil || !strings.Contains(err.Error(), tc.reason) {
			t.Errorf("row %q: err = %v, want %q", tc.vals, err, tc.reason)
		}
	}
}

func TestWebPSize(t *testing.T) {
	b := make([]byte, 30)
	copy(b, "RIFF")
	copy(b[8:], "WEBPVP8X")
	w, h := 1199, 799 // stored minus one
	b[24], b[25], b[26] = byte(w), byte(w>>8), byte(w>>16)
	b[27], b[28], b[29] = byte(h), byte(h>>8), byte(h>>16)
	if gw, gh, err := webpSize(b); err != nil || gw != 1200 || gh != 800 {
		t.Errorf("VP8X = %d x %d, %v", gw, gh, err)
	}
	copy(b[12:], "VP8L")
	b[20] = 0x2f
	binary.LittleEndian.PutUint32(b[21:], uint32(99)|uint32(49)<<14)
	if gw, gh, err := webpSize(b); err != nil || gw != 100 || gh != 50 {
		t.Errorf("VP8L = %d x %d, %v", gw, gh, err)
	}
	if _, _, err := webpSize([]byte("not a webp at all, not at all")); err == nil {
		t.Error("garbage: no error")
	}
}

func TestBaseName(t *testing.T) {
	for in, want := range map[string]string{
		"https://x.example/wp-content/uploads/2024/01/tee%20front.jpg?ver=2": "tee-front.jpg",
		"https://x.example/":  "image",
		"https://x.example/a": "a",
	} {
		if got := baseName(in); got != want {
			t.Errorf("baseName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSummaryString(t *testing.T) {
	s := Summary{ProductsCreated: 2, Rejected: []RowError{{Row: 7, SKU: "X-1", Reason: `regular price "12,5x" is not a number`}}}
	out := s.String()
	for _, want := range []string{"Products: 2 created, 0 updated", "Rejected rows: 1", `row 7: regular price "12,5x" is not a number (SKU "X-1")`} {
		if !strings.Contains(out, want) {
			t.Errorf("String() = %q, missing %q", out, want)
		}
	}
}
