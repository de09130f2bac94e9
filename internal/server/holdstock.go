package server

import (
	"context"
	"time"
)

// The periodic store upkeep: held stock of unpaid orders released
// (checkout.Service.ReleaseHeldStock, Config.HoldStock), the expired
// checkout rate-limit counters deleted, and the accounts' ended sessions,
// links, devices and spent bot-check records deleted (AccountUpkeep), and
// the uploaded contact files past their retention emptied (ContactUpkeep),
// and the catalogue's schedules applied: scheduled products published,
// sales started and ended, pre-orders released (ScheduleUpkeep), and data
// retention's due run taken (RetentionUpkeep).

// maintenanceEvery is how often the held stock is released and the
// expired rate-limit counters are deleted.
const maintenanceEvery = time.Minute

// maintain runs the periodic store upkeep until ctx ends.
func (s *Server) maintain(ctx context.Context) {
	every(ctx, maintenanceEvery, func() {
		if n, err := s.ReleaseHeldStock(ctx); err != nil {
			if ctx.Err() == nil {
				s.log.Warn("release held stock", "err", err)
			}
		} else if n > 0 {
			s.log.Info("unpaid orders cancelled, stock released", "orders", n)
		}
		if _, err := s.checkout.DeleteExpiredRateLimits(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("delete expired rate limits", "err", err)
		}
		s.AccountUpkeep(ctx)
		s.PrivacyUpkeep(ctx)
		s.ContactUpkeep(ctx)
		s.ScheduleUpkeep(ctx)
		s.PriceDropUpkeep(ctx) // after the schedule pass: a sale that starts now is a drop (alerts.go)
		s.KeyUpkeep(ctx)       // apikeys.go
		s.RetentionUpkeep(ctx) // retention.go
		s.AnalyticsUpkeep(ctx) // analytics.go
		if _, err := s.webhooks.Upkeep(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("delete done webhook deliveries", "err", err)
		}
	})
}

// ScheduleUpkeep makes the catalogue's scheduled changes whose time has
// come take effect: scheduled products are published, sales start and
// end (the price listings sort and filter by, the on-sale filter), and
// pre-orders whose release date has come are sold as usual. Each change
// is appended to the change log, so every instance drops the pages and
// Store API answers that show the product. Every instance runs it each
// minute; the store makes each change once (catalog.AdminStore). It
// reports how many products changed.
func (s *Server) ScheduleUpkeep(ctx context.Context) int {
	published, err := s.catalogAdmin.PublishDue(ctx)
	if err != nil && ctx.Err() == nil {
		s.log.Warn("publish scheduled products", "err", err)
	} else if published > 0 {
		s.log.Info("scheduled products published", "products", published)
	}
	n, err := s.catalogAdmin.ApplySchedules(ctx)
	if err != nil && ctx.Err() == nil {
		s.log.Warn("apply sale and pre-order dates", "err", err)
	} else if n > 0 {
		s.log.Info("sale and pre-order dates applied", "products", n)
	}
	return published + n
}

// ContactUpkeep removes the content of the uploaded contact files older
// than the retention (Config.ContactFileRetention); the submissions and
// the files' names, types and sizes stay. It reports how many files it
// emptied (errors are logged: the next pass tries again).
func (s *Server) ContactUpkeep(ctx context.Context) int64 {
	n, err := s.contact.PurgeFiles(ctx)
	if err != nil && ctx.Err() == nil {
		s.log.Warn("purge old contact files", "err", err)
	}
	if n > 0 {
		s.log.Info("old contact files purged", "files", n)
	}
	return n
}

// AccountUpkeep deletes ended sessions, lost-password and verification
// links and remembered devices, and spent bot-check records; it reports
// how many rows went (errors are logged: the next pass tries again).
func (s *Server) AccountUpkeep(ctx context.Context) int64 {
	n, err := s.accounts.DeleteExpired(ctx)
	if err != nil && ctx.Err() == nil {
		s.log.Warn("delete expired account sessions and links", "err", err)
	}
	for purpose, b := range s.bots {
		m, err := b.DeleteExpired(ctx)
		if err != nil && ctx.Err() == nil {
			s.log.Warn("delete spent bot-check records", "purpose", purpose, "err", err)
		}
		n += m
	}
	return n
}

// ReleaseHeldStock cancels the unpaid orders whose hold ended and puts
// their units back in stock (checkout.Service.ReleaseHeldStock); it
// reports how many this call cancelled. With HoldStock 0 it does nothing.
func (s *Server) ReleaseHeldStock(ctx context.Context) (int, error) {
	return s.checkout.ReleaseHeldStock(ctx)
}
