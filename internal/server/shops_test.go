package server_test

import (
	"testing"

	"vitrine/internal/review"
	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// The fixtures most tests start from, once per storage engine: each runs
// fn as a subtest per engine (storetest.Each) on the fixture open builds
// on that engine's fresh store; the named helpers below are each with the
// usual fixtures.

func each[F any](t *testing.T, open func(*testing.T, *sqlstore.DB) F, fn func(*testing.T, F)) {
	t.Helper()
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) { fn(t, open(t, db)) })
}

// eachShop runs fn on a started demo shop (newShop with the built bundle).
func eachShop(t *testing.T, fn func(*testing.T, *shop)) {
	t.Helper()
	each(t, func(t *testing.T, db *sqlstore.DB) *shop { return newShop(t, db, "") }, fn)
}

// eachFrameShop runs fn on a demo shop with staff and customers, not
// coming soon (newFrameShop).
func eachFrameShop(t *testing.T, fn func(*testing.T, *frameShop)) {
	t.Helper()
	each(t, func(t *testing.T, db *sqlstore.DB) *frameShop { return newFrameShop(t, db, false) }, fn)
}

// eachLoginShop runs fn on a started shop with a test clock (newLoginShop).
func eachLoginShop(t *testing.T, cfg server.Config, fn func(*testing.T, *loginShop)) {
	t.Helper()
	each(t, func(t *testing.T, db *sqlstore.DB) *loginShop { return newLoginShop(t, db, cfg) }, fn)
}

// eachWMCShop runs fn on a shop selling in more currencies (newWMCShop).
func eachWMCShop(t *testing.T, cfg server.Config, fn func(*testing.T, *wmcShop)) {
	t.Helper()
	each(t, func(t *testing.T, db *sqlstore.DB) *wmcShop { return newWMCShop(t, db, cfg) }, fn)
}

// eachWalletShop runs fn on a shop whose wallet talks to the sandbox
// (newWalletShop).
func eachWalletShop(t *testing.T, wc server.WalletConfig, fn func(*testing.T, *walletShop)) {
	t.Helper()
	each(t, func(t *testing.T, db *sqlstore.DB) *walletShop { return newWalletShop(t, db, wc) }, fn)
}

// eachLinkShop runs fn on a shop that mails through a real SMTP server
// (newLinkShop).
func eachLinkShop(t *testing.T, fn func(*testing.T, *linkShop)) {
	t.Helper()
	each(t, newLinkShop, fn)
}

// eachSecFixture runs fn with a logged-in customer on the security page's
// fixture (newSecFixture).
func eachSecFixture(t *testing.T, fn func(*testing.T, *secFixture)) {
	t.Helper()
	each(t, newSecFixture, fn)
}

// eachRevShop runs fn on a shop taking reviews under settings (newRevShop).
func eachRevShop(t *testing.T, settings review.Settings, fn func(*testing.T, *revShop)) {
	t.Helper()
	each(t, func(t *testing.T, db *sqlstore.DB) *revShop { return newRevShop(t, db, settings) }, fn)
}
