package storeapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/cart"
	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/httpx"
	"vitrine/internal/money"
)

// The Store API cart routes (/wp-json/wc/store/v1/cart…). Carts live in the
// store (cart.Store); sessions, tokens and nonces are httpx.Sessions'.
// Responses are per session: Cache-Control "no-store, private", never put
// in the page or API caches.

// cartHandler is a cart route: it runs with the request's session and
// answers a status and a body (or an error).
type cartHandler func(ctx context.Context, r *http.Request, sess httpx.Session, in *cartInput) (int, any, error)

// serveCartRoute runs a cart handler for the request's own session:
// nonce check on writes, input parsing, headers, the session cookie after
// a write, error shapes.
func (a *API) serveCartRoute(w http.ResponseWriter, r *http.Request, write bool, h cartHandler) {
	now := a.d.Now()
	a.serveCart(w, r, write, h, a.d.Sessions.CartSessionOf(r, now), now, true)
}

// GetCart serves GET /cart.
func (a *API) GetCart(w http.ResponseWriter, r *http.Request) {
	a.serveCartRoute(w, r, false, a.cartGet)
}

// AddItem serves POST /cart/add-item: the cart with the item (201).
func (a *API) AddItem(w http.ResponseWriter, r *http.Request) {
	a.serveCartRoute(w, r, true, a.cartAddItem)
}

// RemoveItem serves POST /cart/remove-item: the cart without it.
func (a *API) RemoveItem(w http.ResponseWriter, r *http.Request) {
	a.serveCartRoute(w, r, true, a.cartRemoveItem)
}

// UpdateItem serves POST /cart/update-item: the cart with the quantity.
func (a *API) UpdateItem(w http.ResponseWriter, r *http.Request) {
	a.serveCartRoute(w, r, true, a.cartUpdateItem)
}

// UpdateCustomer serves POST /cart/update-customer: the addresses.
func (a *API) UpdateCustomer(w http.ResponseWriter, r *http.Request) {
	a.serveCartRoute(w, r, true, a.cartUpdateCustomer)
}

// SelectShippingRate serves POST /cart/select-shipping-rate.
func (a *API) SelectShippingRate(w http.ResponseWriter, r *http.Request) {
	a.serveCartRoute(w, r, true, a.cartSelectShippingRate)
}

// ListItems serves GET /cart/items.
func (a *API) ListItems(w http.ResponseWriter, r *http.Request) {
	a.serveCartRoute(w, r, false, a.cartItemsGet)
}

// CreateItem serves POST /cart/items: the item added (201).
func (a *API) CreateItem(w http.ResponseWriter, r *http.Request) {
	a.serveCartRoute(w, r, true, a.cartItemsPost)
}

// GetItem serves GET /cart/items/{key}.
func (a *API) GetItem(w http.ResponseWriter, r *http.Request) {
	a.serveCartRoute(w, r, false, a.cartItemGet)
}

// PutItem serves PUT /cart/items/{key}: the item with its new quantity.
func (a *API) PutItem(w http.ResponseWriter, r *http.Request) {
	a.serveCartRoute(w, r, true, a.cartItemPut)
}

// DeleteItem serves DELETE /cart/items/{key} (204).
func (a *API) DeleteItem(w http.ResponseWriter, r *http.Request) {
	a.serveCartRoute(w, r, true, a.cartItemDelete)
}

