package audit_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"vitrine/internal/audit"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

func TestRecordAndList(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 24, 9, 30, 0, 0, time.UTC)
		s := &audit.Service{Store: db, Now: func() time.Time { return now }}

		// An entry without an actor or an action is refused and stores nothing.
		for _, e := range []audit.Entry{{Action: "product.update"}, {ActorID: 1, Action: "  "}, {ActorID: -1, ActorName: "x", Action: "a"}} {
			if _, err := s.Record(ctx, e); !errors.Is(err, audit.ErrInvalid) {
				t.Fatalf("%+v: %v", e, err)
			}
		}
		if got, err := s.List(ctx, audit.Filter{}); err != nil || len(got) != 0 {
			t.Fatalf("refused entries were stored: %v %v", got, err)
		}

		long := strings.Repeat("é", 400) // 800 bytes
		first, err := s.Record(ctx, audit.Entry{ActorID: 7, ActorName: "Ann", Action: "product.update", Object: "product", ObjectID: 42, Summary: long, ClientIP: "192.0.2.1"})
		if err != nil {
			t.Fatal(err)
		}
		second, err := s.Record(ctx, audit.Entry{ActorID: 8, ActorName: "Bob", Action: "order.status", Object: "order", ObjectID: 5, Summary: "processing → completed"})
		if err != nil {
			t.Fatal(err)
		}
		third, err := s.Record(ctx, audit.Entry{ActorID: 7, ActorName: "Ann", Action: "product.trash", Object: "product", ObjectID: 43})
		if err != nil {
			t.Fatal(err)
		}

		all, err := s.List(ctx, audit.Filter{})
		if err != nil || len(all) != 3 {
			t.Fatalf("list: %v %v", all, err)
		}
		if all[0].ID != third || all[2].ID != first {
			t.Fatalf("not newest first: %+v", all)
		}
		e := all[2]
		if !e.At.Equal(now) || e.ActorName != "Ann" || e.Object != "product" || e.ObjectID != 42 || e.ClientIP != "192.0.2.1" {
			t.Fatalf("entry: %+v", e)
		}
		if len(e.Summary) > 500 || !strings.HasSuffix(e.Summary, "…") || !strings.HasPrefix(e.Summary, "éé") {
			t.Fatalf("summary not clipped on a rune boundary: %d bytes", len(e.Summary))
		}

		byObject, _ := s.List(ctx, audit.Filter{Object: "product", ObjectID: 42})
		if len(byObject) != 1 || byObject[0].ID != first {
			t.Fatalf("by object: %+v", byObject)
		}
		byActor, _ := s.List(ctx, audit.Filter{ActorID: 7})
		if len(byActor) != 2 {
			t.Fatalf("by actor: %+v", byActor)
		}
		page, _ := s.List(ctx, audit.Filter{Before: third, Limit: 1})
		if len(page) != 1 || page[0].ID != second {
			t.Fatalf("cursor: %+v", page)
		}
	})
}
