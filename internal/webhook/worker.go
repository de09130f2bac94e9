package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
)

// LogKeep is how many attempts the delivery log keeps per webhook.
const LogKeep = 50

// Version is what the User-Agent claims, as WooCommerce's Hookshot does.
const (
	WooCommerceVersion = "11.0.1"
	WordPressVersion   = "7.1"
)

// Payload returns the REST v3 JSON of a resource ("order", "product",
// "coupon", "customer") as the API answers it; ErrGone when it no longer exists.
type Payload func(ctx context.Context, resource string, id int64) ([]byte, error)

// Options tune the Worker. Zero values take the defaults.
type Options struct {
	// Interval between polls for due deliveries (default 1 s); Kick wakes
	// the worker sooner.
	Interval time.Duration
	// Batch is how many rows one claim takes (default 25).
	Batch int
	// Concurrency is how many deliveries one worker sends at once
	// (default 8). A webhook's deliveries go one after the other in queue
	// order, and a delivery about a resource waits for the ones about it
	// queued before, to any webhook: a slow receiver holds up its own
	// queue and what follows it about the same resources, nothing else.
	Concurrency int
	// Backoff is the delay before the first retry (default 30 s); it
	// doubles with each failed attempt up to MaxBackoff (default 1 h),
	// jittered by ±25 %.
	Backoff, MaxBackoff time.Duration
	// MaxAttempts a row gets (default MaxFailures: a row failing that
	// often disables its webhook anyway).
	MaxAttempts int
	// Timeout bounds one attempt, connection to last byte (default 5 s).
	Timeout time.Duration
	// Lease is how long a claimed row stays reserved (default Timeout +
	// 30 s); a row whose worker died is retried when it ends.
	Lease time.Duration
	// AllowPrivate lets deliveries reach internal addresses.
	AllowPrivate bool
	// Source is X-WC-Webhook-Source: the shop's base URL, ending in "/".
	Source string
	Now    func() time.Time
	Jitter func() float64
}

func (o *Options) defaults() {
	if o.Interval <= 0 {
		o.Interval = time.Second
	}
	if o.Batch <= 0 {
		o.Batch = 25
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 8
	}
	if o.Backoff <= 0 {
		o.Backoff = 30 * time.Second
	}
	if o.MaxBackoff < o.Backoff {
		o.MaxBackoff = max(time.Hour, o.Backoff)
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = MaxFailures
	}
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Second
	}
	if o.Lease <= o.Timeout {
		o.Lease = o.Timeout + 30*time.Second
	}
	if !strings.HasSuffix(o.Source, "/") {
		o.Source += "/"
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Jitter == nil {
		o.Jitter = rand.Float64
	}
}

// Worker delivers the queue. One runs in every instance; a row is claimed
// by one of them at a time.
type Worker struct {
	store   Store
	payload Payload
	client  *http.Client
	log     *slog.Logger
	opts    Options
	kick    chan struct{}
}

