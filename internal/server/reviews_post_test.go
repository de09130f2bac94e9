package server_test

// The review form's wire on both engines: POST /wp-comments-post.php as a
// plain form (redirects, the refusal page) and as a script's fetch (JSON),
// the held review shown to its author only, comment-page pagination and its
// cache keys, and the Review items of the product page's JSON-LD.

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"vitrine/internal/cart"
	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/money"
	"vitrine/internal/payment"
	"vitrine/internal/review"
	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

type revShop struct {
	*loginShop
	tee    *catalog.Product
	closed *catalog.Product
}

// newRevShop is a started shop with a page cache and the given review
// settings, the seeded tee and a product closed to reviews.
func newRevShop(t *testing.T, db *sqlstore.DB, settings review.Settings) *revShop {
	t.Helper()
	ls := newLoginShop(t, db, server.Config{Reviews: &settings, CacheBytes: 16 << 20, CacheMaxAge: time.Hour, ChangePoll: 10 * time.Millisecond})
	ctx := context.Background()
	tee, err := db.ProductBySlug(ctx, "classic-tee")
	if err != nil {
		t.Fatal(err)
	}
	price := int64(900)
	closed := &catalog.Product{Type: catalog.TypeSimple, Name: "Closed Mug", Slug: "closed-mug", Status: "publish", RegularPrice: &price,
		Purchasable: true, Meta: map[string]string{"_reviews_allowed": "no"}}
	if _, err := db.SaveProduct(ctx, closed, nil); err != nil {
		t.Fatal(err)
	}
	return &revShop{loginShop: ls, tee: tee, closed: closed}
}

// revForm is a valid guest review of product id, with a solved proof.
func (b *browser) revForm(id int64, email string) url.Values {
	return url.Values{"comment_post_ID": {strconv.FormatInt(id, 10)}, "rating": {"4"}, "comment": {"Soft and well cut."},
		"author": {"Ana Ng"}, "email": {email}, "altcha": {b.solve("review")}, "submit": {"Submit"}}
}

