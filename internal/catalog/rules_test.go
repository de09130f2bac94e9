package catalog

import (
	"testing"
	"time"
)

func i64(v int64) *int64 { return &v }

func TestPriceAndSale(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	past, future := now.Add(-time.Hour), now.Add(time.Hour)
	cases := []struct {
		name      string
		p         Product
		wantPrice int64
		wantOK    bool
		wantSale  bool
	}{
		{"regular only", Product{RegularPrice: i64(2000)}, 2000, true, false},
		{"sale", Product{RegularPrice: i64(2000), SalePrice: i64(1500)}, 1500, true, true},
		{"sale not lower", Product{RegularPrice: i64(2000), SalePrice: i64(2000)}, 2000, true, false},
		{"sale not started", Product{RegularPrice: i64(2000), SalePrice: i64(1500), SaleFrom: &future}, 2000, true, false},
		{"sale ended", Product{RegularPrice: i64(2000), SalePrice: i64(1500), SaleTo: &now}, 2000, true, false},
		{"sale in window", Product{RegularPrice: i64(2000), SalePrice: i64(1500), SaleFrom: &past, SaleTo: &future}, 1500, true, true},
		{"no price", Product{}, 0, false, false},
	}
	for _, tc := range cases {
		got, ok := tc.p.Price(now)
		if got != tc.wantPrice || ok != tc.wantOK || tc.p.SaleActive(now) != tc.wantSale {
			t.Errorf("%s: Price = %d,%v sale=%v; want %d,%v sale=%v", tc.name, got, ok, tc.p.SaleActive(now), tc.wantPrice, tc.wantOK, tc.wantSale)
		}
	}
}

func TestInStockAndLimits(t *testing.T) {
	cases := []struct {
		name    string
		p       Product
		inStock bool
		limits  QuantityLimits
	}{
		{"unmanaged", Product{StockStatus: StockInStock}, true, QuantityLimits{1, 0, 1}},
		{"out", Product{StockStatus: StockOutOfStock}, false, QuantityLimits{1, 0, 1}},
		{"managed 3", Product{ManageStock: true, StockQuantity: i64(3), Backorders: BackordersNo}, true, QuantityLimits{1, 3, 1}},
		{"managed 0", Product{ManageStock: true, StockQuantity: i64(0), Backorders: BackordersNo}, false, QuantityLimits{1, 0, 1}},
		{"managed 0 backorders", Product{ManageStock: true, StockQuantity: i64(0), Backorders: BackordersYes}, true, QuantityLimits{1, 0, 1}},
		{"sold individually", Product{SoldIndividually: true}, true, QuantityLimits{1, 1, 1}},
		{"min max step", Product{MinQty: 2, MaxQty: 10, Step: 2}, true, QuantityLimits{2, 10, 2}},
		{"max above stock", Product{MaxQty: 10, ManageStock: true, StockQuantity: i64(4)}, true, QuantityLimits{1, 4, 1}},
	}
	for _, tc := range cases {
		if got := tc.p.InStock(); got != tc.inStock {
			t.Errorf("%s: InStock = %v", tc.name, got)
		}
		if got := tc.p.Limits(); got != tc.limits {
			t.Errorf("%s: Limits = %+v, want %+v", tc.name, got, tc.limits)
		}
	}
}

func TestLowStockRemaining(t *testing.T) {
	if got := (&Product{ManageStock: true, StockQuantity: i64(3)}).LowStockRemaining(5); got == nil || *got != 3 {
		t.Errorf("3 left under threshold 5: got %v", got)
	}
	if got := (&Product{ManageStock: true, StockQuantity: i64(8)}).LowStockRemaining(5); got != nil {
		t.Errorf("8 left: got %v, want nil", *got)
	}
	if got := (&Product{StockQuantity: i64(2)}).LowStockRemaining(5); got != nil {
		t.Errorf("unmanaged: got %v, want nil", *got)
	}
}

func TestMatchVariation(t *testing.T) {
	red := &Product{ID: 1, Variation: []VariationAttr{{"pa_color", "red"}, {"pa_size", "m"}}}
	anySize := &Product{ID: 2, Variation: []VariationAttr{{"pa_color", "blue"}, {"pa_size", ""}}}
	redL := &Product{ID: 3, Variation: []VariationAttr{{"pa_color", "red"}, {"pa_size", "l"}}}
	vs := []*Product{red, anySize, redL}
	cases := []struct {
		chosen map[string]string
		want   int64
	}{
		{map[string]string{"pa_color": "red", "pa_size": "m"}, 1},
		{map[string]string{"pa_color": "red", "pa_size": "l"}, 3},
		{map[string]string{"pa_color": "blue", "pa_size": "xl"}, 2},
		{map[string]string{"pa_color": "green", "pa_size": "m"}, 0},
		{map[string]string{"pa_color": "red"}, 0},
	}
	for _, tc := range cases {
		got := MatchVariation(vs, tc.chosen)
		var id int64
		if got != nil {
			id = got.ID
		}
		if id != tc.want {
			t.Errorf("MatchVariation(%v) = %d, want %d", tc.chosen, id, tc.want)
		}
	}
}

func TestSlugify(t *testing.T) {
	for in, want := range map[string]string{
		"Café Crème Hoodie": "cafe-creme-hoodie",
		"  T-Shirt / XL ":   "t-shirt-xl",
		"Größe":             "grosse",
	} {
		if got := Slugify(in); got != want {
			t.Errorf("Slugify(%q) = %q, want %q", in, got, want)
		}
	}
}
