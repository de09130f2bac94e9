// Command vitrine-gen fills a store with a synthetic catalogue for
// benchmarks, and measures search and listing latency on it.
//
//	vitrine-gen -db sqlite:/tmp/bench.db -n 100000     # generate
//	vitrine-gen -db sqlite:/tmp/bench.db -measure      # measure
//
// The catalogue is deterministic for a given -n and -seed: names from word
// lists (some with diacritics), SKUs, prices (some on sale), nested
// categories, tags, descriptions, about one product in ten variable with
// three colour variations, a few drafts and hidden products. Products are
// saved through sqlstore.SaveProducts, -batch per transaction, so every
// row, relation and search-index entry is what SaveProduct writes.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/ajax"
	"vitrine/internal/catalog"
	"vitrine/internal/money"
	"vitrine/internal/pages"
	"vitrine/internal/render"
	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storeapi"
	"vitrine/web"
)

func main() {
	dsn := flag.String("db", "", "store DSN: sqlite:PATH or postgres://…")
	n := flag.Int("n", 1000, "products to generate")
	seed := flag.Uint64("seed", 1, "random seed")
	batch := flag.Int("batch", 500, "products per transaction")
	measure := flag.Bool("measure", false, "measure search and listing latency instead of generating")
	rounds := flag.Int("rounds", 50, "measurement rounds per query")
	perQuery := flag.Bool("per-query", false, "with -measure: also print each live-search query's store p50/p99")
	pagesOnly := flag.Bool("pages", false, "with -measure: measure the page loaders (home, shop, categories, products) instead")
	cpuProfile := flag.String("cpuprofile", "", "with -measure: write a CPU profile of the measurement to this file")
	ordersN := flag.Int("orders", 0, "orders to generate for the analytics benchmark (instead of products)")
	days := flag.Int("days", 730, "with -orders: the days the orders spread over, ending now")
	measureAnalytics := flag.Bool("measure-analytics", false, "time the 90-day revenue stats report with its comparison period")
	tz := flag.String("tz", "America/New_York", "with -measure-analytics: the shop's time zone")
	rebuildRollups := flag.Bool("rebuild-rollups", false, "recompute the analytics rollups from the facts, then check them")
	flag.StringVar(&AnalyticsOnly, "only", "", "with -measure-analytics: only the calls whose name contains this")
	checkRollups := flag.Bool("check-rollups", false, "compare the analytics rollups with the facts (without rebuilding them)")
	flag.Parse()
	if *dsn == "" {
		fmt.Fprintln(os.Stderr, "vitrine-gen: -db is required")
		os.Exit(2)
	}
	ctx := context.Background()
	db, err := sqlstore.Open(ctx, *dsn, slog.New(slog.NewTextHandler(os.Stderr, nil)))
	if err != nil {
		fail(err)
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		fail(err)
	}
	if *ordersN > 0 {
		start := time.Now()
		if err := GenerateOrders(ctx, db, *ordersN, *days, *seed, time.Now(), func(done int) {
			fmt.Fprintf(os.Stderr, "\r%d/%d orders, %s", done, *ordersN, time.Since(start).Round(time.Second))
		}); err != nil {
			fail(err)
		}
		fmt.Fprintf(os.Stderr, "\n%d orders generated in %s\n", *ordersN, time.Since(start).Round(100*time.Millisecond))
		return
	}
	if *rebuildRollups || *checkRollups {
		start := time.Now()
		if *rebuildRollups {
			if err := db.AnalyticsRebuildRollups(ctx); err != nil {
				fail(err)
			}
			fmt.Printf("rollups rebuilt from the facts in %s\n", time.Since(start).Round(100*time.Millisecond))
		}
		start = time.Now()
		if err := db.AnalyticsCheckRollups(ctx); err != nil {
			fail(err)
		}
		fmt.Printf("rollups checked against the facts in %s\n", time.Since(start).Round(100*time.Millisecond))
		return
	}
	if *measureAnalytics {
		if *cpuProfile != "" {
			f, err := os.Create(*cpuProfile)
			if err != nil {
				fail(err)
			}
			if err := pprof.StartCPUProfile(f); err != nil {
				fail(err)
			}
			defer func() { pprof.StopCPUProfile(); f.Close() }()
		}
		if err := MeasureAnalytics(ctx, db, time.Now(), *tz, *rounds, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "vitrine-gen:", err)
		}
		return
	}
	if *measure {
		PerQuery = *perQuery
		if *cpuProfile != "" {
			f, err := os.Create(*cpuProfile)
			if err != nil {
				fail(err)
			}
			if err := pprof.StartCPUProfile(f); err != nil {
				fail(err)
			}
			defer func() { pprof.StopCPUProfile(); f.Close() }()
		}
		do := Measure
		if *pagesOnly {
			do = MeasurePages
		}
		if err := do(ctx, db, *rounds, os.Stdout); err != nil {
			fail(err)
		}
		return
	}
	start := time.Now()
	if err := Generate(ctx, db, *n, *seed, *batch, func(done int) {
		fmt.Fprintf(os.Stderr, "\r%d/%d products, %s", done, *n, time.Since(start).Round(time.Second))
	}); err != nil {
		fail(err)
	}
	fmt.Fprintf(os.Stderr, "\n%d products generated in %s\n", *n, time.Since(start).Round(100*time.Millisecond))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "vitrine-gen:", err)
	os.Exit(1)
}

