package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/account"
	"vitrine/internal/mail"
	"vitrine/internal/storage/sqlstore/orderstore"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// Accounts (internal/account): users, sessions, reset links, two-factor
// secrets and recovery codes, remembered devices. Times are unix seconds.

const userColumns = `id, email, username, display_name, role, password_hash, email_verified_at, created_at,
	totp_secret, totp_pending, totp_last_step`

type userRow struct {
	ID              int64          `db:"id"`
	Email           string         `db:"email"`
	Username        sql.NullString `db:"username"`
	DisplayName     string         `db:"display_name"`
	Role            string         `db:"role"`
	PasswordHash    string         `db:"password_hash"`
	EmailVerifiedAt sql.NullInt64  `db:"email_verified_at"`
	CreatedAt       int64          `db:"created_at"`
	TOTPSecret      sql.NullString `db:"totp_secret"`
	TOTPPending     sql.NullString `db:"totp_pending"`
	TOTPLastStep    int64          `db:"totp_last_step"`
}

func (r *userRow) user() *account.User {
	u := &account.User{ID: r.ID, Email: r.Email, Username: r.Username.String, DisplayName: r.DisplayName,
		Role: r.Role, PasswordHash: r.PasswordHash, CreatedAt: time.Unix(r.CreatedAt, 0).UTC(),
		TOTPSecret: r.TOTPSecret.String, TOTPPending: r.TOTPPending.String, TOTPLastStep: r.TOTPLastStep}
	if r.EmailVerifiedAt.Valid {
		u.EmailVerifiedAt = time.Unix(r.EmailVerifiedAt.Int64, 0).UTC()
	}
	return u
}

func (db *DB) userWhere(ctx context.Context, where string, arg any) (*account.User, error) {
	var r userRow
	err := db.Read.GetContext(ctx, &r, db.Read.Rebind(`SELECT `+userColumns+` FROM users WHERE `+where), arg)
	if err != nil {
		return nil, sqlcore.NoRow(err, account.ErrNoUser)
	}
	return r.user(), nil
}

// UserByID loads an account (account.ErrNoUser).
func (db *DB) UserByID(ctx context.Context, id int64) (*account.User, error) {
	return db.userWhere(ctx, `id = ?`, id)
}

// UserByEmail loads an account by its case-folded email.
func (db *DB) UserByEmail(ctx context.Context, email string) (*account.User, error) {
	return db.userWhere(ctx, `email = ?`, email)
}

// UserByUsername loads an account by its case-folded username.
func (db *DB) UserByUsername(ctx context.Context, username string) (*account.User, error) {
	if username == "" {
		return nil, account.ErrNoUser
	}
	return db.userWhere(ctx, `username = ?`, username)
}

// takenBy names which of email and username another account holds.
func takenBy(ctx context.Context, tx *sqlx.Tx, email, username string, self int64) error {
	var n int
	if err := tx.GetContext(ctx, &n, tx.Rebind(`SELECT COUNT(*) FROM users WHERE email = ? AND id <> ?`), email, self); err != nil {
		return err
	}
	if n > 0 {
		return account.ErrEmailTaken
	}
	if username != "" {
		if err := tx.GetContext(ctx, &n, tx.Rebind(`SELECT COUNT(*) FROM users WHERE username = ? AND id <> ?`), username, self); err != nil {
			return err
		}
		if n > 0 {
			return account.ErrUsernameTaken
		}
	}
	return nil
}

