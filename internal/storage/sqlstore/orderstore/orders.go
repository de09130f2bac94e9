package orderstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/cart"
	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/payment"
	"vitrine/internal/storage/sqlstore/catalogstore"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// Orders. PlaceOrder turns a session's cart into an order in ONE write
// transaction: it claims the idempotency key, locks the cart session,
// re-reads the lines, re-checks every product against the catalogue (the
// price paid is the catalogue's, never the client's), takes stock with
// conditional UPDATEs (… WHERE stock_quantity >= n, in product-id order so
// concurrent checkouts never deadlock), prices the order with
// checkout.Quote, inserts the order with its lines and meta, empties the
// cart, logs the stock changes for the caches, and queues the order mails
// for offline methods. Any refusal rolls everything back.

// Errors of the order store (checkout's, where its use cases name them).
var (
	ErrOrderNotFound = checkout.ErrOrderNotFound
	// ErrPaymentState is a compare-and-set that found another state.
	ErrPaymentState = payment.ErrPaymentState
)

// Checkout refusals, with the Store API's codes and WooCommerce's messages.
var (
	ErrCartEmpty = checkout.ErrCartEmpty
	// ErrIdempotencyReused: the key was used for a different request.
	ErrIdempotencyReused = checkout.ErrIdempotencyReused
)

// PlaceOrderInput is a checkout to place (checkout.PlaceOrderInput).
type PlaceOrderInput = checkout.PlaceOrderInput

