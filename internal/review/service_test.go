package review_test

// The review use cases called directly, without HTTP, on every configured
// engine (storetest).

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/cart"
	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/money"
	"vitrine/internal/payment"
	"vitrine/internal/review"
	"vitrine/internal/seed"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

var start = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

type fixture struct {
	t   *testing.T
	ctx context.Context
	db  *sqlstore.DB
	svc *review.Service
	mug *catalog.Product
	cfg checkout.Config
	n   int
}

func newFixture(t *testing.T, db *sqlstore.DB) *fixture {
	usd, _ := money.Lookup("USD")
	price := int64(1200)
	settings := review.DefaultSettings()
	settings.RateLimit = 0 // TestRateLimit turns it on
	f := &fixture{t: t, ctx: context.Background(), db: db, cfg: checkout.DefaultConfig(usd),
		svc: &review.Service{Store: db, Settings: settings, Now: func() time.Time { return start }},
		mug: &catalog.Product{Type: catalog.TypeSimple, Name: "Mug", Slug: "mug", Status: "publish", RegularPrice: &price, Purchasable: true}}
	if _, err := db.SaveProduct(f.ctx, f.mug, nil); err != nil {
		t.Fatal(err)
	}
	return f
}

// order places a real order for one mug and moves it to status.
func (f *fixture) order(email string, customerID int64, status string) *checkout.Order {
	f.t.Helper()
	f.n++
	sess := fmt.Sprintf("t_%030x", f.n)
	l := cart.Line{ProductID: f.mug.ID, Quantity: 1, UnitPrice: 1200, Key: cart.LineKey(f.mug.ID, 0, nil)}
	if _, err := f.db.AddLine(f.ctx, sess, l, start, start.Add(time.Hour), func(*cart.Cart, int64, int64) error { return nil }); err != nil {
		f.t.Fatal(err)
	}
	addr := cart.Address{FirstName: "Ada", LastName: "Lovelace", Address1: "1 Main St", City: "Sacramento", State: "CA", Postcode: "95814", Country: "US"}
	billing := addr
	billing.Email = email
	o, _, err := f.db.PlaceOrder(f.ctx, checkout.PlaceOrderInput{Session: sess, CustomerID: customerID, Method: payment.BankTransfer{},
		Status: checkout.StatusOnHold, Config: &f.cfg, Customer: checkout.Customer{Billing: billing, Shipping: addr},
		IdempotencyScope: "checkout:" + sess, IdempotencyKey: sess, RequestHash: sess, Now: start})
	if err != nil {
		f.t.Fatal(err)
	}
	if status != checkout.StatusOnHold {
		if err := f.db.SetOrderStatus(f.ctx, o.ID, status, start); err != nil {
			f.t.Fatal(err)
		}
	}
	return o
}

func (f *fixture) submit(sub review.Submission) (*review.Review, error) {
	if sub.ProductID == 0 {
		sub.ProductID = f.mug.ID
	}
	return f.svc.Submit(f.ctx, sub)
}

func (f *fixture) mustSubmit(sub review.Submission) *review.Review {
	f.t.Helper()
	r, err := f.submit(sub)
	if err != nil {
		f.t.Fatalf("submit %+v: %v", sub, err)
	}
	return r
}

// figures are the product's stored rating figures.
func (f *fixture) figures(id int64) (int, float64, review.Histogram) {
	f.t.Helper()
	p, err := f.db.Product(f.ctx, id)
	if err != nil {
		f.t.Fatal(err)
	}
	h, err := f.svc.Histogram(f.ctx, id)
	if err != nil {
		f.t.Fatal(err)
	}
	return p.ReviewCount, p.AverageRating, h
}

func guest(rating int, email, text string) review.Submission {
	return review.Submission{Rating: rating, Text: text, Name: "Ana", Email: email, ClientIP: "192.0.2.7"}
}

