package privacy

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"log/slog"
	"strconv"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/checkout"
	"vitrine/internal/clock"
)

// Service is the privacy requests' use cases.
type Service struct {
	Store Store
	// Sealer seals the links' tokens for their mails; nil queues no mail
	// (tools and tests that read the returned tokens).
	Sealer *account.Sealer
	// ReviewsMode reads the shop's choice for reviews on erasure
	// (ReviewsAnonymise or ReviewsDelete); nil or "" anonymises.
	ReviewsMode func(ctx context.Context) string
	// SiteName names the shop in the export.
	SiteName func() string
	// Currency is the shop's currency code, in which wishlist prices were
	// kept ("" shows them in minor units).
	Currency string
	Now      func() time.Time
	Log      *slog.Logger
}

func (s *Service) now() time.Time { return clock.UTC(s.Now).Truncate(time.Second) }

func (s *Service) log() *slog.Logger { return cmp.Or(s.Log, slog.New(slog.DiscardHandler)) }

// newToken is a random 32-byte token, URL-safe base64, and its hash.
func newToken() (token, hash string) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	token = base64.RawURLEncoding.EncodeToString(b[:])
	return token, account.HashToken(token)
}

// ValidKind reports whether k is a request kind.
func ValidKind(k string) bool { return k == KindExport || k == KindErase }

// RequestForCustomer starts a request of kind for the logged-in customer u
// (their account's address), from clientIP. More than CustomerLimit an
// hour per customer, or AddressLimit per address, is a *LimitedError.
// token is the confirmation link's (mailed when the Service has a Sealer).
func (s *Service) RequestForCustomer(ctx context.Context, u *account.User, kind, clientIP string) (r *Request, token string, err error) {
	if !ValidKind(kind) {
		return nil, "", ErrInvalidKind
	}
	hits := []checkout.RateHit{{Key: "privacy:u:" + strconv.FormatInt(u.ID, 10), Limit: CustomerLimit}}
	if a := checkout.AddressKey(clientIP); a != "" {
		hits = append(hits, checkout.RateHit{Key: "privacy:a:" + a, Limit: AddressLimit})
	}
	wait, ok, err := s.Store.HitRateLimits(ctx, hits, LimitWindow, s.now())
	if err != nil {
		return nil, "", err
	}
	if !ok {
		return nil, "", &LimitedError{RetryAfter: wait}
	}
	return s.create(ctx, kind, u.Email, u.ID, SourceCustomer, u.ID)
}

// RequestForEmail starts a request of kind for any address, made by
// staff: the person still confirms it by mail.
func (s *Service) RequestForEmail(ctx context.Context, staffID int64, kind, email string) (r *Request, token string, err error) {
	if !ValidKind(kind) {
		return nil, "", ErrInvalidKind
	}
	email = account.NormalizeEmail(email)
	if !checkout.ValidEmail(email) || len(email) > 254 {
		return nil, "", ErrInvalidEmail
	}
	var userID int64
	u, err := s.Store.UserByEmail(ctx, email)
	switch {
	case err == nil:
		userID = u.ID
	case !errors.Is(err, account.ErrNoUser):
		return nil, "", err
	}
	return s.create(ctx, kind, email, userID, SourceStaff, staffID)
}

func (s *Service) create(ctx context.Context, kind, email string, userID int64, source string, by int64) (*Request, string, error) {
	now := s.now()
	token, hash := newToken()
	nr := &NewRequest{Kind: kind, Email: email, UserID: userID, Source: source, RequestedBy: by,
		ConfirmHash: hash, ConfirmExpires: now.Add(ConfirmLifetime), CreatedAt: now}
	if s.Sealer != nil {
		nr.ConfirmSealed = s.Sealer.SealToken(token, hash)
	}
	id, err := s.Store.InsertPrivacyRequest(ctx, nr)
	if err != nil {
		return nil, "", err
	}
	r, err := s.Store.PrivacyRequest(ctx, id)
	return r, token, err
}

// PendingConfirm is the request a confirmation link would confirm, without
// confirming it (the page the link opens says what it is for):
// ErrLinkInvalid when the link is unknown, used or expired.
func (s *Service) PendingConfirm(ctx context.Context, token string) (*Request, error) {
	if token == "" || len(token) > 100 {
		return nil, ErrLinkInvalid
	}
	r, err := s.Store.PrivacyRequestByConfirm(ctx, account.HashToken(token))
	if errors.Is(err, ErrNotFound) {
		return nil, ErrLinkInvalid
	}
	if err != nil {
		return nil, err
	}
	if r.Status != StatusPending || !s.now().Before(r.ConfirmExpires) {
		return nil, ErrLinkInvalid
	}
	return r, nil
}

