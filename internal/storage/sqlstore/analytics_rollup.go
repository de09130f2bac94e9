package sqlstore

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/analytics"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// Analytics' rollups (migration 00052, decision 0115): one row per UTC
// hour (analytics_hours) holding, packed, the order facts' sums by status
// and returning flag, and who bought in the hour (customer numbers and
// product ids, each with its order's status and returning flag and how
// many facts carry it). The follower applies the difference between an
// order's old facts and its new ones in the transaction that rewrites
// them, so the rollups are the facts summed, whatever path wrote the
// order. A stats report over whole hours reads a row per hour (2,160 for
// 90 days) instead of the period's facts, and counts distinct customers
// and products from them exactly; its partial hours at the ends come from
// the facts.

const hourSecs = 3600

// Set kinds.
const (
	setCustomers = 1
	setProducts  = 2
	setCoupons   = 3
)

// couponName is a coupon use's name in analytics_names (coupons are
// counted distinct by id and code, as the facts keep them).
func couponName(id int64, code string) string { return fmt.Sprintf("c%d|%s", id, code) }

func hourOf(t int64) int64 { return t - ((t%hourSecs)+hourSecs)%hourSecs }

// statusCode numbers the statuses a report can count (1…); any other
// status (never counted) is 0.
func statusCode(s string) uint8 {
	if i := slices.Index(analytics.Statuses, s); i >= 0 {
		return uint8(i + 1)
	}
	return 0
}

// memberFlags packs a member's status and returning flag.
func memberFlags(status string, returning bool) uint8 {
	f := statusCode(status) << 1
	if returning {
		f |= 1
	}
	return f
}

type hourKey struct {
	Hour  int64
	Flags uint8
}

type hourSums struct {
	Orders, Items, OrderItems, Gross, Tax, Shipping, Discount, Net, OrderNet, RefundNet int64
}

// sums is h as the report's additive figures.
func (h hourSums) sums() analytics.Sums {
	return analytics.Sums{Orders: h.Orders, Items: h.Items, OrderItems: h.OrderItems, Gross: h.Gross, Tax: h.Tax,
		Shipping: h.Shipping, Discount: h.Discount, Net: h.Net, OrderNet: h.OrderNet, RefundNet: h.RefundNet}
}

func (h *hourSums) add(o analytics.OrderFact, sign int64) {
	if o.RefundID == 0 {
		h.Orders += sign
		h.OrderItems += sign * o.Items
		h.OrderNet += sign * o.Net
	} else {
		h.RefundNet += sign * o.Net
	}
	h.Items += sign * o.Items
	h.Gross += sign * o.Gross
	h.Tax += sign * o.Tax
	h.Shipping += sign * o.Shipping
	h.Discount += sign * o.Discount
	h.Net += sign * o.Net
}

type setKey struct {
	Hour int64
	Kind int
}

type member struct {
	ID    int64
	Flags uint8
}

// memberCount is a member and how many facts carry it.
type memberCount struct {
	member
	N int64
}

// encodeMembers packs ms (sorted by id, then flags; counts above zero):
// per member the id's difference from the previous one, the flags and the
// count, as unsigned varints.
func encodeMembers(ms []memberCount) []byte {
	out := make([]byte, 0, len(ms)*4)
	var prev int64
	for _, m := range ms {
		out = binary.AppendUvarint(out, uint64(m.ID-prev))
		out = append(out, m.Flags)
		out = binary.AppendUvarint(out, uint64(m.N))
		prev = m.ID
	}
	return out
}

var errBadMembers = errors.New("analytics: a damaged hour set")

// eachMember calls fn for every member packed in b.
func eachMember(b []byte, fn func(id int64, flags uint8, n int64)) error {
	var id int64
	for len(b) > 0 {
		d, k := binary.Uvarint(b)
		if k <= 0 || len(b) < k+1 {
			return errBadMembers
		}
		id += int64(d)
		flags := b[k]
		b = b[k+1:]
		n, k := binary.Uvarint(b)
		if k <= 0 {
			return errBadMembers
		}
		b = b[k:]
		fn(id, flags, int64(n))
	}
	return nil
}

// rollupChange is what a batch of recomputed orders changes in the
// rollups: the old facts taken away, the new ones added.
type rollupChange struct {
	hours map[hourKey]*hourSums
	sets  map[setKey]map[member]int64
	// named: a fact's customer or coupon, numbered before the sets are
	// written.
	custFacts []custFact
	// items: the hours' item and coupon sums (analytics_items.go).
	items map[int64]*itemHour
}

