package alerts

import (
	"cmp"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"log/slog"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/checkout"
	"vitrine/internal/clock"
)

// Store is what the use cases read and write (sqlstore.DB implements it).
type Store interface {
	// AlertItem loads an item (ErrUnknownItem when there is none).
	AlertItem(ctx context.Context, id int64) (*Item, error)
	// InsertStockAlert records a, queueing its confirmation mail (kind
	// MailConfirm) in the same transaction when it is pending. When an open
	// alert (pending, unexpired; or waiting) for the item and address
	// exists, it records nothing and returns that alert's id and false. An
	// expired pending one is replaced.
	InsertStockAlert(ctx context.Context, a *NewAlert) (id int64, created bool, err error)
	// StockAlert loads one alert (ErrNotFound).
	StockAlert(ctx context.Context, id int64) (*Alert, error)
	// StockAlertByConfirm loads the alert whose confirmation hash is hash
	// (ErrNotFound).
	StockAlertByConfirm(ctx context.Context, hash string) (*Alert, error)
	// ConfirmStockAlert moves the pending alert with hash, unexpired at now,
	// to waiting and blanks its link; false when none did.
	ConfirmStockAlert(ctx context.Context, hash string, now time.Time) (*Alert, bool, error)
	// UnsubscribeStockAlert turns off alert id and every open alert of its
	// address; false when the alert does not exist.
	UnsubscribeStockAlert(ctx context.Context, id int64, now time.Time) (bool, error)
	// ClaimRestocks leases up to limit queued restocks to this caller until
	// now+lease and returns their (restock id, item id).
	ClaimRestocks(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]Restock, error)
	// QueueRestockMails marks up to limit waiting alerts of item sent and
	// queues their mails, in one transaction; it returns how many.
	QueueRestockMails(ctx context.Context, item int64, now time.Time, limit int) (int, error)
	// QueueWishlistRestockMails queues, once per restock, the mail of every
	// opted-in customer whose wishlist holds item; it returns how many.
	QueueWishlistRestockMails(ctx context.Context, restockID, item int64, now time.Time) (int, error)
	// DoneRestock deletes restock id.
	DoneRestock(ctx context.Context, id int64) error
	// AlertPrefs and SetAlertPrefs read and write a customer's choices.
	AlertPrefs(ctx context.Context, userID int64) (Prefs, error)
	SetAlertPrefs(ctx context.Context, userID int64, p Prefs) error
	// AlertCounts counts the alerts of the items of product (the product and
	// its variations); AlertTotals the most-waited items (limit).
	AlertCounts(ctx context.Context, productID int64) ([]Counts, error)
	AlertTotals(ctx context.Context, limit int) ([]Counts, error)
	// DrainPriceChecks marks due (since now) the opted-in customers whose
	// wishlist holds an item whose price fell, and empties the queue; it
	// returns how many customers became due.
	DrainPriceChecks(ctx context.Context, now time.Time) (int, error)
	// DuePriceDrops lists up to limit due customers without a digest on day.
	DuePriceDrops(ctx context.Context, day string, limit int) ([]int64, error)
	// DropCandidates lists the customer's wishlisted items with a price
	// now and their reference prices.
	DropCandidates(ctx context.Context, userID int64) ([]DropCandidate, error)
	// RecordPriceDigest records the day's digest of drops for the customer
	// and queues its mail, once a day (false when one was recorded), and
	// clears the customer's due mark; with no drops it only clears it.
	RecordPriceDigest(ctx context.Context, userID int64, day string, drops []Drop, now time.Time) (bool, error)
	// PriceDigest loads a recorded digest (ErrNotFound).
	PriceDigest(ctx context.Context, userID int64, day string) ([]Drop, error)
	// AlertUser is a customer's address (ErrNotFound).
	AlertUser(ctx context.Context, userID int64) (email string, err error)
}

// Restock is an item queued as back in stock.
type Restock struct {
	ID     int64
	ItemID int64
}

// Verifier is the bot-check (botcheck.Service).
type Verifier interface {
	Verify(ctx context.Context, payload string) error
}

// Service is the alerts' use cases.
type Service struct {
	Store Store
	// Bots checks a guest's form (nil: no check, for tools).
	Bots Verifier
	// Sealer seals the confirmation links' tokens for their mails.
	Sealer *account.Sealer
	// Secret is the shop's secret: the unsubscribe links' key derives from it.
	Secret []byte
	// ThresholdBP reads the shop's price-drop threshold in basis points
	// (nil or <= 0: DefaultThresholdBP).
	ThresholdBP func() int
	// SiteName names the shop in the mails.
	SiteName func() string
	Now      func() time.Time
	Log      *slog.Logger
}

func (s *Service) now() time.Time { return clock.UTC(s.Now).Truncate(time.Second) }

func (s *Service) log() *slog.Logger { return cmp.Or(s.Log, slog.New(slog.DiscardHandler)) }

// unsubKey is the unsubscribe links' key, derived from the shop's secret.
func (s *Service) unsubKey() []byte {
	m := hmac.New(sha256.New, s.Secret)
	m.Write([]byte("vitrine alerts unsubscribe key"))
	return m.Sum(nil)
}

