package server_test

import (
	"testing"

	"vitrine/internal/review"
	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// The fixtures most tests start from, once per storage engine.

// each runs fn as a subtest per storage engine (storetest.Each) on the
// fixture open builds on that engine's fresh store, as in
// each(t, newLinkShop, func(t *testing.T, s *linkShop) { ... }). The
// eachShop, eachFrameShop, ... below are each with the usual fixtures.
func each[F any](t *testing.T, open func(*testing.T, *sqlstore.DB) F, fn func(*testing.T, F)) {
	t.Helper()
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) { fn(t, open(t, db)) })
}

// sqliteShop is a started demo shop on SQLite alone, for what does not
// depend on the storage engine.
func sqliteShop(t *testing.T) *shop {
	t.Helper()
	return newShop(t, storetest.Open(t, sqlstore.SQLite), "")
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
func eachLoginShop(t *testing.T, fn func(*testing.T, *loginShop)) {
	t.Helper()
	eachLoginShopWith(t, server.Config{}, fn)
}

// eachLoginShopWith is eachLoginShop on a configuration of the test's own.
func eachLoginShopWith(t *testing.T, cfg server.Config, fn func(*testing.T, *loginShop)) {
	t.Helper()
	each(t, func(t *testing.T, db *sqlstore.DB) *loginShop { return newLoginShop(t, db, cfg) }, fn)
}

// eachWMCShop runs fn on a shop selling in more currencies (newWMCShop).
func eachWMCShop(t *testing.T, fn func(*testing.T, *wmcShop)) {
	t.Helper()
	eachWMCShopWith(t, server.Config{}, fn)
}

// eachWMCShopWith is eachWMCShop on a configuration of the test's own.
func eachWMCShopWith(t *testing.T, cfg server.Config, fn func(*testing.T, *wmcShop)) {
	t.Helper()
	each(t, func(t *testing.T, db *sqlstore.DB) *wmcShop { return newWMCShop(t, db, cfg) }, fn)
}

// eachWalletShop runs fn on a shop whose wallet talks to the sandbox
// (newWalletShop).
func eachWalletShop(t *testing.T, fn func(*testing.T, *walletShop)) {
	t.Helper()
	eachWalletShopWith(t, server.WalletConfig{}, fn)
}

// eachWalletShopWith is eachWalletShop on a wallet configuration of the
// test's own.
func eachWalletShopWith(t *testing.T, wc server.WalletConfig, fn func(*testing.T, *walletShop)) {
	t.Helper()
	each(t, func(t *testing.T, db *sqlstore.DB) *walletShop { return newWalletShop(t, db, wc) }, fn)
}

// eachRevShop runs fn on a shop taking reviews under settings (newRevShop).
func eachRevShop(t *testing.T, settings review.Settings, fn func(*testing.T, *revShop)) {
	t.Helper()
	each(t, func(t *testing.T, db *sqlstore.DB) *revShop { return newRevShop(t, db, settings) }, fn)
}
