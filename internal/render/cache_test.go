package render

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
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

// TestSplicedPage: a viewer's part goes in before </body>, in gzip reusing
// the stored stream's head, and each viewer's copy holds their part only;
// the shared bodies stay as they were.
func TestSplicedPage(t *testing.T) {
	html := []byte("<!doctype html><html><body><div id=root>" + strings.Repeat("<li>product</li>", 300) + "</div>\n</body>\n</html>\n")
	gunzip := func(t *testing.T, b []byte) []byte {
		t.Helper()
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		zr.Multistream(false) // one member: what every browser reads
		got, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err) // a bad CRC or size fails here
		}
		return got
	}
	want := func(part string) []byte {
		i := bytes.LastIndex(html, []byte("</body>"))
		return []byte(string(html[:i]) + part + string(html[i:]))
	}
	stored := NewPage(200, html, nil)
	if got := gunzip(t, stored.Gzip); !bytes.Equal(got, html) {
		t.Fatal("the shared gzip body changed")
	}
	ann := `<script id="vitrine-viewer" type="application/json">{"user":{"display_name":"Ann"}}</script>`
	bob := `<script id="vitrine-viewer" type="application/json">{"user":{"display_name":"Bob"}}</script>`
	a, b := stored.Spliced([]byte(ann), "gzip"), stored.Spliced([]byte(bob), "gzip")
	if !bytes.Equal(a[:stored.gzipSplit], stored.Gzip[:stored.gzipSplit]) || stored.gzipSplit < len(stored.Gzip)/2 {
		t.Errorf("the stored stream's head was not reused (split at %d of %d)", stored.gzipSplit, len(stored.Gzip))
	}
	if got := gunzip(t, a); !bytes.Equal(got, want(ann)) {
		t.Errorf("Ann's copy:\n%s", got[len(got)-200:])
	}
	if got := gunzip(t, b); !bytes.Equal(got, want(bob)) || bytes.Contains(got, []byte("Ann")) {
		t.Errorf("Bob's copy:\n%s", got[len(got)-200:])
	}
	if got := stored.Spliced([]byte(ann), ""); !bytes.Equal(got, want(ann)) {
		t.Error("the uncompressed copy is wrong")
	}
	if got := gunzip(t, stored.Gzip); !bytes.Equal(got, html) || bytes.Contains(stored.HTML, []byte("Ann")) {
		t.Error("splicing changed the shared page")
	}
	// A page never stored is assembled and compressed for this answer.
	once := NewPageUncompressed(200, html, nil)
	if got := gunzip(t, once.Spliced([]byte(bob), "gzip")); !bytes.Equal(got, want(bob)) {
		t.Error("the unstored page's copy is wrong")
	}
	// Without </body> the part goes last.
	bare := NewPage(200, []byte("<p>hi</p>"), nil)
	if got := gunzip(t, bare.Spliced([]byte(ann), "gzip")); string(got) != "<p>hi</p>"+ann {
		t.Errorf("no </body>: %q", got)
	}
}

// TestCacheAccountsKeysTagsAndCapacity: the accounted bytes cover what an
// entry really holds: the bodies' capacity, the key, the tags and the
// headers, not only the compressed bodies.
func TestCacheAccountsKeysTagsAndCapacity(t *testing.T) {
	html := make([]byte, 2000, 8000) // a grown render buffer: capacity to spare
	for i := range html {
		html[i] = byte('a' + i%26)
	}
	var tags []string
	tagBytes := 0
	for i := 0; i < 100; i++ {
		tags = append(tags, fmt.Sprintf("product:%d", 100000+i))
		tagBytes += len(tags[i])
	}
	p := NewPage(200, html, tags)
	p.Headers = map[string]string{"X-WP-Total": "1234"}
	key := "/?s=" + strings.Repeat("k", 10000)
	c := NewCache(1<<20, 0)
	c.Put(key, p)
	st := c.Stats()
	if st.Entries != 1 {
		t.Fatalf("entries %d", st.Entries)
	}
	bodies := cap(p.HTML) + cap(p.Gzip) + cap(p.Brotli)
	if min := int64(bodies + len(key) + tagBytes + len(p.ETag) + len("X-WP-Total1234")); st.Bytes < min {
		t.Errorf("accounted %d bytes, less than the bodies' capacity, key, tags and headers (%d)", st.Bytes, min)
	}
	if cap(p.HTML) > len(p.HTML)+len(p.HTML)/16+64 {
		t.Errorf("page keeps %d bytes of capacity for %d of HTML", cap(p.HTML), len(p.HTML))
	}
	c.Invalidate("product:100050")
	if st := c.Stats(); st.Entries != 0 || st.Bytes != 0 || len(c.tags) != 0 {
		t.Errorf("after invalidation: %+v, %d tag sets left", st, len(c.tags))
	}
}