// CreateUser inserts an account: account.ErrEmailTaken or
// account.ErrUsernameTaken when another holds either (also when a
// concurrent insert won the race: the unique index decides). A customer's
// queues customer.created.
func (db *DB) CreateUser(ctx context.Context, u *account.User) (int64, error) {
	var id int64
	var verified sql.NullInt64
	if !u.EmailVerifiedAt.IsZero() {
		verified = sql.NullInt64{Int64: u.EmailVerifiedAt.Unix(), Valid: true}
	}
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		if err := takenBy(ctx, tx, u.Email, u.Username, 0); err != nil {
			return err
		}
		if err := tx.GetContext(ctx, &id, tx.Rebind(`INSERT INTO users (email, username, display_name, role, password_hash, email_verified_at, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`),
			u.Email, sqlcore.NullString(u.Username), u.DisplayName, u.Role, u.PasswordHash, verified, u.CreatedAt.Unix()); err != nil {
			return err
		}
		return sqlcore.EnqueueCustomerWebhooksTx(ctx, tx, "customer.created", id, u.CreatedAt)
	})
	if err != nil && sqlcore.UniqueViolation(err) {
		if u2, _ := db.UserByEmail(ctx, u.Email); u2 != nil {
			return 0, account.ErrEmailTaken
		}
		return 0, account.ErrUsernameTaken
	}
	return id, err
}

// SetPassword stores a new hash and ends the user's sessions and devices.
func (db *DB) SetPassword(ctx context.Context, userID int64, hash string, n *account.Notice) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE users SET password_hash = ? WHERE id = ?`), hash, userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return account.ErrNoUser
		}
		if err := queueNotice(ctx, tx, userID, n); err != nil {
			return err
		}
		return endAccess(ctx, tx, userID)
	})
}

// queueNotice records an account notice and queues its mail, in tx; an
// empty n.Email takes the user's current address.
func queueNotice(ctx context.Context, tx *sqlx.Tx, userID int64, n *account.Notice) error {
	if n == nil {
		return nil
	}
	to := n.Email
	if to == "" {
		if err := tx.GetContext(ctx, &to, tx.Rebind(`SELECT email FROM users WHERE id = ?`), userID); err != nil {
			return err
		}
	}
	var id int64
	if err := tx.GetContext(ctx, &id, tx.Rebind(`INSERT INTO account_notices (user_id, kind, email, new_email, created_at)
		VALUES (?, ?, ?, ?, ?) RETURNING id`), userID, n.Kind, to, n.NewEmail, n.CreatedAt.Unix()); err != nil {
		return err
	}
	ref := strconv.FormatInt(id, 10)
	return enqueueMailOnce(ctx, tx, n.Kind, ref, n.CreatedAt)
}

// QueueNotice records an account notice and queues its mail in one
// transaction (account.Store).
func (db *DB) QueueNotice(ctx context.Context, userID int64, n *account.Notice) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error { return queueNotice(ctx, tx, userID, n) })
}

// Notice loads a queued account notice.
func (db *DB) Notice(ctx context.Context, id int64) (*account.Notice, error) {
	var r struct {
		ID       int64  `db:"id"`
		UserID   int64  `db:"user_id"`
		Kind     string `db:"kind"`
		Email    string `db:"email"`
		NewEmail string `db:"new_email"`
		Created  int64  `db:"created_at"`
	}
	err := db.Read.GetContext(ctx, &r, db.Read.Rebind(`SELECT id, user_id, kind, email, new_email, created_at FROM account_notices WHERE id = ?`), id)
	if err != nil {
		return nil, sqlcore.NoRow(err, account.ErrNoRow)
	}
	return &account.Notice{ID: r.ID, UserID: r.UserID, Kind: r.Kind, Email: r.Email, NewEmail: r.NewEmail, CreatedAt: sqlcore.UnixUTC(r.Created)}, nil
}

// UpdatePasswordHash swaps the hash of the same password when it is still
// oldHash (a concurrent password change wins).
func (db *DB) UpdatePasswordHash(ctx context.Context, userID int64, oldHash, newHash string) error {
	_, err := db.Write.ExecContext(ctx, db.Write.Rebind(`UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ?`), newHash, userID, oldHash)
	return err
}

// endAccess deletes a user's sessions and remembered devices.
func endAccess(ctx context.Context, tx *sqlx.Tx, userID int64) error {
	if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM account_sessions WHERE user_id = ?`), userID); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM remembered_devices WHERE user_id = ?`), userID)
	return err
}

// SetEmail changes the email and clears its verification (a customer's:
// customer.updated).
func (db *DB) SetEmail(ctx context.Context, userID int64, email string, n *account.Notice) error {
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		if err := takenBy(ctx, tx, email, "", userID); err != nil {
			return err
		}
		if n != nil {
			c := *n
			if c.Email == "" {
				if err := tx.GetContext(ctx, &c.Email, tx.Rebind(`SELECT email FROM users WHERE id = ?`), userID); errors.Is(err, sql.ErrNoRows) {
					return account.ErrNoUser
				} else if err != nil {
					return err
				}
			}
			if c.NewEmail == "" {
				c.NewEmail = email
			}
			if err := queueNotice(ctx, tx, userID, &c); err != nil {
				return err
			}
		}
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE users SET email = ?, email_verified_at = NULL WHERE id = ?`), email, userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return account.ErrNoUser
		}
		return sqlcore.EnqueueCustomerWebhooksTx(ctx, tx, "customer.updated", userID, db.Now())
	})
	if err != nil && sqlcore.UniqueViolation(err) {
		return account.ErrEmailTaken
	}
	return err
}

