package sqlcore

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	_ "modernc.org/sqlite"
)

// openKept opens a one-connection SQLite pool through the statement cache.
func openKept(t *testing.T) (*sql.DB, *sql.Conn) {
	t.Helper()
	pool, err := openPool("sqlite", "file:"+filepath.Join(t.TempDir(), "kept.db"), nil, &health{}, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pool.Close() })
	ctx := context.Background()
	if _, err := pool.ExecContext(ctx, `CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 5; i++ {
		if _, err := pool.ExecContext(ctx, `INSERT INTO t (id, name) VALUES (?, ?)`, i, fmt.Sprintf("n%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	conn, err := pool.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return pool.DB, conn
}

func kept(t *testing.T, conn *sql.Conn) (n int) {
	t.Helper()
	if err := conn.Raw(func(dc any) error {
		n = underHealth(dc).(*stmtCacheConn).lru.Len()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

func names(t *testing.T, conn *sql.Conn, q string, args ...any) []string {
	t.Helper()
	rows, err := conn.QueryContext(context.Background(), q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestStatementsKeptPerConnection(t *testing.T) {
	_, conn := openKept(t)
	const q = `SELECT name FROM t WHERE id >= ? ORDER BY id LIMIT 2`
	for i, want := range [][]string{{"n1", "n2"}, {"n4", "n5"}, {"n5"}} {
		got := names(t, conn, q, []int{1, 4, 5}[i])
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("run %d: %v, want %v", i, got, want)
		}
	}
	if n := kept(t, conn); n != 1 {
		t.Fatalf("%d statements kept after one query text run three times, want 1", n)
	}
	// A script is never kept.
	names(t, conn, `SELECT name FROM t WHERE id = 1; `)
	if n := kept(t, conn); n != 1 {
		t.Fatalf("%d statements kept after a script, want 1", n)
	}
}

// The same text run again while its own rows are open (a transaction reads
// a list and, per row, the same query again) gets a statement of its own.
func TestKeptStatementBusyWhileItsRowsAreOpen(t *testing.T) {
	_, conn := openKept(t)
	ctx := context.Background()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	const q = `SELECT id, name FROM t WHERE id >= ? ORDER BY id`
	outer, err := tx.QueryContext(ctx, q, 1)
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	for outer.Next() {
		var id int
		var name string
		if err := outer.Scan(&id, &name); err != nil {
			t.Fatal(err)
		}
		var inner string
		if err := tx.QueryRowContext(ctx, q, id+10).Scan(new(int), &inner); err != sql.ErrNoRows {
			t.Fatalf("inner run for id %d: %v (%q), want no rows", id, err, inner)
		}
		var same string
		if err := tx.QueryRowContext(ctx, q, id).Scan(new(int), &same); err != nil || same != name {
			t.Fatalf("inner run for id %d: %q, %v; want %q", id, same, err, name)
		}
		seen = append(seen, name)
	}
	if err := outer.Err(); err != nil {
		t.Fatal(err)
	}
	outer.Close()
	if fmt.Sprint(seen) != "[n1 n2 n3 n4 n5]" {
		t.Fatalf("the outer rows were disturbed by the inner runs: %v", seen)
	}
}

func TestKeptStatementsFollowSchemaChanges(t *testing.T) {
	_, conn := openKept(t)
	ctx := context.Background()
	const q = `SELECT * FROM t WHERE id = ?`
	cols := func() []string {
		rows, err := conn.QueryContext(ctx, q, 1)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		c, _ := rows.Columns()
		return c
	}
	if c := cols(); len(c) != 2 {
		t.Fatalf("columns %v", c)
	}
	if _, err := conn.ExecContext(ctx, `ALTER TABLE t ADD COLUMN colour TEXT NOT NULL DEFAULT 'navy'`); err != nil {
		t.Fatal(err)
	}
	if c := cols(); len(c) != 3 || c[2] != "colour" {
		t.Fatalf("after ALTER TABLE the kept statement answers columns %v", c)
	}
}

func TestKeptStatementsBounded(t *testing.T) {
	_, conn := openKept(t)
	for i := range stmtCacheSize + 40 {
		if got := names(t, conn, fmt.Sprintf(`SELECT name FROM t WHERE id = ? AND %d = %d`, i, i), 2); len(got) != 1 || got[0] != "n2" {
			t.Fatalf("query %d: %v", i, got)
		}
	}
	if n := kept(t, conn); n != stmtCacheSize {
		t.Fatalf("%d statements kept, want the bound %d", n, stmtCacheSize)
	}
}

// A run that fails drops its statement; the next run of the text works.
func TestKeptStatementDroppedAfterAnError(t *testing.T) {
	_, conn := openKept(t)
	ctx := context.Background()
	const q = `SELECT name FROM t WHERE id = ?`
	names(t, conn, q, 1)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := conn.QueryContext(cctx, q, 1); err == nil {
		t.Fatal("a query with a cancelled context ran")
	}
	if got := names(t, conn, q, 3); len(got) != 1 || got[0] != "n3" {
		t.Fatalf("after a failed run: %v", got)
	}
}
