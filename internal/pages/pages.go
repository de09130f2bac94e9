// Package pages loads the data of each server-rendered page (home,
// listings, product, not found): it asks the catalogue, shapes the result
// as the React app's PageData (web/src/types.ts), and says what the page's
// head holds and which cache tags it carries.
package pages

import (
	"context"
	"errors"
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/contactform"
	"vitrine/internal/money"
	"vitrine/internal/render"
	"vitrine/internal/review"
	"vitrine/internal/storeapi"
)

// PerPage is how many products a listing page shows.
const PerPage = 24

// ErrNotFound means the page does not exist (unknown slug, page past the end).
var ErrNotFound = errors.New("page not found")

// Moved means the page lives at another path (a category asked for under a
// parent path that is not its own); Path is the canonical one, escaped.
type Moved struct{ Path string }

func (m *Moved) Error() string { return "page moved to " + m.Path }

// Loader builds page data.
type Loader struct {
	// Localize is the localised plugin script every page carries
	// (render.Head.Localize: the wishlist's yith_wcwl_l10n), nil for none.
	Localize func() string
	Store    catalog.Store
	Currency money.Currency
	SiteName string
	Tagline  string
	// BaseCountry is the shop's country (ISO code): addresses in it are
	// written without their country (internal/address).
	BaseCountry string
	// BaseURL is the shop's public origin, for canonical links and
	// structured data.
	BaseURL string
	Now     func() time.Time
	// VariationThreshold: variable products with at most this many
	// variations embed them all in the page (spec: 30, up to 100).
	VariationThreshold int
	// Settings are sent with every page.
	Settings Settings
	// Reviews lists product pages' reviews (nil: none shown).
	Reviews ReviewSource
	// ReviewSettings are the shop's review options the form follows.
	ReviewSettings review.Settings
	// ContactForms finds a contact form by id (the contact page shows id 1);
	// nil: contactform.DefaultForm() for id 1 only.
	ContactForms func(id int64) (contactform.Form, bool)
	// Currencies lists the switcher's currencies for every page's
	// settings (nil: none; the shop sells in its base currency only).
	Currencies func(ctx context.Context) ([]CurrencyOption, error)
	// ContentPages are the shop's content pages (content.go): the footer's
	// links and /<slug>/ (nil: none).
	ContentPages ContentSource
	// Live, when set, answers the shop's name, tagline and settings in
	// force (staff change them in the admin while the shop runs;
	// internal/settings); otherwise SiteName, Tagline and Settings are.
	Live func() Live
	// Search is the shop's search beyond matching: synonyms, "Did you
	// mean" and the count of searches without results (nil: none).
	Searches *catalog.SearchService
}

// Live is what the admin may change while the shop runs.
type Live struct {
	SiteName string
	Tagline  string
	Settings Settings
}

// live is the name, tagline and settings in force.
func (l *Loader) live() Live {
	if l.Live != nil {
		return l.Live()
	}
	return Live{SiteName: l.SiteName, Tagline: l.Tagline, Settings: l.Settings}
}

// Result is a loaded page.
type Result struct {
	Status int
	Data   any
	Head   render.Head
	Tags   []string
	// FrameSrc are the origins the page frames (video players): the
	// server allows them in this page's Content-Security-Policy only.
	FrameSrc []string
	// Personal is what the page shows a logged-in viewer of their own
	// (user.go): kept with the shared page, never in its data.
	Personal Personal
}

// Site is the shop's identity as pages show it.
type Site struct {
	Name     string         `json:"name"`
	Tagline  string         `json:"tagline"`
	Currency money.Currency `json:"currency"`
}

// NavCategory is a node of the header's category menu.
type NavCategory struct {
	ID       int64         `json:"id"`
	Name     string        `json:"name"`
	URL      string        `json:"url"`
	Count    int           `json:"count"`
	Children []NavCategory `json:"children"`
}