var (
	adjectives = []string{"Classic", "Everyday", "Relaxed", "Heavyweight", "Washed", "Ribbed", "Striped", "Organic", "Vintage",
		"Crème", "Sunday", "Alpine", "Coastal", "Nordic", "Café", "Mañana", "Élan", "Fjäll", "Søndag", "Île", "Brûlée", "Garçon",
		"Weekend", "Studio", "Market", "Harbour", "Meadow", "Orchard", "Atelier", "Über"}
	materials = []string{"Cotton", "Linen", "Wool", "Merino", "Cashmere", "Canvas", "Leather", "Denim", "Fleece", "Jersey",
		"Corduroy", "Suède", "Alpaca", "Bouclé", "Piqué", "Hemp", "Twill", "Poplin"}
	// noun → category path
	nouns = [][2]string{
		{"Tee", "Clothing/T-shirts"}, {"Tank Top", "Clothing/T-shirts"}, {"Hoodie", "Clothing/Hoodies"}, {"Sweatshirt", "Clothing/Hoodies"},
		{"Shirt", "Clothing/Shirts"}, {"Overshirt", "Clothing/Shirts"}, {"Sweater", "Clothing/Knitwear"}, {"Cardigan", "Clothing/Knitwear"},
		{"Vest", "Clothing/Knitwear"}, {"Trousers", "Clothing/Trousers"}, {"Chinos", "Clothing/Trousers"}, {"Shorts", "Clothing/Trousers"},
		{"Jacket", "Clothing/Outerwear"}, {"Parka", "Clothing/Outerwear"}, {"Scarf", "Accessories/Scarves"}, {"Beanie", "Accessories/Hats"},
		{"Cap", "Accessories/Hats"}, {"Bucket Hat", "Accessories/Hats"}, {"Tote", "Accessories/Bags"}, {"Backpack", "Accessories/Bags"},
		{"Pouch", "Accessories/Bags"}, {"Wallet", "Accessories/Bags"}, {"Socks", "Accessories/Socks"}, {"Blanket", "Home/Textiles"},
		{"Cushion", "Home/Textiles"}, {"Apron", "Home/Kitchen"}, {"Mug", "Home/Kitchen"}, {"Print", "Prints"},
	}
	colours = []string{"Red", "Navy", "Ecru", "Forest", "Charcoal", "Ochre", "Rose", "Sky"}
	tags    = []string{"Bestseller", "New", "Organic cotton", "Unisex", "Gift idea", "Handmade", "Recycled", "Limited", "Made in Portugal",
		"Vegan", "Summer", "Winter", "Sale", "Fair trade", "Small batch", "Écologique"}
	phrases = []string{"soft and durable", "cut for an easy fit", "garment-dyed for depth of colour", "finished by hand",
		"made in a family-run mill", "washed for a lived-in feel", "with reinforced seams", "in a tight, hard-wearing weave",
		"that gets better with every wash", "designed to last for years", "with a brushed inside", "knitted on vintage machines"}
	details = []string{"Machine wash at 30 °C", "Relaxed, true-to-size fit", "Natural corozo buttons", "Double-stitched hems",
		"Fully lined", "Ribbed cuffs", "Two side pockets", "Oeko-Tex certified", "Naturally water-repellent", "Crème de la crème quality"}
)

