package sqlstore

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/analytics"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// Analytics' item rollups (migration 00056, decision 0122): each hour of
// analytics_hours also holds, packed, the line facts' sums per product,
// variation and status (items), the coupon facts' per coupon, code and
// status (coupon_sums) and the order facts' per customer and status
// (customer_sums), kept by the follower with the hour's other rollups as
// the new facts less the old ones. The leaderboards and the products,
// variations and coupons reports read them over a period's whole hours,
// and the facts at its partial hours.
//
// A product's orders are counted distinct, and a refund's lines are dated
// by the refund: the rollup counts an order on its own first line of the
// product (an order's lines share its hour, so the sum over hours is the
// distinct count of orders placed in the period), and a report adds the
// orders whose refunded lines of the product fall in the period but which
// were not placed in it, from the refunds' lines (an index of their own).

// itemKey is a product, variation and order status (statusCode).
type itemKey struct {
	Product, Variation int64
	Status             uint8
}

// itemSums are an item's figures in an hour: items and net (refunds
// negative), the orders placed counted per product (OrdersP) and per
// variation (OrdersV), the line facts carrying it, and the lines' product
// lookup sums (migration 00057, decision 0130): tax (the shipping's
// included), shipping, coupons and the refunded lines' net.
type itemSums struct {
	Items, Net, OrdersP, OrdersV, Facts int64
	Tax, Shipping, Coupon, RefundNet    int64
}

func (s *itemSums) plus(o itemSums, sign int64) {
	s.Items += sign * o.Items
	s.Net += sign * o.Net
	s.OrdersP += sign * o.OrdersP
	s.OrdersV += sign * o.OrdersV
	s.Facts += sign * o.Facts
	s.Tax += sign * o.Tax
	s.Shipping += sign * o.Shipping
	s.Coupon += sign * o.Coupon
	s.RefundNet += sign * o.RefundNet
}

// lineSums are a line fact's own sums (no order counted).
func lineSums(l analytics.LineFact) itemSums {
	s := itemSums{Items: l.Quantity, Net: l.Net, Facts: 1, Tax: l.Tax + l.ShippingTax, Shipping: l.Shipping, Coupon: l.Coupon}
	if l.RefundID != 0 {
		s.RefundNet = l.Net
	}
	return s
}

// couponKey is a coupon (id and code) and order status.
type couponKey struct {
	ID     int64
	Code   string
	Status uint8
}

// couponSums are a coupon's figures in an hour: the amount discounted,
// the orders (counted on an order's first use of the coupon id) and the
// uses.
type couponSums struct {
	Amount, Orders, Uses int64
}

func (s *couponSums) plus(o couponSums, sign int64) {
	s.Amount += sign * o.Amount
	s.Orders += sign * o.Orders
	s.Uses += sign * o.Uses
}

// custKey is a customer (its number in analytics_names) and order
// status.
type custKey struct {
	No     int64
	Status uint8
}

// nameKey is custKey before the customer is numbered.
type nameKey struct {
	Name   string
	Status uint8
}

// custSums are a customer's figures in an hour: the orders (not
// refunds), the spend (net, refunds negative) and the order facts.
type custSums struct {
	Orders, Spend, Facts int64
}

func (s *custSums) plus(o custSums, sign int64) {
	s.Orders += sign * o.Orders
	s.Spend += sign * o.Spend
	s.Facts += sign * o.Facts
}

// itemHour is an hour's item, coupon and customer sums.
type itemHour struct {
	items   map[itemKey]itemSums
	coupons map[couponKey]couponSums
	custs   map[custKey]custSums
	// names: customers' sums not numbered yet (a change's).
	names map[nameKey]custSums
}

func newItemHour() *itemHour {
	return &itemHour{items: map[itemKey]itemSums{}, coupons: map[couponKey]couponSums{}, custs: map[custKey]custSums{}, names: map[nameKey]custSums{}}
}

// addCustomerFacts adds the order facts with a customer to hours' names,
// with sign.
func addCustomerFacts(hours map[int64]*itemHour, orders []analytics.OrderFact, sign int64) {
	for _, o := range orders {
		if o.Customer == "" {
			continue
		}
		h := hours[hourOf(o.CreatedAt)]
		if h == nil {
			h = newItemHour()
			hours[hourOf(o.CreatedAt)] = h
		}
		s := custSums{Spend: o.Net, Facts: 1}
		if o.RefundID == 0 {
			s.Orders = 1
		}
		k := nameKey{o.Customer, statusCode(o.Status)}
		v := h.names[k]
		v.plus(s, sign)
		h.names[k] = v
	}
}

// number turns h's names into numbered customers.
func (h *itemHour) number(nos map[string]int64) error {
	for k, s := range h.names {
		no, ok := nos[k.Name]
		if !ok {
			return fmt.Errorf("analytics rollups: %q has no number", k.Name)
		}
		c := custKey{no, k.Status}
		v := h.custs[c]
		v.plus(s, 1)
		h.custs[c] = v
	}
	clear(h.names)
	return nil
}

