package settings

import (
	"context"
	"sync"
	"time"

	"vitrine/internal/retention"
)

// RetentionName is the data retention document's key.
const RetentionName = "retention"

// Retention reads and saves the data retention policy (retention.Policy),
// versioned like the shop's settings. Its default is every rule off: a
// shop keeps its data until staff choose how long.
type Retention struct {
	Store Store
	Now   func() time.Time

	once sync.Once
	d    doc[retention.Policy]
}

func (s *Retention) doc() *doc[retention.Policy] {
	s.once.Do(func() { s.d = doc[retention.Policy]{store: s.Store, name: RetentionName, now: s.Now} })
	return &s.d
}

// Current is the policy in force, as last loaded or saved here.
func (s *Retention) Current() Doc[retention.Policy] { return s.doc().current() }

// Load reads the stored policy (the runs read it each time, so a save on
// another instance is in force at the next run).
func (s *Retention) Load(ctx context.Context) (Doc[retention.Policy], error) {
	return s.doc().load(ctx)
}

// Update validates (a *retention.InputError names the field) and saves p
// if base is the version in force (ErrStale otherwise).
func (s *Retention) Update(ctx context.Context, p retention.Policy, base int64) (Doc[retention.Policy], error) {
	if err := p.Validate(); err != nil {
		return Doc[retention.Policy]{}, err
	}
	return s.doc().put(ctx, p, base)
}
