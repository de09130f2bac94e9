package wcimport

import (
	"context"
	"errors"
	"fmt"
	"html"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	xhtml "golang.org/x/net/html"

	"vitrine/internal/account"
	"vitrine/internal/checkout"
	"vitrine/internal/contentpage"
	"vitrine/internal/coupon"
	"vitrine/internal/money"
	"vitrine/internal/orders"
	"vitrine/internal/review"
	"vitrine/internal/settings"
	"vitrine/internal/storage/sqlstore"
)

// The shop's history: customers, coupons, orders (with their notes and
// refunds), reviews and their replies, content pages and settings, in
// that order, after the catalogue (orders link products and customers by
// their old ids). Orders are written as history, never placed as carts:
// their numbers, dates, prices as sold, statuses, fees, taxes and totals
// are the old shop's; nothing takes stock, queues mail or raises a
// webhook (decision 0096).

// HistoryDeps are what the import of customers, coupons, orders, reviews,
// pages and settings writes with.
type HistoryDeps struct {
	// Customers creates and edits accounts (account.Service);
	// CustomerDates dates an account from its registration in the old
	// shop (sqlstore.DB).
	Customers     CustomerWriter
	CustomerDates interface {
		SetUserCreated(ctx context.Context, id int64, at time.Time) error
	}
	// Coupons creates and edits coupons with their checks (coupon.Service);
	// CouponStore finds them by code and sets their usage counts
	// (sqlstore.DB).
	Coupons     CouponWriter
	CouponStore CouponStore
	// Orders writes orders as history (sqlstore.DB).
	Orders orders.HistoryStore
	// Reviews reads and writes reviews as they were (sqlstore.DB).
	Reviews ReviewStore
	// Pages sets content pages (contentpage.Service).
	Pages PageWriter
	// Settings are the shop's settings document and Rules its tax and
	// shipping rules (settings.Service, settings.Rules).
	Settings ShopSettings
	Rules    TaxRules
	// Currency is the shop's base currency (how amounts are read, and
	// what woocommerce_currency is compared with).
	Currency money.Currency
}

// StoreHistoryDeps are the history's writers over the store db: the
// account, coupon and content-page services on it, the shop's settings
// and rules (built as the server builds them, with its defaults, and
// loaded), and the shop's base currency.
func StoreHistoryDeps(db *sqlstore.DB, shop ShopSettings, rules TaxRules, base money.Currency, now func() time.Time) HistoryDeps {
	return HistoryDeps{
		Customers: &account.Service{Store: db, Now: now}, CustomerDates: db,
		Coupons: &coupon.Service{Store: db, Currency: base, Now: now}, CouponStore: db,
		Orders: db, Reviews: db, Pages: &contentpage.Service{Store: db, Now: now},
		Settings: shop, Rules: rules, Currency: base,
	}
}

// CustomerWriter is account.Service's back office.
type CustomerWriter interface {
	Customers(ctx context.Context, q account.CustomerQuery) ([]*account.Customer, int, error)
	CreateCustomer(ctx context.Context, e account.CustomerEdit) (*account.Customer, error)
	UpdateCustomer(ctx context.Context, id int64, e account.CustomerEdit) (*account.Customer, error)
}

// CouponWriter is coupon.Service's create and update.
type CouponWriter interface {
	Create(ctx context.Context, in coupon.Input) (*coupon.Coupon, error)
	Update(ctx context.Context, id int64, in coupon.Input) (*coupon.Coupon, error)
}

// CouponStore finds a coupon by code and sets its usage count.
type CouponStore interface {
	CouponByCode(ctx context.Context, code string) (*coupon.Coupon, error)
	SetCouponUsage(ctx context.Context, id, count int64) error
}

// ReviewStore reads a review and writes one as it was.
type ReviewStore interface {
	ReviewByID(ctx context.Context, id int64) (*review.Review, error)
	ImportReview(ctx context.Context, r *review.Review) error
}

// PageWriter reads and sets content pages (contentpage.Service).
type PageWriter interface {
	Get(ctx context.Context, slug string) (contentpage.Page, error)
	Set(ctx context.Context, in contentpage.Input) (contentpage.Page, error)
}

// ShopSettings is the shop's settings document.
type ShopSettings interface {
	Current() settings.Versioned
	Edit(ctx context.Context, change func(*settings.Shop) error) (settings.Versioned, error)
}

// TaxRules are the shipping and tax rules.
type TaxRules interface {
	Current() settings.Doc[checkout.Rules]
	Edit(ctx context.Context, change func(*checkout.Rules) error) (settings.Doc[checkout.Rules], error)
}