// PlaceOrder places the order; replayed reports an earlier order returned
// for the same attempt.
func (db *Orders) PlaceOrder(ctx context.Context, in PlaceOrderInput) (order *checkout.Order, replayed bool, err error) {
	if in.Config == nil || in.Method == nil || in.Session == "" {
		return nil, false, errors.New("place order: config, method and session are required")
	}
	now := in.Now.UTC().Truncate(time.Second)
	// Display data (attribute labels and term names) from the read pool;
	// everything that decides money and stock is re-read in the transaction.
	display := map[int64]*catalog.Product{}
	if c, err := db.carts.Cart(ctx, in.Session, now); err == nil {
		var ids []int64
		for _, l := range c.Lines {
			ids = append(ids, l.ProductID)
		}
		if ps, err := db.catalog.Products(ctx, ids); err == nil {
			for _, p := range ps {
				display[p.ID] = p
			}
		}
	}
	var replayID int64
	var sales []saleCount // counted after the commit (PostgreSQL; countSales)
	err = db.Tx(ctx, func(tx *sqlx.Tx) error {
		order, replayID, sales = nil, 0, nil
		if in.IdempotencyKey != "" {
			res, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO checkout_attempts (scope, idem_key, request_hash, order_id, status, created_at)
				VALUES (?, ?, ?, NULL, 'started', ?) ON CONFLICT (scope, idem_key) DO NOTHING`),
				in.IdempotencyScope, in.IdempotencyKey, in.RequestHash, now.Unix())
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				var prev struct {
					Hash    string        `db:"request_hash"`
					OrderID sql.NullInt64 `db:"order_id"`
				}
				if err := tx.GetContext(ctx, &prev, tx.Rebind(`SELECT request_hash, order_id FROM checkout_attempts WHERE scope = ? AND idem_key = ?`),
					in.IdempotencyScope, in.IdempotencyKey); err != nil {
					return err
				}
				if prev.Hash != in.RequestHash || !prev.OrderID.Valid {
					return ErrIdempotencyReused
				}
				replayID = prev.OrderID.Int64
				return nil
			}
		}
		o, counts, err := db.placeOrderTx(ctx, tx, in, now, display)
		if errors.Is(err, ErrCartEmpty) && in.ReplayWindow > 0 && in.IdempotencyKey != "" {
			var id int64
			qerr := tx.GetContext(ctx, &id, tx.Rebind(`SELECT order_id FROM checkout_attempts
				WHERE scope = ? AND request_hash = ? AND created_at >= ? AND order_id IS NOT NULL AND status = 'completed'
				ORDER BY created_at DESC LIMIT 1`), in.IdempotencyScope, in.RequestHash, now.Add(-in.ReplayWindow).Unix())
			if qerr == nil {
				replayID = id
				_, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE checkout_attempts SET order_id = ?, status = 'replayed' WHERE scope = ? AND idem_key = ?`),
					id, in.IdempotencyScope, in.IdempotencyKey)
				return err
			}
			if !errors.Is(qerr, sql.ErrNoRows) {
				return qerr
			}
		}
		if err != nil {
			return err
		}
		if in.IdempotencyKey != "" {
			if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE checkout_attempts SET order_id = ?, status = 'completed' WHERE scope = ? AND idem_key = ?`),
				o.ID, in.IdempotencyScope, in.IdempotencyKey); err != nil {
				return err
			}
		}
		order, sales = o, counts
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	db.countSales(ctx, sales)
	if replayID != 0 {
		o, err := db.Order(ctx, replayID)
		return o, true, err
	}
	return order, false, nil
}

type stockUse struct {
	qty     int64 // units taken from this row's stock
	name    string
	managed bool
}

// placeOrderTx does the work of PlaceOrder inside tx.
func (db *Orders) placeOrderTx(ctx context.Context, tx *sqlx.Tx, in PlaceOrderInput, now time.Time, display map[int64]*catalog.Product) (*checkout.Order, []saleCount, error) {
	// Lock the session (PostgreSQL: its row until commit), so two attempts
	// with different keys cannot both order the same lines.
	res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE cart_sessions SET updated_at = ? WHERE id = ? AND expires_at > ?`), now, in.Session, now.Unix())
	if err != nil {
		return nil, nil, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, nil, ErrCartEmpty
	}
	var rows []struct {
		ProductID   int64  `db:"product_id"`
		VariationID int64  `db:"variation_id"`
		Attributes  string `db:"attributes"`
		Quantity    int64  `db:"quantity"`
		Key         string `db:"line_key"`
	}
	if err := tx.SelectContext(ctx, &rows, tx.Rebind(`SELECT line_key, product_id, variation_id, attributes, quantity
		FROM cart_lines WHERE session_id = ? ORDER BY position, line_key`+sqlcore.Limit(cart.MaxLines+1)), in.Session); err != nil {
		return nil, nil, err
	}
	if len(rows) > cart.MaxLines { // a cart stored before the limit: refuse, never a 500
		return nil, nil, cart.ErrTooManyLines
	}
	if len(rows) == 0 {
		return nil, nil, ErrCartEmpty
	}
	ids := make([]int64, 0, 2*len(rows))
	for _, r := range rows {
		ids = append(ids, r.ProductID)
		if r.VariationID != 0 {
			ids = append(ids, r.VariationID)
		}
	}
	byID, err := catalogstore.ProductsByIDTx(ctx, tx, ids)
	if err != nil {
		return nil, nil, err
	}

	var outOfStock, partial, notPurchasable, tooMany []string
	uses := map[int64]*stockUse{} // stock rows to decrement
	sales := map[int64]int64{}    // parent product → units sold
	o := &checkout.Order{Key: checkout.NewOrderKey(), Status: in.Status, Currency: in.Config.Currency.Code,
		CurrencyRate: "1", BaseCurrency: in.Config.Currency.Code,
		Billing: in.Customer.Billing, Shipping: in.Customer.Shipping, CustomerNote: in.CustomerNote,
		PaymentMethod: in.Method.ID(), PaymentMethodTitle: in.Method.Title(), CartSession: in.Session, CustomerID: in.CustomerID,
		CreatedAt: now, UpdatedAt: now, PaymentState: checkout.PayNone, Meta: in.Meta}
	if t := in.Currency; t != nil && !t.IsBase() {
		o.CurrencyRate, o.BaseCurrency = t.Currency.Rate.String(), t.Currency.BaseCode
	}
	items := make([]checkout.Item, 0, len(rows))
	for _, r := range rows {
		parent := byID[r.ProductID]
		sell := parent
		if r.VariationID != 0 {
			sell = byID[r.VariationID]
		}
		name := "A product"
		if parent != nil {
			name = parent.Name
		}
		var pp *catalog.Product
		if r.VariationID != 0 {
			pp = parent
		}
		if sell == nil || parent == nil || (r.VariationID != 0 && sell.ParentID != parent.ID) || !sell.IsPurchasable(now) ||
			sell.Type == catalog.TypeVariable || (pp != nil && (!pp.Published() || !pp.Purchasable)) {
			notPurchasable = append(notPurchasable, name)
			continue
		}
		if sell.SoldIndividually && r.Quantity > 1 {
			tooMany = append(tooMany, name)
			continue
		}
		if r.Quantity < 1 || r.Quantity > checkout.MaxQuantity {
			partial = append(partial, name)
			continue
		}
		// Stock managed on the parent applies to variations that do not
		// manage their own.
		holder := sell
		if !sell.ManageStock && pp != nil && pp.ManageStock {
			holder = pp
		}
		if holder.StockStatus == catalog.StockOutOfStock && !holder.ManageStock {
			outOfStock = append(outOfStock, name)
			continue
		}
		if holder.ManageStock {
			u := uses[holder.ID]
			if u == nil {
				u = &stockUse{name: name, managed: true}
				uses[holder.ID] = u
			}
			u.qty += r.Quantity
		}
		sales[parent.ID] += r.Quantity
		price, _ := sell.Price(now)
		if t := in.Currency; t != nil {
			// The shopper's currency: the price re-read now, converted as
			// the cart was (Table: fixed prices loaded for its items).
			price = t.Amount(sell.ID, price, sell.SaleActive(now))
		}
		var attrs []cart.Attr
		if err := json.Unmarshal([]byte(r.Attributes), &attrs); err != nil {
			return nil, nil, fmt.Errorf("cart line attributes: %w", err)
		}
		sku := sell.SKU
		if sku == "" {
			sku = parent.SKU
		}
		taxStatus := sell.TaxStatus
		if taxStatus == "" && pp != nil {
			taxStatus = pp.TaxStatus
		}
		o.Lines = append(o.Lines, checkout.Line{ProductID: parent.ID, VariationID: r.VariationID, Name: parent.Name, SKU: sku,
			Variation: cart.DisplayAttrs(display[parent.ID], attrs), Quantity: r.Quantity, UnitPrice: price})
		it := checkout.Item{Key: r.Key, Name: parent.Name, Quantity: r.Quantity, UnitPrice: price,
			Taxable: taxStatus != "none" && taxStatus != "shipping", ProductID: parent.ID, VariationID: r.VariationID}
		if d := display[parent.ID]; d != nil {
			it.CategoryIDs = checkout.CategoryIDs(d) // categories are not money: the read pool's copy
		}
		items = append(items, it)
	}
	// Take stock row by row in id order (a fixed lock order). Products
	// without managed stock only count the sale (total_sales), as the last
	// writes of the transaction (salesOnly below): the row lock that
	// serializes every order of a best-seller is then held for that one
	// statement and the commit, not for the whole order.
	rowIDs := make([]int64, 0, len(uses))
	salesOnly := make([]int64, 0, len(sales))
	for id := range uses {
		rowIDs = append(rowIDs, id)
	}
	for id := range sales {
		if uses[id] == nil {
			salesOnly = append(salesOnly, id)
		}
	}
	slices.Sort(rowIDs)
	slices.Sort(salesOnly)
	type change struct {
		id   int64
		kind string
	}
	var changes []change
	for _, id := range rowIDs {
		u := uses[id]
		var left sql.NullInt64
		err := tx.GetContext(ctx, &left, tx.Rebind(`UPDATE products SET
				stock_quantity = stock_quantity - ?,
				total_sales = total_sales + ?,
				stock_status = CASE WHEN stock_quantity - ? > 0 THEN 'instock' WHEN backorders = 'no' THEN 'outofstock' ELSE 'onbackorder' END,
				stock_moves = stock_moves + 1,
				updated_at = ?
			WHERE id = ? AND manage_stock = ? AND stock_quantity IS NOT NULL AND (stock_quantity >= ? OR backorders <> 'no')
			RETURNING stock_quantity`), u.qty, sales[id], u.qty, now, id, true, u.qty)
		if errors.Is(err, sql.ErrNoRows) {
			var have sql.NullInt64
			if err := tx.GetContext(ctx, &have, tx.Rebind(`SELECT stock_quantity FROM products WHERE id = ?`), id); err != nil {
				return nil, nil, err
			}
			if !have.Valid || have.Int64 <= 0 {
				outOfStock = append(outOfStock, u.name)
			} else {
				partial = append(partial, u.name)
			}
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		kind := "stock"
		if left.Int64 <= 0 && left.Int64+u.qty > 0 {
			kind = "product" // the stock status changed: pages show it
		}
		changes = append(changes, change{id, kind})
	}
	if err := stockError(outOfStock, notPurchasable, tooMany, partial); err != nil {
		return nil, nil, err
	}
	if t := in.Currency; t != nil && t.Err() != nil {
		return nil, nil, t.Err()
	}
	if len(in.Coupons) > 0 {
		if err := claimCoupons(ctx, tx, in.Coupons, in.CustomerID, in.Customer.Billing.Email, now); err != nil {
			return nil, nil, err
		}
	}
	cust := in.Customer
	cust.Coupons = in.Coupons
	q, err := checkout.Quote(items, cust, in.Config)
	if err != nil {
		return nil, nil, err
	}
	o.FromQuote(q)
	billing, _ := json.Marshal(o.Billing)
	shipping, _ := json.Marshal(o.Shipping)
	shipLines, _ := json.Marshal(orEmptySlice(o.ShippingLines))
	taxLines, _ := json.Marshal(orEmptySlice(o.TaxLines))
	var paidAt sql.NullInt64
	if in.Paid { // staff record the payment as they create the order
		o.PaymentState, o.PaidAt = checkout.PayPaid, &now
		paidAt = sql.NullInt64{Int64: now.Unix(), Valid: true}
	}
	if err := tx.GetContext(ctx, &o.ID, tx.Rebind(`INSERT INTO orders (order_key, status, currency, currency_rate, base_currency, prices_include_tax, billing, shipping,
			billing_email, customer_note, payment_method, payment_method_title, shipping_lines, tax_lines,
			items_subtotal, items_tax, shipping_total, shipping_tax, discount_total, discount_tax, total_tax, total, cart_session, created_at, updated_at,
			payment_state, customer_id, paid_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		o.Key, o.Status, o.Currency, o.CurrencyRate, o.BaseCurrency, o.PricesIncludeTax, string(billing), string(shipping), o.Billing.Email, o.CustomerNote,
		o.PaymentMethod, o.PaymentMethodTitle, string(shipLines), string(taxLines), o.ItemsSubtotal, o.ItemsTax,
		o.ShippingTotal, o.ShippingTax, o.DiscountTotal, o.DiscountTax, o.TotalTax, o.Total, o.CartSession, now.Unix(), now.Unix(), o.PaymentState,
		sqlcore.NullID(in.CustomerID), paidAt); err != nil {
		return nil, nil, fmt.Errorf("insert order: %w", err)
	}
	o.Number = strconv.FormatInt(o.ID, 10)
	if err := sqlcore.EnqueueWebhooksTx(ctx, tx, "order.created", o.ID, now); err != nil {
		return nil, nil, err
	}
	for i, l := range o.Lines {
		attrs, _ := json.Marshal(orEmptySlice(l.Variation))
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO order_lines (order_id, position, product_id, variation_id, name, sku,
				attributes, quantity, unit_price, subtotal, subtotal_tax, total, total_tax) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
			o.ID, i, l.ProductID, l.VariationID, l.Name, l.SKU, string(attrs), l.Quantity, l.UnitPrice, l.Subtotal, l.SubtotalTax,
			l.Total, l.TotalTax); err != nil {
			return nil, nil, fmt.Errorf("insert order line: %w", err)
		}
	}
	keys := make([]string, 0, len(o.Meta))
	for k := range o.Meta {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO order_meta (order_id, meta_key, value) VALUES (?, ?, ?)`), o.ID, k, o.Meta[k]); err != nil {
			return nil, nil, err
		}
	}
	if err := insertOrderCoupons(ctx, tx, o, in.Coupons); err != nil {
		return nil, nil, err
	}
	if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM cart_lines WHERE session_id = ?`), in.Session); err != nil {
		return nil, nil, err
	}
	if len(in.Coupons) > 0 {
		if err := clearCartCoupons(ctx, tx, in.Session); err != nil {
			return nil, nil, err
		}
	}
	for _, c := range changes {
		if err := db.RecordChange(ctx, tx, c.id, c.kind); err != nil {
			return nil, nil, err
		}
	}
	if in.Method.Offline() {
		if err := enqueueOrderMails(ctx, tx, o.ID, now); err != nil {
			return nil, nil, err
		}
	}
	// The sales count of products without managed stock (see above): on
	// PostgreSQL after the commit (countSales); on SQLite, whose one
	// writer has no row locks to wait on, here, last, in id order.
	counts := make([]saleCount, 0, len(salesOnly))
	for _, id := range salesOnly {
		counts = append(counts, saleCount{id: id, qty: sales[id]})
	}
	if db.Engine == sqlcore.Postgres {
		return o, counts, nil
	}
	if err := countSalesTx(ctx, tx, counts); err != nil {
		return nil, nil, err
	}
	return o, nil, nil
}

// saleCount is units sold of a product whose stock is not managed.
type saleCount struct{ id, qty int64 }

func countSalesTx(ctx context.Context, tx *sqlx.Tx, counts []saleCount) error {
	for _, c := range counts {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE products SET total_sales = total_sales + ? WHERE id = ?`), c.qty, c.id); err != nil {
			return err
		}
	}
	return nil
}

