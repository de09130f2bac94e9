package pages

import (
	"context"

	"vitrine/internal/catalog"
	"vitrine/internal/storeapi"
)

// HomePage is the data of "/".
type HomePage struct {
	Base
	// Slides are the hero carousel's (empty: a plain hero instead).
	Slides     []Slide             `json:"slides"`
	Featured   Cards               `json:"featured"`
	Latest     Cards               `json:"latest"`
	Categories []storeapi.Category `json:"categories"`
}

// Slide is one slide of the home's hero carousel.
type Slide struct {
	// Title and CTA are written as catalogue names are (HTML entities
	// allowed; the app decodes them).
	Title string `json:"title"`
	// Text is plain text (the category description without its markup).
	Text  string          `json:"text"`
	URL   string          `json:"url"`
	CTA   string          `json:"cta"`
	Image *storeapi.Image `json:"image"`
}

// MaxSlides caps the hero carousel.
const MaxSlides = 5

// heroSlides are the carousel's slides: the top-level categories that have
// an image and products, in menu order, at most MaxSlides. The shop
// decides the hero by ordering its categories and giving them pictures;
// there is nothing else to configure.
func heroSlides(b *storeapi.Builder, cats []catalog.Category) []Slide {
	slides := []Slide{}
	for _, c := range cats {
		if c.ParentID != 0 || c.Image == nil || c.Count == 0 || len(slides) == MaxSlides {
			continue
		}
		sc := b.Category(c)
		slides = append(slides, Slide{Title: c.Name, Text: plainText(c.Description, 160), URL: sc.Permalink,
			CTA: "Shop " + c.Name, Image: sc.Image})
	}
	return slides
}

// Home loads the home page: the hero's slides, featured products, new
// arrivals, top categories.
func (l *Loader) Home(ctx context.Context, url string) (*Result, error) {
	e, err := l.setup(ctx, "home", url)
	if err != nil {
		return nil, err
	}
	yes := true
	// The home shows no totals: nothing is counted.
	featured, _, err := l.Store.QueryProducts(ctx, catalog.ProductQuery{Featured: &yes, PerPage: 8, NoCount: true, Cards: true})
	if err != nil {
		return nil, err
	}
	latest, _, err := l.Store.QueryProducts(ctx, catalog.ProductQuery{OrderBy: "date", Order: "desc", PerPage: 8, NoCount: true, Cards: true})
	if err != nil {
		return nil, err
	}
	page := HomePage{Base: e.base, Slides: heroSlides(e.b, e.cats), Categories: []storeapi.Category{}}
	if page.Featured, err = l.cards(ctx, e.b, featured); err != nil {
		return nil, err
	}
	if page.Latest, err = l.cards(ctx, e.b, latest); err != nil {
		return nil, err
	}
	for _, c := range e.cats {
		if c.ParentID == 0 {
			page.Categories = append(page.Categories, e.b.Category(c))
		}
	}
	live := l.live()
	h := l.head(live.SiteName+" – "+live.Tagline, live.Tagline, "/")
	h.Title = live.SiteName
	if live.Tagline != "" {
		h.Title += " – " + live.Tagline
	}
	h.JSONLD = []any{map[string]any{
		"@context": "https://schema.org", "@type": "WebSite", "name": live.SiteName, "url": l.BaseURL + "/",
		"potentialAction": map[string]any{"@type": "SearchAction", "target": l.BaseURL + "/?s={search_term_string}&post_type=product", "query-input": "required name=search_term_string"},
	}}
	tags := append(productTags(page.Featured), productTags(page.Latest)...)
	tags = append(tags, "listing")
	return &Result{Status: 200, Data: page, Head: h, Tags: tags}, nil
}