// Generate saves n synthetic products. progress is called after each batch.
func Generate(ctx context.Context, db *sqlstore.DB, n int, seed uint64, batch int, progress func(int)) error {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	catIDs := map[string]int64{}
	for _, nn := range nouns {
		if _, ok := catIDs[nn[1]]; ok {
			continue
		}
		id, _, err := db.EnsureCategoryPath(ctx, strings.Split(nn[1], "/"))
		if err != nil {
			return err
		}
		catIDs[nn[1]] = id
	}
	tagIDs := make([]int64, len(tags))
	for i, t := range tags {
		id, err := db.EnsureTag(ctx, t)
		if err != nil {
			return err
		}
		tagIDs[i] = id
	}
	color, err := db.EnsureAttribute(ctx, catalog.Attribute{Name: "Color", Slug: "color", Type: catalog.SwatchColor})
	if err != nil {
		return err
	}
	terms := make([]catalog.AttrTerm, len(colours))
	for i, c := range colours {
		if terms[i], err = db.EnsureTerm(ctx, catalog.AttrTerm{AttributeID: color.ID, Name: c, MenuOrder: i + 1}); err != nil {
			return err
		}
	}
	img := &catalog.Image{Src: "/media/gen/product.svg", Width: 1200, Height: 1200, Alt: "Product",
		Sizes: []catalog.ImageSize{{Src: "/media/gen/product-600.svg", Width: 600, Height: 600}}}
	if err := db.SaveImage(ctx, img, nil); err != nil {
		return err
	}
	epoch := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	batch = max(batch, 1)
	var items []sqlstore.ProductSave
	// Planner statistics are refreshed as the catalogue grows (at 1,000,
	// 4,000, 16,000… products): with autovacuum off, PostgreSQL would
	// otherwise keep planning the writes' lookups (a variation's siblings by
	// parent_id joined to variation_attributes) for an empty products table
	// and scan it, each variable product costing more than the last (at
	// 30,000 products 500 products took 7 s instead of 1.5 s).
	nextAnalyze := 1000
	for i := 1; i <= n; i++ {
		noun := nouns[rng.IntN(len(nouns))]
		name := adjectives[rng.IntN(len(adjectives))] + " " + materials[rng.IntN(len(materials))] + " " + noun[0]
		if rng.IntN(4) == 0 {
			name += " No. " + strconv.Itoa(1+rng.IntN(99))
		}
		sku := strings.ToUpper(strings.ReplaceAll(noun[0], " ", ""))
		sku = fmt.Sprintf("%s-%06d", sku[:min(3, len(sku))], i)
		price := int64(500 + 100*rng.IntN(300))
		p := &catalog.Product{
			Type: catalog.TypeSimple, Name: name, Slug: catalog.Slugify(name) + "-" + strconv.Itoa(i), SKU: sku,
			ShortDescription: "<p>" + sentence(rng, name) + "</p>",
			Description:      "<p>" + sentence(rng, noun[0]) + " " + sentence(rng, "It") + "</p><ul><li>" + details[rng.IntN(len(details))] + "</li><li>" + details[rng.IntN(len(details))] + "</li></ul>",
			RegularPrice:     &price, Purchasable: true, MenuOrder: rng.IntN(100),
			Categories:    []catalog.Term{{ID: catIDs[noun[1]]}},
			Tags:          []catalog.Term{{ID: tagIDs[rng.IntN(len(tagIDs))]}},
			Images:        []catalog.Image{*img},
			CreatedAt:     epoch.Add(time.Duration(i) * 10 * time.Minute),
			TotalSales:    int64(rng.IntN(500)),
			AverageRating: float64(rng.IntN(41)) / 10, ReviewCount: rng.IntN(30),
		}
		if rng.IntN(7) == 0 {
			sale := price * 8 / 10
			p.SalePrice = &sale
		}
		switch r := rng.IntN(100); {
		case r < 2:
			p.Status = catalog.StatusDraft
		case r < 4:
			p.CatalogVisibility = catalog.VisibilityHidden
		}
		var vars []*catalog.Product
		if rng.IntN(10) == 0 {
			p.Type, p.RegularPrice, p.SalePrice = catalog.TypeVariable, nil, nil
			picks := rng.Perm(len(terms))[:3]
			slices.Sort(picks)
			attr := catalog.ProductAttribute{AttributeID: color.ID, Name: "Color", Visible: true, Variation: true}
			for _, k := range picks {
				t := terms[k]
				attr.Values = append(attr.Values, catalog.AttributeValue{TermID: t.ID})
				vp := price + int64(100*rng.IntN(5))
				vars = append(vars, &catalog.Product{SKU: sku + "-" + strings.ToUpper(t.Slug[:3]), RegularPrice: &vp,
					Variation: []catalog.VariationAttr{{Name: "pa_color", Value: t.Slug}}, Purchasable: true, Active: true, Visible: true,
					ManageStock: true, StockQuantity: ptr(int64(rng.IntN(40)))})
			}
			p.Attributes = []catalog.ProductAttribute{attr}
		}
		items = append(items, sqlstore.ProductSave{Product: p, Variations: vars})
		if len(items) == batch || i == n {
			if err := db.SaveProducts(ctx, items); err != nil {
				return err
			}
			items = items[:0]
			if i >= nextAnalyze && i < n {
				if err := db.Analyze(ctx); err != nil {
					return err
				}
				nextAnalyze *= 4
			}
			if progress != nil {
				progress(i)
			}
		}
	}
	return db.Analyze(ctx)
}

