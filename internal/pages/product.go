package pages

import (
	"context"
	"html"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/review"
	"vitrine/internal/richtext"
	"vitrine/internal/storeapi"
)

// SwatchOption is one choosable value of an attribute.
type SwatchOption struct {
	Slug  string `json:"slug"`
	Name  string `json:"name"`
	Color string `json:"color"`
	Image string `json:"image"`
}

// SwatchAttribute is an attribute used for variations, with its swatch type.
type SwatchAttribute struct {
	Key     string         `json:"key"`
	Name    string         `json:"name"`
	Type    string         `json:"type"`
	Options []SwatchOption `json:"options"`
}

// LabelValue is a row of the additional-information table.
type LabelValue struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// Review is a review as the page shows it.
type Review struct {
	ID                   int64  `json:"id"`
	Reviewer             string `json:"reviewer"`
	Review               string `json:"review"`
	Rating               int    `json:"rating"`
	Verified             bool   `json:"verified"`
	DateCreated          string `json:"date_created"`
	FormattedDateCreated string `json:"formatted_date_created"`
	// Pending: held for moderation, shown to its author only with
	// "Your review is awaiting approval" (never on a cached page).
	Pending bool `json:"pending,omitempty"`
	// Reply is the shop's answer shown under the review (absent: none).
	Reply *ReviewReply `json:"reply,omitempty"`
}

// ReviewReply is the shop's answer to a review, in the shop's name: the
// staff member who wrote it is the admin's record, not the page's.
type ReviewReply struct {
	Author               string `json:"author"`
	Reply                string `json:"reply"` // escaped HTML paragraphs, as Review
	DateCreated          string `json:"date_created"`
	FormattedDateCreated string `json:"formatted_date_created"`
}

// ReviewsPerPage is how many approved reviews a product page shows, newest
// first; older ones are on /product/<slug>/comment-page-N/.
const ReviewsPerPage = 10

// ReviewSource is what product pages read of reviews (review.Service).
type ReviewSource interface {
	List(ctx context.Context, q review.Query) ([]review.Review, int, error)
	Histogram(ctx context.Context, productID int64) (review.Histogram, error)
}

// ReviewForm is what the page's review form needs; nil when the product
// does not accept reviews.
type ReviewForm struct {
	// Action is WordPress's comment endpoint, /wp-comments-post.php.
	Action          string `json:"action"`
	ProductID       int64  `json:"product_id"`
	RatingsRequired bool   `json:"ratings_required"`
	// VerifiedOnly: only logged-in customers who bought the product may
	// review; guests are shown the notice instead of the form.
	VerifiedOnly bool `json:"verified_only"`
	// Eligible is set on a page rendered for one logged-in viewer under
	// VerifiedOnly: whether they bought the product (false: the notice
	// instead of the form). Null on shared pages.
	Eligible *bool `json:"eligible"`
	// Botcheck is the ALTCHA challenge URL (purpose "review").
	Botcheck string `json:"botcheck"`
}

// ReviewPaging is the product page's place in its reviews.
type ReviewPaging struct {
	Page  int `json:"page"`  // from 1
	Pages int `json:"pages"` // at least 1
	Total int `json:"total"` // approved reviews
	// PerPage is ReviewsPerPage.
	PerPage int `json:"per_page"`
}

// ProductOptions are a product page's request-specific parts.
type ProductOptions struct {
	// CommentPage is the reviews page (comment-page-N); 0 or 1 is the first.
	// Past the last page the product is not found.
	CommentPage int
	// Held returns the viewer's own held reviews of the product (a guest
	// author through the moderation link); set only for pages rendered
	// for one viewer, never for shared ones (a logged-in author's come in
	// their part of the page: Personal).
	Held func(ctx context.Context, productID int64) ([]review.Review, error)
	// MayReview tells whether the page's logged-in viewer may review the
	// product (review.Service.MayReview); set only for pages rendered for
	// one viewer (shared pages: Personal.AskEligible).
	MayReview func(ctx context.Context, productID int64) (bool, error)
}

