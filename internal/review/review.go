// Package review is the product reviews capability: a shopper writes a
// review with a star rating, the shop moderates it, and the catalogue shows
// the approved ones with the product's average rating, count and histogram.
//
// The rules follow WooCommerce (reviews are WordPress comments of type
// "review"): validation texts, the verified-owner check, the setting that
// lets only verified owners review, moderation statuses and the link limit
// that holds a review for moderation.
package review

import (
	"context"
	"errors"
	"strconv"
	"time"

	"vitrine/internal/checkout"
)

// Review statuses, as WooCommerce's REST API names them.
const (
	StatusApproved = "approved"
	StatusHold     = "hold"
	StatusSpam     = "spam"
	StatusTrash    = "trash"
)

// Review is one shopper's review of a product.
type Review struct {
	ID          int64
	ProductID   int64
	ProductName string // filled by reads, not by writes
	ProductSlug string // filled by reads, not by writes
	Author      string
	Email       string // case-folded
	UserID      int64  // 0 for a guest
	Rating      int    // 1..5; 0 when ratings are not required and none was given
	Content     string // plain text as written
	Status      string
	Verified    bool
	ClientIP    string
	CreatedAt   time.Time
	// Reply is the shop's answer shown under the review (empty Text: none).
	Reply Reply
}

// Reply is a staff member's answer to a review, one per review.
type Reply struct {
	Text   string // plain text as written
	Author string // the staff member's name in the admin
	UserID int64  // the staff member's account (0 once it is deleted)
	At     time.Time
}

// Histogram counts a product's approved reviews by rating: [0] is one star.
type Histogram [5]int

// Target is what the rules need to know of the reviewed product.
type Target struct {
	ID             int64
	Name           string
	Type           string // catalog.Type*
	Status         string // "publish", "draft", …
	ReviewsAllowed bool   // the product's "Enable reviews" (_reviews_allowed)
}

// Query selects approved reviews for the Store API.
type Query struct {
	ProductIDs  []int64
	CategoryIDs []int64
	OrderBy     string // date_gmt (default), id, rating, product
	Order       string // desc (default), asc
	Page        int    // from 1
	PerPage     int    // 1..100
}

// Store is what the service reads and writes.
type Store interface {
	// ReviewTarget loads the product being reviewed; ErrNotFound when none.
	ReviewTarget(ctx context.Context, productID int64) (*Target, error)
	// ReviewerAccount returns an account's display name and email (an
	// error when there is no such account).
	ReviewerAccount(ctx context.Context, userID int64) (name, email string, err error)
	// Purchased reports whether an order in processing or completed status
	// holds the product and belongs to the account (userID, when not 0) or
	// has the billing email (when not empty).
	Purchased(ctx context.Context, productID, userID int64, email string) (bool, error)
	// InsertReview stores a new review and fills its ID. In the same
	// transaction, when it is approved, it refreshes the product's rating
	// figures and appends a product change. ErrDuplicate when the product
	// already has a review with this email.
	InsertReview(ctx context.Context, r *Review) error
	// SetReviewStatus moves a review to a status and, in the same
	// transaction, refreshes the product's rating figures and appends a
	// product change. It returns the review as changed; ErrReviewNotFound
	// when there is none.
	SetReviewStatus(ctx context.Context, id int64, status string) (*Review, error)
	// ListReviews returns one page of approved reviews and their total.
	ListReviews(ctx context.Context, q Query) ([]Review, int, error)
	// HeldReviews returns the product's held reviews written by the account
	// (userID, when not 0) or with the email (when not empty), newest first.
	HeldReviews(ctx context.Context, productID, userID int64, email string) ([]Review, error)
	// RatingHistogram returns the product's stored histogram.
	RatingHistogram(ctx context.Context, productID int64) (Histogram, error)
	// ReviewByID returns one review whatever its status;
	// ErrReviewNotFound when there is none.
	ReviewByID(ctx context.Context, id int64) (*Review, error)
	// ModerationReviews returns one page of reviews in any status for
	// staff (AdminQuery, already normalised) and their total.
	ModerationReviews(ctx context.Context, q AdminQuery) ([]Review, int, error)
	// ReviewCounts counts the reviews by status.
	ReviewCounts(ctx context.Context) (map[string]int, error)
	// DeleteReview removes a review in the trash for good and returns it
	// as it was: ErrReviewNotFound when there is none, ErrNotTrashed when
	// it is not in the trash. It appends a product change.
	DeleteReview(ctx context.Context, id int64) (*Review, error)
	// SetReviewReply sets a review's reply and returns the review as
	// changed. A reply with text applies to an approved or held review (a
	// held one is approved with it, refreshing the figures) and is
	// ErrNotReplyable otherwise; an empty one removes the reply whatever
	// the status. It appends a product change in the same transaction;
	// ErrReviewNotFound when there is no such review.
	SetReviewReply(ctx context.Context, id int64, r Reply) (*Review, error)
	// HitRateLimits counts one hit against each key in its window (the
	// shop's shared rate_limits counters) and reports whether all stayed
	// within their limits; when not, wait is the time until the window ends.
	HitRateLimits(ctx context.Context, hits []checkout.RateHit, window time.Duration, now time.Time) (wait time.Duration, ok bool, err error)
}

// InputError is a submission refused for one field, with the text to show.
type InputError struct {
	Field   string // rating, comment, author, email
	Message string
}

func (e *InputError) Error() string { return e.Field + ": " + e.Message }

// Refusal is a submission refused as a whole, with WordPress's text.
type Refusal struct {
	Code    string
	Message string
}

func (e *Refusal) Error() string { return e.Message }

var (
	// ErrDuplicate: the product already has a review with this email.
	ErrDuplicate = &Refusal{Code: "comment_duplicate", Message: "Duplicate comment detected; it looks as though you’ve already said that!"}
	// ErrNotVerified: VerifiedOnly is set and the reviewer did not buy the product.
	ErrNotVerified = &Refusal{Code: "woocommerce_rest_review_not_verified", Message: "Only logged in customers who have purchased this product may leave a review."}
	// ErrClosed: the product does not accept reviews.
	ErrClosed = &Refusal{Code: "comment_closed", Message: "Sorry, comments are closed for this item."}
	// ErrNotFound: no published product with this id (or not a reviewable
	// one: variations are reviewed through their parent).
	ErrNotFound = &Refusal{Code: "comment_id_not_found", Message: "Invalid comment post ID."}
	// ErrRateLimited: the client address posted too many reviews lately
	// (see *RateLimited for the wait).
	ErrRateLimited = &Refusal{Code: "vitrine_review_rate_limited", Message: "You are posting reviews too quickly. Please slow down."}
	// ErrReviewNotFound: no review with this id.
	ErrReviewNotFound = errors.New("review: no such review")
)

// RateLimited is ErrRateLimited with the time until the client may post
// again. errors.Is(err, ErrRateLimited) holds for it.
type RateLimited struct{ Wait time.Duration }

func (e *RateLimited) Error() string {
	return ErrRateLimited.Message + " (retry in " + strconv.Itoa(int(e.Wait/time.Second)) + "s)"
}

// Is makes errors.Is(err, ErrRateLimited) true.
func (e *RateLimited) Is(target error) bool { return target == ErrRateLimited }
