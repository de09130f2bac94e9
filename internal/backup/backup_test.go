package backup_test

// Backups and restores on every configured engine (storetest), through
// the store's own snapshot, pg_dump and psql.

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"vitrine/internal/backup"
	"vitrine/internal/cart"
	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/media"
	"vitrine/internal/money"
	"vitrine/internal/orders"
	"vitrine/internal/payment"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

var testNow = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

func open(ctx context.Context, dsn string) (backup.Target, error) {
	return sqlstore.Open(ctx, dsn, nil)
}

func service(db *sqlstore.DB, dsn string) *backup.Service {
	return &backup.Service{Store: db, DSN: dsn, Version: "test", Now: func() time.Time { return testNow }, Open: open}
}

// emptyTarget is a DSN for an empty store to restore into: a new SQLite
// file, or on PostgreSQL the backup's own schema dropped (a PostgreSQL
// backup restores into the schema it came from).
func emptyTarget(t *testing.T, dsn string) string {
	t.Helper()
	if backup.EngineOf(dsn) == "sqlite" {
		return "sqlite:" + filepath.Join(t.TempDir(), "restored.db")
	}
	raw := storetest.OpenRaw(t, dsn)
	var schema string
	if err := raw.Get(&schema, `SELECT current_schema()`); err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`DROP SCHEMA "` + schema + `" CASCADE`); err != nil {
		t.Fatal(err)
	}
	return dsn
}

type shop struct {
	db    *sqlstore.DB
	carts *cart.Service
	svc   *checkout.Service
	item  *catalog.Product
}

func newShop(t *testing.T, db *sqlstore.DB) *shop {
	t.Helper()
	db.SetClock(func() time.Time { return testNow })
	item := &catalog.Product{Type: catalog.TypeSimple, Name: "Canvas Tote", Slug: "canvas-tote", SKU: "TOTE",
		RegularPrice: ptr(int64(1800)), Purchasable: true, Status: "publish"}
	if _, err := db.SaveProduct(context.Background(), item, nil); err != nil {
		t.Fatal(err)
	}
	usd, _ := money.Lookup("USD")
	cfg := checkout.DefaultConfig(usd)
	s := &shop{db: db, item: item, carts: &cart.Service{Store: db, Catalog: storetest.Cache(db), Now: func() time.Time { return testNow }}}
	s.svc = &checkout.Service{Store: db, Carts: s.carts, Config: &cfg, Now: func() time.Time { return testNow },
		Payments: payment.NewRegistry(payment.BankTransfer{})}
	return s
}

func ptr[T any](v T) *T { return &v }

// order places one order of the tote through the checkout's use case.
func (s *shop) order(ctx context.Context, n int) (*checkout.Order, error) {
	sid := fmt.Sprintf("t_%030x", n)
	if _, _, err := s.carts.Add(ctx, sid, s.item.ID, 1, nil); err != nil {
		return nil, err
	}
	return s.svc.PlaceOrder(ctx, checkout.PlaceRequest{Session: sid, Method: "bacs", Body: []byte(sid), ClientIP: "192.0.2.7", UserAgent: "test",
		Billing: cart.Address{FirstName: "Ada", LastName: "Lovelace", Address1: "1 Main St", City: "Sacramento", State: "CA",
			Postcode: "95814", Country: "US", Email: "ada@example.com", Phone: "+1 555 010 0200"}})
}

