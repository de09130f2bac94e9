package visits_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"vitrine/internal/consent"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
	"vitrine/internal/visits"
)

const browser = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36"

// at returns a settable clock.
func at(t time.Time) (*time.Time, func() time.Time) {
	now := t
	return &now, func() time.Time { return now }
}

func TestSessionsCountedPerUTCHourAndReadInTheShopsZone(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		ny, _ := time.LoadLocation("America/New_York")
		// 1 November 2026 is the day New York leaves DST: 25 hours, from
		// 04:00 UTC to 05:00 UTC the next day.
		now, clock := at(time.Date(2026, 11, 1, 3, 59, 0, 0, time.UTC)) // 31 Oct 23:59 in New York
		s := &visits.Service{Store: db, Now: clock}
		start := func(n int) {
			t.Helper()
			for range n {
				if err := s.Record(ctx, visits.Start{Client: "192.0.2.1", UserAgent: browser}); err != nil {
					t.Fatal(err)
				}
			}
		}
		start(2) // the day before, in New York
		*now = time.Date(2026, 11, 1, 4, 0, 0, 0, time.UTC)
		start(3) // midnight in New York
		*now = time.Date(2026, 11, 1, 6, 30, 0, 0, time.UTC)
		start(1) // 01:30 EDT
		*now = time.Date(2026, 11, 1, 6, 59, 59, 0, time.UTC)
		start(1) // the same UTC hour
		*now = time.Date(2026, 11, 2, 4, 30, 0, 0, time.UTC)
		start(4) // 23:30 EST, the 25th hour of the day
		*now = time.Date(2026, 11, 2, 5, 0, 0, 0, time.UTC)
		start(5) // 2 November in New York

		hours, err := db.VisitsHours(ctx, 0, 1<<40)
		if err != nil {
			t.Fatal(err)
		}
		want := []visits.Hour{{Start: time.Date(2026, 11, 1, 3, 0, 0, 0, time.UTC).Unix(), Sessions: 2},
			{Start: time.Date(2026, 11, 1, 4, 0, 0, 0, time.UTC).Unix(), Sessions: 3},
			{Start: time.Date(2026, 11, 1, 6, 0, 0, 0, time.UTC).Unix(), Sessions: 2},
			{Start: time.Date(2026, 11, 2, 4, 0, 0, 0, time.UTC).Unix(), Sessions: 4},
			{Start: time.Date(2026, 11, 2, 5, 0, 0, 0, time.UTC).Unix(), Sessions: 5}}
		if len(hours) != len(want) {
			t.Fatalf("hours = %+v, want %+v", hours, want)
		}
		for i := range want {
			if hours[i] != want[i] {
				t.Errorf("hour %d = %+v, want %+v", i, hours[i], want[i])
			}
		}

		day := func(y int, m time.Month, d int, loc *time.Location) (time.Time, time.Time) {
			return time.Date(y, m, d, 0, 0, 0, 0, loc), time.Date(y, m, d+1, 0, 0, 0, 0, loc)
		}
		for _, c := range []struct {
			name     string
			loc      *time.Location
			d        int
			sessions int64
		}{
			{"1 Nov in New York (25 hours)", ny, 1, 3 + 2 + 4},
			{"31 Oct in New York", ny, 31, 2},
			{"2 Nov in New York", ny, 2, 5},
			{"1 Nov in UTC", time.UTC, 1, 2 + 3 + 2},
			{"2 Nov in UTC", time.UTC, 2, 4 + 5},
		} {
			m := time.November
			if c.d == 31 {
				m = time.October
			}
			from, to := day(2026, m, c.d, c.loc)
			if n, err := s.Count(ctx, from, to); err != nil || n != c.sessions {
				t.Errorf("%s: %d sessions (err %v), want %d", c.name, n, err, c.sessions)
			}
		}

		// Per interval: the New York day in its hours' spans, and a
		// report's end one second after its last second.
		from, to := day(2026, time.November, 1, ny)
		mid := time.Date(2026, 11, 1, 12, 0, 0, 0, ny)
		total, each, err := s.Spans(ctx, from, to, [][2]time.Time{{from, mid}, {mid, to}})
		if err != nil || total != 9 || len(each) != 2 || each[0] != 5 || each[1] != 4 {
			t.Errorf("spans: total %d each %v err %v, want 9 [5 4]", total, each, err)
		}
		// An hour counts where it starts: a range ending inside an hour
		// has it, a range starting inside an hour leaves it to the one
		// before; the two still add up to the day.
		cut := time.Date(2026, 11, 1, 6, 30, 1, 0, time.UTC)
		if n, _ := s.Count(ctx, from, cut); n != 5 {
			t.Errorf("to 06:30:01 UTC: %d, want 5 (the 06:00 hour starts before it)", n)
		}
		if n, _ := s.Count(ctx, cut, to); n != 4 {
			t.Errorf("from 06:30:01 UTC: %d, want 4", n)
		}
		if n, _ := s.Count(ctx, time.Date(2026, 11, 1, 6, 0, 0, 0, time.UTC), time.Date(2026, 11, 1, 7, 0, 0, 0, time.UTC)); n != 2 {
			t.Errorf("the 06:00 UTC hour: %d, want 2", n)
		}
		if n, _ := s.Count(ctx, to, from); n != 0 {
			t.Errorf("an empty range: %d", n)
		}
	})
}

func TestRefusedStartsCountNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		_, clock := at(time.Date(2027, 2, 3, 10, 15, 0, 0, time.UTC))
		on, asked := true, false
		s := &visits.Service{Store: db, Now: clock, Enabled: func() bool { return on }, ConsentAsked: func() bool { return asked },
			Limiter: &visits.Limiter{Burst: 2, Every: time.Hour, MaxClients: 10}}
		ok := visits.Start{Client: "198.51.100.7", UserAgent: browser}
		cases := []struct {
			name string
			in   visits.Start
			set  func()
			want *visits.Error
		}{
			{"attribution off", ok, func() { on = false }, visits.ErrOff},
			{"Global Privacy Control", visits.Start{Client: ok.Client, UserAgent: browser, Consent: consent.Signal{GPC: true}}, nil, visits.ErrNoConsent},
			{"a Reject", visits.Start{Client: ok.Client, UserAgent: browser, Consent: consent.Signal{Choice: consent.Denied}}, nil, visits.ErrNoConsent},
			{"no choice where the shop asks", ok, func() { asked = true }, visits.ErrNoConsent},
			{"a crawler", visits.Start{Client: ok.Client, UserAgent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"}, nil, visits.ErrRobot},
			{"no user agent", visits.Start{Client: ok.Client}, nil, visits.ErrRobot},
			{"a headless browser", visits.Start{Client: ok.Client, UserAgent: "Mozilla/5.0 HeadlessChrome/131.0"}, nil, visits.ErrRobot},
		}
		for _, c := range cases {
			on, asked = true, false
			if c.set != nil {
				c.set()
			}
			if err := s.Record(ctx, c.in); err != c.want {
				t.Errorf("%s: err %v, want %v", c.name, err, c.want)
			}
		}
		on, asked = true, true
		granted := visits.Start{Client: ok.Client, UserAgent: browser, Consent: consent.Signal{Choice: consent.Granted}}
		for i := range 2 {
			if err := s.Record(ctx, granted); err != nil {
				t.Fatalf("start %d with consent: %v", i, err)
			}
		}
		var e *visits.Error
		if err := s.Record(ctx, granted); !errors.As(err, &e) || e.Status != 429 || e.RetryAfter <= 0 {
			t.Fatalf("third start from one address: %v, want 429 with a wait", err)
		}
		if n, err := s.Count(ctx, time.Unix(0, 0), time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)); err != nil || n != 2 {
			t.Fatalf("counted %d (err %v), want only the 2 accepted starts", n, err)
		}
	})
}

func TestIsRobot(t *testing.T) {
	for ua, want := range map[string]bool{
		browser: false,
		"Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1":     false,
		"Mozilla/5.0 (Linux; Android 9; CUBOT_X20) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36":                                              false,
		"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)":                                                                     true,
		"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X) Chrome/131.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)": true,
		"curl/8.5.0":           true,
		"python-requests/2.32": true,
		"   ":                  true,
	} {
		if got := visits.IsRobot(ua); got != want {
			t.Errorf("IsRobot(%q) = %v, want %v", ua, got, want)
		}
	}
}
