package pages

import (
	"context"
	"errors"
	"html"
	"strconv"

	"vitrine/internal/contentpage"
	"vitrine/internal/richtext"
)

// Content pages (GET /<slug>/): the shop's published about, shipping,
// returns or terms page. Cached like a listing: nothing in it belongs to
// the viewer. YouTube and Vimeo URLs in the body become lazy videos
// (richtext.EmbedVideos), and the page's Result names their player origins
// so the server allows them in that page's frame-src only.

// ContentSource is what the loader reads content pages from
// (contentpage.Service).
type ContentSource interface {
	Published(ctx context.Context, slug string) (contentpage.Page, error)
	Links(ctx context.Context) ([]contentpage.Link, error)
}

// PageLink is a published content page in every page's footer.
type PageLink struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

// ContentView is the page's own content.
type ContentView struct {
	Slug  string `json:"slug"`
	Title string `json:"title"`
	// HTML is the sanitized body with its videos as lazy video markup.
	HTML string `json:"html"`
	// Modified is the last change's date, as the page shows it.
	Modified string `json:"modified"`
}

// ContentPage is the data of /<slug>/ (web/src/types.ts ContentPageData).
type ContentPage struct {
	Base
	Breadcrumbs []Crumb     `json:"breadcrumbs"`
	Content     ContentView `json:"content"`
}

// ContentTag is the cache tag of every content page (and of nothing else:
// a page change purges the page cache anyway, since footers link pages).
const ContentTag = "content-pages"

// Content loads the published page with slug (ErrNotFound otherwise).
func (l *Loader) Content(ctx context.Context, reqURL, slug string) (*Result, error) {
	if l.ContentPages == nil {
		return nil, ErrNotFound
	}
	p, err := l.ContentPages.Published(ctx, slug)
	if errors.Is(err, contentpage.ErrNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	e, err := l.setup(ctx, "content", reqURL)
	if err != nil {
		return nil, err
	}
	body, frames := richtext.EmbedVideos(p.Body, p.Title)
	page := ContentPage{Base: e.base, Breadcrumbs: []Crumb{{"Home", "/"}, {p.Title, p.Path()}},
		Content: ContentView{Slug: p.Slug, Title: p.Title, HTML: body, Modified: formatDate(p.UpdatedAt)}}
	base := "/wp-admin/post.php?post=" + strconv.FormatInt(p.ID, 10) + "&action=edit"
	edit := []EditLink{{Block: "page", Label: "Edit " + html.UnescapeString(p.Title), BuilderURL: base + "&app=uxbuilder", EditorURL: base}}
	if userFrom(ctx).CanEditPages {
		page.EditLinks = edit
	}
	h := l.head(l.title(p.Title), plainText(p.Body, 160), p.Path())
	h.JSONLD = []any{
		map[string]any{"@context": "https://schema.org", "@type": "WebPage", "name": p.Title, "url": l.BaseURL + p.Path(),
			"dateModified": p.UpdatedAt.Format("2006-01-02T15:04:05Z07:00")},
		breadcrumbLD(l.BaseURL, page.Breadcrumbs),
	}
	return &Result{Status: 200, Data: page, Head: h, Tags: []string{ContentTag}, FrameSrc: frames, Personal: Personal{EditLinks: edit}}, nil
}

// pageLinks is the footer's list of published pages.
func (l *Loader) pageLinks(ctx context.Context) ([]PageLink, error) {
	if l.ContentPages == nil {
		return nil, nil
	}
	links, err := l.ContentPages.Links(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]PageLink, len(links))
	for i, k := range links {
		out[i] = PageLink{Title: k.Title, URL: contentpage.Path(k.Slug)}
	}
	return out, nil
}
