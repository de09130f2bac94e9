package storeapi

import (
	"strings"

	"vitrine/internal/catalog"
	"vitrine/internal/httpx"
)

// Category is the Store API product category.
type Category struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Slug        string `json:"slug"`
	Description string `json:"description"`
	Parent      int64  `json:"parent"`
	Count       int    `json:"count"`
	Image       *Image `json:"image"`
	ReviewCount int    `json:"review_count"`
	Permalink   string `json:"permalink"`
}

// Category converts a category.
func (b *Builder) Category(c catalog.Category) Category {
	out := Category{ID: c.ID, Name: c.Name, Slug: c.Slug, Description: c.Description, Parent: c.ParentID,
		Count: c.Count, ReviewCount: c.ReviewCount, Permalink: b.Link(b.CategoryPath(c.ID, c.Slug))}
	if c.Image != nil {
		img := b.Image(*c.Image)
		out.Image = &img
	}
	return out
}

// CategoryPaths computes every category's nested URL path ("clothing/hoodies").
func CategoryPaths(cats []catalog.Category) map[int64]string {
	byID := make(map[int64]catalog.Category, len(cats))
	for _, c := range cats {
		byID[c.ID] = c
	}
	out := make(map[int64]string, len(cats))
	for _, c := range cats {
		var parts []string
		seen := map[int64]bool{}
		for cur, ok := c, true; ok && !seen[cur.ID]; cur, ok = byID[cur.ParentID] {
			seen[cur.ID] = true
			parts = append([]string{cur.Slug}, parts...)
		}
		out[c.ID] = strings.Join(parts, "/")
	}
	return out
}

// Attribute is the Store API product attribute.
type Attribute struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Taxonomy    string `json:"taxonomy"`
	Type        string `json:"type"`
	Order       string `json:"order"`
	HasArchives bool   `json:"has_archives"`
	Count       int    `json:"count"`
}

// Attribute converts a global attribute.
func (b *Builder) Attribute(a catalog.Attribute) Attribute {
	return Attribute{ID: a.ID, Name: a.Name, Taxonomy: a.Taxonomy(), Type: a.Type, Order: a.OrderBy, HasArchives: a.HasArchives, Count: a.Count}
}

// Term is the Store API attribute term, with our swatch fields added.
type Term struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Slug        string `json:"slug"`
	Description string `json:"description"`
	Parent      int64  `json:"parent"`
	Count       int    `json:"count"`
	Color       string `json:"color,omitempty"`
	Image       string `json:"image,omitempty"`
}

// Term converts an attribute term.
func (b *Builder) Term(t catalog.AttrTerm) Term {
	out := Term{ID: t.ID, Name: t.Name, Slug: t.Slug, Description: t.Description, Count: t.Count, Color: t.Color}
	if t.ImageURL != "" {
		out.Image = b.Link(t.ImageURL)
	}
	return out
}

// Error is the REST error shape shared by every /wp-json route (the
// cart's errors list carries it too).
type Error = httpx.Error

// NewError builds an error with data.status set (httpx.NewError).
func NewError(status int, code, message string) Error { return httpx.NewError(status, code, message) }
