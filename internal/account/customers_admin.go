package account

import (
	"context"
	"errors"
	"strings"
	"time"

	"vitrine/internal/cart"
	"vitrine/internal/checkout"
)

// The customers' back office (the REST API's /wc/v3/customers): staff
// list, read, create, edit and delete accounts with their names and
// saved addresses. The rules are the accounts' own: the same email,
// username and password checks as registration, the same address
// cleaning as the my-account forms (without their required fields: an
// integration may store a partial address, as WooCommerce lets it).

// CustomerQuery is a page of the customers' list.
type CustomerQuery struct {
	Search string // a part of the email, username or names
	Email  string // exactly this email
	// Role is one role, or RoleAll; "" is RoleCustomer (WooCommerce's
	// default).
	Role    string
	IDs     []int64 // only these (WooCommerce's include)
	Exclude []int64
	OrderBy string // one of CustomerOrderBy; "" is name
	Order   string // asc (default) or desc
	Offset  int
	Limit   int
}

// RoleAll lists every role.
const RoleAll = "all"

// CustomerOrderBy are the keys the list sorts by.
var CustomerOrderBy = []string{"id", "include", "name", "registered_date"}

// Customer is an account as the back office shows it.
type Customer struct {
	User
	FirstName, LastName string
	Billing, Shipping   cart.Address // zero when not saved
	// ModifiedAt is the newest of the creation and the addresses' saves.
	ModifiedAt time.Time
	// Paying: the customer has a paid order (processing or completed).
	Paying bool
}

// CustomerEdit is a create's or an edit's fields; nil leaves a field as
// it is (on create: empty).
type CustomerEdit struct {
	// By is the acting staff member's role: only an administrator may
	// create, edit or delete a staff account or give a staff role
	// (ErrStaffOnly), as WooCommerce lets shop managers edit customers
	// only.
	By                        string
	Email, Username, Password *string
	FirstName, LastName       *string
	Role                      *string
	Billing, Shipping         *cart.Address
}

// CustomerAdminStore is the back office's part of Store
// (sqlstore/customer_admin.go).
type CustomerAdminStore interface {
	// Customers lists a page of ids in q's order, and how many match.
	Customers(ctx context.Context, q CustomerQuery) ([]int64, int, error)
	// CustomersByID loads the accounts of ids that exist, with their
	// names, saved addresses, addresses' newest save and whether they have
	// a paid order, in a number of statements that does not grow with
	// len(ids) (a page of the list is one call).
	CustomersByID(ctx context.Context, ids []int64) (map[int64]*Customer, error)
}

// ErrNoEmail refuses a customer without an email.
var ErrNoEmail = errors.New("account: an email is required")

// ErrStaffOnly refuses a shop manager's write to a staff account or role.
var ErrStaffOnly = errors.New("account: only an administrator may change staff accounts")

// mayTouch reports whether a staff member of role by may write an account
// of role target.
func mayTouch(by, target string) bool {
	return by == RoleAdministrator || target == RoleCustomer || target == ""
}

// Customers lists a page of customers.
func (s *Service) Customers(ctx context.Context, q CustomerQuery) ([]*Customer, int, error) {
	if q.Role == "" {
		q.Role = RoleCustomer
	}
	if q.Role != RoleAll && !ValidRole(q.Role) {
		return nil, 0, ErrInvalidRole
	}
	q.Email = NormalizeEmail(q.Email)
	ids, total, err := s.Store.Customers(ctx, q)
	if err != nil {
		return nil, 0, err
	}
	found, err := s.Store.CustomersByID(ctx, ids)
	if err != nil {
		return nil, 0, err
	}
	out := make([]*Customer, 0, len(ids))
	for _, id := range ids {
		if c, ok := found[id]; ok { // else deleted meanwhile
			out = append(out, c)
		}
	}
	return out, total, nil
}

