package server

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/address"
	"vitrine/internal/adminapi"
	"vitrine/internal/checkout"
	"vitrine/internal/mail"
	"vitrine/internal/orders"
	"vitrine/internal/pages"
	"vitrine/internal/payment"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storeapi"
	"vitrine/internal/storefront"
)

// Order emails. The order store records them in the outbox in the same
// transaction as the order change (placed with an offline method, or paid);
// the mail worker renders them when it sends, from the stored order, through
// OrderMailView. The rows are the order-received page's, so the page and the
// mail never disagree.

// SetMailKick sets what the server calls after a change that queued mail
// (the outbox worker's Kick), so the message goes out at once instead of on
// the next poll.
func (s *Server) SetMailKick(kick func()) { s.mailKick = kick }

// SetMailSender gives the admin's test message (settings' "send a test
// message") the shop's SMTP sender; nil when mail is not configured. Like
// SetMailKick it is called once, before the shop serves.
func (s *Server) SetMailSender(m mail.Sender) { s.mailSender = m }

// sendTestMail sends the admin's test message now, not through the
// outbox: the point is to see the SMTP server's answer.
func (s *Server) sendTestMail(ctx context.Context, to string) error {
	if s.mailSender == nil {
		return adminapi.ErrMailOff
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	name := s.siteName()
	return s.mailSender.Send(ctx, mail.Message{To: []string{to}, Subject: "[" + name + "] Test message",
		Text: "This is a test message from " + name + "'s admin (" + s.cfg.BaseURL + ").\n\nIf you can read it, the shop's mail works.\n"})
}

func (s *Server) kickMail() {
	if s.mailKick != nil {
		s.mailKick()
	}
}

// OrderMailView loads an order and shapes it for the order emails. An
// unknown order is mail.ErrNotFound (the message is given up, not retried).
func (s *Server) OrderMailView(ctx context.Context, id int64) (mail.OrderView, error) {
	o, err := s.db.Order(ctx, id)
	if errors.Is(err, sqlstore.ErrOrderNotFound) {
		return mail.OrderView{}, fmt.Errorf("order %d: %w", id, mail.ErrNotFound)
	}
	if err != nil {
		return mail.OrderView{}, err
	}
	instructions, accounts := s.front.PaymentTexts(o) // as the order-received page shows them
	var bank [][]mail.Row
	for _, a := range accounts {
		var rows []mail.Row
		for _, d := range a.Details {
			rows = append(rows, mail.Row{Label: d.Label, Value: d.Value})
		}
		bank = append(bank, rows)
	}
	pv := pages.NewOrderView(o, s.currencyOf(ctx, o.Currency), instructions)
	v := mail.OrderView{
		ShopName:        s.siteName(),
		Number:          o.Number,
		Date:            pv.Date,
		FirstName:       o.Billing.FirstName,
		CustomerName:    strings.TrimSpace(o.Billing.FirstName + " " + o.Billing.LastName),
		PaymentTitle:    o.PaymentMethodTitle,
		AwaitingPayment: o.PaymentMethod == payment.BankTransferID && !o.Paid(),
		CustomerNote:    o.CustomerNote,
		Billing:         address.Format(o.Billing, s.cfg.Checkout.BaseCountry),
		Email:           o.Billing.Email,
		Phone:           o.Billing.Phone,
		OrderURL:        s.cfg.BaseURL + storeapi.OrderReceivedURL(o),
		TestNotice:      testOrderNotice(o),
	}
	if v.AwaitingPayment {
		v.Instructions, v.BankAccounts = instructions, bank
	}
	if !storefront.SameAddress(o.Billing, o.Shipping) && !address.Blank(o.Shipping) {
		v.Shipping = address.Format(o.Shipping, s.cfg.Checkout.BaseCountry)
	}
	for i, l := range o.Lines {
		var opts []string
		for _, a := range l.Variation {
			opts = append(opts, a.Attribute+": "+a.Value)
		}
		v.Lines = append(v.Lines, mail.LineView{Name: l.Name, SKU: l.SKU, Variation: strings.Join(opts, ", "),
			Quantity: strconv.FormatInt(l.Quantity, 10), Total: pv.Lines[i].Total})
	}
	for _, t := range pv.Totals {
		v.Totals = append(v.Totals, mail.Row{Label: t.Label, Value: t.Value})
	}
	// Completed refunds, as WooCommerce's mails list them under the total.
	refunds, err := s.db.OrderRefunds(ctx, id)
	if err != nil {
		return mail.OrderView{}, err
	}
	cur := s.currencyOf(ctx, o.Currency)
	for i := len(refunds) - 1; i >= 0; i-- {
		if r := refunds[i]; r.Status == orders.RefundCompleted {
			v.Totals = append(v.Totals, mail.Row{Label: "Refund:", Value: "-" + cur.Format(r.Amount)})
		}
	}
	v.FullRefund = o.Status == checkout.StatusRefunded
	return v, nil
}

// CustomerNoteMailView loads a customer note for its mail: its order's
// view with the note's text. An unknown note is mail.ErrNotFound.
func (s *Server) CustomerNoteMailView(ctx context.Context, noteID int64) (mail.OrderView, error) {
	n, err := s.db.OrderNote(ctx, noteID)
	if errors.Is(err, sqlstore.ErrOrderNotFound) {
		return mail.OrderView{}, fmt.Errorf("order note %d: %w", noteID, mail.ErrNotFound)
	}
	if err != nil {
		return mail.OrderView{}, err
	}
	v, err := s.OrderMailView(ctx, n.OrderID)
	v.Note = n.Note
	return v, err
}
