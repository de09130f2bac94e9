package sqlstore

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/analytics"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// Analytics' rollups (migration 00052, decision 0115): the order facts'
// sums by UTC hour, status and returning flag (analytics_hours), and who
// bought in each hour (analytics_hour_sets: customer numbers and product
// ids, each with its order's status and returning flag and a count). The
// follower applies the difference between an order's old facts and its
// new ones in the transaction that rewrites them, so the rollups are the
// facts summed, whatever path wrote the order. A stats report over whole
// hours sums the rollups and counts distinct customers and products from
// the sets; its partial hours at the ends come from the facts.

const hourSecs = 3600

// Set kinds.
const (
	setCustomers = 1
	setProducts  = 2
)

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
	Hour      int64
	Status    string
	Returning int
}

type hourSums struct {
	Orders, Items, OrderItems, Gross, Tax, Shipping, Discount, Net, OrderNet, RefundNet int64
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
	// customers: a fact's customer, numbered before the sets are written.
	custFacts []custFact
}

type custFact struct {
	hour     int64
	customer string
	flags    uint8
	sign     int64
}

func newRollupChange() *rollupChange {
	return &rollupChange{hours: map[hourKey]*hourSums{}, sets: map[setKey]map[member]int64{}}
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
	returning := map[int64]bool{}
	for _, o := range f.Orders {
		ret := 0
		if o.Returning {
			ret = 1
		}
		if o.RefundID == 0 {
			returning[o.OrderID] = o.Returning
		}
		k := hourKey{hourOf(o.CreatedAt), o.Status, ret}
		h := c.hours[k]
		if h == nil {
			h = &hourSums{}
			c.hours[k] = h
		}
		h.add(o, sign)
		if o.Customer != "" {
			c.custFacts = append(c.custFacts, custFact{hourOf(o.CreatedAt), o.Customer, memberFlags(o.Status, o.Returning), sign})
		}
	}
	for _, l := range f.Lines {
		if l.RefundID != 0 {
			continue
		}
		c.member(setKey{hourOf(l.CreatedAt), setProducts}, member{l.ProductID, memberFlags(l.Status, returning[l.OrderID])}, sign)
	}
}

// oldFacts reads the facts now stored for ids (the order rows and the
// order lines the rollups count).
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
	var ls []struct {
		OrderID   int64  `db:"order_id"`
		CreatedAt int64  `db:"created_at"`
		Status    string `db:"status"`
		ProductID int64  `db:"product_id"`
	}
	if err := tx.SelectContext(ctx, &ls, tx.Rebind(`SELECT order_id, created_at, status, product_id FROM analytics_lines
		WHERE refund_id = 0 AND order_id IN `+in), args...); err != nil {
		return f, err
	}
	for _, l := range ls {
		f.Lines = append(f.Lines, analytics.LineFact{OrderID: l.OrderID, CreatedAt: l.CreatedAt, Status: l.Status, ProductID: l.ProductID})
	}
	return f, nil
}

// customerNumbers numbers customers (new ones get the next numbers).
func (db *DB) customerNumbers(ctx context.Context, tx *sqlx.Tx, customers []string) (map[string]int64, error) {
	out := map[string]int64{}
	for start := 0; start < len(customers); start += 500 {
		part := customers[start:min(len(customers), start+500)]
		var q strings.Builder
		q.WriteString(`INSERT INTO analytics_customers (customer) VALUES `)
		args := make([]any, len(part))
		for i, c := range part {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(?)")
			args[i] = c
		}
		q.WriteString(` ON CONFLICT (customer) DO NOTHING`)
		if _, err := tx.ExecContext(ctx, tx.Rebind(q.String()), args...); err != nil {
			return nil, err
		}
		in, _ := sqlcore.InClause(part)
		var rows []struct {
			No       int64  `db:"no"`
			Customer string `db:"customer"`
		}
		if err := tx.SelectContext(ctx, &rows, tx.Rebind(`SELECT no, customer FROM analytics_customers WHERE customer IN `+in), args...); err != nil {
			return nil, err
		}
		for _, r := range rows {
			out[r.Customer] = r.No
		}
	}
	return out, nil
}

