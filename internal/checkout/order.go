package checkout

import (
	"crypto/rand"
	"errors"
	"time"

	"vitrine/internal/cart"
)

// Order statuses (WooCommerce's, without the "wc-" prefix).
const (
	StatusDraft      = "checkout-draft"
	StatusPending    = "pending"
	StatusProcessing = "processing"
	StatusOnHold     = "on-hold"
	StatusCompleted  = "completed"
	StatusCancelled  = "cancelled"
	StatusRefunded   = "refunded"
	StatusFailed     = "failed"
)

// Statuses lists every order status.
var Statuses = []string{StatusDraft, StatusPending, StatusProcessing, StatusOnHold, StatusCompleted,
	StatusCancelled, StatusRefunded, StatusFailed}

// transitions are the allowed status moves. Paid states (processing,
// completed) never go back to unpaid ones; refunded and cancelled are final
// except that a late payment may still complete a cancelled order (as
// WooCommerce's payment_complete accepts cancelled orders).
var transitions = map[string][]string{
	StatusDraft:      {StatusPending, StatusProcessing, StatusOnHold, StatusFailed, StatusCancelled},
	StatusPending:    {StatusProcessing, StatusOnHold, StatusFailed, StatusCancelled, StatusCompleted},
	StatusOnHold:     {StatusProcessing, StatusCompleted, StatusCancelled, StatusFailed, StatusRefunded},
	StatusFailed:     {StatusPending, StatusProcessing, StatusOnHold, StatusCancelled, StatusCompleted},
	StatusProcessing: {StatusCompleted, StatusRefunded, StatusCancelled},
	StatusCompleted:  {StatusRefunded},
	StatusCancelled:  {StatusProcessing},
	StatusRefunded:   {},
}

// CanTransition reports whether an order may move from one status to
// another. Staying put is always allowed (idempotent updates).
func CanTransition(from, to string) bool {
	if from == to {
		_, ok := transitions[from]
		return ok
	}
	for _, s := range transitions[from] {
		if s == to {
			return true
		}
	}
	return false
}

// PaidStatuses are where MarkOrderPaid may take an order from.
var PaidStatuses = []string{StatusDraft, StatusPending, StatusOnHold, StatusFailed, StatusCancelled}

// Wallet payment states (the checkout state machine with recovery points).
const (
	PayNone               = "none"
	PayWalletOrderCreated = "wallet_order_created"
	PayApproved           = "approved"
	PayCaptureRequested   = "capture_requested"
	PayPaid               = "paid"
	PayFailed             = "failed"
)

var paymentTransitions = map[string][]string{
	PayNone:               {PayWalletOrderCreated, PayFailed},
	PayWalletOrderCreated: {PayApproved, PayCaptureRequested, PayFailed, PayWalletOrderCreated},
	PayApproved:           {PayCaptureRequested, PayFailed},
	PayCaptureRequested:   {PayPaid, PayFailed},
	PayFailed:             {PayWalletOrderCreated},
	PayPaid:               {},
}

// CanMovePayment reports whether a payment state may move from one state
// to another: forward only, except that a failed attempt may start over
// with a new wallet order (and a created wallet order may be replaced).
func CanMovePayment(from, to string) bool {
	for _, s := range paymentTransitions[from] {
		if s == to {
			return true
		}
	}
	return false
}

// ErrTransition is returned for a status move the rules refuse.
var ErrTransition = errors.New("order status transition not allowed")

// Line is one order line: a copy of what was bought, at the price paid.
type Line struct {
	ProductID   int64       `json:"product_id"`
	VariationID int64       `json:"variation_id"`
	Name        string      `json:"name"`
	SKU         string      `json:"sku"`
	Variation   []cart.Attr `json:"variation"` // display label and value ("Color", "Rust")
	Quantity    int64       `json:"quantity"`
	UnitPrice   int64       `json:"unit_price"` // as entered in the catalogue when bought
	Subtotal    int64       `json:"subtotal"`
	SubtotalTax int64       `json:"subtotal_tax"`
	Total       int64       `json:"total"`
	TotalTax    int64       `json:"total_tax"`
}

// ShippingLine is the chosen shipping rate.
type ShippingLine struct {
	RateID     string `json:"rate_id"`
	MethodID   string `json:"method_id"`
	InstanceID int    `json:"instance_id"`
	Title      string `json:"method_title"`
	Total      int64  `json:"total"`
	TotalTax   int64  `json:"total_tax"`
}

