package standin

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/checkout"
	"vitrine/internal/httpx"
	"vitrine/internal/integration"
	"vitrine/internal/integrationapi"
)

// Server serves shop as WooCommerce 11 serves its REST API v3 to a
// read-only key (key, secret): OAuth 1.0a signatures over plain HTTP and
// Basic over HTTPS, checked by the shop's own verifier
// (internal/integrationapi on an in-memory key store), WooCommerce's 401
// answers otherwise; lists paged with page and per_page (at most 100) and
// answered with X-WP-Total, X-WP-TotalPages and a Link to the next and
// previous pages; images under /wp-content/uploads/ without credentials.
//
// The records' links (permalinks, image src) are answered with the
// request's own origin in place of shop.Origin, as a shop answers with
// its site address. The server reads shop at each request: a test may
// change it between runs (not during one).
func Server(shop *Shop, key, secret string) http.Handler {
	keys := &memKeys{key: integration.HashKey(key), secret: secret, nonces: map[string]bool{}}
	auth := integrationapi.New(integrationapi.Deps{
		Keys:     &integration.Service{Store: keys, FailureLimit: 1 << 30},
		HTTPS:    func(r *http.Request) bool { return r.TLS != nil },
		ClientIP: func(r *http.Request) string { return r.RemoteAddr },
	})
	s := &server{shop: shop}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /wp-content/uploads/", s.upload)
	api := http.HandlerFunc(s.api)
	mux.Handle("/wp-json/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, done := auth.Authenticate(w, r)
		if done {
			return
		}
		if u == nil {
			httpx.WriteErrorRaw(w, http.StatusUnauthorized, "woocommerce_rest_cannot_view", "Sorry, you cannot list resources.", nil)
			return
		}
		api(w, r)
	}))
	return mux
}

type server struct{ shop *Shop }

func (s *server) upload(w http.ResponseWriter, r *http.Request) {
	p := strings.TrimPrefix(r.URL.Path, "/wp-content/uploads/")
	body, ok := s.shop.Images[p]
	if !ok {
		http.NotFound(w, r)
		return
	}
	ct := mime.TypeByExtension(path.Ext(p))
	if ct == "" {
		ct = http.DetectContentType(body)
	}
	w.Header().Set("Content-Type", ct)
	_, _ = w.Write(body)
}

func (s *server) api(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		httpx.WriteErrorRaw(w, http.StatusUnauthorized, "woocommerce_rest_authentication_error", "The API key provided does not have write permissions.", nil)
		return
	}
	route := strings.Trim(strings.TrimPrefix(r.URL.Path, "/wp-json/"), "/")
	parts := strings.Split(route, "/")
	sh := s.shop
	var list []Object
	var one Object
	found := true
	switch {
	case route == "wc/v3/products":
		list = sh.Products
	case route == "wc/v3/products/categories":
		list = sh.Categories
	case route == "wc/v3/products/tags":
		list = sh.Tags
	case route == "wc/v3/products/attributes":
		list = sh.Attributes
	case route == "wc/v3/products/reviews":
		list = sh.Reviews
	case route == "wc/v3/customers":
		list = sh.Customers
	case route == "wc/v3/coupons":
		list = sh.Coupons
	case route == "wc/v3/orders":
		list = sh.Orders
	case route == "wp/v2/pages":
		list = sh.Pages
	case route == "wc/v3/taxes":
		list = sh.Taxes
	case route == "wp/v2/comments":
		list = sh.Comments
	case len(parts) == 5 && parts[2] == "products" && parts[4] == "variations":
		list, found = sub(sh.Variations, parts[3])
	case len(parts) == 6 && strings.HasPrefix(route, "wc/v3/products/attributes/") && parts[5] == "terms":
		list, found = sub(sh.AttributeTerms, parts[4])
	case len(parts) == 5 && parts[2] == "orders" && parts[4] == "notes":
		list, found = sub(sh.OrderNotes, parts[3])
	case len(parts) == 5 && parts[2] == "orders" && parts[4] == "refunds":
		list, found = sub(sh.Refunds, parts[3])
	case len(parts) == 4 && parts[2] == "settings":
		list = sh.Settings[parts[3]] // a group the shop has no settings in answers none
	case len(parts) == 4 && parts[2] == "products":
		one = byID(sh.Products, parts[3])
		found = one != nil
	case len(parts) == 4 && parts[2] == "orders":
		one = byID(sh.Orders, parts[3])
		found = one != nil
	case len(parts) == 4 && parts[2] == "customers":
		one = byID(sh.Customers, parts[3])
		found = one != nil
	default:
		found = false
	}
	if !found {
		httpx.WriteErrorRaw(w, http.StatusNotFound, "rest_no_route", "No route was found matching the URL and request method.", nil)
		return
	}
	origin := "http://" + r.Host
	if r.TLS != nil {
		origin = "https://" + r.Host
	}
	if one != nil {
		s.write(w, one, origin)
		return
	}
	q := r.URL.Query()
	page, per := 1, 10
	if v := q.Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			httpx.WriteErrorRaw(w, http.StatusBadRequest, "rest_invalid_param", "Invalid parameter(s): page", nil)
			return
		}
		page = n
	}
	if v := q.Get("per_page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			httpx.WriteErrorRaw(w, http.StatusBadRequest, "rest_invalid_param", "Invalid parameter(s): per_page", nil)
			return
		}
		per = n
	}
	total := len(list)
	pages := (total + per - 1) / per
	if page > pages && total > 0 {
		httpx.WriteErrorRaw(w, http.StatusBadRequest, "rest_post_invalid_page_number", "The page number requested is larger than the number of pages available.", nil)
		return
	}
	lo, hi := min((page-1)*per, total), min(page*per, total)
	h := w.Header()
	h.Set("X-WP-Total", strconv.Itoa(total))
	h.Set("X-WP-TotalPages", strconv.Itoa(pages))
	var links []string
	link := func(p int, rel string) {
		u := url.URL{Scheme: "http", Host: r.Host, Path: r.URL.Path}
		if r.TLS != nil {
			u.Scheme = "https"
		}
		lq := url.Values{}
		for k, v := range q {
			if !strings.HasPrefix(k, "oauth_") {
				lq[k] = v
			}
		}
		lq.Set("page", strconv.Itoa(p))
		u.RawQuery = lq.Encode()
		links = append(links, fmt.Sprintf("<%s>; rel=%q", u.String(), rel))
	}
	if page > 1 {
		link(page-1, "prev")
	}
	if page < pages {
		link(page+1, "next")
	}
	if len(links) > 0 {
		h.Set("Link", strings.Join(links, ", "))
	}
	s.write(w, append([]Object{}, list[lo:hi]...), origin)
}