// addItemFacts adds the line and coupon facts of whole orders (every fact
// of each order dated in the hours concerned) to hours, with sign.
func addItemFacts(hours map[int64]*itemHour, lines []analytics.LineFact, coupons []analytics.CouponFact, sign int64) {
	at := func(t int64) *itemHour {
		h := hours[hourOf(t)]
		if h == nil {
			h = newItemHour()
			hours[hourOf(t)] = h
		}
		return h
	}
	ls := slices.Clone(lines)
	slices.SortFunc(ls, func(a, b analytics.LineFact) int {
		return cmp.Or(cmp.Compare(a.OrderID, b.OrderID), cmp.Compare(a.RefundID, b.RefundID), cmp.Compare(a.Position, b.Position))
	})
	type seenKey struct {
		order, id int64
		variation bool
	}
	seen := map[seenKey]bool{}
	for _, l := range ls {
		s := lineSums(l)
		if l.RefundID == 0 {
			if k := (seenKey{l.OrderID, l.ProductID, false}); !seen[k] {
				seen[k] = true
				s.OrdersP = 1
			}
			if k := (seenKey{l.OrderID, l.VariationID, true}); !seen[k] {
				seen[k] = true
				s.OrdersV = 1
			}
		}
		h := at(l.CreatedAt)
		k := itemKey{l.ProductID, l.VariationID, statusCode(l.Status)}
		v := h.items[k]
		v.plus(s, sign)
		h.items[k] = v
	}
	cs := slices.Clone(coupons)
	slices.SortFunc(cs, func(a, b analytics.CouponFact) int {
		return cmp.Or(cmp.Compare(a.OrderID, b.OrderID), cmp.Compare(a.Position, b.Position))
	})
	used := map[[2]int64]bool{}
	for _, c := range cs {
		s := couponSums{Amount: c.Discount, Uses: 1}
		if k := [2]int64{c.OrderID, c.CouponID}; !used[k] {
			used[k] = true
			s.Orders = 1
		}
		h := at(c.CreatedAt)
		k := couponKey{c.CouponID, c.Code, statusCode(c.Status)}
		v := h.coupons[k]
		v.plus(s, sign)
		h.coupons[k] = v
	}
}

// changed reports whether h changes anything.
func (h *itemHour) changed() bool {
	for _, s := range h.items {
		if s != (itemSums{}) {
			return true
		}
	}
	for _, s := range h.coupons {
		if s != (couponSums{}) {
			return true
		}
	}
	for _, s := range h.custs {
		if s != (custSums{}) {
			return true
		}
	}
	for _, s := range h.names {
		if s != (custSums{}) {
			return true
		}
	}
	return false
}

// apply adds d to h.
func (h *itemHour) apply(d *itemHour) {
	for k, s := range d.items {
		v := h.items[k]
		v.plus(s, 1)
		h.items[k] = v
	}
	for k, s := range d.coupons {
		v := h.coupons[k]
		v.plus(s, 1)
		h.coupons[k] = v
	}
	for k, s := range d.custs {
		v := h.custs[k]
		v.plus(s, 1)
		h.custs[k] = v
	}
}

// pack is h as its two columns: entries in key order, those with no fact
// left dropped; an error when a count went below zero or figures remain
// without facts (the rollups and the facts disagree: never clamped).
func (h *itemHour) pack(hour int64) (items, coupons, custs []byte, err error) {
	if len(h.names) > 0 {
		return nil, nil, nil, fmt.Errorf("analytics: hour %d: customers not numbered", hour)
	}
	ik := make([]itemKey, 0, len(h.items))
	for k, s := range h.items {
		if s.Facts < 0 || s.OrdersP < 0 || s.OrdersV < 0 || (s.Facts == 0 && s != (itemSums{})) {
			return nil, nil, nil, fmt.Errorf("analytics: hour %d product %d variation %d: %+v", hour, k.Product, k.Variation, s)
		}
		if s.Facts > 0 {
			ik = append(ik, k)
		}
	}
	slices.SortFunc(ik, func(a, b itemKey) int {
		return cmp.Or(cmp.Compare(a.Product, b.Product), cmp.Compare(a.Variation, b.Variation), cmp.Compare(a.Status, b.Status))
	})
	items = make([]byte, 0, len(ik)*12)
	var prev int64
	for _, k := range ik {
		s := h.items[k]
		items = binary.AppendVarint(items, k.Product-prev)
		prev = k.Product
		items = binary.AppendVarint(items, k.Variation)
		items = append(items, k.Status)
		for _, v := range [9]int64{s.Items, s.Net, s.OrdersP, s.OrdersV, s.Facts, s.Tax, s.Shipping, s.Coupon, s.RefundNet} {
			items = binary.AppendVarint(items, v)
		}
	}
	ck := make([]couponKey, 0, len(h.coupons))
	for k, s := range h.coupons {
		if s.Uses < 0 || s.Orders < 0 || (s.Uses == 0 && s != (couponSums{})) {
			return nil, nil, nil, fmt.Errorf("analytics: hour %d coupon %d %q: %+v", hour, k.ID, k.Code, s)
		}
		if s.Uses > 0 {
			ck = append(ck, k)
		}
	}
	slices.SortFunc(ck, func(a, b couponKey) int {
		return cmp.Or(cmp.Compare(a.ID, b.ID), cmp.Compare(a.Code, b.Code), cmp.Compare(a.Status, b.Status))
	})
	coupons = make([]byte, 0, len(ck)*12)
	for _, k := range ck {
		s := h.coupons[k]
		coupons = binary.AppendVarint(coupons, k.ID)
		coupons = binary.AppendUvarint(coupons, uint64(len(k.Code)))
		coupons = append(coupons, k.Code...)
		coupons = append(coupons, k.Status)
		for _, v := range [3]int64{s.Amount, s.Orders, s.Uses} {
			coupons = binary.AppendVarint(coupons, v)
		}
	}
	kk := make([]custKey, 0, len(h.custs))
	for k, s := range h.custs {
		if s.Facts < 0 || s.Orders < 0 || (s.Facts == 0 && s != (custSums{})) {
			return nil, nil, nil, fmt.Errorf("analytics: hour %d customer %d: %+v", hour, k.No, s)
		}
		if s.Facts > 0 {
			kk = append(kk, k)
		}
	}
	slices.SortFunc(kk, func(a, b custKey) int { return cmp.Or(cmp.Compare(a.No, b.No), cmp.Compare(a.Status, b.Status)) })
	custs = make([]byte, 0, len(kk)*8)
	prev = 0
	for _, k := range kk {
		s := h.custs[k]
		custs = binary.AppendVarint(custs, k.No-prev)
		prev = k.No
		custs = append(custs, k.Status)
		for _, v := range [3]int64{s.Orders, s.Spend, s.Facts} {
			custs = binary.AppendVarint(custs, v)
		}
	}
	return items, coupons, custs, nil
}