// serveCart runs one cart route for a session (the request's own, or a
// batch's). setCookie: a successful write by a cookie or new session sets
// the session cookie on w.
func (a *API) serveCart(w http.ResponseWriter, r *http.Request, write bool, h cartHandler, sess httpx.Session, now time.Time, setCookie bool) (wrote bool) {
	{
		if write && a.nonceRefused(w, r, sess, now) {
			return false
		}
		in, err := readCartInput(r)
		if err == nil {
			var status int
			var body any
			status, body, err = h(r.Context(), r, sess, in)
			if err == nil {
				if write && !sess.ViaToken {
					// The first write creates the session: from now on the
					// browser names it by cookie, and nonces are bound to it.
					sess.ViaCookie = true
					if setCookie {
						a.d.Sessions.SetSessionCookie(w, sess.ID, now.Add(a.d.CartLifetime))
					}
				}
				a.cartHeaders(w, sess, now)
				if wc, ok := body.(withCart); ok {
					body = wc.body
					w.Header().Set("Cart-Hash", wc.cart.Hash())
				} else if c, ok := body.(*Cart); ok {
					w.Header().Set("Cart-Hash", c.Hash())
				}
				if body == nil {
					w.WriteHeader(status)
					return write
				}
				httpx.WriteJSON(w, status, body)
				return write
			}
		}
		a.cartHeaders(w, sess, now)
		var ce *cart.Error
		switch {
		case errors.As(err, &ce):
			var extra map[string]any
			if ce.Status == http.StatusConflict || ce.Code == "woocommerce_rest_cart_invalid_key" {
				if c, cerr := a.CartResponse(r.Context(), sess.ID, sess.Currency); cerr == nil {
					extra = map[string]any{"cart": c}
					w.Header().Set("Cart-Hash", c.Hash())
				}
			}
			httpx.WriteErrorRaw(w, ce.Status, ce.Code, ce.Message, extra)
		default:
			a.writeOtherError(w, r, "store api cart", err)
		}
	}
	return false
}

// nonceRefused checks the Nonce header (or WooCommerce's older
// X-WC-Store-API-Nonce) of a session not named by Cart-Token; when it is
// missing or invalid it answers the error, with the cart headers, and says so.
func (a *API) nonceRefused(w http.ResponseWriter, r *http.Request, sess httpx.Session, now time.Time) bool {
	if sess.ViaToken {
		return false
	}
	n := r.Header.Get("Nonce")
	if n == "" {
		n = r.Header.Get("X-WC-Store-API-Nonce")
	}
	switch {
	case n == "":
		a.cartHeaders(w, sess, now)
		httpx.WriteErrorRaw(w, http.StatusUnauthorized, "woocommerce_rest_missing_nonce",
			"Missing the Nonce header. This endpoint requires a valid nonce.", nil)
		return true
	case !a.d.Sessions.VerifyNonce(n, sess.Scope(), now):
		a.cartHeaders(w, sess, now)
		httpx.WriteErrorRaw(w, http.StatusForbidden, "woocommerce_rest_invalid_nonce", "Nonce is invalid.", nil)
		return true
	}
	return false
}

// withCart is a cart route's answer that is not the cart itself (an item,
// the item list) with the cart it comes from, for the Cart-Hash header.
type withCart struct {
	body any
	cart *Cart
}

// cartHeaders sets what every cart response carries: a fresh nonce for the
// session, its Cart-Token, and no caching anywhere.
func (a *API) cartHeaders(w http.ResponseWriter, sess httpx.Session, now time.Time) {
	h := w.Header()
	h.Set("Cache-Control", "no-store, private")
	h.Set("Nonce", a.d.Sessions.Nonce(sess.Scope(), httpx.NonceTickAt(now)))
	h.Set("Nonce-Timestamp", strconv.FormatInt(now.Unix(), 10))
	h.Set("User-ID", "0")
	if id, ok := strings.CutPrefix(sess.ID, "u_"); ok {
		h.Set("User-ID", id) // a logged-in customer's own cart (cart.CustomerSession)
	}
	h.Set("Cart-Token", a.d.Sessions.CartToken(sess.ID, now, now.Add(a.d.CartLifetime)))
	h.Set("Access-Control-Expose-Headers", "X-WP-Total, X-WP-TotalPages, Link, Cart-Token")
	h.Set("Access-Control-Allow-Headers", "Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type, Cart-Token, Nonce")
}

// cartInput is a cart call's input from a JSON body, a form body or the query.
type cartInput struct {
	vals      url.Values
	variation []cart.Attr
	billing   *cart.Address
	shipping  *cart.Address
}