func TestSubmitValidation(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		long := strings.Repeat("x", review.MaxContent+1)
		cases := []struct {
			sub          review.Submission
			field, error string
		}{
			{guest(0, "ana@example.com", "Nice"), "rating", "Please select a rating"},
			{guest(6, "ana@example.com", "Nice"), "rating", "Please select a rating"},
			{guest(-1, "ana@example.com", "Nice"), "rating", "Please select a rating"},
			{review.Submission{Rating: 5, Text: "Nice", Email: "ana@example.com"}, "author", "Please fill the required fields."},
			{review.Submission{Rating: 5, Text: "Nice", Name: "Ana"}, "email", "Please fill the required fields."},
			{guest(5, "ana@example", "Nice"), "email", "Please enter a valid email address."},
			{guest(5, "ana@example.com", "  \n "), "comment", "Please type your comment text."},
			{guest(5, "ana@example.com", long), "comment", "Your comment is too long."},
			{review.Submission{Rating: 5, Text: "Nice", Name: strings.Repeat("n", review.MaxAuthor+1), Email: "ana@example.com"}, "author", "Your name is too long."},
			{guest(5, strings.Repeat("a", review.MaxEmail)+"@example.com", "Nice"), "email", "Your email address is too long."},
		}
		for _, c := range cases {
			_, err := f.submit(c.sub)
			var ie *review.InputError
			if !errors.As(err, &ie) || ie.Field != c.field || ie.Message != c.error {
				t.Errorf("submit(rating %d, name %.10q, email %.20q, text %.10q) = %v, want %s: %s", c.sub.Rating, c.sub.Name, c.sub.Email, c.sub.Text, err, c.field, c.error)
			}
		}
		if rs, _, _ := f.svc.List(f.ctx, review.Query{ProductIDs: []int64{f.mug.ID}}); len(rs) != 0 {
			t.Errorf("refused submissions stored: %v", rs)
		}

		// Ratings optional: a review without stars counts, but not in the average.
		f.svc.Settings = review.Settings{AutoApprove: true, MaxLinks: 2}
		f.mustSubmit(guest(4, "bo@example.com", "Good"))
		r := f.mustSubmit(guest(0, "cy@example.com", "No stars from me"))
		if r.Rating != 0 || r.Status != review.StatusApproved {
			t.Errorf("unrated review: %+v", r)
		}
		if n, avg, h := f.figures(f.mug.ID); n != 2 || avg != 4 || h != (review.Histogram{0, 0, 0, 1, 0}) {
			t.Errorf("figures = %d %v %v, want 2 4 [0 0 0 1 0]", n, avg, h)
		}
	})
}

func TestModeration(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		before, _ := db.LastChange(f.ctx)
		r := f.mustSubmit(guest(5, "Ana@Example.com", "Lovely mug."))
		if r.Status != review.StatusHold || r.Email != "ana@example.com" || r.Verified || r.ClientIP != "192.0.2.7" || r.ID == 0 {
			t.Fatalf("new review: %+v", r)
		}
		if n, _, h := f.figures(f.mug.ID); n != 0 || h != (review.Histogram{}) {
			t.Errorf("a held review counted: %d %v", n, h)
		}
		if after, _ := db.LastChange(f.ctx); after != before {
			t.Errorf("a held review invalidated pages (%d → %d)", before, after)
		}
		// The held review is its author's only.
		for _, who := range []struct {
			user  int64
			email string
			want  int
		}{{0, "ANA@example.com", 1}, {0, "bo@example.com", 0}, {0, "", 0}, {99, "", 0}} {
			held, err := f.svc.ForAuthor(f.ctx, f.mug.ID, who.user, who.email)
			if err != nil || len(held) != who.want {
				t.Errorf("ForAuthor(%d, %q) = %v %v, want %d", who.user, who.email, held, err, who.want)
			}
		}
		if rs, total, _ := f.svc.List(f.ctx, review.Query{ProductIDs: []int64{f.mug.ID}}); total != 0 || len(rs) != 0 {
			t.Errorf("held review listed: %d", total)
		}

		f.mustSubmit(guest(2, "bo@example.com", "Chipped."))
		got, err := f.svc.Approve(f.ctx, r.ID)
		if err != nil || got.Status != review.StatusApproved || got.ProductName != "Mug" {
			t.Fatalf("approve: %+v %v", got, err)
		}
		if n, avg, h := f.figures(f.mug.ID); n != 1 || avg != 5 || h != (review.Histogram{0, 0, 0, 0, 1}) {
			t.Errorf("after approve: %d %v %v", n, avg, h)
		}
		changes, _ := db.ChangesSince(f.ctx, before, 100)
		if len(changes) != 1 || changes[0].ProductID != f.mug.ID || changes[0].Kind != "product" {
			t.Errorf("changes after approve: %+v", changes)
		}
		if held, _ := f.svc.ForAuthor(f.ctx, f.mug.ID, 0, "ana@example.com"); len(held) != 0 {
			t.Errorf("approved review still held: %v", held)
		}
		rs, total, err := f.svc.List(f.ctx, review.Query{ProductIDs: []int64{f.mug.ID}})
		if err != nil || total != 1 || rs[0].ID != r.ID {
			t.Errorf("list after approve: %v %d %v", rs, total, err)
		}

		if _, err := f.svc.Spam(f.ctx, r.ID); err != nil {
			t.Fatal(err)
		}
		if n, avg, h := f.figures(f.mug.ID); n != 0 || avg != 0 || h != (review.Histogram{}) {
			t.Errorf("after spam: %d %v %v", n, avg, h)
		}
		f.svc.Approve(f.ctx, r.ID)
		if _, err := f.svc.Trash(f.ctx, r.ID); err != nil {
			t.Fatal(err)
		}
		if n, _, _ := f.figures(f.mug.ID); n != 0 {
			t.Errorf("after trash: %d", n)
		}
		if changes, _ := db.ChangesSince(f.ctx, before, 100); len(changes) != 4 {
			t.Errorf("%d changes for 4 status changes", len(changes))
		}
		if _, err := f.svc.Approve(f.ctx, 999999); !errors.Is(err, review.ErrReviewNotFound) {
			t.Errorf("approve unknown: %v", err)
		}
	})
}

