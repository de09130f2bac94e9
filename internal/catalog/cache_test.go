package catalog_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"vitrine/internal/catalog"
)

// fakeLoader is a catalogue of products by id that counts its reads.
type fakeLoader struct {
	products map[int64]*catalog.Product
	reads    map[string]int
}

func newFakeLoader(ps ...*catalog.Product) *fakeLoader {
	l := &fakeLoader{products: map[int64]*catalog.Product{}, reads: map[string]int{}}
	for _, p := range ps {
		l.products[p.ID] = p
	}
	return l
}

func (l *fakeLoader) Product(_ context.Context, id int64) (*catalog.Product, error) {
	l.reads["Product"]++
	if p := l.products[id]; p != nil {
		c := *p
		return &c, nil
	}
	return nil, catalog.ErrNotFound
}

func (l *fakeLoader) ProductBySlug(_ context.Context, slug string) (*catalog.Product, error) {
	l.reads["ProductBySlug"]++
	for _, p := range l.products {
		if p.Slug == slug && p.ParentID == 0 {
			c := *p
			return &c, nil
		}
	}
	return nil, catalog.ErrNotFound
}

func (l *fakeLoader) Products(_ context.Context, ids []int64) ([]*catalog.Product, error) {
	l.reads["Products"]++
	var out []*catalog.Product
	for _, id := range ids {
		if p := l.products[id]; p != nil {
			c := *p
			out = append(out, &c)
		}
	}
	return out, nil
}

func (l *fakeLoader) variations(parentID int64) []*catalog.Product {
	var out []*catalog.Product
	for id := int64(1); id <= 100; id++ { // in id order, as the store's menu order here
		if p := l.products[id]; p != nil && p.ParentID == parentID {
			c := *p
			out = append(out, &c)
		}
	}
	return out
}

func (l *fakeLoader) Variations(_ context.Context, parentID int64) ([]*catalog.Product, error) {
	l.reads["Variations"]++
	return l.variations(parentID), nil
}

func (l *fakeLoader) VariationsOf(_ context.Context, parentIDs []int64) (map[int64][]*catalog.Product, error) {
	l.reads["VariationsOf"]++
	out := map[int64][]*catalog.Product{}
	for _, id := range parentIDs {
		if vs := l.variations(id); len(vs) > 0 {
			out[id] = vs
		}
	}
	return out, nil
}

func (l *fakeLoader) CatalogVersion(context.Context) (int64, error) { return 0, nil }

func price(n int64) *int64 { return &n }

// A product page's read by slug is served from memory once loaded, until
// a change names the product (or one of its variations); a slug the
// product no longer has is looked up again, never answered from memory.
func TestCacheProductBySlug(t *testing.T) {
	ctx := context.Background()
	db := newFakeLoader(
		&catalog.Product{ID: 1, Slug: "tee", Name: "Tee", Type: catalog.TypeVariable},
		&catalog.Product{ID: 2, ParentID: 1, Slug: "tee-red", Type: catalog.TypeVariation, RegularPrice: price(1000)},
		&catalog.Product{ID: 3, Slug: "mug", Name: "Mug", Type: catalog.TypeSimple},
	)
	c := catalog.NewCache(db, 1<<20)
	bySlug := func(slug string) *catalog.Product {
		t.Helper()
		p, err := c.ProductBySlug(ctx, slug)
		if err != nil {
			t.Fatalf("%s: %v", slug, err)
		}
		return p
	}
	if p := bySlug("tee"); p.ID != 1 || p.Name != "Tee" {
		t.Fatalf("tee: %+v", p)
	}
	bySlug("tee")
	if p, err := c.Product(ctx, 1); err != nil || p.Name != "Tee" {
		t.Fatalf("tee by id: %+v %v", p, err)
	}
	if n := db.reads["ProductBySlug"] + db.reads["Product"]; n != 1 {
		t.Fatalf("three reads of a product loaded once went to the store %d times, want 1", n)
	}
	if _, err := c.ProductBySlug(ctx, "tee-red"); err != catalog.ErrNotFound {
		t.Errorf("a variation's slug: %v, want not found", err)
	}

	// Renamed: the old slug is looked up again (and is gone), the new one loads.
	db.products[1].Slug, db.products[1].Name = "classic-tee", "Classic Tee"
	c.Invalidate([]catalog.Change{{ID: 1, ProductID: 1, Kind: "product"}})
	if p := bySlug("classic-tee"); p.Name != "Classic Tee" {
		t.Errorf("the new slug: %+v", p)
	}
	if _, err := c.ProductBySlug(ctx, "tee"); err != catalog.ErrNotFound {
		t.Errorf("the old slug after a rename: %v, want not found", err)
	}

	// A change naming a variation drops its parent as well.
	before := db.reads["ProductBySlug"]
	bySlug("classic-tee")
	if db.reads["ProductBySlug"] != before {
		t.Fatal("a cached product was read again")
	}
	db.products[1].Name = "Classic Tee 2"
	if _, err := c.Variations(ctx, 1); err != nil {
		t.Fatal(err)
	}
	c.Invalidate([]catalog.Change{{ID: 2, ProductID: 2, Kind: "stock"}})
	if p := bySlug("classic-tee"); p.Name != "Classic Tee 2" {
		t.Errorf("after its variation changed, the parent is %q", p.Name)
	}

	// Another product's slug taken over: the new owner is read.
	db.products[3].Slug = "mug-old"
	db.products[4] = &catalog.Product{ID: 4, Slug: "mug", Name: "New Mug", Type: catalog.TypeSimple}
	bySlug("mug")
	c.Invalidate([]catalog.Change{{ID: 3, ProductID: 3, Kind: "product"}, {ID: 4, ProductID: 4, Kind: "product_listed"}})
	if p := bySlug("mug"); p.ID != 4 {
		t.Errorf("mug is product %d, want the new one", p.ID)
	}
}