func (in *cartInput) get(name string) string { return strings.TrimSpace(in.vals.Get(name)) }

var formVariation = regexp.MustCompile(`^variation\[(\d+)\]\[(attribute|value)\]$`)

func readCartInput(r *http.Request) (*cartInput, error) {
	in := &cartInput{vals: url.Values{}}
	for k, v := range r.URL.Query() {
		in.vals[k] = v
	}
	if r.Method == http.MethodGet || r.Body == nil {
		return in, nil
	}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch ct {
	case "application/x-www-form-urlencoded", "multipart/form-data":
		if err := r.ParseForm(); err != nil {
			return nil, httpx.ParamError{Param: "body", Msg: "The request body could not be read."}
		}
		byIndex := map[string]*cart.Attr{}
		var order []string
		for k, vs := range r.PostForm {
			if m := formVariation.FindStringSubmatch(k); m != nil {
				a := byIndex[m[1]]
				if a == nil {
					a = &cart.Attr{}
					byIndex[m[1]] = a
					order = append(order, m[1])
				}
				if m[2] == "attribute" {
					a.Attribute = vs[0]
				} else {
					a.Value = vs[0]
				}
				continue
			}
			if strings.HasPrefix(k, "variation[") && strings.HasSuffix(k, "]") { // variation[attribute_pa_color]=rust
				in.variation = append(in.variation, cart.Attr{Attribute: k[len("variation[") : len(k)-1], Value: vs[0]})
				continue
			}
			in.vals[k] = vs
		}
		slices.Sort(order)
		for _, i := range order {
			in.variation = append(in.variation, *byIndex[i])
		}
		return in, nil
	}
	var body map[string]json.RawMessage
	dec := json.NewDecoder(r.Body)
	if err := dec.Decode(&body); err != nil {
		if errors.Is(err, io.EOF) {
			return in, nil
		}
		return nil, httpx.ParamError{Param: "body", Msg: "The request body is not valid JSON."}
	}
	for k, raw := range body {
		switch k {
		case "variation":
			if err := json.Unmarshal(raw, &in.variation); err != nil {
				var m map[string]string // {"attribute_pa_color": "rust"}
				if json.Unmarshal(raw, &m) != nil {
					return nil, httpx.ParamError{Param: "variation", Msg: "variation is not an array of {attribute, value}."}
				}
				in.variation = nil
				for a, v := range m {
					in.variation = append(in.variation, cart.Attr{Attribute: a, Value: v})
				}
				slices.SortFunc(in.variation, func(a, b cart.Attr) int { return strings.Compare(a.Attribute, b.Attribute) })
			}
		case "billing_address":
			in.billing = &cart.Address{}
			if err := json.Unmarshal(raw, in.billing); err != nil {
				return nil, httpx.ParamError{Param: k, Msg: k + " is not an address object."}
			}
		case "shipping_address":
			in.shipping = &cart.Address{}
			if err := json.Unmarshal(raw, in.shipping); err != nil {
				return nil, httpx.ParamError{Param: k, Msg: k + " is not an address object."}
			}
		default:
			var str string
			if string(raw) == "null" {
				in.vals.Set(k, "null") // present but empty: refused where a value is required
			} else if json.Unmarshal(raw, &str) == nil {
				in.vals.Set(k, str)
			} else {
				in.vals.Set(k, string(raw)) // numbers as written: "1.5", "1e9"
			}
		}
	}
	return in, nil
}

// --- handlers ---

// cartAfter answers the session's cart once change (its error) succeeded.
func (a *API) cartAfter(ctx context.Context, sess httpx.Session, change error) (int, any, error) {
	if change != nil {
		return 0, nil, change
	}
	c, err := a.CartResponse(ctx, sess.ID, sess.Currency)
	return http.StatusOK, c, err
}

// itemAfter answers the line under key of the cart c just changed, with
// status.
func (a *API) itemAfter(ctx context.Context, sess httpx.Session, c *cart.Cart, key string, status int) (int, any, error) {
	out, err := a.ShapeCart(ctx, c, false, sess.Currency)
	if err != nil {
		return 0, nil, err
	}
	return itemOf(out, key, status)
}