// revPost posts a review form; asJSON sends Accept: application/json as the
// page's script does.
func (b *browser) revPost(form url.Values, asJSON bool) answer {
	b.s.t.Helper()
	req := httptest.NewRequest("POST", "/wp-comments-post.php", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if asJSON {
		req.Header.Set("Accept", "application/json")
	}
	return b.send(req)
}

// revStored counts the product's reviews by email in any status.
func (s *revShop) revStored(productID int64, email string) int {
	s.t.Helper()
	svc := &review.Service{Store: s.db, Now: s.db.Now}
	held, err := svc.ForAuthor(context.Background(), productID, 0, email)
	if err != nil {
		s.t.Fatal(err)
	}
	n := len(held)
	all, _, err := svc.List(context.Background(), review.Query{ProductIDs: []int64{productID}, PerPage: 100})
	if err != nil {
		s.t.Fatal(err)
	}
	for _, r := range all {
		if r.Email == strings.ToLower(email) {
			n++
		}
	}
	return n
}

type revPage struct {
	Reviews []struct {
		ID       int64  `json:"id"`
		Reviewer string `json:"reviewer"`
		Pending  bool   `json:"pending"`
	} `json:"reviews"`
	PendingReviews []struct {
		ID      int64  `json:"id"`
		Review  string `json:"review"`
		Pending bool   `json:"pending"`
	} `json:"pending_reviews"`
	ReviewPaging struct {
		Page    int `json:"page"`
		Pages   int `json:"pages"`
		Total   int `json:"total"`
		PerPage int `json:"per_page"`
	} `json:"review_paging"`
	RatingCounts [5]int `json:"rating_counts"`
	ReviewForm   *struct {
		Action          string `json:"action"`
		ProductID       int64  `json:"product_id"`
		RatingsRequired bool   `json:"ratings_required"`
		Botcheck        string `json:"botcheck"`
		Eligible        *bool  `json:"eligible"`
	} `json:"review_form"`
}

// revProductLD is the page's schema.org Product.
func revProductLD(t *testing.T, html string) map[string]any {
	t.Helper()
	rest := html
	for {
		i := strings.Index(rest, `<script type="application/ld+json">`)
		if i < 0 {
			t.Fatal("no Product JSON-LD")
		}
		rest = rest[i+len(`<script type="application/ld+json">`):]
		raw := rest[:strings.Index(rest, "</script>")]
		var m map[string]any
		if err := json.Unmarshal([]byte(raw), &m); err != nil {
			t.Fatalf("JSON-LD: %v", err)
		}
		if m["@type"] == "Product" {
			return m
		}
	}
}

func TestReviewPostRefusals(t *testing.T) {
	t.Parallel()
	eachRevShop(t, review.Settings{RatingsRequired: true, MaxLinks: 2}, func(t *testing.T, s *revShop) {
		b := s.browser()
		tee := s.tee.ID
		set := func(f url.Values, kv ...string) url.Values {
			for i := 0; i+1 < len(kv); i += 2 {
				f.Set(kv[i], kv[i+1])
			}
			return f
		}
		// One accepted review, for the duplicate and the replayed proof.
		first := b.revForm(tee, "dup@example.com")
		if a := b.revPost(first, false); a.status != http.StatusFound {
			t.Fatalf("first review: %d %s", a.status, a.raw)
		}
		cases := []struct {
			name   string
			form   url.Values
			status int
			msg    string
			field  string
			email  string
		}{
			{"no rating", set(b.revForm(tee, "a@example.com"), "rating", ""), 400, "Please select a rating", "rating", "a@example.com"},
			{"rating not a number", set(b.revForm(tee, "a@example.com"), "rating", "five"), 400, "Please select a rating", "rating", "a@example.com"},
			{"bad email", b.revForm(tee, "b@example"), 400, "Please enter a valid email address.", "email", "b@example"},
			{"empty text", set(b.revForm(tee, "c@example.com"), "comment", "  "), 400, "Please type your comment text.", "comment", "c@example.com"},
			{"no name", set(b.revForm(tee, "n@example.com"), "author", ""), 400, "Please fill the required fields.", "author", "n@example.com"},
			{"unknown product", b.revForm(99999999, "d@example.com"), 404, "Invalid comment post ID.", "", ""},
			{"no product id", set(b.revForm(tee, "d@example.com"), "comment_post_ID", "x"), 404, "Invalid comment post ID.", "", "d@example.com"},
			{"closed product", b.revForm(s.closed.ID, "e@example.com"), 403, "Sorry, comments are closed for this item.", "", ""},
			{"duplicate", b.revForm(tee, "DUP@example.com"), 409, "Duplicate comment detected; it looks as though you’ve already said that!", "", ""},
			{"missing proof", set(b.revForm(tee, "f@example.com"), "altcha", ""), 403, "The bot check could not be verified. Please try again.", "", "f@example.com"},
			{"replayed proof", set(b.revForm(tee, "g@example.com"), "altcha", first.Get("altcha")), 403, "The bot check could not be verified. Please try again.", "", "g@example.com"},
			{"forged proof", set(b.revForm(tee, "h@example.com"), "altcha", "eyJhbGdvcml0aG0iOiJTSEEtMjU2In0="), 403, "The bot check could not be verified. Please try again.", "", "h@example.com"},
		}
		for _, c := range cases {
			for _, asJSON := range []bool{false, true} {
				form := url.Values{}
				for k, v := range c.form {
					form[k] = v
				}
				if asJSON && c.name != "missing proof" && c.name != "replayed proof" && c.name != "forged proof" {
					form.Set("altcha", b.solve("review")) // the first pass spent it
				}
				a := b.revPost(form, asJSON)
				if a.status != c.status {
					t.Errorf("%s (json %v): status %d, want %d: %.300s", c.name, asJSON, a.status, c.status, a.raw)
					continue
				}
				if asJSON {
					var e struct {
						Code    string `json:"code"`
						Message string `json:"message"`
						Data    struct {
							Status int    `json:"status"`
							Field  string `json:"field"`
						} `json:"data"`
					}
					if err := json.Unmarshal([]byte(a.raw), &e); err != nil || e.Message != c.msg || e.Data.Status != c.status || e.Data.Field != c.field || e.Code == "" {
						t.Errorf("%s json: %+v %v", c.name, e, err)
					}
				} else {
					ct := a.header.Get("Content-Type")
					if !strings.HasPrefix(ct, "text/html") || !strings.Contains(a.raw, "Comment Submission Failure") ||
						!strings.Contains(a.raw, strings.ReplaceAll(c.msg, "’", "’")) || a.header.Get("Cache-Control") != "no-store, private" {
						t.Errorf("%s page: %s %q", c.name, ct, a.header.Get("Cache-Control"))
					}
					var m struct {
						Page    string `json:"page"`
						Message string `json:"message"`
						Field   string `json:"field"`
						Back    string `json:"back"`
					}
					pageData(t, a.raw, &m)
					wantBack := "/product/classic-tee/"
					if c.status == 404 {
						wantBack = ""
					} else if c.name == "closed product" {
						wantBack = "/product/closed-mug/"
					}
					if m.Page != "review-error" || m.Message != c.msg || m.Field != c.field || m.Back != wantBack {
						t.Errorf("%s page data: %+v", c.name, m)
					}
				}
			}
			if c.email != "" {
				if n := s.revStored(tee, c.email); n != 0 {
					t.Errorf("%s: %d reviews stored", c.name, n)
				}
			}
		}
		if n := s.revStored(tee, "dup@example.com"); n != 1 {
			t.Errorf("duplicate stored: %d", n)
		}
		if n := s.revStored(s.closed.ID, "e@example.com"); n != 0 {
			t.Errorf("closed product got %d", n)
		}

		// Not a form: 415, in either shape, nothing read.
		for _, asJSON := range []bool{false, true} {
			body, _ := json.Marshal(map[string]any{"comment_post_ID": tee, "rating": 5, "comment": "json", "author": "J", "email": "j@example.com"})
			req := httptest.NewRequest("POST", "/wp-comments-post.php", strings.NewReader(string(body)))
			req.Header.Set("Content-Type", "application/json")
			if asJSON {
				req.Header.Set("Accept", "application/json")
			}
			a := b.send(req)
			if a.status != http.StatusUnsupportedMediaType || (asJSON && !strings.Contains(a.raw, `"vitrine_review_content_type"`)) ||
				(!asJSON && !strings.Contains(a.raw, "The review must be sent as a form.")) {
				t.Errorf("json body (accept json %v): %d %.200s", asJSON, a.status, a.raw)
			}
		}
		if n := s.revStored(tee, "j@example.com"); n != 0 {
			t.Errorf("json body stored %d", n)
		}
		// GET is not a route for posting.
		if a := b.do("GET", "/wp-comments-post.php", nil); a.status == http.StatusFound || a.status == http.StatusCreated {
			t.Errorf("GET: %d", a.status)
		}
	})
}

func TestReviewPostVerifiedOnlyAndRateLimit(t *testing.T) {
	t.Parallel()
	eachRevShop(t, review.Settings{RatingsRequired: true, VerifiedOnly: true, MaxLinks: 2, RateLimit: 3}, func(t *testing.T, s *revShop) {
		b := s.browser()
		msg := "Only logged in customers who have purchased this product may leave a review."
		a := b.revPost(b.revForm(s.tee.ID, "v@example.com"), true)
		if a.status != http.StatusForbidden || !strings.Contains(a.raw, msg) {
			t.Errorf("not a verified owner: %d %s", a.status, a.raw)
		}
		// The page shows the form's settings (guests get the notice in the app).
		page := pageDataAs[revPage](t, b.do("GET", "/product/classic-tee/", nil).raw)
		if page.ReviewForm == nil || page.ReviewForm.Action != "/wp-comments-post.php" || page.ReviewForm.ProductID != s.tee.ID ||
			page.ReviewForm.Botcheck != "/wp-json/vitrine/v1/botcheck/review" {
			t.Errorf("review form: %+v", page.ReviewForm)
		}
		if p := pageDataAs[revPage](t, b.do("GET", "/product/closed-mug/", nil).raw); p.ReviewForm != nil {
			t.Errorf("closed product has a form: %+v", p.ReviewForm)
		}
		// Three posts per address per window (refused ones count); the fourth is 429 with Retry-After.
		b.revPost(b.revForm(s.tee.ID, "w@example.com"), true)
		b.revPost(b.revForm(s.tee.ID, "x@example.com"), false)
		a = b.revPost(b.revForm(s.tee.ID, "y@example.com"), false)
		if a.status != http.StatusTooManyRequests || a.header.Get("Retry-After") == "" || !strings.Contains(a.raw, "You are posting reviews too quickly.") {
			t.Errorf("over the limit: %d %q", a.status, a.header.Get("Retry-After"))
		}
		other := s.browser()
		other.addr = "198.51.100.9:5000"
		if a := other.revPost(other.revForm(s.tee.ID, "z@example.com"), true); a.status != http.StatusForbidden {
			t.Errorf("another address: %d %s", a.status, a.raw)
		}
	})
}

// Under verified-only, a logged-in customer's own page says whether they
// may review (the app shows the notice instead of a form they could only
// be refused with); the shared page says nothing about any viewer.
func TestReviewFormEligibility(t *testing.T) {
	t.Parallel()
	eachRevShop(t, review.Settings{RatingsRequired: true, VerifiedOnly: true, MaxLinks: 2}, func(t *testing.T, s *revShop) {
		price := int64(900)
		mug := &catalog.Product{Type: catalog.TypeSimple, Name: "Open Mug", Slug: "open-mug", Status: "publish", RegularPrice: &price, Purchasable: true}
		if _, err := s.db.SaveProduct(context.Background(), mug, nil); err != nil {
			t.Fatal(err)
		}
		// A logged-in viewer's eligibility comes in their part of the
		// shared page (storefront/frame.go).
		eligible := func(b *browser) *bool {
			shared, v := splitViewer(t, b.do("GET", "/product/open-mug/", nil).raw)
			p := pageDataAs[revPage](t, shared)
			if p.ReviewForm == nil {
				t.Fatal("no review form settings")
			}
			if p.ReviewForm.Eligible != nil {
				t.Error("the shared page carries an eligibility")
			}
			if v == nil || v.Page == nil || v.Page.ReviewForm == nil {
				return nil
			}
			return v.Page.ReviewForm.Eligible
		}
		if e := eligible(s.browser()); e != nil {
			t.Errorf("shared page: eligible %v, want null", *e)
		}
		s.register("buyer@example.com")
		b := s.browser()
		if a := b.submitLogin("username", "buyer@example.com", "password", loginPass, "wfls-captcha", b.solve("login")); !b.loggedIn() {
			t.Fatalf("login: %d %s", a.status, a.raw)
		}
		if e := eligible(b); e == nil || *e {
			t.Errorf("before buying: eligible %v, want false", e)
		}
		s.revOrder(mug, "buyer@example.com") // bought by the account's email
		if e := eligible(b); e == nil || !*e {
			t.Errorf("after buying: eligible %v, want true", e)
		}
	})
}

func TestReviewHeldShownToItsAuthorOnly(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		s := newRevShop(t, db, review.Settings{RatingsRequired: true, MaxLinks: 2})
		b := s.browser()
		const text = "Held text only its author sees"
		// Warm the shared cache first.
		if a := b.do("GET", "/product/classic-tee/", nil); a.status != 200 {
			t.Fatal(a.status)
		}
		f := b.revForm(s.tee.ID, "held@example.com")
		f.Set("comment", text)
		a := b.revPost(f, false)
		loc := a.header.Get("Location")
		u, err := url.Parse(loc)
		if a.status != http.StatusFound || err != nil || u.Path != "/product/classic-tee/" || u.Query().Get("moderation-hash") == "" ||
			!strings.HasPrefix(u.Fragment, "comment-") || u.Query().Get("unapproved") != strings.TrimPrefix(u.Fragment, "comment-") {
			t.Fatalf("held redirect: %d %q", a.status, loc)
		}
		id, _ := strconv.ParseInt(u.Query().Get("unapproved"), 10, 64)

		// The moderation link: the page for this visitor alone, with the review and its note.
		own := b.do("GET", u.RequestURI(), nil)
		p := pageDataAs[revPage](t, own.raw)
		if own.status != 200 || own.header.Get("Cache-Control") != "no-store, private" || len(p.PendingReviews) != 1 ||
			p.PendingReviews[0].ID != id || !p.PendingReviews[0].Pending || !strings.Contains(own.raw, text) {
			t.Errorf("moderation link: %d %q %+v", own.status, own.header.Get("Cache-Control"), p.PendingReviews)
		}
		if !strings.Contains(own.raw, "Your review is awaiting approval") {
			t.Error("no awaiting-approval note in the render")
		}
		// A wrong hash, or the plain URL: the shared page, without it.
		bad := b.do("GET", "/product/classic-tee/?unapproved="+itoa(id)+"&moderation-hash=0123456789abcdef0123456789abcdef", nil)
		plain := b.do("GET", "/product/classic-tee/", nil)
		for name, a := range map[string]answer{"bad hash": bad, "plain": plain} {
			if a.status != 200 || strings.Contains(a.raw, text) || a.header.Get("X-Cache") != "hit" || len(pageDataAs[revPage](t, a.raw).PendingReviews) != 0 {
				t.Errorf("%s: %d cache %q, shows the held review: %v", name, a.status, a.header.Get("X-Cache"), strings.Contains(a.raw, text))
			}
		}
		// Another product's page ignores the link.
		if a := b.do("GET", "/product/closed-mug/?"+u.RawQuery, nil); strings.Contains(a.raw, text) {
			t.Error("held review shown on another product")
		}

		// A logged-in author sees their held review on their personal page.
		user := s.register("author@example.com")
		if a := b.submitLogin("username", "author@example.com", "password", loginPass, "wfls-captcha", b.solve("login")); a.status != http.StatusSeeOther || !b.loggedIn() {
			t.Fatalf("login: %d", a.status)
		}
		const mine = "Written while logged in"
		f = b.revForm(s.tee.ID, "ignored@example.com")
		f.Set("comment", mine)
		a = b.revPost(f, true)
		var posted struct {
			ID       int64  `json:"id"`
			Status   string `json:"status"`
			Message  string `json:"message"`
			Redirect string `json:"redirect"`
			Review   struct {
				Reviewer string `json:"reviewer"`
				Review   string `json:"review"`
				Rating   int    `json:"rating"`
				Pending  bool   `json:"pending"`
			} `json:"review"`
		}
		if a.status != http.StatusCreated || json.Unmarshal([]byte(a.raw), &posted) != nil || posted.Status != "hold" || !posted.Review.Pending ||
			posted.Message != "Your review is awaiting approval" || posted.Review.Rating != 4 || posted.Review.Review != "<p>"+mine+"</p>\n" ||
			!strings.Contains(posted.Redirect, "moderation-hash=") {
			t.Fatalf("json post: %d %s", a.status, a.raw)
		}
		if n := s.revStored(s.tee.ID, user.Email); n != 1 {
			t.Errorf("customer's review stored under the account's email: %d", n)
		}
		// The shared page, with their held review in their part.
		page := b.do("GET", "/product/classic-tee/", nil)
		shared, v := splitViewer(t, page.raw)
		if page.header.Get("Cache-Control") != "no-store, private" || strings.Contains(shared, mine) || strings.Contains(page.raw, text) {
			t.Errorf("logged-in author page: %q, own review in the shared page %v, guest's %v", page.header.Get("Cache-Control"), strings.Contains(shared, mine), strings.Contains(page.raw, text))
		}
		if v == nil || !v.User.LoggedIn || v.Page == nil || len(v.Page.PendingReviews) != 1 || !v.Page.PendingReviews[0].Pending ||
			v.Page.PendingReviews[0].Review != "<p>"+mine+"</p>\n" {
			t.Errorf("the author's part: %+v", v)
		}
		// Visitors never see it.
		if a := s.browser().do("GET", "/product/classic-tee/", nil); strings.Contains(a.raw, mine) || strings.Contains(a.raw, text) {
			t.Error("held review in the shared page")
		}

		// Approved: the moderation link shows it as an approved review, and so does the cached page.
		svc := &review.Service{Store: s.db, Now: s.db.Now}
		if _, err := svc.Approve(context.Background(), id); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(5 * time.Second)
		for {
			a := s.browser().do("GET", "/product/classic-tee/", nil)
			if strings.Contains(a.raw, text) {
				if p := pageDataAs[revPage](t, a.raw); len(p.Reviews) == 0 || p.Reviews[0].ID != id || p.Reviews[0].Pending {
					t.Errorf("approved review first: %+v", p.Reviews)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("approval did not reach the cached page")
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
}

func TestReviewPostApprovedRedirect(t *testing.T) {
	t.Parallel()
	eachRevShop(t, review.Settings{RatingsRequired: true, AutoApprove: true, MaxLinks: 2}, func(t *testing.T, s *revShop) {
		b := s.browser()
		a := b.revPost(b.revForm(s.tee.ID, "ok@example.com"), false)
		loc := a.header.Get("Location")
		if a.status != http.StatusFound || !strings.HasPrefix(loc, "/product/classic-tee/#comment-") || strings.Contains(loc, "unapproved") {
			t.Errorf("approved redirect: %d %q", a.status, loc)
		}
		// Multipart forms are forms too.
		var sb strings.Builder
		boundary := "XyZ"
		for k, v := range b.revForm(s.tee.ID, "multi@example.com") {
			sb.WriteString("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + k + "\"\r\n\r\n" + v[0] + "\r\n")
		}
		sb.WriteString("--" + boundary + "--\r\n")
		req := httptest.NewRequest("POST", "/wp-comments-post.php", strings.NewReader(sb.String()))
		req.Header.Set("Content-Type", "multipart/form-data; boundary="+boundary)
		if a := b.send(req); a.status != http.StatusFound {
			t.Errorf("multipart: %d %.200s", a.status, a.raw)
		}
		if n := s.revStored(s.tee.ID, "multi@example.com"); n != 1 {
			t.Errorf("multipart stored %d", n)
		}
	})
}

func TestReviewPagination(t *testing.T) {
	t.Parallel()
	eachRevShop(t, review.DefaultSettings(), func(t *testing.T, s *revShop) {
		ctx := context.Background()
		svc := &review.Service{Store: s.db, Settings: review.Settings{AutoApprove: true, RatingsRequired: true, MaxLinks: 2}, Now: s.clock.Now}
		for i := 0; i < 20; i++ {
			s.clock.Add(time.Minute)
			if _, err := svc.Submit(ctx, review.Submission{ProductID: s.tee.ID, Rating: 1 + i%5, Text: "Review number " + strconv.Itoa(i),
				Name: "Reviewer " + strconv.Itoa(i), Email: "r" + strconv.Itoa(i) + "@example.com"}); err != nil {
				t.Fatal(err)
			}
		}
		// One held review: never on a page, never in the JSON-LD.
		if _, err := (&review.Service{Store: s.db, Settings: review.DefaultSettings(), Now: s.db.Now}).Submit(ctx, review.Submission{ProductID: s.tee.ID, Rating: 5,
			Text: "Still held", Name: "Held Person", Email: "held@example.com"}); err != nil {
			t.Fatal(err)
		}
		changesApplied(t, s.srv, s.db) // the review changes read: pages cached from here stay fresh
		b := s.browser()
		seen := map[int64]bool{}
		for n, want := range map[int]int{1: 10, 2: 10, 3: 3} {
			path := "/product/classic-tee/"
			if n > 1 {
				path += "comment-page-" + strconv.Itoa(n) + "/"
			}
			first := b.do("GET", path, nil)
			again := b.do("GET", path, nil)
			p := pageDataAs[revPage](t, first.raw)
			if first.status != 200 || first.header.Get("X-Cache") != "miss" || again.header.Get("X-Cache") != "hit" {
				t.Errorf("%s: %d cache %q then %q", path, first.status, first.header.Get("X-Cache"), again.header.Get("X-Cache"))
			}
			if len(p.Reviews) != want || p.ReviewPaging.Page != n || p.ReviewPaging.Pages != 3 || p.ReviewPaging.Total != 23 || p.ReviewPaging.PerPage != 10 {
				t.Errorf("%s: %d reviews, paging %+v", path, len(p.Reviews), p.ReviewPaging)
			}
			for _, r := range p.Reviews {
				if seen[r.ID] {
					t.Errorf("%s: review %d on two pages", path, r.ID)
				}
				seen[r.ID] = true
			}
			if !strings.Contains(first.raw, `<link rel="canonical" href="https://shop.example`+path+`"`) {
				t.Errorf("%s: canonical", path)
			}
			ld := revProductLD(t, first.raw)
			items, _ := ld["review"].([]any)
			if len(items) != want {
				t.Errorf("%s: %d Review items", path, len(items))
			}
			for i, it := range items {
				m := it.(map[string]any)
				author, _ := m["author"].(map[string]any)
				rating, _ := m["reviewRating"].(map[string]any)
				if m["@type"] != "Review" || author["@type"] != "Person" || author["name"] != p.Reviews[i].Reviewer || m["reviewBody"] == "" ||
					rating["@type"] != "Rating" || rating["bestRating"] != float64(5) || m["datePublished"] == "" {
					t.Errorf("%s: Review item %d: %v", path, i, m)
				}
			}
			if agg, _ := ld["aggregateRating"].(map[string]any); agg["reviewCount"] != float64(23) {
				t.Errorf("%s: aggregateRating %v", path, ld["aggregateRating"])
			}
			if strings.Contains(first.raw, "Still held") {
				t.Errorf("%s: held review shown", path)
			}
		}
		if len(seen) != 23 {
			t.Errorf("%d distinct reviews over the pages", len(seen))
		}
		// Newest first: page 1 starts with the last one written.
		if p := pageDataAs[revPage](t, b.do("GET", "/product/classic-tee/", nil).raw); p.Reviews[0].Reviewer != "Reviewer 19" {
			t.Errorf("newest first: %+v", p.Reviews[0])
		}
		p := pageDataAs[revPage](t, b.do("GET", "/product/classic-tee/", nil).raw)
		sum := 0
		for _, c := range p.RatingCounts {
			sum += c
		}
		if sum != 23 || p.RatingCounts[0] < 4 {
			t.Errorf("histogram %v", p.RatingCounts)
		}
		// Redirects and misses.
		for path, want := range map[string]string{
			"/product/classic-tee/comment-page-1/": "/product/classic-tee/#comments",
			"/product/classic-tee/?cpage=2":        "/product/classic-tee/comment-page-2/#comments",
			"/product/classic-tee/?cpage=1":        "/product/classic-tee/#comments",
		} {
			if a := b.do("GET", path, nil); a.status != http.StatusMovedPermanently || a.header.Get("Location") != want {
				t.Errorf("%s: %d %q", path, a.status, a.header.Get("Location"))
			}
		}
		for _, path := range []string{"/product/classic-tee/comment-page-4/", "/product/classic-tee/comment-page-0/", "/product/classic-tee/comment-page-02/",
			"/product/classic-tee/comment-page-x/", "/product/classic-tee/other/", "/product/no-such-thing/comment-page-2/"} {
			if a := b.do("GET", path, nil); a.status != http.StatusNotFound {
				t.Errorf("%s: %d", path, a.status)
			}
		}
		// A junk cpage is the first page, served from its cache entry.
		if a := b.do("GET", "/product/classic-tee/?cpage=x", nil); a.status != 200 || a.header.Get("X-Cache") != "hit" {
			t.Errorf("cpage=x: %d %q", a.status, a.header.Get("X-Cache"))
		}
	})
}

// revOrder places a paid (processing) order for one of product by email,
// through the store as checkout does.
func (s *revShop) revOrder(p *catalog.Product, email string) {
	s.t.Helper()
	ctx := context.Background()
	usd, _ := money.Lookup("USD")
	cfg := checkout.DefaultConfig(usd)
	id := strconv.FormatInt(p.ID, 10)
	sess := "t_" + strings.Repeat("0", 30-len(id)) + id // one session (and idempotency key) per product
	l := cart.Line{ProductID: p.ID, Quantity: 1, UnitPrice: 900, Key: cart.LineKey(p.ID, 0, nil)}
	now := s.clock.Now()
	if _, err := s.db.AddLine(ctx, sess, l, now, now.Add(time.Hour), func(*cart.Cart, int64, int64) error { return nil }); err != nil {
		s.t.Fatal(err)
	}
	addr := cart.Address{FirstName: "Vera", LastName: "Owner", Address1: "1 Main St", City: "Sacramento", State: "CA", Postcode: "95814", Country: "US"}
	billing := addr
	billing.Email = email
	o, _, err := s.db.PlaceOrder(ctx, checkout.PlaceOrderInput{Session: sess, Method: payment.BankTransfer{}, Status: checkout.StatusOnHold,
		Config: &cfg, Customer: checkout.Customer{Billing: billing, Shipping: addr}, IdempotencyScope: "checkout:" + sess,
		IdempotencyKey: sess, RequestHash: sess, Now: now})
	if err != nil {
		s.t.Fatal(err)
	}
	if err := s.db.SetOrderStatus(ctx, o.ID, checkout.StatusProcessing, now); err != nil {
		s.t.Fatal(err)
	}
}

func TestReviewVerifiedOwnerEndToEnd(t *testing.T) {
	t.Parallel()
	eachRevShop(t, review.Settings{RatingsRequired: true, VerifiedOnly: true, AutoApprove: true, MaxLinks: 2}, func(t *testing.T, s *revShop) {
		price := int64(900)
		mug := &catalog.Product{Type: catalog.TypeSimple, Name: "Open Mug", Slug: "open-mug", Status: "publish", RegularPrice: &price, Purchasable: true}
		if _, err := s.db.SaveProduct(context.Background(), mug, nil); err != nil {
			t.Fatal(err)
		}
		s.revOrder(s.closed, "owner@example.com") // another product: not an owner of the mug
		b := s.browser()
		if a := b.revPost(b.revForm(mug.ID, "owner@example.com"), true); a.status != http.StatusForbidden {
			t.Fatalf("owner of another product: %d %s", a.status, a.raw)
		}
		s.revOrder(mug, "owner@example.com")
		f := b.revForm(mug.ID, "Owner@Example.com")
		f.Set("comment", "Bought it, love it.")
		a := b.revPost(f, true)
		var posted struct {
			ID     int64 `json:"id"`
			Review struct {
				Verified bool `json:"verified"`
			} `json:"review"`
		}
		if a.status != http.StatusCreated || json.Unmarshal([]byte(a.raw), &posted) != nil || !posted.Review.Verified {
			t.Fatalf("verified owner: %d %s", a.status, a.raw)
		}
		// The shared page shows the badge on it.
		deadline := time.Now().Add(5 * time.Second)
		for {
			page := s.browser().do("GET", "/product/open-mug/", nil)
			i := strings.Index(page.raw, `id="comment-`+itoa(posted.ID)+`"`)
			if i >= 0 {
				item := page.raw[i:]
				item = item[:strings.Index(item, "</article>")]
				if !strings.Contains(item, "(verified owner)") || !strings.Contains(item, "Bought it, love it.") {
					t.Errorf("no badge on the review: %s", item)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the published review did not reach the page")
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
}
