package contact_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"vitrine/internal/contact"
	"vitrine/internal/storage/space"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// kib is a PDF of n KiB (padding after its trailer: still sniffed as one).
func kib(n int) []byte {
	return append(append([]byte{}, pdf...), bytes.Repeat([]byte(" "), n<<10-len(pdf))...)
}

func withFile(h *harness, data []byte) contact.Submission {
	sub := good(h)
	sub.Files = map[string][]contact.Upload{"your-file": {{Name: "a.pdf", Content: data}}}
	return sub
}

// The files' quota counts what the store keeps: files that would go over
// it are refused (stored and mailed nowhere, and the visitor's allowance
// kept), messages without files still go, and files the retention purged
// no longer count.
func TestFilesQuota(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		h := newHarness(t, db)
		h.svc.FilesQuota = 250 << 10
		h.svc.RateLimit = 4
		for i := range 2 {
			if r, err := h.svc.Submit(ctx, withFile(h, kib(100))); err != nil || r.Status != contact.StatusMailSent {
				t.Fatalf("file %d: %+v %v", i, r, err)
			}
		}
		before, mails := h.counts(), h.mails()
		_, err := h.svc.Submit(ctx, withFile(h, kib(100)))
		var qe *space.QuotaError
		if !errors.Is(err, space.ErrQuota) || !errors.As(err, &qe) || qe.Used != 200<<10 || qe.Quota != 250<<10 || qe.Size != 100<<10 {
			t.Fatalf("over the quota: %v", err)
		}
		if after := h.counts(); after != before || h.mails() != mails {
			t.Fatalf("a refusal changed the store: %+v -> %+v, %d -> %d mails", before, after, mails, h.mails())
		}
		if u, err := h.svc.FileUsage(ctx); err != nil || u.Used != 200<<10 || u.Quota != 250<<10 {
			t.Fatalf("usage: %+v %v", u, err)
		}
		// A message without a file fits; the refusal did not use the
		// allowance (4 per hour: 2 sent + this one + one more).
		for i := range 2 {
			if r, err := h.svc.Submit(ctx, good(h)); err != nil || r.Status != contact.StatusMailSent {
				t.Fatalf("text %d: %+v %v", i, r, err)
			}
		}
		// The retention frees the room.
		h.svc.RateLimit = 10
		h.now = h.now.Add(contact.DefaultFileRetention + time.Second)
		if n, err := h.svc.PurgeFiles(ctx); err != nil || n != 2 {
			t.Fatalf("purge: %d %v", n, err)
		}
		if r, err := h.svc.Submit(ctx, withFile(h, kib(100))); err != nil || r.Status != contact.StatusMailSent {
			t.Fatalf("after the purge: %+v %v", r, err)
		}
	})
}

// Concurrent submissions cannot pass the quota together: the store
// counts and adds under one lock (PostgreSQL's advisory lock, SQLite's
// one writer).
func TestFilesQuotaConcurrent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		const n, fits = 12, 4
		size := int64(len(kib(10)))
		var wg sync.WaitGroup
		var mu sync.Mutex
		stored, refused := 0, 0
		start := make(chan struct{})
		for i := range n {
			wg.Go(func() {
				<-start
				st := &contact.Stored{FormID: 1, UnitTag: "wpcf7-f1-o1", Status: contact.InboxNew, CreatedAt: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC),
					Values: map[string][]string{"your-message": {fmt.Sprint(i)}},
					Files:  []contact.StoredFile{{Field: "your-file", Name: "a.pdf", MIME: "application/pdf", Size: size, Content: kib(10)}}}
				_, err := db.InsertContactSubmission(ctx, st, fits*size)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					stored++
				case errors.Is(err, space.ErrQuota):
					refused++
				default:
					t.Error(err)
				}
			})
		}
		close(start)
		wg.Wait()
		used, err := db.ContactFileBytes(ctx)
		if stored != fits || refused != n-fits || err != nil || used != fits*size {
			t.Fatalf("stored %d, refused %d, %d bytes kept (%v)", stored, refused, used, err)
		}
		c, err := db.CountContact(ctx)
		if err != nil || c.Submissions != fits {
			t.Fatalf("%+v %v", c, err)
		}
	})
}

// While the store's disk is below the floor, files are refused (nothing
// stored, nothing mailed); messages without files still go. The floor is
// checked on the real file system: one above any disk's size is always
// low.
func TestFilesRefusedWhileDiskLow(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		h := newHarness(t, db)
		h.svc.Disk = &space.Disk{Dir: t.TempDir(), Floor: 1 << 62}
		if _, err := h.svc.Submit(ctx, withFile(h, kib(10))); !errors.Is(err, space.ErrDiskLow) {
			t.Fatalf("disk low: %v", err)
		}
		if c := h.counts(); c.Submissions != 0 || h.mails() != 0 {
			t.Fatalf("stored %+v, %d mails", c, h.mails())
		}
		if r, err := h.svc.Submit(ctx, good(h)); err != nil || r.Status != contact.StatusMailSent {
			t.Fatalf("text: %+v %v", r, err)
		}
		h.svc.Disk.Floor = 1
		if r, err := h.svc.Submit(ctx, withFile(h, kib(10))); err != nil || r.Status != contact.StatusMailSent {
			t.Fatalf("disk fine: %+v %v", r, err)
		}
	})
}
