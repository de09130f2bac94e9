package server

import (
	"net/http"

	"vitrine/internal/adminapi"
	"vitrine/internal/contactapi"
)

// routes is the whole HTTP surface on one screen.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()

	// Pages, server-rendered and cached.
	mux.HandleFunc("GET /{$}", s.handleHome)      // also ?s= search results, and ?wc-ajax= (wcajax.go)
	mux.HandleFunc("POST /{$}", s.handleHomePost) // ?wc-ajax= only
	mux.HandleFunc("GET /shop/{$}", s.handleShop)
	mux.HandleFunc("GET /shop/page/{n}/{$}", s.handleShop)
	mux.HandleFunc("GET /product-category/{path...}", s.handleCategory)
	mux.HandleFunc("GET /product-tag/{slug}/{$}", s.handleTag) // a tag's archive, a listing like a category's
	mux.HandleFunc("GET /product-tag/{slug}/page/{n}/{$}", s.handleTag)
	mux.HandleFunc("GET /product-tag/{slug}", redirectSlash)
	mux.HandleFunc("GET /product/{slug}/{$}", s.handleProduct)
	mux.HandleFunc("POST /product/{slug}/{$}", s.handleProductPost)                // the product form without scripts (nojs_cart.go)
	mux.HandleFunc("GET /product/{slug}/{sub}/{$}", s.handleProductSub)            // comment-page-N: older reviews (reviews_post.go)
	mux.HandleFunc("POST /wp-comments-post.php", s.handleReviewPost)               // the review form (reviews_post.go)
	mux.HandleFunc("GET /cart/{$}", s.handleCart)                                  // per visitor, never cached (nojs_cart.go)
	mux.HandleFunc("POST /cart/{$}", s.handleCartPost)                             // the cart page's form without scripts (nojs_cart.go)
	mux.HandleFunc("GET /checkout/{$}", s.handleCheckout)                          // per visitor (checkout_page.go)
	mux.HandleFunc("POST /checkout/{$}", s.handleCheckoutPost)                     // the classic form without scripts
	mux.HandleFunc("GET /checkout/order-received/{id}/{$}", s.handleOrderReceived) // only with the order key
	mux.HandleFunc("GET /checkout/paypal-return/{$}", s.walletAPI.Return)          // the wallet buyer's return (internal/walletapi)
	// My account (account_routes.go): the login and registration forms for
	// visitors, the account's pages for customers. Per visitor, never cached.
	mux.HandleFunc("GET /my-account/{$}", s.handleMyAccount)
	mux.HandleFunc("POST /my-account/{$}", s.handleMyAccountPost)
	// Log out (login_page.go).
	mux.HandleFunc("GET /my-account/customer-logout/{$}", s.handleLogout)
	mux.HandleFunc("GET /my-account/customer-logout", redirectSlash)
	// account pages (account_pages.go): customers only, visitors go to /my-account/
	mux.HandleFunc("GET /my-account/orders/{$}", s.customerPage(s.handleAccountOrders))
	mux.HandleFunc("GET /my-account/orders/{n}/{$}", s.customerPage(s.handleAccountOrders))
	mux.HandleFunc("GET /my-account/view-order/{id}/{$}", s.customerPage(s.handleAccountViewOrder))
	mux.HandleFunc("GET /my-account/edit-address/{$}", s.customerPage(s.handleAccountAddresses))
	mux.HandleFunc("GET /my-account/edit-address/{kind}/{$}", s.customerPage(s.handleAccountEditAddress))
	mux.HandleFunc("POST /my-account/edit-address/{kind}/{$}", s.customerPage(s.handleAccountEditAddressPost))
	mux.HandleFunc("GET /my-account/edit-account/{$}", s.customerPage(s.handleAccountEditAccount))
	mux.HandleFunc("POST /my-account/edit-account/{$}", s.customerPage(s.handleAccountEditAccountPost))
	mux.HandleFunc("POST /my-account/delete-account/{$}", s.customerPage(s.handleAccountDelete))
	// Security: two-factor, recovery codes, devices (account_security.go).
	mux.HandleFunc("GET /my-account/security/{$}", s.handleSecurityPage) // two-factor, recovery codes, devices (account_security.go)
	mux.HandleFunc("POST /my-account/security/{$}", s.handleSecurityPost)
	mux.HandleFunc("GET /my-account/security", redirectSlash)
	// Lost password, email verification (account_links.go).
	mux.HandleFunc("GET "+lostPasswordPath+"{$}", s.handleLostPassword)
	mux.HandleFunc("POST "+lostPasswordPath+"{$}", s.handleLostPasswordPost)
	mux.HandleFunc("GET "+verifyEmailPath+"{$}", s.handleVerifyEmail)
	mux.HandleFunc("POST "+verifyEmailPath+"{$}", s.handleVerifyEmailPost)
	// The logged-in frame (frame.go): the admin's placeholder for staff.
	mux.HandleFunc("GET /contact/{$}", s.handleContact)    // cached for guests (contact_page.go)
	mux.HandleFunc("POST /contact/{$}", s.contactAPI.Post) // the form without scripts (internal/contactapi)
	mux.HandleFunc("GET /contact", redirectSlash)
	// The admin app (admin_shell.go): staff only; its screens route in the
	// browser, including the edit links' post.php and term.php.
	mux.HandleFunc("GET /wp-admin/{path...}", s.handleWPAdmin)
	mux.HandleFunc("GET /wp-admin", redirectSlash)
	mux.HandleFunc("GET /my-account", redirectSlash)
	mux.HandleFunc("GET /checkout", redirectSlash)
	mux.HandleFunc("GET /shop", redirectSlash)
	mux.HandleFunc("GET /cart", redirectSlash)
	mux.HandleFunc("GET /product/{slug}", redirectSlash)

	// Store API (reads; checkout comes with its issue).
	api := "/wp-json/wc/store/v1"
	mux.HandleFunc("GET "+api+"/products", s.apiProducts)
	mux.HandleFunc("GET "+api+"/products/reviews", s.apiReviews) // a literal: preferred to /products/{id}
	mux.HandleFunc("GET "+api+"/products/categories", s.apiCategories)
	mux.HandleFunc("GET "+api+"/products/categories/{id}", s.apiCategory)
	mux.HandleFunc("GET "+api+"/products/attributes", s.apiAttributes)
	mux.HandleFunc("GET "+api+"/products/attributes/{id}", s.apiAttribute)
	mux.HandleFunc("GET "+api+"/products/attributes/{id}/terms", s.apiAttributeTerms)
	mux.HandleFunc("GET "+api+"/products/{id}", s.apiProduct)
	// Store API cart (cartapi.go): per-session, never cached.
	mux.HandleFunc("GET "+api+"/cart", s.cartRoute(false, s.cartGet))
	mux.HandleFunc("POST "+api+"/cart/add-item", s.cartRoute(true, s.cartAddItem))
	mux.HandleFunc("POST "+api+"/cart/remove-item", s.cartRoute(true, s.cartRemoveItem))
	mux.HandleFunc("POST "+api+"/cart/update-item", s.cartRoute(true, s.cartUpdateItem))
	mux.HandleFunc("POST "+api+"/cart/update-customer", s.cartRoute(true, s.cartUpdateCustomer))
	mux.HandleFunc("POST "+api+"/cart/select-shipping-rate", s.cartRoute(true, s.cartSelectShippingRate))
	mux.HandleFunc("POST "+api+"/cart/extensions", s.handleCartExtensions) // woo-multi-currency's checkout currency (cart_extensions.go)
	mux.HandleFunc("GET "+api+"/cart/items", s.cartRoute(false, s.cartItemsGet))
	mux.HandleFunc("POST "+api+"/cart/items", s.cartRoute(true, s.cartItemsPost))
	mux.HandleFunc("GET "+api+"/cart/items/{key}", s.cartRoute(false, s.cartItemGet))
	mux.HandleFunc("PUT "+api+"/cart/items/{key}", s.cartRoute(true, s.cartItemPut))
	mux.HandleFunc("DELETE "+api+"/cart/items/{key}", s.cartRoute(true, s.cartItemDelete))
	mux.HandleFunc("POST "+api+"/cart/apply-coupon", s.cartRoute(true, s.cartApplyCoupon)) // coupons (cart_coupons.go)
	mux.HandleFunc("POST "+api+"/cart/remove-coupon", s.cartRoute(true, s.cartRemoveCoupon))
	mux.HandleFunc("GET "+api+"/cart/coupons", s.cartRoute(false, s.cartCouponsGet))
	mux.HandleFunc("POST "+api+"/cart/coupons", s.cartRoute(true, s.cartCouponsPost))
	mux.HandleFunc("DELETE "+api+"/cart/coupons", s.cartRoute(true, s.cartCouponsDelete))
	mux.HandleFunc("GET "+api+"/cart/coupons/{code}", s.cartRoute(false, s.cartCouponGet))
	mux.HandleFunc("DELETE "+api+"/cart/coupons/{code}", s.cartRoute(true, s.cartCouponDelete))
	mux.HandleFunc("POST "+api+"/batch", s.cartBatch) // cart writes only (batch.go)
	// Store API checkout (checkout.go): per session, never cached.
	mux.HandleFunc("GET "+api+"/checkout", s.checkoutRoute(s.checkoutGet))
	mux.HandleFunc("POST "+api+"/checkout", s.checkoutRoute(s.checkoutPost))
	mux.HandleFunc("POST /wp-json/paypal/v1/incoming", s.walletAPI.Webhook)                 // PayPal webhooks (internal/walletapi)
	mux.HandleFunc("GET /wp-json/vitrine/v1/botcheck/{purpose}", s.handleBotcheckChallenge) // ALTCHA challenges (login_ajax.go)
	// Contact Form 7 REST (internal/contactapi): the feedback POST is never cached.
	mux.HandleFunc("POST "+contactapi.Path+"{id}/feedback", s.contactAPI.Feedback)
	mux.HandleFunc("GET "+contactapi.Path+"{id}/refill", s.contactAPI.Refill)
	mux.HandleFunc("GET "+contactapi.Path+"{id}/feedback/schema", s.contactAPI.Schema)
	// The coming-soon banner's dismissal: the viewer's own woocommerce_meta (frame.go).
	mux.HandleFunc("POST /wp-json/wp/v2/users/{id}", s.handleUserUpdate)
	mux.HandleFunc("PUT /wp-json/wp/v2/users/{id}", s.handleUserUpdate)
	mux.HandleFunc("PATCH /wp-json/wp/v2/users/{id}", s.handleUserUpdate)
	// The admin API (internal/adminapi): staff only, with a REST nonce.
	for _, p := range adminapi.Prefixes {
		mux.Handle(p, s.admin)
	}
	mux.HandleFunc("/wp-json/", s.apiNoRoute)

	// WordPress admin-ajax actions (live search; see ajax.go).
	// One pattern per method: a method-less one would overlap the admin
	// app's GET /wp-admin/{path...}.
	for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"} {
		mux.HandleFunc(m+" /wp-admin/admin-ajax.php", s.handleAdminAjax)
	}

	// Files.
	mux.HandleFunc("GET /assets/", s.handleAsset)
	mux.HandleFunc("GET /media/{path...}", s.handleMedia)
	mux.HandleFunc("GET /favicon.svg", s.handleFavicon)
	mux.HandleFunc("GET /favicon.ico", s.handleFaviconICO)        // the same mark, drawn at start (favicon.go)
	mux.HandleFunc("GET /manifest.webmanifest", s.handleManifest) // the web app manifest and its icons (manifest.go)
	for _, ic := range appIcons {
		mux.HandleFunc("GET "+ic.path, s.handleIcon)
	}
	mux.HandleFunc("GET /robots.txt", s.handleRobots)
	mux.HandleFunc("GET /sitemap.xml", s.handleSitemap)
	mux.HandleFunc("GET /sitemap-pages.xml", s.handleSitemapPages)
	mux.HandleFunc("GET /sitemap-categories.xml", s.handleSitemapCategories)
	mux.HandleFunc("GET /sitemap-tags.xml", s.handleSitemapTags)
	mux.HandleFunc("GET /{file}", s.handleRootFile) // sitemap-products-N.xml, else the 404 page

	// The built-in PayPal sandbox, in demo mode only (wallet.go).
	if s.cfg.Sandbox != nil {
		mux.Handle(SandboxPrefix+"/", s.cfg.Sandbox)
	}

	// Operations.
	mux.HandleFunc("GET /healthz", s.handleHealth)
	mux.HandleFunc("GET /readyz", s.handleReady)
	// /metrics is not here: it is served on its own address (MetricsHandler).

	// Everything else: a published content page at /<slug>/, else the
	// shop's 404 page (content_page.go).
	mux.HandleFunc("/", s.handleFallback)
	return s.withRESTAuth(withRoute(mux)) // REST cookie auth for logged-in viewers (frame.go); the route label (edge.go)
}

func redirectSlash(w http.ResponseWriter, r *http.Request) {
	u := *r.URL
	u.Path += "/"
	http.Redirect(w, r, u.RequestURI(), http.StatusMovedPermanently)
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
