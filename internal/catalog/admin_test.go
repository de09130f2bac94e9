package catalog_test

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/seed"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// The admin's use cases on both engines, without HTTP.

var adminNow = time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)

func newAdmin(t *testing.T, db *sqlstore.DB) *catalog.Admin {
	t.Helper()
	db.SetClock(func() time.Time { return adminNow })
	if _, err := seed.Demo(context.Background(), db, adminNow.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	return &catalog.Admin{Store: db, MinorUnit: 2, Now: func() time.Time { return adminNow }}
}

func s(v string) *string { return &v }

func inputErr(t *testing.T, err error, field string) {
	t.Helper()
	var ie *catalog.InputError
	if !errors.As(err, &ie) || ie.Field != field {
		t.Fatalf("want an input error on %s, got %v", field, err)
	}
}

// changes are the change-log entries after last.
func changes(t *testing.T, db *sqlstore.DB, last int64) []catalog.Change {
	t.Helper()
	cs, err := db.ChangesSince(context.Background(), last, 500)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func lastChange(t *testing.T, db *sqlstore.DB) int64 {
	t.Helper()
	n, err := db.LastChange(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestAdminCreateEditAndVersions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		a := newAdmin(t, db)
		cats, _ := db.Categories(ctx)
		imgs, _ := db.Images(ctx, "", 5)
		if len(cats) == 0 || len(imgs) == 0 {
			t.Fatal("the demo has no categories or images")
		}
		mark := lastChange(t, db)
		p, err := a.Create(ctx, catalog.ProductInput{Name: s("  Linen Apron "), RegularPrice: s("24.50"), SKU: s("APRON-1"),
			Categories: &[]int64{cats[0].ID}, Images: &[]catalog.ImageRef{{ID: imgs[0].ID}, {Src: imgs[1].Src}}})
		if err != nil {
			t.Fatal(err)
		}
		if p.Name != "Linen Apron" || p.Slug != "linen-apron" || p.Status != catalog.StatusDraft || *p.RegularPrice != 2450 ||
			len(p.Categories) != 1 || len(p.Images) != 2 || p.Images[1].ID != imgs[1].ID || p.Version != 1 {
			t.Fatalf("created: %+v", p)
		}
		if cs := changes(t, db, mark); len(cs) != 1 || cs[0].ProductID != p.ID || cs[0].Kind != "product_listed" {
			t.Errorf("create's change log: %+v", cs)
		}

		// An edit based on the current version goes through and makes a new one.
		mark = lastChange(t, db)
		e, err := a.Update(ctx, p.ID, 1, catalog.ProductInput{RegularPrice: s("19.99"), SalePrice: s("15"), Status: s("publish")})
		if err != nil {
			t.Fatal(err)
		}
		if *e.RegularPrice != 1999 || *e.SalePrice != 1500 || e.Status != "publish" || e.Version != 2 || e.SKU != "APRON-1" || len(e.Images) != 2 {
			t.Fatalf("edited: %+v", e)
		}
		if cs := changes(t, db, mark); len(cs) != 1 || cs[0].ProductID != p.ID {
			t.Errorf("edit's change log: %+v", cs)
		}
		// An edit based on version 1 is stale now: refused, nothing written.
		mark = lastChange(t, db)
		if _, err := a.Update(ctx, p.ID, 1, catalog.ProductInput{RegularPrice: s("1")}); !errors.Is(err, catalog.ErrStale) {
			t.Fatalf("stale edit: %v", err)
		}
		// Even when the check in the service is raced: the store's own
		// check refuses a write based on an old version.
		e.RegularPrice = new(int64)
		if err := db.UpdateProduct(ctx, e, nil, nil, 1); !errors.Is(err, catalog.ErrStale) {
			t.Fatalf("store's stale check: %v", err)
		}
		if got, _ := db.Product(ctx, p.ID); *got.RegularPrice != 1999 || got.Version != 2 {
			t.Errorf("a stale edit changed the product: %+v", got)
		}
		if cs := changes(t, db, mark); len(cs) != 0 {
			t.Errorf("refused edits logged changes: %+v", cs)
		}
		if _, err := a.Update(ctx, 999999, 1, catalog.ProductInput{}); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("missing product: %v", err)
		}

		// Bad input: a clear error naming the field, nothing changed.
		for _, c := range []struct {
			in    catalog.ProductInput
			field string
		}{
			{catalog.ProductInput{Name: s("  ")}, "name"},
			{catalog.ProductInput{RegularPrice: s("12.345")}, "regular_price"},
			{catalog.ProductInput{RegularPrice: s("abc")}, "regular_price"},
			{catalog.ProductInput{SalePrice: s("30")}, "sale_price"},
			{catalog.ProductInput{Type: s("bundle")}, "type"},
			{catalog.ProductInput{Status: s("trash")}, "status"},
			{catalog.ProductInput{Status: s("future")}, "date_publish_gmt"},
			{catalog.ProductInput{StockStatus: s("plenty")}, "stock_status"},
			{catalog.ProductInput{Categories: &[]int64{424242}}, "categories"},
			{catalog.ProductInput{Images: &[]catalog.ImageRef{{Src: "https://elsewhere.example/x.jpg"}}}, "images"},
			{catalog.ProductInput{Attributes: &[]catalog.AttributeInput{{ID: 9999, Options: []string{"x"}}}}, "attributes"},
		} {
			_, err := a.Update(ctx, p.ID, 2, c.in)
			inputErr(t, err, c.field)
		}
		if got, _ := db.Product(ctx, p.ID); *got.RegularPrice != 1999 || got.Version != 2 {
			t.Errorf("a refused edit changed the product: %+v", got)
		}
		// A SKU another product has.
		other, _ := a.Create(ctx, catalog.ProductInput{Name: s("Other"), SKU: s("OTHER-1")})
		if _, err := a.Update(ctx, p.ID, 2, catalog.ProductInput{SKU: s("OTHER-1")}); err == nil {
			t.Fatal("a taken SKU was accepted")
		} else {
			inputErr(t, err, "sku")
		}
		if other.SKU != "OTHER-1" {
			t.Errorf("other: %+v", other)
		}
	})
}

