package render

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"container/list"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
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
	// FrameSrc are the origins the page frames (a video player): the
	// policy the page is sent with allows them (httpx.WriteBody).
	FrameSrc []string
	// Personal is what the server needs to build a viewer's part of this
	// page (Spliced): kept with the page, never read by this package.
	Personal any
	stored   time.Time
	// The splice point (Spliced): split is the offset in HTML of the
	// closing </body> (0: the page takes no part); gzipSplit the offset
	// in Gzip where the compressed HTML before it ends, on a byte
	// boundary; crcPrefix the CRC-32 of HTML[:split].
	split     int
	gzipSplit int
	crcPrefix uint32
}

// Compressors are reused: a fresh brotli writer allocates about 3 MB, and
// that garbage, not the compression itself, dominated a cache miss.
//
// A stored page is compressed once and sent many times, so it gets the
// denser brotli (quality 6). A page sent once (never stored) is compressed
// on the request path, so it gets the package's faster encoder at level 3:
// on a 64 KB product page about a quarter of quality 6's CPU for 10 % more
// bytes (docs/benchmarks.md, "Compression").
var (
	gzipPool       = sync.Pool{New: func() any { w, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression); return w }}
	brotliPool     = sync.Pool{New: func() any { return brotli.NewWriterLevel(nil, 6) }}
	brotliOncePool = sync.Pool{New: func() any { return brotli.NewWriterV2(nil, 3) }}
)

// NewPage compresses html once, so every cache hit is a copy of bytes.
func NewPage(status int, html []byte, tags []string) *Page {
	p := NewPageUncompressed(status, html, tags)
	p.Compress()
	return p
}

// NewPageUncompressed is a page not compressed yet: the cache compresses it
// when it stores it (Put, PutFrom, PutRevalidated), and a page that is
// never stored (the cache off, a personal page, an error page) is
// compressed as it is sent, in the one encoding its client takes
// (Encoded), instead of in both.
func NewPageUncompressed(status int, html []byte, tags []string) *Page {
	p := &Page{Status: status, HTML: trim(html), Tags: tags}
	sum := sha256.Sum256(html)
	p.ETag = `"` + hex.EncodeToString(sum[:12]) + `"`
	if i := bytes.LastIndex(html, bodyEnd); i > 0 {
		p.split = i
	}
	return p
}

// bodyEnd is where a viewer's part goes: last in the body, so the app's
// module script (deferred) finds it, and the HTML after it is a few bytes.
var bodyEnd = []byte("</body>")

// Compress fills Gzip and Brotli once. It is not safe to call while the
// page is being sent: its owner calls it before sharing the page.
func (p *Page) Compress() {
	if p.Compressed() {
		return
	}
	p.Gzip, p.gzipSplit = compressGzip(p.HTML, p.split)
	p.Gzip = trim(p.Gzip)
	if p.gzipSplit > 0 {
		p.crcPrefix = crc32.ChecksumIEEE(p.HTML[:p.split])
	}
	p.Brotli = trim(compress(&brotliPool, p.HTML, len(p.HTML)/5))
}

// compressGzip is html gzipped. With a split point, the compressed stream
// is flushed there (a sync flush: the deflate blocks so far end on a byte
// boundary and are not final), and the offset of that boundary is returned:
// Spliced reuses everything before it and compresses only what follows.
func compressGzip(html []byte, split int) ([]byte, int) {
	var out bytes.Buffer
	out.Grow(len(html)/4 + 64)
	w := gzipPool.Get().(*gzip.Writer)
	w.Reset(&out)
	at := 0
	if split > 0 {
		_, _ = w.Write(html[:split])
		_ = w.Flush()
		at = out.Len()
		html = html[split:]
	}
	_, _ = w.Write(html)
	_ = w.Close()
	gzipPool.Put(w)
	return out.Bytes(), at
}

// flatePool writes a viewer's part and the end of the page into a shared
// page's gzip stream (Spliced) as stored blocks: the part is a few hundred
// bytes, and building Huffman codes for it cost more CPU than the bytes
// it would save.
var flatePool = sync.Pool{New: func() any { w, _ := flate.NewWriter(nil, flate.NoCompression); return w }}