func (a *API) cartGet(ctx context.Context, r *http.Request, sess httpx.Session, in *cartInput) (int, any, error) {
	c, err := a.CartResponse(ctx, sess.ID, sess.Currency)
	return http.StatusOK, c, err
}

func (a *API) cartAddItem(ctx context.Context, r *http.Request, sess httpx.Session, in *cartInput) (int, any, error) {
	c, _, err := a.addItem(ctx, sess, in)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.ShapeCart(ctx, c, false, sess.Currency)
	return http.StatusCreated, out, err
}

func (a *API) cartItemsPost(ctx context.Context, r *http.Request, sess httpx.Session, in *cartInput) (int, any, error) {
	c, key, err := a.addItem(ctx, sess, in)
	if err != nil {
		return 0, nil, err
	}
	return a.itemAfter(ctx, sess, c, key, http.StatusCreated)
}

func (a *API) cartItemsGet(ctx context.Context, r *http.Request, sess httpx.Session, in *cartInput) (int, any, error) {
	c, err := a.CartResponse(ctx, sess.ID, sess.Currency)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, withCart{c.Items, c}, nil
}

func (a *API) cartItemGet(ctx context.Context, r *http.Request, sess httpx.Session, in *cartInput) (int, any, error) {
	return a.itemResponse(ctx, sess.ID, sess.Currency, r.PathValue("key"), http.StatusOK)
}

func (a *API) cartItemPut(ctx context.Context, r *http.Request, sess httpx.Session, in *cartInput) (int, any, error) {
	key := r.PathValue("key")
	c, err := a.updateItemCart(ctx, sess, key, in)
	if err != nil {
		return 0, nil, err
	}
	return a.itemAfter(ctx, sess, c, key, http.StatusOK)
}

func (a *API) cartItemDelete(ctx context.Context, r *http.Request, sess httpx.Session, in *cartInput) (int, any, error) {
	if err := a.d.Carts.Remove(ctx, sess.ID, r.PathValue("key")); err != nil {
		return 0, nil, err
	}
	return http.StatusNoContent, nil, nil
}

func (a *API) cartRemoveItem(ctx context.Context, r *http.Request, sess httpx.Session, in *cartInput) (int, any, error) {
	return a.cartAfter(ctx, sess, a.d.Carts.Remove(ctx, sess.ID, in.get("key")))
}

func (a *API) cartUpdateItem(ctx context.Context, r *http.Request, sess httpx.Session, in *cartInput) (int, any, error) {
	c, err := a.updateItemCart(ctx, sess, in.get("key"), in)
	if err != nil {
		return 0, nil, err
	}
	out, err := a.ShapeCart(ctx, c, false, sess.Currency)
	return http.StatusOK, out, err
}

func (a *API) cartUpdateCustomer(ctx context.Context, r *http.Request, sess httpx.Session, in *cartInput) (int, any, error) {
	if in.billing != nil {
		if err := validAddress("billing_address", in.billing, true); err != nil {
			return 0, nil, err
		}
	}
	if in.shipping != nil {
		if err := validAddress("shipping_address", in.shipping, false); err != nil {
			return 0, nil, err
		}
	}
	if err := a.d.Carts.UpdateCustomer(ctx, sess.ID, in.billing, in.shipping); err != nil {
		return 0, nil, err
	}
	resp, err := a.CartResponse(ctx, sess.ID, sess.Currency)
	return http.StatusOK, resp, err
}

func (a *API) cartSelectShippingRate(ctx context.Context, r *http.Request, sess httpx.Session, in *cartInput) (int, any, error) {
	// The rate must be one the cart's destination offers now.
	if err := a.d.Checkout.SelectRate(ctx, sess.ID, in.get("package_id"), in.get("rate_id"), sess.Currency); err != nil {
		return 0, nil, err
	}
	resp, err := a.CartResponse(ctx, sess.ID, sess.Currency)
	return http.StatusOK, resp, err
}

