package adminapi

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"vitrine/internal/storeapi"
)

// Lists: every admin list endpoint (orders, reviews, messages, products,
// coupons, media, the activity log) reads its query, fetches a page and
// answers it in one way, WordPress's:
//
//   - page (from 1) and per_page (1 to MaxPerPage, default
//     DefaultPerPage), 400 rest_invalid_param when out of bounds;
//   - the X-WP-Total and X-WP-TotalPages headers (no Link header);
//   - search, and the list's own filters, read into the service's query
//     and refused with rest_invalid_param naming the parameter;
//   - orderby checked against the list's keys, order against asc and desc;
//   - an array of rows, [] when there are none.
//
// A list with status tabs answers its counts with Tabs, one with bulk
// actions runs them with Bulk.
//
// How to add a list: in the route's handler, declare the service's query,
// then a List whose Search, Filters and Sort point into it, whose Fetch
// puts the page on it and calls the service's list use case, and whose
// Row shapes one result; then add the route to routes.go.
//
//	// GET /wp-json/vitrine/v1/admin/things?status=&search=&orderby=&order=&page=&per_page=
//	func (a *API) thingsList(w http.ResponseWriter, r *http.Request, _ Staff) error {
//		var q things.Query
//		return List[things.Thing, thingJSON]{
//			Search:  &q.Search,
//			Filters: []Filter{OneOf("status", &q.Status, "all", "active", "paused")},
//			Sort:    &Sort{Keys: things.OrderBy, By: &q.OrderBy, Order: &q.Order},
//			Fetch: func(ctx context.Context, p Paging) ([]things.Thing, int, error) {
//				q.Offset, q.Limit = p.Offset(), p.PerPage
//				return a.d.Things.List(ctx, q)
//			},
//			Row: thingOut,
//		}.Serve(w, r)
//	}
//
// The declaration is made per request, so its pointers are the request's
// own. Its status tabs are a Tabs{…}.Serve in a …/counts handler, its bulk
// actions a Bulk{…}.Serve in a …/bulk one. The rules (which statuses
// exist, what a search matches, what an action may do) stay the service's:
// the list only reads, checks the shape, calls and answers.

// Bounds of a list's page and of a bulk action.
const (
	DefaultPerPage = 20
	MaxPerPage     = 100
	// MaxBulk is how many rows one bulk action may name (a page's worth).
	MaxBulk = 100
	// MaxIDs is how many ids an IDs filter takes.
	MaxIDs = 100
)

// Paging is a list's page and size (WordPress's page and per_page).
type Paging struct {
	Page    int
	PerPage int
}

// Offset is the number of rows before the page.
func (p Paging) Offset() int { return (p.Page - 1) * p.PerPage }

// PagingOf reads ?page= (1 up) and ?per_page= (1 to MaxPerPage, default
// DefaultPerPage).
func PagingOf(r *http.Request) (Paging, error) {
	p := Paging{Page: 1, PerPage: DefaultPerPage}
	q := r.URL.Query()
	if v := q.Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return p, InvalidParam("page", "page must be a whole number of at least 1.")
		}
		p.Page = n
	}
	if v := q.Get("per_page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxPerPage {
			return p, InvalidParam("per_page", fmt.Sprintf("per_page must be between 1 (inclusive) and %d (inclusive)", MaxPerPage))
		}
		p.PerPage = n
	}
	return p, nil
}

// SetTotals sets WordPress's list headers: X-WP-Total and X-WP-TotalPages.
func SetTotals(w http.ResponseWriter, total int, p Paging) {
	pages := 0
	if total > 0 {
		pages = (total + p.PerPage - 1) / p.PerPage
	}
	w.Header().Set("X-WP-Total", strconv.Itoa(total))
	w.Header().Set("X-WP-TotalPages", strconv.Itoa(pages))
}

// WriteAll answers a list that always fits one answer (a shop's
// categories, a product's variations): every row, with the totals of a
// single page.
func WriteAll[R any](w http.ResponseWriter, rows []R) {
	if rows == nil {
		rows = []R{}
	}
	SetTotals(w, len(rows), Paging{Page: 1, PerPage: max(len(rows), 1)})
	WriteJSON(w, http.StatusOK, rows)
}

// List declares a paged admin list: T is what the service lists, R the
// row the API answers for one.
type List[T, R any] struct {
	// Search receives ?search= ("" for none); nil when the list has no
	// search.
	Search *string
	// Filters read the list's other parameters, in order.
	Filters []Filter
	// Sort, when the list can be sorted, reads orderby and order.
	Sort *Sort
	// Cursor lists page by a cursor among their filters (the activity
	// log's before=): per_page sizes the page, and no totals are sent,
	// so Fetch's total is not used.
	Cursor bool
	// Fetch lists one page: the filters have been read by then.
	Fetch func(ctx context.Context, p Paging) (items []T, total int, err error)
	// Row shapes one item.
	Row func(item T) R
}

