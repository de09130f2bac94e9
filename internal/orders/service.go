package orders

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"vitrine/internal/checkout"
	"vitrine/internal/money"
)

// Limits of what staff write.
const (
	MaxNote   = 5000
	MaxReason = 255 // PayPal's note_to_payer
	MaxKey    = 128
)

// Targets are the statuses staff may move an order to.
var Targets = []string{checkout.StatusProcessing, checkout.StatusCompleted, checkout.StatusOnHold,
	checkout.StatusCancelled, checkout.StatusRefunded}

// refundable are the statuses an order may be refunded in.
var refundable = []string{checkout.StatusProcessing, checkout.StatusCompleted, checkout.StatusOnHold, checkout.StatusRefunded}

// List answers a page of orders and how many match.
func (s *Service) List(ctx context.Context, q Query) ([]*checkout.Order, int, error) {
	for _, st := range q.Statuses {
		if !slices.Contains(checkout.Statuses, st) {
			return nil, 0, &Invalid{Field: "status", Message: fmt.Sprintf("%q is not an order status.", st)}
		}
	}
	q.Search = strings.TrimSpace(q.Search)
	if utf8.RuneCountInString(q.Search) > 100 {
		return nil, 0, &Invalid{Field: "search", Message: "Search for at most 100 characters."}
	}
	return s.Store.ListOrders(ctx, q)
}

// Counts is how many orders each status has (the list's tabs).
func (s *Service) Counts(ctx context.Context) (map[string]int, error) {
	return s.Store.OrderStatusCounts(ctx)
}

// Get is an order with its notes, refunds and mail log.
func (s *Service) Get(ctx context.Context, id int64) (*Detail, error) {
	o, err := s.Store.Order(ctx, id)
	if err != nil {
		return nil, err
	}
	d := &Detail{Order: o, LineRefunds: map[int]RefundLine{}, Money: s.currency(ctx, o.Currency)}
	if d.Notes, err = s.Store.OrderNotes(ctx, id); err != nil {
		return nil, err
	}
	if d.Refunds, err = s.Store.OrderRefunds(ctx, id); err != nil {
		return nil, err
	}
	if d.Mails, err = s.Store.OrderMails(ctx, id); err != nil {
		return nil, err
	}
	if d.Restocked, err = s.Store.OrderRestocked(ctx, id); err != nil {
		return nil, err
	}
	for _, r := range d.Refunds {
		if r.Status == RefundFailed {
			continue
		}
		d.Reserved += r.Amount
		if r.Status == RefundCompleted {
			d.Refunded += r.Amount
		}
		for _, l := range r.Lines {
			lr := d.LineRefunds[l.Line]
			lr.Line = l.Line
			lr.Quantity += l.Quantity
			lr.Total += l.Total
			d.LineRefunds[l.Line] = lr
		}
	}
	return d, nil
}

// Note is one order note (a customer note's mail renders it);
// checkout.ErrOrderNotFound for an unknown id.
func (s *Service) Note(ctx context.Context, id int64) (Note, error) {
	return s.Store.OrderNote(ctx, id)
}

// SetStatus moves an order to one of Targets. Cancelling puts back every
// unit not put back yet (as WooCommerce restores stock on cancel);
// refunded refunds everything left (through the provider for a wallet
// order, with every unit put back), as a refund of the whole would.
// Moving an offline order that waits for its payment to processing or
// completed records the payment. An unpaid wallet order cannot be made
// processing or completed (the capture decides that), and a cancelled or
// refunded order is final.
func (s *Service) SetStatus(ctx context.Context, id int64, to string, by Staff) (*Detail, error) {
	if !slices.Contains(Targets, to) {
		return nil, &Invalid{Field: "status", Message: "Choose processing, completed, on-hold, cancelled or refunded."}
	}
	d, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	from := d.Status
	if from == to {
		return d, nil
	}
	if to == checkout.StatusRefunded && d.Left() > 0 {
		_, err := s.Refund(ctx, RefundRequest{OrderID: id, Key: fmt.Sprintf("status-refunded-%d", d.Left()), Amount: d.Left(),
			Reason: "Order fully refunded.", Restock: true, All: true, By: by})
		if err != nil {
			return nil, err
		}
		return s.Get(ctx, id)
	}
	if from == checkout.StatusCancelled || from == checkout.StatusRefunded || !checkout.CanTransition(from, to) {
		return nil, &Invalid{Field: "status", Message: fmt.Sprintf("An order that is %s cannot be made %s.", Label(from), Label(to))}
	}
	_, gateway := s.Refunders[d.PaymentMethod]
	paying := to == checkout.StatusProcessing || to == checkout.StatusCompleted
	if paying && gateway && !d.Paid() {
		return nil, &Invalid{Field: "status", Message: "This order waits for its PayPal payment: it becomes processing when the payment is captured."}
	}
	c := StatusChange{OrderID: id, From: from, To: to, MarkPaid: paying && !d.Paid(), Restock: to == checkout.StatusCancelled,
		Note: fmt.Sprintf("Order status changed from %s to %s by %s.", Label(from), Label(to), by.Name), Now: s.now()}
	if c.Restock {
		c.Note += " Its items were put back in stock."
	}
	if err := s.Store.ChangeOrderStatus(ctx, c); err != nil {
		return nil, err
	}
	if to == checkout.StatusCompleted {
		s.kick() // the completed-order mail
	}
	return s.Get(ctx, id)
}

