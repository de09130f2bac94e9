package reports_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"vitrine/internal/reports"
)

func TestRangeOf(t *testing.T) {
	now := time.Date(2026, 1, 10, 15, 4, 5, 0, time.UTC)
	s := &reports.Service{Now: func() time.Time { return now }}
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	for _, c := range []struct {
		q        reports.Query
		from, to time.Time
		byMonth  bool
	}{
		{reports.Query{}, day(2026, 1, 10), day(2026, 1, 11), false},
		{reports.Query{Period: "week"}, day(2026, 1, 4), day(2026, 1, 11), false},
		{reports.Query{Period: "month"}, day(2026, 1, 1), day(2026, 1, 11), false},
		{reports.Query{Period: "last_month"}, day(2025, 12, 1), day(2026, 1, 1), false},
		{reports.Query{Period: "year"}, day(2026, 1, 1), day(2026, 1, 11), true},
		{reports.Query{DateMin: "2025-12-30"}, day(2025, 12, 30), day(2026, 1, 11), false},
		// More than 92 days apart: by month.
		{reports.Query{DateMin: "2025-01-01", DateMax: "2025-04-04"}, day(2025, 1, 1), day(2025, 4, 5), true},
		{reports.Query{DateMin: "2025-01-01", DateMax: "2025-04-03"}, day(2025, 1, 1), day(2025, 4, 4), false},
		// Dates win over a period, as WooCommerce reads them.
		{reports.Query{Period: "year", DateMin: "2025-06-01", DateMax: "2025-06-01"}, day(2025, 6, 1), day(2025, 6, 2), false},
	} {
		r, err := s.RangeOf(c.q)
		if err != nil || !r.From.Equal(c.from) || !r.To.Equal(c.to) || r.ByMonth != c.byMonth {
			t.Errorf("%+v: %v..%v by month %v, %v; want %v..%v %v", c.q, r.From, r.To, r.ByMonth, err, c.from, c.to, c.byMonth)
		}
	}
	for q, field := range map[reports.Query]string{
		{Period: "decade"}:                             "period",
		{DateMin: "2026-02-30"}:                        "date_min",
		{DateMax: "yesterday"}:                         "date_max",
		{DateMin: "2026-01-05", DateMax: "2026-01-04"}: "date_max",
		{DateMin: "2000-01-01", DateMax: "2026-01-01"}: "date_min",
	} {
		var ie *reports.InputError
		if _, err := s.RangeOf(q); !errors.As(err, &ie) || ie.Field != field {
			t.Errorf("%+v: %v, want a refusal of %s", q, err, field)
		}
	}
}

// fakeStore answers fixed days.
type fakeStore struct {
	reports.Store
	days []reports.Day
}

func (f fakeStore) SalesByDay(context.Context, string, []string, time.Time, time.Time) ([]reports.Day, error) {
	return f.days, nil
}

// A year's days are summed into its months, every month of the range
// listed (empty ones too), the totals the sum of all.
func TestSalesByMonth(t *testing.T) {
	now := time.Date(2026, 3, 15, 9, 0, 0, 0, time.UTC)
	s := &reports.Service{Now: func() time.Time { return now }, Store: fakeStore{days: []reports.Day{
		{Day: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), Orders: 1, Sales: 1000, Items: 2},
		{Day: time.Date(2026, 1, 31, 0, 0, 0, 0, time.UTC), Orders: 2, Sales: 500, Refunds: 100},
		{Day: time.Date(2026, 3, 15, 0, 0, 0, 0, time.UTC), Orders: 1, Sales: 250, Customers: 3},
	}}}
	got, err := s.Sales(context.Background(), reports.Query{Period: "year"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Buckets) != 3 || got.Buckets[0].Key != "2026-01" || got.Buckets[1].Key != "2026-02" || got.Buckets[2].Key != "2026-03" {
		t.Fatalf("buckets: %+v", got.Buckets)
	}
	if jan := got.Buckets[0]; jan.Orders != 3 || jan.Sales != 1500 || jan.Refunds != 100 || jan.Items != 2 || got.Buckets[1].Orders != 0 {
		t.Errorf("January: %+v, February %+v", jan, got.Buckets[1])
	}
	if got.Total.Orders != 4 || got.Total.Sales != 1750 || got.Total.Customers != 3 || got.Days() != 74 {
		t.Errorf("total: %+v over %d days", got.Total, got.Days())
	}
	if _, err := s.Sales(context.Background(), reports.Query{DateMin: "2026-02-01", DateMax: "2026-02-28"}); err == nil {
		t.Error("a day outside the range was taken")
	}
}
