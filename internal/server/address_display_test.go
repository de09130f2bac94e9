package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"regexp"
	"slices"
	"strings"
	"testing"

	"vitrine/internal/account"
	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/server/servertest"
	"vitrine/internal/storage/sqlstore"
)

// Addresses, the order date and the bank details everywhere they are
// shown: the order-received page, the account's address book, the order
// mails and the admin's order screen all take the address lines from one
// formatter (internal/address), so a French address reads "75002 PARIS"
// on the page, in both parts of the mail and in the admin alike.

var (
	frBilling = checkout.Address{FirstName: "Jean", LastName: "Dupont", Address1: "2 rue de la Paix", City: "Paris", Postcode: "75002",
		Country: "FR", Email: "jean@example.com", Phone: "+33 1 23 45 67 89"}
	usShipping = checkout.Address{FirstName: "Jean", LastName: "Dupont", Company: "Acme", Address1: "500 Oak Ave", City: "Portland",
		State: "OR", Postcode: "97201", Country: "US"}
	// The lines every surface shows (the shop is in the US: a US address
	// has no country line, a French one says France).
	frLines = []string{"Jean Dupont", "2 rue de la Paix", "75002 PARIS", "France"}
	usLines = []string{"Jean Dupont", "Acme", "500 Oak Ave", "Portland, OR 97201"}
)

// placeAddressOrder places a bank-transfer order (on hold, its mails
// queued) billed to France and shipped to Oregon, at seedTime.
func placeAddressOrder(t *testing.T, db *sqlstore.DB) *checkout.Order {
	t.Helper()
	price := int64(3000)
	p := &catalog.Product{Type: catalog.TypeSimple, Name: "Address Mug", Slug: "address-mug", SKU: "AMUG", RegularPrice: &price,
		Purchasable: true, Status: "publish"}
	return placeStoreOrder(t, db, p, 1, "t_address_display_0000000000001", checkout.Customer{Billing: frBilling, Shipping: usShipping}, nil)
}

// addressText reads the text of the first <address> after marker in
// server-rendered HTML: its line breaks as newlines, tags dropped.
func addressText(t *testing.T, page, marker string) string {
	t.Helper()
	i := strings.Index(page, marker)
	if i < 0 {
		t.Fatalf("no %q in the page", marker)
	}
	rest := page[i:]
	start, end := strings.Index(rest, "<address>"), strings.Index(rest, "</address>")
	if start < 0 || end < start {
		t.Fatalf("no address after %q", marker)
	}
	return markupText(rest[start:end])
}

var (
	brTag  = regexp.MustCompile(`<br\s*/?>`)
	anyTag = regexp.MustCompile(`<[^>]*>`)
)

func markupText(s string) string {
	return html.UnescapeString(anyTag.ReplaceAllString(brTag.ReplaceAllString(s, "\n"), ""))
}

// The order-received page shows the order's date (it was empty on every
// order: the page data's date_created held text the component could not
// read), the bank details as a definition list, once, and both addresses
// in their countries' layouts.
func TestOrderReceivedDateBankAndAddresses(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		o := placeAddressOrder(t, f.db)
		a := f.do("GET", fmt.Sprintf("/checkout/order-received/%d/?key=%s", o.ID, o.Key), nil, "")
		if a.status != 200 {
			t.Fatalf("order received: %d", a.status)
		}
		var data struct {
			Order struct {
				DateCreated   string   `json:"date_created"`
				Date          string   `json:"date"`
				Instructions  string   `json:"instructions"`
				BillingLines  []string `json:"billing_address_lines"`
				ShippingLines []string `json:"shipping_address_lines"`
				BankAccounts  []struct {
					Details []struct{ Label, Value string } `json:"details"`
				} `json:"bank_accounts"`
			} `json:"order"`
		}
		pageData(t, a.body, &data)
		d := data.Order
		wantDate := fmt.Sprintf("%s %d, %d", seedTime.Month(), seedTime.Day(), seedTime.Year())
		if d.Date != wantDate || d.DateCreated != seedTime.UTC().Format("2006-01-02T15:04:05Z07:00") {
			t.Errorf("dates: %q %q, want %q", d.Date, d.DateCreated, wantDate)
		}
		// The server-rendered page says it, in a <time>.
		if !strings.Contains(a.body, fmt.Sprintf(`<time datetime="%s">%s</time>`, d.DateCreated, wantDate)) {
			t.Errorf("the page shows no date %q", wantDate)
		}
		overview := a.body[strings.Index(a.body, "woocommerce-order-overview__date"):]
		if txt := markupText(overview[:strings.Index(overview, "</li>")]); !strings.Contains(txt, "Date: "+wantDate) {
			t.Errorf("overview date: %q", txt)
		}

		// Bank details: the description as text, the account as a list,
		// each value once on the page (not also in the text).
		if strings.Contains(d.Instructions, "000123456789") || !strings.Contains(d.Instructions, "payment reference") {
			t.Errorf("instructions: %q", d.Instructions)
		}
		if len(d.BankAccounts) != 1 {
			t.Fatalf("bank accounts: %+v", d.BankAccounts)
		}
		sec := a.body[regexp.MustCompile(`<section[^>]* class="order-instructions`).FindStringIndex(a.body)[0]:]
		sec = sec[:strings.Index(sec, "</section>")]
		for _, det := range d.BankAccounts[0].Details {
			want := fmt.Sprintf("<dt>%s</dt><dd><strong>%s</strong></dd>", html.EscapeString(det.Label), html.EscapeString(det.Value))
			if strings.Count(sec, want) != 1 || strings.Count(sec, html.EscapeString(det.Value)) != 1 {
				t.Errorf("bank detail %q not listed once:\n%s", want, sec)
			}
		}
		if !strings.Contains(sec, "<dt>Account number</dt><dd><strong>000123456789</strong></dd>") {
			t.Errorf("no account number in the list:\n%s", sec)
		}

		// Addresses: the formatter's lines, in page data and on the page.
		if !slices.Equal(d.BillingLines, frLines) || !slices.Equal(d.ShippingLines, usLines) {
			t.Errorf("lines: %q %q", d.BillingLines, d.ShippingLines)
		}
		if got := addressText(t, a.body, ">Billing address<"); got != strings.Join(frLines, "\n")+"\n+33 1 23 45 67 89\njean@example.com" {
			t.Errorf("billing address on the page:\n%s", got)
		}
		if got := addressText(t, a.body, ">Shipping address<"); got != strings.Join(usLines, "\n") {
			t.Errorf("shipping address on the page:\n%s", got)
		}
	})
}

