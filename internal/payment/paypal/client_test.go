package paypal_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"vitrine/internal/payment/paypal"
)

func TestTokenCachedAndSharedByConcurrentCalls(t *testing.T) {
	e := newEnv(t)
	id := e.created("create-1")
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := e.c.GetOrder(ctx(t), id)
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := e.sb.TokenRequests(); n != 1 {
		t.Fatalf("token requests = %d, want 1 for 21 calls", n)
	}
}

func TestConcurrentFirstCallsShareOneTokenFetch(t *testing.T) {
	e := newEnv(t)
	var wg sync.WaitGroup
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := e.c.GetOrder(ctx(t), "UNKNOWN")
			if ae := (*paypal.APIError)(nil); !errors.As(err, &ae) || ae.Status != 404 {
				t.Errorf("GetOrder unknown: %v", err)
			}
		}()
	}
	wg.Wait()
	if n := e.sb.TokenRequests(); n != 1 {
		t.Fatalf("token requests = %d, want 1", n)
	}
}

func TestTokenRefreshedOn401(t *testing.T) {
	e := newEnv(t)
	id := e.created("create-1")
	e.sb.ExpireTokens()
	o, err := e.c.GetOrder(ctx(t), id)
	if err != nil {
		t.Fatalf("GetOrder after the token was revoked: %v", err)
	}
	if o.ID != id {
		t.Fatalf("got order %q", o.ID)
	}
	if n := e.sb.TokenRequests(); n != 2 {
		t.Fatalf("token requests = %d, want 2", n)
	}
}

func TestTokenRenewedBeforeExpiry(t *testing.T) {
	e := newEnv(t, func(c *paypalsandboxConfig) { c.TokenTTL = 10 * time.Minute })
	now := time.Now()
	var mu sync.Mutex
	e.c.Now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	id := e.created("create-1")
	mu.Lock()
	now = now.Add(8 * time.Minute) // still more than a minute left
	mu.Unlock()
	if _, err := e.c.GetOrder(ctx(t), id); err != nil {
		t.Fatal(err)
	}
	if n := e.sb.TokenRequests(); n != 1 {
		t.Fatalf("token requests = %d, want 1", n)
	}
	mu.Lock()
	now = now.Add(90 * time.Second) // within the last minute: renew
	mu.Unlock()
	if _, err := e.c.GetOrder(ctx(t), id); err != nil {
		t.Fatal(err)
	}
	if n := e.sb.TokenRequests(); n != 2 {
		t.Fatalf("token requests = %d, want 2", n)
	}
}

func TestBadCredentialsAreAnAPIError(t *testing.T) {
	e := newEnv(t)
	e.c.Secret = "wrong"
	_, err := e.c.GetOrder(ctx(t), "ABC")
	var ae *paypal.APIError
	if !errors.As(err, &ae) || ae.Status != 401 || ae.Name != "invalid_client" {
		t.Fatalf("err = %v, want 401 invalid_client", err)
	}
	if paypal.IsNetworkError(err) || paypal.Retryable(err) {
		t.Fatal("a refused credential is neither a network error nor retryable")
	}
}

