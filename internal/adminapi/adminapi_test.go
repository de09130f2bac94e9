package adminapi_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/adminapi"
	"vitrine/internal/audit"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// The guard, the error shape and the audit of writes, with the real audit
// store on both engines.
func TestWritesAreAudited(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		now := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
		log := &audit.Service{Store: db, Now: func() time.Time { return now }}
		users := map[string]*account.User{
			"mia":   {ID: 3, DisplayName: "Mia Manager", Role: account.RoleShopManager},
			"ada":   {ID: 4, Email: "ada@example.com", Role: account.RoleAdministrator},
			"carla": {ID: 5, DisplayName: "Carla", Role: account.RoleCustomer},
		}
		api := adminapi.New(adminapi.Deps{
			Viewer:   func(r *http.Request) *account.User { return users[r.Header.Get("Test-User")] },
			ClientIP: func(*http.Request) string { return "192.0.2.7" },
			Audit:    log,
		})
		api.HandleForTest("PUT /wp-json/wc/v3/things/{id}", func(w http.ResponseWriter, r *http.Request, st adminapi.Staff) error {
			id, err := adminapi.IDParam(r, "id")
			if err != nil {
				return err
			}
			var body struct {
				Name string `json:"name"`
			}
			if err := adminapi.Decode(r, &body); err != nil {
				return err
			}
			switch body.Name {
			case "":
				return adminapi.InvalidParam("name", "A name is required.")
			case "stale":
				return adminapi.Conflict("vitrine_stale", "Changed by someone else.", map[string]any{"version": 9})
			case "boom":
				return errors.New("disk full at /var/secret")
			}
			adminapi.Note(r, "thing.update", "thing", id, "Renamed to "+body.Name+" by "+st.Name)
			adminapi.WriteJSON(w, http.StatusOK, map[string]any{"id": id, "name": body.Name})
			return nil
		})
		api.HandleForTest("DELETE /wp-json/wc/v3/things/{id}", func(w http.ResponseWriter, r *http.Request, _ adminapi.Staff) error {
			adminapi.WriteJSON(w, http.StatusOK, map[string]any{"deleted": true})
			return nil
		})
		do := func(method, path, who, body string) *httptest.ResponseRecorder {
			r := httptest.NewRequest(method, path, strings.NewReader(body))
			r.Header.Set("Test-User", who)
			w := httptest.NewRecorder()
			api.ServeHTTP(w, r)
			return w
		}
		for _, c := range []struct {
			who, path, body string
			status          int
			code            string
		}{
			{"", "/wp-json/wc/v3/things/1", `{"name":"x"}`, 401, "rest_not_logged_in"},
			{"carla", "/wp-json/wc/v3/things/1", `{"name":"x"}`, 403, "rest_forbidden"},
			{"mia", "/wp-json/wc/v3/things/abc", `{"name":"x"}`, 404, "rest_not_found"},
			{"mia", "/wp-json/wc/v3/things/1", `{"name":`, 400, "rest_invalid_json"},
			{"mia", "/wp-json/wc/v3/things/1", `{"name":"x"} {}`, 400, "rest_invalid_json"},
			{"mia", "/wp-json/wc/v3/things/1", `{"name":""}`, 400, "rest_invalid_param"},
			{"mia", "/wp-json/wc/v3/things/1", `{"name":"stale"}`, 409, "vitrine_stale"},
			{"mia", "/wp-json/wc/v3/things/1", `{"name":"boom"}`, 500, "internal_error"},
		} {
			w := do("PUT", c.path, c.who, c.body)
			if w.Code != c.status || !strings.Contains(w.Body.String(), `"code":"`+c.code+`"`) || !strings.Contains(w.Body.String(), `"status":`) {
				t.Errorf("%s %s: %d %s, want %d %s", c.who, c.body, w.Code, w.Body, c.status, c.code)
			}
			if strings.Contains(w.Body.String(), "/var/secret") {
				t.Error("an internal error's detail reached the client")
			}
		}
		if w := do("PUT", "/wp-json/wc/v3/things/1", "mia", `{"name":"stale"}`); !strings.Contains(w.Body.String(), `"version":9`) {
			t.Errorf("the conflict's data: %s", w.Body)
		}
		if w := do("PUT", "/wp-json/wc/v3/things/1", "mia", `{"name":""}`); !strings.Contains(w.Body.String(), `"params":{"name":"A name is required."}`) {
			t.Errorf("the bad field: %s", w.Body)
		}
		// Nothing refused was recorded.
		if got, _ := log.List(context.Background(), audit.Filter{}); len(got) != 0 {
			t.Fatalf("refused writes were audited: %+v", got)
		}

		if w := do("PUT", "/wp-json/wc/v3/things/7", "mia", `{"name":"Lamp"}`); w.Code != 200 {
			t.Fatalf("write: %d %s", w.Code, w.Body)
		}
		if w := do("DELETE", "/wp-json/wc/v3/things/7", "ada", ``); w.Code != 200 {
			t.Fatalf("delete: %d %s", w.Code, w.Body)
		}
		got, err := log.List(context.Background(), audit.Filter{})
		if err != nil || len(got) != 2 {
			t.Fatalf("audit: %+v %v", got, err)
		}
		del, put := got[0], got[1]
		if put.ActorID != 3 || put.ActorName != "Mia Manager" || put.Action != "thing.update" || put.Object != "thing" || put.ObjectID != 7 ||
			put.Summary != "Renamed to Lamp by Mia Manager" || put.ClientIP != "192.0.2.7" || !put.At.Equal(now) {
			t.Errorf("noted write: %+v", put)
		}
		// A write without a note is recorded by method and path; a staff member without a display name by email.
		if del.ActorName != "ada@example.com" || del.Action != "DELETE /wp-json/wc/v3/things/7" {
			t.Errorf("unnoted write: %+v", del)
		}

		// The audit listing is staff only, and filters.
		api2 := httptest.NewRecorder()
		r := httptest.NewRequest("GET", "/wp-json/vitrine/v1/admin/audit?object=thing&object_id=7", nil)
		r.Header.Set("Test-User", "ada")
		api.ServeHTTP(api2, r)
		if api2.Code != 200 || !strings.Contains(api2.Body.String(), `"action":"thing.update"`) || strings.Contains(api2.Body.String(), "DELETE") {
			t.Errorf("audit list: %d %s", api2.Code, api2.Body)
		}
		if w := do("GET", "/wp-json/vitrine/v1/admin/audit?before=x", "ada", ""); w.Code != 400 {
			t.Errorf("bad cursor: %d", w.Code)
		}
		if w := do("GET", "/wp-json/vitrine/v1/admin/audit", "carla", ""); w.Code != 403 {
			t.Errorf("customer reads the audit: %d", w.Code)
		}
	})
}

func TestPaging(t *testing.T) {
	for q, want := range map[string]string{"": "1/20", "page=3&per_page=100": "3/100", "page=0": "page", "per_page=101": "per_page", "page=x": "page"} {
		p, err := adminapi.PagingOf(httptest.NewRequest("GET", "/x?"+q, nil))
		got := ""
		if err != nil {
			var e *adminapi.Error
			if !errors.As(err, &e) || e.Code != "rest_invalid_param" {
				t.Fatalf("%q: %v", q, err)
			}
			for k := range e.Data["params"].(map[string]string) {
				got = k
			}
		} else {
			got = strings.Join([]string{itoa(p.Page), itoa(p.PerPage)}, "/")
		}
		if got != want {
			t.Errorf("%q: %s, want %s", q, got, want)
		}
	}
	w := httptest.NewRecorder()
	adminapi.SetTotals(w, 41, adminapi.Paging{Page: 1, PerPage: 20})
	if w.Header().Get("X-WP-Total") != "41" || w.Header().Get("X-WP-TotalPages") != "3" {
		t.Errorf("totals: %v", w.Header())
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
