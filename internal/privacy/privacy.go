// Package privacy answers a person who asks for their data or to be
// forgotten (GDPR, UK GDPR, CCPA), as WordPress's privacy tools and
// WooCommerce's exporters and erasers do.
//
// A request is made by the customer from My account or by staff for any
// address, and the person confirms it with a link mailed to that address.
// A confirmed export is built at once (a zip of a JSON file and a readable
// HTML page) and its one-time download link is mailed. A confirmed
// erasure waits for staff approval; approving it anonymises the person's
// orders (the amounts, products and taxes stay), anonymises or deletes
// their reviews (the shop's setting), deletes their contact messages with
// their files and deletes their account as account deletion does.
//
// Links follow the accounts' pattern: 32 random bytes, only the SHA-256
// kept for lookups, the token sealed beside it for the mail and blanked
// once used (docs/decisions/0100-privacy-requests.md).
package privacy

import (
	"context"
	"errors"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/checkout"
	"vitrine/internal/contact"
	"vitrine/internal/review"
)

// Kinds of request.
const (
	KindExport = "export"
	KindErase  = "erase"
)

// Statuses: pending (mailed, not confirmed yet), confirmed (an erasure
// awaiting staff), completed (exported, or erased).
const (
	StatusPending   = "pending"
	StatusConfirmed = "confirmed"
	StatusCompleted = "completed"
)

// Sources: who asked.
const (
	SourceCustomer = "customer"
	SourceStaff    = "staff"
)

// WishlistRow is a wishlist item as the store reads it for an export.
type WishlistRow struct {
	Product    string
	PriceAdded int64 // minor units of the shop's currency
	Added      time.Time
}

// Review modes of an erasure (settings.Shop.ErasureReviews).
const (
	ReviewsAnonymise = "anonymise"
	ReviewsDelete    = "delete"
)

// AnonymousName replaces a reviewer's name when an erasure anonymises
// their reviews.
const AnonymousName = "Anonymous"

// Lifetimes and limits.
const (
	// ConfirmLifetime is how long a confirmation link works (WordPress:
	// a day).
	ConfirmLifetime = 24 * time.Hour
	// DownloadLifetime is how long an export's download link works, and
	// how long the export is kept.
	DownloadLifetime = 3 * 24 * time.Hour
	// CustomerLimit requests an hour per customer, AddressLimit per client
	// address.
	CustomerLimit = 3
	AddressLimit  = 10
	LimitWindow   = time.Hour
)

// Request is a privacy request as the admin lists it.
type Request struct {
	ID          int64     `json:"id"`
	Kind        string    `json:"type"`
	Email       string    `json:"email"` // "" once erased
	UserID      int64     `json:"user_id"`
	Source      string    `json:"source"`
	RequestedBy int64     `json:"requested_by"`
	Status      string    `json:"status"`
	CreatedAt   time.Time `json:"date_created"`
	// ConfirmExpires is the confirmation link's end.
	ConfirmExpires time.Time  `json:"confirm_expires"`
	ConfirmedAt    *time.Time `json:"date_confirmed"`
	CompletedAt    *time.Time `json:"date_completed"`
	// DownloadExpires is the export link's end; Downloaded: it was used.
	DownloadExpires *time.Time `json:"download_expires"`
	Downloaded      bool       `json:"downloaded"`
	// HasExport: the built export is still kept (staff can download it).
	HasExport  bool  `json:"has_export"`
	ApprovedBy int64 `json:"approved_by"`
	// Result is an erasure's counts.
	Result *Erased `json:"result"`
}

// Erased counts what an erasure did; it names no person.
type Erased struct {
	Orders          int    `json:"orders_anonymised"`
	Reviews         int    `json:"reviews"`
	ReviewsMode     string `json:"reviews_mode"`
	ContactMessages int    `json:"contact_messages_deleted"`
	AccountDeleted  bool   `json:"account_deleted"`
}

// NewRequest is what the store inserts.
type NewRequest struct {
	Kind           string
	Email          string
	UserID         int64
	Source         string
	RequestedBy    int64
	ConfirmHash    string
	ConfirmSealed  string // a set seal queues MailConfirm in the same transaction
	ConfirmExpires time.Time
	CreatedAt      time.Time
}

// Link is a stored link's row, for its mail.
type Link struct {
	RequestID int64
	Kind      string
	Email     string
	Hash      string
	Sealed    string
	ExpiresAt time.Time
	Used      bool
}

// Session is a login session as the export shows it (never its token).
type Session struct {
	CreatedAt  time.Time `json:"created"`
	LastSeenAt time.Time `json:"last_seen"`
	ExpiresAt  time.Time `json:"expires"`
}

// EraseInput is what the store's erasure needs.
type EraseInput struct {
	RequestID   int64
	Email       string
	UserID      int64 // 0: no account
	ReviewsMode string
	Orders      int // anonymised before, for the result
	ApprovedBy  int64
	Now         time.Time
}

