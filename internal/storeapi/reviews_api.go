package storeapi

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"vitrine/internal/catalog"
	"vitrine/internal/httpx"
	"vitrine/internal/review"
)

// ReviewsTag marks the cached review listings that are not limited to
// given products: any product change (a review approved, spammed or
// trashed appends one) invalidates them.
const ReviewsTag = "reviews"

var reviewsAPIParams = apiParams{
	single: []string{"page", "per_page", "orderby", "order"},
	lists:  []string{"product_id", "category_id"},
}

// Reviews serves GET /products/reviews: approved reviews, in
// WooCommerce's ProductReviewSchema, with X-WP-Total and X-WP-TotalPages.
func (a *API) Reviews(w http.ResponseWriter, r *http.Request) {
	a.serveAPI(w, r, reviewsAPIParams, func(ctx context.Context, query url.Values) (*apiResponse, error) {
		p := &httpx.Query{Values: query}
		q := review.Query{
			Page:        p.Int("page", 1, 1, 100000),
			PerPage:     p.Int("per_page", 10, 1, 100),
			OrderBy:     p.Enum("orderby", "date_gmt", "date_gmt", "id", "rating", "product"),
			Order:       p.Enum("order", "desc", "asc", "desc"),
			ProductIDs:  p.IDs("product_id"),
			CategoryIDs: p.IDs("category_id"),
		}
		if p.Err != nil {
			return nil, p.Err
		}
		rs, total, err := a.d.Reviews.List(ctx, q)
		if err != nil {
			return nil, err
		}
		ids := make([]int64, 0, len(rs))
		for _, rv := range rs {
			ids = append(ids, rv.ProductID)
		}
		ps, err := a.d.Products.Products(ctx, ids)
		if err != nil {
			return nil, err
		}
		byID := make(map[int64]*catalog.Product, len(ps))
		for _, p := range ps {
			byID[p.ID] = p
		}
		b, err := a.Builder(ctx)
		if err != nil {
			return nil, err
		}
		out := make([]ProductReview, len(rs))
		for i, rv := range rs {
			out[i] = b.Review(rv, byID[rv.ProductID])
		}
		// Limited to products: exactly their changes; otherwise any.
		tags := []string{ReviewsTag}
		if len(q.ProductIDs) > 0 {
			tags = tags[:0]
			for _, id := range q.ProductIDs {
				tags = append(tags, ProductTag(id))
			}
		}
		pages := (total + q.PerPage - 1) / q.PerPage
		return &apiResponse{Status: http.StatusOK, Body: out, Tags: tags,
			Headers: map[string]string{"X-WP-Total": strconv.Itoa(total), "X-WP-TotalPages": strconv.Itoa(pages)}}, nil
	})
}