// DeleteUser deletes an account and its sessions, links, codes, devices
// (a customer's queues customer.deleted).
func (db *DB) DeleteUser(ctx context.Context, userID int64) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error { return db.deleteUserTx(ctx, tx, userID) })
}

// deleteUserTx is DeleteUser inside tx (a privacy erasure deletes the
// account in its own transaction): account.ErrNoUser when there is none.
func (db *DB) deleteUserTx(ctx context.Context, tx *sqlx.Tx, userID int64) error {
	if err := sqlcore.EnqueueCustomerWebhooksTx(ctx, tx, "customer.deleted", userID, db.Now()); err != nil {
		return err
	}
	// Orders stay, as guest orders (the foreign key says so too).
	if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE orders SET customer_id = NULL WHERE customer_id = ?`), userID); err != nil {
		return err
	}
	for _, t := range []string{"account_sessions", "password_resets", "email_verifications", "recovery_codes", "remembered_devices", "customer_addresses", "account_notices",
		"account_invitations"} {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM `+t+` WHERE user_id = ?`), userID); err != nil {
			return err
		}
	}
	res, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM users WHERE id = ?`), userID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return account.ErrNoUser
	}
	return nil
}

// InsertSession stores a new session under its token's hash, and records
// the log-in on the account (users.last_login_at, which data retention
// reads to tell an inactive account).
func (db *DB) InsertSession(ctx context.Context, hash string, s *account.Session) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO account_sessions (token_hash, user_id, created_at, last_seen_at, expires_at)
			VALUES (?, ?, ?, ?, ?)`), hash, s.UserID, s.CreatedAt.Unix(), s.LastSeenAt.Unix(), s.ExpiresAt.Unix()); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE users SET last_login_at = ? WHERE id = ?`), s.CreatedAt.Unix(), s.UserID)
		return err
	})
}

type sessionRow struct {
	UserID     int64 `db:"user_id"`
	CreatedAt  int64 `db:"created_at"`
	LastSeenAt int64 `db:"last_seen_at"`
	ExpiresAt  int64 `db:"expires_at"`
}

func (r *sessionRow) session() *account.Session {
	return &account.Session{UserID: r.UserID, CreatedAt: time.Unix(r.CreatedAt, 0).UTC(),
		LastSeenAt: time.Unix(r.LastSeenAt, 0).UTC(), ExpiresAt: time.Unix(r.ExpiresAt, 0).UTC()}
}

// SessionByHash loads a session (account.ErrNoSession), ended or not.
func (db *DB) SessionByHash(ctx context.Context, hash string) (*account.Session, error) {
	var r sessionRow
	err := db.Read.GetContext(ctx, &r, db.Read.Rebind(`SELECT user_id, created_at, last_seen_at, expires_at FROM account_sessions WHERE token_hash = ?`), hash)
	if err != nil {
		return nil, sqlcore.NoRow(err, account.ErrNoSession)
	}
	return r.session(), nil
}

// TouchSession moves a session's last-seen time forward to now.
func (db *DB) TouchSession(ctx context.Context, hash string, now time.Time) error {
	_, err := db.Write.ExecContext(ctx, db.Write.Rebind(`UPDATE account_sessions SET last_seen_at = ? WHERE token_hash = ? AND last_seen_at < ?`),
		now.Unix(), hash, now.Unix())
	return err
}

// ReplaceSession gives a live session a new token hash (same user, same
// absolute end, seen now) in one transaction.
func (db *DB) ReplaceSession(ctx context.Context, oldHash, newHash string, now time.Time) (*account.Session, error) {
	var r sessionRow
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		err := tx.GetContext(ctx, &r, tx.Rebind(`DELETE FROM account_sessions WHERE token_hash = ? AND expires_at > ?
			RETURNING user_id, created_at, last_seen_at, expires_at`), oldHash, now.Unix())
		if err != nil {
			return sqlcore.NoRow(err, account.ErrNoSession)
		}
		r.LastSeenAt = now.Unix()
		_, err = tx.ExecContext(ctx, tx.Rebind(`INSERT INTO account_sessions (token_hash, user_id, created_at, last_seen_at, expires_at)
			VALUES (?, ?, ?, ?, ?)`), newHash, r.UserID, r.CreatedAt, r.LastSeenAt, r.ExpiresAt)
		return err
	})
	if err != nil {
		return nil, err
	}
	return r.session(), nil
}

// DeleteSession ends one session.
func (db *DB) DeleteSession(ctx context.Context, hash string) error {
	_, err := db.Write.ExecContext(ctx, db.Write.Rebind(`DELETE FROM account_sessions WHERE token_hash = ?`), hash)
	return err
}

// DeleteUserSessions ends every session of a user.
func (db *DB) DeleteUserSessions(ctx context.Context, userID int64) error {
	_, err := db.Write.ExecContext(ctx, db.Write.Rebind(`DELETE FROM account_sessions WHERE user_id = ?`), userID)
	return err
}

// DeleteExpiredSessions removes ended sessions, reset links and devices.
func (db *DB) DeleteExpiredSessions(ctx context.Context, now, idleBefore time.Time) (int64, error) {
	var total int64
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		total = 0
		for _, q := range []struct {
			sql  string
			args []any
		}{
			{`DELETE FROM account_sessions WHERE expires_at <= ? OR last_seen_at <= ?`, []any{now.Unix(), idleBefore.Unix()}},
			{`DELETE FROM password_resets WHERE expires_at <= ?`, []any{now.Unix()}},
			{`DELETE FROM email_verifications WHERE expires_at <= ?`, []any{now.Unix()}},
			{`DELETE FROM remembered_devices WHERE expires_at <= ?`, []any{now.Unix()}},
		} {
			res, err := tx.ExecContext(ctx, tx.Rebind(q.sql), q.args...)
			if err != nil {
				return err
			}
			n, _ := res.RowsAffected()
			total += n
		}
		return nil
	})
	return total, err
}

// InsertReset stores a lost-password link.
// A row with a seal queues its mail in the same transaction.
func (db *DB) InsertReset(ctx context.Context, r *account.PasswordReset) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO password_resets (token_hash, user_id, created_at, expires_at, sealed_token)
			VALUES (?, ?, ?, ?, ?)`), r.TokenHash, r.UserID, r.CreatedAt.Unix(), r.ExpiresAt.Unix(), r.Sealed); err != nil {
			return err
		}
		if r.Sealed == "" {
			return nil
		}
		return enqueueMailOnce(ctx, tx, account.MailPasswordReset, r.TokenHash, r.CreatedAt)
	})
}

