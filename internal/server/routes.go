package server

import (
	"net/http"

	"vitrine/internal/adminapi"
	"vitrine/internal/alerts"
	"vitrine/internal/alertsapi"
	"vitrine/internal/contactapi"
	"vitrine/internal/httpx"
	"vitrine/internal/myaccount"
	"vitrine/internal/privacy"
	"vitrine/internal/storefront"
	"vitrine/internal/visitsapi"
)

// routes is the whole HTTP surface on one screen.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()

	// Pages, server-rendered and cached: internal/storefront, whose files
	// the comments of this block name.
	f := s.front
	// The home page: also ?s= search results; ?wc-ajax= is internal/ajax;
	// ?p=, ?page_id=, ?product=, … are the old shop's links (oldlinks.go).
	mux.HandleFunc("GET /{$}", s.wcAjaxOr(s.homeOldLinks(f.Home)))
	mux.HandleFunc("POST /{$}", s.wcAjaxOr(f.HomePost)) // ?wc-ajax= only
	mux.HandleFunc("GET /shop/{$}", f.Shop)
	mux.HandleFunc("GET /shop/page/{n}/{$}", f.Shop)
	mux.HandleFunc("GET /product-category/{path...}", f.Category)
	mux.HandleFunc("GET /product-tag/{slug}/{$}", f.Tag) // a tag's archive, a listing like a category's
	mux.HandleFunc("GET /product-tag/{slug}/page/{n}/{$}", f.Tag)
	mux.HandleFunc("GET /product-tag/{slug}", httpx.RedirectSlash)
	mux.HandleFunc("GET /product/{slug}/{$}", f.Product)
	mux.HandleFunc("POST /product/{slug}/{$}", f.ProductPost)              // the product form without scripts (nojs_cart.go)
	mux.HandleFunc("GET /product/{slug}/{sub}/{$}", f.ProductSub)          // comment-page-N: older reviews (reviews_post.go)
	mux.HandleFunc("POST /wp-comments-post.php", f.ReviewPost)             // the review form (reviews_post.go)
	mux.HandleFunc("GET /wishlist/{$}", s.wishlistAPI.Page)                // per visitor, never cached (internal/wishlistapi)
	mux.HandleFunc("POST /wishlist/{$}", s.wishlistAPI.Post)               // the hearts' form, with or without scripts
	mux.HandleFunc("GET /wishlist/state", s.wishlistAPI.State)             // the hearts' state after load (only when the count cookie says so)
	mux.HandleFunc("GET /wishlist/view/{token}/{$}", s.wishlistAPI.Shared) // a shared list, read-only, noindex
	mux.HandleFunc("GET /wishlist", httpx.RedirectSlash)
	mux.HandleFunc("GET /cart/{$}", f.Cart)                                  // per visitor, never cached (nojs_cart.go)
	mux.HandleFunc("POST /cart/{$}", f.CartPost)                             // the cart page's form without scripts (nojs_cart.go)
	mux.HandleFunc("GET /checkout/{$}", f.Checkout)                          // per visitor (checkout_page.go)
	mux.HandleFunc("POST /checkout/{$}", f.CheckoutPost)                     // the classic form without scripts
	mux.HandleFunc("GET /checkout/order-received/{id}/{$}", f.OrderReceived) // only with the order key
	mux.HandleFunc("GET /checkout/paypal-return/{$}", s.walletAPI.Return)    // the wallet buyer's return (internal/walletapi)
	// My account (internal/myaccount): the login and registration forms
	// for visitors, the account's pages for customers. Per visitor, never cached.
	acct := s.myAccount
	mux.HandleFunc("GET /my-account/{$}", acct.MyAccount)
	mux.HandleFunc("POST /my-account/{$}", acct.MyAccountPost)
	// Log out.
	mux.HandleFunc("GET /my-account/customer-logout/{$}", acct.Logout)
	mux.HandleFunc("GET /my-account/customer-logout", httpx.RedirectSlash)
	// account pages: customers only, visitors go to /my-account/
	mux.HandleFunc("GET /my-account/orders/{$}", myaccount.CustomerPage(acct.Orders))
	mux.HandleFunc("GET /my-account/orders/{n}/{$}", myaccount.CustomerPage(acct.Orders))
	mux.HandleFunc("GET /my-account/view-order/{id}/{$}", myaccount.CustomerPage(acct.ViewOrder))
	mux.HandleFunc("GET /my-account/edit-address/{$}", myaccount.CustomerPage(acct.Addresses))
	mux.HandleFunc("GET /my-account/edit-address/{kind}/{$}", myaccount.CustomerPage(acct.EditAddress))
	mux.HandleFunc("POST /my-account/edit-address/{kind}/{$}", myaccount.CustomerPage(acct.EditAddressPost))
	mux.HandleFunc("GET /my-account/edit-account/{$}", myaccount.CustomerPage(acct.EditAccount))
	mux.HandleFunc("POST /my-account/edit-account/{$}", myaccount.CustomerPage(acct.EditAccountPost))
	mux.HandleFunc("POST /my-account/delete-account/{$}", myaccount.CustomerPage(acct.DeleteAccount))
	mux.HandleFunc("POST /my-account/privacy-request/{$}", myaccount.CustomerPage(acct.PrivacyRequest))
	// Security: two-factor, recovery codes, devices.
	mux.HandleFunc("GET /my-account/security/{$}", acct.SecurityPage)
	mux.HandleFunc("POST /my-account/security/{$}", acct.SecurityPost)
	mux.HandleFunc("GET /my-account/security", httpx.RedirectSlash)
	// Lost password, email verification.
	mux.HandleFunc("GET "+myaccount.LostPasswordPath+"{$}", acct.LostPassword)
	mux.HandleFunc("POST "+myaccount.LostPasswordPath+"{$}", acct.LostPasswordPost)
	mux.HandleFunc("GET "+myaccount.VerifyEmailPath+"{$}", acct.VerifyEmail)
	mux.HandleFunc("POST "+myaccount.VerifyEmailPath+"{$}", acct.VerifyEmailPost)
	// Back-in-stock alerts: the notify form, its mailed links (internal/alertsapi).
	mux.HandleFunc("POST "+alerts.SubscribePath+"{$}", s.alertsAPI.Subscribe)
	mux.HandleFunc("GET "+alerts.ConfirmPath+"{$}", s.alertsAPI.Confirm)
	mux.HandleFunc("POST "+alerts.ConfirmPath+"{$}", s.alertsAPI.ConfirmPost)
	mux.HandleFunc("GET "+alerts.UnsubscribePath+"{$}", s.alertsAPI.Unsubscribe)
	mux.HandleFunc("POST "+alerts.UnsubscribePath+"{$}", s.alertsAPI.UnsubscribePost)
	mux.HandleFunc("GET "+alertsapi.PrefsPath, s.alertsAPI.Prefs)
	mux.HandleFunc("POST "+alertsapi.PrefsPath, s.alertsAPI.SetPrefs)
	// Privacy requests' mailed links (internal/privacyapi).
	mux.HandleFunc("GET "+privacy.ConfirmPath+"{$}", s.privacyAPI.Confirm)
	mux.HandleFunc("POST "+privacy.ConfirmPath+"{$}", s.privacyAPI.ConfirmPost)
	mux.HandleFunc("GET "+privacy.DownloadPath+"{$}", s.privacyAPI.Download)
	mux.HandleFunc("POST "+privacy.DownloadPath+"{$}", s.privacyAPI.DownloadPost)
	// The contact page (internal/storefront).
	mux.HandleFunc("GET /contact/{$}", f.Contact)          // cached for guests (contact_page.go)
	mux.HandleFunc("POST /contact/{$}", s.contactAPI.Post) // the form without scripts (internal/contactapi)
	mux.HandleFunc("GET /contact", httpx.RedirectSlash)
	// The admin app's shell (internal/adminapi): staff only; its screens
	// route in the browser, including the edit links' post.php and term.php.
	mux.Handle("GET /wp-admin/{path...}", s.adminShell)
	mux.HandleFunc("GET /wp-admin", httpx.RedirectSlash)
	mux.HandleFunc("GET /my-account", httpx.RedirectSlash)
	mux.HandleFunc("GET /checkout", httpx.RedirectSlash)
	mux.HandleFunc("GET /shop", httpx.RedirectSlash)
	mux.HandleFunc("GET /cart", httpx.RedirectSlash)
	mux.HandleFunc("GET /product/{slug}", httpx.RedirectSlash)

	// The Store API (internal/storeapi). Reads are cached until the
	// catalogue changes what they show.
	api, st := "/wp-json/wc/store/v1", s.storeAPI
	mux.HandleFunc("GET "+api+"/products", st.Products)
	mux.HandleFunc("GET "+api+"/products/reviews", st.Reviews) // a literal: preferred to /products/{id}
	mux.HandleFunc("GET "+api+"/products/categories", st.Categories)
	mux.HandleFunc("GET "+api+"/products/categories/{id}", st.Category)
	mux.HandleFunc("GET "+api+"/products/collection-data", st.CollectionData)
	mux.HandleFunc("GET "+api+"/products/attributes", st.Attributes)
	mux.HandleFunc("GET "+api+"/products/attributes/{id}", st.Attribute)
	mux.HandleFunc("GET "+api+"/products/attributes/{id}/terms", st.AttributeTerms)
	mux.HandleFunc("GET "+api+"/products/{id}", st.Product)
	// The cart: per session, never cached.
	mux.HandleFunc("GET "+api+"/cart", st.GetCart)
	mux.HandleFunc("POST "+api+"/cart/add-item", st.AddItem)
	mux.HandleFunc("POST "+api+"/cart/remove-item", st.RemoveItem)
	mux.HandleFunc("POST "+api+"/cart/update-item", st.UpdateItem)
	mux.HandleFunc("POST "+api+"/cart/update-customer", st.UpdateCustomer)
	mux.HandleFunc("POST "+api+"/cart/select-shipping-rate", st.SelectShippingRate)
	mux.HandleFunc("POST "+api+"/cart/extensions", st.CartExtensions) // woo-multi-currency's checkout currency
	mux.HandleFunc("GET "+api+"/cart/items", st.ListItems)
	mux.HandleFunc("POST "+api+"/cart/items", st.CreateItem)
	mux.HandleFunc("GET "+api+"/cart/items/{key}", st.GetItem)
	mux.HandleFunc("PUT "+api+"/cart/items/{key}", st.PutItem)
	mux.HandleFunc("DELETE "+api+"/cart/items/{key}", st.DeleteItem)
	mux.HandleFunc("POST "+api+"/cart/apply-coupon", st.ApplyCoupon)
	mux.HandleFunc("POST "+api+"/cart/remove-coupon", st.RemoveCoupon)
	mux.HandleFunc("GET "+api+"/cart/coupons", st.ListCoupons)
	mux.HandleFunc("POST "+api+"/cart/coupons", st.AddCoupon)
	mux.HandleFunc("DELETE "+api+"/cart/coupons", st.DeleteCoupons)
	mux.HandleFunc("GET "+api+"/cart/coupons/{code}", st.GetCoupon)
	mux.HandleFunc("DELETE "+api+"/cart/coupons/{code}", st.DeleteCoupon)
	mux.HandleFunc("POST "+api+"/batch", st.Batch) // cart writes only
	// The checkout: per session, never cached.
	mux.HandleFunc("GET "+api+"/checkout", st.Draft)
	mux.HandleFunc("POST "+api+"/checkout", st.PlaceOrder)
	mux.HandleFunc("POST /wp-json/paypal/v1/incoming", s.walletAPI.Webhook)              // PayPal webhooks (internal/walletapi)
	mux.HandleFunc("GET /wp-json/vitrine/v1/botcheck/{purpose}", acct.BotcheckChallenge) // ALTCHA challenges (internal/myaccount)
	mux.HandleFunc("POST "+visitsapi.Path, s.visitsAPI.Start)                            // a new storefront session, counted (internal/visitsapi)
	// Contact Form 7 REST (internal/contactapi): the feedback POST is never cached.
	mux.HandleFunc("POST "+contactapi.Path+"{id}/feedback", s.contactAPI.Feedback)
	mux.HandleFunc("GET "+contactapi.Path+"{id}/refill", s.contactAPI.Refill)
	mux.HandleFunc("GET "+contactapi.Path+"{id}/feedback/schema", s.contactAPI.Schema)
	// The coming-soon banner's dismissal: the viewer's own woocommerce_meta (internal/storefront, frame.go).
	mux.HandleFunc("POST /wp-json/wp/v2/users/{id}", f.UserUpdate)
	mux.HandleFunc("PUT /wp-json/wp/v2/users/{id}", f.UserUpdate)
	mux.HandleFunc("PATCH /wp-json/wp/v2/users/{id}", f.UserUpdate)
	// The admin API (internal/adminapi): staff only, with a REST nonce.
	for _, p := range adminapi.Prefixes {
		mux.Handle(p, s.admin)
	}
	// WooCommerce Admin's analytics (internal/analyticsapi), guarded as the admin API.
	for _, rt := range append(s.analyticsAPI.Routes(), s.analyticsAPI.SettingsRoutes(s.analyticsSettings)...) {
		mux.HandleFunc(rt.Pattern, s.admin.Guard(rt.Handler))
	}
	mux.HandleFunc("/wp-json/", s.apiNoRoute)

	// WordPress admin-ajax actions (internal/ajax).
	// One pattern per method: a method-less one would overlap the admin
	// app's GET /wp-admin/{path...}.
	for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"} {
		mux.HandleFunc(m+" /wp-admin/admin-ajax.php", s.ajax.AdminAjax)
	}

	// Files (internal/storefront).
	mux.HandleFunc("GET /assets/", f.Asset)
	mux.HandleFunc("GET /media/{path...}", f.Media)
	mux.HandleFunc("GET /favicon.svg", f.Favicon)
	mux.HandleFunc("GET /favicon.ico", f.FaviconICO)        // the same mark, drawn at start (favicon.go)
	mux.HandleFunc("GET /manifest.webmanifest", f.Manifest) // the web app manifest and its icons (manifest.go)
	for _, p := range storefront.IconPaths() {
		mux.HandleFunc("GET "+p, f.Icon)
	}
	mux.HandleFunc("GET /robots.txt", f.Robots)
	mux.HandleFunc("GET /sitemap.xml", f.Sitemap)
	mux.HandleFunc("GET /sitemap-pages.xml", f.SitemapPages)
	mux.HandleFunc("GET /sitemap-categories.xml", f.SitemapCategories)
	mux.HandleFunc("GET /sitemap-tags.xml", f.SitemapTags)
	mux.HandleFunc("GET /{file}", f.RootFile) // sitemap-products-N.xml, else the 404 page

	// The built-in PayPal sandbox, in demo mode only (wallet.go).
	if s.cfg.Sandbox != nil {
		mux.Handle(SandboxPrefix+"/", s.cfg.Sandbox)
	}

	// Operations.
	mux.HandleFunc("GET /healthz", s.handleHealth)
	mux.HandleFunc("GET /readyz", s.handleReady)
	// /metrics is not here: it is served on its own address (MetricsHandler).

	// Everything else: a published content page at /<slug>/, else the
	// shop's 404 page (internal/storefront, content_page.go). Every 404
	// page of a GET first asks whether the path is the old shop's link
	// (oldlinks.go).
	mux.HandleFunc("/", f.Fallback)
	return s.withRESTAuth(withRoute(mux)) // REST cookie auth for logged-in viewers (restauth.go); the route label (edge.go)
}

// wcAjaxOr answers ?wc-ajax= calls to the home URL with the ajax surface
// (internal/ajax), every other request with page.
func (s *Server) wcAjaxOr(page http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("wc-ajax") {
			s.ajax.WCAjax(w, r)
			return
		}
		page(w, r)
	}
}

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write([]byte("ok\n"))
}

func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if err := s.db.Ready(r.Context()); err != nil {
		s.log.Warn("not ready", "err", err)
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("not ready\n"))
		return
	}
	_, _ = w.Write([]byte("ready\n"))
}

// apiNoRoute answers unknown /wp-json/ paths as WordPress does.
func (s *Server) apiNoRoute(w http.ResponseWriter, r *http.Request) {
	httpx.WriteError(w, http.StatusNotFound, "rest_no_route", "No route was found matching the URL and request method.", nil)
}
