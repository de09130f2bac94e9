package mail

import (
	"bytes"
	"embed"
	"fmt"
	htmltemplate "html/template"
	"strings"
	texttemplate "text/template"
)

// OrderView is what the order emails show, already formatted (money with
// its currency, dates in the shop's format, addresses as lines), so this
// package does not depend on the order model. Every string is text: the
// HTML part escapes it.
type OrderView struct {
	ShopName string
	// Number is the order number shown to people ("1234", without "#").
	Number string
	// Date is the order date, formatted ("November 22, 2026").
	Date string
	// FirstName greets the shopper ("Hi Jane,"); CustomerName names them
	// in the shop's notice ("from Jane Doe").
	FirstName    string
	CustomerName string
	Lines        []LineView
	// Totals are the rows under the lines, in order: subtotal, discount,
	// shipping, taxes, total ("Subtotal:", "$56.00").
	Totals []Row
	// PaymentTitle is the payment method's title ("Direct bank transfer").
	// The order table shows it from its "Payment method:" row of Totals,
	// as the order-received page does; the templates never add another.
	PaymentTitle string
	// AwaitingPayment says the order is on hold until payment arrives (bank
	// transfer), which changes the confirmation's opening.
	AwaitingPayment bool
	// Instructions are the payment method's instructions, shown in the
	// confirmation (bank transfer); blank lines separate paragraphs.
	Instructions string
	// BankAccounts are the shop's accounts for a bank transfer, each a
	// list of its details ("Account number", "12345678"), listed once
	// under "Our bank details" (the instructions never repeat them).
	BankAccounts [][]Row
	CustomerNote string
	// Billing and Shipping are the addresses as lines; Shipping empty hides
	// the shipping address.
	Billing  []string
	Shipping []string
	Email    string
	Phone    string
	// OrderURL is the order-received page with its key (the confirmation's
	// link); AdminURL the order in the shop's back office (the notice's
	// link, optional).
	OrderURL string
	AdminURL string
	// FullRefund says the order is wholly refunded (the refund mail's
	// opening); the refunds are rows of Totals.
	FullRefund bool
	// Note is a customer note's text (the customer-note mail); blank
	// lines separate paragraphs.
	Note string
	// TestNotice, when set, marks a test order (paid in a payment sandbox,
	// no money taken): both mails carry it in the subject ("[Test] ") and
	// as a line at the top of the body.
	TestNotice string
}

// LineView is one order line.
type LineView struct {
	Name string
	SKU  string
	// Variation describes the chosen options ("Color: Rust, Size: M").
	Variation string
	Quantity  string
	// Total is the line total as paid.
	Total string
}

// Row is a label and a value.
type Row struct {
	Label, Value string
}

//go:embed templates
var templateFS embed.FS

// page is what the templates execute on: the view plus the texts of the kind.
type page struct {
	OrderView
	Subject string
	Heading string
}

var funcs = map[string]any{"paragraphs": paragraphs}

type kindTemplates struct {
	html *htmltemplate.Template
	text *texttemplate.Template
}

var templates = map[string]kindTemplates{
	KindOrderConfirmation: parseKind(KindOrderConfirmation),
	KindNewOrder:          parseKind(KindNewOrder),
	KindCustomerNote:      parseKind(KindCustomerNote),
	KindOrderCompleted:    parseKind(KindOrderCompleted),
	KindOrderRefunded:     parseKind(KindOrderRefunded),

	KindAccountPasswordReset:   parseKind(KindAccountPasswordReset),
	KindAccountVerifyEmail:     parseKind(KindAccountVerifyEmail),
	KindAccountPasswordChanged: parseKind(KindAccountPasswordChanged),
	KindAccountEmailChanged:    parseKind(KindAccountEmailChanged),
	KindAccountRegisterAttempt: parseKind(KindAccountRegisterAttempt),
	KindAccountInvitation:      parseKind(KindAccountInvitation),
}

func parseKind(kind string) kindTemplates {
	return kindTemplates{
		html: htmltemplate.Must(htmltemplate.New(kind).Funcs(funcs).ParseFS(templateFS,
			"templates/layout.html", "templates/"+kind+".html")),
		text: texttemplate.Must(texttemplate.New(kind).Funcs(funcs).ParseFS(templateFS,
			"templates/layout.txt", "templates/"+kind+".txt")),
	}
}

