package storeapi

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"vitrine/internal/catalog"
	"vitrine/internal/render"
)

// termsCatalog answers one attribute's terms and counts the reads; the
// other reads of catalog.Store are not used by the route under test.
type termsCatalog struct {
	catalog.Store
	reads int
}

func (c *termsCatalog) Attribute(_ context.Context, id int64) (*catalog.Attribute, error) {
	if id != 1 {
		return nil, catalog.ErrNotFound
	}
	return &catalog.Attribute{ID: 1, Name: "Color", Slug: "color"}, nil
}

func (c *termsCatalog) AttributeTerms(context.Context, int64) ([]catalog.AttrTerm, error) {
	c.reads++
	return []catalog.AttrTerm{{ID: 10, AttributeID: 1, Name: "Red", Slug: "red", Count: 2}}, nil
}

// memCache is a Cache in a map; stale makes every load look as if a
// catalogue change began while it ran, so nothing is stored.
type memCache struct {
	pages map[string]*render.Page
	stale bool
}

func (c *memCache) Get(key string) (*render.Page, bool) { p, ok := c.pages[key]; return p, ok }

func (c *memCache) Begin(context.Context) func(string, *render.Page) {
	stale := c.stale
	return func(key string, p *render.Page) {
		if !stale {
			c.pages[key] = p
		}
	}
}

func TestCachedReads(t *testing.T) {
	get := func(a *API, target string) *httptest.ResponseRecorder {
		t.Helper()
		r := httptest.NewRequest(http.MethodGet, target, nil)
		r.SetPathValue("id", "1")
		w := httptest.NewRecorder()
		a.AttributeTerms(w, r)
		return w
	}
	const path = "/wp-json/wc/store/v1/products/attributes/1/terms"

	t.Run("parameters the route does not read share one answer", func(t *testing.T) {
		store, cache := &termsCatalog{}, &memCache{pages: map[string]*render.Page{}}
		a := New(Deps{Catalog: store, Cache: cache})
		first := get(a, path+"?orderby=name&order=asc&utm_source=mail")
		second := get(a, path+"?_=123&order=asc&orderby=name")
		if first.Code != http.StatusOK || second.Code != http.StatusOK {
			t.Fatalf("status %d, %d", first.Code, second.Code)
		}
		if store.reads != 1 {
			t.Errorf("catalogue read %d times, want once", store.reads)
		}
		if first.Body.String() != second.Body.String() {
			t.Errorf("answers differ:\n%s\n%s", first.Body, second.Body)
		}
		if got := second.Header().Get("Cache-Control"); got != "no-cache" {
			t.Errorf("Cache-Control %q, want no-cache", got)
		}
	})

	t.Run("an answer a change may predate is not kept", func(t *testing.T) {
		store, cache := &termsCatalog{}, &memCache{pages: map[string]*render.Page{}, stale: true}
		a := New(Deps{Catalog: store, Cache: cache})
		get(a, path)
		get(a, path)
		if store.reads != 2 || len(cache.pages) != 0 {
			t.Errorf("reads %d, cached %d; want 2 reads and nothing cached", store.reads, len(cache.pages))
		}
	})

	t.Run("refusals are not cached", func(t *testing.T) {
		store, cache := &termsCatalog{}, &memCache{pages: map[string]*render.Page{}}
		a := New(Deps{Catalog: store, Cache: cache})
		if w := get(a, path+"?orderby=colour"); w.Code != http.StatusBadRequest {
			t.Fatalf("status %d, want 400: %s", w.Code, w.Body)
		}
		if len(cache.pages) != 0 {
			t.Errorf("cached %d answers, want none", len(cache.pages))
		}
	})
}
