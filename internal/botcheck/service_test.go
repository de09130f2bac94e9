package botcheck_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"vitrine/internal/botcheck"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

var secret = []byte("0123456789abcdef0123456789abcdef")

// clock is a movable Now.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func newService(store botcheck.Store, c *clock) *botcheck.Service {
	return &botcheck.Service{Store: store, Secret: secret, Purpose: "login", MaxNumber: 5000, Now: c.Now}
}

func newClock() *clock { return &clock{t: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)} }

// solved issues a challenge and solves it.
func solved(t testing.TB, s *botcheck.Service) (botcheck.Challenge, string) {
	t.Helper()
	c, err := s.Challenge(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	p, err := botcheck.Solve(c)
	if err != nil {
		t.Fatal(err)
	}
	return c, p
}

func spent(t *testing.T, db *sqlstore.DB) int64 {
	t.Helper()
	n, err := db.CountSpentBotcheck(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// decode and encode a payload, for tampering.
func decode(t *testing.T, p string) map[string]any {
	t.Helper()
	raw, err := base64.StdEncoding.DecodeString(p)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]any{}
	d := json.NewDecoder(strings.NewReader(string(raw)))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

func encode(t *testing.T, m map[string]any) string {
	t.Helper()
	raw, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(raw)
}

func TestVerifyOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		s := newService(db, newClock())
		_, p := solved(t, s)
		if err := s.Verify(ctx, p); err != nil {
			t.Fatalf("first use: %v", err)
		}
		if n := spent(t, db); n != 1 {
			t.Fatalf("spent rows = %d, want 1", n)
		}
		if err := s.Verify(ctx, p); !errors.Is(err, botcheck.ErrReplayed) {
			t.Fatalf("replay: %v, want ErrReplayed", err)
		}
		// The same solution re-encoded (other key order, other "took") is
		// the same challenge: still refused.
		m := decode(t, p)
		m["took"] = 1
		if err := s.Verify(ctx, encode(t, m)); !errors.Is(err, botcheck.ErrReplayed) {
			t.Fatalf("re-encoded replay: %v, want ErrReplayed", err)
		}
		if n := spent(t, db); n != 1 {
			t.Fatalf("spent rows after replays = %d, want 1", n)
		}
		// Another challenge is independent.
		_, p2 := solved(t, s)
		if err := s.Verify(ctx, p2); err != nil {
			t.Fatalf("second challenge: %v", err)
		}
	})
}

// Two instances on one database, 16 concurrent uses of one payload:
// exactly one is accepted.
func TestConcurrentUseOneWins(t *testing.T) {
	storetest.EachDSN(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		dbs := []*sqlstore.DB{storetest.OpenDSN(t, dsn), storetest.OpenDSN(t, dsn)}
		c := newClock()
		_, p := solved(t, newService(dbs[0], c))
		const n = 16
		errs := make([]error, n)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				errs[i] = newService(dbs[i%2], c).Verify(ctx, p)
			}()
		}
		close(start)
		wg.Wait()
		ok := 0
		for i, err := range errs {
			switch {
			case err == nil:
				ok++
			case !errors.Is(err, botcheck.ErrReplayed):
				t.Errorf("use %d: %v, want nil or ErrReplayed", i, err)
			}
		}
		if ok != 1 {
			t.Fatalf("%d uses accepted, want exactly 1", ok)
		}
		if n := spent(t, dbs[1]); n != 1 {
			t.Fatalf("spent rows = %d, want 1", n)
		}
	})
}