func TestCreateGetPatchCapture(t *testing.T) {
	e := newEnv(t)
	o, err := e.c.CreateOrder(ctx(t), "create-1", createReq(t, spec()))
	if err != nil {
		t.Fatal(err)
	}
	if o.Status != paypal.StatusCreated || o.Replayed || o.ID == "" {
		t.Fatalf("created order: %+v", o)
	}
	if u := o.ApproveURL(); u != e.srv.URL+"/checkoutnow?token="+o.ID {
		t.Fatalf("approve URL = %q", u)
	}
	got, err := e.c.GetOrder(ctx(t), o.ID)
	if err != nil {
		t.Fatal(err)
	}
	pu := got.PurchaseUnits[0]
	if pu.Amount.Value != "34.39" || pu.Amount.Breakdown.ItemTotal.Value != "30.00" || pu.Amount.Breakdown.Discount.Value != "3.00" ||
		len(pu.Items) != 2 || pu.Items[0].Quantity != "2" || pu.CustomID != "1001" || pu.ReferenceID != "default" {
		t.Fatalf("stored purchase unit: %+v", pu)
	}

	// Capture before approval.
	_, err = e.c.CaptureOrder(ctx(t), o.ID, "capture-1")
	if !paypal.HasIssue(err, paypal.IssueOrderNotApproved) {
		t.Fatalf("capture before approval: %v", err)
	}

	// Final totals: shipping changes to 9.99 → 39.39.
	s := spec()
	s.Shipping, s.Total, s.InvoiceID = 999, 3939, "INV-1001"
	final, err := paypal.NewPurchaseUnit(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.c.PatchOrder(ctx(t), o.ID, paypal.ReplaceOps(final)); err != nil {
		t.Fatalf("PatchOrder: %v", err)
	}
	got, err = e.c.GetOrder(ctx(t), o.ID)
	if err != nil {
		t.Fatal(err)
	}
	if v := got.PurchaseUnits[0].Amount.Value; v != "39.39" || got.PurchaseUnits[0].InvoiceID != "INV-1001" {
		t.Fatalf("after patch: amount %s invoice %q", v, got.PurchaseUnits[0].InvoiceID)
	}

	if _, err := e.sb.Approve(o.ID, "paypal"); err != nil {
		t.Fatal(err)
	}
	done, err := e.c.CaptureOrder(ctx(t), o.ID, "capture-1")
	if err != nil {
		t.Fatalf("capture: %v", err)
	}
	caps := done.Captures()
	if done.Status != paypal.StatusCompleted || len(caps) != 1 || caps[0].Status != paypal.CaptureStatusCompleted || done.Replayed {
		t.Fatalf("captured order: %+v", done)
	}
	if minor, err := caps[0].Amount.Minor(); err != nil || minor != 3939 {
		t.Fatalf("captured %v (%v), want exactly the shop total 3939", minor, err)
	}
	if done.Payer == nil || done.Payer.EmailAddress == "" || done.PurchaseUnits[0].Shipping.Address.CountryCode != "US" {
		t.Fatalf("payer/shipping after approval: %+v %+v", done.Payer, done.PurchaseUnits[0].Shipping)
	}
	if n := e.sb.Captures(o.ID); n != 1 {
		t.Fatalf("captures = %d", n)
	}
	// Patching a captured order is refused.
	if err := e.c.PatchOrder(ctx(t), o.ID, paypal.ReplaceOps(final)); !paypal.HasIssue(err, "ORDER_ALREADY_COMPLETED") {
		t.Fatalf("patch after capture: %v", err)
	}
}

func TestPatchThatBreaksTheBreakdownIsRefused(t *testing.T) {
	e := newEnv(t)
	id := e.created("create-1")
	ops := []paypal.PatchOp{{Op: "replace", Path: paypal.PurchaseUnitPath("default", "amount"), Value: map[string]any{"currency_code": "USD", "value": "99.00",
		"breakdown": map[string]any{"item_total": map[string]string{"currency_code": "USD", "value": "30.00"}}}}}
	err := e.c.PatchOrder(ctx(t), id, ops)
	var ae *paypal.APIError
	if !errors.As(err, &ae) || ae.Status != 422 || !ae.HasIssue("AMOUNT_MISMATCH") {
		t.Fatalf("err = %v", err)
	}
	o, _ := e.c.GetOrder(ctx(t), id)
	if o.PurchaseUnits[0].Amount.Value != "34.39" {
		t.Fatalf("a refused patch changed the amount to %s", o.PurchaseUnits[0].Amount.Value)
	}
}

func TestIdempotentCreateReplays(t *testing.T) {
	e := newEnv(t)
	a, err := e.c.CreateOrder(ctx(t), "create-1", createReq(t, spec()))
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.c.CreateOrder(ctx(t), "create-1", createReq(t, spec()))
	if err != nil {
		t.Fatal(err)
	}
	if !b.Replayed || a.Replayed || b.ID != a.ID {
		t.Fatalf("replay: first %s (%v), second %s (%v)", a.ID, a.Replayed, b.ID, b.Replayed)
	}
	if n := e.sb.OrderCount(); n != 1 {
		t.Fatalf("orders = %d, want 1", n)
	}
	// Same key, different body.
	s := spec()
	s.CustomID = "other"
	_, err = e.c.CreateOrder(ctx(t), "create-1", createReq(t, s))
	var ae *paypal.APIError
	if !errors.As(err, &ae) || ae.Status != 422 || !ae.HasIssue("DUPLICATE_REQUEST_ID") {
		t.Fatalf("same key, other body: %v", err)
	}
	if n := e.sb.OrderCount(); n != 1 {
		t.Fatalf("orders = %d, want 1", n)
	}
}

func TestConcurrentCapturesWithOneKeyCaptureOnce(t *testing.T) {
	e := newEnv(t)
	id := e.approved("create-1", "paypal")
	var wg sync.WaitGroup
	ids := make(chan string, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o, err := e.c.CaptureOrder(ctx(t), id, "capture-key")
			if err != nil {
				t.Error(err)
				return
			}
			ids <- o.Captures()[0].ID
		}()
	}
	wg.Wait()
	close(ids)
	first := ""
	for c := range ids {
		if first == "" {
			first = c
		}
		if c != first {
			t.Fatalf("capture ids differ: %s %s", first, c)
		}
	}
	if n := e.sb.Captures(id); n != 1 {
		t.Fatalf("captures at the provider = %d, want 1", n)
	}
}

