package httpx

import (
	"net/http"

	"vitrine/internal/consent"
)

// Consent is what r says about non-essential storage: the shopper's
// choice in the consent cookie and the Sec-GPC header (internal/consent).
func Consent(r *http.Request) consent.Signal {
	var cookie string
	if c, err := r.Cookie(consent.CookieName); err == nil {
		cookie = c.Value
	}
	return consent.Read(cookie, r.Header.Get("Sec-GPC"))
}
