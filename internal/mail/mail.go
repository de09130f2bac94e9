// Package mail renders and sends the shop's emails through an outbox.
//
// A message is first recorded as an outbox row (kind and ref, written in the
// transaction of the change it reports; see sqlstore.EnqueueMailTx). The
// Outbox worker claims due rows, asks the caller's Renderer for the message
// (rendered from the data as it is when sending), hands it to a Sender (SMTP)
// and marks the row sent; a failed send is retried with exponential backoff
// until a limit of attempts, so an SMTP server that is down loses nothing.
package mail

import (
	"context"
	"errors"
	"time"
)

// Message kinds recorded in the outbox.
const (
	// KindOrderConfirmation is the order confirmation sent to the shopper;
	// ref is the order id.
	KindOrderConfirmation = "order_confirmation"
	// KindNewOrder is the new-order notice sent to the shop; ref is the
	// order id.
	KindNewOrder = "new_order"
	// KindCustomerNote is a note staff added to an order for its
	// customer; ref is the note id.
	KindCustomerNote = "customer_note"
	// KindOrderCompleted tells the shopper their order is complete;
	// KindOrderRefunded that it was refunded (wholly or in part). ref is
	// the order id.
	KindOrderCompleted = "order_completed"
	KindOrderRefunded  = "order_refunded"
	// KindAccountCodeReused tells an account's owner that a two-factor
	// code already used was tried again; ref is "<user id>.<unix time>".
	KindAccountCodeReused = "account_code_reused"
)

// Message is one email, ready to send. Text is always sent (as the plain
// alternative); HTML, when set, is the preferred alternative. An empty From
// takes the Sender's configured address.
type Message struct {
	To      []string
	From    string
	ReplyTo string
	Subject string
	Text    string
	HTML    string
	// MessageID, when set, is the Message-ID header (with or without angle
	// brackets). The outbox sets a stable one per row, so a retry after an
	// ambiguous failure carries the same id and receivers can drop the copy.
	MessageID string
	// ListUnsubscribe, when set, are the message's unsubscribe links (an
	// https URL taking a one-click POST, and optionally a mailto: URL),
	// sent as the List-Unsubscribe header; an https link adds
	// List-Unsubscribe-Post: List-Unsubscribe=One-Click (RFC 8058).
	ListUnsubscribe []string
	// Attachments are sent as MIME attachments (base64, Content-Disposition
	// attachment) after the text and HTML parts.
	Attachments []Attachment
}

// Attachment is one file sent with a message. Name is cleaned before it is
// written (AttachmentName); a ContentType that does not parse as a media
// type is sent as application/octet-stream.
type Attachment struct {
	Name        string
	ContentType string
	Data        []byte
}

// Sender delivers a message. An error wrapping ErrPermanent means retrying
// cannot help (an invalid address, say); any other error is retried.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// Renderer turns an outbox row (its kind and ref) into a message. It
// returns an error wrapping ErrPermanent when the message can never be
// rendered (the order was deleted, the kind is unknown): the row is then
// given up at once instead of being retried.
type Renderer func(ctx context.Context, kind, ref string) (Message, error)

// ErrPermanent marks an error that retrying cannot fix.
var ErrPermanent = errors.New("permanent mail error")

// Permanent wraps err so that errors.Is(err, ErrPermanent) holds.
func Permanent(err error) error {
	if err == nil || errors.Is(err, ErrPermanent) {
		return err
	}
	return permanentError{err}
}

type permanentError struct{ err error }

func (e permanentError) Error() string   { return e.err.Error() }
func (e permanentError) Unwrap() []error { return []error{e.err, ErrPermanent} }

// Queued is one outbox row. Times are UTC with second precision; a zero
// SentAt or FailedAt means not sent or not given up.
type Queued struct {
	ID            int64
	DedupeKey     string
	Kind          string
	Ref           string
	CreatedAt     time.Time
	NextAttemptAt time.Time
	// Attempts counts the sends started, including the one under way for a
	// claimed row.
	Attempts  int
	SentAt    time.Time
	FailedAt  time.Time
	LastError string
}

// State of an outbox row, for listing.
const (
	StateQueued = "queued" // waiting for its next attempt (or being sent)
	StateSent   = "sent"
	StateFailed = "failed" // retries given up
)

// Counts is the number of outbox rows per state.
type Counts struct {
	Queued, Sent, Failed int
}

// Store is the outbox storage the worker needs (sqlstore.DB implements it on
// SQLite and PostgreSQL). Claims are safe across server instances: a row
// is claimed by one worker at a time.
type Store interface {
	// ClaimMail claims up to limit rows due at now (not sent, not given up,
	// next attempt not after now), oldest due first: each claimed row's
	// attempts grow by one and its next attempt moves to now+lease, so no
	// other worker takes it while it is being sent. A row whose worker dies
	// is taken again when the lease runs out.
	ClaimMail(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]Queued, error)
	// MarkMailSent records that row id was delivered.
	MarkMailSent(ctx context.Context, id int64, now time.Time) error
	// RetryMail records a failed attempt of the claim (id, attempts) and
	// when to try again. A claim that is no longer current (the row was
	// sent, or claimed again after its lease ran out) is left alone.
	RetryMail(ctx context.Context, id int64, attempts int, next time.Time, errText string) error
	// GiveUpMail records a failed attempt of the claim (id, attempts) and
	// stops retrying the row (failed_at).
	GiveUpMail(ctx context.Context, id int64, attempts int, now time.Time, errText string) error
}

// ErrNotFound is what an OrderLoader returns (wrapped) for an order that
// does not exist; OrderRenderer makes it permanent.
var ErrNotFound = errors.New("not found")
