package adminapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"vitrine/internal/account"
	"vitrine/internal/adminapi"
	"vitrine/internal/audit"
	"vitrine/internal/catalog"
)

// thing is the row of the fake list the helper's tests declare: ids 1 to
// 45, the odd ones "on", the even ones "off".
type thing struct {
	ID     int64
	Status string
}

type thingJSON struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	Status string `json:"status"`
}

// thingQuery is what the fake service is asked.
type thingQuery struct {
	Search, Status, OrderBy, Order string
	Include                        []int64
	Before                         int64
	Page                           adminapi.Paging
}

func things() []thing {
	out := make([]thing, 45)
	for i := range out {
		out[i] = thing{ID: int64(i + 1), Status: map[bool]string{true: "on", false: "off"}[i%2 == 0]}
	}
	return out
}

func thingName(t thing) string { return "thing " + strconv.FormatInt(t.ID, 10) }

// memAudit keeps the audit log in memory.
type memAudit struct{ entries []audit.Entry }

func (m *memAudit) AppendAudit(_ context.Context, e *audit.Entry) (int64, error) {
	e.ID = int64(len(m.entries) + 1)
	m.entries = append(m.entries, *e)
	return e.ID, nil
}

func (m *memAudit) ListAudit(context.Context, audit.Filter) ([]audit.Entry, error) {
	return m.entries, nil
}

// thingsAPI serves the fake list, its cursor twin, its tabs and its bulk
// actions; asked records what the list's Fetch was last asked.
func thingsAPI(t *testing.T) (do func(method, path, body string) *httptest.ResponseRecorder, asked *thingQuery, log *memAudit) {
	t.Helper()
	log = &memAudit{}
	api := adminapi.New(adminapi.Deps{
		Viewer: func(*http.Request) *account.User {
			return &account.User{ID: 3, DisplayName: "Mia", Role: account.RoleShopManager}
		},
		Audit: &audit.Service{Store: log},
	})
	asked = &thingQuery{}
	list := func(cursor bool) adminapi.Handler {
		return func(w http.ResponseWriter, r *http.Request, _ adminapi.Staff) error {
			var q thingQuery
			return adminapi.List[thing, thingJSON]{
				Search: &q.Search,
				Filters: []adminapi.Filter{
					adminapi.OneOf("status", &q.Status, "all", "on", "off"),
					adminapi.IDs("include", &q.Include, "include is a list of up to 100 ids."),
					adminapi.Int64("before", &q.Before, 0, "before is not a valid id."),
				},
				Sort:   &adminapi.Sort{Keys: []string{"id", "name"}, By: &q.OrderBy, Order: &q.Order},
				Cursor: cursor,
				Fetch: func(_ context.Context, p adminapi.Paging) ([]thing, int, error) {
					q.Page = p
					*asked = q
					all := slices.DeleteFunc(things(), func(t thing) bool {
						return (q.Status == "on" || q.Status == "off") && t.Status != q.Status ||
							!strings.Contains(thingName(t), q.Search)
					})
					from := min(p.Offset(), len(all))
					return all[from:min(from+p.PerPage, len(all))], len(all), nil
				},
				Row: func(t thing) thingJSON { return thingJSON{ID: t.ID, Name: thingName(t), Status: t.Status} },
			}.Serve(w, r)
		}
	}
	api.HandleForTest("GET /wp-json/vitrine/v1/admin/things", list(false))
	api.HandleForTest("GET /wp-json/vitrine/v1/admin/things/log", list(true))
	actions := []string{"on", "off"}
	api.HandleForTest("POST /wp-json/vitrine/v1/admin/things/bulk", func(w http.ResponseWriter, r *http.Request, _ adminapi.Staff) error {
		state := things()
		return adminapi.Bulk{Object: "thing", Objects: "things", Actions: actions,
			Apply: adminapi.EachID(func(_ context.Context, action string, id int64) (bool, error) {
				switch {
				case id == 666:
					return false, errors.New("disk full")
				case id < 1 || id > int64(len(state)):
					return false, catalog.ErrNotFound
				case state[id-1].Status == action:
					return false, nil
				}
				state[id-1].Status = action
				return true, nil
			})}.Serve(w, r)
	})
	api.HandleForTest("POST /wp-json/vitrine/v1/admin/things/bulk-at-once", func(w http.ResponseWriter, r *http.Request, _ adminapi.Staff) error {
		return adminapi.Bulk{Object: "thing", Objects: "things", Actions: actions,
			Apply: func(_ context.Context, _ string, ids []int64) (adminapi.BulkResult, error) {
				return adminapi.BulkResult{Changed: len(ids) - 1}, nil
			}}.Serve(w, r)
	})
	do = func(method, path, body string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		api.ServeHTTP(w, httptest.NewRequest(method, path, strings.NewReader(body)))
		return w
	}
	return do, asked, log
}

