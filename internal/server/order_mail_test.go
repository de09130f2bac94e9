package server_test

import (
	"bytes"
	"context"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"strings"
	"testing"

	"vitrine/internal/server/servertest"
)

// textAndHTML reads a delivered message's two parts.
func textAndHTML(t *testing.T, raw []byte) (*mail.Message, string, string) {
	t.Helper()
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	_, params, err := mime.ParseMediaType(m.Header.Get("Content-Type"))
	if err != nil {
		t.Fatal(err)
	}
	var text, html string
	mr := multipart.NewReader(m.Body, params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(p) // NextPart decodes quoted-printable
		if strings.HasPrefix(p.Header.Get("Content-Type"), "text/html") {
			html = string(b)
		} else {
			text = string(b)
		}
	}
	return m, text, html
}

// A bank-transfer order placed through the Store API is mailed, through a
// real SMTP server, to the shopper (with the bank details) and to the shop,
// once each, with the order's own lines and totals.
func TestOrderMailsDelivered(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		c := s.client()
		c.addItem(s.productID("cotton-tank-top"), 2)
		r := c.do("POST", checkoutAPI, checkoutBody(goodBilling(), ""), "Nonce", c.nonce)
		if r.status != 200 {
			t.Fatalf("checkout: %d %s", r.status, r.raw)
		}
		id := num(r.body["order_id"])
		o := s.order(id)

		sender, sink := servertest.SMTPSender(t)
		ob := orderOutbox(s.db, s.srv, sender)
		res, err := ob.RunOnce(context.Background())
		if err != nil || res.Sent != 2 {
			t.Fatalf("run: %+v %v", res, err)
		}
		if res, _ := ob.RunOnce(context.Background()); res.Sent != 0 {
			t.Fatalf("second run sent again: %+v", res)
		}
		got := sink.Messages()
		if len(got) != 2 {
			t.Fatalf("%d messages", len(got))
		}
		byTo := map[string][]byte{}
		for _, m := range got {
			byTo[m.To[0]] = m.Data
		}
		m, text, html := textAndHTML(t, byTo["ada@example.com"])
		subject, _ := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
		if !strings.Contains(subject, "order has been received") {
			t.Errorf("confirmation subject %q", subject)
		}
		for _, want := range []string{o.Number, "Cotton Tank Top", "Direct bank transfer", "000123456789", "/checkout/order-received/"} {
			if !strings.Contains(text, want) || !strings.Contains(html, want) {
				t.Errorf("confirmation lacks %q\n%s", want, text)
			}
		}
		if !strings.Contains(text, o.Key) {
			t.Errorf("confirmation link lacks the order key")
		}
		m, text, _ = textAndHTML(t, byTo["orders@shop.example"])
		subject, _ = new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
		if !strings.Contains(subject, "New order #"+o.Number) || !strings.Contains(text, "Ada Lovelace") {
			t.Errorf("notice: %q\n%s", subject, text)
		}
	})
}