// ReviewPagePath is the URL of a product's reviews page n (the product's
// own URL for the first).
func ReviewPagePath(slug string, n int) string {
	if n <= 1 {
		return storeapi.ProductPath(slug)
	}
	return storeapi.ProductPath(slug) + "comment-page-" + strconv.Itoa(n) + "/"
}

// VariationAvailability is what a page may show of one variation's stock:
// its attribute values (by attribute key, "" = any) and whether it is in
// stock and purchasable. Status only: pages never carry exact counts.
type VariationAvailability struct {
	ID          int64             `json:"id"`
	Attributes  map[string]string `json:"attributes"`
	InStock     bool              `json:"in_stock"`
	Purchasable bool              `json:"purchasable"`
}

// ProductPage is the data of /product/<slug>/.
type ProductPage struct {
	Base
	Product         storeapi.Product     `json:"product"`
	Breadcrumbs     []Crumb              `json:"breadcrumbs"`
	Variations      []storeapi.Variation `json:"variations"`
	VariationsTotal int                  `json:"variations_total"`
	Swatches        []SwatchAttribute    `json:"swatches"`
	Additional      []LabelValue         `json:"additional"`
	Reviews         []Review             `json:"reviews"`
	ReviewPaging    ReviewPaging         `json:"review_paging"`
	// RatingCounts counts the approved reviews by stars: [0] is one star.
	RatingCounts review.Histogram `json:"rating_counts"`
	ReviewForm   *ReviewForm      `json:"review_form"`
	// PendingReviews are the viewer's held reviews: empty on a shared page
	// (a logged-in author's come in their part: Personal).
	PendingReviews []Review `json:"pending_reviews"`
	Related        Cards    `json:"related"`
	Upsells        Cards    `json:"upsells"`
	Grouped        Cards    `json:"grouped"`
	// Availability lists, when the variations are not embedded (above the
	// threshold), every visible variation's attributes with its stock
	// status and purchasability, so swatches can be crossed out without a
	// get_variation call. Never an exact count.
	Availability []VariationAvailability `json:"variation_availability"`
}

// Product loads a product page. Unpublished products are not found.
func (l *Loader) Product(ctx context.Context, reqURL, slug string) (*Result, error) {
	return l.ProductWith(ctx, reqURL, slug, ProductOptions{})
}