// The order mails, through a real SMTP server: the payment method and the
// bank details once each (they were twice: a row of the totals and the
// template's own row; the account in the instructions' text and in the
// list), and the addresses in the page's lines in both parts (a French
// address read "Paris  75002" in the mail and "75002 Paris" on the page).
func TestOrderMailsAddressesAndBankDetailsOnce(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		o := placeAddressOrder(t, f.db)
		sender, sink := servertest.SMTPSender(t)
		ob := orderOutbox(f.db, f.srv, sender)
		if res, err := ob.RunOnce(context.Background()); err != nil || res.Sent != 2 {
			t.Fatalf("run: %+v %v", res, err)
		}
		byTo := map[string][]byte{}
		for _, m := range sink.Messages() {
			byTo[m.To[0]] = m.Data
		}
		_, text, htm := textAndHTML(t, byTo["jean@example.com"])
		_, noticeText, noticeHTML := textAndHTML(t, byTo["orders@shop.example"])
		// Mail lines end in CRLF on the wire.
		crlf := strings.NewReplacer("\r\n", "\n")
		text, htm, noticeText, noticeHTML = crlf.Replace(text), crlf.Replace(htm), crlf.Replace(noticeText), crlf.Replace(noticeHTML)
		for name, part := range map[string]string{"confirmation text": text, "confirmation html": markupText(htm)} {
			for _, once := range []string{"Payment method:", "Our bank details", "000123456789"} {
				if n := strings.Count(part, once); n != 1 {
					t.Errorf("%s: %q %d times", name, once, n)
				}
			}
		}
		for name, part := range map[string]string{"notice text": noticeText, "notice html": markupText(noticeHTML)} {
			if n := strings.Count(part, "Payment method:"); n != 1 {
				t.Errorf("%s: the payment method %d times", name, n)
			}
		}
		billing, shipping := strings.Join(frLines, "\n"), strings.Join(usLines, "\n")
		for name, part := range map[string]string{"text": text, "html": markupText(htm), "notice text": noticeText, "notice html": markupText(noticeHTML)} {
			if !strings.Contains(part, "Billing address\n"+billing+"\n+33 1 23 45 67 89\njean@example.com") {
				t.Errorf("%s: billing address not in the page's lines:\n%s", name, part)
			}
			if !strings.Contains(part, "Shipping address\n"+shipping) {
				t.Errorf("%s: shipping address not in the page's lines:\n%s", name, part)
			}
			if strings.Contains(part, "Paris  75002") || strings.Contains(part, "Paris 75002") {
				t.Errorf("%s: the city before the postcode", name)
			}
		}
		wantDate := fmt.Sprintf("(%s %d, %d)", seedTime.Month(), seedTime.Day(), seedTime.Year())
		if !strings.Contains(text, "Order #"+o.Number+" "+wantDate) {
			t.Errorf("mail's date: want %q in\n%s", wantDate, text)
		}
	})
}

