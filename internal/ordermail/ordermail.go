// Package ordermail shapes an order for the order emails. The order store
// queues them in the outbox in the transaction of the order's change
// (placed with an offline method, paid, completed, refunded, a customer
// note); the mail worker renders each when it sends, from the order as it
// is then, through Views. The rows are the order-received page's
// (pages.NewOrderView), so the page and the mail never disagree.
package ordermail

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"vitrine/internal/address"
	"vitrine/internal/checkout"
	"vitrine/internal/mail"
	"vitrine/internal/orders"
	"vitrine/internal/pages"
	"vitrine/internal/payment"
	"vitrine/internal/storeapi"
)

// Orders is what the views read: an order with its refunds, and a note.
// orders.Service is one.
type Orders interface {
	Get(ctx context.Context, id int64) (*orders.Detail, error)
	Note(ctx context.Context, id int64) (orders.Note, error)
}

// Deps are what the views need from the rest of the shop.
type Deps struct {
	Orders Orders
	// PaymentTexts are the instructions and bank accounts of an order's
	// payment method, as the order-received page shows them.
	PaymentTexts func(*checkout.Order) (instructions string, accounts []pages.BankAccountView)
	// TestNotice is what the order's page says of a test order ("" for a
	// real one).
	TestNotice func(*checkout.Order) string
	// SiteName is the shop's name now (staff may change it).
	SiteName    func() string
	BaseURL     string
	BaseCountry string
}

// Views renders orders and customer notes for mail.Renderers.
type Views struct{ d Deps }

// New returns the views over d.
func New(d Deps) *Views { return &Views{d: d} }

// Order loads an order and shapes it for the order emails. An unknown
// order is mail.ErrNotFound (the message is given up, not retried).
func (v *Views) Order(ctx context.Context, id int64) (mail.OrderView, error) {
	d, err := v.d.Orders.Get(ctx, id)
	if errors.Is(err, checkout.ErrOrderNotFound) {
		return mail.OrderView{}, fmt.Errorf("order %d: %w", id, mail.ErrNotFound)
	}
	if err != nil {
		return mail.OrderView{}, err
	}
	o := d.Order
	instructions, accounts := v.d.PaymentTexts(o)
	pv := pages.NewOrderView(o, d.Money, instructions)
	m := mail.OrderView{
		ShopName:        v.d.SiteName(),
		Number:          o.Number,
		Date:            pv.Date,
		FirstName:       o.Billing.FirstName,
		CustomerName:    strings.TrimSpace(o.Billing.FirstName + " " + o.Billing.LastName),
		PaymentTitle:    o.PaymentMethodTitle,
		AwaitingPayment: o.PaymentMethod == payment.BankTransferID && !o.Paid(),
		CustomerNote:    o.CustomerNote,
		Billing:         address.Format(o.Billing, v.d.BaseCountry),
		Email:           o.Billing.Email,
		Phone:           o.Billing.Phone,
		OrderURL:        v.d.BaseURL + storeapi.OrderReceivedURL(o),
		TestNotice:      v.d.TestNotice(o),
		FullRefund:      o.Status == checkout.StatusRefunded,
	}
	if m.AwaitingPayment {
		m.Instructions, m.BankAccounts = instructions, bankRows(accounts)
	}
	if !address.Same(o.Billing, o.Shipping) && !address.Blank(o.Shipping) {
		m.Shipping = address.Format(o.Shipping, v.d.BaseCountry)
	}
	for i, l := range o.Lines {
		var opts []string
		for _, a := range l.Variation {
			opts = append(opts, a.Attribute+": "+a.Value)
		}
		m.Lines = append(m.Lines, mail.LineView{Name: l.Name, SKU: l.SKU, Variation: strings.Join(opts, ", "),
			Quantity: strconv.FormatInt(l.Quantity, 10), Total: pv.Lines[i].Total})
	}
	for _, t := range pv.Totals {
		m.Totals = append(m.Totals, mail.Row{Label: t.Label, Value: t.Value})
	}
	// Completed refunds, newest last, as WooCommerce's mails list them
	// under the total.
	for i := len(d.Refunds) - 1; i >= 0; i-- {
		if r := d.Refunds[i]; r.Status == orders.RefundCompleted {
			m.Totals = append(m.Totals, mail.Row{Label: "Refund:", Value: "-" + d.Money.Format(r.Amount)})
		}
	}
	return m, nil
}

// CustomerNote loads a customer note for its mail: its order's view with
// the note's text. An unknown note is mail.ErrNotFound.
func (v *Views) CustomerNote(ctx context.Context, noteID int64) (mail.OrderView, error) {
	n, err := v.d.Orders.Note(ctx, noteID)
	if errors.Is(err, checkout.ErrOrderNotFound) {
		return mail.OrderView{}, fmt.Errorf("order note %d: %w", noteID, mail.ErrNotFound)
	}
	if err != nil {
		return mail.OrderView{}, err
	}
	m, err := v.Order(ctx, n.OrderID)
	m.Note = n.Note
	return m, err
}

// bankRows are the bank accounts as the mail's label and value rows.
func bankRows(accounts []pages.BankAccountView) [][]mail.Row {
	var bank [][]mail.Row
	for _, a := range accounts {
		var rows []mail.Row
		for _, d := range a.Details {
			rows = append(rows, mail.Row{Label: d.Label, Value: d.Value})
		}
		bank = append(bank, rows)
	}
	return bank
}
