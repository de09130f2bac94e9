package sqlstore

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// released holds the first 16 hex digits of the SHA-256 of each released
// migration as each engine runs it ({SQLite, PostgreSQL}). A database
// that applied a migration never runs it again, so what it says must never
// change: these are the bytes the engines' own folders held before the
// migrations were written once. A new migration needs no line here until
// it is released.
var released = map[string][2]string{
	"00001_catalog.sql":                      {"7da7573925e1a855", "a62cd5c6f0af7a8a"},
	"00002_search.sql":                       {"07982f38173c55ba", "e35c21a386f98fed"},
	"00003_listing_price.sql":                {"dc9d5cbd20bf8714", "0fb2de8c80dcdfc6"},
	"00004_search_prefixes.sql":              {"4f65aed00416a33e", "c0f3389f186cc7f9"},
	"00005_carts.sql":                        {"79fef133cf25855b", "ad0044b9f22813c9"},
	"00006_orders.sql":                       {"d7987c0a37f298aa", "a2ebb2e8d2923a6a"},
	"00007_mail_outbox.sql":                  {"e3f235df60544f68", "053b13d7b97ac1ca"},
	"00008_rich_text_sanitized.sql":          {"d3b8fedb9fcf7b7b", "d3b8fedb9fcf7b7b"},
	"00009_rate_limits.sql":                  {"efa647c963ae5f87", "efa647c963ae5f87"},
	"00010_accounts.sql":                     {"8e5d355b15dfae15", "56c0fa0470ee93d8"},
	"00011_botcheck_spent.sql":               {"0823338e638c7240", "0823338e638c7240"},
	"00012_customer_orders.sql":              {"d8ab5e6fece50288", "83a25b96278041a0"},
	"00013_account_mail.sql":                 {"21598f903ba4c4e8", "ad1abce42f384103"},
	"00014_support_messages.sql":             {"84d6c9b93ab086e2", "b5fd5ae264c82b4b"},
	"00015_user_meta.sql":                    {"7ffddda2caa5864a", "7ffddda2caa5864a"},
	"00016_reviews.sql":                      {"b0897ee1916fce1d", "655a64c0f5a85d94"},
	"00017_contact_submissions.sql":          {"14f23110e68e088d", "22afc3d3b6a9e893"},
	"00018_currencies.sql":                   {"d912fa913632d52e", "5e14119f9ec6e0cc"},
	"00019_order_currency.sql":               {"c59633182d642354", "c59633182d642354"},
	"00020_content_pages.sql":                {"617e556a721cb5d1", "f11ef0dadee6b880"},
	"00021_audit_log.sql":                    {"f59d3c62d45eb618", "4fd3d009c5800fe3"},
	"00022_product_versions.sql":             {"d0f98ad7cc549011", "2623d3fa3dc306bf"},
	"00023_order_admin.sql":                  {"dfdcd206b5739401", "94b1de02d9cfafb4"},
	"00024_coupons.sql":                      {"7360fb4f7952845c", "79d289b526a5399b"},
	"00025_review_replies_contact_inbox.sql": {"a77605dcb0dbf592", "32564fcd3f724b04"},
	"00026_media_library.sql":                {"da4e878156e871e8", "d419a8b5c09940ce"},
	"00027_shop_settings.sql":                {"c5c548d398a96098", "3f05ba7bf25c8e52"},
	"00028_listing_indexes.sql":              {"80a4db7ea96271cf", "9b8fcfbc58777c6d"},
	"00029_category_counts.sql":              {"68e4d7d24196406d", "fb73354b3bc01e05"},
	"00030_scheduled_prices.sql":             {"159e61fc32e07f98", "1cf4352aa36ddeae"},
	"00032_stock_moves.sql":                  {"7c2f22223d7231cb", "383a91a48af4d505"},
}

func TestMigrationsRenderAsReleased(t *testing.T) {
	all, err := renderMigrations(migrationSources, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	names := func(engine string) []string {
		entries, err := fs.ReadDir(all[engine], ".")
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range entries {
			out = append(out, e.Name())
		}
		return out
	}
	sqlite, postgres := names(SQLite), names(Postgres)
	if !slices.Equal(sqlite, postgres) {
		t.Fatalf("the engines' migrations differ:\nsqlite   %v\npostgres %v", sqlite, postgres)
	}
	for name := range released {
		if !slices.Contains(sqlite, name) {
			t.Errorf("released migration %s is missing", name)
		}
	}
	for _, name := range sqlite {
		for i, engine := range []string{SQLite, Postgres} {
			data, err := fs.ReadFile(all[engine], name)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(data), "-- +goose Up\n") {
				t.Errorf("%s on %s: want it to open with its goose Up section", name, engine)
			}
			want, ok := released[name]
			if !ok {
				continue
			}
			sum := sha256.Sum256(data)
			if got := hex.EncodeToString(sum[:8]); got != want[i] {
				t.Errorf("%s on %s renders to %s, released as %s: a released migration must not change", name, engine, got, want[i])
			}
		}
	}
}

