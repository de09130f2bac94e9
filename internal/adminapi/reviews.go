package adminapi

import (
	"context"
	"net/http"
	"strings"
	"time"

	"vitrine/internal/review"
	"vitrine/internal/storeapi"
)

// The moderation queue: WooCommerce's /wc/v3/products/reviews (list, read,
// status changes, delete), and the shop's reply, which WooCommerce has no
// route for (it stores replies as child comments), under
// /vitrine/v1/admin/reviews/{id}/reply. The rules are review.Service's.

// reviewJSON is a review in WooCommerce's REST v3 shape, with the shop's
// reply (null when none).
type reviewJSON struct {
	ID               int64            `json:"id"`
	DateCreated      string           `json:"date_created"`
	DateCreatedGMT   string           `json:"date_created_gmt"`
	ProductID        int64            `json:"product_id"`
	ProductName      string           `json:"product_name"`
	ProductPermalink string           `json:"product_permalink"`
	Status           string           `json:"status"`
	Reviewer         string           `json:"reviewer"`
	ReviewerEmail    string           `json:"reviewer_email"`
	Review           string           `json:"review"`
	Rating           int              `json:"rating"`
	Verified         bool             `json:"verified"`
	Reply            *reviewReplyJSON `json:"reply"`
}

type reviewReplyJSON struct {
	Text   string `json:"text"`
	Author string `json:"author"`
	Date   string `json:"date"`
}

const reviewDateLayout = "2006-01-02T15:04:05"

func (a *API) reviewOut(r *review.Review) reviewJSON {
	at := r.CreatedAt.UTC()
	out := reviewJSON{ID: r.ID, DateCreated: at.Format(reviewDateLayout), DateCreatedGMT: at.Format(reviewDateLayout), ProductID: r.ProductID,
		ProductName: r.ProductName, Status: r.Status, Reviewer: r.Author, ReviewerEmail: r.Email,
		Review: storeapi.ReviewHTML(r.Content), Rating: r.Rating, Verified: r.Verified}
	if r.ProductSlug != "" {
		out.ProductPermalink = strings.TrimRight(a.d.BaseURL, "/") + storeapi.ProductPath(r.ProductSlug)
	}
	if r.Reply.Text != "" {
		out.Reply = &reviewReplyJSON{Text: r.Reply.Text, Author: r.Reply.Author, Date: r.Reply.At.UTC().Format(time.RFC3339)}
	}
	return out
}

// GET /wp-json/wc/v3/products/reviews?status=&product=&search=&page=&per_page=
func (a *API) reviewsList(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var q review.AdminQuery
	return List[review.Review, reviewJSON]{
		Search: &q.Search,
		Filters: []Filter{
			OneOf("status", &q.Status, review.StatusAll, review.StatusHold, review.StatusApproved, review.StatusSpam, review.StatusTrash),
			IDs("product", &q.ProductIDs, "product is not a list of product ids."),
		},
		Fetch: func(ctx context.Context, p Paging) ([]review.Review, int, error) {
			q.Page, q.PerPage = p.Page, p.PerPage
			return a.d.Reviews.Moderation(ctx, q)
		},
		Row: func(rv review.Review) reviewJSON { return a.reviewOut(&rv) },
	}.Serve(w, r)
}

// GET /wp-json/vitrine/v1/admin/reviews/counts: reviews per status.
func (a *API) reviewCounts(w http.ResponseWriter, r *http.Request, _ Staff) error {
	return Tabs{Count: func(ctx context.Context) (map[string]int, error) { return a.d.Reviews.Counts(ctx) }}.Serve(w, r)
}

// GET /wp-json/wc/v3/products/reviews/{id}
func (a *API) reviewGet(w http.ResponseWriter, r *http.Request, _ Staff) error {
	return getByID(w, r, a.d.Reviews.Get, a.reviewOut)
}

