// Package alerts is the shop's back-in-stock and price-drop alerts.
//
// Back in stock: a shopper asks to be told when an out-of-stock item (a
// simple product, or one variation of a variable product) can be bought
// again. A guest gives an address and confirms it from a mailed link (double
// opt-in; only the link token's hash is stored, the token sealed beside it
// for the mail); a logged-in customer waits at once. The store queues a
// restock in the transaction of whatever write took the item out of
// "outofstock" (a trigger on products, so no write path is missed); the
// worker (RunRestocks) claims each restock and marks its waiting alerts sent
// in batches with a conditional UPDATE, queueing each one's mail in the same
// transaction: across instances an alert is mailed once.
//
// Customers may also opt in (My account) to mails about their wishlisted
// items: back in stock, and price drops of at least the shop's threshold
// (a digest at most once a day, listing every drop).
package alerts

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Alert statuses.
const (
	StatusPending      = "pending"      // a guest's, until the mailed link is opened
	StatusWaiting      = "waiting"      // confirmed: mailed when the item is back
	StatusSent         = "sent"         // its mail was queued
	StatusUnsubscribed = "unsubscribed" // the person said no more
)

// Outbox kinds of the alerts' mails.
const (
	// MailConfirm asks a guest to confirm an alert; ref is the alert id.
	MailConfirm = "stock_alert_confirm"
	// MailBackInStock tells a subscriber the item is back; ref is the alert id.
	MailBackInStock = "stock_alert"
	// MailWishlistBack tells a customer a wishlisted item is back; ref is
	// "<user id>.<item id>".
	MailWishlistBack = "wishlist_back_in_stock"
	// MailPriceDrop is a customer's daily digest of price drops; ref is
	// "<user id>.<YYYY-MM-DD>".
	MailPriceDrop = "wishlist_price_drop"
)

// MailKinds lists the kinds above.
var MailKinds = []string{MailConfirm, MailBackInStock, MailWishlistBack, MailPriceDrop}

// BotcheckPurpose is the bot-check's purpose for the notify form (its
// challenge is at /wp-json/vitrine/v1/botcheck/stock-alert).
const BotcheckPurpose = "stock-alert"

// Paths of the public links (internal/alertsapi answers them).
const (
	SubscribePath   = "/stock-alerts/subscribe/"
	ConfirmPath     = "/stock-alerts/confirm/"
	UnsubscribePath = "/stock-alerts/unsubscribe/"
)

// Defaults.
const (
	// ConfirmLifetime is how long a guest's confirmation link works.
	ConfirmLifetime = 48 * time.Hour
	// DefaultThresholdBP is the price drop that is mailed about, in basis
	// points of the reference price (10 %).
	DefaultThresholdBP = 1000
	// Batch is how many alerts one transaction marks sent and queues.
	Batch = 500
	// RestockLease is how long an instance holds a restock it works on.
	RestockLease = 2 * time.Minute
)

// Errors of the use cases; the adapters map each to its answer.
var (
	ErrInvalidEmail = errors.New("alerts: enter a valid email address")
	ErrUnknownItem  = errors.New("alerts: no such product")
	ErrInStock      = errors.New("alerts: this item is in stock")
	ErrChooseOption = errors.New("alerts: choose the product's options first")
	ErrLinkInvalid  = errors.New("alerts: the link is unknown, used or expired")
	ErrNotFound     = errors.New("alerts: not found")
)

// Item is what an alert is about: a simple product or a variation.
type Item struct {
	ID       int64
	ParentID int64  // a variation's product; 0 otherwise
	Type     string // simple, variable, variation, …
	Name     string // the variation's full name for a variation
	Slug     string // the product page's slug (the parent's for a variation)
	Status   string // publish, draft, …
	InStock  bool
}

// Alert is one stored alert.
type Alert struct {
	ID             int64
	ProductID      int64
	Email          string
	UserID         int64
	Status         string
	ConfirmHash    string
	ConfirmSealed  string
	ConfirmExpires time.Time
	CreatedAt      time.Time
}

