package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/review"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// ReviewTarget implements review.Store.
func (db *DB) ReviewTarget(ctx context.Context, productID int64) (*review.Target, error) {
	var row struct {
		ID      int64          `db:"id"`
		Name    string         `db:"name"`
		Type    string         `db:"type"`
		Status  string         `db:"status"`
		Allowed sql.NullString `db:"allowed"`
	}
	err := db.Read.GetContext(ctx, &row, db.Read.Rebind(`SELECT p.id, p.name, p.type, p.status,
		(SELECT m.value FROM product_meta m WHERE m.product_id = p.id AND m.meta_key = '_reviews_allowed') AS allowed
		FROM products p WHERE p.id = ?`), productID)
	if err != nil {
		return nil, sqlcore.NoRow(err, review.ErrNotFound)
	}
	// Reviews are allowed unless the product turns them off (WooCommerce's
	// default for a product is "Enable reviews" on).
	return &review.Target{ID: row.ID, Name: row.Name, Type: row.Type, Status: row.Status,
		ReviewsAllowed: row.Allowed.String != "no"}, nil
}

// ReviewerAccount implements review.Store.
func (db *DB) ReviewerAccount(ctx context.Context, userID int64) (string, string, error) {
	var row struct {
		Name  string `db:"display_name"`
		Email string `db:"email"`
	}
	if err := db.Read.GetContext(ctx, &row, db.Read.Rebind(`SELECT display_name, email FROM users WHERE id = ?`), userID); err != nil {
		return "", "", fmt.Errorf("reviewer account %d: %w", userID, err)
	}
	return row.Name, row.Email, nil
}

// Purchased implements review.Store: an order line of the product (order
// lines hold the parent's id for a variation) in an order that is paid.
func (db *DB) Purchased(ctx context.Context, productID, userID int64, email string) (bool, error) {
	if userID == 0 && email == "" {
		return false, nil
	}
	var n int
	err := db.Read.GetContext(ctx, &n, db.Read.Rebind(`SELECT COUNT(*) FROM orders o
		WHERE o.status IN (?, ?)
		  AND ((o.customer_id IS NOT NULL AND o.customer_id = ?) OR (? <> '' AND lower(o.billing_email) = ?))
		  AND EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = o.id AND l.product_id = ?)`),
		checkout.StatusProcessing, checkout.StatusCompleted, userID, email, strings.ToLower(email), productID)
	return n > 0, err
}

const reviewColumns = `r.id, r.product_id, p.name AS product_name, p.slug AS product_slug, r.author, r.email, r.user_id, r.rating, r.content,
	r.status, r.verified, r.client_ip, r.created_at, r.reply, r.reply_author, r.reply_user_id, r.reply_at`

type reviewRow struct {
	ID          int64         `db:"id"`
	ProductID   int64         `db:"product_id"`
	ProductName string        `db:"product_name"`
	ProductSlug string        `db:"product_slug"`
	Author      string        `db:"author"`
	Email       string        `db:"email"`
	UserID      sql.NullInt64 `db:"user_id"`
	Rating      int           `db:"rating"`
	Content     string        `db:"content"`
	Status      string        `db:"status"`
	Verified    bool          `db:"verified"`
	ClientIP    string        `db:"client_ip"`
	CreatedAt   sql.NullTime  `db:"created_at"`
	Reply       string        `db:"reply"`
	ReplyAuthor string        `db:"reply_author"`
	ReplyUserID sql.NullInt64 `db:"reply_user_id"`
	ReplyAt     sql.NullTime  `db:"reply_at"`
}

func (r reviewRow) review() review.Review {
	return review.Review{ID: r.ID, ProductID: r.ProductID, ProductName: r.ProductName, Author: r.Author, Email: r.Email,
		UserID: r.UserID.Int64, Rating: r.Rating, Content: r.Content, Status: r.Status, Verified: r.Verified,
		ClientIP: r.ClientIP, CreatedAt: r.CreatedAt.Time.UTC(), ProductSlug: r.ProductSlug,
		Reply: review.Reply{Text: r.Reply, Author: r.ReplyAuthor, UserID: r.ReplyUserID.Int64, At: r.ReplyAt.Time.UTC()}}
}

func reviews(rows []reviewRow) []review.Review {
	out := make([]review.Review, len(rows))
	for i, r := range rows {
		out[i] = r.review()
	}
	return out
}