// write answers v as JSON with the shop's origin replaced by origin.
func (s *server) write(w http.ResponseWriter, v any, origin string) {
	b, err := json.Marshal(v)
	if err != nil {
		httpx.WriteErrorRaw(w, http.StatusInternalServerError, "internal_error", err.Error(), nil)
		return
	}
	if s.shop.Origin != "" {
		b = bytes.ReplaceAll(b, []byte(strings.ReplaceAll(s.shop.Origin, "/", `\/`)), []byte(origin))
		b = bytes.ReplaceAll(b, []byte(s.shop.Origin), []byte(origin))
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.Header().Set("Access-Control-Expose-Headers", "X-WP-Total, X-WP-TotalPages, Link")
	_, _ = w.Write(b)
}

func sub(m map[int64][]Object, id string) ([]Object, bool) {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return nil, false
	}
	return m[n], true
}

func byID(list []Object, id string) Object {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return nil
	}
	for _, o := range list {
		if idOf(o) == n {
			return o
		}
	}
	return nil
}

// idOf reads an object's "id" (an int64 from a generator, a float64 from
// decoded JSON).
func idOf(o Object) int64 {
	switch v := o["id"].(type) {
	case int64:
		return v
	case int:
		return int64(v)
	case float64:
		return int64(v)
	}
	return 0
}

// memKeys is the one read-only key of the stand-in, with its spent
// nonces, as integration.Store.
type memKeys struct {
	key, secret string
	mu          sync.Mutex
	nonces      map[string]bool
}

var _ integration.Store = (*memKeys)(nil)

func (m *memKeys) APIKeyByHash(_ context.Context, hash string) (*integration.Key, error) {
	if hash != m.key {
		return nil, integration.ErrNoKey
	}
	return &integration.Key{ID: 1, UserID: 1, Permissions: integration.Read, KeyHash: m.key, Secret: m.secret}, nil
}

func (m *memKeys) UserByID(_ context.Context, id int64) (*account.User, error) {
	return &account.User{ID: id, Email: "owner@shop.example", Role: "administrator"}, nil
}

func (m *memKeys) SpendOAuthNonce(_ context.Context, keyID int64, nonceHash string, _ time.Time) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.nonces[nonceHash] {
		return false, nil
	}
	m.nonces[nonceHash] = true
	return true, nil
}

func (m *memKeys) TouchAPIKey(context.Context, int64, time.Time, time.Time) error { return nil }

func (m *memKeys) RateLimitCount(context.Context, string, time.Time) (int, time.Time, error) {
	return 0, time.Time{}, nil
}

func (m *memKeys) HitRateLimits(context.Context, []checkout.RateHit, time.Duration, time.Time) (time.Duration, bool, error) {
	return 0, true, nil
}

func (m *memKeys) InsertAPIKey(context.Context, *integration.Key) (int64, error) {
	return 0, fmt.Errorf("standin: keys are fixed")
}
func (m *memKeys) APIKeys(context.Context, int64) ([]integration.Key, error) { return nil, nil }
func (m *memKeys) DeleteAPIKey(context.Context, int64) error                 { return integration.ErrNoKey }
func (m *memKeys) DeleteSpentOAuthNonces(context.Context, time.Time) (int64, error) {
	return 0, nil
}
