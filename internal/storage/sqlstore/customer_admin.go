package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/account"
	"vitrine/internal/cart"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// The customers' back office (account.CustomerAdminStore): the list's
// page of ids, and what a customer's answer adds to its user row.

// Customers lists a page of user ids matching q, and how many match.
func (db *DB) Customers(ctx context.Context, q account.CustomerQuery) ([]int64, int, error) {
	var where []string
	var args []any
	add := func(cond string, a ...any) {
		where = append(where, cond)
		args = append(args, a...)
	}
	if q.Role != account.RoleAll {
		add(`role = ?`, q.Role)
	}
	if q.Email != "" {
		add(`email = ?`, q.Email)
	}
	if s := strings.TrimSpace(q.Search); s != "" {
		like := "%" + sqlcore.LikeEscape(strings.ToLower(s)) + "%"
		add(`(email LIKE ? ESCAPE '\' OR LOWER(COALESCE(username, '')) LIKE ? ESCAPE '\'
			OR LOWER(first_name) LIKE ? ESCAPE '\' OR LOWER(last_name) LIKE ? ESCAPE '\' OR LOWER(display_name) LIKE ? ESCAPE '\')`,
			like, like, like, like, like)
	}
	if len(q.IDs) > 0 {
		add(`id IN (?)`, q.IDs)
	}
	if len(q.Exclude) > 0 {
		add(`id NOT IN (?)`, q.Exclude)
	}
	cond := ""
	if len(where) > 0 {
		cond = ` WHERE ` + strings.Join(where, ` AND `)
	}
	dir := ` ASC`
	if q.Order == "desc" {
		dir = ` DESC`
	}
	order := `display_name` + dir + `, id` + dir
	switch q.OrderBy {
	case "id", "include":
		order = `id` + dir
	case "registered_date":
		order = `created_at` + dir + `, id` + dir
	}
	count, cargs, err := sqlx.In(`SELECT COUNT(*) FROM users`+cond, args...)
	if err != nil {
		return nil, 0, err
	}
	var total int
	if err := db.Read.GetContext(ctx, &total, db.Read.Rebind(count), cargs...); err != nil {
		return nil, 0, err
	}
	page, pargs, err := sqlx.In(`SELECT id FROM users`+cond+` ORDER BY `+order+sqlcore.Limit(q.Limit)+` OFFSET ?`, append(args, q.Offset)...)
	if err != nil {
		return nil, 0, err
	}
	var ids []int64
	if err := db.Read.SelectContext(ctx, &ids, db.Read.Rebind(page), pargs...); err != nil {
		return nil, 0, err
	}
	return ids, total, nil
}

// CustomersByID loads the accounts of ids that exist (account.Customer:
// the user row, its names, saved addresses, their newest save and whether
// it has a paid order) in two statements whatever the number of ids: the
// users with their aggregates, then every saved address of the page.
func (db *DB) CustomersByID(ctx context.Context, ids []int64) (map[int64]*account.Customer, error) {
	out := make(map[int64]*account.Customer, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		userRow
		First  string        `db:"first_name"`
		Last   string        `db:"last_name"`
		Saved  sql.NullInt64 `db:"saved"`
		Paying int           `db:"paying"`
	}
	q, args, err := sqlx.In(`SELECT `+userColumns+`, first_name, last_name,
		(SELECT MAX(a.updated_at) FROM customer_addresses a WHERE a.user_id = users.id) AS saved,
		CASE WHEN EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = users.id AND o.status IN ('processing', 'completed'))
			THEN 1 ELSE 0 END AS paying
		FROM users WHERE id IN (?)`, ids)
	if err != nil {
		return nil, err
	}
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(q), args...); err != nil {
		return nil, err
	}
	for _, r := range rows {
		u := r.user()
		c := &account.Customer{User: *u, FirstName: r.First, LastName: r.Last, Paying: r.Paying > 0, ModifiedAt: u.CreatedAt}
		if r.Saved.Valid {
			if saved := sqlcore.UnixUTC(r.Saved.Int64); saved.After(c.ModifiedAt) {
				c.ModifiedAt = saved
			}
		}
		out[r.ID] = c
	}
	var addrs []struct {
		UserID  int64  `db:"user_id"`
		Kind    string `db:"kind"`
		Address string `db:"address"`
	}
	q, args, err = sqlx.In(`SELECT user_id, kind, address FROM customer_addresses WHERE user_id IN (?)`, ids)
	if err != nil {
		return nil, err
	}
	if err := db.Read.SelectContext(ctx, &addrs, db.Read.Rebind(q), args...); err != nil {
		return nil, err
	}
	for _, r := range addrs {
		c, ok := out[r.UserID]
		if !ok {
			continue
		}
		var a cart.Address
		if err := json.Unmarshal([]byte(r.Address), &a); err != nil {
			return nil, fmt.Errorf("address of user %d: %w", r.UserID, err)
		}
		switch r.Kind {
		case account.AddressBilling:
			c.Billing = a
		case account.AddressShipping:
			c.Shipping = a
		}
	}
	return out, nil
}
