package review_test

// The moderation queue's use cases (admin.go) on every engine: listing by
// status with held reviews first, counts, search, status changes, delete
// only from the trash, replies (approve-and-reply, refused on spam), and a
// product change appended by every change.

import (
	"errors"
	"strings"
	"testing"

	"vitrine/internal/review"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

func TestModerationQueue(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		a := f.mustSubmit(guest(5, "ana@example.com", "Lovely mug, 100% recommended."))
		b := f.mustSubmit(guest(2, "bo@example.com", "Chipped on arrival."))
		c := f.mustSubmit(guest(4, "cy@example.com", "Buy cheap watches"))
		if _, err := f.svc.Approve(f.ctx, b.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Spam(f.ctx, c.ID); err != nil {
			t.Fatal(err)
		}
		counts, err := f.svc.Counts(f.ctx)
		if err != nil || counts[review.StatusHold] != 1 || counts[review.StatusApproved] != 1 || counts[review.StatusSpam] != 1 || counts[review.StatusTrash] != 0 {
			t.Fatalf("counts: %v %v", counts, err)
		}
		ids := func(q review.AdminQuery) []int64 {
			t.Helper()
			rs, total, err := f.svc.Moderation(f.ctx, q)
			if err != nil {
				t.Fatalf("%+v: %v", q, err)
			}
			var out []int64
			for _, r := range rs {
				out = append(out, r.ID)
			}
			if total < len(out) {
				t.Errorf("%+v: total %d below %d rows", q, total, len(out))
			}
			return out
		}
		// "all" is held and approved, the held one first although older.
		if got := ids(review.AdminQuery{}); len(got) != 2 || got[0] != a.ID || got[1] != b.ID {
			t.Errorf("all: %v, want [%d %d]", got, a.ID, b.ID)
		}
		if got := ids(review.AdminQuery{Status: review.StatusSpam}); len(got) != 1 || got[0] != c.ID {
			t.Errorf("spam: %v", got)
		}
		// Search: case-insensitive, in the author, email or text; wildcards match themselves.
		for q, want := range map[string]int{"CHIPPED": 1, "bo@example": 1, "100%": 1, "0%r": 0, "_": 0, "mug": 1} {
			if got := ids(review.AdminQuery{Search: q}); len(got) != want {
				t.Errorf("search %q: %v, want %d", q, got, want)
			}
		}
		if got := ids(review.AdminQuery{ProductIDs: []int64{f.mug.ID + 1000}}); len(got) != 0 {
			t.Errorf("another product: %v", got)
		}
		if got := ids(review.AdminQuery{PerPage: 1, Page: 2}); len(got) != 1 || got[0] != b.ID {
			t.Errorf("page 2: %v", got)
		}
		if _, _, err := f.svc.Moderation(f.ctx, review.AdminQuery{Status: "pending"}); !errors.Is(err, review.ErrBadStatus) {
			t.Errorf("bad status: %v", err)
		}
		if _, err := f.svc.SetStatus(f.ctx, a.ID, "published"); !errors.Is(err, review.ErrBadStatus) {
			t.Errorf("set bad status: %v", err)
		}
		if _, err := f.svc.SetStatus(f.ctx, 99999, review.StatusApproved); !errors.Is(err, review.ErrReviewNotFound) {
			t.Errorf("set unknown: %v", err)
		}

		// Delete: only from the trash.
		if _, err := f.svc.Delete(f.ctx, b.ID); !errors.Is(err, review.ErrNotTrashed) {
			t.Errorf("delete an approved review: %v", err)
		}
		if r, _ := f.svc.Get(f.ctx, b.ID); r == nil || r.Status != review.StatusApproved {
			t.Errorf("a refused delete changed the review: %+v", r)
		}
		if _, err := f.svc.Delete(f.ctx, 99999); !errors.Is(err, review.ErrReviewNotFound) {
			t.Errorf("delete unknown: %v", err)
		}
		if _, err := f.svc.SetStatus(f.ctx, c.ID, review.StatusTrash); err != nil {
			t.Fatal(err)
		}
		gone, err := f.svc.Delete(f.ctx, c.ID)
		if err != nil || gone.ID != c.ID || gone.Author != "Ana" {
			t.Fatalf("delete from the trash: %+v %v", gone, err)
		}
		if _, err := f.svc.Get(f.ctx, c.ID); !errors.Is(err, review.ErrReviewNotFound) {
			t.Errorf("deleted review still there: %v", err)
		}
		// The email is free again once the review is gone for good.
		f.mustSubmit(guest(3, "cy@example.com", "Second try, honest."))
	})
}

