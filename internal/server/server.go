// Package server composes the shop's HTTP surface: New builds the
// services and the surfaces (internal/storefront, storeapi, myaccount,
// walletapi, contactapi, ajax, adminapi), routes.go is the one route
// table, and around it are the middleware and edge checks, metrics, the
// caches and the change follower that invalidates them, and the upkeep
// loops. The handlers are the surfaces'.
package server

import (
	"context"
	"crypto/rand"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/pprof"
	"net/netip"
	"reflect"
	"sync/atomic"
	"time"
	"vitrine/internal/analytics"
	"vitrine/internal/analyticsapi"

	"github.com/prometheus/client_golang/prometheus"

	"vitrine/internal/account"
	"vitrine/internal/adminapi"
	"vitrine/internal/ajax"
	"vitrine/internal/alerts"
	"vitrine/internal/alertsapi"
	"vitrine/internal/audit"
	"vitrine/internal/backup"
	"vitrine/internal/botcheck"
	"vitrine/internal/cart"
	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/contact"
	"vitrine/internal/contactapi"
	"vitrine/internal/contactform"
	"vitrine/internal/contentpage"
	"vitrine/internal/currency"
	"vitrine/internal/httpx"
	"vitrine/internal/integration"
	"vitrine/internal/integrationapi"
	"vitrine/internal/mail"
	"vitrine/internal/media"
	"vitrine/internal/money"
	"vitrine/internal/myaccount"
	"vitrine/internal/oldlinks"
	"vitrine/internal/ordermail"
	"vitrine/internal/orders"
	"vitrine/internal/pages"
	"vitrine/internal/payment"
	"vitrine/internal/payment/wallet"
	"vitrine/internal/pricing"
	"vitrine/internal/privacy"
	"vitrine/internal/privacyapi"
	"vitrine/internal/render"
	"vitrine/internal/retention"
	"vitrine/internal/review"
	"vitrine/internal/settings"
	"vitrine/internal/storage/space"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storeapi"
	"vitrine/internal/storefront"
	"vitrine/internal/support"
	"vitrine/internal/usermeta"
	"vitrine/internal/visits"
	"vitrine/internal/visitsapi"
	"vitrine/internal/walletapi"
	"vitrine/internal/webhook"
	"vitrine/internal/wishlist"
	"vitrine/internal/wishlistapi"
)