func TestAutoApproveAndLinks(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		f.svc.Settings.AutoApprove = true
		two := f.mustSubmit(guest(5, "a@example.com", "See https://example.com and www.example.org"))
		three := f.mustSubmit(guest(5, "b@example.com", `https://a.example <a href="https://b.example">b</a> www.c.example`))
		if two.Status != review.StatusApproved || three.Status != review.StatusHold {
			t.Errorf("two links %s, three links %s", two.Status, three.Status)
		}
		if n, _, _ := f.figures(f.mug.ID); n != 1 {
			t.Errorf("review_count %d, want 1", n)
		}
	})
}

func TestCountLinks(t *testing.T) {
	for text, want := range map[string]int{
		"no links here":                                       0,
		"http://a.example https://b.example":                  2,
		"WWW.A.EXAMPLE":                                       1,
		`<a href="http://a.example">a</a>`:                    1,
		`<A title=x HREF='https://a'>a</A> and www.b.example`: 2,
		"a.www.example":                                       0,
	} {
		if got := review.CountLinks(text); got != want {
			t.Errorf("CountLinks(%q) = %d, want %d", text, got, want)
		}
	}
}

func TestDuplicate(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		r := f.mustSubmit(guest(5, "ana@example.com", "First"))
		if _, err := f.submit(guest(4, " ANA@example.COM ", "Second")); !errors.Is(err, review.ErrDuplicate) {
			t.Errorf("second review: %v", err)
		}
		if review.ErrDuplicate.Message != "Duplicate comment detected; it looks as though you’ve already said that!" {
			t.Error(review.ErrDuplicate.Message)
		}
		f.svc.Trash(f.ctx, r.ID)
		if _, err := f.submit(guest(4, "ana@example.com", "Third")); !errors.Is(err, review.ErrDuplicate) {
			t.Errorf("after trash: %v", err)
		}

		// Concurrent submissions with one email: exactly one is stored.
		var wg sync.WaitGroup
		var mu sync.Mutex
		ok, dup := 0, 0
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := f.submit(guest(1+i%5, "race@example.com", fmt.Sprintf("Try %d", i)))
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					ok++
				case errors.Is(err, review.ErrDuplicate):
					dup++
				default:
					t.Errorf("submit: %v", err)
				}
			}()
		}
		wg.Wait()
		if ok != 1 || dup != 19 {
			t.Errorf("%d stored, %d duplicates", ok, dup)
		}
	})
}

