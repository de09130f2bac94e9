// Package oldlinks owns what a link into the WooCommerce shop a Vitrine
// shop replaced answers: the old permalink of a product, variation,
// category, tag or content page, and WordPress's query forms (/?p=ID,
// /?page_id=ID, /?product=slug, …), resolve to the object's current page
// on this shop, or to nothing.
//
// The import (internal/wcimport) records each object's old id, new id and
// old permalink path (the legacy_ids table). Resolving reads that record,
// then the object as it is now, by its new id, so a slug renamed since
// the import still leads to the current URL. Targets are always paths of
// this shop built here from the catalogue's slugs, never anything taken
// from the request but its query string.
//
// The HTTP adapter (internal/server/oldlinks.go) asks only for requests
// that would otherwise answer the 404 page, and for the home page with one
// of WordPress's lookup keys.
package oldlinks

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"vitrine/internal/catalog"
	"vitrine/internal/contentpage"
)

// Kinds of imported objects an old link can name (legacy_ids.kind).
const (
	KindProduct   = "product"
	KindVariation = "variation"
	KindCategory  = "category"
	KindTag       = "tag"
	KindPage      = "page"
)

// Old is the imported object an old link named: its kind and its id in
// this shop.
type Old struct {
	Kind  string
	NewID int64
	// OldPath is its old permalink's path ("" when none was recorded).
	OldPath string
}

// Store is what resolving reads besides the catalogue.
type Store interface {
	// OldLinkByPath reads the imported object whose old permalink
	// answered on path; ok is false when none did.
	OldLinkByPath(ctx context.Context, path string) (o Old, ok bool, err error)
	// OldLinkByID reads the imported object of one of kinds whose old id
	// was oldID; ok is false when none was.
	OldLinkByID(ctx context.Context, kinds []string, oldID int64) (o Old, ok bool, err error)
	// ContentPageByID reads a content page by id, whatever its status
	// (contentpage.ErrNotFound).
	ContentPageByID(ctx context.Context, id int64) (contentpage.Page, error)
	// TagSlugByID reads a product tag's slug; ok is false when there is
	// no such tag.
	TagSlugByID(ctx context.Context, id int64) (slug string, ok bool, err error)
	// TagExists reports whether a product tag has slug.
	TagExists(ctx context.Context, slug string) (bool, error)
	// OldLinkProduct reads what a link needs of a product or variation
	// (catalog.ErrNotFound): one row, and a variation's attributes,
	// instead of the product with all its relations.
	OldLinkProduct(ctx context.Context, id int64) (Product, error)
}

// Product is a product or variation as a link needs it.
type Product struct {
	ID, ParentID int64 // ParentID: variations only
	Slug         string
	Status       string
	Active       bool                    // a variation's switch
	Attributes   []catalog.VariationAttr // a variation's values ("" = any)
}

// Published reports whether the product shows (catalog.Product.Published).
func (p Product) Published() bool { return p.Status == catalog.StatusPublish }

// Catalog is the catalogue as resolving reads it (catalog.Store; the
// server's keeps the categories in memory).
type Catalog interface {
	ProductBySlug(ctx context.Context, slug string) (*catalog.Product, error)
	Categories(ctx context.Context) ([]catalog.Category, error)
}

// Service resolves old links.
type Service struct {
	Store   Store
	Catalog Catalog
}

// Answer is what an old link answers.
type Answer int

const (
	// None: no old link; the request answers as it would have (the 404
	// page).
	None Answer = iota
	// Moved: a permanent redirect to Result.Target.
	Moved
	// Gone: the object was imported and has been deleted since (410).
	Gone
)

func (a Answer) String() string {
	switch a {
	case Moved:
		return "moved"
	case Gone:
		return "gone"
	}
	return "none"
}

// Result is a resolved old link.
type Result struct {
	Answer Answer
	// Target is the path and query on this shop to move to (Moved only).
	Target string
}

// maxPath bounds the paths and values looked up: no permalink is longer.
const maxPath = 2000

// lookupKeys are the home page query keys WordPress resolves to a post,
// a page or a term; they are not carried to the target.
var lookupKeys = map[string]bool{
	"p": true, "page_id": true, "post_type": true, "product_id": true, "product": true,
	"product_cat": true, "product_tag": true, "attachment_id": true,
}

