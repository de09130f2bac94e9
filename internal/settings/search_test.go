package settings

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"vitrine/internal/catalog"
)

// memStore is a settings store in memory.
type memStore struct {
	raw     []byte
	version int64
}

func (m *memStore) Setting(context.Context, string) ([]byte, int64, time.Time, error) {
	if m.version == 0 {
		return nil, 0, time.Time{}, ErrNotFound
	}
	return m.raw, m.version, time.Time{}, nil
}

func (m *memStore) PutSetting(_ context.Context, _ string, raw []byte, base int64, _ time.Time) (int64, error) {
	if base != m.version {
		return 0, ErrStale
	}
	m.raw, m.version = raw, m.version+1
	return m.version, nil
}

func TestSearchSettings(t *testing.T) {
	ctx := context.Background()
	s := &SearchSettings{Store: &memStore{}}
	if got := s.Synonyms(); len(got) != 0 {
		t.Fatalf("defaults: %q", got)
	}
	d, err := s.Update(ctx, Search{Synonyms: [][]string{{" tee ", "T-Shirt", ""}, {}, {"  "}}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if d.Version != 1 || len(d.Value.Synonyms) != 1 || d.Value.Synonyms[0][0] != "tee" {
		t.Errorf("saved %+v", d)
	}
	want := catalog.Synonyms{{{"tee"}, {"t", "shirt"}}}
	if got := s.Synonyms(); len(got) != 1 || strings.Join(got[0][1], " ") != strings.Join(want[0][1], " ") {
		t.Errorf("synonyms in force: %q", got)
	}
	if _, err := s.Update(ctx, Search{}, 0); !errors.Is(err, ErrStale) {
		t.Errorf("stale save: %v", err)
	}
	for _, bad := range []Search{
		{Synonyms: [][]string{{"alone"}}},
		{Synonyms: [][]string{{"tee", "!!!"}}},
		{Synonyms: [][]string{{"tee", strings.Repeat("x", MaxSynonymLen+1)}}},
	} {
		var in *InputError
		if _, err := s.Update(ctx, bad, 1); !errors.As(err, &in) {
			t.Errorf("%q: %v, want an input error", bad.Synonyms, err)
		}
	}
	if s.Current().Version != 1 {
		t.Error("a refused save changed the document")
	}
}
