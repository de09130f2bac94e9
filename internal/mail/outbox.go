package mail

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"time"
)

// Options tune the Outbox worker. Zero values take the defaults.
type Options struct {
	// Interval between polls for due messages (default 2 s). Kick wakes the
	// worker sooner.
	Interval time.Duration
	// Batch is how many rows one claim takes (default 10).
	Batch int
	// MaxAttempts is how many sends a message gets before it is given up
	// (default 10).
	MaxAttempts int
	// Backoff is the delay before the first retry (default 30 s); it
	// doubles with each failed attempt up to MaxBackoff (default 1 h), and
	// each delay is jittered by ±25 %.
	Backoff    time.Duration
	MaxBackoff time.Duration
	// Timeout bounds rendering and sending one message (default 2 min).
	Timeout time.Duration
	// Lease is how long a claimed row stays reserved for this worker; it
	// must exceed Timeout (default and fallback: Timeout + 1 min). A row
	// whose worker died is retried when its lease ends.
	Lease time.Duration
	// Now is the clock (default time.Now); Jitter returns a number in
	// [0, 1) (default math/rand). Tests replace both.
	Now    func() time.Time
	Jitter func() float64
}

func (o *Options) defaults() {
	if o.Interval <= 0 {
		o.Interval = 2 * time.Second
	}
	if o.Batch <= 0 {
		o.Batch = 10
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 10
	}
	if o.Backoff <= 0 {
		o.Backoff = 30 * time.Second
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = time.Hour
	}
	if o.MaxBackoff < o.Backoff {
		o.MaxBackoff = o.Backoff
	}
	if o.Timeout <= 0 {
		o.Timeout = 2 * time.Minute
	}
	if o.Lease <= o.Timeout {
		o.Lease = o.Timeout + time.Minute
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Jitter == nil {
		o.Jitter = rand.Float64
	}
}

// Outbox sends the messages recorded in the outbox. Several instances (one
// per server process) may run on one store: a row is claimed by one of them
// at a time.
type Outbox struct {
	store  Store
	sender Sender
	render Renderer
	log    *slog.Logger
	opts   Options
	kick   chan struct{}
}

// NewOutbox returns a worker that renders due rows with render and sends
// them with sender. A nil sender (no SMTP configured) makes a worker that
// sends nothing: messages stay queued, to be sent once a sender is
// configured.
func NewOutbox(store Store, sender Sender, render Renderer, log *slog.Logger, opts Options) *Outbox {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	opts.defaults()
	return &Outbox{store: store, sender: sender, render: render, log: log, opts: opts, kick: make(chan struct{}, 1)}
}

// Enabled reports whether the worker has a sender.
func (o *Outbox) Enabled() bool { return o != nil && o.sender != nil && o.render != nil }

// Kick wakes the worker now (call it after committing a message, so it goes
// out without waiting for the next poll). It never blocks; nil-safe.
func (o *Outbox) Kick() {
	if o == nil {
		return
	}
	select {
	case o.kick <- struct{}{}:
	default:
	}
}

// Run sends due messages until ctx ends, polling every Interval and when
// kicked. Without a sender it logs that mail stays queued and returns.
func (o *Outbox) Run(ctx context.Context) error {
	if !o.Enabled() {
		o.log.Warn("mail: no SMTP configured; emails stay queued in the outbox until it is")
		return nil
	}
	t := time.NewTicker(o.opts.Interval)
	defer t.Stop()
	for {
		if _, err := o.RunOnce(ctx); err != nil && ctx.Err() == nil {
			o.log.Warn("mail: outbox poll failed", "error", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		case <-o.kick:
		}
	}
}

// Result counts what one RunOnce did.
type Result struct {
	Sent, Retried, GivenUp int
}

// RunOnce claims and handles due messages until none is due (or ctx ends).
func (o *Outbox) RunOnce(ctx context.Context) (Result, error) {
	var r Result
	if !o.Enabled() {
		return r, errors.New("mail: outbox has no sender")
	}
	for ctx.Err() == nil {
		rows, err := o.store.ClaimMail(ctx, o.opts.Now(), o.opts.Lease, o.opts.Batch)
		if err != nil {
			return r, err
		}
		if len(rows) == 0 {
			return r, nil
		}
		for _, q := range rows {
			if err := o.handle(ctx, q, &r); err != nil {
				return r, err
			}
		}
	}
	return r, nil
}

// handle renders and sends one claimed row and records the outcome.
func (o *Outbox) handle(ctx context.Context, q Queued, r *Result) error {
	err := o.deliver(ctx, q)
	// Record the outcome even when ctx ended meanwhile: a message that went
	// must not be sent again.
	bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	now := o.opts.Now()
	log := o.log.With("id", q.ID, "kind", q.Kind, "ref", q.Ref, "attempt", q.Attempts)
	switch {
	case err == nil:
		r.Sent++
		log.Info("mail sent")
		return o.store.MarkMailSent(bctx, q.ID, now)
	case errors.Is(err, ErrPermanent):
		r.GivenUp++
		log.Error("mail given up: it can never be sent", "error", err)
		return o.store.GiveUpMail(bctx, q.ID, q.Attempts, now, err.Error())
	case ctx.Err() != nil:
		// Shutting down: try again soon, from this or another instance.
		r.Retried++
		return o.store.RetryMail(bctx, q.ID, q.Attempts, now, err.Error())
	case q.Attempts >= o.opts.MaxAttempts:
		r.GivenUp++
		log.Error("mail given up after the last attempt", "attempts", q.Attempts, "error", err)
		return o.store.GiveUpMail(bctx, q.ID, q.Attempts, now, err.Error())
	default:
		r.Retried++
		next := now.Add(o.delay(q.Attempts))
		log.Warn("mail not sent; will retry", "next_attempt", next, "error", err)
		return o.store.RetryMail(bctx, q.ID, q.Attempts, next, err.Error())
	}
}

func (o *Outbox) deliver(ctx context.Context, q Queued) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = Permanent(fmt.Errorf("mail: rendering %s %s panicked: %v", q.Kind, q.Ref, p))
		}
	}()
	ctx, cancel := context.WithTimeout(ctx, o.opts.Timeout)
	defer cancel()
	m, err := o.render(ctx, q.Kind, q.Ref)
	if err != nil {
		return fmt.Errorf("render: %w", err)
	}
	if m.MessageID == "" {
		m.MessageID = outboxMessageID(q)
	}
	return o.sender.Send(ctx, m)
}

// delay is the wait after the attempt-th failed attempt: Backoff doubled
// per attempt, capped at MaxBackoff, times a jitter factor in [0.75, 1.25).
func (o *Outbox) delay(attempt int) time.Duration {
	d := o.opts.Backoff
	for i := 1; i < attempt && d < o.opts.MaxBackoff; i++ {
		d *= 2
	}
	d = min(d, o.opts.MaxBackoff)
	return time.Duration(float64(d) * (0.75 + 0.5*o.opts.Jitter()))
}

// outboxMessageID is the local part of a row's Message-ID (the sender adds
// the domain of its From): the same on every retry of the row, different
// across rows and databases.
func outboxMessageID(q Queued) string {
	h := sha256.Sum256([]byte(q.DedupeKey))
	return fmt.Sprintf("vitrine.%d.%d.%s", q.ID, q.CreatedAt.Unix(), hex.EncodeToString(h[:6]))
}
