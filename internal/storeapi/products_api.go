package storeapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"vitrine/internal/catalog"
	"vitrine/internal/currency"
	"vitrine/internal/httpx"
	"vitrine/internal/render"
)

// Builder converts catalogue values for the Store API: absolute links
// and exact stock (API responses are cached only until the stock moves).
func (a *API) Builder(ctx context.Context) (*Builder, error) {
	paths, err := a.categoryPaths(ctx)
	if err != nil {
		return nil, err
	}
	return &Builder{BaseURL: a.d.BaseURL, Currency: a.d.Currency, Now: a.d.Now(), ExactStock: true,
		CategoryPaths: paths}, nil
}

// builderIn is Builder writing prices in the shopper's currency cur
// (the base: prices as stored). Check convErr after building.
func (a *API) builderIn(ctx context.Context, cur currency.Currency) (*Builder, error) {
	b, err := a.Builder(ctx)
	if err != nil || cur.Code == a.d.Currency.Code {
		return b, err
	}
	t, err := a.d.CurrencyTable(ctx, cur)
	if err != nil {
		return nil, err
	}
	if !t.IsBase() {
		b.Currency, b.Convert = t.Currency.Money(), t
	}
	return b, nil
}

// convErr is the first conversion error of b's prices (an overflow).
func convErr(b *Builder) error {
	if t, ok := b.Convert.(*currency.Table); ok {
		return t.Err()
	}
	return nil
}

// currencyKey keys the Store API cache by the shopper's currency: ""
// for the base (the key is unchanged), else "&wmc_currency=CODE".
func (a *API) currencyKey(cur currency.Currency) string {
	if cur.Code == a.d.Currency.Code {
		return ""
	}
	return "&wmc_currency=" + cur.Code
}

// categoryPaths maps every category id to its slug path ("clothing/hoodies").
func (a *API) categoryPaths(ctx context.Context) (map[int64]string, error) {
	cats, err := a.d.Catalog.Categories(ctx)
	if err != nil {
		return nil, err
	}
	return CategoryPaths(cats), nil
}

// apiResponse is a cacheable Store API answer.
type apiResponse struct {
	Status  int               `json:"-"`
	Body    any               `json:"-"`
	Headers map[string]string `json:"-"`
	Tags    []string          `json:"-"`
}

// apiParams names the query parameters a Store API endpoint reads: single
// ones (the first value counts, as url.Values.Get reads it) and lists
// (every value of name and name[] counts, in order).
type apiParams struct {
	single, lists []string
	// indexed are the name[i][field] families (attributes[0][slug]).
	indexed []string
}

var (
	noAPIParams       = apiParams{}
	productsAPIParams = apiParams{
		single: []string{"page", "per_page", "orderby", "order", "type", "slug", "featured", "on_sale",
			"min_price", "max_price", "search", "catalog_visibility", "tag_operator", "attribute_relation"},
		lists:   []string{"include", "exclude", "tag", "sku", "stock_status", "category", "rating"},
		indexed: []string{"attributes"},
	}
	termsAPIParams = apiParams{single: []string{"orderby", "order", "hide_empty"}}
)

// normalize keeps only the parameters the endpoint reads: for a single
// parameter its first value, for a list every non-empty value. Empty values
// are dropped (every endpoint reads "" as absent).
func (ps apiParams) normalize(q url.Values) url.Values {
	out := url.Values{}
	for _, name := range ps.single {
		if v := q.Get(name); v != "" {
			out.Set(name, v)
		}
	}
	for _, name := range ps.lists {
		for _, k := range []string{name, name + "[]"} {
			for _, v := range q[k] {
				if v != "" {
					out.Add(k, v)
				}
			}
		}
	}
	keepIndexed(q, out, ps.indexed)
	return out
}

