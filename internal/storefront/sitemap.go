package storefront

import (
	"bytes"
	"context"
	"encoding/xml"
	"net/http"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/contentpage"
	"vitrine/internal/httpx"
	"vitrine/internal/pages"
	"vitrine/internal/render"
	"vitrine/internal/storeapi"
)

const sitemapNS = "http://www.sitemaps.org/schemas/sitemap/0.9"

// SitemapTag tags every cached sitemap: dropped when a content page
// changes (sitemap-pages.xml lists them) and with the listings.
const SitemapTag = "sitemap"

// SitemapCacheBytes bounds the sitemaps' own cache (f.d.Sitemaps). Sitemaps
// are kept apart from the Store API's answers so that they stay cached
// with the page cache off (--cache-mb 0): a product sitemap is built from
// 10,000 rows and compressed twice (tens of milliseconds), and crawlers ask
// for all of them at once. The change log drops them with the listings.
// Ten product sitemaps (100,000 products) take about 14 MB.
const SitemapCacheBytes = 24 << 20

// sitemapWriter writes a sitemap or a sitemap index as it goes (no
// document in memory besides the bytes).
type sitemapWriter struct {
	b    bytes.Buffer
	item string // "url" or "sitemap"
}

func newSitemap(root, item string) *sitemapWriter {
	w := &sitemapWriter{item: item}
	w.b.WriteString(xml.Header)
	w.b.WriteString("<" + root + ` xmlns="` + sitemapNS + `">`)
	return w
}

// add writes one entry; lastmod "" leaves it out.
func (w *sitemapWriter) add(loc, lastmod string) {
	w.b.WriteString("<" + w.item + "><loc>")
	_ = xml.EscapeText(&w.b, []byte(loc))
	w.b.WriteString("</loc>")
	if lastmod != "" {
		w.b.WriteString("<lastmod>" + lastmod + "</lastmod>")
	}
	w.b.WriteString("</" + w.item + ">")
}

func (w *sitemapWriter) done(root string) []byte {
	w.b.WriteString("</" + root + ">")
	return w.b.Bytes()
}

// serveXML answers a cached XML document built by build (nil: not found).
func (f *Storefront) serveXML(w http.ResponseWriter, r *http.Request, key string, build func(ctx context.Context) ([]byte, error)) {
	p, ok := f.d.Sitemaps.Get(key)
	if !ok {
		v, err, _ := f.flight.Do(key, func() (any, error) {
			put := f.d.Sitemaps.Begin(r.Context())
			doc, err := build(r.Context())
			if err != nil {
				return nil, err
			}
			if doc == nil {
				return (*render.Page)(nil), nil
			}
			p := render.NewPage(http.StatusOK, doc, []string{"listing", SitemapTag})
			put(key, p)
			return p, nil
		})
		if err != nil {
			f.d.Log.Error("sitemap", "path", r.URL.Path, "err", err)
			http.Error(w, "The sitemap could not be built.", http.StatusInternalServerError)
			return
		}
		p = v.(*render.Page)
	}
	if p == nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=3600")
	httpx.WriteBody(w, r, p)
}

func day(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02")
}

// Sitemap answers /sitemap.xml: an index of the pages, categories,
// tags and product sitemaps. Each product sitemap's lastmod is its newest product's
// update, read from the sitemap index without loading products.
func (f *Storefront) Sitemap(w http.ResponseWriter, r *http.Request) {
	f.serveXML(w, r, "sitemap:index", func(ctx context.Context) ([]byte, error) {
		pages, err := f.d.Sitemap.Pages(ctx)
		if err != nil {
			return nil, err
		}
		idx := newSitemap("sitemapindex", "sitemap")
		idx.add(f.d.BaseURL+"/sitemap-pages.xml", "")
		idx.add(f.d.BaseURL+"/sitemap-categories.xml", "")
		idx.add(f.d.BaseURL+"/sitemap-tags.xml", "")
		for i, last := range pages {
			idx.add(f.d.BaseURL+"/sitemap-products-"+strconv.Itoa(i+1)+".xml", day(last))
		}
		return idx.done("sitemapindex"), nil
	})
}

