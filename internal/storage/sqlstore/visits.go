package sqlstore

import (
	"context"

	"vitrine/internal/visits"
)

// Storefront sessions per UTC hour (table visit_hours, visits.Store).

// VisitsAdd adds n session starts to the hour starting at hour: one upsert,
// so instances counting at once add up.
func (db *DB) VisitsAdd(ctx context.Context, hour, n int64) error {
	_, err := db.Write.ExecContext(ctx, db.Write.Rebind(`INSERT INTO visit_hours (hour, sessions) VALUES (?, ?)
		ON CONFLICT (hour) DO UPDATE SET sessions = visit_hours.sessions + excluded.sessions`), hour, n)
	return err
}

// VisitsHours are the counted hours starting in [from, to), oldest first.
func (db *DB) VisitsHours(ctx context.Context, from, to int64) ([]visits.Hour, error) {
	var out []visits.Hour
	err := db.Read.SelectContext(ctx, &out, db.Read.Rebind(`SELECT hour AS start, sessions FROM visit_hours
		WHERE hour >= ? AND hour < ? ORDER BY hour`), from, to)
	return out, err
}