// serveAPI answers a read from the response cache, or computes and caches
// it. The cache key is the path and the normalized parameters the endpoint
// reads (apiParams), and compute sees only those: tracking parameters,
// cache busters (?_=123) and parameter order neither miss the cache nor
// change the answer.
func (a *API) serveAPI(w http.ResponseWriter, r *http.Request, known apiParams, compute func(ctx context.Context, q url.Values) (*apiResponse, error)) {
	a.serveAPIKeyed(w, r, known, "", compute)
}

// serveAPIKeyed is serveAPI with variant added to the cache key: what
// else than the parameters the answer depends on (the shopper's currency,
// currencyKey).
func (a *API) serveAPIKeyed(w http.ResponseWriter, r *http.Request, known apiParams, variant string, compute func(ctx context.Context, q url.Values) (*apiResponse, error)) {
	q := known.normalize(r.URL.Query())
	key := r.URL.Path + "?" + canonicalQuery(q) + variant
	if p, ok := a.d.Cache.Get(key); ok {
		a.writeAPIPage(w, r, p)
		return
	}
	v, err, _ := a.flight.Do(key, func() (any, error) {
		put := a.d.Cache.Begin(r.Context())
		res, err := compute(r.Context(), q)
		if err != nil {
			return nil, err
		}
		body, err := json.Marshal(res.Body)
		if err != nil {
			return nil, err
		}
		p := render.NewPage(res.Status, body, res.Tags)
		p.Headers = res.Headers
		if res.Status == http.StatusOK {
			put(key, p)
		}
		return p, nil
	})
	if err != nil {
		var pe httpx.ParamError
		switch {
		case errors.As(err, &pe):
			httpx.WriteParamError(w, pe)
		case errors.Is(err, catalog.ErrNotFound):
			httpx.WriteError(w, http.StatusNotFound, "woocommerce_rest_not_found", "Resource not found.", nil)
		default:
			a.d.Log.Error("store api", "path", r.URL.Path, "err", err)
			httpx.WriteError(w, http.StatusInternalServerError, "woocommerce_rest_internal_error", "The request could not be completed.", nil)
		}
		return
	}
	a.writeAPIPage(w, r, v.(*render.Page))
}

func (a *API) writeAPIPage(w http.ResponseWriter, r *http.Request, p *render.Page) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=UTF-8")
	h.Set("X-Robots-Tag", "noindex")
	h.Set("Cache-Control", "no-cache")
	h.Set("Access-Control-Expose-Headers", "X-WP-Total, X-WP-TotalPages, Link, Cart-Token")
	httpx.WriteBody(w, r, p) // with p.Headers (the totals)
}

func canonicalQuery(q url.Values) string {
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		for _, v := range q[k] {
			b.WriteString(url.QueryEscape(k) + "=" + url.QueryEscape(v) + "&")
		}
	}
	return b.String()
}

// Products serves GET /products.
func (a *API) Products(w http.ResponseWriter, r *http.Request) {
	cur := a.d.ShopperCurrency(r)
	a.serveAPIKeyed(w, r, productsAPIParams, a.currencyKey(cur), func(ctx context.Context, query url.Values) (*apiResponse, error) {
		q, err := a.productQuery(ctx, query)
		if err != nil {
			return nil, err
		}
		if q.Type == catalog.TypeVariation {
			// Variations are not listed as products here (as in WooCommerce's
			// default visibility); asking for them returns an empty page.
			return &apiResponse{Status: http.StatusOK, Body: []Product{}, Headers: map[string]string{"X-WP-Total": "0", "X-WP-TotalPages": "0"}, Tags: []string{"listing"}}, nil
		}
		ps, total, err := a.d.Catalog.QueryProducts(ctx, q)
		if err != nil {
			return nil, err
		}
		b, err := a.builderIn(ctx, cur)
		if err != nil {
			return nil, err
		}
		out, err := b.Products(ctx, a.d.Catalog, ps)
		if err == nil {
			err = convErr(b)
		}
		if err != nil {
			return nil, err
		}
		pages := (total + q.PerPage - 1) / q.PerPage
		tags := []string{"listing"}
		for _, p := range out {
			tags = append(tags, ProductTag(p.ID), StockTag(p.ID))
		}
		return &apiResponse{Status: http.StatusOK, Body: out, Tags: tags,
			Headers: map[string]string{"X-WP-Total": strconv.Itoa(total), "X-WP-TotalPages": strconv.Itoa(pages)}}, nil
	})
}

