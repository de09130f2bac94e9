package sqlstore

import (
	"context"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/account"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// Customers moved in from another shop (account.MovedInStore): who they
// are (legacy_ids of kind "customer"), their imported WordPress password
// hashes, and their invitations to set a password (account_invitations).

var _ account.MovedInStore = (*DB)(nil)

// MovedInCustomers lists the accounts legacy "customer" ids point at, each
// once, by id, with their latest invitation.
func (db *DB) MovedInCustomers(ctx context.Context) ([]account.MovedIn, error) {
	type row struct {
		ID          int64  `db:"id"`
		Email       string `db:"email"`
		Username    string `db:"username"`
		Hash        string `db:"password_hash"`
		InviteHash  string `db:"token_hash"`
		InvitedAt   int64  `db:"invited_at"`
		DueAt       int64  `db:"due_at"`
		Invitations int    `db:"times"`
	}
	return sqlcore.SelectAs(ctx, db.Read, func(r row) account.MovedIn {
		m := account.MovedIn{UserID: r.ID, Email: r.Email, Username: r.Username, PasswordHash: r.Hash,
			InviteHash: r.InviteHash, Invitations: r.Invitations}
		if r.InvitedAt != 0 {
			m.InvitedAt, m.InviteDueAt = sqlcore.UnixUTC(r.InvitedAt), sqlcore.UnixUTC(r.DueAt)
		}
		return m
	}, `SELECT u.id, u.email, COALESCE(u.username, '') AS username, u.password_hash,
			COALESCE(i.token_hash, '') AS token_hash, COALESCE(i.invited_at, 0) AS invited_at,
			COALESCE(i.due_at, 0) AS due_at, COALESCE(i.times, 0) AS times
		FROM users u LEFT JOIN account_invitations i ON i.user_id = u.id
		WHERE u.id IN (SELECT new_id FROM legacy_ids WHERE kind = 'customer')
		ORDER BY u.id`)
}

// SetPasswordHashes writes each hash whose account still holds its Old,
// in one transaction (a conditional UPDATE each).
func (db *DB) SetPasswordHashes(ctx context.Context, changes []account.PasswordChange) ([]int64, error) {
	var done []int64
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		done = done[:0]
		q := tx.Rebind(`UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ?`)
		for _, c := range changes {
			res, err := tx.ExecContext(ctx, q, c.New, c.UserID, c.Old)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 1 {
				done = append(done, c.UserID)
			}
		}
		return nil
	})
	return done, err
}

// InsertInvitation stores the link, records the invitation and queues its
// mail due at inv.DueAt, in one transaction. The account's row is taken
// first by a conditional no-op UPDATE: a password set concurrently either
// waits for this transaction (PostgreSQL; SQLite writes one at a time) or
// makes it refuse.
func (db *DB) InsertInvitation(ctx context.Context, userID int64, inv *account.Invitation) error {
	r := inv.Reset
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		one := func(q string, args ...any) (bool, error) {
			res, err := tx.ExecContext(ctx, tx.Rebind(q), args...)
			if err != nil {
				return false, err
			}
			n, err := res.RowsAffected()
			return n == 1, err
		}
		ok, err := one(`UPDATE users SET password_hash = password_hash WHERE id = ? AND password_hash = ?`, userID, inv.PasswordHash)
		if err != nil || !ok {
			return raced(err)
		}
		if inv.Replaces == "" {
			ok, err = one(`INSERT INTO account_invitations (user_id, token_hash, invited_at, due_at) VALUES (?, ?, ?, ?)
				ON CONFLICT (user_id) DO NOTHING`, userID, r.TokenHash, r.CreatedAt.Unix(), inv.DueAt.Unix())
		} else {
			ok, err = one(`UPDATE account_invitations SET token_hash = ?, invited_at = ?, due_at = ?, times = times + 1
				WHERE user_id = ? AND token_hash = ?`, r.TokenHash, r.CreatedAt.Unix(), inv.DueAt.Unix(), userID, inv.Replaces)
		}
		if err != nil || !ok {
			return raced(err)
		}
		if inv.Replaces != "" {
			// The earlier link stops working (its mail, if still queued, is void).
			if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM password_resets WHERE token_hash = ?`), inv.Replaces); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO password_resets (token_hash, user_id, created_at, expires_at, sealed_token)
			VALUES (?, ?, ?, ?, ?)`), r.TokenHash, userID, r.CreatedAt.Unix(), r.ExpiresAt.Unix(), r.Sealed); err != nil {
			return err
		}
		// Queued due at DueAt rather than now: the outbox sends a row once
		// it is due, so the mails go out at the invitations' rate.
		_, err = tx.ExecContext(ctx, tx.Rebind(`INSERT INTO mail_outbox (dedupe_key, kind, ref, created_at, next_attempt_at)
			VALUES (?, ?, ?, ?, ?) ON CONFLICT (dedupe_key) DO NOTHING`),
			account.MailInvitation+":"+r.TokenHash, account.MailInvitation, r.TokenHash, r.CreatedAt.Unix(), inv.DueAt.Unix())
		return err
	})
}

// raced is err, or account.ErrInvitationRaced when there is none (a
// conditional statement matched no row).
func raced(err error) error {
	if err != nil {
		return err
	}
	return account.ErrInvitationRaced
}
