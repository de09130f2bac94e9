package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/contact"
	"vitrine/internal/storage/space"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// Contact-form submissions (internal/contact): the submission, its files
// (blobs in the database) and its outbox row in one transaction.

// InsertContactSubmission stores s with its files and queues its mail;
// with filesQuota > 0 it refuses files that would take the kept ones over
// it (a *space.QuotaError), counted under a lock so that concurrent
// submissions cannot pass the check together.
func (db *DB) InsertContactSubmission(ctx context.Context, s *contact.Stored, filesQuota int64) (int64, error) {
	values, err := json.Marshal(s.Values)
	if err != nil {
		return 0, err
	}
	var user any
	if s.UserID > 0 {
		user = s.UserID
	}
	status := s.Status
	if status == "" {
		status = "new"
	}
	var id int64
	var size int64
	for _, f := range s.Files {
		size += int64(len(f.Content))
	}
	err = db.Tx(ctx, func(tx *sqlx.Tx) error {
		if filesQuota > 0 && size > 0 {
			if err := db.lockQuota(ctx, tx, quotaLockContactFiles); err != nil {
				return err
			}
			var used int64
			if err := tx.GetContext(ctx, &used, `SELECT COALESCE(SUM(size), 0) FROM contact_files WHERE purged_at IS NULL`); err != nil {
				return err
			}
			if used+size > filesQuota {
				return &space.QuotaError{Used: used, Quota: filesQuota, Size: size}
			}
		}
		if err := tx.GetContext(ctx, &id, tx.Rebind(`INSERT INTO contact_submissions
			(form_id, unit_tag, container_post, field_values, client_ip, user_agent, user_id, status, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
			s.FormID, s.UnitTag, s.ContainerPost, string(values), s.ClientIP, s.UserAgent, user, status, s.CreatedAt.Unix()); err != nil {
			return err
		}
		for _, f := range s.Files {
			content := f.Content
			if content == nil {
				content = []byte{}
			}
			if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO contact_files
				(submission_id, field, name, mime, size, content, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`),
				id, f.Field, f.Name, f.MIME, f.Size, content, s.CreatedAt.Unix()); err != nil {
				return err
			}
		}
		ref := strconv.FormatInt(id, 10)
		return enqueueMailOnce(ctx, tx, contact.KindMessage, ref, s.CreatedAt)
	})
	if err != nil {
		return 0, err
	}
	return id, nil
}

// ContactSubmission loads a submission with its files (contact.ErrNotFound).
func (db *DB) ContactSubmission(ctx context.Context, id int64) (*contact.Stored, error) {
	var r contactRow
	err := db.Read.GetContext(ctx, &r, db.Read.Rebind(`SELECT `+contactColumns+` FROM contact_submissions WHERE id = ?`), id)
	if err != nil {
		return nil, sqlcore.NoRow(err, contact.ErrNotFound)
	}
	v, err := r.stored()
	if err != nil {
		return nil, err
	}
	st := &v
	var files []struct {
		ID      int64         `db:"id"`
		Field   string        `db:"field"`
		Name    string        `db:"name"`
		MIME    string        `db:"mime"`
		Size    int64         `db:"size"`
		Content []byte        `db:"content"`
		Purged  sql.NullInt64 `db:"purged_at"`
	}
	if err := db.Read.SelectContext(ctx, &files, db.Read.Rebind(`SELECT id, field, name, mime, size, content, purged_at
		FROM contact_files WHERE submission_id = ? ORDER BY id`), id); err != nil {
		return nil, err
	}
	for _, f := range files {
		sf := contact.StoredFile{ID: f.ID, Field: f.Field, Name: f.Name, MIME: f.MIME, Size: f.Size, Purged: f.Purged.Valid}
		if !sf.Purged {
			sf.Content = f.Content
			if sf.Content == nil {
				sf.Content = []byte{}
			}
		}
		st.Files = append(st.Files, sf)
	}
	replies, err := db.contactReplies(ctx, []int64{id})
	if err != nil {
		return nil, err
	}
	st.Replies = replies[id]
	return st, nil
}

// PurgeContactFiles empties the files created before before (content NULL,
// purged_at now); the rows and their submissions stay.
func (db *DB) PurgeContactFiles(ctx context.Context, before, now time.Time) (int64, error) {
	res, err := db.Write.ExecContext(ctx, db.Write.Rebind(`UPDATE contact_files SET content = NULL, purged_at = ?
		WHERE purged_at IS NULL AND created_at < ?`), now.Unix(), before.Unix())
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// CountContact counts the stored submissions, their files and the bytes
// of the files still kept (operations, tests).
func (db *DB) CountContact(ctx context.Context) (contact.Counts, error) {
	var c contact.Counts
	if err := db.Read.GetContext(ctx, &c.Submissions, `SELECT COUNT(*) FROM contact_submissions`); err != nil {
		return c, err
	}
	err := db.Read.QueryRowContext(ctx, `SELECT COUNT(*), COUNT(content), COALESCE(SUM(CASE WHEN content IS NULL THEN 0 ELSE size END), 0)
		FROM contact_files`).Scan(&c.Files, &c.KeptFiles, &c.KeptBytes)
	return c, err
}

// quotaLockContactFiles is the PostgreSQL advisory lock key under which
// a submission counts the kept files and adds its own (SQLite's one
// writer serialises them already).
const quotaLockContactFiles int64 = 0x7669_7472_0001

// lockQuota serialises the quota checks of one kind across instances,
// until tx ends.
func (db *DB) lockQuota(ctx context.Context, tx *sqlx.Tx, key int64) error {
	if db.Engine != Postgres {
		return nil
	}
	_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, key)
	return err
}

// ContactFileBytes is the bytes of the files kept (not purged).
func (db *DB) ContactFileBytes(ctx context.Context) (int64, error) {
	var n int64
	err := db.Read.GetContext(ctx, &n, `SELECT COALESCE(SUM(size), 0) FROM contact_files WHERE purged_at IS NULL`)
	return n, err
}