// productQuery reads the products route's parameters (the filters
// collection-data applies too); a bad one is a httpx.ParamError.
func (a *API) productQuery(ctx context.Context, query url.Values) (catalog.ProductQuery, error) {
	p := &httpx.Query{Values: query}
	q := catalog.ProductQuery{
		Page:    p.Int("page", 1, 1, 100000),
		PerPage: p.Int("per_page", 10, 1, 100),
		OrderBy: p.Enum("orderby", "", "date", "modified", "id", "include", "title", "slug", "price", "popularity", "rating", "menu_order", "relevance"),
		Order:   p.Enum("order", "desc", "asc", "desc"),
		Type:    p.Enum("type", "", "simple", "grouped", "external", "variable", "variation"),
		Include: p.IDs("include"), Exclude: p.IDs("exclude"), TagIDs: p.IDs("tag"),
		TagOperator: p.Enum("tag_operator", "in", "in", "not_in", "and"),
		SKUs:        p.List("sku"), Slug: p.Values.Get("slug"),
		Featured: p.Bool("featured"), OnSale: p.Bool("on_sale"),
		MinPrice: p.Amount("min_price"), MaxPrice: p.Amount("max_price"),
		Search:     p.Values.Get("search"),
		Visibility: "listable", Descendants: true,
	}
	if len(q.Search) > 200 {
		p.Fail("search", "search is longer than 200 characters.")
	}
	if q.OrderBy == "" && strings.TrimSpace(q.Search) == "" {
		q.OrderBy = "date" // with a search, the default is relevance
	}
	for _, st := range p.List("stock_status") {
		if !slices.Contains([]string{catalog.StockInStock, catalog.StockOutOfStock, catalog.StockOnBackorder}, st) {
			p.Fail("stock_status", "stock_status is not one of instock, outofstock, onbackorder.")
		}
		q.StockStatus = append(q.StockStatus, st)
	}
	if vis := p.Enum("catalog_visibility", "", "any", "visible", "catalog", "search", "hidden"); vis != "" && vis != "any" {
		switch vis {
		case "catalog", "visible":
			q.Visibility = "catalog"
		case "search":
			q.Visibility = "search"
		}
	}
	if cats := p.List("category"); len(cats) > 0 {
		ids, err := a.CategoryIDs(ctx, cats)
		if err != nil {
			return q, err
		}
		if ids == nil {
			p.Fail("category", "category names no known category.")
		}
		q.CategoryIDs = ids
	}
	a.filterParams(ctx, p, &q)
	if p.Err != nil {
		return q, p.Err
	}
	return q, nil
}

// ProductTag and StockTag tag the cached answers that show a product and
// its stock count: the change log drops them when either changes.
func ProductTag(id int64) string { return "product:" + strconv.FormatInt(id, 10) }
func StockTag(id int64) string   { return "stock:" + strconv.FormatInt(id, 10) }

