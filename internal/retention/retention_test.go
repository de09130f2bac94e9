package retention_test

import (
	"errors"
	"testing"
	"time"

	"vitrine/internal/retention"
)

func TestPolicyValidate(t *testing.T) {
	for _, c := range []struct {
		p     retention.Policy
		field string
	}{
		{retention.Policy{}, ""},
		{retention.Policy{InactiveAccountMonths: 24, GuestOrderMonths: 120, FailedOrderMonths: 1}, ""},
		{retention.Policy{GuestOrderMonths: retention.MaxMonths}, ""},
		{retention.Policy{GuestOrderMonths: retention.MaxMonths + 1}, "guest_order_months"},
		{retention.Policy{InactiveAccountMonths: -1}, "inactive_account_months"},
		{retention.Policy{FailedOrderMonths: -12}, "failed_order_months"},
	} {
		err := c.p.Validate()
		var ie *retention.InputError
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%+v: %v", c.p, err)
		case c.field != "" && (!errors.As(err, &ie) || ie.Field != c.field):
			t.Errorf("%+v: %v, want a refusal of %s", c.p, err, c.field)
		}
	}
	if (retention.Policy{}).Enabled() || !(retention.Policy{FailedOrderMonths: 1}).Enabled() {
		t.Error("Enabled")
	}
}

func TestCutoff(t *testing.T) {
	for _, c := range []struct {
		now    time.Time
		months int
		want   time.Time
	}{
		{time.Date(2027, 6, 15, 12, 0, 0, 0, time.UTC), 6, time.Date(2026, 12, 15, 12, 0, 0, 0, time.UTC)},
		{time.Date(2027, 1, 31, 0, 0, 0, 0, time.UTC), 1, time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC)},
		{time.Date(2027, 3, 31, 0, 0, 0, 0, time.UTC), 1, time.Date(2027, 3, 3, 0, 0, 0, 0, time.UTC)}, // the calendar overflows
		{time.Date(2027, 6, 15, 0, 0, 0, 0, time.UTC), 24, time.Date(2025, 6, 15, 0, 0, 0, 0, time.UTC)},
	} {
		if got := retention.Cutoff(c.now, c.months); !got.Equal(c.want) {
			t.Errorf("Cutoff(%v, %d) = %v, want %v", c.now, c.months, got, c.want)
		}
	}
}

func TestResultSummary(t *testing.T) {
	for _, c := range []struct {
		r    retention.Result
		want string
	}{
		{retention.Result{}, "Nothing was due."},
		{retention.Result{GuestOrdersAnonymised: 1}, "1 guest order anonymised."},
		{retention.Result{AccountsDeleted: 2, AccountOrdersAnonymised: 1, GuestOrdersAnonymised: 3, OrdersDeleted: 4, More: true},
			"2 inactive accounts deleted (1 order of theirs anonymised); 3 guest orders anonymised; 4 cancelled or failed orders deleted."},
	} {
		if got := c.r.Summary(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.r, got, c.want)
		}
		if c.r.Changed() != (c.want != "Nothing was due.") {
			t.Errorf("%+v: Changed %v", c.r, c.r.Changed())
		}
	}
}