// TestBackupDuringCheckouts: a backup taken while four buyers keep placing
// orders holds every order acknowledged before it started, and restores
// (its SQLite snapshot passing the integrity check) to a store whose
// orders back office serves each of them with its total.
func TestBackupDuringCheckouts(t *testing.T) {
	storetest.EachDSN(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db := storetest.OpenDSN(t, dsn)
		s := newShop(t, db)
		if err := db.AddAttachment(ctx, &media.Attachment{Title: "logo", MimeType: "image/png", Uploaded: testNow,
			Image: catalog.Image{Src: "/media/2026/11/logo.png", Alt: "logo"}},
			catalog.MediaFile{Path: "2026/11/logo.png", ContentType: "image/png", Data: []byte("\x89PNG the shop's logo")}); err != nil {
			t.Fatal(err)
		}

		var (
			mu    sync.Mutex
			acked = map[int64]*checkout.Order{}
			errs  []error
			wg    sync.WaitGroup
		)
		stop := make(chan struct{})
		enough := make(chan struct{})
		var once sync.Once
		for b := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					o, err := s.order(ctx, b*100000+i)
					mu.Lock()
					if err != nil {
						errs = append(errs, err)
					} else {
						acked[o.ID] = o
					}
					if len(acked) >= 20 {
						once.Do(func() { close(enough) })
					}
					mu.Unlock()
				}
			}()
		}
		select {
		case <-enough:
		case <-time.After(2 * time.Minute):
			close(stop)
			wg.Wait()
			t.Fatalf("20 orders not placed: %v", errs)
		}
		mu.Lock()
		before := make(map[int64]*checkout.Order, len(acked))
		for id, o := range acked {
			before[id] = o
		}
		mu.Unlock()
		file := filepath.Join(t.TempDir(), "shop.tar.gz")
		res, err := service(db, dsn).Backup(ctx, file)
		close(stop)
		wg.Wait()
		if err != nil {
			t.Fatal(err)
		}
		if len(errs) > 0 {
			t.Fatalf("checkouts failed during the backup: %v", errs)
		}
		mu.Lock()
		t.Logf("%d orders acknowledged before the backup, %d in all; archive %d bytes", len(before), len(acked), res.Size)
		mu.Unlock()
		m := res.Manifest
		if m.Contents.Orders < int64(len(before)) || m.Contents.Products != 1 || m.Contents.MediaFiles != 1 || m.Contents.MediaBytes != int64(len("\x89PNG the shop's logo")) {
			t.Errorf("manifest contents %+v, want at least %d orders, 1 product, 1 media file", m.Contents, len(before))
		}
		if m.SchemaVersion < 39 || m.Format != backup.FormatVersion || m.ShopVersion != "test" || !m.CreatedAt.Equal(testNow) || len(m.Files) != 1 || m.Files[0].Size == 0 || len(m.Files[0].SHA256) != 64 {
			t.Errorf("manifest %+v", m)
		}

		db.Close()
		target := emptyTarget(t, dsn)
		got, err := backup.Restore(ctx, file, backup.RestoreOptions{DSN: target, Open: open})
		if err != nil {
			t.Fatal(err)
		}
		if got.Replaced != nil || got.From != m.SchemaVersion || got.To != m.SchemaVersion {
			t.Errorf("restored %+v", got)
		}
		restored := storetest.OpenDSN(t, target)
		if err := restored.CheckIntegrity(ctx); err != nil {
			t.Fatal(err)
		}
		back := &orders.Service{Store: restored}
		for id, want := range before {
			d, err := back.Get(ctx, id)
			if err != nil {
				t.Fatalf("order %d acknowledged before the backup: %v", id, err)
			}
			if d.Order.Total != want.Total || d.Order.Key != want.Key {
				t.Errorf("order %d: total %d key %s, want %d %s", id, d.Order.Total, d.Order.Key, want.Total, want.Key)
			}
		}
		f, err := restored.Media(ctx, "2026/11/logo.png")
		if err != nil || string(f.Data) != "\x89PNG the shop's logo" {
			t.Errorf("media file after restore: %v %q", err, f)
		}
	})
}

// TestRestoreRefusals: a store holding data is refused without --force
// and left as it was; a corrupted archive is refused with a clear error
// before anything is written; --force replaces the store and says what it
// held.
func TestRestoreRefusals(t *testing.T) {
	storetest.EachDSN(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db := storetest.OpenDSN(t, dsn)
		s := newShop(t, db)
		if _, err := s.order(ctx, 1); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(t.TempDir(), "shop.tar.gz")
		if _, err := service(db, dsn).Backup(ctx, file); err != nil {
			t.Fatal(err)
		}
		// The store changes after the backup: a second order.
		if _, err := s.order(ctx, 2); err != nil {
			t.Fatal(err)
		}
		count := func() int64 {
			c, err := db.BackupContents(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return c.Orders
		}

		_, err := backup.Restore(ctx, file, backup.RestoreOptions{DSN: dsn, Open: open})
		if !errors.Is(err, backup.ErrNotEmpty) || !strings.Contains(err.Error(), "2 orders") || !strings.Contains(err.Error(), "--force") {
			t.Fatalf("restore over data: %v", err)
		}
		if n := count(); n != 2 {
			t.Fatalf("%d orders after a refused restore", n)
		}

		// One byte flipped in the middle of the archive.
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		bad := filepath.Join(t.TempDir(), "bad.tar.gz")
		data[len(data)/2] ^= 0x40
		if err := os.WriteFile(bad, data, 0o600); err != nil {
			t.Fatal(err)
		}
		for _, force := range []bool{false, true} {
			_, err = backup.Restore(ctx, bad, backup.RestoreOptions{DSN: dsn, Force: force, Open: open})
			if !errors.Is(err, backup.ErrCorrupt) {
				t.Fatalf("corrupted archive (force %v): %v", force, err)
			}
		}
		if n := count(); n != 2 {
			t.Fatalf("%d orders after a refused corrupted archive", n)
		}
		if _, err := backup.ReadManifest(bad); !errors.Is(err, backup.ErrCorrupt) {
			t.Errorf("check of the corrupted archive: %v", err)
		}
		// A well-formed archive whose store file differs from its
		// manifest's checksum (one byte changed before compression).
		tampered := repack(t, file, func(name string, b []byte) []byte {
			if name != backup.ManifestName {
				b[len(b)/2] ^= 0x01
			}
			return b
		})
		_, err = backup.Restore(ctx, tampered, backup.RestoreOptions{DSN: dsn, Force: true, Open: open})
		if !errors.Is(err, backup.ErrCorrupt) || !strings.Contains(err.Error(), "SHA-256") {
			t.Fatalf("tampered archive: %v", err)
		}
		if n := count(); n != 2 {
			t.Fatalf("%d orders after a refused tampered archive", n)
		}

		db.Close()
		got, err := backup.Restore(ctx, file, backup.RestoreOptions{DSN: dsn, Force: true, Open: open, Now: func() time.Time { return testNow }})
		if err != nil {
			t.Fatal(err)
		}
		if got.Replaced == nil || got.Replaced.Orders != 2 {
			t.Errorf("forced restore says it replaced %+v", got.Replaced)
		}
		if backup.EngineOf(dsn) == "sqlite" && (got.Kept == "" || !fileExists(got.Kept)) {
			t.Errorf("the replaced SQLite store was not kept: %q", got.Kept)
		}
		again := storetest.OpenDSN(t, dsn)
		c, err := again.BackupContents(ctx)
		if err != nil || c.Orders != 1 {
			t.Fatalf("after the forced restore: %+v %v", c, err)
		}
	})
}