func TestRenderMigration(t *testing.T) {
	const src = `-- +goose Up
CREATE TABLE t (
    id   INTEGER PRIMARY KEY,    -- @sqlite
    id   BIGSERIAL PRIMARY KEY,  -- @postgres
    n    INTEGER NOT NULL   -- count   -- @sqlite
    n    BIGINT NOT NULL    -- count -- @postgres
);
-- @begin sqlite
-- SQLite's way.
SELECT 1;
-- @end sqlite
-- @begin postgres
SELECT 2;
-- @end postgres

-- +goose Down
DROP TABLE t;
`
	for engine, want := range map[string]string{
		SQLite: `-- +goose Up
CREATE TABLE t (
    id   INTEGER PRIMARY KEY,
    n    INTEGER NOT NULL   -- count
);
-- SQLite's way.
SELECT 1;

-- +goose Down
DROP TABLE t;
`,
		Postgres: `-- +goose Up
CREATE TABLE t (
    id   BIGSERIAL PRIMARY KEY,
    n    BIGINT NOT NULL    -- count
);
SELECT 2;

-- +goose Down
DROP TABLE t;
`,
	} {
		got, err := renderMigration(src, engine)
		if err != nil {
			t.Fatalf("%s: %v", engine, err)
		}
		if got != want {
			t.Errorf("%s: rendered\n%s\nwant\n%s", engine, got, want)
		}
	}
}

func TestRenderMigrationRefusesBadMarkers(t *testing.T) {
	for _, tc := range []struct{ name, src, err string }{
		{"unknown engine", "SELECT 1; -- @mysql\n", "unknown marker"},
		{"misspelt marker", "SELECT 1;  -- @sqlit\n", "unknown marker"},
		{"marker alone", "-- @sqlite\n", "unknown marker"},
		{"marker without a space", "SELECT 1;-- @sqlite\n", "unknown marker"},
		{"two markers", "SELECT 1; -- @sqlite -- @postgres\n", "unknown marker"},
		{"block of an unknown engine", "-- @begin mysql\n-- @end mysql\n", "unknown marker"},
		{"unknown block word", "-- @start sqlite\n", "unknown marker"},
		{"unclosed block", "-- @begin sqlite\nSELECT 1;\n", "not closed"},
		{"end without begin", "SELECT 1;\n-- @end sqlite\n", "closes no open block"},
		{"end of the other engine", "-- @begin sqlite\n-- @end postgres\n", "closes no open block"},
		{"nested block", "-- @begin sqlite\n-- @begin postgres\n-- @end postgres\n-- @end sqlite\n", "block inside"},
		{"line marker in a block", "-- @begin sqlite\nSELECT 1; -- @sqlite\n-- @end sqlite\n", "line marker inside"},
		{"goose section in a block", "-- @begin sqlite\n-- +goose Down\n-- @end sqlite\n", "goose section inside"},
	} {
		for _, engine := range engines {
			_, err := renderMigration(tc.src, engine)
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s on %s: error %v, want one saying %q", tc.name, engine, err, tc.err)
			}
		}
	}
}

func TestRenderMigrationsPairsEngineFiles(t *testing.T) {
	up := &fstest.MapFile{Data: []byte("-- +goose Up\nSELECT 1;\n-- +goose Down\nSELECT 1;\n")}
	all, err := renderMigrations(fstest.MapFS{
		"m/00001_a.sql":          up,
		"m/00002_b.sqlite.sql":   {Data: []byte("SELECT 'sqlite';\n")},
		"m/00002_b.postgres.sql": {Data: []byte("SELECT 'postgres';\n")},
	}, "m")
	if err != nil {
		t.Fatal(err)
	}
	for _, engine := range engines {
		data, err := fs.ReadFile(all[engine], "00002_b.sql")
		if err != nil || string(data) != "SELECT '"+engine+"';\n" {
			t.Errorf("%s: 00002_b.sql = %q, %v", engine, data, err)
		}
	}
	for _, tc := range []struct {
		name  string
		files fstest.MapFS
		err   string
	}{
		{"one engine only", fstest.MapFS{"m/00002_b.sqlite.sql": up}, "written for sqlite only"},
		{"shared and one engine", fstest.MapFS{"m/00002_b.sql": up, "m/00002_b.sqlite.sql": up, "m/00002_b.postgres.sql": up}, "for both engines and for one"},
		{"unknown engine", fstest.MapFS{"m/00002_b.mysql.sql": up}, "unknown engine"},
		{"markers in an engine's file", fstest.MapFS{"m/00002_b.sqlite.sql": {Data: []byte("SELECT 1; -- @sqlite\n")}, "m/00002_b.postgres.sql": up}, "markers"},
		{"bad marker in a shared file", fstest.MapFS{"m/00002_b.sql": {Data: []byte("-- @begin sqlite\n")}}, "00002_b.sql: the sqlite block"},
		{"not a migration", fstest.MapFS{"m/README.md": up}, "unexpected entry"},
	} {
		_, err := renderMigrations(tc.files, "m")
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.err)
		}
	}
}
