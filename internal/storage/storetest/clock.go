package storetest

import (
	"sync"
	"time"
)

// Clock is a test's clock: it starts at a fixed time and runs with the
// real one from there, so a test seeded at a fixed time reads with the
// same calendar on any day it runs, while time still passes for what
// waits on it (rate-limit windows, change polls). Add moves it on. A
// test that seeds the store gives it the same clock (sqlstore.DB.SetClock):
// the store evaluates the on-sale state and the price listings sort by at
// its own time.
type Clock struct {
	mu     sync.Mutex
	at     time.Time // the clock's time when the real clock read start
	start  time.Time
	frozen bool
}

// NewClock is a running clock that reads at now.
func NewClock(at time.Time) *Clock {
	return &Clock{at: at.UTC(), start: time.Now()}
}

// FrozenClock is a clock that reads at only until Add or Set moves it.
func FrozenClock(at time.Time) *Clock {
	return &Clock{at: at.UTC(), start: time.Now(), frozen: true}
}

// Now reads the clock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.frozen {
		return c.at
	}
	return c.at.Add(time.Since(c.start))
}

// Add moves the clock on by d.
func (c *Clock) Add(d time.Duration) {
	c.mu.Lock()
	c.at = c.at.Add(d)
	c.mu.Unlock()
}

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	c.at, c.start = t.UTC(), time.Now()
	c.mu.Unlock()
}
