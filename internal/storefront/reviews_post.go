package storefront

import (
	"context"
	"crypto/hmac"
	"encoding/hex"
	"errors"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"vitrine/internal/botcheck"
	"vitrine/internal/httpx"
	"vitrine/internal/pages"
	"vitrine/internal/review"
	"vitrine/internal/storeapi"
)

// The review form's wire (WordPress's comment form): the product page's
// reviews pages (comment-page-N, ?cpage=N), the held review shown to its
// author (the moderation link, or a logged-in author), and the form's POST
// to /wp-comments-post.php, which answers a plain form with WordPress's
// redirects and error page, and a script's fetch (Accept:
// application/json) with JSON. The rules are review.Service's.

// reviewBotcheckField is the form field carrying the ALTCHA payload.
const reviewBotcheckField = "altcha"

// reviewPostLimit bounds a review post's body (WordPress's longest text is
// 64 KB).
const reviewPostLimit = 128 << 10

const msgReviewBotcheck = "The bot check could not be verified. Please try again."

// ProductSub answers /product/<slug>/comment-page-N/ (N ≥ 2; the
// first page is the product's URL, where comment-page-1 redirects).
func (f *Storefront) ProductSub(w http.ResponseWriter, r *http.Request) {
	slug, sub := r.PathValue("slug"), r.PathValue("sub")
	digits, ok := strings.CutPrefix(sub, "comment-page-")
	n, err := strconv.Atoi(digits)
	if !ok || err != nil || n < 1 || digits != strconv.Itoa(n) {
		f.NotFound(w, r)
		return
	}
	if n == 1 {
		http.Redirect(w, r, pages.ReviewPagePath(url.PathEscape(slug), 1)+"#comments", http.StatusMovedPermanently)
		return
	}
	f.serveProduct(w, r, slug, n)
}

// serveProduct answers a product page at reviews page n. ?cpage=N
// redirects to its comment-page-N URL. The page is cached by its
// normalized URL (which holds the reviews page) unless it shows a held
// review to its author: the moderation link (?unapproved=<id>&
// moderation-hash=<hash>) or a logged-in author, both rendered for that
// viewer alone.
func (f *Storefront) serveProduct(w http.ResponseWriter, r *http.Request, slug string, n int) {
	q := r.URL.Query()
	if cp := q.Get("cpage"); cp != "" && n == 1 {
		if c, err := strconv.Atoi(cp); err == nil && c >= 1 && c <= 1_000_000 {
			http.Redirect(w, r, pages.ReviewPagePath(url.PathEscape(slug), c)+"#comments", http.StatusMovedPermanently)
			return
		}
	}
	pageURL := pages.ReviewPagePath(url.PathEscape(slug), n)
	opt := pages.ProductOptions{CommentPage: n}
	if held := f.moderationLinkReview(r); held != nil {
		opt.Held = func(_ context.Context, productID int64) ([]review.Review, error) {
			if held.ProductID != productID {
				return nil, nil
			}
			return []review.Review{*held}, nil
		}
		f.servePersonal(w, r, pageURL, func(ctx context.Context, u string) (*pages.Result, error) {
			return f.d.Loader.ProductWith(ctx, u, slug, opt)
		})
		return
	}
	// The shared page: a logged-in viewer's held reviews and whether they
	// may review come in their part of it (frame.go).
	f.servePage(w, r, pageURL, func(ctx context.Context, u string) (*pages.Result, error) {
		return f.d.Loader.ProductWith(ctx, u, slug, opt)
	})
}

// moderationHash signs a held review for its author's link: WordPress's
// moderation-hash, here an HMAC under the shop's secret of the review's
// id, email and time, so it shows that review and nothing else.
func (f *Storefront) moderationHash(r *review.Review) string {
	msg := strconv.FormatInt(r.ID, 10) + "|" + r.Email + "|" + strconv.FormatInt(r.CreatedAt.UnixNano(), 10)
	return hex.EncodeToString(f.d.Sessions.MAC("review-moderation", msg))[:32]
}

// moderationLinkReview is the held review a moderation link names, or nil
// (no link, a bad hash, or a review no longer held).
func (f *Storefront) moderationLinkReview(r *http.Request) *review.Review {
	q := r.URL.Query()
	hash := q.Get("moderation-hash")
	id, err := strconv.ParseInt(q.Get("unapproved"), 10, 64)
	if hash == "" || err != nil || id <= 0 || len(hash) > 64 {
		return nil
	}
	rv, err := f.d.Reviews.Held(r.Context(), id)
	if err != nil {
		if !errors.Is(err, review.ErrReviewNotFound) {
			f.d.Log.Warn("moderation link", "review", id, "err", err)
		}
		return nil
	}
	if !hmac.Equal([]byte(hash), []byte(f.moderationHash(rv))) {
		return nil
	}
	return rv
}

// reviewPosted is the JSON answer to a script's review post (docs/api.md).
type reviewPosted struct {
	ID        int64        `json:"id"`
	ProductID int64        `json:"product_id"`
	Status    string       `json:"status"` // approved or hold
	Message   string       `json:"message"`
	Redirect  string       `json:"redirect"`
	Review    pages.Review `json:"review"`
}

