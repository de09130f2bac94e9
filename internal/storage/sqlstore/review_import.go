package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/jmoiron/sqlx"

	"vitrine/internal/review"
	"vitrine/internal/storage/sqlstore/sqlcore"
)

// ImportReview writes a review moved in from another shop
// (internal/wcimport) as it was there: its status, verified flag, date and
// staff reply. r.ID set replaces that review; 0 inserts one and sets
// r.ID. The product's rating figures (and, when the review moved to
// another product, the old product's) are recomputed in the same
// transaction. review.ErrDuplicate when the product already has a review
// from r.Email (one a product per email).
func (db *DB) ImportReview(ctx context.Context, r *review.Review) error {
	if r.Rating < 0 || r.Rating > 5 {
		return fmt.Errorf("rating %d is not between 0 and 5", r.Rating)
	}
	return db.Tx(ctx, func(tx *sqlx.Tx) error {
		var user, replyUser sql.NullInt64
		if r.UserID != 0 {
			user = sql.NullInt64{Int64: r.UserID, Valid: true}
		}
		if r.Reply.UserID != 0 {
			replyUser = sql.NullInt64{Int64: r.Reply.UserID, Valid: true}
		}
		var replyAt sql.NullTime
		if r.Reply.Text != "" {
			replyAt = sql.NullTime{Time: r.Reply.At.UTC(), Valid: true}
		}
		approved := r.Status == review.StatusApproved
		products := []int64{r.ProductID}
		var err error
		if r.ID == 0 {
			err = tx.GetContext(ctx, &r.ID, tx.Rebind(`INSERT INTO reviews (product_id, author, email, user_id, rating, content,
				status, approved, verified, client_ip, created_at, reply, reply_author, reply_user_id, reply_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
				r.ProductID, r.Author, r.Email, user, r.Rating, r.Content, r.Status, approved, r.Verified, r.ClientIP,
				r.CreatedAt.UTC(), r.Reply.Text, r.Reply.Author, replyUser, replyAt)
		} else {
			var was int64
			if err := tx.GetContext(ctx, &was, tx.Rebind(`SELECT product_id FROM reviews WHERE id = ?`), r.ID); err != nil {
				return sqlcore.NoRow(err, review.ErrReviewNotFound)
			}
			if was != r.ProductID {
				products = append(products, was)
			}
			_, err = tx.ExecContext(ctx, tx.Rebind(`UPDATE reviews SET product_id = ?, author = ?, email = ?, user_id = ?, rating = ?,
				content = ?, status = ?, approved = ?, verified = ?, created_at = ?, reply = ?, reply_author = ?, reply_user_id = ?,
				reply_at = ? WHERE id = ?`),
				r.ProductID, r.Author, r.Email, user, r.Rating, r.Content, r.Status, approved, r.Verified, r.CreatedAt.UTC(),
				r.Reply.Text, r.Reply.Author, replyUser, replyAt, r.ID)
		}
		if sqlcore.UniqueViolation(err) {
			return review.ErrDuplicate
		}
		if err != nil {
			return fmt.Errorf("import review: %w", err)
		}
		for _, p := range products {
			if err := db.refreshRatings(ctx, tx, p); err != nil {
				return err
			}
		}
		return nil
	})
}