// Base is what every page carries.
type Base struct {
	Page     string        `json:"page"`
	Site     Site          `json:"site"`
	URL      string        `json:"url"`
	Nav      []NavCategory `json:"nav"`
	Settings Settings      `json:"settings"`
	// EditLinks are the content blocks' edit links, for staff only
	// (settings.user.can_edit_pages): never in a shared page's data, they
	// come in a staff viewer's part (Personal); a page rendered for one
	// staff viewer carries them here.
	EditLinks []EditLink `json:"edit_links,omitempty"`
	// Pages are the shop's published content pages, linked from the
	// footer (content.go).
	Pages []PageLink `json:"pages,omitempty"`
	// Year is the footer's © year, from the loader's clock.
	Year int `json:"year"`
}

// Settings are the shop's storefront behaviour switches (spec sections 3
// and 9), sent with every page so the app needs no globals.
type Settings struct {
	InfiniteScroll InfiniteScroll `json:"infinite_scroll"`
	// Zoom turns on hover zoom of the product gallery (spec default: off).
	Zoom bool `json:"zoom"`
	// Lightbox opens gallery images full screen (spec default: on).
	Lightbox bool `json:"lightbox"`
	// PageLoader covers each page with a loading overlay until it has
	// loaded, 1000 ms at most (spec section 9; default off).
	PageLoader bool `json:"page_loader"`
	// SearchMinChars is when live search starts suggesting (spec: 3).
	SearchMinChars int `json:"search_min_chars"`
	// ClearOnReselect: clicking the selected swatch clears the choice
	// (spec section 4, "with clear-on-reselect on"; default off).
	ClearOnReselect bool `json:"clear_on_reselect"`
	// ClickableOutOfStock lets shoppers pick out-of-stock swatches (default off).
	ClickableOutOfStock bool `json:"clickable_out_of_stock"`
	// DeselectConflicting: choosing a value unavailable with the other
	// choices clears those choices instead of being refused (default off).
	DeselectConflicting bool `json:"deselect_conflicting"`
	// Attribution is order attribution tracking (spec section 9, "Order
	// tracking"): first-party source cookies the checkout sends with the order.
	Attribution Attribution `json:"attribution"`
	// Consent is the consent banner (internal/consent): with it on, the
	// storefront stores nothing non-essential before the shopper accepts.
	// The page is the same for every viewer; the browser reads the choice.
	Consent Consent `json:"consent"`
	// Wallet shows the PayPal wallet buttons (product page, cart, checkout);
	// the server sets it when the wallet is configured.
	Wallet bool `json:"wallet"`
	// Video is how lazy videos load (richtext.EmbedVideos' markup).
	Video VideoSettings `json:"video"`
	// User is the page's viewer (user.go): the constant Visitor on cached
	// pages.
	User User `json:"user"`
	// BaseCurrency is the shop's currency, the one pages carry prices in.
	BaseCurrency string `json:"base_currency,omitempty"`
	// Currencies are the currencies a shopper may choose in the switcher,
	// the base first (Loader.Currencies); the same on every page for
	// every shopper: the shopper's own currency is the client's to read
	// (the wmc_current_currency cookie, the price call's answer).
	Currencies []CurrencyOption `json:"currencies,omitempty"`
	// StickyHeight is the stuck header's height in px (spec section 3:
	// sticky_height 70).
	StickyHeight int `json:"sticky_height"`
	// HeaderHideOnScroll hides the stuck header while the shopper scrolls
	// down and shows it again when they scroll up (spec section 4,
	// "optional hide-on-scroll"; default off).
	HeaderHideOnScroll bool `json:"header_hide_on_scroll"`
	// StoreNotice is the shop's store-notice banner (notice.go); nil: none.
	StoreNotice *StoreNotice `json:"store_notice,omitempty"`
	// Shop is the footer's contact details, profiles and payment
	// methods (footer.go).
	Shop ShopDetails `json:"shop"`
}

// CurrencyOption is one currency of the switcher, with how its amounts
// are written.
type CurrencyOption struct {
	Code              string `json:"code"`
	Name              string `json:"name"`
	Symbol            string `json:"symbol"`
	Position          string `json:"position"` // left, right, left_space, right_space
	Decimals          int    `json:"decimals"`
	ThousandSeparator string `json:"thousand_separator"`
	DecimalSeparator  string `json:"decimal_separator"`
}

