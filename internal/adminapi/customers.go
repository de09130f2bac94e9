package adminapi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"vitrine/internal/account"
	"vitrine/internal/cart"
)

// Customers: WooCommerce REST v3's /wc/v3/customers with its field names,
// on the accounts' back-office use cases (account/customers_admin.go).
// Addresses are the ones the shop saves for a customer (my account, the
// checkout); meta_data is always [] (the shop keeps no free-form user
// meta for integrations).

const customersPath = wcPrefix + "/customers"

type customerAddressJSON struct {
	FirstName string  `json:"first_name"`
	LastName  string  `json:"last_name"`
	Company   string  `json:"company"`
	Address1  string  `json:"address_1"`
	Address2  string  `json:"address_2"`
	City      string  `json:"city"`
	Postcode  string  `json:"postcode"`
	Country   string  `json:"country"`
	State     string  `json:"state"`
	Email     *string `json:"email,omitempty"`
	Phone     string  `json:"phone"`
}

type customerJSON struct {
	ID              int64               `json:"id"`
	DateCreated     string              `json:"date_created"`
	DateCreatedGMT  string              `json:"date_created_gmt"`
	DateModified    string              `json:"date_modified"`
	DateModifiedGMT string              `json:"date_modified_gmt"`
	Email           string              `json:"email"`
	FirstName       string              `json:"first_name"`
	LastName        string              `json:"last_name"`
	Role            string              `json:"role"`
	Username        string              `json:"username"`
	Billing         customerAddressJSON `json:"billing"`
	Shipping        customerAddressJSON `json:"shipping"`
	IsPaying        bool                `json:"is_paying_customer"`
	AvatarURL       string              `json:"avatar_url"`
	MetaData        []any               `json:"meta_data"`
	Links           map[string][]any    `json:"_links"`
}

func addressOut(a cart.Address, billing bool) customerAddressJSON {
	out := customerAddressJSON{FirstName: a.FirstName, LastName: a.LastName, Company: a.Company, Address1: a.Address1,
		Address2: a.Address2, City: a.City, Postcode: a.Postcode, Country: a.Country, State: a.State, Phone: a.Phone}
	if billing {
		email := a.Email
		out.Email = &email
	}
	return out
}

// wcTime writes a time as WooCommerce does (site time = UTC here).
func wcTime(t interface{ Format(string) string }) string { return t.Format("2006-01-02T15:04:05") }

func (a *API) customerOut(c *account.Customer) customerJSON {
	sum := sha256.Sum256([]byte(strings.ToLower(strings.TrimSpace(c.Email))))
	created, modified := wcTime(c.CreatedAt), wcTime(c.ModifiedAt)
	self := a.d.BaseURL + customersPath + "/" + strconv.FormatInt(c.ID, 10)
	return customerJSON{
		ID: c.ID, DateCreated: created, DateCreatedGMT: created, DateModified: modified, DateModifiedGMT: modified,
		Email: c.Email, FirstName: c.FirstName, LastName: c.LastName, Role: c.Role, Username: c.Username,
		Billing: addressOut(c.Billing, true), Shipping: addressOut(c.Shipping, false), IsPaying: c.Paying,
		AvatarURL: "https://secure.gravatar.com/avatar/" + hex.EncodeToString(sum[:]) + "?s=96&d=mm&r=g",
		MetaData:  []any{},
		Links: map[string][]any{
			"self":       {map[string]any{"href": self, "targetHints": map[string]any{"allow": []string{"GET", "POST", "PUT", "PATCH", "DELETE"}}}},
			"collection": {map[string]string{"href": a.d.BaseURL + customersPath}},
		},
	}
}

// customerBody is a create's or an edit's JSON.
type customerBody struct {
	Email     *string       `json:"email"`
	FirstName *string       `json:"first_name"`
	LastName  *string       `json:"last_name"`
	Username  *string       `json:"username"`
	Password  *string       `json:"password"`
	Role      *string       `json:"role"`
	Billing   *cart.Address `json:"billing"`
	Shipping  *cart.Address `json:"shipping"`
}

