package review

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"vitrine/internal/checkout"
	"vitrine/internal/clock"
)

// Settings are the shop's review settings (WooCommerce → Settings →
// Products → Reviews, and Discussion's link limit).
type Settings struct {
	// RatingsRequired: "Star ratings should be required, not optional".
	RatingsRequired bool
	// VerifiedOnly: "Reviews can only be left by verified owners".
	VerifiedOnly bool
	// AutoApprove approves new reviews; off, they are held for moderation.
	AutoApprove bool
	// MaxLinks: a review with more links than this is held, whatever
	// AutoApprove says. Negative: no limit.
	MaxLinks int
	// RateLimit caps review posts per client address (an IPv6 client's
	// /64) per RateWindow; 0 turns it off. Every attempt that reaches
	// Submit counts, refused or not.
	RateLimit int
}

// RateWindow is the window of Settings.RateLimit.
const RateWindow = 10 * time.Minute

// DefaultRateLimit is review posts allowed per address per RateWindow.
const DefaultRateLimit = 5

// DefaultSettings are WooCommerce's defaults with moderation on.
func DefaultSettings() Settings {
	return Settings{RatingsRequired: true, MaxLinks: 2, RateLimit: DefaultRateLimit}
}

// Lengths WordPress refuses beyond (wp_get_comment_fields_max_lengths).
const (
	MaxAuthor  = 245
	MaxEmail   = 100
	MaxContent = 65525
)

// Service is the reviews' use cases.
type Service struct {
	Store    Store
	Settings Settings
	Now      func() time.Time
	Log      *slog.Logger
}

func (s *Service) now() time.Time { return clock.UTC(s.Now) }

func (s *Service) log() *slog.Logger { return cmp.Or(s.Log, discard) }

var discard = slog.New(slog.DiscardHandler)

// Submission is a review as the form sends it. For a customer (UserID set)
// the name and email are the account's, whatever the form says.
type Submission struct {
	ProductID int64
	Rating    int
	Text      string
	Name      string
	Email     string
	UserID    int64
	ClientIP  string
}

// Submit validates and stores a review: held for moderation unless
// AutoApprove (and never approved with more than MaxLinks links), marked
// verified when the reviewer bought the product. Refusals are *InputError
// (a field) or *Refusal (ErrNotFound, ErrClosed, ErrNotVerified,
// ErrDuplicate).
//
// Before anything else it counts the attempt against the client address's
// rate limit (Settings.RateLimit): *RateLimited when over it. A store error
// there lets the attempt through (logged): storing will meet the same store.
func (s *Service) Submit(ctx context.Context, sub Submission) (*Review, error) {
	if err := s.allow(ctx, sub.ClientIP); err != nil {
		return nil, err
	}
	text := strings.TrimSpace(sub.Text)
	name := strings.TrimSpace(sub.Name)
	email := strings.ToLower(strings.TrimSpace(sub.Email))
	if sub.UserID != 0 {
		n, e, err := s.Store.ReviewerAccount(ctx, sub.UserID)
		if err != nil {
			return nil, err
		}
		name, email = n, strings.ToLower(e)
		if name == "" {
			name, _, _ = strings.Cut(email, "@")
		}
	}
	if err := s.validate(sub.Rating, text, name, email, sub.UserID != 0); err != nil {
		return nil, err
	}
	t, err := s.Store.ReviewTarget(ctx, sub.ProductID)
	if err != nil {
		return nil, err
	}
	if t.Status != "publish" || t.Type == "variation" {
		return nil, ErrNotFound
	}
	if !t.ReviewsAllowed {
		return nil, ErrClosed
	}
	verified, err := s.Store.Purchased(ctx, t.ID, sub.UserID, email)
	if err != nil {
		return nil, err
	}
	if s.Settings.VerifiedOnly && !verified {
		return nil, ErrNotVerified
	}
	status := StatusHold
	if s.Settings.AutoApprove && (s.Settings.MaxLinks < 0 || CountLinks(text) <= s.Settings.MaxLinks) {
		status = StatusApproved
	}
	r := &Review{ProductID: t.ID, ProductName: t.Name, Author: name, Email: email, UserID: sub.UserID,
		Rating: sub.Rating, Content: text, Status: status, Verified: verified, ClientIP: sub.ClientIP, CreatedAt: s.now()}
	if err := s.Store.InsertReview(ctx, r); err != nil {
		return nil, err
	}
	s.log().Info("review submitted", "review", r.ID, "product", r.ProductID, "status", r.Status, "verified", r.Verified)
	return r, nil
}

// allow counts a post against the client address's limit.
func (s *Service) allow(ctx context.Context, clientIP string) error {
	addr := checkout.AddressKey(clientIP)
	if s.Settings.RateLimit <= 0 || addr == "" {
		return nil
	}
	wait, ok, err := s.Store.HitRateLimits(ctx, []checkout.RateHit{{Key: "review:a:" + addr, Limit: s.Settings.RateLimit}}, RateWindow, s.now())
	if err != nil {
		if ctx.Err() == nil {
			s.log().Warn("review rate limit", "err", err)
		}
		return nil
	}
	if !ok {
		s.log().Info("review rate limited", "wait", wait)
		return &RateLimited{Wait: wait}
	}
	return nil
}