// validAddress bounds address fields (no geography yet: checkout brings it).
func validAddress(param string, a *cart.Address, email bool) error {
	fields := []struct {
		name, v string
		max     int
	}{
		{"first_name", a.FirstName, 100}, {"last_name", a.LastName, 100}, {"company", a.Company, 200},
		{"address_1", a.Address1, 200}, {"address_2", a.Address2, 200}, {"city", a.City, 100},
		{"state", a.State, 100}, {"postcode", a.Postcode, 20}, {"country", a.Country, 2},
		{"email", a.Email, 254}, {"phone", a.Phone, 40},
	}
	for _, f := range fields {
		if len(f.v) > f.max || strings.ContainsAny(f.v, "\x00\r\n") {
			return httpx.ParamError{Param: param, Msg: fmt.Sprintf("%s.%s is longer than %d characters or has control characters.", param, f.name, f.max)}
		}
	}
	if a.Country != "" && (len(a.Country) != 2 || strings.ToUpper(a.Country) != a.Country) {
		return httpx.ParamError{Param: param, Msg: param + ".country is not a two-letter country code."}
	}
	if email && a.Email != "" && (!strings.Contains(a.Email, "@") || strings.ContainsAny(a.Email, " <>")) {
		return httpx.ParamError{Param: param, Msg: param + ".email is not a valid email address."}
	}
	return nil
}

// --- cart operations ---

// addItem parses an add (id; quantity: absent means 1, present must be
// valid) and makes it; it returns the cart after the add and the line key.
func (a *API) addItem(ctx context.Context, sess httpx.Session, in *cartInput) (*cart.Cart, string, error) {
	id, err := strconv.ParseInt(in.get("id"), 10, 64)
	if err != nil || id <= 0 {
		return nil, "", cart.ErrInvalidProduct
	}
	qty := int64(1)
	if in.vals.Has("quantity") { // absent means 1; present must be valid
		if qty, err = cart.ParseQuantity(in.get("quantity")); err != nil {
			return nil, "", err
		}
	}
	c, line, err := a.d.Carts.Add(ctx, sess.ID, id, qty, in.variation)
	return c, line.Key, err
}

// updateItemCart parses the quantity of an update and sets the line's
// quantity, answering the cart after the change.
func (a *API) updateItemCart(ctx context.Context, sess httpx.Session, key string, in *cartInput) (*cart.Cart, error) {
	qty, err := cart.ParseQuantity(in.get("quantity"))
	if err != nil {
		return nil, err
	}
	return a.d.Carts.SetQuantity(ctx, sess.ID, key, qty)
}

// --- the cart object ---

type quantityLimits struct {
	Minimum    int64 `json:"minimum"`
	Maximum    int64 `json:"maximum"`
	MultipleOf int64 `json:"multiple_of"`
	Editable   bool  `json:"editable"`
}

type rawPrices struct {
	Precision    int    `json:"precision"`
	Price        string `json:"price"`
	RegularPrice string `json:"regular_price"`
	SalePrice    string `json:"sale_price"`
}

type itemPrices struct {
	Price        string `json:"price"`
	RegularPrice string `json:"regular_price"`
	SalePrice    string `json:"sale_price"`
	PriceRange   *struct {
		Min string `json:"min_amount"`
		Max string `json:"max_amount"`
	} `json:"price_range"`
	money.Currency
	RawPrices rawPrices `json:"raw_prices"`
}

type lineTotals struct {
	LineSubtotal    string `json:"line_subtotal"`
	LineSubtotalTax string `json:"line_subtotal_tax"`
	LineTotal       string `json:"line_total"`
	LineTotalTax    string `json:"line_total_tax"`
	money.Currency
}

