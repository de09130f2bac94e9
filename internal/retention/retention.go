// Package retention is data retention: how long the shop keeps personal
// data (WooCommerce's "Personal data retention" settings), and the runs
// that apply it. Three rules, each a number of months and off at 0:
//
//   - an inactive customer account (no log-in, no order, no session for
//     that long) is deleted as account deletion deletes one, after its
//     orders' personal data is removed;
//   - a guest's processing, completed or refunded order that old has its
//     personal data removed; amounts, lines and taxes stay for the books;
//   - a cancelled or failed order that old is deleted.
//
// A run applies each rule to a bounded batch, so one run never holds the
// store long; a run whose batch was full asks for a follow-up at once.
// Every instance of the shop ticks each minute; the runs are slots of a
// lease queue in the store (one per hour, and the follow-ups), so exactly
// one instance takes each. The rules are idempotent: what a run changed is
// found no more by the next one. A run that changed something is logged
// and recorded in the activity log, with counts only.
package retention

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"vitrine/internal/audit"
	"vitrine/internal/checkout"
	"vitrine/internal/clock"
)

// Policy is the retention settings: months for each rule, 0 keeping the
// data for ever (the default).
type Policy struct {
	// InactiveAccountMonths: customer accounts inactive this long are
	// deleted, their orders anonymised.
	InactiveAccountMonths int `json:"inactive_account_months"`
	// GuestOrderMonths: guests' processing, completed and refunded orders
	// this old are anonymised.
	GuestOrderMonths int `json:"guest_order_months"`
	// FailedOrderMonths: cancelled and failed orders this old are deleted.
	FailedOrderMonths int `json:"failed_order_months"`
}

// MaxMonths is the longest period a rule takes (100 years).
const MaxMonths = 1200

// Enabled reports whether any rule is on.
func (p Policy) Enabled() bool {
	return p.InactiveAccountMonths > 0 || p.GuestOrderMonths > 0 || p.FailedOrderMonths > 0
}

// InputError is a field the policy cannot take.
type InputError struct {
	Field   string
	Message string
}

func (e *InputError) Error() string { return e.Field + ": " + e.Message }

// Validate refuses a period below 0 or above MaxMonths.
func (p Policy) Validate() error {
	for _, f := range []struct {
		name string
		v    int
	}{{"inactive_account_months", p.InactiveAccountMonths}, {"guest_order_months", p.GuestOrderMonths},
		{"failed_order_months", p.FailedOrderMonths}} {
		if f.v < 0 || f.v > MaxMonths {
			return &InputError{Field: f.name, Message: fmt.Sprintf("Use a number of months from 0 (keep for ever) to %d.", MaxMonths)}
		}
	}
	return nil
}

// Cutoff is the time months before now: what happened at or before it is
// past its retention (an order exactly that old is due, one a day younger
// is not). Months are calendar months (Go's AddDate: 31 March less one
// month is 3 March, as the calendar overflows).
func Cutoff(now time.Time, months int) time.Time { return now.AddDate(0, -months, 0) }

// Statuses each order rule applies to.
var (
	// AnonymisedStatuses are the guest orders whose data is removed: the
	// ones the books keep (paid, whole or refunded).
	AnonymisedStatuses = []string{checkout.StatusProcessing, checkout.StatusCompleted, checkout.StatusRefunded}
	// DeletedStatuses are the orders deleted: no sale came of them.
	DeletedStatuses = []string{checkout.StatusCancelled, checkout.StatusFailed}
)

// OrderQuery finds orders a rule applies to, oldest first.
type OrderQuery struct {
	Statuses []string
	// Before: created at or before it.
	Before time.Time
	// GuestOnly: not linked to an account; and still holding personal
	// data (not anonymised).
	GuestOnly bool
	Limit     int
}

// Run is one claimed slot of the run queue.
type Run struct {
	ID       int64
	Attempts int
	Slot     time.Time
}

