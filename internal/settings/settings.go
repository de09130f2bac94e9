// Package settings holds the shop's settings that staff change in the
// admin while the shop runs (issue 15): the shop's name, tagline and
// address, the store notice, coming-soon mode, and the storefront's
// switches (infinite scroll, gallery zoom and lightbox, the page loader,
// swatch behaviour, the header on scroll).
//
// The command line's flags are the defaults: a shop that has never saved
// its settings in the admin runs on them. The first save stores the whole
// document, and from then on the stored settings win (operations.md says
// so). Saves are versioned: an edit based on a stale version is refused,
// never merged silently. Each save appends a "settings" entry to the
// catalogue change log in its transaction, so every instance reloads the
// settings and purges its cached pages within its change poll.
package settings

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"vitrine/internal/pages"
)

// Shop is the settings document.
type Shop struct {
	Name    string  `json:"name"`
	Tagline string  `json:"tagline"`
	Address Address `json:"address"`
	// StoreNotice is the banner's text: plain text or simple HTML
	// (sanitized); "" shows none.
	StoreNotice string `json:"store_notice"`
	// ComingSoon shows visitors the coming-soon page.
	ComingSoon bool `json:"coming_soon"`
	// InfiniteScroll is "spinner", "button" or "off"; its history "push"
	// or "replace".
	InfiniteScroll        string `json:"infinite_scroll"`
	InfiniteScrollHistory string `json:"infinite_scroll_history"`
	Zoom                  bool   `json:"zoom"`
	Lightbox              bool   `json:"lightbox"`
	PageLoader            bool   `json:"page_loader"`
	HeaderHideOnScroll    bool   `json:"header_hide_on_scroll"`
	// Swatch behaviour (pages.Settings).
	ClearOnReselect     bool `json:"clear_on_reselect"`
	ClickableOutOfStock bool `json:"clickable_out_of_stock"`
	DeselectConflicting bool `json:"deselect_conflicting"`
}

// Address is the shop's postal address (mails, invoices, the contact page).
type Address struct {
	Line1    string `json:"address_1"`
	Line2    string `json:"address_2"`
	City     string `json:"city"`
	Postcode string `json:"postcode"`
	State    string `json:"state"`
	Country  string `json:"country"` // ISO 3166-1 alpha-2, or ""
}