// UnsubscribeToken is the unsubscribe token of alert id ('a') or of a
// customer's wishlist mails ('c').
func (s *Service) UnsubscribeToken(kind byte, id int64) string {
	return UnsubToken(s.unsubKey(), kind, id)
}

func (s *Service) threshold() int {
	if s.ThresholdBP != nil {
		if t := s.ThresholdBP(); t > 0 && t < 10000 {
			return t
		}
	}
	return DefaultThresholdBP
}

// SubscribeInput is a "Notify me when available" form.
type SubscribeInput struct {
	ItemID int64
	// Email is the guest's address (ignored for a customer).
	Email string
	// User is the logged-in customer; nil for a guest.
	User *account.User
	// Botcheck is the guest's bot-check payload.
	Botcheck string
}

// Subscribed is the outcome of a subscription.
type Subscribed struct {
	AlertID int64
	// Status is StatusPending (a guest: check your mail) or StatusWaiting.
	Status string
	// Already is true when the address was already waiting for the item.
	Already bool
	// Token is the confirmation link's token of a new pending alert (tests
	// and tools; the mail carries it).
	Token string
}

func newToken() (token, hash string) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	token = base64.RawURLEncoding.EncodeToString(b[:])
	return token, account.HashToken(token)
}

// Subscribe records an alert for an out-of-stock item. Errors: ErrUnknownItem
// (no such published item), ErrChooseOption (a variable product: the alert
// is for one variation), ErrInStock, ErrInvalidEmail, a bot-check refusal.
// Nothing is recorded on an error.
func (s *Service) Subscribe(ctx context.Context, in SubscribeInput) (*Subscribed, error) {
	if in.ItemID <= 0 {
		return nil, ErrUnknownItem
	}
	var email string
	var userID int64
	if in.User != nil {
		email, userID = account.NormalizeEmail(in.User.Email), in.User.ID
	} else {
		email = account.NormalizeEmail(in.Email)
	}
	if !checkout.ValidEmail(email) || len(email) > 254 {
		return nil, ErrInvalidEmail
	}
	it, err := s.Store.AlertItem(ctx, in.ItemID)
	if err != nil {
		return nil, err
	}
	if it.Status != "publish" {
		return nil, ErrUnknownItem
	}
	if it.Type == "variable" {
		return nil, ErrChooseOption
	}
	if it.InStock {
		return nil, ErrInStock
	}
	if in.User == nil && s.Bots != nil {
		if err := s.Bots.Verify(ctx, in.Botcheck); err != nil {
			return nil, err
		}
	}
	now := s.now()
	na := &NewAlert{ProductID: it.ID, Email: email, UserID: userID, Status: StatusWaiting, CreatedAt: now}
	var token string
	if in.User == nil {
		var hash string
		token, hash = newToken()
		na.Status, na.ConfirmHash, na.ConfirmExpires = StatusPending, hash, now.Add(ConfirmLifetime)
		if s.Sealer != nil {
			na.ConfirmSealed = s.Sealer.SealToken(token, hash)
		}
	}
	id, created, err := s.Store.InsertStockAlert(ctx, na)
	if err != nil {
		return nil, err
	}
	if !created {
		a, err := s.Store.StockAlert(ctx, id)
		if err != nil {
			return nil, err
		}
		return &Subscribed{AlertID: id, Status: a.Status, Already: true}, nil
	}
	return &Subscribed{AlertID: id, Status: na.Status, Token: token}, nil
}

// PendingConfirm is the alert a confirmation link would confirm, without
// confirming it; ErrLinkInvalid when unknown, used or expired.
func (s *Service) PendingConfirm(ctx context.Context, token string) (*Alert, *Item, error) {
	if token == "" || len(token) > 100 {
		return nil, nil, ErrLinkInvalid
	}
	a, err := s.Store.StockAlertByConfirm(ctx, account.HashToken(token))
	if errors.Is(err, ErrNotFound) {
		return nil, nil, ErrLinkInvalid
	}
	if err != nil {
		return nil, nil, err
	}
	if a.Status != StatusPending || !s.now().Before(a.ConfirmExpires) {
		return nil, nil, ErrLinkInvalid
	}
	it, err := s.Store.AlertItem(ctx, a.ProductID)
	if err != nil {
		return nil, nil, err
	}
	return a, it, nil
}

// Confirm confirms a guest's alert from its link, once, before it expires.
func (s *Service) Confirm(ctx context.Context, token string) (*Alert, error) {
	if token == "" || len(token) > 100 {
		return nil, ErrLinkInvalid
	}
	a, ok, err := s.Store.ConfirmStockAlert(ctx, account.HashToken(token), s.now())
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrLinkInvalid
	}
	return a, nil
}

// Unsubscribe applies an unsubscribe token: an alert's turns off the alert
// and every open alert of its address; a customer's turns off their
// wishlist mails. ErrLinkInvalid for a token that does not check.
func (s *Service) Unsubscribe(ctx context.Context, token string) error {
	kind, id, ok := parseUnsub(s.unsubKey(), token)
	if !ok {
		return ErrLinkInvalid
	}
	if kind == 'c' {
		return s.Store.SetAlertPrefs(ctx, id, Prefs{})
	}
	found, err := s.Store.UnsubscribeStockAlert(ctx, id, s.now())
	if err != nil {
		return err
	}
	if !found {
		return ErrLinkInvalid
	}
	return nil
}