// VideoSettings say when a lazy video's player loads (spec sections 4 and
// 9). Always on a press of its Play button. Load "viewport" also loads it
// when it comes near the viewport (200 px below, a tenth visible); on
// phones and Safari only after the shopper's first touch or key press, or
// after DelayMS when set. "press" (the default) contacts the provider only
// when asked.
type VideoSettings struct {
	Load    string `json:"load"` // press or viewport
	DelayMS int    `json:"delay_ms"`
}

// Attribution configures order attribution tracking. Off: the storefront
// deletes the tracking cookies.
type Attribution struct {
	Enabled bool `json:"enabled"`
	// LifetimeMonths is how long the first-visit cookies live.
	LifetimeMonths int `json:"lifetime_months"`
}

// Consent configures the consent banner.
type Consent struct {
	// Banner asks shoppers to accept or reject non-essential storage.
	Banner bool `json:"banner"`
}

// InfiniteScroll configures listings' infinite scroll.
type InfiniteScroll struct {
	// Type is "spinner" (load near the bottom), "button" ("View more") or
	// "off" (paging links only).
	Type string `json:"type"`
	// History is "push" or "replace": how the URL follows loaded pages.
	History string `json:"history"`
	// ScrollThreshold is how close to the bottom, in px, loading starts.
	ScrollThreshold int `json:"scroll_threshold"`
	// FadeInDuration is the appended items' fade-in, in ms.
	FadeInDuration int `json:"fade_in_duration"`
}

// DefaultSettings are the spec's values.
func DefaultSettings() Settings {
	return Settings{
		InfiniteScroll: InfiniteScroll{Type: "spinner", History: "push", ScrollThreshold: 400, FadeInDuration: 300},
		Zoom:           false, Lightbox: true, SearchMinChars: 3,
		Attribution:  Attribution{Enabled: true, LifetimeMonths: 6},
		StickyHeight: DefaultStickyHeight,
		Video:        VideoSettings{Load: "press"},
	}
}

// Crumb is one breadcrumb.
type Crumb struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

type env struct {
	b    *storeapi.Builder
	cats []catalog.Category
	base Base
}

// setup loads what every page needs: the category tree and the builder.
func (l *Loader) setup(ctx context.Context, page, url string) (*env, error) {
	cats, err := l.Store.Categories(ctx)
	if err != nil {
		return nil, err
	}
	b := &storeapi.Builder{Currency: l.Currency, Now: l.Now(), CategoryPaths: storeapi.CategoryPaths(cats)}
	live := l.live()
	e := &env{b: b, cats: cats, base: Base{Page: page, URL: url, Site: Site{live.SiteName, live.Tagline, l.Currency}, Settings: live.Settings}}
	e.base.Nav = navTree(b, cats, 0)
	e.base.Year = l.Now().Year()
	if e.base.Pages, err = l.pageLinks(ctx); err != nil {
		return nil, err
	}
	e.base.Settings.User = userFrom(ctx)
	if l.Currencies != nil {
		list, err := l.Currencies(ctx)
		if err != nil {
			return nil, err
		}
		if len(list) > 1 {
			e.base.Settings.BaseCurrency, e.base.Settings.Currencies = l.Currency.Code, list
		}
	}
	return e, nil
}

func navTree(b *storeapi.Builder, cats []catalog.Category, parent int64) []NavCategory {
	out := []NavCategory{}
	for _, c := range cats {
		if c.ParentID != parent {
			continue
		}
		out = append(out, NavCategory{ID: c.ID, Name: c.Name, URL: b.CategoryPath(c.ID, c.Slug), Count: c.Count, Children: navTree(b, cats, c.ID)})
	}
	return out
}