// The cards' price ranges read the variation lists the cache holds; lists
// it does not hold are read in one call and not kept (they are loaded with
// less than a product page's list).
func TestCacheVariationsOf(t *testing.T) {
	ctx := context.Background()
	db := newFakeLoader(
		&catalog.Product{ID: 1, Slug: "tee", Type: catalog.TypeVariable},
		&catalog.Product{ID: 2, ParentID: 1, Type: catalog.TypeVariation, RegularPrice: price(1000)},
		&catalog.Product{ID: 3, ParentID: 1, Type: catalog.TypeVariation, RegularPrice: price(1200)},
		&catalog.Product{ID: 4, Slug: "hoodie", Type: catalog.TypeVariable},
		&catalog.Product{ID: 5, ParentID: 4, Type: catalog.TypeVariation, RegularPrice: price(4000)},
	)
	c := catalog.NewCache(db, 1<<20)
	if _, err := c.Variations(ctx, 1); err != nil {
		t.Fatal(err)
	}
	got, err := c.VariationsOf(ctx, []int64{1})
	if err != nil || len(got[1]) != 2 || db.reads["VariationsOf"] != 0 {
		t.Fatalf("a cached list: %d variations, %d store reads, %v", len(got[1]), db.reads["VariationsOf"], err)
	}
	for round := 1; round <= 2; round++ {
		got, err = c.VariationsOf(ctx, []int64{1, 4})
		if err != nil || len(got[1]) != 2 || len(got[4]) != 1 || *got[4][0].RegularPrice != 4000 {
			t.Fatalf("round %d: %v %v", round, got, err)
		}
		if db.reads["VariationsOf"] != round {
			t.Fatalf("round %d: %d store reads, want %d (the missing list read, not kept)", round, db.reads["VariationsOf"], round)
		}
	}
	// A price change drops the cached list: the next read is the store's.
	*db.products[2].RegularPrice = 900
	c.Invalidate([]catalog.Change{{ID: 1, ProductID: 2, Kind: "product"}})
	got, err = c.VariationsOf(ctx, []int64{1})
	if err != nil || *got[1][0].RegularPrice != 900 {
		t.Fatalf("after the change: %v %v", got, err)
	}
}