func (s *Service) validate(rating int, text, name, email string, customer bool) error {
	switch {
	case rating == 0 && s.Settings.RatingsRequired:
		return &InputError{"rating", "Please select a rating"}
	case rating < 0 || rating > 5:
		return &InputError{"rating", "Please select a rating"}
	case !customer && (name == "" || email == ""):
		field := "author"
		if name != "" {
			field = "email"
		}
		return &InputError{field, "Please fill the required fields."}
	case !customer && !checkout.ValidEmail(email):
		return &InputError{"email", "Please enter a valid email address."}
	case text == "":
		return &InputError{"comment", "Please type your comment text."}
	case utf8.RuneCountInString(name) > MaxAuthor:
		return &InputError{"author", "Your name is too long."}
	case utf8.RuneCountInString(email) > MaxEmail:
		return &InputError{"email", "Your email address is too long."}
	case utf8.RuneCountInString(text) > MaxContent:
		return &InputError{"comment", "Your comment is too long."}
	}
	return nil
}

var linkPattern = regexp.MustCompile(`(?i)<a\s[^>]*href|\bhttps?://|(?:^|[\s(<>"'])www\.`)

// CountLinks counts the links in a review's text: anchors (as WordPress's
// check_comment counts them) and bare addresses, which the storefront turns
// into links.
func CountLinks(text string) int {
	n := 0
	for _, m := range linkPattern.FindAllStringIndex(text, -1) {
		// An anchor's href holds an address counted once with its anchor.
		if strings.HasPrefix(strings.ToLower(text[m[0]:]), "<a") {
			n++
			continue
		}
		if !insideAnchor(text[:m[0]]) {
			n++
		}
	}
	return n
}

// insideAnchor reports whether the text before an address ends inside an
// opening <a …> tag.
func insideAnchor(before string) bool {
	i := strings.LastIndex(strings.ToLower(before), "<a")
	return i >= 0 && !strings.Contains(before[i:], ">")
}

// Approve, Spam and Trash moderate a review; each refreshes the product's
// rating figures in the same transaction and invalidates its pages.
func (s *Service) Approve(ctx context.Context, id int64) (*Review, error) {
	return s.setStatus(ctx, id, StatusApproved)
}

// Hold puts a review back into moderation.
func (s *Service) Hold(ctx context.Context, id int64) (*Review, error) {
	return s.setStatus(ctx, id, StatusHold)
}

// Spam marks a review as spam.
func (s *Service) Spam(ctx context.Context, id int64) (*Review, error) {
	return s.setStatus(ctx, id, StatusSpam)
}

// Trash moves a review to the trash.
func (s *Service) Trash(ctx context.Context, id int64) (*Review, error) {
	return s.setStatus(ctx, id, StatusTrash)
}

func (s *Service) setStatus(ctx context.Context, id int64, status string) (*Review, error) {
	r, err := s.Store.SetReviewStatus(ctx, id, status)
	if err != nil {
		return nil, err
	}
	s.log().Info("review moderated", "review", id, "product", r.ProductID, "status", status)
	return r, nil
}

// List returns one page of approved reviews and their total, for the Store
// API. Defaults: newest first, 10 a page.
func (s *Service) List(ctx context.Context, q Query) ([]Review, int, error) {
	if q.OrderBy == "" {
		q.OrderBy = "date_gmt"
	}
	switch q.OrderBy {
	case "date_gmt", "id", "rating", "product":
	default:
		return nil, 0, errors.New("review: unknown orderby " + q.OrderBy)
	}
	if q.Order != "asc" {
		q.Order = "desc"
	}
	q.Page = max(q.Page, 1)
	if q.PerPage <= 0 {
		q.PerPage = 10
	}
	q.PerPage = min(q.PerPage, 100)
	return s.Store.ListReviews(ctx, q)
}

// ForAuthor returns the product's held reviews by their author (an account,
// or a guest by email), which only that author is shown.
func (s *Service) ForAuthor(ctx context.Context, productID, userID int64, email string) ([]Review, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	if userID == 0 && email == "" {
		return nil, nil
	}
	return s.Store.HeldReviews(ctx, productID, userID, email)
}

// MayReview reports whether a logged-in customer may review the product
// under the settings: always, unless VerifiedOnly and they have not bought
// it (by account or by their account's email), which Submit would refuse
// with ErrNotVerified. The page shows them the notice instead of a form
// they could only be refused with.
func (s *Service) MayReview(ctx context.Context, productID, userID int64) (bool, error) {
	if !s.Settings.VerifiedOnly {
		return true, nil
	}
	_, email, err := s.Store.ReviewerAccount(ctx, userID)
	if err != nil {
		return false, err
	}
	return s.Store.Purchased(ctx, productID, userID, strings.ToLower(email))
}

// Histogram returns a product's approved reviews counted by rating.
func (s *Service) Histogram(ctx context.Context, productID int64) (Histogram, error) {
	return s.Store.RatingHistogram(ctx, productID)
}

// Held returns a held review by id, for its author's moderation link (the
// adapter checks the link's signature); ErrReviewNotFound when there is no
// such review or it is not held.
func (s *Service) Held(ctx context.Context, id int64) (*Review, error) {
	r, err := s.Store.ReviewByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if r.Status != StatusHold {
		return nil, ErrReviewNotFound
	}
	return r, nil
}