func TestVerifiedOwner(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		accounts := &account.Service{Store: db, Now: func() time.Time { return start }}
		cy, err := accounts.Register(f.ctx, account.Registration{Email: "cy@example.com", Password: "correct horse battery"})
		if err != nil {
			t.Fatal(err)
		}
		f.order("Buyer@Example.com", 0, checkout.StatusProcessing)
		f.order("done@example.com", 0, checkout.StatusCompleted)
		f.order("waiting@example.com", 0, checkout.StatusOnHold)
		f.order("other-billing@example.com", cy.ID, checkout.StatusCompleted)

		for _, c := range []struct {
			sub  review.Submission
			want bool
		}{
			{guest(5, "buyer@example.com", "Bought it"), true},
			{guest(5, "done@example.com", "Bought it"), true},
			{guest(5, "waiting@example.com", "Not paid yet"), false},
			{guest(5, "stranger@example.com", "Never bought"), false},
			// A customer: the account's name and email, verified by the account's order.
			{review.Submission{Rating: 4, Text: "Mine", Name: "ignored", Email: "ignored@example.com", UserID: cy.ID}, true},
		} {
			r, err := f.submit(c.sub)
			if err != nil || r.Verified != c.want {
				t.Errorf("%s: %+v %v, want verified %v", c.sub.Email, r, err, c.want)
			}
			if c.sub.UserID != 0 && (r.Email != "cy@example.com" || r.UserID != cy.ID || r.Author == "ignored") {
				t.Errorf("customer's review: %+v", r)
			}
		}
		if held, _ := f.svc.ForAuthor(f.ctx, f.mug.ID, cy.ID, ""); len(held) != 1 {
			t.Errorf("customer's held reviews: %v", held)
		}

		f.svc.Settings.VerifiedOnly = true
		if _, err := f.submit(guest(5, "other@example.com", "Hmm")); !errors.Is(err, review.ErrNotVerified) ||
			err.Error() != "Only logged in customers who have purchased this product may leave a review." {
			t.Errorf("verified only, stranger: %v", err)
		}
		f.order("late@example.com", 0, checkout.StatusProcessing)
		if r, err := f.submit(guest(5, "late@example.com", "Now I may")); err != nil || !r.Verified {
			t.Errorf("verified only, owner: %+v %v", r, err)
		}
	})
}

func TestProductRules(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		db.SetClock(func() time.Time { return start })
		if _, err := seed.Demo(f.ctx, db, start); err != nil {
			t.Fatal(err)
		}
		draft := &catalog.Product{Type: catalog.TypeSimple, Name: "Draft", Slug: "draft", Status: "draft"}
		closed := &catalog.Product{Type: catalog.TypeSimple, Name: "Closed", Slug: "closed", Status: "publish", Meta: map[string]string{"_reviews_allowed": "no"}}
		for _, p := range []*catalog.Product{draft, closed} {
			if _, err := db.SaveProduct(f.ctx, p, nil); err != nil {
				t.Fatal(err)
			}
		}
		tee, err := db.ProductBySlug(f.ctx, "classic-tee")
		if err != nil {
			t.Fatal(err)
		}
		vars, err := db.VariationsOf(f.ctx, []int64{tee.ID})
		if err != nil || len(vars[tee.ID]) == 0 {
			t.Fatalf("variations: %v", err)
		}
		for id, want := range map[int64]error{999999: review.ErrNotFound, draft.ID: review.ErrNotFound,
			vars[tee.ID][0].ID: review.ErrNotFound, closed.ID: review.ErrClosed} {
			if _, err := f.svc.Submit(f.ctx, review.Submission{ProductID: id, Rating: 5, Text: "x", Name: "A", Email: "a@example.com"}); !errors.Is(err, want) {
				t.Errorf("product %d: %v, want %v", id, err, want)
			}
		}
		if _, err := f.svc.Submit(f.ctx, review.Submission{ProductID: tee.ID, Rating: 5, Text: "x", Name: "A", Email: "a@example.com"}); err != nil {
			t.Errorf("published variable product: %v", err)
		}
		// Seeding again updates the seed's reviews instead of adding them
		// (one review per product per email).
		db.SetClock(func() time.Time { return start })
		if _, err := seed.Demo(f.ctx, db, start); err != nil {
			t.Fatalf("second seeding: %v", err)
		}
		// The demo's figures, recomputed by the seed through the same path.
		if n, avg, h := f.figures(tee.ID); n != 3 || avg < 4.66 || avg > 4.67 || h != (review.Histogram{0, 0, 0, 1, 2}) {
			t.Errorf("classic tee: %d %v %v", n, avg, h)
		}
	})
}