// Label is a status as people read it ("On hold").
func Label(status string) string {
	switch status {
	case checkout.StatusOnHold:
		return "On hold"
	case checkout.StatusDraft:
		return "Draft"
	case "":
		return ""
	}
	return strings.ToUpper(status[:1]) + status[1:]
}

// AddNote adds a note; a customer note is mailed to the customer.
func (s *Service) AddNote(ctx context.Context, id int64, text string, customer bool, by Staff) (Note, error) {
	text = strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n"))
	if text == "" {
		return Note{}, &Invalid{Field: "note", Message: "Write a note."}
	}
	if utf8.RuneCountInString(text) > MaxNote || !utf8.ValidString(text) {
		return Note{}, &Invalid{Field: "note", Message: fmt.Sprintf("A note has at most %d characters.", MaxNote)}
	}
	o, err := s.Store.Order(ctx, id)
	if err != nil {
		return Note{}, err
	}
	if customer && strings.TrimSpace(o.Billing.Email) == "" {
		return Note{}, &Invalid{Field: "customer_note", Message: "This order has no email address to send the note to."}
	}
	n, err := s.Store.AddOrderNote(ctx, Note{OrderID: id, Note: text, Customer: customer, AddedBy: by.ID, Author: by.Name, Created: s.now()})
	if err != nil {
		return Note{}, err
	}
	if customer {
		s.kick()
	}
	return n, nil
}

// ResendMail queues an order mail again (Resendable kinds).
func (s *Service) ResendMail(ctx context.Context, id int64, kind string, by Staff) error {
	if !slices.Contains(Resendable, kind) {
		return &Invalid{Field: "kind", Message: "Choose order_confirmation or new_order."}
	}
	o, err := s.Store.Order(ctx, id)
	if err != nil {
		return err
	}
	if o.Status == checkout.StatusDraft {
		return &Invalid{Field: "kind", Message: "A draft order has no mails."}
	}
	if kind == MailOrderConfirmation && strings.TrimSpace(o.Billing.Email) == "" {
		return &Invalid{Field: "kind", Message: "This order has no email address to send the confirmation to."}
	}
	if err := s.Store.QueueOrderMail(ctx, id, kind, s.now()); err != nil {
		return err
	}
	if _, err := s.Store.AddOrderNote(ctx, Note{OrderID: id, Note: fmt.Sprintf("%s mail sent again by %s.", mailLabel(kind), by.Name),
		Created: s.now()}); err != nil {
		return err
	}
	s.kick()
	return nil
}

func mailLabel(kind string) string {
	if kind == MailNewOrder {
		return "The new-order"
	}
	return "The order confirmation"
}

// RefundRequest is a refund as staff asked for it.
type RefundRequest struct {
	OrderID int64
	// Key is the idempotency key (the form's): a double submit with the
	// same key and request is one refund. Empty: a key of its own.
	Key    string
	Amount int64
	Reason string
	Lines  []RefundLine
	// Restock puts the lines' quantities back in stock (All: every unit
	// not put back yet).
	Restock bool
	All     bool
	By      Staff
	// Texts, when set, gives the amounts as a form or the REST API sends
	// them: decimal strings in the order's currency ("12.50"), read in
	// place of Amount and the lines' totals.
	Texts *RefundTexts
}

// RefundTexts are a refund's amounts as decimal strings.
type RefundTexts struct {
	Amount string
	// Lines are the lines' totals by position ("" or missing: 0).
	Lines map[int]string
}