type custFact struct {
	hour     int64
	kind     int
	customer string // the name numbered
	flags    uint8
	sign     int64
}

func newRollupChange() *rollupChange {
	return &rollupChange{hours: map[hourKey]*hourSums{}, sets: map[setKey]map[member]int64{}, items: map[int64]*itemHour{}}
}

func (c *rollupChange) member(k setKey, m member, d int64) {
	s := c.sets[k]
	if s == nil {
		s = map[member]int64{}
		c.sets[k] = s
	}
	s[m] += d
}

// add counts f's rows with sign (+1 new, −1 old).
func (c *rollupChange) add(f analytics.Facts, sign int64) {
	addItemFacts(c.items, f.Lines, f.Coupons, sign)
	addCustomerFacts(c.items, f.Orders, sign)
	returning := map[int64]bool{}
	for _, o := range f.Orders {
		if o.RefundID == 0 {
			returning[o.OrderID] = o.Returning
		}
		k := hourKey{hourOf(o.CreatedAt), memberFlags(o.Status, o.Returning)}
		h := c.hours[k]
		if h == nil {
			h = &hourSums{}
			c.hours[k] = h
		}
		h.add(o, sign)
		if o.Customer != "" {
			c.custFacts = append(c.custFacts, custFact{hourOf(o.CreatedAt), setCustomers, o.Customer, memberFlags(o.Status, o.Returning), sign})
		}
	}
	for _, l := range f.Lines {
		if l.RefundID != 0 {
			continue
		}
		c.member(setKey{hourOf(l.CreatedAt), setProducts}, member{l.ProductID, memberFlags(l.Status, returning[l.OrderID])}, sign)
	}
	for _, cp := range f.Coupons {
		c.custFacts = append(c.custFacts, custFact{hourOf(cp.CreatedAt), setCoupons, couponName(cp.CouponID, cp.Code),
			memberFlags(cp.Status, returning[cp.OrderID]), sign})
	}
}

// oldFacts reads the facts now stored for ids (the order rows, the lines
// and the coupons the rollups count).
func oldFacts(ctx context.Context, tx *sqlx.Tx, ids []int64) (analytics.Facts, error) {
	in, args := sqlcore.InClause(ids)
	var f analytics.Facts
	var os []struct {
		OrderID   int64  `db:"order_id"`
		RefundID  int64  `db:"refund_id"`
		CreatedAt int64  `db:"created_at"`
		Status    string `db:"status"`
		Customer  string `db:"customer"`
		Returning int64  `db:"returning_customer"`
		Items     int64  `db:"items"`
		Gross     int64  `db:"gross"`
		Tax       int64  `db:"tax"`
		Shipping  int64  `db:"shipping"`
		Discount  int64  `db:"discount"`
		Net       int64  `db:"net"`
	}
	if err := tx.SelectContext(ctx, &os, tx.Rebind(`SELECT order_id, refund_id, created_at, status, customer, returning_customer,
		items, gross, tax, shipping, discount, net FROM analytics_orders WHERE order_id IN `+in), args...); err != nil {
		return f, err
	}
	for _, o := range os {
		f.Orders = append(f.Orders, analytics.OrderFact{OrderID: o.OrderID, RefundID: o.RefundID, CreatedAt: o.CreatedAt, Status: o.Status,
			Customer: o.Customer, Returning: o.Returning == 1, Items: o.Items, Gross: o.Gross, Tax: o.Tax, Shipping: o.Shipping,
			Discount: o.Discount, Net: o.Net})
	}
	// Every line, refunded ones too: the item rollups count them.
	if err := tx.SelectContext(ctx, &f.Lines, tx.Rebind(`SELECT order_id AS orderid, refund_id AS refundid, position, created_at AS createdat,
		status, product_id AS productid, variation_id AS variationid, quantity, net, tax, shipping_tax AS shippingtax, shipping, coupon
		FROM analytics_lines WHERE order_id IN `+in), args...); err != nil {
		return f, err
	}
	if err := tx.SelectContext(ctx, &f.Coupons, tx.Rebind(`SELECT order_id AS orderid, position, created_at AS createdat, status, coupon_id AS couponid, code,
		discount FROM analytics_coupons WHERE order_id IN `+in), args...); err != nil {
		return f, err
	}
	return f, nil
}

