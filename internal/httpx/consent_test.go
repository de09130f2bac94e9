package httpx_test

import (
	"net/http/httptest"
	"testing"

	"vitrine/internal/consent"
	"vitrine/internal/httpx"
)

func TestConsentFromRequest(t *testing.T) {
	r := httptest.NewRequest("POST", "/checkout/", nil)
	if s := httpx.Consent(r); s != (consent.Signal{}) {
		t.Errorf("nothing said: %+v", s)
	}
	r.Header.Set("Cookie", "other=1; vitrine_consent=granted")
	if s := httpx.Consent(r); s != (consent.Signal{Choice: consent.Granted}) {
		t.Errorf("accepted: %+v", s)
	}
	r.Header.Set("Sec-GPC", "1")
	if s := httpx.Consent(r); s != (consent.Signal{Choice: consent.Granted, GPC: true}) || s.Allows(false) {
		t.Errorf("accepted under GPC: %+v", s)
	}
}
