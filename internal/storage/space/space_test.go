package space

import (
	"errors"
	"testing"
)

// The floor is checked against the real file system: a floor above any
// disk's size is always low, a floor of one byte never is, and no
// directory or no floor checks nothing.
func TestDiskFloor(t *testing.T) {
	dir := t.TempDir()
	if err := (&Disk{Dir: dir, Floor: 1}).Check(); err != nil {
		t.Fatalf("1-byte floor: %v", err)
	}
	huge := &Disk{Dir: dir, Floor: 1 << 62}
	if err := huge.Check(); !errors.Is(err, ErrDiskLow) {
		t.Fatalf("huge floor: %v", err)
	}
	if u, err := huge.Usage(); err != nil || !u.Checked || !u.Low || u.Free <= 0 || u.Floor != 1<<62 {
		t.Fatalf("usage: %+v %v", u, err)
	}
	for _, d := range []*Disk{nil, {}, {Dir: dir}, {Floor: 1 << 62}} {
		if err := d.Check(); err != nil {
			t.Errorf("%+v: %v", d, err)
		}
	}
	// A directory that is not there: the check fails closed.
	if err := (&Disk{Dir: dir + "/gone", Floor: 1}).Check(); err == nil || errors.Is(err, ErrDiskLow) {
		t.Fatalf("missing directory: %v", err)
	}
}

func TestQuotaError(t *testing.T) {
	var err error = &QuotaError{Used: 10, Quota: 12, Size: 5}
	if !errors.Is(err, ErrQuota) || errors.Is(err, ErrDiskLow) {
		t.Fatal(err)
	}
}
