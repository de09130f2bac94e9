package catalog

import (
	"context"
	"sync"
)

// Change is one entry of the catalogue change log: the product (or
// variation) it names and its kind ("product", "product_listed",
// "taxonomy", "stock").
type Change struct {
	ID        int64
	ProductID int64
	Kind      string
}

// Loader is what the Cache reads through: the catalogue's product reads
// and the change log's newest id. The SQL store implements it.
type Loader interface {
	Product(ctx context.Context, id int64) (*Product, error)
	ProductBySlug(ctx context.Context, slug string) (*Product, error)
	Products(ctx context.Context, ids []int64) ([]*Product, error)
	Variations(ctx context.Context, parentID int64) ([]*Product, error)
	VariationsOf(ctx context.Context, parentIDs []int64) (map[int64][]*Product, error)
	CatalogVersion(ctx context.Context) (int64, error)
}

// Cache serves products, variations and each variable product's
// variation list from memory for the cart and get_variation paths, so a
// cart add reads no catalogue SQL, and for the product pages (by slug) and
// the cards' price ranges, so a page the page cache does not hold reads
// its product, variations and linked products without SQL. It is invalidated by the catalogue change
// log (the change follower calls Invalidate): a change names the parent product; it drops that
// product, its variations and its variation list; a change naming a
// variation (stock moves recorded per variation) drops the variation and its
// parent's list; a taxonomy change (term names show in products) drops all.
//
// Loads race with invalidation through a generation counter: a load that
// began before an invalidation does not store what it read. Entries are
// shared: callers must never modify a product they get from here.
//
// Besides the poller, every cart and get_variation request first checks
// the log's newest id (Synced), so what it reads is never older than the
// request: stock rules see the stock as stored, not a copy one poll old.
type Cache struct {
	db       Loader
	maxBytes int64 // what the products may take (approxBytes) before the cache starts over

	// applied and catchUp are the change follower's (Follow).
	applied func() int64
	catchUp func(context.Context)

	mu       sync.RWMutex
	gen      uint64
	bytes    int64 // the cached products' approxBytes
	products map[int64]*Product
	vars     map[int64][]*Product // by parent id
	kids     map[int64][]int64    // parent id → cached variation ids
	slugs    map[string]int64     // a cached parent product's slug → its id

	sync sync.Mutex // one request at a time applies pending changes (Synced)
}

// DefaultCacheBytes is the product cache's bound in a server: 32 MiB of
// products, about 16,000 of a generated catalogue's (2 KB each with their
// pictures and terms), a few thousand with long descriptions.
const DefaultCacheBytes = 32 << 20

// NewCache is a cache over db of products taking up to maxBytes
// (approxBytes; 0: DefaultCacheBytes).
func NewCache(db Loader, maxBytes int64) *Cache {
	if maxBytes <= 0 {
		maxBytes = DefaultCacheBytes
	}
	c := &Cache{db: db, maxBytes: maxBytes}
	c.reset()
	return c
}

// Follow names the change follower Synced relies on: applied is the newest
// change id it has applied, catchUp applies the pending ones now (and calls
// Invalidate with them). Without a follower Synced checks nothing.
func (c *Cache) Follow(applied func() int64, catchUp func(context.Context)) {
	c.applied, c.catchUp = applied, catchUp
}

func (c *Cache) reset() {
	c.gen++
	c.bytes = 0
	c.products = map[int64]*Product{}
	c.vars = map[int64][]*Product{}
	c.kids = map[int64][]int64{}
	c.slugs = map[string]int64{}
}

// Reset forgets everything.
func (c *Cache) Reset() {
	c.mu.Lock()
	c.reset()
	c.mu.Unlock()
}

// put stores loaded products unless an invalidation happened since gen.
func (c *Cache) put(gen uint64, ps []*Product) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if c.bytes >= c.maxBytes {
		c.reset()
		return
	}
	for _, p := range ps {
		c.store(p)
		if p.ParentID != 0 {
			c.kids[p.ParentID] = append(c.kids[p.ParentID], p.ID)
		} else {
			c.slugs[p.Slug] = p.ID
		}
	}
}

// Product returns one product or variation.
func (c *Cache) Product(ctx context.Context, id int64) (*Product, error) {
	c.mu.RLock()
	p, gen := c.products[id], c.gen
	c.mu.RUnlock()
	if p != nil {
		return p, nil
	}
	p, err := c.db.Product(ctx, id)
	if err != nil {
		return nil, err
	}
	c.put(gen, []*Product{p})
	return p, nil
}

// ProductBySlug returns the product (not a variation) whose slug is slug:
// the product page's read. A slug no product has is not remembered.
func (c *Cache) ProductBySlug(ctx context.Context, slug string) (*Product, error) {
	c.mu.RLock()
	p, gen := c.products[c.slugs[slug]], c.gen
	c.mu.RUnlock()
	if p != nil && p.Slug == slug {
		return p, nil
	}
	p, err := c.db.ProductBySlug(ctx, slug)
	if err != nil {
		return nil, err
	}
	c.put(gen, []*Product{p})
	return p, nil
}

// Products returns products by id, in the order of ids, skipping missing ones.
func (c *Cache) Products(ctx context.Context, ids []int64) ([]*Product, error) {
	out := make([]*Product, 0, len(ids))
	var missing []int64
	c.mu.RLock()
	gen := c.gen
	for _, id := range ids {
		if c.products[id] == nil {
			missing = append(missing, id)
		}
	}
	c.mu.RUnlock()
	loaded := map[int64]*Product{}
	if len(missing) > 0 {
		ps, err := c.db.Products(ctx, missing)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			loaded[p.ID] = p
		}
		c.put(gen, ps)
	}
	c.mu.RLock()
	for _, id := range ids {
		p := loaded[id]
		if p == nil {
			p = c.products[id]
		}
		if p != nil {
			out = append(out, p)
		}
	}
	c.mu.RUnlock()
	return out, nil
}

