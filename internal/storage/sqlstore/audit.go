package sqlstore

import (
	"context"
	"strings"
	"time"

	"vitrine/internal/audit"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// The admin's audit log (internal/audit).

// AppendAudit stores e.
func (db *DB) AppendAudit(ctx context.Context, e *audit.Entry) (int64, error) {
	var id int64
	err := db.Write.GetContext(ctx, &id, db.Write.Rebind(`INSERT INTO audit_log
		(at, actor_id, actor_name, action, object, object_id, summary, client_ip)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		e.At.Unix(), e.ActorID, e.ActorName, e.Action, e.Object, e.ObjectID, e.Summary, e.ClientIP)
	return id, err
}

// ListAudit reads entries newest first.
func (db *DB) ListAudit(ctx context.Context, f audit.Filter) ([]audit.Entry, error) {
	var where []string
	var args []any
	if f.Object != "" {
		where, args = append(where, "object = ?"), append(args, f.Object)
		if f.ObjectID != 0 {
			where, args = append(where, "object_id = ?"), append(args, f.ObjectID)
		}
	}
	if f.ActorID != 0 {
		where, args = append(where, "actor_id = ?"), append(args, f.ActorID)
	}
	if f.Before > 0 {
		where, args = append(where, "id < ?"), append(args, f.Before)
	}
	q := `SELECT id, at, actor_id, actor_name, action, object, object_id, summary, client_ip FROM audit_log`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY id DESC" + sqlcore.Limit(f.Limit)
	var rows []struct {
		ID        int64  `db:"id"`
		At        int64  `db:"at"`
		ActorID   int64  `db:"actor_id"`
		ActorName string `db:"actor_name"`
		Action    string `db:"action"`
		Object    string `db:"object"`
		ObjectID  int64  `db:"object_id"`
		Summary   string `db:"summary"`
		ClientIP  string `db:"client_ip"`
	}
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(q), args...); err != nil {
		return nil, err
	}
	out := make([]audit.Entry, len(rows))
	for i, r := range rows {
		out[i] = audit.Entry{ID: r.ID, At: time.Unix(r.At, 0).UTC(), ActorID: r.ActorID, ActorName: r.ActorName,
			Action: r.Action, Object: r.Object, ObjectID: r.ObjectID, Summary: r.Summary, ClientIP: r.ClientIP}
	}
	return out, nil
}
