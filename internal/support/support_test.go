package support_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"vitrine/internal/mail"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
	"vitrine/internal/support"
)

func TestSendAndRender(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
		s := &support.Service{Store: db, Now: func() time.Time { return now }}

		// Bad input is refused before it is counted.
		for text, want := range map[string]error{"": support.ErrEmpty, " \n ": support.ErrEmpty, strings.Repeat("x", 2001): support.ErrTooLong} {
			if _, err := s.Send(ctx, support.Message{Text: text, ClientIP: "192.0.2.1"}); !errors.Is(err, want) {
				t.Fatalf("%q: %v", text[:min(len(text), 5)], err)
			}
		}
		id, err := s.Send(ctx, support.Message{Email: " ann@example.com ", Text: "  help  ", ClientIP: "192.0.2.1"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Send(ctx, support.Message{Text: "again", ClientIP: "192.0.2.1"}); err != nil {
			t.Fatal(err)
		}
		var limited *support.LimitedError
		if _, err := s.Send(ctx, support.Message{Text: "third", ClientIP: "192.0.2.1"}); !errors.As(err, &limited) || limited.RetryAfter <= 0 {
			t.Fatalf("third: %v", err)
		}
		// Another address has its own allowance; the window ends.
		if _, err := s.Send(ctx, support.Message{Text: "other", ClientIP: "192.0.2.2"}); err != nil {
			t.Fatal(err)
		}
		now = now.Add(support.AddressWindow + time.Second)
		if _, err := s.Send(ctx, support.Message{Text: "later", ClientIP: "192.0.2.1"}); err != nil {
			t.Fatalf("after the window: %v", err)
		}

		r := support.Renderer(db, []string{"shop@example.com"})
		m, err := r(ctx, support.KindMessage, itoa(id))
		if err != nil || m.ReplyTo != "ann@example.com" || !strings.Contains(m.Text, "\nhelp\n") || m.To[0] != "shop@example.com" {
			t.Fatalf("render: %+v %v", m, err)
		}
		for _, c := range []struct{ kind, ref string }{{support.KindMessage, "999"}, {support.KindMessage, "x"}, {"other", itoa(id)}} {
			if _, err := r(ctx, c.kind, c.ref); !errors.Is(err, mail.ErrPermanent) {
				t.Fatalf("%v: %v", c, err)
			}
		}
		if _, err := support.Renderer(db, nil)(ctx, support.KindMessage, itoa(id)); !errors.Is(err, mail.ErrPermanent) {
			t.Fatalf("no shop address: %v", err)
		}
	})
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
