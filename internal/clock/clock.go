// Package clock is how a service reads the time: its injected clock when it
// has one (tests, and the shop's clock the composition shares), else the
// machine's, in UTC.
package clock

import "time"

// Now is f's time, or the machine's in UTC when f is nil.
func Now(f func() time.Time) time.Time {
	if f != nil {
		return f()
	}
	return time.Now().UTC()
}

// UTC is Now in UTC, whatever location f answers in.
func UTC(f func() time.Time) time.Time { return Now(f).UTC() }