func TestReply(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		held := f.mustSubmit(guest(4, "ana@example.com", "Does it fit the dishwasher?"))
		before, _ := db.LastChange(f.ctx)

		for _, text := range []string{"", "  \n ", strings.Repeat("x", review.MaxReply+1), "bad \xff"} {
			_, err := f.svc.Reply(f.ctx, held.ID, 7, "Mia", text)
			var ie *review.InputError
			if !errors.As(err, &ie) || ie.Field != "reply" {
				t.Errorf("reply %.12q: %v", text, err)
			}
		}
		if after, _ := db.LastChange(f.ctx); after != before {
			t.Errorf("a refused reply appended a change")
		}
		if _, err := f.svc.Reply(f.ctx, 99999, 7, "Mia", "Yes"); !errors.Is(err, review.ErrReviewNotFound) {
			t.Errorf("reply to unknown: %v", err)
		}

		// Replying to a held review approves it, with its figures and a product change.
		r, err := f.svc.Reply(f.ctx, held.ID, 0, "Mia Manager", "Yes, it is dishwasher safe.\r\n\r\nThanks!")
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != review.StatusApproved || r.Reply.Text != "Yes, it is dishwasher safe.\n\nThanks!" || r.Reply.Author != "Mia Manager" ||
			!r.Reply.At.Equal(start) || r.ProductSlug != "mug" {
			t.Errorf("replied: %+v", r)
		}
		if n, _, _ := f.figures(f.mug.ID); n != 1 {
			t.Errorf("approve-and-reply did not count the review: %d", n)
		}
		changes, _ := db.ChangesSince(f.ctx, before, 100)
		if len(changes) != 1 || changes[0].ProductID != f.mug.ID || changes[0].Kind != "product" {
			t.Errorf("changes after the reply: %+v", changes)
		}
		// The reply reaches the storefront's listing.
		rs, _, _ := f.svc.List(f.ctx, review.Query{ProductIDs: []int64{f.mug.ID}})
		if len(rs) != 1 || rs[0].Reply.Text == "" {
			t.Errorf("listing without the reply: %+v", rs)
		}

		// Spam takes no reply; removing one works whatever the status.
		if _, err := f.svc.Spam(f.ctx, held.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Reply(f.ctx, held.ID, 0, "Mia", "Another"); !errors.Is(err, review.ErrNotReplyable) {
			t.Errorf("reply to spam: %v", err)
		}
		if r, _ := f.svc.Get(f.ctx, held.ID); r.Status != review.StatusSpam || r.Reply.Text != "Yes, it is dishwasher safe.\n\nThanks!" {
			t.Errorf("a refused reply changed the review: %+v", r)
		}
		r, err = f.svc.RemoveReply(f.ctx, held.ID)
		if err != nil || r.Reply.Text != "" || r.Reply.Author != "" || !r.Reply.At.IsZero() || r.Status != review.StatusSpam {
			t.Errorf("remove reply: %+v %v", r, err)
		}
		if _, err := f.svc.RemoveReply(f.ctx, 99999); !errors.Is(err, review.ErrReviewNotFound) {
			t.Errorf("remove reply of unknown: %v", err)
		}
	})
}