// ProductWith loads a product page with its reviews page and, for one
// viewer, their held reviews.
func (l *Loader) ProductWith(ctx context.Context, reqURL, slug string, opt ProductOptions) (*Result, error) {
	p, err := l.Store.ProductBySlug(ctx, slug)
	if err != nil {
		return nil, err
	}
	if !p.Published() {
		return nil, ErrNotFound
	}
	e, err := l.setup(ctx, "product", reqURL)
	if err != nil {
		return nil, err
	}
	var vars []*catalog.Product
	if p.Type == catalog.TypeVariable {
		if vars, err = l.Store.Variations(ctx, p.ID); err != nil {
			return nil, err
		}
	}
	page := ProductPage{Base: e.base, Variations: []storeapi.Variation{}, Availability: []VariationAvailability{}, Swatches: []SwatchAttribute{},
		Additional: []LabelValue{}, Reviews: []Review{}, PendingReviews: []Review{}, Related: []storeapi.Product{}, Upsells: []storeapi.Product{}, Grouped: []storeapi.Product{}}
	tags := []string{"product:" + strconv.FormatInt(p.ID, 10)}

	var grouped []*catalog.Product
	if p.Type == catalog.TypeGrouped && len(p.Children) > 0 {
		if grouped, err = l.Store.Products(ctx, p.Children); err != nil {
			return nil, err
		}
		grouped = published(grouped)
		if page.Grouped, err = l.products(ctx, e.b, grouped); err != nil {
			return nil, err
		}
		tags = append(tags, productTags(page.Grouped)...)
	}
	kids := vars
	if p.Type == catalog.TypeGrouped {
		kids = grouped
	}
	page.Product = e.b.Product(p, kids)

	visible := 0
	for _, v := range vars {
		if v.Published() && v.Active {
			visible++
		}
	}
	page.VariationsTotal = visible
	threshold := min(max(l.VariationThreshold, 30), 100)
	for _, v := range vars {
		if !v.Published() || !v.Active {
			continue
		}
		if visible <= threshold {
			page.Variations = append(page.Variations, e.b.Variation(p, v))
		} else {
			page.Availability = append(page.Availability, availability(v, e.b.Now))
		}
	}
	tags = append(tags, stockStatusTags(vars)...)
	if page.Swatches, err = l.swatches(ctx, p); err != nil {
		return nil, err
	}
	page.Additional = additional(p)

	if err := l.productReviews(ctx, p, &page, opt); err != nil {
		return nil, err
	}

	if len(p.Upsells) > 0 {
		ups, err := l.Store.Products(ctx, p.Upsells)
		if err != nil {
			return nil, err
		}
		if page.Upsells, err = l.cards(ctx, e.b, visibleInCatalog(ups)); err != nil {
			return nil, err
		}
		tags = append(tags, productTags(page.Upsells)...)
	}
	if len(p.Categories) > 0 {
		ids := make([]int64, len(p.Categories))
		for i, c := range p.Categories {
			ids[i] = c.ID
		}
		exclude := append([]int64{p.ID}, p.Upsells...)
		// Four, never counted: the query reads the popularity index in
		// order and stops at the fourth (sqlstore.QueryProducts).
		rel, _, err := l.Store.QueryProducts(ctx, catalog.ProductQuery{CategoryIDs: ids, Exclude: exclude, PerPage: 4, OrderBy: "popularity", Order: "desc", NoCount: true, Cards: true})
		if err != nil {
			return nil, err
		}
		if page.Related, err = l.cards(ctx, e.b, rel); err != nil {
			return nil, err
		}
		tags = append(tags, productTags(page.Related)...)
	}

	page.Breadcrumbs = []Crumb{{"Home", "/"}}
	if len(p.Categories) > 0 {
		c := p.Categories[0]
		page.Breadcrumbs = append(page.Breadcrumbs, Crumb{c.Name, e.b.CategoryPath(c.ID, c.Slug)})
	}
	path := storeapi.ProductPath(p.Slug)
	page.Breadcrumbs = append(page.Breadcrumbs, Crumb{p.Name, path})
	canonical := ReviewPagePath(p.Slug, page.ReviewPaging.Page)

	desc := plainText(p.ShortDescription, 160)
	if desc == "" {
		desc = plainText(p.Description, 160)
	}
	h := l.head(l.title(p.Name), desc, canonical)
	h.OGType = "product"
	if len(page.Product.Images) > 0 {
		h.OGImage = l.abs(page.Product.Images[0].Src)
	}
	ld := l.productLD(p, page.Product, desc)
	if items := reviewLD(page.Reviews); len(items) > 0 {
		ld["review"] = items
	}
	h.JSONLD = []any{ld, breadcrumbLD(l.BaseURL, page.Breadcrumbs)}
	personal := Personal{EditLinks: []EditLink{productEditLink(p.ID, html.UnescapeString(p.Name))}, ReviewsOf: p.ID,
		AskEligible: page.ReviewForm != nil && page.ReviewForm.VerifiedOnly}
	if userFrom(ctx).CanEditPages {
		page.EditLinks = personal.EditLinks
	}
	// Videos in the description: the lazy video markup, and their
	// players allowed in this page's frame-src (content.go).
	var frames []string
	page.Product.Description, frames = richtext.EmbedVideos(page.Product.Description, html.UnescapeString(p.Name))
	return &Result{Status: 200, Data: page, Head: h, Tags: tags, FrameSrc: frames, Personal: personal}, nil
}