// restError is the REST error shape.
type restError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Data    struct {
		Status int               `json:"status"`
		Params map[string]string `json:"params"`
	} `json:"data"`
}

func TestListQuery(t *testing.T) {
	do, asked, _ := thingsAPI(t)
	hundredAndOne := strings.Repeat("7,", 101)
	for _, c := range []struct {
		name, query string
		// A refusal: the parameter named and its reason.
		param, why string
		// An answer: the rows' ids, the totals and what Fetch was asked.
		ids          []int64
		total, pages string
		check        func(q thingQuery) bool
	}{
		{name: "defaults", query: "", ids: ids(1, 20), total: "45", pages: "3",
			check: func(q thingQuery) bool { return q.Page == adminapi.Paging{Page: 1, PerPage: 20} }},
		{name: "last page", query: "page=3", ids: ids(41, 45), total: "45", pages: "3"},
		{name: "past the last page", query: "page=9", ids: []int64{}, total: "45", pages: "3"},
		{name: "whole list", query: "per_page=100", ids: ids(1, 45), total: "45", pages: "1"},
		{name: "page 0", query: "page=0", param: "page", why: "page must be a whole number of at least 1."},
		{name: "page not a number", query: "page=x", param: "page", why: "page must be a whole number of at least 1."},
		{name: "per_page over the cap", query: "per_page=101", param: "per_page", why: "per_page must be between 1 (inclusive) and 100 (inclusive)"},
		{name: "per_page 0", query: "per_page=0", param: "per_page", why: "per_page must be between 1 (inclusive) and 100 (inclusive)"},
		{name: "paging is checked first", query: "status=gone&page=0", param: "page", why: "page must be a whole number of at least 1."},
		{name: "empty search lists all", query: "search=", ids: ids(1, 20), total: "45", pages: "3",
			check: func(q thingQuery) bool { return q.Search == "" }},
		{name: "search", query: "search=thing+4", ids: []int64{4, 40, 41, 42, 43, 44, 45}, total: "7", pages: "1",
			check: func(q thingQuery) bool { return q.Search == "thing 4" }},
		{name: "status", query: "status=off&per_page=5", ids: []int64{2, 4, 6, 8, 10}, total: "22", pages: "5"},
		{name: "unknown status", query: "status=gone", param: "status", why: "status is not one of all, on, off."},
		{name: "ids as WordPress takes an array", query: "include=1,2&include[]=3&include=,+4,", ids: ids(1, 20), total: "45", pages: "3",
			check: func(q thingQuery) bool { return slices.Equal(q.Include, []int64{1, 2, 4, 3}) }},
		{name: "an id that is not one", query: "include=1,x", param: "include", why: "include is a list of up to 100 ids."},
		{name: "too many ids", query: "include=" + hundredAndOne, param: "include", why: "include is a list of up to 100 ids."},
		{name: "number below its minimum", query: "before=-1", param: "before", why: "before is not a valid id."},
		{name: "number at its minimum", query: "before=0", ids: ids(1, 20), total: "45", pages: "3"},
		{name: "sort", query: "orderby=name&order=asc", ids: ids(1, 20), total: "45", pages: "3",
			check: func(q thingQuery) bool { return q.OrderBy == "name" && q.Order == "asc" }},
		{name: "default sort", query: "", ids: ids(1, 20), total: "45", pages: "3",
			check: func(q thingQuery) bool { return q.OrderBy == "" && q.Order == "" }},
		{name: "unknown orderby", query: "orderby=price", param: "orderby", why: "orderby must be id or name."},
		{name: "unknown order", query: "orderby=id&order=up", param: "order", why: "order must be asc or desc."},
	} {
		t.Run(c.name, func(t *testing.T) {
			*asked = thingQuery{}
			w := do("GET", "/wp-json/vitrine/v1/admin/things?"+c.query, "")
			if c.param != "" {
				var e restError
				if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || w.Code != 400 || e.Code != "rest_invalid_param" ||
					e.Data.Status != 400 || e.Message != "Invalid parameter(s): "+c.param || len(e.Data.Params) != 1 || e.Data.Params[c.param] != c.why {
					t.Fatalf("%d %s, want 400 rest_invalid_param %s: %s", w.Code, w.Body, c.param, c.why)
				}
				if asked.Page.Page != 0 {
					t.Errorf("a refused query was fetched: %+v", *asked)
				}
				return
			}
			var rows []thingJSON
			if err := json.Unmarshal(w.Body.Bytes(), &rows); err != nil || w.Code != 200 || rows == nil {
				t.Fatalf("%d %s", w.Code, w.Body)
			}
			got := []int64{}
			for _, r := range rows {
				got = append(got, r.ID)
			}
			h := w.Header()
			if !slices.Equal(got, c.ids) || h.Get("X-WP-Total") != c.total || h.Get("X-WP-TotalPages") != c.pages || h.Get("Link") != "" {
				t.Errorf("ids %v, total %q of %q pages, link %q; want %v, %s of %s, no link",
					got, h.Get("X-WP-Total"), h.Get("X-WP-TotalPages"), h.Get("Link"), c.ids, c.total, c.pages)
			}
			if c.check != nil && !c.check(*asked) {
				t.Errorf("fetched with %+v", *asked)
			}
		})
	}

	// A cursor list sizes its page by per_page and sends no totals.
	w := do("GET", "/wp-json/vitrine/v1/admin/things/log?per_page=2&before=9", "")
	if w.Code != 200 || w.Body.String() != `[{"id":1,"name":"thing 1","status":"on"},{"id":2,"name":"thing 2","status":"off"}]` ||
		w.Header().Get("X-WP-Total") != "" || w.Header().Get("X-WP-TotalPages") != "" || asked.Before != 9 {
		t.Errorf("cursor list: %d %v %s", w.Code, w.Header(), w.Body)
	}
}