// Asks reports whether a home page query is one of WordPress's lookups (a
// key above with a value, or ?post_type=product), not the shop's own
// search (?s=) or no-script add to cart.
func Asks(q url.Values) bool {
	if q.Has("s") || q.Has("add-to-cart") || q.Has("wc-ajax") {
		return false
	}
	for k := range lookupKeys {
		if v := q.Get(k); v != "" && (k != "post_type" || v == "product") {
			return true
		}
	}
	return false
}

// Resolve answers a GET of path (decoded, as in URL.Path) with rawQuery
// that the shop's own routes do not answer, or of the home page with a
// lookup query (Asks). The request's other query parameters are carried
// to the target.
func (s *Service) Resolve(ctx context.Context, path, rawQuery string) (Result, error) {
	res, err := s.resolve(ctx, path, rawQuery)
	if err != nil {
		return Result{}, err
	}
	if res.Answer == Moved && !local(res.Target) {
		return Result{}, nil // never somewhere else, whatever a slug holds
	}
	return res, nil
}

// local reports whether target is a path on this shop: one leading slash,
// never "//host" or "/\host", which browsers read as another site.
func local(target string) bool {
	return len(target) > 1 && target[0] == '/' && target[1] != '/' && target[1] != '\\' &&
		!strings.ContainsAny(target, "\r\n")
}

func (s *Service) resolve(ctx context.Context, path, rawQuery string) (Result, error) {
	if path == "/" {
		return s.resolveQuery(ctx, rawQuery)
	}
	if !lookable(path) || !permalinkLike(path) {
		return Result{}, nil
	}
	if !strings.HasSuffix(path, "/") {
		path += "/"
	}
	o, ok, err := s.Store.OldLinkByPath(ctx, path)
	if err == nil && !ok && !isASCII(path) {
		// WordPress prints a non-ASCII slug percent-encoded in lower case.
		o, ok, err = s.Store.OldLinkByPath(ctx, wpEscape(path))
	}
	if err != nil || !ok {
		return Result{}, err
	}
	res, err := s.current(ctx, o)
	if err != nil || res.Answer != Moved {
		return res, err
	}
	target, extra, _ := strings.Cut(res.Target, "?")
	if t, err := url.PathUnescape(target); err != nil || t == path {
		// The object's page is this path, yet it did not answer: no
		// redirect to itself.
		return Result{}, nil
	}
	return Result{Answer: Moved, Target: withQuery(target, extra, rawQuery, nil)}, nil
}

// resolveQuery answers the home page's lookup query forms. A lookup that
// names nothing is None: the 404 page, as WordPress answers it.
func (s *Service) resolveQuery(ctx context.Context, rawQuery string) (Result, error) {
	q, _ := url.ParseQuery(rawQuery) // the pairs that parse, as the home page reads them
	var res Result
	var err error
	switch {
	case q.Get("p") != "":
		kinds := []string{KindProduct, KindVariation, KindPage}
		if q.Get("post_type") == "product" {
			kinds = kinds[:2]
		}
		res, err = s.byID(ctx, kinds, q.Get("p"))
	case q.Get("page_id") != "":
		res, err = s.byID(ctx, []string{KindPage}, q.Get("page_id"))
	case q.Get("product_id") != "":
		res, err = s.byID(ctx, []string{KindProduct, KindVariation}, q.Get("product_id"))
	case q.Get("product") != "":
		res, err = s.productBySlug(ctx, q.Get("product"))
	case q.Get("product_cat") != "":
		res, err = s.categoryBySlug(ctx, q.Get("product_cat"))
	case q.Get("product_tag") != "":
		res, err = s.tagBySlug(ctx, q.Get("product_tag"))
	case q.Get("attachment_id") != "":
		return Result{}, nil // attachments did not move in
	case q.Get("post_type") == "product":
		res = moved("/shop/")
	}
	if err != nil || res.Answer != Moved {
		return res, err
	}
	target, extra, _ := strings.Cut(res.Target, "?")
	return Result{Answer: Moved, Target: withQuery(target, extra, rawQuery, lookupKeys)}, nil
}