// productReviews fills the page's reviews: one page of approved ones
// (newest first), the paging, the histogram, the form, and the viewer's
// held reviews when opt.Held is set.
func (l *Loader) productReviews(ctx context.Context, p *catalog.Product, page *ProductPage, opt ProductOptions) error {
	n := max(opt.CommentPage, 1)
	page.ReviewPaging = ReviewPaging{Page: n, Pages: 1, PerPage: ReviewsPerPage}
	if l.Reviews == nil {
		return nil
	}
	rs, total, err := l.Reviews.List(ctx, review.Query{ProductIDs: []int64{p.ID}, Page: n, PerPage: ReviewsPerPage})
	if err != nil {
		return err
	}
	page.ReviewPaging.Total = total
	page.ReviewPaging.Pages = max(1, (total+ReviewsPerPage-1)/ReviewsPerPage)
	if n > page.ReviewPaging.Pages {
		return ErrNotFound
	}
	for _, r := range rs {
		pr := ReviewOf(r)
		if pr.Reply != nil {
			pr.Reply.Author = l.SiteName
			if pr.Reply.Author == "" {
				pr.Reply.Author = "The shop"
			}
		}
		page.Reviews = append(page.Reviews, pr)
	}
	if total > 0 {
		if page.RatingCounts, err = l.Reviews.Histogram(ctx, p.ID); err != nil {
			return err
		}
	}
	if p.Meta["_reviews_allowed"] != "no" {
		page.ReviewForm = &ReviewForm{Action: "/wp-comments-post.php", ProductID: p.ID, RatingsRequired: l.ReviewSettings.RatingsRequired,
			VerifiedOnly: l.ReviewSettings.VerifiedOnly, Botcheck: "/wp-json/vitrine/v1/botcheck/review"}
		if opt.MayReview != nil && l.ReviewSettings.VerifiedOnly {
			ok, err := opt.MayReview(ctx, p.ID)
			if err != nil {
				return err
			}
			page.ReviewForm.Eligible = &ok
		}
	}
	if opt.Held != nil {
		held, err := opt.Held(ctx, p.ID)
		if err != nil {
			return err
		}
		for _, r := range held {
			pr := ReviewOf(r)
			pr.Pending = true
			page.PendingReviews = append(page.PendingReviews, pr)
		}
	}
	return nil
}

// ReviewOf is a review as pages and the review form's answer show it; a
// held one is marked pending.
func ReviewOf(r review.Review) Review {
	return Review{ID: r.ID, Reviewer: r.Author, Review: storeapi.ReviewHTML(r.Content), Rating: r.Rating, Verified: r.Verified,
		DateCreated: r.CreatedAt.UTC().Format(time.RFC3339), FormattedDateCreated: formatDate(r.CreatedAt),
		Pending: r.Status == review.StatusHold, Reply: replyOf(r.Reply)}
}

func replyOf(r review.Reply) *ReviewReply {
	if r.Text == "" {
		return nil
	}
	return &ReviewReply{Reply: storeapi.ReviewHTML(r.Text), DateCreated: r.At.UTC().Format(time.RFC3339), FormattedDateCreated: formatDate(r.At)}
}

// reviewLD is schema.org Review items for the approved reviews a page
// shows (never held ones): author, date, text and, when rated, the stars.
func reviewLD(rs []Review) []map[string]any {
	var out []map[string]any
	for _, r := range rs {
		if r.Pending {
			continue
		}
		item := map[string]any{"@type": "Review", "author": map[string]any{"@type": "Person", "name": html.UnescapeString(r.Reviewer)},
			"datePublished": r.DateCreated[:min(10, len(r.DateCreated))], "reviewBody": plainText(r.Review, 5000)}
		if r.Rating > 0 {
			item["reviewRating"] = map[string]any{"@type": "Rating", "ratingValue": r.Rating, "bestRating": 5, "worstRating": 1}
		}
		out = append(out, item)
	}
	return out
}

// availability is the stock status of one variation as a page shows it.
func availability(v *catalog.Product, now time.Time) VariationAvailability {
	a := VariationAvailability{ID: v.ID, Attributes: make(map[string]string, len(v.Variation)),
		InStock: v.InStock(), Purchasable: v.IsPurchasable(now)}
	for _, va := range v.Variation {
		a.Attributes[va.Name] = va.Value
	}
	return a
}

// stockStatusTags are the cache tags a variable product's page carries for
// the stock status it shows of each variation (embedded variation objects
// or the availability list): "product:<id>" of every visible variation
// whose stock it manages. A sale that takes such a variation's count across
// zero records a "product" change under the variation's own id (a count
// that moves without changing the status is a "stock" change, which pages
// ignore), so exactly the status changes drop this page.
func stockStatusTags(vars []*catalog.Product) []string {
	var tags []string
	for _, v := range vars {
		if v.Published() && v.Active && v.ManageStock {
			tags = append(tags, "product:"+strconv.FormatInt(v.ID, 10))
		}
	}
	return tags
}