// customerNumbers numbers names of customers and coupons (new ones get
// the next numbers).
func (db *DB) customerNumbers(ctx context.Context, tx *sqlx.Tx, customers []string) (map[string]int64, error) {
	out := map[string]int64{}
	for start := 0; start < len(customers); start += 500 {
		part := customers[start:min(len(customers), start+500)]
		var q strings.Builder
		q.WriteString(`INSERT INTO analytics_names (name) VALUES `)
		args := make([]any, len(part))
		for i, c := range part {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(?)")
			args[i] = c
		}
		q.WriteString(` ON CONFLICT (name) DO NOTHING`)
		if _, err := tx.ExecContext(ctx, tx.Rebind(q.String()), args...); err != nil {
			return nil, err
		}
		in, _ := sqlcore.InClause(part)
		var rows []struct {
			No       int64  `db:"no"`
			Customer string `db:"customer"`
		}
		if err := tx.SelectContext(ctx, &rows, tx.Rebind(`SELECT no, name AS customer FROM analytics_names WHERE name IN `+in), args...); err != nil {
			return nil, err
		}
		for _, r := range rows {
			out[r.Customer] = r.No
		}
	}
	return out, nil
}

// sumsEntry is an hour's sums for one status and returning flag.
type sumsEntry struct {
	Flags uint8
	hourSums
}

func (h hourSums) fields() [10]int64 {
	return [10]int64{h.Orders, h.Items, h.OrderItems, h.Gross, h.Tax, h.Shipping, h.Discount, h.Net, h.OrderNet, h.RefundNet}
}

func sumsOf(v [10]int64) hourSums {
	return hourSums{v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9]}
}

func (h *hourSums) plus(o hourSums) {
	a, b := h.fields(), o.fields()
	for i := range a {
		a[i] += b[i]
	}
	*h = sumsOf(a)
}

// encodeSums packs es (by flags; none all zero): the flags, then the ten
// sums as signed varints.
func encodeSums(es []sumsEntry) []byte {
	out := make([]byte, 0, len(es)*16)
	for _, e := range es {
		out = append(out, e.Flags)
		for _, v := range e.fields() {
			out = binary.AppendVarint(out, v)
		}
	}
	return out
}

// eachSums calls fn for every entry packed in b.
func eachSums(b []byte, fn func(flags uint8, h hourSums)) error {
	for len(b) > 0 {
		flags := b[0]
		b = b[1:]
		var v [10]int64
		for i := range v {
			x, k := binary.Varint(b)
			if k <= 0 {
				return errBadMembers
			}
			v[i] = x
			b = b[k:]
		}
		fn(flags, sumsOf(v))
	}
	return nil
}

// storedHour is an analytics_hours row as stored: the hour and its packed
// sums and member sets.
type storedHour struct {
	Hour      int64  `db:"hour"`
	Sums      []byte `db:"sums"`
	Customers []byte `db:"customers"`
	Products  []byte `db:"products"`
	Coupons   []byte `db:"coupons"`
	// The item rollups (00056); Unbuilt 1 when not built yet (NULL).
	Items        []byte `db:"items"`
	CouponSums   []byte `db:"coupon_sums"`
	CustomerSums []byte `db:"customer_sums"`
	Unbuilt      int    `db:"unbuilt"`
}

// storedHourColumns are storedHour's columns.
const storedHourColumns = `hour, sums, customers, products, coupons, items, coupon_sums, customer_sums, CASE WHEN items IS NULL THEN 1 ELSE 0 END AS unbuilt`

// hourRow is an hour's rollup, unpacked.
type hourRow struct {
	sums    map[uint8]hourSums
	members [4]map[member]int64 // by kind
}

func unpackHour(hour int64, sums, customers, products, coupons []byte) (*hourRow, error) {
	h := &hourRow{sums: map[uint8]hourSums{}}
	if err := eachSums(sums, func(flags uint8, s hourSums) { h.sums[flags] = s }); err != nil {
		return nil, fmt.Errorf("hour %d: %w", hour, err)
	}
	for kind, b := range map[int][]byte{setCustomers: customers, setProducts: products, setCoupons: coupons} {
		m := map[member]int64{}
		if err := eachMember(b, func(id int64, flags uint8, n int64) { m[member{id, flags}] = n }); err != nil {
			return nil, fmt.Errorf("hour %d: %w", hour, err)
		}
		h.members[kind] = m
	}
	return h, nil
}

