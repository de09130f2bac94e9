package checkout

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"vitrine/internal/cart"
	"vitrine/internal/catalog"
	"vitrine/internal/currency"
	"vitrine/internal/payment"
)

// Selling in the shopper's currency.
//
// A cart stores base prices; it is priced in a currency by converting each
// line's unit price (the product's fixed price there, else the rate and the
// currency's rounding rule: currency.Table) and the shop's fees (Config.In),
// then running the one price function, Quote, on the converted amounts. So
// taxes are computed and rounded in the currency the shopper pays in, and
// the totals shown are the sums charged, exactly as in the base currency.
// The order keeps the currency, its rate and the converted amounts.

// In is the shop's settings in cur: shipping costs and free-shipping
// thresholds converted at cur's rate and rounded to its minor unit (the
// currency's price endings, such as .99, are for product prices, not
// fees). Tax rates are percentages and stay. c itself when cur is c's
// currency.
func (c *Config) In(cur currency.Currency) (*Config, error) {
	if cur.Code == "" || cur.Code == c.Currency.Code {
		return c, nil
	}
	plain := cur
	plain.Rounding, plain.Step, plain.Ending = currency.RoundNone, 1, 0
	var err error
	conv := func(v int64) int64 {
		out, cerr := currency.Convert(v, c.Currency.MinorUnit, plain)
		if cerr != nil && err == nil {
			err = cerr
		}
		return out
	}
	methods := func(ms []Method) []Method {
		out := make([]Method, len(ms))
		for i, m := range ms {
			m.Cost, m.MinAmount = conv(m.Cost), conv(m.MinAmount)
			out[i] = m
		}
		return out
	}
	out := *c
	out.Currency = cur.Money()
	out.Zones = make([]Zone, len(c.Zones))
	for i, z := range c.Zones {
		z.Methods = methods(z.Methods)
		out.Zones[i] = z
	}
	out.RestOfWorld.Methods = methods(c.RestOfWorld.Methods)
	if err != nil {
		return nil, fmt.Errorf("checkout settings in %s: %w", cur.Code, err)
	}
	return &out, nil
}

// Pricing is a cart's currency: the table its products' prices were
// converted with (nil: the base currency) and the settings in it.
type Pricing struct {
	Currency currency.Currency
	Table    *currency.Table // loaded for the cart's items; nil in the base currency
	Config   *Config
}

// Amount is productID's base amount in the pricing's currency (see
// currency.Table.Amount); unchanged in the base currency.
func (p *Pricing) Amount(productID, amount int64, sale bool) int64 {
	if p.Table == nil {
		return amount
	}
	return p.Table.Amount(productID, amount, sale)
}

// basePricing is the shop's own currency.
func (s *Service) basePricing() *Pricing {
	cfg := s.config()
	return &Pricing{Currency: currency.Base(cfg.Currency), Config: cfg}
}

// pricing converts priced lines (in place: they are the priced copy, never
// the stored cart) into code's currency. The base currency, "", a service
// without currencies, or a currency no longer sold price in the base
// currency.
func (s *Service) pricing(ctx context.Context, p *cart.Priced, code string) (*Pricing, error) {
	if s.Currencies == nil || code == "" || code == s.config().Currency.Code {
		return s.basePricing(), nil
	}
	t, err := s.Currencies.Table(ctx, code)
	if errors.Is(err, currency.ErrUnknown) {
		return s.basePricing(), nil
	}
	if err != nil {
		return nil, err
	}
	if t.IsBase() {
		return s.basePricing(), nil
	}
	ids := make([]int64, 0, len(p.Lines))
	for _, l := range p.Lines {
		ids = append(ids, l.ItemID())
	}
	if err := t.Load(ctx, ids); err != nil {
		return nil, err
	}
	now := s.now()
	for i := range p.Lines {
		l := &p.Lines[i]
		sells, _ := p.Product(*l)
		l.UnitPrice = t.Amount(l.ItemID(), l.UnitPrice, sells != nil && sells.SaleActive(now))
	}
	if err := t.Err(); err != nil {
		return nil, err
	}
	cfg, err := s.config().In(t.Currency)
	if err != nil {
		return nil, err
	}
	return &Pricing{Currency: t.Currency, Table: t, Config: cfg}, nil
}

// QuoteLinesIn quotes lines (base unit prices, as cart.Service resolves
// them; converted on a copy) for cust in code's currency, as Price quotes a
// cart, with the cart's coupons that pass on these lines: what a cart
// holding only these lines would cost (the wallet's product buttons).
func (s *Service) QuoteLinesIn(ctx context.Context, lines []cart.Line, byID map[int64]*catalog.Product, cust cart.Customer, code string) (Quotation, *Pricing, error) {
	p := &cart.Priced{Lines: slices.Clone(lines), Products: byID}
	pr, err := s.pricing(ctx, p, code)
	if err != nil {
		return Quotation{}, nil, err
	}
	items := QuoteItems(p.Lines, p.Products)
	coupons, _, err := s.couponsFor(ctx, cust.Coupons, items, pr, 0, cust.Billing.Email)
	if err != nil {
		return Quotation{}, nil, err
	}
	q, err := Quote(items, Customer{Billing: cust.Billing, Shipping: cust.Shipping, RateID: cust.ShippingRate, Coupons: coupons}, pr.Config)
	return q, pr, err
}

// CurrencyChoice is where a checkout's currency goes when the shopper
// picks a payment method (CURCY's switch for gateways; see ChooseCurrency).
type CurrencyChoice struct {
	Next     string // the currency to price in now
	Changed  bool   // Next is not the shopper's currency: switch to it
	SetOld   string // remember this code as the one the checkout left ("": none)
	ClearOld bool   // forget the remembered code
	// Left is the currency the order cannot be taken in and was left for
	// the base ("" when none): the checkout tells the shopper.
	Left string
}

// ChooseCurrency decides the checkout's currency for method m: the base
// when m does not take the shopper's currency (remembering it), back to the
// remembered one (old, an enabled currency other than the base; "" none)
// when the shopper is in the base only because of that and m takes it, and
// a stale remembered code (oldCookie without a usable old, or a currency
// chosen since) is forgotten.
func (s *Service) ChooseCurrency(m payment.Method, shopper, old string, oldCookie bool) CurrencyChoice {
	base := s.config().Currency.Code
	takes := func(code string) bool { return s.SaleCurrency(m, code) == code }
	out := CurrencyChoice{Next: shopper}
	hasOld := old != ""
	switch {
	case !takes(shopper):
		out.Next, out.Changed, out.SetOld = base, true, shopper
		old, hasOld = shopper, true
	case hasOld && shopper == base && takes(old):
		out.Next, out.Changed, out.ClearOld = old, true, true
		hasOld = false
	case oldCookie && (!hasOld || shopper != base):
		out.ClearOld, hasOld = true, false
	}
	if hasOld && out.Next == base && !takes(old) {
		out.Left = old
	}
	return out
}
