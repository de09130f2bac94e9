package server

import (
	"context"

	"vitrine/internal/account"
	"vitrine/internal/alerts"
	"vitrine/internal/botcheck"
	"vitrine/internal/mail"
	"vitrine/internal/myaccount"
	"vitrine/internal/support"
)

// The account services and the my-account surface (internal/myaccount):
// login and registration, the account's pages, two-factor and devices,
// lost password and email verification, log out, the bot-check challenge.

// initAccounts makes the account service and the bot-checks on the store.
func (s *Server) initAccounts() {
	a := s.cfg.Accounts
	a.Store, a.Now, a.Log = s.db, s.now, s.log
	if a.Issuer == "" {
		a.Issuer = s.siteName()
	}
	if a.Sealer == nil {
		// TOTP secrets and mailed links' tokens sealed under a key derived
		// from the shop's secret (never empty here: New fills it).
		sealer, err := account.NewSealer(s.cfg.Secret)
		if err != nil {
			panic(err)
		}
		a.Sealer = sealer
	}
	s.accounts = &a
	s.support = &support.Service{Store: s.db, Now: s.now, Log: s.log}
	s.bots = map[string]*botcheck.Service{}
	for _, purpose := range []string{"login", "register", "contact", "review", alerts.BotcheckPurpose} {
		s.bots[purpose] = &botcheck.Service{Store: s.db, Secret: s.cfg.Secret, Purpose: purpose, Now: s.now, Log: s.log}
	}
	// The stronger login check asked of an account under attack
	// (account.ErrStepUp): its own key, ten times the work.
	s.bots[botcheck.StrongLoginPurpose] = &botcheck.Service{Store: s.db, Secret: s.cfg.Secret, Purpose: botcheck.StrongLoginPurpose,
		MaxNumber: botcheck.StrongMaxNumber, Now: s.now, Log: s.log}
}

// botcheckFor is the bot-check of a purpose ("login", "register", ...).
func (s *Server) botcheckFor(purpose string) *botcheck.Service {
	return s.bots[purpose]
}

// initMyAccount builds the my-account surface; it renders with the page
// loader, so it comes after it.
func (s *Server) initMyAccount() {
	s.myAccount = myaccount.New(myaccount.Deps{
		Accounts: s.accounts,
		Support:  s.support,
		Botcheck: s.botcheckFor,
		Login: &botcheck.Login{Normal: s.botcheckFor("login"), Strong: s.botcheckFor(botcheck.StrongLoginPurpose),
			Secret: s.cfg.Secret, Store: s.db, Now: s.now, Log: s.log},
		Carts:             s.carts,
		Loader:            s.loader,
		Sessions:          s.Sessions,
		Checkout:          &s.cfg.Checkout,
		BaseURL:           s.cfg.BaseURL,
		RememberDeviceOff: s.cfg.RememberDeviceOff,
		Pages:             s.renderer,
		NoRoute:           s.apiNoRoute,
		StoreDown:         storeDown,
		ClientIP:          s.clientIP,
		Currency:          s.currencyOf,
		TestNotice:        testOrderNotice,
		SiteName:          s.siteName,
		KickMail:          s.kickMail,
		Privacy:           s.privacy,
		AtLogin:           s.renderer.AtLogin,
		Wishlist:          s.wishlistAPI,
		Log:               s.log,
		Now:               s.now,
	})
}

// AccountMailView loads an account mail for the outbox (mail.Renderers
// routes the account kinds here); myaccount.Account.MailView says how.
func (s *Server) AccountMailView(ctx context.Context, kind, ref string) (mail.AccountView, error) {
	return s.myAccount.MailView(ctx, kind, ref)
}

// AccountOwnerView loads an account's owner for the account notices.
func (s *Server) AccountOwnerView(ctx context.Context, userID int64) (mail.OwnerView, error) {
	return s.myAccount.OwnerView(ctx, userID)
}