// SitemapPages answers /sitemap-pages.xml: the home, shop and contact
// pages and the published content pages.
func (f *Storefront) SitemapPages(w http.ResponseWriter, r *http.Request) {
	f.serveXML(w, r, "sitemap:pages", func(ctx context.Context) ([]byte, error) {
		set := newSitemap("urlset", "url")
		for _, p := range []string{"/", "/shop/", pages.ContactPath} {
			set.add(f.d.BaseURL+p, "")
		}
		// The published content pages (content_page.go), with their date.
		all, err := f.d.ContentPages.List(ctx)
		if err != nil {
			return nil, err
		}
		for _, p := range all {
			if p.Status == contentpage.Published {
				set.add(f.d.BaseURL+p.Path(), day(p.UpdatedAt))
			}
		}
		return set.done("urlset"), nil
	})
}

// SitemapCategories answers /sitemap-categories.xml: the category pages
// that list products.
func (f *Storefront) SitemapCategories(w http.ResponseWriter, r *http.Request) {
	f.serveXML(w, r, "sitemap:categories", func(ctx context.Context) ([]byte, error) {
		cats, err := f.d.Catalog.Categories(ctx)
		if err != nil {
			return nil, err
		}
		paths := storeapi.CategoryPaths(cats)
		set := newSitemap("urlset", "url")
		for _, c := range cats {
			if c.Count == 0 {
				continue // an empty category page has nothing to index
			}
			set.add(f.d.BaseURL+"/product-category/"+paths[c.ID]+"/", "")
		}
		return set.done("urlset"), nil
	})
}

// SitemapTags answers /sitemap-tags.xml: the archives of the
// product tags that list products (WooCommerce's product_tag sitemap).
func (f *Storefront) SitemapTags(w http.ResponseWriter, r *http.Request) {
	f.serveXML(w, r, "sitemap:tags", func(ctx context.Context) ([]byte, error) {
		tags, err := f.d.Catalog.Tags(ctx)
		if err != nil {
			return nil, err
		}
		set := newSitemap("urlset", "url")
		for _, t := range tags {
			if t.Count == 0 {
				continue // an empty archive has nothing to index
			}
			set.add(f.d.BaseURL+pages.TagPath(t.Slug), "")
		}
		return set.done("urlset"), nil
	})
}

// RootFile answers /sitemap-products-N.xml and sends every other
// one-segment path to the 404 page.
func (f *Storefront) RootFile(w http.ResponseWriter, r *http.Request) {
	file := r.PathValue("file")
	num, ok := strings.CutPrefix(file, "sitemap-products-")
	if ok {
		num, ok = strings.CutSuffix(num, ".xml")
	}
	n, err := strconv.Atoi(num)
	if !ok || err != nil || n < 1 || n > 100000 {
		if f.published(r.Context(), file) {
			httpx.RedirectSlash(w, r) // a content page: /about → /about/ (content_page.go)
			return
		}
		f.NotFound(w, r)
		return
	}
	f.sitemapProducts(w, r, n)
}

// sitemapProducts answers product sitemap n: catalog.SitemapPageSize
// products from the (n-1)×catalog.SitemapPageSize-th, in id order, written as
// the rows are read; past the last one, not found.
func (f *Storefront) sitemapProducts(w http.ResponseWriter, r *http.Request, n int) {
	f.serveXML(w, r, "sitemap:products:"+strconv.Itoa(n), func(ctx context.Context) ([]byte, error) {
		set, found := newSitemap("urlset", "url"), false
		err := f.d.Sitemap.Products(ctx, n, func(e catalog.SitemapEntry) error {
			set.add(f.d.BaseURL+storeapi.ProductPath(e.Slug), day(e.UpdatedAt))
			found = true
			return nil
		})
		if err != nil || !found {
			return nil, err
		}
		return set.done("urlset"), nil
	})
}
