package render

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"testing"
	"time"
)

func TestCacheTagsAndLRU(t *testing.T) {
	c := NewCache(1<<20, 0)
	c.Put("/product/a/", NewPage(200, []byte("<p>a</p>"), []string{"product:1"}))
	c.Put("/shop/", NewPage(200, []byte("<p>shop</p>"), []string{"product:1", "product:2", "listing"}))
	c.Put("/product/b/", NewPage(200, []byte("<p>b</p>"), []string{"product:2"}))

	if n := c.Invalidate("product:1"); n != 2 {
		t.Errorf("Invalidate(product:1) dropped %d pages, want 2", n)
	}
	if _, ok := c.Get("/product/b/"); !ok {
		t.Error("unrelated page was dropped")
	}
	if _, ok := c.Get("/shop/"); ok {
		t.Error("listing showing product 1 survived")
	}
	if n := c.Invalidate("product:99"); n != 0 {
		t.Errorf("unknown tag dropped %d", n)
	}
	c.Purge()
	if st := c.Stats(); st.Entries != 0 || st.Bytes != 0 {
		t.Errorf("after purge: %+v", st)
	}
}

func TestCacheBoundedByBytes(t *testing.T) {
	big := bytes.Repeat([]byte("x"), 1000)
	probe := NewPage(200, big, nil)
	c := NewCache(probe.size()*5, 0) // room for five pages
	for i := 0; i < 20; i++ {
		c.Put(fmt.Sprint(i), NewPage(200, append([]byte(fmt.Sprint(i)), big...), []string{"t"}))
	}
	st := c.Stats()
	if st.Bytes > probe.size()*5+100 || st.Entries > 5 || st.Evictions == 0 {
		t.Errorf("cache over its bound: %+v", st)
	}
	if _, ok := c.Get("19"); !ok {
		t.Error("newest page evicted")
	}
	if _, ok := c.Get("0"); ok {
		t.Error("oldest page kept")
	}
}

func TestCacheMaxAgeAndDisabled(t *testing.T) {
	now := time.Now()
	c := NewCache(1<<20, time.Minute)
	c.now = func() time.Time { return now }
	c.Put("k", NewPage(200, []byte("x"), nil))
	now = now.Add(2 * time.Minute)
	if _, ok := c.Get("k"); ok {
		t.Error("stale page served")
	}
	off := NewCache(0, 0)
	off.Put("k", NewPage(200, []byte("x"), nil))
	if _, ok := off.Get("k"); ok || off.Enabled() {
		t.Error("disabled cache stored a page")
	}
}

func TestPageCompression(t *testing.T) {
	html := bytes.Repeat([]byte("<li>product</li>"), 200)
	p := NewPage(200, html, nil)
	zr, err := gzip.NewReader(bytes.NewReader(p.Gzip))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(zr)
	if !bytes.Equal(got, html) || len(p.Gzip) >= len(html) || len(p.Brotli) == 0 || p.ETag == "" {
		t.Errorf("gzip round trip failed or no gain: %d -> %d", len(html), len(p.Gzip))
	}
}
