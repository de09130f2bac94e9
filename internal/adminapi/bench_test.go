package adminapi_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"vitrine/internal/account"
	"vitrine/internal/adminapi"
	"vitrine/internal/audit"
	"vitrine/internal/storage/storetest"
)

// BenchmarkAuditedWrite is an admin write's fixed cost: the staff guard,
// decoding a small body, the answer, and the audit entry stored in SQLite.
func BenchmarkAuditedWrite(b *testing.B) {
	db := storetest.Open(b, "sqlite")
	staff := &account.User{ID: 3, DisplayName: "Mia", Role: account.RoleShopManager}
	api := adminapi.New(adminapi.Deps{Viewer: func(*http.Request) *account.User { return staff }, Audit: &audit.Service{Store: db}})
	api.HandleForTest("PUT /wp-json/wc/v3/things/{id}", func(w http.ResponseWriter, r *http.Request, _ adminapi.Staff) error {
		var in struct{ Name string }
		if err := adminapi.Decode(r, &in); err != nil {
			return err
		}
		adminapi.Note(r, "thing.update", "thing", 7, "Renamed to "+in.Name)
		adminapi.WriteJSON(w, http.StatusOK, in)
		return nil
	})
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		api.ServeHTTP(w, httptest.NewRequest("PUT", "/wp-json/wc/v3/things/7", strings.NewReader(`{"name":"Lamp"}`)))
		if w.Code != 200 {
			b.Fatal(w.Code)
		}
	}
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
	staff := &account.User{ID: 3, DisplayName: "Mia", Role: account.RoleShopManager}
	api := adminapi.New(adminapi.Deps{Viewer: func(*http.Request) *account.User { return staff }, Audit: s})
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		api.ServeHTTP(w, httptest.NewRequest("GET", "/wp-json/vitrine/v1/admin/audit?per_page=50", nil))
		if w.Code != 200 {
			b.Fatal(w.Code)
		}
	}
}