func TestCaptureTimeoutThenRetryWithSameKey(t *testing.T) {
	e := newEnv(t)
	id := e.approved("create-1", "paypal")
	// The capture happens, then the answer is held back; the caller gives
	// up as soon as the sandbox has captured.
	e.sb.DelayNext("POST", "/capture", 1, time.Minute)
	cctx, cancel := context.WithCancel(ctx(t))
	go func() {
		for e.sb.Captures(id) == 0 {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	_, err := e.c.CaptureOrder(cctx, id, "capture-key")
	if !paypal.IsNetworkError(err) || !errors.Is(err, context.Canceled) || !paypal.Retryable(err) {
		t.Fatalf("err = %v, want a network error wrapping context.Canceled", err)
	}
	var ae *paypal.APIError
	if errors.As(err, &ae) {
		t.Fatal("a lost answer must not look like an API error")
	}
	o, err := e.c.CaptureOrder(ctx(t), id, "capture-key")
	if err != nil {
		t.Fatalf("retry: %v", err)
	}
	if !o.Replayed || o.Status != paypal.StatusCompleted {
		t.Fatalf("retry: replayed %v status %s", o.Replayed, o.Status)
	}
	if n := e.sb.Captures(id); n != 1 {
		t.Fatalf("captures = %d, want 1", n)
	}
}

func TestCaptureAnswerDroppedThenRetry(t *testing.T) {
	e := newEnv(t)
	id := e.approved("create-1", "paypal")
	e.sb.AddFault(paypalsandboxFault("POST", "/capture"))
	_, err := e.c.CaptureOrder(ctx(t), id, "capture-key")
	if !paypal.IsNetworkError(err) {
		t.Fatalf("err = %v, want a network error", err)
	}
	if n := e.sb.Captures(id); n != 1 {
		t.Fatalf("captures = %d, want 1 (the capture happened)", n)
	}
	o, err := e.c.CaptureOrder(ctx(t), id, "capture-key")
	if err != nil || !o.Replayed {
		t.Fatalf("retry: %v %+v", err, o)
	}
	if n := e.sb.Captures(id); n != 1 {
		t.Fatalf("captures = %d, want 1", n)
	}
}

func TestServerErrorBeforeCaptureIsRetryable(t *testing.T) {
	e := newEnv(t)
	id := e.approved("create-1", "paypal")
	e.sb.FailNext("POST", "/capture", 1, 503)
	_, err := e.c.CaptureOrder(ctx(t), id, "capture-key")
	var ae *paypal.APIError
	if !errors.As(err, &ae) || ae.Status != 503 || !paypal.Retryable(err) || paypal.IsNetworkError(err) {
		t.Fatalf("err = %v", err)
	}
	if n := e.sb.Captures(id); n != 0 {
		t.Fatalf("captures = %d, want 0", n)
	}
	if _, err := e.c.CaptureOrder(ctx(t), id, "capture-key"); err != nil {
		t.Fatal(err)
	}
	if n := e.sb.Captures(id); n != 1 {
		t.Fatalf("captures = %d, want 1", n)
	}
}

func TestCaptureDeclined(t *testing.T) {
	e := newEnv(t)
	id := e.approved("create-1", "declined")
	_, err := e.c.CaptureOrder(ctx(t), id, "capture-key")
	var ae *paypal.APIError
	if !errors.As(err, &ae) || ae.Status != 422 || ae.Name != "UNPROCESSABLE_ENTITY" || !ae.HasIssue(paypal.IssueInstrumentDeclined) || ae.DebugID == "" {
		t.Fatalf("err = %v", err)
	}
	if paypal.Retryable(err) {
		t.Fatal("a decline is not retryable as is")
	}
	if n := e.sb.Captures(id); n != 0 {
		t.Fatalf("captures = %d", n)
	}
	// The buyer picks another funding source; the same key then captures.
	if _, err := e.sb.Approve(id, "paypal"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.c.CaptureOrder(ctx(t), id, "capture-key"); err != nil {
		t.Fatalf("capture after re-approval: %v", err)
	}
	if n := e.sb.Captures(id); n != 1 {
		t.Fatalf("captures = %d", n)
	}
}

func TestCaptureAlreadyCaptured(t *testing.T) {
	e := newEnv(t)
	id := e.approved("create-1", "paylater")
	if _, err := e.c.CaptureOrder(ctx(t), id, "capture-a"); err != nil {
		t.Fatal(err)
	}
	_, err := e.c.CaptureOrder(ctx(t), id, "capture-b")
	if !paypal.HasIssue(err, paypal.IssueOrderAlreadyCaptured) {
		t.Fatalf("err = %v", err)
	}
	if n := e.sb.Captures(id); n != 1 {
		t.Fatalf("captures = %d", n)
	}
}

func TestCapturePayerActionAndPending(t *testing.T) {
	e := newEnv(t)
	id := e.approved("create-1", "payer-action")
	if _, err := e.c.CaptureOrder(ctx(t), id, "k1"); !paypal.HasIssue(err, paypal.IssuePayerActionRequired) {
		t.Fatalf("err = %v", err)
	}
	id = e.approved("create-2", "pending")
	o, err := e.c.CaptureOrder(ctx(t), id, "k2")
	if err != nil {
		t.Fatal(err)
	}
	c := o.Captures()[0]
	if c.Status != paypal.CaptureStatusPending || c.StatusDetails == nil || c.StatusDetails.Reason != "PENDING_REVIEW" {
		t.Fatalf("capture = %+v", c)
	}
}

func TestUnbalancedBreakdownRefusedClientSide(t *testing.T) {
	e := newEnv(t)
	s := spec()
	s.Total = 3440 // one cent off
	_, err := paypal.NewPurchaseUnit(s)
	var ve *paypal.ValidationError
	if !errors.As(err, &ve) || !ve.HasIssue("AMOUNT_MISMATCH") || !errors.Is(err, paypal.ErrInvalidRequest) {
		t.Fatalf("NewPurchaseUnit: %v", err)
	}
	// Hand-built units are checked by CreateOrder before sending.
	req := createReq(t, spec())
	req.PurchaseUnits[0].Amount.Breakdown.ItemTotal.Value = "31.00"
	_, err = e.c.CreateOrder(ctx(t), "create-1", req)
	if !errors.As(err, &ve) || !ve.HasIssue("ITEM_TOTAL_MISMATCH") {
		t.Fatalf("CreateOrder: %v", err)
	}
	req = createReq(t, spec())
	req.PurchaseUnits[0].Amount.Value = "34.390"
	if _, err = e.c.CreateOrder(ctx(t), "create-2", req); !errors.As(err, &ve) || !ve.HasIssue("DECIMAL_PRECISION") {
		t.Fatalf("CreateOrder: %v", err)
	}
	req = createReq(t, spec())
	req.Intent = "SALE"
	if _, err = e.c.CreateOrder(ctx(t), "create-3", req); !errors.As(err, &ve) {
		t.Fatalf("CreateOrder bad intent: %v", err)
	}
	if e.sb.OrderCount() != 0 || e.sb.TokenRequests() != 0 {
		t.Fatal("a refused request reached the sandbox")
	}
}

func TestPurchaseUnitChecks(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(*paypal.UnitSpec)
		issue string
	}{
		{"item tax must sum to tax total", func(s *paypal.UnitSpec) { s.Items[0].Tax = 100; s.TaxTotal = 240 }, "TAX_TOTAL_MISMATCH"},
		{"zero quantity", func(s *paypal.UnitSpec) { s.Items[1].Quantity = 0; s.Total -= 500 }, "INVALID_PARAMETER_VALUE"},
		{"empty name", func(s *paypal.UnitSpec) { s.Items[0].Name = " " }, "INVALID_PARAMETER_VALUE"},
		{"zero total", func(s *paypal.UnitSpec) { s.Items = nil; s.Shipping, s.TaxTotal, s.Discount, s.Total = 0, 0, 0, 0 }, "CANNOT_BE_ZERO_OR_NEGATIVE"},
		{"negative shipping", func(s *paypal.UnitSpec) { s.Shipping = -1 }, "INVALID_PARAMETER_VALUE"},
		{"unknown currency", func(s *paypal.UnitSpec) { s.Currency = "XXX" }, "CURRENCY_NOT_SUPPORTED"},
		{"total off", func(s *paypal.UnitSpec) { s.Total++ }, "AMOUNT_MISMATCH"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := spec()
			c.edit(&s)
			_, err := paypal.NewPurchaseUnit(s)
			var ve *paypal.ValidationError
			if !errors.As(err, &ve) || !ve.HasIssue(c.issue) {
				t.Fatalf("err = %v, want issue %s", err, c.issue)
			}
		})
	}
	// Balanced variants pass: item tax that sums; no lines with an item
	// total; JPY with a shipping discount.
	s := spec()
	s.Items[0].Tax, s.Items[1].Tax, s.TaxTotal = 100, 40, 240
	if _, err := paypal.NewPurchaseUnit(s); err != nil {
		t.Fatal(err)
	}
	s = spec()
	s.Items, s.ItemTotal = nil, 3000
	if _, err := paypal.NewPurchaseUnit(s); err != nil {
		t.Fatal(err)
	}
	pu, err := paypal.NewPurchaseUnit(paypal.UnitSpec{Currency: "JPY", Items: []paypal.ItemSpec{{Name: "Tea", Quantity: 3, UnitAmount: 1200}}, Shipping: 800, ShippingDiscount: 800, Total: 3600})
	if err != nil {
		t.Fatal(err)
	}
	if pu.Amount.Value != "3600" || pu.Items[0].UnitAmount.Value != "1200" || pu.Amount.Breakdown.ShippingDiscount.Value != "800" {
		t.Fatalf("JPY unit: %+v", pu.Amount)
	}
}

func TestEmptyRequestIDRefusedBeforeSending(t *testing.T) {
	e := newEnv(t)
	if _, err := e.c.CreateOrder(ctx(t), "", createReq(t, spec())); !errors.Is(err, paypal.ErrMissingRequestID) {
		t.Fatalf("create: %v", err)
	}
	if _, err := e.c.CaptureOrder(ctx(t), "ABC", " "); !errors.Is(err, paypal.ErrMissingRequestID) {
		t.Fatalf("capture: %v", err)
	}
	if e.sb.TokenRequests() != 0 {
		t.Fatal("a refused request reached the sandbox")
	}
}

func TestBadOrderIDsRefused(t *testing.T) {
	e := newEnv(t)
	for _, id := range []string{"", "../token", "A/capture", "a b", strings.Repeat("A", 65)} {
		if _, err := e.c.GetOrder(ctx(t), id); !errors.Is(err, paypal.ErrInvalidRequest) {
			t.Errorf("GetOrder(%q) = %v", id, err)
		}
	}
}

func TestNetworkErrorsAreDistinguishable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	c := &paypal.Client{BaseURL: "http://" + addr, ClientID: "x", Secret: "y", HTTP: &http.Client{Timeout: 5 * time.Second}}
	_, err = c.GetOrder(ctx(t), "ABC")
	if !paypal.IsNetworkError(err) || !paypal.Retryable(err) {
		t.Fatalf("err = %v, want a network error", err)
	}
	e := newEnv(t)
	_, err = e.c.GetOrder(ctx(t), "NOSUCHORDER")
	var ae *paypal.APIError
	if !errors.As(err, &ae) || ae.Status != 404 || ae.Name != "RESOURCE_NOT_FOUND" || !ae.HasIssue("INVALID_RESOURCE_ID") || paypal.IsNetworkError(err) {
		t.Fatalf("err = %v, want 404 API error", err)
	}
	// A deadline already past is a network error wrapping the deadline.
	dctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	if _, err := e.c.GetOrder(dctx, "NOSUCHORDER"); !paypal.IsNetworkError(err) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
}

func TestTokenEndpointFailure(t *testing.T) {
	e := newEnv(t)
	e.sb.FailNext("POST", "/v1/oauth2/token", 1, 500)
	_, err := e.c.GetOrder(ctx(t), "ABC")
	var ae *paypal.APIError
	if !errors.As(err, &ae) || ae.Status != 500 || !paypal.Retryable(err) {
		t.Fatalf("err = %v", err)
	}
	if _, err := e.c.CreateOrder(ctx(t), "k", createReq(t, spec())); err != nil {
		t.Fatalf("after the token endpoint recovered: %v", err)
	}
}
