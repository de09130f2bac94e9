package wcimport

// HistoryDeps are what the import of customers, coupons, orders, reviews,
// pages and settings writes with.
type HistoryDeps struct{}

// historyResources are the customers', coupons', orders', reviews', pages'
// and settings' resources, in order (after the catalogue's).
func (r *Run) historyResources() []resource { return nil }