// pack is h as the row's three columns; an error when a count went below
// zero (the rollups and the facts disagree: never clamped).
func (h *hourRow) pack(hour int64) (sums, customers, products, coupons []byte, err error) {
	es := make([]sumsEntry, 0, len(h.sums))
	for f, s := range h.sums {
		if s != (hourSums{}) {
			es = append(es, sumsEntry{f, s})
		}
	}
	slices.SortFunc(es, func(a, b sumsEntry) int { return int(a.Flags) - int(b.Flags) })
	var packed [4][]byte
	for _, kind := range []int{setCustomers, setProducts, setCoupons} {
		ms := make([]memberCount, 0, len(h.members[kind]))
		for m, n := range h.members[kind] {
			if n < 0 {
				return nil, nil, nil, nil, fmt.Errorf("analytics: hour %d kind %d: member %d counted %d times", hour, kind, m.ID, n)
			}
			if n > 0 {
				ms = append(ms, memberCount{m, n})
			}
		}
		slices.SortFunc(ms, func(a, b memberCount) int {
			if a.ID != b.ID {
				if a.ID < b.ID {
					return -1
				}
				return 1
			}
			return int(a.Flags) - int(b.Flags)
		})
		packed[kind] = encodeMembers(ms)
	}
	return encodeSums(es), packed[setCustomers], packed[setProducts], packed[setCoupons], nil
}

// numberCustomers turns c's customers into set members.
func (db *DB) numberCustomers(ctx context.Context, tx *sqlx.Tx, c *rollupChange) error {
	if len(c.custFacts) == 0 {
		return nil
	}
	var names []string
	seen := map[string]bool{}
	for _, f := range c.custFacts {
		if !seen[f.customer] {
			seen[f.customer] = true
			names = append(names, f.customer)
		}
	}
	sort.Strings(names)
	nos, err := db.customerNumbers(ctx, tx, names)
	if err != nil {
		return err
	}
	for _, f := range c.custFacts {
		c.member(setKey{f.hour, f.kind}, member{nos[f.customer], f.flags}, f.sign)
	}
	c.custFacts = nil
	for _, h := range c.items {
		if err := h.number(nos); err != nil {
			return err
		}
	}
	return nil
}

// touched is the hours c changes, in order.
func (c *rollupChange) touched() []int64 {
	set := map[int64]bool{}
	for k, h := range c.hours {
		if *h != (hourSums{}) {
			set[k.Hour] = true
		}
	}
	for k, ms := range c.sets {
		for _, d := range ms {
			if d != 0 {
				set[k.Hour] = true
				break
			}
		}
	}
	for h, ih := range c.items {
		if ih.changed() {
			set[h] = true
		}
	}
	hours := make([]int64, 0, len(set))
	for h := range set {
		hours = append(hours, h)
	}
	slices.Sort(hours)
	return hours
}