// Spliced is the page with part (HTML: a viewer's own part) inserted
// before </body>, in encoding "gzip" or, for anything else, as HTML. A
// stored page answers gzip without compressing itself again: its gzip
// stream up to the split point is reused as it is, and only the part and
// the few bytes after it are compressed and the trailer written. Brotli
// is not offered: its stream cannot be cut and continued so cheaply, and
// gzip costs a logged-in viewer a few percent more bytes than brotli. A
// page not stored (never compressed) is assembled and, for gzip,
// compressed whole; one without </body> takes the part at its end.
func (p *Page) Spliced(part []byte, encoding string) []byte {
	split := p.split
	if split == 0 {
		split = len(p.HTML)
	}
	if encoding == "gzip" && p.gzipSplit > 0 {
		var out bytes.Buffer
		out.Grow(p.gzipSplit + len(part) + 64)
		out.Write(p.Gzip[:p.gzipSplit])
		fw := flatePool.Get().(*flate.Writer)
		fw.Reset(&out)
		_, _ = fw.Write(part)
		_, _ = fw.Write(p.HTML[p.split:])
		_ = fw.Close()
		flatePool.Put(fw)
		crc := crc32.Update(p.crcPrefix, crc32.IEEETable, part)
		crc = crc32.Update(crc, crc32.IEEETable, p.HTML[p.split:])
		out.Write(binary.LittleEndian.AppendUint32(nil, crc))
		out.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(p.HTML)+len(part))))
		return out.Bytes()
	}
	html := make([]byte, 0, len(p.HTML)+len(part))
	html = append(append(append(html, p.HTML[:split]...), part...), p.HTML[split:]...)
	if encoding == "gzip" {
		return compress(&gzipPool, html, len(html)/4)
	}
	return html
}

// Compressed reports whether the page holds its compressed bodies.
func (p *Page) Compressed() bool { return p.Gzip != nil || p.Brotli != nil }

