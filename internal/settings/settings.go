// Package settings holds the shop's settings that staff change in the
// admin while the shop runs: the shop's name, tagline and
// address, the store notice, coming-soon mode, and the storefront's
// switches (infinite scroll, gallery zoom and lightbox, the page loader,
// swatch behaviour, the header on scroll, the consent banner).
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
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"vitrine/internal/alerts"
	"vitrine/internal/pages"
)

// Shop is the settings document.
type Shop struct {
	Name    string  `json:"name"`
	Tagline string  `json:"tagline"`
	Address Address `json:"address"`
	// Email and Phone are the shop's public contact details, shown in
	// every page's footer; "" shows none.
	Email string `json:"email"`
	Phone string `json:"phone"`
	// Social are the shop's profiles the footer links.
	Social Social `json:"social"`
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
	// ErasureReviews is what a privacy erasure does to the person's
	// reviews: "anonymise" (the text and rating stay, under
	// "Anonymous"; "" means it too) or "delete" (internal/privacy).
	ErasureReviews string `json:"erasure_reviews"`
	// ConsentBanner asks shoppers to accept or reject non-essential
	// cookies and storage (order attribution, recently viewed products)
	// before any is stored (internal/consent).
	ConsentBanner bool `json:"consent_banner"`
	// PriceDropPercent is the fall, in percent of the price a customer
	// wished for (two decimals at most), that mails them a price-drop
	// alert; "" means 10 (internal/alerts).
	PriceDropPercent string `json:"price_drop_percent"`
}

