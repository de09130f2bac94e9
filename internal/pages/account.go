package pages

import (
	"context"
	"fmt"
	"strconv"

	"vitrine/internal/address"
	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/money"
)

// The customer's account pages (/my-account/…): per customer, rendered per
// request, never cached. The server reads the account (internal/account)
// and hands the loader plain values; the loader adds the page frame.

// Account page sections (the React app picks the view by section).
const (
	SectionDashboard   = "dashboard"
	SectionOrders      = "orders"
	SectionViewOrder   = "view-order"
	SectionEditAddress = "edit-address"
	SectionEditAccount = "edit-account"
)

// AccountCustomer is who is logged in, as the pages greet them.
type AccountCustomer struct {
	DisplayName   string `json:"display_name"`
	Email         string `json:"email"`
	EmailVerified bool   `json:"email_verified"`
}

// FormErrors are a refused form's messages: notices, and per field by the
// form's field name ("billing_postcode", "password_current").
type FormErrors struct {
	Notices []string          `json:"notices"`
	Fields  map[string]string `json:"fields"`
}

// AccountOrderRow is one row of the orders table.
type AccountOrderRow struct {
	ID          int64  `json:"id"`
	Number      string `json:"number"`
	DateCreated string `json:"date_created"` // RFC 3339, for <time>
	Date        string `json:"date"`         // as shown
	Status      string `json:"status"`
	StatusLabel string `json:"status_label"`
	Total       string `json:"total"` // "$12.00 for 2 items"
	URL         string `json:"url"`
}

// AccountOrders is a page of the orders table.
type AccountOrders struct {
	Rows    []AccountOrderRow `json:"rows"`
	Page    int               `json:"page"`
	Pages   int               `json:"pages"`
	Total   int               `json:"total"`
	PrevURL string            `json:"prev_url"`
	NextURL string            `json:"next_url"`
}

// AccountAddresses are the saved addresses (nil: none saved yet).
type AccountAddresses struct {
	Billing  *BillingAddress `json:"billing"`
	Shipping *cart.Address   `json:"shipping"`
	// BillingLines and ShippingLines are the saved addresses as their
	// countries write them (internal/address); the loader fills them.
	BillingLines  []string `json:"billing_lines"`
	ShippingLines []string `json:"shipping_lines"`
}

// AddressForm is the edit-address form of one kind.
type AddressForm struct {
	Kind   string         `json:"kind"` // billing or shipping
	Values BillingAddress `json:"values"`
	Nonce  string         `json:"nonce"` // woocommerce-edit-address-nonce
}

// AccountForm is the account details form and the delete-account form.
type AccountForm struct {
	FirstName   string `json:"first_name"`
	LastName    string `json:"last_name"`
	DisplayName string `json:"display_name"`
	Email       string `json:"email"`
	Nonce       string `json:"nonce"`        // save-account-details-nonce
	DeleteNonce string `json:"delete_nonce"` // delete-account-nonce
	// PrivacyNonce is the privacy request form's (privacy-request-nonce).
	PrivacyNonce string `json:"privacy_nonce"`
}

// AccountPage is an account page's data (web/src/types.ts AccountPage).
type AccountPage struct {
	Base
	Section   string          `json:"section"`
	LogoutURL string          `json:"logout_url"`
	Customer  AccountCustomer `json:"customer"`
	// Notice is a success notice, shown once after a redirect.
	Notice string      `json:"notice"`
	Errors *FormErrors `json:"errors"`

	Orders        *AccountOrders    `json:"orders,omitempty"`
	Order         *OrderView        `json:"order,omitempty"`
	Addresses     *AccountAddresses `json:"addresses,omitempty"`
	AddressForm   *AddressForm      `json:"address_form,omitempty"`
	Countries     []CountryFields   `json:"countries,omitempty"`
	PhoneRequired bool              `json:"phone_required,omitempty"`
	AccountForm   *AccountForm      `json:"account_form,omitempty"`
}

// AccountInput is what the server hands the loader: the page data without
// the frame, and the status (200, 400 for a refused form, 403 for a bad
// nonce, 404 for an order that is not the customer's or a page past the
// end).
type AccountInput struct {
	Page   AccountPage
	Title  string
	Status int
}

// Account loads an account page.
func (l *Loader) Account(ctx context.Context, reqURL string, in AccountInput) (*Result, error) {
	e, err := l.setup(ctx, "account", reqURL)
	if err != nil {
		return nil, err
	}
	title := in.Title
	if title == "" {
		title = "My account"
	}
	h := l.privateHead(title, "", l.accountDescription())
	status := in.Status
	if status == 0 {
		status = 200
	}
	p := in.Page
	p.Base = e.base
	if p.Order != nil {
		p.Order.formatAddresses(l.BaseCountry)
	}
	if a := p.Addresses; a != nil {
		a.BillingLines, a.ShippingLines = []string{}, []string{}
		if a.Billing != nil {
			a.BillingLines = nonNil(address.Format(a.Billing.Address, l.BaseCountry))
		}
		if a.Shipping != nil {
			a.ShippingLines = nonNil(address.Format(*a.Shipping, l.BaseCountry))
		}
	}
	return &Result{Status: status, Head: h, Data: p}, nil
}

// StatusLabel is WooCommerce's name of an order status.
func StatusLabel(status string) string {
	switch status {
	case checkout.StatusPending:
		return "Pending payment"
	case checkout.StatusOnHold:
		return "On hold"
	case checkout.StatusDraft:
		return "Draft"
	}
	if status == "" {
		return ""
	}
	return string(status[0]-'a'+'A') + status[1:]
}

// NewAccountOrderRow shapes an order for the orders table.
func NewAccountOrderRow(o *checkout.Order, cur money.Currency) AccountOrderRow {
	var items int64
	for _, l := range o.Lines {
		items += l.Quantity
	}
	unit := "items"
	if items == 1 {
		unit = "item"
	}
	return AccountOrderRow{ID: o.ID, Number: o.Number, DateCreated: o.CreatedAt.UTC().Format("2006-01-02T15:04:05Z07:00"),
		Date: formatDate(o.CreatedAt), Status: o.Status, StatusLabel: StatusLabel(o.Status),
		Total: fmt.Sprintf("%s for %d %s", cur.Format(o.Total), items, unit),
		URL:   "/my-account/view-order/" + strconv.FormatInt(o.ID, 10) + "/"}
}