// Encoded is the page's body in encoding ("br" or "gzip"; anything else
// is the HTML): the one Compress kept, or, for a page never stored,
// compressed now for this one answer and not kept (brotli with the faster
// encoder: see brotliOncePool).
func (p *Page) Encoded(encoding string) []byte {
	switch encoding {
	case "br":
		if p.Brotli != nil {
			return p.Brotli
		}
		return compress(&brotliOncePool, p.HTML, len(p.HTML)/5)
	case "gzip":
		if p.Gzip != nil {
			return p.Gzip
		}
		return compress(&gzipPool, p.HTML, len(p.HTML)/4)
	}
	return p.HTML
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
// is a bound on what it really holds, keys and indexes included (a
// cache counting only bodies held several times its bound).
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
	for _, o := range p.FrameSrc {
		n += len(o) + tagOverhead
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
//
// A change either drops the pages it touches (Invalidate: the page may be
// gone, as for a product put in the trash) or marks them stale (Stale: the
// page is still there, with new content). A stale page is still answered by
// Lookup, to one caller with the duty to re-render it (at most one re-render
// per page at a time), for at most staleFor after the first change that
// made it stale; after that it is dropped and the next request renders.
type Cache struct {
	mu       sync.Mutex
	maxBytes int64
	maxAge   time.Duration
	staleFor time.Duration
	used     int64
	lru      *list.List // front: most recent; values are *cacheEntry
	entries  map[string]*list.Element
	tags     map[string]map[string]struct{}
	now      func() time.Time

	// seq counts the changes (Stale, Invalidate, Purge): a render reads it
	// before loading, and PutRevalidated and PutFrom know from it whether a
	// change came meanwhile; recent holds the last changes' tags by seq.
	seq    uint64
	recent [recentChanges]change

	hits, misses, evictions, invalidations, staleHits, staled uint64
}

// recentChanges is how many changes PutFrom can look back over; a render
// that took longer than that many changes is stored stale.
const recentChanges = 64

// change is one call of Stale, Invalidate or Purge, as PutFrom checks it.
type change struct {
	tags   []string
	remove bool // Invalidate or Purge: the page may be gone
	all    bool // Purge
}

// record notes a change under the next seq (c.mu held).
func (c *Cache) record(tags []string, remove, all bool) {
	c.seq++
	c.recent[c.seq%recentChanges] = change{tags: append([]string(nil), tags...), remove: remove, all: all}
}

// changedSince reports whether a change after seq names one of tags, and
// whether one of those may have removed the page (c.mu held).
func (c *Cache) changedSince(seq uint64, tags []string) (changed, removed bool) {
	if c.seq-seq >= recentChanges {
		return true, false // too many to look back over: render again
	}
	for s := seq + 1; s <= c.seq; s++ {
		ch := c.recent[s%recentChanges]
		hit := ch.all
		for _, t := range ch.tags {
			if hit {
				break
			}
			for _, pt := range tags {
				if t == pt {
					hit = true
					break
				}
			}
		}
		if hit {
			changed = true
			removed = removed || ch.remove
		}
	}
	return changed, removed
}

type cacheEntry struct {
	key  string
	page *Page
	size int64 // entrySize when stored: what removing it gives back
	// staleSince is when the first change not yet rendered marked the page
	// stale (zero: fresh); staleSeq is the seq of the last such change.
	staleSince time.Time
	staleSeq   uint64
	// refreshing: a caller was told to re-render the page and has not
	// reported back yet.
	refreshing bool
	// src is what PutFrom was given to render the page again; lastHit is
	// when it was last asked for (StaleHot re-renders recent ones ahead).
	src     any
	lastHit time.Time
}

// NewCache makes a cache of at most maxBytes; maxBytes 0 disables it.
func NewCache(maxBytes int64, maxAge time.Duration) *Cache {
	return &Cache{maxBytes: maxBytes, maxAge: maxAge, lru: list.New(), entries: map[string]*list.Element{},
		tags: map[string]map[string]struct{}{}, now: time.Now}
}

// SetStaleFor sets how long after a change a stale page may still be
// answered by Lookup (0: Stale drops pages as Invalidate does).
func (c *Cache) SetStaleFor(d time.Duration) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.staleFor = d
	c.mu.Unlock()
}

// SetClock replaces the cache's clock (tests move it to check the bounds).
func (c *Cache) SetClock(now func() time.Time) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.now = now
	c.mu.Unlock()
}

// Enabled reports whether the cache stores anything.
func (c *Cache) Enabled() bool { return c != nil && c.maxBytes > 0 }

