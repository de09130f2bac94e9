package adminapi_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/adminapi"
	"vitrine/internal/audit"
	"vitrine/internal/catalog"
	"vitrine/internal/contact"
	"vitrine/internal/review"
	"vitrine/internal/storage/storetest"
)

// BenchmarkAuditedWrite is an admin write's fixed cost: the staff guard,
// decoding a small body, the answer, and the audit entry stored in SQLite.
func BenchmarkAuditedWrite(b *testing.B) {
	db := storetest.Open(b, "sqlite")
	api := asManager(adminapi.Deps{Audit: &audit.Service{Store: db}})
	api.HandleForTest("PUT /wp-json/wc/v3/things/{id}", func(w http.ResponseWriter, r *http.Request, _ adminapi.Staff) error {
		var in struct{ Name string }
		if err := adminapi.Decode(r, &in); err != nil {
			return err
		}
		adminapi.Note(r, "thing.update", "thing", 7, "Renamed to "+in.Name)
		adminapi.WriteJSON(w, http.StatusOK, in)
		return nil
	})
	benchServe(b, api, "PUT", "/wp-json/wc/v3/things/7", `{"name":"Lamp"}`)
}

// BenchmarkAuditList is the Activity screen's read: 50 newest of 2,000.
func BenchmarkAuditList(b *testing.B) {
	db := storetest.Open(b, "sqlite")
	s := &audit.Service{Store: db}
	for i := range 2000 {
		if _, err := s.Record(b.Context(), audit.Entry{ActorID: 1, ActorName: "Mia", Action: "product.update", Object: "product", ObjectID: int64(i % 50)}); err != nil {
			b.Fatal(err)
		}
	}
	benchServe(b, asManager(adminapi.Deps{Audit: s}), "GET", "/wp-json/vitrine/v1/admin/audit?per_page=50", "")
}

// asManager is the API with d, every request made by a shop manager.
func asManager(d adminapi.Deps) *adminapi.API {
	staff := &account.User{ID: 3, DisplayName: "Mia", Role: account.RoleShopManager}
	d.Viewer = func(*http.Request) *account.User { return staff }
	return adminapi.New(d)
}

// benchServe times api answering method path with body: 200, and a list
// never empty (X-WP-Total is not "0").
func benchServe(b *testing.B, api http.Handler, method, path, body string) {
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		api.ServeHTTP(w, httptest.NewRequest(method, path, strings.NewReader(body)))
		if w.Code != 200 || w.Header().Get("X-WP-Total") == "0" {
			b.Fatal(w.Code, w.Body.String())
		}
	}
}

// The moderation queue's and the inbox's reads on SQLite: the first page
// (20) of 2,000 reviews (every fourth held) and of 2,000 messages, each
// with its total, and a search that reads every row.
func BenchmarkInboxReads(b *testing.B) {
	db := storetest.Open(b, "sqlite")
	ctx := b.Context()
	at := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	p := &catalog.Product{Type: catalog.TypeSimple, Name: "Mug", Slug: "mug", Status: "publish"}
	if _, err := db.SaveProduct(ctx, p, nil); err != nil {
		b.Fatal(err)
	}
	for i := range 2000 {
		status := review.StatusApproved
		if i%4 == 0 {
			status = review.StatusHold
		}
		r := &review.Review{ProductID: p.ID, Author: "Ana", Email: fmt.Sprintf("r%d@example.com", i), Rating: 1 + i%5,
			Content: fmt.Sprintf("Review number %d of the mug.", i), Status: status, CreatedAt: at.Add(time.Duration(i) * time.Second)}
		if err := db.InsertReview(ctx, r); err != nil {
			b.Fatal(err)
		}
		if _, err := db.InsertContactSubmission(ctx, &contact.Stored{FormID: 1, UnitTag: "wpcf7-f1-o1", Status: contact.InboxNew, CreatedAt: r.CreatedAt,
			Values: map[string][]string{"your-name": {"Ada"}, "your-email": {"ada@example.com"}, "your-message": {r.Content}}}, 0); err != nil {
			b.Fatal(err)
		}
	}
	api := asManager(adminapi.Deps{Reviews: &review.Service{Store: db}, Contact: &contact.Service{Store: db}})
	for _, path := range []string{
		"/wp-json/wc/v3/products/reviews?status=hold",
		"/wp-json/wc/v3/products/reviews?status=all&search=number%201999",
		"/wp-json/vitrine/v1/admin/messages",
		"/wp-json/vitrine/v1/admin/messages?search=number%201999",
	} {
		b.Run(path[9:], func(b *testing.B) { benchServe(b, api, "GET", path, "") })
	}
}