// Edits raced on one version: exactly one is written, the others are
// stale, whatever the engine's locking.
func TestAdminConcurrentEdits(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		a := newAdmin(t, db)
		p, err := a.Create(ctx, catalog.ProductInput{Name: s("Race Mug"), RegularPrice: s("5")})
		if err != nil {
			t.Fatal(err)
		}
		const n = 8
		errs := make(chan error, n)
		for i := 0; i < n; i++ {
			go func(i int) {
				price := strconv.Itoa(10 + i)
				_, err := a.Update(ctx, p.ID, p.Version, catalog.ProductInput{RegularPrice: &price})
				errs <- err
			}(i)
		}
		ok, stale := 0, 0
		for i := 0; i < n; i++ {
			switch err := <-errs; {
			case err == nil:
				ok++
			case errors.Is(err, catalog.ErrStale):
				stale++
			default:
				t.Errorf("edit: %v", err)
			}
		}
		if ok != 1 || stale != n-1 {
			t.Errorf("%d edits written, %d stale; want 1 and %d", ok, stale, n-1)
		}
		if got := mustVersion(t, db, p.ID); got != p.Version+1 {
			t.Errorf("version %d after the race, want %d", got, p.Version+1)
		}
	})
}

func TestAdminListBulkScheduleDuplicate(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		a := newAdmin(t, db)
		p, err := a.Create(ctx, catalog.ProductInput{Name: s("Zebra Mug"), SKU: s("ZEB-1"), RegularPrice: s("9")})
		if err != nil {
			t.Fatal(err)
		}
		all, total, err := a.List(ctx, catalog.AdminQuery{})
		if err != nil || total < 10 || len(all) != 20 && len(all) != total || all[0].ID != p.ID {
			t.Fatalf("list: %d of %d %v (first %d)", len(all), total, err, all[0].ID)
		}
		for _, q := range []catalog.AdminQuery{{Search: "zebra"}, {Search: "zeb-1"}, {Status: "draft", Search: "mug"}} {
			got, n, err := a.List(ctx, q)
			if err != nil || n != 1 || got[0].ID != p.ID {
				t.Errorf("%+v: %d %v", q, n, err)
			}
		}
		if got, n, _ := a.List(ctx, catalog.AdminQuery{Type: "variable"}); n == 0 || got[0].Type != "variable" {
			t.Errorf("type filter: %d", n)
		}
		if _, _, err := a.List(ctx, catalog.AdminQuery{StockStatus: "lots"}); err == nil {
			t.Error("a bad stock status filter was accepted")
		}
		if _, n, _ := a.List(ctx, catalog.AdminQuery{Search: "100%_"}); n != 0 {
			t.Errorf("LIKE wildcards matched: %d", n)
		}

		// Bulk: publish, trash (gone from the list), restore as a draft, delete.
		if n, err := a.Bulk(ctx, catalog.BulkPublish, []int64{p.ID}); err != nil || n != 1 {
			t.Fatalf("publish: %d %v", n, err)
		}
		mark := lastChange(t, db)
		if n, err := a.Bulk(ctx, catalog.BulkTrash, []int64{p.ID}); err != nil || n != 1 {
			t.Fatalf("trash: %d %v", n, err)
		}
		if cs := changes(t, db, mark); len(cs) != 1 || cs[0].ProductID != p.ID || cs[0].Kind != "product_listed" {
			t.Errorf("trash's change log: %+v", cs)
		}
		if _, n, _ := a.List(ctx, catalog.AdminQuery{Search: "zebra"}); n != 0 {
			t.Errorf("a trashed product is listed: %d", n)
		}
		if counts, _ := a.StatusCounts(ctx); counts["trash"] != 1 {
			t.Errorf("counts: %v", counts)
		}
		if _, err := a.Update(ctx, p.ID, 3, catalog.ProductInput{Name: s("x")}); err == nil {
			t.Error("a trashed product was edited")
		}
		if _, err := a.Bulk(ctx, "explode", []int64{p.ID}); err == nil {
			t.Error("an unknown action was accepted")
		}
		if n, err := a.Bulk(ctx, catalog.BulkRestore, []int64{p.ID}); err != nil || n != 1 {
			t.Fatalf("restore: %d %v", n, err)
		}
		if got, _ := db.Product(ctx, p.ID); got.Status != "draft" {
			t.Errorf("restored as %s", got.Status)
		}
		if _, err := a.Bulk(ctx, catalog.BulkDelete, []int64{p.ID}); err == nil {
			t.Error("a product outside the trash was deleted")
		}

		// Duplicate: a draft copy with no SKU; its variations too.
		vp, _, _ := a.List(ctx, catalog.AdminQuery{Type: "variable", PerPage: 1})
		orig, ovars, _ := a.Get(ctx, vp[0].ID)
		cp, err := a.Duplicate(ctx, orig.ID)
		if err != nil {
			t.Fatal(err)
		}
		_, cvars, _ := a.Get(ctx, cp.ID)
		if cp.Name != orig.Name+" (Copy)" || cp.Status != "draft" || cp.SKU != "" || cp.Slug == orig.Slug || len(cvars) != len(ovars) || cvars[0].SKU != "" {
			t.Errorf("copy: %+v (%d variations of %d)", cp, len(cvars), len(ovars))
		}
		if again, _, _ := a.Get(ctx, orig.ID); again.Version != orig.Version {
			t.Error("duplicating changed the original")
		}

		// Schedule: hidden until its time, then published by PublishDue.
		when := adminNow.Add(time.Hour)
		sch, err := a.Update(ctx, p.ID, mustVersion(t, db, p.ID), catalog.ProductInput{Status: s("future"), PublishAt: &when})
		if err != nil || sch.Status != "future" || !sch.PublishAt.Equal(when) {
			t.Fatalf("schedule: %+v %v", sch, err)
		}
		if n, _ := a.PublishDue(ctx); n != 0 {
			t.Errorf("published %d before the time", n)
		}
		a.Now = func() time.Time { return when.Add(time.Second) }
		mark = lastChange(t, db)
		if n, err := a.PublishDue(ctx); n != 1 || err != nil {
			t.Errorf("published %d %v", n, err)
		}
		if got, _ := db.Product(ctx, p.ID); got.Status != "publish" || got.PublishAt != nil {
			t.Errorf("after its time: %s %v", got.Status, got.PublishAt)
		}
		if cs := changes(t, db, mark); len(cs) != 1 || cs[0].ProductID != p.ID {
			t.Errorf("publication's change log: %+v", cs)
		}
		// Trash, then delete for good.
		_, _ = a.Bulk(ctx, catalog.BulkTrash, []int64{p.ID})
		if n, err := a.Bulk(ctx, catalog.BulkDelete, []int64{p.ID}); err != nil || n != 1 {
			t.Fatalf("delete: %d %v", n, err)
		}
		if _, err := db.Product(ctx, p.ID); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("deleted product: %v", err)
		}
	})
}