func ptr(v int64) *int64 { return &v }

func sentence(rng *rand.Rand, subject string) string {
	return subject + " is " + phrases[rng.IntN(len(phrases))] + " and " + phrases[rng.IntN(len(phrases))] + "."
}

// Queries are what the measurement searches for: three-letter prefixes (what
// live search sends first), whole words common and rare, two-word queries
// with a prefix, diacritics, a SKU, typos and plurals, and a miss.
var Queries = []string{
	"hoo", "tee", "lin", "wal", "sca", "cap", "soc", "mug",
	"cotton", "soft", "wash", "creme", "crème brû", "fjall", "sondag",
	"linen shirt", "merino sw", "classic cotton t", "everyday hoodie",
	"TEE-000123", "hoo-0001", "zzzz", "organic",
	"hoodei", "cardigon", "swaetshirt", "merno sweatr", "jakcet", "linen shirts", "cashmire beanies",
}

// Measure reports p50 and p99 of live search (the store query alone, then
// the whole HTTP handler with the response cache off and on) and of the
// Store API listing sorted by price (first page and a deep page).
func Measure(ctx context.Context, db *sqlstore.DB, rounds int, out io.Writer) error {
	n, err := db.CountProducts(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "engine %s, %d rows in products (with variations), %d rounds\n", db.Engine, n, rounds)
	raw := func(q string) func() error {
		return func() error {
			_, _, err := db.QueryProducts(ctx, catalog.ProductQuery{Search: q, Visibility: "search", OrderBy: "relevance", Page: 1, PerPage: catalog.SearchSuggestLimit,
				SearchCandidates: ajax.SearchSuggestCandidates})
			return err
		}
	}
	cold, err := newServer(db, 0)
	if err != nil {
		return err
	}
	warm, err := newServer(db, 64<<20)
	if err != nil {
		return err
	}
	ajax := func(q string) string {
		return "/wp-admin/admin-ajax.php?action=flatsome_ajax_search_products&query=" + strings.ReplaceAll(q, " ", "+")
	}
	var rawFns, coldFns, warmFns []func() error
	for _, q := range Queries {
		rawFns = append(rawFns, raw(q))
		coldFns = append(coldFns, getOK(cold, ajax(q)))
		warmFns = append(warmFns, getOK(warm, ajax(q)))
	}
	d := report(out, "search query (store, 10 results)", rounds, rawFns)
	if PerQuery && d != nil {
		for i, q := range Queries {
			fmt.Fprintf(out, "  %-46q p50 %8s  p99 %8s  max %8s\n", q, ms(pct(d[i], 0.50)), ms(pct(d[i], 0.99)), ms(slices.Max(d[i])))
		}
	}
	report(out, "live search HTTP, no cache", rounds, coldFns)
	report(out, "live search HTTP, cached", rounds, warmFns)

	_, total, err := db.QueryProducts(ctx, catalog.ProductQuery{Visibility: "listable", PerPage: 1})
	if err != nil {
		return err
	}
	deep := max(1, total/20/2)
	api := "/wp-json/wc/store/v1/products?orderby=price&order=asc&per_page=20"
	report(out, "listing by price, page 1 (store)", rounds, []func() error{func() error {
		_, _, err := db.QueryProducts(ctx, catalog.ProductQuery{Visibility: "listable", OrderBy: "price", Order: "asc", PerPage: 20, Page: 1})
		return err
	}})
	report(out, "listing by price, page 1 HTTP, no cache", rounds, []func() error{getOK(cold, api)})
	report(out, "listing by price, desc, page 1 HTTP, no cache", rounds, []func() error{getOK(cold, strings.Replace(api, "asc", "desc", 1))})
	report(out, fmt.Sprintf("listing by price, page %d HTTP, no cache", deep), rounds, []func() error{getOK(cold, api+"&page="+strconv.Itoa(deep))})
	return nil
}

