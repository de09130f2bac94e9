package sqlstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// BenchmarkApplySchedules is the schedule upkeep's pass (every instance
// runs one a minute) on a catalogue of 20,000 products of which 2,000 have
// a scheduled sale: "idle" finds nothing due (the pass of almost every
// minute), "flip100" finds 100 sales starting and applies them (each with
// its change-log entry).
//
//	go test -run '^$' -bench ApplySchedules -benchtime 20x ./internal/storage/sqlstore/
func BenchmarkApplySchedules(b *testing.B) {
	for _, engine := range storetest.Engines(b) {
		b.Run(engine, func(b *testing.B) {
			ctx := context.Background()
			db := storetest.Open(b, engine)
			clock := storetest.FrozenClock(t0)
			db.SetClock(clock.Now)
			const n, scheduled = 20000, 2000
			items := make([]sqlstore.ProductSave, 0, 500)
			flush := func() {
				if err := db.SaveProducts(ctx, items); err != nil {
					b.Fatal(err)
				}
				items = items[:0]
			}
			for i := range n {
				regular, sale := int64(2000+i%5000), int64(1500+i%5000)
				p := &catalog.Product{Type: catalog.TypeSimple, Name: fmt.Sprintf("Bench product %d", i), SKU: fmt.Sprintf("B-%d", i),
					Status: catalog.StatusPublish, RegularPrice: &regular}
				if i%(n/scheduled) == 0 {
					// Sales starting a minute apart from an hour on.
					from := t0.Add(time.Hour + time.Duration(i/(n/scheduled))*time.Minute)
					to := from.Add(1000 * time.Hour)
					p.SalePrice, p.SaleFrom, p.SaleTo = &sale, &from, &to
				}
				items = append(items, sqlstore.ProductSave{Product: p})
				if len(items) == cap(items) {
					flush()
				}
			}
			flush()
			b.Run("idle", func(b *testing.B) {
				for b.Loop() {
					if k, err := db.ApplySchedules(ctx, t0); err != nil || k != 0 {
						b.Fatal(k, err)
					}
				}
			})
			b.Run("flip100", func(b *testing.B) {
				at := t0.Add(time.Hour)
				for b.Loop() {
					b.StopTimer()
					at = at.Add(100 * time.Minute) // the next 100 sales start
					if at.After(t0.Add(time.Hour + scheduled*time.Minute)) {
						at = t0.Add(time.Hour) // back before them all: every sale ends again
						if _, err := db.ApplySchedules(ctx, at.Add(-time.Hour)); err != nil {
							b.Fatal(err)
						}
					}
					b.StartTimer()
					if _, err := db.ApplySchedules(ctx, at); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}
