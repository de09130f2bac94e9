package pages_test

import (
	"time"

	"context"
	"encoding/json"
	"strings"
	"testing"

	"vitrine/internal/pages"
	"vitrine/internal/seed"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// settings.user comes from the context only: without it (and after
// WithoutUser) a page carries the constant visitor value and no edit links.
func TestPageUser(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		db.SetClock(func() time.Time { return seedTime })
		if _, err := seed.Demo(ctx, db, seedTime); err != nil {
			t.Fatal(err)
		}
		l := loader(t, db, 30)
		staff := pages.User{LoggedIn: true, CanEditPages: true, ID: 3, DisplayName: "Mia"}
		customer := pages.User{LoggedIn: true, ID: 4, DisplayName: "Carla"}
		raw := func(ctx context.Context, load func(context.Context) (*pages.Result, error)) string {
			t.Helper()
			res, err := load(ctx)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(res.Data)
			return string(b)
		}
		product := func(ctx context.Context) (*pages.Result, error) {
			return l.Product(ctx, "/product/classic-tee/", "classic-tee")
		}
		category := func(ctx context.Context) (*pages.Result, error) {
			return l.Category(ctx, "/product-category/clothing/", []string{"clothing"}, pages.ListingQuery{Page: 1})
		}
		const visitor = `"user":{"logged_in":false,"can_edit_pages":false}`

		for name, c := range map[string]context.Context{
			"no user":      ctx,
			"without user": pages.WithoutUser(pages.WithUser(ctx, staff)),
		} {
			for _, load := range []func(context.Context) (*pages.Result, error){product, category} {
				if s := raw(c, load); !strings.Contains(s, visitor) || strings.Contains(s, "edit_links") || strings.Contains(s, "Mia") {
					t.Errorf("%s: page carries more than the visitor value", name)
				}
			}
		}
		if s := raw(pages.WithUser(ctx, staff), product); !strings.Contains(s, `"edit_links":[{"block":"product","label":"Edit Classic Tee","builder_url":"/wp-admin/post.php?post=`) ||
			!strings.Contains(s, `"display_name":"Mia"`) {
			t.Errorf("staff product page: %.300s", s[strings.Index(s, `"settings"`):])
		}
		if s := raw(pages.WithUser(ctx, staff), category); !strings.Contains(s, `"block":"category","label":"Edit Clothing"`) {
			t.Error("staff category page without its edit links")
		}
		for _, load := range []func(context.Context) (*pages.Result, error){product, category} {
			if s := raw(pages.WithUser(ctx, customer), load); strings.Contains(s, "edit_links") || !strings.Contains(s, `"logged_in":true,"can_edit_pages":false,"id":4`) {
				t.Error("customer page: edit links or no user")
			}
		}
	})
}
