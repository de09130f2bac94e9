package account

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"vitrine/internal/cart"
	"vitrine/internal/checkout"
)

// A customer's side of the account: profile (names), saved addresses, and
// orders (placed while logged in, created at checkout, or a guest's orders
// linked once the account's email is verified).

// Address kinds.
const (
	AddressBilling  = "billing"
	AddressShipping = "shipping"
)

// Profile is what the account details form edits besides email and
// password.
type Profile struct {
	FirstName   string
	LastName    string
	DisplayName string
}

// Addresses are a customer's saved addresses; nil when not saved.
type Addresses struct {
	Billing  *cart.Address
	Shipping *cart.Address
}

// OrdersPage is one page of a customer's orders, newest first.
type OrdersPage struct {
	Orders []*checkout.Order
	Total  int // orders in all pages
	Page   int // 1-based
	Pages  int // at least 1
}

// OrdersPerPage is the my-account orders table's page size.
const OrdersPerPage = 10

// CustomerStore is the customer's part of Store (sqlstore/customer.go).
type CustomerStore interface {
	Profile(ctx context.Context, userID int64) (*Profile, error)
	// SetProfile stores the names (ErrNoUser).
	SetProfile(ctx context.Context, userID int64, p Profile) error
	CustomerAddresses(ctx context.Context, userID int64) (*Addresses, error)
	// SaveAddress stores (replaces) one address of kind.
	SaveAddress(ctx context.Context, userID int64, kind string, a cart.Address, now time.Time) error
	// SaveAddressesIfNone stores each address whose kind has none saved
	// yet (a concurrent save wins).
	SaveAddressesIfNone(ctx context.Context, userID int64, billing, shipping cart.Address, now time.Time) error
	// CustomerOrders is a page of the customer's orders, newest first,
	// and how many there are in all.
	CustomerOrders(ctx context.Context, userID int64, limit, offset int) ([]*checkout.Order, int, error)
	// CustomerOrder is one order of the customer: checkout.ErrOrderNotFound
	// when it does not exist or belongs to someone else.
	CustomerOrder(ctx context.Context, userID, orderID int64) (*checkout.Order, error)
	// LinkGuestOrders gives userID the guest orders (no customer) whose
	// billing email is email, compared case-insensitively.
	LinkGuestOrders(ctx context.Context, userID int64, email string) (int64, error)
}

// Profile loads a customer's names.
func (s *Service) Profile(ctx context.Context, userID int64) (*Profile, error) {
	return s.Store.Profile(ctx, userID)
}

// ValidateProfile cleans the names and checks them: all three are
// required, as on WooCommerce's account details form. Bad input is an
// *InputError naming the form field.
func ValidateProfile(p Profile) (Profile, error) {
	p.FirstName, p.LastName, p.DisplayName = checkout.Clean(p.FirstName), checkout.Clean(p.LastName), checkout.Clean(p.DisplayName)
	for _, f := range []struct{ field, label, v string }{
		{"account_first_name", "First name", p.FirstName},
		{"account_last_name", "Last name", p.LastName},
		{"account_display_name", "Display name", p.DisplayName},
	} {
		if f.v == "" {
			return p, &InputError{Field: f.field, Message: f.label + " is a required field."}
		}
		if utf8.RuneCountInString(f.v) > 100 {
			return p, &InputError{Field: f.field, Message: f.label + " is too long."}
		}
	}
	if strings.Contains(p.DisplayName, "@") {
		// WooCommerce refuses an email as the display name: it is shown publicly.
		return p, &InputError{Field: "account_display_name", Message: "Display name cannot be changed to email address due to privacy concern."}
	}
	return p, nil
}

// SaveProfile validates (ValidateProfile) and stores the names.
func (s *Service) SaveProfile(ctx context.Context, userID int64, p Profile) (*Profile, error) {
	p, err := ValidateProfile(p)
	if err != nil {
		return nil, err
	}
	if err := s.Store.SetProfile(ctx, userID, p); err != nil {
		return nil, err
	}
	return &p, nil
}

