package paypal

import (
	"errors"
	"fmt"
	"strings"
)

// Issues of 422 answers the shop handles.
const (
	IssueInstrumentDeclined   = "INSTRUMENT_DECLINED"    // restart the buyer so they pick another funding source
	IssueOrderAlreadyCaptured = "ORDER_ALREADY_CAPTURED" // the money is already taken: read the order
	IssueOrderNotApproved     = "ORDER_NOT_APPROVED"     // the buyer has not approved yet
	IssuePayerActionRequired  = "PAYER_ACTION_REQUIRED"  // the buyer must act again (3-D Secure)
	IssueDuplicateInvoiceID   = "DUPLICATE_INVOICE_ID"
)

// ErrorDetail is one entry of an error answer's details.
type ErrorDetail struct {
	Field       string `json:"field,omitempty"`
	Value       string `json:"value,omitempty"`
	Location    string `json:"location,omitempty"`
	Issue       string `json:"issue"`
	Description string `json:"description,omitempty"`
}

// APIError is a non-2xx answer of the PayPal API, in PayPal's error shape
// (name, message, debug_id, details). OAuth answers ({error,
// error_description}) are mapped to Name and Message. An APIError means
// PayPal received and answered the request: the outcome is known.
type APIError struct {
	Status  int
	Name    string
	Message string
	DebugID string
	Details []ErrorDetail
}

func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "paypal: %d %s", e.Status, e.Name)
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	for _, d := range e.Details {
		b.WriteString(" [" + d.Issue)
		if d.Field != "" {
			b.WriteString(" " + d.Field)
		}
		b.WriteString("]")
	}
	if e.DebugID != "" {
		b.WriteString(" (debug_id " + e.DebugID + ")")
	}
	return b.String()
}

// HasIssue reports whether the answer names the issue in its details (or,
// for answers without details, as its name).
func (e *APIError) HasIssue(issue string) bool {
	if e == nil {
		return false
	}
	for _, d := range e.Details {
		if d.Issue == issue {
			return true
		}
	}
	return e.Name == issue
}

// Temporary reports whether retrying the same request (with the same
// PayPal-Request-Id) may succeed: 429 and 5xx answers.
func (e *APIError) Temporary() bool {
	return e.Status == 429 || e.Status >= 500
}

// NetworkError is a request whose answer never arrived or could not be read
// (connection refused or reset, timeout, cancelled context, a 2xx body that
// is not JSON). The request may or may not have taken effect at PayPal:
// retry it with the same PayPal-Request-Id, which replays the first result.
type NetworkError struct {
	Op  string // "POST /v2/checkout/orders/{id}/capture" and so on
	Err error
}

func (e *NetworkError) Error() string { return "paypal: " + e.Op + ": " + e.Err.Error() }

// Unwrap gives the cause (context.DeadlineExceeded for a timeout).
func (e *NetworkError) Unwrap() error { return e.Err }

// HasIssue reports whether err is an *APIError naming the issue: HasIssue(err,
// IssueInstrumentDeclined) after a declined capture.
func HasIssue(err error, issue string) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.HasIssue(issue)
}

// IsNetworkError reports whether err is a *NetworkError: the outcome is
// unknown and the caller should retry with the same request id.
func IsNetworkError(err error) bool {
	var ne *NetworkError
	return errors.As(err, &ne)
}

// Retryable reports whether retrying with the same request id is the right
// answer to err: a network error, or a 429/5xx API answer.
func Retryable(err error) bool {
	if IsNetworkError(err) {
		return true
	}
	var ae *APIError
	return errors.As(err, &ae) && ae.Temporary()
}
