package orderstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/checkout"
	"vitrine/internal/coupon"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// Coupons (internal/coupon): the admin's writes and reads, the checkout's
// look-ups, and the use counted in an order's transaction (claimCoupons,
// called by placeOrderTx).

type couponRow struct {
	ID                  int64         `db:"id"`
	Code                string        `db:"code"`
	Description         string        `db:"description"`
	Type                string        `db:"discount_type"`
	Amount              int64         `db:"amount"`
	Expires             sql.NullInt64 `db:"date_expires"`
	MinimumAmount       int64         `db:"minimum_amount"`
	UsageLimit          int64         `db:"usage_limit"`
	UsageLimitPerUser   int64         `db:"usage_limit_per_user"`
	UsageCount          int64         `db:"usage_count"`
	IndividualUse       bool          `db:"individual_use"`
	ProductIDs          string        `db:"product_ids"`
	ExcludedProductIDs  string        `db:"excluded_product_ids"`
	CategoryIDs         string        `db:"product_categories"`
	ExcludedCategoryIDs string        `db:"excluded_product_categories"`
	CreatedAt           int64         `db:"created_at"`
	UpdatedAt           int64         `db:"updated_at"`
}

const couponCols = `id, code, description, discount_type, amount, date_expires, minimum_amount, usage_limit, usage_limit_per_user,
	usage_count, individual_use, product_ids, excluded_product_ids, product_categories, excluded_product_categories, created_at, updated_at`

func (r couponRow) coupon() (*coupon.Coupon, error) {
	c := &coupon.Coupon{ID: r.ID, Code: r.Code, Description: r.Description, Type: r.Type, Amount: r.Amount,
		MinimumAmount: r.MinimumAmount, UsageLimit: r.UsageLimit, UsageLimitPerUser: r.UsageLimitPerUser, UsageCount: r.UsageCount,
		IndividualUse: r.IndividualUse, Created: time.Unix(r.CreatedAt, 0).UTC(), Updated: time.Unix(r.UpdatedAt, 0).UTC()}
	if r.Expires.Valid {
		t := time.Unix(r.Expires.Int64, 0).UTC()
		c.Expires = &t
	}
	for _, l := range []struct {
		raw string
		dst *[]int64
	}{{r.ProductIDs, &c.ProductIDs}, {r.ExcludedProductIDs, &c.ExcludedProductIDs}, {r.CategoryIDs, &c.CategoryIDs},
		{r.ExcludedCategoryIDs, &c.ExcludedCategoryIDs}} {
		if err := json.Unmarshal([]byte(l.raw), l.dst); err != nil {
			return nil, fmt.Errorf("coupon %d: %w", r.ID, err)
		}
		if *l.dst == nil {
			*l.dst = []int64{}
		}
	}
	return c, nil
}

func idList(ids []int64) string {
	if len(ids) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(ids)
	return string(b)
}

func expiresArg(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.Unix()
}

// CreateCoupon implements coupon.Store.
func (db *Orders) CreateCoupon(ctx context.Context, c *coupon.Coupon) (int64, error) {
	var id int64
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		if err := tx.GetContext(ctx, &id, tx.Rebind(`INSERT INTO coupons (code, description, discount_type, amount, date_expires,
			minimum_amount, usage_limit, usage_limit_per_user, individual_use, product_ids, excluded_product_ids, product_categories,
			excluded_product_categories, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
			c.Code, c.Description, c.Type, c.Amount, expiresArg(c.Expires), c.MinimumAmount, c.UsageLimit, c.UsageLimitPerUser,
			c.IndividualUse, idList(c.ProductIDs), idList(c.ExcludedProductIDs), idList(c.CategoryIDs), idList(c.ExcludedCategoryIDs),
			c.Created.Unix(), c.Updated.Unix()); err != nil {
			return err
		}
		return sqlcore.EnqueueWebhooksTx(ctx, tx, "coupon.created", id, c.Created)
	})
	if err != nil && sqlcore.UniqueViolation(err) {
		return 0, coupon.ErrCodeTaken
	}
	return id, err
}

// UpdateCoupon implements coupon.Store: every field but the usage count,
// which only orders change.
func (db *Orders) UpdateCoupon(ctx context.Context, c *coupon.Coupon) error {
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE coupons SET code = ?, description = ?, discount_type = ?, amount = ?,
			date_expires = ?, minimum_amount = ?, usage_limit = ?, usage_limit_per_user = ?, individual_use = ?, product_ids = ?,
			excluded_product_ids = ?, product_categories = ?, excluded_product_categories = ?, updated_at = ?
		WHERE id = ?`),
			c.Code, c.Description, c.Type, c.Amount, expiresArg(c.Expires), c.MinimumAmount, c.UsageLimit, c.UsageLimitPerUser,
			c.IndividualUse, idList(c.ProductIDs), idList(c.ExcludedProductIDs), idList(c.CategoryIDs), idList(c.ExcludedCategoryIDs),
			c.Updated.Unix(), c.ID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return coupon.ErrNotFound
		}
		return sqlcore.EnqueueWebhooksTx(ctx, tx, "coupon.updated", c.ID, c.Updated)
	})
	if err != nil && sqlcore.UniqueViolation(err) {
		return coupon.ErrCodeTaken
	}
	return err
}