type cartItem struct {
	Key                string         `json:"key"`
	ID                 int64          `json:"id"`
	Type               string         `json:"type"`
	Quantity           int64          `json:"quantity"`
	QuantityLimits     quantityLimits `json:"quantity_limits"`
	Name               string         `json:"name"`
	ShortDescription   string         `json:"short_description"`
	Description        string         `json:"description"`
	SKU                string         `json:"sku"`
	LowStockRemaining  *int64         `json:"low_stock_remaining"`
	BackordersAllowed  bool           `json:"backorders_allowed"`
	ShowBackorderBadge bool           `json:"show_backorder_badge"`
	SoldIndividually   bool           `json:"sold_individually"`
	Permalink          string         `json:"permalink"`
	Images             []Image        `json:"images"`
	Variation          []cart.Attr    `json:"variation"`
	ItemData           []any          `json:"item_data"`
	Prices             itemPrices     `json:"prices"`
	Totals             lineTotals     `json:"totals"`
	CatalogVisibility  string         `json:"catalog_visibility"`
	Extensions         map[string]any `json:"extensions"`
}

type cartTotals struct {
	TotalItems       string `json:"total_items"`
	TotalItemsTax    string `json:"total_items_tax"`
	TotalFees        string `json:"total_fees"`
	TotalFeesTax     string `json:"total_fees_tax"`
	TotalDiscount    string `json:"total_discount"`
	TotalDiscountTax string `json:"total_discount_tax"`
	TotalShipping    string `json:"total_shipping"`
	TotalShippingTax string `json:"total_shipping_tax"`
	TotalPrice       string `json:"total_price"`
	TotalTax         string `json:"total_tax"`
	TaxLines         []any  `json:"tax_lines"`
	money.Currency
}

type shippingRate struct {
	RateID       string `json:"rate_id"`
	Name         string `json:"name"`
	Description  string `json:"description"`
	DeliveryTime string `json:"delivery_time"`
	Price        string `json:"price"`
	Taxes        string `json:"taxes"`
	InstanceID   int    `json:"instance_id"`
	MethodID     string `json:"method_id"`
	MetaData     []any  `json:"meta_data"`
	Selected     bool   `json:"selected"`
	money.Currency
}

type packageItem struct {
	Key      string `json:"key"`
	Name     string `json:"name"`
	Quantity int64  `json:"quantity"`
}

type shippingPackage struct {
	PackageID     int            `json:"package_id"`
	Name          string         `json:"name"`
	Destination   map[string]any `json:"destination"`
	Items         []packageItem  `json:"items"`
	ShippingRates []shippingRate `json:"shipping_rates"`
}

// Cart is the Store API's cart object, which wc-ajax's fragments, the
// no-script cart and the checkout page show too.
type Cart struct {
	Items                 []cartItem        `json:"items"`
	Coupons               []cartCoupon      `json:"coupons"`
	Fees                  []any             `json:"fees"`
	Totals                cartTotals        `json:"totals"`
	ShippingAddress       cart.Address      `json:"shipping_address"`
	BillingAddress        billingAddress    `json:"billing_address"`
	NeedsPayment          bool              `json:"needs_payment"`
	NeedsShipping         bool              `json:"needs_shipping"`
	PaymentRequirements   []string          `json:"payment_requirements"`
	HasCalculatedShipping bool              `json:"has_calculated_shipping"`
	ShippingRates         []shippingPackage `json:"shipping_rates"`
	ItemsCount            int64             `json:"items_count"`
	ItemsWeight           float64           `json:"items_weight"`
	CrossSells            []any             `json:"cross_sells"`
	Errors                []Error           `json:"errors"`
	PaymentMethods        []string          `json:"payment_methods"`
	Extensions            map[string]any    `json:"extensions"`

	hash string // the Cart-Hash (checkout.PricedCart.Hash)
}

// Hash is the cart's Cart-Hash and woocommerce_cart_hash
// (checkout.PricedCart.Hash, taken when the cart was shaped): "" for an
// empty cart.
func (c *Cart) Hash() string { return c.hash }

// billingAddress always carries email, even when empty.
type billingAddress struct {
	cart.Address
	Email string `json:"email"`
}

func amountString(v int64) string { return strconv.FormatInt(v, 10) }

