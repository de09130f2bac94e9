package analytics

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Settings are the analytics settings (settings.Analytics saves them).
type Settings struct {
	// TimeZone is the shop's IANA time zone: it sets day boundaries. ""
	// is UTC.
	TimeZone string `json:"time_zone"`
	// ExcludedStatuses are the order statuses reports leave out
	// (WooCommerce's "Excluded statuses"); nil is the default.
	ExcludedStatuses []string `json:"excluded_statuses"`
}

// DefaultExcluded are the statuses left out by default.
var DefaultExcluded = []string{"pending", "failed", "cancelled"}

// Statuses are the order statuses a report can count or filter on.
var Statuses = []string{"pending", "processing", "on-hold", "completed", "cancelled", "refunded", "failed"}

// Validate checks s.
func (s Settings) Validate() error {
	if _, err := time.LoadLocation(s.TimeZone); err != nil || strings.EqualFold(s.TimeZone, "local") {
		return &InputError{"time_zone", "time_zone is an IANA time zone such as America/New_York."}
	}
	for _, st := range s.ExcludedStatuses {
		if !slices.Contains(Statuses, st) {
			return &InputError{"excluded_statuses", "excluded_statuses lists order statuses (" + strings.Join(Statuses, ", ") + ")."}
		}
	}
	return nil
}

// Location is the shop's time zone.
func (s Settings) Location() *time.Location {
	if loc, err := time.LoadLocation(s.TimeZone); err == nil && !strings.EqualFold(s.TimeZone, "local") {
		return loc
	}
	return time.UTC
}

// Excluded is the excluded statuses in force.
func (s Settings) Excluded() []string {
	if s.ExcludedStatuses == nil {
		return DefaultExcluded
	}
	return s.ExcludedStatuses
}

// InputError is a parameter a report cannot take (WordPress's
// rest_invalid_param).
type InputError struct {
	Field, Message string
}

func (e *InputError) Error() string { return e.Field + ": " + e.Message }

// Intervals are the intervals a stats report groups by.
var Intervals = []string{"hour", "day", "week", "month", "quarter", "year"}

// Query is a report's parameters, as WooCommerce Admin's REST routes take
// them.
type Query struct {
	Interval      string
	After, Before time.Time // in the shop's zone; zero: the defaults
	OrderBy       string
	Order         string // asc or desc
	Page, PerPage int
	Fields        []string
	SegmentBy     string
	StatusIs      []string
	StatusIsNot   []string
	Products      []int64 // product_includes
	Variations    []int64 // variation_includes
	Categories    []int64 // category_includes
	Coupons       []int64 // coupon_includes
	CustomerType  string  // new, returning or ""
	ExtendedInfo  bool
	Stats         []string // performance indicators
	PerPageMax    int      // the upper bound of per_page (100; the CSV export more)
}

// Params are a query's raw parameters (url.Values without the import).
type Params interface {
	Get(string) string
	Has(string) bool
}

// ParseQuery reads the REST parameters of a report. loc is the shop's zone
// (after and before without an offset are its local times).
func ParseQuery(p Params, loc *time.Location, orderBys []string, defOrderBy string) (Query, error) {
	q := Query{Interval: "week", Order: "desc", OrderBy: defOrderBy, Page: 1, PerPage: 10, PerPageMax: 100}
	if v := p.Get("interval"); v != "" {
		if !slices.Contains(Intervals, v) {
			return q, &InputError{"interval", "interval is not one of " + strings.Join(Intervals, ", ") + "."}
		}
		q.Interval = v
	}
	var err error
	for _, d := range []struct {
		name string
		to   *time.Time
	}{{"after", &q.After}, {"before", &q.Before}} {
		if v := p.Get(d.name); v != "" {
			if *d.to, err = parseDate(v, loc); err != nil {
				return q, &InputError{d.name, "Invalid date."}
			}
		}
	}
	if !q.After.IsZero() && !q.Before.IsZero() && q.Before.Before(q.After) {
		return q, &InputError{"before", "before is earlier than after."}
	}
	if v := p.Get("order"); v != "" {
		if v != "asc" && v != "desc" {
			return q, &InputError{"order", "order is not one of asc, desc."}
		}
		q.Order = v
	}
	if v := p.Get("orderby"); v != "" {
		if !slices.Contains(orderBys, v) {
			return q, &InputError{"orderby", "orderby is not one of " + strings.Join(orderBys, ", ") + "."}
		}
		q.OrderBy = v
	}
	for _, n := range []struct {
		name     string
		to       *int
		min, max int
	}{{"page", &q.Page, 1, 1 << 30}, {"per_page", &q.PerPage, 1, 100}} {
		if v := p.Get(n.name); v != "" {
			i, err := strconv.Atoi(v)
			if err != nil || i < n.min || i > n.max {
				return q, &InputError{n.name, fmt.Sprintf("%s must be between %d (inclusive) and %d (inclusive)", n.name, n.min, n.max)}
			}
			*n.to = i
		}
	}
	if v := p.Get("fields"); v != "" {
		q.Fields = splitList(v)
	}
	if v := p.Get("segmentby"); v != "" {
		segs := []string{"product", "category", "variation", "coupon", "customer_type", "tax_rate_id"}
		if !slices.Contains(segs, v) {
			return q, &InputError{"segmentby", "segmentby is not one of " + strings.Join(segs, ", ") + "."}
		}
		q.SegmentBy = v
	}
	for _, s := range []struct {
		name string
		to   *[]string
	}{{"status_is", &q.StatusIs}, {"status_is_not", &q.StatusIsNot}} {
		for _, st := range splitList(p.Get(s.name)) {
			st = strings.TrimPrefix(st, "wc-")
			if !slices.Contains(Statuses, st) {
				return q, &InputError{s.name, s.name + " lists order statuses (" + strings.Join(Statuses, ", ") + ")."}
			}
			*s.to = append(*s.to, st)
		}
	}
	for _, ids := range []struct {
		name string
		to   *[]int64
	}{{"product_includes", &q.Products}, {"variation_includes", &q.Variations}, {"category_includes", &q.Categories}, {"coupon_includes", &q.Coupons}} {
		for _, v := range splitList(p.Get(ids.name)) {
			id, err := strconv.ParseInt(v, 10, 64)
			if err != nil || id <= 0 {
				return q, &InputError{ids.name, ids.name + " is a list of ids."}
			}
			*ids.to = append(*ids.to, id)
		}
	}
	if v := p.Get("customer_type"); v != "" {
		if v != "new" && v != "returning" {
			return q, &InputError{"customer_type", "customer_type is not one of new, returning."}
		}
		q.CustomerType = v
	}
	if v := p.Get("extended_info"); v != "" {
		switch v {
		case "true", "1":
			q.ExtendedInfo = true
		case "false", "0":
		default:
			return q, &InputError{"extended_info", "extended_info is not of type boolean."}
		}
	}
	if v := p.Get("stats"); v != "" {
		q.Stats = splitList(v)
	}
	return q, nil
}