// CategoryIDs resolves category ids or slugs; nil when none is known.
func (a *API) CategoryIDs(ctx context.Context, refs []string) ([]int64, error) {
	paths, err := a.categoryPaths(ctx)
	if err != nil {
		return nil, err
	}
	var out []int64
	for _, ref := range refs {
		for id, path := range paths {
			if strconv.FormatInt(id, 10) == ref || path[strings.LastIndexByte(path, '/')+1:] == ref {
				out = append(out, id)
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

// Product serves GET /products/{id} (an id or a slug).
func (a *API) Product(w http.ResponseWriter, r *http.Request) {
	ref := r.PathValue("id")
	cur := a.d.ShopperCurrency(r)
	a.serveAPIKeyed(w, r, noAPIParams, a.currencyKey(cur), func(ctx context.Context, _ url.Values) (*apiResponse, error) {
		var p *catalog.Product
		var err error
		if id, perr := strconv.ParseInt(ref, 10, 64); perr == nil {
			p, err = a.d.Catalog.Product(ctx, id)
		} else {
			p, err = a.d.Catalog.ProductBySlug(ctx, ref)
		}
		if err != nil {
			return nil, err
		}
		if !p.Published() {
			return nil, catalog.ErrNotFound
		}
		b, err := a.builderIn(ctx, cur)
		if err != nil {
			return nil, err
		}
		tags := []string{ProductTag(p.ID), StockTag(p.ID)}
		if p.Type == catalog.TypeVariation {
			parent, err := a.d.Catalog.Product(ctx, p.ParentID)
			if err != nil {
				return nil, err
			}
			if b.Convert != nil {
				if err := b.Convert.Load(ctx, []int64{p.ID}); err != nil {
					return nil, err
				}
			}
			out := b.Product(p, nil)
			if err := convErr(b); err != nil {
				return nil, err
			}
			out.Variation = variationLabel(parent, p)
			out.Name, out.Slug, out.Permalink = parent.Name, parent.Slug, b.Link(ProductPath(parent.Slug))
			if len(out.Images) == 0 {
				for _, img := range parent.Images {
					out.Images = append(out.Images, b.Image(img))
				}
			}
			return &apiResponse{Status: http.StatusOK, Body: out, Tags: append(tags, ProductTag(parent.ID))}, nil
		}
		out, err := b.Products(ctx, a.d.Catalog, []*catalog.Product{p})
		if err == nil {
			err = convErr(b)
		}
		if err != nil {
			return nil, err
		}
		return &apiResponse{Status: http.StatusOK, Body: out[0], Tags: tags}, nil
	})
}

// variationLabel is "Color: Red, Size: M" from the parent's attribute names.
func variationLabel(parent, v *catalog.Product) string {
	names := map[string]string{}
	values := map[string]map[string]string{}
	for _, a := range parent.Attributes {
		names[a.Key()] = a.Name
		values[a.Key()] = map[string]string{}
		for _, val := range a.Values {
			values[a.Key()][val.Slug] = val.Name
		}
	}
	var parts []string
	for _, a := range v.Variation {
		val := values[a.Name][a.Value]
		if val == "" {
			val = a.Value
		}
		if val == "" {
			val = "Any"
		}
		parts = append(parts, names[a.Name]+": "+val)
	}
	return strings.Join(parts, ", ")
}

// Categories serves GET /products/categories.
func (a *API) Categories(w http.ResponseWriter, r *http.Request) {
	a.serveAPI(w, r, noAPIParams, func(ctx context.Context, _ url.Values) (*apiResponse, error) {
		cats, err := a.d.Catalog.Categories(ctx)
		if err != nil {
			return nil, err
		}
		b := &Builder{BaseURL: a.d.BaseURL, Currency: a.d.Currency, CategoryPaths: CategoryPaths(cats)}
		out := make([]Category, len(cats))
		for i, c := range cats {
			out[i] = b.Category(c)
		}
		return listing(out), nil
	})
}

func pathID(r *http.Request) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	return id, err == nil && id > 0
}

// pathIDOr404 is the path's {id}; false after answering 404 with code and
// message when it is not an id.
func pathIDOr404(w http.ResponseWriter, r *http.Request, code, message string) (int64, bool) {
	id, ok := pathID(r)
	if !ok {
		httpx.WriteError(w, http.StatusNotFound, code, message, nil)
	}
	return id, ok
}

// listing is a 200 answer of catalogue data, its cache entry tagged
// "listing".
func listing(body any) *apiResponse {
	return &apiResponse{Status: http.StatusOK, Body: body, Tags: []string{"listing"}}
}

// Category serves GET /products/categories/{id}.
func (a *API) Category(w http.ResponseWriter, r *http.Request) {
	id, ok := pathIDOr404(w, r, "woocommerce_rest_category_invalid_id", "Invalid category ID.")
	if !ok {
		return
	}
	a.serveAPI(w, r, noAPIParams, func(ctx context.Context, _ url.Values) (*apiResponse, error) {
		cats, err := a.d.Catalog.Categories(ctx)
		if err != nil {
			return nil, err
		}
		b := &Builder{BaseURL: a.d.BaseURL, Currency: a.d.Currency, CategoryPaths: CategoryPaths(cats)}
		for _, c := range cats {
			if c.ID == id {
				return listing(b.Category(c)), nil
			}
		}
		return nil, catalog.ErrNotFound
	})
}

// Attributes serves GET /products/attributes.
func (a *API) Attributes(w http.ResponseWriter, r *http.Request) {
	a.serveAPI(w, r, noAPIParams, func(ctx context.Context, _ url.Values) (*apiResponse, error) {
		attrs, err := a.d.Catalog.Attributes(ctx)
		if err != nil {
			return nil, err
		}
		b := &Builder{}
		out := make([]Attribute, len(attrs))
		for i, a := range attrs {
			out[i] = b.Attribute(a)
		}
		return listing(out), nil
	})
}

// Attribute serves GET /products/attributes/{id}.
func (a *API) Attribute(w http.ResponseWriter, r *http.Request) {
	id, ok := pathIDOr404(w, r, "woocommerce_rest_attribute_invalid_id", "Invalid attribute ID.")
	if !ok {
		return
	}
	a.serveAPI(w, r, noAPIParams, func(ctx context.Context, _ url.Values) (*apiResponse, error) {
		a, err := a.d.Catalog.Attribute(ctx, id)
		if err != nil {
			return nil, err
		}
		return listing((&Builder{}).Attribute(*a)), nil
	})
}

// AttributeTerms serves GET /products/attributes/{id}/terms.
func (a *API) AttributeTerms(w http.ResponseWriter, r *http.Request) {
	id, ok := pathIDOr404(w, r, "woocommerce_rest_attribute_invalid_id", "Invalid attribute ID.")
	if !ok {
		return
	}
	a.serveAPI(w, r, termsAPIParams, func(ctx context.Context, query url.Values) (*apiResponse, error) {
		p := &httpx.Query{Values: query}
		orderBy := p.Enum("orderby", "menu_order", "menu_order", "name", "slug", "count", "id")
		order := p.Enum("order", "asc", "asc", "desc")
		hideEmpty := p.Bool("hide_empty")
		if p.Err != nil {
			return nil, p.Err
		}
		if _, err := a.d.Catalog.Attribute(ctx, id); err != nil {
			return nil, err
		}
		terms, err := a.d.Catalog.AttributeTerms(ctx, id)
		if err != nil {
			return nil, err
		}
		b := &Builder{BaseURL: a.d.BaseURL}
		out := make([]Term, 0, len(terms))
		for _, t := range terms {
			if hideEmpty != nil && *hideEmpty && t.Count == 0 {
				continue
			}
			out = append(out, b.Term(t))
		}
		sortTerms(out, terms, orderBy, order == "desc")
		return listing(out), nil
	})
}

func sortTerms(out []Term, terms []catalog.AttrTerm, by string, desc bool) {
	order := map[int64]int{}
	for _, t := range terms {
		order[t.ID] = t.MenuOrder
	}
	slices.SortStableFunc(out, func(a, b Term) int {
		var c int
		switch by {
		case "name":
			c = strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
		case "slug":
			c = strings.Compare(a.Slug, b.Slug)
		case "count":
			c = a.Count - b.Count
		case "id":
			c = int(a.ID - b.ID)
		default:
			c = order[a.ID] - order[b.ID]
		}
		if desc {
			return -c
		}
		return c
	})
}
