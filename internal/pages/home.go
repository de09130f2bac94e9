package pages

import (
	"context"

	"vitrine/internal/catalog"
	"vitrine/internal/storeapi"
)

// HomePage is the data of "/".
type HomePage struct {
	Base
	Featured   []storeapi.Product  `json:"featured"`
	Latest     []storeapi.Product  `json:"latest"`
	Categories []storeapi.Category `json:"categories"`
}

// Home loads the home page: featured products, new arrivals, top categories.
func (l *Loader) Home(ctx context.Context, url string) (*Result, error) {
	e, err := l.setup(ctx, "home", url)
	if err != nil {
		return nil, err
	}
	yes := true
	featured, _, err := l.Store.QueryProducts(ctx, catalog.ProductQuery{Featured: &yes, PerPage: 8})
	if err != nil {
		return nil, err
	}
	latest, _, err := l.Store.QueryProducts(ctx, catalog.ProductQuery{OrderBy: "date", Order: "desc", PerPage: 8})
	if err != nil {
		return nil, err
	}
	page := HomePage{Base: e.base, Categories: []storeapi.Category{}}
	if page.Featured, err = l.products(ctx, e.b, featured); err != nil {
		return nil, err
	}
	if page.Latest, err = l.products(ctx, e.b, latest); err != nil {
		return nil, err
	}
	for _, c := range e.cats {
		if c.ParentID == 0 {
			page.Categories = append(page.Categories, e.b.Category(c))
		}
	}
	h := l.head(l.SiteName+" – "+l.Tagline, l.Tagline, "/")
	h.Title = l.SiteName
	if l.Tagline != "" {
		h.Title += " – " + l.Tagline
	}
	h.JSONLD = []any{map[string]any{
		"@context": "https://schema.org", "@type": "WebSite", "name": l.SiteName, "url": l.BaseURL + "/",
		"potentialAction": map[string]any{"@type": "SearchAction", "target": l.BaseURL + "/?s={search_term_string}&post_type=product", "query-input": "required name=search_term_string"},
	}}
	tags := append(productTags(page.Featured), productTags(page.Latest)...)
	tags = append(tags, "listing")
	return &Result{Status: 200, Data: page, Head: h, Tags: tags}, nil
}
