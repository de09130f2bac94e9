package checkout

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"slices"
	"strings"

	"vitrine/internal/cart"
)

// Orders staff (or an integration, through the REST API's POST
// /wc/v3/orders) create: the lines are put in a cart of their own and
// that cart is placed by the checkout's one transaction (Store.PlaceOrder),
// so the order is priced by the shop's one price function (Quote, with
// the shipping zones, taxes and coupons in force), its stock taken and its
// order.created webhook queued exactly as a shopper's order. See
// docs/decisions (orders made through the REST API).

// StaffLine is a line of a staff order: a product, or a variation of a
// variable product (VariationID), and a quantity.
type StaffLine struct {
	ProductID   int64
	VariationID int64
	Quantity    int64
}

// StaffOrder is an order to create for a customer.
type StaffOrder struct {
	Lines      []StaffLine
	CustomerID int64 // the account it belongs to; 0 for a guest
	Billing    cart.Address
	Shipping   *cart.Address // nil: the billing address
	// RateID chooses the shipping rate ("": the first the destination
	// offers, as at checkout).
	RateID string
	// Status is the order's status: pending (""), processing, on-hold or
	// completed (StaffStatuses).
	Status string
	// SetPaid records the payment: a pending order becomes processing.
	SetPaid bool
	// Method and MethodTitle name the payment method (the shop's title
	// when the method is one of its own and MethodTitle is empty).
	Method, MethodTitle string
	Note                string
	Coupons             []string
}

// StaffStatuses are the statuses an order may be created with.
var StaffStatuses = []string{StatusPending, StatusProcessing, StatusOnHold, StatusCompleted}

// ErrStaffStatus refuses another status.
var ErrStaffStatus = errors.New("checkout: an order is created pending, processing, on-hold or completed")

// ErrStaffLine refuses a line with no product or a quantity below 1.
var ErrStaffLine = errors.New("checkout: each line needs a product and a quantity of at least 1")

// staffSessionPrefix names the carts staff orders are built in.
const staffSessionPrefix = "staff_"

// staffMethod is the payment method a staff order records.
type staffMethod struct {
	id, title string
	offline   bool
}

func (m staffMethod) ID() string          { return m.id }
func (m staffMethod) Title() string       { return m.title }
func (m staffMethod) Description() string { return "" }
func (m staffMethod) Offline() bool       { return m.offline }

// PlaceStaffOrder creates an order from lines. Every line is added as a
// shopper's add is (the product must be on sale and in stock: refusals
// are *cart.Error), the addresses are cleaned as the checkout's are but
// not required, and the cart is placed with the status asked for. Stock
// is taken whatever the status (a pending order holds it, as at
// checkout); the order mails are queued unless the order is pending.
func (s *Service) PlaceStaffOrder(ctx context.Context, in StaffOrder) (*Order, error) {
	status := in.Status
	if status == "" {
		status = StatusPending
	}
	if !slices.Contains(StaffStatuses, status) {
		return nil, ErrStaffStatus
	}
	if in.SetPaid && status == StatusPending {
		status = StatusProcessing
	}
	if len(in.Lines) == 0 {
		return nil, ErrCartEmpty
	}
	for _, l := range in.Lines {
		if (l.ProductID <= 0 && l.VariationID <= 0) || l.Quantity < 1 {
			return nil, ErrStaffLine
		}
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	session := staffSessionPrefix + hex.EncodeToString(b)
	defer func() {
		if err := s.Carts.Clear(context.WithoutCancel(ctx), session); err != nil {
			s.warn("clear a staff order's cart", "err", err)
		}
	}()
	for _, l := range in.Lines {
		id := l.ProductID
		if l.VariationID > 0 {
			id = l.VariationID
		}
		if _, _, err := s.Carts.Add(ctx, session, id, l.Quantity, nil); err != nil {
			return nil, err
		}
	}
	billing := cleanStaffAddress(in.Billing)
	shipping := billing
	shipping.Email = ""
	if in.Shipping != nil {
		shipping = cleanStaffAddress(*in.Shipping)
		shipping.Email = ""
	}
	if err := s.Carts.SetCustomer(ctx, session, cart.Customer{Billing: billing, Shipping: shipping, ShippingRate: in.RateID, Coupons: in.Coupons}); err != nil {
		return nil, err
	}
	stored, err := s.Carts.Get(ctx, session)
	if err != nil {
		return nil, err
	}
	c, err := s.Price(ctx, stored, false, "")
	if err != nil {
		return nil, err
	}
	if len(c.CouponErrors) > 0 {
		return nil, couponRefusal(c.CouponErrors[0])
	}
	m := staffMethod{id: Clean(in.Method), title: Clean(in.MethodTitle), offline: status != StatusPending}
	if s.Payments != nil && m.title == "" {
		if known, ok := s.Payments.Get(m.id); ok {
			m.title = known.Title()
		}
	}
	o, _, err := s.Store.PlaceOrder(ctx, PlaceOrderInput{Session: session, CustomerID: in.CustomerID,
		Customer:     Customer{Billing: billing, Shipping: shipping, RateID: in.RateID},
		CustomerNote: Clean(in.Note), Method: m, Status: status, Config: c.Pricing.Config, Currency: c.Pricing.Table,
		Meta: map[string]string{"_created_via": "rest-api"}, Coupons: c.Coupons, Paid: in.SetPaid, Now: s.now()})
	if err != nil {
		return nil, err
	}
	if s.Placed != nil {
		s.Placed()
	}
	return o, nil
}

// cleanStaffAddress cleans an address's fields as the checkout stores
// them, without its required-field rules.
func cleanStaffAddress(a cart.Address) cart.Address {
	for _, f := range []*string{&a.FirstName, &a.LastName, &a.Company, &a.Address1, &a.Address2, &a.City, &a.State, &a.Postcode, &a.Phone, &a.Email} {
		*f = Clean(*f)
	}
	a.Country = strings.ToUpper(a.Country)
	a.State = strings.ToUpper(a.State)
	a.Email = strings.ToLower(a.Email)
	return a
}