// ReviewPost answers POST /wp-comments-post.php.
func (f *Storefront) ReviewPost(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	wantJSON := strings.Contains(r.Header.Get("Accept"), "application/json")
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct != "application/x-www-form-urlencoded" && ct != "multipart/form-data" {
		f.reviewRefused(w, r, wantJSON, http.StatusUnsupportedMediaType, "vitrine_review_content_type", "The review must be sent as a form.", "", "")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, reviewPostLimit)
	var err error
	if ct == "multipart/form-data" {
		err = r.ParseMultipartForm(reviewPostLimit)
	} else {
		err = r.ParseForm()
	}
	if err != nil {
		f.reviewRefused(w, r, wantJSON, http.StatusBadRequest, "vitrine_review_bad_form", "The review form could not be read.", "", "")
		return
	}
	ctx := r.Context()
	productID, err := strconv.ParseInt(strings.TrimSpace(r.PostFormValue("comment_post_ID")), 10, 64)
	if err != nil || productID <= 0 {
		f.reviewRefused(w, r, wantJSON, http.StatusNotFound, review.ErrNotFound.Code, review.ErrNotFound.Message, "", "")
		return
	}
	back := ""
	if p, err := f.d.Catalog.Product(ctx, productID); err == nil && p.Published() && p.ParentID == 0 {
		back = storeapi.ProductPath(p.Slug)
	}
	if err := f.d.ReviewBotcheck.Verify(ctx, r.PostFormValue(reviewBotcheckField)); err != nil {
		if botcheck.IsRefusal(err) {
			f.reviewRefused(w, r, wantJSON, http.StatusForbidden, "vitrine_botcheck_failed", msgReviewBotcheck, "", back)
			return
		}
		f.d.Log.Error("review bot-check", "err", err)
		f.reviewRefused(w, r, wantJSON, http.StatusServiceUnavailable, "vitrine_botcheck_unavailable", "The bot check is unavailable right now. Please try again.", "", back)
		return
	}
	// A rating that is not a number is no rating.
	rating, _ := strconv.Atoi(strings.TrimSpace(r.PostFormValue("rating")))
	sub := review.Submission{ProductID: productID, Rating: rating, Text: r.PostFormValue("comment"),
		Name: r.PostFormValue("author"), Email: r.PostFormValue("email"), ClientIP: f.d.ClientIP(r)}
	if u := httpx.UserOf(r); u != nil {
		sub.UserID = u.ID
	}
	rv, err := f.d.Reviews.Submit(ctx, sub)
	if err != nil {
		f.reviewFailed(w, r, wantJSON, err, back)
		return
	}
	if back == "" {
		back = "/"
	}
	target := back + "#comment-" + strconv.FormatInt(rv.ID, 10)
	msg := "Thank you for your review."
	if rv.Status == review.StatusHold {
		target = back + "?unapproved=" + strconv.FormatInt(rv.ID, 10) + "&moderation-hash=" + f.moderationHash(rv) + "#comment-" + strconv.FormatInt(rv.ID, 10)
		msg = "Your review is awaiting approval"
	}
	if wantJSON {
		httpx.WriteJSON(w, http.StatusCreated, reviewPosted{ID: rv.ID, ProductID: rv.ProductID, Status: rv.Status, Message: msg, Redirect: target, Review: pages.ReviewOf(*rv)})
		return
	}
	http.Redirect(w, r, target, http.StatusFound)
}

// reviewFailed maps Submit's refusals: 400 a field, 409 a duplicate, 403
// closed or not a verified owner, 404 no such product, 429 too many posts.
func (f *Storefront) reviewFailed(w http.ResponseWriter, r *http.Request, wantJSON bool, err error, back string) {
	var ie *review.InputError
	var rl *review.RateLimited
	var rf *review.Refusal
	switch {
	case errors.As(err, &ie):
		f.reviewRefused(w, r, wantJSON, http.StatusBadRequest, "vitrine_review_invalid_"+ie.Field, ie.Message, ie.Field, back)
	case errors.As(err, &rl):
		httpx.SetRetryAfter(w, rl.Wait)
		f.reviewRefused(w, r, wantJSON, http.StatusTooManyRequests, review.ErrRateLimited.Code, review.ErrRateLimited.Message, "", back)
	case errors.As(err, &rf):
		status := http.StatusForbidden
		switch rf {
		case review.ErrDuplicate:
			status = http.StatusConflict
		case review.ErrNotFound:
			status, back = http.StatusNotFound, ""
		}
		f.reviewRefused(w, r, wantJSON, status, rf.Code, rf.Message, "", back)
	default:
		f.d.Log.Error("submit review", "err", err)
		f.reviewRefused(w, r, wantJSON, http.StatusInternalServerError, "vitrine_review_failed", "Your review could not be saved. Please try again.", "", back)
	}
}

// reviewRefused answers a refused post: JSON for a script (WordPress's
// REST error shape with data.status and data.field), else the error page
// in the shop frame.
func (f *Storefront) reviewRefused(w http.ResponseWriter, r *http.Request, wantJSON bool, status int, code, msg, field, back string) {
	if wantJSON {
		extra := map[string]any{}
		if field != "" {
			extra["field"] = field
		}
		httpx.WriteError(w, status, code, msg, extra)
		return
	}
	res, err := f.d.Loader.ReviewError(f.PageContext(r), r.URL.RequestURI(), status, msg, field, back)
	f.SendPersonal(w, r, "review error page", r.URL.RequestURI(), res, err)
}