func TestTamperedRefused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		c := newClock()
		s := newService(db, c)
		ch, p := solved(t, s)
		flip := func(h string) string { // change the first hex digit
			b := []byte(h)
			if b[0] == '0' {
				b[0] = '1'
			} else {
				b[0] = '0'
			}
			return string(b)
		}
		with := func(k string, v any) string {
			m := decode(t, p)
			m[k] = v
			return encode(t, m)
		}
		num := decode(t, p)["number"].(json.Number)
		n, _ := num.Int64()
		later := strings.Replace(ch.Salt, "expires=", "expires=9", 1)
		cases := []struct {
			name    string
			payload string
			want    error
		}{
			{"signature", with("signature", flip(ch.Signature)), botcheck.ErrBadSignature},
			{"challenge", with("challenge", flip(ch.Challenge)), botcheck.ErrBadSignature},
			{"salt", with("salt", flip(ch.Salt)), botcheck.ErrWrongSolution},
			{"salt's expiry", with("salt", later), botcheck.ErrWrongSolution},
			{"number+1", with("number", n+1), botcheck.ErrWrongSolution},
			{"number 0", with("number", map[bool]int64{true: 1, false: 0}[n == 0]), botcheck.ErrWrongSolution},
		}
		for _, tc := range cases {
			if err := s.Verify(ctx, tc.payload); !errors.Is(err, tc.want) {
				t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
			}
		}
		// Another purpose or another secret signs with another key.
		other := newService(db, c)
		other.Purpose = "contact"
		if err := other.Verify(ctx, p); !errors.Is(err, botcheck.ErrBadSignature) {
			t.Errorf("other purpose: %v, want ErrBadSignature", err)
		}
		other = newService(db, c)
		other.Secret = []byte("another secret of 32 bytes......")
		if err := other.Verify(ctx, p); !errors.Is(err, botcheck.ErrBadSignature) {
			t.Errorf("other secret: %v, want ErrBadSignature", err)
		}
		if n := spent(t, db); n != 0 {
			t.Fatalf("refusals wrote %d spent rows", n)
		}
		// Refusals spent nothing: the genuine payload still passes.
		if err := s.Verify(ctx, p); err != nil {
			t.Fatalf("genuine after tampering: %v", err)
		}
	})
}

func TestExpiredRefused(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		c := newClock()
		s := newService(db, c)
		s.TTL = 2 * time.Minute
		ch, p := solved(t, s)
		if want := c.Now().Add(2 * time.Minute); !ch.Expires.Equal(want) {
			t.Fatalf("expires %v, want %v", ch.Expires, want)
		}
		_, atEdge := solved(t, s)
		c.Add(2*time.Minute + time.Second)
		if err := s.Verify(ctx, p); !errors.Is(err, botcheck.ErrExpired) {
			t.Fatalf("after expiry: %v, want ErrExpired", err)
		}
		if n := spent(t, db); n != 0 {
			t.Fatalf("expired payload wrote %d spent rows", n)
		}
		c.Add(-time.Second) // exactly at the expiry: still valid
		if err := s.Verify(ctx, atEdge); err != nil {
			t.Fatalf("at expiry: %v", err)
		}
	})
}

func TestMissingAndMalformed(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		s := newService(db, newClock())
		_, p := solved(t, s)
		good := decode(t, p)
		with := func(k string, v any) string {
			m := map[string]any{}
			for k, v := range good {
				m[k] = v
			}
			if v == nil {
				delete(m, k)
			} else {
				m[k] = v
			}
			return encode(t, m)
		}
		b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
		salt := good["salt"].(string)
		cases := []struct {
			name    string
			payload string
			want    error
		}{
			{"empty", "", botcheck.ErrMissing},
			{"blank", " \t\n", botcheck.ErrMissing},
			{"spec placeholder", "grecaptcha-missing", botcheck.ErrMissing},
			{"not base64", "!!!not base64!!!", botcheck.ErrMalformed},
			{"url-safe base64 of garbage", "-_-_", botcheck.ErrMalformed},
			{"not JSON", b64("hello"), botcheck.ErrMalformed},
			{"JSON array", b64("[1,2]"), botcheck.ErrMalformed},
			{"empty object", b64("{}"), botcheck.ErrMalformed},
			{"too long", strings.Repeat("A", botcheck.MaxPayloadLen+4), botcheck.ErrMalformed},
			{"SHA-1", with("algorithm", "SHA-1"), botcheck.ErrMalformed},
			{"no algorithm", with("algorithm", nil), botcheck.ErrMalformed},
			{"negative number", with("number", -1), botcheck.ErrMalformed},
			{"fractional number", with("number", 1.5), botcheck.ErrMalformed},
			{"number as string", with("number", "12"), botcheck.ErrMalformed},
			{"short signature", with("signature", "abcd"), botcheck.ErrMalformed},
			{"upper-case signature", with("signature", strings.ToUpper(good["signature"].(string))), botcheck.ErrMalformed},
			{"no salt", with("salt", nil), botcheck.ErrMalformed},
			{"salt without expiry", with("salt", strings.Split(salt, "?")[0]), botcheck.ErrMalformed},
			{"salt with bad expiry", with("salt", strings.Split(salt, "?")[0]+"?expires=soon&"), botcheck.ErrMalformed},
		}
		for _, tc := range cases {
			err := s.Verify(ctx, tc.payload)
			if !errors.Is(err, tc.want) {
				t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
			}
			if !botcheck.IsRefusal(err) {
				t.Errorf("%s: %v is not a refusal", tc.name, err)
			}
		}
		if n := spent(t, db); n != 0 {
			t.Fatalf("bad payloads wrote %d spent rows", n)
		}
	})
}

