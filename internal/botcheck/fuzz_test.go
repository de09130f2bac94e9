package botcheck_test

import (
	"context"
	"encoding/base64"
	"sync"
	"testing"
	"time"

	altcha "github.com/altcha-org/altcha-lib-go"

	"vitrine/internal/botcheck"
)

// memStore is an in-memory Store for the fuzz target and benchmarks.
type memStore struct {
	mu    sync.Mutex
	spent map[string]time.Time
}

func (m *memStore) SpendBotcheck(_ context.Context, sig string, exp time.Time) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.spent[sig]; ok {
		return false, nil
	}
	m.spent[sig] = exp
	return true, nil
}

func (m *memStore) DeleteSpentBotcheck(_ context.Context, before time.Time) (int64, error) {
	return 0, nil
}

// FuzzVerify: Verify never panics and never accepts what the fuzzer makes.
// The seed's genuine payload is spent before fuzzing, so any re-encoding of
// it is a replay, and any other challenge needs a signature the fuzzer
// cannot make.
func FuzzVerify(f *testing.F) {
	c := newClock()
	s := newService(&memStore{spent: map[string]time.Time{}}, c)
	// The genuine payload is the same in every fuzzing process (a fixed
	// salt and number), so each process has spent the seed it mutates.
	exp := c.Now().Add(time.Minute)
	num := int64(1234)
	ch, err := altcha.CreateChallenge(altcha.ChallengeOptions{
		Algorithm: altcha.SHA256, HMACKey: botcheck.DeriveKey(secret, s.Purpose),
		Salt: "00112233445566778899aabb", Number: &num, Expires: &exp,
	})
	if err != nil {
		f.Fatal(err)
	}
	genuine, err := botcheck.Solve(botcheck.Challenge{
		Algorithm: ch.Algorithm, Challenge: ch.Challenge, MaxNumber: 2000, Salt: ch.Salt, Signature: ch.Signature,
	})
	if err != nil {
		f.Fatal(err)
	}
	if err := s.Verify(context.Background(), genuine); err != nil {
		f.Fatal(err)
	}
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	for _, seed := range []string{
		genuine, "", "grecaptcha-missing", "null", b64("null"), b64("{}"), b64("[]"),
		b64(`{"algorithm":"SHA-256","challenge":"","number":0,"salt":"","signature":""}`),
		b64(`{"algorithm":"SHA-256","number":1e400}`), b64(`{"number":-9223372036854775808}`),
		b64(`{"salt":"?expires=-1&"}`), b64(`{"salt":"a?expires=99999999999999999999&"}`),
		"====", "\x00\xff", b64("\"" + genuine + "\""),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, payload string) {
		err := s.Verify(context.Background(), payload)
		if err == nil {
			t.Fatalf("accepted %q", payload)
		}
		if !botcheck.IsRefusal(err) {
			t.Fatalf("%q: %v is not a refusal", payload, err)
		}
	})
}

// BenchmarkSolve is the work of one solve at the default maximum, as the
// widget does it (one SHA-256 per number tried), on the server's CPU: the
// average (a random secret number) and the worst case (the maximum).
func BenchmarkSolve(b *testing.B) {
	s := &botcheck.Service{Secret: secret}
	b.Run("average", func(b *testing.B) {
		for b.Loop() {
			ch, err := s.Challenge(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			if _, err := botcheck.Solve(ch); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("worst", func(b *testing.B) {
		max := botcheck.DefaultMaxNumber
		exp := time.Now().Add(time.Hour)
		ch, err := altcha.CreateChallenge(altcha.ChallengeOptions{
			Algorithm: altcha.SHA256, MaxNumber: max, HMACKey: "k", Number: &max, Expires: &exp,
		})
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			sol, err := altcha.SolveChallenge(ch.Challenge, ch.Salt, altcha.SHA256, int(max), 0, nil)
			if err != nil || sol == nil || sol.Number != int(max) {
				b.Fatalf("solution %v, %v", sol, err)
			}
		}
		b.ReportMetric(float64(max)/(float64(b.Elapsed().Seconds())/float64(b.N)), "hashes/s")
	})
}

// BenchmarkVerify is the server's cost of one accepted payload (the store
// in memory).
func BenchmarkVerify(b *testing.B) {
	c := newClock()
	s := newService(&memStore{spent: map[string]time.Time{}}, c)
	payloads := make([]string, 0, 256)
	for range 256 {
		_, p := solved(b, s)
		payloads = append(payloads, p)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if i == len(payloads) {
			b.StopTimer()
			s.Store = &memStore{spent: map[string]time.Time{}}
			i = 0
			b.StartTimer()
		}
		if err := s.Verify(context.Background(), payloads[i]); err != nil {
			b.Fatal(i, err)
		}
	}
}