func ids(from, to int64) []int64 {
	var out []int64
	for id := from; id <= to; id++ {
		out = append(out, id)
	}
	return out
}

func TestListBulk(t *testing.T) {
	do, _, log := thingsAPI(t)
	const bulk = "/wp-json/vitrine/v1/admin/things/bulk"
	idList := func(n int) string { return strings.TrimSuffix(strings.Repeat("1,", n), ",") }
	for _, c := range []struct {
		name, path, body string
		status           int
		want             string // the answer's body, or the refused parameter
	}{
		{"a mix of good, unchanged and missing ids", bulk, `{"action":"on","ids":[2,1,99,4]}`, 200,
			`{"action":"on","changed":2,"items":[{"id":2,"changed":true},{"id":1,"changed":false},` +
				`{"id":99,"changed":false,"error":{"code":"woocommerce_rest_invalid_id","message":"Invalid ID: it does not exist, or it was deleted.","data":{"status":404}}},` +
				`{"id":4,"changed":true}]}`},
		{"on the set at once: no items", bulk + "-at-once", `{"action":"off","ids":[1,2,3]}`, 200, `{"action":"off","changed":2}`},
		{"no ids", bulk, `{"action":"on","ids":[]}`, 400, "ids: Choose at least one thing."},
		{"too many ids", bulk, `{"action":"on","ids":[` + idList(101) + `]}`, 400, "ids: At most 100 things at a time."},
		{"as many as allowed", bulk, `{"action":"off","ids":[` + idList(100) + `]}`, 200,
			`{"action":"off","changed":1,"items":[{"id":1,"changed":true}` + strings.Repeat(`,{"id":1,"changed":false}`, 99) + `]}`},
		{"unknown action", bulk, `{"action":"explode","ids":[1]}`, 400, "action: action must be on or off."},
		{"ids are checked before the action", bulk, `{"action":"explode","ids":[]}`, 400, "ids: Choose at least one thing."},
		{"not JSON", bulk, `{"action":`, 400, "rest_invalid_json"},
		{"a failure that is not a refusal stops the run", bulk, `{"action":"off","ids":[1,666,3]}`, 500, "internal_error"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := do("POST", c.path, c.body)
			got := strings.TrimSpace(w.Body.String())
			if w.Code >= 400 {
				var e restError
				_ = json.Unmarshal(w.Body.Bytes(), &e)
				got = e.Code
				for p, why := range e.Data.Params {
					got = p + ": " + why
				}
			}
			if w.Code != c.status || got != c.want {
				t.Errorf("%d %s\nwant %d %s", w.Code, got, c.status, c.want)
			}
		})
	}
	// Each answered bulk action is audited once, with its counts.
	var notes []string
	for _, e := range log.entries {
		notes = append(notes, fmt.Sprintf("%s %s %d: %s", e.Action, e.Object, e.ObjectID, e.Summary))
	}
	want := []string{
		"thing.bulk_on thing 0: Bulk on: 2 of 4 things changed (ids [2 1 99 4])",
		"thing.bulk_off thing 0: Bulk off: 2 of 3 things changed (ids [1 2 3])",
		"thing.bulk_off thing 0: Bulk off: 1 of 100 things changed (ids [" + strings.TrimSuffix(strings.Repeat("1 ", 100), " ") + "])",
	}
	if !slices.Equal(notes, want) {
		t.Errorf("audit:\n%s\nwant\n%s", strings.Join(notes, "\n"), strings.Join(want, "\n"))
	}
}