// Addresses loads a customer's saved addresses.
func (s *Service) Addresses(ctx context.Context, userID int64) (*Addresses, error) {
	return s.Store.CustomerAddresses(ctx, userID)
}

// SaveAddress validates an address with the checkout's rules (the same
// messages and normalization: state codes, postcodes) and stores it. A
// refused address is a *checkout.ValidationError and nothing is stored.
func (s *Service) SaveAddress(ctx context.Context, userID int64, kind string, a cart.Address, rules checkout.AddressRules) (cart.Address, error) {
	if kind != AddressBilling && kind != AddressShipping {
		return a, &InputError{Field: "kind", Message: "Unknown address type."}
	}
	if kind == AddressShipping {
		rules.PhoneRequired = false
	}
	if errs := checkout.ValidateAddress(kind, &a, rules); len(errs) > 0 {
		return a, &checkout.ValidationError{Fields: errs}
	}
	return a, s.Store.SaveAddress(ctx, userID, kind, a, s.now())
}

// OrderPlaced records what a customer's order teaches the account: the
// addresses used are saved when the customer has none saved yet, as
// WooCommerce fills an empty customer from the checkout (a saved address
// is never overwritten by a one-off delivery address).
func (s *Service) OrderPlaced(ctx context.Context, userID int64, o *checkout.Order) error {
	if userID == 0 || o == nil {
		return nil
	}
	ship := o.Shipping
	ship.Email = ""
	return s.Store.SaveAddressesIfNone(ctx, userID, o.Billing, ship, s.now())
}

// Orders is page (1-based) of a customer's orders, newest first. A page
// past the end answers no orders with the real page count, so the caller
// can answer 404.
func (s *Service) Orders(ctx context.Context, userID int64, page int) (*OrdersPage, error) {
	if page < 1 {
		page = 1
	}
	orders, total, err := s.Store.CustomerOrders(ctx, userID, OrdersPerPage, (page-1)*OrdersPerPage)
	if err != nil {
		return nil, err
	}
	pages := max(1, (total+OrdersPerPage-1)/OrdersPerPage)
	return &OrdersPage{Orders: orders, Total: total, Page: page, Pages: pages}, nil
}

// Order is one of the customer's orders; checkout.ErrOrderNotFound for
// an unknown id or another customer's order (the same answer).
func (s *Service) Order(ctx context.Context, userID, orderID int64) (*checkout.Order, error) {
	if orderID <= 0 {
		return nil, checkout.ErrOrderNotFound
	}
	return s.Store.CustomerOrder(ctx, userID, orderID)
}

// RegisterAndPlace is "create an account" at checkout: the account is
// registered with r (the billing email and the chosen password), then
// place is called with its id to place the order linked to it. When the
// order is refused the new account is deleted again, so the shopper can
// correct the form and submit once more; the error is place's. A taken
// email is ErrEmailTaken and nothing is placed.
func (s *Service) RegisterAndPlace(ctx context.Context, r Registration, place func(ctx context.Context, u *User) (*checkout.Order, error)) (*User, *checkout.Order, error) {
	u, err := s.Register(ctx, r)
	if err != nil {
		return nil, nil, err
	}
	o, err := place(ctx, u)
	if err != nil {
		// The account is a minute old and has nothing else.
		if derr := s.Store.DeleteUser(context.WithoutCancel(ctx), u.ID); derr != nil && !errors.Is(derr, ErrNoUser) {
			s.log().Error("account: undo checkout registration", "user", u.ID, "err", derr)
		}
		return nil, nil, err
	}
	if err := s.OrderPlaced(ctx, u.ID, o); err != nil {
		s.log().Warn("account: save checkout addresses", "user", u.ID, "err", err)
	}
	return u, o, nil
}