func (l *Loader) abs(src string) string {
	if strings.HasPrefix(src, "/") {
		return l.BaseURL + src
	}
	return src
}

func published(ps []*catalog.Product) []*catalog.Product {
	out := ps[:0:0]
	for _, p := range ps {
		if p.Published() {
			out = append(out, p)
		}
	}
	return out
}

func visibleInCatalog(ps []*catalog.Product) []*catalog.Product {
	out := ps[:0:0]
	for _, p := range ps {
		if p.ShownInCatalog() {
			out = append(out, p)
		}
	}
	return out
}

// swatches lists the attributes used for variations with their options in
// the shop's order, and the swatch type of global attributes.
func (l *Loader) swatches(ctx context.Context, p *catalog.Product) ([]SwatchAttribute, error) {
	out := []SwatchAttribute{}
	if p.Type != catalog.TypeVariable {
		return out, nil
	}
	global := false
	for _, a := range p.Attributes {
		global = global || (a.Variation && a.AttributeID != 0)
	}
	// The global attributes' swatch types and their terms' colours and
	// pictures, as the store keeps them for the listing filters (in
	// memory until a taxonomy change), not read per page.
	types := map[int64]string{}
	terms := map[int64]catalog.AttrTerm{}
	if global {
		attrs, err := l.Store.FilterAttributes(ctx)
		if err != nil {
			return nil, err
		}
		for _, a := range attrs {
			types[a.ID] = a.Type
			for _, t := range a.Terms {
				terms[t.ID] = t
			}
		}
	}
	for _, a := range p.Attributes {
		if !a.Variation {
			continue
		}
		sa := SwatchAttribute{Key: a.Key(), Name: a.Name, Type: catalog.SwatchSelect, Options: []SwatchOption{}}
		if t, ok := types[a.AttributeID]; ok {
			sa.Type = t
		}
		for _, v := range a.Values {
			o := SwatchOption{Slug: v.Slug, Name: v.Name}
			if t, ok := terms[v.TermID]; ok {
				o.Color, o.Image = t.Color, t.ImageURL
			}
			sa.Options = append(sa.Options, o)
		}
		out = append(out, sa)
	}
	return out, nil
}

func additional(p *catalog.Product) []LabelValue {
	out := []LabelValue{}
	if p.Weight != "" {
		out = append(out, LabelValue{"Weight", p.Weight + " kg"})
	}
	var dims []string
	for _, d := range []string{p.Length, p.Width, p.Height} {
		if d != "" {
			dims = append(dims, d)
		}
	}
	if len(dims) > 0 {
		out = append(out, LabelValue{"Dimensions", strings.Join(dims, " × ") + " cm"})
	}
	for _, a := range p.Attributes {
		if !a.Visible {
			continue
		}
		names := make([]string, len(a.Values))
		for i, v := range a.Values {
			names[i] = v.Name
		}
		out = append(out, LabelValue{a.Name, strings.Join(names, ", ")})
	}
	return out
}

func schemaAvailability(sp storeapi.Product, p *catalog.Product) string {
	switch {
	case p.PreOrder:
		return "https://schema.org/PreOrder"
	case !sp.IsInStock:
		return "https://schema.org/OutOfStock"
	case sp.IsOnBackorder:
		return "https://schema.org/BackOrder"
	}
	return "https://schema.org/InStock"
}