func (b customerBody) edit(st Staff) account.CustomerEdit {
	return account.CustomerEdit{By: st.Role, Email: b.Email, Username: b.Username, Password: b.Password, FirstName: b.FirstName,
		LastName: b.LastName, Role: b.Role, Billing: b.Billing, Shipping: b.Shipping}
}

// GET /wp-json/wc/v3/customers?search=&email=&role=&include=&exclude=&orderby=&order=&page=&per_page=
func (a *API) customersList(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var q account.CustomerQuery
	return List[*account.Customer, customerJSON]{
		Search: &q.Search,
		Filters: []Filter{
			Text("email", &q.Email),
			OneOf("role", &q.Role, account.RoleAll, account.RoleAdministrator, account.RoleShopManager, account.RoleCustomer),
			IDs("include", &q.IDs, "include must be a list of customer ids."),
			IDs("exclude", &q.Exclude, "exclude must be a list of customer ids."),
		},
		Sort: &Sort{Keys: account.CustomerOrderBy, By: &q.OrderBy, Order: &q.Order},
		Fetch: func(ctx context.Context, p Paging) ([]*account.Customer, int, error) {
			q.Offset, q.Limit = p.Offset(), p.PerPage
			return a.d.Accounts.Customers(ctx, q)
		},
		Row: a.customerOut,
	}.Serve(w, r)
}

func customerID(r *http.Request) (int64, error) {
	n, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || n <= 0 {
		return 0, errCustomerID
	}
	return n, nil
}

// GET /wp-json/wc/v3/customers/{id}
func (a *API) customerGet(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := customerID(r)
	if err != nil {
		return err
	}
	c, err := a.d.Accounts.Customer(r.Context(), id)
	return answer(w, http.StatusOK, c, err, a.customerOut)
}

// POST /wp-json/wc/v3/customers
func (a *API) customerCreate(w http.ResponseWriter, r *http.Request, st Staff) error {
	var b customerBody
	if err := Decode(r, &b); err != nil {
		return err
	}
	c, err := a.d.Accounts.CreateCustomer(r.Context(), b.edit(st))
	if err != nil {
		return err
	}
	Note(r, "customer.create", "customer", c.ID, "Created customer "+c.Email)
	w.Header().Set("Location", a.d.BaseURL+customersPath+"/"+strconv.FormatInt(c.ID, 10))
	WriteJSON(w, http.StatusCreated, a.customerOut(c))
	return nil
}

// PUT/PATCH/POST /wp-json/wc/v3/customers/{id}
func (a *API) customerUpdate(w http.ResponseWriter, r *http.Request, st Staff) error {
	id, err := customerID(r)
	if err != nil {
		return err
	}
	var b customerBody
	if err := Decode(r, &b); err != nil {
		return err
	}
	c, err := a.d.Accounts.UpdateCustomer(r.Context(), id, b.edit(st))
	if err != nil {
		return err
	}
	Note(r, "customer.update", "customer", c.ID, "Edited customer "+c.Email)
	WriteJSON(w, http.StatusOK, a.customerOut(c))
	return nil
}

// DELETE /wp-json/wc/v3/customers/{id}?force=true: customers have no
// trash, so force is required (WooCommerce's 501 without it); reassign
// is ignored: the customer's orders stay, as guest orders.
func (a *API) customerDelete(w http.ResponseWriter, r *http.Request, st Staff) error {
	id, err := customerID(r)
	if err != nil {
		return err
	}
	if !forced(r) {
		return errCustomerTrash
	}
	c, err := a.d.Accounts.DeleteCustomer(r.Context(), id, st.Role)
	if err != nil {
		return err
	}
	Note(r, "customer.delete", "customer", c.ID, "Deleted customer "+c.Email)
	WriteJSON(w, http.StatusOK, a.customerOut(c))
	return nil
}

// forced reports ?force=true (or 1), as WordPress reads a boolean.
func forced(r *http.Request) bool {
	v := strings.ToLower(r.URL.Query().Get("force"))
	return v == "true" || v == "1"
}

// GET /wp-json/wc/v3/customers/{id}/downloads: the shop sells no
// downloadable products, so every customer's list is empty.
func (a *API) customerDownloads(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := customerID(r)
	if err != nil {
		return err
	}
	if _, err := a.d.Accounts.Customer(r.Context(), id); err != nil {
		return err
	}
	WriteAll(w, []any{})
	return nil
}

