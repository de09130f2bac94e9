package pages

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"vitrine/internal/richtext"
)

// The site chrome's page data: the sticky header's settings,
// the store notice and the coming-soon page.

// DefaultStickyHeight is the stuck header's height in px (spec section 3,
// page settings sticky_height).
const DefaultStickyHeight = 70

// MaxStoreNotice bounds the store notice's text, in bytes.
const MaxStoreNotice = 2000

// StoreNotice is the shop's store-notice banner (spec sections 2 to 4): a
// line shown above the header on every storefront page until the shopper
// dismisses it. Dismissing sets the cookie store_notice<ID>=hidden (path
// /), so a new text, with a new ID, shows again to those who dismissed the
// old one.
type StoreNotice struct {
	// ID is WooCommerce's notice id: the MD5 of the notice as shown.
	ID string `json:"id"`
	// HTML is the notice, sanitized by richtext (the descriptions' policy).
	HTML string `json:"html"`
}

// ErrEmptyNotice means a store notice had no text left once sanitized.
var ErrEmptyNotice = errors.New("the store notice has no text left once unsafe HTML is removed")

// NewStoreNotice makes the store notice from the shop's text: plain text,
// or HTML limited to what product descriptions may hold (richtext), which
// removes anything that runs script. An empty text is no notice (nil).
func NewStoreNotice(text string) (*StoreNotice, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, nil
	}
	if len(text) > MaxStoreNotice {
		return nil, fmt.Errorf("the store notice is %d bytes; at most %d", len(text), MaxStoreNotice)
	}
	html := strings.TrimSpace(richtext.Sanitize(text))
	if strings.TrimSpace(plainText(html, MaxStoreNotice)) == "" {
		return nil, ErrEmptyNotice
	}
	sum := md5.Sum([]byte(html))
	return &StoreNotice{ID: hex.EncodeToString(sum[:]), HTML: html}, nil
}

// ComingSoonPage is the page visitors see while the shop is in coming-soon
// mode: the shop's name and a short message, no menu, no products.
type ComingSoonPage struct {
	Base
}

// ComingSoonURL is the URL the coming-soon page is rendered for: one
// neutral URL, so one rendering serves every path.
const ComingSoonURL = "/"

// ComingSoon loads the coming-soon page. It reads nothing from the store:
// no categories (the menu would show the catalogue the mode hides), the
// visitor as viewer, and no store notice. The status is 503 (WooCommerce's
// coming-soon answer: the shop is not there yet, come back later), and
// the page asks not to be indexed.
func (l *Loader) ComingSoon(ctx context.Context) (*Result, error) {
	live := l.live()
	settings := live.Settings
	settings.User = Visitor
	settings.StoreNotice = nil
	settings.Currencies, settings.BaseCurrency = nil, ""
	page := ComingSoonPage{Base: Base{Page: "coming-soon", URL: ComingSoonURL, Site: Site{live.SiteName, live.Tagline, l.Currency}, Year: l.Now().Year(),
		Nav: []NavCategory{}, Settings: settings}}
	h := l.head(l.title("Coming soon"), live.Tagline, "")
	h.Canonical = ""
	h.Robots = "noindex, nofollow"
	return &Result{Status: http.StatusServiceUnavailable, Data: page, Head: h, Tags: []string{"coming-soon"}}, nil
}
