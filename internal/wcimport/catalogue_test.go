package wcimport_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
	"vitrine/internal/wcimport"
	"vitrine/internal/wcimport/standin"
	"vitrine/internal/wcimport/wcrest"
)

const ck, cs = "ck_0123456789abcdef0123456789abcdef01234567", "cs_0123456789abcdef0123456789abcdef01234567"

// shopFixture is a stand-in shop on loopback and a store to move it into.
type shopFixture struct {
	shop  *standin.Shop
	srv   *httptest.Server
	db    *sqlstore.DB
	clock *storetest.Clock
}

func newFixture(t *testing.T, engine string, products int) *shopFixture {
	t.Helper()
	shop := standin.Catalogue(products)
	srv := httptest.NewServer(standin.Server(shop, ck, cs))
	t.Cleanup(srv.Close)
	clock := storetest.FrozenClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	db := storetest.Open(t, engine)
	db.SetClock(clock.Now)
	return &shopFixture{shop: shop, srv: srv, db: db, clock: clock}
}

func (f *shopFixture) client(perPage int) *wcrest.Client {
	return &wcrest.Client{Base: f.srv.URL, ConsumerKey: ck, ConsumerSecret: cs, PerPage: perPage,
		Sleep: func(context.Context, time.Duration) error { return nil }}
}

func (f *shopFixture) deps() wcimport.Deps {
	return wcimport.Deps{
		Legacy: f.db,
		Catalogue: wcimport.CatalogueDeps{Store: f.db, Writer: f.db, MinorUnit: 2,
			Admin: &catalog.Admin{Store: f.db, MinorUnit: 2, Now: f.clock.Now}},
		Now:     f.clock.Now,
		Analyze: f.db.Analyze,
	}
}

func (f *shopFixture) run(t *testing.T, src wcimport.Source, dry bool) (wcimport.Report, error) {
	t.Helper()
	return wcimport.New(f.deps(), src, wcimport.Options{Source: f.srv.URL, DryRun: dry, Concurrency: 3}).Execute(context.Background())
}

func mustRun(t *testing.T, f *shopFixture, src wcimport.Source, dry bool) wcimport.Report {
	t.Helper()
	rep, err := f.run(t, src, dry)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return rep
}

func eachEngine(t *testing.T, fn func(t *testing.T, engine string)) {
	for _, e := range storetest.Engines(t) {
		t.Run(e, func(t *testing.T) { fn(t, e) })
	}
}

func str(o standin.Object, k string) string {
	s, _ := o[k].(string)
	return s
}

func num(v any) int64 {
	switch n := v.(type) {
	case int64:
		return n
	case int:
		return int64(n)
	case float64:
		return int64(n)
	}
	return 0
}

func cents(s string) *int64 {
	if s == "" {
		return nil
	}
	var whole, frac int64
	parts := strings.SplitN(s, ".", 2)
	fmt.Sscan(parts[0], &whole)
	if len(parts) == 2 {
		fmt.Sscan((parts[1] + "00")[:2], &frac)
	}
	n := whole*100 + frac
	return &n
}

