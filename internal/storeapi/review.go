package storeapi

import (
	"html"
	"strings"

	"vitrine/internal/catalog"
	"vitrine/internal/review"
)

// ProductReview is the Store API's product review (GET /products/reviews).
type ProductReview struct {
	ID                   int64             `json:"id"`
	DateCreated          string            `json:"date_created"`
	FormattedDateCreated string            `json:"formatted_date_created"`
	DateCreatedGMT       string            `json:"date_created_gmt"`
	ProductID            int64             `json:"product_id"`
	ProductName          string            `json:"product_name"`
	ProductPermalink     string            `json:"product_permalink"`
	ProductImage         *Image            `json:"product_image"`
	Reviewer             string            `json:"reviewer"`
	Review               string            `json:"review"`
	Rating               int               `json:"rating"`
	Verified             bool              `json:"verified"`
	ReviewerAvatarURLs   map[string]string `json:"reviewer_avatar_urls"`
}

// AvatarSizes are WordPress's REST avatar sizes.
var AvatarSizes = []string{"24", "48", "96"}

// Review converts a review; p is its product (nil when unknown: no link or
// image). The shop's clock is UTC, so date_created equals date_created_gmt.
//
// The avatars are Gravatar's "mystery person" without a hash of the
// reviewer's email: an email hash in a public answer can be matched to the
// address, and the storefront shows no avatars.
func (b *Builder) Review(r review.Review, p *catalog.Product) ProductReview {
	at := r.CreatedAt.UTC()
	out := ProductReview{ID: r.ID, DateCreated: at.Format("2006-01-02T15:04:05"), DateCreatedGMT: at.Format("2006-01-02T15:04:05"),
		FormattedDateCreated: at.Format("January 2, 2006"), ProductID: r.ProductID, ProductName: r.ProductName,
		Reviewer: r.Author, Review: ReviewHTML(r.Content), Rating: r.Rating, Verified: r.Verified,
		ReviewerAvatarURLs: map[string]string{}}
	if p != nil {
		out.ProductName = p.Name
		out.ProductPermalink = b.Link(ProductPath(p.Slug))
		if len(p.Images) > 0 {
			img := b.Image(p.Images[0])
			out.ProductImage = &img
		}
	}
	for _, s := range AvatarSizes {
		out.ReviewerAvatarURLs[s] = "https://secure.gravatar.com/avatar/?s=" + s + "&d=mm&r=g"
	}
	return out
}

// ReviewHTML turns a review's plain text into escaped HTML paragraphs, as
// WordPress's wpautop does for comment text: blank lines part paragraphs,
// single newlines become <br>.
func ReviewHTML(s string) string {
	var b strings.Builder
	for _, para := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n\n") {
		para = strings.TrimSpace(para)
		if para == "" {
			continue
		}
		b.WriteString("<p>")
		b.WriteString(strings.ReplaceAll(html.EscapeString(para), "\n", "<br />\n"))
		b.WriteString("</p>\n")
	}
	return b.String()
}