// Config is the part of the shop's configuration the HTTP layer needs.
type Config struct {
	// Version is the binary's (the REST API's system status).
	Version            string
	BaseURL            string
	SiteName           string
	Tagline            string
	Currency           money.Currency
	VariationThreshold int
	// Settings are the storefront switches sent with every page.
	Settings pages.Settings
	// CacheBytes bounds the page cache; 0 turns it off.
	CacheBytes int64
	// CacheMaxAge bounds how long a page may be served without a change
	// being seen for it.
	CacheMaxAge time.Duration
	// ChangePoll is how often the catalogue change log is read.
	ChangePoll time.Duration
	// CacheStale is how long after a catalogue change has been read a page
	// it changed may still be answered while one background render replaces
	// it (stale-while-revalidate; 0: DefaultCacheStale; negative: never,
	// a change drops the page). Changes that can remove a page (trash,
	// draft, private, categories) drop it at once either way.
	CacheStale time.Duration
	// CacheClock, when set, replaces the page cache's clock (tests).
	CacheClock func() time.Time
	// RenderAheadWithin, when set, limits the pages rendered ahead after a
	// change to those asked for within it (the others wait, stale, for a
	// request); 0: every page the change marks stale (internal/storefront,
	// ahead.go).
	RenderAheadWithin time.Duration
	// MaxBodyBytes caps request bodies.
	MaxBodyBytes int64
	// Secret keys the HMACs of cart session cookies, Cart-Tokens and Store
	// API nonces. Every instance serving one shop needs the same one; when
	// empty a random one is made (sessions then end with the process).
	Secret []byte
	// CartLifetime is how long a cart lives after its last write (48 h).
	CartLifetime time.Duration
	// Checkout configures shipping, taxes, countries and payments; the
	// zero value is checkout.DefaultConfig for the shop's currency.
	Checkout checkout.Config
	// Wallet, when set, enables the PayPal wallet (wallet.go).
	Wallet *WalletConfig
	// Sandbox, when set, is the built-in PayPal sandbox (demo mode only),
	// served under SandboxPrefix behind the shop's middleware: security
	// headers, cross-origin write checks, body caps, logs and metrics.
	Sandbox http.Handler
	// HoldStock is how long an unpaid bank-transfer order holds its stock
	// before it is cancelled and the stock released (holdstock.go); 0 never.
	HoldStock time.Duration
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names
	// the client (clientip.go); empty: the TCP peer is the client.
	TrustedProxies []netip.Prefix
	// RememberDeviceOff hides the code overlay's "remember this device"
	// checkbox and ignores remember-device cookies (internal/myaccount).
	RememberDeviceOff bool
	// Reviews are the review settings (internal/review); nil takes
	// review.DefaultSettings (ratings required, held for moderation).
	Reviews *review.Settings
	// ComingSoon is the shop's "coming soon" mode: visitors and customers
	// get the coming-soon page and refusals (comingsoon.go); staff browse
	// as usual and see the coming-soon footer banner (internal/storefront).
	ComingSoon bool
	// Accounts overrides the account service's limits and lifetimes (the
	// zero value takes account's defaults); Store, Now and Log are set by New.
	Accounts account.Service
	// ContactForms are the shop's contact forms (internal/contactform);
	// nil is [contactform.DefaultForm()]. New refuses a bad definition.
	ContactForms []contactform.Form
	// ContactFileRetention is how long uploaded contact files are kept
	// (0: contact.DefaultFileRetention, 30 days); the submissions stay.
	ContactFileRetention time.Duration
	// ContactRateLimit is how many messages one client address may send
	// per hour (0: contact.DefaultRateLimit).
	ContactRateLimit int
	// ContactFilesQuota bounds the bytes of contact files the store keeps
	// and MediaQuota those of the media library's files (0: no bound);
	// uploads over them are refused with 507.
	ContactFilesQuota int64
	MediaQuota        int64
	// WebhooksAllowPrivate lets webhooks deliver to loopback, private and
	// link-local addresses (--webhooks-allow-private); Webhooks tunes
	// their worker (tests; zero values take internal/webhook's defaults).
	WebhooksAllowPrivate bool
	Webhooks             webhook.Options
	// DataDir is the store's directory (SQLite's); while the free space
	// of its file system is below DiskFloor bytes, uploads are refused
	// with 503 and Retry-After ("" or 0: no check).
	DataDir   string
	DiskFloor int64
	// Backup schedules backups of the store (backups.go; zero: none);
	// StoreDSN is the store's, which pg_dump connects to.
	Backup   backup.Schedule
	StoreDSN string
	// CurrencyCacheTTL is how long the enabled currencies are kept in
	// memory (0: currency.DefaultCacheTTL, 30 s); currency.go.
	CurrencyCacheTTL time.Duration
	// CountryCurrencies maps a country (ISO 3166 alpha-2, upper case) to
	// the currency preselected for shoppers from there (nil:
	// DefaultCountryCurrencies; an empty map turns preselection off).
	CountryCurrencies map[string]string
	// CountryHeader is the request header a trusted proxy names the
	// shopper's country in ("": CF-IPCountry).
	CountryHeader string
	// Now, when set, replaces the clock (tests).
	Now func() time.Time
}