func mustVersion(t *testing.T, db *sqlstore.DB, id int64) int64 {
	t.Helper()
	p, err := db.Product(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return p.Version
}

func TestAdminVariations(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		a := newAdmin(t, db)
		attrs, terms, err := a.Attributes(ctx)
		if err != nil || len(attrs) < 2 {
			t.Fatalf("attributes: %v %v", attrs, err)
		}
		var color, size catalog.Attribute
		for _, at := range attrs {
			switch at.Slug {
			case "color":
				color = at
			case "size":
				size = at
			}
		}
		p, err := a.Create(ctx, catalog.ProductInput{Name: s("Knit Scarf"), Type: s("variable"), Attributes: &[]catalog.AttributeInput{
			{ID: color.ID, Options: []string{terms[color.ID][0].Name, terms[color.ID][1].Slug}, Visible: true, Variation: true},
			{ID: size.ID, Options: []string{"S", "M", "Huge"}, Visible: true, Variation: true},
			{Name: "Material", Options: []string{"Wool"}, Visible: true},
		}})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Attributes) != 3 || len(p.Attributes[1].Values) != 3 || p.Attributes[1].Values[2].TermID == 0 {
			t.Fatalf("attributes: %+v", p.Attributes)
		}
		// Generation needs the current version, makes every combination once.
		if _, err := a.GenerateVariations(ctx, p.ID, 0); !errors.Is(err, catalog.ErrStale) {
			t.Errorf("stale generate: %v", err)
		}
		n, err := a.GenerateVariations(ctx, p.ID, p.Version)
		if err != nil || n != 6 {
			t.Fatalf("generated %d %v", n, err)
		}
		v := mustVersion(t, db, p.ID)
		if n, err := a.GenerateVariations(ctx, p.ID, v); err != nil || n != 0 {
			t.Errorf("generated again: %d %v", n, err)
		}
		_, vars, _ := a.Get(ctx, p.ID)
		if len(vars) != 6 || len(vars[0].Variation) != 2 || vars[0].RegularPrice != nil {
			t.Fatalf("variations: %d %+v", len(vars), vars[0])
		}

		// Bulk price and stock, one deleted; a bad price refuses all.
		var edits []catalog.VariationEdit
		qty := int64(4)
		yes := true
		for _, x := range vars[1:] {
			edits = append(edits, catalog.VariationEdit{ID: x.ID, RegularPrice: s("30"), ManageStock: &yes, StockQuantity: &qty})
		}
		bad := append([]catalog.VariationEdit{}, edits...)
		bad[2].SalePrice = s("31")
		mark := lastChange(t, db)
		if err := a.EditVariations(ctx, p.ID, v, bad, nil); err == nil {
			t.Fatal("a sale above the price was accepted")
		} else {
			inputErr(t, err, "update[2].sale_price")
		}
		if err := a.EditVariations(ctx, p.ID, v, []catalog.VariationEdit{{ID: 1}}, nil); err == nil {
			t.Error("another product's variation was edited")
		}
		if cs := changes(t, db, mark); len(cs) != 0 {
			t.Errorf("refused edits logged: %+v", cs)
		}
		if err := a.EditVariations(ctx, p.ID, v, edits, []int64{vars[0].ID}); err != nil {
			t.Fatal(err)
		}
		_, after, _ := a.Get(ctx, p.ID)
		if len(after) != 5 || *after[0].RegularPrice != 3000 || !after[0].ManageStock || *after[0].StockQuantity != 4 || after[0].StockStatus != "instock" {
			t.Fatalf("after edits: %d %+v", len(after), after[0])
		}
		if cs := changes(t, db, mark); len(cs) != 1 || cs[0].ProductID != p.ID {
			t.Errorf("variation edits' change log: %+v", cs)
		}
		if got := mustVersion(t, db, p.ID); got != v+1 {
			t.Errorf("version after variation edits: %d, want %d", got, v+1)
		}
		// The parent's listing price follows its variations.
		if list, _, _ := a.List(ctx, catalog.AdminQuery{Search: "knit scarf"}); len(list) != 1 {
			t.Error("the scarf is not listed")
		}

		// Swatches: the attribute's type and a term's colour.
		if err := a.SetSwatchType(ctx, size.ID, "wheel"); err == nil {
			t.Error("a bad swatch type was accepted")
		}
		if err := a.SetSwatchType(ctx, size.ID, catalog.SwatchLabel); err != nil {
			t.Error(err)
		}
		if _, err := a.SaveTerm(ctx, color.ID, terms[color.ID][0].ID, catalog.TermInput{Color: s("blue")}); err == nil {
			t.Error("a bad colour was accepted")
		}
		tm, err := a.SaveTerm(ctx, color.ID, terms[color.ID][0].ID, catalog.TermInput{Color: s("#AABBCC")})
		if err != nil || tm.Color != "#aabbcc" {
			t.Errorf("term: %+v %v", tm, err)
		}
		if _, err := a.SaveTerm(ctx, color.ID, 0, catalog.TermInput{Name: s(terms[color.ID][0].Name)}); err == nil {
			t.Error("a duplicate term was accepted")
		}
	})
}

