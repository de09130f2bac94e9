package sqlstore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

func i64(v int64) *int64 { return &v }

var t0 = time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)

// fixture saves a small catalogue: a variable tee with colour x size, a
// simple mug on sale, a draft, and categories Clothing > Tees.
func fixture(t *testing.T, db *sqlstore.DB) (tee *catalog.Product, vars []*catalog.Product, mug *catalog.Product) {
	t.Helper()
	ctx := context.Background()
	db.SetClock(func() time.Time { return t0 })
	clothing, created, err := db.EnsureCategoryPath(ctx, []string{"Clothing"})
	if err != nil || created != 1 {
		t.Fatalf("EnsureCategoryPath: %v created=%d", err, created)
	}
	tees, created, err := db.EnsureCategoryPath(ctx, []string{"Clothing", "Tees"})
	if err != nil || created != 1 {
		t.Fatalf("EnsureCategoryPath nested: %v created=%d", err, created)
	}
	color, err := db.EnsureAttribute(ctx, catalog.Attribute{Name: "Color", Slug: "color", Type: catalog.SwatchColor})
	if err != nil {
		t.Fatal(err)
	}
	size, err := db.EnsureAttribute(ctx, catalog.Attribute{Name: "Size", Slug: "size", Type: catalog.SwatchLabel})
	if err != nil {
		t.Fatal(err)
	}
	red, _ := db.EnsureTerm(ctx, catalog.AttrTerm{AttributeID: color.ID, Name: "Red", Color: "#c0392b", MenuOrder: 1})
	blue, _ := db.EnsureTerm(ctx, catalog.AttrTerm{AttributeID: color.ID, Name: "Blue", Color: "#2c5aa0", MenuOrder: 2})
	small, _ := db.EnsureTerm(ctx, catalog.AttrTerm{AttributeID: size.ID, Name: "S", MenuOrder: 1})
	large, _ := db.EnsureTerm(ctx, catalog.AttrTerm{AttributeID: size.ID, Name: "L", MenuOrder: 2})
	tag, err := db.EnsureTag(ctx, "Organic")
	if err != nil {
		t.Fatal(err)
	}

	tee = &catalog.Product{
		Type: catalog.TypeVariable, Name: "Classic Tee", SKU: "TEE", Featured: true,
		ShortDescription: "<p>Soft.</p>", MenuOrder: 1,
		Images:     []catalog.Image{{Src: "/media/tee.svg", Width: 1200, Height: 1200, Alt: "Tee"}},
		Categories: []catalog.Term{{ID: tees}}, Tags: []catalog.Term{{ID: tag}},
		Attributes: []catalog.ProductAttribute{
			{AttributeID: color.ID, Name: "Color", Visible: true, Variation: true, Values: []catalog.AttributeValue{{TermID: red.ID}, {TermID: blue.ID}}},
			{AttributeID: size.ID, Name: "Size", Visible: true, Variation: true, Values: []catalog.AttributeValue{{TermID: small.ID}, {TermID: large.ID}}},
			{Name: "Material", Visible: true, Values: []catalog.AttributeValue{{Name: "Cotton"}}},
		},
		Meta: map[string]string{"origin": "PT"},
	}
	vars = []*catalog.Product{
		{SKU: "TEE-RED-S", RegularPrice: i64(2500), Variation: []catalog.VariationAttr{{Name: "pa_color", Value: "red"}, {Name: "pa_size", Value: "s"}}, Purchasable: true, Active: true, Visible: true},
		{SKU: "TEE-RED-L", RegularPrice: i64(2500), SalePrice: i64(2000), Variation: []catalog.VariationAttr{{Name: "pa_color", Value: "red"}, {Name: "pa_size", Value: "l"}}, Purchasable: true, Active: true, Visible: true},
		{SKU: "TEE-BLUE", RegularPrice: i64(2700), ManageStock: true, StockQuantity: i64(3), Variation: []catalog.VariationAttr{{Name: "pa_color", Value: "blue"}, {Name: "pa_size", Value: ""}}, Purchasable: true, Active: true, Visible: true},
	}
	if created, err := db.SaveProduct(ctx, tee, vars); err != nil || !created {
		t.Fatalf("SaveProduct tee: created=%v err=%v", created, err)
	}
	mug = &catalog.Product{Type: catalog.TypeSimple, Name: "Mug", RegularPrice: i64(1500), SalePrice: i64(1200), Purchasable: true,
		Categories: []catalog.Term{{ID: clothing}}, MenuOrder: 2, CreatedAt: t0.Add(time.Hour)}
	if _, err := db.SaveProduct(ctx, mug, nil); err != nil {
		t.Fatalf("SaveProduct mug: %v", err)
	}
	draft := &catalog.Product{Type: catalog.TypeSimple, Name: "Secret", Status: catalog.StatusDraft, RegularPrice: i64(100), Purchasable: true}
	if _, err := db.SaveProduct(ctx, draft, nil); err != nil {
		t.Fatalf("SaveProduct draft: %v", err)
	}
	return tee, vars, mug
}

