package importer

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

func importFile(t *testing.T, db *sqlstore.DB, path string, opts Options) Summary {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sum, err := Import(context.Background(), f, db, db, opts)
	if err != nil {
		t.Fatalf("Import: %v", err)
	}
	return sum
}

func bySlug(t *testing.T, db *sqlstore.DB, slug string) *catalog.Product {
	t.Helper()
	p, err := db.ProductBySlug(context.Background(), slug)
	if err != nil {
		t.Fatalf("ProductBySlug(%q): %v", slug, err)
	}
	return p
}

func price(p *int64) string {
	if p == nil {
		return "nil"
	}
	return fmt.Sprint(*p)
}

func TestImportFixture(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		opts := Options{MinorUnit: 2}
		sum := importFile(t, db, "testdata/products.csv", opts)
		t.Log("\n" + sum.String())

		want := Summary{ProductsCreated: 6, VariationsCreated: 3, CategoriesCreated: 5, ImagesKeptAsURL: 5}
		got := sum
		got.Rejected, got.Warnings = nil, nil
		if !reflect.DeepEqual(got, want) {
			t.Errorf("counts = %+v, want %+v", got, want)
		}
		wantRejected := map[int]string{
			7:  `regular price "12,5x" is not a number`,
			8:  `its parent NOPE-404 is neither in the file nor in the shop`,
			13: `SKU "TEE-1" is already used by row 2`,
			14: `unknown product type "bundle"`,
			15: `name is empty`,
		}
		if len(sum.Rejected) != len(wantRejected) {
			t.Errorf("rejected = %+v", sum.Rejected)
		}
		for _, e := range sum.Rejected {
			if w, ok := wantRejected[e.Row]; !ok || !strings.Contains(e.Reason, w) {
				t.Errorf("rejected row %d: %q, want %q", e.Row, e.Reason, w)
			}
		}
		if len(sum.Warnings) != 0 {
			t.Errorf("warnings = %+v", sum.Warnings)
		}
		if s := sum.String(); !strings.Contains(s, `row 7: regular price "12,5x" is not a number (SKU "HOOD-1-RED-M"`) {
			t.Errorf("String() lacks row 7:\n%s", s)
		}

		// Simple product: prices, dates, stock, sizes, meta, terms, links.
		tee := bySlug(t, db, "classic-tee")
		if tee.SKU != "TEE-1" || tee.Type != catalog.TypeSimple || tee.Status != catalog.StatusPublish || !tee.Featured {
			t.Errorf("tee basics: %+v", tee)
		}
		if price(tee.RegularPrice) != "1999" || price(tee.SalePrice) != "1500" {
			t.Errorf("tee prices %s / %s", price(tee.RegularPrice), price(tee.SalePrice))
		}
		if tee.SaleFrom == nil || !tee.SaleFrom.Equal(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)) ||
			tee.SaleTo == nil || !tee.SaleTo.Equal(time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)) {
			t.Errorf("tee sale dates %v – %v", tee.SaleFrom, tee.SaleTo)
		}
		if !tee.ManageStock || price(tee.StockQuantity) != "25" || price(tee.LowStockAmount) != "3" || tee.StockStatus != catalog.StockInStock {
			t.Errorf("tee stock: %v %s %s %q", tee.ManageStock, price(tee.StockQuantity), price(tee.LowStockAmount), tee.StockStatus)
		}
		if tee.Weight != "0.2" || tee.Length != "30" || tee.Width != "20" || tee.Height != "2" {
			t.Errorf("tee sizes %q %q %q %q", tee.Weight, tee.Length, tee.Width, tee.Height)
		}
		if tee.MinQty != 2 || tee.MaxQty != 10 || tee.Step != 2 || tee.Meta["care_note"] != "Wash cold" || tee.Meta["_min_qty"] != "2" ||
			tee.Meta["_purchase_note"] != "Thanks for your order!" || tee.Meta["_reviews_allowed"] != "yes" {
			t.Errorf("tee quantities %d/%d/%d meta %v", tee.MinQty, tee.MaxQty, tee.Step, tee.Meta)
		}
		if tee.ShortDescription != "Soft cotton.\nMade to last." {
			t.Errorf("tee short description %q", tee.ShortDescription)
		}
		if names := termNames(tee.Tags); !reflect.DeepEqual(names, []string{"cotton", "summer"}) {
			t.Errorf("tee tags %v", names)
		}
		if len(tee.Images) != 2 || tee.Images[0].Src != "http://img.example.invalid/tee.jpg" || tee.Images[0].Alt != "Classic Tee" || tee.Images[0].Name != "tee.jpg" {
			t.Errorf("tee images %+v", tee.Images)
		}
		if len(tee.Attributes) != 1 || tee.Attributes[0].AttributeID != 0 || tee.Attributes[0].Variation ||
			!reflect.DeepEqual(valueNames(tee.Attributes[0]), []string{"Cotton, organic", "Linen"}) {
			t.Errorf("tee local attribute %+v", tee.Attributes)
		}
		hoodie := bySlug(t, db, "hoodie")
		cap := bySlug(t, db, "sun-cap")
		if !reflect.DeepEqual(tee.Upsells, []int64{hoodie.ID}) || !reflect.DeepEqual(tee.CrossSells, []int64{cap.ID}) {
			t.Errorf("tee upsells %v cross-sells %v; hoodie %d cap %d", tee.Upsells, tee.CrossSells, hoodie.ID, cap.ID)
		}

		// Category tree two levels deep.
		cats, err := db.Categories(ctx)
		if err != nil {
			t.Fatal(err)
		}
		byName := map[string]catalog.Category{}
		for _, c := range cats {
			byName[c.Name] = c
		}
		if len(cats) != 5 || byName["T-shirts"].ParentID != byName["Clothing"].ID || byName["Hoodies"].ParentID != byName["Clothing"].ID ||
			byName["Clothing"].ParentID != 0 || byName["Sale"].ParentID != 0 {
			t.Errorf("categories %+v", cats)
		}
		if ids := termIDs(tee.Categories); !reflect.DeepEqual(ids, sorted(byName["T-shirts"].ID, byName["Sale"].ID)) {
			t.Errorf("tee categories %v", tee.Categories)
		}

		// Draft with escaped negative stock and a decimal comma.
		mug := bySlug(t, db, "coffee-mug")
		if mug.Status != catalog.StatusDraft || price(mug.StockQuantity) != "-3" || mug.StockStatus != catalog.StockOnBackorder ||
			mug.Backorders != catalog.BackordersNotify || price(mug.RegularPrice) != "1250" {
			t.Errorf("mug: status %q stock %s %q %q price %s", mug.Status, price(mug.StockQuantity), mug.StockStatus, mug.Backorders, price(mug.RegularPrice))
		}

		// Variable product with global attributes and variations.
		if hoodie.Type != catalog.TypeVariable || hoodie.CatalogVisibility != catalog.VisibilityCatalog || !hoodie.PreOrder ||
			hoodie.PreOrderLabel != "Ships in March" || hoodie.PreOrderAt == nil || !hoodie.PreOrderAt.Equal(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)) {
			t.Errorf("hoodie: %+v", hoodie)
		}
		if hoodie.Meta["_default_attributes"] != `{"pa_color":"red"}` {
			t.Errorf("hoodie defaults %q", hoodie.Meta["_default_attributes"])
		}
		if len(hoodie.Attributes) != 2 {
			t.Fatalf("hoodie attributes %+v", hoodie.Attributes)
		}
		color, size := hoodie.Attributes[0], hoodie.Attributes[1]
		if color.Key() != "pa_color" || color.AttributeID == 0 || !color.Variation || !color.Visible || size.Key() != "pa_size" || !size.Variation {
			t.Errorf("hoodie attributes %+v", hoodie.Attributes)
		}
		if !reflect.DeepEqual(valueNames(size), []string{"S", "M", "L"}) || size.Values[0].TermID == 0 || size.Values[0].Slug != "s" {
			t.Errorf("size values %+v", size.Values)
		}
		attrs, err := db.Attributes(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(attrs) != 2 {
			t.Errorf("global attributes %+v", attrs)
		}
		vars, err := db.Variations(ctx, hoodie.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(vars) != 3 {
			t.Fatalf("hoodie has %d variations", len(vars))
		}
		redS, blue, blueL := vars[0], vars[1], vars[2]
		if redS.SKU != "HOOD-1-RED-S" || redS.ParentID != hoodie.ID || price(redS.RegularPrice) != "4500" || price(redS.SalePrice) != "3900" ||
			price(redS.StockQuantity) != "5" || redS.SaleFrom == nil || !redS.SaleFrom.Equal(time.Date(2026, 2, 1, 8, 0, 0, 0, time.UTC)) ||
			!sameAttrs(redS.Variation, map[string]string{"pa_color": "red", "pa_size": "s"}) {
			t.Errorf("red S: %+v", redS)
		}
		if blue.SKU != "HOOD-1-BLUE" || !sameAttrs(blue.Variation, map[string]string{"pa_color": "blue", "pa_size": ""}) ||
			len(blue.Images) != 1 || blue.Images[0].Src != "http://img.example.invalid/hoodie-blue.jpg" {
			t.Errorf("blue (any size): %+v", blue)
		}
		if blueL.SKU != "" || price(blueL.RegularPrice) != "4800" || !sameAttrs(blueL.Variation, map[string]string{"pa_color": "blue", "pa_size": "l"}) {
			t.Errorf("blue L: %+v", blueL)
		}
		if m := catalog.MatchVariation(vars, map[string]string{"pa_color": "blue", "pa_size": "m"}); m == nil || m.ID != blue.ID {
			t.Errorf("blue M matches %+v, want the any-size variation", m)
		}

		// Grouped and external products.
		set := bySlug(t, db, "breakfast-set")
		if set.Type != catalog.TypeGrouped || !reflect.DeepEqual(set.Children, []int64{mug.ID, tee.ID}) {
			t.Errorf("set children %v (mug %d, tee %d)", set.Children, mug.ID, tee.ID)
		}
		if cap.Type != catalog.TypeExternal || cap.ExternalURL != "https://partner.example.invalid/cap" || cap.ButtonText != "Buy at partner" {
			t.Errorf("cap %+v", cap)
		}
		sticker := bySlug(t, db, "sticker-pack")
		if sticker.SKU != "" || sticker.Status != catalog.StatusPrivate || sticker.Meta["_virtual"] != "yes" {
			t.Errorf("sticker %+v", sticker)
		}

		countBefore, err := db.CountProducts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if countBefore != 9 {
			t.Errorf("CountProducts = %d, want 9", countBefore)
		}

		// Second run: nothing new, everything updated.
		again := importFile(t, db, "testdata/products.csv", opts)
		got = again
		got.Rejected, got.Warnings = nil, nil
		want = Summary{ProductsUpdated: 6, VariationsUpdated: 3, ImagesKeptAsURL: 5}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("second run counts = %+v, want %+v", got, want)
		}
		if len(again.Rejected) != len(wantRejected) {
			t.Errorf("second run rejected %+v", again.Rejected)
		}
		countAfter, err := db.CountProducts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if countAfter != countBefore {
			t.Errorf("CountProducts after second run = %d, want %d", countAfter, countBefore)
		}
		if tee2 := bySlug(t, db, "classic-tee"); tee2.ID != tee.ID || !reflect.DeepEqual(tee2.Upsells, tee.Upsells) || len(tee2.Images) != 2 {
			t.Errorf("tee after second run: %+v", tee2)
		}
		if set2 := bySlug(t, db, "breakfast-set"); !reflect.DeepEqual(set2.Children, set.Children) {
			t.Errorf("set children after second run %v", set2.Children)
		}
		cats2, _ := db.Categories(ctx)
		if len(cats2) != len(cats) {
			t.Errorf("categories after second run: %d, want %d", len(cats2), len(cats))
		}
	})
}