// countSales adds the sales counts of an order that has committed, on
// PostgreSQL, in a transaction of its own with synchronous_commit off: the
// product's row lock, which every order of a best-seller queues for, is
// held for one UPDATE and a commit that does not wait for the WAL flush,
// instead of for the whole order and its flush. The counter is a
// statistic (popularity sorting, the admin's sales column), not money: a
// crash between the order's commit and this one loses those units from
// it, as WooCommerce's own separate update of the counts can. A failure is
// logged; the order stands.
func (db *Orders) countSales(ctx context.Context, counts []saleCount) {
	if len(counts) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, `SET LOCAL synchronous_commit TO OFF`); err != nil {
			return err
		}
		return countSalesTx(ctx, tx, counts)
	})
	if err != nil {
		db.Log.Warn("count sales", "err", err)
	}
}

func enqueueOrderMails(ctx context.Context, tx *sqlx.Tx, id int64, now time.Time) error {
	ref := strconv.FormatInt(id, 10)
	if err := sqlcore.EnqueueMailTx(ctx, tx, "order_confirmation", ref, "order:"+ref+":confirmation", now); err != nil {
		return err
	}
	return sqlcore.EnqueueMailTx(ctx, tx, "new_order", ref, "order:"+ref+":new_order", now)
}

func orEmptySlice[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// stockError turns refused lines into WooCommerce's checkout error: 409,
// one code per kind (the first kind found wins the code), the product
// names joined naturally ("A, B and C").
func stockError(outOfStock, notPurchasable, tooMany, partial []string) error {
	type kind struct {
		names            []string
		code             string
		singular, plural string
	}
	kinds := []kind{
		{outOfStock, "woocommerce_rest_product_out_of_stock",
			"%s is out of stock and cannot be purchased. Please remove it from your cart.",
			"%s are out of stock and cannot be purchased. Please remove them from your cart."},
		{notPurchasable, "woocommerce_rest_product_not_purchasable",
			"%s cannot be purchased. Please remove it from your cart.",
			"%s cannot be purchased. Please remove them from your cart."},
		{tooMany, "woocommerce_rest_product_too_many_in_cart",
			"There are too many %s in the cart. Only 1 can be purchased. Please reduce the quantity in your cart.",
			"There are too many %s in the cart. Only 1 of each can be purchased. Please reduce the quantities in your cart."},
		{partial, "woocommerce_rest_product_partially_out_of_stock",
			"There is not enough %s in stock. Please reduce the quantity in your cart.",
			"There are not enough %s in stock. Please reduce the quantities in your cart."},
	}
	var first *cart.Error
	var msgs []string
	for _, k := range kinds {
		if len(k.names) == 0 {
			continue
		}
		names := make([]string, len(k.names))
		for i, n := range k.names {
			names[i] = html.EscapeString(n)
		}
		f := k.singular
		if len(names) > 1 {
			f = k.plural
		}
		msg := fmt.Sprintf(f, naturalJoin(names))
		msgs = append(msgs, msg)
		if first == nil {
			first = &cart.Error{Status: 409, Code: k.code}
		}
	}
	if first == nil {
		return nil
	}
	first.Message = strings.Join(msgs, " ")
	return first
}

func naturalJoin(s []string) string {
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// --- reading orders ---

type orderRow struct {
	ID                 int64         `db:"id"`
	Key                string        `db:"order_key"`
	Status             string        `db:"status"`
	Currency           string        `db:"currency"`
	CurrencyRate       string        `db:"currency_rate"`
	BaseCurrency       string        `db:"base_currency"`
	PricesIncludeTax   bool          `db:"prices_include_tax"`
	Billing            string        `db:"billing"`
	Shipping           string        `db:"shipping"`
	CustomerNote       string        `db:"customer_note"`
	PaymentMethod      string        `db:"payment_method"`
	PaymentMethodTitle string        `db:"payment_method_title"`
	TransactionID      string        `db:"transaction_id"`
	ShippingLines      string        `db:"shipping_lines"`
	TaxLines           string        `db:"tax_lines"`
	FeeLines           string        `db:"fee_lines"`
	ItemsSubtotal      int64         `db:"items_subtotal"`
	ItemsTax           int64         `db:"items_tax"`
	ShippingTotal      int64         `db:"shipping_total"`
	ShippingTax        int64         `db:"shipping_tax"`
	DiscountTotal      int64         `db:"discount_total"`
	DiscountTax        int64         `db:"discount_tax"`
	TotalTax           int64         `db:"total_tax"`
	Total              int64         `db:"total"`
	CartSession        string        `db:"cart_session"`
	CreatedAt          int64         `db:"created_at"`
	UpdatedAt          int64         `db:"updated_at"`
	PaidAt             sql.NullInt64 `db:"paid_at"`
	PaymentState       string        `db:"payment_state"`
	ProviderOrderID    string        `db:"provider_order_id"`
	ProviderRequestID  string        `db:"provider_request_id"`
	CaptureID          string        `db:"capture_id"`
	CustomerID         sql.NullInt64 `db:"customer_id"`
	AnonymisedAt       sql.NullInt64 `db:"anonymised_at"`
}

const orderSelect = `SELECT id, order_key, status, currency, currency_rate, base_currency, prices_include_tax, billing, shipping, customer_note,
	payment_method, payment_method_title, transaction_id, shipping_lines, tax_lines, fee_lines, items_subtotal, items_tax,
	shipping_total, shipping_tax, discount_total, discount_tax, total_tax, total, cart_session, created_at, updated_at, paid_at,
	payment_state, provider_order_id, provider_request_id, capture_id, customer_id, anonymised_at FROM orders`

// Order loads an order with its lines and meta.
func (db *Orders) Order(ctx context.Context, id int64) (*checkout.Order, error) {
	return db.orderWhere(ctx, `id = ?`, id)
}

// OrderByKey loads an order by its order key.
func (db *Orders) OrderByKey(ctx context.Context, key string) (*checkout.Order, error) {
	return db.orderWhere(ctx, `order_key = ?`, key)
}

// OrderByProviderOrderID loads the order a wallet order id belongs to.
func (db *Orders) OrderByProviderOrderID(ctx context.Context, providerOrderID string) (*checkout.Order, error) {
	if providerOrderID == "" {
		return nil, ErrOrderNotFound
	}
	return db.orderWhere(ctx, `provider_order_id = ?`, providerOrderID)
}

func (db *Orders) orderWhere(ctx context.Context, where string, arg any) (*checkout.Order, error) {
	os, err := db.ordersWhere(ctx, where+` LIMIT 1`, arg)
	if err != nil {
		return nil, err
	}
	if len(os) == 0 {
		return nil, ErrOrderNotFound
	}
	return os[0], nil
}

func (db *Orders) ordersWhere(ctx context.Context, where string, args ...any) ([]*checkout.Order, error) {
	var rows []orderRow
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(orderSelect+` WHERE `+where), args...); err != nil {
		return nil, fmt.Errorf("load orders: %w", err)
	}
	out := make([]*checkout.Order, 0, len(rows))
	byID := map[int64]*checkout.Order{}
	ids := make([]int64, 0, len(rows))
	for _, r := range rows {
		o := &checkout.Order{ID: r.ID, Number: strconv.FormatInt(r.ID, 10), Key: r.Key, Status: r.Status, Currency: r.Currency,
			CurrencyRate: r.CurrencyRate, BaseCurrency: r.BaseCurrency,
			PricesIncludeTax: r.PricesIncludeTax, CustomerNote: r.CustomerNote, PaymentMethod: r.PaymentMethod,
			PaymentMethodTitle: r.PaymentMethodTitle, TransactionID: r.TransactionID, ItemsSubtotal: r.ItemsSubtotal,
			ItemsTax: r.ItemsTax, ShippingTotal: r.ShippingTotal, ShippingTax: r.ShippingTax, DiscountTotal: r.DiscountTotal, DiscountTax: r.DiscountTax,
			TotalTax: r.TotalTax, Total: r.Total, CartSession: r.CartSession, CreatedAt: time.Unix(r.CreatedAt, 0).UTC(),
			UpdatedAt: time.Unix(r.UpdatedAt, 0).UTC(), PaymentState: r.PaymentState, ProviderOrderID: r.ProviderOrderID,
			ProviderRequestID: r.ProviderRequestID, CaptureID: r.CaptureID, CustomerID: r.CustomerID.Int64, Meta: map[string]string{}, Lines: []checkout.Line{}}
		if o.BaseCurrency == "" { // placed before orders kept their base
			o.BaseCurrency = o.Currency
		}
		if r.PaidAt.Valid {
			t := time.Unix(r.PaidAt.Int64, 0).UTC()
			o.PaidAt = &t
		}
		if r.AnonymisedAt.Valid {
			t := time.Unix(r.AnonymisedAt.Int64, 0).UTC()
			o.AnonymisedAt = &t
		}
		for _, j := range []struct {
			raw string
			v   any
		}{{r.Billing, &o.Billing}, {r.Shipping, &o.Shipping}, {r.ShippingLines, &o.ShippingLines}, {r.TaxLines, &o.TaxLines}} {
			if err := json.Unmarshal([]byte(j.raw), j.v); err != nil {
				return nil, fmt.Errorf("order %d: %w", r.ID, err)
			}
		}
		if r.FeeLines != "[]" { // none but on orders moved in (FeeLines stays nil)
			if err := json.Unmarshal([]byte(r.FeeLines), &o.FeeLines); err != nil {
				return nil, fmt.Errorf("order %d fees: %w", r.ID, err)
			}
		}
		out = append(out, o)
		byID[o.ID] = o
		ids = append(ids, o.ID)
	}
	if len(ids) == 0 {
		return out, nil
	}
	in, args2 := sqlcore.InClause(ids)
	var lines []struct {
		OrderID     int64  `db:"order_id"`
		ProductID   int64  `db:"product_id"`
		VariationID int64  `db:"variation_id"`
		Name        string `db:"name"`
		SKU         string `db:"sku"`
		Attributes  string `db:"attributes"`
		Quantity    int64  `db:"quantity"`
		UnitPrice   int64  `db:"unit_price"`
		Subtotal    int64  `db:"subtotal"`
		SubtotalTax int64  `db:"subtotal_tax"`
		Total       int64  `db:"total"`
		TotalTax    int64  `db:"total_tax"`
	}
	if err := db.Read.SelectContext(ctx, &lines, db.Read.Rebind(`SELECT order_id, product_id, variation_id, name, sku, attributes,
		quantity, unit_price, subtotal, subtotal_tax, total, total_tax FROM order_lines WHERE order_id IN `+in+` ORDER BY order_id, position`), args2...); err != nil {
		return nil, fmt.Errorf("load order lines: %w", err)
	}
	for _, l := range lines {
		line := checkout.Line{ProductID: l.ProductID, VariationID: l.VariationID, Name: l.Name, SKU: l.SKU, Quantity: l.Quantity,
			UnitPrice: l.UnitPrice, Subtotal: l.Subtotal, SubtotalTax: l.SubtotalTax, Total: l.Total, TotalTax: l.TotalTax}
		if err := json.Unmarshal([]byte(l.Attributes), &line.Variation); err != nil {
			return nil, err
		}
		byID[l.OrderID].Lines = append(byID[l.OrderID].Lines, line)
	}
	var meta []struct {
		OrderID int64  `db:"order_id"`
		Key     string `db:"meta_key"`
		Value   string `db:"value"`
	}
	if err := db.Read.SelectContext(ctx, &meta, db.Read.Rebind(`SELECT order_id, meta_key, value FROM order_meta WHERE order_id IN `+in), args2...); err != nil {
		return nil, fmt.Errorf("load order meta: %w", err)
	}
	for _, m := range meta {
		byID[m.OrderID].Meta[m.Key] = m.Value
	}
	var coupons []struct {
		OrderID     int64  `db:"order_id"`
		Code        string `db:"code"`
		Type        string `db:"discount_type"`
		Discount    int64  `db:"discount"`
		DiscountTax int64  `db:"discount_tax"`
	}
	if err := db.Read.SelectContext(ctx, &coupons, db.Read.Rebind(`SELECT order_id, code, discount_type, discount, discount_tax
		FROM order_coupons WHERE order_id IN `+in+` ORDER BY order_id, position`), args2...); err != nil {
		return nil, fmt.Errorf("load order coupons: %w", err)
	}
	for _, c := range coupons {
		o := byID[c.OrderID]
		o.Coupons = append(o.Coupons, checkout.CouponAmount{Code: c.Code, Type: c.Type, Discount: c.Discount, DiscountTax: c.DiscountTax})
	}
	return out, nil
}

// --- changing orders ---

// SetOrderStatus moves an order to a status the transition rules allow
// (checkout.CanTransition); checkout.ErrTransition otherwise.
func (db *Orders) SetOrderStatus(ctx context.Context, id int64, to string, now time.Time) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		var from string
		err := tx.GetContext(ctx, &from, tx.Rebind(`SELECT status FROM orders WHERE id = ?`), id)
		if err != nil {
			return sqlcore.NoRow(err, ErrOrderNotFound)
		}
		if !checkout.CanTransition(from, to) {
			return fmt.Errorf("%w: %s → %s", checkout.ErrTransition, from, to)
		}
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE orders SET status = ?, updated_at = ? WHERE id = ? AND status = ?`),
			to, now.Unix(), id, from)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("%w: the status changed meanwhile", checkout.ErrTransition)
		}
		return sqlcore.EnqueueWebhooksTx(ctx, tx, "order.updated", id, now)
	})
}

// PaymentFields are the wallet ids SetPaymentState records; empty ones are
// left as they are (the payment package's type, so services that define
// their own store interface name it without naming the store).
type PaymentFields = payment.ProviderIDs

// SetPaymentState moves an order's payment state from one state to the next
// as a compare-and-set: ErrPaymentState when the order is no longer in
// from (another request moved it), checkout.ErrTransition for a move the
// state machine refuses. The paid state is reached through MarkOrderPaid.
func (db *Orders) SetPaymentState(ctx context.Context, id int64, from, to string, f PaymentFields, now time.Time) error {
	if to == checkout.PayPaid || !checkout.CanMovePayment(from, to) {
		return fmt.Errorf("%w: payment %s → %s", checkout.ErrTransition, from, to)
	}
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE orders SET payment_state = ?,
				provider_order_id = CASE WHEN ? = '' THEN provider_order_id ELSE ? END,
				provider_request_id = CASE WHEN ? = '' THEN provider_request_id ELSE ? END,
				capture_id = CASE WHEN ? = '' THEN capture_id ELSE ? END,
				updated_at = ?
			WHERE id = ? AND payment_state = ?`),
			to, f.ProviderOrderID, f.ProviderOrderID, f.ProviderRequestID, f.ProviderRequestID, f.CaptureID, f.CaptureID,
			now.Unix(), id, from)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			var have string
			err := tx.GetContext(ctx, &have, tx.Rebind(`SELECT payment_state FROM orders WHERE id = ?`), id)
			if err != nil {
				return sqlcore.NoRow(err, ErrOrderNotFound)
			}
			return fmt.Errorf("%w: it is %s, not %s", ErrPaymentState, have, from)
		}
		return nil
	})
}

