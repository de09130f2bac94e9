package catalog_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"vitrine/internal/catalog"
	"vitrine/internal/importer"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// recountCategories is the category count's definition, counted by a plain
// query: for each category, the distinct listed products (the listing's
// condition) in it or any descendant.
const recountCategories = `WITH RECURSIVE tree (root, id) AS (
		SELECT id, id FROM categories
		UNION ALL
		SELECT tree.root, c.id FROM categories c JOIN tree ON c.parent_id = tree.id
	)
	SELECT c.id, (SELECT COUNT(DISTINCT pc.product_id) FROM tree
		JOIN product_categories pc ON pc.category_id = tree.id
		JOIN products p ON p.id = pc.product_id
		WHERE tree.root = c.id AND p.parent_id IS NULL AND p.status = 'publish'
		  AND p.catalog_visibility IN ('visible', 'catalog')) AS n
	FROM categories c ORDER BY c.id`

// TestCategoryCountsKeptExact applies random writes through the importer,
// the admin service and the store (imports that create and update
// products and categories, edits of categories, status and visibility,
// bulk publish, draft, trash, restore and delete, the store's delete of
// listed products, category moves and deletions) and after each one compares the kept counts the store reads
// with the definition counted from scratch.
func TestCategoryCountsKeptExact(t *testing.T) {
	storetest.EachDSN(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db := storetest.OpenDSN(t, dsn)
		raw := storetest.OpenRaw(t, dsn)
		a := newAdmin(t, db)
		rng := rand.New(rand.NewPCG(16, 29))

		check := func(step int, what string) {
			t.Helper()
			var want []struct {
				ID int64 `db:"id"`
				N  int   `db:"n"`
			}
			if err := raw.SelectContext(ctx, &want, recountCategories); err != nil {
				t.Fatalf("recount: %v", err)
			}
			cats, err := db.Categories(ctx)
			if err != nil {
				t.Fatal(err)
			}
			got := map[int64]int{}
			for _, c := range cats {
				got[c.ID] = c.Count
			}
			if len(got) != len(want) {
				t.Fatalf("step %d (%s): %d categories read, %d in the table", step, what, len(got), len(want))
			}
			for _, w := range want {
				if got[w.ID] != w.N {
					t.Fatalf("step %d (%s): category %d counts %d, the definition says %d", step, what, w.ID, got[w.ID], w.N)
				}
			}
		}
		check(0, "seed")

		names := []string{"Alpha", "Beta", "Gamma", "Delta"}
		catIDs := func() []int64 {
			cats, err := db.Categories(ctx)
			if err != nil {
				t.Fatal(err)
			}
			ids := make([]int64, len(cats))
			for i, c := range cats {
				ids[i] = c.ID
			}
			return ids
		}
		productIDs := func() []int64 {
			ps, _, err := a.List(ctx, catalog.AdminQuery{Status: "any", PerPage: 1000})
			if err != nil {
				t.Fatal(err)
			}
			var ids []int64
			for _, p := range ps {
				ids = append(ids, p.ID)
			}
			return ids
		}
		pick := func(ids []int64, n int) []int64 {
			var out []int64
			for range n {
				if len(ids) > 0 {
					out = append(out, ids[rng.IntN(len(ids))])
				}
			}
			return out
		}
		nonzero := 0
		ran := map[int]int{}
		for step := 1; step <= 120; step++ {
			var what string
			var err error
			op := rng.IntN(8)
			switch op {
			case 0: // import: new and re-imported SKUs, nested category paths
				what = "import"
				var b strings.Builder
				b.WriteString("Type,SKU,Name,Published,Visibility in catalog,Categories,Regular price\n")
				seen := map[int]bool{}
				for range 1 + rng.IntN(6) {
					sku := rng.IntN(30)
					if seen[sku] {
						continue
					}
					seen[sku] = true
					var paths []string
					for range rng.IntN(3) {
						path := names[rng.IntN(len(names))]
						for rng.IntN(2) == 0 {
							path += " > " + names[rng.IntN(len(names))]
						}
						paths = append(paths, path)
					}
					fmt.Fprintf(&b, "simple,P-%d,Product %d,%s,%s,\"%s\",10\n", sku, sku,
						[]string{"1", "0", "-1"}[rng.IntN(3)],
						[]string{"visible", "catalog", "search", "hidden"}[rng.IntN(4)], strings.Join(paths, ", "))
				}
				var sum importer.Summary
				sum, err = importer.Import(ctx, strings.NewReader(b.String()), db, db, importer.Options{MinorUnit: 2})
				if err == nil && len(sum.Rejected) > 0 {
					err = fmt.Errorf("import rejected rows: %+v", sum.Rejected)
				}
			case 1: // edit: categories, status, visibility
				ids := pick(productIDs(), 1)
				if len(ids) == 0 {
					continue
				}
				what = fmt.Sprintf("edit %d", ids[0])
				p, _, gerr := a.Get(ctx, ids[0])
				if gerr != nil {
					t.Fatal(gerr)
				}
				if p.Status == catalog.StatusTrash {
					continue
				}
				cats := pick(catIDs(), rng.IntN(4))
				status := []string{"publish", "draft", "private"}[rng.IntN(3)]
				vis := []string{"visible", "catalog", "search", "hidden"}[rng.IntN(4)]
				_, err = a.Update(ctx, p.ID, p.Version, catalog.ProductInput{Categories: &cats, Status: &status, CatalogVisibility: &vis})
			case 2, 3: // bulk
				action := []string{catalog.BulkPublish, catalog.BulkDraft, catalog.BulkTrash, catalog.BulkRestore}[rng.IntN(4)]
				ids := pick(productIDs(), 1+rng.IntN(5))
				if len(ids) == 0 {
					continue
				}
				what = fmt.Sprintf("bulk %s %v", action, ids)
				_, err = a.Bulk(ctx, action, dedupe(ids))
				var in *catalog.InputError
				if errors.As(err, &in) {
					err = nil // restore of products not in the trash
				}
			case 4: // delete for good (trash first)
				ids := dedupe(pick(productIDs(), 1+rng.IntN(3)))
				if len(ids) == 0 {
					continue
				}
				what = fmt.Sprintf("delete %v", ids)
				if rng.IntN(2) == 0 {
					// The store's own delete, of products that may be
					// listed (the admin deletes only trashed ones).
					what += " (store)"
					_, err = db.DeleteProducts(ctx, ids)
				} else if _, err = a.Bulk(ctx, catalog.BulkTrash, ids); err == nil {
					_, err = a.Bulk(ctx, catalog.BulkDelete, ids)
				}
			case 5: // a new category somewhere
				var parent int64
				if ids := pick(catIDs(), 1); len(ids) > 0 && rng.IntN(3) > 0 {
					parent = ids[0]
				}
				name := fmt.Sprintf("New %d", step)
				what = fmt.Sprintf("new category under %d", parent)
				_, err = a.SaveCategory(ctx, 0, catalog.CategoryInput{Name: &name, ParentID: &parent})
			case 6: // move a category (a move inside itself is refused)
				ids := pick(catIDs(), 2)
				if len(ids) < 2 {
					continue
				}
				parent := ids[1]
				if rng.IntN(4) == 0 {
					parent = 0
				}
				what = fmt.Sprintf("move %d under %d", ids[0], parent)
				_, err = a.SaveCategory(ctx, ids[0], catalog.CategoryInput{ParentID: &parent})
				var in *catalog.InputError
				if errors.As(err, &in) {
					what += " (refused)"
					err = nil
				}
			case 7: // delete a category: its children move up
				if rng.IntN(2) == 0 {
					continue
				}
				ids := pick(catIDs(), 1)
				if len(ids) == 0 {
					continue
				}
				what = fmt.Sprintf("delete category %d", ids[0])
				err = a.DeleteCategory(ctx, ids[0])
			}
			if err != nil {
				t.Fatalf("step %d (%s): %v", step, what, err)
			}
			check(step, what)
			ran[op]++
			for _, c := range must(db.Categories(ctx)) {
				if c.Count > 0 {
					nonzero++
				}
			}
		}
		// The walk must have exercised counts, not compared zeros, and
		// every kind of operation.
		if nonzero == 0 {
			t.Fatal("no category ever counted a product")
		}
		for op := range 8 {
			if ran[op] == 0 {
				t.Errorf("operation %d never ran: %v", op, ran)
			}
		}
	})
}

func dedupe(ids []int64) []int64 {
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	out := ids[:0]
	for i, id := range ids {
		if i == 0 || id != ids[i-1] {
			out = append(out, id)
		}
	}
	return out
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

var _ = sqlstore.SQLite
