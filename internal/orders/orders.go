// Package orders is the shop's back office for placed orders (the
// admin's "Orders"): finding them (status, search, paging), an order with its
// notes, refunds and mail log, status changes with the stock put back
// where WooCommerce puts it back, notes (private, or to the customer, who
// is mailed them), refunds (through the payment provider for the wallet,
// recorded as manual for offline methods) and resending order mails.
//
// Placing and paying orders stay with checkout and the wallet; this
// package only works on orders once they exist. It persists through Store
// (implemented by sqlstore.DB) and refunds through a Refunder per payment
// method (the wallet's, on PayPal's refund API).
package orders

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"vitrine/internal/checkout"
	"vitrine/internal/clock"
	"vitrine/internal/money"
)

// Query is a page of the order list.
type Query struct {
	// Statuses filters by status; empty lists every status but
	// checkout-draft (WooCommerce hides drafts too).
	Statuses []string
	// Search matches the order number, the billing name or email
	// (case-insensitive, part of a word).
	Search string
	// Offset and Limit page the list, newest first.
	Offset int
	Limit  int
}

// Note is a note on an order.
type Note struct {
	ID      int64  `json:"id"`
	OrderID int64  `json:"order_id"`
	Note    string `json:"note"`
	// Customer notes are shown to and mailed to the customer.
	Customer bool      `json:"customer_note"`
	AddedBy  int64     `json:"added_by_user"` // the staff account; 0 for the shop's own notes
	Author   string    `json:"author"`
	Created  time.Time `json:"date_created"`
}

// Refund states.
const (
	RefundPending   = "pending"
	RefundCompleted = "completed"
	RefundFailed    = "failed"
)

// MethodManual is a refund recorded without a provider (the money goes
// back another way: a bank transfer, cash).
const MethodManual = "manual"

// RefundLine is what a refund gives back of one order line.
type RefundLine struct {
	// Line is the line's position in the order (0 up).
	Line     int   `json:"line"`
	Quantity int64 `json:"quantity"`
	Total    int64 `json:"total"`
}

// Refund is a refund of an order.
type Refund struct {
	ID                int64        `json:"id"`
	OrderID           int64        `json:"order_id"`
	Amount            int64        `json:"amount"`
	Reason            string       `json:"reason"`
	Method            string       `json:"method"`
	Status            string       `json:"status"`
	ProviderRefundID  string       `json:"provider_refund_id"`
	ProviderRequestID string       `json:"-"`
	Lines             []RefundLine `json:"line_items"`
	Restock           bool         `json:"restock_items"`
	RefundedBy        int64        `json:"refunded_by"`
	Author            string       `json:"author"`
	Error             string       `json:"error,omitempty"`
	Created           time.Time    `json:"date_created"`
	Completed         *time.Time   `json:"date_completed"`
	// Replayed is true when a request with the same idempotency key was
	// answered with this refund, not a new one.
	Replayed bool `json:"-"`
}

// MailEntry is one message of an order's mail log (a mail outbox row).
type MailEntry struct {
	ID        int64      `json:"id"`
	Kind      string     `json:"kind"`
	Created   time.Time  `json:"date_created"`
	Sent      *time.Time `json:"date_sent"`
	Failed    *time.Time `json:"date_failed"`
	Attempts  int        `json:"attempts"`
	LastError string     `json:"last_error"`
}

// Detail is an order as the admin shows it.
type Detail struct {
	*checkout.Order
	Notes   []Note
	Refunds []Refund
	Mails   []MailEntry
	// Refunded is what completed refunds gave back; Reserved adds the
	// pending ones: what is left to refund is Total - Reserved.
	Refunded int64
	Reserved int64
	// LineRefunds are the units and amounts refunded per line position
	// (pending and completed refunds).
	LineRefunds map[int]RefundLine
	// Restocked is the units put back per line position.
	Restocked map[int]int64
	// Money is how the shop writes the order's currency.
	Money money.Currency
}

// Left is what may still be refunded.
func (d *Detail) Left() int64 { return max(d.Total-d.Reserved, 0) }

// Staff names who does a change (its notes, the refund's author).
type Staff struct {
	ID   int64
	Name string
}

// StatusChange is a status move the store makes in one transaction.
type StatusChange struct {
	OrderID int64
	From    string // the status it must still have (compare-and-set)
	To      string
	// MarkPaid records the payment (paid time) when the order has none:
	// staff moving an offline order to processing or completed.
	MarkPaid bool
	// Restock puts back every unit not put back yet (cancelled).
	Restock bool
	// Note is the order note recording the change.
	Note string
	Now  time.Time
}

// NewRefund is a refund for the store to record (pending, or completed at
// once when Method is manual).
type NewRefund struct {
	OrderID     int64
	Key         string // the idempotency key
	RequestHash string
	Amount      int64
	Reason      string
	Method      string
	Lines       []RefundLine
	Restock     bool
	By          Staff
	// Note is the order note recorded when the refund completes.
	Note string
	Now  time.Time
}

// MailKinds an admin may send again, and the one a customer note is.
const (
	MailOrderConfirmation = "order_confirmation"
	MailNewOrder          = "new_order"
	MailCustomerNote      = "customer_note"
	MailOrderCompleted    = "order_completed"
	MailOrderRefunded     = "order_refunded"
)

// OrderMailKinds are the mails about an order whose ref is the order id
// (the mail log lists them; customer notes' mails are found by note).
var OrderMailKinds = []string{MailOrderConfirmation, MailNewOrder, MailOrderCompleted, MailOrderRefunded}

