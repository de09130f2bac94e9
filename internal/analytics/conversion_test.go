package analytics

import (
	"context"
	"testing"
	"time"
)

type fixedSessions struct {
	n        int64
	from, to time.Time
}

func (f *fixedSessions) Spans(_ context.Context, from, to time.Time, _ [][2]time.Time) (int64, []int64, error) {
	f.from, f.to = from, to
	return f.n, nil, nil
}

func TestConversion(t *testing.T) {
	for _, c := range []struct {
		orders, sessions int64
		want             float64 // -1: no rate
	}{
		{3, 200, 1.5}, {1, 3, 33.33}, {2, 3, 66.67}, {0, 50, 0}, {5, 0, -1}, {0, 0, -1}, {7, 5, 140},
	} {
		got := ConversionOf(c.orders, c.sessions)
		if c.want < 0 {
			if got.Rate != nil {
				t.Errorf("%d ÷ %d: %v, want no rate", c.orders, c.sessions, *got.Rate)
			}
			continue
		}
		if got.Rate == nil || *got.Rate != c.want {
			t.Errorf("%d ÷ %d: %v, want %v", c.orders, c.sessions, got.Rate, c.want)
		}
	}
	// The service reads the sessions of the report's own period.
	ny, _ := time.LoadLocation("America/New_York")
	p := Period{From: time.Date(2026, 3, 8, 0, 0, 0, 0, ny), To: time.Date(2026, 3, 9, 0, 0, 0, 0, ny)}
	ss := &fixedSessions{n: 40}
	s := &Service{Sessions: ss}
	c, err := s.Conversion(context.Background(), p, 2)
	if err != nil || c.Rate == nil || *c.Rate != 5 || !ss.from.Equal(p.From) || !ss.to.Equal(p.To) {
		t.Fatalf("conversion: %+v %v over %v–%v", c, err, ss.from, ss.to)
	}
	if c, _ := (&Service{}).Conversion(context.Background(), p, 2); c.Rate != nil {
		t.Fatal("a rate without a session counter")
	}
}