// Server holds the shop's HTTP handlers and what they use.
type Server struct {
	cfg Config
	// Sessions names a request's cart session and signs its cookie,
	// Cart-Tokens and nonces (internal/httpx).
	*httpx.Sessions
	db     *sqlstore.DB
	store  catalog.Store
	loader *pages.Loader
	engine Renderer      // nil: pages are rendered in the browser only
	cache  *render.Cache // rendered pages
	api    *render.Cache // Store API responses
	// sitemaps are the XML sitemaps, cached whatever --cache-mb says
	// (storefront.SitemapCacheBytes) and dropped with the listings.
	sitemaps *render.Cache
	assets   render.Assets
	static   fs.FS
	log      *slog.Logger
	metrics  *metrics
	now      func() time.Time
	handler  http.Handler

	lastChange atomic.Int64           // the newest change-log id read (changelog.go)
	changes    changeFollower         // the ids skipped, read again (changelog.go)
	cats       *categoryCache         // s.store, with the category list in memory
	search     *catalog.SearchService // synonyms, "Did you mean", searches without results
	// searchSettings are the owner's synonyms (settings.SearchSettings).
	searchSettings *settings.SearchSettings
	mailKick       func()         // the mail outbox's Kick (order_mail.go)
	mailSender     mail.Sender    // SMTP, for the admin\'s test message; nil when off (order_mail.go)
	products       *catalog.Cache // products for the cart and get_variation

	carts    *cart.Service     // the cart's use cases
	checkout *checkout.Service // pricing, placing orders, rate limit, held stock
	payments *payment.Registry // payment methods (checkout.go)
	// paymentSettings is the payment methods' document (payments.go);
	// flagWallet the wallet the start-up configuration set.
	paymentSettings *settings.PaymentMethods
	flagWallet      *WalletConfig
	wallet          *wallet.Service              // the PayPal wallet, nil when off (wallet.go)
	walletAPI       *walletapi.API               // its endpoints (internal/walletapi)
	accounts        *account.Service             // accounts, sessions, two-factor (auth.go)
	myAccount       *myaccount.Account           // login, the account's pages, log out (auth.go)
	bots            map[string]*botcheck.Service // the bot-check by purpose: login, register
	support         *support.Service             // messages to support from refused registrations (internal/myaccount)
	meta            *usermeta.Service            // per-user settings: the coming-soon banner (internal/storefront)
	reviews         *review.Service              // product reviews (internal/storeapi)
	contact         *contact.Service             // contact-form submissions (internal/contactapi)
	contactAPI      *contactapi.API              // Contact Form 7's routes and the contact form's no-script post
	privacy         *privacy.Service             // privacy requests: export and erasure (privacy.go)
	privacyAPI      *privacyapi.API              // their confirmation and download links
	wishlists       *wishlist.Service            // wishlists (wishlist.go)
	wishlistAPI     *wishlistapi.API             // the hearts, the wishlist pages, YITH's wire
	csp             atomic.Pointer[cspCache]     // the Content-Security-Policy of the nonce tick (wishlist.go)
	alerts          *alerts.Service              // back-in-stock and price-drop alerts (alerts.go)
	alertsAPI       *alertsapi.API               // the notify form's post, its confirmation and unsubscribe links
	pages           *contentpage.Service         // content pages: /<slug>/, footers, checkout terms (internal/storefront)
	media           *media.Library               // the media library: /media/ and the admin's uploads
	renderer        *storefront.Pages            // page rendering, the surfaces' Pages (storefront.go)
	front           *storefront.Storefront       // the storefront's pages and files (storefront.go)
	oldLinks        *oldlinks.Service            // the old shop's links (oldlinks.go)

	currencies      *currency.Service     // the currencies shoppers choose from (currency.go)
	currencyStore   *currency.CachedStore // their in-memory list
	pricing         *pricing.Service      // prices in the shopper's currency (internal/storeapi, internal/ajax)
	countryCurrency map[string]string     // country → preselected currency
	countryHeader   string                // the trusted proxies' country header

	settings     *settings.Service               // the settings staff change in the admin (settings.go)
	liveSettings atomic.Pointer[storefront.Live] // the ones in force
	rules        *settings.Rules                 // shipping zones and tax rates saved in the admin (settings.go)
	checkoutLive atomic.Pointer[liveCheckout]    // s.cfg.Checkout with them: what the checkout prices with
	audit        *audit.Service                  // the admin's audit log (internal/audit)
	orders       *orders.Service                 // the admin's orders back office (internal/orders)
	orderMail    *ordermail.Views                // the order emails' views (internal/ordermail)
	admin        *adminapi.API                   // the admin API (internal/adminapi)
	storeAPI     *storeapi.API                   // the Store API (internal/storeapi)
	ajax         *ajax.API                       // wc-ajax and admin-ajax (internal/ajax)
	adminShell   *adminapi.Shell                 // the admin app's shell at /wp-admin/
	// catalogAdmin is the admin's catalogue service; maintain publishes
	// its scheduled products.
	catalogAdmin *catalog.Admin
	keys         *integration.Service // REST API keys (apikeys.go)
	keyAuth      *integrationapi.Auth // their credentials on /wp-json/wc/v3/ (withRESTAuth)
	backups      *backup.Scheduler    // the scheduled backups (backups.go)
	webhooks     *webhook.Service     // webhooks and their delivery worker (webhooks.go)
	hookWorker   *webhook.Worker

	// retentionSettings is the data retention policy saved in the admin;
	// retention applies it (retention.go).
	retentionSettings *settings.Retention
	retention         *retention.Service

	// analytics is the analytics reports (analytics.go); its settings
	// document the shop's time zone and excluded statuses.
	analytics         *analytics.Service
	analyticsSettings *settings.Analytics
	analyticsAPI      *analyticsapi.API

	// visits counts the storefront's sessions for the conversion rate;
	// visitsAPI is its beacon (visits.go).
	visits    *visits.Service
	visitsAPI *visitsapi.API
}

