package settings

import (
	"context"
	"sync"
	"time"

	"vitrine/internal/checkout"
)

// RulesName is the shipping and tax document's key.
const RulesName = "shipping_tax"

// Rules reads and saves the checkout's shipping zones and tax rates
// (checkout.Rules), versioned like the shop's settings; the flags' (or the
// demo's) rules are the defaults.
type Rules struct {
	Store    Store
	Defaults checkout.Rules
	Now      func() time.Time

	once sync.Once
	d    doc[checkout.Rules]
}

func (s *Rules) doc() *doc[checkout.Rules] {
	s.once.Do(func() { s.d = doc[checkout.Rules]{store: s.Store, name: RulesName, defaults: s.Defaults, now: s.Now} })
	return &s.d
}

// Current is the rules in force.
func (s *Rules) Current() Doc[checkout.Rules] { return s.doc().current() }

// Load reads the stored rules into memory.
func (s *Rules) Load(ctx context.Context) (Doc[checkout.Rules], error) { return s.doc().load(ctx) }

// Update normalizes, validates (a *checkout.RuleError names the field) and
// saves r if base is the version in force (ErrStale otherwise).
func (s *Rules) Update(ctx context.Context, r checkout.Rules, base int64) (Doc[checkout.Rules], error) {
	r.Normalize()
	if err := r.Validate(); err != nil {
		return Doc[checkout.Rules]{}, err
	}
	return s.doc().put(ctx, r, base)
}

// Edit applies change to the rules in force and saves them (Edit, Update's
// checks).
func (s *Rules) Edit(ctx context.Context, change func(*checkout.Rules) error) (Doc[checkout.Rules], error) {
	return Edit(ctx, s.Current, s.Update, change)
}
