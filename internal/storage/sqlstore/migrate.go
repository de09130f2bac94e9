package sqlstore

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"testing/fstest"
)

// The migrations are written once for both engines, in migrations/:
//
//   - NNNNN_name.sql is one migration for both engines. A line ending in
//     "-- @sqlite" or "-- @postgres" (after at least one space) belongs to
//     that engine only; the marker and the spaces before it are not part of
//     the line. Lines between "-- @begin sqlite" and "-- @end sqlite" (or
//     postgres) belong to that engine only; blocks do not nest and do not
//     cross a "-- +goose" section line. Every other line is both engines'.
//   - NNNNN_name.sqlite.sql and NNNNN_name.postgres.sql, always as a pair,
//     are one migration whose engines share nearly nothing; they hold plain
//     SQL, no markers.
//
// Each engine's migrations are rendered from these at start into the files
// goose reads (NNNNN_name.sql): byte for byte what the per-engine folders
// held before (decision 0082). goose records versions only, so databases
// migrated from those folders go on as they were.

//go:embed migrations/*.sql
var migrationSources embed.FS

// engines are the engines a migration is rendered for.
var engines = []string{Postgres, SQLite}

const (
	markerPrefix = "-- @"
	blockBegin   = "-- @begin "
	blockEnd     = "-- @end "
	gooseUp      = "-- +goose Up"
	gooseDown    = "-- +goose Down"
)

// renderedMigrations caches each engine's rendered migrations: Migrate and
// every readiness check read them.
var renderedMigrations = sync.OnceValues(func() (map[string]fs.FS, error) {
	return renderMigrations(migrationSources, "migrations")
})

// engineMigrations returns the engine's migrations as goose reads them.
func engineMigrations(engine string) (fs.FS, error) {
	all, err := renderedMigrations()
	if err != nil {
		return nil, err
	}
	fsys, ok := all[engine]
	if !ok {
		return nil, fmt.Errorf("no migrations for engine %q", engine)
	}
	return fsys, nil
}

// renderMigrations renders every migration in dir of src for each engine,
// checking the markers and the pairing of engine-only files as it goes.
func renderMigrations(src fs.FS, dir string) (map[string]fs.FS, error) {
	entries, err := fs.ReadDir(src, dir)
	if err != nil {
		return nil, err
	}
	// An in-memory file system per engine (fstest.MapFS is a plain map of
	// files; the package imports no testing code).
	files := make(map[string]fstest.MapFS, len(engines))
	for _, e := range engines {
		files[e] = fstest.MapFS{}
	}
	// engineOnly lists, per rendered name, the engines with a file of their own.
	engineOnly := map[string][]string{}
	for _, entry := range entries {
		name := entry.Name()
		if entry.IsDir() || !strings.HasSuffix(name, ".sql") {
			return nil, fmt.Errorf("migrations: unexpected entry %s", name)
		}
		data, err := fs.ReadFile(src, path.Join(dir, name))
		if err != nil {
			return nil, err
		}
		base, engine := splitEngine(strings.TrimSuffix(name, ".sql"))
		target := base + ".sql"
		if strings.Contains(base, ".") {
			return nil, fmt.Errorf("migrations: %s: unknown engine in file name", name)
		}
		for _, e := range engines {
			if _, dup := files[e][target]; dup && (engine == "" || engine == e) {
				return nil, fmt.Errorf("migrations: %s: written for both engines and for one of them", target)
			}
		}
		if engine != "" {
			if strings.Contains(string(data), markerPrefix) {
				return nil, fmt.Errorf("migrations: %s: markers in an engine's own file", name)
			}
			files[engine][target] = &fstest.MapFile{Data: data, Mode: 0o444}
			engineOnly[target] = append(engineOnly[target], engine)
			continue
		}
		for _, e := range engines {
			text, err := renderMigration(string(data), e)
			if err != nil {
				return nil, fmt.Errorf("migrations: %s: %w", name, err)
			}
			files[e][target] = &fstest.MapFile{Data: []byte(text), Mode: 0o444}
		}
	}
	for target, es := range engineOnly {
		if len(es) != len(engines) {
			return nil, fmt.Errorf("migrations: %s is written for %s only", target, strings.Join(es, ", "))
		}
	}
	out := make(map[string]fs.FS, len(files))
	for e, f := range files {
		out[e] = f
	}
	return out, nil
}

// splitEngine splits "00002_search.sqlite" into "00002_search" and
// "sqlite"; a name without an engine suffix comes back whole.
func splitEngine(name string) (base, engine string) {
	i := strings.LastIndexByte(name, '.')
	if i < 0 {
		return name, ""
	}
	for _, e := range engines {
		if name[i+1:] == e {
			return name[:i], e
		}
	}
	return name, ""
}

// renderMigration keeps the lines of text that are engine's: the shared
// lines and its own, with their markers removed.
func renderMigration(text, engine string) (string, error) {
	lines := strings.SplitAfter(text, "\n")
	var b strings.Builder
	block := "" // the engine of the open block
	blockLine := 0
	for i, line := range lines {
		n := i + 1
		body := strings.TrimSuffix(line, "\n")
		at := strings.Index(body, markerPrefix)
		switch {
		case at < 0:
			if block != "" && (body == gooseUp || body == gooseDown) {
				return "", fmt.Errorf("line %d: goose section inside the %s block opened at line %d", n, block, blockLine)
			}
			if block == "" || block == engine {
				b.WriteString(line)
			}
		case strings.HasPrefix(body, blockBegin):
			e := strings.TrimPrefix(body, blockBegin)
			if !knownEngine(e) {
				return "", fmt.Errorf("line %d: unknown marker %q", n, body)
			}
			if block != "" {
				return "", fmt.Errorf("line %d: block inside the %s block opened at line %d", n, block, blockLine)
			}
			block, blockLine = e, n
		case strings.HasPrefix(body, blockEnd):
			e := strings.TrimPrefix(body, blockEnd)
			if !knownEngine(e) {
				return "", fmt.Errorf("line %d: unknown marker %q", n, body)
			}
			if block != e {
				return "", fmt.Errorf("line %d: %q closes no open block", n, body)
			}
			block = ""
		default:
			e := body[at+len(markerPrefix):]
			content := strings.TrimRight(body[:at], " ")
			if !knownEngine(e) || at == 0 || body[at-1] != ' ' || strings.TrimSpace(content) == "" {
				return "", fmt.Errorf("line %d: unknown marker in %q", n, body)
			}
			if block != "" {
				return "", fmt.Errorf("line %d: line marker inside the %s block opened at line %d", n, block, blockLine)
			}
			if e == engine {
				b.WriteString(content + line[len(body):])
			}
		}
	}
	if block != "" {
		return "", fmt.Errorf("the %s block opened at line %d is not closed", block, blockLine)
	}
	return b.String(), nil
}

func knownEngine(e string) bool { return slices.Contains(engines, e) }
