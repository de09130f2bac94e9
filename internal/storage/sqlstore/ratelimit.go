package sqlstore

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/checkout"
)

// Rate limiting counters (table rate_limits), shared by every instance on
// the store. A fixed window per key that starts at the key's first hit: the
// key's row holds its window's end and count; the upsert below counts a hit
// (starting a new window when the old one ended) and answers the count in
// one statement, so concurrent hits are never lost.

// RateHit is one counter a request counts against (checkout.RateHit).
type RateHit = checkout.RateHit

const sqlRateHit = `INSERT INTO rate_limits (bucket, window_start, hits, expires_at) VALUES (?, ?, 1, ?)
	ON CONFLICT (bucket) DO UPDATE SET
		hits = CASE WHEN rate_limits.expires_at > excluded.window_start THEN rate_limits.hits + 1 ELSE 1 END,
		window_start = CASE WHEN rate_limits.expires_at > excluded.window_start THEN rate_limits.window_start ELSE excluded.window_start END,
		expires_at = CASE WHEN rate_limits.expires_at > excluded.window_start THEN rate_limits.expires_at ELSE excluded.expires_at END
	RETURNING hits, expires_at`

// HitRateLimits counts one hit against every key of hits in its current
// window (one of length window starts at a key's first hit), in one
// transaction, and reports whether all stayed within
// their limits; when not, wait is the time until the window ends. Refused
// hits are counted too, so a client that keeps trying stays refused until
// the window ends.
func (db *DB) HitRateLimits(ctx context.Context, hits []RateHit, window time.Duration, now time.Time) (wait time.Duration, ok bool, err error) {
	secs := max(int64(window/time.Second), 1)
	start := now.Unix()
	var end int64
	err = db.Tx(ctx, func(tx *sqlx.Tx) error {
		ok, end = true, 0
		for _, h := range hits {
			if h.Limit <= 0 || h.Key == "" {
				continue
			}
			var row struct {
				Hits    int   `db:"hits"`
				Expires int64 `db:"expires_at"`
			}
			if err := tx.GetContext(ctx, &row, tx.Rebind(sqlRateHit), h.Key, start, start+secs); err != nil {
				return err
			}
			if row.Hits > h.Limit {
				ok, end = false, max(end, row.Expires)
			}
		}
		return nil
	})
	if err != nil {
		return 0, true, err
	}
	if !ok {
		wait = max(time.Unix(end, 0).Sub(now), time.Second)
	}
	return wait, ok, nil
}

// DeleteExpiredRateLimits deletes the counters whose window ended before now.
func (db *DB) DeleteExpiredRateLimits(ctx context.Context, now time.Time) (int64, error) {
	res, err := db.Write.ExecContext(ctx, db.Write.Rebind(`DELETE FROM rate_limits WHERE expires_at <= ?`), now.Unix())
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// RefundRateLimits takes one hit back from each key's current count (an
// attempt counted before it was checked, which succeeded).
func (db *DB) RefundRateLimits(ctx context.Context, keys []string) error {
	for _, k := range keys {
		if _, err := db.Write.ExecContext(ctx, db.Write.Rebind(`UPDATE rate_limits SET hits = hits - 1 WHERE bucket = ? AND hits > 0`), k); err != nil {
			return err
		}
	}
	return nil
}

// ClearRateLimits deletes the counters of keys (a login that succeeded
// clears its account's failures).
func (db *DB) ClearRateLimits(ctx context.Context, keys []string) error {
	for _, k := range keys {
		if _, err := db.Write.ExecContext(ctx, db.Write.Rebind(`DELETE FROM rate_limits WHERE bucket = ?`), k); err != nil {
			return err
		}
	}
	return nil
}
