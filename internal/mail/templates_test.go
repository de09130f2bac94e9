package mail_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"vitrine/internal/mail"
)

func sampleView() mail.OrderView {
	return mail.OrderView{
		ShopName:     "Vitrine Demo",
		Number:       "1042",
		Date:         "November 22, 2026",
		FirstName:    "Jane",
		CustomerName: "Jane Doe",
		Lines: []mail.LineView{
			{Name: "Linen shirt", SKU: "LS-1", Variation: "Color: Rust, Size: M", Quantity: "2", Total: "$56.00"},
			{Name: "Canvas cap", Quantity: "1", Total: "$15.00"},
		},
		Totals: []mail.Row{
			{Label: "Subtotal:", Value: "$71.00"},
			{Label: "Shipping:", Value: "$5.00 via Flat rate"},
			{Label: "Payment method:", Value: "Direct bank transfer"},
			{Label: "Total:", Value: "$76.00"},
		},
		PaymentTitle:    "Direct bank transfer",
		AwaitingPayment: true,
		Instructions:    "Make your payment directly into our bank account.\nUse your order number as the reference.\n\nYour order will not be shipped until the funds have cleared.",
		BankAccounts: [][]mail.Row{{{Label: "Bank", Value: "Demo Bank"}, {Label: "Account number", Value: "12345678"}, {Label: "IBAN", Value: "GB33BUKB20201555555555"}},
			{{Label: "Account name", Value: "Euro account"}, {Label: "BIC", Value: "COBADEFFXXX"}}},
		Billing:  []string{"Jane Doe", "1 High Street", "London", "SW1A 1AA", "United Kingdom (UK)"},
		Shipping: []string{"Jane Doe", "2 Low Road", "Leeds", "LS1 1AA", "United Kingdom (UK)"},
		Email:    "jane@example.com",
		Phone:    "+44 20 7946 0000",
		OrderURL: "https://shop.example/checkout/order-received/17/?key=wc_order_abc",
		AdminURL: "https://shop.example/admin/orders/17",
	}
}

func TestMailOrderConfirmationTemplate(t *testing.T) {
	m, err := mail.OrderConfirmation(sampleView(), "jane@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("MAIL_DUMP") != "" {
		t.Logf("TEXT:\n%s\nHTML:\n%s", m.Text, m.HTML)
	}
	if m.Subject != "Your Vitrine Demo order has been received!" || len(m.To) != 1 || m.To[0] != "jane@example.com" {
		t.Errorf("headers: %q %v", m.Subject, m.To)
	}
	for _, want := range []string{
		"Thank you for your order", "Hi Jane,", "on hold until we confirm that payment has been received",
		"Order #1042 (November 22, 2026)",
		"Linen shirt (#LS-1) × 2 = $56.00", "  Color: Rust, Size: M", "Canvas cap × 1 = $15.00",
		"Subtotal: $71.00", "Total: $76.00", "Payment method: Direct bank transfer",
		"Payment instructions", "Make your payment directly into our bank account. Use your order number as the reference.\n\nYour order will not",
		"- Account number: 12345678",
		"Billing address\nJane Doe\n1 High Street", "Shipping address\nJane Doe\n2 Low Road",
		"jane@example.com", "View your order: https://shop.example/checkout/order-received/17/?key=wc_order_abc",
	} {
		if !strings.Contains(m.Text, want) {
			t.Errorf("text part lacks %q", want)
		}
	}
	if strings.Contains(m.Text, "\n\n\n") {
		t.Error("text part has runs of blank lines")
	}
	for _, want := range []string{
		"<h1 style=", ">Thank you for your order</h1>", "Hi Jane,", "Order #1042 (November 22, 2026)",
		">Linen shirt", "Color: Rust, Size: M", ">$56.00</td>", ">Total:</th>", ">$76.00</td>",
		">Direct bank transfer</td>", "<p style=\"margin:0 0 12px;\">Make your payment directly into our bank account. Use your order number as the reference.</p>",
		"Account number: <strong>12345678</strong>", "Billing address", "1 High Street<br>London",
		"Shipping address", "2 Low Road", `href="https://shop.example/checkout/order-received/17/?key=wc_order_abc"`,
	} {
		if !strings.Contains(m.HTML, want) {
			t.Errorf("html part lacks %q", want)
		}
	}
	checkInlineOnly(t, m.HTML)
	// The payment method and the bank details once each: the method is a
	// row of the totals, the accounts a list (never also in the text).
	for part, text := range map[string]string{"text": m.Text, "html": m.HTML} {
		for _, once := range []string{"Payment method:", "Our bank details", "12345678", "GB33BUKB20201555555555", "COBADEFFXXX"} {
			if n := strings.Count(text, once); n != 1 {
				t.Errorf("%s part has %q %d times", part, once, n)
			}
		}
	}
	if !strings.Contains(m.Text, "Our bank details\n\n- Bank: Demo Bank\n- Account number: 12345678\n- IBAN: GB33BUKB20201555555555\n\n- Account name: Euro account\n- BIC: COBADEFFXXX\n") {
		t.Errorf("text part's bank details:\n%s", m.Text)
	}

	// Cash on delivery: no instructions block, processing wording, no
	// shipping block when there is no shipping address.
	v := sampleView()
	v.AwaitingPayment, v.Instructions, v.BankAccounts, v.Shipping, v.PaymentTitle = false, "", nil, nil, "Cash on delivery"
	v.Totals[2].Value = "Cash on delivery"
	m, err = mail.OrderConfirmation(v, "jane@example.com")
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{m.Text, m.HTML} {
		if strings.Contains(part, "Payment instructions") || strings.Contains(part, "bank details") || strings.Contains(part, "Shipping address") {
			t.Errorf("cash on delivery mail shows bank transfer or shipping sections:\n%s", part)
		}
		if !strings.Contains(part, "We have received it and are now processing it.") || !strings.Contains(part, "Cash on delivery") {
			t.Errorf("cash on delivery mail lacks its wording:\n%s", part)
		}
	}
}