// The account's address book shows a saved address as lines (it ran them
// together: "New Comer1 Main St73301 AustinTXUS5125550100…"), then the
// phone and email on lines of their own.
func TestAccountAddressBookLines(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		c, _ := s.customer("newcomer1@example.com")
		nonce := c.page("/my-account/edit-address/billing/", 200).AddressForm.Nonce
		form := map[string][]string{"billing_first_name": {"New"}, "billing_last_name": {"Comer"}, "billing_address_1": {"1 Main St"},
			"billing_city": {"Austin"}, "billing_state": {"TX"}, "billing_postcode": {"73301"}, "billing_country": {"US"},
			"billing_email": {"newcomer1@example.com"}, "billing_phone": {"5125550100"}, "action": {"edit_address"},
			"woocommerce-edit-address-nonce": {nonce}}
		if r, _ := c.postForm("/my-account/edit-address/billing/", form); r.status != 303 {
			t.Fatalf("save: %d %s", r.status, r.raw)
		}
		r := c.do("GET", "/my-account/edit-address/", "")
		var d struct {
			Addresses struct {
				BillingLines  []string `json:"billing_lines"`
				ShippingLines []string `json:"shipping_lines"`
			} `json:"addresses"`
		}
		pageData(t, r.raw, &d)
		want := []string{"New Comer", "1 Main St", "Austin, TX 73301"}
		if !slices.Equal(d.Addresses.BillingLines, want) || d.Addresses.ShippingLines == nil || len(d.Addresses.ShippingLines) != 0 {
			t.Errorf("lines: %q %q", d.Addresses.BillingLines, d.Addresses.ShippingLines)
		}
		if got := addressText(t, r.raw, "billing-address-title"); got != "New Comer\n1 Main St\nAustin, TX 73301\n5125550100\nnewcomer1@example.com" {
			t.Errorf("address book:\n%s", got)
		}
	})
}

// The admin's order screen gets the same lines from the REST API, under
// vitrine_address_lines (WooCommerce's orders have no such field).
func TestAdminOrderAddressLines(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		o := placeAddressOrder(t, f.db)
		staff := []string{"X-WP-Nonce", f.nonce("Mia")}
		a := f.do("GET", fmt.Sprintf("/wp-json/wc/v3/orders/%d", o.ID), f.cookie("Mia"), "", staff...)
		var got struct {
			Lines   struct{ Billing, Shipping []string } `json:"vitrine_address_lines"`
			Billing map[string]string                    `json:"billing"`
		}
		if err := json.Unmarshal([]byte(a.body), &got); err != nil || a.status != 200 {
			t.Fatalf("detail: %d %s", a.status, a.body)
		}
		if !slices.Equal(got.Lines.Billing, frLines) || !slices.Equal(got.Lines.Shipping, usLines) || got.Billing["city"] != "Paris" {
			t.Errorf("address lines: %+v, billing %v", got.Lines, got.Billing)
		}
	})
}

// The lost-password mail names what logs in. An account without a
// username logs in with its email: the mail said "Username:
// newcomer1@example.com" while the shop greets it as "newcomer1", which
// does not log in. It now says "Email address: …"; an account with a
// username keeps "Username: …". Both named logins log in.
func TestPasswordResetMailNamesTheLogin(t *testing.T) {
	t.Parallel()
	each(t, newLinkShop, func(t *testing.T, s *linkShop) {
		s.register("newcomer1@example.com", "")
		s.register("grace@example.com", "grace")
		b := s.browser("192.0.2.30")
		b.requestReset("newcomer1@example.com")
		b.requestReset("grace")
		if r := s.send(); r.Sent != 2 {
			t.Fatalf("outbox: %+v", r)
		}
		named := map[string]string{}
		for _, m := range s.mails() {
			named[m.to] = m.text
			htm := markupText(strings.ReplaceAll(m.html, "\r\n", "\n"))
			switch m.to {
			case "newcomer1@example.com":
				if !strings.Contains(m.text, "Email address: newcomer1@example.com") || strings.Contains(m.text, "Username:") ||
					!strings.Contains(htm, "Email address: newcomer1@example.com") || strings.Contains(htm, "Username:") {
					t.Errorf("newcomer's mail:\n%s\n%s", m.text, htm)
				}
			case "grace@example.com":
				if !strings.Contains(m.text, "Username: grace") || strings.Contains(m.text, "Email address") || !strings.Contains(htm, "Username: grace") {
					t.Errorf("grace's mail:\n%s", m.text)
				}
			}
		}
		if len(named) != 2 {
			t.Fatalf("mails to %v", named)
		}
		ctx := context.Background()
		for _, login := range []string{"newcomer1@example.com", "grace"} {
			if _, err := s.accounts.Authenticate(ctx, login, "the old password 1", "192.0.2.31"); err != nil {
				t.Errorf("the mail's login %q does not log in: %v", login, err)
			}
		}
		// The name the shop greets it by is not a login (the mail never
		// offers it).
		if _, err := s.accounts.Authenticate(ctx, "newcomer1", "the old password 1", "192.0.2.31"); !errors.Is(err, account.ErrBadCredentials) {
			t.Errorf(`"newcomer1": %v, want the unknown-login refusal`, err)
		}
	})
}
