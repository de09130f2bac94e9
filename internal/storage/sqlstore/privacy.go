package sqlstore

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/account"
	"vitrine/internal/cart"
	"vitrine/internal/privacy"
	"vitrine/internal/review"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// Privacy requests (internal/privacy): the requests and their links, the
// readers of a person's data and the erasure. Times are unix seconds.

const privacyColumns = `id, kind, email, user_id, source, requested_by, status, confirm_expires, confirmed_at,
	download_expires, downloaded_at, export_zip IS NOT NULL AS has_export, approved_by, result, created_at, completed_at`

type privacyRow struct {
	ID              int64         `db:"id"`
	Kind            string        `db:"kind"`
	Email           string        `db:"email"`
	UserID          sql.NullInt64 `db:"user_id"`
	Source          string        `db:"source"`
	RequestedBy     int64         `db:"requested_by"`
	Status          string        `db:"status"`
	ConfirmExpires  int64         `db:"confirm_expires"`
	ConfirmedAt     sql.NullInt64 `db:"confirmed_at"`
	DownloadExpires sql.NullInt64 `db:"download_expires"`
	DownloadedAt    sql.NullInt64 `db:"downloaded_at"`
	HasExport       bool          `db:"has_export"`
	ApprovedBy      int64         `db:"approved_by"`
	Result          string        `db:"result"`
	CreatedAt       int64         `db:"created_at"`
	CompletedAt     sql.NullInt64 `db:"completed_at"`
}

func unixPtr(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := sqlcore.UnixUTC(v.Int64)
	return &t
}

func (r privacyRow) request() privacy.Request {
	out := privacy.Request{ID: r.ID, Kind: r.Kind, Email: r.Email, UserID: r.UserID.Int64, Source: r.Source,
		RequestedBy: r.RequestedBy, Status: r.Status, CreatedAt: sqlcore.UnixUTC(r.CreatedAt),
		ConfirmExpires: sqlcore.UnixUTC(r.ConfirmExpires), ConfirmedAt: unixPtr(r.ConfirmedAt), CompletedAt: unixPtr(r.CompletedAt),
		DownloadExpires: unixPtr(r.DownloadExpires), Downloaded: r.DownloadedAt.Valid, HasExport: r.HasExport, ApprovedBy: r.ApprovedBy}
	if r.Result != "" {
		var e privacy.Erased
		if json.Unmarshal([]byte(r.Result), &e) == nil {
			out.Result = &e
		}
	}
	return out
}

// InsertPrivacyRequest implements privacy.Store.
func (db *DB) InsertPrivacyRequest(ctx context.Context, r *privacy.NewRequest) (int64, error) {
	var id int64
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		// A pending request whose link expired no longer holds the address.
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM privacy_requests
			WHERE kind = ? AND email = ? AND status = ? AND confirm_expires <= ?`),
			r.Kind, r.Email, privacy.StatusPending, r.CreatedAt.Unix()); err != nil {
			return err
		}
		err := tx.GetContext(ctx, &id, tx.Rebind(`INSERT INTO privacy_requests
			(kind, email, user_id, source, requested_by, confirm_hash, confirm_sealed, confirm_expires, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
			r.Kind, r.Email, sqlcore.NullID(r.UserID), r.Source, r.RequestedBy, r.ConfirmHash, r.ConfirmSealed,
			r.ConfirmExpires.Unix(), r.CreatedAt.Unix())
		if sqlcore.UniqueViolation(err) {
			return privacy.ErrPending
		}
		if err != nil || r.ConfirmSealed == "" {
			return err
		}
		return sqlcore.EnqueueMailTx(ctx, tx, privacy.MailConfirm, strconv.FormatInt(id, 10),
			privacy.MailConfirm+":"+strconv.FormatInt(id, 10), r.CreatedAt)
	})
	return id, err
}

