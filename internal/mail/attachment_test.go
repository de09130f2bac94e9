package mail_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	netmail "net/mail"
	"strings"
	"testing"

	"vitrine/internal/mail"
	"vitrine/internal/mail/mailtest"
)

// Attachments reach a real SMTP server as MIME attachments: the text part
// first, then each file base64-encoded with its name and type; a name
// that tries to break out of its header parameter is cleaned.
func TestMailAttachmentsDelivered(t *testing.T) {
	sink := mailtest.Start(t, mailtest.Options{})
	cfg, err := mail.ParseSMTPURL(fmt.Sprintf("smtp://%s?tls=none&from=shop@example.com", sink.Addr))
	if err != nil {
		t.Fatal(err)
	}
	s, err := mail.NewSMTPSender(cfg)
	if err != nil {
		t.Fatal(err)
	}
	pdf := []byte("%PDF-1.7\n\x00\x01\x02binary\xff\n%%EOF\n")
	err = s.Send(context.Background(), mail.Message{To: []string{"shop@example.com"}, ReplyTo: "ada@example.com",
		Subject: "Files", Text: "See the files.",
		Attachments: []mail.Attachment{
			{Name: "invoice.pdf", ContentType: "application/pdf", Data: pdf},
			{Name: "x\r\nContent-Type: text/html\"; a=.png", ContentType: "bogus", Data: []byte("png")},
		}})
	if err != nil {
		t.Fatal(err)
	}
	got := sink.Messages()
	if len(got) != 1 {
		t.Fatalf("%d messages", len(got))
	}
	m, err := netmail.ReadMessage(bytes.NewReader(got[0].Data))
	if err != nil {
		t.Fatal(err)
	}
	if m.Header.Get("Reply-To") != "<ada@example.com>" {
		t.Errorf("Reply-To %q", m.Header.Get("Reply-To"))
	}
	mt, params, err := mime.ParseMediaType(m.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/mixed" {
		t.Fatalf("content type %q %v", mt, err)
	}
	type part struct{ ctype, name, body string }
	var parts []part
	mr := multipart.NewReader(m.Body, params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(p)
		body := string(raw)
		if p.Header.Get("Content-Transfer-Encoding") == "base64" {
			dec, err := io.ReadAll(base64Reader(body))
			if err != nil {
				t.Fatal(err)
			}
			body = string(dec)
		}
		ct, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		_, dp, _ := mime.ParseMediaType(p.Header.Get("Content-Disposition"))
		parts = append(parts, part{ct, dp["filename"], body})
	}
	if len(parts) != 3 || parts[0].ctype != "text/plain" || !strings.Contains(parts[0].body, "See the files.") ||
		parts[1] != (part{"application/pdf", "invoice.pdf", string(pdf)}) ||
		parts[2].ctype != "application/octet-stream" || strings.ContainsAny(parts[2].name, "\r\n\"") || parts[2].body != "png" {
		t.Fatalf("parts: %q", parts)
	}
}

// A Reply-To holding a line break is refused (permanent), never written.
func TestMailReplyToLineBreak(t *testing.T) {
	s, err := mail.NewSMTPSender(mail.SMTPConfig{Host: "127.0.0.1", Port: 1, TLS: mail.TLSNone, From: "shop@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Send(context.Background(), mail.Message{To: []string{"shop@example.com"}, ReplyTo: "a@example.com\r\nBcc: b@example.org", Text: "x"})
	if !errors.Is(err, mail.ErrPermanent) || !strings.Contains(err.Error(), "line break") {
		t.Fatalf("err %v", err)
	}
}

func TestMailAttachmentName(t *testing.T) {
	for in, want := range map[string]string{
		"a.pdf":                           "a.pdf",
		"../x/b.png":                      "b.png",
		"c\r\nd\".pdf":                    "cd_.pdf",
		"":                                "attachment",
		"..":                              "attachment",
		strings.Repeat("x", 200):          strings.Repeat("x", 100),
		strings.Repeat("y", 200) + ".pdf": strings.Repeat("y", 96) + ".pdf",
		"invoice.pdf.":                    "invoice.pdf",
		"a$(rm -rf).pdf":                  "a_(rm -rf).pdf",
	} {
		if got := mail.AttachmentName(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

func base64Reader(s string) io.Reader {
	return base64.NewDecoder(base64.StdEncoding, strings.NewReader(strings.NewReplacer("\r", "", "\n", "").Replace(s)))
}