func eqPrice(a, b *int64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func gmt(v any) *time.Time {
	s, ok := v.(string)
	if !ok || s == "" {
		return nil
	}
	t, err := time.Parse("2006-01-02T15:04:05", s)
	if err != nil {
		return nil
	}
	return &t
}

func eqTime(a, b *time.Time) bool { return (a == nil) == (b == nil) && (a == nil || a.Equal(*b)) }

func newID(t *testing.T, db *sqlstore.DB, kind string, old int64) int64 {
	t.Helper()
	l, ok, err := db.LegacyByOldID(context.Background(), kind, old)
	if err != nil || !ok {
		t.Fatalf("%s %d has no legacy id (%v)", kind, old, err)
	}
	return l.NewID
}

// The whole catalogue arrives field for field: every product type, the
// variations with their "any" attribute, prices and sale schedules,
// stock and quantity rules, images in order with their alt text, the
// category tree, tags, attributes with swatch colours, up-sells,
// cross-sells and grouped children, and each old permalink's path.
func TestCatalogueImportFieldForField(t *testing.T) {
	eachEngine(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		f := newFixture(t, engine, 16)
		rep := mustRun(t, f, f.client(5), false)
		want := map[string]wcimport.Count{
			"attributes":      {Read: 2, Created: 2},
			"attribute_terms": {Read: 6, Created: 6},
			"categories":      {Read: 6, Created: 6},
			"tags":            {Read: 3, Created: 3},
			"products":        {Read: 16, Created: 16},
			"variations":      {Read: 0, Created: 3*2 + 9*2},
		}
		for name, c := range want {
			got := rep.Counts[name]
			if name == "variations" {
				got.Read = 0
			}
			if got != c {
				t.Errorf("%s: %+v, want %+v", name, rep.Counts[name], c)
			}
		}
		if len(rep.Refusals) != 0 {
			t.Errorf("refusals: %+v", rep.Refusals)
		}
		if len(rep.Warnings) != 1 || rep.Warnings[0].OldID != num(f.shop.Products[0]["id"]) || !strings.Contains(rep.Warnings[0].Message, "999999") {
			t.Errorf("warnings = %+v, want the cross-sell to the deleted product 999999", rep.Warnings)
		}

		// Attributes, terms and swatches.
		attrs, err := f.db.Attributes(ctx)
		if err != nil {
			t.Fatal(err)
		}
		byTax := map[string]catalog.Attribute{}
		for _, a := range attrs {
			byTax[a.Taxonomy()] = a
		}
		if byTax["pa_color"].Type != catalog.SwatchColor || byTax["pa_size"].Type != catalog.SwatchSelect || !byTax["pa_size"].HasArchives {
			t.Errorf("attributes = %+v", attrs)
		}
		for _, o := range f.shop.AttributeTerms[1] {
			id := newID(t, f.db, "term", num(o["id"]))
			terms, _ := f.db.AttributeTerms(ctx, byTax["pa_color"].ID)
			var got catalog.AttrTerm
			for _, tm := range terms {
				if tm.ID == id {
					got = tm
				}
			}
			wantColor := o["meta_data"].([]standin.Object)[0]["value"]
			if got.Name != str(o, "name") || got.Slug != str(o, "slug") || got.Color != wantColor || int64(got.MenuOrder) != num(o["menu_order"]) {
				t.Errorf("term %v = %+v", o["name"], got)
			}
		}

		// The category tree, with descriptions, images and old paths.
		cats, _ := f.db.Categories(ctx)
		byID := map[int64]catalog.Category{}
		for _, c := range cats {
			byID[c.ID] = c
		}
		for _, o := range f.shop.Categories {
			id := newID(t, f.db, "category", num(o["id"]))
			c := byID[id]
			var parent int64
			if p := num(o["parent"]); p != 0 {
				parent = newID(t, f.db, "category", p)
			}
			if c.Name != str(o, "name") || c.Slug != str(o, "slug") || c.ParentID != parent || c.Description != str(o, "description") ||
				int64(c.MenuOrder) != num(o["menu_order"]) {
				t.Errorf("category %v = %+v (parent want %d)", o["name"], c, parent)
			}
			if img, _ := o["image"].(standin.Object); img != nil {
				if c.ImageID == 0 {
					t.Errorf("category %v lost its image", o["name"])
				} else if im, err := f.db.ImageByID(ctx, c.ImageID); err != nil || im.Alt != str(img, "alt") || !strings.HasPrefix(im.Src, "/media/") {
					t.Errorf("category image = %+v, %v", im, err)
				}
			}
		}
		if l, _, _ := f.db.LegacyByOldID(ctx, "category", 18); l.OldPath != "/product-category/clothing/hoodies/" {
			t.Errorf("Hoodies' old path = %q", l.OldPath)
		}
		if l, _, _ := f.db.LegacyByPath(ctx, "/product-tag/gift/"); l.Kind != "tag" || l.OldID != 31 {
			t.Errorf("the Gift tag's old path resolves to %+v", l)
		}

		// Products.
		types := map[string]int{}
		for _, o := range f.shop.Products {
			old := num(o["id"])
			id := newID(t, f.db, "product", old)
			p, err := f.db.Product(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			types[p.Type]++
			name := str(o, "name")
			if p.Name != name || p.Slug != str(o, "slug") || p.Type != str(o, "type") || p.SKU != str(o, "sku") ||
				p.Status != "publish" || p.Description != str(o, "description") || p.ShortDescription != str(o, "short_description") {
				t.Errorf("%s = %+v", name, p)
			}
			if l, _, _ := f.db.LegacyByOldID(ctx, "product", old); l.OldPath != "/product/"+str(o, "slug")+"/" {
				t.Errorf("%s old path %q", name, l.OldPath)
			}
			if p.Type != "variable" && p.Type != "grouped" {
				if !eqPrice(p.RegularPrice, cents(str(o, "regular_price"))) || !eqPrice(p.SalePrice, cents(str(o, "sale_price"))) {
					t.Errorf("%s prices %v %v, want %q %q", name, p.RegularPrice, p.SalePrice, o["regular_price"], o["sale_price"])
				}
			}
			if !eqTime(p.SaleFrom, gmt(o["date_on_sale_from_gmt"])) || !eqTime(p.SaleTo, gmt(o["date_on_sale_to_gmt"])) {
				t.Errorf("%s sale %v–%v, want %v–%v", name, p.SaleFrom, p.SaleTo, o["date_on_sale_from_gmt"], o["date_on_sale_to_gmt"])
			}
			if p.ManageStock != (o["manage_stock"] == true) || p.StockStatus != str(o, "stock_status") || p.Backorders != str(o, "backorders") {
				t.Errorf("%s stock %v %v %v", name, p.ManageStock, p.StockStatus, p.Backorders)
			}
			if q, ok := o["stock_quantity"].(int64); ok && (p.StockQuantity == nil || *p.StockQuantity != q) {
				t.Errorf("%s stock quantity %v, want %d", name, p.StockQuantity, q)
			}
			if la, ok := o["low_stock_amount"].(int64); ok && (p.LowStockAmount == nil || *p.LowStockAmount != la) {
				t.Errorf("%s low stock %v, want %d", name, p.LowStockAmount, la)
			}
			if p.ExternalURL != str(o, "external_url") || p.ButtonText != str(o, "button_text") {
				t.Errorf("%s external %q %q", name, p.ExternalURL, p.ButtonText)
			}
			for _, m := range o["meta_data"].([]standin.Object) {
				want := map[string]int64{"minimum_allowed_quantity": p.MinQty, "maximum_allowed_quantity": p.MaxQty, "group_of_quantity": p.Step}
				if got, ok := want[str(m, "key")]; ok && fmt.Sprint(got) != str(m, "value") {
					t.Errorf("%s %s = %d, want %s", name, str(m, "key"), got, str(m, "value"))
				}
			}
			// Images in order, with their alt text.
			imgs := o["images"].([]standin.Object)
			if len(p.Images) != len(imgs) {
				t.Errorf("%s has %d images, want %d", name, len(p.Images), len(imgs))
			} else {
				for i, im := range imgs {
					if p.Images[i].ID != newID(t, f.db, "media", num(im["id"])) || p.Images[i].Alt != str(im, "alt") ||
						p.Images[i].Name != str(im, "name") {
						t.Errorf("%s image %d = %+v, want %v", name, i, p.Images[i], im)
					}
				}
			}
			// Categories and tags.
			var wantCats, gotCats []int64
			for _, c := range o["categories"].([]standin.Object) {
				wantCats = append(wantCats, newID(t, f.db, "category", num(c["id"])))
			}
			for _, c := range p.Categories {
				gotCats = append(gotCats, c.ID)
			}
			if fmt.Sprint(sorted(wantCats)) != fmt.Sprint(sorted(gotCats)) {
				t.Errorf("%s categories %v, want %v", name, gotCats, wantCats)
			}
			var wantTags []string
			for _, tg := range o["tags"].([]standin.Object) {
				wantTags = append(wantTags, str(tg, "slug"))
			}
			var gotTags []string
			for _, tg := range p.Tags {
				gotTags = append(gotTags, tg.Slug)
			}
			if strings.Join(wantTags, ",") != strings.Join(gotTags, ",") {
				t.Errorf("%s tags %v, want %v", name, gotTags, wantTags)
			}
			// Links, forward ones included; the deleted product left out.
			mapIDs := func(old []int64) []int64 {
				var out []int64
				for _, o := range old {
					if l, ok, _ := f.db.LegacyByOldID(ctx, "product", o); ok {
						out = append(out, l.NewID)
					}
				}
				return out
			}
			if fmt.Sprint(p.Upsells) != fmt.Sprint(mapIDs(o["upsell_ids"].([]int64))) ||
				fmt.Sprint(p.CrossSells) != fmt.Sprint(mapIDs(o["cross_sell_ids"].([]int64))) ||
				fmt.Sprint(p.Children) != fmt.Sprint(mapIDs(o["grouped_products"].([]int64))) {
				t.Errorf("%s links up %v cross %v kids %v; want %v %v %v", name, p.Upsells, p.CrossSells, p.Children,
					o["upsell_ids"], o["cross_sell_ids"], o["grouped_products"])
			}
			if p.Type == "grouped" && len(p.Children) != 2 {
				t.Errorf("%s has children %v, want 2 (one listed after it)", name, p.Children)
			}
			if p.Type == "variable" {
				checkVariations(t, f, p, o)
			}
		}
		if types["simple"] == 0 || types["variable"] == 0 || types["grouped"] == 0 || types["external"] == 0 {
			t.Errorf("types = %v", types)
		}
	})
}

func sorted(v []int64) []int64 {
	sort.Slice(v, func(i, j int) bool { return v[i] < v[j] })
	return v
}

func checkVariations(t *testing.T, f *shopFixture, p *catalog.Product, o standin.Object) {
	t.Helper()
	ctx := context.Background()
	vars, err := f.db.Variations(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	olds := f.shop.Variations[num(o["id"])]
	if len(vars) != len(olds) {
		t.Fatalf("%s has %d variations, want %d", p.Name, len(vars), len(olds))
	}
	anyAttr := len(olds) == 3
	var axes []string
	for _, a := range p.Attributes {
		if a.Variation {
			axes = append(axes, a.Key())
		}
	}
	if strings.Join(axes, ",") != "pa_color,pa_size" || len(p.Attributes) != 3 || p.Attributes[2].Name != "Material" || p.Attributes[2].Variation {
		t.Errorf("%s attributes %+v", p.Name, p.Attributes)
	}
	byID := map[int64]*catalog.Product{}
	for _, v := range vars {
		byID[v.ID] = v
	}
	for _, ov := range olds {
		v := byID[newID(t, f.db, "variation", num(ov["id"]))]
		if v == nil {
			t.Fatalf("variation %v missing", ov["id"])
		}
		if v.SKU != str(ov, "sku") || !eqPrice(v.RegularPrice, cents(str(ov, "regular_price"))) || !eqPrice(v.SalePrice, cents(str(ov, "sale_price"))) ||
			!eqTime(v.SaleFrom, gmt(ov["date_on_sale_from_gmt"])) || !eqTime(v.SaleTo, gmt(ov["date_on_sale_to_gmt"])) ||
			!v.ManageStock || v.StockQuantity == nil || *v.StockQuantity != num(ov["stock_quantity"]) {
			t.Errorf("variation %s = %+v", str(ov, "sku"), v)
		}
		attrs := map[string]string{}
		for _, a := range v.Variation {
			attrs[a.Name] = a.Value
		}
		color := strings.ToLower(ov["attributes"].([]standin.Object)[0]["option"].(string))
		size, hasSize := attrs["pa_size"]
		if attrs["pa_color"] != color || !hasSize || (anyAttr && size != "") || (!anyAttr && size == "") {
			t.Errorf("variation %s attributes %v (any size: %v)", str(ov, "sku"), attrs, anyAttr)
		}
		img := ov["image"].(standin.Object)
		if len(v.Images) != 1 || v.Images[0].Alt != str(img, "alt") {
			t.Errorf("variation %s images %+v", str(ov, "sku"), v.Images)
		}
	}
}

// A second run of an unchanged shop changes nothing; after a price and a
// new product in the old shop, exactly those are written.
func TestCatalogueRerun(t *testing.T) {
	eachEngine(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		f := newFixture(t, engine, 10)
		mustRun(t, f, f.client(4), false)
		n1, _ := f.db.CountProducts(ctx)

		rep := mustRun(t, f, f.client(4), false)
		for name, c := range rep.Counts {
			if c.Created+c.Updated+c.Refused != 0 || c.Unchanged != c.Read {
				t.Errorf("re-run %s: %+v, want every record unchanged", name, c)
			}
		}
		if n2, _ := f.db.CountProducts(ctx); n2 != n1 {
			t.Errorf("re-run: %d products and variations, was %d", n2, n1)
		}

		// A price changes; a product is added.
		f.shop.Products[1]["regular_price"] = "99.00"
		extra := standin.Catalogue(18).Products[16] // a variable product's shape
		extra = clone(extra)
		extra["type"], extra["attributes"], extra["variations"] = "simple", []standin.Object{}, []int64{}
		extra["id"], extra["sku"], extra["slug"], extra["name"] = int64(777), "SKU-NEW", "brand-new", "Brand new"
		extra["regular_price"], extra["upsell_ids"], extra["cross_sell_ids"] = "12.00", []int64{num(f.shop.Products[0]["id"])}, []int64{}
		extra["images"] = []standin.Object{}
		f.shop.Products = append(f.shop.Products, extra)

		rep = mustRun(t, f, f.client(4), false)
		if c := rep.Counts["products"]; c.Created != 1 || c.Updated != 1 || c.Unchanged != 9 || c.Read != 11 {
			t.Errorf("after the change: products %+v", c)
		}
		p, _ := f.db.Product(ctx, newID(t, f.db, "product", num(f.shop.Products[1]["id"])))
		if p.RegularPrice == nil || *p.RegularPrice != 9900 {
			t.Errorf("price after the change %v", p.RegularPrice)
		}
		np, err := f.db.Product(ctx, newID(t, f.db, "product", 777))
		if err != nil || np.Name != "Brand new" || len(np.Upsells) != 1 {
			t.Errorf("new product %+v %v", np, err)
		}
		if n3, _ := f.db.CountProducts(ctx); n3 != n1+1 {
			t.Errorf("after the change %d products, want %d", n3, n1+1)
		}
	})
}

func clone(o standin.Object) standin.Object {
	b, _ := json.Marshal(o)
	var out standin.Object
	_ = json.Unmarshal(b, &out)
	return out
}

// failing is a source whose product list fails from a page on, as an old
// shop that goes away mid-run.
type failing struct {
	wcimport.Source
	failFrom int
	lists    atomic.Int32
}

func (s *failing) List(ctx context.Context, path string, q url.Values, page int) ([]json.RawMessage, int, error) {
	if path == "wc/v3/products" && page >= s.failFrom {
		return nil, 0, errors.New("connection reset by peer")
	}
	s.lists.Add(1)
	return s.Source.List(ctx, path, q, page)
}

// An interrupted run resumes after the last page it finished: the pages
// done are not read again as records, nothing is duplicated, and the
// resource's progress is cleared once complete.
func TestCatalogueResume(t *testing.T) {
	eachEngine(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		f := newFixture(t, engine, 16)
		src := &failing{Source: f.client(4), failFrom: 3}
		rep, err := f.run(t, src, false)
		if err == nil || !strings.Contains(err.Error(), "connection reset") {
			t.Fatalf("interrupted run: %v", err)
		}
		if c := rep.Counts["products"]; c.Created != 8 {
			t.Errorf("interrupted after 2 pages of 4: products %+v", c)
		}
		if done, _ := f.db.ImportPagesDone(ctx, f.srv.URL, "products"); done != 2 {
			t.Errorf("pages done = %d, want 2", done)
		}
		rep = mustRun(t, f, f.client(4), false)
		if c := rep.Counts["products"]; c.Read != 8 || c.Created != 8 {
			t.Errorf("resumed run: products %+v, want the 8 of pages 3 and 4", c)
		}
		if done, _ := f.db.ImportPagesDone(ctx, f.srv.URL, "products"); done != 0 {
			t.Errorf("pages done after completing = %d", done)
		}
		ids, _ := f.db.LegacyIDs(ctx, "product")
		if len(ids) != 16 {
			t.Errorf("%d products imported, want 16", len(ids))
		}
		// The links of the first pages, which pointed forward into pages
		// not read before the interruption, are set by the second pass.
		p, _ := f.db.Product(ctx, ids[num(f.shop.Products[7]["id"])])
		if len(p.Upsells) != 1 || p.Upsells[0] != ids[num(f.shop.Products[8]["id"])] {
			t.Errorf("product 8's up-sell %v", p.Upsells)
		}
		all, _, _ := f.db.QueryProducts(ctx, catalog.ProductQuery{PerPage: 100, Visibility: "all"})
		if len(all) != 16 {
			t.Errorf("%d products in the shop, want 16", len(all))
		}
	})
}