// A file of variations only adds them to a variable product already in the
// shop, keeping the product's own data.
func TestImportVariationsOfExistingParent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		importFile(t, db, "testdata/products.csv", Options{MinorUnit: 2})
		hoodie := bySlug(t, db, "hoodie")

		csv := "Type,SKU,Name,Parent,Regular price,Attribute 1 name,Attribute 1 value(s),Attribute 1 global,Attribute 2 name,Attribute 2 value(s),Attribute 2 global\n" +
			"variation,HOOD-1-RED-L,Hoodie - Red L,HOOD-1,46,Color,Red,1,Size,L,1\n" +
			fmt.Sprintf("variation,HOOD-1-RED-XL,Hoodie - Red XL,id:%d,49,Color,Red,1,Size,XL,1\n", hoodie.ID) +
			"variation,HOOD-1-RED-S,Hoodie - Red S,HOOD-1,44,Color,Red,1,Size,S,1\n" +
			"variation,TEE-9,Tee variation,TEE-1,10,Color,Red,1,,,\n"
		sum, err := Import(ctx, strings.NewReader(csv), db, db, Options{MinorUnit: 2})
		if err != nil {
			t.Fatal(err)
		}
		if sum.ProductsCreated != 0 || sum.ProductsUpdated != 0 || sum.VariationsCreated != 2 || sum.VariationsUpdated != 1 {
			t.Errorf("counts %+v", sum)
		}
		if len(sum.Rejected) != 1 || sum.Rejected[0].Row != 5 || !strings.Contains(sum.Rejected[0].Reason, "not a variable one") {
			t.Errorf("rejected %+v", sum.Rejected)
		}
		after := bySlug(t, db, "hoodie")
		if !reflect.DeepEqual(termIDs(after.Categories), termIDs(hoodie.Categories)) || len(after.Attributes) != 2 ||
			len(after.Images) != len(hoodie.Images) || after.Meta["_pre_order_label"] != "Ships in March" {
			t.Errorf("parent changed: before %+v\nafter %+v", hoodie, after)
		}
		vars, err := db.Variations(ctx, hoodie.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(vars) != 5 {
			t.Errorf("hoodie has %d variations, want 5", len(vars))
		}
		for _, v := range vars {
			if v.SKU == "HOOD-1-RED-S" && price(v.RegularPrice) != "4400" {
				t.Errorf("red S price %s, want 4400", price(v.RegularPrice))
			}
		}
	})
}