// rawPrice scales minor units to WooCommerce's 6-digit raw precision.
func rawPrice(v int64, minor int) string {
	return strconv.FormatInt(v*int64(math.Pow10(6-minor)), 10)
}

// CartResponse loads a cart and shapes it, with prices refreshed from the
// catalogue, in the currency code names ("": the base). Lines whose product
// is gone are left out and reported in errors.
func (a *API) CartResponse(ctx context.Context, id, code string) (*Cart, error) {
	pc, err := a.d.Checkout.Cart(ctx, id, code)
	if err != nil {
		return nil, err
	}
	return a.CartOf(pc), nil
}

// ShapeCart prices a cart (checkout.Service.Price) and shapes it as the
// Store API answers it. extend: a read pushes a cart near its expiry
// forward (a write already did). code is the currency ("": the base).
func (a *API) ShapeCart(ctx context.Context, c *cart.Cart, extend bool, code string) (*Cart, error) {
	pc, err := a.d.Checkout.Price(ctx, c, extend, code)
	if err != nil {
		return nil, err
	}
	return a.CartOf(pc), nil
}

// CartOf shapes a priced cart as the Store API's cart object.
func (a *API) CartOf(pc *checkout.PricedCart) *Cart {
	c := pc.Cart
	cur := pc.Pricing.Config.Currency
	b := &Builder{BaseURL: a.d.BaseURL, Currency: cur, Now: a.d.Now(), ExactStock: true}
	out := &Cart{Items: make([]cartItem, 0, len(pc.Lines)), Coupons: []cartCoupon{}, Fees: []any{}, PaymentRequirements: []string{"products"},
		ShippingRates: []shippingPackage{}, CrossSells: []any{}, Errors: []Error{}, PaymentMethods: []string{},
		Extensions: map[string]any{}, ShippingAddress: c.Customer.Shipping,
		BillingAddress: billingAddress{Address: c.Customer.Billing, Email: c.Customer.Billing.Email}}
	out.BillingAddress.Address.Email = ""
	out.hash = pc.Hash()
	// The currency every amount is in (cart_extensions.go adds the
	// checkout switch's fields when a method is chosen).
	out.Extensions[wmcNamespace] = wmcExtension{CurrentCurrency: pc.Pricing.Currency.Code}
	for range pc.LeftOut {
		out.Errors = append(out.Errors, Error{Code: "woocommerce_rest_cart_item_error",
			Message: "A product in your cart is no longer available and was left out.", Data: map[string]any{"status": 409}})
	}
	for _, e := range pc.CouponErrors {
		// A coupon dropped because it no longer applies, and why.
		out.Errors = append(out.Errors, Error{Code: e.Code, Message: e.Message, Data: map[string]any{"status": 409}})
	}
	for _, l := range pc.Lines {
		p, parent := pc.Product(l)
		out.Items = append(out.Items, a.cartItem(b, pc.Pricing, l, p, parent))
	}
	zero := "0"
	out.Totals = cartTotals{TotalFees: zero, TotalFeesTax: zero, TotalDiscount: zero, TotalDiscountTax: zero, Currency: cur}
	out.ItemsCount = cart.Sum(pc.Lines).ItemsCount
	out.ItemsWeight = pc.Weight
	// Shipping, taxes and totals come from the one price function the
	// checkout and the wallet use (checkout.Quote).
	a.applyQuote(out, pc.Quote)
	if f := pc.Quote.FreeShipping; f != nil {
		out.Extensions[freeShippingNamespace] = freeShippingExtension{MinAmount: amountString(f.MinAmount),
			Amount: amountString(f.Amount), Remaining: amountString(f.Remaining()), Reached: f.Reached(), Currency: cur}
	}
	return out
}

// freeShippingNamespace is the cart's extensions entry for the progress
// towards free shipping (the cart page's "Add $12.00 more for free
// shipping" line), present when the destination's zone has a free-shipping
// minimum. It is the quote's (checkout.Quotation.FreeShipping): the same
// comparison that offers the free-shipping rate.
const freeShippingNamespace = "vitrine/free-shipping"