// MarkOrderPaid records a completed payment (captureID is the provider's
// capture or transaction id): payment state paid, paid time, the status
// processing (from pending, on-hold, failed, cancelled or draft), and the
// two order mails queued in the same transaction. It is idempotent: on an
// order already paid it changes nothing and reports false.
func (db *Orders) MarkOrderPaid(ctx context.Context, id int64, captureID string, now time.Time) (changed bool, err error) {
	err = db.Tx(ctx, func(tx *sqlx.Tx) error {
		changed = false
		in, statuses := sqlcore.InClause(checkout.PaidStatuses)
		args := []any{checkout.PayPaid, captureID, captureID, captureID, captureID, now.Unix()}
		args = append(args, statuses...)
		args = append(args, checkout.StatusProcessing, now.Unix(), id)
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE orders SET payment_state = ?,
				capture_id = CASE WHEN ? = '' THEN capture_id ELSE ? END,
				transaction_id = CASE WHEN ? = '' THEN transaction_id ELSE ? END,
				paid_at = ?,
				status = CASE WHEN status IN `+in+` THEN ? ELSE status END,
				updated_at = ?
			WHERE id = ? AND paid_at IS NULL`), args...)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			var one int
			err := tx.GetContext(ctx, &one, tx.Rebind(`SELECT 1 FROM orders WHERE id = ?`), id)
			if errors.Is(err, sql.ErrNoRows) {
				return ErrOrderNotFound
			}
			return err
		}
		changed = true
		if err := sqlcore.EnqueueWebhooksTx(ctx, tx, "order.updated", id, now); err != nil {
			return err
		}
		return enqueueOrderMails(ctx, tx, id, now)
	})
	return changed, err
}

// OrdersInPaymentState lists orders in a payment state whose last change is
// at or before olderThan (for the reconciler), oldest first, at most 500.
func (db *Orders) OrdersInPaymentState(ctx context.Context, state string, olderThan time.Time) ([]*checkout.Order, error) {
	return db.ordersWhere(ctx, `payment_state = ? AND updated_at <= ? ORDER BY updated_at, id LIMIT 500`, state, olderThan.Unix())
}

// RecordWebhookEvent remembers a provider event id; isNew is false when it
// was seen before (a duplicate delivery to ignore).
func (db *Orders) RecordWebhookEvent(ctx context.Context, eventID string) (isNew bool, err error) {
	return db.ExecOne(ctx, `INSERT INTO webhook_events (event_id, received_at) VALUES (?, ?) ON CONFLICT (event_id) DO NOTHING`,
		eventID, db.Now().Unix())
}
