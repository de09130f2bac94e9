package currency

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"vitrine/internal/catalog"
	"vitrine/internal/clock"
	"vitrine/internal/money"
)

// Rate sources recorded in the history.
const (
	SourceECB    = "ecb"
	SourceCSV    = "csv"
	SourceManual = "manual"
)

// ErrUnknown is a currency the shop does not sell in.
var ErrUnknown = errors.New("currency: not configured")

// InputError is a setting refused by validation, with the field at fault.
type InputError struct{ Field, Message string }

func (e *InputError) Error() string { return e.Field + ": " + e.Message }

// RateRecord is one rate of the history: Rate units of Code for one unit
// of BaseCode on Date, from Source.
type RateRecord struct {
	Code     string
	BaseCode string
	Rate     Rate
	Date     string // YYYY-MM-DD
	Source   string
}

// FixedPrice is a product's (or variation's) price set by hand in a
// currency (CURCY's "fixed price"); it wins over conversion. Sale nil:
// the sale price, if any, is converted.
type FixedPrice struct {
	ProductID int64
	Code      string
	Regular   int64
	Sale      *int64
}

// Store is what the service needs from storage (sqlstore implements it).
type Store interface {
	// Currencies lists the configured currencies (enabled or not).
	Currencies(ctx context.Context) ([]Currency, error)
	// SaveCurrency inserts or replaces a currency; with rate it also
	// records a rate in the history, in the same transaction.
	SaveCurrency(ctx context.Context, c Currency, rate *RateRecord, now time.Time) error
	// RecordRates adds the records to the history (a record of the same
	// currency, base, date and source replaces the earlier one) and sets
	// the current rate of each code in current, in one transaction.
	RecordRates(ctx context.Context, records []RateRecord, current map[string]RateRecord, now time.Time) error
	// RateHistory lists code's recorded rates against base, newest first.
	RateHistory(ctx context.Context, code, base string, limit int) ([]RateRecord, error)
	// SetFixedPrice stores a fixed price; DeleteFixedPrice removes one.
	SetFixedPrice(ctx context.Context, p FixedPrice) error
	DeleteFixedPrice(ctx context.Context, productID int64, code string) error
	// FixedPrices answers the fixed prices in code of those of ids that
	// have one.
	FixedPrices(ctx context.Context, code string, ids []int64) (map[int64]FixedPrice, error)
}

// Products looks a product up by id, variations included (catalog.Store,
// catalog.Cache); catalog.ErrNotFound when there is none.
type Products interface {
	Product(ctx context.Context, id int64) (*catalog.Product, error)
}

// Service is the currency capability's use cases.
type Service struct {
	Store Store
	Base  money.Currency // the shop's currency (--currency)
	// Products, when set, lets SetFixedPrice refuse a product that does
	// not exist or has no price of its own with a clear error (without
	// it the store's foreign key refuses an unknown product).
	Products Products
	Now      func() time.Time
	Log      *slog.Logger
}

func (s *Service) now() time.Time { return clock.UTC(s.Now) }

func (s *Service) log() *slog.Logger { return cmp.Or(s.Log, discard) }

var discard = slog.New(slog.DiscardHandler)

// all lists the stored currencies whose rates are against the current
// base, skipping (with a warning) those configured against another base.
func (s *Service) all(ctx context.Context) ([]Currency, error) {
	list, err := s.Store.Currencies(ctx)
	if err != nil {
		return nil, err
	}
	out := list[:0]
	for _, c := range list {
		switch {
		case c.Code == s.Base.Code:
			continue
		case c.BaseCode != s.Base.Code:
			s.log().Warn("currency ignored: its rate is against another base currency; set its rate again",
				"currency", c.Code, "rate_base", c.BaseCode, "base", s.Base.Code)
			continue
		}
		out = append(out, c)
	}
	return out, nil
}