func TestImportImages(t *testing.T) {
	var buf bytes.Buffer
	// Wide enough for 600 and 300 px renditions (but not 1200).
	img := image.NewRGBA(image.Rect(0, 0, 800, 400))
	for i := range img.Pix {
		img.Pix[i] = 0xff // opaque white: renditions are JPEGs
	}
	img.Set(400, 200, color.RGBA{R: 200, A: 255})
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	hits := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits[r.URL.Path]++
		switch r.URL.Path {
		case "/uploads/red-dot.png":
			w.Header().Set("Content-Type", "image/png")
			_, _ = w.Write(buf.Bytes())
		case "/uploads/page.png":
			_, _ = w.Write([]byte("<html><body>not an image</body></html>"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()

	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		clear(hits)
		good, missing, html := srv.URL+"/uploads/red-dot.png", srv.URL+"/uploads/missing.png", srv.URL+"/uploads/page.png"
		csv := "Type,SKU,Name,Regular price,Images\n" +
			fmt.Sprintf("simple,IMG-1,Dot Print,5,\"%s, %s\"\n", good, missing) +
			fmt.Sprintf("simple,IMG-2,Dot Poster,9,\"%s, %s\"\n", good, html)
		sum, err := Import(context.Background(), strings.NewReader(csv), db, db, Options{MinorUnit: 2, FetchImages: true, HTTPClient: srv.Client()})
		if err != nil {
			t.Fatal(err)
		}
		if sum.ImagesStored != 1 || sum.ImagesKeptAsURL != 2 || sum.ProductsCreated != 2 || len(sum.Rejected) != 0 {
			t.Errorf("summary %+v", sum)
		}
		if hits["/uploads/red-dot.png"] != 1 {
			t.Errorf("good image fetched %d times, want once", hits["/uploads/red-dot.png"])
		}
		p := bySlug(t, db, "dot-print")
		if len(p.Images) != 2 {
			t.Fatalf("images %+v", p.Images)
		}
		stored, kept := p.Images[0], p.Images[1]
		if !strings.HasPrefix(stored.Src, "/media/imported/") || !strings.HasSuffix(stored.Src, "-red-dot.png") ||
			stored.Width != 800 || stored.Height != 400 || stored.Alt != "Dot Print" {
			t.Errorf("stored image %+v", stored)
		}
		if len(stored.Sizes) != 2 || stored.Sizes[0].Width != 600 || stored.Sizes[0].Height != 300 ||
			stored.Sizes[1].Width != 300 || stored.Sizes[1].Height != 150 {
			t.Fatalf("stored image sizes %+v", stored.Sizes)
		}
		prefix := strings.TrimSuffix(stored.Src, "red-dot.png")
		for _, sz := range stored.Sizes {
			if want := fmt.Sprintf("%sred-dot-%dw.jpg", prefix, sz.Width); sz.Src != want {
				t.Errorf("size %dw at %s, want %s", sz.Width, sz.Src, want)
			}
		}
		// The original and each rendition are stored, at their sizes.
		for _, sz := range append([]catalog.ImageSize{{Src: stored.Src, Width: 800, Height: 400}}, stored.Sizes...) {
			m, err := db.Media(context.Background(), strings.TrimPrefix(sz.Src, "/media/"))
			if err != nil {
				t.Fatalf("media %s: %v", sz.Src, err)
			}
			cfg, format, err := image.DecodeConfig(bytes.NewReader(m.Data))
			if err != nil || cfg.Width != sz.Width || cfg.Height != sz.Height || m.ContentType != "image/"+format {
				t.Errorf("media %s is %dx%d %s (%s), %v", sz.Src, cfg.Width, cfg.Height, format, m.ContentType, err)
			}
		}
		if kept.Src != missing || kept.Name != "missing.png" {
			t.Errorf("kept image %+v", kept)
		}
		poster := bySlug(t, db, "dot-poster")
		if len(poster.Images) != 2 || poster.Images[0].ID != stored.ID || poster.Images[1].Src != html {
			t.Errorf("poster images %+v", poster.Images)
		}
	})
}

func TestImportUnreadable(t *testing.T) {
	db := storetest.Open(t, sqlstore.SQLite)
	for name, in := range map[string]string{
		"empty":   "",
		"no type": "SKU,Name\nA,B\n",
		"binary":  "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
	} {
		if _, err := Import(context.Background(), strings.NewReader(in), db, db, Options{MinorUnit: 2}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	// A BOM, odd title case and a variable product without variations.
	in := "\uFEFFtype,sku,NAME,regular PRICE\nvariable,V-1,Lonely Variable,\n"
	sum, err := Import(context.Background(), strings.NewReader(in), db, db, Options{MinorUnit: 2})
	if err != nil || sum.ProductsCreated != 1 || len(sum.Rejected) != 0 {
		t.Errorf("BOM file: %+v, %v", sum, err)
	}
}

func termNames(ts []catalog.Term) []string {
	return sortedOf(ts, func(t catalog.Term) string { return t.Name })
}

func termIDs(ts []catalog.Term) []int64 {
	return sortedOf(ts, func(t catalog.Term) int64 { return t.ID })
}

// sortedOf is field of every term, sorted (nil for none).
func sortedOf[T cmp.Ordered](ts []catalog.Term, field func(catalog.Term) T) []T {
	var out []T
	for _, t := range ts {
		out = append(out, field(t))
	}
	slices.Sort(out)
	return out
}

func sorted(ids ...int64) []int64 {
	slices.Sort(ids)
	return ids
}

func valueNames(a catalog.ProductAttribute) []string {
	var out []string
	for _, v := range a.Values {
		out = append(out, v.Name)
	}
	return out
}

func sameAttrs(va []catalog.VariationAttr, want map[string]string) bool {
	got := map[string]string{}
	for _, a := range va {
		got[a.Name] = a.Value
	}
	return reflect.DeepEqual(got, want)
}

// TestReimportKeepsShopComputed: importing the same file again updates the
// products but leaves what the shop computed itself (sales counted by
// orders, the rating and count of the reviews), on products and variations.
func TestReimportKeepsShopComputed(t *testing.T) {
	storetest.EachDSN(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db := storetest.OpenDSN(t, dsn)
		importFile(t, db, "testdata/products.csv", Options{MinorUnit: 2})
		tee, hoodie := bySlug(t, db, "classic-tee"), bySlug(t, db, "hoodie")
		vars, err := db.Variations(ctx, hoodie.ID)
		if err != nil || len(vars) == 0 {
			t.Fatalf("hoodie variations: %d, %v", len(vars), err)
		}
		variation := vars[0].ID
		// Two reviewers: a product has one review per email (00016_reviews.sql).
		for i, rating := range []int{5, 4} {
			if err := db.SaveReview(ctx, &catalog.Review{ProductID: tee.ID, Author: "A", Email: fmt.Sprintf("a%d@example.com", i), Rating: rating, Approved: true}); err != nil {
				t.Fatal(err)
			}
		}
		raw := storetest.OpenRaw(t, dsn)
		for id, n := range map[int64]int{tee.ID: 7, hoodie.ID: 3, variation: 3} {
			if _, err := raw.Exec(raw.Rebind(`UPDATE products SET total_sales = ? WHERE id = ?`), n, id); err != nil {
				t.Fatal(err)
			}
		}
		type computed struct {
			Sales   int64   `db:"total_sales"`
			Rating  float64 `db:"average_rating"`
			Reviews int     `db:"review_count"`
		}
		read := func(id int64) computed {
			var c computed
			if err := raw.Get(&c, raw.Rebind(`SELECT total_sales, average_rating, review_count FROM products WHERE id = ?`), id); err != nil {
				t.Fatal(err)
			}
			return c
		}
		want := map[int64]computed{tee.ID: {7, 4.5, 2}, hoodie.ID: {3, 0, 0}, variation: {3, 0, 0}}
		for id, w := range want {
			if got := read(id); got != w {
				t.Fatalf("before the re-import, product %d: %+v, want %+v", id, got, w)
			}
		}

		sum := importFile(t, db, "testdata/products.csv", Options{MinorUnit: 2})
		if sum.ProductsUpdated == 0 || sum.VariationsUpdated == 0 {
			t.Fatalf("the re-import updated nothing: %+v", sum)
		}
		for id, w := range want {
			if got := read(id); got != w {
				t.Errorf("after the re-import, product %d: %+v, want %+v", id, got, w)
			}
		}
		// What the file owns is still written: its stock.
		if p := bySlug(t, db, "classic-tee"); p.StockQuantity == nil || *p.StockQuantity != 25 {
			t.Errorf("classic tee stock %v, want the file's 25", p.StockQuantity)
		}
	})
}