// Serve answers the list: its query is read and checked (paging, search,
// filters, sort, in that order), then the page is fetched and shaped.
func (l List[T, R]) Serve(w http.ResponseWriter, r *http.Request) error {
	p, err := PagingOf(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	if l.Search != nil {
		*l.Search = q.Get("search")
	}
	for _, f := range l.Filters {
		if err := f.read(q); err != nil {
			return err
		}
	}
	if l.Sort != nil {
		if err := l.Sort.read(q); err != nil {
			return err
		}
	}
	items, total, err := l.Fetch(r.Context(), p)
	if err != nil {
		return err
	}
	rows := make([]R, 0, len(items))
	for _, it := range items {
		rows = append(rows, l.Row(it))
	}
	if !l.Cursor {
		SetTotals(w, total, p)
	}
	WriteJSON(w, http.StatusOK, rows)
	return nil
}

// A Filter reads one of a list's query parameters into the service's
// query, or refuses it with 400 rest_invalid_param naming it. The
// constructors below are the kinds lists take.
type Filter struct {
	read func(q url.Values) error
}

// Text reads a parameter as it is ("" when absent): the service checks it.
func Text(name string, dst *string) Filter {
	return Filter{func(q url.Values) error {
		*dst = q.Get(name)
		return nil
	}}
}

// OneOf reads a parameter that is absent or one of values, refused in
// WordPress's words for an enum ("status is not one of all, hold.").
func OneOf(name string, dst *string, values ...string) Filter {
	return Filter{func(q url.Values) error {
		v := q.Get(name)
		if v != "" && !slices.Contains(values, v) {
			return InvalidParam(name, name+" is not one of "+strings.Join(values, ", ")+".")
		}
		*dst = v
		return nil
	}}
}

// Int64 reads a whole number of at least min (0 when absent); why is the
// refusal's reason.
func Int64(name string, dst *int64, min int64, why string) Filter {
	return Filter{func(q url.Values) error {
		v := q.Get(name)
		if v == "" {
			return nil
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < min {
			return InvalidParam(name, why)
		}
		*dst = n
		return nil
	}}
}

// IDs reads a list of ids as WordPress takes an array (arrayValues), up
// to MaxIDs; why is the refusal's reason.
func IDs(name string, dst *[]int64, why string) Filter {
	return Filter{func(q url.Values) error {
		var ids []int64
		for _, s := range arrayValues(q, name) {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil || n <= 0 {
				return InvalidParam(name, why)
			}
			ids = append(ids, n)
		}
		if len(ids) > MaxIDs {
			return InvalidParam(name, why)
		}
		*dst = ids
		return nil
	}}
}

// Strings reads a list of values as WordPress takes an array
// (arrayValues): the service checks them.
func Strings(name string, dst *[]string) Filter {
	return Filter{func(q url.Values) error {
		*dst = arrayValues(q, name)
		return nil
	}}
}

// arrayValues are an array parameter's values, given as WordPress takes
// them: repeated (name= or name[]=), comma-separated, or both; trimmed,
// blanks left out.
func arrayValues(q url.Values, name string) []string {
	var out []string
	for _, v := range slices.Concat(q[name], q[name+"[]"]) {
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// Sort reads ?orderby= into By, which must be one of Keys, and ?order=
// into Order, asc or desc. Absent, they stay "": the service's default
// order.
type Sort struct {
	Keys      []string
	By, Order *string
}

var sortOrders = []string{"asc", "desc"}

func (s *Sort) read(q url.Values) error {
	for _, p := range []struct {
		name    string
		allowed []string
		dst     *string
	}{{"orderby", s.Keys, s.By}, {"order", sortOrders, s.Order}} {
		v := q.Get(p.name)
		if v != "" && !slices.Contains(p.allowed, v) {
			return InvalidParam(p.name, p.name+" must be "+orList(p.allowed)+".")
		}
		*p.dst = v
	}
	return nil
}

// orList writes values as "a, b or c".
func orList(values []string) string {
	if len(values) < 2 {
		return strings.Join(values, "")
	}
	return strings.Join(values[:len(values)-1], ", ") + " or " + values[len(values)-1]
}

// Tabs declares a list's status tabs: how many rows each status holds.
type Tabs struct {
	// Count is the service's count per status.
	Count func(ctx context.Context) (map[string]int, error)
	// Statuses are the tabs answered, each 0 when it has none; nil
	// answers every status Count reports.
	Statuses []string
	// All, when set, names a tab counting every status but NotInAll's
	// (the trash).
	All      string
	NotInAll []string
	// Label, when set, answers WooCommerce's report shape instead of a
	// map: [{"slug","name","total"}] in Statuses' order, each named by
	// Label.
	Label func(status string) string
}

// statusTotal is a tab in WooCommerce's report shape.
type statusTotal struct {
	Slug  string `json:"slug"`
	Name  string `json:"name"`
	Total int    `json:"total"`
}

// Serve answers the counts.
func (t Tabs) Serve(w http.ResponseWriter, r *http.Request) error {
	counts, err := t.Count(r.Context())
	if err != nil {
		return err
	}
	if t.Label != nil {
		out := make([]statusTotal, 0, len(t.Statuses))
		for _, s := range t.Statuses {
			out = append(out, statusTotal{Slug: s, Name: t.Label(s), Total: counts[s]})
		}
		WriteJSON(w, http.StatusOK, out)
		return nil
	}
	out := map[string]int{}
	if t.Statuses == nil {
		for s, n := range counts {
			out[s] = n
		}
	}
	for _, s := range t.Statuses {
		out[s] = counts[s]
	}
	if t.All != "" {
		all := 0
		for s, n := range counts {
			if !slices.Contains(t.NotInAll, s) {
				all += n
			}
		}
		out[t.All] = all
	}
	WriteJSON(w, http.StatusOK, out)
	return nil
}

// Bulk declares a list's bulk actions: POST {"action": …, "ids": […]}
// applies one action to up to MaxBulk rows and answers {"action",
// "changed"}, with "items" (each id's result) when the action ran id by
// id (EachID). The write is audited as "<object>.bulk_<action>".
type Bulk struct {
	// Object and Objects name a row and rows in the refusals and the
	// audit log ("product", "products").
	Object, Objects string
	// Actions are the actions the list offers.
	Actions []string
	// Apply runs the action: on the rows at once (a service that changes
	// the set in one transaction) or id by id (EachID).
	Apply func(ctx context.Context, action string, ids []int64) (BulkResult, error)
}

// BulkResult is what a bulk action did.
type BulkResult struct {
	// Changed counts the rows the action changed (not those already as
	// it leaves them, nor those it refused).
	Changed int
	// Items are each id's result, in the request's order, when the
	// action ran id by id; nil when it ran on the set at once.
	Items []BulkItem
}

// BulkItem is one id's result: changed or not, or refused.
type BulkItem struct {
	ID      int64
	Changed bool
	Refused *Error
}

type bulkJSON struct {
	Action  string         `json:"action"`
	Changed int            `json:"changed"`
	Items   []bulkItemJSON `json:"items,omitempty"`
}

// bulkItemJSON is an id's result; a refusal has the REST error shape, as
// in WooCommerce's batch answers.
type bulkItemJSON struct {
	ID      int64           `json:"id"`
	Changed bool            `json:"changed"`
	Error   *storeapi.Error `json:"error,omitempty"`
}

// EachID is a bulk action run id by id: do applies it to one row and
// reports whether the row changed. A refusal for one id (an unknown id, a
// move its state forbids) is that item's result and the others go on;
// any other error stops the run and fails the request, the ids before it
// left applied.
func EachID(do func(ctx context.Context, action string, id int64) (changed bool, err error)) func(context.Context, string, []int64) (BulkResult, error) {
	return func(ctx context.Context, action string, ids []int64) (BulkResult, error) {
		res := BulkResult{Items: make([]BulkItem, 0, len(ids))}
		for _, id := range ids {
			changed, err := do(ctx, action, id)
			item := BulkItem{ID: id, Changed: changed && err == nil}
			if err != nil {
				e, refused := asError(err)
				if !refused {
					return BulkResult{}, fmt.Errorf("bulk %s of %d: %w", action, id, err)
				}
				item.Refused = e
			}
			if item.Changed {
				res.Changed++
			}
			res.Items = append(res.Items, item)
		}
		return res, nil
	}
}

// Serve reads the request, checks it (ids, then the action) and runs it.
func (b Bulk) Serve(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		Action string  `json:"action"`
		IDs    []int64 `json:"ids"`
	}
	if err := Decode(r, &body); err != nil {
		return err
	}
	switch {
	case len(body.IDs) == 0:
		return InvalidParam("ids", "Choose at least one "+b.Object+".")
	case len(body.IDs) > MaxBulk:
		return InvalidParam("ids", fmt.Sprintf("At most %d %s at a time.", MaxBulk, b.Objects))
	case !slices.Contains(b.Actions, body.Action):
		return InvalidParam("action", "action must be "+orList(b.Actions)+".")
	}
	res, err := b.Apply(r.Context(), body.Action, body.IDs)
	if err != nil {
		return err
	}
	Note(r, b.Object+".bulk_"+body.Action, b.Object, 0,
		fmt.Sprintf("Bulk %s: %d of %d %s changed (ids %v)", body.Action, res.Changed, len(body.IDs), b.Objects, body.IDs))
	out := bulkJSON{Action: body.Action, Changed: res.Changed}
	for _, it := range res.Items {
		j := bulkItemJSON{ID: it.ID, Changed: it.Changed}
		if it.Refused != nil {
			e := errorBody(it.Refused)
			j.Error = &e
		}
		out.Items = append(out.Items, j)
	}
	WriteJSON(w, http.StatusOK, out)
	return nil
}