// Variations returns a variable product's variations in menu order.
func (c *Cache) Variations(ctx context.Context, parentID int64) ([]*Product, error) {
	c.mu.RLock()
	vs, ok := c.vars[parentID]
	gen := c.gen
	c.mu.RUnlock()
	if ok {
		return vs, nil
	}
	vs, err := c.db.Variations(ctx, parentID)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if gen == c.gen && c.bytes < c.maxBytes {
		c.vars[parentID] = vs
		// A variation loaded with its list is the same as loaded alone
		// (variations have no terms, attributes or links of their own).
		for _, v := range vs {
			c.store(v)
			c.kids[parentID] = append(c.kids[parentID], v.ID)
		}
	}
	c.mu.Unlock()
	return vs, nil
}

// VariationsOf returns the variations of each of parentIDs (the cards'
// price ranges): from memory when every list is cached, else the missing
// lists in one read, which is not kept (it loads less of each variation
// than Variations, whose lists the cache holds).
func (c *Cache) VariationsOf(ctx context.Context, parentIDs []int64) (map[int64][]*Product, error) {
	out := make(map[int64][]*Product, len(parentIDs))
	var missing []int64
	c.mu.RLock()
	for _, id := range parentIDs {
		if vs, ok := c.vars[id]; ok {
			out[id] = vs
		} else {
			missing = append(missing, id)
		}
	}
	c.mu.RUnlock()
	if len(missing) == 0 {
		return out, nil
	}
	loaded, err := c.db.VariationsOf(ctx, missing)
	if err != nil {
		return nil, err
	}
	for id, vs := range loaded {
		out[id] = vs
	}
	return out, nil
}

// Invalidate drops what the changes touch.
func (c *Cache) Invalidate(changes []Change) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	for _, ch := range changes {
		if ch.Kind == "taxonomy" {
			c.reset()
			return
		}
		c.drop(ch.ProductID)
	}
}

func (c *Cache) drop(id int64) {
	if p := c.products[id]; p != nil && p.ParentID != 0 {
		delete(c.vars, p.ParentID)
		c.remove(p.ParentID)
	}
	c.remove(id)
	delete(c.vars, id)
	for _, k := range c.kids[id] {
		c.remove(k)
	}
	delete(c.kids, id)
}

// store keeps p (under c.mu), replacing what was kept under its id.
func (c *Cache) store(p *Product) {
	c.remove(p.ID)
	c.products[p.ID] = p
	c.bytes += p.approxBytes()
}

// remove forgets product id and its slug, if cached (under c.mu).
func (c *Cache) remove(id int64) {
	p := c.products[id]
	if p == nil {
		return
	}
	if p.ParentID == 0 && c.slugs[p.Slug] == id {
		delete(c.slugs, p.Slug)
	}
	c.bytes -= p.approxBytes()
	delete(c.products, id)
}

// Synced brings the cache up to the change log before a request reads
// it: one prepared MAX(id) read, and when the log moved since the last
// poll, the changes are applied now (the same work the poller does), so a
// request sees every catalogue change (stock moves included) committed
// before it started, as a direct SQL read would.
func (c *Cache) Synced(ctx context.Context) error {
	if c.applied == nil {
		return nil
	}
	last, err := c.db.CatalogVersion(ctx)
	if err != nil {
		return err
	}
	if last <= c.applied() {
		return nil
	}
	c.sync.Lock()
	defer c.sync.Unlock()
	if last > c.applied() {
		c.catchUp(ctx)
	}
	return nil
}

// approxBytes is about what p takes in memory: its struct and the
// allocations behind its pointers, its strings, and its pictures, terms,
// attributes and meta with theirs. It bounds the cache; its constants are
// sizes on 64-bit Go, rounded up (TestCacheApproxBytes holds the estimate
// against the heap a catalogue's products take).
func (p *Product) approxBytes() int64 {
	n := 900 + len(p.Type) + len(p.Name) + len(p.Slug) + len(p.SKU) + len(p.Status) + len(p.CatalogVisibility) +
		len(p.ShortDescription) + len(p.Description) + len(p.StockStatus) + len(p.Backorders) +
		len(p.Weight) + len(p.Length) + len(p.Width) + len(p.Height) + len(p.PreOrderLabel) +
		len(p.ExternalURL) + len(p.ButtonText) + len(p.TaxStatus) + len(p.TaxClass)
	for _, im := range p.Images {
		n += 160 + len(im.Src) + len(im.Alt) + len(im.Caption) + len(im.Name)
		for _, sz := range im.Sizes {
			n += 40 + len(sz.Src)
		}
	}
	for _, ts := range [][]Term{p.Categories, p.Tags} {
		for _, t := range ts {
			n += 48 + len(t.Name) + len(t.Slug)
		}
	}
	for _, a := range p.Attributes {
		n += 96 + len(a.Name) + len(a.Taxonomy)
		for _, v := range a.Values {
			n += 48 + len(v.Name) + len(v.Slug)
		}
	}
	for _, v := range p.Variation {
		n += 32 + len(v.Name) + len(v.Value)
	}
	n += 8 * (len(p.Children) + len(p.Upsells) + len(p.CrossSells))
	for k, v := range p.Meta {
		n += 64 + len(k) + len(v)
	}
	return int64(n)
}
