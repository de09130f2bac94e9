// Package usermeta keeps small per-user storefront settings that are not
// part of the account (WordPress keeps them in user meta): today the
// coming-soon banner's "dismissed" flag. The REST adapter
// (POST /wp-json/wp/v2/users/<id>) and the login hook call this service;
// the rules (who may change whose settings, which keys and values exist)
// live here.
package usermeta

import (
	"context"
	"errors"
	"fmt"
)

// Store keeps the settings (sqlstore.DB implements it).
type Store interface {
	// UserMeta reads one setting; ok is false when it was never set.
	UserMeta(ctx context.Context, userID int64, key string) (value string, ok bool, err error)
	// SetUserMeta writes one setting.
	SetUserMeta(ctx context.Context, userID int64, key, value string) error
}

// KeyComingSoonBannerDismissed is WooCommerce's woocommerce_meta key for
// the coming-soon footer banner: "yes" once dismissed, "no" otherwise.
const KeyComingSoonBannerDismissed = "coming_soon_banner_dismissed"

// Meta is a user's settings as the REST user object shows them
// (woocommerce_meta).
type Meta struct {
	ComingSoonBannerDismissed string `json:"coming_soon_banner_dismissed"`
}

// ErrForbidden: a user may change only their own settings.
var ErrForbidden = errors.New("usermeta: a user may change only their own settings")

// InputError is a change the service refuses: an unknown key or a value
// the key does not take.
type InputError struct {
	Key     string
	Message string
}

func (e *InputError) Error() string { return fmt.Sprintf("usermeta: %s: %s", e.Key, e.Message) }

// Service is the per-user settings use cases.
type Service struct {
	Store Store
}

// Get reads a user's settings (unset flags read "no").
func (s *Service) Get(ctx context.Context, userID int64) (Meta, error) {
	v, err := s.flag(ctx, userID, KeyComingSoonBannerDismissed)
	if err != nil {
		return Meta{}, err
	}
	return Meta{ComingSoonBannerDismissed: v}, nil
}

// BannerDismissed reports whether the user dismissed the coming-soon
// banner since their last login.
func (s *Service) BannerDismissed(ctx context.Context, userID int64) (bool, error) {
	v, err := s.flag(ctx, userID, KeyComingSoonBannerDismissed)
	return v == "yes", err
}

// Update applies changes (key to value) to target's settings on behalf
// of actor and answers the settings after the change. Only actor's own
// settings can change; every change is checked before any is written, so
// a refused request changes nothing.
func (s *Service) Update(ctx context.Context, actorID, targetID int64, changes map[string]string) (Meta, error) {
	if actorID != targetID {
		return Meta{}, ErrForbidden
	}
	for k, v := range changes {
		if k != KeyComingSoonBannerDismissed {
			return Meta{}, &InputError{Key: k, Message: "is not a setting a user can change"}
		}
		if v != "yes" && v != "no" {
			return Meta{}, &InputError{Key: k, Message: `must be "yes" or "no"`}
		}
	}
	for k, v := range changes {
		if err := s.Store.SetUserMeta(ctx, targetID, k, v); err != nil {
			return Meta{}, err
		}
	}
	return s.Get(ctx, targetID)
}

// ResetAtLogin shows the coming-soon banner again after a login, as
// WooCommerce does: a dismissal lasts one session. It writes only when the
// flag is set, so an ordinary login costs one read.
func (s *Service) ResetAtLogin(ctx context.Context, userID int64) error {
	dismissed, err := s.BannerDismissed(ctx, userID)
	if err != nil || !dismissed {
		return err
	}
	return s.Store.SetUserMeta(ctx, userID, KeyComingSoonBannerDismissed, "no")
}

func (s *Service) flag(ctx context.Context, userID int64, key string) (string, error) {
	v, ok, err := s.Store.UserMeta(ctx, userID, key)
	if err != nil {
		return "", err
	}
	if !ok || v != "yes" {
		return "no", nil
	}
	return "yes", nil
}
