package server

import (
	"context"
	"encoding/xml"
	"net/http"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/contentpage"
	"vitrine/internal/pages"
	"vitrine/internal/render"
	"vitrine/internal/storeapi"
)

// SitemapPageSize is how many product URLs one sitemap file lists (the
// protocol allows 50,000; smaller files are cheaper to rebuild).
const SitemapPageSize = 10000

type sitemapURL struct {
	Loc     string `xml:"loc"`
	LastMod string `xml:"lastmod,omitempty"`
}

type urlSet struct {
	XMLName xml.Name     `xml:"urlset"`
	NS      string       `xml:"xmlns,attr"`
	URLs    []sitemapURL `xml:"url"`
}

type sitemapIndex struct {
	XMLName  xml.Name     `xml:"sitemapindex"`
	NS       string       `xml:"xmlns,attr"`
	Sitemaps []sitemapURL `xml:"sitemap"`
}

const sitemapNS = "http://www.sitemaps.org/schemas/sitemap/0.9"

// sitemapTag tags every cached sitemap: dropped when a content page
// changes (sitemap-pages.xml lists them) and with the listings.
const sitemapTag = "sitemap"

// serveXML answers a cached XML document built by build.
func (s *Server) serveXML(w http.ResponseWriter, r *http.Request, key string, build func(ctx context.Context) (any, error)) {
	p, ok := s.api.Get(key)
	if !ok {
		v, err, _ := s.flight.Do(key, func() (any, error) {
			mark := s.cacheMark(r.Context())
			doc, err := build(r.Context())
			if err != nil {
				return nil, err
			}
			if doc == nil {
				return (*render.Page)(nil), nil
			}
			b, err := xml.Marshal(doc)
			if err != nil {
				return nil, err
			}
			p := render.NewPage(http.StatusOK, append([]byte(xml.Header), b...), []string{"listing", sitemapTag})
			s.putFresh(s.api, key, p, mark)
			return p, nil
		})
		if err != nil {
			s.log.Error("sitemap", "path", r.URL.Path, "err", err)
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
	writeBody(w, r, p)
}

func day(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02")
}

// handleSitemap answers /sitemap.xml: an index of the pages, categories and
// product sitemaps.
func (s *Server) handleSitemap(w http.ResponseWriter, r *http.Request) {
	s.serveXML(w, r, "sitemap:index", func(ctx context.Context) (any, error) {
		entries, err := s.db.SitemapProducts(ctx)
		if err != nil {
			return nil, err
		}
		idx := sitemapIndex{NS: sitemapNS, Sitemaps: []sitemapURL{
			{Loc: s.cfg.BaseURL + "/sitemap-pages.xml"},
			{Loc: s.cfg.BaseURL + "/sitemap-categories.xml"},
		}}
		for i := 0; i < len(entries); i += SitemapPageSize {
			var last time.Time
			for _, e := range entries[i:min(i+SitemapPageSize, len(entries))] {
				if e.UpdatedAt.After(last) {
					last = e.UpdatedAt
				}
			}
			idx.Sitemaps = append(idx.Sitemaps, sitemapURL{Loc: s.cfg.BaseURL + "/sitemap-products-" + strconv.Itoa(i/SitemapPageSize+1) + ".xml", LastMod: day(last)})
		}
		return idx, nil
	})
}

func (s *Server) handleSitemapPages(w http.ResponseWriter, r *http.Request) {
	s.serveXML(w, r, "sitemap:pages", func(ctx context.Context) (any, error) {
		set := urlSet{NS: sitemapNS, URLs: []sitemapURL{{Loc: s.cfg.BaseURL + "/"}, {Loc: s.cfg.BaseURL + "/shop/"}, {Loc: s.cfg.BaseURL + pages.ContactPath}}}
		// The published content pages (content_page.go), with their date.
		all, err := s.pages.List(ctx)
		if err != nil {
			return nil, err
		}
		for _, p := range all {
			if p.Status == contentpage.Published {
				set.URLs = append(set.URLs, sitemapURL{Loc: s.cfg.BaseURL + p.Path(), LastMod: day(p.UpdatedAt)})
			}
		}
		return set, nil
	})
}

func (s *Server) handleSitemapCategories(w http.ResponseWriter, r *http.Request) {
	s.serveXML(w, r, "sitemap:categories", func(ctx context.Context) (any, error) {
		cats, err := s.store.Categories(ctx)
		if err != nil {
			return nil, err
		}
		paths := storeapi.CategoryPaths(cats)
		set := urlSet{NS: sitemapNS}
		for _, c := range cats {
			if c.Count == 0 {
				continue // an empty category page has nothing to index
			}
			set.URLs = append(set.URLs, sitemapURL{Loc: s.cfg.BaseURL + "/product-category/" + paths[c.ID] + "/"})
		}
		return set, nil
	})
}

// handleRootFile answers /sitemap-products-N.xml and sends every other
// one-segment path to the 404 page.
func (s *Server) handleRootFile(w http.ResponseWriter, r *http.Request) {
	file := r.PathValue("file")
	num, ok := strings.CutPrefix(file, "sitemap-products-")
	if ok {
		num, ok = strings.CutSuffix(num, ".xml")
	}
	n, err := strconv.Atoi(num)
	if !ok || err != nil || n < 1 || n > 100000 {
		if s.published(r.Context(), file) {
			redirectSlash(w, r) // a content page: /about → /about/ (content_page.go)
			return
		}
		s.handleNotFound(w, r)
		return
	}
	s.handleSitemapProducts(w, r, n)
}

func (s *Server) handleSitemapProducts(w http.ResponseWriter, r *http.Request, n int) {
	s.serveXML(w, r, "sitemap:products:"+strconv.Itoa(n), func(ctx context.Context) (any, error) {
		entries, err := s.db.SitemapProducts(ctx)
		if err != nil {
			return nil, err
		}
		from := (n - 1) * SitemapPageSize
		if from >= len(entries) {
			return nil, nil
		}
		set := urlSet{NS: sitemapNS}
		for _, e := range entries[from:min(from+SitemapPageSize, len(entries))] {
			set.URLs = append(set.URLs, sitemapURL{Loc: s.cfg.BaseURL + storeapi.ProductPath(e.Slug), LastMod: day(e.UpdatedAt)})
		}
		return set, nil
	})
}