// applyRollups writes c: the hours' sums added to, and each touched
// hour set read (locked on PostgreSQL, in key order so two followers
// never wait on each other in a circle), changed and written back.
func (db *DB) applyRollups(ctx context.Context, tx *sqlx.Tx, c *rollupChange) error {
	if len(c.custFacts) > 0 {
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
			c.member(setKey{f.hour, setCustomers}, member{nos[f.customer], f.flags}, f.sign)
		}
	}
	hks := make([]hourKey, 0, len(c.hours))
	for k, h := range c.hours {
		if *h != (hourSums{}) {
			hks = append(hks, k)
		}
	}
	slices.SortFunc(hks, func(a, b hourKey) int {
		if a.Hour != b.Hour {
			return int(a.Hour - b.Hour)
		}
		if a.Status != b.Status {
			return strings.Compare(a.Status, b.Status)
		}
		return a.Returning - b.Returning
	})
	for start := 0; start < len(hks); start += 100 {
		part := hks[start:min(len(hks), start+100)]
		var q strings.Builder
		q.WriteString(`INSERT INTO analytics_hours (hour, status, returning_customer, orders, items, order_items, gross, tax, shipping,
			discount, net, order_net, refund_net) VALUES `)
		var args []any
		for i, k := range part {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(" + sqlcore.Placeholders(13) + ")")
			h := c.hours[k]
			args = append(args, k.Hour, k.Status, k.Returning, h.Orders, h.Items, h.OrderItems, h.Gross, h.Tax, h.Shipping, h.Discount,
				h.Net, h.OrderNet, h.RefundNet)
		}
		q.WriteString(` ON CONFLICT (hour, status, returning_customer) DO UPDATE SET`)
		for i, col := range []string{"orders", "items", "order_items", "gross", "tax", "shipping", "discount", "net", "order_net", "refund_net"} {
			if i > 0 {
				q.WriteString(",")
			}
			fmt.Fprintf(&q, " %s = analytics_hours.%s + excluded.%s", col, col, col)
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(q.String()), args...); err != nil {
			return err
		}
	}
	// The sets: only the keys whose members change.
	var sks []setKey
	for k, ms := range c.sets {
		for m, d := range ms {
			if d == 0 {
				delete(ms, m)
			}
		}
		if len(ms) > 0 {
			sks = append(sks, k)
		}
	}
	slices.SortFunc(sks, func(a, b setKey) int {
		if a.Hour != b.Hour {
			return int(a.Hour - b.Hour)
		}
		return a.Kind - b.Kind
	})
	for start := 0; start < len(sks); start += 100 {
		part := sks[start:min(len(sks), start+100)]
		var ins strings.Builder
		ins.WriteString(`INSERT INTO analytics_hour_sets (hour, kind, members) VALUES `)
		var args []any
		for i, k := range part {
			if i > 0 {
				ins.WriteString(", ")
			}
			ins.WriteString("(?, ?, ?)")
			args = append(args, k.Hour, k.Kind, []byte{})
		}
		ins.WriteString(` ON CONFLICT (hour, kind) DO NOTHING`)
		if _, err := tx.ExecContext(ctx, tx.Rebind(ins.String()), args...); err != nil {
			return err
		}
		var where strings.Builder
		args = args[:0]
		for i, k := range part {
			if i > 0 {
				where.WriteString(" OR ")
			}
			where.WriteString("(hour = ? AND kind = ?)")
			args = append(args, k.Hour, k.Kind)
		}
		q := `SELECT hour, kind, members FROM analytics_hour_sets WHERE ` + where.String() + ` ORDER BY hour, kind`
		if db.Engine == sqlcore.Postgres {
			q += ` FOR UPDATE`
		}
		var rows []struct {
			Hour    int64  `db:"hour"`
			Kind    int    `db:"kind"`
			Members []byte `db:"members"`
		}
		if err := tx.SelectContext(ctx, &rows, tx.Rebind(q), args...); err != nil {
			return err
		}
		var up strings.Builder
		up.WriteString(`INSERT INTO analytics_hour_sets (hour, kind, members) VALUES `)
		args = args[:0]
		for i, r := range rows {
			k := setKey{r.Hour, r.Kind}
			counts := map[member]int64{}
			if err := eachMember(r.Members, func(id int64, flags uint8, n int64) { counts[member{id, flags}] = n }); err != nil {
				return fmt.Errorf("hour %d kind %d: %w", r.Hour, r.Kind, err)
			}
			for m, d := range c.sets[k] {
				counts[m] += d
			}
			ms := make([]memberCount, 0, len(counts))
			for m, n := range counts {
				if n < 0 {
					return fmt.Errorf("analytics: hour %d kind %d: member %d counted %d times", r.Hour, r.Kind, m.ID, n)
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
			if i > 0 {
				up.WriteString(", ")
			}
			up.WriteString("(?, ?, ?)")
			args = append(args, r.Hour, r.Kind, encodeMembers(ms))
		}
		up.WriteString(` ON CONFLICT (hour, kind) DO UPDATE SET members = excluded.members`)
		if len(rows) > 0 {
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

func (s *idSet) next() { s.gen++ }

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
	counted := [16]bool{}
	for _, st := range f.Statuses {
		for ret := 0; ret < 2; ret++ {
			if (f.CustomerType == "new" && ret == 1) || (f.CustomerType == "returning" && ret == 0) {
				continue
			}
			counted[memberFlags(st, ret == 1)] = true
		}
	}
	var cond string
	var cargs []any
	if len(f.Statuses) == 0 {
		cond = ` AND 1 = 0`
	} else {
		in, a := sqlcore.InClause(f.Statuses)
		cond, cargs = ` AND h.status IN `+in, a
	}
	switch f.CustomerType {
	case "new":
		cond += ` AND h.returning_customer = 0`
	case "returning":
		cond += ` AND h.returning_customer = 1`
	}
	// The spans' whole hours, summed per span by the store.
	core := make([][2]int64, len(spans))
	for i, s := range spans {
		core[i] = [2]int64{max(s[0], p.core0), min(s[1], p.core1)}
	}
	cols := `COALESCE(SUM(h.orders), 0) AS orders, COALESCE(SUM(h.items), 0) AS items, COALESCE(SUM(h.order_items), 0) AS order_items,
		COALESCE(SUM(h.gross), 0) AS gross, COALESCE(SUM(h.tax), 0) AS tax, COALESCE(SUM(h.shipping), 0) AS shipping,
		COALESCE(SUM(h.discount), 0) AS discount, COALESCE(SUM(h.net), 0) AS net, COALESCE(SUM(h.order_net), 0) AS order_net,
		COALESCE(SUM(h.refund_net), 0) AS refund_net, 0 AS customers`
	q := spansCTE(core) + `SELECT iv.i AS i, ` + cols + ` FROM iv JOIN analytics_hours h ON h.hour >= iv.s AND h.hour < iv.e WHERE 1 = 1` + cond + ` GROUP BY iv.i`
	if db.Engine == sqlcore.Postgres {
		q = spansCTE(core) + `SELECT iv.i AS i, ` + cols + ` FROM iv CROSS JOIN LATERAL (SELECT * FROM analytics_hours h
			WHERE h.hour >= iv.s AND h.hour < iv.e` + cond + `) h GROUP BY iv.i`
	}
	var rows []sumsRow
	if err := r.SelectContext(ctx, &rows, r.Rebind(q), cargs...); err != nil {
		return analytics.Sums{}, nil, false, err
	}
	each := make([]analytics.Sums, len(spans))
	for _, row := range rows {
		each[row.I] = row.sums()
	}
	spanOf := func(at int64) int {
		i := sort.Search(len(spans), func(i int) bool { return spans[i][1] > at })
		if i < len(spans) && at >= spans[i][0] {
			return i
		}
		return -1
	}
	// Members per span: the hour sets of the whole hours, and the edges'
	// facts.
	type hit struct {
		at    int64
		kind  int
		id    int64
		flags uint8
	}
	var edgeHits []hit
	if len(p.edges) > 0 {
		where, wargs := factsWhere(f)
		for _, e := range p.edges {
			var os []struct {
				analytics.OrderFact
				No        *int64 `db:"no"`
				Returning int64  `db:"returning_customer"`
			}
			if err := r.SelectContext(ctx, &os, r.Rebind(`SELECT o.order_id AS orderid, o.refund_id AS refundid, o.created_at AS createdat,
				o.status, o.returning_customer, o.items, o.gross, o.tax, o.shipping, o.discount, o.net, c.no
				FROM analytics_orders o LEFT JOIN analytics_customers c ON c.customer = o.customer
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
				m := &each[i]
				m.Orders += h.Orders
				m.Items += h.Items
				m.OrderItems += h.OrderItems
				m.Gross += h.Gross
				m.Tax += h.Tax
				m.Shipping += h.Shipping
				m.Discount += h.Discount
				m.Net += h.Net
				m.OrderNet += h.OrderNet
				m.RefundNet += h.RefundNet
				if o.No != nil {
					edgeHits = append(edgeHits, hit{o.CreatedAt, setCustomers, *o.No, 0})
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
				edgeHits = append(edgeHits, hit{l.At, setProducts, l.Product, 0})
			}
		}
	}
	var sets []struct {
		Hour    int64  `db:"hour"`
		Kind    int    `db:"kind"`
		Members []byte `db:"members"`
	}
	if err := r.SelectContext(ctx, &sets, r.Rebind(`SELECT hour, kind, members FROM analytics_hour_sets WHERE hour >= ? AND hour < ? ORDER BY hour, kind`),
		p.core0, p.core1); err != nil {
		return analytics.Sums{}, nil, false, err
	}
	var total analytics.Sums
	var allCust, allProd, spanCust idSet
	allCust.next()
	allProd.next()
	cur := -1
	addCust := func(i int, id int64) {
		if i != cur {
			cur = i
			spanCust.next()
		}
		if spanCust.add(id) {
			each[i].Customers++
		}
		if allCust.add(id) {
			total.Customers++
		}
	}
	// Edge hits before the core, the core's hours in order, edge hits
	// after: each span's customers are met together.
	slices.SortFunc(edgeHits, func(a, b hit) int {
		if a.at < b.at {
			return -1
		}
		if a.at > b.at {
			return 1
		}
		return 0
	})
	emit := func(h hit) {
		i := spanOf(h.at)
		if i < 0 {
			return
		}
		if h.kind == setCustomers {
			addCust(i, h.id)
		} else if allProd.add(h.id) {
			total.Products++
		}
	}
	k := 0
	for ; k < len(edgeHits) && edgeHits[k].at < p.core0; k++ {
		emit(edgeHits[k])
	}
	for _, s := range sets {
		i := spanOf(s.Hour)
		if i < 0 {
			continue
		}
		err := eachMember(s.Members, func(id int64, flags uint8, n int64) {
			if !counted[flags&15] {
				return
			}
			if s.Kind == setCustomers {
				addCust(i, id)
			} else if allProd.add(id) {
				total.Products++
			}
		})
		if err != nil {
			return analytics.Sums{}, nil, false, err
		}
	}
	for ; k < len(edgeHits); k++ {
		emit(edgeHits[k])
	}
	for _, m := range each {
		total.Orders += m.Orders
		total.Items += m.Items
		total.OrderItems += m.OrderItems
		total.Gross += m.Gross
		total.Tax += m.Tax
		total.Shipping += m.Shipping
		total.Discount += m.Discount
		total.Net += m.Net
		total.OrderNet += m.OrderNet
		total.RefundNet += m.RefundNet
	}
	return total, each, true, nil
}