// Store is what retention needs of the store.
type Store interface {
	// InactiveCustomers are up to limit customer accounts (never staff)
	// created, last logged in, last ordering and last seen in a session
	// at or before before.
	InactiveCustomers(ctx context.Context, before time.Time, limit int) ([]int64, error)
	// CustomerOrderIDs are the ids of an account's orders.
	CustomerOrderIDs(ctx context.Context, userID int64) ([]int64, error)
	// DeleteUser deletes an account as account deletion does.
	DeleteUser(ctx context.Context, userID int64) error
	// RetentionOrders are the ids of the orders q finds.
	RetentionOrders(ctx context.Context, q OrderQuery) ([]int64, error)
	// AnonymiseOrders removes the orders' personal data; it answers how
	// many it changed (orders already anonymised are not).
	AnonymiseOrders(ctx context.Context, ids []int64) (int, error)
	// DeleteOrder deletes an order for good.
	DeleteOrder(ctx context.Context, id int64, now time.Time) error

	// QueueRetentionRun records the slot starting at slot, once however
	// many instances ask.
	QueueRetentionRun(ctx context.Context, slot, now time.Time) error
	// ClaimRetentionRun claims the oldest due slot for lease (false: none).
	ClaimRetentionRun(ctx context.Context, now time.Time, lease time.Duration) (Run, bool, error)
	// RetentionRunDone records what the claimed run did.
	RetentionRunDone(ctx context.Context, id int64, summary string, now time.Time) error
	// RetentionRunFailed records a failed attempt; giveUp stops retrying it.
	RetentionRunFailed(ctx context.Context, id int64, attempts int, errText string, giveUp bool, now time.Time) error
}

// Auditor records an activity log entry (audit.Service).
type Auditor interface {
	Record(ctx context.Context, e audit.Entry) (int64, error)
}

// Service applies the policy.
type Service struct {
	Store Store
	// Policy is the policy in force, read at each run (the settings).
	Policy func(ctx context.Context) (Policy, error)
	Audit  Auditor // nil: no activity log entries
	Log    *slog.Logger
	Now    func() time.Time
	// Batch is how many accounts and orders each rule takes in one run
	// (0: DefaultBatch).
	Batch int
}

// DefaultBatch is a run's batch per rule.
const DefaultBatch = 200

// Every is how often a run is due; a run whose batch was full is followed
// by another at once.
const Every = time.Hour

// lease is how long a claimed run stays with its instance.
const lease = 15 * time.Minute

// maxAttempts is how many times a run is tried.
const maxAttempts = 3

// ActorName is the activity log's actor for the runs.
const ActorName = "Data retention"

// Result is what one run did.
type Result struct {
	AccountsDeleted int `json:"accounts_deleted"`
	// AccountOrdersAnonymised are the deleted accounts' orders anonymised.
	AccountOrdersAnonymised int `json:"account_orders_anonymised"`
	GuestOrdersAnonymised   int `json:"guest_orders_anonymised"`
	OrdersDeleted           int `json:"orders_deleted"`
	// More: a rule's batch was full, so more may be due.
	More bool `json:"more"`
}

// Changed reports whether the run changed anything.
func (r Result) Changed() bool {
	return r.AccountsDeleted+r.AccountOrdersAnonymised+r.GuestOrdersAnonymised+r.OrdersDeleted > 0
}

// Summary is the run in words, for the activity log: counts only.
func (r Result) Summary() string {
	var parts []string
	if r.AccountsDeleted > 0 {
		parts = append(parts, fmt.Sprintf("%s deleted (%s of theirs anonymised)", count(r.AccountsDeleted, "inactive account"),
			count(r.AccountOrdersAnonymised, "order")))
	}
	if r.GuestOrdersAnonymised > 0 {
		parts = append(parts, count(r.GuestOrdersAnonymised, "guest order")+" anonymised")
	}
	if r.OrdersDeleted > 0 {
		parts = append(parts, count(r.OrdersDeleted, "cancelled or failed order")+" deleted")
	}
	if len(parts) == 0 {
		return "Nothing was due."
	}
	return strings.Join(parts, "; ") + "."
}

// count is n and what, plural but for one.
func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func (s *Service) now() time.Time { return clock.UTC(s.Now) }

func (s *Service) batch() int {
	if s.Batch > 0 {
		return s.Batch
	}
	return DefaultBatch
}