// byID resolves an old post or term id of one of kinds.
func (s *Service) byID(ctx context.Context, kinds []string, v string) (Result, error) {
	id, ok := oldID(v)
	if !ok {
		return Result{}, nil
	}
	o, ok, err := s.Store.OldLinkByID(ctx, kinds, id)
	if err != nil || !ok {
		return Result{}, err
	}
	return s.current(ctx, o)
}

// productBySlug resolves ?product=slug: the product with that slug now,
// else the one whose old permalink had it.
func (s *Service) productBySlug(ctx context.Context, slug string) (Result, error) {
	if !lookable(slug) || slug == "" {
		return Result{}, nil
	}
	p, err := s.Catalog.ProductBySlug(ctx, slug)
	switch {
	case err == nil && p.Published():
		return moved(productPath(p.Slug)), nil
	case err != nil && !errors.Is(err, catalog.ErrNotFound):
		return Result{}, err
	}
	return s.byOldPath(ctx, "/product/"+slug+"/")
}

// categoryBySlug resolves ?product_cat=slug: the category with that slug
// now, else the one whose old permalink ended in it at the top level.
func (s *Service) categoryBySlug(ctx context.Context, slug string) (Result, error) {
	if !lookable(slug) || slug == "" {
		return Result{}, nil
	}
	cats, err := s.Catalog.Categories(ctx)
	if err != nil {
		return Result{}, err
	}
	for _, c := range cats {
		if c.Slug == slug {
			return moved(categoryPath(cats, c.ID)), nil
		}
	}
	return s.byOldPath(ctx, "/product-category/"+slug+"/")
}

// tagBySlug resolves ?product_tag=slug likewise.
func (s *Service) tagBySlug(ctx context.Context, slug string) (Result, error) {
	if !lookable(slug) || slug == "" {
		return Result{}, nil
	}
	ok, err := s.Store.TagExists(ctx, slug)
	if err != nil {
		return Result{}, err
	}
	if ok {
		return moved(tagPath(slug)), nil
	}
	return s.byOldPath(ctx, "/product-tag/"+slug+"/")
}

// byOldPath resolves the object whose old permalink was path.
func (s *Service) byOldPath(ctx context.Context, path string) (Result, error) {
	o, ok, err := s.Store.OldLinkByPath(ctx, path)
	if err != nil || !ok {
		return Result{}, err
	}
	return s.current(ctx, o)
}

// wooPages are WooCommerce's own pages, which this shop serves at the
// same paths as routes of its own, not as content pages.
var wooPages = map[string]bool{"/shop/": true, "/cart/": true, "/checkout/": true, "/my-account/": true}

// current is where an imported object is now: its page (Moved), Gone when
// it was deleted, None when it exists but shows no page (a draft, a
// private or trashed product: it may come back, so no 410).
func (s *Service) current(ctx context.Context, o Old) (Result, error) {
	switch o.Kind {
	case KindProduct, KindVariation:
		return s.product(ctx, o.NewID)
	case KindCategory:
		cats, err := s.Catalog.Categories(ctx)
		if err != nil {
			return Result{}, err
		}
		for _, c := range cats {
			if c.ID == o.NewID {
				return moved(categoryPath(cats, c.ID)), nil
			}
		}
		return Result{Answer: Gone}, nil
	case KindTag:
		slug, ok, err := s.Store.TagSlugByID(ctx, o.NewID)
		if err != nil {
			return Result{}, err
		}
		if !ok {
			return Result{Answer: Gone}, nil
		}
		return moved(tagPath(slug)), nil
	case KindPage:
		if wooPages[o.OldPath] {
			return moved(o.OldPath), nil
		}
		p, err := s.Store.ContentPageByID(ctx, o.NewID)
		switch {
		case errors.Is(err, contentpage.ErrNotFound):
			return Result{Answer: Gone}, nil
		case err != nil:
			return Result{}, err
		case p.Status != contentpage.Published || contentpage.CheckSlug(p.Slug) != nil:
			return Result{}, nil
		}
		return moved(contentpage.Path(p.Slug)), nil
	}
	return Result{}, nil
}

