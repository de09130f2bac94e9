package server

import (
	"context"
	"time"

	"vitrine/internal/cart"
	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/payment/wallet"
	"vitrine/internal/storage/sqlstore"
)

// walletPorts gives the wallet service the cart and checkout use cases it
// needs (wallet.Checkout). Each method is one call of the server's cart
// and checkout code as it is today; it holds no rule of its own, so it can
// be pointed at the cart and checkout services as they arrive.
type walletPorts struct{ s *Server }

var _ wallet.Checkout = walletPorts{}

func (p walletPorts) Cart(ctx context.Context, session string, now time.Time) (*cart.Cart, error) {
	return p.s.db.Cart(ctx, session, now)
}

func (p walletPorts) SetCustomer(ctx context.Context, session string, c cart.Customer, now time.Time) error {
	return p.s.db.SetCustomer(ctx, session, c, now, now.Add(p.s.cfg.CartLifetime))
}

func (p walletPorts) QuoteCart(ctx context.Context, session string) (wallet.QuotedCart, error) {
	obj, _, q, err := p.s.checkoutCart(ctx, session)
	if err != nil {
		return wallet.QuotedCart{}, err
	}
	return wallet.QuotedCart{Empty: len(obj.Items) == 0, Hash: cartHash(obj), Quote: q}, nil
}

func (p walletPorts) ResolveLine(ctx context.Context, id int64, chosen []cart.Attr, now time.Time) (*catalog.Product, *catalog.Product, cart.Line, error) {
	return p.s.resolveLine(ctx, id, chosen, now)
}

func (p walletPorts) Quote(lines []cart.Line, byID map[int64]*catalog.Product, c cart.Customer) (checkout.Quotation, error) {
	return p.s.quoteCart(lines, byID, c)
}

func (p walletPorts) AddToCart(ctx context.Context, session string, id, qty int64, chosen []cart.Attr, now time.Time) error {
	_, _, err := p.s.addLine(ctx, cartSession{id: session}, id, qty, chosen, now)
	return err
}

func (p walletPorts) RemoveLine(ctx context.Context, session, key string, now time.Time) error {
	return p.s.db.RemoveLine(ctx, session, key, now, now.Add(p.s.cfg.CartLifetime))
}

func (p walletPorts) RestoreLines(ctx context.Context, session string, lines []cart.Line, now time.Time) error {
	return p.s.db.RestoreCartLines(ctx, session, lines, now, now.Add(p.s.cfg.CartLifetime))
}

func (p walletPorts) ClearCart(ctx context.Context, session string) error {
	return p.s.db.ClearCart(ctx, session)
}

func (p walletPorts) PlaceFormOrder(ctx context.Context, in wallet.FormOrder) (*checkout.Order, error) {
	return p.s.placeOrder(ctx, placeRequest{sess: cartSession{id: in.Session}, billing: in.Billing, shipping: in.Shipping, note: in.Note,
		method: in.Method, attribution: in.Attribution, termsRequired: in.TermsRequired, termsAccepted: in.TermsAccepted,
		idempotencyKey: in.IdempotencyKey, body: in.Body, remote: in.Remote, userAgent: in.UserAgent, invalidPayment: in.InvalidPayment})
}

func (p walletPorts) PlaceCartOrder(ctx context.Context, in wallet.CartOrder) (*checkout.Order, error) {
	o, _, err := p.s.db.PlaceOrder(ctx, sqlstore.PlaceOrderInput{Session: in.Session, Customer: in.Customer, Method: wallet.Method,
		Status: checkout.StatusPending, Config: &p.s.cfg.Checkout, Meta: in.Meta,
		IdempotencyScope: in.IdempotencyScope, IdempotencyKey: in.IdempotencyKey, RequestHash: in.RequestHash, Now: in.Now})
	return o, err
}
