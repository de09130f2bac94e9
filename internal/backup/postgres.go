package backup

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"sort"
	"strings"
)

// PostgreSQL backups are pg_dump's plain SQL of the store's schema, and a
// restore runs it with psql in one transaction after dropping the schema,
// so a failed restore leaves the store as it was.

// ErrNoPGDump: pg_dump is not installed where the backup runs.
var ErrNoPGDump = errors.New("pg_dump is not installed")

// PGDumpCommand is the command that backs up the PostgreSQL store at dsn
// by hand, for a shop whose backups are its provider's or pg_dump's own.
func PGDumpCommand(dsn string) string {
	conn, schema := libpqConn(dsn)
	cmd := "pg_dump --format=custom --no-owner --no-privileges"
	if schema != "" {
		cmd += " --schema=" + shellQuote(schema)
	}
	return cmd + " --file=vitrine.pgdump --dbname=" + shellQuote(conn)
}

// pgDump writes the plain SQL dump of schema to out.
func pgDump(ctx context.Context, bin, dsn, schema, out string) error {
	if bin == "" {
		bin = "pg_dump"
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		return fmt.Errorf("backup: %w: install the PostgreSQL client tools (of the server's major version or later) and run vitrine backup again, or rely on your provider's backups, or back up by hand with: %s",
			ErrNoPGDump, PGDumpCommand(dsn))
	}
	conn, _ := libpqConn(dsn)
	cmd := exec.CommandContext(ctx, path, "--format=plain", "--no-owner", "--no-privileges",
		"--schema="+schema, "--file="+out, "--dbname="+conn)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("backup: pg_dump: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// psqlRestore drops schema and runs the dump at file, in one transaction.
func psqlRestore(ctx context.Context, bin, dsn, schema, file string) error {
	if bin == "" {
		bin = "psql"
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		return fmt.Errorf("restore: psql is not installed: install the PostgreSQL client tools, then run the restore again")
	}
	conn, _ := libpqConn(dsn)
	cmd := exec.CommandContext(ctx, path, "--no-psqlrc", "--quiet", "--single-transaction",
		"--set=ON_ERROR_STOP=1", "--dbname="+conn,
		"--command=DROP SCHEMA IF EXISTS "+quoteIdent(schema)+" CASCADE", "--file="+file)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Stdout = &stderr
	cmd.Env = append(os.Environ(), "PGOPTIONS=--client-min-messages=warning")
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("restore: psql (nothing was changed): %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// libpqParams are the URI parameters libpq reads; pgx accepts any run-time
// parameter there too (search_path=…), which libpq refuses, so those go to
// options as -c name=value.
var libpqParams = map[string]bool{
	"sslmode": true, "sslcert": true, "sslkey": true, "sslrootcert": true, "sslpassword": true, "sslcrl": true,
	"connect_timeout": true, "application_name": true, "options": true, "target_session_attrs": true,
	"host": true, "port": true, "user": true, "password": true, "dbname": true, "passfile": true,
	"keepalives": true, "keepalives_idle": true, "gssencmode": true, "channel_binding": true,
}

// libpqConn is dsn as libpq (pg_dump, psql) reads it, and the schema its
// search_path names first ("" : none named).
func libpqConn(dsn string) (string, string) {
	u, err := url.Parse(dsn)
	if err != nil {
		return dsn, ""
	}
	q := u.Query()
	var opts []string
	if o := q.Get("options"); o != "" {
		opts = append(opts, o)
	}
	schema := ""
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if libpqParams[k] {
			continue
		}
		v := q.Get(k)
		if k == "search_path" {
			schema = strings.Trim(strings.TrimSpace(strings.Split(v, ",")[0]), `"`)
		}
		opts = append(opts, "-c "+k+"="+strings.ReplaceAll(v, " ", `\ `))
		q.Del(k)
	}
	if len(opts) > 0 {
		q.Set("options", strings.Join(opts, " "))
	}
	// libpq decodes %20, not the "+" url.Values writes for a space (a
	// literal "+" is written %2B).
	u.RawQuery = strings.ReplaceAll(q.Encode(), "+", "%20")
	return u.String(), schema
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
