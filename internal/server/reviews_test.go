package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"vitrine/internal/review"
)

const reviewsPath = "/wp-json/wc/store/v1/products/reviews"

type apiReview struct {
	ID                   int64  `json:"id"`
	DateCreated          string `json:"date_created"`
	FormattedDateCreated string `json:"formatted_date_created"`
	DateCreatedGMT       string `json:"date_created_gmt"`
	ProductID            int64  `json:"product_id"`
	ProductName          string `json:"product_name"`
	ProductPermalink     string `json:"product_permalink"`
	ProductImage         *struct {
		ID  int64  `json:"id"`
		Src string `json:"src"`
	} `json:"product_image"`
	Reviewer           string            `json:"reviewer"`
	Review             string            `json:"review"`
	Rating             int               `json:"rating"`
	Verified           bool              `json:"verified"`
	ReviewerAvatarURLs map[string]string `json:"reviewer_avatar_urls"`
}

// reviewsPage GETs a reviews listing and decodes it.
func (s *shop) reviewsPage(query string) (*http.Response, []apiReview) {
	s.t.Helper()
	r := s.get(reviewsPath + query)
	var out []apiReview
	if r.StatusCode == 200 {
		if err := json.NewDecoder(r.Body).Decode(&out); err != nil {
			s.t.Fatalf("GET %s: %v", query, err)
		}
	}
	return r, out
}

