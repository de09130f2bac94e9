package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/contact"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// The contact inbox (internal/contact/inbox.go): listing, statuses,
// replies with their outbox rows, permanent deletion, file downloads.

type contactRow struct {
	ID            int64         `db:"id"`
	FormID        int64         `db:"form_id"`
	UnitTag       string        `db:"unit_tag"`
	ContainerPost int64         `db:"container_post"`
	Values        string        `db:"field_values"`
	ClientIP      string        `db:"client_ip"`
	UserAgent     string        `db:"user_agent"`
	UserID        sql.NullInt64 `db:"user_id"`
	Status        string        `db:"status"`
	CreatedAt     int64         `db:"created_at"`
}

const contactColumns = `id, form_id, unit_tag, container_post, field_values, client_ip, user_agent, user_id, status, created_at`

func (r contactRow) stored() (contact.Stored, error) {
	st := contact.Stored{ID: r.ID, FormID: r.FormID, UnitTag: r.UnitTag, ContainerPost: r.ContainerPost,
		ClientIP: r.ClientIP, UserAgent: r.UserAgent, UserID: r.UserID.Int64, Status: r.Status,
		CreatedAt: time.Unix(r.CreatedAt, 0).UTC()}
	err := json.Unmarshal([]byte(r.Values), &st.Values)
	return st, err
}

// ContactInbox implements contact.Store.
func (db *DB) ContactInbox(ctx context.Context, q contact.InboxQuery) ([]contact.Stored, int, error) {
	var where []string
	var args []any
	if q.Status == contact.InboxAll {
		where = append(where, "status <> ?")
		args = append(args, contact.InboxTrash)
	} else {
		where = append(where, "status = ?")
		args = append(args, q.Status)
	}
	if q.Search != "" {
		where = append(where, `lower(field_values) LIKE ? ESCAPE '\'`)
		args = append(args, likePattern(q.Search))
	}
	from := ` FROM contact_submissions WHERE ` + strings.Join(where, " AND ")
	var total int
	if err := db.Read.GetContext(ctx, &total, db.Read.Rebind(`SELECT COUNT(*)`+from), args...); err != nil {
		return nil, 0, fmt.Errorf("count contact messages: %w", err)
	}
	if total == 0 {
		return []contact.Stored{}, 0, nil
	}
	var rows []contactRow
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(`SELECT `+contactColumns+from+` ORDER BY created_at DESC, id DESC`+sqlcore.Limit(q.PerPage)+` OFFSET ?`),
		append(args, (q.Page-1)*q.PerPage)...); err != nil {
		return nil, 0, fmt.Errorf("list contact messages: %w", err)
	}
	out := make([]contact.Stored, len(rows))
	ids := make([]int64, len(rows))
	for i, r := range rows {
		st, err := r.stored()
		if err != nil {
			return nil, 0, err
		}
		out[i], ids[i] = st, r.ID
	}
	if len(ids) == 0 {
		return out, total, nil
	}
	// The page's files (without content) and replies, one query each.
	fq, fargs, err := sqlx.In(`SELECT id, submission_id, field, name, mime, size, purged_at FROM contact_files
		WHERE submission_id IN (?) ORDER BY id`, ids)
	if err != nil {
		return nil, 0, err
	}
	var files []struct {
		ID           int64         `db:"id"`
		SubmissionID int64         `db:"submission_id"`
		Field        string        `db:"field"`
		Name         string        `db:"name"`
		MIME         string        `db:"mime"`
		Size         int64         `db:"size"`
		Purged       sql.NullInt64 `db:"purged_at"`
	}
	if err := db.Read.SelectContext(ctx, &files, db.Read.Rebind(fq), fargs...); err != nil {
		return nil, 0, err
	}
	replies, err := db.contactReplies(ctx, ids)
	if err != nil {
		return nil, 0, err
	}
	at := make(map[int64]int, len(out))
	for i, st := range out {
		at[st.ID] = i
		out[i].Replies = replies[st.ID]
	}
	for _, f := range files {
		i := at[f.SubmissionID]
		out[i].Files = append(out[i].Files, contact.StoredFile{ID: f.ID, Field: f.Field, Name: f.Name, MIME: f.MIME, Size: f.Size, Purged: f.Purged.Valid})
	}
	return out, total, nil
}

type contactReplyRow struct {
	ID           int64         `db:"id"`
	SubmissionID int64         `db:"submission_id"`
	UserID       sql.NullInt64 `db:"user_id"`
	Author       string        `db:"author"`
	To           string        `db:"to_email"`
	Subject      string        `db:"subject"`
	Body         string        `db:"body"`
	CreatedAt    int64         `db:"created_at"`
	SentAt       sql.NullInt64 `db:"sent_at"`
	FailedAt     sql.NullInt64 `db:"failed_at"`
}

func (r contactReplyRow) reply() contact.Reply {
	out := contact.Reply{ID: r.ID, SubmissionID: r.SubmissionID, UserID: r.UserID.Int64, Author: r.Author, To: r.To,
		Subject: r.Subject, Text: r.Body, CreatedAt: time.Unix(r.CreatedAt, 0).UTC(), Mail: contact.MailQueued}
	switch {
	case r.SentAt.Valid:
		out.Mail = contact.MailSent
	case r.FailedAt.Valid:
		out.Mail = contact.MailFailed
	}
	return out
}

// contactReplySelect reads replies with their mail's state in the outbox.
const contactReplySelect = `SELECT r.id, r.submission_id, r.user_id, r.author, r.to_email, r.subject, r.body, r.created_at, m.sent_at, m.failed_at
	FROM contact_replies r LEFT JOIN mail_outbox m ON m.dedupe_key = '` + contact.KindReply + `:' || CAST(r.id AS TEXT)`

