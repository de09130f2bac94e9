package sqlstore

import (
	"vitrine/internal/account"
	"vitrine/internal/alerts"
	"vitrine/internal/audit"
	"vitrine/internal/botcheck"
	"vitrine/internal/cart"
	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/contact"
	"vitrine/internal/contentpage"
	"vitrine/internal/currency"
	"vitrine/internal/media"
	"vitrine/internal/payment/wallet"
	"vitrine/internal/privacy"
	"vitrine/internal/review"
	"vitrine/internal/settings"
	"vitrine/internal/support"
	"vitrine/internal/usermeta"
	"vitrine/internal/visits"
	"vitrine/internal/wishlist"
)

// The store interfaces the capabilities define, which DB implements.
var (
	_ account.Store      = (*DB)(nil)
	_ alerts.Store       = (*DB)(nil)
	_ catalog.Loader     = (*DB)(nil)
	_ catalog.Writer     = (*DB)(nil)
	_ cart.Store         = (*DB)(nil)
	_ checkout.Store     = (*DB)(nil)
	_ wallet.Store       = (*DB)(nil)
	_ botcheck.Store     = (*DB)(nil)
	_ support.Store      = (*DB)(nil)
	_ usermeta.Store     = (*DB)(nil)
	_ review.Store       = (*DB)(nil)
	_ contact.Store      = (*DB)(nil)
	_ currency.Store     = (*DB)(nil)
	_ contentpage.Store  = (*DB)(nil)
	_ audit.Store        = (*DB)(nil)
	_ settings.Store     = (*DB)(nil)
	_ media.LibraryStore = (*DB)(nil)
)

var _ privacy.Store = (*DB)(nil)

var _ wishlist.Store = (*DB)(nil)

var _ visits.Store = (*DB)(nil)