// historyResources are the customers', coupons', orders', reviews', pages',
// settings' and tax rates' resources, in order (after the catalogue's).
func (r *Run) historyResources() []resource {
	return []resource{
		{name: "customers", path: "wc/v3/customers", query: url.Values{"role": {"all"}}, one: importCustomer},
		{name: "coupons", path: "wc/v3/coupons", one: importCoupon},
		{name: "orders", path: "wc/v3/orders", query: url.Values{"status": {"any"}}, one: importOrder},
		{name: "reviews", path: "wc/v3/products/reviews", query: url.Values{"status": {"all"}}, one: importReview},
		// A staff reply to a review is a plain comment whose parent is the
		// review: the reviews endpoint does not list it, WordPress's
		// comments endpoint does (decision 0096).
		{name: "review-replies", path: "wp/v2/comments", query: url.Values{"parent_exclude": {"0"}}, one: importReviewReply, optional: true},
		// Published pages: other statuses need a WordPress login the
		// shop's API keys are not (a source that sends them gets drafts).
		{name: "pages", path: "wp/v2/pages", one: importPage, optional: true},
		{name: "settings", path: "wc/v3/settings/general", one: importSetting},
		{name: "taxes", path: "wc/v3/taxes", one: importTax},
		{name: "tax-settings", path: "wc/v3/settings/tax", one: importSetting},
	}
}

// --- shared readers ---

// wcTime reads a REST API date in UTC ("2026-11-29T04:07:42", the *_gmt
// fields); "" is the zero time.
func wcTime(v string) (time.Time, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{"2006-01-02T15:04:05", time.RFC3339} {
		if t, err := time.Parse(layout, v); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a date", v)
}

// amounts reads the REST API's decimal strings in one currency's minor
// units, keeping the first error (named by field).
type amounts struct {
	minor int
	err   error
}

func (a *amounts) read(field, v string) int64 {
	v = strings.TrimSpace(v)
	if v == "" || a.err != nil {
		return 0
	}
	n, err := money.Parse(v, a.minor)
	if err != nil {
		// The API writes some amounts as floats with more decimals
		// than the currency (a line's price): round those half away from
		// zero, as WooCommerce rounds them for display.
		f, ferr := strconv.ParseFloat(v, 64)
		if ferr != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			a.err = fmt.Errorf("%s: %q is not an amount", field, v)
			return 0
		}
		return int64(math.Round(f * math.Pow10(a.minor)))
	}
	return n
}

// plainText is rendered HTML (a review's "<p>Warm and soft.</p>\n") as the
// plain text it shows: tags dropped, entities decoded, paragraphs and
// line breaks as new lines.
func plainText(rendered string) string {
	z := xhtml.NewTokenizer(strings.NewReader(rendered))
	var b strings.Builder
	for {
		switch z.Next() {
		case xhtml.ErrorToken:
			out := strings.TrimSpace(b.String())
			for strings.Contains(out, "\n\n\n") {
				out = strings.ReplaceAll(out, "\n\n\n", "\n\n")
			}
			return out
		case xhtml.TextToken:
			b.Write(z.Text())
		case xhtml.StartTagToken, xhtml.EndTagToken, xhtml.SelfClosingTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "br":
				b.WriteString("\n")
			case "p", "div", "li", "blockquote":
				b.WriteString("\n\n")
			}
		}
	}
}

// refusalOf turns a use case's input error into a refusal of name.
func refusalOf(name string, err error) error {
	var ae *account.InputError
	var ce *coupon.InputError
	var pe *contentpage.InputError
	var se *settings.InputError
	var re *checkout.RuleError
	switch {
	case errors.As(err, &re):
		return refuse(name, re.Message)
	case errors.As(err, &ae):
		return refuse(name, ae.Field+": "+ae.Message)
	case errors.As(err, &ce):
		return refuse(name, ce.Field+": "+ce.Message)
	case errors.As(err, &pe):
		return refuse(name, pe.Field+" "+pe.Message)
	case errors.As(err, &se):
		return refuse(name, se.Field+": "+se.Message)
	case errors.Is(err, account.ErrEmailTaken):
		return refuse(name, "another account here has that email")
	case errors.Is(err, account.ErrUsernameTaken):
		return refuse(name, "another account here has that username")
	case errors.Is(err, account.ErrNoEmail):
		return refuse(name, "the customer has no email address")
	case errors.Is(err, account.ErrInvalidRole):
		return refuse(name, "not a role of this shop")
	case errors.Is(err, coupon.ErrCodeTaken):
		return refuse(name, "another coupon here has that code")
	}
	return err
}

// unescape is a rendered title as text ("Terms &#038; Conditions").
func unescape(s string) string { return strings.TrimSpace(html.UnescapeString(s)) }