func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// parseDate reads an ISO 8601 date-time: with an offset or Z it is that
// instant; without, the shop's local time (as WooCommerce reads it).
func parseDate(v string, loc *time.Location) (time.Time, error) {
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05Z07:00"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t.In(loc), nil
		}
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, v, loc); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("bad date %q", v)
}

// Period is a report's time range: [From, To) in the shop's zone (To is
// one second after the last second included, as before is inclusive).
type Period struct {
	From, To time.Time
}

// Bucket is one interval of a stats report.
type Bucket struct {
	ID         string    // "2026-11-22", "2026-47", "2026-4"…
	Start, End time.Time // [Start, End) local, clamped to the period
}

// startOf is the start of t's interval in its zone (weeks start on
// Monday, as WordPress's default).
func startOf(t time.Time, interval string) time.Time {
	loc := t.Location()
	y, m, d := t.Date()
	switch interval {
	case "hour":
		return time.Date(y, m, d, t.Hour(), 0, 0, 0, loc)
	case "day":
		return time.Date(y, m, d, 0, 0, 0, 0, loc)
	case "week":
		wd := (int(t.Weekday()) + 6) % 7
		return time.Date(y, m, d-wd, 0, 0, 0, 0, loc)
	case "month":
		return time.Date(y, m, 1, 0, 0, 0, 0, loc)
	case "quarter":
		return time.Date(y, m-(m-1)%3, 1, 0, 0, 0, 0, loc)
	}
	return time.Date(y, 1, 1, 0, 0, 0, 0, loc)
}

// next is the start of the interval after the one starting at s, by the
// calendar (a DST day is 23 or 25 hours).
func next(s time.Time, interval string) time.Time {
	y, m, d := s.Date()
	loc := s.Location()
	switch interval {
	case "hour":
		n := s.Add(time.Hour)
		return n
	case "day":
		return time.Date(y, m, d+1, 0, 0, 0, 0, loc)
	case "week":
		return time.Date(y, m, d+7, 0, 0, 0, 0, loc)
	case "month":
		return time.Date(y, m+1, 1, 0, 0, 0, 0, loc)
	case "quarter":
		return time.Date(y, m+3, 1, 0, 0, 0, 0, loc)
	}
	return time.Date(y+1, 1, 1, 0, 0, 0, 0, loc)
}

func intervalID(t time.Time, interval string) string {
	switch interval {
	case "hour":
		return t.Format("2006-01-02 15")
	case "day":
		return t.Format("2006-01-02")
	case "week":
		y, w := t.ISOWeek()
		return fmt.Sprintf("%d-%02d", y, w)
	case "month":
		return t.Format("2006-01")
	case "quarter":
		return fmt.Sprintf("%d-%d", t.Year(), (int(t.Month())-1)/3+1)
	}
	return t.Format("2006")
}

// MaxBuckets bounds a stats report's intervals (an hourly report of ten
// years is refused).
const MaxBuckets = 10000

// Buckets splits p into its intervals, oldest first.
func Buckets(p Period, interval string) ([]Bucket, error) {
	var out []Bucket
	for s := startOf(p.From, interval); s.Before(p.To); s = next(s, interval) {
		if len(out) >= MaxBuckets {
			return nil, &InputError{"interval", "The period has too many intervals; choose a longer interval."}
		}
		b := Bucket{ID: intervalID(s, interval), Start: s, End: next(s, interval)}
		if b.Start.Before(p.From) {
			b.Start = p.From
		}
		if b.End.After(p.To) {
			b.End = p.To
		}
		out = append(out, b)
	}
	return out, nil
}