func TestProductRoundTrip(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		tee, vars, _ := fixture(t, db)

		got, err := db.ProductBySlug(ctx, "classic-tee")
		if err != nil {
			t.Fatalf("ProductBySlug: %v", err)
		}
		if got.ID != tee.ID || got.Type != catalog.TypeVariable || !got.Featured || got.SKU != "TEE" {
			t.Errorf("product = %+v", got)
		}
		if len(got.Images) != 1 || got.Images[0].Src != "/media/tee.svg" || got.Images[0].Width != 1200 {
			t.Errorf("images = %+v", got.Images)
		}
		if len(got.Categories) != 1 || got.Categories[0].Slug != "tees" || len(got.Tags) != 1 || got.Tags[0].Name != "Organic" {
			t.Errorf("terms = %+v %+v", got.Categories, got.Tags)
		}
		if len(got.Attributes) != 3 {
			t.Fatalf("attributes = %+v", got.Attributes)
		}
		wantColor := catalog.ProductAttribute{AttributeID: got.Attributes[0].AttributeID, Name: "Color", Taxonomy: "pa_color", Position: 0, Visible: true, Variation: true,
			Values: []catalog.AttributeValue{{TermID: got.Attributes[0].Values[0].TermID, Name: "Red", Slug: "red"}, {TermID: got.Attributes[0].Values[1].TermID, Name: "Blue", Slug: "blue"}}}
		if diff := cmp.Diff(wantColor, got.Attributes[0]); diff != "" {
			t.Errorf("colour attribute (-want +got):\n%s", diff)
		}
		if a := got.Attributes[2]; a.Taxonomy != "" || a.Key() != "material" || a.Values[0].Name != "Cotton" {
			t.Errorf("local attribute = %+v", a)
		}
		if got.Meta["origin"] != "PT" {
			t.Errorf("meta = %v", got.Meta)
		}

		vs, err := db.Variations(ctx, tee.ID)
		if err != nil || len(vs) != 3 {
			t.Fatalf("Variations: %d %v", len(vs), err)
		}
		if vs[0].ID != vars[0].ID || vs[2].SKU != "TEE-BLUE" || vs[2].ParentID != tee.ID || vs[2].Type != catalog.TypeVariation {
			t.Errorf("variations order/fields wrong: %+v", vs[2])
		}
		if *vs[2].StockQuantity != 3 || !vs[2].ManageStock {
			t.Errorf("stock not kept: %+v", vs[2])
		}
		if m := catalog.MatchVariation(vs, map[string]string{"pa_color": "blue", "pa_size": "xl"}); m == nil || m.ID != vars[2].ID {
			t.Errorf("any-size variation did not match")
		}

		// The parent's sort price is the lowest variation price (sale 2000).
		list, _, err := db.QueryProducts(ctx, catalog.ProductQuery{OrderBy: "price", PerPage: 10})
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 2 || list[0].Name != "Mug" || list[1].Name != "Classic Tee" {
			t.Errorf("price order = %v", names(list))
		}
	})
}

func names(ps []*catalog.Product) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name
	}
	return out
}

func TestSaveIsIdempotent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		tee, _, _ := fixture(t, db)
		before, _ := db.CountProducts(ctx)

		again := &catalog.Product{Type: catalog.TypeVariable, Name: "Classic Tee v2", SKU: "TEE"}
		vars := []*catalog.Product{
			// matched by SKU
			{SKU: "TEE-RED-S", RegularPrice: i64(2600), Variation: []catalog.VariationAttr{{Name: "pa_color", Value: "red"}, {Name: "pa_size", Value: "s"}}, Purchasable: true, Active: true},
			// no SKU: matched by its attribute combination
			{RegularPrice: i64(2800), Variation: []catalog.VariationAttr{{Name: "pa_size", Value: ""}, {Name: "pa_color", Value: "blue"}}, Purchasable: true, Active: true},
		}
		created, err := db.SaveProduct(ctx, again, vars)
		if err != nil || created {
			t.Fatalf("second save: created=%v err=%v", created, err)
		}
		if again.ID != tee.ID {
			t.Errorf("matched id %d, want %d", again.ID, tee.ID)
		}
		after, _ := db.CountProducts(ctx)
		if after != before {
			t.Errorf("count %d -> %d: second save duplicated rows", before, after)
		}
		p, _ := db.Product(ctx, tee.ID)
		if p.Name != "Classic Tee v2" || p.Slug != "classic-tee" {
			t.Errorf("updated product = %q %q", p.Name, p.Slug)
		}
		v, _ := db.Product(ctx, vars[1].ID)
		if *v.RegularPrice != 2800 || v.SKU != "TEE-BLUE" && v.SKU != "" {
			t.Errorf("variation by attributes not updated: %+v", v)
		}
	})
}

func TestSKUConflictChangesNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		tee, _, _ := fixture(t, db)
		before, _ := db.CountProducts(ctx)
		// A new product whose variation reuses another product's SKU must fail whole.
		p := &catalog.Product{Type: catalog.TypeVariable, Name: "Hoodie", SKU: "HOOD"}
		_, err := db.SaveProduct(ctx, p, []*catalog.Product{{SKU: "TEE-RED-S", RegularPrice: i64(1)}})
		if err == nil {
			t.Fatal("want an error for a SKU owned by another product")
		}
		after, _ := db.CountProducts(ctx)
		if after != before {
			t.Errorf("failed save left rows: %d -> %d", before, after)
		}
		if _, err := db.ProductBySlug(ctx, "hoodie"); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("half-saved parent visible: %v", err)
		}
		vs, _ := db.Variations(ctx, tee.ID)
		if len(vs) != 3 {
			t.Errorf("tee variations changed: %d", len(vs))
		}
	})
}

func TestQueryProducts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		tee, _, mug := fixture(t, db)
		clothing, _ := db.CategoryBySlug(ctx, "clothing")
		yes := true
		cases := []struct {
			name  string
			q     catalog.ProductQuery
			want  []string
			total int
		}{
			{"default hides draft", catalog.ProductQuery{PerPage: 10}, []string{"Classic Tee", "Mug"}, 2},
			{"all visibility", catalog.ProductQuery{PerPage: 10, Visibility: "all", OrderBy: "title"}, []string{"Classic Tee", "Mug", "Secret"}, 3},
			{"paging", catalog.ProductQuery{PerPage: 1, Page: 2}, []string{"Mug"}, 2},
			{"date desc", catalog.ProductQuery{PerPage: 10, OrderBy: "date", Order: "desc"}, []string{"Mug", "Classic Tee"}, 2},
			{"price desc", catalog.ProductQuery{PerPage: 10, OrderBy: "price", Order: "desc"}, []string{"Classic Tee", "Mug"}, 2},
			{"category with descendants", catalog.ProductQuery{PerPage: 10, CategoryIDs: []int64{clothing.ID}, Descendants: true}, []string{"Classic Tee", "Mug"}, 2},
			{"category only", catalog.ProductQuery{PerPage: 10, CategoryIDs: []int64{clothing.ID}}, []string{"Mug"}, 1},
			{"search name", catalog.ProductQuery{PerPage: 10, Search: "CLASSIC"}, []string{"Classic Tee"}, 1},
			{"search like chars literal", catalog.ProductQuery{PerPage: 10, Search: "%"}, []string{}, 0},
			{"featured", catalog.ProductQuery{PerPage: 10, Featured: &yes}, []string{"Classic Tee"}, 1},
			{"on sale", catalog.ProductQuery{PerPage: 10, OnSale: &yes}, []string{"Classic Tee", "Mug"}, 2},
			{"min price", catalog.ProductQuery{PerPage: 10, MinPrice: i64(1500)}, []string{"Classic Tee"}, 1},
			{"include order", catalog.ProductQuery{PerPage: 10, Include: []int64{mug.ID, tee.ID}, OrderBy: "include"}, []string{"Mug", "Classic Tee"}, 2},
			{"sku", catalog.ProductQuery{PerPage: 10, SKUs: []string{"TEE"}}, []string{"Classic Tee"}, 1},
			{"type", catalog.ProductQuery{PerPage: 10, Type: catalog.TypeSimple}, []string{"Mug"}, 1},
		}
		for _, tc := range cases {
			got, total, err := db.QueryProducts(ctx, tc.q)
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
				continue
			}
			if diff := cmp.Diff(tc.want, names(got)); diff != "" || total != tc.total {
				t.Errorf("%s: total %d want %d; names (-want +got):\n%s", tc.name, total, tc.total, diff)
			}
		}
		got, total, err := db.QueryProducts(ctx, catalog.ProductQuery{PerPage: 10, NoCount: true})
		if err != nil || total != -1 || len(got) != 2 {
			t.Errorf("NoCount: %d products, total %d, %v", len(got), total, err)
		}
		if _, _, err := db.QueryProducts(ctx, catalog.ProductQuery{OrderBy: "nonsense"}); err == nil {
			t.Error("unknown orderby accepted")
		}
	})
}

