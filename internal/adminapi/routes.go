package adminapi

// routes is the admin API on one screen. Each capability adds its routes
// here, every one wrapped in a.staff. A list (paging, search, filters,
// sort, status tabs, bulk actions) is declared with the list helper:
// list.go's doc says how to add one.
func (a *API) routes() {
	const admin = "/wp-json/vitrine/v1/admin"
	a.handle("GET "+admin+"/me", a.staff(a.me))
	a.handle("GET "+admin+"/audit", a.staff(a.auditList))
	a.handle("GET "+admin+"/settings", a.staff(a.settingsGet))
	a.handle("PUT "+admin+"/settings", a.staff(a.settingsPut))
	a.handle("POST "+admin+"/settings/test-mail", a.staff(a.settingsTestMail))
	a.handle("GET "+admin+"/search", a.staff(a.searchGet))
	a.handle("PUT "+admin+"/search", a.staff(a.searchPut))
	a.handle("GET "+admin+"/payments", a.staff(a.paymentsGet))
	a.handle("PUT "+admin+"/payments", a.staff(a.paymentsPut))
	a.handle("POST "+admin+"/payments/paypal/test", a.staff(a.paymentsPayPalTest))
	a.handle("GET "+admin+"/retention", a.staff(a.retentionGet)) // retention.go
	a.handle("PUT "+admin+"/retention", a.staff(a.retentionPut))
	a.handle("GET "+admin+"/shipping-tax", a.staff(a.shippingGet))
	a.handle("PUT "+admin+"/shipping-tax", a.staff(a.shippingPut))
	a.handle("GET "+admin+"/currencies", a.staff(a.currenciesList))
	a.handle("POST "+admin+"/currencies/rates", a.staff(a.currencyImport))
	a.handle("PUT "+admin+"/currencies/{code}", a.staff(a.currencyPut))
	a.handle("GET "+admin+"/currencies/{code}/rates", a.staff(a.currencyRates))

	// Orders (orders.go).
	const wc = "/wp-json/wc/v3"
	a.handle("GET "+wc, a.staff(a.index)) // the namespace's index (index.go)
	a.handle("GET "+wc+"/orders", a.staff(a.ordersList))
	a.handle("POST "+wc+"/orders", a.staff(a.orderCreate)) // orders_create.go
	a.handle("POST "+wc+"/orders/batch", a.staff(a.ordersBatch))
	a.handle("DELETE "+wc+"/orders/{id}", a.staff(a.orderDelete))
	a.handle("GET "+wc+"/reports/orders/totals", a.staff(a.orderTotals))
	a.handle("GET "+wc+"/orders/{id}", a.staff(a.orderGet))
	a.handle("PUT "+wc+"/orders/{id}", a.staff(a.orderUpdate))
	a.handle("POST "+wc+"/orders/{id}", a.staff(a.orderUpdate))
	a.handle("PATCH "+wc+"/orders/{id}", a.staff(a.orderUpdate))
	a.handle("GET "+wc+"/orders/{id}/notes", a.staff(a.orderNotes))
	a.handle("POST "+wc+"/orders/{id}/notes", a.staff(a.orderNoteAdd))
	a.handle("GET "+wc+"/orders/{id}/refunds", a.staff(a.orderRefunds))
	a.handle("POST "+wc+"/orders/{id}/refunds", a.staff(a.orderRefund))
	a.handle("POST "+admin+"/orders/{id}/refunds/{refund_id}/finish", a.staff(a.orderRefundFinish))
	a.handle("POST "+admin+"/orders/{id}/emails", a.staff(a.orderEmail))
	const media = "/wp-json/wp/v2/media"
	a.handle("GET "+media, a.staff(a.mediaList))
	a.handle("POST "+media, a.staff(a.mediaUpload))
	a.handle("GET "+media+"/{id}", a.staff(a.mediaGet))
	a.handle("POST "+media+"/{id}", a.staff(a.mediaUpdate))
	a.handle("PUT "+media+"/{id}", a.staff(a.mediaUpdate))
	a.handle("PATCH "+media+"/{id}", a.staff(a.mediaUpdate))
	a.handle("DELETE "+media+"/{id}", a.staff(a.mediaDelete))
	a.handle("POST "+media+"/{id}/post-process", a.staff(a.mediaPostProcess))

	// Reviews: the moderation queue (reviews.go).
	const reviews = "/wp-json/wc/v3/products/reviews"
	a.handle("GET "+reviews, a.staff(a.reviewsList))
	a.handle("GET "+reviews+"/{id}", a.staff(a.reviewGet))
	a.handle("PUT "+reviews+"/{id}", a.staff(a.reviewUpdate))
	a.handle("POST "+reviews+"/{id}", a.staff(a.reviewUpdate))
	a.handle("PATCH "+reviews+"/{id}", a.staff(a.reviewUpdate))
	a.handle("DELETE "+reviews+"/{id}", a.staff(a.reviewDelete))
	a.handle("GET "+admin+"/reviews/counts", a.staff(a.reviewCounts))
	a.handle("PUT "+admin+"/reviews/{id}/reply", a.staff(a.reviewReply))
	a.handle("DELETE "+admin+"/reviews/{id}/reply", a.staff(a.reviewReplyDelete))

	// Messages: the contact inbox (messages.go).
	a.handle("GET "+messagesPath, a.staff(a.messagesList))
	a.handle("GET "+messagesPath+"/counts", a.staff(a.messageCounts))
	a.handle("GET "+messagesPath+"/{id}", a.staff(a.messageGet))
	a.handle("PUT "+messagesPath+"/{id}", a.staff(a.messageUpdate))
	a.handle("DELETE "+messagesPath+"/{id}", a.staff(a.messageDelete))
	a.handle("POST "+messagesPath+"/{id}/replies", a.staff(a.messageReply))
	a.handle("GET "+messagesPath+"/{id}/files/{file}", a.staff(a.messageFile))

	// Back-in-stock alerts' figures (alerts.go).
	if a.d.Alerts != nil {
		a.handle("GET "+alertsPath, a.staff(a.alertsTotals))
		a.handle("GET "+alertsPath+"/{id}", a.staff(a.alertsProduct))
	}

	// Privacy requests: export and erasure (privacy.go).
	if a.d.Privacy != nil {
		a.handle("GET "+privacyPath, a.staff(a.privacyList))
		a.handle("POST "+privacyPath, a.staff(a.privacyCreate))
		a.handle("POST "+privacyPath+"/{id}/approve", a.staff(a.privacyApprove))
		a.handle("GET "+privacyPath+"/{id}/export", a.staff(a.privacyExportFile))
	}

	// Storage: what uploads hold against their quotas (storage.go).
	a.handle("GET "+storagePath, a.staff(a.storageGet))

	// Coupons (coupons.go).
	a.handle("GET "+wc+"/coupons", a.staff(a.couponList))
	a.handle("POST "+wc+"/coupons", a.staff(a.couponCreate))
	a.handle("GET "+wc+"/coupons/{id}", a.staff(a.couponGet))
	a.handle("PUT "+wc+"/coupons/{id}", a.staff(a.couponUpdate))
	a.handle("PATCH "+wc+"/coupons/{id}", a.staff(a.couponUpdate))
	a.handle("POST "+wc+"/coupons/{id}", a.staff(a.couponUpdate))
	a.handle("DELETE "+wc+"/coupons/{id}", a.staff(a.couponDelete))

	a.handle("GET "+wcPrefix+"/system_status", a.staff(a.systemStatus)) // system.go

	// Reference data (data.go).
	a.handle("GET "+dataPath+"/currencies", a.staff(a.dataCurrencies))
	a.handle("GET "+dataPath+"/currencies/{code}", a.staff(a.dataCurrency))
	a.handle("GET "+dataPath+"/countries", a.staff(a.dataCountries))
	a.handle("GET "+dataPath+"/countries/{code}", a.staff(a.dataCountry))
	a.handle("GET "+dataPath+"/continents", a.staff(a.dataContinents))
	a.handle("GET "+dataPath+"/continents/{code}", a.staff(a.dataContinent))

	// Customers (customers.go).
	a.handle("GET "+customersPath, a.staff(a.customersList))
	a.handle("POST "+customersPath, a.staff(a.customerCreate))
	a.handle("POST "+customersPath+"/batch", a.staff(a.customersBatch))
	a.handle("GET "+customersPath+"/{id}", a.staff(a.customerGet))
	a.handle("PUT "+customersPath+"/{id}", a.staff(a.customerUpdate))
	a.handle("PATCH "+customersPath+"/{id}", a.staff(a.customerUpdate))
	a.handle("POST "+customersPath+"/{id}", a.staff(a.customerUpdate))
	a.handle("DELETE "+customersPath+"/{id}", a.staff(a.customerDelete))
	a.handle("GET "+customersPath+"/{id}/downloads", a.staff(a.customerDownloads))

	// Products (products.go, product_terms.go).
	const products = "/wp-json/wc/v3/products"
	a.handle("GET "+products, a.staff(a.productsList))
	a.handle("POST "+products, a.staff(a.productCreate))
	a.handle("GET "+products+"/{id}", a.staff(a.productGet))
	a.handle("PUT "+products+"/{id}", a.staff(a.productUpdate))
	a.handle("PATCH "+products+"/{id}", a.staff(a.productUpdate))
	a.handle("DELETE "+products+"/{id}", a.staff(a.productDelete))
	// {id}/duplicate, {id}/variations, {id}/variations/generate and
	// {id}/variations/batch (one pattern: ServeMux would find
	// "{id}/variations" ambiguous next to "categories/{id}").
	a.handle("GET "+products+"/{id}/{sub...}", a.staff(a.productSub))
	a.handle("POST "+products+"/{id}/{sub...}", a.staff(a.productSub))
	a.handle("GET "+admin+"/products/counts", a.staff(a.productCounts))
	a.handle("POST "+admin+"/products/bulk", a.staff(a.productsBulk))
	a.handle("GET "+admin+"/product-images", a.staff(a.productImages))
	a.handle("GET "+products+"/categories", a.staff(a.categoriesList))
	a.handle("POST "+products+"/categories", a.staff(a.categorySave))
	a.handle("GET "+products+"/categories/{id}", a.staff(a.categoryGet))
	a.handle("PUT "+products+"/categories/{id}", a.staff(a.categorySave))
	a.handle("DELETE "+products+"/categories/{id}", a.staff(a.categoryDelete))
	a.handle("GET "+products+"/tags", a.staff(a.tagsList))
	a.handle("POST "+products+"/tags", a.staff(a.tagSave))
	a.handle("PUT "+products+"/tags/{id}", a.staff(a.tagSave))
	a.handle("DELETE "+products+"/tags/{id}", a.staff(a.tagDelete))
	a.handle("GET "+products+"/attributes", a.staff(a.attributesList))
	a.handle("POST "+products+"/attributes", a.staff(a.attributeCreate))
	a.handle("GET "+products+"/attributes/{id}", a.staff(a.attributeGet))
	a.handle("PUT "+products+"/attributes/{id}", a.staff(a.attributeUpdate))
	a.handle("GET "+products+"/attributes/{id}/terms", a.staff(a.termsList))
	a.handle("POST "+products+"/attributes/{id}/terms", a.staff(a.termSave))
	a.handle("PUT "+products+"/attributes/{id}/terms/{term_id}", a.staff(a.termSave))

	// Settings options (settings_options.go).
	a.handle("GET "+settingsPath, a.staff(a.settingsGroupsList))
	a.handle("GET "+settingsPath+"/{group_id}", a.staff(a.settingsGroupGet))
	a.handle("POST "+settingsPath+"/{group_id}/batch", a.staff(a.settingsBatch))
	a.handle("GET "+settingsPath+"/{group_id}/{id}", a.staff(a.settingGet))
	a.handle("PUT "+settingsPath+"/{group_id}/{id}", a.staff(a.settingPut))
	a.handle("PATCH "+settingsPath+"/{group_id}/{id}", a.staff(a.settingPut))
	a.handle("POST "+settingsPath+"/{group_id}/{id}", a.staff(a.settingPut))

	// Tax rates and classes (taxes.go).
	a.handle("GET "+taxesPath, a.staff(a.taxesList))
	a.handle("POST "+taxesPath, a.staff(a.taxPost))
	a.handle("POST "+taxesPath+"/batch", a.staff(a.taxesBatch))
	a.handle("GET "+taxesPath+"/classes", a.staff(a.taxClassesList))
	a.handle("POST "+taxesPath+"/classes", a.staff(a.taxClassCreate))
	a.handle("DELETE "+taxesPath+"/classes/{slug}", a.staff(a.taxClassDelete))
	a.handle("GET "+taxesPath+"/{id}", a.staff(a.taxGet))
	a.handle("PUT "+taxesPath+"/{id}", a.staff(a.taxPut))
	a.handle("PATCH "+taxesPath+"/{id}", a.staff(a.taxPut))
	a.handle("POST "+taxesPath+"/{id}", a.staff(a.taxPut))
	a.handle("DELETE "+taxesPath+"/{id}", a.staff(a.taxDel))

	// Shipping zones, their locations and methods (shipping_zones.go).
	a.handle("GET "+zonesPath, a.staff(a.zonesList))
	a.handle("POST "+zonesPath, a.staff(a.zoneCreate))
	a.handle("GET "+zonesPath+"/{id}", a.staff(a.zoneGet))
	a.handle("PUT "+zonesPath+"/{id}", a.staff(a.zoneUpdate))
	a.handle("PATCH "+zonesPath+"/{id}", a.staff(a.zoneUpdate))
	a.handle("POST "+zonesPath+"/{id}", a.staff(a.zoneUpdate))
	a.handle("DELETE "+zonesPath+"/{id}", a.staff(a.zoneDelete))
	a.handle("GET "+zonesPath+"/{id}/locations", a.staff(a.zoneLocations))
	a.handle("POST "+zonesPath+"/{id}/locations", a.staff(a.zoneLocationsPut))
	a.handle("PUT "+zonesPath+"/{id}/locations", a.staff(a.zoneLocationsPut))
	a.handle("PATCH "+zonesPath+"/{id}/locations", a.staff(a.zoneLocationsPut))
	a.handle("GET "+zonesPath+"/{zone_id}/methods", a.staff(a.zoneMethods))
	a.handle("POST "+zonesPath+"/{zone_id}/methods", a.staff(a.zoneMethodCreate))
	a.handle("GET "+zonesPath+"/{zone_id}/methods/{instance_id}", a.staff(a.zoneMethodGet))
	a.handle("PUT "+zonesPath+"/{zone_id}/methods/{instance_id}", a.staff(a.zoneMethodUpdate))
	a.handle("PATCH "+zonesPath+"/{zone_id}/methods/{instance_id}", a.staff(a.zoneMethodUpdate))
	a.handle("POST "+zonesPath+"/{zone_id}/methods/{instance_id}", a.staff(a.zoneMethodUpdate))
	a.handle("DELETE "+zonesPath+"/{zone_id}/methods/{instance_id}", a.staff(a.zoneMethodDelete))

	// Payment gateways (gateways.go).
	a.handle("GET "+gatewaysPath, a.staff(a.gatewaysList))
	a.handle("GET "+gatewaysPath+"/{id}", a.staff(a.gatewayGet))
	a.handle("PUT "+gatewaysPath+"/{id}", a.staff(a.gatewayUpdate))
	a.handle("PATCH "+gatewaysPath+"/{id}", a.staff(a.gatewayUpdate))
	a.handle("POST "+gatewaysPath+"/{id}", a.staff(a.gatewayUpdate))

	// Reports (reports.go; the orders' totals are orders.go's), when the
	// server computes them.
	if a.d.Wishlists != nil {
		a.handle("GET "+admin+"/wishlists/counts", a.staff(a.wishlistCounts))
		a.handle("GET "+admin+"/wishlists/top", a.staff(a.wishlistTop))
	}
	if a.d.Reports != nil {
		a.handle("GET "+reportsPath, a.staff(a.reportsList))
		a.handle("GET "+reportsPath+"/sales", a.staff(a.reportSales))
		a.handle("GET "+reportsPath+"/top_sellers", a.staff(a.reportTopSellers))
		a.handle("GET "+reportsPath+"/products/totals", a.staff(reportTotals(a.d.Reports.ProductTotals)))
		a.handle("GET "+reportsPath+"/customers/totals", a.staff(reportTotals(a.d.Reports.CustomerTotals)))
		a.handle("GET "+reportsPath+"/coupons/totals", a.staff(reportTotals(a.d.Reports.CouponTotals)))
		a.handle("GET "+reportsPath+"/reviews/totals", a.staff(reportTotals(a.d.Reports.ReviewTotals)))
	}

	// Webhooks (webhooks.go), when the server has them.
	if a.d.Webhooks != nil {
		a.handle("GET "+webhooksPath, a.staff(a.webhooksList))
		a.handle("POST "+webhooksPath, a.staff(a.webhookCreate))
		a.handle("POST "+webhooksPath+"/batch", a.staff(a.webhooksBatch))
		a.handle("GET "+webhooksPath+"/{id}", a.staff(a.webhookGet))
		a.handle("PUT "+webhooksPath+"/{id}", a.staff(a.webhookUpdate))
		a.handle("PATCH "+webhooksPath+"/{id}", a.staff(a.webhookUpdate))
		a.handle("POST "+webhooksPath+"/{id}", a.staff(a.webhookUpdate))
		a.handle("DELETE "+webhooksPath+"/{id}", a.staff(a.webhookDelete))
		a.handle("GET "+webhooksPath+"/{id}/deliveries", a.staff(a.webhookDeliveries))
	}

	// REST API keys (apikeys.go): administrators only.
	if a.d.Keys != nil {
		a.handle("GET "+apiKeysPath, a.staff(adminOnly(a.apiKeysList)))
		a.handle("POST "+apiKeysPath, a.staff(adminOnly(a.apiKeyCreate)))
		a.handle("DELETE "+apiKeysPath+"/{id}", a.staff(adminOnly(a.apiKeyRevoke)))
	}
}