// Versioned is the settings in force and where they come from.
type Versioned struct {
	Shop
	// Version is 0 while the flags' defaults are in force, and counts
	// saves after that.
	Version   int64     `json:"version"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Name is the settings document's key in the store.
const Name = "shop"

// Store keeps named, versioned JSON documents.
type Store interface {
	// Setting reads a document; ErrNotFound when it was never saved.
	Setting(ctx context.Context, name string) (raw []byte, version int64, updatedAt time.Time, err error)
	// PutSetting saves a document if its stored version is still base
	// (0: never saved), and records the change; ErrStale otherwise.
	PutSetting(ctx context.Context, name string, raw []byte, base int64, at time.Time) (version int64, err error)
}

var (
	// ErrNotFound is a document never saved.
	ErrNotFound = errors.New("settings: not saved yet")
	// ErrStale is a save based on a version that is no longer current.
	ErrStale = errors.New("settings: changed since they were read")
)

// InputError is a field the settings cannot take.
type InputError struct {
	Field   string
	Message string
}

func (e *InputError) Error() string { return e.Field + ": " + e.Message }

// Service reads and saves the settings, keeping the current ones in memory.
type Service struct {
	Store    Store
	Defaults Shop
	Now      func() time.Time

	cur atomic.Pointer[Versioned]
}

// Current is the settings in force (the defaults until Load or a save).
func (s *Service) Current() Versioned {
	if v := s.cur.Load(); v != nil {
		return *v
	}
	return Versioned{Shop: s.Defaults}
}

// Load reads the stored settings into memory: at start, and when the
// change log says another instance saved them.
func (s *Service) Load(ctx context.Context) (Versioned, error) {
	raw, version, at, err := s.Store.Setting(ctx, Name)
	if errors.Is(err, ErrNotFound) {
		v := Versioned{Shop: s.Defaults}
		s.cur.Store(&v)
		return v, nil
	}
	if err != nil {
		return Versioned{}, err
	}
	v := Versioned{Shop: s.Defaults, Version: version, UpdatedAt: at.UTC()}
	if err := json.Unmarshal(raw, &v.Shop); err != nil {
		return Versioned{}, fmt.Errorf("settings: stored document: %w", err)
	}
	s.cur.Store(&v)
	return v, nil
}

// Update saves in if base is the version in force. A stale base is
// ErrStale (the caller reads Current for the newer settings); a bad field
// is an *InputError and nothing is saved.
func (s *Service) Update(ctx context.Context, in Shop, base int64) (Versioned, error) {
	in = normalize(in)
	if err := Validate(in); err != nil {
		return Versioned{}, err
	}
	raw, err := json.Marshal(in)
	if err != nil {
		return Versioned{}, err
	}
	now := s.now()
	version, err := s.Store.PutSetting(ctx, Name, raw, base, now)
	if errors.Is(err, ErrStale) {
		_, _ = s.Load(ctx) // the newer ones, for the refusal
		return Versioned{}, ErrStale
	}
	if err != nil {
		return Versioned{}, err
	}
	v := Versioned{Shop: in, Version: version, UpdatedAt: now}
	s.cur.Store(&v)
	return v, nil
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC().Truncate(time.Second)
	}
	return time.Now().UTC().Truncate(time.Second)
}

func normalize(in Shop) Shop {
	trim := func(p *string) { *p = strings.TrimSpace(*p) }
	for _, p := range []*string{&in.Name, &in.Tagline, &in.StoreNotice, &in.Address.Line1, &in.Address.Line2, &in.Address.City,
		&in.Address.Postcode, &in.Address.State, &in.InfiniteScroll, &in.InfiniteScrollHistory} {
		trim(p)
	}
	in.Address.Country = strings.ToUpper(strings.TrimSpace(in.Address.Country))
	return in
}

// Validate checks a settings document.
func Validate(in Shop) error {
	text := func(field, v string, max int, required bool) error {
		switch {
		case required && v == "":
			return &InputError{field, "This field is required."}
		case utf8.RuneCountInString(v) > max:
			return &InputError{field, fmt.Sprintf("At most %d characters.", max)}
		case strings.ContainsAny(v, "\x00\r\n") && field != "store_notice":
			return &InputError{field, "One line of text, please."}
		}
		return nil
	}
	for _, c := range []struct {
		field, v string
		max      int
		required bool
	}{
		{"name", in.Name, 100, true}, {"tagline", in.Tagline, 200, false},
		{"address.address_1", in.Address.Line1, 200, false}, {"address.address_2", in.Address.Line2, 200, false},
		{"address.city", in.Address.City, 100, false}, {"address.postcode", in.Address.Postcode, 20, false},
		{"address.state", in.Address.State, 100, false},
	} {
		if err := text(c.field, c.v, c.max, c.required); err != nil {
			return err
		}
	}
	if c := in.Address.Country; c != "" && (len(c) != 2 || c[0] < 'A' || c[0] > 'Z' || c[1] < 'A' || c[1] > 'Z') {
		return &InputError{"address.country", "A two-letter country code (ISO 3166-1), such as US or DE."}
	}
	if _, err := pages.NewStoreNotice(in.StoreNotice); err != nil {
		return &InputError{"store_notice", noticeMessage(err)}
	}
	switch in.InfiniteScroll {
	case "spinner", "button", "off":
	default:
		return &InputError{"infinite_scroll", `One of "spinner", "button" or "off".`}
	}
	switch in.InfiniteScrollHistory {
	case "push", "replace":
	default:
		return &InputError{"infinite_scroll_history", `One of "push" or "replace".`}
	}
	return nil
}

func noticeMessage(err error) string {
	if errors.Is(err, pages.ErrEmptyNotice) {
		return "The notice has no text left once unsafe HTML is removed."
	}
	return fmt.Sprintf("At most %d bytes.", pages.MaxStoreNotice)
}

// Apply is s over a storefront's settings: what pages carry.
func (s Shop) Apply(base pages.Settings) pages.Settings {
	base.InfiniteScroll.Type, base.InfiniteScroll.History = s.InfiniteScroll, s.InfiniteScrollHistory
	base.Zoom, base.Lightbox, base.PageLoader = s.Zoom, s.Lightbox, s.PageLoader
	base.HeaderHideOnScroll = s.HeaderHideOnScroll
	base.ClearOnReselect, base.ClickableOutOfStock, base.DeselectConflicting = s.ClearOnReselect, s.ClickableOutOfStock, s.DeselectConflicting
	base.StoreNotice, _ = pages.NewStoreNotice(s.StoreNotice) // validated when saved
	return base
}

// FromPages is the settings document a storefront's settings and the
// shop's flags amount to: the defaults before the first save.
func FromPages(name, tagline string, comingSoon bool, p pages.Settings) Shop {
	s := Shop{Name: name, Tagline: tagline, ComingSoon: comingSoon,
		InfiniteScroll: p.InfiniteScroll.Type, InfiniteScrollHistory: p.InfiniteScroll.History,
		Zoom: p.Zoom, Lightbox: p.Lightbox, PageLoader: p.PageLoader, HeaderHideOnScroll: p.HeaderHideOnScroll,
		ClearOnReselect: p.ClearOnReselect, ClickableOutOfStock: p.ClickableOutOfStock, DeselectConflicting: p.DeselectConflicting}
	if p.StoreNotice != nil {
		s.StoreNotice = p.StoreNotice.HTML
	}
	return s
}
