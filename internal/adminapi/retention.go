package adminapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"vitrine/internal/retention"
	"vitrine/internal/settings"
)

// Data retention (internal/retention): how long personal data is kept,
// read and saved like the shop's settings (a versioned document; a stale
// save is refused with the one in force), and what the newest run did.

// retentionAnswer is the policy in force, its version and the newest run.
type retentionAnswer struct {
	retention.Policy
	Version   int64         `json:"version"`
	UpdatedAt string        `json:"updated_at,omitempty"` // RFC 3339; absent while never saved
	LastRun   *retentionRun `json:"last_run"`             // null: none yet
	Batch     int           `json:"batch"`                // accounts and orders per rule in a run
	Every     int64         `json:"every_seconds"`        // how often a run is due
}

// retentionRun is the newest run: when, and its counts.
type retentionRun struct {
	At string `json:"at"` // RFC 3339
	retention.Result
}

func (a *API) retentionAnswer(r *http.Request, d settings.Doc[retention.Policy]) (retentionAnswer, error) {
	out := retentionAnswer{Policy: d.Value, Version: d.Version, UpdatedAt: savedAt(d.UpdatedAt), Batch: retention.DefaultBatch,
		Every: int64(retention.Every.Seconds())}
	if a.d.RetentionLastRun == nil {
		return out, nil
	}
	at, summary, ok, err := a.d.RetentionLastRun(r.Context())
	if err != nil || !ok {
		return out, err
	}
	run := &retentionRun{At: at.Format("2006-01-02T15:04:05Z07:00")}
	if json.Unmarshal([]byte(summary), &run.Result) == nil {
		out.LastRun = run
	}
	return out, nil
}

// GET /wp-json/vitrine/v1/admin/retention
func (a *API) retentionGet(w http.ResponseWriter, r *http.Request, _ Staff) error {
	d, err := a.d.Retention.Load(r.Context())
	if err != nil {
		return err
	}
	out, err := a.retentionAnswer(r, d)
	if err != nil {
		return err
	}
	WriteJSON(w, http.StatusOK, out)
	return nil
}

// PUT /wp-json/vitrine/v1/admin/retention: the three periods and the
// version they were based on.
func (a *API) retentionPut(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var in retention.Policy
	version, err := decodeSave(r, &in)
	if err != nil {
		return err
	}
	before := a.d.Retention.Current().Value
	d, err := a.d.Retention.Update(r.Context(), in, version)
	var ie *retention.InputError
	switch {
	case errors.Is(err, settings.ErrStale):
		cur, aerr := a.retentionAnswer(r, a.d.Retention.Current())
		if aerr != nil {
			return aerr
		}
		return staleSettings("the data retention settings", cur)
	case errors.As(err, &ie):
		return InvalidParam(ie.Field, ie.Message)
	case err != nil:
		return err
	}
	Note(r, "retention.update", "retention", 0, retentionSummary(before, d.Value))
	out, err := a.retentionAnswer(r, d)
	if err != nil {
		return err
	}
	WriteJSON(w, http.StatusOK, out)
	return nil
}

// retentionSummary names what a save changed, for the activity log.
func retentionSummary(old, cur retention.Policy) string {
	var changed []string
	for _, f := range []struct {
		name     string
		old, cur int
	}{{"inactive accounts", old.InactiveAccountMonths, cur.InactiveAccountMonths},
		{"guest orders", old.GuestOrderMonths, cur.GuestOrderMonths},
		{"cancelled and failed orders", old.FailedOrderMonths, cur.FailedOrderMonths}} {
		if f.old != f.cur {
			changed = append(changed, fmt.Sprintf("%s %s → %s", f.name, months(f.old), months(f.cur)))
		}
	}
	if len(changed) == 0 {
		return "Data retention saved unchanged"
	}
	return "Data retention: " + strings.Join(changed, ", ")
}

func months(n int) string {
	switch n {
	case 0:
		return "kept"
	case 1:
		return "1 month"
	}
	return fmt.Sprintf("%d months", n)
}
