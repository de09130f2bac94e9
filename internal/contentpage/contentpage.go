// Package contentpage owns the shop's simple content pages (about,
// shipping, returns, terms): which slug a page may take (never one of the
// shop's own routes), its title and body, whether it is published, and the
// list of published pages the storefront's footer links. The terms page
// also feeds the checkout's terms lightbox. The store sanitizes every body
// with internal/richtext when it writes it, as it does product
// descriptions.
//
// The HTTP adapter (internal/server/content_page.go) serves a published
// page at /<slug>/; the vitrine command (internal/app/page.go) sets, lists
// and deletes pages.
package contentpage

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"vitrine/internal/clock"
)

// Page statuses.
const (
	Published = "publish"
	Draft     = "draft"
)

// TermsSlug is the slug of the terms page, which the checkout's terms
// lightbox shows when it is published.
const TermsSlug = "terms"

// PrivacySlug is the slug of the privacy policy, which the footer, the
// contact form's consent line, the registration form and the checkout
// link when it is published.
const PrivacySlug = "privacy-policy"

// PrivacyDraft is the privacy policy a new shop starts with, as a draft
// the owner completes and publishes (WordPress creates one likewise): the
// headings a shop's policy answers, with what this software itself keeps.
func PrivacyDraft(shop string) Input {
	return Input{Slug: PrivacySlug, Title: "Privacy policy", Status: Draft, Body: `<p><strong>Draft:</strong> complete ` +
		`this page with your shop's own details, have it checked, then publish it.</p>` +
		`<h2>Who we are</h2><p>` + htmlText(shop) + `, [postal address], [email address].</p>` +
		`<h2>What we keep and why</h2><ul>` +
		`<li>Orders: your name, addresses, email, phone and what you bought, to deliver and invoice them and for ` +
		`as long as accounting law requires.</li>` +
		`<li>Accounts: your email address and a hash of your password, until you delete the account.</li>` +
		`<li>Messages sent with the contact form, and their files for [30] days.</li>` +
		`<li>Reviews: your name, email address and review.</li></ul>` +
		`<h2>Cookies</h2><p>The shop sets cookies for your cart, your login, the currency you choose and, ` +
		`unless turned off, where your visit came from (kept with your order). They are first-party cookies; ` +
		`no advertising cookies are set.</p>` +
		`<h2>Who we share it with</h2><p>[The payment provider, the carrier, the mail provider.]</p>` +
		`<h2>Your rights</h2><p>You may ask for a copy of your data, its correction or its deletion through ` +
		`the <a href="/contact/">contact form</a>.</p>`}
}

// htmlText escapes s for an HTML text node.
func htmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// Limits of a page.
const (
	MaxSlug  = 64
	MaxTitle = 200
	MaxBody  = 512 << 10
)

// Page is one content page. Body is HTML, sanitized by the store.
type Page struct {
	ID        int64
	Slug      string
	Title     string
	Body      string
	Status    string
	UpdatedAt time.Time
}

// Path is the page's URL path.
func (p Page) Path() string { return Path(p.Slug) }

// Path is the URL path of the page with slug.
func Path(slug string) string { return "/" + slug + "/" }

// Link is a published page as the footer links it.
type Link struct {
	Slug  string
	Title string
}

// ErrNotFound: no page has that slug (or, for the storefront, none is
// published with it).
var ErrNotFound = errors.New("contentpage: no such page")

// InputError is a page the service refuses; nothing was written.
type InputError struct {
	Field   string // slug, title, body, status
	Message string
}

func (e *InputError) Error() string { return e.Field + ": " + e.Message }

// Store keeps the pages (sqlstore.DB implements it).
type Store interface {
	// ContentPage reads one page by slug, whatever its status
	// (ErrNotFound).
	ContentPage(ctx context.Context, slug string) (Page, error)
	// ContentPages lists every page, by slug.
	ContentPages(ctx context.Context) ([]Page, error)
	// PutContentPage inserts the page or replaces the one with its slug,
	// sanitizing the body, and records the change for the running
	// servers' caches. It answers the page as stored.
	PutContentPage(ctx context.Context, p Page) (Page, error)
	// DeleteContentPage removes a page and records the change
	// (ErrNotFound when there was none).
	DeleteContentPage(ctx context.Context, slug string) error
}

// reserved are the first path segments the shop's own routes use, and
// WordPress's, which a page slug must never shadow. internal/server's
// routes test checks that every route's first segment is here.
var reserved = map[string]bool{
	"shop": true, "product": true, "product-category": true, "product-tag": true, "cart": true, "wishlist": true,
	"checkout": true, "my-account": true, "contact": true, "wp-admin": true, "wp-json": true,
	"wp-content": true, "wp-includes": true, "wp-login": true, "wp-comments-post": true,
	"assets": true, "media": true, "page": true, "feed": true, "search": true, "comments": true,
	"sitemap": true, "robots": true, "favicon": true, "manifest": true, "icon": true,
	"apple-touch-icon": true, "healthz": true, "readyz": true, "metrics": true, "404": true,
	"sandbox": true, "admin": true, "login": true, "logout": true, "api": true,
}

// Reserved reports whether slug is one the shop's own routes use.
func Reserved(slug string) bool { return reserved[slug] }

var slugRE = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

// CheckSlug says why slug cannot name a page, or nil.
func CheckSlug(slug string) error {
	switch {
	case slug == "":
		return &InputError{"slug", "is empty"}
	case len(slug) > MaxSlug:
		return &InputError{"slug", fmt.Sprintf("is longer than %d characters", MaxSlug)}
	case !slugRE.MatchString(slug):
		return &InputError{"slug", "may hold only lower-case letters, digits and single hyphens between them (about, shipping-and-returns)"}
	case Reserved(slug):
		return &InputError{"slug", fmt.Sprintf("%q is one of the shop's own addresses (/%s/); choose another", slug, slug)}
	}
	return nil
}