// The cache's byte bound rests on approxBytes: over 20,000 products shaped
// as the store loads them (pictures with renditions, categories, tags,
// attributes, meta, descriptions of various lengths), the estimate stays
// within [0.7, 1.5] of the heap the products hold.
func TestCacheApproxBytes(t *testing.T) {
	mk := func(i int) *catalog.Product {
		s := func(prefix string, n int) string { return fmt.Sprintf("%s-%d-%s", prefix, i, strings.Repeat("x", n)) }
		p := &catalog.Product{ID: int64(i), Type: catalog.TypeSimple, Name: s("name", 20), Slug: s("slug", 20), SKU: s("sku", 4),
			Status: "publish", CatalogVisibility: "visible", ShortDescription: s("short", 100*(i%3)), Description: s("desc", 400*(i%5)),
			StockStatus: "instock", RegularPrice: price(int64(i)), Meta: map[string]string{s("k", 5): s("v", 20)}}
		for j := range 1 + i%3 {
			im := catalog.Image{ID: int64(j), Src: s("/media/img", 30), Alt: s("alt", 10)}
			for w := range 3 {
				im.Sizes = append(im.Sizes, catalog.ImageSize{Src: s("/media/img-w", 30+w), Width: 300 * (w + 1)})
			}
			p.Images = append(p.Images, im)
		}
		p.Categories = []catalog.Term{{ID: 1, Name: s("cat", 8), Slug: s("cat", 8)}}
		p.Tags = []catalog.Term{{ID: 2, Name: s("tag", 6), Slug: s("tag", 6)}, {ID: 3, Name: s("tag", 7), Slug: s("tag", 7)}}
		if i%4 == 0 {
			a := catalog.ProductAttribute{AttributeID: 1, Name: s("Colour", 0), Taxonomy: s("pa_color", 0), Variation: true}
			for v := range 4 {
				a.Values = append(a.Values, catalog.AttributeValue{TermID: int64(v), Name: s("red", v), Slug: s("red", v)})
			}
			p.Attributes = append(p.Attributes, a)
		}
		return p
	}
	// 20,000 products (about 40 MB) keep what other tests' goroutines
	// still hold or free meanwhile a small part of the measure.
	const n = 20000
	runtime.GC()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ps := make([]*catalog.Product, 0, n)
	for i := range n {
		ps = append(ps, mk(i))
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	heap := float64(after.HeapAlloc) - float64(before.HeapAlloc) - float64(cap(ps)*8)
	var est int64
	for _, p := range ps {
		est += catalog.ApproxBytes(p)
	}
	ratio := float64(est) / heap
	t.Logf("estimate %d bytes, heap %.0f bytes, ratio %.2f", est, heap, ratio)
	if ratio < 0.7 || ratio > 1.5 {
		t.Errorf("approxBytes is %.2f times the heap the products hold", ratio)
	}
	runtime.KeepAlive(ps)
}

// The cache holds its products' approxBytes under its bound: past it, it
// starts over, and what it answers stays right. Replacing or dropping a
// product gives its bytes back.
func TestCacheByteBound(t *testing.T) {
	ctx := context.Background()
	var ps []*catalog.Product
	for i := range 40 {
		ps = append(ps, &catalog.Product{ID: int64(i + 1), Slug: fmt.Sprintf("p%d", i+1), Name: fmt.Sprintf("P %d", i+1),
			Type: catalog.TypeSimple, Description: strings.Repeat("d", 1000)})
	}
	db := newFakeLoader(ps...)
	one := catalog.ApproxBytes(ps[0])
	c := catalog.NewCache(db, 10*one)
	for round := range 3 {
		for _, p := range ps {
			got, err := c.ProductBySlug(ctx, p.Slug)
			if err != nil || got.ID != p.ID {
				t.Fatalf("round %d, %s: %+v %v", round, p.Slug, got, err)
			}
			if b := c.Bytes(); b > 11*one {
				t.Fatalf("round %d: the cache counts %d bytes, bound %d", round, b, 10*one)
			}
		}
	}
	c.Reset()
	c.ProductBySlug(ctx, "p1")
	c.ProductBySlug(ctx, "p2")
	if b := c.Bytes(); b != catalog.ApproxBytes(ps[0])+catalog.ApproxBytes(ps[1]) {
		t.Fatalf("two products counted as %d bytes", b)
	}
	c.Invalidate([]catalog.Change{{ID: 1, ProductID: 1, Kind: "product"}})
	if b := c.Bytes(); b != catalog.ApproxBytes(ps[1]) {
		t.Fatalf("after a drop: %d bytes, want %d", b, catalog.ApproxBytes(ps[1]))
	}
	c.Product(ctx, 2) // cached: no change
	c.Products(ctx, []int64{2, 3})
	if b := c.Bytes(); b != catalog.ApproxBytes(ps[1])+catalog.ApproxBytes(ps[2]) {
		t.Fatalf("after a second read and a new one: %d bytes", b)
	}
}