// linkRow is a password_resets or email_verifications row.
type linkRow struct {
	Hash    string        `db:"token_hash"`
	UserID  int64         `db:"user_id"`
	Email   string        `db:"email"`
	Created int64         `db:"created_at"`
	Expires int64         `db:"expires_at"`
	Used    sql.NullInt64 `db:"used_at"`
	Sealed  string        `db:"sealed_token"`
}

func (db *DB) link(ctx context.Context, table, cols, hash string) (*linkRow, error) {
	var r linkRow
	err := db.Read.GetContext(ctx, &r, db.Read.Rebind(`SELECT token_hash, user_id, `+cols+`created_at, expires_at, used_at, sealed_token
		FROM `+table+` WHERE token_hash = ?`), hash)
	if err != nil {
		return nil, sqlcore.NoRow(err, account.ErrNoRow)
	}
	return &r, nil
}

func usedAt(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return sqlcore.UnixUTC(n.Int64)
}

// Reset loads a lost-password link by hash.
func (db *DB) Reset(ctx context.Context, hash string) (*account.PasswordReset, error) {
	r, err := db.link(ctx, "password_resets", "", hash)
	if err != nil {
		return nil, err
	}
	return &account.PasswordReset{TokenHash: r.Hash, UserID: r.UserID, CreatedAt: sqlcore.UnixUTC(r.Created), ExpiresAt: sqlcore.UnixUTC(r.Expires),
		UsedAt: usedAt(r.Used), Sealed: r.Sealed}, nil
}