// TestCacheBoundedUnderChurn: many distinct keys, each page tagged like a
// listing, keep the entry count, the tag index and the real heap within
// the byte bound.
func TestCacheBoundedUnderChurn(t *testing.T) {
	const maxBytes = 1 << 20
	const perPage = 25
	fill := func(c *Cache, n, from int) {
		for i := from; i < from+n; i++ {
			tags := make([]string, 0, perPage)
			for j := 0; j < perPage-1; j++ {
				tags = append(tags, fmt.Sprintf("product:%d", (i*7+j)%5000))
			}
			tags = append(tags, "listing")
			key := fmt.Sprintf("/?s=churn-%08d-%s&post_type=product", i, strings.Repeat("q", 60))
			c.Put(key, NewPage(200, []byte(fmt.Sprintf("<ul><li>result %d</li></ul>", i)), tags))
		}
	}
	c := NewCache(maxBytes, 0)
	fill(c, 5000, 0)
	st := c.Stats()
	if st.Bytes > maxBytes || st.Evictions == 0 {
		t.Fatalf("over the bound: %+v", st)
	}
	// A tag costs at least 64 bytes of index and slice: the bound caps entries.
	if limit := maxBytes / (perPage * 64); st.Entries > limit {
		t.Errorf("%d entries of %d tags each in %d bytes; want at most %d", st.Entries, perPage, maxBytes, limit)
	}
	members := 0
	for _, set := range c.tags {
		members += len(set)
	}
	if members > st.Entries*perPage {
		t.Errorf("tag index holds %d keys for %d entries: evicted keys left behind", members, st.Entries)
	}

	// The real heap the cache holds stays near its accounted bytes.
	// Two collections empty the compressor pools, which hold megabytes.
	runtime.GC()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	c2 := NewCache(maxBytes*4, 0)
	fill(c2, 2000, 100000)
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&after)
	held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	if acc := c2.Stats().Bytes; held > acc*5/4+256<<10 {
		t.Errorf("the cache holds %d bytes of heap but accounts for %d", held, acc)
	}
	t.Logf("heap held %d, accounted %d, entries %d", held, c2.Stats().Bytes, c2.Stats().Entries)
	runtime.KeepAlive(c2)
}