// reviewStatusVerbs name a move to a status in the audit log.
var reviewStatusVerbs = map[string]string{review.StatusApproved: "Approved", review.StatusHold: "Unapproved",
	review.StatusSpam: "Marked as spam", review.StatusTrash: "Trashed"}

// PUT /wp-json/wc/v3/products/reviews/{id} {"status": …}: the only field
// the moderation queue changes (a review's text is its author's).
func (a *API) reviewUpdate(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, status, err := idAndStatus(r, review.ValidStatus, "status is not one of hold, approved, spam, trash.")
	if err != nil {
		return err
	}
	rv, err := a.d.Reviews.SetStatus(r.Context(), id, status)
	if err != nil {
		return err
	}
	Note(r, "review."+rv.Status, "review", rv.ID, reviewStatusVerbs[rv.Status]+" the review by "+rv.Author+" of "+rv.ProductName)
	WriteJSON(w, http.StatusOK, a.reviewOut(rv))
	return nil
}

// DELETE /wp-json/wc/v3/products/reviews/{id}[?force=true]: to the trash,
// or, with force, for good (only from the trash).
func (a *API) reviewDelete(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, force, err := idAndForce(r)
	if err != nil {
		return err
	}
	if !force {
		rv, err := a.d.Reviews.SetStatus(r.Context(), id, review.StatusTrash)
		if err != nil {
			return err
		}
		Note(r, "review.trash", "review", rv.ID, "Trashed the review by "+rv.Author+" of "+rv.ProductName)
		WriteJSON(w, http.StatusOK, a.reviewOut(rv))
		return nil
	}
	rv, err := a.d.Reviews.Delete(r.Context(), id)
	if err != nil {
		return err
	}
	Note(r, "review.delete", "review", rv.ID, "Deleted the review by "+rv.Author+" of "+rv.ProductName+" permanently")
	WriteJSON(w, http.StatusOK, map[string]any{"deleted": true, "previous": a.reviewOut(rv)})
	return nil
}

// idAndForce reads a DELETE of an item: the path's {id} and WordPress's
// force flag.
func idAndForce(r *http.Request) (int64, bool, error) {
	id, err := IDParam(r, "id")
	if err != nil {
		return 0, false, err
	}
	force, err := forceParam(r)
	return id, force, err
}

// forceParam reads WordPress's force flag: true/1, false/0 or absent.
func forceParam(r *http.Request) (bool, error) {
	switch strings.ToLower(r.URL.Query().Get("force")) {
	case "", "false", "0":
		return false, nil
	case "true", "1":
		return true, nil
	}
	return false, InvalidParam("force", "force is not of type boolean.")
}

// PUT /wp-json/vitrine/v1/admin/reviews/{id}/reply {"text": …}: sets or
// replaces the shop's reply (a held review is approved with it).
func (a *API) reviewReply(w http.ResponseWriter, r *http.Request, st Staff) error {
	var body struct {
		Text string `json:"text"`
	}
	id, err := idAndBody(r, &body)
	if err != nil {
		return err
	}
	rv, err := a.d.Reviews.Reply(r.Context(), id, st.ID, st.Name, body.Text)
	if err != nil {
		return err
	}
	Note(r, "review.reply", "review", rv.ID, "Replied to the review by "+rv.Author+" of "+rv.ProductName)
	WriteJSON(w, http.StatusOK, a.reviewOut(rv))
	return nil
}

// DELETE /wp-json/vitrine/v1/admin/reviews/{id}/reply
func (a *API) reviewReplyDelete(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := IDParam(r, "id")
	if err != nil {
		return err
	}
	rv, err := a.d.Reviews.RemoveReply(r.Context(), id)
	if err != nil {
		return err
	}
	Note(r, "review.reply_delete", "review", rv.ID, "Removed the reply to the review by "+rv.Author+" of "+rv.ProductName)
	WriteJSON(w, http.StatusOK, a.reviewOut(rv))
	return nil
}