// NewAlert is an alert to record.
type NewAlert struct {
	ProductID      int64
	Email          string
	UserID         int64
	Status         string
	ConfirmHash    string // pending only
	ConfirmSealed  string
	ConfirmExpires time.Time
	CreatedAt      time.Time
}

// Prefs are a customer's choices for their wishlist's mails.
type Prefs struct {
	BackInStock bool `json:"back_in_stock"`
	PriceDrop   bool `json:"price_drop"`
}

// Drop is one wishlisted item whose price fell.
type Drop struct {
	ProductID int64  `json:"product_id"` // the item (a variation's id for a variation)
	Name      string `json:"name"`
	Slug      string `json:"slug"`
	From      int64  `json:"from"` // minor units: the price added at or last mailed about
	To        int64  `json:"to"`
}

// DropCandidate is a wishlisted item with its reference and current price.
type DropCandidate struct {
	ProductID int64
	Name      string
	Slug      string
	Reference int64 // price_added, or the last price mailed about
	Price     int64 // now
}

// Counts are an item's alerts by state (the admin's figures).
type Counts struct {
	ProductID int64  `json:"product_id"`
	Name      string `json:"name"`
	Pending   int    `json:"pending"`
	Waiting   int    `json:"waiting"`
	Sent      int    `json:"sent"`
	// Unsubscribed counts alerts turned off.
	Unsubscribed int `json:"unsubscribed"`
}

// IsDrop reports whether a fall from ref to price is at least thresholdBP
// basis points of ref (integer arithmetic: 9.99 % is not 10 %).
func IsDrop(ref, price int64, thresholdBP int) bool {
	if ref <= 0 || price >= ref || price < 0 {
		return false
	}
	if thresholdBP <= 0 {
		thresholdBP = DefaultThresholdBP
	}
	return (ref-price)*10000 >= ref*int64(thresholdBP)
}

// ParsePercent reads a threshold typed as a percentage ("10", "12.5")
// into basis points; it must lie in (0, 100).
func ParsePercent(s string) (int, error) {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "%"))
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || len(frac) > 2 {
		return 0, fmt.Errorf("alerts: the threshold is a percentage with at most two decimals")
	}
	for len(frac) < 2 {
		frac += "0"
	}
	w, err1 := strconv.Atoi(whole)
	f, err2 := strconv.Atoi(frac)
	if err1 != nil || err2 != nil || w < 0 || f < 0 {
		return 0, fmt.Errorf("alerts: the threshold is a percentage with at most two decimals")
	}
	bp := w*100 + f
	if bp <= 0 || bp >= 10000 {
		return 0, fmt.Errorf("alerts: the threshold must be above 0 %% and below 100 %%")
	}
	return bp, nil
}

// unsubscribe tokens: "a<alert id>.<mac>" turns off an alert (and the
// address's other open alerts), "c<user id>.<mac>" a customer's wishlist
// mails. The MAC is HMAC-SHA-256 under a key derived from the shop's
// secret, so the link needs no stored state and works any number of times.

func unsubMAC(key []byte, subject string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("alerts-unsubscribe|" + subject))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:18])
}

// UnsubToken is the unsubscribe token of an alert ('a') or a customer ('c').
func UnsubToken(key []byte, kind byte, id int64) string {
	subject := string(kind) + strconv.FormatInt(id, 10)
	return subject + "." + unsubMAC(key, subject)
}

// parseUnsub checks a token and returns its kind and id.
func parseUnsub(key []byte, tok string) (byte, int64, bool) {
	subject, mac, ok := strings.Cut(tok, ".")
	if !ok || len(subject) < 2 || len(tok) > 100 || (subject[0] != 'a' && subject[0] != 'c') {
		return 0, 0, false
	}
	id, err := strconv.ParseInt(subject[1:], 10, 64)
	if err != nil || id <= 0 || strconv.FormatInt(id, 10) != subject[1:] {
		return 0, 0, false
	}
	if !hmac.Equal([]byte(mac), []byte(unsubMAC(key, subject))) {
		return 0, 0, false
	}
	return subject[0], id, true
}
