package orders

import (
	"context"
	"errors"

	"vitrine/internal/checkout"
)

// ErrHistoryKeyTaken: an order moved in has the order key of another order
// here (keys are unique; the old shop's should be too).
var ErrHistoryKeyTaken = errors.New("orders: another order here has this order key")

// History is an order placed in another shop and moved in as it was
// (internal/wcimport): its number, dates, status, lines at the prices
// paid, fees, shipping, coupons, taxes and totals, with its notes and
// refunds. Writing it takes no stock, queues no mail and raises no
// webhook: it happened elsewhere.
type History struct {
	// Order is the order as it was. Order.ID is the order already moved
	// in to replace (a re-run), or 0 for a new one, which keeps
	// Order.Number as its number when no order here has it (and takes
	// the next free one otherwise, the old number kept in its meta as
	// MetaOldNumber).
	Order *checkout.Order
	// Restocked is the units of each line (by position) counted as put
	// back already: the lines of an order that never took stock or gave
	// it back (pending, failed, cancelled), so a later cancellation here
	// puts back only what the old shop still counted as sold.
	Restocked []int64
	// CouponsReleased marks the order's coupon uses as given back (a
	// cancelled order's do not count toward per-customer limits).
	CouponsReleased bool
	// CouponIDs are the coupons of Order.Coupons in this shop, by code
	// (0 or missing: none, the code and amounts are kept).
	CouponIDs map[string]int64
	Notes     []Note
	// Refunds are completed refunds (Method "manual" or the gateway's id).
	Refunds []Refund
}

// MetaOldNumber is the order meta that keeps an order's number in the
// shop it was moved from, when this shop had given that number already.
const MetaOldNumber = "_vitrine_old_order_number"

// MetaMovedFrom marks an order moved in from another shop; its value
// names the shop ("woocommerce"). Such an order is history: the held-stock
// release never cancels it.
const MetaMovedFrom = "_vitrine_moved_from"

// HistoryStore writes moved-in orders (sqlstore.DB).
type HistoryStore interface {
	// ImportOrder writes h in one transaction (replacing the order, its
	// lines, notes and refunds when h.Order.ID is set) and answers the
	// order's id and the new ids of its refunds, in h.Refunds' order.
	ImportOrder(ctx context.Context, h History) (id int64, refundIDs []int64, err error)
}