// TestCacheStaleWhileRevalidate: a changed page is answered stale, with the
// duty to render it again handed to one caller; a re-render replaces it; a
// change during the re-render keeps it stale from the first change's time;
// the bound drops it; a failed re-render hands the duty out again.
func TestCacheStaleWhileRevalidate(t *testing.T) {
	now := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	c := NewCache(1<<20, time.Hour)
	c.SetClock(func() time.Time { return now })
	c.SetStaleFor(10 * time.Second)
	old := NewPage(200, []byte("<p>old</p>"), []string{"product:1"})
	c.Put("/product/a/", old)
	c.Put("/product/b/", NewPage(200, []byte("<p>b</p>"), []string{"product:2"}))

	if n := c.Stale("product:1"); n != 1 {
		t.Fatalf("Stale(product:1) marked %d pages, want 1", n)
	}
	if _, ok := c.Get("/product/a/"); ok {
		t.Error("Get answered a stale page as fresh")
	}
	if _, state, _ := c.Lookup("/product/b/"); state != Fresh {
		t.Errorf("an unrelated page is %v, want fresh", state)
	}
	p, state, refresh := c.Lookup("/product/a/")
	if p != old || state != Stale || !refresh {
		t.Fatalf("first Lookup after the change: page %v, state %v, refresh %v; want the old page, stale, refresh", p == old, state, refresh)
	}
	for range 3 {
		if p, state, refresh := c.Lookup("/product/a/"); p != old || state != Stale || refresh {
			t.Fatalf("later Lookup: page %v, state %v, refresh %v; want the old page, stale, no second refresh", p == old, state, refresh)
		}
	}
	seq := c.Seq()
	fresh := NewPage(200, []byte("<p>new</p>"), []string{"product:1"})
	c.PutRevalidated("/product/a/", fresh, seq)
	if p, state, _ := c.Lookup("/product/a/"); p != fresh || state != Fresh {
		t.Fatalf("after the re-render: new page %v, state %v; want the new page, fresh", p == fresh, state)
	}

	// A second change while the re-render loads: the result is stored,
	// still stale from the first change, and a new refresh is handed out.
	c.Stale("product:1")
	first := now
	if _, _, refresh := c.Lookup("/product/a/"); !refresh {
		t.Fatal("no refresh handed out after the second change")
	}
	seq = c.Seq()
	now = now.Add(4 * time.Second)
	c.Stale("product:1")
	mid := NewPage(200, []byte("<p>mid</p>"), []string{"product:1"})
	c.PutRevalidated("/product/a/", mid, seq)
	p, state, refresh = c.Lookup("/product/a/")
	if p != mid || state != Stale || !refresh {
		t.Fatalf("re-render overtaken by a change: page %v, state %v, refresh %v; want the new page, stale, refresh", p == mid, state, refresh)
	}
	// A failure gives the duty back.
	c.RevalidateFailed("/product/a/")
	if _, _, refresh := c.Lookup("/product/a/"); !refresh {
		t.Error("after RevalidateFailed no caller is told to re-render")
	}
	// The bound counts from the first change not rendered: 10 s after it
	// the page is gone, whatever came later.
	now = first.Add(10*time.Second + time.Millisecond)
	if _, state, _ := c.Lookup("/product/a/"); state != Miss {
		t.Fatalf("a page stale for more than the bound is %v, want a miss", state)
	}
	// A re-render that reports back after the page was dropped stores
	// nothing.
	c.PutRevalidated("/product/a/", fresh, c.Seq())
	if _, state, _ := c.Lookup("/product/a/"); state != Miss {
		t.Errorf("a re-render of a dropped page was stored (%v)", state)
	}
	st := c.Stats()
	if st.Staled != 2 || st.StaleHits < 5 {
		t.Errorf("stats: %d pages staled, %d stale hits; want 2 and at least 5", st.Staled, st.StaleHits)
	}

	// Invalidate (a removal) drops a stale page too, and Drop drops one key.
	c.Put("/product/a/", NewPage(200, []byte("<p>a</p>"), []string{"product:1"}))
	c.Stale("product:1")
	if n := c.Invalidate("product:1"); n != 1 {
		t.Errorf("Invalidate dropped %d stale pages, want 1", n)
	}
	c.Drop("/product/b/")
	if _, state, _ := c.Lookup("/product/b/"); state != Miss {
		t.Errorf("a dropped page is %v", state)
	}

	// staleFor 0: Stale is Invalidate.
	c.SetStaleFor(0)
	c.Put("/product/a/", NewPage(200, []byte("<p>a</p>"), []string{"product:1"}))
	c.Stale("product:1")
	if _, state, _ := c.Lookup("/product/a/"); state != Miss {
		t.Errorf("with no stale bound a changed page is %v, want a miss", state)
	}
}

// TestCacheStaleHot: a change hands back the recently asked-for pages that
// were stored with a source, at most max of them, and no request is told to
// render those again; a page not asked for lately is left to requests.
func TestCacheStaleHot(t *testing.T) {
	now := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	c := NewCache(1<<20, time.Hour)
	c.SetClock(func() time.Time { return now })
	c.SetStaleFor(10 * time.Second)
	c.PutFrom("/cold/", NewPage(200, []byte("<p>cold</p>"), []string{"product:1"}), "cold-src", c.Seq())
	now = now.Add(2 * time.Minute)
	c.PutFrom("/hot/", NewPage(200, []byte("<p>hot</p>"), []string{"product:1"}), "hot-src", c.Seq())
	c.Put("/no-src/", NewPage(200, []byte("<p>x</p>"), []string{"product:1"}))
	c.PutFrom("/other/", NewPage(200, []byte("<p>o</p>"), []string{"product:2"}), "other-src", c.Seq())

	n, hot := c.StaleHot(time.Minute, 8, "product:1")
	if n != 3 || len(hot) != 1 || hot[0].Key != "/hot/" || hot[0].Src != "hot-src" {
		t.Fatalf("StaleHot: %d marked, hot %v; want 3 marked and only /hot/ with its source", n, hot)
	}
	if _, state, refresh := c.Lookup("/hot/"); state != Stale || refresh {
		t.Errorf("/hot/: %v, refresh %v; want stale and no request told to render it", state, refresh)
	}
	if _, state, refresh := c.Lookup("/cold/"); state != Stale || !refresh {
		t.Errorf("/cold/: %v, refresh %v; want stale, left to the request", state, refresh)
	}
	// The re-render keeps the source: the next change hands it out again.
	c.PutRevalidated("/hot/", NewPage(200, []byte("<p>hot 2</p>"), []string{"product:1"}), c.Seq())
	if _, hot := c.StaleHot(time.Minute, 8, "product:1"); len(hot) != 1 || hot[0].Src != "hot-src" {
		t.Errorf("second change: hot %v; want /hot/ again", hot)
	}
	// max bounds the pages handed out.
	c.PutFrom("/a/", NewPage(200, []byte("<p>a</p>"), []string{"product:2"}), "a", c.Seq())
	c.PutFrom("/b/", NewPage(200, []byte("<p>b</p>"), []string{"product:2"}), "b", c.Seq())
	if _, hot := c.StaleHot(time.Minute, 2, "product:2"); len(hot) != 2 {
		t.Errorf("max 2: %d pages handed out", len(hot))
	}
}