// Resendable are the mail kinds ResendMail takes.
var Resendable = []string{MailOrderConfirmation, MailNewOrder}

// Store is what the order use cases read and write (sqlstore.DB).
type Store interface {
	// ListOrders answers a page of orders (lines and meta loaded) and how
	// many match.
	ListOrders(ctx context.Context, q Query) ([]*checkout.Order, int, error)
	// OrderStatusCounts counts orders by status (drafts left out).
	OrderStatusCounts(ctx context.Context) (map[string]int, error)
	// Order is checkout.ErrOrderNotFound for an unknown id.
	Order(ctx context.Context, id int64) (*checkout.Order, error)
	OrderNotes(ctx context.Context, orderID int64) ([]Note, error)
	// OrderNote is one note; checkout.ErrOrderNotFound for an unknown id.
	OrderNote(ctx context.Context, id int64) (Note, error)
	OrderRefunds(ctx context.Context, orderID int64) ([]Refund, error)
	OrderMails(ctx context.Context, orderID int64) ([]MailEntry, error)
	OrderRestocked(ctx context.Context, orderID int64) (map[int]int64, error)
	// AddOrderNote records a note; a customer note queues its mail in the
	// same transaction.
	AddOrderNote(ctx context.Context, n Note) (Note, error)
	// ChangeOrderStatus moves the order as StatusChange says, or answers
	// ErrStale when its status is no longer From; a move to completed
	// queues the completed-order mail in the same transaction.
	ChangeOrderStatus(ctx context.Context, c StatusChange) error
	// DeleteOrder deletes the order for good and queues order.deleted in
	// the same transaction; a pending order gives back its stock and
	// coupon uses first.
	DeleteOrder(ctx context.Context, id int64, now time.Time) error
	// BeginRefund records a refund under the order's lock: ErrRefundTooMuch
	// when Amount is more than what is left, ErrKeyReused when the key was
	// used for another request, the earlier refund (Replayed) when it was
	// used for this one. A manual refund is completed in the same
	// transaction (CompleteRefund's effects).
	BeginRefund(ctx context.Context, r NewRefund) (Refund, error)
	// CompleteRefund records the provider's refund id, puts back the
	// restocked units, notes it, queues the refund mail and moves a fully
	// refunded order to refunded, once: a refund no longer pending is
	// answered as it is.
	CompleteRefund(ctx context.Context, refundID int64, providerRefundID, note string, now time.Time) (Refund, error)
	// FailRefund gives a pending refund up (its amount is free again).
	FailRefund(ctx context.Context, refundID int64, why string, now time.Time) (Refund, error)
	// QueueOrderMail queues one more message of kind for the order.
	QueueOrderMail(ctx context.Context, orderID int64, kind string, now time.Time) error
}

// Refunder gives money back through a payment provider (the wallet).
type Refunder interface {
	// Refund refunds amount (the order's currency and minor units) of the
	// order's payment. requestID is the stored idempotency key every
	// attempt of this refund sends, so a retry never refunds twice. It
	// answers the provider's refund id; a *ProviderError when the
	// provider refused (final), any other error when the outcome is
	// unknown (retry with the same key).
	Refund(ctx context.Context, o *checkout.Order, amount int64, requestID, reason string) (string, error)
}

// ProviderError is a refund the provider refused: final, the refund is
// failed and its amount free again.
type ProviderError struct {
	Message string
}

func (e *ProviderError) Error() string { return "refund refused: " + e.Message }

// Errors of the use cases.
var (
	ErrNotFound = checkout.ErrOrderNotFound
	// ErrStale: the order changed meanwhile (another staff member).
	ErrStale = errors.New("orders: the order changed meanwhile")
	// ErrRefundTooMuch: more than what is left to refund.
	ErrRefundTooMuch = errors.New("orders: the refund is more than what is left to refund")
	// ErrKeyReused: an idempotency key sent again with another request.
	ErrKeyReused = errors.New("orders: the idempotency key was used for another refund")
	// ErrRefundUnknown: the provider did not answer; the refund stays
	// pending and a retry with the same key finishes it.
	ErrRefundUnknown = errors.New("orders: the payment provider did not answer; the refund is pending")
)

// Invalid is a request the rules refuse, naming the field and why.
type Invalid struct {
	Field   string
	Message string
}

func (e *Invalid) Error() string { return "orders: " + e.Field + ": " + e.Message }

// Service is the order use cases.
type Service struct {
	Store Store
	// Refunders by payment method id: an order paid with one of them is
	// refunded through it; the others are recorded as manual refunds.
	Refunders map[string]Refunder
	// Kick is called after a change that queued mail (the outbox's).
	Kick func()
	// Currency is how the shop writes a currency's amounts (notes say
	// what was refunded); nil: the ISO defaults.
	Currency func(ctx context.Context, code string) money.Currency
	Now      func() time.Time
	Log      *slog.Logger
}

func (s *Service) now() time.Time { return clock.UTC(s.Now) }

func (s *Service) kick() {
	if s.Kick != nil {
		s.Kick()
	}
}

// currency is how the shop writes code's amounts.
func (s *Service) currency(ctx context.Context, code string) money.Currency {
	if s.Currency != nil {
		return s.Currency(ctx, code)
	}
	if c, ok := money.Lookup(code); ok {
		return c
	}
	return money.Currency{Code: code, MinorUnit: 2, DecimalSeparator: "."}
}

// format writes an amount of an order's currency.
func (s *Service) format(ctx context.Context, amount int64, code string) string {
	return s.currency(ctx, code).Format(amount)
}
