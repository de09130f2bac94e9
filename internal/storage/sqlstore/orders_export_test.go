package sqlstore

import "context"

// QueryIntForTest runs a query answering one integer (tests outside the
// package count rows with it).
func (db *DB) QueryIntForTest(ctx context.Context, q string, args ...any) (int64, error) {
	var n int64
	err := db.Write.GetContext(ctx, &n, db.Write.Rebind(q), args...)
	return n, err
}

// ExecForTest runs a statement on the writer (tests set up rows with it).
func (db *DB) ExecForTest(ctx context.Context, q string, args ...any) error {
	_, err := db.Write.ExecContext(ctx, db.Write.Rebind(q), args...)
	return err
}

// MigrateDownToForTest rolls migrations back to version (tests replay a
// migration's one-time work with it).
func (db *DB) MigrateDownToForTest(ctx context.Context, version int64) error {
	p, err := db.provider()
	if err != nil {
		return err
	}
	_, err = p.DownTo(ctx, version)
	return err
}