// FeeLine is a fee charged with an order (WooCommerce's fee lines).
type FeeLine struct {
	Name      string `json:"name"`
	TaxStatus string `json:"tax_status"` // "taxable" or "none"
	Total     int64  `json:"total"`
	TotalTax  int64  `json:"total_tax"`
}

// Order is a placed order.
type Order struct {
	ID       int64
	Number   string
	Key      string
	Status   string
	Currency string // every amount's currency
	// CurrencyRate is the rate the order's prices were converted at (units
	// of Currency for one unit of BaseCurrency; "1" in the base currency).
	CurrencyRate       string
	BaseCurrency       string
	PricesIncludeTax   bool
	Billing            Address
	Shipping           Address
	CustomerNote       string
	PaymentMethod      string
	PaymentMethodTitle string
	TransactionID      string
	Lines              []Line
	ShippingLines      []ShippingLine
	FeeLines           []FeeLine // none from this shop's checkout; an order moved in keeps its own
	TaxLines           []TaxLine
	ItemsSubtotal      int64
	ItemsTax           int64
	ShippingTotal      int64
	ShippingTax        int64
	DiscountTotal      int64 // excluding tax
	DiscountTax        int64
	// Coupons are the coupons used, with their discounts.
	Coupons     []CouponAmount
	TotalTax    int64
	Total       int64
	CartSession string
	CustomerID  int64 // the account that placed it (or linked it); 0 for a guest
	CreatedAt   time.Time
	UpdatedAt   time.Time
	PaidAt      *time.Time
	// AnonymisedAt is when the order's personal data was removed
	// (sqlstore.AnonymiseOrders); nil while it holds it.
	AnonymisedAt *time.Time
	// Wallet fields.
	PaymentState      string
	ProviderOrderID   string
	ProviderRequestID string
	CaptureID         string
	// Meta holds attribution ("_wc_order_attribution_source_type") and
	// other order meta.
	Meta map[string]string
}

// Paid reports whether the order's payment is complete.
func (o *Order) Paid() bool { return o.PaidAt != nil }

// MetaTestPayment is the order meta that marks a test order: one placed to
// be paid in a payment sandbox, where no money moves. Its value names the
// sandbox ("built-in sandbox", "PayPal sandbox"). It is written with the
// order, in the same transaction.
const MetaTestPayment = "_vitrine_test_payment"

// TestPayment names the sandbox a test order is paid in; "" for a real
// order.
func (o *Order) TestPayment() string { return o.Meta[MetaTestPayment] }

// TestOrder reports whether the order is a test order (paid, or to be paid,
// in a sandbox: no money was or will be taken).
func (o *Order) TestOrder() bool { return o.TestPayment() != "" }

const keyChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// NewOrderKey makes an order key like WooCommerce's: "wc_order_" and 13
// random letters and digits (77 bits).
func NewOrderKey() string {
	b := make([]byte, 13)
	_, _ = rand.Read(b)
	out := make([]byte, 13)
	for i, c := range b {
		// 248 is the largest multiple of 62 below 256: redraw above it.
		for c >= 248 {
			var one [1]byte
			_, _ = rand.Read(one[:])
			c = one[0]
		}
		out[i] = keyChars[int(c)%len(keyChars)]
	}
	return "wc_order_" + string(out)
}

// FromQuote fills an order's money from a quotation; lines must be aligned
// with the quoted items.
func (o *Order) FromQuote(q Quotation) {
	for i := range o.Lines {
		la := q.Lines[i]
		o.Lines[i].Subtotal, o.Lines[i].SubtotalTax = la.Subtotal, la.SubtotalTax
		o.Lines[i].Total, o.Lines[i].TotalTax = la.Total, la.TotalTax
	}
	o.ShippingLines = nil
	if q.Selected != nil {
		r := q.Selected
		o.ShippingLines = []ShippingLine{{RateID: r.ID, MethodID: r.MethodID, InstanceID: r.InstanceID, Title: r.Name,
			Total: r.Cost, TotalTax: r.Taxes}}
	}
	o.TaxLines = q.TaxLines
	o.PricesIncludeTax = q.PricesIncludeTax
	o.ItemsSubtotal, o.ItemsTax = q.ItemsSubtotal, q.ItemsTax
	o.ShippingTotal, o.ShippingTax = q.Shipping, q.ShippingTax
	o.DiscountTotal, o.DiscountTax, o.Coupons = q.Discount, q.DiscountTax, q.Coupons
	o.TotalTax, o.Total = q.TotalTax, q.Total
}
