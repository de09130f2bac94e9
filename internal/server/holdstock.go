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
// scheduled products published and the pages of products whose sale
// started or ended dropped (SaleUpkeep).

// maintenanceEvery is how often the held stock is released and the
// expired rate-limit counters are deleted.
const maintenanceEvery = time.Minute

// maintain runs the periodic store upkeep until ctx ends.
func (s *Server) maintain(ctx context.Context) {
	t := time.NewTicker(maintenanceEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
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
		s.ContactUpkeep(ctx)
		if n, err := s.catalogAdmin.PublishDue(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("publish scheduled products", "err", err)
		} else if n > 0 {
			s.log.Info("scheduled products published", "products", n)
		}
		s.SaleUpkeep(ctx)
	}
}

// SaleUpkeep appends a catalogue change for every product whose sale
// started or ended since the last pass, so the pages cached with the old
// price are dropped on every instance (a scheduled sale changes the price
// shown without any edit). It reports how many products changed.
func (s *Server) SaleUpkeep(ctx context.Context) int {
	s.saleMu.Lock()
	defer s.saleMu.Unlock()
	next, n, err := s.catalogAdmin.SaleWindowsCrossed(ctx, s.saleSince)
	if err != nil {
		if ctx.Err() == nil {
			s.log.Warn("sale starts and ends", "err", err)
		}
		return 0
	}
	s.saleSince = next
	if n > 0 {
		s.log.Info("sale prices started or ended", "products", n)
	}
	return n
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
