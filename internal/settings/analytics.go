package settings

import (
	"context"
	"sync"
	"time"

	"vitrine/internal/analytics"
)

// AnalyticsName is the analytics settings document's key.
const AnalyticsName = "analytics"

// Analytics reads and saves the analytics settings (analytics.Settings:
// the shop's time zone for report days, the excluded statuses), versioned
// like the shop's settings. Its default is UTC and WooCommerce's excluded
// statuses (pending, failed, cancelled).
type Analytics struct {
	Store Store
	Now   func() time.Time

	once sync.Once
	d    doc[analytics.Settings]
}

func (s *Analytics) doc() *doc[analytics.Settings] {
	s.once.Do(func() { s.d = doc[analytics.Settings]{store: s.Store, name: AnalyticsName, now: s.Now} })
	return &s.d
}

// Current is the settings in force, as last loaded or saved here.
func (s *Analytics) Current() Doc[analytics.Settings] { return s.doc().current() }

// Load reads the stored settings.
func (s *Analytics) Load(ctx context.Context) (Doc[analytics.Settings], error) {
	return s.doc().load(ctx)
}

// Update validates (an *analytics.InputError names the field) and saves v
// if base is the version in force (ErrStale otherwise).
func (s *Analytics) Update(ctx context.Context, v analytics.Settings, base int64) (Doc[analytics.Settings], error) {
	if err := v.Validate(); err != nil {
		return Doc[analytics.Settings]{}, err
	}
	return s.doc().put(ctx, v, base)
}