// PrivacyRequest implements privacy.Store. It reads the primary: the
// use cases read a request right after changing it.
func (db *DB) PrivacyRequest(ctx context.Context, id int64) (*privacy.Request, error) {
	var r privacyRow
	err := db.Write.GetContext(ctx, &r, db.Write.Rebind(`SELECT `+privacyColumns+` FROM privacy_requests WHERE id = ?`), id)
	if err != nil {
		return nil, sqlcore.NoRow(err, privacy.ErrNotFound)
	}
	out := r.request()
	return &out, nil
}

// PrivacyRequestByConfirm implements privacy.Store.
func (db *DB) PrivacyRequestByConfirm(ctx context.Context, hash string) (*privacy.Request, error) {
	var r privacyRow
	err := db.Read.GetContext(ctx, &r, db.Read.Rebind(`SELECT `+privacyColumns+` FROM privacy_requests WHERE confirm_hash = ?`), hash)
	if err != nil {
		return nil, sqlcore.NoRow(err, privacy.ErrNotFound)
	}
	out := r.request()
	return &out, nil
}

// PrivacyRequests implements privacy.Store.
func (db *DB) PrivacyRequests(ctx context.Context, kind string, limit int) ([]privacy.Request, error) {
	q, args := `SELECT `+privacyColumns+` FROM privacy_requests`, []any{}
	if kind != "" {
		q, args = q+` WHERE kind = ?`, append(args, kind)
	}
	var rows []privacyRow
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(q+` ORDER BY id DESC`+sqlcore.Limit(limit)), args...); err != nil {
		return nil, err
	}
	out := make([]privacy.Request, len(rows))
	for i, r := range rows {
		out[i] = r.request()
	}
	return out, nil
}

// ConfirmPrivacyRequest implements privacy.Store: one conditional UPDATE.
func (db *DB) ConfirmPrivacyRequest(ctx context.Context, hash string, now time.Time) (*privacy.Request, error) {
	var id int64
	err := db.Write.GetContext(ctx, &id, db.Write.Rebind(`UPDATE privacy_requests
		SET status = ?, confirmed_at = ?, confirm_sealed = ''
		WHERE confirm_hash = ? AND status = ? AND confirm_expires > ? RETURNING id`),
		privacy.StatusConfirmed, now.Unix(), hash, privacy.StatusPending, now.Unix())
	if err != nil {
		return nil, sqlcore.NoRow(err, privacy.ErrLinkInvalid)
	}
	return db.PrivacyRequest(ctx, id)
}