// TestCachePutFromAfterAChange: a page loaded before a change and stored
// after it is stored stale when the change marked its tags stale, not
// stored when the change may have removed it, and fresh when the change
// named other tags or came before the load.
func TestCachePutFromAfterAChange(t *testing.T) {
	c := NewCache(1<<20, time.Hour)
	c.SetStaleFor(10 * time.Second)
	page := func() *Page { return NewPage(200, []byte("<p>a</p>"), []string{"product:1", "listing"}) }

	seq := c.Seq()
	c.Stale("product:1")
	c.PutFrom("/a/", page(), "src", seq)
	if _, state, refresh := c.Lookup("/a/"); state != Stale || !refresh {
		t.Errorf("loaded before a price change: %v, refresh %v; want stale and a re-render", state, refresh)
	}

	seq = c.Seq()
	c.Invalidate("listing")
	c.PutFrom("/b/", page(), "src", seq)
	if _, state, _ := c.Lookup("/b/"); state != Miss {
		t.Errorf("loaded before a removal: %v, want not stored", state)
	}

	seq = c.Seq()
	c.Purge()
	c.PutFrom("/c/", page(), "src", seq)
	if _, state, _ := c.Lookup("/c/"); state != Miss {
		t.Errorf("loaded before a purge: %v, want not stored", state)
	}

	seq = c.Seq()
	c.Stale("product:2")
	c.Invalidate("product:3")
	c.PutFrom("/d/", page(), "src", seq)
	if _, state, _ := c.Lookup("/d/"); state != Fresh {
		t.Errorf("changes to other products meanwhile: %v, want fresh", state)
	}
	c.Stale("product:1")
	c.PutFrom("/e/", page(), "src", c.Seq())
	if _, state, _ := c.Lookup("/e/"); state != Fresh {
		t.Errorf("a change before the load: %v, want fresh", state)
	}

	// More changes than it can look back over: stored stale.
	seq = c.Seq()
	for range recentChanges {
		c.Stale("product:9")
	}
	c.PutFrom("/f/", page(), "src", seq)
	if _, state, _ := c.Lookup("/f/"); state != Stale {
		t.Errorf("after %d changes: %v, want stale", recentChanges, state)
	}
}

// A page rendered for the cache is compressed when stored, once, in both
// encodings; one never stored holds none, and Encoded compresses it for
// the one answer (brotli with the faster encoder, gzip as stored).
func TestPageCompressedWhenStored(t *testing.T) {
	html := []byte(strings.Repeat("<p>Everyday clothing, made to last.</p>", 200))
	p := NewPageUncompressed(200, html, []string{"product:1"})
	if p.Compressed() || p.Gzip != nil || p.Brotli != nil {
		t.Fatal("an uncompressed page holds compressed bodies")
	}
	br, gz := p.Encoded("br"), p.Encoded("gzip")
	if p.Compressed() {
		t.Fatal("Encoded kept its result")
	}
	if got := p.Encoded("identity"); !bytes.Equal(got, html) {
		t.Fatal("an unknown encoding does not give the HTML")
	}
	if plain := unbrotli(t, br); !bytes.Equal(plain, html) {
		t.Fatal("the brotli body sent once does not decode to the page")
	}
	c := NewCache(1<<20, time.Minute)
	c.Put("/a/", p)
	got, ok := c.Get("/a/")
	if !ok || !got.Compressed() {
		t.Fatal("the stored page is not compressed")
	}
	if !bytes.Equal(got.Gzip, gz) {
		t.Fatal("the stored gzip body differs from Encoded's")
	}
	if plain := unbrotli(t, got.Brotli); !bytes.Equal(plain, html) {
		t.Fatal("the stored brotli body does not decode to the page")
	}
	if size := c.Stats().Bytes; size < int64(len(html)+len(br)+len(gz)) {
		t.Fatalf("the cache counts %d bytes, less than the page's three bodies", size)
	}
}

