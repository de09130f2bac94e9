package cart

import (
	"errors"
	"testing"
	"time"

	"vitrine/internal/catalog"
)

func ptr(v int64) *int64 { return &v }

func code(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	if err != nil {
		return err.Error()
	}
	return ""
}

func TestLineKey(t *testing.T) {
	a := LineKey(10, 12, []Attr{{"pa_color", "rust"}, {"pa_size", "xxl"}})
	b := LineKey(10, 12, []Attr{{"pa_size", "xxl"}, {"pa_color", "rust"}})
	if a != b {
		t.Errorf("attribute order changed the key: %s %s", a, b)
	}
	if len(a) != 32 {
		t.Errorf("key %q is not 32 hex", a)
	}
	for _, other := range []string{
		LineKey(10, 13, []Attr{{"pa_color", "rust"}, {"pa_size", "xxl"}}),
		LineKey(10, 12, []Attr{{"pa_color", "navy"}, {"pa_size", "xxl"}}),
		LineKey(11, 0, nil),
		LineKey(10, 0, nil),
	} {
		if other == a {
			t.Errorf("different lines share key %s", a)
		}
	}
	if LineKey(5, 0, nil) != LineKey(5, 0, []Attr{}) {
		t.Error("nil and empty attributes differ")
	}
}

func TestParseQuantity(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"1", 1, true}, {"3", 3, true}, {" 2 ", 2, true}, {"2.0", 2, true}, {"9999", 9999, true},
		{"", 0, false}, {"0", 0, false}, {"-1", 0, false}, {"1.5", 0, false}, {"1e9", 0, false},
		{"1000000000", 0, false}, {"99999999999999999999", 0, false}, {"abc", 0, false}, {"NaN", 0, false},
		{"Inf", 0, false}, {"true", 0, false}, {"null", 0, false}, {"10000", 0, false},
	} {
		got, err := ParseQuantity(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseQuantity(%q) = %d, %v; want %d ok=%v", c.in, got, err, c.want, c.ok)
		}
		if err != nil && code(err) != "woocommerce_rest_product_invalid_quantity" {
			t.Errorf("ParseQuantity(%q) code %s", c.in, code(err))
		}
	}
}

