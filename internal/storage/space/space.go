// Package space bounds what uploads may take of the machine's disk: a
// floor of free space under the store's directory, below which uploads
// are refused (503 with Retry-After), and the quota error the upload
// capabilities (contact files, the media library) answer 507 with.
//
// The floor keeps room for the shop's own small writes (orders, carts,
// text messages, the outbox): only writes that carry uploaded files stop
// at it.
package space

import (
	"errors"
	"fmt"
	"time"
)

// Errors.
var (
	// ErrDiskLow: the free space under the store's directory is below
	// the floor.
	ErrDiskLow = errors.New("space: free disk space is below the floor")
	// ErrQuota: the upload would take a capability's stored files over
	// its quota (a *QuotaError carries the figures).
	ErrQuota = errors.New("space: storage quota reached")
)

// RetryAfter is what a refusal for a low disk tells the client to wait:
// space comes back when an operator or the retention frees it, not by
// itself within seconds.
const RetryAfter = 10 * time.Minute

// QuotaError is a refusal over a quota; it is ErrQuota.
type QuotaError struct {
	Used, Quota, Size int64 // bytes: held now, allowed, the upload's
}

func (e *QuotaError) Error() string {
	return fmt.Sprintf("space: %d bytes held of a %d-byte quota; %d more do not fit", e.Used, e.Quota, e.Size)
}

// Is makes a *QuotaError match ErrQuota.
func (e *QuotaError) Is(target error) bool { return target == ErrQuota }

// Disk checks the free space of the file system holding Dir. The zero
// value (or a nil *Disk) checks nothing: PostgreSQL keeps its files on
// the database server, whose disk is its operator's to watch.
type Disk struct {
	Dir   string // the store's directory ("" : no check)
	Floor int64  // bytes that must stay free (0: no check)
}

// Usage is one quota's figures for the admin: bytes held and allowed (0:
// no quota).
type Usage struct {
	Used  int64 `json:"used"`
	Quota int64 `json:"quota"`
}

// DiskUsage is the disk's figures for the admin; Checked is false when
// nothing is checked (no directory, no floor, or a system without
// statfs).
type DiskUsage struct {
	Checked bool  `json:"checked"`
	Free    int64 `json:"free"`
	Floor   int64 `json:"floor"`
	Low     bool  `json:"low"`
}

// Usage reports the free space and whether it is below the floor.
func (d *Disk) Usage() (DiskUsage, error) {
	if d == nil || d.Dir == "" || d.Floor <= 0 {
		return DiskUsage{}, nil
	}
	free, ok, err := freeBytes(d.Dir)
	if err != nil {
		return DiskUsage{}, fmt.Errorf("space: free space of %s: %w", d.Dir, err)
	}
	if !ok {
		return DiskUsage{}, nil
	}
	return DiskUsage{Checked: true, Free: free, Floor: d.Floor, Low: free < d.Floor}, nil
}

// Check is ErrDiskLow when the free space is below the floor. A failure
// to read it is returned as such (the caller refuses the upload: fail
// closed).
func (d *Disk) Check() error {
	u, err := d.Usage()
	if err != nil {
		return err
	}
	if u.Low {
		return fmt.Errorf("%w: %d MB free, %d MB kept free", ErrDiskLow, u.Free>>20, u.Floor>>20)
	}
	return nil
}