// DeleteCoupon implements coupon.Store (orders keep their copy).
func (db *Orders) DeleteCoupon(ctx context.Context, id int64) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM coupons WHERE id = ?`), id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return coupon.ErrNotFound
		}
		return sqlcore.EnqueueWebhooksTx(ctx, tx, "coupon.deleted", id, db.Now())
	})
}

// Coupon implements coupon.Store.
func (db *Orders) Coupon(ctx context.Context, id int64) (*coupon.Coupon, error) {
	return db.couponWhere(ctx, `id = ?`, id)
}

// CouponByCode implements coupon.Store and checkout.CouponStore.
func (db *Orders) CouponByCode(ctx context.Context, code string) (*coupon.Coupon, error) {
	return db.couponWhere(ctx, `code = ?`, code)
}

func (db *Orders) couponWhere(ctx context.Context, where string, arg any) (*coupon.Coupon, error) {
	var r couponRow
	err := db.Read.GetContext(ctx, &r, db.Read.Rebind(`SELECT `+couponCols+` FROM coupons WHERE `+where), arg)
	if err != nil {
		return nil, sqlcore.NoRow(err, coupon.ErrNotFound)
	}
	return r.coupon()
}

// Coupons implements coupon.Store: newest first, codes containing the
// search.
func (db *Orders) Coupons(ctx context.Context, f coupon.Filter) ([]*coupon.Coupon, int, error) {
	where, args := "", []any{}
	if f.Search != "" {
		like := "%" + strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(f.Search) + "%"
		where, args = ` WHERE code LIKE ? ESCAPE '\'`, append(args, like)
	}
	var total int
	if err := db.Read.GetContext(ctx, &total, db.Read.Rebind(`SELECT COUNT(*) FROM coupons`+where), args...); err != nil {
		return nil, 0, err
	}
	var rows []couponRow
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(`SELECT `+couponCols+` FROM coupons`+where+` ORDER BY id DESC`+sqlcore.Limit(f.Limit)+` OFFSET ?`),
		append(args, f.Offset)...); err != nil {
		return nil, 0, err
	}
	out := make([]*coupon.Coupon, 0, len(rows))
	for _, r := range rows {
		c, err := r.coupon()
		if err != nil {
			return nil, 0, err
		}
		out = append(out, c)
	}
	return out, total, nil
}

// CouponUses implements checkout.CouponStore.
func (db *Orders) CouponUses(ctx context.Context, couponID, customerID int64, email string) (int64, error) {
	return couponUses(ctx, db.Read, couponID, customerID, email)
}

// queryer is a pool or a transaction.
type queryer interface {
	sqlx.QueryerContext
	Rebind(string) string
}

func couponUses(ctx context.Context, q queryer, couponID, customerID int64, email string) (int64, error) {
	if customerID <= 0 && email == "" {
		return 0, nil
	}
	if customerID <= 0 {
		customerID = -1 // matches no row
	}
	var n int64
	err := sqlx.GetContext(ctx, q, &n, q.Rebind(`SELECT COUNT(*) FROM order_coupons WHERE coupon_id = ? AND released = 0 AND (customer_id = ? OR (email <> '' AND email = ?))`),
		couponID, customerID, strings.ToLower(email))
	return n, err
}