func TestCheckQuantity(t *testing.T) {
	plain := &catalog.Product{Name: "Plain"}
	stocked := &catalog.Product{Name: "Stocked", ManageStock: true, StockQuantity: ptr(3), Backorders: catalog.BackordersNo}
	backorder := &catalog.Product{Name: "Back", ManageStock: true, StockQuantity: ptr(0), Backorders: catalog.BackordersYes}
	single := &catalog.Product{Name: "Single", SoldIndividually: true}
	bounded := &catalog.Product{Name: "Bounded", MinQty: 2, MaxQty: 10, Step: 2}
	for _, c := range []struct {
		name            string
		p               *catalog.Product
		total, existing int64
		adding          bool
		want            string
	}{
		{"plain", plain, 100, 0, true, ""},
		{"plain over max", plain, 10000, 0, true, "woocommerce_rest_product_invalid_quantity"},
		{"stock ok", stocked, 3, 1, true, ""},
		{"stock over", stocked, 4, 1, true, "woocommerce_rest_product_partially_out_of_stock"},
		{"backorders ignore stock", backorder, 50, 0, true, ""},
		{"single first", single, 1, 0, true, ""},
		{"single again", single, 2, 1, true, "woocommerce_rest_cart_product_sold_individually"},
		{"single two at once", single, 2, 0, true, "woocommerce_rest_product_invalid_quantity"},
		{"single update to 2", single, 2, 1, false, "woocommerce_rest_product_invalid_quantity"},
		{"below min", bounded, 1, 0, true, "woocommerce_rest_product_invalid_quantity"},
		{"not multiple", bounded, 3, 0, true, "woocommerce_rest_product_invalid_quantity"},
		{"multiple", bounded, 4, 0, true, ""},
		{"above max", bounded, 12, 0, true, "woocommerce_rest_product_invalid_quantity"},
	} {
		if got := code(CheckQuantity(c.p, c.total, c.existing, c.adding)); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
	err := CheckQuantity(stocked, 4, 1, true)
	want := "You cannot add that amount to the cart &mdash; we have 3 in stock and you already have 1 in your cart."
	if e := err.(*Error); e.Message != want {
		t.Errorf("stock message %q", e.Message)
	}
}

func TestCheckSellable(t *testing.T) {
	now := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	price := ptr(1000)
	ok := &catalog.Product{Name: "Ok", Type: catalog.TypeSimple, Status: catalog.StatusPublish, Purchasable: true, RegularPrice: price}
	draft := *ok
	draft.Status = catalog.StatusDraft
	noPrice := *ok
	noPrice.RegularPrice = nil
	out := *ok
	out.StockStatus = catalog.StockOutOfStock
	variable := *ok
	variable.Type = catalog.TypeVariable
	for _, c := range []struct {
		name string
		p    *catalog.Product
		want string
	}{
		{"ok", ok, ""},
		{"missing", nil, "woocommerce_rest_cart_invalid_product"},
		{"draft", &draft, "woocommerce_rest_cart_invalid_product"},
		{"no price", &noPrice, "woocommerce_rest_product_not_purchasable"},
		{"out of stock", &out, "woocommerce_rest_product_out_of_stock"},
		{"variable", &variable, "woocommerce_rest_missing_variation_data"},
	} {
		if got := code(CheckSellable(c.p, nil, now)); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestChooseVariation(t *testing.T) {
	parent := &catalog.Product{Attributes: []catalog.ProductAttribute{
		{Name: "Color", Taxonomy: "pa_color", Variation: true, Values: []catalog.AttributeValue{{Name: "Rust", Slug: "rust"}, {Name: "Navy", Slug: "navy"}}},
		{Name: "Size", Taxonomy: "pa_size", Variation: true, Values: []catalog.AttributeValue{{Name: "XXL", Slug: "xxl"}}},
	}}
	v := func(id int64, c, s string) *catalog.Product {
		return &catalog.Product{ID: id, Status: catalog.StatusPublish, Active: true,
			Variation: []catalog.VariationAttr{{Name: "pa_color", Value: c}, {Name: "pa_size", Value: s}}}
	}
	vars := []*catalog.Product{v(1, "navy", "xxl"), v(2, "rust", "xxl"), v(3, "", "xxl")}
	for _, c := range []struct {
		name   string
		chosen []Attr
		id     int64
		want   string
	}{
		{"slugs", []Attr{{"pa_color", "rust"}, {"pa_size", "xxl"}}, 2, ""},
		{"attribute_ prefix and names", []Attr{{"attribute_pa_color", "Navy"}, {"attribute_pa_size", "XXL"}}, 1, ""},
		{"any value", []Attr{{"pa_color", "green"}, {"pa_size", "xxl"}}, 3, ""},
		{"missing", []Attr{{"pa_color", "rust"}}, 0, "woocommerce_rest_missing_variation_data"},
		{"no match", []Attr{{"pa_color", "rust"}, {"pa_size", "s"}}, 0, "woocommerce_rest_variation_id_from_variation_data"},
	} {
		got, attrs, err := ChooseVariation(parent, vars, c.chosen)
		if code(err) != c.want {
			t.Errorf("%s: err %v, want %s", c.name, err, c.want)
			continue
		}
		if c.want == "" && (got.ID != c.id || len(attrs) != 2) {
			t.Errorf("%s: got %d %v, want %d", c.name, got.ID, attrs, c.id)
		}
	}
	_, attrs, _ := ChooseVariation(parent, vars, []Attr{{"pa_color", "green"}, {"pa_size", "xxl"}})
	if attrs[0] != (Attr{"pa_color", "green"}) {
		t.Errorf("any value not filled from the choice: %v", attrs)
	}
}

func TestSum(t *testing.T) {
	got := Sum([]Line{{Quantity: 2, UnitPrice: 2800}, {Quantity: 1, UnitPrice: 4500}, {Quantity: 3, UnitPrice: 0}})
	if got.Items != 10100 || got.ItemsCount != 6 {
		t.Errorf("Sum = %+v", got)
	}
	if got := Sum(nil); got != (Totals{}) {
		t.Errorf("Sum(nil) = %+v", got)
	}
}

// TestParentManagedStock: a variation that does not manage stock, under a
// parent that does, sells from the parent's stock, shared with its sibling
// variations in the cart.
func TestParentManagedStock(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	variation := func(manage bool, qty *int64) *catalog.Product {
		return &catalog.Product{ID: 2, ParentID: 1, Type: catalog.TypeVariation, Name: "Tee", Status: catalog.StatusPublish,
			Purchasable: true, Active: true, RegularPrice: ptr(1000), ManageStock: manage, StockQuantity: qty, StockStatus: catalog.StockInStock, Backorders: catalog.BackordersNo}
	}
	parent := func(manage bool, qty int64, backorders, status string) *catalog.Product {
		return &catalog.Product{ID: 1, Type: catalog.TypeVariable, Name: "Tee", Status: catalog.StatusPublish, Purchasable: true,
			ManageStock: manage, StockQuantity: ptr(qty), StockStatus: status, Backorders: backorders}
	}
	for _, tc := range []struct {
		name        string
		v, p        *catalog.Product
		owner       int64 // StockOwner's id
		total, held int64
		sellable    string // CheckSellable's code
		quantity    string // CheckQuantityHeld's code
	}{
		{"parent stock covers it", variation(false, nil), parent(true, 5, catalog.BackordersNo, catalog.StockInStock), 1, 3, 2, "", ""},
		{"shared stock is exceeded", variation(false, nil), parent(true, 5, catalog.BackordersNo, catalog.StockInStock), 1, 4, 2, "",
			"woocommerce_rest_product_partially_out_of_stock"},
		{"parent out of stock", variation(false, nil), parent(true, 0, catalog.BackordersNo, catalog.StockOutOfStock), 1, 1, 0,
			"woocommerce_rest_product_out_of_stock", "woocommerce_rest_product_partially_out_of_stock"},
		{"parent allows backorders", variation(false, nil), parent(true, 0, catalog.BackordersYes, catalog.StockOnBackorder), 1, 9, 4, "", ""},
		{"variation's own stock wins", variation(true, ptr(10)), parent(true, 1, catalog.BackordersNo, catalog.StockInStock), 2, 8, 0, "", ""},
		{"variation's own stock is exceeded", variation(true, ptr(2)), parent(true, 50, catalog.BackordersNo, catalog.StockInStock), 2, 3, 0, "",
			"woocommerce_rest_product_partially_out_of_stock"},
		{"neither manages stock", variation(false, nil), parent(false, 0, catalog.BackordersNo, catalog.StockInStock), 2, 500, 100, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if o := StockOwner(tc.v, tc.p); o.ID != tc.owner {
				t.Errorf("StockOwner = %d, want %d", o.ID, tc.owner)
			}
			before := *tc.v
			eff := WithStock(tc.v, tc.p)
			if tc.owner == 1 && (!eff.ManageStock || *eff.StockQuantity != *tc.p.StockQuantity) || tc.owner == 2 && eff != tc.v {
				t.Errorf("WithStock = %+v", eff)
			}
			if tc.v.ManageStock != before.ManageStock || tc.v.StockQuantity != before.StockQuantity {
				t.Error("WithStock changed the variation")
			}
			if got := code(CheckSellable(tc.v, tc.p, now)); got != tc.sellable {
				t.Errorf("CheckSellable = %q, want %q", got, tc.sellable)
			}
			if got := code(CheckQuantityHeld(eff, tc.total, 0, tc.held, true)); got != tc.quantity {
				t.Errorf("CheckQuantityHeld = %q, want %q", got, tc.quantity)
			}
		})
	}
	// The message counts what the other lines hold.
	err := CheckQuantityHeld(WithStock(variation(false, nil), parent(true, 5, catalog.BackordersNo, catalog.StockInStock)), 4, 1, 2, true)
	var e *Error
	if !errors.As(err, &e) || e.Message != "You cannot add that amount to the cart &mdash; we have 5 in stock and you already have 3 in your cart." {
		t.Errorf("message: %v", err)
	}
}
