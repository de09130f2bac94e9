package settings

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"
)

// doc is one named settings document of type T: the defaults until it is
// first saved, the stored one after, kept in memory; saves are a
// compare-and-set on the version (see the package comment).
type doc[T any] struct {
	store    Store
	name     string
	defaults T
	now      func() time.Time
	cur      atomic.Pointer[Doc[T]]
}

// Doc is a document in force, with its version (0: the defaults, never
// saved) and when it was saved.
type Doc[T any] struct {
	Value     T
	Version   int64
	UpdatedAt time.Time
}

func (d *doc[T]) current() Doc[T] {
	if v := d.cur.Load(); v != nil {
		return *v
	}
	return Doc[T]{Value: d.defaults}
}

func (d *doc[T]) load(ctx context.Context) (Doc[T], error) {
	raw, version, at, err := d.store.Setting(ctx, d.name)
	if errors.Is(err, ErrNotFound) {
		v := Doc[T]{Value: d.defaults}
		d.cur.Store(&v)
		return v, nil
	}
	if err != nil {
		return Doc[T]{}, err
	}
	v := Doc[T]{Value: d.defaults, Version: version, UpdatedAt: at.UTC()}
	if err := json.Unmarshal(raw, &v.Value); err != nil {
		return Doc[T]{}, fmt.Errorf("settings: stored %s document: %w", d.name, err)
	}
	d.cur.Store(&v)
	return v, nil
}

// put saves a validated value if base is still the version in force.
func (d *doc[T]) put(ctx context.Context, value T, base int64) (Doc[T], error) {
	raw, err := json.Marshal(value)
	if err != nil {
		return Doc[T]{}, err
	}
	now := d.timeNow()
	version, err := d.store.PutSetting(ctx, d.name, raw, base, now)
	if errors.Is(err, ErrStale) {
		_, _ = d.load(ctx) // the newer one, for the refusal
		return Doc[T]{}, ErrStale
	}
	if err != nil {
		return Doc[T]{}, err
	}
	v := Doc[T]{Value: value, Version: version, UpdatedAt: now}
	d.cur.Store(&v)
	return v, nil
}

func (d *doc[T]) timeNow() time.Time {
	if d.now != nil {
		return d.now().UTC().Truncate(time.Second)
	}
	return time.Now().UTC().Truncate(time.Second)
}

// Edit changes one part of a document without its client holding the
// whole (the REST API's one-resource writes: a tax rate, a zone, one
// option): change is applied to a copy of the document in force (cur),
// which save (the document's Update, with its checks) stores at that
// version. When another save lands in between, the change is applied
// again to the newer document, a few times, rather than lost or refused;
// change's own error ends the edit, nothing saved.
func Edit[T any](ctx context.Context, cur func() Doc[T], save func(context.Context, T, int64) (Doc[T], error), change func(*T) error) (Doc[T], error) {
	var err error
	for range 3 {
		d := cur()
		var v T
		// A deep copy: change must not reach the document in force.
		raw, merr := json.Marshal(d.Value)
		if merr != nil {
			return Doc[T]{}, merr
		}
		if merr := json.Unmarshal(raw, &v); merr != nil {
			return Doc[T]{}, merr
		}
		if err := change(&v); err != nil {
			return Doc[T]{}, err
		}
		var out Doc[T]
		out, err = save(ctx, v, d.Version)
		if !errors.Is(err, ErrStale) {
			return out, err
		}
	}
	return Doc[T]{}, err
}