// Refund refunds an order: through its payment method's Refunder (the
// wallet: PayPal's refund API, with a PayPal-Request-Id stored before the
// call) or, for the other methods, recorded as a manual refund. The amount
// may never be more than what is left to refund (pending refunds count),
// checked under the order's lock, so neither two staff members at once nor
// a double submit refund more than was paid; the same key and request
// answer the same refund (Replayed), and a pending one is finished with
// the same PayPal-Request-Id, so the provider refunds once.
func (s *Service) Refund(ctx context.Context, in RefundRequest) (Refund, error) {
	in.Reason = strings.TrimSpace(in.Reason)
	if in.Texts == nil && in.Amount <= 0 {
		return Refund{}, &Invalid{Field: "amount", Message: "Enter an amount to refund greater than zero."}
	}
	if utf8.RuneCountInString(in.Reason) > MaxReason || !utf8.ValidString(in.Reason) {
		return Refund{}, &Invalid{Field: "reason", Message: fmt.Sprintf("A reason has at most %d characters.", MaxReason)}
	}
	if len(in.Key) > MaxKey {
		return Refund{}, &Invalid{Field: "idempotency_key", Message: fmt.Sprintf("An idempotency key has at most %d characters.", MaxKey)}
	}
	d, err := s.Get(ctx, in.OrderID)
	if err != nil {
		return Refund{}, err
	}
	if t := in.Texts; t != nil {
		v, err := money.Parse(t.Amount, d.Money.MinorUnit)
		if err != nil || v <= 0 {
			return Refund{}, &Invalid{Field: "amount", Message: fmt.Sprintf("Enter an amount to refund greater than zero, such as %s.", d.Money.FormatNumber(1250))}
		}
		in.Amount = v
		for i := range in.Lines {
			txt := strings.TrimSpace(t.Lines[in.Lines[i].Line])
			if txt == "" {
				continue
			}
			v, err := money.Parse(txt, d.Money.MinorUnit)
			if err != nil {
				return Refund{}, &Invalid{Field: "line_items", Message: fmt.Sprintf("Enter each line's amount as a number, such as %s.", d.Money.FormatNumber(1250))}
			}
			in.Lines[i].Total = v
		}
	}
	if !slices.Contains(refundable, d.Status) {
		return Refund{}, &Invalid{Field: "amount", Message: fmt.Sprintf("An order that is %s cannot be refunded.", Label(d.Status))}
	}
	seen := map[int]bool{}
	var lines []RefundLine
	for _, l := range in.Lines {
		if l.Line < 0 || l.Line >= len(d.Lines) || seen[l.Line] {
			return Refund{}, &Invalid{Field: "line_items", Message: "A refunded line is not a line of this order."}
		}
		seen[l.Line] = true
		ol := d.Lines[l.Line]
		done := d.LineRefunds[l.Line]
		if l.Quantity < 0 || l.Quantity > ol.Quantity-done.Quantity {
			return Refund{}, &Invalid{Field: "line_items", Message: fmt.Sprintf("At most %d of %s can be refunded.", max(ol.Quantity-done.Quantity, 0), ol.Name)}
		}
		if l.Total < 0 || l.Total > ol.Total+ol.TotalTax-done.Total {
			return Refund{}, &Invalid{Field: "line_items", Message: fmt.Sprintf("The amount refunded for %s is more than was paid for it.", ol.Name)}
		}
		if l.Quantity > 0 || l.Total > 0 {
			lines = append(lines, l)
		}
	}
	slices.SortFunc(lines, func(a, b RefundLine) int { return a.Line - b.Line })
	if in.All {
		lines = nil
		for i, ol := range d.Lines {
			done := d.LineRefunds[i]
			if q := ol.Quantity - done.Quantity; q > 0 {
				lines = append(lines, RefundLine{Line: i, Quantity: q, Total: max(ol.Total+ol.TotalTax-done.Total, 0)})
			}
		}
	}
	method := MethodManual
	refunder := s.Refunders[d.PaymentMethod]
	if refunder != nil {
		if !d.Paid() || d.CaptureID == "" {
			return Refund{}, &Invalid{Field: "amount", Message: "This order has no captured payment to refund."}
		}
		method = d.PaymentMethod
	}
	// A quick answer for the common mistake; the store checks again under
	// the order's lock.
	if in.Amount > d.Left() && in.Key == "" {
		return Refund{}, ErrRefundTooMuch
	}
	hash := requestHash(in.Amount, in.Reason, lines, in.Restock)
	how := "manually"
	if method != MethodManual {
		how = "through " + d.PaymentMethodTitle
	}
	note := fmt.Sprintf("Refunded %s %s by %s.", s.format(ctx, in.Amount, d.Currency), how, in.By.Name)
	if in.Reason != "" {
		note += " Reason: " + in.Reason
	}
	if in.Restock && len(lines) > 0 {
		note += " Refunded items were put back in stock."
	}
	key := in.Key
	if key == "" {
		key = randomKey()
	}
	r, err := s.Store.BeginRefund(ctx, NewRefund{OrderID: in.OrderID, Key: key, RequestHash: hash, Amount: in.Amount, Reason: in.Reason,
		Method: method, Lines: lines, Restock: in.Restock, By: in.By, Note: note, Now: s.now()})
	if err != nil {
		return Refund{}, err
	}
	switch r.Status {
	case RefundCompleted:
		if !r.Replayed {
			s.kick()
		}
		return r, nil
	case RefundFailed:
		return r, &ProviderError{Message: r.Error}
	}
	return s.settle(ctx, d, r, refunder, note)
}