// product is where a product or variation is now; a variation's is its
// product's page with the variation's attributes chosen (the product
// form reads attribute_* from the query), its product's page alone when
// the variation itself was deleted or switched off.
func (s *Service) product(ctx context.Context, id int64) (Result, error) {
	p, err := s.Store.OldLinkProduct(ctx, id)
	if errors.Is(err, catalog.ErrNotFound) {
		return Result{Answer: Gone}, nil
	}
	if err != nil {
		return Result{}, err
	}
	if p.ParentID == 0 {
		if !p.Published() || p.Slug == "" {
			return Result{}, nil
		}
		return moved(productPath(p.Slug)), nil
	}
	parent, err := s.Store.OldLinkProduct(ctx, p.ParentID)
	if errors.Is(err, catalog.ErrNotFound) {
		return Result{Answer: Gone}, nil
	}
	if err != nil {
		return Result{}, err
	}
	if !parent.Published() || parent.Slug == "" {
		return Result{}, nil
	}
	target := productPath(parent.Slug)
	if !p.Published() || !p.Active {
		return moved(target), nil
	}
	var q []string
	for _, a := range p.Attributes {
		if a.Name != "" && a.Value != "" {
			q = append(q, url.QueryEscape("attribute_"+a.Name)+"="+url.QueryEscape(a.Value))
		}
	}
	if len(q) > 0 {
		target += "?" + strings.Join(q, "&")
	}
	return moved(target), nil
}

func moved(target string) Result { return Result{Answer: Moved, Target: target} }

// productPath is a product page's path, its slug escaped as one segment.
func productPath(slug string) string { return "/product/" + url.PathEscape(slug) + "/" }

// tagPath is a tag archive's path.
func tagPath(slug string) string { return "/product-tag/" + url.PathEscape(slug) + "/" }

// categoryPath is a category's path: its ancestors' slugs and its own
// (a cycle, which the store refuses, ends the walk).
func categoryPath(cats []catalog.Category, id int64) string {
	byID := make(map[int64]catalog.Category, len(cats))
	for _, c := range cats {
		byID[c.ID] = c
	}
	var parts []string
	seen := map[int64]bool{}
	for c, ok := byID[id]; ok && !seen[c.ID]; c, ok = byID[c.ParentID] {
		seen[c.ID] = true
		parts = append([]string{url.PathEscape(c.Slug)}, parts...)
	}
	return "/product-category/" + strings.Join(parts, "/") + "/"
}

// withQuery is target with the target's own query (extra) and then the
// request's parameters but those in drop or already in extra, as sent.
func withQuery(target, extra, rawQuery string, drop map[string]bool) string {
	own := map[string]bool{}
	var parts []string
	if extra != "" {
		for _, p := range strings.Split(extra, "&") {
			k, _, _ := strings.Cut(p, "=")
			own[queryKey(k)] = true
			parts = append(parts, p)
		}
	}
	for _, p := range strings.Split(rawQuery, "&") {
		if p == "" {
			continue
		}
		k, _, _ := strings.Cut(p, "=")
		if k = queryKey(k); drop[k] || own[k] {
			continue
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return target
	}
	return target + "?" + strings.Join(parts, "&")
}

// queryKey is a query parameter's name as sent, decoded.
func queryKey(k string) string {
	if dk, err := url.QueryUnescape(k); err == nil {
		return dk
	}
	return k
}

// oldID reads an old post or term id: digits only, above 0.
func oldID(v string) (int64, bool) {
	if v == "" || len(v) > 19 || strings.TrimLeft(v, "0123456789") != "" {
		return 0, false
	}
	id, err := strconv.ParseInt(v, 10, 64)
	return id, err == nil && id > 0
}

// lookable reports whether a path or slug may be looked up: bounded, valid
// UTF-8 (PostgreSQL refuses anything else in a text parameter), without
// NUL or other control characters.
func lookable(s string) bool {
	if len(s) > maxPath || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}

// permalinkLike reports whether path may be a WordPress permalink: its
// last segment holds no dot (WordPress turns a slug's dots into hyphens),
// so the scanners' /wp-login.php, /.env and /xmlrpc.php, and files, miss
// without a store read.
func permalinkLike(path string) bool {
	last := strings.TrimSuffix(path, "/")
	last = last[strings.LastIndexByte(last, '/')+1:]
	return !strings.Contains(last, ".")
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// wpEscape percent-encodes a path's non-ASCII bytes in lower case, as
// WordPress prints a slug made of them.
func wpEscape(path string) string {
	const hex = "0123456789abcdef"
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		c := path[i]
		if c < 0x80 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
