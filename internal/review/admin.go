package review

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode/utf8"
)

// The moderation queue's use cases: staff list reviews in every
// status, move them between statuses, delete them from the trash and reply
// to them. Every change goes through the store in one transaction that
// refreshes the product's rating figures and appends a product change, so
// the product's cached pages are invalidated as for a new review.

// StatusAll is the listing of reviews a shopper could see or will: held
// and approved (WooCommerce's "all"), held ones first.
const StatusAll = "all"

// MaxReply bounds a staff reply, as a review's text.
const MaxReply = MaxContent

// AdminQuery selects reviews for the moderation queue, newest first.
type AdminQuery struct {
	Status     string // StatusAll (default), or one status
	ProductIDs []int64
	// Search matches the author, the email or the text (case-insensitive).
	Search  string
	Page    int // from 1
	PerPage int // 1..100
}

// Counts are the number of reviews in each status.
type Counts map[string]int

// Errors of moderation.
var (
	// ErrNotTrashed: a review is deleted for good only from the trash.
	ErrNotTrashed = errors.New("review: only a review in the trash can be deleted permanently")
	// ErrNotReplyable: a review in the spam or the trash takes no reply.
	ErrNotReplyable = errors.New("review: a review in the spam or the trash cannot be replied to")
	// ErrBadStatus: not one of the review statuses.
	ErrBadStatus = errors.New("review: unknown status")
)

// ValidStatus reports whether s is one of the review statuses.
func ValidStatus(s string) bool {
	switch s {
	case StatusApproved, StatusHold, StatusSpam, StatusTrash:
		return true
	}
	return false
}

// Moderation returns one page of reviews for staff and their total.
func (s *Service) Moderation(ctx context.Context, q AdminQuery) ([]Review, int, error) {
	if q.Status == "" {
		q.Status = StatusAll
	}
	if q.Status != StatusAll && !ValidStatus(q.Status) {
		return nil, 0, ErrBadStatus
	}
	q.Search = strings.TrimSpace(q.Search)
	q.Page = max(q.Page, 1)
	if q.PerPage <= 0 {
		q.PerPage = 20
	}
	q.PerPage = min(q.PerPage, 100)
	return s.Store.ModerationReviews(ctx, q)
}

// Counts returns the number of reviews in each status (every status is
// present, 0 when none).
func (s *Service) Counts(ctx context.Context) (Counts, error) {
	c, err := s.Store.ReviewCounts(ctx)
	if err != nil {
		return nil, err
	}
	out := Counts{StatusApproved: 0, StatusHold: 0, StatusSpam: 0, StatusTrash: 0}
	for k, v := range c {
		out[k] = v
	}
	return out, nil
}

// Get returns a review whatever its status (ErrReviewNotFound).
func (s *Service) Get(ctx context.Context, id int64) (*Review, error) {
	return s.Store.ReviewByID(ctx, id)
}

// SetStatus moves a review to a status (ErrBadStatus, ErrReviewNotFound).
func (s *Service) SetStatus(ctx context.Context, id int64, status string) (*Review, error) {
	if !ValidStatus(status) {
		return nil, ErrBadStatus
	}
	return s.setStatus(ctx, id, status)
}

// Delete removes a review for good; only from the trash (ErrNotTrashed).
// It returns the review as it was.
func (s *Service) Delete(ctx context.Context, id int64) (*Review, error) {
	r, err := s.Store.DeleteReview(ctx, id)
	if err != nil {
		return nil, err
	}
	s.log().Info("review deleted", "review", id, "product", r.ProductID)
	return r, nil
}

// Reply sets (or replaces) the shop's reply to a review, written by the
// staff member staffID, named staffName in the admin. Replying to a held
// review approves it (WordPress's "Approve and Reply"); a review in the
// spam or the trash is refused with ErrNotReplyable. An empty text is
// *InputError{Field: "reply"}.
func (s *Service) Reply(ctx context.Context, id, staffID int64, staffName, text string) (*Review, error) {
	text = strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n"))
	switch {
	case text == "":
		return nil, &InputError{"reply", "Please type your reply."}
	case !utf8.ValidString(text):
		return nil, &InputError{"reply", "The reply is not valid text."}
	case utf8.RuneCountInString(text) > MaxReply:
		return nil, &InputError{"reply", "The reply is too long."}
	}
	r, err := s.Store.SetReviewReply(ctx, id, Reply{Text: text, Author: staffName, UserID: staffID, At: s.now().Truncate(time.Second)})
	if err != nil {
		return nil, err
	}
	s.log().Info("review replied", "review", id, "product", r.ProductID, "status", r.Status)
	return r, nil
}

// RemoveReply removes the shop's reply to a review (ErrReviewNotFound).
func (s *Service) RemoveReply(ctx context.Context, id int64) (*Review, error) {
	return s.Store.SetReviewReply(ctx, id, Reply{})
}