// products converts catalogue products to Store API products for cards.
func (l *Loader) products(ctx context.Context, b *storeapi.Builder, ps []*catalog.Product) ([]storeapi.Product, error) {
	out, err := b.Products(ctx, l.Store, ps)
	if err != nil {
		return nil, err
	}
	for i := range out {
		// Cards never show the long description; leaving it out keeps
		// listing pages small. The Store API still sends it.
		out[i].Description = ""
	}
	return out, nil
}

// cards is products for product cards (listings, the home page's
// sections, related products and up-sells): what a card shows, and no more.
// Page data goes into the page twice (parsed by the server's render, sent
// for hydration), so a listing's 24 cards carrying every gallery picture,
// attribute and term cost the render, the compression and the shopper's
// download for nothing. Fields a card does not read are emptied, never
// removed: the objects keep the Store API's shape (web/src/listing/ProductCard.tsx
// reads the rest; a test holds the two together).
func (l *Loader) cards(ctx context.Context, b *storeapi.Builder, ps []*catalog.Product) ([]storeapi.Product, error) {
	out, err := l.products(ctx, b, ps)
	for i := range out {
		p := &out[i]
		if len(p.Images) > 1 {
			p.Images = p.Images[:1:1]
		}
		p.ShortDescription, p.PriceHTML = "", ""
		p.Categories, p.Tags, p.Brands = []storeapi.TermRef{}, []storeapi.TermRef{}, []storeapi.TermRef{}
		p.Attributes, p.Variations, p.GroupedProducts = []storeapi.ProductAttribute{}, []storeapi.VariationRef{}, []int64{}
		p.Weight, p.FormattedWeight, p.FormattedDimensions = "", "", ""
		p.Dimensions = storeapi.Dimensions{}
	}
	return out, err
}

func productTags(ps []storeapi.Product) []string {
	tags := make([]string, 0, len(ps))
	for _, p := range ps {
		tags = append(tags, "product:"+strconv.FormatInt(p.ID, 10))
	}
	return tags
}

var tagRE = regexp.MustCompile(`<[^>]*>`)

// plainText strips markup and collapses spaces, cut to n runes on a word.
func plainText(s string, n int) string {
	s = html.UnescapeString(tagRE.ReplaceAllString(s, " "))
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := string(r[:n])
	if i := strings.LastIndex(cut, " "); i > n/2 {
		cut = cut[:i]
	}
	return cut + "…"
}

func (l *Loader) head(title, description, path string) render.Head {
	h := render.Head{Title: title, Description: description, Canonical: l.BaseURL + path, SiteName: l.live().SiteName}
	if l.Localize != nil {
		h.Localize = l.Localize()
	}
	return h
}

// privateHead is the head of a page kept out of search engines (noindex,
// nofollow), titled title, with its canonical URL at path (none for "")
// and a description: a link preview and an audit read it even here.
func (l *Loader) privateHead(title, path, description string) render.Head {
	h := l.head(l.title(title), description, path)
	if path == "" {
		h.Canonical = ""
	}
	h.Robots = "noindex, nofollow"
	return h
}

// accountDescription is the description of the my-account pages.
func (l *Loader) accountDescription() string {
	return "Log in to your " + l.live().SiteName + " account to see your orders, addresses and account details, or register for one."
}

func (l *Loader) title(s string) string {
	if s == "" {
		return l.live().SiteName
	}
	return s + " – " + l.live().SiteName
}

func breadcrumbLD(base string, crumbs []Crumb) map[string]any {
	items := make([]map[string]any, len(crumbs))
	for i, c := range crumbs {
		items[i] = map[string]any{"@type": "ListItem", "position": i + 1, "name": c.Name, "item": base + c.URL}
	}
	return map[string]any{"@context": "https://schema.org", "@type": "BreadcrumbList", "itemListElement": items}
}

func decimalString(v int64, minor int) string {
	c := money.Currency{MinorUnit: minor, DecimalSeparator: "."}
	return c.FormatNumber(v)
}

func formatDate(t time.Time) string {
	return fmt.Sprintf("%s %d, %d", t.Month(), t.Day(), t.Year())
}
