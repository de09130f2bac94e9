package seed

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

var seedNow = time.Date(2026, 11, 20, 15, 30, 0, 0, time.UTC)

func seeded(t *testing.T, db *sqlstore.DB) Result {
	t.Helper()
	res, err := Demo(context.Background(), db, seedNow)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// allProducts lists every parent product, drafts and hidden ones included.
func allProducts(t *testing.T, db *sqlstore.DB) []*catalog.Product {
	t.Helper()
	ps, total, err := db.QueryProducts(context.Background(), catalog.ProductQuery{Visibility: "all", PerPage: 100, OrderBy: "id", Order: "asc"})
	if err != nil {
		t.Fatal(err)
	}
	if total != len(ps) {
		t.Fatalf("got %d of %d products on one page", len(ps), total)
	}
	return ps
}

func bySlug(t *testing.T, db *sqlstore.DB, slug string) *catalog.Product {
	t.Helper()
	p, err := db.ProductBySlug(context.Background(), slug)
	if err != nil {
		t.Fatalf("product %s: %v", slug, err)
	}
	return p
}

func variations(t *testing.T, db *sqlstore.DB, p *catalog.Product) []*catalog.Product {
	t.Helper()
	vs, err := db.Variations(context.Background(), p.ID)
	if err != nil {
		t.Fatalf("variations of %s: %v", p.Slug, err)
	}
	return vs
}

func attr(v *catalog.Product, name string) (string, bool) {
	for _, a := range v.Variation {
		if a.Name == name {
			return a.Value, true
		}
	}
	return "", false
}

func TestDemo(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		res := seeded(t, db)
		t.Logf("seeded %+v", res)

		products := allProducts(t, db)
		if len(products) != res.Products || len(products) < 36 || len(products) > 45 {
			t.Errorf("%d parent products (result says %d), want about 40", len(products), res.Products)
		}
		count, err := db.CountProducts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if count != res.Products+res.Variations {
			t.Errorf("CountProducts = %d, want %d products + %d variations", count, res.Products, res.Variations)
		}

		// The shop's own listing hides the draft and the hidden cap.
		shown, _, err := db.QueryProducts(ctx, catalog.ProductQuery{PerPage: 100})
		if err != nil {
			t.Fatal(err)
		}
		featured, types := 0, map[string]int{}
		for _, p := range shown {
			if p.Slug == "alpaca-cardigan" || p.Slug == "studio-staff-cap" {
				t.Errorf("%s is listed in the shop", p.Slug)
			}
			if p.Featured {
				featured++
			}
			types[p.Type]++
		}
		if featured < 6 || featured > 8 {
			t.Errorf("%d featured products, want 6-8", featured)
		}
		for _, typ := range []string{catalog.TypeSimple, catalog.TypeVariable, catalog.TypeGrouped, catalog.TypeExternal} {
			if types[typ] == 0 {
				t.Errorf("no %s product is listed", typ)
			}
		}
		// Menu order is curated: the default sort opens with the featured tee.
		if len(shown) > 0 && shown[0].Slug != "classic-tee" {
			t.Errorf("default sort starts with %s", shown[0].Slug)
		}
		// "Latest" differs from the default order: creation dates are spread.
		dates := map[time.Time]bool{}
		for _, p := range products {
			if p.CreatedAt.After(seedNow) || p.CreatedAt.Before(seedNow.AddDate(0, -2, 0)) {
				t.Errorf("%s created at %s", p.Slug, p.CreatedAt)
			}
			dates[p.CreatedAt.UTC()] = true
		}
		if len(dates) != len(products) {
			t.Errorf("%d distinct creation dates for %d products", len(dates), len(products))
		}

		// The big variable product, with stock edge cases.
		tee := bySlug(t, db, "classic-tee")
		vs := variations(t, db, tee)
		if tee.Type != catalog.TypeVariable || len(vs) <= 30 {
			t.Fatalf("classic tee: type %s with %d variations, want variable with > 30", tee.Type, len(vs))
		}
		if len(tee.Attributes) != 2 || tee.Attributes[0].Key() != "pa_color" || tee.Attributes[1].Key() != "pa_size" {
			t.Errorf("classic tee attributes %+v", tee.Attributes)
		}
		var outOfStock, lowStock bool
		skus := map[string]bool{}
		for _, v := range vs {
			skus[v.SKU] = true
			if !v.Active || !v.Visible || !v.Purchasable || v.RegularPrice == nil || *v.RegularPrice != 2800 {
				t.Errorf("variation %s: active %v visible %v purchasable %v price %v", v.SKU, v.Active, v.Visible, v.Purchasable, v.RegularPrice)
			}
			if len(v.Images) != 1 || !strings.HasPrefix(v.Images[0].Src, "/media/demo/classic-tee-") {
				t.Errorf("variation %s images %+v", v.SKU, v.Images)
			}
			if v.StockStatus == catalog.StockOutOfStock && v.ManageStock && v.StockQuantity != nil && *v.StockQuantity == 0 && !v.InStock() {
				outOfStock = true
			}
			if q := v.LowStockRemaining(5); q != nil && *q == 3 {
				lowStock = true
			}
		}
		if !outOfStock || !lowStock {
			t.Errorf("out-of-stock variation %v, low-stock variation %v", outOfStock, lowStock)
		}
		if !skus["TEE-CLASSIC-NAVY-M"] {
			t.Errorf("no variation SKU TEE-CLASSIC-NAVY-M among %d", len(skus))
		}
		// Every colour has its own picture, shared by its sizes.
		navyImg := map[int64]bool{}
		for _, v := range vs {
			if c, _ := attr(v, "pa_color"); c == "navy" {
				navyImg[v.Images[0].ID] = true
			}
		}
		if len(navyImg) != 1 {
			t.Errorf("navy variations use %d pictures, want 1", len(navyImg))
		}
		if len(tee.Upsells) == 0 || len(tee.CrossSells) == 0 {
			t.Errorf("classic tee upsells %v cross-sells %v", tee.Upsells, tee.CrossSells)
		}
		if tee.ReviewCount != 3 || tee.AverageRating < 4.6 || tee.AverageRating > 4.7 {
			t.Errorf("classic tee rating %.2f from %d reviews, want 4.67 from 3", tee.AverageRating, tee.ReviewCount)
		}

		// The "any size" product.
		ls := bySlug(t, db, "heavyweight-long-sleeve-tee")
		anyFound := false
		for _, v := range variations(t, db, ls) {
			if size, ok := attr(v, "pa_size"); ok && size == "" {
				anyFound = true
				if catalog.MatchVariation([]*catalog.Product{v}, map[string]string{"pa_color": mustAttr(v, "pa_color"), "pa_size": "l"}) == nil {
					t.Errorf("any-size variation %s does not match size L", v.SKU)
				}
			}
		}
		if !anyFound {
			t.Error("no variation with an any value")
		}

		// Pre-order.
		preOrder := false
		for _, v := range variations(t, db, bySlug(t, db, "everyday-hoodie")) {
			if !v.PreOrder {
				continue
			}
			preOrder = true
			want := time.Date(2026, 12, 11, 9, 0, 0, 0, time.UTC)
			if v.PreOrderAt == nil || !v.PreOrderAt.Equal(want) || v.PreOrderLabel != "Pre-order now" {
				t.Errorf("pre-order %s at %v label %q", v.SKU, v.PreOrderAt, v.PreOrderLabel)
			}
		}
		if !preOrder {
			t.Error("no pre-order variation")
		}

		// Sales: a dated sale running now, and a plain one.
		fleece := bySlug(t, db, "half-zip-fleece")
		if !fleece.SaleActive(seedNow) || fleece.SaleFrom == nil || fleece.SaleTo == nil {
			t.Errorf("fleece sale %v..%v not active now", fleece.SaleFrom, fleece.SaleTo)
		}
		onSale := true
		sales, _, err := db.QueryProducts(ctx, catalog.ProductQuery{PerPage: 100, OnSale: &onSale})
		if err != nil {
			t.Fatal(err)
		}
		if len(sales) < 3 {
			t.Errorf("%d products on sale", len(sales))
		}

		// Quantity rules.
		if p := bySlug(t, db, "limited-print-coastline-no-3"); !p.SoldIndividually {
			t.Error("limited print is not sold individually")
		}
		socks := bySlug(t, db, "everyday-crew-socks")
		if l := socks.Limits(); l.Minimum != 2 || l.MultipleOf != 2 || l.Maximum != 10 {
			t.Errorf("socks limits %+v", l)
		}

		// Grouped, external, draft, hidden, local attribute.
		set := bySlug(t, db, "weekend-set")
		children, err := db.Products(ctx, set.Children)
		if err != nil {
			t.Fatal(err)
		}
		if set.Type != catalog.TypeGrouped || len(children) != 3 {
			t.Errorf("weekend set: type %s, %d of %v children resolve", set.Type, len(children), set.Children)
		}
		for _, c := range children {
			if c.Type != catalog.TypeSimple || !c.Published() {
				t.Errorf("weekend set child %s is %s/%s", c.Slug, c.Type, c.Status)
			}
		}
		wallet := bySlug(t, db, "hand-stitched-leather-wallet")
		if wallet.Type != catalog.TypeExternal || !strings.HasPrefix(wallet.ExternalURL, "https://example.com/") || wallet.ButtonText != "Buy from the maker" {
			t.Errorf("external wallet: %s %q %q", wallet.Type, wallet.ExternalURL, wallet.ButtonText)
		}
		if p := bySlug(t, db, "alpaca-cardigan"); p.Status != catalog.StatusDraft {
			t.Errorf("cardigan status %s", p.Status)
		}
		if p := bySlug(t, db, "studio-staff-cap"); p.CatalogVisibility != catalog.VisibilityHidden || p.ShownInCatalog() {
			t.Errorf("staff cap visibility %s", p.CatalogVisibility)
		}
		mountain := bySlug(t, db, "mountain-line-tee")
		if len(mountain.Attributes) != 1 || mountain.Attributes[0].AttributeID != 0 || mountain.Attributes[0].Variation ||
			len(mountain.Attributes[0].Values) != 1 || mountain.Attributes[0].Values[0].Name != "Organic cotton" {
			t.Errorf("mountain tee attributes %+v", mountain.Attributes)
		}
		if mountain.Weight == "" || mountain.Length == "" || len(mountain.Tags) == 0 {
			t.Errorf("mountain tee weight %q length %q tags %v", mountain.Weight, mountain.Length, mountain.Tags)
		}

		// Categories two levels deep, described and ordered.
		cats, err := db.Categories(ctx)
		if err != nil {
			t.Fatal(err)
		}
		catByID := map[int64]catalog.Category{}
		for _, c := range cats {
			catByID[c.ID] = c
		}
		if len(cats) != res.Categories {
			t.Errorf("%d categories, result says %d", len(cats), res.Categories)
		}
		nested := 0
		for _, c := range cats {
			if c.Description == "" || c.MenuOrder == 0 || c.ImageID == 0 {
				t.Errorf("category %s: description %q order %d image %d", c.Name, c.Description, c.MenuOrder, c.ImageID)
			}
			if c.ParentID != 0 {
				nested++
				if catByID[c.ParentID].ParentID != 0 {
					t.Errorf("category %s is more than two levels deep", c.Name)
				}
			}
		}
		if nested < 6 {
			t.Errorf("%d subcategories", nested)
		}

		// Reviews were stored and rolled up.
		reviews := 0
		for _, p := range products {
			rs, err := db.Reviews(ctx, p.ID, 50)
			if err != nil {
				t.Fatal(err)
			}
			reviews += len(rs)
			if len(rs) != p.ReviewCount {
				t.Errorf("%s: %d reviews, count says %d", p.Slug, len(rs), p.ReviewCount)
			}
		}
		if reviews != res.Reviews || reviews < 8 || reviews > 12 {
			t.Errorf("%d reviews (result says %d), want 8-12", reviews, res.Reviews)
		}

		// Every picture is a demo SVG that parses.
		seen := map[string]bool{}
		check := func(owner string, imgs []catalog.Image) {
			if len(imgs) == 0 {
				t.Errorf("%s has no image", owner)
			}
			for _, img := range imgs {
				if !strings.HasPrefix(img.Src, "/media/demo/") || img.Alt == "" || img.Width != 1200 {
					t.Errorf("%s image %+v", owner, img)
				}
				if seen[img.Src] {
					continue
				}
				seen[img.Src] = true
				m, err := db.Media(ctx, strings.TrimPrefix(img.Src, "/media/"))
				if err != nil {
					t.Errorf("%s media %s: %v", owner, img.Src, err)
					continue
				}
				if m.ContentType != "image/svg+xml" {
					t.Errorf("%s content type %s", img.Src, m.ContentType)
				}
				checkSVG(t, img.Src, m.Data, img.Alt)
			}
		}
		for _, p := range products {
			check(p.Slug, p.Images)
			for _, v := range variations(t, db, p) {
				check(v.SKU, v.Images)
			}
		}
		for _, c := range cats {
			if c.Image != nil {
				check("category "+c.Name, []catalog.Image{*c.Image})
			}
		}
		if len(seen) < res.Images-len(cats) {
			t.Errorf("checked %d pictures of %d", len(seen), res.Images)
		}
	})
}

func mustAttr(v *catalog.Product, name string) string {
	s, _ := attr(v, name)
	return s
}

// TestDemoDeterministic seeds two stores with the same now and compares
// everything but the write timestamps.
func TestDemoDeterministic(t *testing.T) {
	dump := func() string {
		db := storetest.Open(t, sqlstore.SQLite)
		seeded(t, db)
		var b strings.Builder
		for _, p := range allProducts(t, db) {
			vs := variations(t, db, p)
			for _, q := range append([]*catalog.Product{p}, vs...) {
				q.UpdatedAt = time.Time{}
				js, err := json.Marshal(q)
				if err != nil {
					t.Fatal(err)
				}
				b.Write(js)
				for _, img := range q.Images {
					m, err := db.Media(context.Background(), strings.TrimPrefix(img.Src, "/media/"))
					if err != nil {
						t.Fatal(err)
					}
					b.Write(m.Data)
				}
			}
		}
		return b.String()
	}
	if a, b := dump(), dump(); a != b {
		t.Fatal("two seeds with the same now differ")
	}
}