func TestMailNewOrderTemplate(t *testing.T) {
	m, err := mail.NewOrderNotice(sampleView(), []string{"shop@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Subject != "[Vitrine Demo]: New order #1042" || m.ReplyTo != "jane@example.com" || m.To[0] != "shop@example.com" {
		t.Errorf("headers: %q %q %v", m.Subject, m.ReplyTo, m.To)
	}
	for _, part := range []string{m.Text, m.HTML} {
		for _, want := range []string{"New order: #1042", "You have received the following order from Jane Doe:", "Linen shirt", "$76.00", "1 High Street", "https://shop.example/admin/orders/17"} {
			if !strings.Contains(part, want) {
				t.Errorf("notice lacks %q:\n%s", want, part)
			}
		}
		if strings.Contains(part, "Payment instructions") || strings.Contains(part, "order-received") {
			t.Errorf("notice shows the shopper's parts:\n%s", part)
		}
	}
	checkInlineOnly(t, m.HTML)
}

// Everything shown is text: a hostile product name, address, note or URL is
// escaped in the HTML part and cannot break the headers.
func TestMailCustomerNoteTemplate(t *testing.T) {
	v := sampleView()
	v.Note = "Your lamp ships tomorrow.\n\nThe tracking number follows."
	m, err := mail.CustomerNote(v, "jane@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if m.Subject != "Note added to your Vitrine Demo order from November 22, 2026" || len(m.To) != 1 || m.To[0] != "jane@example.com" {
		t.Errorf("headers: %q %v", m.Subject, m.To)
	}
	for _, want := range []string{"A note has been added to your order", "Hi Jane,", "> Your lamp ships tomorrow.\n\n> The tracking number follows.",
		"Order #1042", "Linen shirt (#LS-1) × 2 = $56.00", "View your order: https://shop.example/"} {
		if !strings.Contains(m.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, m.Text)
		}
	}
	if !strings.Contains(m.HTML, "<p style=\"margin:0 0 8px;\">The tracking number follows.</p>") {
		t.Errorf("html lacks the note's paragraph:\n%s", m.HTML)
	}
	checkInlineOnly(t, m.HTML)
}

