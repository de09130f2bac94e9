// Package visits counts the storefront's sessions: one count per session
// start, kept per UTC hour, for the analytics' conversion rate (orders ÷
// sessions). Nothing about the visitor is kept: no identifier, no address,
// no cookie set by the server. The storefront's attribution script
// (web/src/attribution) says when it starts a new session, where it runs at
// all (the shop's attribution setting and the shopper's consent, decision
// 0102); the server checks the same rules and bounds what one address, and
// all of them, can add (Limiter). Decision record 0121.
package visits

import (
	"context"
	"strings"
	"time"

	"vitrine/internal/clock"
	"vitrine/internal/consent"
)

// Store keeps the counts (sqlstore/visits.go).
type Store interface {
	// VisitsAdd adds n session starts to the UTC hour starting at hour
	// (unix seconds, a multiple of 3600).
	VisitsAdd(ctx context.Context, hour int64, n int64) error
	// VisitsHours are the counted hours in [from, to) (unix seconds of
	// their starts), oldest first; hours without sessions are absent.
	VisitsHours(ctx context.Context, from, to int64) ([]Hour, error)
}

// Hour is one UTC hour's count.
type Hour struct {
	Start    int64 `db:"start"` // unix seconds of the hour's start
	Sessions int64 `db:"sessions"`
}

// Error is a refused session start: the REST error's status and code.
type Error struct {
	Status  int
	Code    string
	Message string
	// RetryAfter is how long to wait before another start is taken from
	// this client (rate limited only).
	RetryAfter time.Duration
	// Quiet is a refusal a page of the shop meets in an ordinary browser
	// (attribution off, consent withdrawn, an audit tool's user agent, many
	// shoppers behind one address): the adapter answers it as it answers a
	// count, so no shopper's console shows a failed request, and names
	// the reason in a header.
	Quiet bool
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// The refusals.
var (
	ErrOff       = &Error{Status: 403, Code: "vitrine_visits_off", Message: "The shop does not count sessions: order attribution is turned off.", Quiet: true}
	ErrNoConsent = &Error{Status: 403, Code: "vitrine_visits_no_consent", Message: "Sessions are counted only where the shopper allows attribution (consent, Global Privacy Control).", Quiet: true}
	ErrRobot     = &Error{Status: 403, Code: "vitrine_visits_robot", Message: "Crawlers' sessions are not counted.", Quiet: true}
)

// Start is what a session start's request says, as the adapter read it.
type Start struct {
	// Client is the client's address, only to share the limits out; it is
	// never stored.
	Client    string
	UserAgent string
	Consent   consent.Signal
}

// Service records and reads session starts.
type Service struct {
	Store Store
	// Enabled is whether the shop keeps attribution (nil: on).
	Enabled func() bool
	// ConsentAsked is whether the shop asks shoppers for consent (its
	// banner is on): then only an Accept lets a start be counted.
	ConsentAsked func() bool
	// Limiter bounds the starts one address, and every address, may add
	// (nil: no bound, for tests of the counts).
	Limiter *Limiter
	Now     func() time.Time
}

// HourOf is the start of t's UTC hour in unix seconds.
func HourOf(t time.Time) int64 { return t.Unix() - ((t.Unix()%3600)+3600)%3600 }

// Record counts one session start now, after the rules: attribution on,
// the shopper's consent where the shop asks for it (never under Global
// Privacy Control), not a crawler, and within the limits. A refusal is an
// *Error and counts nothing.
func (s *Service) Record(ctx context.Context, in Start) error {
	if s.Enabled != nil && !s.Enabled() {
		return ErrOff
	}
	if !in.Consent.Allows(s.ConsentAsked != nil && s.ConsentAsked()) {
		return ErrNoConsent
	}
	if IsRobot(in.UserAgent) {
		return ErrRobot
	}
	now := clock.Now(s.Now)
	if s.Limiter != nil {
		if wait, ok := s.Limiter.Allow(in.Client, now); !ok {
			return &Error{Status: 429, Code: "vitrine_visits_rate_limited",
				Message: "Too many sessions were started from this address; try again later.", RetryAfter: wait, Quiet: true}
		}
	}
	return s.Store.VisitsAdd(ctx, HourOf(now), 1)
}

// robotMarks are what crawlers' and headless browsers' user agents carry
// (a crawler that runs scripts loads every page without cookies, so each
// page would be a new session). An empty agent is no browser either.
var robotMarks = []string{"bot/", "bot;", "bot)", "crawl", "spider", "slurp", "+http", "headlesschrome", "lighthouse",
	"facebookexternalhit", "python-", "curl/", "wget/", "go-http-client", "java/", "okhttp", "phantomjs"}

// IsRobot says whether ua is a crawler's or a script's rather than a
// shopper's browser.
func IsRobot(ua string) bool {
	ua = strings.ToLower(strings.TrimSpace(ua))
	if ua == "" {
		return true
	}
	for _, m := range robotMarks {
		if strings.Contains(ua, m) {
			return true
		}
	}
	return false
}

// Count is the sessions started in [from, to): an hour counts where it
// starts (exact for every zone whose offset is whole hours; in a zone
// offset by a half or quarter hour a boundary hour falls to the side its
// start is on).
func (s *Service) Count(ctx context.Context, from, to time.Time) (int64, error) {
	total, _, err := s.Spans(ctx, from, to, nil)
	return total, err
}

// Spans is the sessions started in [from, to) and in each span (the
// analytics intervals, each [start, end) within it), by the rule of Count.
func (s *Service) Spans(ctx context.Context, from, to time.Time, spans [][2]time.Time) (int64, []int64, error) {
	each := make([]int64, len(spans))
	if !from.Before(to) {
		return 0, each, nil
	}
	hours, err := s.Store.VisitsHours(ctx, ceilHour(from), ceilHour(to))
	if err != nil {
		return 0, nil, err
	}
	var total int64
	for _, h := range hours {
		total += h.Sessions
	}
	// Spans are few and hours sorted: one pass per span is enough.
	for i, sp := range spans {
		a, b := ceilHour(sp[0]), ceilHour(sp[1])
		for _, h := range hours {
			if h.Start >= a && h.Start < b {
				each[i] += h.Sessions
			}
		}
	}
	return total, each, nil
}

// ceilHour is the first hour start at or after t: the hours starting in
// [from, to) are exactly those in [ceilHour(from), ceilHour(to)).
func ceilHour(t time.Time) int64 {
	h := HourOf(t)
	if h < t.Unix() || (h == t.Unix() && t.Nanosecond() > 0) {
		h += 3600
	}
	return h
}