// eachCustomer calls fn for every entry packed in b.
func eachCustomer(b []byte, fn func(k custKey, s custSums)) error {
	var no int64
	for len(b) > 0 {
		d, n := binary.Varint(b)
		if n <= 0 || len(b) < n+1 {
			return errBadMembers
		}
		no += d
		st := b[n]
		b = b[n+1:]
		var f [3]int64
		for i := range f {
			x, n := binary.Varint(b)
			if n <= 0 {
				return errBadMembers
			}
			f[i] = x
			b = b[n:]
		}
		fn(custKey{no, st}, custSums{f[0], f[1], f[2]})
	}
	return nil
}

// eachItem calls fn for every entry packed in b.
func eachItem(b []byte, fn func(k itemKey, s itemSums)) error {
	var prod int64
	for len(b) > 0 {
		d, n := binary.Varint(b)
		if n <= 0 {
			return errBadMembers
		}
		b = b[n:]
		prod += d
		v, n := binary.Varint(b)
		if n <= 0 || len(b) < n+1 {
			return errBadMembers
		}
		st := b[n]
		b = b[n+1:]
		var f [9]int64
		for i := range f {
			x, n := binary.Varint(b)
			if n <= 0 {
				return errBadMembers
			}
			f[i] = x
			b = b[n:]
		}
		fn(itemKey{prod, v, st}, itemSums{f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8]})
	}
	return nil
}

// eachCoupon calls fn for every entry packed in b.
func eachCoupon(b []byte, fn func(k couponKey, s couponSums)) error {
	for len(b) > 0 {
		id, n := binary.Varint(b)
		if n <= 0 {
			return errBadMembers
		}
		b = b[n:]
		l, n := binary.Uvarint(b)
		if n <= 0 || uint64(len(b)-n) < l+1 {
			return errBadMembers
		}
		code := string(b[n : n+int(l)])
		st := b[n+int(l)]
		b = b[n+int(l)+1:]
		var f [3]int64
		for i := range f {
			x, n := binary.Varint(b)
			if n <= 0 {
				return errBadMembers
			}
			f[i] = x
			b = b[n:]
		}
		fn(couponKey{id, code, st}, couponSums{f[0], f[1], f[2]})
	}
	return nil
}

func unpackItemHour(hour int64, items, coupons, custs []byte) (*itemHour, error) {
	h := newItemHour()
	if err := eachCustomer(custs, func(k custKey, s custSums) { h.custs[k] = s }); err != nil {
		return nil, fmt.Errorf("hour %d customers: %w", hour, err)
	}
	if err := eachItem(items, func(k itemKey, s itemSums) { h.items[k] = s }); err != nil {
		return nil, fmt.Errorf("hour %d items: %w", hour, err)
	}
	if err := eachCoupon(coupons, func(k couponKey, s couponSums) { h.coupons[k] = s }); err != nil {
		return nil, fmt.Errorf("hour %d coupons: %w", hour, err)
	}
	return h, nil
}

// itemFactsBetween reads the line and coupon facts dated in [from, to)
// (all of an order's own lines share its date, a refund's lines the
// refund's).
func itemFactsBetween(ctx context.Context, r analyticsReader, from, to int64) ([]analytics.LineFact, []analytics.CouponFact, error) {
	var ls []analytics.LineFact
	if err := r.SelectContext(ctx, &ls, r.Rebind(`SELECT order_id AS orderid, refund_id AS refundid, position, created_at AS createdat, status,
		product_id AS productid, variation_id AS variationid, quantity, net, tax, shipping_tax AS shippingtax, shipping, coupon
		FROM analytics_lines WHERE created_at >= ? AND created_at < ?`), from, to); err != nil {
		return nil, nil, err
	}
	var cs []analytics.CouponFact
	if err := r.SelectContext(ctx, &cs, r.Rebind(`SELECT order_id AS orderid, position, created_at AS createdat, status, coupon_id AS couponid, code, discount
		FROM analytics_coupons WHERE created_at >= ? AND created_at < ?`), from, to); err != nil {
		return nil, nil, err
	}
	return ls, cs, nil
}

// itemHoursBetween is the item, coupon and customer sums of the hours in
// [from, to) from the facts (every customer there is numbered: the
// hours' customer sets number them).
func itemHoursBetween(ctx context.Context, r analyticsReader, from, to int64) (map[int64]*itemHour, error) {
	ls, cs, err := itemFactsBetween(ctx, r, from, to)
	if err != nil {
		return nil, err
	}
	hours := map[int64]*itemHour{}
	addItemFacts(hours, ls, cs, 1)
	var os []struct {
		analytics.OrderFact
		No *int64 `db:"no"`
	}
	if err := r.SelectContext(ctx, &os, r.Rebind(`SELECT o.order_id AS orderid, o.refund_id AS refundid, o.created_at AS createdat, o.status,
		o.customer, o.net, n.no FROM analytics_orders o LEFT JOIN analytics_names n ON n.name = o.customer
		WHERE o.customer <> '' AND o.created_at >= ? AND o.created_at < ?`), from, to); err != nil {
		return nil, err
	}
	nos := map[string]int64{}
	var facts []analytics.OrderFact
	for _, o := range os {
		if o.No == nil {
			return nil, fmt.Errorf("analytics rollups: %q has no number", o.Customer)
		}
		nos[o.Customer] = *o.No
		facts = append(facts, o.OrderFact)
	}
	addCustomerFacts(hours, facts, 1)
	for _, h := range hours {
		if err := h.number(nos); err != nil {
			return nil, err
		}
	}
	return hours, nil
}