// Store is what the privacy use cases read and write (sqlstore.DB
// implements it: privacy*.go, and the accounts', orders', reviews' and
// contact's readers it reuses).
type Store interface {
	// InsertPrivacyRequest stores r, first closing a pending request of
	// the same kind and address whose link expired; ErrPending when an
	// open one remains.
	InsertPrivacyRequest(ctx context.Context, r *NewRequest) (int64, error)
	PrivacyRequest(ctx context.Context, id int64) (*Request, error)
	// PrivacyRequests lists requests newest first (kind "" for both).
	PrivacyRequests(ctx context.Context, kind string, limit int) ([]Request, error)
	// PrivacyRequestByConfirm loads the request a confirmation link's hash
	// names, whatever its state (ErrNotFound).
	PrivacyRequestByConfirm(ctx context.Context, hash string) (*Request, error)
	// ConfirmPrivacyRequest moves the pending request whose link hashes to
	// hash, unexpired at now, to confirmed and blanks its seal;
	// ErrLinkInvalid otherwise (nothing changed). Of concurrent calls one
	// wins.
	ConfirmPrivacyRequest(ctx context.Context, hash string, now time.Time) (*Request, error)
	// CompletePrivacyExport stores the built export of a confirmed export
	// request with its download link and queues MailExportReady, in one
	// transaction; ErrNotConfirmed when it is not confirmed.
	CompletePrivacyExport(ctx context.Context, id int64, zip []byte, hash, sealed string, expires, now time.Time) error
	// ConsumePrivacyDownload marks the unused, unexpired download link
	// used and returns its export; ErrLinkInvalid otherwise.
	ConsumePrivacyDownload(ctx context.Context, hash string, now time.Time) (*Request, []byte, error)
	// PrivacyExportFile is a request's kept export (ErrNotFound).
	PrivacyExportFile(ctx context.Context, id int64) ([]byte, error)
	// PurgePrivacyExports drops the exports whose link ended before now.
	PurgePrivacyExports(ctx context.Context, now time.Time) (int64, error)
	// PrivacyLink loads a request's link of kind MailConfirm or
	// MailExportReady for its mail (ErrNotFound).
	PrivacyLink(ctx context.Context, mailKind string, id int64) (*Link, error)

	// The person's data.
	PrivacySessions(ctx context.Context, userID int64) ([]Session, error)
	PrivacyOrderIDs(ctx context.Context, email string, userID int64) ([]int64, error)
	PrivacyReviews(ctx context.Context, email string, userID int64) ([]review.Review, error)
	PrivacyContactIDs(ctx context.Context, email string, userID int64) ([]int64, error)
	// PrivacyWishlist is the account's wishlist items (price in minor
	// units); PrivacyStockAlerts the person's stock alerts.
	PrivacyWishlist(ctx context.Context, userID int64) ([]WishlistRow, error)
	PrivacyStockAlerts(ctx context.Context, email string, userID int64) ([]StockAlertData, error)
	// ErasePrivacyData erases what in.Email and in.UserID name (reviews,
	// contact messages, support messages, carts, rate-limit buckets,
	// other requests' exports, the account as DeleteUser does) and marks
	// the confirmed request completed with the counts, in one
	// transaction; ErrNotConfirmed when the request is not confirmed.
	ErasePrivacyData(ctx context.Context, in EraseInput) (Erased, error)
	// AnonymiseOrders replaces the personal fields of the orders with
	// placeholders and marks them anonymised (sqlstore/anonymise.go).
	AnonymiseOrders(ctx context.Context, ids []int64) (int, error)

	UserByID(ctx context.Context, id int64) (*account.User, error)
	UserByEmail(ctx context.Context, email string) (*account.User, error)
	Profile(ctx context.Context, userID int64) (*account.Profile, error)
	CustomerAddresses(ctx context.Context, userID int64) (*account.Addresses, error)
	Devices(ctx context.Context, userID int64, now time.Time) ([]account.Device, error)
	Order(ctx context.Context, id int64) (*checkout.Order, error)
	ContactSubmission(ctx context.Context, id int64) (*contact.Stored, error)
	HitRateLimits(ctx context.Context, hits []checkout.RateHit, window time.Duration, now time.Time) (wait time.Duration, ok bool, err error)
}

// Errors of the use cases and the store.
var (
	ErrNotFound     = errors.New("privacy: no such request")
	ErrPending      = errors.New("privacy: a request of this type is already open for this email address")
	ErrLinkInvalid  = errors.New("privacy: this link was already used or has expired")
	ErrNotConfirmed = errors.New("privacy: the person has not confirmed this request yet, or it is already done")
	ErrWrongKind    = errors.New("privacy: this request is not of that type")
	ErrInvalidEmail = errors.New("privacy: enter a valid email address")
	ErrInvalidKind  = errors.New("privacy: the type must be export or erase")
	ErrNoExport     = errors.New("privacy: this request has no export (not built yet, or expired)")
)

// LimitedError refuses a request over the rate limit.
type LimitedError struct{ RetryAfter time.Duration }

func (e *LimitedError) Error() string {
	return "privacy: too many requests, try again in " + e.RetryAfter.Round(time.Second).String()
}
