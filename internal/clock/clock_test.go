package clock

import (
	"testing"
	"time"
)

func TestNow(t *testing.T) {
	paris := time.FixedZone("CET", 3600)
	at := time.Date(2027, 3, 1, 12, 0, 0, 0, paris)
	fixed := func() time.Time { return at }
	if got := Now(fixed); !got.Equal(at) || got.Location() != paris {
		t.Errorf("Now(fixed) = %v, want %v as given", got, at)
	}
	if got := UTC(fixed); !got.Equal(at) || got.Location() != time.UTC {
		t.Errorf("UTC(fixed) = %v, want %v in UTC", got, at)
	}
	before := time.Now()
	got := Now(nil)
	if got.Location() != time.UTC || got.Before(before.Add(-time.Second)) || got.After(time.Now().Add(time.Second)) {
		t.Errorf("Now(nil) = %v, want the machine's time in UTC", got)
	}
}