// Apply applies p once, to a batch per rule, at the service's time. It
// stops at the first error, answering what it did before it.
func (s *Service) Apply(ctx context.Context, p Policy) (Result, error) {
	var r Result
	now, limit := s.now(), s.batch()
	if m := p.InactiveAccountMonths; m > 0 {
		users, err := s.Store.InactiveCustomers(ctx, Cutoff(now, m), limit)
		if err != nil {
			return r, fmt.Errorf("inactive accounts: %w", err)
		}
		r.More = r.More || len(users) == limit
		for _, u := range users {
			ids, err := s.Store.CustomerOrderIDs(ctx, u)
			if err != nil {
				return r, fmt.Errorf("inactive account's orders: %w", err)
			}
			n, err := s.Store.AnonymiseOrders(ctx, ids)
			r.AccountOrdersAnonymised += n
			if err != nil {
				return r, fmt.Errorf("anonymise an inactive account's orders: %w", err)
			}
			if err := s.Store.DeleteUser(ctx, u); err != nil {
				return r, fmt.Errorf("delete an inactive account: %w", err)
			}
			r.AccountsDeleted++
		}
	}
	if m := p.GuestOrderMonths; m > 0 {
		ids, err := s.Store.RetentionOrders(ctx, OrderQuery{Statuses: AnonymisedStatuses, Before: Cutoff(now, m), GuestOnly: true, Limit: limit})
		if err != nil {
			return r, fmt.Errorf("guest orders: %w", err)
		}
		r.More = r.More || len(ids) == limit
		n, err := s.Store.AnonymiseOrders(ctx, ids)
		r.GuestOrdersAnonymised += n
		if err != nil {
			return r, fmt.Errorf("anonymise guest orders: %w", err)
		}
	}
	if m := p.FailedOrderMonths; m > 0 {
		ids, err := s.Store.RetentionOrders(ctx, OrderQuery{Statuses: DeletedStatuses, Before: Cutoff(now, m), Limit: limit})
		if err != nil {
			return r, fmt.Errorf("cancelled and failed orders: %w", err)
		}
		r.More = r.More || len(ids) == limit
		for _, id := range ids {
			if err := s.Store.DeleteOrder(ctx, id, now); err != nil {
				if errors.Is(err, checkout.ErrOrderNotFound) { // deleted meanwhile
					continue
				}
				return r, fmt.Errorf("delete an order: %w", err)
			}
			r.OrdersDeleted++
		}
	}
	return r, nil
}

// Tick is one instance's turn of the upkeep loop: with a rule on, it
// queues the hour's run, and takes the due run if this instance claims
// it. It reports whether this instance ran one, and what it did.
func (s *Service) Tick(ctx context.Context) (bool, Result, error) {
	p, err := s.Policy(ctx)
	if err != nil {
		return false, Result{}, fmt.Errorf("retention policy: %w", err)
	}
	if !p.Enabled() {
		return false, Result{}, nil
	}
	now := s.now()
	if err := s.Store.QueueRetentionRun(ctx, now.Truncate(Every), now); err != nil {
		return false, Result{}, err
	}
	run, ok, err := s.Store.ClaimRetentionRun(ctx, now, lease)
	if err != nil || !ok {
		return false, Result{}, err
	}
	res, err := s.Apply(ctx, p)
	if res.Changed() {
		s.record(ctx, run, res)
	}
	if err != nil {
		giveUp := run.Attempts >= maxAttempts
		if ferr := s.Store.RetentionRunFailed(ctx, run.ID, run.Attempts, err.Error(), giveUp, s.now()); ferr != nil {
			err = fmt.Errorf("%w (and recording it: %v)", err, ferr)
		}
		return true, res, err
	}
	sum, _ := json.Marshal(res)
	if err := s.Store.RetentionRunDone(ctx, run.ID, string(sum), s.now()); err != nil {
		return true, res, err
	}
	if res.More {
		// A full batch: the next tick (any instance's) takes a follow-up
		// run instead of waiting for the next hour. Its slot is the
		// second after this run's, so it is due at once and is new (the
		// 3,600th follow-up in an hour would be the next hour's run).
		if err := s.Store.QueueRetentionRun(ctx, run.Slot.Add(time.Second), s.now()); err != nil {
			return true, res, err
		}
	}
	return true, res, nil
}

// record logs a run that changed something and notes it in the activity log.
func (s *Service) record(ctx context.Context, run Run, res Result) {
	if s.Log != nil {
		s.Log.Info("data retention", "run", run.ID, "accounts_deleted", res.AccountsDeleted,
			"account_orders_anonymised", res.AccountOrdersAnonymised, "guest_orders_anonymised", res.GuestOrdersAnonymised,
			"orders_deleted", res.OrdersDeleted, "more", res.More)
	}
	if s.Audit != nil {
		// Record logs its own failure; the run stands.
		_, _ = s.Audit.Record(ctx, audit.Entry{ActorName: ActorName, Action: "retention.run", Object: "retention", ObjectID: run.ID,
			Summary: res.Summary()})
	}
}