// settle asks the provider for a pending refund, with its stored
// PayPal-Request-Id, and records the answer: completed, failed (the
// provider refused), or still pending (no answer: ErrRefundUnknown).
func (s *Service) settle(ctx context.Context, d *Detail, r Refund, refunder Refunder, note string) (Refund, error) {
	if refunder == nil {
		return r, fmt.Errorf("orders: refund %d of order %d is pending with no refunder for %s", r.ID, r.OrderID, r.Method)
	}
	providerID, err := refunder.Refund(ctx, d.Order, r.Amount, r.ProviderRequestID, r.Reason)
	var pe *ProviderError
	if errors.As(err, &pe) {
		failed, ferr := s.Store.FailRefund(ctx, r.ID, pe.Message, s.now())
		if ferr != nil {
			return r, ferr
		}
		return failed, err
	}
	if err != nil {
		if s.Log != nil {
			s.Log.Warn("refund outcome unknown; it stays pending", "order", r.OrderID, "refund", r.ID, "err", err)
		}
		return r, ErrRefundUnknown
	}
	done, err := s.Store.CompleteRefund(ctx, r.ID, providerID, note, s.now())
	if err != nil {
		return r, err
	}
	done.Replayed = r.Replayed
	s.kick()
	return done, nil
}

// FinishRefund asks the provider again for a refund left pending (its
// answer was lost and nobody sent the form again), with the refund's
// stored PayPal-Request-Id: the provider replays the refund it made, or
// makes it once. A refund no longer pending is answered as it is.
func (s *Service) FinishRefund(ctx context.Context, orderID, refundID int64, by Staff) (Refund, error) {
	d, err := s.Get(ctx, orderID)
	if err != nil {
		return Refund{}, err
	}
	var r *Refund
	for i := range d.Refunds {
		if d.Refunds[i].ID == refundID {
			r = &d.Refunds[i]
		}
	}
	if r == nil {
		return Refund{}, ErrNotFound
	}
	if r.Status != RefundPending {
		return *r, nil
	}
	note := fmt.Sprintf("Refunded %s through %s by %s (finished by %s).", s.format(ctx, r.Amount, d.Currency), d.PaymentMethodTitle, r.Author, by.Name)
	if r.Reason != "" {
		note += " Reason: " + r.Reason
	}
	return s.settle(ctx, d, *r, s.Refunders[r.Method], note)
}

// requestHash names what a refund asked, for its idempotency key.
func requestHash(amount int64, reason string, lines []RefundLine, restock bool) string {
	b, _ := json.Marshal(struct {
		A int64        `json:"a"`
		R string       `json:"r"`
		L []RefundLine `json:"l"`
		S bool         `json:"s"`
	}{amount, reason, lines, restock})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func randomKey() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return "auto-" + hex.EncodeToString(b)
}

// Delete deletes an order for good and answers it as it was (there is no
// trash: the REST API's DELETE needs force=true). A pending order's held
// stock and coupon uses are given back; a paid order's payment is not
// refunded (refund it first).
func (s *Service) Delete(ctx context.Context, id int64) (*Detail, error) {
	d, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := s.Store.DeleteOrder(ctx, id, s.now()); err != nil {
		return nil, err
	}
	return d, nil
}
