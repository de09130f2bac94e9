package sqlcore_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"vitrine/internal/seed"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/sqlstore/sqlcore"
	"vitrine/internal/storage/storetest"
)

// t0 is the time the demo catalogue is seeded at.
var t0 = time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)

// openCounted is a fresh, migrated store of the engine whose statements c
// counts.
func openCounted(tb testing.TB, engine string, c *sqlstore.Counter) *sqlstore.DB {
	tb.Helper()
	db, err := sqlstore.OpenCounted(context.Background(), storetest.DSN(tb, engine), nil, c)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	if err := db.Migrate(context.Background()); err != nil {
		tb.Fatal(err)
	}
	return db
}

func TestCounterCountsEveryStatement(t *testing.T) {
	for _, engine := range storetest.Engines(t) {
		t.Run(strings.ToLower(engine), func(t *testing.T) {
			ctx := t.Context()
			var c sqlstore.Counter
			db := openCounted(t, engine, &c)
			read, write := db.Read, db.Write
			step := func(name string, want sqlstore.QueryCount, fn func() error) {
				t.Helper()
				before := c.Count()
				if err := fn(); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if got := c.Count().Sub(before); got != want {
					t.Errorf("%s: counted %+v, want %+v", name, got, want)
				}
			}
			one := sqlstore.QueryCount{Statements: 1}
			step("exec", one, func() error {
				_, err := write.ExecContext(ctx, `CREATE TABLE count_probe (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)`)
				return err
			})
			step("exec with arguments", one, func() error {
				_, err := write.ExecContext(ctx, write.Rebind(`INSERT INTO count_probe (id, name) VALUES (?, ?)`), 1, "one")
				return err
			})
			step("query with arguments", one, func() error {
				var name string
				return read.GetContext(ctx, &name, read.Rebind(`SELECT name FROM count_probe WHERE id = ?`), 1)
			})
			// Trace names each statement counted, prepared or not, until
			// Trace(nil).
			var traced []string
			c.Trace(func(q string) { traced = append(traced, q) })
			step("traced", sqlstore.QueryCount{Statements: 2}, func() error {
				var name string
				if err := read.GetContext(ctx, &name, `SELECT name FROM count_probe WHERE id = 1`); err != nil {
					return err
				}
				st, err := read.PreparexContext(ctx, `SELECT id FROM count_probe WHERE name = 'one'`)
				if err != nil {
					return err
				}
				defer st.Close()
				var id int
				return st.GetContext(ctx, &id)
			})
			c.Trace(nil)
			if _, err := read.ExecContext(ctx, `SELECT 1`); err != nil {
				t.Fatal(err)
			}
			if want := []string{`SELECT name FROM count_probe WHERE id = 1`, `SELECT id FROM count_probe WHERE name = 'one'`}; strings.Join(traced, "|") != strings.Join(want, "|") {
				t.Errorf("traced %q, want %q", traced, want)
			}
			step("prepared, run twice", sqlstore.QueryCount{Statements: 2}, func() error {
				st, err := read.PreparexContext(ctx, read.Rebind(`SELECT name FROM count_probe WHERE id = ?`))
				if err != nil {
					return err
				}
				defer st.Close()
				var name string
				for range 2 {
					if err := st.GetContext(ctx, &name, 1); err != nil {
						return err
					}
				}
				if name != "one" {
					t.Errorf("prepared query read %q", name)
				}
				return nil
			})
			step("transaction", sqlstore.QueryCount{Statements: 2, Transactions: 1}, func() error {
				tx, err := write.BeginTxx(ctx, nil)
				if err != nil {
					return err
				}
				defer tx.Rollback()
				for i, name := range []string{"two", "three"} {
					if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO count_probe (id, name) VALUES (?, ?)`), i+2, name); err != nil {
						return err
					}
				}
				return tx.Commit()
			})
			var n int
			if err := read.GetContext(ctx, &n, `SELECT COUNT(*) FROM count_probe`); err != nil || n != 3 {
				t.Fatalf("rows after the transaction: %d, %v", n, err)
			}
			// A failed statement is counted (it went to the database) and its
			// error reaches the store as the engine's own error.
			before := c.Count()
			_, err := write.ExecContext(ctx, write.Rebind(`INSERT INTO count_probe (id, name) VALUES (?, ?)`), 9, "one")
			if !sqlcore.UniqueViolation(err) {
				t.Errorf("duplicate insert through the counter: %v, want the engine's unique violation", err)
			}
			if got := c.Count().Sub(before); got != one {
				t.Errorf("failed exec counted %+v", got)
			}
			// The store's own methods work through the counter.
			if _, err := seed.Demo(ctx, db, t0); err != nil {
				t.Fatalf("seed through the counter: %v", err)
			}
			before = c.Count()
			p, err := db.ProductBySlug(ctx, "classic-tee")
			if err != nil || p.Name != "Classic Tee" {
				t.Fatalf("product through the counter: %+v, %v", p, err)
			}
			if got := c.Count().Sub(before); got.Statements == 0 {
				t.Errorf("reading a product counted no statement")
			}
		})
	}
}

func TestOpenDoesNotCount(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		read, write, err := db.CountsStatements(t.Context())
		if err != nil || read || write {
			t.Errorf("a store opened with Open counts: read %v, write %v (%v)", read, write, err)
		}
	})
	var c sqlstore.Counter
	read, write, err := openCounted(t, sqlstore.SQLite, &c).CountsStatements(t.Context())
	if err != nil || !read || !write {
		t.Errorf("a store opened with OpenCounted: read %v, write %v (%v)", read, write, err)
	}
	if _, err := sqlstore.OpenCounted(t.Context(), storetest.DSN(t, sqlstore.SQLite), nil, nil); err == nil {
		t.Error("OpenCounted without a counter opened a store")
	}
}

// BenchmarkCountedRead is one product read (ProductBySlug) on a store
// opened with Open ("off") and with OpenCounted ("on"): what counting costs.
//
//	go test -run '^$' -bench CountedRead -benchmem -count 5 ./internal/storage/sqlstore/
func BenchmarkCountedRead(b *testing.B) {
	for _, on := range []bool{false, true} {
		name := "off"
		if on {
			name = "on"
		}
		b.Run(name, func(b *testing.B) {
			var db *sqlstore.DB
			var c sqlstore.Counter
			if on {
				db = openCounted(b, sqlstore.SQLite, &c)
			} else {
				db = storetest.Open(b, sqlstore.SQLite)
			}
			ctx := context.Background()
			if _, err := seed.Demo(ctx, db, t0); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			before := c.Count()
			for b.Loop() {
				if _, err := db.ProductBySlug(ctx, "classic-tee"); err != nil {
					b.Fatal(err)
				}
			}
			if on {
				b.ReportMetric(float64(c.Count().Sub(before).Statements)/float64(b.N), "statements/op")
			}
		})
	}
}