// The pooled writers are reset between pages: pages of every size, sent
// once one after another (so the same writers serve them), each decode to
// their own HTML, past the faster encoder's 64 KB block too.
func TestPagesSentOnceDecode(t *testing.T) {
	for i, n := range []int{0, 1, 900, 64 << 10, 300 << 10, 17} {
		html := make([]byte, n)
		for j := range html {
			html[j] = "<div class=\"product\">Tee</div>\n"[(j*7+i)%30]
		}
		p := NewPageUncompressed(200, html, nil)
		if plain := unbrotli(t, p.Encoded("br")); !bytes.Equal(plain, html) {
			t.Fatalf("page %d (%d bytes): brotli does not decode to the page", i, n)
		}
		zr, err := gzip.NewReader(bytes.NewReader(p.Encoded("gzip")))
		if err != nil {
			t.Fatal(err)
		}
		if plain, err := io.ReadAll(zr); err != nil || !bytes.Equal(plain, html) {
			t.Fatalf("page %d (%d bytes): gzip does not decode to the page (%v)", i, n, err)
		}
	}
}

func unbrotli(t *testing.T, b []byte) []byte {
	t.Helper()
	plain, err := io.ReadAll(brotli.NewReader(bytes.NewReader(b)))
	if err != nil {
		t.Fatalf("brotli: %v", err)
	}
	return plain
}

// TestCacheRenderedAhead: a page StaleHot handed out stays Pending until it
// is stored again, dropped or replaced; stored after a change that came
// while it was rendered, it stays stale and its renderer keeps the duty to
// render it once more (PutRenderedAhead hands it back).
func TestCacheRenderedAhead(t *testing.T) {
	now := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	c := NewCache(1<<20, time.Hour)
	c.SetClock(func() time.Time { return now })
	c.SetStaleFor(10 * time.Second)
	page := func(s string) *Page { return NewPage(200, []byte(s), []string{"product:1"}) }
	c.PutFrom("/a/", page("a0"), "a-src", c.Seq())
	c.PutFrom("/b/", page("b0"), "b-src", c.Seq())

	_, hot := c.StaleHot(time.Minute, 8, "product:1")
	if len(hot) != 2 || !c.Pending(hot[0]) || !c.Pending(hot[1]) {
		t.Fatalf("handed out %d pages, pending %v", len(hot), hot)
	}
	a, b := hot[0], hot[1]
	if a.Key != "/a/" {
		a, b = b, a
	}
	if len(a.Tags) != 1 || a.Tags[0] != "product:1" || !a.LastHit.Equal(now) {
		t.Errorf("handed out without its tags and last request: %+v", a)
	}
	c.Drop("/b/")
	if c.Pending(b) {
		t.Error("a dropped page is still pending")
	}

	// A change while /a/ renders: stored stale, handed back.
	seq := c.Seq()
	c.Stale("product:1")
	again, ok := c.PutRenderedAhead("/a/", page("a1"), seq)
	if !ok || again.Key != "/a/" || again.Src != "a-src" || !c.Pending(again) || c.Pending(a) {
		t.Fatalf("a change during the render: again %+v, %v; want /a/ handed back, pending in place of the first", again, ok)
	}
	if _, state, refresh := c.Lookup("/a/"); state != Stale || refresh {
		t.Errorf("/a/ after the late change: %v, refresh %v; want stale, kept by its renderer", state, refresh)
	}
	if _, ok := c.PutRenderedAhead("/a/", page("a2"), c.Seq()); ok {
		t.Error("no change meanwhile, yet handed back")
	}
	if p, state, _ := c.Lookup("/a/"); state != Fresh || string(p.HTML) != "a2" || c.Pending(again) {
		t.Errorf("/a/ rendered again: %v; want a2, fresh, no longer pending", state)
	}
}
