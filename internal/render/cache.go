package render

import (
	"bytes"
	"compress/gzip"
	"container/list"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"sync"
	"time"

	"github.com/andybalholm/brotli"
)

// Page is a rendered page kept compressed and ready to send.
type Page struct {
	Status int
	HTML   []byte
	Gzip   []byte
	Brotli []byte
	ETag   string
	Tags   []string
	// Headers are extra response headers (Store API totals).
	Headers map[string]string
	stored  time.Time
}

// Compressors are reused: a fresh brotli writer allocates about 3 MB, and
// that garbage, not the compression itself, dominated a cache miss.
var (
	gzipPool   = sync.Pool{New: func() any { w, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression); return w }}
	brotliPool = sync.Pool{New: func() any { return brotli.NewWriterLevel(nil, 6) }}
)

// NewPage compresses html once, so every cache hit is a copy of bytes.
func NewPage(status int, html []byte, tags []string) *Page {
	p := &Page{Status: status, HTML: trim(html), Tags: tags}
	sum := sha256.Sum256(html)
	p.ETag = `"` + hex.EncodeToString(sum[:12]) + `"`

	p.Gzip = trim(compress(&gzipPool, html, len(html)/4))
	p.Brotli = trim(compress(&brotliPool, html, len(html)/5))
	return p
}

// trim returns b in an array of its own length when b holds much more
// capacity than it uses: a cached page keeps its slices for minutes, and
// the unused tail of a grown buffer would be memory the cache does not see.
func trim(b []byte) []byte {
	if cap(b)-len(b) <= len(b)/16+64 {
		return b
	}
	return bytes.Clone(b)
}

// compressor is what the pooled gzip and brotli writers share.
type compressor interface {
	io.WriteCloser
	Reset(io.Writer)
}

// compress writes html through a pooled compressor; grow presizes the output.
func compress(pool *sync.Pool, html []byte, grow int) []byte {
	var out bytes.Buffer
	out.Grow(grow + 64)
	w := pool.Get().(compressor)
	w.Reset(&out)
	_, _ = w.Write(html)
	_ = w.Close()
	pool.Put(w)
	return out.Bytes()
}

// Memory the cache accounts for besides the bodies, so that its byte bound
// is a bound on what it really holds, keys and indexes included (issue 9,
// item 13: a cache counting only bodies held several times its bound).
const (
	// entryOverhead: the Page struct, its list element and cacheEntry, the
	// entries map slot and the ETag string.
	entryOverhead = 320
	// tagOverhead: per tag, the Tags slice slot, the tag's slot in its set
	// of keys, and a share of the set map itself.
	tagOverhead = 112
	// headerOverhead: per extra response header.
	headerOverhead = 64
)

// size is what a page holds: the capacity of its bodies (what stays
// allocated, not only what is sent), its tags and headers and the fixed
// per-page structures.
func (p *Page) size() int64 {
	n := cap(p.HTML) + cap(p.Gzip) + cap(p.Brotli) + len(p.ETag) + entryOverhead
	for _, t := range p.Tags {
		n += len(t) + tagOverhead
	}
	for k, v := range p.Headers {
		n += len(k) + len(v) + headerOverhead
	}
	return int64(n)
}

// entrySize is what storing p under key costs: the page, and the key, which
// the entries map, the LRU entry and every tag's set share.
func entrySize(key string, p *Page) int64 {
	return p.size() + int64(len(key))
}

// Cache keeps rendered pages by key (path and normalized query), bounded in
// bytes with least-recently-used eviction, and invalidated by tags: a page
// is tagged with what it shows ("product:12", "listing"), and a change
// invalidates only the pages carrying its tags. MaxAge bounds how stale a
// page can get through changes no tag names.
type Cache struct {
	mu       sync.Mutex
	maxBytes int64
	maxAge   time.Duration
	used     int64
	lru      *list.List // front: most recent; values are *cacheEntry
	entries  map[string]*list.Element
	tags     map[string]map[string]struct{}
	now      func() time.Time

	hits, misses, evictions, invalidations uint64
}

type cacheEntry struct {
	key  string
	page *Page
	size int64 // entrySize when stored: what removing it gives back
}

// NewCache makes a cache of at most maxBytes; maxBytes 0 disables it.
func NewCache(maxBytes int64, maxAge time.Duration) *Cache {
	return &Cache{maxBytes: maxBytes, maxAge: maxAge, lru: list.New(), entries: map[string]*list.Element{},
		tags: map[string]map[string]struct{}{}, now: time.Now}
}

// Enabled reports whether the cache stores anything.
func (c *Cache) Enabled() bool { return c != nil && c.maxBytes > 0 }

// Get returns the page for key, if cached and fresh.
func (c *Cache) Get(key string) (*Page, bool) {
	if !c.Enabled() {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[key]
	if !ok {
		c.misses++
		return nil, false
	}
	e := el.Value.(*cacheEntry)
	if c.maxAge > 0 && c.now().Sub(e.page.stored) > c.maxAge {
		c.remove(el)
		c.misses++
		return nil, false
	}
	c.lru.MoveToFront(el)
	c.hits++
	return e.page, true
}

// Put stores a page under key.
func (c *Cache) Put(key string, p *Page) {
	if !c.Enabled() || entrySize(key, p) > c.maxBytes/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok {
		c.remove(el)
	}
	p.stored = c.now()
	size := entrySize(key, p)
	el := c.lru.PushFront(&cacheEntry{key: key, page: p, size: size})
	c.entries[key] = el
	c.used += size
	for _, t := range p.Tags {
		set := c.tags[t]
		if set == nil {
			set = map[string]struct{}{}
			c.tags[t] = set
		}
		set[key] = struct{}{}
	}
	for c.used > c.maxBytes {
		c.remove(c.lru.Back())
		c.evictions++
	}
}

func (c *Cache) remove(el *list.Element) {
	e := el.Value.(*cacheEntry)
	c.lru.Remove(el)
	delete(c.entries, e.key)
	c.used -= e.size
	for _, t := range e.page.Tags {
		if set := c.tags[t]; set != nil {
			delete(set, e.key)
			if len(set) == 0 {
				delete(c.tags, t)
			}
		}
	}
}

// Invalidate drops every page tagged with any of tags and returns how many.
func (c *Cache) Invalidate(tags ...string) int {
	if !c.Enabled() {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, t := range tags {
		for key := range c.tags[t] {
			if el, ok := c.entries[key]; ok {
				c.remove(el)
				n++
			}
		}
	}
	c.invalidations += uint64(n)
	return n
}

// Purge drops everything.
func (c *Cache) Purge() {
	if !c.Enabled() {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.invalidations += uint64(len(c.entries))
	c.lru.Init()
	c.entries = map[string]*list.Element{}
	c.tags = map[string]map[string]struct{}{}
	c.used = 0
}

// CacheStats are counters for /metrics.
type CacheStats struct {
	Entries                                int
	Bytes                                  int64
	Hits, Misses, Evictions, Invalidations uint64
}

// Stats returns the cache's counters.
func (c *Cache) Stats() CacheStats {
	if c == nil {
		return CacheStats{}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return CacheStats{len(c.entries), c.used, c.hits, c.misses, c.evictions, c.invalidations}
}