// A dry run reads everything, writes nothing, and counts what a real run
// then does.
func TestCatalogueDryRun(t *testing.T) {
	eachEngine(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		f := newFixture(t, engine, 12)
		dry := mustRun(t, f, f.client(5), true)
		if !dry.DryRun {
			t.Error("report not marked dry")
		}
		if n, _ := f.db.CountProducts(ctx); n != 0 {
			t.Errorf("dry run wrote %d products", n)
		}
		for _, k := range []string{"product", "category", "tag", "attribute", "term", "media"} {
			if ids, _ := f.db.LegacyIDs(ctx, k); len(ids) != 0 {
				t.Errorf("dry run recorded %d %s ids", len(ids), k)
			}
		}
		if cats, _ := f.db.Categories(ctx); len(cats) > 1 {
			t.Errorf("dry run made categories: %+v", cats)
		}
		real := mustRun(t, f, f.client(5), false)
		for _, name := range real.Resources {
			if dry.Counts[name] != real.Counts[name] {
				t.Errorf("%s: dry %+v, real %+v", name, dry.Counts[name], real.Counts[name])
			}
		}
		if len(dry.Warnings) != len(real.Warnings) || len(dry.Refusals) != len(real.Refusals) {
			t.Errorf("dry warnings %v refusals %v; real %v %v", dry.Warnings, dry.Refusals, real.Warnings, real.Refusals)
		}
	})
}