func TestList(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		db.SetClock(func() time.Time { return start })
		if _, err := seed.Demo(f.ctx, db, start); err != nil {
			t.Fatal(err)
		}
		all, total, err := f.svc.List(f.ctx, review.Query{PerPage: 100})
		if err != nil || total != 10 || len(all) != 10 {
			t.Fatalf("all: %d %d %v", len(all), total, err)
		}
		for i := 1; i < len(all); i++ {
			if all[i].CreatedAt.After(all[i-1].CreatedAt) {
				t.Errorf("not newest first at %d", i)
			}
		}
		if all[0].Author != "Grace Mensah" || all[0].ProductName != "Cashmere-blend Scarf" {
			t.Errorf("newest: %+v", all[0])
		}
		page2, total, _ := f.svc.List(f.ctx, review.Query{Page: 2, PerPage: 4})
		if total != 10 || len(page2) != 4 || page2[0].ID != all[4].ID {
			t.Errorf("page 2: %d %v", total, page2)
		}
		byRating, _, _ := f.svc.List(f.ctx, review.Query{OrderBy: "rating", Order: "asc", PerPage: 100})
		if byRating[0].Rating != 3 || byRating[9].Rating != 5 {
			t.Errorf("by rating: %d … %d", byRating[0].Rating, byRating[9].Rating)
		}
		tee, _ := db.ProductBySlug(f.ctx, "classic-tee")
		rs, total, _ := f.svc.List(f.ctx, review.Query{ProductIDs: []int64{tee.ID}})
		if total != 3 || len(rs) != 3 || rs[0].ProductID != tee.ID {
			t.Errorf("tee's reviews: %d", total)
		}
		cat, err := db.CategoryBySlug(f.ctx, "accessories")
		if err != nil {
			t.Fatal(err)
		}
		_, inCat, _ := f.svc.List(f.ctx, review.Query{CategoryIDs: []int64{cat.ID}})
		if inCat == 0 || inCat >= 10 {
			t.Errorf("accessories: %d reviews", inCat)
		}
		if _, _, err := f.svc.List(f.ctx, review.Query{OrderBy: "author"}); err == nil {
			t.Error("unknown orderby accepted")
		}
	})
}

func TestRateLimit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		now := start
		f.svc.Now = func() time.Time { return now }
		f.svc.Settings.RateLimit = 3
		// Refused attempts count too: two bad ones and one good one fill the window.
		for i, sub := range []review.Submission{guest(0, "a@example.com", "x"), guest(5, "b@example", "x"), guest(5, "c@example.com", "Fine")} {
			if _, err := f.submit(sub); errors.Is(err, review.ErrRateLimited) {
				t.Fatalf("attempt %d limited", i)
			}
		}
		_, err := f.submit(guest(5, "d@example.com", "Fine too"))
		var rl *review.RateLimited
		if !errors.Is(err, review.ErrRateLimited) || !errors.As(err, &rl) || rl.Wait <= 0 || rl.Wait > review.RateWindow {
			t.Fatalf("fourth attempt: %v", err)
		}
		// Another address is not limited; an IPv6 /64 counts as one address.
		other := guest(5, "e@example.com", "Fine")
		other.ClientIP = "2001:db8::1"
		f.mustSubmit(other)
		same64 := guest(5, "f@example.com", "Fine")
		same64.ClientIP = "2001:db8::2"
		f.mustSubmit(same64)
		rs, _ := f.svc.ForAuthor(f.ctx, f.mug.ID, 0, "d@example.com")
		if len(rs) != 0 {
			t.Errorf("limited review stored: %v", rs)
		}
		// The window ends.
		now = now.Add(review.RateWindow + time.Second)
		f.mustSubmit(guest(5, "d@example.com", "Fine too"))
	})
}

func TestHeld(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newFixture(t, db)
		r := f.mustSubmit(guest(4, "ana@example.com", "Held for now"))
		got, err := f.svc.Held(f.ctx, r.ID)
		if err != nil || got.ID != r.ID || got.Email != "ana@example.com" || got.Status != review.StatusHold || got.ProductName != "Mug" {
			t.Fatalf("Held = %+v, %v", got, err)
		}
		if _, err := f.svc.Approve(f.ctx, r.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Held(f.ctx, r.ID); !errors.Is(err, review.ErrReviewNotFound) {
			t.Errorf("approved review as held: %v", err)
		}
		if _, err := f.svc.Held(f.ctx, r.ID+1000); !errors.Is(err, review.ErrReviewNotFound) {
			t.Errorf("no such review: %v", err)
		}
	})
}
