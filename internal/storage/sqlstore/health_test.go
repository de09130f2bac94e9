package sqlstore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"

	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// TestOutageClassified: errors of a lost connection (PostgreSQL's 57P01)
// and of a full disk (a real SQLITE_FULL) leave the store wrapping
// ErrUnavailable, still unwrapping to the engine's error; Unavailable
// reports them; Ready fails while they last and passes again after, the
// full disk only once a write succeeds. Other errors are left alone.
func TestOutageClassified(t *testing.T) {
	full := storetest.SQLiteFullError(t)
	var se *sqlite.Error
	if !errors.As(full, &se) {
		t.Fatalf("not an SQLite error: %T %v", full, full)
	}
	storetest.EachDSN(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		f := &sqlstore.Faults{}
		db := storetest.OpenFaulty(t, dsn, f)
		if err := db.Ready(ctx); err != nil {
			t.Fatalf("ready: %v", err)
		}
		if err := db.Unavailable(); err != nil {
			t.Fatalf("unavailable before any outage: %v", err)
		}
		// An ordinary error is not an outage.
		if _, err := db.CouponByCode(ctx, "no-such-coupon"); err != nil && sqlstore.IsUnavailable(err) {
			t.Fatalf("a missing coupon is an outage: %v", err)
		}

		// A lost connection: every statement fails.
		lost := &pgconn.PgError{Severity: "FATAL", Code: "57P01", Message: "terminating connection due to administrator command"}
		f.FailAll(lost)
		_, err := db.CouponByCode(ctx, "x")
		var pe *pgconn.PgError
		if !sqlstore.IsUnavailable(err) || !errors.As(err, &pe) || pe.Code != "57P01" {
			t.Fatalf("read during a lost connection: %v", err)
		}
		if db.Unavailable() == nil {
			t.Fatal("Unavailable is nil after a lost connection")
		}
		if err := db.Ready(ctx); err == nil {
			t.Fatal("ready while the connection is lost")
		}
		f.Clear()
		if err := db.Ready(ctx); err != nil {
			t.Fatalf("not ready once the connection is back: %v", err)
		}

		// A full disk: writes fail, reads work.
		f.FailWrites(full)
		_, err = db.PutSetting(ctx, "probe", []byte(`1`), 0, time.Unix(1700000000, 0))
		if !sqlstore.IsUnavailable(err) || !errors.As(err, &se) {
			t.Fatalf("write on a full disk: %v", err)
		}
		if _, err := db.CouponByCode(ctx, "x"); sqlstore.IsUnavailable(err) {
			t.Fatalf("a read failed on a full disk: %v", err)
		}
		if err := db.Ready(ctx); err == nil {
			t.Fatal("ready on a full disk")
		}
		f.Clear()
		if err := db.Ready(ctx); err != nil {
			t.Fatalf("not ready once the disk takes writes: %v", err)
		}
	})
}
