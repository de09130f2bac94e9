package ajax

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"vitrine/internal/catalog"
	"vitrine/internal/httpx"
	"vitrine/internal/render"
	"vitrine/internal/storeapi"
)

// Live search limits. The storefront sends a query from SearchMinChars
// characters on; shorter queries, and queries made only of punctuation,
// answer the "No results" entry. Longer ones are cut at SearchMaxQuery
// bytes (and the search itself reads at most catalog.SearchMaxWords words).
//
// SearchSuggestCandidates caps the index matches live search ranks (of each
// kind: name, anywhere); it shows only ten, and the cap keeps its p99 low
// at 100,000 products. The results page considers the store's full cap.
const (
	SearchMinChars          = 3
	SearchMaxQuery          = 200
	SearchSuggestCandidates = 200
)

// suggestion is one live-search entry (protocol notes section 6).
type suggestion struct {
	Type  string `json:"type"`
	ID    int64  `json:"id"`
	Value string `json:"value"`
	URL   string `json:"url"`
	Img   string `json:"img"`
	Price string `json:"price"`
}

// suggestionsAnswer is the live search's answer.
type suggestionsAnswer struct {
	Suggestions []suggestion `json:"suggestions"`
}

// suggestionMemo keeps cached live-search answers decoded, by ETag (a hash
// of the answer's bytes), so that writing one in another currency does not
// parse it again. Entries are never modified (callers clone); the memo is
// cleared when it holds suggestionMemoMax answers.
type suggestionMemo struct {
	mu sync.Mutex
	m  map[string][]suggestion
}

const suggestionMemoMax = 1024

func (m *suggestionMemo) put(etag string, list []suggestion) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil || len(m.m) >= suggestionMemoMax {
		m.m = make(map[string][]suggestion)
	}
	m.m[etag] = list
}

func (m *suggestionMemo) get(p *render.Page) ([]suggestion, error) {
	m.mu.Lock()
	list, ok := m.m[p.ETag]
	m.mu.Unlock()
	if ok {
		return list, nil
	}
	var answer suggestionsAnswer
	if err := json.Unmarshal(p.HTML, &answer); err != nil {
		return nil, err
	}
	m.put(p.ETag, answer.Suggestions)
	return answer.Suggestions, nil
}

// noResults is the single entry answered when nothing matches; the
// storefront shows it and does not navigate for id -1.
type noResults struct {
	ID    int64  `json:"id"`
	Value string `json:"value"`
	URL   string `json:"url"`
}

// noResultsPage is the "No results" answer, compressed once.
var noResultsPage = render.NewPage(http.StatusOK, []byte(`{"suggestions":[{"id":-1,"value":"No results","url":""}]}`), nil)

// searchProducts answers Flatsome's live search:
// action=flatsome_ajax_search_products&query=TEXT[&product_cat=ID or slug].
// Up to catalog.SearchSuggestLimit published products visible in search,
// name matches first; every input answers 200 with suggestions or the
// "No results" entry (a category that is not known, by id or slug, matches
// nothing). Answers are cached by folded query and category until a change
// to a product shown, or any change that can alter listings or search.
//
// Prices are in the shopper's currency. The cached answer carries base
// prices and is shared by every currency: a base shopper gets it as it is
// (precompressed); any other shopper gets it with each price replaced by
// pricing.Service.PriceHTMLs in their currency (fixed prices honoured, one
// fixed-price read for all the suggestions), computed per request, so a
// new rate or fixed price shows as soon as the price call shows it. The
// answer is never cached by browsers or proxies (Cache-Control: no-store),
// so no shared HTTP cache can hand one shopper's currency to another.
func (a *API) searchProducts(w http.ResponseWriter, r *http.Request) {
	query := strings.TrimSpace(r.FormValue("query"))
	if len(query) > SearchMaxQuery {
		query = strings.ToValidUTF8(query[:SearchMaxQuery], "")
	}
	cat := strings.TrimSpace(r.FormValue("product_cat"))
	if cat == "all" || cat == "0" {
		cat = ""
	}
	words := catalog.SearchWords(query)
	if utf8.RuneCountInString(query) < SearchMinChars || len(words) == 0 || len(cat) > 200 {
		writeSuggestions(w, r, noResultsPage)
		return
	}
	key := "ajax:search?q=" + strings.Join(words, " ") + "&cat=" + cat
	if p, ok := a.d.APICache.Get(key); ok {
		a.writeSuggestionsIn(w, r, p)
		return
	}
	v, err, _ := a.flight.Do(key, func() (any, error) {
		put := a.d.APICache.Begin(r.Context())
		p, err := a.searchSuggestions(r.Context(), query, cat)
		if err != nil {
			return nil, err
		}
		put(key, p)
		return p, nil
	})
	if err != nil {
		a.liveSearchFail(w, err)
		return
	}
	a.writeSuggestionsIn(w, r, v.(*render.Page))
}