// repack rewrites the archive at path with edit applied to each entry's
// bytes, and returns the new archive's path.
func repack(t *testing.T, path string, edit func(name string, b []byte) []byte) string {
	t.Helper()
	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	zr, err := gzip.NewReader(in)
	if err != nil {
		t.Fatal(err)
	}
	outPath := filepath.Join(t.TempDir(), "repacked.tar.gz")
	out, err := os.Create(outPath)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	zw := gzip.NewWriter(out)
	tr, tw := tar.NewReader(zr), tar.NewWriter(zw)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		b = edit(h.Name, b)
		h.Size = int64(len(b))
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return outPath
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// TestRestoreMigratesOlderBackup: a backup of a store at an older schema
// version (one as the previous release left it, made with the store's own
// migrations stopped at that version) restores and is migrated to the
// latest version, and the restored store serves.
func TestRestoreMigratesOlderBackup(t *testing.T) {
	storetest.EachDSN(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		old, err := sqlstore.Open(ctx, dsn, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer old.Close()
		const previous = 36 // an older release's schema: before 00037 and later
		if err := old.MigrateTo(ctx, previous); err != nil {
			t.Fatal(err)
		}
		// Written as that release's schema holds it: today's SaveProduct
		// writes tables the older schema lacks (the search vocabulary).
		raw := storetest.OpenRaw(t, dsn)
		if _, err := raw.ExecContext(ctx, raw.Rebind(`INSERT INTO products (type, name, slug, regular_price, sort_price, created_at, updated_at)
			VALUES ('simple', 'Old Mug', 'old-mug', 900, 900, ?, ?)`), testNow, testNow); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(t.TempDir(), "old.tar.gz")
		res, err := service(old, dsn).Backup(ctx, file)
		if err != nil {
			t.Fatal(err)
		}
		if res.Manifest.SchemaVersion != previous {
			t.Fatalf("backup at schema version %d, want %d", res.Manifest.SchemaVersion, previous)
		}
		old.Close()
		target := emptyTarget(t, dsn)
		got, err := backup.Restore(ctx, file, backup.RestoreOptions{DSN: target, Open: open})
		if err != nil {
			t.Fatal(err)
		}
		latest := storetest.Open(t, "sqlite") // the same migrations
		want, err := latest.SchemaVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got.From != previous || got.To != want || want <= previous {
			t.Fatalf("restored from %d to %d, want %d to %d", got.From, got.To, previous, want)
		}
		restored := storetest.OpenDSN(t, target)
		if err := restored.Ready(ctx); err != nil {
			t.Fatalf("restored store not ready: %v", err)
		}
		p, err := restored.ProductBySlug(ctx, "old-mug")
		if err != nil || p.Name != "Old Mug" {
			t.Fatalf("product after restore: %v %+v", err, p)
		}
		// The migrated store takes the newest tables' writes.
		if err := restored.QueueBackup(ctx, testNow, testNow); err != nil {
			t.Fatal(err)
		}
	})
}

// TestPostgresWithoutPGDump: where pg_dump is not installed, a PostgreSQL
// backup is refused with the exact command to run by hand, and writes
// nothing. (Where it is installed, every PostgreSQL subtest above backs
// up through it.)
func TestPostgresWithoutPGDump(t *testing.T) {
	dsn := "postgres://shop@db.internal:5432/shop?sslmode=require&search_path=store"
	if got, want := backup.PGDumpCommand(dsn),
		"pg_dump --format=custom --no-owner --no-privileges --schema='store' --file=vitrine.pgdump --dbname='postgres://shop@db.internal:5432/shop?options=-c%20search_path%3Dstore&sslmode=require'"; got != want {
		t.Errorf("command\n got %s\nwant %s", got, want)
	}
	if os.Getenv(storetest.EnvPostgres) == "" {
		return
	}
	pg := storetest.DSN(t, "postgres")
	db := storetest.OpenDSN(t, pg)
	s := service(db, pg)
	s.PGDump = filepath.Join(t.TempDir(), "pg_dump") // not there
	dir := t.TempDir()
	_, err := s.Backup(context.Background(), filepath.Join(dir, "shop.tar.gz"))
	if !errors.Is(err, backup.ErrNoPGDump) || !strings.Contains(err.Error(), backup.PGDumpCommand(pg)) {
		t.Fatalf("without pg_dump: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("left %d files", len(entries))
	}
}