func TestMailOrderCompletedAndRefundedTemplates(t *testing.T) {
	v := sampleView()
	v.Totals = append(v.Totals, mail.Row{Label: "Refund:", Value: "-$15.00"})
	done, err := mail.OrderCompleted(v, "jane@example.com")
	if err != nil || done.Subject != "Your Vitrine Demo order is now complete" || !strings.Contains(done.Text, "We have finished processing your order.") {
		t.Fatalf("completed: %v %q\n%s", err, done.Subject, done.Text)
	}
	part, err := mail.OrderRefunded(v, "jane@example.com")
	if err != nil || part.Subject != "Your Vitrine Demo order #1042 has been partially refunded" || !strings.Contains(part.Text, "Refund: -$15.00") ||
		!strings.Contains(part.Text, "Partial refund: Order 1042") {
		t.Fatalf("partial refund: %v %q\n%s", err, part.Subject, part.Text)
	}
	v.FullRefund = true
	full, err := mail.OrderRefunded(v, "jane@example.com")
	if err != nil || full.Subject != "Your Vitrine Demo order #1042 has been refunded" || !strings.Contains(full.HTML, "Your order has been refunded.") {
		t.Fatalf("full refund: %v %q", err, full.Subject)
	}
	for _, m := range []mail.Message{done, part, full} {
		checkInlineOnly(t, m.HTML)
		if len(m.To) != 1 || m.To[0] != "jane@example.com" {
			t.Errorf("to: %v", m.To)
		}
	}
}

func TestMailTemplateEscaping(t *testing.T) {
	evil := `<script>alert("x")</script><img src=x onerror=alert(1)>`
	v := sampleView()
	v.ShopName = "Evil\r\nBcc: victim@example.com"
	v.Number = "7\r\nX-Injected: 1"
	v.Lines[0].Name = evil
	v.Lines[0].Variation = `Size: "><b>big</b>`
	v.Billing[1] = evil
	v.CustomerNote = evil
	v.Instructions = evil
	v.FirstName = evil
	v.CustomerName = evil
	v.Totals[0].Value = "<i>$1</i>"
	v.OrderURL = "javascript:alert(1)"
	v.AdminURL = `https://shop.example/a"onmouseover="alert(1)`
	v.Note = evil
	for _, render := range []func() (mail.Message, error){
		func() (mail.Message, error) { return mail.CustomerNote(v, "jane@example.com") },
		func() (mail.Message, error) { return mail.OrderConfirmation(v, "jane@example.com") },
		func() (mail.Message, error) { return mail.NewOrderNotice(v, []string{"shop@example.com"}) },
	} {
		m, err := render()
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"<script", "<img", "<b>big", "<i>$1", "javascript:", `"onmouseover`} {
			if strings.Contains(m.HTML, bad) {
				t.Errorf("html part contains %q unescaped", bad)
			}
		}
		if !strings.Contains(m.HTML, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;") {
			t.Error("hostile name not shown escaped")
		}
		if strings.ContainsAny(m.Subject, "\r\n") {
			t.Errorf("subject keeps a line break: %q", m.Subject)
		}
		// The text part shows the text as is (it is not HTML).
		if !strings.Contains(m.Text, evil) {
			t.Error("text part altered the name")
		}
	}
}

var (
	styleBlock = regexp.MustCompile(`(?i)<style|<link|class=`)
	blockTag   = regexp.MustCompile(`<(?:p|td|th|h1|h2|h3|table|ul|li|a|body)(?:\s[^>]*)?>`)
)

// checkInlineOnly asserts the HTML carries its styles inline: no style
// blocks, no stylesheets, no classes, and every block element has a style.
func checkInlineOnly(t *testing.T, html string) {
	t.Helper()
	if styleBlock.MatchString(html) {
		t.Error("html part uses a style block, a stylesheet or classes")
	}
	if !strings.Contains(html, `<html lang="en">`) || !strings.Contains(html, `<meta charset="utf-8">`) {
		t.Error("html part lacks its language or charset")
	}
	tags := blockTag.FindAllString(html, -1)
	if len(tags) < 20 {
		t.Fatalf("only %d block tags found", len(tags))
	}
	for _, tag := range tags {
		if !strings.Contains(tag, ` style="`) {
			t.Errorf("unstyled tag %s", tag)
		}
	}
}
