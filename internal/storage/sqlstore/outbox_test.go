package sqlstore_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"vitrine/internal/mail"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

func TestOutboxStore(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

		// Idempotent enqueue: the same dedupe key records one row.
		for range 2 {
			if err := db.EnqueueMail(ctx, mail.KindOrderConfirmation, "17", "order:17:confirmation", now); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.EnqueueMail(ctx, mail.KindNewOrder, "17", "order:17:new", now.Add(time.Second)); err != nil {
			t.Fatal(err)
		}
		// Not due yet: recorded for later.
		if err := db.EnqueueMail(ctx, mail.KindNewOrder, "18", "order:18:new", now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if c, err := db.CountMail(ctx); err != nil || c != (mail.Counts{Queued: 3}) {
			t.Fatalf("counts: %+v %v", c, err)
		}

		// Claim takes the due rows, oldest first, adds an attempt and leases them.
		got, err := db.ClaimMail(ctx, now.Add(2*time.Second), time.Minute, 10)
		if err != nil || len(got) != 2 {
			t.Fatalf("claim: %+v %v", got, err)
		}
		conf, notice := got[0], got[1]
		if conf.Kind != mail.KindOrderConfirmation || conf.Ref != "17" || conf.DedupeKey != "order:17:confirmation" ||
			conf.Attempts != 1 || !conf.NextAttemptAt.Equal(now.Add(62*time.Second)) || !conf.CreatedAt.Equal(now) {
			t.Errorf("claimed confirmation: %+v", conf)
		}
		if notice.Kind != mail.KindNewOrder || notice.Attempts != 1 {
			t.Errorf("claimed notice: %+v", notice)
		}
		// Leased rows are not due again until the lease runs out.
		if again, err := db.ClaimMail(ctx, now.Add(30*time.Second), time.Minute, 10); err != nil || len(again) != 0 {
			t.Fatalf("claim under lease: %+v %v", again, err)
		}

		// Sent.
		if err := db.MarkMailSent(ctx, conf.ID, now.Add(3*time.Second)); err != nil {
			t.Fatal(err)
		}
		// A failure: next attempt recorded with the error.
		next := now.Add(5 * time.Minute)
		if err := db.RetryMail(ctx, notice.ID, notice.Attempts, next, "dial tcp: connection refused"); err != nil {
			t.Fatal(err)
		}
		// A stale claim (wrong attempts) changes nothing.
		if err := db.RetryMail(ctx, notice.ID, notice.Attempts+5, now, "stale"); err != nil {
			t.Fatal(err)
		}
		// Failures after a send change nothing.
		if err := db.GiveUpMail(ctx, conf.ID, conf.Attempts, now, "late"); err != nil {
			t.Fatal(err)
		}
		q, ok, err := db.MailByDedupeKey(ctx, "order:17:confirmation")
		if err != nil || !ok || q.SentAt.IsZero() || !q.FailedAt.IsZero() || q.LastError != "" {
			t.Fatalf("sent row: %+v %v %v", q, ok, err)
		}
		q, _, _ = db.MailByDedupeKey(ctx, "order:17:new")
		if !q.NextAttemptAt.Equal(next) || q.LastError != "dial tcp: connection refused" || q.Attempts != 1 || !q.SentAt.IsZero() {
			t.Fatalf("retried row: %+v", q)
		}
		if _, ok, err := db.MailByDedupeKey(ctx, "nope"); ok || err != nil {
			t.Fatalf("unknown key: %v %v", ok, err)
		}

		// Due again at next; then given up.
		got, err = db.ClaimMail(ctx, next, time.Minute, 10)
		if err != nil || len(got) != 1 || got[0].ID != notice.ID || got[0].Attempts != 2 {
			t.Fatalf("second claim: %+v %v", got, err)
		}
		if err := db.GiveUpMail(ctx, notice.ID, 2, next, "550 no such user"); err != nil {
			t.Fatal(err)
		}
		if got, err := db.ClaimMail(ctx, next.Add(24*time.Hour), time.Minute, 10); err != nil || len(got) != 1 || got[0].Ref != "18" {
			t.Fatalf("given-up row claimed again: %+v %v", got, err)
		}
		if c, err := db.CountMail(ctx); err != nil || c != (mail.Counts{Queued: 1, Sent: 1, Failed: 1}) {
			t.Fatalf("counts: %+v %v", c, err)
		}
		failed, err := db.MailOutbox(ctx, mail.StateFailed, 10)
		if err != nil || len(failed) != 1 || failed[0].ID != notice.ID || failed[0].FailedAt.IsZero() || failed[0].LastError != "550 no such user" {
			t.Fatalf("failed list: %+v %v", failed, err)
		}
		all, err := db.MailOutbox(ctx, "", 10)
		if err != nil || len(all) != 3 || all[0].Ref != "18" {
			t.Fatalf("all list: %+v %v", all, err)
		}
		if _, err := db.MailOutbox(ctx, "bogus", 10); err == nil {
			t.Error("unknown state accepted")
		}

		// Requeue a given-up row: due at once with a fresh count.
		if ok, err := db.RequeueMail(ctx, notice.ID, next); err != nil || !ok {
			t.Fatalf("requeue: %v %v", ok, err)
		}
		if ok, err := db.RequeueMail(ctx, conf.ID, next); err != nil || ok {
			t.Fatalf("requeue of a sent row: %v %v", ok, err)
		}
		got, err = db.ClaimMail(ctx, next, time.Minute, 10)
		if err != nil || len(got) != 1 || got[0].ID != notice.ID || got[0].Attempts != 1 || got[0].LastError != "550 no such user" {
			t.Fatalf("claim after requeue: %+v %v", got, err)
		}

		// Long errors are kept short.
		long := make([]byte, 5000)
		for i := range long {
			long[i] = 'x'
		}
		if err := db.RetryMail(ctx, notice.ID, 1, next, string(long)); err != nil {
			t.Fatal(err)
		}
		q, _, _ = db.MailByDedupeKey(ctx, "order:17:new")
		if len(q.LastError) != 1000 {
			t.Errorf("last_error length %d", len(q.LastError))
		}
	})
}