// Customer loads one account (ErrNoUser).
func (s *Service) Customer(ctx context.Context, id int64) (*Customer, error) {
	found, err := s.Store.CustomersByID(ctx, []int64{id})
	if err != nil {
		return nil, err
	}
	c, ok := found[id]
	if !ok {
		return nil, ErrNoUser
	}
	return c, nil
}

// cleanAddress trims an address's fields and upper-cases its codes, as
// the checkout stores them; the email must be one when given.
func cleanAddress(kind string, a cart.Address) (cart.Address, error) {
	for _, f := range []*string{&a.FirstName, &a.LastName, &a.Company, &a.Address1, &a.Address2, &a.City, &a.State, &a.Postcode, &a.Phone} {
		*f = checkout.Clean(*f)
	}
	a.Country = strings.ToUpper(strings.TrimSpace(a.Country))
	a.State = strings.ToUpper(a.State)
	a.Email = NormalizeEmail(a.Email)
	if kind == AddressShipping {
		a.Email = ""
	}
	if a.Email != "" && !checkout.ValidEmail(a.Email) {
		return a, &InputError{Field: kind + ".email", Message: "Please provide a valid email address."}
	}
	return a, nil
}

// CreateCustomer creates an account from the back office: the email is
// required (ErrNoEmail), the username and password optional (without
// one the account has no password until its owner sets one through a
// lost-password link or an invitation); the role is customer unless given. The checks are
// registration's (Register); no mail is sent, as the shop sends no
// welcome mail.
func (s *Service) CreateCustomer(ctx context.Context, e CustomerEdit) (*Customer, error) {
	if e.Email == nil || strings.TrimSpace(*e.Email) == "" {
		return nil, ErrNoEmail
	}
	if !mayTouch(e.By, deref(e.Role)) {
		return nil, ErrStaffOnly
	}
	var billing, shipping cart.Address
	var err error
	if e.Billing != nil {
		if billing, err = cleanAddress(AddressBilling, *e.Billing); err != nil {
			return nil, err
		}
	}
	if e.Shipping != nil {
		if shipping, err = cleanAddress(AddressShipping, *e.Shipping); err != nil {
			return nil, err
		}
	}
	r := Registration{Email: *e.Email, Password: deref(e.Password), Username: deref(e.Username), Role: deref(e.Role)}
	r.NoPassword = r.Password == ""
	first, last := checkout.Clean(deref(e.FirstName)), checkout.Clean(deref(e.LastName))
	if first != "" || last != "" {
		r.DisplayName = strings.TrimSpace(first + " " + last)
	}
	u, err := s.Register(ctx, r)
	if err != nil {
		return nil, err
	}
	if first != "" || last != "" {
		if err := s.Store.SetProfile(ctx, u.ID, Profile{FirstName: first, LastName: last, DisplayName: u.DisplayName}); err != nil {
			return nil, err
		}
	}
	if err := s.saveAddresses(ctx, u.ID, e.Billing != nil, billing, e.Shipping != nil, shipping); err != nil {
		return nil, err
	}
	return s.Customer(ctx, u.ID)
}

func (s *Service) saveAddresses(ctx context.Context, id int64, setBilling bool, billing cart.Address, setShipping bool, shipping cart.Address) error {
	if setBilling {
		if err := s.Store.SaveAddress(ctx, id, AddressBilling, billing, s.now()); err != nil {
			return err
		}
	}
	if setShipping {
		if err := s.Store.SaveAddress(ctx, id, AddressShipping, shipping, s.now()); err != nil {
			return err
		}
	}
	return nil
}