// Renderer renders a page's data (JSON) into the app's HTML: a
// render.Engine (VMs in this process) or render.Workers (worker processes).
type Renderer = storefront.Engine

// DefaultCacheStale is how long after a change has been read a changed
// page may still be answered while it is rendered again (Config.CacheStale).
const DefaultCacheStale = 10 * time.Second

// New wires a server. engine may be nil (client-side rendering only).
func New(cfg Config, db *sqlstore.DB, engine Renderer, static fs.FS, assets render.Assets, log *slog.Logger) (*Server, error) {
	if cfg.MaxBodyBytes == 0 {
		cfg.MaxBodyBytes = 1 << 20
	}
	if reflect.ValueOf(cfg.Settings).IsZero() {
		cfg.Settings = pages.DefaultSettings()
	}
	if cfg.ChangePoll == 0 {
		cfg.ChangePoll = time.Second
	}
	if cfg.CacheStale == 0 {
		cfg.CacheStale = DefaultCacheStale
	}
	if len(cfg.Secret) == 0 {
		cfg.Secret = make([]byte, 32)
		_, _ = rand.Read(cfg.Secret)
	}
	if cfg.CartLifetime == 0 {
		cfg.CartLifetime = cart.Lifetime
	}
	s := &Server{
		cfg: cfg, db: db, engine: engine, static: static, assets: assets, log: log,
		cache:    render.NewCache(cfg.CacheBytes, cfg.CacheMaxAge),
		api:      render.NewCache(cfg.CacheBytes/4, cfg.CacheMaxAge),
		sitemaps: render.NewCache(storefront.SitemapCacheBytes, cfg.CacheMaxAge),
		now:      func() time.Time { return time.Now().UTC() },
	}
	if cfg.Now != nil {
		s.now = func() time.Time { return cfg.Now().UTC() }
	}
	s.Sessions = &httpx.Sessions{Secret: cfg.Secret, BaseURL: cfg.BaseURL,
		Currency: func(r *http.Request) string { return s.shopperCurrency(r).Code }}
	s.cache.SetStaleFor(max(cfg.CacheStale, 0))
	if cfg.CacheClock != nil {
		s.cache.SetClock(cfg.CacheClock)
	}
	if err := s.initSettings(); err != nil { // settings.go
		return nil, err
	}
	s.initCheckout()
	if err := s.initRules(); err != nil { // settings.go
		return nil, err
	}
	s.cats = &categoryCache{Store: db}
	s.searchSettings = &settings.SearchSettings{Store: db, Now: s.now}
	if _, err := s.searchSettings.Load(context.Background()); err != nil {
		return nil, fmt.Errorf("load search settings: %w", err)
	}
	s.search = &catalog.SearchService{Store: db, Now: s.now, Synonyms: s.searchSettings.Synonyms}
	s.products = catalog.NewCache(db, 0)
	// Cart and get_variation requests catch up with the change log first.
	s.products.Follow(s.lastChange.Load, s.applyChanges)
	s.store = s.cats
	s.carts = &cart.Service{Store: db, Catalog: s.products, Lifetime: cfg.CartLifetime, Now: s.now, Log: log}
	s.checkout = &checkout.Service{Store: db, Carts: s.carts, Config: &s.cfg.Checkout, Live: s.checkoutConfig, Payments: s.payments,
		Coupons: db, Lifetime: cfg.CartLifetime, HoldStock: cfg.HoldStock, Placed: s.kickMail, Meta: s.markTestPayment, Now: s.now, Log: log,
		ConsentAsked: func() bool { return s.live().Settings.Consent.Banner }}
	s.initAccounts()
	s.meta = &usermeta.Service{Store: db}
	reviewSettings := review.DefaultSettings()
	if cfg.Reviews != nil {
		reviewSettings = *cfg.Reviews
	}
	s.reviews = &review.Service{Store: db, Settings: reviewSettings, Now: s.now, Log: log}
	forms := cfg.ContactForms
	if forms == nil {
		forms = []contactform.Form{contactform.DefaultForm()}
	}
	s.contact = &contact.Service{Store: db, Forms: forms, Bots: s.botcheckFor("contact"), IsRefusal: botcheck.IsRefusal,
		Secret: s.cfg.Secret, RateLimit: cfg.ContactRateLimit, FileRetention: cfg.ContactFileRetention, Queued: s.kickMail, Now: s.now, Log: log,
		FilesQuota: cfg.ContactFilesQuota, Disk: &space.Disk{Dir: cfg.DataDir, Floor: cfg.DiskFloor}}
	if err := s.contact.Check(); err != nil {
		return nil, fmt.Errorf("contact forms: %w", err)
	}
	s.pages = &contentpage.Service{Store: db, Now: s.now}
	s.initPrivacy()                          // privacy.go
	s.initAlerts()                           // alerts.go
	s.initVisits()                           // visits.go (before the analytics, which read the sessions)
	s.initBackups()                          // backups.go
	s.initCurrencies()                       // currency.go
	if err := s.initPayments(); err != nil { // payments.go
		return nil, err
	}
	s.initWallet()                              // on the cart and checkout services
	s.cfg.Settings.Wallet = s.cfg.Wallet != nil // the buttons follow the server's wallet
	s.initStoreAPI()                            // storeapi.go
	s.loader = &pages.Loader{Store: pageStore{s.cats, s.products}, Currency: cfg.Currency, SiteName: cfg.SiteName, Tagline: cfg.Tagline,
		BaseCountry: s.cfg.Checkout.BaseCountry, BaseURL: cfg.BaseURL, Now: s.now, VariationThreshold: cfg.VariationThreshold, Settings: s.cfg.Settings,
		Reviews: s.reviews, ReviewSettings: reviewSettings, ContactForms: s.contact.Form, Currencies: s.currencyOptions,
		ContentPages: s.pages, Live: func() pages.Live { return s.live().Live }, Searches: s.search}
	s.metrics = newMetrics(s)
	s.initPages()     // storefront.go
	s.initWishlist()  // wishlist.go (before the login, which merges lists)
	s.initMyAccount() // auth.go
	s.walletAPI = walletapi.New(walletapi.Deps{Wallet: s.wallet, Carts: s.carts, Sessions: s.Sessions, CartLifetime: cfg.CartLifetime,
		BaseCountry: s.cfg.Checkout.BaseCountry, Pages: s.renderer, NoRoute: s.apiNoRoute, SetCartCookies: s.setCartCookies, CartFailed: s.wcCartFailed,
		OrderReceivedURL: storeapi.OrderReceivedURL, Log: log, Now: s.now})
	s.contactAPI = contactapi.New(contactapi.Deps{Contact: s.contact, Loader: s.loader, Pages: s.renderer, ClientIP: s.clientIP, KickMail: s.kickMail, Log: log})
	if err := s.initStorefront(); err != nil { // storefront.go
		return nil, err
	}
	s.initAjax()        // ajax.go
	s.initWebhooks()    // webhooks.go
	s.initIntegration() // apikeys.go (before the admin, which manages the keys)
	s.initAdmin()       // admin.go
	s.handler = s.middleware(s.myAccount.Viewer(s.withComingSoon(s.withCurrencyParam(s.wishlistAPI.WithAddLinks(s.routes())))))
	// The change log is followed from here, where every cache is empty:
	// what changed before needs no dropping, and what changes from now
	// on, before Start or without it (a test's server), is applied by
	// the first request that catches up (Synced, cacheMark).
	if err := s.startChanges(context.Background()); err != nil { // changelog.go
		return nil, fmt.Errorf("read the change log: %w", err)
	}
	return s, nil
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Contact is the contact service (the app composes its mail renderer).
func (s *Server) Contact() *contact.Service { return s.contact }

// Registry is the Prometheus registry MetricsHandler serves.
func (s *Server) Registry() *prometheus.Registry { return s.metrics.reg }

// MetricsHandler serves the metrics in Prometheus's text format, and Go's
// profiles under /debug/pprof/ (CPU, heap, goroutines, mutex waits). It is
// not part of the shop's handler: the app serves it on its own address
// (--metrics-addr, loopback by default), so the shop's port never shows
// its internals.
func (s *Server) MetricsHandler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", s.metrics.handler())
	mux.HandleFunc("GET /debug/pprof/", pprof.Index)
	mux.HandleFunc("GET /debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("GET /debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("GET /debug/pprof/trace", pprof.Trace)
	return mux
}

// Start begins following the catalogue change log, until ctx ends.
func (s *Server) Start(ctx context.Context) error {
	// What changed since New is applied before Start returns, then the
	// log is followed on its clock (changelog.go).
	s.applyChanges(ctx)
	go s.followChanges(ctx)
	go s.cleanCarts(ctx)
	// Sales, pre-orders and publications due while no instance ran take
	// effect before the first page is served.
	s.ScheduleUpkeep(ctx)
	go s.maintain(ctx)          // held stock, rate-limit counters, schedules (holdstock.go)
	s.startWallet(ctx)          // the wallet service's reconciler (wallet.go)
	go s.hookWorker.Run(ctx)    // webhook deliveries (webhooks.go)
	go s.runAlerts(ctx)         // back-in-stock mails (alerts.go)
	s.startBackups(ctx)         // scheduled backups (backups.go)
	go s.AnalyticsBackfill(ctx) // orders marked by the analytics migration (analytics.go)
	return nil
}

// followChanges reads the catalogue change log and invalidates exactly the
// cached pages and responses each change touches. Every writer, in this
// process or another (an import, another instance), appends to the log in
// the same transaction as its change.
func (s *Server) followChanges(ctx context.Context) {
	every(ctx, s.cfg.ChangePoll, func() { s.applyChanges(ctx) })
}

// every runs fn each d (the first time after d) until ctx ends.
func every(ctx context.Context, d time.Duration, fn func()) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			fn()
		}
	}
}