// CheckUnsubscribe reports whether an unsubscribe token checks (the GET
// page shows its button only then).
func (s *Service) CheckUnsubscribe(token string) bool {
	_, _, ok := parseUnsub(s.unsubKey(), token)
	return ok
}

// Prefs reads a customer's choices; SetPrefs writes them.
func (s *Service) Prefs(ctx context.Context, userID int64) (Prefs, error) {
	return s.Store.AlertPrefs(ctx, userID)
}

// SetPrefs writes a customer's choices.
func (s *Service) SetPrefs(ctx context.Context, userID int64, p Prefs) error {
	if userID <= 0 {
		return ErrNotFound
	}
	return s.Store.SetAlertPrefs(ctx, userID, p)
}

// Counts are the alerts of a product's items (the admin's product screen).
func (s *Service) Counts(ctx context.Context, productID int64) ([]Counts, error) {
	return s.Store.AlertCounts(ctx, productID)
}

// Totals are the most-waited items (the admin's alerts screen).
func (s *Service) Totals(ctx context.Context, limit int) ([]Counts, error) {
	return s.Store.AlertTotals(ctx, min(max(limit, 1), 200))
}

// RestockResult counts what one RunRestocks did.
type RestockResult struct {
	Restocks int // restocks handled
	Alerts   int // alert mails queued
	Wishlist int // wishlist mails queued
}

// RunRestocks drains the restock queue: for each restock it claims, it marks
// the item's waiting alerts sent and queues their mails in batches of
// Batch, then the opted-in wishlist owners' mails, then deletes the
// restock. An item out of stock again by then is skipped. Safe on several
// instances at once: a restock is leased to one, and each batch is a
// conditional update.
func (s *Service) RunRestocks(ctx context.Context) (RestockResult, error) {
	var r RestockResult
	for ctx.Err() == nil {
		rs, err := s.Store.ClaimRestocks(ctx, s.now(), RestockLease, 20)
		if err != nil || len(rs) == 0 {
			return r, err
		}
		for _, rs := range rs {
			if err := s.restock(ctx, rs, &r); err != nil {
				return r, err
			}
		}
	}
	return r, ctx.Err()
}

func (s *Service) restock(ctx context.Context, rs Restock, r *RestockResult) error {
	it, err := s.Store.AlertItem(ctx, rs.ItemID)
	if errors.Is(err, ErrUnknownItem) || (err == nil && (!it.InStock || it.Status != "publish")) {
		return s.Store.DoneRestock(ctx, rs.ID)
	}
	if err != nil {
		return err
	}
	for ctx.Err() == nil {
		n, err := s.Store.QueueRestockMails(ctx, rs.ItemID, s.now(), Batch)
		if err != nil {
			return err
		}
		r.Alerts += n
		if n < Batch {
			break
		}
	}
	n, err := s.Store.QueueWishlistRestockMails(ctx, rs.ID, rs.ItemID, s.now())
	if err != nil {
		return err
	}
	r.Wishlist += n
	r.Restocks++
	return s.Store.DoneRestock(ctx, rs.ID)
}

// PriceResult counts what one RunPriceDrops did.
type PriceResult struct {
	Due     int // customers marked due
	Digests int // digests queued
}

// Day is the UTC calendar day of t, the unit of "one digest a day".
func Day(t time.Time) string { return t.UTC().Format("2006-01-02") }

// RunPriceDrops marks due the customers whose wishlisted items' prices
// fell, then, for each due customer with no digest today, compares every
// wishlisted item's price now with its reference (the price when added, or
// the last price mailed about) and queues one digest listing every drop of
// at least the threshold. A customer already mailed today stays due until
// tomorrow.
func (s *Service) RunPriceDrops(ctx context.Context) (PriceResult, error) {
	var r PriceResult
	now := s.now()
	n, err := s.Store.DrainPriceChecks(ctx, now)
	if err != nil {
		return r, err
	}
	r.Due = n
	day := Day(now)
	th := s.threshold()
	for ctx.Err() == nil {
		users, err := s.Store.DuePriceDrops(ctx, day, 100)
		if err != nil || len(users) == 0 {
			return r, err
		}
		for _, u := range users {
			cands, err := s.Store.DropCandidates(ctx, u)
			if err != nil {
				return r, err
			}
			var drops []Drop
			for _, c := range cands {
				if IsDrop(c.Reference, c.Price, th) {
					drops = append(drops, Drop{ProductID: c.ProductID, Name: c.Name, Slug: c.Slug, From: c.Reference, To: c.Price})
				}
			}
			queued, err := s.Store.RecordPriceDigest(ctx, u, day, drops, now)
			if err != nil {
				return r, err
			}
			if queued {
				r.Digests++
			}
		}
		if len(users) < 100 {
			return r, nil
		}
	}
	return r, ctx.Err()
}
