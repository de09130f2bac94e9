package catalogstore

import (
	"testing"

	"vitrine/internal/catalog"
)

// TestFacetQueryCategories: a query's categories match a row by any of its
// category links, whether they are tested as one id, as a bitmap (small
// ids) or as a set (an id too large for a bitmap).
func TestFacetQueryCategories(t *testing.T) {
	for _, c := range []struct {
		cats   []int64
		bitmap bool
	}{
		{[]int64{7}, false},
		{[]int64{7, 64, 130}, true},
		{[]int64{7, 1 << 21}, false},
	} {
		fq := compileFacetQuery(catalog.ProductQuery{CategoryIDs: c.cats}, c.cats)
		if (fq.catBits != nil) != c.bitmap {
			t.Fatalf("%v: bitmap %v, want %v", c.cats, fq.catBits != nil, c.bitmap)
		}
		fq.vis = [3]string{catalog.VisibilityVisible}
		for _, r := range []struct {
			cats []int64
			in   bool
		}{
			{nil, false},
			{[]int64{6}, false},
			{[]int64{8, 63, 65, 129, 131}, false},
			{[]int64{1 << 22}, false},
			{[]int64{3, c.cats[len(c.cats)-1]}, true},
			{[]int64{c.cats[0], 1 << 22}, true},
		} {
			row := &facetRow{id: 1, vis: catalog.VisibilityVisible, cats: r.cats}
			if got := fq.base(row); got != r.in {
				t.Errorf("query %v, row in %v: matched %v, want %v", c.cats, r.cats, got, r.in)
			}
		}
	}
}
