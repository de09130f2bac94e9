package paypalsandbox_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"vitrine/internal/payment/paypal"
	"vitrine/internal/payment/paypalsandbox"
)

// Refunds through the client against the sandbox: partial then the rest,
// the PayPal-Request-Id replaying the first refund (also after a lost
// answer and under concurrent retries), the amount never more than what is
// left, and PayPal's refusals.
func TestRefundCapture(t *testing.T) {
	sb, c, _ := setup(t, nil, "", false)
	o := order(t, c, "http://shop.example", "k-refund")
	if _, err := sb.Approve(o.ID, paypalsandbox.FundingPayPal); err != nil {
		t.Fatal(err)
	}
	paid, err := c.CaptureOrder(ctx(t), o.ID, "cap-refund")
	if err != nil {
		t.Fatal(err)
	}
	capID := paid.Captures()[0].ID
	usd := func(v int64) *paypal.Money { m, _ := paypal.NewMoney("USD", v); return &m }

	// A partial refund: 10.00 of 37.50.
	r1, err := c.RefundCapture(ctx(t), capID, "rf-1", paypal.RefundRequest{Amount: usd(1000), NoteToPayer: "Broken mug"})
	if err != nil || r1.Status != paypal.RefundStatusCompleted || r1.Replayed || r1.Amount.Value != "10.00" || r1.ID == "" {
		t.Fatalf("partial refund: %+v %v", r1, err)
	}
	// The same key replays it (200, same id), refunding nothing more.
	again, err := c.RefundCapture(ctx(t), capID, "rf-1", paypal.RefundRequest{Amount: usd(1000), NoteToPayer: "Broken mug"})
	if err != nil || !again.Replayed || again.ID != r1.ID {
		t.Fatalf("replay: %+v %v", again, err)
	}
	// The same key with another body is refused.
	var ae *paypal.APIError
	if _, err := c.RefundCapture(ctx(t), capID, "rf-1", paypal.RefundRequest{Amount: usd(2000)}); !errors.As(err, &ae) || !ae.HasIssue("DUPLICATE_REQUEST_ID") {
		t.Fatalf("reused key: %v", err)
	}
	// More than what is left (27.50) is refused, and changes nothing.
	if _, err := c.RefundCapture(ctx(t), capID, "rf-2", paypal.RefundRequest{Amount: usd(2751)}); !errors.As(err, &ae) || ae.Status != 422 || !ae.HasIssue("REFUND_AMOUNT_EXCEEDED") {
		t.Fatalf("too much: %v", err)
	}
	if _, err := c.RefundCapture(ctx(t), capID, "rf-3", paypal.RefundRequest{Amount: &paypal.Money{CurrencyCode: "EUR", Value: "1.00"}}); !errors.As(err, &ae) || !ae.HasIssue("REFUND_CAPTURE_CURRENCY_MISMATCH") {
		t.Fatalf("currency: %v", err)
	}
	if _, err := c.RefundCapture(ctx(t), "NOSUCHCAPTURE", "rf-4", paypal.RefundRequest{}); !errors.As(err, &ae) || ae.Status != 404 {
		t.Fatalf("unknown capture: %v", err)
	}
	if _, err := c.RefundCapture(ctx(t), capID, "", paypal.RefundRequest{}); !errors.Is(err, paypal.ErrMissingRequestID) {
		t.Fatalf("no key: %v", err)
	}
	if _, err := c.RefundCapture(ctx(t), "../x", "rf-5", paypal.RefundRequest{}); err == nil {
		t.Fatal("a capture id with a path accepted")
	}
	if sb.Refunds(capID) != 1 || sb.Refunded(capID) != 1000 {
		t.Fatalf("refunds %d, refunded %d", sb.Refunds(capID), sb.Refunded(capID))
	}

	// The rest, with no amount; the answer is lost once (the refund is
	// made, the client times out), and five concurrent retries with the
	// same key replay it: one refund in all.
	sb.DelayNext("POST", "/refund", 1, 2*time.Second)
	short, cancel := contextWithTimeout(t, 200*time.Millisecond)
	_, err = c.RefundCapture(short, capID, "rf-rest", paypal.RefundRequest{})
	cancel()
	var ne *paypal.NetworkError
	if !errors.As(err, &ne) {
		t.Fatalf("lost answer: %v", err)
	}
	var wg sync.WaitGroup
	ids := make([]string, 5)
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := c.RefundCapture(ctx(t), capID, "rf-rest", paypal.RefundRequest{})
			if err != nil {
				t.Error(err)
				return
			}
			ids[i] = r.ID
		}()
	}
	wg.Wait()
	for _, id := range ids {
		if id == "" || id != ids[0] {
			t.Fatalf("retries answered different refunds: %v", ids)
		}
	}
	if sb.Refunds(capID) != 2 || sb.Refunded(capID) != 3750 {
		t.Fatalf("after the rest: refunds %d, refunded %d", sb.Refunds(capID), sb.Refunded(capID))
	}
	got, _ := sb.Order(o.ID)
	if cp := got.Captures()[0]; cp.Status != paypal.CaptureStatusRefunded || len(got.PurchaseUnits[0].Payments.Refunds) != 2 {
		t.Fatalf("capture after full refund: %+v", got.PurchaseUnits[0].Payments)
	}
	if _, err := c.RefundCapture(ctx(t), capID, "rf-6", paypal.RefundRequest{Amount: usd(1)}); !errors.As(err, &ae) || !ae.HasIssue("CAPTURE_FULLY_REFUNDED") {
		t.Fatalf("refund of a refunded capture: %v", err)
	}
}

func contextWithTimeout(t *testing.T, d time.Duration) (context.Context, context.CancelFunc) {
	t.Helper()
	return context.WithTimeout(context.Background(), d)
}