// InsertReview implements review.Store.
func (db *DB) InsertReview(ctx context.Context, r *review.Review) error {
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		var user sql.NullInt64
		if r.UserID != 0 {
			user = sql.NullInt64{Int64: r.UserID, Valid: true}
		}
		err := tx.GetContext(ctx, &r.ID, tx.Rebind(`INSERT INTO reviews (product_id, author, email, user_id, rating, content,
			status, approved, verified, client_ip, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
			r.ProductID, r.Author, r.Email, user, r.Rating, r.Content, r.Status, r.Status == review.StatusApproved,
			r.Verified, r.ClientIP, r.CreatedAt.UTC())
		if sqlcore.UniqueViolation(err) {
			return review.ErrDuplicate
		}
		if err != nil {
			return fmt.Errorf("insert review: %w", err)
		}
		if r.Status != review.StatusApproved {
			return nil // nothing shown changes
		}
		return db.refreshRatings(ctx, tx, r.ProductID)
	})
}

// SetReviewStatus implements review.Store.
func (db *DB) SetReviewStatus(ctx context.Context, id int64, status string) (*review.Review, error) {
	var out review.Review
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE reviews SET status = ?, approved = ? WHERE id = ?`),
			status, status == review.StatusApproved, id)
		if err != nil {
			return fmt.Errorf("review status: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return review.ErrReviewNotFound
		}
		var row reviewRow
		if err := tx.GetContext(ctx, &row, tx.Rebind(`SELECT `+reviewColumns+` FROM reviews r JOIN products p ON p.id = r.product_id WHERE r.id = ?`), id); err != nil {
			return err
		}
		out = row.review()
		return db.refreshRatings(ctx, tx, row.ProductID)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// refreshRatings recomputes a product's review_count, average_rating
// (rated reviews only: a review without stars has rating 0) and histogram
// from its approved reviews, and appends a product change so its cached
// pages are invalidated by tag.
func (db *DB) refreshRatings(ctx context.Context, tx *sqlx.Tx, productID int64) error {
	const count = `(SELECT COUNT(*) FROM reviews WHERE product_id = ? AND approved = ? AND rating = ?)`
	args := []any{productID, true, productID, true}
	for i := 1; i <= 5; i++ {
		args = append(args, productID, true, i)
	}
	args = append(args, productID)
	if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE products SET
		review_count = (SELECT COUNT(*) FROM reviews WHERE product_id = ? AND approved = ?),
		average_rating = COALESCE((SELECT AVG(rating) FROM reviews WHERE product_id = ? AND approved = ? AND rating > 0), 0),
		rating_1 = `+count+`, rating_2 = `+count+`, rating_3 = `+count+`, rating_4 = `+count+`, rating_5 = `+count+`
		WHERE id = ?`), args...); err != nil {
		return fmt.Errorf("refresh ratings: %w", err)
	}
	return db.RecordChange(ctx, tx, productID, "product")
}

// reviewOrder maps review.Query's orderby to columns (the id breaks ties).
var reviewOrder = map[string]string{
	"date_gmt": "r.created_at %[1]s, r.id %[1]s",
	"id":       "r.id %[1]s",
	"rating":   "r.rating %[1]s, r.created_at %[1]s, r.id %[1]s",
	"product":  "r.product_id %[1]s, r.created_at %[1]s, r.id %[1]s",
}

// ListReviews implements review.Store.
func (db *DB) ListReviews(ctx context.Context, q review.Query) ([]review.Review, int, error) {
	order, ok := reviewOrder[q.OrderBy]
	if !ok {
		return nil, 0, fmt.Errorf("list reviews: orderby %q", q.OrderBy)
	}
	dir := "DESC"
	if q.Order == "asc" {
		dir = "ASC"
	}
	// Categories include their descendants (a tax_query's include_children).
	with := ""
	var args []any
	if len(q.CategoryIDs) > 0 {
		with = `WITH RECURSIVE cats (id) AS (SELECT id FROM categories WHERE id IN (?)
			UNION SELECT c.id FROM categories c JOIN cats ON c.parent_id = cats.id) `
		args = append(args, q.CategoryIDs)
	}
	where := []string{"r.status = ?", "p.status = 'publish'"}
	args = append(args, review.StatusApproved)
	if len(q.ProductIDs) > 0 {
		where = append(where, "r.product_id IN (?)")
		args = append(args, q.ProductIDs)
	}
	if len(q.CategoryIDs) > 0 {
		where = append(where, "r.product_id IN (SELECT product_id FROM product_categories WHERE category_id IN (SELECT id FROM cats))")
	}
	from := ` FROM reviews r JOIN products p ON p.id = r.product_id WHERE ` + strings.Join(where, " AND ")
	countQ, countArgs, err := sqlx.In(with+`SELECT COUNT(*)`+from, args...)
	if err != nil {
		return nil, 0, err
	}
	var total int
	if err := db.Read.GetContext(ctx, &total, db.Read.Rebind(countQ), countArgs...); err != nil {
		return nil, 0, err
	}
	if total == 0 {
		return []review.Review{}, 0, nil
	}
	listQ, listArgs, err := sqlx.In(with+`SELECT `+reviewColumns+from+` ORDER BY `+fmt.Sprintf(order, dir)+sqlcore.Limit(q.PerPage)+` OFFSET ?`,
		append(args, (q.Page-1)*q.PerPage)...)
	if err != nil {
		return nil, 0, err
	}
	var rows []reviewRow
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(listQ), listArgs...); err != nil {
		return nil, 0, err
	}
	return reviews(rows), total, nil
}

// HeldReviews implements review.Store.
func (db *DB) HeldReviews(ctx context.Context, productID, userID int64, email string) ([]review.Review, error) {
	var rows []reviewRow
	err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(`SELECT `+reviewColumns+`
		FROM reviews r JOIN products p ON p.id = r.product_id
		WHERE r.product_id = ? AND r.status = ?
		  AND ((r.user_id IS NOT NULL AND r.user_id = ?) OR (? <> '' AND lower(r.email) = ?))
		ORDER BY r.created_at DESC, r.id DESC`), productID, review.StatusHold, userID, email, strings.ToLower(email))
	if err != nil {
		return nil, err
	}
	return reviews(rows), nil
}

// RatingHistogram implements review.Store.
func (db *DB) RatingHistogram(ctx context.Context, productID int64) (review.Histogram, error) {
	var h review.Histogram
	err := db.Read.QueryRowContext(ctx, db.Read.Rebind(`SELECT rating_1, rating_2, rating_3, rating_4, rating_5 FROM products WHERE id = ?`), productID).
		Scan(&h[0], &h[1], &h[2], &h[3], &h[4])
	if errors.Is(err, sql.ErrNoRows) {
		return h, review.ErrNotFound
	}
	return h, err
}

// ReviewByID implements review.Store.
func (db *DB) ReviewByID(ctx context.Context, id int64) (*review.Review, error) {
	var row reviewRow
	err := db.Read.GetContext(ctx, &row, db.Read.Rebind(`SELECT `+reviewColumns+` FROM reviews r JOIN products p ON p.id = r.product_id WHERE r.id = ?`), id)
	if err != nil {
		return nil, sqlcore.NoRow(err, review.ErrReviewNotFound)
	}
	r := row.review()
	return &r, nil
}

// ModerationReviews implements review.Store: reviews in any status, of
// products in any status, for the admin. "all" is held and approved ones,
// held first.
func (db *DB) ModerationReviews(ctx context.Context, q review.AdminQuery) ([]review.Review, int, error) {
	var where []string
	var args []any
	order := "r.created_at DESC, r.id DESC"
	if q.Status == review.StatusAll {
		where = append(where, "r.status IN (?, ?)")
		args = append(args, review.StatusHold, review.StatusApproved)
		order = "CASE WHEN r.status = 'hold' THEN 0 ELSE 1 END, " + order
	} else {
		where = append(where, "r.status = ?")
		args = append(args, q.Status)
	}
	if len(q.ProductIDs) > 0 {
		where = append(where, "r.product_id IN (?)")
		args = append(args, q.ProductIDs)
	}
	if q.Search != "" {
		like := likePattern(q.Search)
		where = append(where, `(lower(r.author) LIKE ? ESCAPE '\' OR lower(r.email) LIKE ? ESCAPE '\' OR lower(r.content) LIKE ? ESCAPE '\')`)
		args = append(args, like, like, like)
	}
	from := ` FROM reviews r JOIN products p ON p.id = r.product_id WHERE ` + strings.Join(where, " AND ")
	countQ, countArgs, err := sqlx.In(`SELECT COUNT(*)`+from, args...)
	if err != nil {
		return nil, 0, err
	}
	var total int
	if err := db.Read.GetContext(ctx, &total, db.Read.Rebind(countQ), countArgs...); err != nil {
		return nil, 0, fmt.Errorf("count reviews: %w", err)
	}
	if total == 0 {
		return []review.Review{}, 0, nil
	}
	listQ, listArgs, err := sqlx.In(`SELECT `+reviewColumns+from+` ORDER BY `+order+sqlcore.Limit(q.PerPage)+` OFFSET ?`,
		append(args, (q.Page-1)*q.PerPage)...)
	if err != nil {
		return nil, 0, err
	}
	var rows []reviewRow
	if err := db.Read.SelectContext(ctx, &rows, db.Read.Rebind(listQ), listArgs...); err != nil {
		return nil, 0, fmt.Errorf("list reviews: %w", err)
	}
	return reviews(rows), total, nil
}

// likePattern is a LIKE pattern (with ESCAPE '\') matching s anywhere,
// case-folded: the wildcards s holds match themselves.
func likePattern(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(strings.ToLower(s)) + "%"
}

// ReviewCounts implements review.Store.
func (db *DB) ReviewCounts(ctx context.Context) (map[string]int, error) {
	var rows []struct {
		Status string `db:"status"`
		N      int    `db:"n"`
	}
	if err := db.Read.SelectContext(ctx, &rows, `SELECT status, COUNT(*) AS n FROM reviews GROUP BY status`); err != nil {
		return nil, fmt.Errorf("count reviews: %w", err)
	}
	out := make(map[string]int, len(rows))
	for _, r := range rows {
		out[r.Status] = r.N
	}
	return out, nil
}

// DeleteReview implements review.Store.
func (db *DB) DeleteReview(ctx context.Context, id int64) (*review.Review, error) {
	var out review.Review
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		var row reviewRow
		err := tx.GetContext(ctx, &row, tx.Rebind(`SELECT `+reviewColumns+` FROM reviews r JOIN products p ON p.id = r.product_id WHERE r.id = ?`), id)
		if err != nil {
			return sqlcore.NoRow(err, review.ErrReviewNotFound)
		}
		res, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM reviews WHERE id = ? AND status = ?`), id, review.StatusTrash)
		if err != nil {
			return fmt.Errorf("delete review: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return review.ErrNotTrashed
		}
		out = row.review()
		// A trashed review shows nowhere; the refresh keeps the figures
		// exact all the same, and the change is cheap.
		return db.refreshRatings(ctx, tx, row.ProductID)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// SetReviewReply implements review.Store.
func (db *DB) SetReviewReply(ctx context.Context, id int64, r review.Reply) (*review.Review, error) {
	var out review.Review
	err := db.Tx(ctx, func(tx *sqlx.Tx) error {
		var res sql.Result
		var err error
		if r.Text == "" {
			res, err = tx.ExecContext(ctx, tx.Rebind(`UPDATE reviews SET reply = '', reply_author = '', reply_user_id = NULL, reply_at = NULL WHERE id = ?`), id)
		} else {
			var user sql.NullInt64
			if r.UserID > 0 {
				user = sql.NullInt64{Int64: r.UserID, Valid: true}
			}
			// A held review is approved with its reply (WordPress's
			// "Approve and Reply"); spam and trash take none.
			res, err = tx.ExecContext(ctx, tx.Rebind(`UPDATE reviews SET reply = ?, reply_author = ?, reply_user_id = ?, reply_at = ?,
				status = ?, approved = ? WHERE id = ? AND status IN (?, ?)`),
				r.Text, r.Author, user, r.At.UTC(), review.StatusApproved, true, id, review.StatusApproved, review.StatusHold)
		}
		if err != nil {
			return fmt.Errorf("review reply: %w", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		var row reviewRow
		err = tx.GetContext(ctx, &row, tx.Rebind(`SELECT `+reviewColumns+` FROM reviews r JOIN products p ON p.id = r.product_id WHERE r.id = ?`), id)
		if err != nil {
			return sqlcore.NoRow(err, review.ErrReviewNotFound)
		}
		if n == 0 {
			return review.ErrNotReplyable
		}
		out = row.review()
		return db.refreshRatings(ctx, tx, row.ProductID)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// SaveReview implements catalog.Writer (an upsert by product and email);
// it also refreshes the product's average rating, review count and
// histogram (refreshRatings).
func (db *DB) SaveReview(ctx context.Context, r *catalog.Review) error {
	if r.Rating < 1 || r.Rating > 5 {
		return fmt.Errorf("rating %d is not between 1 and 5", r.Rating)
	}
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		created := r.CreatedAt
		if created.IsZero() {
			created = db.Now()
		}
		status := review.StatusHold
		if r.Approved {
			status = review.StatusApproved
		}
		// A product has one review per email (00016_reviews.sql): saving
		// one again (a second seeding) updates it, as Writer's upserts do.
		if err := tx.GetContext(ctx, &r.ID, tx.Rebind(`INSERT INTO reviews (product_id, author, email, rating, content, verified, approved, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (product_id, lower(email)) WHERE email <> '' DO UPDATE SET author = excluded.author, rating = excluded.rating,
			content = excluded.content, verified = excluded.verified, approved = excluded.approved, status = excluded.status
			RETURNING id`),
			r.ProductID, r.Author, r.Email, r.Rating, r.Content, r.Verified, r.Approved, status, created.UTC()); err != nil {
			return fmt.Errorf("insert review: %w", err)
		}
		return db.refreshRatings(ctx, tx, r.ProductID)
	})
}