// EmailVerification loads a verification link by hash.
func (db *DB) EmailVerification(ctx context.Context, hash string) (*account.EmailVerification, error) {
	r, err := db.link(ctx, "email_verifications", "email, ", hash)
	if err != nil {
		return nil, err
	}
	return &account.EmailVerification{TokenHash: r.Hash, UserID: r.UserID, Email: r.Email, CreatedAt: sqlcore.UnixUTC(r.Created),
		ExpiresAt: sqlcore.UnixUTC(r.Expires), UsedAt: usedAt(r.Used), Sealed: r.Sealed}, nil
}

// ConsumeReset uses a link once: the conditional UPDATE lets one of
// concurrent uses through; the password is set, the user's sessions and
// devices end and its other links go, in the same transaction.
func (db *DB) ConsumeReset(ctx context.Context, hash, passwordHash string, now time.Time) (int64, error) {
	var userID int64
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		err := tx.GetContext(ctx, &userID, tx.Rebind(`UPDATE password_resets SET used_at = ?, sealed_token = ''
			WHERE token_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING user_id`), now.Unix(), hash, now.Unix())
		if err != nil {
			return sqlcore.NoRow(err, account.ErrResetInvalid)
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE users SET password_hash = ? WHERE id = ?`), passwordHash, userID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM password_resets WHERE user_id = ? AND token_hash <> ?`), userID, hash); err != nil {
			return err
		}
		if err := queueNotice(ctx, tx, userID, &account.Notice{Kind: account.MailPasswordChanged, CreatedAt: now}); err != nil {
			return err
		}
		return endAccess(ctx, tx, userID)
	})
	return userID, err
}

// InsertEmailVerification stores an email verification link.
// A row with a seal queues its mail in the same transaction.
func (db *DB) InsertEmailVerification(ctx context.Context, v *account.EmailVerification) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO email_verifications (token_hash, user_id, email, created_at, expires_at, sealed_token)
			VALUES (?, ?, ?, ?, ?, ?)`), v.TokenHash, v.UserID, v.Email, v.CreatedAt.Unix(), v.ExpiresAt.Unix(), v.Sealed); err != nil {
			return err
		}
		if v.Sealed == "" {
			return nil
		}
		return enqueueMailOnce(ctx, tx, account.MailVerifyEmail, v.TokenHash, v.CreatedAt)
	})
}

// ConsumeEmailVerification uses a link once (a conditional UPDATE) and
// marks the user's email verified when it is still the link's email.
func (db *DB) ConsumeEmailVerification(ctx context.Context, hash string, now time.Time) (int64, error) {
	var userID int64
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		var row struct {
			UserID int64  `db:"user_id"`
			Email  string `db:"email"`
		}
		err := tx.GetContext(ctx, &row, tx.Rebind(`UPDATE email_verifications SET used_at = ?, sealed_token = ''
			WHERE token_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING user_id, email`), now.Unix(), hash, now.Unix())
		if err != nil {
			return sqlcore.NoRow(err, account.ErrVerificationInvalid)
		}
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE users SET email_verified_at = COALESCE(email_verified_at, ?) WHERE id = ? AND email = ?`),
			now.Unix(), row.UserID, row.Email)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return account.ErrVerificationInvalid // the email changed since: roll the use back
		}
		if _, err := orderstore.LinkGuestOrdersTx(ctx, tx, row.UserID, row.Email); err != nil {
			return err
		}
		userID = row.UserID
		return nil
	})
	return userID, err
}