func (a *API) liveSearchFail(w http.ResponseWriter, err error) {
	a.d.Log.Error("live search", "err", err)
	httpx.WriteJSON(w, http.StatusInternalServerError, map[string]any{"suggestions": []any{}})
}

// writeSuggestionsIn writes a cached live-search answer (base prices) in
// the shopper's currency: as it is for the base, else with the prices
// converted (searchProducts).
func (a *API) writeSuggestionsIn(w http.ResponseWriter, r *http.Request, p *render.Page) {
	cur := a.d.ShopperCurrency(r)
	if cur.Code == a.d.Currency.Code || p.Status != http.StatusOK {
		writeSuggestions(w, r, p)
		return
	}
	cached, err := a.suggestMemo.get(p)
	if err != nil {
		a.liveSearchFail(w, err)
		return
	}
	answer := suggestionsAnswer{Suggestions: slices.Clone(cached)}
	ids := make([]int64, 0, len(answer.Suggestions))
	for _, sg := range answer.Suggestions {
		if sg.ID > 0 {
			ids = append(ids, sg.ID)
		}
	}
	if len(ids) == 0 { // "No results": nothing to convert
		writeSuggestions(w, r, p)
		return
	}
	ctx := r.Context()
	t, err := a.d.Pricing.Table(ctx, cur.Code)
	if err != nil {
		a.liveSearchFail(w, err)
		return
	}
	if t.IsBase() { // disabled since the cookie was read
		writeSuggestions(w, r, p)
		return
	}
	prices, err := a.d.Pricing.PriceHTMLs(ctx, t, ids)
	if err != nil {
		a.liveSearchFail(w, err)
		return
	}
	for i := range answer.Suggestions {
		if sg := &answer.Suggestions[i]; sg.ID > 0 {
			sg.Price = prices[sg.ID] // "" when it has no price now
		}
	}
	body, err := json.Marshal(answer)
	if err != nil {
		a.liveSearchFail(w, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=UTF-8")
	h.Set("X-Robots-Tag", "noindex")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

func (a *API) searchSuggestions(ctx context.Context, query, cat string) (*render.Page, error) {
	q := catalog.ProductQuery{Search: query, Visibility: "search", OrderBy: "relevance", Page: 1, PerPage: catalog.SearchSuggestLimit,
		Descendants: true, SearchCandidates: SearchSuggestCandidates, NoCount: true, Synonyms: a.d.Search.SynonymsInForce()}
	tags := []string{"listing"}
	if cat != "" {
		ids, err := a.d.Store.CategoryIDs(ctx, []string{cat})
		if err != nil {
			return nil, err
		}
		if ids == nil {
			return noResultsTagged(tags), nil
		}
		q.CategoryIDs = ids
	}
	ps, _, err := a.d.Catalog.QueryProducts(ctx, q)
	if err != nil {
		return nil, err
	}
	if len(ps) == 0 {
		return noResultsTagged(tags), nil
	}
	// Prices and pictures only: no category paths or stock needed.
	b := &storeapi.Builder{BaseURL: a.d.BaseURL, Currency: a.d.Currency, Now: a.d.Now()}
	out, err := b.Products(ctx, a.d.Catalog, ps)
	if err != nil {
		return nil, err
	}
	list := make([]suggestion, len(out))
	for i, p := range out {
		sg := suggestion{Type: "Product", ID: p.ID, Value: p.Name, URL: p.Permalink, Price: p.PriceHTML}
		if len(p.Images) > 0 {
			sg.Img = p.Images[0].Thumbnail
		}
		list[i] = sg
		tags = append(tags, storeapi.ProductTag(p.ID))
	}
	body, err := json.Marshal(suggestionsAnswer{Suggestions: list})
	if err != nil {
		return nil, err
	}
	p := render.NewPage(http.StatusOK, body, tags)
	a.suggestMemo.put(p.ETag, list)
	return p, nil
}

// noResultsTagged is a copy of the "No results" answer to cache under tags
// (the "listing" tag: a new or newly visible product drops it).
func noResultsTagged(tags []string) *render.Page {
	p := noResultsPage
	return &render.Page{Status: p.Status, HTML: p.HTML, Gzip: p.Gzip, Brotli: p.Brotli, ETag: p.ETag, Tags: tags}
}

func writeSuggestions(w http.ResponseWriter, r *http.Request, p *render.Page) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=UTF-8")
	h.Set("X-Robots-Tag", "noindex")
	h.Set("Cache-Control", "no-store")
	httpx.WriteBody(w, r, p)
}

// ForgetDecodedSuggestions empties live search's memo of decoded answers:
// the next answer in another currency decodes the cached one again. The
// server's tests check that path with it.
func (a *API) ForgetDecodedSuggestions() {
	a.suggestMemo.mu.Lock()
	a.suggestMemo.m = nil
	a.suggestMemo.mu.Unlock()
}
