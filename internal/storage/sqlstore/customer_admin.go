package sqlstore

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/account"
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
	page, pargs, err := sqlx.In(`SELECT id FROM users`+cond+` ORDER BY `+order+` LIMIT ? OFFSET ?`, append(args, q.Limit, q.Offset)...)
	if err != nil {
		return nil, 0, err
	}
	var ids []int64
	if err := db.Read.SelectContext(ctx, &ids, db.Read.Rebind(page), pargs...); err != nil {
		return nil, 0, err
	}
	return ids, total, nil
}

// CustomerExtra answers a user's names, its addresses' newest save and
// whether it has a paid order (account.ErrNoUser).
func (db *DB) CustomerExtra(ctx context.Context, userID int64) (first, last string, saved time.Time, paying bool, err error) {
	var r struct {
		First  string        `db:"first_name"`
		Last   string        `db:"last_name"`
		Saved  sql.NullInt64 `db:"saved"`
		Paying int           `db:"paying"`
	}
	err = db.Read.GetContext(ctx, &r, db.Read.Rebind(`SELECT first_name, last_name,
		(SELECT MAX(updated_at) FROM customer_addresses a WHERE a.user_id = u.id) AS saved,
		(SELECT COUNT(*) FROM orders o WHERE o.customer_id = u.id AND o.status IN ('processing', 'completed')) AS paying
		FROM users u WHERE u.id = ?`), userID)
	if err != nil {
		return "", "", time.Time{}, false, sqlcore.NoRow(err, account.ErrNoUser)
	}
	if r.Saved.Valid {
		saved = sqlcore.UnixUTC(r.Saved.Int64)
	}
	return r.First, r.Last, saved, r.Paying > 0, nil
}