// contactReplies returns the replies of submissions by submission, oldest
// first.
func (db *DB) contactReplies(ctx context.Context, ids []int64) (map[int64][]contact.Reply, error) {
	q, args, err := sqlx.In(contactReplySelect+` WHERE r.submission_id IN (?) ORDER BY r.id`, ids)
	if err != nil {
		return nil, err
	}
	var rows []contactReplyRow
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(q), args...); err != nil {
		return nil, fmt.Errorf("contact replies: %w", err)
	}
	out := map[int64][]contact.Reply{}
	for _, r := range rows {
		out[r.SubmissionID] = append(out[r.SubmissionID], r.reply())
	}
	return out, nil
}

// ContactCounts implements contact.Store.
func (db *DB) ContactCounts(ctx context.Context) (map[string]int, error) {
	var rows []struct {
		Status string `db:"status"`
		N      int    `db:"n"`
	}
	if err := db.Read.SelectContext(ctx, &rows, `SELECT status, COUNT(*) AS n FROM contact_submissions GROUP BY status`); err != nil {
		return nil, fmt.Errorf("count contact messages: %w", err)
	}
	out := make(map[string]int, len(rows))
	for _, r := range rows {
		out[r.Status] = r.N
	}
	return out, nil
}

// MarkContactRead implements contact.Store.
func (db *DB) MarkContactRead(ctx context.Context, id int64) error {
	_, err := db.Write.ExecContext(ctx, db.Write.Rebind(`UPDATE contact_submissions SET status = ? WHERE id = ? AND status = ?`),
		contact.InboxRead, id, contact.InboxNew)
	return err
}

// SetContactStatus implements contact.Store.
func (db *DB) SetContactStatus(ctx context.Context, id int64, status string) error {
	res, err := db.Write.ExecContext(ctx, db.Write.Rebind(`UPDATE contact_submissions SET status = ? WHERE id = ?`), status, id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return contact.ErrNotFound
	}
	return nil
}

// InsertContactReply implements contact.Store.
func (db *DB) InsertContactReply(ctx context.Context, r *contact.Reply) (int64, error) {
	var user any
	if r.UserID > 0 {
		user = r.UserID
	}
	var id int64
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		var status string
		err := tx.GetContext(ctx, &status, tx.Rebind(`SELECT status FROM contact_submissions WHERE id = ?`), r.SubmissionID)
		if err != nil {
			return sqlcore.NoRow(err, contact.ErrNotFound)
		}
		if status == contact.InboxTrash {
			return contact.ErrTrashed
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE contact_submissions SET status = ? WHERE id = ?`), contact.InboxReplied, r.SubmissionID); err != nil {
			return err
		}
		if err := tx.GetContext(ctx, &id, tx.Rebind(`INSERT INTO contact_replies (submission_id, user_id, author, to_email, subject, body, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`), r.SubmissionID, user, r.Author, r.To, r.Subject, r.Text, r.CreatedAt.Unix()); err != nil {
			return err
		}
		ref := strconv.FormatInt(id, 10)
		return enqueueMailOnce(ctx, tx, contact.KindReply, ref, r.CreatedAt)
	})
	if err != nil {
		return 0, err
	}
	return id, nil
}

// ContactReply implements contact.Store.
func (db *DB) ContactReply(ctx context.Context, id int64) (*contact.Reply, error) {
	var row contactReplyRow
	err := db.Read.GetContext(ctx, &row, db.Read.Rebind(contactReplySelect+` WHERE r.id = ?`), id)
	if err != nil {
		return nil, sqlcore.NoRow(err, contact.ErrNotFound)
	}
	r := row.reply()
	return &r, nil
}

// DeleteContactSubmission implements contact.Store; its files and replies
// go with it (ON DELETE CASCADE).
func (db *DB) DeleteContactSubmission(ctx context.Context, id int64) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM contact_submissions WHERE id = ? AND status = ?`), id, contact.InboxTrash)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n > 0 {
			return nil
		}
		var n int
		if err := tx.GetContext(ctx, &n, tx.Rebind(`SELECT COUNT(*) FROM contact_submissions WHERE id = ?`), id); err != nil {
			return err
		}
		if n == 0 {
			return contact.ErrNotFound
		}
		return contact.ErrNotTrashed
	})
}

// ContactFile implements contact.Store.
func (db *DB) ContactFile(ctx context.Context, submissionID, fileID int64) (*contact.StoredFile, error) {
	var f struct {
		ID      int64         `db:"id"`
		Field   string        `db:"field"`
		Name    string        `db:"name"`
		MIME    string        `db:"mime"`
		Size    int64         `db:"size"`
		Content []byte        `db:"content"`
		Purged  sql.NullInt64 `db:"purged_at"`
	}
	err := db.Read.GetContext(ctx, &f, db.Read.Rebind(`SELECT id, field, name, mime, size, content, purged_at
		FROM contact_files WHERE id = ? AND submission_id = ?`), fileID, submissionID)
	if err != nil {
		return nil, sqlcore.NoRow(err, contact.ErrNotFound)
	}
	out := &contact.StoredFile{ID: f.ID, Field: f.Field, Name: f.Name, MIME: f.MIME, Size: f.Size, Purged: f.Purged.Valid}
	if !out.Purged {
		out.Content = f.Content
		if out.Content == nil {
			out.Content = []byte{}
		}
	}
	return out, nil
}