// freeShippingExtension is extensions["vitrine/free-shipping"]: minor units
// of the cart's currency, as decimal strings like every Store API amount.
// Amount is what the minimum is compared with (items as entered, after
// coupons, before shipping).
type freeShippingExtension struct {
	MinAmount string `json:"min_amount"`
	Amount    string `json:"amount"`
	Remaining string `json:"remaining"`
	Reached   bool   `json:"reached"`
	money.Currency
}

// cartItem shapes one line, in the pricing's currency (l's unit price is
// already in it). p is what it sells, parent its product (p itself for
// simple products).
func (a *API) cartItem(b *Builder, pricing *checkout.Pricing, l cart.Line, p, parent *catalog.Product) cartItem {
	cur := b.Currency
	id := p.ID
	if parent != p {
		p = cart.WithStock(p, parent)
	}
	lim := p.Limits()
	maxQ := lim.Maximum
	if maxQ == 0 || maxQ > cart.MaxQuantity {
		maxQ = cart.MaxQuantity
	}
	regular := l.UnitPrice
	if p.RegularPrice != nil {
		regular = pricing.Amount(id, *p.RegularPrice, false)
	}
	sale := regular
	if p.SaleActive(b.Now) {
		sale = pricing.Amount(id, *p.SalePrice, true)
	}
	it := cartItem{
		Key: l.Key, ID: l.ItemID(), Type: p.Type, Quantity: l.Quantity,
		QuantityLimits: quantityLimits{Minimum: lim.Minimum, Maximum: maxQ, MultipleOf: lim.MultipleOf, Editable: !p.SoldIndividually},
		Name:           parent.Name, ShortDescription: parent.ShortDescription, Description: p.Description,
		SKU: p.SKU, LowStockRemaining: p.LowStockRemaining(LowStockThreshold),
		BackordersAllowed:  p.Backorders == catalog.BackordersYes || p.Backorders == catalog.BackordersNotify,
		ShowBackorderBadge: p.OnBackorder(), SoldIndividually: p.SoldIndividually,
		Permalink: b.Link(ProductPath(parent.Slug)), Images: []Image{}, Variation: []cart.Attr{},
		ItemData: []any{}, CatalogVisibility: parent.CatalogVisibility, Extensions: map[string]any{},
		Prices: itemPrices{Price: amountString(l.UnitPrice), RegularPrice: amountString(regular), SalePrice: amountString(sale),
			Currency: cur, RawPrices: rawPrices{Precision: 6, Price: rawPrice(l.UnitPrice, cur.MinorUnit),
				RegularPrice: rawPrice(regular, cur.MinorUnit), SalePrice: rawPrice(sale, cur.MinorUnit)}},
		Totals: lineTotals{LineSubtotal: amountString(l.Subtotal()), LineSubtotalTax: "0",
			LineTotal: amountString(l.Subtotal()), LineTotalTax: "0", Currency: cur},
	}
	if it.Description == "" {
		it.Description = parent.Description
	}
	if it.SKU == "" {
		it.SKU = parent.SKU
	}
	imgs := p.Images
	if len(imgs) == 0 {
		imgs = parent.Images
	}
	for _, img := range imgs {
		it.Images = append(it.Images, b.Image(img))
	}
	// Variation attributes as WooCommerce shows them: the attribute's label
	// and the term's name.
	it.Variation = append(it.Variation, cart.DisplayAttrs(parent, l.Variation)...)
	return it
}

// itemResponse answers one line as a cart item, in the currency code.
func (a *API) itemResponse(ctx context.Context, id, code, key string, status int) (int, any, error) {
	c, err := a.CartResponse(ctx, id, code)
	if err != nil {
		return 0, nil, err
	}
	return itemOf(c, key, status)
}

func itemOf(c *Cart, key string, status int) (int, any, error) {
	for _, it := range c.Items {
		if it.Key == key {
			return status, withCart{it, c}, nil
		}
	}
	return 0, nil, cart.ErrInvalidKey
}
