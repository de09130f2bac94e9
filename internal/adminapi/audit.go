package adminapi

import (
	"context"
	"net/http"

	"vitrine/internal/audit"
)

// The audit log of admin writes, and its listing.

type noteKey struct{}

// note is what a write's handler says about it (Note).
type note struct {
	action, object, summary string
	id                      int64
	set                     bool
}

// Note says what a write changed, for its audit entry: a dotted action
// ("product.update"), the object and its id, and a line for people. A
// write that succeeds without a note is still recorded, by method and
// path.
func Note(r *http.Request, action, object string, id int64, summary string) {
	if n, ok := r.Context().Value(noteKey{}).(*note); ok {
		*n = note{action: action, object: object, id: id, summary: summary, set: true}
	}
}

// statusWriter remembers the status a handler answered with.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (s *statusWriter) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

// audited runs a write and records it when it succeeded. The entry is
// written after the answer is decided and with a context of its own, so a
// client that hangs up does not lose the record of what it changed.
func (a *API) audited(w http.ResponseWriter, r *http.Request, st Staff, h Handler) {
	n := &note{}
	r = r.WithContext(context.WithValue(r.Context(), noteKey{}, n))
	sw := &statusWriter{ResponseWriter: w}
	if err := h(sw, r, st); err != nil {
		a.fail(sw, r, err)
	}
	if sw.status < 200 || sw.status >= 300 {
		return
	}
	if a.d.Written != nil {
		a.d.Written()
	}
	if a.d.Audit == nil {
		return
	}
	e := audit.Entry{ActorID: st.ID, ActorName: st.Name, ClientIP: a.d.ClientIP(r),
		Action: n.action, Object: n.object, ObjectID: n.id, Summary: n.summary}
	if !n.set {
		e.Action = r.Method + " " + r.URL.Path
	}
	_, _ = a.d.Audit.Record(context.WithoutCancel(r.Context()), e)
}

// GET /wp-json/vitrine/v1/admin/audit?object=&object_id=&actor=&before=&per_page=:
// newest first, paged by the cursor before= (the last id seen).
func (a *API) auditList(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var f audit.Filter
	return List[audit.Entry, audit.Entry]{
		Filters: []Filter{
			Text("object", &f.Object),
			Int64("object_id", &f.ObjectID, 0, "object_id is not a valid id."),
			Int64("actor", &f.ActorID, 0, "actor is not a valid id."),
			Int64("before", &f.Before, 0, "before is not a valid id."),
		},
		Cursor: true,
		Fetch: func(ctx context.Context, p Paging) ([]audit.Entry, int, error) {
			f.Limit = p.PerPage
			entries, err := a.d.Audit.List(ctx, f)
			return entries, 0, err
		},
		Row: func(e audit.Entry) audit.Entry { return e },
	}.Serve(w, r)
}

// GET /wp-json/vitrine/v1/admin/me: who the admin is used by.
func (a *API) me(w http.ResponseWriter, _ *http.Request, st Staff) error {
	WriteJSON(w, http.StatusOK, map[string]any{"id": st.ID, "name": st.Name, "role": st.Role})
	return nil
}
