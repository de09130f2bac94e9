package coupon_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"vitrine/internal/coupon"
	"vitrine/internal/money"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// The admin's use cases without HTTP, on every engine.

func ptr[T any](v T) *T { return &v }

func TestCouponService(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		usd, _ := money.Lookup("USD")
		s := &coupon.Service{Store: db, Currency: usd, Now: func() time.Time { return now }}
		ctx := context.Background()
		c, err := s.Create(ctx, coupon.Input{Code: ptr(" Winter "), Type: ptr(coupon.Percent), Amount: ptr("12.5"),
			DateExpires: coupon.Optional[string]{Set: true, Value: "2030-01-31"}, MinimumAmount: ptr("20"),
			UsageLimit: coupon.Optional[int64]{Set: true, Value: 3}, ProductIDs: ptr([]int64{5, 5, 6})})
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Get(ctx, c.ID)
		if err != nil || got.Code != "winter" || got.Amount != 12_500 || got.MinimumAmount != 2000 || got.UsageLimit != 3 ||
			got.Expires == nil || got.Expires.Format("2006-01-02") != "2030-01-31" || len(got.ProductIDs) != 2 || s.FormatAmount(got) != "12.50" {
			t.Fatalf("stored: %+v %v", got, err)
		}
		if byCode, err := db.CouponByCode(ctx, "winter"); err != nil || byCode.ID != c.ID {
			t.Errorf("by code: %v %v", byCode, err)
		}
		// Refusals change nothing.
		for _, in := range []coupon.Input{
			{Code: ptr("")},
			{Code: ptr("a\nb")},
			{Code: ptr("x"), Type: ptr("bogo")},
			{Code: ptr("x"), Type: ptr(coupon.Percent), Amount: ptr("100.001")},
			{Code: ptr("x"), Amount: ptr("5.001")},
			{Code: ptr("x"), DateExpires: coupon.Optional[string]{Set: true, Value: "soon"}},
			{Code: ptr("x"), UsageLimitPerUser: coupon.Optional[int64]{Set: true, Value: -2}},
			{Code: ptr("x"), CategoryIDs: ptr([]int64{-1})},
		} {
			var ie *coupon.InputError
			if _, err := s.Create(ctx, in); !errors.As(err, &ie) {
				t.Errorf("%+v: %v", in, err)
			}
		}
		if _, err := s.Create(ctx, coupon.Input{Code: ptr("WINTER")}); !errors.Is(err, coupon.ErrCodeTaken) {
			t.Errorf("duplicate: %v", err)
		}
		if _, n, _ := s.List(ctx, coupon.Filter{Limit: 10}); n != 1 {
			t.Errorf("%d coupons after refusals", n)
		}
		// A partial edit; switching to a fixed type reads the amount in money.
		up, err := s.Update(ctx, c.ID, coupon.Input{Type: ptr(coupon.FixedCart), Amount: ptr("7"), UsageLimit: coupon.Optional[int64]{Set: true, Null: true}})
		if err != nil || up.Amount != 700 || up.UsageLimit != 0 || up.MinimumAmount != 2000 || s.FormatAmount(up) != "7.00" {
			t.Errorf("update: %+v %v", up, err)
		}
		if _, err := s.Update(ctx, c.ID, coupon.Input{Type: ptr(coupon.Percent), Amount: ptr("700")}); err == nil {
			t.Errorf("a percentage over 100 was saved")
		}
		if _, err := s.Update(ctx, 999999, coupon.Input{}); !errors.Is(err, coupon.ErrNotFound) {
			t.Errorf("unknown: %v", err)
		}
		if _, err := s.Delete(ctx, c.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Get(ctx, c.ID); !errors.Is(err, coupon.ErrNotFound) {
			t.Errorf("after delete: %v", err)
		}
	})
}