// OrderConfirmation renders the order confirmation sent to the shopper at
// to ("Thank you for your order").
func OrderConfirmation(v OrderView, to string) (Message, error) {
	p := page{OrderView: v, Subject: oneLine(fmt.Sprintf("Your %s order has been received!", v.ShopName)), Heading: "Thank you for your order"}
	m, err := render(KindOrderConfirmation, p)
	m.To = []string{to}
	return m, err
}

// NewOrderNotice renders the new-order notice sent to the shop at to. Its
// Reply-To is the shopper's email, so answering reaches them.
func NewOrderNotice(v OrderView, to []string) (Message, error) {
	p := page{OrderView: v, Subject: oneLine(fmt.Sprintf("[%s]: New order #%s", v.ShopName, v.Number)), Heading: "New order: #" + oneLine(v.Number)}
	m, err := render(KindNewOrder, p)
	m.To = to
	m.ReplyTo = v.Email
	return m, err
}

// CustomerNote renders a note staff added to an order for its customer,
// sent to to ("A note has been added to your order"); v.Note is the note.
func CustomerNote(v OrderView, to string) (Message, error) {
	p := page{OrderView: v, Subject: oneLine(fmt.Sprintf("Note added to your %s order from %s", v.ShopName, v.Date)),
		Heading: "A note has been added to your order"}
	m, err := render(KindCustomerNote, p)
	m.To = []string{to}
	return m, err
}

// OrderCompleted renders the shopper's "your order is complete" mail.
func OrderCompleted(v OrderView, to string) (Message, error) {
	p := page{OrderView: v, Subject: oneLine(fmt.Sprintf("Your %s order is now complete", v.ShopName)), Heading: "Thanks for shopping with us"}
	m, err := render(KindOrderCompleted, p)
	m.To = []string{to}
	return m, err
}

// OrderRefunded renders the shopper's refund mail (v.FullRefund: the
// whole order).
func OrderRefunded(v OrderView, to string) (Message, error) {
	what, heading := "partially refunded", "Partial refund: Order "+oneLine(v.Number)
	if v.FullRefund {
		what, heading = "refunded", "Order refunded: "+oneLine(v.Number)
	}
	p := page{OrderView: v, Subject: oneLine(fmt.Sprintf("Your %s order #%s has been %s", v.ShopName, v.Number, what)), Heading: heading}
	m, err := render(KindOrderRefunded, p)
	m.To = []string{to}
	return m, err
}

func render(kind string, p page) (Message, error) {
	if p.TestNotice != "" {
		p.Subject = "[Test] " + p.Subject
	}
	return templates[kind].render(kind, p, p.Subject)
}

// render executes the kind's templates with p: a message to to (if
// given) with subject and its HTML and text bodies. A template that fails
// is a permanent error.
func (t kindTemplates) render(kind string, p any, subject string, to ...string) (Message, error) {
	var h, x bytes.Buffer
	if err := t.html.ExecuteTemplate(&h, "layout", p); err != nil {
		return Message{}, Permanent(fmt.Errorf("render %s html: %w", kind, err))
	}
	if err := t.text.ExecuteTemplate(&x, "body", p); err != nil {
		return Message{}, Permanent(fmt.Errorf("render %s text: %w", kind, err))
	}
	return Message{To: to, Subject: subject, HTML: h.String(), Text: tidyText(x.String())}, nil
}

// paragraphs splits text on blank lines, dropping empty paragraphs and
// folding the line breaks inside one.
func paragraphs(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var out []string
	for _, p := range strings.Split(s, "\n\n") {
		p = strings.Join(strings.Fields(p), " ")
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// oneLine makes s fit a header: line breaks become spaces.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// tidyText trims trailing spaces and collapses runs of blank lines that
// optional sections leave in the text part.
func tidyText(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	var b strings.Builder
	blank := 0
	for _, l := range lines {
		if l != "-- " { // the signature separator keeps its space
			l = strings.TrimRight(l, " \t")
		}
		if l == "" {
			blank++
			if blank > 1 || b.Len() == 0 {
				continue
			}
		} else {
			blank = 0
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}
