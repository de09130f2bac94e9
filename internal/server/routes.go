package server

import (
	"net/http"

	"vitrine/internal/adminapi"
	"vitrine/internal/contactapi"
	"vitrine/internal/httpx"
	"vitrine/internal/myaccount"
)

// routes is the whole HTTP surface on one screen.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()

	// Pages, server-rendered and cached.
	mux.HandleFunc("GET /{$}", s.handleHome)      // also ?s= search results, and ?wc-ajax= (internal/ajax)
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
	// My account (internal/myaccount): the login and registration forms
	// for visitors, the account's pages for customers. Per visitor, never cached.
	acct := s.myAccount
	mux.HandleFunc("GET /my-account/{$}", acct.MyAccount)
	mux.HandleFunc("POST /my-account/{$}", acct.MyAccountPost)
	// Log out.
	mux.HandleFunc("GET /my-account/customer-logout/{$}", acct.Logout)
	mux.HandleFunc("GET /my-account/customer-logout", redirectSlash)
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
	// Security: two-factor, recovery codes, devices.
	mux.HandleFunc("GET /my-account/security/{$}", acct.SecurityPage)
	mux.HandleFunc("POST /my-account/security/{$}", acct.SecurityPost)
	mux.HandleFunc("GET /my-account/security", redirectSlash)
	// Lost password, email verification.
	mux.HandleFunc("GET "+myaccount.LostPasswordPath+"{$}", acct.LostPassword)
	mux.HandleFunc("POST "+myaccount.LostPasswordPath+"{$}", acct.LostPasswordPost)
	mux.HandleFunc("GET "+myaccount.VerifyEmailPath+"{$}", acct.VerifyEmail)
	mux.HandleFunc("POST "+myaccount.VerifyEmailPath+"{$}", acct.VerifyEmailPost)
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

	// The Store API (internal/storeapi). Reads are cached until the
	// catalogue changes what they show.
	api, st := "/wp-json/wc/store/v1", s.storeAPI
	mux.HandleFunc("GET "+api+"/products", st.Products)
	mux.HandleFunc("GET "+api+"/products/reviews", st.Reviews) // a literal: preferred to /products/{id}
	mux.HandleFunc("GET "+api+"/products/categories", st.Categories)
	mux.HandleFunc("GET "+api+"/products/categories/{id}", st.Category)
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

	// WordPress admin-ajax actions (internal/ajax).
	// One pattern per method: a method-less one would overlap the admin
	// app's GET /wp-admin/{path...}.
	for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"} {
		mux.HandleFunc(m+" /wp-admin/admin-ajax.php", s.ajax.AdminAjax)
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

// apiNoRoute answers unknown /wp-json/ paths as WordPress does.
func (s *Server) apiNoRoute(w http.ResponseWriter, r *http.Request) {
	httpx.WriteError(w, http.StatusNotFound, "rest_no_route", "No route was found matching the URL and request method.", nil)
}
