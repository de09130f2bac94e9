package adminapi

// routes is the admin API on one screen. Each capability adds its routes
// here, every one wrapped in a.staff. A list (paging, search, filters,
// sort, status tabs, bulk actions) is declared with the list helper:
// list.go's doc says how to add one.
func (a *API) routes() {
	const admin = "/wp-json/vitrine/v1/admin"
	a.mux.HandleFunc("GET "+admin+"/me", a.staff(a.me))
	a.mux.HandleFunc("GET "+admin+"/audit", a.staff(a.auditList))
	a.mux.HandleFunc("GET "+admin+"/settings", a.staff(a.settingsGet))
	a.mux.HandleFunc("PUT "+admin+"/settings", a.staff(a.settingsPut))
	a.mux.HandleFunc("POST "+admin+"/settings/test-mail", a.staff(a.settingsTestMail))
	a.mux.HandleFunc("GET "+admin+"/payments", a.staff(a.paymentsGet))
	a.mux.HandleFunc("PUT "+admin+"/payments", a.staff(a.paymentsPut))
	a.mux.HandleFunc("POST "+admin+"/payments/paypal/test", a.staff(a.paymentsPayPalTest))
	a.mux.HandleFunc("GET "+admin+"/shipping-tax", a.staff(a.shippingGet))
	a.mux.HandleFunc("PUT "+admin+"/shipping-tax", a.staff(a.shippingPut))
	a.mux.HandleFunc("GET "+admin+"/currencies", a.staff(a.currenciesList))
	a.mux.HandleFunc("POST "+admin+"/currencies/rates", a.staff(a.currencyImport))
	a.mux.HandleFunc("PUT "+admin+"/currencies/{code}", a.staff(a.currencyPut))
	a.mux.HandleFunc("GET "+admin+"/currencies/{code}/rates", a.staff(a.currencyRates))

	// Orders (orders.go).
	const wc = "/wp-json/wc/v3"
	a.mux.HandleFunc("GET "+wc+"/orders", a.staff(a.ordersList))
	a.mux.HandleFunc("GET "+wc+"/reports/orders/totals", a.staff(a.orderTotals))
	a.mux.HandleFunc("GET "+wc+"/orders/{id}", a.staff(a.orderGet))
	a.mux.HandleFunc("PUT "+wc+"/orders/{id}", a.staff(a.orderUpdate))
	a.mux.HandleFunc("POST "+wc+"/orders/{id}", a.staff(a.orderUpdate))
	a.mux.HandleFunc("PATCH "+wc+"/orders/{id}", a.staff(a.orderUpdate))
	a.mux.HandleFunc("GET "+wc+"/orders/{id}/notes", a.staff(a.orderNotes))
	a.mux.HandleFunc("POST "+wc+"/orders/{id}/notes", a.staff(a.orderNoteAdd))
	a.mux.HandleFunc("GET "+wc+"/orders/{id}/refunds", a.staff(a.orderRefunds))
	a.mux.HandleFunc("POST "+wc+"/orders/{id}/refunds", a.staff(a.orderRefund))
	a.mux.HandleFunc("POST "+admin+"/orders/{id}/refunds/{refund_id}/finish", a.staff(a.orderRefundFinish))
	a.mux.HandleFunc("POST "+admin+"/orders/{id}/emails", a.staff(a.orderEmail))
	const media = "/wp-json/wp/v2/media"
	a.mux.HandleFunc("GET "+media, a.staff(a.mediaList))
	a.mux.HandleFunc("POST "+media, a.staff(a.mediaUpload))
	a.mux.HandleFunc("GET "+media+"/{id}", a.staff(a.mediaGet))
	a.mux.HandleFunc("POST "+media+"/{id}", a.staff(a.mediaUpdate))
	a.mux.HandleFunc("PUT "+media+"/{id}", a.staff(a.mediaUpdate))
	a.mux.HandleFunc("PATCH "+media+"/{id}", a.staff(a.mediaUpdate))
	a.mux.HandleFunc("DELETE "+media+"/{id}", a.staff(a.mediaDelete))
	a.mux.HandleFunc("POST "+media+"/{id}/post-process", a.staff(a.mediaPostProcess))

	// Reviews: the moderation queue (reviews.go).
	const reviews = "/wp-json/wc/v3/products/reviews"
	a.mux.HandleFunc("GET "+reviews, a.staff(a.reviewsList))
	a.mux.HandleFunc("GET "+reviews+"/{id}", a.staff(a.reviewGet))
	a.mux.HandleFunc("PUT "+reviews+"/{id}", a.staff(a.reviewUpdate))
	a.mux.HandleFunc("POST "+reviews+"/{id}", a.staff(a.reviewUpdate))
	a.mux.HandleFunc("PATCH "+reviews+"/{id}", a.staff(a.reviewUpdate))
	a.mux.HandleFunc("DELETE "+reviews+"/{id}", a.staff(a.reviewDelete))
	a.mux.HandleFunc("GET "+admin+"/reviews/counts", a.staff(a.reviewCounts))
	a.mux.HandleFunc("PUT "+admin+"/reviews/{id}/reply", a.staff(a.reviewReply))
	a.mux.HandleFunc("DELETE "+admin+"/reviews/{id}/reply", a.staff(a.reviewReplyDelete))

	// Messages: the contact inbox (messages.go).
	a.mux.HandleFunc("GET "+messagesPath, a.staff(a.messagesList))
	a.mux.HandleFunc("GET "+messagesPath+"/counts", a.staff(a.messageCounts))
	a.mux.HandleFunc("GET "+messagesPath+"/{id}", a.staff(a.messageGet))
	a.mux.HandleFunc("PUT "+messagesPath+"/{id}", a.staff(a.messageUpdate))
	a.mux.HandleFunc("DELETE "+messagesPath+"/{id}", a.staff(a.messageDelete))
	a.mux.HandleFunc("POST "+messagesPath+"/{id}/replies", a.staff(a.messageReply))
	a.mux.HandleFunc("GET "+messagesPath+"/{id}/files/{file}", a.staff(a.messageFile))

	// Storage: what uploads hold against their quotas (storage.go).
	a.mux.HandleFunc("GET "+storagePath, a.staff(a.storageGet))

	// Coupons (coupons.go).
	a.mux.HandleFunc("GET "+wc+"/coupons", a.staff(a.couponList))
	a.mux.HandleFunc("POST "+wc+"/coupons", a.staff(a.couponCreate))
	a.mux.HandleFunc("GET "+wc+"/coupons/{id}", a.staff(a.couponGet))
	a.mux.HandleFunc("PUT "+wc+"/coupons/{id}", a.staff(a.couponUpdate))
	a.mux.HandleFunc("PATCH "+wc+"/coupons/{id}", a.staff(a.couponUpdate))
	a.mux.HandleFunc("POST "+wc+"/coupons/{id}", a.staff(a.couponUpdate))
	a.mux.HandleFunc("DELETE "+wc+"/coupons/{id}", a.staff(a.couponDelete))

	// Products (products.go, product_terms.go).
	const products = "/wp-json/wc/v3/products"
	a.mux.HandleFunc("GET "+products, a.staff(a.productsList))
	a.mux.HandleFunc("POST "+products, a.staff(a.productCreate))
	a.mux.HandleFunc("GET "+products+"/{id}", a.staff(a.productGet))
	a.mux.HandleFunc("PUT "+products+"/{id}", a.staff(a.productUpdate))
	a.mux.HandleFunc("PATCH "+products+"/{id}", a.staff(a.productUpdate))
	a.mux.HandleFunc("DELETE "+products+"/{id}", a.staff(a.productDelete))
	// {id}/duplicate, {id}/variations, {id}/variations/generate and
	// {id}/variations/batch (one pattern: ServeMux would find
	// "{id}/variations" ambiguous next to "categories/{id}").
	a.mux.HandleFunc("GET "+products+"/{id}/{sub...}", a.staff(a.productSub))
	a.mux.HandleFunc("POST "+products+"/{id}/{sub...}", a.staff(a.productSub))
	a.mux.HandleFunc("GET "+admin+"/products/counts", a.staff(a.productCounts))
	a.mux.HandleFunc("POST "+admin+"/products/bulk", a.staff(a.productsBulk))
	a.mux.HandleFunc("GET "+admin+"/product-images", a.staff(a.productImages))
	a.mux.HandleFunc("GET "+products+"/categories", a.staff(a.categoriesList))
	a.mux.HandleFunc("POST "+products+"/categories", a.staff(a.categorySave))
	a.mux.HandleFunc("GET "+products+"/categories/{id}", a.staff(a.categoryGet))
	a.mux.HandleFunc("PUT "+products+"/categories/{id}", a.staff(a.categorySave))
	a.mux.HandleFunc("DELETE "+products+"/categories/{id}", a.staff(a.categoryDelete))
	a.mux.HandleFunc("GET "+products+"/tags", a.staff(a.tagsList))
	a.mux.HandleFunc("POST "+products+"/tags", a.staff(a.tagSave))
	a.mux.HandleFunc("PUT "+products+"/tags/{id}", a.staff(a.tagSave))
	a.mux.HandleFunc("DELETE "+products+"/tags/{id}", a.staff(a.tagDelete))
	a.mux.HandleFunc("GET "+products+"/attributes", a.staff(a.attributesList))
	a.mux.HandleFunc("POST "+products+"/attributes", a.staff(a.attributeCreate))
	a.mux.HandleFunc("PUT "+products+"/attributes/{id}", a.staff(a.attributeUpdate))
	a.mux.HandleFunc("POST "+products+"/attributes/{id}/terms", a.staff(a.termSave))
	a.mux.HandleFunc("PUT "+products+"/attributes/{id}/terms/{term_id}", a.staff(a.termSave))

	// Webhooks (webhooks.go), when the server has them.
	if a.d.Webhooks != nil {
		a.mux.HandleFunc("GET "+webhooksPath, a.staff(a.webhooksList))
		a.mux.HandleFunc("POST "+webhooksPath, a.staff(a.webhookCreate))
		a.mux.HandleFunc("POST "+webhooksPath+"/batch", a.staff(a.webhooksBatch))
		a.mux.HandleFunc("GET "+webhooksPath+"/{id}", a.staff(a.webhookGet))
		a.mux.HandleFunc("PUT "+webhooksPath+"/{id}", a.staff(a.webhookUpdate))
		a.mux.HandleFunc("PATCH "+webhooksPath+"/{id}", a.staff(a.webhookUpdate))
		a.mux.HandleFunc("POST "+webhooksPath+"/{id}", a.staff(a.webhookUpdate))
		a.mux.HandleFunc("DELETE "+webhooksPath+"/{id}", a.staff(a.webhookDelete))
		a.mux.HandleFunc("GET "+webhooksPath+"/{id}/deliveries", a.staff(a.webhookDeliveries))
	}
}