// Input is a page to set.
type Input struct {
	Slug   string
	Title  string
	Body   string
	Status string // Published (the default when empty) or Draft
}

// Service is the content pages' use cases.
type Service struct {
	Store Store
	Now   func() time.Time

	mu     sync.Mutex
	links  []Link
	loaded bool
}

func (s *Service) now() time.Time { return clock.UTC(s.Now) }

// check validates in and answers it normalized.
func check(in Input) (Input, error) {
	in.Slug = strings.TrimSpace(in.Slug)
	if err := CheckSlug(in.Slug); err != nil {
		return in, err
	}
	in.Title = strings.Join(strings.Fields(in.Title), " ")
	switch {
	case in.Title == "":
		return in, &InputError{"title", "is empty"}
	case !utf8.ValidString(in.Title):
		return in, &InputError{"title", "is not valid UTF-8"}
	case utf8.RuneCountInString(in.Title) > MaxTitle:
		return in, &InputError{"title", fmt.Sprintf("is longer than %d characters", MaxTitle)}
	case strings.IndexFunc(in.Title, unicode.IsControl) >= 0:
		return in, &InputError{"title", "holds control characters"}
	}
	switch {
	case strings.TrimSpace(in.Body) == "":
		return in, &InputError{"body", "is empty"}
	case len(in.Body) > MaxBody:
		return in, &InputError{"body", fmt.Sprintf("is larger than %d KB", MaxBody>>10)}
	case !utf8.ValidString(in.Body):
		return in, &InputError{"body", "is not valid UTF-8"}
	}
	switch in.Status {
	case "":
		in.Status = Published
	case Published, Draft:
	default:
		return in, &InputError{"status", `must be "publish" or "draft"`}
	}
	return in, nil
}

// Set creates the page with in's slug or replaces it. A refused input
// writes nothing.
func (s *Service) Set(ctx context.Context, in Input) (Page, error) {
	in, err := check(in)
	if err != nil {
		return Page{}, err
	}
	p, err := s.Store.PutContentPage(ctx, Page{Slug: in.Slug, Title: in.Title, Body: in.Body, Status: in.Status, UpdatedAt: s.now()})
	if err != nil {
		return Page{}, err
	}
	s.Reset()
	return p, nil
}

// Delete removes the page with slug (ErrNotFound).
func (s *Service) Delete(ctx context.Context, slug string) error {
	if err := s.Store.DeleteContentPage(ctx, slug); err != nil {
		return err
	}
	s.Reset()
	return nil
}

// List is every page, drafts too, by slug.
func (s *Service) List(ctx context.Context) ([]Page, error) { return s.Store.ContentPages(ctx) }

// Get reads a page whatever its status (ErrNotFound).
func (s *Service) Get(ctx context.Context, slug string) (Page, error) {
	return s.Store.ContentPage(ctx, slug)
}

// Published reads the page the storefront shows at /<slug>/: ErrNotFound
// unless it exists and is published (a reserved or malformed slug never
// reaches the store).
func (s *Service) Published(ctx context.Context, slug string) (Page, error) {
	if CheckSlug(slug) != nil {
		return Page{}, ErrNotFound
	}
	p, err := s.Store.ContentPage(ctx, slug)
	if err != nil {
		return Page{}, err
	}
	if p.Status != Published {
		return Page{}, ErrNotFound
	}
	return p, nil
}

// Terms is the published terms page, or nil when there is none: the
// checkout then shows its configured terms. It reads the store every
// time, so a change shows on the next checkout.
func (s *Service) Terms(ctx context.Context) (*Page, error) {
	p, err := s.Published(ctx, TermsSlug)
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// Links lists the published pages by title, for the footer. The list is
// kept in memory until Reset (the server resets it when the store's change
// log shows a page change, from this process or another).
func (s *Service) Links(ctx context.Context) ([]Link, error) {
	s.mu.Lock()
	if s.loaded {
		l := s.links
		s.mu.Unlock()
		return l, nil
	}
	s.mu.Unlock()
	all, err := s.Store.ContentPages(ctx)
	if err != nil {
		return nil, err
	}
	links := []Link{}
	for _, p := range all {
		if p.Status == Published {
			links = append(links, Link{Slug: p.Slug, Title: p.Title})
		}
	}
	sortLinks(links)
	s.mu.Lock()
	s.links, s.loaded = links, true
	s.mu.Unlock()
	return links, nil
}

func sortLinks(l []Link) {
	slices.SortStableFunc(l, func(a, b Link) int { return strings.Compare(strings.ToLower(a.Title), strings.ToLower(b.Title)) })
}

// Reset drops the in-memory list of published pages.
func (s *Service) Reset() {
	s.mu.Lock()
	s.links, s.loaded = nil, false
	s.mu.Unlock()
}

// SeedFirst is SeedDemo for any shop: a first start (no page at all)
// sets pages, such as the privacy policy's draft.
func (s *Service) SeedFirst(ctx context.Context, pages []Input) (int, error) {
	return s.SeedDemo(ctx, pages)
}

// SeedDemo sets pages only when the shop has none at all: a demo start
// publishes the demo pages once and never brings back one the owner
// deleted or overwrites one they changed. It answers how many it set.
func (s *Service) SeedDemo(ctx context.Context, pages []Input) (int, error) {
	all, err := s.Store.ContentPages(ctx)
	if err != nil || len(all) > 0 {
		return 0, err
	}
	for i, in := range pages {
		if _, err := s.Set(ctx, in); err != nil {
			return i, fmt.Errorf("demo page %q: %w", in.Slug, err)
		}
	}
	return len(pages), nil
}