// A record the shop cannot hold is refused with its reason; the others
// are imported and the run goes on.
func TestCatalogueRefusal(t *testing.T) {
	eachEngine(t, func(t *testing.T, engine string) {
		f := newFixture(t, engine, 8)
		f.shop.Products[1]["regular_price"] = "twelve"
		rep := mustRun(t, f, f.client(100), false)
		if c := rep.Counts["products"]; c.Refused != 1 || c.Created != 7 {
			t.Errorf("products %+v", c)
		}
		if len(rep.Refusals) != 1 || rep.Refusals[0].OldID != num(f.shop.Products[1]["id"]) ||
			!strings.Contains(rep.Refusals[0].Reason, `"twelve" is not a price`) || !strings.Contains(rep.Refusals[0].Name, "SKU-00002") {
			t.Errorf("refusals %+v", rep.Refusals)
		}
		if _, ok, _ := f.db.LegacyByOldID(context.Background(), "product", num(f.shop.Products[1]["id"])); ok {
			t.Error("the refused product was recorded")
		}
	})
}

// lockedDown is a shop that refuses WordPress's own API (wp/v2) to keys,
// as security plugins do, and answers its image sources as paths.
type lockedDown struct {
	wcimport.Source
	status int
}

type statusError int

func (e statusError) Error() string   { return fmt.Sprintf("the old shop answered %d", int(e)) }
func (e statusError) HTTPStatus() int { return int(e) }