// UpdateCustomer edits an account from the back office: each field given
// is checked as on create and stored; an address given replaces the
// saved one, merged over it (fields not sent are kept, as WooCommerce
// does). A new password ends the account's sessions. The username
// cannot change (ErrUsernameFixed), as in WooCommerce.
func (s *Service) UpdateCustomer(ctx context.Context, id int64, e CustomerEdit) (*Customer, error) {
	c, err := s.Customer(ctx, id)
	if err != nil {
		return nil, err
	}
	if !mayTouch(e.By, c.Role) || (e.Role != nil && !mayTouch(e.By, *e.Role)) {
		return nil, ErrStaffOnly
	}
	if e.Username != nil && strings.ToLower(strings.TrimSpace(*e.Username)) != c.Username {
		return nil, ErrUsernameFixed
	}
	var email string
	if e.Email != nil {
		email = NormalizeEmail(*e.Email)
		if err := validateEmail(email); err != nil {
			return nil, err
		}
	}
	if e.Role != nil && !ValidRole(*e.Role) {
		return nil, ErrInvalidRole
	}
	var hash string
	if e.Password != nil {
		if err := ValidatePassword(*e.Password, or(email, c.Email), c.Username); err != nil {
			return nil, err
		}
		if hash, err = HashPassword(*e.Password); err != nil {
			return nil, err
		}
	}
	var billing, shipping cart.Address
	if e.Billing != nil {
		if billing, err = cleanAddress(AddressBilling, mergeAddress(c.Billing, *e.Billing)); err != nil {
			return nil, err
		}
	}
	if e.Shipping != nil {
		if shipping, err = cleanAddress(AddressShipping, mergeAddress(c.Shipping, *e.Shipping)); err != nil {
			return nil, err
		}
	}
	// Checked: write.
	if email != "" && email != c.Email {
		if err := s.Store.SetEmail(ctx, id, email, nil); err != nil {
			return nil, err
		}
	}
	if e.FirstName != nil || e.LastName != nil {
		p := Profile{FirstName: c.FirstName, LastName: c.LastName, DisplayName: c.DisplayName}
		if e.FirstName != nil {
			p.FirstName = checkout.Clean(*e.FirstName)
		}
		if e.LastName != nil {
			p.LastName = checkout.Clean(*e.LastName)
		}
		if err := s.Store.SetProfile(ctx, id, p); err != nil {
			return nil, err
		}
	}
	if e.Role != nil && *e.Role != c.Role {
		if err := s.Store.SetRole(ctx, id, *e.Role); err != nil {
			return nil, err
		}
	}
	if hash != "" {
		if err := s.Store.SetPassword(ctx, id, hash, nil); err != nil {
			return nil, err
		}
	}
	if err := s.saveAddresses(ctx, id, e.Billing != nil, billing, e.Shipping != nil, shipping); err != nil {
		return nil, err
	}
	return s.Customer(ctx, id)
}

// mergeAddress is next over old: next's non-empty fields win. The API
// sends partial addresses ({"billing":{"phone":…}}); a field cleared on
// purpose is sent as a space, which cleaning empties.
func mergeAddress(old, next cart.Address) cart.Address {
	pick := func(o, n string) string {
		if n != "" {
			return n
		}
		return o
	}
	return cart.Address{FirstName: pick(old.FirstName, next.FirstName), LastName: pick(old.LastName, next.LastName),
		Company: pick(old.Company, next.Company), Address1: pick(old.Address1, next.Address1), Address2: pick(old.Address2, next.Address2),
		City: pick(old.City, next.City), State: pick(old.State, next.State), Postcode: pick(old.Postcode, next.Postcode),
		Country: pick(old.Country, next.Country), Email: pick(old.Email, next.Email), Phone: pick(old.Phone, next.Phone)}
}

// ErrUsernameFixed refuses a username change.
var ErrUsernameFixed = errors.New("account: a username cannot be changed")

// DeleteCustomer deletes an account from the back office and answers it
// as it was; its orders stay, as guest orders (DeleteUser).
// A staff account may be deleted by an administrator only (by is the
// acting staff member's role).
func (s *Service) DeleteCustomer(ctx context.Context, id int64, by string) (*Customer, error) {
	c, err := s.Customer(ctx, id)
	if err != nil {
		return nil, err
	}
	if !mayTouch(by, c.Role) {
		return nil, ErrStaffOnly
	}
	return c, s.Store.DeleteUser(ctx, id)
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
