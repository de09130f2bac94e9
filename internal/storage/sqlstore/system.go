package sqlstore

import (
	"context"
	"fmt"
)

// SystemInfo is what the REST API's system status tells of the store:
// the engine (sqlite or postgres), its server's version, and the schema
// version (the newest migration applied).
type SystemInfo struct {
	Engine        string
	EngineVersion string
	SchemaVersion int64
}

// System reads the store's SystemInfo.
func (db *DB) System(ctx context.Context) (SystemInfo, error) {
	info := SystemInfo{Engine: db.Engine}
	q := `SELECT sqlite_version()`
	if db.Engine == Postgres {
		q = `SHOW server_version`
	}
	if err := db.Read.GetContext(ctx, &info.EngineVersion, q); err != nil {
		return info, fmt.Errorf("engine version: %w", err)
	}
	p, err := db.provider()
	if err != nil {
		return info, err
	}
	if info.SchemaVersion, err = p.GetDBVersion(ctx); err != nil {
		return info, fmt.Errorf("schema version: %w", err)
	}
	return info, nil
}
