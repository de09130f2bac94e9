package visits

import (
	"fmt"
	"testing"
	"time"
)

func TestLimiterPerAddressAndForAll(t *testing.T) {
	t0 := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	l := &Limiter{Burst: 3, Every: time.Minute, AllBurst: 5, AllEvery: time.Second, MaxClients: 100}
	for i := range 3 {
		if _, ok := l.Allow("203.0.113.9", t0); !ok {
			t.Fatalf("start %d of the burst refused", i)
		}
	}
	wait, ok := l.Allow("203.0.113.9", t0)
	if ok || wait != time.Minute {
		t.Fatalf("fourth start: ok=%v wait=%v, want refused for a minute", ok, wait)
	}
	// Another address has its own bucket; the same /64 shares one.
	if _, ok := l.Allow("2001:db8:1:2::1", t0); !ok {
		t.Fatal("another address refused")
	}
	if _, ok := l.Allow("2001:db8:1:2:ffff::9", t0); !ok {
		t.Fatal("the /64's second start refused")
	}
	// Five taken for all: the sixth from a fresh address waits for the
	// instance's bucket, and does not spend its own token.
	if _, ok := l.Allow("192.0.2.50", t0); ok {
		t.Fatal("the instance's burst was exceeded")
	}
	t1 := t0.Add(time.Second)
	if _, ok := l.Allow("192.0.2.50", t1); !ok {
		t.Fatal("the instance's bucket did not refill")
	}
	// A minute later the first address has one start back, not more.
	t2 := t0.Add(time.Minute + 10*time.Second)
	if _, ok := l.Allow("203.0.113.9", t2); !ok {
		t.Fatal("no start back after a minute")
	}
	if _, ok := l.Allow("203.0.113.9", t2); ok {
		t.Fatal("two starts back after a minute")
	}
}

func TestLimiterMemoryIsBounded(t *testing.T) {
	t0 := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	l := &Limiter{Burst: 2, Every: time.Minute, MaxClients: 50}
	for i := range 50 {
		if _, ok := l.Allow(fmt.Sprintf("10.0.%d.%d", i/250, i%250), t0); !ok {
			t.Fatalf("address %d refused", i)
		}
	}
	// Full of addresses still refilling: a new one is refused, memory kept.
	if _, ok := l.Allow("10.9.9.9", t0); ok || l.Clients() != 50 {
		t.Fatalf("a 51st address: ok=%v, %d tracked", ok, l.Clients())
	}
	// Once they have refilled they are forgotten and the new one is taken.
	if _, ok := l.Allow("10.9.9.9", t0.Add(2*time.Minute)); !ok || l.Clients() != 1 {
		t.Fatalf("after refilling: ok=%v, %d tracked, want the new one alone", ok, l.Clients())
	}
	// Garbage addresses share one bucket.
	for _, a := range []string{"", "not an address", "999.1.1.1"} {
		l.Allow(a, t0.Add(3*time.Minute))
	}
	if l.Clients() != 2 {
		t.Fatalf("unreadable addresses made %d buckets, want one shared", l.Clients()-1)
	}
}