// Confirm consumes a confirmation link: an erasure then waits for staff,
// an export is built at once and its download link mailed. A used,
// expired or unknown link is ErrLinkInvalid and changes nothing.
// downloadToken is the export's link ("" for an erasure).
func (s *Service) Confirm(ctx context.Context, token string) (r *Request, downloadToken string, err error) {
	if token == "" || len(token) > 100 {
		return nil, "", ErrLinkInvalid
	}
	r, err = s.Store.ConfirmPrivacyRequest(ctx, account.HashToken(token), s.now())
	if err != nil {
		return nil, "", err
	}
	if r.Kind != KindExport {
		return r, "", nil
	}
	downloadToken, err = s.buildExport(ctx, r)
	if err != nil {
		// The request stays confirmed: staff can build it from the admin.
		s.log().Error("privacy: export not built", "request", r.ID, "err", err)
		return r, "", err
	}
	r, err = s.Store.PrivacyRequest(ctx, r.ID)
	return r, downloadToken, err
}

func (s *Service) buildExport(ctx context.Context, r *Request) (string, error) {
	e, err := s.Export(ctx, r.Email, r.UserID)
	if err != nil {
		return "", err
	}
	e.RequestID = r.ID
	zip, err := e.Zip()
	if err != nil {
		return "", err
	}
	now := s.now()
	token, hash := newToken()
	sealed := ""
	if s.Sealer != nil {
		sealed = s.Sealer.SealToken(token, hash)
	}
	if err := s.Store.CompletePrivacyExport(ctx, r.ID, zip, hash, sealed, now.Add(DownloadLifetime), now); err != nil {
		return "", err
	}
	return token, nil
}

// Download consumes an export's one-time link and returns the zip; a
// second use, an expired or unknown link is ErrLinkInvalid.
func (s *Service) Download(ctx context.Context, token string) (*Request, []byte, error) {
	if token == "" || len(token) > 100 {
		return nil, nil, ErrLinkInvalid
	}
	return s.Store.ConsumePrivacyDownload(ctx, account.HashToken(token), s.now())
}

// ExportFile is a request's kept export, for staff (not one-time).
func (s *Service) ExportFile(ctx context.Context, id int64) (*Request, []byte, error) {
	r, err := s.Store.PrivacyRequest(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	if r.Kind != KindExport {
		return nil, nil, ErrWrongKind
	}
	b, err := s.Store.PrivacyExportFile(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return nil, nil, ErrNoExport
	}
	return r, b, err
}

// Get is one request.
func (s *Service) Get(ctx context.Context, id int64) (*Request, error) {
	return s.Store.PrivacyRequest(ctx, id)
}

// List is the newest requests of kind ("" for both), at most 100.
func (s *Service) List(ctx context.Context, kind string) ([]Request, error) {
	if kind != "" && !ValidKind(kind) {
		return nil, ErrInvalidKind
	}
	return s.Store.PrivacyRequests(ctx, kind, 100)
}

// Approve completes a confirmed request for staffID: an erasure erases
// (Erase); an export whose build failed at confirmation is built again.
// A request not confirmed is ErrNotConfirmed.
func (s *Service) Approve(ctx context.Context, id, staffID int64) (*Request, error) {
	r, err := s.Store.PrivacyRequest(ctx, id)
	if err != nil {
		return nil, err
	}
	if r.Status != StatusConfirmed {
		return nil, ErrNotConfirmed
	}
	if r.Kind == KindExport {
		if _, err := s.buildExport(ctx, r); err != nil {
			return nil, err
		}
	} else if _, err := s.erase(ctx, r, staffID); err != nil {
		return nil, err
	}
	return s.Store.PrivacyRequest(ctx, id)
}

// erase anonymises the person's orders, then erases the rest and
// completes the request in one transaction. The orders go first, in their
// own transaction: if the second step fails the request stays confirmed
// and approving it again anonymises nothing twice.
func (s *Service) erase(ctx context.Context, r *Request, staffID int64) (Erased, error) {
	ids, err := s.Store.PrivacyOrderIDs(ctx, r.Email, r.UserID)
	if err != nil {
		return Erased{}, err
	}
	n := 0
	if len(ids) > 0 {
		if n, err = s.Store.AnonymiseOrders(ctx, ids); err != nil {
			return Erased{}, err
		}
	}
	mode := ReviewsAnonymise
	if s.ReviewsMode != nil && s.ReviewsMode(ctx) == ReviewsDelete {
		mode = ReviewsDelete
	}
	return s.Store.ErasePrivacyData(ctx, EraseInput{RequestID: r.ID, Email: r.Email, UserID: r.UserID,
		ReviewsMode: mode, Orders: n, ApprovedBy: staffID, Now: s.now()})
}

// PurgeExports drops the exports whose download link expired (the
// requests stay, without the file).
func (s *Service) PurgeExports(ctx context.Context) (int64, error) {
	return s.Store.PurgePrivacyExports(ctx, s.now())
}