// Currencies lists the currencies shoppers may choose: the base first,
// then the enabled ones by their order and code.
func (s *Service) Currencies(ctx context.Context) ([]Currency, error) {
	list, err := s.all(ctx)
	if err != nil {
		return nil, err
	}
	out := []Currency{Base(s.Base)}
	for _, c := range list {
		if c.Enabled {
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out[1:], func(a, b Currency) int {
		if a.Order != b.Order {
			return a.Order - b.Order
		}
		return strings.Compare(a.Code, b.Code)
	})
	return out, nil
}

// All lists every configured currency, enabled or not, base first (the
// command line's list).
func (s *Service) All(ctx context.Context) ([]Currency, error) {
	list, err := s.all(ctx)
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(list, func(a, b Currency) int {
		if a.Order != b.Order {
			return a.Order - b.Order
		}
		return strings.Compare(a.Code, b.Code)
	})
	return append([]Currency{Base(s.Base)}, list...), nil
}

// Currency returns an enabled currency by code (the base included);
// ErrUnknown otherwise.
func (s *Service) Currency(ctx context.Context, code string) (Currency, error) {
	code = strings.ToUpper(strings.TrimSpace(code))
	if code == s.Base.Code {
		return Base(s.Base), nil
	}
	list, err := s.all(ctx)
	if err != nil {
		return Currency{}, err
	}
	for _, c := range list {
		if c.Code == code && c.Enabled {
			return c, nil
		}
	}
	return Currency{}, fmt.Errorf("%w: %q", ErrUnknown, code)
}

// Configured returns a configured currency by code, enabled or not.
func (s *Service) Configured(ctx context.Context, code string) (Currency, bool, error) {
	list, err := s.all(ctx)
	if err != nil {
		return Currency{}, false, err
	}
	for _, c := range list {
		if c.Code == code {
			return c, true, nil
		}
	}
	return Currency{}, false, nil
}

// Defaults is a new currency's settings before any are given: the
// symbol and decimals of its ISO code, symbol left, "," and ".",
// rounding none, enabled.
func Defaults(code string) (Currency, bool) {
	m, ok := money.Lookup(code)
	if !ok {
		return Currency{}, false
	}
	return Currency{Code: m.Code, Decimals: m.MinorUnit, Symbol: m.Symbol, Position: money.PosLeft,
		ThousandSep: m.ThousandSeparator, DecimalSep: m.DecimalSeparator, Rounding: RoundNone, Step: 1, Enabled: true}, true
}

// Validate checks a currency's settings against base, with a clear error
// for the first field at fault.
func Validate(c Currency, base string) error {
	if _, ok := money.Lookup(c.Code); !ok || c.Code != strings.ToUpper(c.Code) {
		return &InputError{"code", fmt.Sprintf("%q is not a known ISO 4217 currency code", c.Code)}
	}
	if c.Code == base {
		return &InputError{"code", fmt.Sprintf("%s is the base currency: its rate is always 1 (it is configured with --currency)", c.Code)}
	}
	if c.Decimals < 0 || c.Decimals > MaxDecimals {
		return &InputError{"decimals", fmt.Sprintf("%d: use 0 to %d", c.Decimals, MaxDecimals)}
	}
	if c.Rate.IsZero() {
		return &InputError{"rate", "a rate to the base currency is required (units of " + c.Code + " for 1 " + base + ")"}
	}
	if s := strings.TrimSpace(c.Symbol); s == "" || s != c.Symbol || utf8.RuneCountInString(c.Symbol) > 8 {
		return &InputError{"symbol", "use 1 to 8 characters without surrounding spaces"}
	}
	if _, _, ok := money.Affixes(c.Symbol, c.Position); !ok {
		return &InputError{"position", fmt.Sprintf("%q: use left, right, left_space or right_space", c.Position)}
	}
	for _, f := range []struct{ field, v string }{{"thousand-sep", c.ThousandSep}, {"decimal-sep", c.DecimalSep}} {
		if utf8.RuneCountInString(f.v) > 2 || strings.ContainsFunc(f.v, func(r rune) bool { return unicode.IsDigit(r) || r == '-' || unicode.IsControl(r) }) {
			return &InputError{f.field, fmt.Sprintf("%q: use at most 2 characters, no digits or minus sign", f.v)}
		}
	}
	if c.Decimals > 0 && c.DecimalSep == "" {
		return &InputError{"decimal-sep", "a currency with decimals needs a decimal separator"}
	}
	if c.DecimalSep != "" && c.DecimalSep == c.ThousandSep {
		return &InputError{"decimal-sep", "the decimal and thousands separators must differ"}
	}
	switch c.Rounding {
	case RoundNone:
		if c.Step != 1 || c.Ending != 0 {
			return &InputError{"rounding", "a step or ending needs a rounding rule: nearest, up or down"}
		}
	case RoundNearest, RoundUp, RoundDown:
		if c.Step <= 0 {
			return &InputError{"step", "must be more than 0"}
		}
		if c.Step > 1_000_000_000 {
			return &InputError{"step", "too large"}
		}
		if c.Ending < 0 || c.Ending >= c.Step {
			return &InputError{"ending", "must be 0 or more and less than the step (step 1 with ending 0.99 writes prices ending in .99)"}
		}
	default:
		return &InputError{"rounding", fmt.Sprintf("%q: use none, nearest, up or down", c.Rounding)}
	}
	return nil
}

// SaveCurrency validates and stores a currency against the shop's base.
// A new rate (a new currency, or a rate other than the stored one) is
// dated today and recorded in the history as source manual.
func (s *Service) SaveCurrency(ctx context.Context, c Currency) error {
	c.Code = strings.ToUpper(strings.TrimSpace(c.Code))
	c.BaseCode = s.Base.Code
	if err := Validate(c, s.Base.Code); err != nil {
		return err
	}
	old, exists, err := s.Configured(ctx, c.Code)
	if err != nil {
		return err
	}
	var rec *RateRecord
	if !exists || old.Rate != c.Rate {
		c.RateDate = s.now().Format(time.DateOnly)
		rec = &RateRecord{Code: c.Code, BaseCode: c.BaseCode, Rate: c.Rate, Date: c.RateDate, Source: SourceManual}
	} else {
		c.RateDate = old.RateDate
	}
	return s.Store.SaveCurrency(ctx, c, rec, s.now())
}

// RateHistory lists code's rates against the base, newest first.
func (s *Service) RateHistory(ctx context.Context, code string, limit int) ([]RateRecord, error) {
	return s.Store.RateHistory(ctx, strings.ToUpper(code), s.Base.Code, limit)
}

// SetFixedPrice sets a product's fixed price in a configured currency,
// enabled or not (amounts in its minor units): a disabled currency's
// prices can be prepared before it is offered. With Products set, the
// product must exist and have a price of its own: a simple or external
// product, or a variation (a variable product's prices are its
// variations', a grouped product's its children's).
func (s *Service) SetFixedPrice(ctx context.Context, p FixedPrice) error {
	p.Code = strings.ToUpper(strings.TrimSpace(p.Code))
	if _, ok, err := s.Configured(ctx, p.Code); err != nil {
		return err
	} else if !ok {
		if p.Code == s.Base.Code {
			return &InputError{"currency", fmt.Sprintf("%s is the base currency: a product's price in it is its own price (fixed prices are for the other currencies)", p.Code)}
		}
		return &InputError{"currency", fmt.Sprintf("%q is not configured (add it with vitrine currency set %s --rate R)", p.Code, p.Code)}
	}
	if p.Regular <= 0 {
		return &InputError{"regular", "must be more than 0"}
	}
	if p.Sale != nil && (*p.Sale <= 0 || *p.Sale >= p.Regular) {
		return &InputError{"sale", "must be more than 0 and less than the regular price"}
	}
	if err := s.checkPriced(ctx, p.ProductID); err != nil {
		return err
	}
	return s.Store.SetFixedPrice(ctx, p)
}

// checkPriced refuses (InputError "product") an id that is not a product
// with a price of its own, when the service can look products up.
func (s *Service) checkPriced(ctx context.Context, id int64) error {
	if id <= 0 {
		return &InputError{"product", fmt.Sprintf("%d is not a product id", id)}
	}
	if s.Products == nil {
		return nil
	}
	prod, err := s.Products.Product(ctx, id)
	if errors.Is(err, catalog.ErrNotFound) {
		return &InputError{"product", fmt.Sprintf("no product or variation has id %d", id)}
	}
	if err != nil {
		return err
	}
	switch prod.Type {
	case catalog.TypeVariable:
		return &InputError{"product", fmt.Sprintf("%d (%s) is a variable product: its prices are its variations'; set a fixed price on each variation", id, prod.Name)}
	case catalog.TypeGrouped:
		return &InputError{"product", fmt.Sprintf("%d (%s) is a grouped product: it has no price of its own; set fixed prices on its products", id, prod.Name)}
	}
	return nil
}

// FixedPrice answers a product's fixed price in code, if it has one.
func (s *Service) FixedPrice(ctx context.Context, productID int64, code string) (FixedPrice, bool, error) {
	code = strings.ToUpper(strings.TrimSpace(code))
	m, err := s.Store.FixedPrices(ctx, code, []int64{productID})
	if err != nil {
		return FixedPrice{}, false, err
	}
	f, ok := m[productID]
	return f, ok, nil
}

// DeleteFixedPrice removes a product's fixed price in code, so its price
// there is converted again. It answers the price removed, and false when
// there was none (nothing changed, not an error).
func (s *Service) DeleteFixedPrice(ctx context.Context, productID int64, code string) (FixedPrice, bool, error) {
	code = strings.ToUpper(strings.TrimSpace(code))
	f, ok, err := s.FixedPrice(ctx, productID, code)
	if err != nil || !ok {
		return f, ok, err
	}
	return f, true, s.Store.DeleteFixedPrice(ctx, productID, code)
}

// ProductPrices is one product's prices in minor units of a currency.
// Sale is nil when the product is not on sale.
type ProductPrices struct {
	ProductID int64
	Regular   int64
	Sale      *int64
}

// Current is the price the shopper pays: the sale price when on sale.
func (p ProductPrices) Current() int64 {
	if p.Sale != nil {
		return *p.Sale
	}
	return p.Regular
}

// Prices turns products' base prices into code's: a fixed price where the
// product has one, else Convert. One store read for all of them (the
// price call asks for a page of products at once). The base currency
// answers the prices unchanged.
func (s *Service) Prices(ctx context.Context, code string, base []ProductPrices) ([]ProductPrices, Currency, error) {
	t, err := s.Table(ctx, code)
	if err != nil {
		return nil, Currency{}, err
	}
	ids := make([]int64, len(base))
	for i, p := range base {
		ids[i] = p.ProductID
	}
	if err := t.Load(ctx, ids); err != nil {
		return nil, t.Currency, err
	}
	out := make([]ProductPrices, len(base))
	for i, p := range base {
		q := ProductPrices{ProductID: p.ProductID, Regular: t.Amount(p.ProductID, p.Regular, false)}
		if p.Sale != nil {
			sale := t.Amount(p.ProductID, *p.Sale, true)
			q.Sale = &sale
		}
		out[i] = q
	}
	if err := t.Err(); err != nil {
		return nil, t.Currency, err
	}
	return out, t.Currency, nil
}

// Price is one product's price in code: its fixed price there, else base
// converted. sale says whether base is the product's sale price.
func (s *Service) Price(ctx context.Context, productID, base int64, sale bool, code string) (int64, error) {
	in := ProductPrices{ProductID: productID, Regular: base}
	if sale {
		in.Sale = &base
	}
	out, _, err := s.Prices(ctx, code, []ProductPrices{in})
	if err != nil {
		return 0, err
	}
	if sale {
		return *out[0].Sale, nil
	}
	return out[0].Regular, nil
}

// demoPerUSD are the demo shop's rates (units for 1 USD, plausible for
// spring 2024), rebased to the shop's base.
var demoPerUSD = map[string]string{"USD": "1", "EUR": "0.92", "GBP": "0.79", "JPY": "157.2"}

// SeedDemo configures EUR, GBP and JPY (those that are not the base) for
// demo mode when no currency is configured yet: EUR written "1.234,56 €",
// GBP rounded up to .99 endings, JPY rounded to tens. It answers how many
// it added (0 when any currency was configured, or the base has no demo
// rate).
func (s *Service) SeedDemo(ctx context.Context) (int, error) {
	list, err := s.Store.Currencies(ctx)
	if err != nil || len(list) > 0 {
		return 0, err
	}
	baseRate, ok := demoPerUSD[s.Base.Code]
	if !ok {
		return 0, nil
	}
	b, _ := ParseRate(baseRate)
	n := 0
	for i, code := range []string{"EUR", "GBP", "JPY"} {
		if code == s.Base.Code {
			continue
		}
		c, _ := Defaults(code)
		x, _ := ParseRate(demoPerUSD[code])
		if c.Rate, err = RateFromRat(new(big.Rat).Quo(x.Rat(), b.Rat()), RebaseDigits); err != nil {
			return n, err
		}
		c.Order = i + 1
		switch code {
		case "EUR":
			c.Position, c.ThousandSep, c.DecimalSep = money.PosRightSpace, ".", ","
		case "GBP":
			c.Rounding, c.Step, c.Ending = RoundUp, 100, 99
		case "JPY":
			c.Rounding, c.Step = RoundNearest, 10
		}
		if err := s.SaveCurrency(ctx, c); err != nil {
			return n, fmt.Errorf("demo currency %s: %w", code, err)
		}
		n++
	}
	return n, nil
}

// ParseAmount reads an amount typed in a currency with decimals decimals
// ("12.99", JPY "1500"): an optional minus sign (so that SetFixedPrice, not
// the parser, says a price must be more than 0), digits, and at most
// decimals digits after a point ("12.50" and "12.5" are the same; zeros
// past the currency's decimals are allowed). A comma is refused rather
// than guessed at: "12,99" is twelve euros ninety-nine in one country and
// 1,299 in another.
func ParseAmount(s string, decimals int) (int64, error) {
	s = strings.TrimSpace(s)
	neg := strings.HasPrefix(s, "-")
	digits := strings.TrimPrefix(s, "-")
	if strings.Contains(digits, ",") {
		return 0, fmt.Errorf("%q: write the amount with a point before the decimals and no thousands separator (1299.50)", s)
	}
	whole, frac, _ := strings.Cut(digits, ".")
	if whole == "" && frac == "" || strings.ContainsFunc(whole+frac, func(r rune) bool { return r < '0' || r > '9' }) {
		return 0, fmt.Errorf("%q is not an amount (write it as 12.99)", s)
	}
	if t := strings.TrimRight(frac, "0"); len(t) > decimals {
		if decimals == 0 {
			return 0, fmt.Errorf("%q: the currency has no decimals", s)
		}
		return 0, fmt.Errorf("%q: the currency has %d decimals", s, decimals)
	}
	if n := len(strings.TrimLeft(whole, "0")); n > 15 || n+decimals > 18 {
		return 0, fmt.Errorf("%q is too large", s)
	}
	frac = (frac + strings.Repeat("0", decimals))[:decimals]
	var v int64
	for _, r := range whole + frac {
		v = v*10 + int64(r-'0')
	}
	if neg {
		v = -v
	}
	return v, nil
}