// CompletePrivacyExport implements privacy.Store.
func (db *DB) CompletePrivacyExport(ctx context.Context, id int64, zip []byte, hash, sealed string, expires, now time.Time) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE privacy_requests
			SET status = ?, completed_at = ?, export_zip = ?, download_hash = ?, download_sealed = ?, download_expires = ?
			WHERE id = ? AND kind = ? AND status = ?`),
			privacy.StatusCompleted, now.Unix(), zip, hash, sealed, expires.Unix(), id, privacy.KindExport, privacy.StatusConfirmed)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return privacy.ErrNotConfirmed
		}
		if sealed == "" {
			return nil
		}
		ref := strconv.FormatInt(id, 10)
		return sqlcore.EnqueueMailTx(ctx, tx, privacy.MailExportReady, ref, privacy.MailExportReady+":"+ref, now)
	})
}

// ConsumePrivacyDownload implements privacy.Store: the conditional UPDATE
// lets one caller through.
func (db *DB) ConsumePrivacyDownload(ctx context.Context, hash string, now time.Time) (*privacy.Request, []byte, error) {
	var id int64
	err := db.Write.GetContext(ctx, &id, db.Write.Rebind(`UPDATE privacy_requests
		SET downloaded_at = ?, download_sealed = ''
		WHERE download_hash = ? AND downloaded_at IS NULL AND download_expires > ? AND export_zip IS NOT NULL RETURNING id`),
		now.Unix(), hash, now.Unix())
	if err != nil {
		return nil, nil, sqlcore.NoRow(err, privacy.ErrLinkInvalid)
	}
	r, err := db.PrivacyRequest(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	zip, err := db.PrivacyExportFile(ctx, id)
	if errors.Is(err, privacy.ErrNotFound) {
		return nil, nil, privacy.ErrLinkInvalid
	}
	return r, zip, err
}

// PrivacyExportFile implements privacy.Store.
func (db *DB) PrivacyExportFile(ctx context.Context, id int64) ([]byte, error) {
	var zip []byte
	err := db.Write.GetContext(ctx, &zip, db.Write.Rebind(`SELECT export_zip FROM privacy_requests WHERE id = ? AND export_zip IS NOT NULL`), id)
	if err != nil {
		return nil, sqlcore.NoRow(err, privacy.ErrNotFound)
	}
	return zip, nil
}

// PurgePrivacyExports drops the exports whose link expired before now
// (the rows stay, without the file).
func (db *DB) PurgePrivacyExports(ctx context.Context, now time.Time) (int64, error) {
	res, err := db.Write.ExecContext(ctx, db.Write.Rebind(`UPDATE privacy_requests SET export_zip = NULL, download_sealed = ''
		WHERE export_zip IS NOT NULL AND download_expires <= ?`), now.Unix())
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// PrivacyLink implements privacy.Store.
func (db *DB) PrivacyLink(ctx context.Context, mailKind string, id int64) (*privacy.Link, error) {
	var r struct {
		Kind    string         `db:"kind"`
		Email   string         `db:"email"`
		Hash    sql.NullString `db:"hash"`
		Sealed  string         `db:"sealed"`
		Expires sql.NullInt64  `db:"expires"`
		Used    bool           `db:"used"`
	}
	q := `SELECT kind, email, confirm_hash AS hash, confirm_sealed AS sealed, confirm_expires AS expires, status <> 'pending' AS used
		FROM privacy_requests WHERE id = ?`
	if mailKind == privacy.MailExportReady {
		q = `SELECT kind, email, download_hash AS hash, download_sealed AS sealed, download_expires AS expires, downloaded_at IS NOT NULL AS used
			FROM privacy_requests WHERE id = ?`
	}
	if err := db.Read.GetContext(ctx, &r, db.Read.Rebind(q), id); err != nil {
		return nil, sqlcore.NoRow(err, privacy.ErrNotFound)
	}
	return &privacy.Link{RequestID: id, Kind: r.Kind, Email: r.Email, Hash: r.Hash.String, Sealed: r.Sealed,
		ExpiresAt: sqlcore.UnixUTC(r.Expires.Int64), Used: r.Used}, nil
}

// PrivacySessions implements privacy.Store.
func (db *DB) PrivacySessions(ctx context.Context, userID int64) ([]privacy.Session, error) {
	var rows []sessionRow
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(`SELECT user_id, created_at, last_seen_at, expires_at
		FROM account_sessions WHERE user_id = ? ORDER BY created_at`), userID); err != nil {
		return nil, err
	}
	out := make([]privacy.Session, len(rows))
	for i, r := range rows {
		out[i] = privacy.Session{CreatedAt: sqlcore.UnixUTC(r.CreatedAt), LastSeenAt: sqlcore.UnixUTC(r.LastSeenAt), ExpiresAt: sqlcore.UnixUTC(r.ExpiresAt)}
	}
	return out, nil
}

// PrivacyWishlist implements privacy.Store: the account's wishlist items,
// named by their product (a variation by its parent's name), oldest first.
func (db *DB) PrivacyWishlist(ctx context.Context, userID int64) ([]privacy.WishlistRow, error) {
	var rows []struct {
		Name  sql.NullString `db:"name"`
		Price int64          `db:"price_added"`
		Added int64          `db:"added_at"`
	}
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(`SELECT p.name, i.price_added, i.added_at
		FROM wishlist_items i JOIN wishlists w ON w.id = i.wishlist_id LEFT JOIN products p ON p.id = i.product_id
		WHERE w.customer_id = ? ORDER BY i.added_at, i.product_id, i.variation_id`), userID); err != nil {
		return nil, err
	}
	out := make([]privacy.WishlistRow, len(rows))
	for i, r := range rows {
		out[i] = privacy.WishlistRow{Product: cmp.Or(r.Name.String, "(a product no longer sold)"), PriceAdded: r.Price, Added: sqlcore.UnixUTC(r.Added)}
	}
	return out, nil
}

// PrivacyStockAlerts implements privacy.Store: the stock alerts asked by
// the account or for the address, oldest first.
func (db *DB) PrivacyStockAlerts(ctx context.Context, email string, userID int64) ([]privacy.StockAlertData, error) {
	var rows []struct {
		Name    string `db:"name"`
		Email   string `db:"email"`
		Status  string `db:"status"`
		Created int64  `db:"created_at"`
	}
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(`SELECT p.name, a.email, a.status, a.created_at
		FROM stock_alerts a JOIN products p ON p.id = a.product_id
		WHERE (a.user_id <> 0 AND a.user_id = ?) OR a.email = ? ORDER BY a.created_at, a.id`), userID, strings.ToLower(email)); err != nil {
		return nil, err
	}
	out := make([]privacy.StockAlertData, len(rows))
	for i, r := range rows {
		out[i] = privacy.StockAlertData{Product: r.Name, Email: r.Email, Status: r.Status, Created: sqlcore.UnixUTC(r.Created)}
	}
	return out, nil
}

// personMatch is the WHERE of rows that are the person's: their account's,
// or written with their email (compared case-folded).
func personMatch(userCol, emailExpr string) string {
	return `((` + userCol + ` IS NOT NULL AND ` + userCol + ` = ?) OR (? <> '' AND lower(` + emailExpr + `) = ?))`
}

// PrivacyOrderIDs implements privacy.Store: orders of the account or
// billed to the email, oldest first.
func (db *DB) PrivacyOrderIDs(ctx context.Context, email string, userID int64) ([]int64, error) {
	var ids []int64
	err := db.Read.SelectContext(ctx, &ids, db.Read.Rebind(`SELECT id FROM orders WHERE `+personMatch("customer_id", "billing_email")+` ORDER BY id`),
		userID, email, strings.ToLower(email))
	return ids, err
}

// PrivacyReviews implements privacy.Store.
func (db *DB) PrivacyReviews(ctx context.Context, email string, userID int64) ([]review.Review, error) {
	var rows []reviewRow
	err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(`SELECT `+reviewColumns+`
		FROM reviews r JOIN products p ON p.id = r.product_id
		WHERE `+personMatch("r.user_id", "r.email")+` ORDER BY r.id`), userID, email, strings.ToLower(email))
	if err != nil {
		return nil, err
	}
	return reviews(rows), nil
}

// PrivacyContactIDs implements privacy.Store: the submissions of the
// account, or whose values hold the email as one whole value (the stored
// values are a JSON object of lists of strings; an email needs no JSON
// escaping).
func (db *DB) PrivacyContactIDs(ctx context.Context, email string, userID int64) ([]int64, error) {
	var ids []int64
	needle := "%" + sqlcore.LikeEscape(`"`+strings.ToLower(email)+`"`) + "%"
	err := db.Read.SelectContext(ctx, &ids, db.Read.Rebind(`SELECT id FROM contact_submissions
		WHERE (user_id IS NOT NULL AND user_id = ?) OR (? <> '' AND lower(field_values) LIKE ? ESCAPE '\')
		ORDER BY id`), userID, email, needle)
	return ids, err
}

// ErasePrivacyData implements privacy.Store.
func (db *DB) ErasePrivacyData(ctx context.Context, in privacy.EraseInput) (privacy.Erased, error) {
	var out privacy.Erased
	email := strings.ToLower(in.Email)
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		out = privacy.Erased{Orders: in.Orders, ReviewsMode: in.ReviewsMode}
		var st string
		if err := tx.GetContext(ctx, &st, tx.Rebind(`SELECT status FROM privacy_requests WHERE id = ? AND kind = ?`), in.RequestID, privacy.KindErase); err != nil {
			return sqlcore.NoRow(err, privacy.ErrNotFound)
		}
		if st != privacy.StatusConfirmed {
			return privacy.ErrNotConfirmed
		}
		// Reviews: anonymised (the text and rating stay, as WordPress's
		// comment eraser does) or deleted; the products' figures follow.
		var products []int64
		if err := tx.SelectContext(ctx, &products, tx.Rebind(`SELECT DISTINCT product_id FROM reviews WHERE `+personMatch("user_id", "email")),
			in.UserID, email, email); err != nil {
			return err
		}
		q := `UPDATE reviews SET author = ?, email = '', client_ip = '', user_id = NULL WHERE ` + personMatch("user_id", "email")
		args := []any{privacy.AnonymousName, in.UserID, email, email}
		if in.ReviewsMode == privacy.ReviewsDelete {
			q, args = `DELETE FROM reviews WHERE `+personMatch("user_id", "email"), args[1:]
		}
		res, err := tx.ExecContext(ctx, tx.Rebind(q), args...)
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		out.Reviews = int(n)
		for _, p := range products {
			if err := db.refreshRatings(ctx, tx, p); err != nil {
				return err
			}
		}
		// Contact messages, their files and replies (by cascade).
		needle := "%" + sqlcore.LikeEscape(`"`+email+`"`) + "%"
		res, err = tx.ExecContext(ctx, tx.Rebind(`DELETE FROM contact_submissions
			WHERE (user_id IS NOT NULL AND user_id = ?) OR (? <> '' AND lower(field_values) LIKE ? ESCAPE '\')`), in.UserID, email, needle)
		if err != nil {
			return err
		}
		n, _ = res.RowsAffected()
		out.ContactMessages = int(n)
		// Replies the shop sent to the address from other messages.
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM contact_replies WHERE lower(to_email) = ?`), email); err != nil {
			return err
		}
		// Messages to support from refused registrations, carts that kept
		// the address, rate-limit buckets named by it, other requests'
		// exports of it.
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM support_messages WHERE lower(email) = ?`), email); err != nil {
			return err
		}
		// Stock alerts asked by the account or for the address (the
		// account's wishlist goes with the account, by cascade).
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM stock_alerts WHERE (user_id <> 0 AND user_id = ?) OR email = ?`), in.UserID, email); err != nil {
			return err
		}
		cartLike := "%" + sqlcore.LikeEscape(`"`+email+`"`) + "%"
		cartIDs := []any{cartLike}
		cartQ := `DELETE FROM cart_sessions WHERE lower(customer) LIKE ? ESCAPE '\'`
		if in.UserID != 0 {
			cartQ += ` OR id = ?`
			cartIDs = append(cartIDs, cart.CustomerSession(in.UserID))
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(cartQ), cartIDs...); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM rate_limits WHERE bucket LIKE ? ESCAPE '\'`),
			"%"+sqlcore.LikeEscape(email)); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM privacy_requests WHERE email = ? AND id <> ?`), email, in.RequestID); err != nil {
			return err
		}
		if in.UserID != 0 {
			err := db.deleteUserTx(ctx, tx, in.UserID)
			switch {
			case err == nil:
				out.AccountDeleted = true
			case !errors.Is(err, account.ErrNoUser):
				return err
			}
		}
		result, _ := json.Marshal(out)
		_, err = tx.ExecContext(ctx, tx.Rebind(`UPDATE privacy_requests
			SET status = ?, completed_at = ?, approved_by = ?, result = ?, email = '', user_id = NULL, confirm_sealed = ''
			WHERE id = ?`), privacy.StatusCompleted, in.Now.Unix(), in.ApprovedBy, string(result), in.RequestID)
		return err
	})
	return out, err
}
