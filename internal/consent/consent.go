// Package consent owns the shopper's choice about non-essential cookies and
// storage (order attribution, recently viewed products): how the choice is
// remembered, how a request carries it, and when it allows such storage.
//
// The choice lives in one first-party cookie the storefront writes when the
// shopper presses Accept or Reject on the consent banner; the cookie is
// itself strictly necessary (it remembers a refusal too). A browser's
// Global Privacy Control signal (the Sec-GPC: 1 header, and
// navigator.globalPrivacyControl in the page) is a refusal that needs no
// banner. Pages are the same for every viewer (the shared page cache): the
// server never renders the choice, the browser reads it. The server reads
// it only where it keeps what a page sent, as the checkout does with order
// attribution (httpx.Consent reads a request's cookie and header). Decision
// record 0102 says what is essential and why.
package consent

import "strings"

// CookieName is the first-party cookie that remembers the choice
// (web/src/consent/consent.ts writes it).
const CookieName = "vitrine_consent"

// The cookie's values.
const (
	ValueGranted = "granted"
	ValueDenied  = "denied"
)

// Choice is what the shopper chose on the banner.
type Choice uint8

const (
	// Unset: no choice yet (or a cookie this version cannot read).
	Unset Choice = iota
	Granted
	Denied
)

// Signal is what a request says about consent: the remembered choice and
// the browser's Global Privacy Control. The zero Signal says nothing.
type Signal struct {
	Choice Choice
	// GPC is the Sec-GPC: 1 request header: a refusal, whatever the cookie says.
	GPC bool
}

// ParseChoice reads the cookie's value; anything else is Unset.
func ParseChoice(v string) Choice {
	switch strings.TrimSpace(v) {
	case ValueGranted:
		return Granted
	case ValueDenied:
		return Denied
	}
	return Unset
}

// Read is the signal of a request's consent cookie value (cookie: "" when
// absent) and Sec-GPC header value (httpx.Consent reads them).
func Read(cookie, secGPC string) Signal {
	return Signal{Choice: ParseChoice(cookie), GPC: strings.TrimSpace(secGPC) == "1"}
}

// Allows says whether non-essential storage is allowed. asked is whether
// the shop asks for consent (its consent banner is on): then only a
// shopper's Accept allows it. A shop that does not ask keeps its former
// behaviour, except that Global Privacy Control always refuses.
func (s Signal) Allows(asked bool) bool {
	if s.GPC || s.Choice == Denied {
		return false
	}
	return !asked || s.Choice == Granted
}