// invalidateChanges drops what a batch of change-log entries touches
// (changelog.go reads them): of the pages, those tagged with a removal
// are dropped and those only changed are marked stale and rendered again
// (internal/storefront); every other cache drops what the changes name.
func (s *Server) invalidateChanges(ctx context.Context, changes []sqlstore.Change) {
	purge, listed, pagesChanged, settingsChanged := false, false, false, false
	// tags: every tag the changes name (the Store API's cache drops
	// them all); of the pages, those tagged with gone are dropped and
	// those tagged only with changed are marked stale (internal/storefront).
	var tags, gone, changed []string
	catalogChanges := changes[:0:0]
	for _, c := range changes {
		listed = listed || c.Kind == "product_listed" || c.Kind == "taxonomy"
		switch c.Kind {
		case sqlstore.ChangePages, sqlstore.ChangeSettings, sqlstore.ChangeCurrencies, sqlstore.ChangeRates:
		default:
			catalogChanges = append(catalogChanges, c)
		}
		switch c.Kind {
		case sqlstore.ChangeCurrencies:
			// The switcher's list, in every page (currency.go).
			s.currencyStore.Invalidate()
			purge = true
		case sqlstore.ChangeRates:
			// Rates are applied per request (the price call).
			s.currencyStore.Invalidate()
		case sqlstore.ChangeSettings:
			// Staff saved the settings (settings.go): every page
			// shows the shop's name and carries its switches.
			settingsChanged, purge = true, true
		case sqlstore.ChangePages:
			// A content page was set or deleted: every page's
			// footer links the published ones (internal/storefront).
			pagesChanged = true
		case "taxonomy":
			// Categories and attributes show in every page's menu.
			purge = true
		case "stock":
			// A stock count that moved without changing the stock
			// status shows only in dynamic calls, never in pages.
			tags = append(tags, storeapi.StockTag(c.ProductID))
			changed = append(changed, storeapi.StockTag(c.ProductID))
		default:
			// "reviews": the review listings not limited to products
			// (storeapi.ReviewsTag) may gain or lose this product's reviews.
			named := []string{storeapi.ProductTag(c.ProductID), storeapi.StockTag(c.ProductID), storeapi.ReviewsTag}
			if c.Kind == "product_listed" {
				// Published, hidden, moved between categories or
				// (un)featured: listings may gain or lose it, and
				// its own page may be gone (trash, draft, private).
				named = append(named, "listing")
				gone = append(gone, named...)
			} else {
				// The same product with new content (price, stock
				// status, text, pictures, reviews): its pages are
				// served stale while they are rendered again.
				changed = append(changed, named...)
			}
			tags = append(tags, named...)
		}
	}
	s.products.Invalidate(catalogChanges)
	if settingsChanged {
		s.reloadSettings(ctx)
	}
	if pagesChanged {
		s.pages.Reset()
		s.renderer.ResetNotFound()
		tags = append(tags, storefront.SitemapTag)
	}
	if listed {
		// Category product counts may have changed.
		s.cats.Reset()
		// The 404 page shows the category menu.
		s.renderer.ResetNotFound()
	}
	switch {
	case purge:
		s.cache.Purge()
		s.api.Purge()
		s.sitemaps.Purge()
	case pagesChanged:
		// Pages purged; of the Store API answers, only the sitemaps
		// and what the other changes name.
		s.cache.Purge()
		s.api.Invalidate(tags...)
		s.sitemaps.Invalidate(tags...)
	default:
		s.cache.Invalidate(gone...)
		s.renderer.StaleAndRenderAhead(changed)
		s.api.Invalidate(tags...)
		s.sitemaps.Invalidate(tags...)
	}
}

// cleanCarts deletes expired carts every hour until ctx ends.
func (s *Server) cleanCarts(ctx context.Context) {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		if n, err := s.carts.DeleteExpired(ctx); err != nil {
			if ctx.Err() == nil {
				s.log.Warn("delete expired carts", "err", err)
			}
		} else if n > 0 {
			s.log.Info("expired carts deleted", "carts", n)
		}
		if n, err := s.wishlists.DeleteExpired(ctx); err != nil {
			if ctx.Err() == nil {
				s.log.Warn("delete expired wishlists", "err", err)
			}
		} else if n > 0 {
			s.log.Info("expired guest wishlists deleted", "wishlists", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