// applyRollups writes c: each touched hour's row read (locked on
// PostgreSQL, hours in order, so two followers never wait on each other
// in a circle), changed and written back.
func (db *DB) applyRollups(ctx context.Context, tx *sqlx.Tx, c *rollupChange) error {
	if err := db.numberCustomers(ctx, tx, c); err != nil {
		return err
	}
	hours := c.touched()
	byFlags := map[int64][]hourKey{}
	for k := range c.hours {
		byFlags[k.Hour] = append(byFlags[k.Hour], k)
	}
	for start := 0; start < len(hours); start += 100 {
		part := hours[start:min(len(hours), start+100)]
		var ins strings.Builder
		ins.WriteString(`INSERT INTO analytics_hours (hour, sums, customers, products, coupons, items, coupon_sums, customer_sums) VALUES `)
		var args []any
		for i, h := range part {
			if i > 0 {
				ins.WriteString(", ")
			}
			ins.WriteString("(?, ?, ?, ?, ?, ?, ?, ?)")
			args = append(args, h, []byte{}, []byte{}, []byte{}, []byte{}, []byte{}, []byte{}, []byte{})
		}
		ins.WriteString(` ON CONFLICT (hour) DO NOTHING`)
		if _, err := tx.ExecContext(ctx, tx.Rebind(ins.String()), args...); err != nil {
			return err
		}
		in, hargs := sqlcore.InClause(part)
		q := `SELECT ` + storedHourColumns + ` FROM analytics_hours WHERE hour IN ` + in + ` ORDER BY hour`
		if db.Engine == sqlcore.Postgres {
			q += ` FOR UPDATE`
		}
		var rows []storedHour
		if err := tx.SelectContext(ctx, &rows, tx.Rebind(q), hargs...); err != nil {
			return err
		}
		var up strings.Builder
		up.WriteString(`INSERT INTO analytics_hours (hour, sums, customers, products, coupons, items, coupon_sums, customer_sums) VALUES `)
		args = args[:0]
		var empty []int64
		for _, r := range rows {
			h, err := unpackHour(r.Hour, r.Sums, r.Customers, r.Products, r.Coupons)
			if err != nil {
				return err
			}
			for _, k := range byFlags[r.Hour] {
				s := h.sums[k.Flags]
				s.plus(*c.hours[k])
				h.sums[k.Flags] = s
			}
			for _, kind := range []int{setCustomers, setProducts, setCoupons} {
				for m, d := range c.sets[setKey{r.Hour, kind}] {
					h.members[kind][m] += d
				}
			}
			sums, cs, ps, cps, err := h.pack(r.Hour)
			if err != nil {
				return err
			}
			// The item sums: an hour not built yet is built from its
			// facts (already the new ones), else changed by c.
			var ih *itemHour
			if r.Unbuilt == 1 {
				built, err := itemHoursBetween(ctx, tx, r.Hour, r.Hour+hourSecs)
				if err != nil {
					return err
				}
				if ih = built[r.Hour]; ih == nil {
					ih = newItemHour()
				}
			} else {
				if ih, err = unpackItemHour(r.Hour, r.Items, r.CouponSums, r.CustomerSums); err != nil {
					return err
				}
				if d := c.items[r.Hour]; d != nil {
					ih.apply(d)
				}
			}
			items, isums, csums, err := ih.pack(r.Hour)
			if err != nil {
				return err
			}
			if len(sums) == 0 && len(cs) == 0 && len(ps) == 0 && len(cps) == 0 && len(items) == 0 && len(isums) == 0 && len(csums) == 0 {
				empty = append(empty, r.Hour) // no facts left in the hour
				continue
			}
			if len(args) > 0 {
				up.WriteString(", ")
			}
			up.WriteString("(?, ?, ?, ?, ?, ?, ?, ?)")
			args = append(args, r.Hour, sums, cs, ps, cps, items, isums, csums)
		}
		up.WriteString(` ON CONFLICT (hour) DO UPDATE SET sums = excluded.sums, customers = excluded.customers, products = excluded.products,
			coupons = excluded.coupons, items = excluded.items, coupon_sums = excluded.coupon_sums, customer_sums = excluded.customer_sums`)
		if len(empty) > 0 {
			in, eargs := sqlcore.InClause(empty)
			if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM analytics_hours WHERE hour IN `+in), eargs...); err != nil {
				return err
			}
		}
		if len(args) > 0 {
			if _, err := tx.ExecContext(ctx, tx.Rebind(up.String()), args...); err != nil {
				return err
			}
		}
	}
	return nil
}

// rollupPlan is how a period's spans are read: whole hours from the
// rollups ([core0, core1)) and the partial hours at its ends from the
// facts. ok is false when a span's inner edge is not on the hour (a zone
// whose offset is not whole hours): the facts answer.
type rollupPlan struct {
	core0, core1 int64
	edges        [][2]int64
}

func planRollup(f analytics.Filter, spans [][2]int64) (rollupPlan, bool) {
	if len(f.Products) > 0 || len(f.Variations) > 0 || len(f.Categories) > 0 || len(f.Coupons) > 0 {
		return rollupPlan{}, false
	}
	for i, s := range spans {
		if (i > 0 && s[0]%hourSecs != 0) || (i < len(spans)-1 && s[1]%hourSecs != 0) {
			return rollupPlan{}, false
		}
	}
	p := rollupPlan{core0: hourOf(f.From + hourSecs - 1), core1: hourOf(f.To)}
	if p.core0 >= p.core1 {
		return rollupPlan{}, false
	}
	if f.From < p.core0 {
		p.edges = append(p.edges, [2]int64{f.From, p.core0})
	}
	if p.core1 < f.To {
		p.edges = append(p.edges, [2]int64{p.core1, f.To})
	}
	return p, true
}

// idSet counts distinct ids: an id is in the set when marked with the
// current generation (customer numbers and product ids are small; a
// larger id is kept in a map).
type idSet struct {
	gen   uint32
	marks []uint32
	big   map[int64]uint32
}

func (s *idSet) next() {
	s.gen++
	if s.gen == 0 { // wrapped: forget every mark
		clear(s.marks)
		clear(s.big)
		s.gen = 1
	}
}

// idSets are a report's sets, kept between reports (a shop's customer
// numbers run to hundreds of thousands: the marks are not cleared per
// report, a new generation forgets them).
type idSets struct{ all, inSpan [4]idSet }

var idSetPool = sync.Pool{New: func() any { return new(idSets) }}

// add reports whether id is new in this generation.
func (s *idSet) add(id int64) bool {
	if id < 0 || id >= 1<<24 {
		if s.big == nil {
			s.big = map[int64]uint32{}
		}
		if s.big[id] == s.gen {
			return false
		}
		s.big[id] = s.gen
		return true
	}
	if int(id) >= len(s.marks) {
		m := make([]uint32, max(int(id)+1, 2*len(s.marks)))
		copy(m, s.marks)
		s.marks = m
	}
	if s.marks[id] == s.gen {
		return false
	}
	s.marks[id] = s.gen
	return true
}

// rollupSums is orderSums from the rollups (ok false: use the facts).
func (db *DB) rollupSums(ctx context.Context, r analyticsReader, f analytics.Filter, spans [][2]int64) (analytics.Sums, []analytics.Sums, bool, error) {
	p, ok := planRollup(f, spans)
	if !ok {
		return analytics.Sums{}, nil, false, nil
	}
	counted := [256]bool{}
	for _, st := range f.Statuses {
		for ret := 0; ret < 2; ret++ {
			if (f.CustomerType == "new" && ret == 1) || (f.CustomerType == "returning" && ret == 0) {
				continue
			}
			counted[memberFlags(st, ret == 1)] = true
		}
	}
	counted[0], counted[1] = false, false // statuses a report never counts
	each := make([]analytics.Sums, len(spans))
	spanOf := func(at int64) int {
		i := sort.Search(len(spans), func(i int) bool { return spans[i][1] > at })
		if i < len(spans) && at >= spans[i][0] {
			return i
		}
		return -1
	}
	// The edges' facts: their sums, and their customers and products as
	// hits met in time order with the hours'.
	type hit struct {
		at   int64
		kind int
		id   int64
	}
	var edgeHits []hit
	if len(p.edges) > 0 {
		where, wargs := factsWhere(f)
		for _, e := range p.edges {
			var os []struct {
				analytics.OrderFact
				No *int64 `db:"no"`
			}
			if err := r.SelectContext(ctx, &os, r.Rebind(`SELECT o.order_id AS orderid, o.refund_id AS refundid, o.created_at AS createdat,
				o.status, o.items, o.gross, o.tax, o.shipping, o.discount, o.net, c.no
				FROM analytics_orders o LEFT JOIN analytics_names c ON c.name = o.customer
				WHERE o.created_at >= ? AND o.created_at < ?`+where), append([]any{e[0], e[1]}, wargs...)...); err != nil {
				return analytics.Sums{}, nil, false, err
			}
			for _, o := range os {
				i := spanOf(o.CreatedAt)
				if i < 0 {
					continue
				}
				var h hourSums
				h.add(o.OrderFact, 1)
				each[i].AddAdditive(h.sums())
				if o.No != nil {
					edgeHits = append(edgeHits, hit{o.CreatedAt, setCustomers, *o.No})
				}
			}
			var ls []struct {
				At      int64 `db:"created_at"`
				Product int64 `db:"product_id"`
			}
			if err := r.SelectContext(ctx, &ls, r.Rebind(`SELECT l.created_at, l.product_id FROM analytics_lines l
				JOIN analytics_orders o ON o.order_id = l.order_id AND o.refund_id = 0
				WHERE l.refund_id = 0 AND l.created_at >= ? AND l.created_at < ?`+where), append([]any{e[0], e[1]}, wargs...)...); err != nil {
				return analytics.Sums{}, nil, false, err
			}
			for _, l := range ls {
				edgeHits = append(edgeHits, hit{l.At, setProducts, l.Product})
			}
			var cs []struct {
				At int64 `db:"created_at"`
				No int64 `db:"no"`
			}
			if err := r.SelectContext(ctx, &cs, r.Rebind(`SELECT c.created_at, n.no FROM analytics_coupons c
				JOIN analytics_orders o ON o.order_id = c.order_id AND o.refund_id = 0
				JOIN analytics_names n ON n.name = 'c' || CAST(c.coupon_id AS TEXT) || '|' || c.code
				WHERE c.created_at >= ? AND c.created_at < ?`+where), append([]any{e[0], e[1]}, wargs...)...); err != nil {
				return analytics.Sums{}, nil, false, err
			}
			for _, c := range cs {
				edgeHits = append(edgeHits, hit{c.At, setCoupons, c.No})
			}
		}
	}
	slices.SortStableFunc(edgeHits, func(a, b hit) int {
		if a.at < b.at {
			return -1
		}
		if a.at > b.at {
			return 1
		}
		return 0
	})
	var total analytics.Sums
	// Distinct members over the period and per span (the hours are met
	// in order, so a span's are met together).
	sets := idSetPool.Get().(*idSets)
	defer idSetPool.Put(sets)
	all, inSpan := &sets.all, &sets.inSpan
	var cur [4]int
	for k := range all {
		all[k].next()
		cur[k] = -1
	}
	meet := func(i, kind int, id int64) {
		if kind == setProducts {
			if all[kind].add(id) {
				total.Products++
			}
			return
		}
		if i != cur[kind] {
			cur[kind] = i
			inSpan[kind].next()
		}
		n, tn := &each[i].Customers, &total.Customers
		if kind == setCoupons {
			n, tn = &each[i].Coupons, &total.Coupons
		}
		if inSpan[kind].add(id) {
			*n++
		}
		if all[kind].add(id) {
			*tn++
		}
	}
	emit := func(h hit) {
		if i := spanOf(h.at); i >= 0 {
			meet(i, h.kind, h.id)
		}
	}
	k := 0
	for ; k < len(edgeHits) && edgeHits[k].at < p.core0; k++ {
		emit(edgeHits[k])
	}
	// The whole hours, in order: each span's customers are met together.
	rows, err := r.QueryxContext(ctx, r.Rebind(`SELECT hour, sums, customers, products, coupons FROM analytics_hours WHERE hour >= ? AND hour < ? ORDER BY hour`),
		p.core0, p.core1)
	if err != nil {
		return analytics.Sums{}, nil, false, err
	}
	defer rows.Close()
	var hour int64
	var sums, customers, products, coupons []byte
	for rows.Next() {
		if err := rows.Scan(&hour, &sums, &customers, &products, &coupons); err != nil {
			return analytics.Sums{}, nil, false, err
		}
		i := spanOf(hour)
		if i < 0 {
			continue
		}
		if err := eachSums(sums, func(flags uint8, h hourSums) {
			if counted[flags] {
				each[i].AddAdditive(h.sums())
			}
		}); err != nil {
			return analytics.Sums{}, nil, false, err
		}
		for kind, b := range [4][]byte{setCustomers: customers, setProducts: products, setCoupons: coupons} {
			if kind == 0 {
				continue
			}
			if err := eachMember(b, func(id int64, flags uint8, n int64) {
				if counted[flags] {
					meet(i, kind, id)
				}
			}); err != nil {
				return analytics.Sums{}, nil, false, err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return analytics.Sums{}, nil, false, err
	}
	for ; k < len(edgeHits); k++ {
		emit(edgeHits[k])
	}
	for _, m := range each {
		total.AddAdditive(m)
	}
	return total, each, true, nil
}

// factsBetween reads the facts dated in [from, to): the order facts, the
// lines (refunds' too) and the coupons, as the rollups count them.
func factsBetween(ctx context.Context, r analyticsReader, from, to int64) (analytics.Facts, error) {
	var f analytics.Facts
	var os []struct {
		analytics.OrderFact
		Ret int64 `db:"returning_customer"`
	}
	if err := r.SelectContext(ctx, &os, r.Rebind(`SELECT order_id AS orderid, refund_id AS refundid, created_at AS createdat, status, customer,
		returning_customer, items, gross, tax, shipping, discount, net FROM analytics_orders WHERE created_at >= ? AND created_at < ?`), from, to); err != nil {
		return f, err
	}
	for _, o := range os {
		o.OrderFact.Returning = o.Ret == 1
		f.Orders = append(f.Orders, o.OrderFact)
	}
	ls, cs, err := itemFactsBetween(ctx, r, from, to)
	f.Lines, f.Coupons = ls, cs
	return f, err
}

// rollupWeeks calls fn with [from, to) a week of hours at a time over
// the facts' dates.
func (db *DB) rollupWeeks(ctx context.Context, fn func(from, to int64) error) error {
	var lo, hi sql.NullInt64
	if err := db.Read.QueryRowxContext(ctx, `SELECT MIN(created_at), MAX(created_at) FROM analytics_orders`).Scan(&lo, &hi); err != nil {
		return err
	}
	if !lo.Valid {
		return nil
	}
	for from := hourOf(lo.Int64); from <= hi.Int64; from += 7 * 24 * hourSecs {
		if err := fn(from, from+7*24*hourSecs); err != nil {
			return err
		}
	}
	return nil
}

// AnalyticsRebuildRollups recomputes every hour's rollup from the facts
// (after rows changed by hand, or to check a follower's work); the
// follower must not run meanwhile.
func (db *DB) AnalyticsRebuildRollups(ctx context.Context) error {
	if _, err := db.Write.ExecContext(ctx, `DELETE FROM analytics_hours`); err != nil {
		return err
	}
	return db.rollupWeeks(ctx, func(from, to int64) error {
		return db.Tx(ctx, func(tx *sqlx.Tx) error {
			f, err := factsBetween(ctx, tx, from, to)
			if err != nil {
				return err
			}
			c := newRollupChange()
			c.add(f, 1)
			return db.applyRollups(ctx, tx, c)
		})
	})
}

// AnalyticsCheckRollups compares every hour's rollup with the facts it
// sums: nil when they agree, else the first hour that differs.
func (db *DB) AnalyticsCheckRollups(ctx context.Context) error {
	var stored int
	if err := db.Read.GetContext(ctx, &stored, `SELECT COUNT(*) FROM analytics_hours`); err != nil {
		return err
	}
	nos := map[string]int64{}
	var numbered []struct {
		No       int64  `db:"no"`
		Customer string `db:"customer"`
	}
	if err := db.Read.SelectContext(ctx, &numbered, `SELECT no, name AS customer FROM analytics_names`); err != nil {
		return err
	}
	for _, r := range numbered {
		nos[r.Customer] = r.No
	}
	seen := 0
	err := db.rollupWeeks(ctx, func(from, to int64) error {
		f, err := factsBetween(ctx, db.Read, from, to)
		if err != nil {
			return err
		}
		c := newRollupChange()
		c.add(f, 1)
		for _, cf := range c.custFacts {
			no, ok := nos[cf.customer]
			if !ok {
				return fmt.Errorf("analytics rollups: %q has no number", cf.customer)
			}
			c.member(setKey{cf.hour, cf.kind}, member{no, cf.flags}, cf.sign)
		}
		want := map[int64]*hourRow{}
		for _, h := range c.touched() {
			w := &hourRow{sums: map[uint8]hourSums{}}
			for k, s := range c.hours {
				if k.Hour == h && *s != (hourSums{}) {
					w.sums[k.Flags] = *s
				}
			}
			for _, kind := range []int{setCustomers, setProducts, setCoupons} {
				w.members[kind] = map[member]int64{}
				for m, n := range c.sets[setKey{h, kind}] {
					if n != 0 {
						w.members[kind][m] = n
					}
				}
			}
			want[h] = w
		}
		var got []storedHour
		if err := db.Read.SelectContext(ctx, &got, db.Read.Rebind(`SELECT `+storedHourColumns+` FROM analytics_hours
			WHERE hour >= ? AND hour < ?`), from, to); err != nil {
			return err
		}
		seen += len(got)
		for _, g := range got {
			h, err := unpackHour(g.Hour, g.Sums, g.Customers, g.Products, g.Coupons)
			if err != nil {
				return err
			}
			w := want[g.Hour]
			if w == nil {
				w = &hourRow{sums: map[uint8]hourSums{}, members: [4]map[member]int64{nil, {}, {}, {}}}
			}
			if fmt.Sprint(h.sums) != fmt.Sprint(w.sums) || fmt.Sprint(h.members) != fmt.Sprint(w.members) {
				return fmt.Errorf("analytics rollups: hour %d differs from its facts:\n kept %v %v\n want %v %v", g.Hour, h.sums, h.members, w.sums, w.members)
			}
			if g.Unbuilt == 1 {
				return fmt.Errorf("analytics rollups: hour %d's item sums are not built", g.Hour)
			}
			wi := c.items[g.Hour]
			if wi == nil {
				wi = newItemHour()
			}
			if err := wi.number(nos); err != nil {
				return err
			}
			items, isums, csums, err := wi.pack(g.Hour)
			if err != nil {
				return err
			}
			if string(items) != string(g.Items) || string(isums) != string(g.CouponSums) || string(csums) != string(g.CustomerSums) {
				kept, err := unpackItemHour(g.Hour, g.Items, g.CouponSums, g.CustomerSums)
				if err != nil {
					return err
				}
				return fmt.Errorf("analytics rollups: hour %d's item sums differ from its facts:\n kept %v %v %v\n want %v %v %v", g.Hour,
					kept.items, kept.coupons, kept.custs, wi.items, wi.coupons, wi.custs)
			}
			delete(want, g.Hour)
		}
		for h := range want {
			return fmt.Errorf("analytics rollups: hour %d has facts and no rollup", h)
		}
		return nil
	})
	if err == nil && seen != stored {
		err = fmt.Errorf("analytics rollups: %d hours kept, %d within the facts' dates", stored, seen)
	}
	return err
}