// SetRole changes a user's role (to customer: customer.updated).
func (db *DB) SetRole(ctx context.Context, userID int64, role string) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE users SET role = ? WHERE id = ?`), role, userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return account.ErrNoUser
		}
		return sqlcore.EnqueueCustomerWebhooksTx(ctx, tx, "customer.updated", userID, db.Now())
	})
}

// SetPendingTOTP stores a secret awaiting confirmation.
func (db *DB) SetPendingTOTP(ctx context.Context, userID int64, secret string) error {
	res, err := db.Write.ExecContext(ctx, db.Write.Rebind(`UPDATE users SET totp_pending = ? WHERE id = ?`), secret, userID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return account.ErrNoUser
	}
	return nil
}

// ActivateTOTP turns the pending secret on (when it is still secret),
// records step as used and replaces the recovery codes.
func (db *DB) ActivateTOTP(ctx context.Context, userID int64, secret string, step int64, recoveryHashes []string) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE users SET totp_secret = totp_pending, totp_pending = NULL, totp_last_step = ?
			WHERE id = ? AND totp_pending = ? AND totp_secret IS NULL`), step, userID, secret)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return account.ErrTOTPNotPending
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM recovery_codes WHERE user_id = ?`), userID); err != nil {
			return err
		}
		for _, h := range recoveryHashes {
			if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO recovery_codes (user_id, code_hash) VALUES (?, ?)`), userID, h); err != nil {
				return err
			}
		}
		return nil
	})
}