func TestTabs(t *testing.T) {
	counts := map[string]int{"publish": 4, "draft": 2, "pending": 1, "trash": 3}
	count := func(context.Context) (map[string]int, error) { return counts, nil }
	for _, c := range []struct {
		name string
		tabs adminapi.Tabs
		want string
	}{
		{"as the service counts", adminapi.Tabs{Count: count}, `{"draft":2,"pending":1,"publish":4,"trash":3}`},
		{"chosen tabs, 0 when empty", adminapi.Tabs{Count: count, Statuses: []string{"publish", "future", "trash"}},
			`{"future":0,"publish":4,"trash":3}`},
		{"all but the trash", adminapi.Tabs{Count: count, Statuses: []string{"publish", "trash"}, All: "all", NotInAll: []string{"trash"}},
			`{"all":7,"publish":4,"trash":3}`},
		{"WooCommerce's report shape", adminapi.Tabs{Count: count, Statuses: []string{"trash", "future"}, Label: strings.ToUpper},
			`[{"slug":"trash","name":"TRASH","total":3},{"slug":"future","name":"FUTURE","total":0}]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			if err := c.tabs.Serve(w, httptest.NewRequest("GET", "/counts", nil)); err != nil || w.Code != 200 || w.Body.String() != c.want {
				t.Errorf("%v %d %s, want %s", err, w.Code, w.Body, c.want)
			}
		})
	}
	failing := adminapi.Tabs{Count: func(context.Context) (map[string]int, error) { return nil, errors.New("down") }}
	if err := failing.Serve(httptest.NewRecorder(), httptest.NewRequest("GET", "/counts", nil)); err == nil {
		t.Error("a failed count was answered")
	}
}

func TestWriteAll(t *testing.T) {
	for _, c := range []struct {
		rows        []int
		body, pages string
		total       string
	}{{nil, "[]", "0", "0"}, {[]int{7, 8, 9}, "[7,8,9]", "1", "3"}} {
		w := httptest.NewRecorder()
		adminapi.WriteAll(w, c.rows)
		if w.Body.String() != c.body || w.Header().Get("X-WP-Total") != c.total || w.Header().Get("X-WP-TotalPages") != c.pages {
			t.Errorf("%v: %s %v", c.rows, w.Body, w.Header())
		}
	}
}