// MeasurePages times the page loaders with the page cache off, one
// request at a time, through the server's handler without the render
// engine (the page data and the document, not React's render: that is
// about 11 ms a page and does not depend on the catalogue's size): home,
// the shop's first page and one half-way, the largest top-level category
// and a subcategory, product pages (simple and variable, spread over the
// catalogue), the sitemaps (cached: the first request of each builds it).
func MeasurePages(ctx context.Context, db *sqlstore.DB, rounds int, out io.Writer) error {
	n, err := db.CountProducts(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "engine %s, %d rows in products (with variations), %d rounds, page cache off\n", db.Engine, n, rounds)
	cold, err := newServer(db, 0)
	if err != nil {
		return err
	}
	get := func(path string) func() error { return getOK(cold, path) }
	_, total, err := db.QueryProducts(ctx, catalog.ProductQuery{PerPage: 1})
	if err != nil {
		return err
	}
	cats, err := db.Categories(ctx)
	if err != nil {
		return err
	}
	paths := storeapi.CategoryPaths(cats)
	var top, sub catalog.Category
	for _, c := range cats {
		if c.ParentID == 0 && c.Count > top.Count {
			top = c
		}
		if c.ParentID != 0 && c.Count > 0 && (sub.ID == 0 || c.Count < sub.Count) {
			sub = c
		}
	}
	if err := measureTree(ctx, db, rounds, top, out); err != nil {
		return err
	}
	report(out, "home", rounds, []func() error{get("/")})
	report(out, "shop, page 1", rounds, []func() error{get("/shop/")})
	report(out, "shop, page 1 by price", rounds, []func() error{get("/shop/?orderby=price")})
	half := max(1, total/pages.PerPage/2)
	if half > 1 { // page 1's own URL redirects to /shop/
		report(out, fmt.Sprintf("shop, page %d", half), rounds, []func() error{get(fmt.Sprintf("/shop/page/%d/", half))})
	}
	if top.ID != 0 {
		report(out, fmt.Sprintf("category %s (%d products)", top.Slug, top.Count), rounds, []func() error{get("/product-category/" + paths[top.ID] + "/")})
	}
	if sub.ID != 0 {
		report(out, fmt.Sprintf("category %s (%d products)", paths[sub.ID], sub.Count), rounds, []func() error{get("/product-category/" + paths[sub.ID] + "/")})
	}
	// Ten of each type, spread over the catalogue by id (one product in
	// ten is variable).
	for _, typ := range []string{catalog.TypeSimple, catalog.TypeVariable} {
		step := max(1, total/10)
		if typ == catalog.TypeVariable {
			step = max(1, total/100)
		}
		var fns []func() error
		for i := range 10 {
			ps, _, err := db.QueryProducts(ctx, catalog.ProductQuery{Type: typ, OrderBy: "id", PerPage: 1, Page: 1 + i*step, NoCount: true})
			if err != nil {
				return err
			}
			for _, p := range ps {
				fns = append(fns, get(storeapi.ProductPath(p.Slug)))
			}
		}
		report(out, fmt.Sprintf("product pages, %s (%d products)", typ, len(fns)), rounds, fns)
	}
	report(out, "sitemap index (cached after the first)", rounds, []func() error{get("/sitemap.xml")})
	report(out, "product sitemap 1 (cached after the first)", rounds, []func() error{get("/sitemap-products-1.xml")})
	return nil
}