// itemBackfillHours is how many unbuilt hours a follower's batch builds.
const itemBackfillHours = 24 * 28

// buildItemHours builds up to itemBackfillHours hours whose item sums are
// not built (NULL since migration 00056) from the facts; n is how many.
func (db *DB) buildItemHours(ctx context.Context, tx *sqlx.Tx) (int, error) {
	q := `SELECT hour FROM analytics_hours WHERE items IS NULL ORDER BY hour` + sqlcore.Limit(itemBackfillHours)
	if db.Engine == sqlcore.Postgres {
		q += ` FOR UPDATE SKIP LOCKED`
	}
	var hours []int64
	if err := tx.SelectContext(ctx, &hours, tx.Rebind(q)); err != nil {
		return 0, err
	}
	if len(hours) == 0 {
		return 0, nil
	}
	// At most four weeks of facts read (hours left unbuilt may be far
	// apart).
	for i, h := range hours {
		if h >= hours[0]+itemBackfillHours*hourSecs {
			hours = hours[:i]
			break
		}
	}
	built, err := itemHoursBetween(ctx, tx, hours[0], hours[len(hours)-1]+hourSecs)
	if err != nil {
		return 0, err
	}
	for _, h := range hours {
		ih := built[h]
		if ih == nil {
			ih = newItemHour()
		}
		items, coupons, custs, err := ih.pack(h)
		if err != nil {
			return 0, err
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE analytics_hours SET items = ?, coupon_sums = ?, customer_sums = ? WHERE hour = ?`),
			items, coupons, custs, h); err != nil {
			return 0, err
		}
	}
	return len(hours), nil
}

// itemPlan is how a period is read: whole hours [core0, core1) from the
// rollups, the rest from the facts. ok is false when the filter is more
// than the statuses (the facts answer).
func itemPlan(f analytics.Filter) (rollupPlan, bool) {
	if orderFiltered(f) {
		return rollupPlan{}, false
	}
	return planRollup(f, [][2]int64{{f.From, f.To}})
}

// periodItems are a period's item and coupon sums of the counted
// statuses, summed over its hours, with the last hour each key has facts
// in (lastHour) or, for keys met in the facts' ranges, the exact last
// date (lastAt).
type periodItems struct {
	items   map[[2]int64]*itemAcc // by product and variation
	coupons map[couponKey]couponSums
	custs   map[int64]custSums // by customer number
	// custLast: the last hour each customer has counted facts in.
	custLast map[int64]int64
	// blobs: the customers' packed hours read (customer_sums), and
	// ranges, the spans read from the facts.
	blobs  []hourBlob
	ranges [][2]int64
}

type hourBlob struct {
	hour int64
	b    []byte
}

// itemAcc is a product's and variation's sums over a period, with the
// last hour read from the rollups that has facts of it and the latest
// date of its facts read from the facts.
type itemAcc struct {
	itemSums
	lastHour, lastAt int64
}

func (p *periodItems) item(k itemKey) *itemAcc {
	a := p.items[[2]int64{k.Product, k.Variation}]
	if a == nil {
		a = &itemAcc{}
		p.items[[2]int64{k.Product, k.Variation}] = a
	}
	return a
}

// readPeriodItems sums col ("items", "coupon_sums" or "customer_sums")
// of p's whole hours (an unbuilt hour from its facts) and the facts of
// its edges, counted statuses only.
func (db *DB) readPeriodItems(ctx context.Context, r analyticsReader, f analytics.Filter, p rollupPlan, col string) (*periodItems, error) {
	counted := [256]bool{}
	for _, st := range f.Statuses {
		counted[statusCode(st)] = true
	}
	counted[0] = false
	out := &periodItems{items: map[[2]int64]*itemAcc{}, coupons: map[couponKey]couponSums{}, custs: map[int64]custSums{}, custLast: map[int64]int64{}}
	if col == "customer_sums" { // tens of thousands of customers in a quarter
		out.custs, out.custLast = make(map[int64]custSums, 1<<14), make(map[int64]int64, 1<<14)
	}
	rows, err := r.QueryxContext(ctx, r.Rebind(`SELECT hour, `+col+` AS b, CASE WHEN items IS NULL THEN 1 ELSE 0 END AS unbuilt
		FROM analytics_hours WHERE hour >= ? AND hour < ? ORDER BY hour`), p.core0, p.core1)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	ranges := slices.Clone(p.edges)
	for rows.Next() {
		var hour int64
		var b []byte
		var unbuilt int
		if err := rows.Scan(&hour, &b, &unbuilt); err != nil {
			return nil, err
		}
		if unbuilt == 1 {
			if n := len(ranges); n > 0 && ranges[n-1][1] == hour {
				ranges[n-1][1] = hour + hourSecs
			} else {
				ranges = append(ranges, [2]int64{hour, hour + hourSecs})
			}
			continue
		}
		switch col {
		case "customer_sums":
			out.blobs = append(out.blobs, hourBlob{hour, b})
			err = eachCustomer(b, func(k custKey, s custSums) {
				if counted[k.Status] {
					v := out.custs[k.No]
					v.plus(s, 1)
					out.custs[k.No] = v
					out.custLast[k.No] = max(out.custLast[k.No], hour)
				}
			})
		case "coupon_sums":
			err = eachCoupon(b, func(k couponKey, s couponSums) {
				if counted[k.Status] {
					v := out.coupons[k]
					v.plus(s, 1)
					out.coupons[k] = v
				}
			})
		default:
			err = eachItem(b, func(k itemKey, s itemSums) {
				if counted[k.Status] {
					a := out.item(k)
					a.plus(s, 1)
					a.lastHour = hour
				}
			})
		}
		if err != nil {
			return nil, fmt.Errorf("hour %d: %w", hour, err)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	out.ranges = ranges
	for _, e := range ranges {
		if col == "customer_sums" {
			hours, err := itemHoursBetween(ctx, r, e[0], e[1])
			if err != nil {
				return nil, err
			}
			for hour, h := range hours {
				for k, s := range h.custs {
					if counted[k.Status] {
						v := out.custs[k.No]
						v.plus(s, 1)
						out.custs[k.No] = v
						out.custLast[k.No] = max(out.custLast[k.No], hour)
					}
				}
			}
			continue
		}
		ls, cs, err := itemFactsBetween(ctx, r, e[0], e[1])
		if err != nil {
			return nil, err
		}
		hours := map[int64]*itemHour{}
		addItemFacts(hours, ls, cs, 1)
		for _, h := range hours {
			for k, s := range h.items {
				if counted[k.Status] {
					out.item(k).plus(s, 1)
				}
			}
			for k, s := range h.coupons {
				if counted[k.Status] {
					v := out.coupons[k]
					v.plus(s, 1)
					out.coupons[k] = v
				}
			}
		}
		for _, l := range ls {
			k := itemKey{l.ProductID, l.VariationID, statusCode(l.Status)}
			if counted[k.Status] {
				a := out.item(k)
				a.lastAt = max(a.lastAt, l.CreatedAt)
			}
		}
	}
	return out, nil
}

// rollupItemSums is AnalyticsItemSums from the rollups (ok false: use the
// facts). A category's orders are distinct over its products, which only
// the facts know: categories are read here only with f.ItemSumsOnly (the
// leaderboards, which show none), which leaves the orders and dates out.
func (db *DB) rollupItemSums(ctx context.Context, r analyticsReader, f analytics.Filter, by string) ([]itemRowSums, bool, error) {
	p, ok := itemPlan(f)
	if !ok || (by == "category" && !f.ItemSumsOnly) {
		return nil, false, nil
	}
	if len(f.Statuses) == 0 {
		return []itemRowSums{}, true, nil // nothing counted
	}
	pi, err := db.readPeriodItems(ctx, r, f, p, "items")
	if err != nil {
		return nil, false, err
	}
	// Per product (or variation): the sums, and whether any fact is in
	// the period.
	type acc struct {
		row      itemRowSums
		lastHour int64
	}
	group := map[int64]*acc{}
	id := func(k itemKey) int64 {
		if by == "variation" {
			return k.Variation
		}
		return k.Product
	}
	for pv, s := range pi.items {
		k := itemKey{Product: pv[0], Variation: pv[1]}
		if s.Facts == 0 || (by == "variation" && k.Variation == 0) {
			continue
		}
		a := group[id(k)]
		if a == nil {
			a = &acc{row: itemRowSums{ID: id(k)}}
			group[id(k)] = a
		}
		a.row.Items += s.Items
		a.row.Net += s.Net
		a.row.addLookup(s.itemSums)
		if by == "variation" {
			a.row.Orders += s.OrdersV
			a.row.Parent = max(a.row.Parent, k.Product)
		} else {
			a.row.Orders += s.OrdersP
		}
		a.lastHour = max(a.lastHour, s.lastHour)
		a.row.Last = max(a.row.Last, s.lastAt)
	}
	if f.ItemSumsOnly {
		for _, a := range group {
			a.row.Orders, a.row.Last, a.lastHour = 0, 0, 0
		}
	}
	// The orders refunded in the period but placed outside it: counted
	// by their refunds' lines (through their partial index), each
	// order's own lines looked up by its key (the unary pluses keep
	// SQLite from scanning the product's lines of the period instead).
	if by != "category" && !f.ItemSumsOnly {
		col := by + "_id"
		in, sargs := sqlcore.InClause(f.Statuses)
		var extra []struct {
			ID     int64 `db:"id"`
			Orders int64 `db:"orders"`
		}
		if err := r.SelectContext(ctx, &extra, r.Rebind(`SELECT l.`+col+` AS id, COUNT(DISTINCT l.order_id) AS orders FROM analytics_lines l
			WHERE l.refund_id <> 0 AND l.created_at >= ? AND l.created_at < ? AND l.status IN `+in+`
			AND NOT EXISTS (SELECT 1 FROM analytics_lines o WHERE o.order_id = l.order_id AND o.refund_id = 0 AND +o.`+col+` = l.`+col+`
				AND +o.created_at >= ? AND +o.created_at < ?)
			GROUP BY l.`+col), append(append([]any{f.From, f.To}, sargs...), f.From, f.To)...); err != nil {
			return nil, false, err
		}
		for _, e := range extra {
			if a := group[e.ID]; a != nil {
				a.row.Orders += e.Orders
			}
		}
	}
	// The last date within the last hour read from the rollups: that
	// hour's facts, all those hours' in one query.
	need := map[int64][]int64{} // hour → ids
	for gid, a := range group {
		if f.NoLastDates {
			a.row.Last = 0
			continue
		}
		if a.lastHour != 0 && a.lastHour+hourSecs > a.row.Last {
			need[a.lastHour] = append(need[a.lastHour], gid)
		}
	}
	if len(need) > 0 {
		hours := make([]int64, 0, len(need))
		for h := range need {
			hours = append(hours, h)
		}
		slices.Sort(hours)
		col := "product_id"
		if by == "variation" {
			col = "variation_id"
		}
		in, sargs := sqlcore.InClause(f.Statuses)
		for start := 0; start < len(hours); start += 200 {
			part := hours[start:min(len(hours), start+200)]
			var q []byte
			var args []any
			for i, h := range part {
				if i > 0 {
					q = append(q, " UNION ALL "...)
				}
				q = append(q, `SELECT `+col+` AS id, MAX(created_at) AS last FROM analytics_lines WHERE created_at >= ? AND created_at < ? AND status IN `+in+` GROUP BY `+col...)
				args = append(append(args, h, h+hourSecs), sargs...)
			}
			var lasts []struct {
				ID   int64 `db:"id"`
				Last int64 `db:"last"`
			}
			if err := r.SelectContext(ctx, &lasts, r.Rebind(string(q)), args...); err != nil {
				return nil, false, err
			}
			for _, l := range lasts {
				if a := group[l.ID]; a != nil && l.Last > a.row.Last && l.Last < a.lastHour+hourSecs && l.Last >= a.lastHour {
					a.row.Last = l.Last
				}
			}
		}
	}
	out := make([]itemRowSums, 0, len(group))
	for _, a := range group {
		out = append(out, a.row)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	if by != "category" {
		return out, true, nil
	}
	out, err = categoriesOf(ctx, r, f, out)
	return out, err == nil, err
}

// categoriesOf is the categories' rows of the products' rows: their
// products' sums (a product in several categories counts in each),
// distinct products, the latest date.
func categoriesOf(ctx context.Context, r analyticsReader, f analytics.Filter, out []itemRowSums) ([]itemRowSums, error) {
	if len(out) == 0 {
		return []itemRowSums{}, nil
	}
	cats := map[int64]*itemRowSums{}
	byProduct := map[int64]itemRowSums{}
	ids := make([]int64, len(out))
	for i, o := range out {
		byProduct[o.ID] = o
		ids[i] = o.ID
	}
	for start := 0; start < len(ids); start += 1000 {
		in, args := sqlcore.InClause(ids[start:min(len(ids), start+1000)])
		q := `SELECT product_id, category_id FROM product_categories WHERE product_id IN ` + in
		if len(f.Categories) > 0 {
			cin, cargs := sqlcore.InClause(f.Categories)
			q += ` AND category_id IN ` + cin
			args = append(args, cargs...)
		}
		var pcs []struct {
			Product  int64 `db:"product_id"`
			Category int64 `db:"category_id"`
		}
		if err := r.SelectContext(ctx, &pcs, r.Rebind(q), args...); err != nil {
			return nil, err
		}
		for _, pc := range pcs {
			c := cats[pc.Category]
			if c == nil {
				c = &itemRowSums{ID: pc.Category}
				cats[pc.Category] = c
			}
			s := byProduct[pc.Product]
			c.Items += s.Items
			c.Net += s.Net
			c.Tax += s.Tax
			c.Shipping += s.Shipping
			c.Coupon += s.Coupon
			c.RefundNet += s.RefundNet
			c.Products++
			c.Last = max(c.Last, s.Last)
		}
	}
	rows := make([]itemRowSums, 0, len(cats))
	for _, c := range cats {
		rows = append(rows, *c)
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].ID < rows[j].ID })
	return rows, nil
}

// AnalyticsTopItems are the products' and the categories' items sold and
// net sales (orders and dates left zero), for the leaderboards: one read
// of the item rollups serves both when f filters on the statuses only.
func (db *DB) AnalyticsTopItems(ctx context.Context, f analytics.Filter) (products, categories []analytics.ItemRow, err error) {
	f.ItemSumsOnly = true
	var prods, cats []itemRowSums
	ok := false
	err = db.analyticsRead(ctx, func(r analyticsReader) error {
		var err error
		if prods, ok, err = db.rollupItemSums(ctx, r, f, "product"); !ok || err != nil {
			return err
		}
		cats, err = categoriesOf(ctx, r, f, prods)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		if products, err = db.AnalyticsItemSums(ctx, f, "product"); err != nil {
			return nil, nil, err
		}
		categories, err = db.AnalyticsItemSums(ctx, f, "category")
		return products, categories, err
	}
	if products, err = db.itemNames(ctx, prods, "product"); err != nil {
		return nil, nil, err
	}
	categories, err = db.itemNames(ctx, cats, "category")
	return products, categories, err
}

// itemRowSums is a row of an item report before its names.
type itemRowSums struct {
	ID       int64 `db:"id"`
	Parent   int64 `db:"parent"`
	Items    int64 `db:"items"`
	Net      int64 `db:"net"`
	Orders   int64 `db:"orders"`
	Products int64 `db:"products"`
	Last     int64 `db:"last"`
	// The lines' product lookup sums (ItemRow's).
	Tax       int64 `db:"tax"`
	Shipping  int64 `db:"shipping"`
	Coupon    int64 `db:"coupon"`
	RefundNet int64 `db:"refund_net"`
}

// addLookup adds s's product lookup sums to r.
func (r *itemRowSums) addLookup(s itemSums) {
	r.Tax += s.Tax
	r.Shipping += s.Shipping
	r.Coupon += s.Coupon
	r.RefundNet += s.RefundNet
}

// row is r as the report's row (no name yet).
func (r itemRowSums) row() analytics.ItemRow {
	return analytics.ItemRow{ID: r.ID, Parent: r.Parent, Items: r.Items, Net: r.Net, Orders: r.Orders, Products: r.Products, LastDate: r.Last,
		Tax: r.Tax, Shipping: r.Shipping, Coupon: r.Coupon, RefundNet: r.RefundNet}
}

// rollupCouponSums is AnalyticsCouponSums from the rollups (ok false: use
// the facts).
func (db *DB) rollupCouponSums(ctx context.Context, r analyticsReader, f analytics.Filter) ([]analytics.CouponRow, bool, error) {
	p, ok := itemPlan(f)
	if !ok {
		return nil, false, nil
	}
	if len(f.Statuses) == 0 {
		return []analytics.CouponRow{}, true, nil // nothing counted
	}
	pi, err := db.readPeriodItems(ctx, r, f, p, "coupon_sums")
	if err != nil {
		return nil, false, err
	}
	by := map[int64]*analytics.CouponRow{}
	for k, s := range pi.coupons {
		if s.Uses == 0 {
			continue
		}
		c := by[k.ID]
		if c == nil {
			c = &analytics.CouponRow{CouponID: k.ID, Code: k.Code}
			by[k.ID] = c
		}
		c.Amount += s.Amount
		c.Orders += s.Orders
		if k.Code > c.Code {
			c.Code = k.Code
		}
	}
	out := make([]analytics.CouponRow, 0, len(by))
	for _, c := range by {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].CouponID < out[j].CouponID })
	return out, true, nil
}

// AnalyticsTopCustomers is the first n customers of f's period by total
// spend (descending, ties by customer descending, as the customers
// report orders them), with their details: the sums from the customer
// rollups when f filters on the statuses only, the customers named for
// the candidates alone; else from the facts.
func (db *DB) AnalyticsTopCustomers(ctx context.Context, f analytics.Filter, n int) ([]analytics.CustomerRow, error) {
	var out []analytics.CustomerRow
	err := db.analyticsRead(ctx, func(r analyticsReader) error {
		p, ok := itemPlan(f)
		if !ok || len(f.Statuses) == 0 || n <= 0 {
			return nil
		}
		pi, err := db.readPeriodItems(ctx, r, f, p, "customer_sums")
		if err != nil {
			return err
		}
		type cand struct {
			no int64
			custSums
		}
		// The n greatest spends (kept sorted, descending), then every
		// customer spending at least the n-th: ties are ordered by
		// their names.
		var best []int64
		for _, s := range pi.custs {
			if s.Facts == 0 || (len(best) == n && s.Spend <= best[n-1]) {
				continue
			}
			i, _ := slices.BinarySearchFunc(best, s.Spend, func(a, b int64) int { return cmp.Compare(b, a) })
			best = slices.Insert(best, i, s.Spend)
			if len(best) > n {
				best = best[:n]
			}
		}
		var cs []cand
		for no, s := range pi.custs {
			if s.Facts > 0 && len(best) > 0 && s.Spend >= best[len(best)-1] {
				cs = append(cs, cand{no, s})
			}
		}
		nos := make([]int64, len(cs))
		for i, c := range cs {
			nos[i] = c.no
		}
		names := map[int64]string{}
		for start := 0; start < len(nos); start += 1000 {
			in, args := sqlcore.InClause(nos[start:min(len(nos), start+1000)])
			var rows []struct {
				No   int64  `db:"no"`
				Name string `db:"name"`
			}
			if err := r.SelectContext(ctx, &rows, r.Rebind(`SELECT no, name FROM analytics_names WHERE no IN `+in), args...); err != nil {
				return err
			}
			for _, row := range rows {
				names[row.No] = row.Name
			}
		}
		out = make([]analytics.CustomerRow, len(cs))
		for i, c := range cs {
			out[i] = analytics.CustomerRow{Customer: names[c.no], Orders: c.Orders, Spend: c.Spend}
		}
		slices.SortFunc(out, func(a, b analytics.CustomerRow) int {
			return cmp.Or(cmp.Compare(b.Spend, a.Spend), cmp.Compare(b.Customer, a.Customer))
		})
		out = out[:min(n, len(out))]
		// Their latest order in the period (the date shown, and whose
		// billing names a guest).
		byName := map[string]*analytics.CustomerRow{}
		custNames := make([]string, len(out))
		for i := range out {
			byName[out[i].Customer] = &out[i]
			custNames[i] = out[i].Customer
			if strings.HasPrefix(out[i].Customer, "u") {
				fmt.Sscan(out[i].Customer[1:], &out[i].UserID)
			}
		}
		if len(custNames) == 0 {
			return nil
		}
		// Their facts are in the hours whose rollups list them, and in
		// the spans read from the facts: those ranges only are read.
		top := map[int64]bool{}
		for _, c := range cs {
			if _, ok := byName[names[c.no]]; ok {
				top[c.no] = true
			}
		}
		spans := slices.Clone(pi.ranges)
		for _, hb := range pi.blobs {
			hit := false
			if err := eachCustomer(hb.b, func(k custKey, s custSums) { hit = hit || top[k.No] }); err != nil {
				return err
			}
			if hit {
				spans = append(spans, [2]int64{hb.hour, hb.hour + hourSecs})
			}
		}
		var lasts []struct {
			Customer string `db:"customer"`
			Last     int64  `db:"last"`
			OrderID  int64  `db:"order_id"`
		}
		cin, cargs := sqlcore.InClause(custNames)
		sin, sargs := sqlcore.InClause(f.Statuses)
		for start := 0; start < len(spans); start += 200 {
			part := spans[start:min(len(spans), start+200)]
			var q strings.Builder
			var args []any
			for i, sp := range part {
				if i > 0 {
					q.WriteString(" OR ")
				}
				q.WriteString("(o.created_at >= ? AND o.created_at < ?)")
				args = append(args, sp[0], sp[1])
			}
			var got []struct {
				Customer string `db:"customer"`
				Last     int64  `db:"last"`
				OrderID  int64  `db:"order_id"`
			}
			if err := r.SelectContext(ctx, &got, r.Rebind(`SELECT o.customer, MAX(o.created_at) AS last, MAX(o.order_id) AS order_id
				FROM analytics_orders o WHERE (`+q.String()+`) AND o.status IN `+sin+` AND o.customer IN `+cin+`
				GROUP BY o.customer`), append(append(args, sargs...), cargs...)...); err != nil {
				return err
			}
			lasts = append(lasts, got...)
		}
		for _, l := range lasts {
			if c := byName[l.Customer]; c != nil {
				c.LastOrder, c.LastOrderID = max(c.LastOrder, l.Last), max(c.LastOrderID, l.OrderID)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if out == nil {
		// The facts: every customer's sums, the first n.
		f.NoCustomerDetails = true
		rows, err := db.AnalyticsCustomerSums(ctx, f)
		if err != nil {
			return nil, err
		}
		slices.SortStableFunc(rows, func(a, b analytics.CustomerRow) int {
			return cmp.Or(cmp.Compare(b.Spend, a.Spend), cmp.Compare(b.Customer, a.Customer))
		})
		out = rows[:min(max(n, 0), len(rows))]
		if n <= 0 {
			out = rows
		}
	}
	return out, db.AnalyticsCustomerDetails(ctx, out)
}

// rollupCustomerSums is AnalyticsCustomerSums from the customer rollups
// (ok false: use the facts), for f.HourlyLastOrder: every customer's
// orders and spend, its latest order left at the start of the hour of
// its latest counted fact (LastInHour; AnalyticsCustomerLast makes the
// rows shown exact), no details.
func (db *DB) rollupCustomerSums(ctx context.Context, r analyticsReader, f analytics.Filter) ([]analytics.CustomerRow, bool, error) {
	p, ok := itemPlan(f)
	if !ok || !f.HourlyLastOrder {
		return nil, false, nil
	}
	if len(f.Statuses) == 0 {
		return []analytics.CustomerRow{}, true, nil
	}
	pi, err := db.readPeriodItems(ctx, r, f, p, "customer_sums")
	if err != nil {
		return nil, false, err
	}
	out := make([]analytics.CustomerRow, 0, len(pi.custs))
	for no, s := range pi.custs {
		if s.Facts > 0 {
			out = append(out, analytics.CustomerRow{No: no, Orders: s.Orders, Spend: s.Spend, LastOrder: max(pi.custLast[no], f.From), LastInHour: true})
		}
	}
	return out, true, nil
}

// customerNames names the rows summed without their name (by No).
func (db *DB) customerNames(ctx context.Context, rows []analytics.CustomerRow) error {
	at := map[int64]int{}
	var nos []int64
	for i, c := range rows {
		if c.Customer == "" && c.No != 0 {
			at[c.No] = i
			nos = append(nos, c.No)
		}
	}
	for start := 0; start < len(nos); start += 1000 {
		in, args := sqlcore.InClause(nos[start:min(len(nos), start+1000)])
		var got []struct {
			No   int64  `db:"no"`
			Name string `db:"name"`
		}
		if err := db.Read.SelectContext(ctx, &got, db.Read.Rebind(`SELECT no, name FROM analytics_names WHERE no IN `+in), args...); err != nil {
			return err
		}
		for _, g := range got {
			c := &rows[at[g.No]]
			c.Customer = g.Name
			if strings.HasPrefix(c.Customer, "u") {
				fmt.Sscan(c.Customer[1:], &c.UserID)
			}
		}
	}
	for _, c := range rows {
		if c.Customer == "" {
			return fmt.Errorf("analytics rollups: customer number %d has no name", c.No)
		}
	}
	return nil
}

// AnalyticsCustomerLast sets the exact latest order (date, and the
// greatest order id at that hour) of the rows whose LastOrder is the
// start of their latest hour (LastInHour), from that hour's facts within
// f's period: one query per hour, the customers of it listed.
func (db *DB) AnalyticsCustomerLast(ctx context.Context, f analytics.Filter, rows []analytics.CustomerRow) error {
	if err := db.customerNames(ctx, rows); err != nil {
		return err
	}
	byHour := map[int64][]int{}
	for i, c := range rows {
		if c.LastInHour {
			byHour[hourOf(c.LastOrder)] = append(byHour[hourOf(c.LastOrder)], i)
		}
	}
	if len(byHour) == 0 {
		return nil
	}
	sin, sargs := sqlcore.InClause(f.Statuses)
	return db.analyticsRead(ctx, func(r analyticsReader) error {
		for h, idx := range byHour {
			for start := 0; start < len(idx); start += 500 {
				part := idx[start:min(len(idx), start+500)]
				who := make([]string, len(part))
				at := map[string]int{}
				for j, i := range part {
					who[j] = rows[i].Customer
					at[rows[i].Customer] = i
				}
				cin, cargs := sqlcore.InClause(who)
				var got []struct {
					Customer string `db:"customer"`
					Last     int64  `db:"last"`
					OrderID  int64  `db:"order_id"`
				}
				args := append(append([]any{max(h, f.From), min(h+hourSecs, f.To)}, sargs...), cargs...)
				if err := r.SelectContext(ctx, &got, r.Rebind(`SELECT o.customer, MAX(o.created_at) AS last, MAX(o.order_id) AS order_id
					FROM analytics_orders o WHERE o.created_at >= ? AND o.created_at < ? AND o.status IN `+sin+` AND o.customer IN `+cin+`
					GROUP BY o.customer`), args...); err != nil {
					return err
				}
				for _, g := range got {
					c := &rows[at[g.Customer]]
					c.LastOrder, c.LastOrderID, c.LastInHour = g.Last, g.OrderID, false
				}
				for _, i := range part {
					if rows[i].LastInHour {
						return fmt.Errorf("analytics rollups: %q has no facts in its latest hour %d", rows[i].Customer, h)
					}
				}
			}
		}
		return nil
	})
}
