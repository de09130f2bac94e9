package sqlstore

import "vitrine/internal/storage/sqlstore/sqlcore"

// The connection core's names, kept here for the store's callers.

// Counter counts the statements a store sends (OpenCounted).
type Counter = sqlcore.Counter

// QueryCount is what a Counter has seen.
type QueryCount = sqlcore.QueryCount

// Faults injects errors into a store's connections (OpenFaulty).
type Faults = sqlcore.Faults

// ErrUnavailable marks errors of a store that cannot be reached or cannot
// write (IsUnavailable).
var ErrUnavailable = sqlcore.ErrUnavailable

// IsUnavailable reports whether err comes from an outage of the store
// rather than from the request.
func IsUnavailable(err error) bool { return sqlcore.IsUnavailable(err) }

// DefaultPostgresConns is the PostgreSQL pool's size unless SetPool
// changes it.
func DefaultPostgresConns() int { return sqlcore.DefaultPostgresConns() }

// URIPath escapes what a file: URI gives a meaning to in a SQLite path.
func URIPath(path string) string { return sqlcore.URIPath(path) }