func (l *lockedDown) List(ctx context.Context, path string, query url.Values, page int) ([]json.RawMessage, int, error) {
	if strings.HasPrefix(path, "wp/v2/") {
		return nil, 0, statusError(l.status)
	}
	items, pages, err := l.Source.List(ctx, path, query, page)
	for i, raw := range items {
		items[i] = json.RawMessage(strings.ReplaceAll(string(raw), `"src":"`+standin.Origin, `"src":"`))
	}
	return items, pages, err
}

// A shop that refuses wp/v2 to the key still moves in: its pages and
// review replies are skipped with a warning each; an image source given
// as a path is fetched from the old shop's origin. A refusal of the
// WooCommerce API itself still stops the run.
func TestLockedDownShop(t *testing.T) {
	eachEngine(t, func(t *testing.T, engine string) {
		f := newFixture(t, engine, 6)
		for _, status := range []int{401, 404} {
			rep := mustRun(t, f, &lockedDown{Source: f.client(100), status: status}, false)
			var skipped []string
			for _, w := range rep.Warnings {
				if strings.Contains(w.Message, "does not serve wp/v2/") {
					skipped = append(skipped, w.Resource)
				}
				if strings.Contains(w.Message, "image") {
					t.Errorf("an image left out: %+v", w)
				}
			}
			if len(skipped) != 2 || !slices.Contains(skipped, "pages") || !slices.Contains(skipped, "review-replies") {
				t.Errorf("%d: skipped %v, want pages and review-replies; warnings %+v", status, skipped, rep.Warnings)
			}
			if c := rep.Counts["products"]; c.Read != 6 || c.Refused != 0 {
				t.Errorf("%d: products %+v", status, c)
			}
		}
		imgs, err := f.db.LegacyIDs(context.Background(), "media")
		if err != nil || len(imgs) == 0 {
			t.Errorf("no image moved in from paths: %v %v", imgs, err)
		}
		if _, err := f.run(t, &lockedDown{Source: &refusedAll{f.client(100)}, status: 404}, false); err == nil {
			t.Error("a shop refusing the WooCommerce API did not stop the run")
		}
	})
}

// refusedAll refuses every WooCommerce listing (a key without rights).
type refusedAll struct{ wcimport.Source }

func (refusedAll) List(context.Context, string, url.Values, int) ([]json.RawMessage, int, error) {
	return nil, 0, statusError(403)
}
