// Package support is the "Message to Support" capability: a visitor whose
// registration the bot-check refused can still write to the shop
// (protocol notes section 8.1). The message is stored and a mail to the
// shop's address is queued in the same transaction (the outbox sends it);
// the use case limits messages per client address. It speaks no HTTP: the
// signed token that proves the refusal belongs to the adapter.
package support

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"vitrine/internal/checkout"
	"vitrine/internal/clock"
	"vitrine/internal/mail"
)

// KindMessage is the outbox kind of a support message; its ref is the
// message id.
const KindMessage = "support_message"

// Limits.
const (
	// MaxMessageRunes bounds a message's length.
	MaxMessageRunes = 2000
	// AddressLimit messages per client address in AddressWindow: two, then
	// the window must end (the spec's "2 messages, then 1 per 6 hours" as
	// one fixed-window counter in the shared rate_limits table).
	AddressLimit  = 2
	AddressWindow = 6 * time.Hour
)

// Message is one message to support.
type Message struct {
	ID        int64
	Email     string
	Username  string
	Text      string
	ClientIP  string
	CreatedAt time.Time
}

// Store keeps messages (sqlstore.DB implements it).
type Store interface {
	// InsertSupportMessage stores m and queues its mail (KindMessage, ref
	// the new id) in one transaction.
	InsertSupportMessage(ctx context.Context, m *Message) (int64, error)
	// SupportMessage loads a message (ErrNotFound).
	SupportMessage(ctx context.Context, id int64) (*Message, error)
	HitRateLimits(ctx context.Context, hits []checkout.RateHit, window time.Duration, now time.Time) (wait time.Duration, ok bool, err error)
}

// Errors.
var (
	ErrNotFound = errors.New("support: no such message")
	ErrEmpty    = errors.New("support: the message is empty")
	ErrTooLong  = fmt.Errorf("support: the message is longer than %d characters", MaxMessageRunes)
)

// LimitedError refuses a message over the per-address limit.
type LimitedError struct{ RetryAfter time.Duration }

func (e *LimitedError) Error() string {
	return "support: too many messages from this address, retry in " + e.RetryAfter.Round(time.Second).String()
}

// Service is the support messages' use case.
type Service struct {
	Store Store
	Now   func() time.Time
	Log   *slog.Logger
	// Limit and Window override AddressLimit and AddressWindow when set.
	Limit  int
	Window time.Duration
}

func (s *Service) now() time.Time { return clock.UTC(s.Now) }

// Send validates and stores m (text trimmed, 1 to MaxMessageRunes
// characters, email and username cut to sane lengths), counted against
// the client address first: over the limit is *LimitedError and nothing
// is stored. Validation runs before the count, so a refused empty message
// does not use up the visitor's allowance.
func (s *Service) Send(ctx context.Context, m Message) (int64, error) {
	m.Text = strings.TrimSpace(strings.ToValidUTF8(m.Text, ""))
	if m.Text == "" {
		return 0, ErrEmpty
	}
	if utf8.RuneCountInString(m.Text) > MaxMessageRunes {
		return 0, ErrTooLong
	}
	m.Email = clip(strings.TrimSpace(m.Email), 254)
	m.Username = clip(strings.TrimSpace(m.Username), 60)
	now := s.now()
	limit := checkout.PerAddress("support:a:", s.Limit, AddressLimit, s.Window, AddressWindow)
	wait, ok, err := limit.Hit(ctx, s.Store.HitRateLimits, m.ClientIP, now)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, &LimitedError{RetryAfter: wait}
	}
	m.CreatedAt = now.Truncate(time.Second)
	return s.Store.InsertSupportMessage(ctx, &m)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "")
}

// Renderer is the outbox Renderer of KindMessage: the message to the
// shop's addresses, with the visitor's email as Reply-To when it looks
// like one. A missing message or no shop address is permanent.
func Renderer(store Store, shopTo []string) mail.Renderer {
	return func(ctx context.Context, kind, ref string) (mail.Message, error) {
		id, err := strconv.ParseInt(ref, 10, 64)
		if kind != KindMessage || err != nil || id <= 0 {
			return mail.Message{}, mail.Permanent(fmt.Errorf("support: bad mail %s %q", kind, ref))
		}
		if len(shopTo) == 0 {
			return mail.Message{}, mail.Permanent(errors.New("support: no shop address to send the message to"))
		}
		m, err := store.SupportMessage(ctx, id)
		if errors.Is(err, ErrNotFound) {
			return mail.Message{}, mail.Permanent(err)
		}
		if err != nil {
			return mail.Message{}, err
		}
		var b strings.Builder
		b.WriteString("A visitor whose registration was refused by the bot-check wrote to support.\n\n")
		fmt.Fprintf(&b, "Email: %s\nUsername: %s\nAddress: %s\nSent: %s\n\n", or(m.Email, "(none)"),
			or(m.Username, "(none)"), or(m.ClientIP, "(unknown)"), m.CreatedAt.Format(time.RFC1123Z))
		b.WriteString(m.Text)
		b.WriteString("\n")
		msg := mail.Message{To: shopTo, Subject: "Message to support from a refused registration", Text: b.String()}
		if checkout.ValidEmail(m.Email) {
			msg.ReplyTo = m.Email
		}
		return msg, nil
	}
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
