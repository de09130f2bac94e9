package analytics

import (
	"context"
	"math"
	"time"
)

// Sessions counts the storefront's sessions started in [from, to) and in
// each span (internal/visits.Service, from the attribution script's
// session starts).
type Sessions interface {
	Spans(ctx context.Context, from, to time.Time, spans [][2]time.Time) (int64, []int64, error)
}

// Conversion is the conversion rate of a period: orders ÷ sessions.
type Conversion struct {
	Orders   int64
	Sessions int64
	// Rate is orders per hundred sessions, to two decimals; nil when no
	// session was counted (no rate, rather than an infinite or zero one).
	Rate *float64
}

// ConversionOf is orders ÷ sessions as a percentage. It can exceed 100
// where sessions go uncounted (a shopper without consent or under Global
// Privacy Control still orders; orders made in the admin have no session).
func ConversionOf(orders, sessions int64) Conversion {
	c := Conversion{Orders: orders, Sessions: sessions}
	if sessions > 0 {
		r := math.Round(float64(orders)/float64(sessions)*10000) / 100
		c.Rate = &r
	}
	return c
}

// Conversion is the conversion rate over p for orders counted there (the
// stats' orders_count, with the report's statuses and filters): the
// sessions are those started in p, an hour counting where it starts.
// Without a session counter every rate is nil.
func (s *Service) Conversion(ctx context.Context, p Period, orders int64) (Conversion, error) {
	if s.Sessions == nil {
		return ConversionOf(orders, 0), nil
	}
	n, _, err := s.Sessions.Spans(ctx, p.From, p.To, nil)
	if err != nil {
		return Conversion{}, err
	}
	return ConversionOf(orders, n), nil
}
