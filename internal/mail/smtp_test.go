package mail_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"vitrine/internal/mail"
	"vitrine/internal/mail/mailtest"
)

func TestMailParseSMTPURL(t *testing.T) {
	good := []struct {
		url  string
		want mail.SMTPConfig
	}{
		{"smtp://127.0.0.1:1025?tls=none&from=shop@example.com",
			mail.SMTPConfig{Host: "127.0.0.1", Port: 1025, TLS: "none", From: "shop@example.com", Timeout: 30 * time.Second}},
		{"smtp://user%40example.com:p%40ss%3Aw0rd@mail.example.com?from=Shop+%3Cshop@example.com%3E",
			mail.SMTPConfig{Host: "mail.example.com", Port: 587, TLS: "starttls", Username: "user@example.com", Password: "p@ss:w0rd",
				From: "Shop <shop@example.com>", Timeout: 30 * time.Second}},
		{"smtps://u:p@mail.example.com?from=shop@example.com&timeout=5s&helo=shop.example.com",
			mail.SMTPConfig{Host: "mail.example.com", Port: 465, TLS: "tls", Username: "u", Password: "p", From: "shop@example.com",
				Timeout: 5 * time.Second, HELO: "shop.example.com"}},
		{"smtp://mail.example.com:2525?tls=tls&from=shop@example.com",
			mail.SMTPConfig{Host: "mail.example.com", Port: 2525, TLS: "tls", From: "shop@example.com", Timeout: 30 * time.Second}},
		{"smtp://relay?tls=none&from=shop@example.com",
			mail.SMTPConfig{Host: "relay", Port: 25, TLS: "none", From: "shop@example.com", Timeout: 30 * time.Second}},
		{"smtp://u:p@localhost:25?tls=none&from=shop@example.com",
			mail.SMTPConfig{Host: "localhost", Port: 25, TLS: "none", Username: "u", Password: "p", From: "shop@example.com", Timeout: 30 * time.Second}},
		{"smtp://[::1]:25/?tls=none&from=shop@example.com",
			mail.SMTPConfig{Host: "::1", Port: 25, TLS: "none", From: "shop@example.com", Timeout: 30 * time.Second}},
	}
	for _, g := range good {
		got, err := mail.ParseSMTPURL(g.url)
		if err != nil || got != g.want {
			t.Errorf("%s:\n got %+v %v\nwant %+v", g.url, got, err, g.want)
		}
	}
	bad := []struct{ url, msg string }{
		{"", "scheme must be smtp or smtps"},
		{"http://mail.example.com?from=a@b.c", "scheme must be smtp or smtps"},
		{"smtp://?from=a@b.c", "no host"},
		{"smtp:mail.example.com?from=a@b.c", "no host"},
		{"smtp://mail.example.com", "from is required"},
		{"smtp://mail.example.com?from=nobody", "not an email address"},
		{"smtp://mail.example.com?from=a@b.c&tls=yes", "tls must be none, starttls or tls"},
		{"smtp://mail.example.com:0?from=a@b.c", "port must be 1 to 65535"},
		{"smtp://mail.example.com:70000?from=a@b.c", "port must be 1 to 65535"},
		{"smtp://mail.example.com?from=a@b.c&timeout=soon", "timeout must be a positive duration"},
		{"smtp://mail.example.com?from=a@b.c&timeout=-1s", "timeout must be a positive duration"},
		{"smtp://mail.example.com?from=a@b.c&port=25", `unknown parameter "port"`},
		{"smtp://mail.example.com?from=a@b.c&from=d@e.f", "from is given 2 times"},
		{"smtp://mail.example.com/inbox?from=a@b.c", "unexpected path"},
		{"smtp://:secret@mail.example.com?from=a@b.c", "a password needs a user name"},
		{"smtp://u:secret@mail.example.com?tls=none&from=a@b.c", "refusing to send a password in clear"},
		{"smtp://u:secret@mail.example.com:bad?from=a@b.c", "not a valid URL"},
	}
	for _, b := range bad {
		_, err := mail.ParseSMTPURL(b.url)
		if err == nil || !strings.Contains(err.Error(), b.msg) {
			t.Errorf("%q: error %v, want one containing %q", b.url, err, b.msg)
		}
		if err != nil && strings.Contains(err.Error(), "secret") {
			t.Errorf("%q: error shows the password: %v", b.url, err)
		}
	}

	cfg, _ := mail.ParseSMTPURL("smtp://u:secret@mail.example.com?from=shop@example.com")
	if s := cfg.String(); strings.Contains(s, "secret") || !strings.Contains(s, "mail.example.com:587") {
		t.Errorf("String: %s", s)
	}
}

