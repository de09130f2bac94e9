package paypal_test

import (
	"errors"
	"testing"

	"vitrine/internal/payment/paypal"
)

// CheckCredentials is the admin's test call: the sandbox on loopback
// issues a token for its credentials and refuses others with its OAuth
// answer.
func TestCheckCredentials(t *testing.T) {
	e := newEnv(t)
	if err := e.c.CheckCredentials(ctx(t)); err != nil {
		t.Fatalf("good credentials: %v", err)
	}
	bad := &paypal.Client{BaseURL: e.srv.URL, ClientID: "client-id", Secret: "wrong", HTTP: e.srv.Client()}
	err := bad.CheckCredentials(ctx(t))
	var ae *paypal.APIError
	if !errors.As(err, &ae) || ae.Status != 401 || ae.Name != "invalid_client" {
		t.Fatalf("wrong secret: %v", err)
	}
}