// Get returns the page for key, if cached and fresh. A stale page is a
// miss here, and stays for Lookup: the caller renders and Puts.
func (c *Cache) Get(key string) (*Page, bool) {
	if !c.Enabled() {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[key]
	if !ok || c.expired(el) || !el.Value.(*cacheEntry).staleSince.IsZero() {
		c.misses++
		return nil, false
	}
	c.lru.MoveToFront(el)
	c.hits++
	el.Value.(*cacheEntry).lastHit = c.now()
	return el.Value.(*cacheEntry).page, true
}

// expired drops the entry and reports true if it is past MaxAge, or stale
// for longer than staleFor.
func (c *Cache) expired(el *list.Element) bool {
	e := el.Value.(*cacheEntry)
	now := c.now()
	if (c.maxAge > 0 && now.Sub(e.page.stored) > c.maxAge) ||
		(!e.staleSince.IsZero() && now.Sub(e.staleSince) > c.staleFor) {
		c.remove(el)
		return true
	}
	return false
}

// State is what Lookup found.
type State int

const (
	Miss  State = iota // not cached (or too old): render it
	Fresh              // the page as it is
	Stale              // a change since: answer it, and re-render if told to
)

// Lookup returns the page for key and its state. For a stale page, refresh
// is true for exactly one caller until that caller reports back with
// PutRevalidated or RevalidateFailed: that caller re-renders the page, the
// others answer the stale one meanwhile. Call Seq before loading the page
// again.
func (c *Cache) Lookup(key string) (p *Page, state State, refresh bool) {
	if !c.Enabled() {
		return nil, Miss, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[key]
	if !ok {
		c.misses++
		return nil, Miss, false
	}
	if c.expired(el) {
		c.misses++
		return nil, Miss, false
	}
	e := el.Value.(*cacheEntry)
	c.lru.MoveToFront(el)
	e.lastHit = c.now()
	if e.staleSince.IsZero() {
		c.hits++
		return e.page, Fresh, false
	}
	c.staleHits++
	if !e.refreshing {
		e.refreshing = true
		refresh = true
	}
	return e.page, Stale, refresh
}

// Seq is read before a page is loaded, and passed to PutFrom or
// PutRevalidated.
func (c *Cache) Seq() uint64 {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.seq
}

// PutRevalidated stores the re-render of a stale page, loaded after seq was
// read. If the page was dropped meanwhile (a removal, eviction, expiry) it
// is not stored: the next request renders. If another change marked it
// stale after seq, the new page is stored still stale, from the first
// change's time, so the bound holds and one more re-render follows.
func (c *Cache) PutRevalidated(key string, p *Page, seq uint64) {
	if !c.Enabled() {
		return
	}
	p.Compress() // before the lock: compressing takes a millisecond or two
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putRevalidated(key, p, seq)
}

// PutRenderedAhead is PutRevalidated for a page StaleHot handed out. If a
// change marked the page stale again while it was rendered, the page is
// stored stale and the caller keeps the duty to render it once more: again
// is that page, ok true.
func (c *Cache) PutRenderedAhead(key string, p *Page, seq uint64) (again Refresh, ok bool) {
	if !c.Enabled() {
		return Refresh{}, false
	}
	p.Compress()
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.putRevalidated(key, p, seq)
	if e == nil || e.staleSince.IsZero() {
		return Refresh{}, false
	}
	e.refreshing = true
	return e.refresh(), true
}

// putRevalidated stores the re-render of a stale page and returns its entry,
// nil when it is not stored (c.mu held).
func (c *Cache) putRevalidated(key string, p *Page, seq uint64) *cacheEntry {
	el, ok := c.entries[key]
	if !ok {
		return nil
	}
	old := el.Value.(*cacheEntry)
	if entrySize(key, p) > c.maxBytes/4 {
		c.remove(el)
		return nil
	}
	e := c.put(key, p, old.src)
	e.lastHit = old.lastHit
	if old.staleSeq > seq {
		e.staleSince, e.staleSeq = old.staleSince, old.staleSeq
	}
	return e
}

// Pending reports whether the page r names is still the one StaleHot (or
// PutRenderedAhead) handed out, still stale and still to be rendered by the
// caller: false when it was dropped, evicted, expired or replaced
// meanwhile, and then the caller has nothing to report back.
func (c *Cache) Pending(r Refresh) bool {
	if !c.Enabled() {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[r.Key]
	if !ok || el.Value.(*cacheEntry) != r.entry || c.expired(el) {
		return false
	}
	return r.entry.refreshing && !r.entry.staleSince.IsZero()
}

// RevalidateFailed gives back the refresh duty Lookup handed out for key,
// so that a later request tries again.
func (c *Cache) RevalidateFailed(key string) {
	c.onEntry(key, func(el *list.Element) { el.Value.(*cacheEntry).refreshing = false })
}

// onEntry runs fn on the entry stored under key, if any, under the lock;
// nothing when the cache is off.
func (c *Cache) onEntry(key string, fn func(*list.Element)) {
	if !c.Enabled() {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok {
		fn(el)
	}
}

// storable compresses p and says whether the cache takes it: the cache is
// on and the entry is at most a quarter of its bytes.
func (c *Cache) storable(key string, p *Page) bool {
	if !c.Enabled() {
		return false
	}
	p.Compress()
	return entrySize(key, p) <= c.maxBytes/4
}

// Put stores a page under key.
func (c *Cache) Put(key string, p *Page) {
	if !c.storable(key, p) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.put(key, p, nil)
}

// PutFrom stores a page loaded after seq (Seq) was read, with src, what the
// caller needs to render it again (StaleHot hands it back for pages to
// re-render ahead). A change that came while the page was loaded and
// rendered, and names one of its tags, would otherwise be lost: if it may
// have removed the page (Invalidate, Purge) the page is not stored; if it
// marked pages stale the page is stored stale, so it is rendered again
// within the bound.
func (c *Cache) PutFrom(key string, p *Page, src any, seq uint64) {
	if !c.storable(key, p) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	changed, removed := c.changedSince(seq, p.Tags)
	if removed {
		return
	}
	e := c.put(key, p, src)
	if changed && c.staleFor > 0 {
		e.staleSince, e.staleSeq = e.page.stored, c.seq
	}
}

// put stores p as a fresh entry, just asked for (c.mu held).
func (c *Cache) put(key string, p *Page, src any) *cacheEntry {
	if el, ok := c.entries[key]; ok {
		c.remove(el)
	}
	p.stored = c.now()
	size := entrySize(key, p)
	e := &cacheEntry{key: key, page: p, size: size, src: src, lastHit: p.stored}
	el := c.lru.PushFront(e)
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
	return e
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
	c.record(tags, true, false)
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

// Drop removes the page stored under key, if any.
func (c *Cache) Drop(key string) {
	c.onEntry(key, func(el *list.Element) {
		c.remove(el)
		c.invalidations++
	})
}

// Stale marks every page tagged with any of tags stale and returns how
// many: Lookup answers them for at most staleFor more while one caller
// re-renders each. With staleFor 0 it is Invalidate.
func (c *Cache) Stale(tags ...string) int {
	n, _ := c.StaleHot(0, 0, tags...)
	return n
}

// Refresh is a page to render again ahead of requests: its key, the src
// and tags it was stored with, and when it was last asked for.
type Refresh struct {
	Key     string
	Src     any
	Tags    []string
	LastHit time.Time
	entry   *cacheEntry // the entry handed out (Pending)
}

// refresh is e as a page to render again (c.mu held).
func (e *cacheEntry) refresh() Refresh {
	return Refresh{Key: e.key, Src: e.src, Tags: e.page.Tags, LastHit: e.lastHit, entry: e}
}

// StaleHot is Stale, and also hands the caller the duty to re-render at
// most max of the pages it marks that were asked for within the last
// within and were stored with a src: the caller renders each and reports
// back with PutRevalidated or RevalidateFailed, as a Lookup caller told to
// refresh does (or PutRenderedAhead; a page no longer Pending needs no
// report). A page handed out is not handed out again, to this caller or a
// request, until the caller reports back.
func (c *Cache) StaleHot(within time.Duration, max int, tags ...string) (n int, hot []Refresh) {
	if !c.Enabled() {
		return 0, nil
	}
	c.mu.Lock()
	if c.staleFor <= 0 {
		c.mu.Unlock()
		return c.Invalidate(tags...), nil
	}
	defer c.mu.Unlock()
	c.record(tags, false, false)
	now := c.now()
	for _, t := range tags {
		for key := range c.tags[t] {
			el, ok := c.entries[key]
			if !ok {
				continue
			}
			e := el.Value.(*cacheEntry)
			if e.staleSince.IsZero() {
				e.staleSince = now
				n++
			}
			e.staleSeq = c.seq
			if len(hot) < max && !e.refreshing && e.src != nil && now.Sub(e.lastHit) <= within {
				e.refreshing = true
				hot = append(hot, e.refresh())
			}
		}
	}
	c.staled += uint64(n)
	return n, hot
}

// Purge drops everything.
func (c *Cache) Purge() {
	if !c.Enabled() {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.record(nil, true, true)
	c.invalidations += uint64(len(c.entries))
	c.lru.Init()
	c.entries = map[string]*list.Element{}
	c.tags = map[string]map[string]struct{}{}
	c.used = 0
}

// CacheStats are counters for /metrics. StaleHits counts stale pages
// answered (Lookup), Staled pages marked stale by a change.
type CacheStats struct {
	Entries                                int
	Bytes                                  int64
	Hits, Misses, Evictions, Invalidations uint64
	StaleHits, Staled                      uint64
}

// Stats returns the cache's counters.
func (c *Cache) Stats() CacheStats {
	if c == nil {
		return CacheStats{}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return CacheStats{len(c.entries), c.used, c.hits, c.misses, c.evictions, c.invalidations, c.staleHits, c.staled}
}
