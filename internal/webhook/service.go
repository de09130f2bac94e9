package webhook

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"log/slog"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"
)

// Service is the webhooks' use cases (the REST routes call them).
type Service struct {
	Store Store
	// AllowPrivate accepts delivery URLs on loopback and private
	// addresses (--webhooks-allow-private: tests, a shop on a LAN).
	AllowPrivate bool
	// Resolve looks a host up (default net.DefaultResolver); tests
	// replace it.
	Resolve Resolver
	// Kick wakes this instance's worker after a ping is queued (nil-safe).
	Kick func()
	Now  func() time.Time
	Log  *slog.Logger
}

// Input is a create or an update: nil fields are left as they are (an
// update) or take their default (a create).
type Input struct {
	Name        *string
	Status      *string
	Topic       *string
	DeliveryURL *string
	Secret      *string
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC().Truncate(time.Second)
	}
	return time.Now().UTC().Truncate(time.Second)
}

func (s *Service) kick() {
	if s.Kick != nil {
		s.Kick()
	}
}

// ValidTopic reports whether the shop raises topic.
func ValidTopic(topic string) bool { _, ok := Topics[topic]; return ok }

// ValidStatus reports whether status is one of the three.
func ValidStatus(status string) bool {
	return status == StatusActive || status == StatusPaused || status == StatusDisabled
}

func errTopic() error {
	return &InputError{Param: "topic", Code: "woocommerce_rest_shop_webhook_invalid_topic", Message: "Webhook topic is required and must be valid."}
}

func errURL(msg string) error {
	if msg == "" {
		msg = "Webhook delivery URL must be a valid URL starting with http:// or https://."
	}
	return &InputError{Param: "delivery_url", Code: "woocommerce_rest_shop_webhook_invalid_delivery_url", Message: msg}
}

// checkURL refuses what is not an absolute http(s) URL, and a host that is
// or resolves to an internal address unless AllowPrivate. A host that does
// not resolve now is accepted: the dial checks it again.
func (s *Service) checkURL(ctx context.Context, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.User != nil || len(raw) > 2000 {
		return errURL("")
	}
	if s.AllowPrivate {
		return nil
	}
	if err := checkHost(ctx, s.Resolve, u.Hostname()); err != nil {
		return errURL("Webhook delivery URL must not point to a loopback, private or link-local address.")
	}
	return nil
}

// newSecret is a random secret as WooCommerce makes one when none is
// given: 32 random bytes, printable.
func newSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Create stores a webhook made by userID. A new active webhook is pinged
// (webhook_id=<id>), through the queue.
func (s *Service) Create(ctx context.Context, userID int64, in Input) (*Hook, error) {
	now := s.now()
	h := &Hook{Status: StatusActive, APIVersion: APIVersion, UserID: userID, CreatedAt: now}
	if in.Topic == nil || !ValidTopic(strings.TrimSpace(*in.Topic)) {
		return nil, errTopic()
	}
	if in.DeliveryURL == nil {
		return nil, errURL("")
	}
	if err := s.apply(ctx, h, in); err != nil {
		return nil, err
	}
	if h.Name == "" {
		h.Name = "Webhook created on " + now.Format("January 2, 2006 @ 3:04 PM")
	}
	if h.Secret == "" {
		h.Secret = newSecret()
	}
	id, err := s.Store.InsertWebhook(ctx, h, h.Status == StatusActive, now)
	if err != nil {
		return nil, err
	}
	h.ID = id
	s.kick()
	return h, nil
}

// apply checks and sets in's fields on h.
func (s *Service) apply(ctx context.Context, h *Hook, in Input) error {
	if in.Name != nil {
		name := strings.TrimSpace(*in.Name)
		if utf8.RuneCountInString(name) > 200 {
			return &InputError{Param: "name", Code: "rest_invalid_param", Message: "The name is up to 200 characters."}
		}
		h.Name = name
	}
	if in.Status != nil {
		if !ValidStatus(*in.Status) {
			return &InputError{Param: "status", Code: "rest_invalid_param", Message: "status is not one of active, paused, and disabled."}
		}
		h.Status = *in.Status
	}
	if in.Topic != nil {
		t := strings.TrimSpace(*in.Topic)
		if !ValidTopic(t) {
			return errTopic()
		}
		h.Topic = t
	}
	if in.DeliveryURL != nil {
		u := strings.TrimSpace(*in.DeliveryURL)
		if err := s.checkURL(ctx, u); err != nil {
			return err
		}
		h.DeliveryURL = u
	}
	if in.Secret != nil {
		h.Secret = *in.Secret
	}
	return nil
}

// Get loads a webhook (ErrNotFound).
func (s *Service) Get(ctx context.Context, id int64) (*Hook, error) { return s.Store.Webhook(ctx, id) }

// List lists webhooks oldest first, those in status if set ("all" or ""
// for every one).
func (s *Service) List(ctx context.Context, status string) ([]Hook, error) {
	if status == "all" {
		status = ""
	}
	if status != "" && !ValidStatus(status) {
		return nil, &InputError{Param: "status", Code: "rest_invalid_param", Message: "status is not one of all, active, paused, and disabled."}
	}
	return s.Store.Webhooks(ctx, status)
}

// Update changes a webhook. Setting it active again starts its failure
// count afresh.
func (s *Service) Update(ctx context.Context, id int64, in Input) (*Hook, error) {
	h, err := s.Store.Webhook(ctx, id)
	if err != nil {
		return nil, err
	}
	was := h.Status
	if err := s.apply(ctx, h, in); err != nil {
		return nil, err
	}
	if h.Status == StatusActive && was != StatusActive {
		h.FailureCount = 0
	}
	now := s.now()
	if err := s.Store.UpdateWebhook(ctx, h, now); err != nil {
		return nil, err
	}
	h.ModifiedAt = now
	return h, nil
}

// Delete deletes a webhook with its queue and log, and answers it as it
// was.
func (s *Service) Delete(ctx context.Context, id int64) (*Hook, error) {
	h, err := s.Store.Webhook(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := s.Store.DeleteWebhook(ctx, id); err != nil {
		return nil, err
	}
	return h, nil
}

// Deliveries lists a webhook's last attempts, newest first.
func (s *Service) Deliveries(ctx context.Context, id int64, limit int) ([]LogEntry, error) {
	if _, err := s.Store.Webhook(ctx, id); err != nil {
		return nil, err
	}
	return s.Store.WebhookLog(ctx, id, min(max(limit, 1), LogKeep))
}

// Upkeep deletes the queue's rows done for longer than QueueRetention
// (the upkeep loop).
func (s *Service) Upkeep(ctx context.Context) (int64, error) {
	return s.Store.DeleteDoneWebhookDeliveries(ctx, s.now().Add(-QueueRetention))
}

// IsInput reports whether err is a refused field.
func IsInput(err error) (*InputError, bool) {
	var ie *InputError
	ok := errors.As(err, &ie)
	return ie, ok
}