func (l *Loader) productLD(p *catalog.Product, sp storeapi.Product, desc string) map[string]any {
	ld := map[string]any{
		"@context": "https://schema.org", "@type": "Product", "name": p.Name, "description": desc,
		"url": l.BaseURL + storeapi.ProductPath(p.Slug),
	}
	if p.SKU != "" {
		ld["sku"] = p.SKU
	}
	var imgs []string
	for _, img := range sp.Images {
		imgs = append(imgs, l.abs(img.Src))
	}
	if len(imgs) > 0 {
		ld["image"] = imgs
	}
	if sp.Prices.Price != "" {
		minor := l.Currency.MinorUnit
		offer := map[string]any{"priceCurrency": l.Currency.Code, "availability": schemaAvailability(sp, p),
			"url": l.BaseURL + storeapi.ProductPath(p.Slug)}
		if sp.Prices.PriceRange != nil {
			lo, _ := strconv.ParseInt(sp.Prices.PriceRange.MinAmount, 10, 64)
			hi, _ := strconv.ParseInt(sp.Prices.PriceRange.MaxAmount, 10, 64)
			offer["@type"] = "AggregateOffer"
			offer["lowPrice"], offer["highPrice"] = decimalString(lo, minor), decimalString(hi, minor)
			offer["offerCount"] = len(sp.Variations)
		} else {
			price, _ := strconv.ParseInt(sp.Prices.Price, 10, 64)
			offer["@type"] = "Offer"
			offer["price"] = decimalString(price, minor)
		}
		ld["offers"] = offer
	}
	if p.ReviewCount > 0 {
		ld["aggregateRating"] = map[string]any{"@type": "AggregateRating", "ratingValue": sp.AverageRating, "reviewCount": p.ReviewCount}
	}
	return ld
}

// NotFoundPage is the data of the 404 page.
type NotFoundPage struct {
	Base
}

// NotFound loads the 404 page.
func (l *Loader) NotFound(ctx context.Context, reqURL string) (*Result, error) {
	e, err := l.setup(ctx, "notfound", reqURL)
	if err != nil {
		return nil, err
	}
	h := l.head(l.title("Page not found"), "", "")
	h.Canonical = ""
	h.Robots = "noindex, follow"
	return &Result{Status: 404, Data: NotFoundPage{Base: e.base}, Head: h, Tags: []string{"notfound"}}, nil
}

// QuickView loads a product's quick-view popup: the product page's data with
// the page kind "quickview", which the app renders as the popup alone.
func (l *Loader) QuickView(ctx context.Context, id int64) (*Result, error) {
	p, err := l.Store.Product(ctx, id)
	if err != nil {
		return nil, err
	}
	if p.ParentID != 0 || !p.Published() {
		return nil, ErrNotFound
	}
	res, err := l.Product(ctx, storeapi.ProductPath(p.Slug), p.Slug)
	if err != nil {
		return nil, err
	}
	page := res.Data.(ProductPage)
	page.Page = "quickview"
	res.Data = page
	return res, nil
}

// CartPage is the cart page (/cart/): rendered per request with the
// visitor's cart, never cached. Cart is the Store API cart object; Nonce is
// the Store API nonce for the visitor's session (the page's updates and
// removals are Store API writes).
type CartPage struct {
	Base
	Cart  any    `json:"cart"`
	Nonce string `json:"nonce"`
	// RemoveNonce is the session's _wpnonce for the remove links without
	// scripts (/cart/?remove_item=KEY&_wpnonce=…).
	RemoveNonce string `json:"remove_nonce"`
	// Notices are the messages of the visitor's last cart change without
	// scripts (the page's form, a remove link, a grouped add).
	Notices []Notice `json:"notices"`
	// CrossSells are the "You may also like" cards (crossSells), prices in
	// the shopper's currency.
	CrossSells Cards `json:"cross_sells"`
}

// Notice is a WooCommerce notice on the cart page: kind "message" or
// "error", and its text with WooCommerce's HTML entities (shown as text).
type Notice struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// Cart loads the cart page around a cart the server has already read, with
// the cards of its cross-sells.
func (l *Loader) Cart(ctx context.Context, reqURL string, cart any, nonce, removeNonce string, notices []Notice, cross CrossSells) (*Result, error) {
	e, err := l.setup(ctx, "cart", reqURL)
	if err != nil {
		return nil, err
	}
	h := l.head(l.title("Cart"), "Your cart at "+l.live().SiteName+": change quantities, apply a coupon and check out.", "/cart/")
	h.Robots = "noindex, follow"
	if notices == nil {
		notices = []Notice{}
	}
	cards, err := l.crossSells(ctx, e, cross)
	if err != nil {
		return nil, err
	}
	return &Result{Status: 200, Data: CartPage{Base: e.base, Cart: cart, Nonce: nonce, RemoveNonce: removeNonce, Notices: notices,
		CrossSells: cards}, Head: h}, nil
}
