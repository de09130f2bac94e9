package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// A small catalogue: deterministic, searchable, and measurable.
func TestGenerateAndMeasure(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		if err := Generate(ctx, db, 60, 7, 25, nil); err != nil {
			t.Fatal(err)
		}
		n, err := db.CountProducts(ctx)
		if err != nil || n < 60 {
			t.Fatalf("CountProducts = %d, %v", n, err)
		}
		ps, total, err := db.QueryProducts(ctx, catalog.ProductQuery{Search: "cotton", Visibility: "search", PerPage: 5})
		if err != nil || total == 0 || len(ps) == 0 {
			t.Fatalf("search cotton: %d %v", total, err)
		}
		var m bytes.Buffer
		if err := Measure(ctx, db, 1, &m); err != nil {
			t.Fatal(err)
		}
		if m.Len() == 0 || containsError(m.String()) {
			t.Errorf("measure output:\n%s", m.String())
		}
		// The page loaders, and the category tree after a listing change
		// (which checks the largest category's count after each change).
		var p bytes.Buffer
		if err := MeasurePages(ctx, db, 1, &p); err != nil {
			t.Fatal(err)
		}
		if containsError(p.String()) || !strings.Contains(p.String(), "category tree after a listing change") {
			t.Errorf("measure -pages output:\n%s", p.String())
		}
	})
}

func containsError(s string) bool { return strings.Contains(s, "error:") }

// A few orders: generated through the analytics triggers, caught up, and
// the revenue report timed with figures that count them.
func TestGenerateOrdersAndMeasure(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		end := db.Now()
		if err := GenerateOrders(ctx, db, 300, 60, 3, end, nil); err != nil {
			t.Fatal(err)
		}
		// The facts and rollups were built with the orders; rebuilt from
		// the facts, the rollups are the same.
		var marked int
		if err := db.Read.Get(&marked, `SELECT COUNT(*) FROM analytics_dirty`); err != nil || marked != 0 {
			t.Errorf("%d orders left marked: %v", marked, err)
		}
		if err := db.AnalyticsCheckRollups(ctx); err != nil {
			t.Error(err)
		}
		if err := db.AnalyticsRebuildRollups(ctx); err != nil {
			t.Fatal(err)
		}
		if err := db.AnalyticsCheckRollups(ctx); err != nil {
			t.Error(err)
		}
		var m bytes.Buffer
		if err := MeasureAnalytics(ctx, db, end, "America/New_York", 2, &m); err != nil {
			t.Fatal(err)
		}
		out := m.String()
		if !strings.Contains(out, "revenue stats by day, pair (") || strings.Contains(out, "(0 orders counted") || !strings.Contains(out, "leaderboards, 2 rounds") {
			t.Errorf("measure -analytics output:\n%s", out)
		}
	})
}