// POST /wp-json/wc/v3/customers/batch {create: [...], update: [{id, ...}],
// delete: [id, ...]}: WooCommerce's batch, up to 100 items, each item
// answered or refused on its own; deletes are for good.
func (a *API) customersBatch(w http.ResponseWriter, r *http.Request, st Staff) error {
	var b struct {
		Create []customerBody `json:"create"`
		Update []struct {
			ID int64 `json:"id"`
			customerBody
		} `json:"update"`
		Delete []int64 `json:"delete"`
	}
	if err := Decode(r, &b); err != nil {
		return err
	}
	ans, err := newBatch(len(b.Create)+len(b.Update)+len(b.Delete), asError)
	if err != nil {
		return err
	}
	ctx := r.Context()
	item := func(list string, id int64, c *account.Customer, err error) error {
		return ans.add(list, id, err, func() any { return a.customerOut(c) })
	}
	for _, c := range b.Create {
		cu, err := a.d.Accounts.CreateCustomer(ctx, c.edit(st))
		if err := item("create", 0, cu, err); err != nil {
			return err
		}
	}
	for _, u := range b.Update {
		cu, err := a.d.Accounts.UpdateCustomer(ctx, u.ID, u.edit(st))
		if err := item("update", u.ID, cu, err); err != nil {
			return err
		}
	}
	for _, id := range b.Delete {
		cu, err := a.d.Accounts.DeleteCustomer(ctx, id, st.Role)
		if err := item("delete", id, cu, err); err != nil {
			return err
		}
	}
	Note(r, "customer.batch", "customer", 0, ans.summary("Customers"))
	WriteJSON(w, http.StatusOK, ans.out)
	return nil
}

var (
	errCustomerID    = &Error{Status: http.StatusNotFound, Code: "woocommerce_rest_invalid_id", Message: "Invalid resource ID."}
	errCustomerTrash = &Error{Status: http.StatusNotImplemented, Code: "woocommerce_rest_trash_not_supported", Message: "Customers do not support trashing."}
)

// customerError maps the accounts' errors (asError).
func customerError(err error) (*Error, bool) {
	var ie *account.InputError
	switch {
	case errors.Is(err, account.ErrNoUser):
		return errCustomerID, true
	case errors.Is(err, account.ErrStaffOnly):
		return &Error{Status: http.StatusForbidden, Code: "woocommerce_rest_cannot_edit",
			Message: "Sorry, you are not allowed to edit this resource: only an administrator may change staff accounts."}, true
	case errors.Is(err, account.ErrNoEmail):
		return &Error{Status: http.StatusBadRequest, Code: "rest_missing_callback_param", Message: "Missing parameter(s): email",
			Data: map[string]any{"params": []string{"email"}}}, true
	case errors.Is(err, account.ErrEmailTaken):
		return &Error{Status: http.StatusBadRequest, Code: "registration-error-email-exists",
			Message: "An account is already registered with your email address."}, true
	case errors.Is(err, account.ErrUsernameTaken):
		return &Error{Status: http.StatusBadRequest, Code: "registration-error-username-exists",
			Message: "An account is already registered with that username. Please choose another."}, true
	case errors.Is(err, account.ErrUsernameFixed):
		return &Error{Status: http.StatusBadRequest, Code: "woocommerce_rest_customer_invalid_argument",
			Message: "Username isn't editable."}, true
	case errors.Is(err, account.ErrInvalidRole):
		return InvalidParam("role", "role is not one of administrator, shop_manager, customer."), true
	case errors.As(err, &ie):
		switch {
		case ie.Field == "email":
			return &Error{Status: http.StatusBadRequest, Code: "woocommerce_rest_customer_invalid_email", Message: "Invalid email address."}, true
		case ie.Field == "username":
			return &Error{Status: http.StatusBadRequest, Code: "registration-error-invalid-username", Message: ie.Message}, true
		case ie.Field == "password":
			return &Error{Status: http.StatusBadRequest, Code: "registration-error-invalid-password", Message: ie.Message}, true
		}
		return InvalidParam(ie.Field, ie.Message), true
	}
	return nil, false
}