// UseTOTPStep records step as the user's last used one when it is newer.
func (db *DB) UseTOTPStep(ctx context.Context, userID int64, step int64) (bool, error) {
	res, err := db.Write.ExecContext(ctx, db.Write.Rebind(`UPDATE users SET totp_last_step = ?
		WHERE id = ? AND totp_last_step < ? AND totp_secret IS NOT NULL`), step, userID, step)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// UseRecoveryCode marks an unused code used.
func (db *DB) UseRecoveryCode(ctx context.Context, userID int64, hash string, now time.Time) (bool, error) {
	res, err := db.Write.ExecContext(ctx, db.Write.Rebind(`UPDATE recovery_codes SET used_at = ?
		WHERE user_id = ? AND code_hash = ? AND used_at IS NULL`), now.Unix(), userID, hash)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// RecoveryCodesLeft counts the user's unused recovery codes.
func (db *DB) RecoveryCodesLeft(ctx context.Context, userID int64) (int, error) {
	var n int
	err := db.Read.GetContext(ctx, &n, db.Read.Rebind(`SELECT COUNT(*) FROM recovery_codes WHERE user_id = ? AND used_at IS NULL`), userID)
	return n, err
}

// DisableTOTP clears the user's secrets, recovery codes and devices.
func (db *DB) DisableTOTP(ctx context.Context, userID int64) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE users SET totp_secret = NULL, totp_pending = NULL WHERE id = ?`), userID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM recovery_codes WHERE user_id = ?`), userID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM remembered_devices WHERE user_id = ?`), userID)
		return err
	})
}

// InsertDevice stores a remembered device and returns its id.
func (db *DB) InsertDevice(ctx context.Context, userID int64, hash, label string, created, expires time.Time) (int64, error) {
	var id int64
	err := db.Write.GetContext(ctx, &id, db.Write.Rebind(`INSERT INTO remembered_devices (token_hash, user_id, label, created_at, expires_at)
		VALUES (?, ?, ?, ?, ?) RETURNING id`), hash, userID, label, created.Unix(), expires.Unix())
	return id, err
}

// DeviceValid reports whether hash is a live device of userID.
func (db *DB) DeviceValid(ctx context.Context, userID int64, hash string, now time.Time) (bool, error) {
	var n int
	err := db.Read.GetContext(ctx, &n, db.Read.Rebind(`SELECT COUNT(*) FROM remembered_devices WHERE token_hash = ? AND user_id = ? AND expires_at > ?`),
		hash, userID, now.Unix())
	return n > 0, err
}

// Devices lists the user's live remembered devices, newest first.
func (db *DB) Devices(ctx context.Context, userID int64, now time.Time) ([]account.Device, error) {
	var rows []struct {
		ID        int64  `db:"id"`
		Label     string `db:"label"`
		CreatedAt int64  `db:"created_at"`
		ExpiresAt int64  `db:"expires_at"`
	}
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(`SELECT id, label, created_at, expires_at FROM remembered_devices
		WHERE user_id = ? AND expires_at > ? ORDER BY id DESC`), userID, now.Unix()); err != nil {
		return nil, err
	}
	out := make([]account.Device, len(rows))
	for i, r := range rows {
		out[i] = account.Device{ID: r.ID, Label: r.Label, CreatedAt: time.Unix(r.CreatedAt, 0).UTC(), ExpiresAt: time.Unix(r.ExpiresAt, 0).UTC()}
	}
	return out, nil
}

// DeleteDevice forgets one of the user's devices: false when none had id.
func (db *DB) DeleteDevice(ctx context.Context, userID, id int64) (bool, error) {
	res, err := db.Write.ExecContext(ctx, db.Write.Rebind(`DELETE FROM remembered_devices WHERE id = ? AND user_id = ?`), id, userID)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// DeleteUserDevices forgets every device of the user.
func (db *DB) DeleteUserDevices(ctx context.Context, userID int64) error {
	_, err := db.Write.ExecContext(ctx, db.Write.Rebind(`DELETE FROM remembered_devices WHERE user_id = ?`), userID)
	return err
}

// ReplaceRecoveryCodes swaps all the user's recovery codes, while
// two-factor is on.
func (db *DB) ReplaceRecoveryCodes(ctx context.Context, userID int64, hashes []string) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		var n int
		if err := tx.GetContext(ctx, &n, tx.Rebind(`SELECT COUNT(*) FROM users WHERE id = ? AND totp_secret IS NOT NULL`), userID); err != nil {
			return err
		}
		if n == 0 {
			return account.ErrTOTPNotEnabled
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM recovery_codes WHERE user_id = ?`), userID); err != nil {
			return err
		}
		for _, h := range hashes {
			if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO recovery_codes (user_id, code_hash) VALUES (?, ?)`), userID, h); err != nil {
				return err
			}
		}
		return nil
	})
}

// ReplaceTOTPSecret rewrites the active secret when it is still old.
func (db *DB) ReplaceTOTPSecret(ctx context.Context, userID int64, old, next string) (bool, error) {
	res, err := db.Write.ExecContext(ctx, db.Write.Rebind(`UPDATE users SET totp_secret = ? WHERE id = ? AND totp_secret = ?`), next, userID, old)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// QueueCodeReusedNotice records the code-reused notice in the outbox,
// deduplicated per user per clock hour by the outbox's dedupe key.
func (db *DB) QueueCodeReusedNotice(ctx context.Context, userID int64, at time.Time) error {
	id := strconv.FormatInt(userID, 10)
	ref := id + "." + strconv.FormatInt(at.Unix(), 10)
	key := mail.KindAccountCodeReused + ":" + id + ":" + strconv.FormatInt(at.Unix()/3600, 10)
	return db.EnqueueMail(ctx, mail.KindAccountCodeReused, ref, key, at)
}