func TestReviewsAPI(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		ctx := context.Background()
		tee, err := s.db.ProductBySlug(ctx, "classic-tee")
		if err != nil {
			t.Fatal(err)
		}

		r, all := s.reviewsPage("")
		if r.StatusCode != 200 || r.Header.Get("X-WP-Total") != "10" || r.Header.Get("X-WP-TotalPages") != "1" || len(all) != 10 {
			t.Fatalf("all: %d total=%q pages=%q len=%d", r.StatusCode, r.Header.Get("X-WP-Total"), r.Header.Get("X-WP-TotalPages"), len(all))
		}
		if ct := r.Header.Get("Content-Type"); ct != "application/json; charset=UTF-8" {
			t.Errorf("Content-Type %q", ct)
		}
		// The newest: the seed's scarf review, three days before the seed.
		g := all[0]
		if g.Reviewer != "Grace Mensah" || g.ProductName != "Cashmere-blend Scarf" || g.Rating != 5 || !g.Verified ||
			g.ProductPermalink != "https://shop.example/product/cashmere-blend-scarf/" || g.ProductImage == nil || g.ProductImage.Src == "" ||
			g.Review != "<p>Bought as a gift and then had to buy one for myself.</p>\n" {
			t.Errorf("newest review: %+v", g)
		}
		at, err := time.Parse("2006-01-02T15:04:05", g.DateCreatedGMT)
		if err != nil || g.DateCreated != g.DateCreatedGMT || g.FormattedDateCreated != at.Format("January 2, 2006") ||
			at.After(seedTime) || at.Before(seedTime.Add(-4*24*time.Hour)) {
			t.Errorf("dates: %q %q %q", g.DateCreated, g.DateCreatedGMT, g.FormattedDateCreated)
		}
		for _, size := range []string{"24", "48", "96"} {
			if u := g.ReviewerAvatarURLs[size]; !strings.Contains(u, "s="+size) || !strings.Contains(u, "avatar/?") {
				t.Errorf("avatar %s: %q", size, u)
			}
		}
		for i := 1; i < len(all); i++ {
			if all[i].DateCreatedGMT > all[i-1].DateCreatedGMT {
				t.Errorf("not newest first at %d", i)
			}
		}

		teeQ := "?product_id=" + strconv.FormatInt(tee.ID, 10)
		if r, rs := s.reviewsPage(teeQ); r.Header.Get("X-WP-Total") != "3" || len(rs) != 3 || rs[0].ProductID != tee.ID {
			t.Errorf("tee: total %q, %d reviews", r.Header.Get("X-WP-Total"), len(rs))
		}
		if r, rs := s.reviewsPage(teeQ + "&per_page=2&page=2"); r.Header.Get("X-WP-Total") != "3" || r.Header.Get("X-WP-TotalPages") != "2" || len(rs) != 1 {
			t.Errorf("tee page 2: total %q pages %q, %d reviews", r.Header.Get("X-WP-Total"), r.Header.Get("X-WP-TotalPages"), len(rs))
		}
		if _, rs := s.reviewsPage("?orderby=rating&order=asc&per_page=100"); len(rs) != 10 || rs[0].Rating != 3 || rs[9].Rating != 5 {
			t.Errorf("by rating: %+v", rs)
		}
		if _, rs := s.reviewsPage("?page=3"); len(rs) != 0 {
			t.Errorf("past the last page: %d reviews", len(rs))
		}
		cat, err := s.db.CategoryBySlug(ctx, "accessories")
		if err != nil {
			t.Fatal(err)
		}
		if r, rs := s.reviewsPage("?category_id=" + strconv.FormatInt(cat.ID, 10)); len(rs) == 0 || len(rs) >= 10 || r.Header.Get("X-WP-Total") != strconv.Itoa(len(rs)) {
			t.Errorf("accessories: total %q, %d reviews", r.Header.Get("X-WP-Total"), len(rs))
		}

		// Bad parameters: 400 rest_invalid_param naming the parameter.
		for query, param := range map[string]string{
			"?per_page=0": "per_page", "?per_page=101": "per_page", "?page=0": "page", "?page=x": "page",
			"?orderby=author": "orderby", "?order=up": "order", "?product_id=abc": "product_id", "?category_id=-1": "category_id",
		} {
			r := s.get(reviewsPath + query)
			var e apiErr
			if r.StatusCode != 400 || json.NewDecoder(r.Body).Decode(&e) != nil || e.Code != "rest_invalid_param" ||
				e.Data.Status != 400 || e.Data.Params[param] == "" {
				t.Errorf("GET %s: %d %+v", query, r.StatusCode, e)
			}
		}

		// The literal route wins over /products/{id}, which still answers.
		if r := s.get("/wp-json/wc/store/v1/products/" + strconv.FormatInt(tee.ID, 10)); r.StatusCode != 200 {
			t.Errorf("/products/{id}: %d", r.StatusCode)
		}

		// Moderation: a held review is not listed; approving it shows it in
		// the cached listings (unfiltered and the product's) once the
		// change log is applied.
		svc := &review.Service{Store: s.db, Settings: review.DefaultSettings(), Now: func() time.Time { return seedTime }}
		held, err := svc.Submit(ctx, review.Submission{ProductID: tee.ID, Rating: 1, Text: "Shrank.\n\nA lot.", Name: "Zed", Email: "zed@example.com"})
		if err != nil {
			t.Fatal(err)
		}
		// Both listings are read (and cached) before the approval.
		if r, _ := s.reviewsPage(teeQ); r.Header.Get("X-WP-Total") != "3" {
			t.Errorf("held review listed: total %q", r.Header.Get("X-WP-Total"))
		}
		if r, _ := s.reviewsPage("?orderby=rating&order=asc"); r.Header.Get("X-WP-Total") != "10" {
			t.Errorf("held review listed: total %q", r.Header.Get("X-WP-Total"))
		}
		if _, err := svc.Approve(ctx, held.ID); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(5 * time.Second)
		for {
			rt, _ := s.reviewsPage(teeQ)
			ra, rs := s.reviewsPage("?orderby=rating&order=asc")
			if rt.Header.Get("X-WP-Total") == "4" && ra.Header.Get("X-WP-Total") == "11" {
				if rs[0].ID != held.ID || rs[0].Review != "<p>Shrank.</p>\n<p>A lot.</p>\n" || rs[0].Verified {
					t.Errorf("approved review: %+v", rs[0])
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("approved review not listed: tee %q, all %q", rt.Header.Get("X-WP-Total"), ra.Header.Get("X-WP-Total"))
			}
			time.Sleep(20 * time.Millisecond)
		}
		if _, err := svc.Trash(ctx, held.ID); err != nil {
			t.Fatal(err)
		}
		deadline = time.Now().Add(5 * time.Second)
		for {
			if r, _ := s.reviewsPage(teeQ); r.Header.Get("X-WP-Total") == "3" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("trashed review still listed")
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
}