func TestTaxonomies(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		fixture(t, db)
		cats, err := db.Categories(ctx)
		if err != nil || len(cats) != 2 {
			t.Fatalf("Categories: %v %v", cats, err)
		}
		for _, c := range cats {
			if c.Slug == "clothing" && c.Count != 2 {
				t.Errorf("clothing counts %d products, want 2 (its own and its child's)", c.Count)
			}
		}
		tees, err := db.CategoryBySlug(ctx, "tees")
		if err != nil || tees.ParentID != cats[0].ID && tees.ParentID != cats[1].ID || tees.Count != 1 {
			t.Errorf("tees = %+v %v", tees, err)
		}
		// Same path again creates nothing.
		id, created, err := db.EnsureCategoryPath(ctx, []string{"Clothing", "Tees"})
		if err != nil || created != 0 || id != tees.ID {
			t.Errorf("EnsureCategoryPath again: id=%d created=%d err=%v", id, created, err)
		}
		if _, err := db.Category(ctx, 99999); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("missing category: %v", err)
		}
		attrs, err := db.Attributes(ctx)
		if err != nil || len(attrs) != 2 || attrs[0].Slug != "color" || attrs[0].Type != catalog.SwatchColor || attrs[0].Count != 1 {
			t.Fatalf("Attributes = %+v %v", attrs, err)
		}
		terms, err := db.AttributeTerms(ctx, attrs[0].ID)
		if err != nil || len(terms) != 2 || terms[0].Slug != "red" || terms[0].Color != "#c0392b" || terms[0].Count != 1 {
			t.Errorf("terms = %+v %v", terms, err)
		}
		// An import that knows nothing of swatches must not reset the type.
		a, err := db.EnsureAttribute(ctx, catalog.Attribute{Name: "Color"})
		if err != nil || a.ID != attrs[0].ID || a.Type != catalog.SwatchColor {
			t.Errorf("EnsureAttribute again = %+v %v", a, err)
		}
		tags, err := db.Tags(ctx)
		if err != nil || len(tags) != 1 || tags[0].Slug != "organic" || tags[0].Count != 1 {
			t.Errorf("tags = %+v %v", tags, err)
		}
	})
}

func TestReviewsAndChanges(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		_, _, mug := fixture(t, db)
		last, err := db.LastChange(ctx)
		if err != nil || last == 0 {
			t.Fatalf("LastChange = %d %v", last, err)
		}
		for _, r := range []int{5, 4} {
			if err := db.SaveReview(ctx, &catalog.Review{ProductID: mug.ID, Author: "Ana", Rating: r, Content: "Nice", Approved: true}); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.SaveReview(ctx, &catalog.Review{ProductID: mug.ID, Author: "Bot", Rating: 9, Content: "x"}); err == nil {
			t.Error("rating 9 accepted")
		}
		p, _ := db.Product(ctx, mug.ID)
		if p.ReviewCount != 2 || p.AverageRating != 4.5 {
			t.Errorf("rating = %v count = %d", p.AverageRating, p.ReviewCount)
		}
		rs, err := db.Reviews(ctx, mug.ID, 10)
		if err != nil || len(rs) != 2 {
			t.Errorf("Reviews = %v %v", rs, err)
		}
		changes, err := db.ChangesSince(ctx, last, 100)
		if err != nil || len(changes) != 2 || changes[0].ProductID != mug.ID {
			t.Errorf("changes since %d = %+v %v", last, changes, err)
		}
	})
}

func TestMediaAndMigrations(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		img := &catalog.Image{Src: "/media/demo/a.svg", Width: 10, Height: 10}
		if err := db.SaveImage(ctx, img, []catalog.MediaFile{{Path: "demo/a.svg", ContentType: "image/svg+xml", Data: []byte("<svg/>")}}); err != nil {
			t.Fatal(err)
		}
		if img.ID == 0 {
			t.Error("image id not set")
		}
		m, err := db.Media(ctx, "demo/a.svg")
		if err != nil || string(m.Data) != "<svg/>" || m.ContentType != "image/svg+xml" {
			t.Errorf("Media = %+v %v", m, err)
		}
		if _, err := db.Media(ctx, "nope"); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("missing media: %v", err)
		}
		if err := db.Migrate(ctx); err != nil {
			t.Errorf("second Migrate: %v", err)
		}
		if err := db.Ready(ctx); err != nil {
			t.Errorf("Ready: %v", err)
		}
	})
}