// newSender is a sender for rawURL (an SMTP URL as configured) that trusts
// roots (nil: the system's), with the configuration it was made from.
func newSender(t *testing.T, rawURL string, roots *x509.CertPool) (mail.SMTPConfig, *mail.SMTPSender) {
	t.Helper()
	cfg, err := mail.ParseSMTPURL(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	if roots != nil {
		cfg.TLSConfig = &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	}
	s, err := mail.NewSMTPSender(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return cfg, s
}

func TestMailSMTPStartTLSAuth(t *testing.T) {
	serverTLS, roots := selfSigned(t)
	smtp := mailtest.Start(t, mailtest.Options{User: "shop", Pass: "s3cret", TLS: serverTLS})
	cfg, s := newSender(t, fmt.Sprintf("smtp://shop:s3cret@127.0.0.1:%d?tls=starttls&from=shop@shop.example", smtp.Port(t)), roots)
	ctx := context.Background()
	if err := s.Send(ctx, mail.Message{To: []string{"jane@example.com"}, Subject: "Hello", Text: "Hi.\n"}); err != nil {
		t.Fatal(err)
	}
	got := smtp.Messages()
	if len(got) != 1 || got[0].User != "shop" || !got[0].TLS || got[0].To[0] != "jane@example.com" {
		t.Fatalf("delivered: %+v", got)
	}
	// A message with text only is a single text part.
	if !strings.Contains(string(got[0].Data), "Content-Type: text/plain; charset=UTF-8") || strings.Contains(string(got[0].Data), "text/html") {
		t.Errorf("text-only message:\n%s", got[0].Data)
	}

	// A wrong password fails, and is worth retrying (the operator fixes it).
	cfg.Password = "wrong"
	s, _ = mail.NewSMTPSender(cfg)
	err := s.Send(ctx, mail.Message{To: []string{"jane@example.com"}, Subject: "Hello", Text: "Hi.\n"})
	if err == nil || errors.Is(err, mail.ErrPermanent) {
		t.Errorf("wrong password: %v", err)
	}
	// An untrusted certificate fails.
	cfg.Password = "s3cret"
	cfg.TLSConfig = nil
	s, _ = mail.NewSMTPSender(cfg)
	if err := s.Send(ctx, mail.Message{To: []string{"jane@example.com"}, Subject: "Hello", Text: "Hi.\n"}); err == nil {
		t.Error("untrusted certificate accepted")
	}
	if n := len(smtp.Messages()); n != 1 {
		t.Errorf("%d messages after the failures", n)
	}
}

func TestMailSMTPImplicitTLS(t *testing.T) {
	serverTLS, roots := selfSigned(t)
	smtp := mailtest.Start(t, mailtest.Options{TLS: serverTLS, ImplicitTLS: true})
	_, s := newSender(t, fmt.Sprintf("smtps://127.0.0.1:%d?from=shop@shop.example", smtp.Port(t)), roots)
	if err := s.Send(context.Background(), mail.Message{To: []string{"a@example.com"}, Subject: "x", Text: "x", HTML: "<p>x</p>"}); err != nil {
		t.Fatal(err)
	}
	if got := smtp.Messages(); len(got) != 1 || !got[0].TLS {
		t.Fatalf("delivered: %+v", got)
	}
}

// STARTTLS is required by default: a server without it is refused, so
// nothing goes in clear by accident.
func TestMailSMTPStartTLSRequired(t *testing.T) {
	smtp := mailtest.Start(t, mailtest.Options{})
	_, s := newSender(t, fmt.Sprintf("smtp://127.0.0.1:%d?from=shop@shop.example", smtp.Port(t)), nil)
	err := s.Send(context.Background(), mail.Message{To: []string{"a@example.com"}, Subject: "x", Text: "x"})
	if err == nil || !strings.Contains(err.Error(), "STARTTLS") {
		t.Errorf("send without STARTTLS: %v", err)
	}
	if n := len(smtp.Messages()); n != 0 {
		t.Errorf("%d messages went in clear", n)
	}
}

func TestMailSMTPPermanentBuildErrors(t *testing.T) {
	smtp := mailtest.Start(t, mailtest.Options{})
	s := sender(t, smtp.Port(t))
	ctx := context.Background()
	for name, m := range map[string]mail.Message{
		"no recipient": {Subject: "x", Text: "x"},
		"bad to":       {To: []string{"jane"}, Subject: "x", Text: "x"},
		"bad reply-to": {To: []string{"a@example.com"}, ReplyTo: "x y z", Subject: "x", Text: "x"},
		"bad from":     {To: []string{"a@example.com"}, From: "nobody", Subject: "x", Text: "x"},
		"no text":      {To: []string{"a@example.com"}, Subject: "x", HTML: "<p>x</p>"},
		"bad id":       {To: []string{"a@example.com"}, Subject: "x", Text: "x", MessageID: "a b@c"},
		"header crlf":  {To: []string{"a@example.com\r\nBcc: victim@example.com"}, Subject: "x", Text: "x"},
	} {
		if err := s.Send(ctx, m); !errors.Is(err, mail.ErrPermanent) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// A subject with line breaks is sent on one line.
	if err := s.Send(ctx, mail.Message{To: []string{"a@example.com"}, Subject: "Hi\r\nBcc: victim@example.com", Text: "x"}); err != nil {
		t.Fatal(err)
	}
	got := smtp.Messages()
	if len(got) != 1 || len(got[0].To) != 1 || strings.Contains(string(got[0].Data), "\r\nBcc:") {
		t.Fatalf("delivered: %+v\n%s", got, got[0].Data)
	}
}