// measureTree times what a listing change costs the category tree: the
// change itself (one product of the largest category made a draft, then
// published again, each in its own transaction, as the admin's bulk
// actions do) and the first load of the tree after it, which the server
// pays once per listing change per process (its category cache is dropped
// by the change log). The product is published again at the end.
func measureTree(ctx context.Context, db *sqlstore.DB, rounds int, top catalog.Category, out io.Writer) error {
	if top.ID == 0 {
		return nil
	}
	ps, _, err := db.QueryProducts(ctx, catalog.ProductQuery{CategoryIDs: []int64{top.ID}, Descendants: true, PerPage: 1, NoCount: true})
	if err != nil {
		return err
	}
	if len(ps) == 0 {
		return fmt.Errorf("category %s lists no product", top.Slug)
	}
	id := ps[0].ID
	var writes, loads []time.Duration
	for i := range 2 * rounds {
		status := catalog.StatusDraft
		if i%2 == 1 {
			status = catalog.StatusPublish
		}
		start := time.Now()
		if _, err := db.SetProductStatus(ctx, []int64{id}, status, nil); err != nil {
			return err
		}
		writes = append(writes, time.Since(start))
		start = time.Now()
		cats, err := db.Categories(ctx)
		if err != nil {
			return err
		}
		loads = append(loads, time.Since(start))
		for _, c := range cats {
			if c.ID == top.ID && c.Count != top.Count-1+i%2 {
				return fmt.Errorf("category %s counts %d after the change, want %d", top.Slug, c.Count, top.Count-1+i%2)
			}
		}
	}
	for _, r := range []struct {
		name string
		d    []time.Duration
	}{{"listing change (draft/publish one product)", writes}, {"category tree after a listing change", loads}} {
		fmt.Fprintf(out, "%-48s n=%-5d p50 %8s  p99 %8s  max %8s\n", r.name, len(r.d), ms(pct(r.d, 0.50)), ms(pct(r.d, 0.99)), ms(slices.Max(r.d)))
	}
	return nil
}

func newServer(db *sqlstore.DB, cacheBytes int64) (*server.Server, error) {
	client, err := web.Client()
	if err != nil {
		return nil, err
	}
	assets, err := render.LoadAssets(client, "src/entry-client.tsx")
	if err != nil {
		return nil, err
	}
	usd, _ := money.Lookup("USD")
	return server.New(server.Config{BaseURL: "http://127.0.0.1:8080", SiteName: "Vitrine", Currency: usd, VariationThreshold: 30,
		CacheBytes: cacheBytes, CacheMaxAge: time.Hour}, db, nil, client, assets, slog.New(slog.DiscardHandler))
}

// PerQuery makes Measure print each live-search query's store times too.
var PerQuery bool

// report runs every fn once per round (after one warm-up round), prints
// the p50, p99 and max of all calls, and returns each fn's times.
func report(out io.Writer, name string, rounds int, fns []func() error) [][]time.Duration {
	for _, f := range fns {
		if err := f(); err != nil {
			fmt.Fprintf(out, "%-48s error: %v\n", name, err)
			return nil
		}
	}
	var d []time.Duration
	each := make([][]time.Duration, len(fns))
	for range rounds {
		for i, f := range fns {
			start := time.Now()
			_ = f()
			t := time.Since(start)
			d = append(d, t)
			each[i] = append(each[i], t)
		}
	}
	fmt.Fprintf(out, "%-48s n=%-5d p50 %8s  p99 %8s  max %8s\n", name, len(d), ms(pct(d, 0.50)), ms(pct(d, 0.99)), ms(slices.Max(d)))
	return each
}

// pct returns the p quantile of d (which it sorts).
func pct(d []time.Duration, p float64) time.Duration {
	slices.Sort(d)
	return d[min(len(d)-1, int(float64(len(d))*p))]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2fms", float64(d.Microseconds())/1000) }

// getOK is a GET of path from h, an error unless it answers 200.
func getOK(h http.Handler, path string) func() error {
	return func() error {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != http.StatusOK {
			return fmt.Errorf("GET %s: %d %.200s", path, rec.Code, rec.Body.String())
		}
		return nil
	}
}