// An enqueue inside a rolled-back transaction records nothing.
func TestOutboxEnqueueTxRollback(t *testing.T) {
	storetest.EachDSN(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db := storetest.OpenDSN(t, dsn)
		raw := storetest.OpenRaw(t, dsn)
		now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
		tx, err := raw.BeginTxx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := sqlstore.EnqueueMailTx(ctx, tx, mail.KindNewOrder, "1", "k1", now); err != nil {
			t.Fatal(err)
		}
		if err := tx.Rollback(); err != nil {
			t.Fatal(err)
		}
		if c, err := db.CountMail(ctx); err != nil || c.Queued != 0 {
			t.Fatalf("after rollback: %+v %v", c, err)
		}
		tx, _ = raw.BeginTxx(ctx, nil)
		if err := sqlstore.EnqueueMailTx(ctx, tx, mail.KindNewOrder, "1", "k1", now); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		if c, err := db.CountMail(ctx); err != nil || c.Queued != 1 {
			t.Fatalf("after commit: %+v %v", c, err)
		}
	})
}

// Two store handles on one database (two server instances) claiming at the
// same time never both claim a row.
func TestOutboxClaimConcurrent(t *testing.T) {
	storetest.EachDSN(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		a := storetest.OpenDSN(t, dsn)
		b := storetest.OpenDSN(t, dsn)
		now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
		const n = 60
		for i := range n {
			if err := a.EnqueueMail(ctx, mail.KindNewOrder, fmt.Sprint(i), fmt.Sprint("k", i), now); err != nil {
				t.Fatal(err)
			}
		}
		var mu sync.Mutex
		seen := map[int64]int{}
		var wg sync.WaitGroup
		for w := range 6 {
			db := a
			if w%2 == 1 {
				db = b
			}
			wg.Go(func() {
				for {
					got, err := db.ClaimMail(ctx, now, time.Hour, 4)
					if err != nil {
						t.Error(err)
						return
					}
					if len(got) == 0 {
						// Nothing due: done once every row is sent (the
						// clock stands still, so leases never run out).
						c, err := db.CountMail(ctx)
						if err != nil || c.Queued == 0 {
							return
						}
						continue
					}
					mu.Lock()
					for _, q := range got {
						seen[q.ID]++
					}
					mu.Unlock()
					for _, q := range got {
						if err := db.MarkMailSent(ctx, q.ID, now); err != nil {
							t.Error(err)
							return
						}
					}
				}
			})
		}
		wg.Wait()
		if len(seen) != n {
			t.Fatalf("claimed %d of %d rows", len(seen), n)
		}
		for id, k := range seen {
			if k != 1 {
				t.Errorf("row %d claimed %d times", id, k)
			}
		}
	})
}