// PriceDropBP is the price-drop threshold in basis points.
func (s Shop) PriceDropBP() int {
	if bp, err := alerts.ParsePercent(s.PriceDropPercent); err == nil {
		return bp
	}
	return alerts.DefaultThresholdBP
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

// Social are the shop's profiles, an https URL per network; "" links none.
type Social struct {
	Facebook  string `json:"facebook"`
	Instagram string `json:"instagram"`
	X         string `json:"x"`
	Pinterest string `json:"pinterest"`
	YouTube   string `json:"youtube"`
	TikTok    string `json:"tiktok"`
}

// SocialNetworks are the networks in the footer's order: the JSON field,
// the name shown, and the field's value in s.
func (s Social) SocialNetworks() []pages.SocialLink {
	var out []pages.SocialLink
	for _, n := range []struct{ key, label, url string }{
		{"facebook", "Facebook", s.Facebook}, {"instagram", "Instagram", s.Instagram}, {"x", "X", s.X},
		{"pinterest", "Pinterest", s.Pinterest}, {"youtube", "YouTube", s.YouTube}, {"tiktok", "TikTok", s.TikTok},
	} {
		if n.url != "" {
			out = append(out, pages.SocialLink{Network: n.key, Label: n.label, URL: n.url})
		}
	}
	return out
}

// Lines is the address as the footer writes it: the street lines, the
// postcode with the city, the state, the country code; blank parts left out.
func (a Address) Lines() []string {
	var out []string
	for _, l := range []string{a.Line1, a.Line2, strings.TrimSpace(a.Postcode + " " + a.City), a.State, a.Country} {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
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

	once sync.Once
	d    doc[Shop]
}

func (s *Service) doc() *doc[Shop] {
	s.once.Do(func() { s.d = doc[Shop]{store: s.Store, name: Name, defaults: s.Defaults, now: s.Now} })
	return &s.d
}

func versioned(d Doc[Shop]) Versioned {
	return Versioned{Shop: d.Value, Version: d.Version, UpdatedAt: d.UpdatedAt}
}

// Current is the settings in force (the defaults until Load or a save).
func (s *Service) Current() Versioned { return versioned(s.doc().current()) }

// Load reads the stored settings into memory: at start, and when the
// change log says another instance saved them.
func (s *Service) Load(ctx context.Context) (Versioned, error) {
	d, err := s.doc().load(ctx)
	return versioned(d), err
}

// Update saves in if base is the version in force. A stale base is
// ErrStale (the caller reads Current for the newer settings); a bad field
// is an *InputError and nothing is saved.
func (s *Service) Update(ctx context.Context, in Shop, base int64) (Versioned, error) {
	in = normalize(in)
	if err := Validate(in); err != nil {
		return Versioned{}, err
	}
	d, err := s.doc().put(ctx, in, base)
	return versioned(d), err
}

func normalize(in Shop) Shop {
	trim := func(p *string) { *p = strings.TrimSpace(*p) }
	for _, p := range []*string{&in.Name, &in.Tagline, &in.StoreNotice, &in.Address.Line1, &in.Address.Line2, &in.Address.City,
		&in.Address.Postcode, &in.Address.State, &in.InfiniteScroll, &in.InfiniteScrollHistory, &in.Email, &in.Phone, &in.ErasureReviews, &in.PriceDropPercent,
		&in.Social.Facebook, &in.Social.Instagram, &in.Social.X, &in.Social.Pinterest, &in.Social.YouTube, &in.Social.TikTok} {
		trim(p)
	}
	in.Address.Country = strings.ToUpper(strings.TrimSpace(in.Address.Country))
	return in
}

// text is a text field of a document: its path, its value, at most max
// characters, required or not, and whether it may hold line breaks (never
// a NUL).
type text struct {
	field, v string
	max      int
	required bool
	lines    bool
}

// checkTexts refuses the first of ts that breaks its rules.
func checkTexts(ts ...text) error {
	for _, t := range ts {
		switch {
		case t.required && t.v == "":
			return &InputError{t.field, "This field is required."}
		case utf8.RuneCountInString(t.v) > t.max:
			return &InputError{t.field, fmt.Sprintf("At most %d characters.", t.max)}
		case strings.ContainsRune(t.v, 0) || (!t.lines && strings.ContainsAny(t.v, "\r\n")):
			return &InputError{t.field, "One line of text, please."}
		}
	}
	return nil
}

// Validate checks a settings document.
func Validate(in Shop) error {
	if err := checkTexts(
		text{field: "name", v: in.Name, max: 100, required: true}, text{field: "tagline", v: in.Tagline, max: 200},
		text{field: "address.address_1", v: in.Address.Line1, max: 200}, text{field: "address.address_2", v: in.Address.Line2, max: 200},
		text{field: "address.city", v: in.Address.City, max: 100}, text{field: "address.postcode", v: in.Address.Postcode, max: 20},
		text{field: "address.state", v: in.Address.State, max: 100},
		text{field: "email", v: in.Email, max: 100}, text{field: "phone", v: in.Phone, max: 40},
	); err != nil {
		return err
	}
	if err := validContact(in.Email, in.Phone); err != nil {
		return err
	}
	for _, n := range []struct{ field, v string }{
		{"social.facebook", in.Social.Facebook}, {"social.instagram", in.Social.Instagram}, {"social.x", in.Social.X},
		{"social.pinterest", in.Social.Pinterest}, {"social.youtube", in.Social.YouTube}, {"social.tiktok", in.Social.TikTok},
	} {
		if err := validProfile(n.field, n.v); err != nil {
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
	switch in.ErasureReviews {
	case "", "anonymise", "delete":
	default:
		return &InputError{"erasure_reviews", `One of "anonymise" or "delete".`}
	}
	if in.PriceDropPercent != "" {
		if _, err := alerts.ParsePercent(in.PriceDropPercent); err != nil {
			return &InputError{"price_drop_percent", "A percentage above 0 and below 100, such as 10 or 12.5."}
		}
	}
	return nil
}

// validContact checks the public email address (one address, no display
// name) and phone number (digits, spaces and + ( ) - . /, 5 to 15 digits).
func validContact(email, phone string) error {
	if email != "" {
		a, err := mail.ParseAddress(email)
		at := strings.LastIndexByte(email, '@')
		if err != nil || a.Address != email || at < 1 || !strings.Contains(email[at:], ".") {
			return &InputError{"email", "An email address, such as shop@example.com."}
		}
	}
	if phone != "" {
		digits := 0
		for _, r := range phone {
			switch {
			case r >= '0' && r <= '9':
				digits++
			case strings.ContainsRune(" +()-./", r):
			default:
				return &InputError{"phone", "Digits, spaces and + ( ) - . / only, such as +1 555 0100 200."}
			}
		}
		if digits < 5 || digits > 15 {
			return &InputError{"phone", "A phone number has 5 to 15 digits."}
		}
	}
	return nil
}

// validProfile checks a social profile's address: empty, or an https URL
// with a host, at most 300 characters.
func validProfile(field, v string) error {
	if v == "" {
		return nil
	}
	u, err := url.Parse(v)
	if err != nil || len(v) > 300 || u.Scheme != "https" || u.Host == "" || u.User != nil || strings.ContainsAny(v, " \t\r\n\x00") {
		return &InputError{field, "An https address of at most 300 characters, such as https://www.instagram.com/yourshop."}
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
	base.Consent.Banner = s.ConsentBanner
	base.Shop = pages.ShopDetails{AddressLines: s.Address.Lines(), Email: s.Email, Phone: s.Phone,
		Social: s.Social.SocialNetworks(), Payments: base.Shop.Payments}
	if base.Shop.AddressLines == nil {
		base.Shop.AddressLines = []string{}
	}
	if base.Shop.Social == nil {
		base.Shop.Social = []pages.SocialLink{}
	}
	return base
}

// FromPages is the settings document a storefront's settings and the
// shop's flags amount to: the defaults before the first save.
func FromPages(name, tagline string, comingSoon bool, p pages.Settings) Shop {
	s := Shop{Name: name, Tagline: tagline, ComingSoon: comingSoon,
		InfiniteScroll: p.InfiniteScroll.Type, InfiniteScrollHistory: p.InfiniteScroll.History,
		Zoom: p.Zoom, Lightbox: p.Lightbox, PageLoader: p.PageLoader, HeaderHideOnScroll: p.HeaderHideOnScroll,
		ClearOnReselect: p.ClearOnReselect, ClickableOutOfStock: p.ClickableOutOfStock, DeselectConflicting: p.DeselectConflicting,
		ConsentBanner: p.Consent.Banner}
	if p.StoreNotice != nil {
		s.StoreNotice = p.StoreNotice.HTML
	}
	return s
}

// Edit applies change to the settings in force and saves them (Edit,
// Update's checks).
func (s *Service) Edit(ctx context.Context, change func(*Shop) error) (Versioned, error) {
	d, err := Edit(ctx, s.doc().current, func(ctx context.Context, v Shop, base int64) (Doc[Shop], error) {
		out, err := s.Update(ctx, v, base)
		return Doc[Shop]{Value: out.Shop, Version: out.Version, UpdatedAt: out.UpdatedAt}, err
	}, change)
	return versioned(d), err
}