func TestDeleteExpired(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		c := newClock()
		s := newService(db, c)
		_, old := solved(t, s)
		if err := s.Verify(ctx, old); err != nil {
			t.Fatal(err)
		}
		c.Add(5 * time.Minute)
		_, recent := solved(t, s)
		if err := s.Verify(ctx, recent); err != nil {
			t.Fatal(err)
		}
		// The old challenge expired 30 s ago: kept for the clock skew.
		c.Add(5*time.Minute + 30*time.Second)
		if n, err := s.DeleteExpired(ctx); err != nil || n != 0 {
			t.Fatalf("within the skew: deleted %d, %v; want 0", n, err)
		}
		c.Add(botcheck.ClockSkew)
		if n, err := s.DeleteExpired(ctx); err != nil || n != 1 {
			t.Fatalf("deleted %d, %v; want 1", n, err)
		}
		if n := spent(t, db); n != 1 {
			t.Fatalf("spent rows = %d, want 1 (the recent one)", n)
		}
		if err := s.Verify(ctx, recent); !errors.Is(err, botcheck.ErrReplayed) {
			t.Fatalf("recent after cleanup: %v, want ErrReplayed", err)
		}
		if err := s.Verify(ctx, old); !errors.Is(err, botcheck.ErrExpired) {
			t.Fatalf("old after cleanup: %v, want ErrExpired", err)
		}
	})
}

func TestChallengeShape(t *testing.T) {
	c := newClock()
	s := &botcheck.Service{Secret: secret, Now: c.Now} // defaults
	ch, err := s.Challenge(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(ch)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if m["algorithm"] != "SHA-256" || m["maxnumber"] != float64(botcheck.DefaultMaxNumber) || m["maxNumber"] != float64(botcheck.DefaultMaxNumber) {
		t.Fatalf("challenge JSON %s", raw)
	}
	exp := c.Now().Add(botcheck.DefaultTTL).Unix()
	if salt, _ := m["salt"].(string); !strings.Contains(salt, "?expires="+itoa(exp)+"&") {
		t.Fatalf("salt %q lacks expires=%d", salt, exp)
	}
	for _, k := range []string{"challenge", "signature"} {
		if v, _ := m[k].(string); len(v) != 64 {
			t.Fatalf("%s = %q", k, v)
		}
	}
	ch2, _ := s.Challenge(context.Background())
	if ch2.Salt == ch.Salt || ch2.Challenge == ch.Challenge {
		t.Fatal("two challenges are alike")
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

func TestNoSecret(t *testing.T) {
	for _, sec := range [][]byte{nil, []byte("short")} {
		s := &botcheck.Service{Secret: sec, Store: failStore{}}
		if _, err := s.Challenge(context.Background()); !errors.Is(err, botcheck.ErrNoSecret) {
			t.Fatalf("Challenge with secret %q: %v", sec, err)
		}
		err := s.Verify(context.Background(), "x")
		if !errors.Is(err, botcheck.ErrNoSecret) || botcheck.IsRefusal(err) {
			t.Fatalf("Verify with secret %q: %v", sec, err)
		}
	}
}

// failStore fails every write: Verify fails closed with an error that is
// not a refusal (the adapters answer it as unavailable, never as passed).
type failStore struct{}

func (failStore) SpendBotcheck(context.Context, string, time.Time) (bool, error) {
	return false, errors.New("store down")
}
func (failStore) DeleteSpentBotcheck(context.Context, time.Time) (int64, error) {
	return 0, errors.New("store down")
}

func TestStoreFailureFailsClosed(t *testing.T) {
	s := newService(failStore{}, newClock())
	_, p := solved(t, s)
	err := s.Verify(context.Background(), p)
	if err == nil || botcheck.IsRefusal(err) {
		t.Fatalf("Verify on a failing store: %v, want a non-refusal error", err)
	}
}