func TestAdminCategoriesAndTags(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		a := newAdmin(t, db)
		mark := lastChange(t, db)
		c, err := a.SaveCategory(ctx, 0, catalog.CategoryInput{Name: s("Kitchen"), Description: s("<p>Pots <script>x</script></p>")})
		if err != nil || c.Slug != "kitchen" || c.ID == 0 {
			t.Fatalf("category: %+v %v", c, err)
		}
		if cs := changes(t, db, mark); len(cs) != 1 || cs[0].Kind != "taxonomy" {
			t.Errorf("category's change log: %+v", cs)
		}
		sub, err := a.SaveCategory(ctx, 0, catalog.CategoryInput{Name: s("Knives"), ParentID: &c.ID})
		if err != nil || sub.ParentID != c.ID {
			t.Fatalf("sub: %+v %v", sub, err)
		}
		if _, err := a.SaveCategory(ctx, c.ID, catalog.CategoryInput{ParentID: &sub.ID}); err == nil {
			t.Error("a category was moved inside its own child")
		}
		if _, err := a.SaveCategory(ctx, 0, catalog.CategoryInput{Name: s("Kitchen!")}); err == nil {
			t.Error("a duplicate slug was accepted")
		}
		if _, err := a.SaveCategory(ctx, 0, catalog.CategoryInput{Name: s(" ")}); err == nil {
			t.Error("an empty name was accepted")
		}
		if got, _ := db.Category(ctx, c.ID); got.Description == "" || containsScript(got.Description) {
			t.Errorf("description: %q", got.Description)
		}
		if err := a.DeleteCategory(ctx, c.ID); err != nil {
			t.Fatal(err)
		}
		if got, _ := db.Category(ctx, sub.ID); got.ParentID != 0 {
			t.Errorf("the child's parent after delete: %d", got.ParentID)
		}
		if err := a.DeleteCategory(ctx, c.ID); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("deleted twice: %v", err)
		}

		tag, err := a.SaveTag(ctx, 0, s("Gift Ideas"), nil)
		if err != nil || tag.Slug != "gift-ideas" {
			t.Fatalf("tag: %+v %v", tag, err)
		}
		if tag, err = a.SaveTag(ctx, tag.ID, s("Gifts"), s("gifts")); err != nil || tag.Name != "Gifts" {
			t.Fatalf("rename: %+v %v", tag, err)
		}
		if _, err := a.SaveTag(ctx, 0, s("Gifts"), nil); err == nil {
			t.Error("a duplicate tag was accepted")
		}
		if err := a.DeleteTag(ctx, tag.ID); err != nil {
			t.Fatal(err)
		}
		if err := a.DeleteTag(ctx, tag.ID); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("deleted twice: %v", err)
		}
	})
}

func containsScript(s string) bool {
	for i := 0; i+7 <= len(s); i++ {
		if s[i:i+7] == "<script" {
			return true
		}
	}
	return false
}
