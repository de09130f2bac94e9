// Package storetest opens fresh, migrated stores for tests: a temporary
// SQLite file always, and a fresh PostgreSQL schema when VITRINE_TEST_POSTGRES
// holds a DSN. Every engine-facing test runs through Engines so both engines
// prove the same contract.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver for schema set-up
	"github.com/jmoiron/sqlx"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore"
)

// EnvPostgres names the variable holding the PostgreSQL DSN for tests.
const EnvPostgres = "VITRINE_TEST_POSTGRES"

// Engines lists the engines to test: SQLite, plus PostgreSQL when configured.
func Engines(t testing.TB) []string {
	engines := []string{sqlstore.SQLite}
	if os.Getenv(EnvPostgres) != "" {
		engines = append(engines, sqlstore.Postgres)
	}
	return engines
}

// DSN returns a DSN for a fresh, empty database of the engine, removed when
// the test ends. On PostgreSQL a commit does not wait for the WAL flush
// (synchronous_commit=off); DurableDSN is one that does.
func DSN(t testing.TB, engine string) string {
	t.Helper()
	return dsn(t, engine, false)
}

// DurableDSN is DSN with durable commits, as a server has them: for
// benchmarks that measure a commit's cost.
func DurableDSN(t testing.TB, engine string) string {
	t.Helper()
	return dsn(t, engine, true)
}

func dsn(t testing.TB, engine string, durable bool) string {
	t.Helper()
	switch engine {
	case sqlstore.SQLite:
		return "sqlite:" + filepath.Join(t.TempDir(), "vitrine.db")
	case sqlstore.Postgres:
		base := os.Getenv(EnvPostgres)
		if base == "" {
			t.Fatalf("%s is not set", EnvPostgres)
		}
		b := make([]byte, 6)
		_, _ = rand.Read(b)
		schema := "t_" + hex.EncodeToString(b)
		admin, err := sql.Open("pgx", base)
		if err != nil {
			t.Fatal(err)
		}
		defer admin.Close()
		if _, err := admin.Exec(`CREATE SCHEMA ` + schema); err != nil {
			t.Fatalf("create schema: %v", err)
		}
		t.Cleanup(func() {
			a, err := sql.Open("pgx", base)
			if err != nil {
				return
			}
			defer a.Close()
			_, _ = a.Exec(`DROP SCHEMA ` + schema + ` CASCADE`)
		})
		u, err := url.Parse(base)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		q.Set("search_path", schema)
		// A commit need not wait for the server's WAL flush in a test: the
		// data is as visible, and only a crash of the PostgreSQL server
		// itself (never of the shop) would lose it. Each test's seeding
		// commits hundreds of times.
		if !durable {
			q.Set("synchronous_commit", "off")
		}
		u.RawQuery = q.Encode()
		return u.String()
	}
	t.Fatalf("unknown engine %q", engine)
	return ""
}

// Open returns a fresh, migrated store of the engine, closed when the test
// ends. Its commits do not wait for the disk (DSN, RelaxDurability).
func Open(t testing.TB, engine string) *sqlstore.DB {
	t.Helper()
	return OpenDSN(t, DSN(t, engine))
}

// OpenDurable is Open with commits that wait for the disk, as a server's
// do: for benchmarks that measure a commit's cost.
func OpenDurable(t testing.TB, engine string) *sqlstore.DB {
	t.Helper()
	dsn := DurableDSN(t, engine)
	db, err := sqlstore.Open(context.Background(), dsn, nil)
	return migrated(t, dsn, db, err)
}

// OpenDSN opens a migrated store on the database behind dsn, closed when
// the test ends. Opened twice on one DSN, it is two server instances
// sharing a database. On SQLite its commits do not wait for the disk
// (sqlcore.DB.RelaxDurability).
func OpenDSN(t testing.TB, dsn string) *sqlstore.DB {
	t.Helper()
	db, err := sqlstore.Open(context.Background(), dsn, nil)
	if err == nil {
		if err = db.RelaxDurability(context.Background()); err != nil {
			db.Close()
		}
	}
	return migrated(t, dsn, db, err)
}

// OpenFaulty opens a migrated store on the database behind dsn whose
// connections go through f, to inject the errors of an outage (a lost
// connection, a full disk); closed when the test ends.
func OpenFaulty(t testing.TB, dsn string, f *sqlstore.Faults) *sqlstore.DB {
	t.Helper()
	db, err := sqlstore.OpenFaulty(context.Background(), dsn, nil, f)
	return migrated(t, dsn, db, err)
}

// migrated fails the test if the store behind dsn did not open, closes it
// when the test ends, and migrates it.
func migrated(t testing.TB, dsn string, db *sqlstore.DB, err error) *sqlstore.DB {
	t.Helper()
	if err != nil {
		t.Fatalf("open %s: %v", dsn, err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(context.Background()); err != nil {
		t.Fatalf("migrate %s: %v", dsn, err)
	}
	return db
}

// OpenRaw opens the database behind dsn directly, without the store, for a
// transaction of the test's own (as another writer would hold one); closed
// when the test ends.
func OpenRaw(t testing.TB, dsn string) *sqlx.DB {
	t.Helper()
	driver, src := "pgx", dsn
	if rest, ok := strings.CutPrefix(dsn, "sqlite:"); ok {
		driver, src = "sqlite", "file:"+sqlstore.URIPath(rest)+"?_pragma=busy_timeout(5000)"
	}
	raw, err := sqlx.Open(driver, src)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close() })
	return raw
}

// Each runs fn as a subtest per engine with a fresh store.
func Each(t *testing.T, fn func(t *testing.T, db *sqlstore.DB)) {
	EachDSN(t, func(t *testing.T, dsn string) { fn(t, OpenDSN(t, dsn)) })
}

// EachDSN runs fn as a subtest per engine with the DSN of a fresh, empty
// database (for tests that open it themselves, or more than once).
func EachDSN(t *testing.T, fn func(t *testing.T, dsn string)) {
	for _, e := range Engines(t) {
		t.Run(strings.ToLower(e), func(t *testing.T) {
			fn(t, DSN(t, e))
		})
	}
}

// Cache is a catalogue cache over db that follows its change log as the
// server does: a use case's Synced applies every change committed before
// it, so tests of the cart and checkout services see stock and price
// changes at once.
func Cache(db *sqlstore.DB) *catalog.Cache {
	c := catalog.NewCache(db, 0)
	var last atomic.Int64
	c.Follow(last.Load, func(ctx context.Context) {
		for {
			changes, err := db.ChangesSince(ctx, last.Load(), 500)
			if err != nil || len(changes) == 0 {
				return
			}
			c.Invalidate(changes)
			last.Store(changes[len(changes)-1].ID)
		}
	})
	return c
}

// SQLiteFullError is a real SQLITE_FULL error from SQLite's driver: a
// scratch database capped at a few pages (max_page_count) is written
// until the cap refuses, as a full disk does. Tests inject it with
// sqlstore.Faults.
func SQLiteFullError(t testing.TB) error {
	t.Helper()
	raw := OpenRaw(t, "sqlite:"+filepath.Join(t.TempDir(), "full.db"))
	raw.SetMaxOpenConns(1)
	for _, q := range []string{`PRAGMA max_page_count = 3`, `CREATE TABLE fill (b BLOB)`} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	for range 100 {
		if _, err := raw.Exec(`INSERT INTO fill (b) VALUES (zeroblob(4000))`); err != nil {
			return err
		}
	}
	t.Fatal("SQLite took 100 rows of 4 KB in 3 pages")
	return nil
}