// claimCoupons counts one use of each coupon an order applies, in the
// order's transaction, and records them on the order. The use is a
// conditional UPDATE (… WHERE usage_count < usage_limit): on PostgreSQL
// the row stays locked until commit and a concurrent order re-checks the
// condition on the committed count; SQLite has one writer. So a coupon
// is never used more than its limit, and the per-customer count, read
// after the row is held, sees every committed use. Coupons are claimed in
// id order (a fixed lock order). A refusal is checkout.ErrCouponUsedUp.
func claimCoupons(ctx context.Context, tx *sqlx.Tx, coupons []*coupon.Coupon, customerID int64, email string, now time.Time) error {
	ordered := make([]*coupon.Coupon, len(coupons))
	copy(ordered, coupons)
	for i := 1; i < len(ordered); i++ {
		for j := i; j > 0 && ordered[j].ID < ordered[j-1].ID; j-- {
			ordered[j], ordered[j-1] = ordered[j-1], ordered[j]
		}
	}
	for _, c := range ordered {
		var limitPerUser int64
		err := tx.GetContext(ctx, &limitPerUser, tx.Rebind(`UPDATE coupons SET usage_count = usage_count + 1
			WHERE id = ? AND (usage_limit = 0 OR usage_count < usage_limit) AND (date_expires IS NULL OR date_expires > ?)
			RETURNING usage_limit_per_user`), c.ID, now.Unix())
		if err != nil {
			return sqlcore.NoRow(err, checkout.ErrCouponUsedUp(c.Code))
		}
		if limitPerUser > 0 {
			uses, err := couponUses(ctx, tx, c.ID, customerID, email)
			if err != nil {
				return err
			}
			if uses >= limitPerUser {
				return checkout.ErrCouponUsedUp(c.Code)
			}
		}
	}
	return nil
}

// insertOrderCoupons records the coupons an order used.
func insertOrderCoupons(ctx context.Context, tx *sqlx.Tx, o *checkout.Order, coupons []*coupon.Coupon) error {
	for i, ca := range o.Coupons {
		var id any
		if i < len(coupons) && coupons[i].Code == ca.Code {
			id = coupons[i].ID
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO order_coupons (order_id, position, coupon_id, code, discount_type,
				discount, discount_tax, customer_id, email) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
			o.ID, i, id, ca.Code, ca.Type, ca.Discount, ca.DiscountTax, o.CustomerID, strings.ToLower(o.Billing.Email)); err != nil {
			return fmt.Errorf("insert order coupon: %w", err)
		}
	}
	return nil
}

// clearCartCoupons forgets the coupons of the session whose cart an order
// emptied.
func clearCartCoupons(ctx context.Context, tx *sqlx.Tx, session string) error {
	var raw string
	err := tx.GetContext(ctx, &raw, tx.Rebind(`SELECT customer FROM cart_sessions WHERE id = ?`), session)
	if err != nil {
		return sqlcore.NoRow(err, nil)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(raw), &m); err != nil || m["coupons"] == nil {
		return nil
	}
	delete(m, "coupons")
	b, _ := json.Marshal(m)
	_, err = tx.ExecContext(ctx, tx.Rebind(`UPDATE cart_sessions SET customer = ? WHERE id = ?`), string(b), session)
	return err
}

// releaseCouponsTx gives back the coupon uses of an order being cancelled,
// as WooCommerce does: each coupon's usage count goes down by one and the
// order stops counting toward its customer's per-customer limit. The rows
// are marked released, so a use is given back once however many times the
// order is cancelled. The caller holds the order's row.
func releaseCouponsTx(ctx context.Context, tx *sqlx.Tx, orderID int64) error {
	if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE coupons SET usage_count = usage_count - 1
		WHERE usage_count > 0 AND id IN (SELECT coupon_id FROM order_coupons
			WHERE order_id = ? AND released = 0 AND coupon_id IS NOT NULL)`), orderID); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE order_coupons SET released = 1 WHERE order_id = ? AND released = 0`), orderID)
	return err
}