// NewWorker returns a worker that builds bodies with payload.
func NewWorker(store Store, payload Payload, log *slog.Logger, opts Options) *Worker {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	opts.defaults()
	dialer := &net.Dialer{Timeout: opts.Timeout}
	if !opts.AllowPrivate {
		dialer.Control = dialControl
	}
	transport := &http.Transport{
		Proxy:               nil, // a proxy would connect for us, past the address check
		DialContext:         dialer.DialContext,
		TLSHandshakeTimeout: opts.Timeout,
		MaxIdleConnsPerHost: 4,
		IdleConnTimeout:     30 * time.Second,
	}
	client := &http.Client{
		Transport: transport,
		Timeout:   opts.Timeout,
		// Never follow a redirect: the 3xx is the answer, a failure.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return &Worker{store: store, payload: payload, client: client, log: log, opts: opts, kick: make(chan struct{}, 1)}
}

// Kick wakes the worker now. It never blocks; nil-safe.
func (w *Worker) Kick() {
	if w == nil {
		return
	}
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// Run delivers due rows until ctx ends, polling every Interval and when
// kicked.
func (w *Worker) Run(ctx context.Context) {
	t := time.NewTicker(w.opts.Interval)
	defer t.Stop()
	for {
		if _, err := w.RunOnce(ctx); err != nil && ctx.Err() == nil {
			w.log.Warn("webhooks: poll failed", "error", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-w.kick:
		}
	}
}

// Result counts what one RunOnce did.
type Result struct {
	Delivered, Failed, Dropped, Disabled int
}

// RunOnce claims and delivers due rows until none is due (or ctx ends).
func (w *Worker) RunOnce(ctx context.Context) (Result, error) {
	var r Result
	disabled := map[int64]bool{} // webhooks this run disabled: their claimed rows are dropped
	for ctx.Err() == nil {
		rows, err := w.store.ClaimWebhookDeliveries(ctx, w.opts.Now(), w.opts.Lease, w.opts.Batch)
		if err != nil {
			return r, err
		}
		if len(rows) == 0 {
			return r, nil
		}
		if err := w.deliverClaimed(ctx, rows, &r, disabled); err != nil {
			return r, err
		}
	}
	return r, ctx.Err()
}

// deliverClaimed sends one claim's rows, up to Concurrency at once. A
// webhook's rows go one after the other in queue order (its ping first;
// the fifth failure in a row stops it before the next), and a row about a
// resource (an order's update) waits for the rows about that resource
// queued before it, to any webhook (the order's creation), so no receiver
// hears of a change before the change it follows. Every wait is on an
// earlier row, and a slot is taken only to send, so nothing deadlocks.
// The next claim waits for this one: related rows of two claims never
// race each other.
func (w *Worker) deliverClaimed(ctx context.Context, rows []Delivery, r *Result, disabled map[int64]bool) error {
	done := make([]chan struct{}, len(rows))
	after := make([]int, len(rows)) // the row about the same resource queued before, or -1
	last := map[string]int{}
	byHook := map[int64][]int{}
	var hooks []int64
	for i, d := range rows {
		done[i] = make(chan struct{})
		after[i] = -1
		if d.Topic != TopicPing {
			resource, _ := Split(d.Topic)
			key := resource + ":" + strconv.FormatInt(d.ResourceID, 10)
			if j, ok := last[key]; ok {
				after[i] = j
			}
			last[key] = i
		}
		if _, ok := byHook[d.Hook.ID]; !ok {
			hooks = append(hooks, d.Hook.ID)
		}
		byHook[d.Hook.ID] = append(byHook[d.Hook.ID], i)
	}
	slots := make(chan struct{}, w.opts.Concurrency)
	var mu sync.Mutex // guards r and disabled
	g, gctx := errgroup.WithContext(ctx)
	for _, id := range hooks {
		g.Go(func() error {
			for _, i := range byHook[id] {
				if err := w.deliverRow(gctx, rows[i], done, after[i], slots, &mu, r, disabled); err != nil {
					close(done[i])
					return err
				}
				close(done[i])
			}
			return nil
		})
	}
	return g.Wait()
}

// deliverRow waits for the row it follows, takes a slot and makes d's attempt.
func (w *Worker) deliverRow(ctx context.Context, d Delivery, done []chan struct{}, after int, slots chan struct{}, mu *sync.Mutex, r *Result, disabled map[int64]bool) error {
	if after >= 0 {
		select {
		case <-done[after]:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	select {
	case slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-slots }()
	mu.Lock()
	if disabled[d.Hook.ID] {
		d.Hook.Status = StatusDisabled
	}
	mu.Unlock()
	var one Result
	err := w.deliver(ctx, d, &one)
	mu.Lock()
	r.Delivered += one.Delivered
	r.Failed += one.Failed
	r.Dropped += one.Dropped
	r.Disabled += one.Disabled
	if one.Disabled > 0 {
		disabled[d.Hook.ID] = true
	}
	mu.Unlock()
	return err
}

// DeliveryID is X-WC-Webhook-Delivery-ID: the same for every attempt of
// one queued event, so a receiver can drop a copy.
func DeliveryID(secret string, queueID int64) string {
	sum := sha256.Sum256([]byte(secret + ":" + strconv.FormatInt(queueID, 10)))
	return hex.EncodeToString(sum[:16])
}

// Sign is X-WC-Webhook-Signature: base64(HMAC-SHA256(body, secret)).
func Sign(body []byte, secret string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// request builds the attempt's body and headers.
func (w *Worker) request(ctx context.Context, d Delivery) (body []byte, header http.Header, err error) {
	header = http.Header{}
	header.Set("User-Agent", "WooCommerce/"+WooCommerceVersion+" Hookshot (WordPress/"+WordPressVersion+")")
	if d.Topic == TopicPing {
		header.Set("Content-Type", "application/x-www-form-urlencoded")
		return []byte("webhook_id=" + strconv.FormatInt(d.Hook.ID, 10)), header, nil
	}
	resource, event := Split(d.Topic)
	if event == "deleted" {
		body, err = json.Marshal(map[string]int64{"id": d.ResourceID})
	} else {
		body, err = w.payload(ctx, resource, d.ResourceID)
	}
	if err != nil {
		return nil, nil, err
	}
	header.Set("Content-Type", "application/json")
	header.Set("X-WC-Webhook-Source", w.opts.Source)
	header.Set("X-WC-Webhook-Topic", d.Topic)
	header.Set("X-WC-Webhook-Resource", resource)
	header.Set("X-WC-Webhook-Event", event)
	header.Set("X-WC-Webhook-Signature", Sign(body, d.Hook.Secret))
	header.Set("X-WC-Webhook-ID", strconv.FormatInt(d.Hook.ID, 10))
	header.Set("X-WC-Webhook-Delivery-ID", DeliveryID(d.Hook.Secret, d.ID))
	return body, header, nil
}

// deliver makes one attempt of d and records its outcome in r (Disabled:
// this failure disabled the webhook).
func (w *Worker) deliver(ctx context.Context, d Delivery, r *Result) error {
	now := w.opts.Now()
	if d.Hook.Status != StatusActive {
		r.Dropped++
		return w.store.DropWebhookDelivery(ctx, d, "the webhook is "+d.Hook.Status, now)
	}
	body, header, err := w.request(ctx, d)
	if errors.Is(err, ErrGone) {
		r.Dropped++
		return w.store.DropWebhookDelivery(ctx, d, err.Error(), now)
	}
	if err != nil {
		// The store failed building the body: try again after the lease.
		w.log.Warn("webhooks: build the body", "webhook", d.Hook.ID, "topic", d.Topic, "id", d.ResourceID, "error", err)
		return nil
	}
	e := LogEntry{WebhookID: d.Hook.ID, QueueID: d.ID, DeliveryID: header.Get("X-WC-Webhook-Delivery-ID"), Topic: d.Topic, At: now,
		RequestURL: d.Hook.DeliveryURL, RequestHeaders: map[string]string{}, RequestBodySize: len(body)}
	for k := range header {
		e.RequestHeaders[k] = header.Get(k)
	}
	start := time.Now()
	code, sendErr := w.send(ctx, d.Hook.DeliveryURL, body, header)
	e.Duration = time.Since(start)
	e.ResponseCode = code
	if sendErr == nil && code >= 200 && code < 300 {
		r.Delivered++
		return w.store.WebhookDelivered(ctx, d, e, LogKeep, w.opts.Now())
	}
	if sendErr != nil {
		e.ResponseError = sendErr.Error()
	} else {
		e.ResponseError = "HTTP " + strconv.Itoa(code)
	}
	if ctx.Err() != nil {
		return ctx.Err() // shutting down: the lease brings the row back
	}
	r.Failed++
	next := w.opts.Now().Add(w.backoff(d.Attempts))
	disabled, err := w.store.WebhookFailed(ctx, d, e, next, d.Attempts >= w.opts.MaxAttempts, MaxFailures, LogKeep, w.opts.Now())
	if disabled {
		r.Disabled++
		w.log.Warn("webhooks: disabled after failed deliveries", "webhook", d.Hook.ID, "url", d.Hook.DeliveryURL, "error", e.ResponseError)
	}
	return err
}

// send posts body and answers the response's status.
func (w *Worker) send(ctx context.Context, url string, body []byte, header http.Header) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, w.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header = header
	resp, err := w.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	return resp.StatusCode, nil
}

// backoff is the delay after the attempts-th failed attempt.
func (w *Worker) backoff(attempts int) time.Duration {
	d := w.opts.Backoff
	for i := 1; i < attempts && d < w.opts.MaxBackoff; i++ {
		d *= 2
	}
	d = min(d, w.opts.MaxBackoff)
	j := 0.75 + 0.5*w.opts.Jitter()
	return time.Duration(float64(d) * j)
}

// String names a delivery in logs.
func (d Delivery) String() string {
	return fmt.Sprintf("%s #%d → webhook %d", d.Topic, d.ResourceID, d.Hook.ID)
}
