package adminapi

// routes is the admin API on one screen. Each capability adds its routes
// here, every one wrapped in a.staff.
func (a *API) routes() {
	const admin = "/wp-json/vitrine/v1/admin"
	a.mux.HandleFunc("GET "+admin+"/me", a.staff(a.me))
	a.mux.HandleFunc("GET "+admin+"/audit", a.staff(a.auditList))
	a.mux.HandleFunc("GET "+admin+"/settings", a.staff(a.settingsGet))
	a.mux.HandleFunc("PUT "+admin+"/settings", a.staff(a.settingsPut))
	a.mux.HandleFunc("POST "+admin+"/settings/test-mail", a.staff(a.settingsTestMail))
	a.mux.HandleFunc("GET "+admin+"/currencies", a.staff(a.currenciesList))
	a.mux.HandleFunc("POST "+admin+"/currencies/rates", a.staff(a.currencyImport))
	a.mux.HandleFunc("PUT "+admin+"/currencies/{code}", a.staff(a.currencyPut))
	a.mux.HandleFunc("GET "+admin+"/currencies/{code}/rates", a.staff(a.currencyRates))

	// Products (products.go, product_terms.go).
	const wc = "/wp-json/wc/v3/products"
	a.mux.HandleFunc("GET "+wc, a.staff(a.productsList))
	a.mux.HandleFunc("POST "+wc, a.staff(a.productCreate))
	a.mux.HandleFunc("GET "+wc+"/{id}", a.staff(a.productGet))
	a.mux.HandleFunc("PUT "+wc+"/{id}", a.staff(a.productUpdate))
	a.mux.HandleFunc("PATCH "+wc+"/{id}", a.staff(a.productUpdate))
	a.mux.HandleFunc("DELETE "+wc+"/{id}", a.staff(a.productDelete))
	// {id}/duplicate, {id}/variations, {id}/variations/generate and
	// {id}/variations/batch (one pattern: ServeMux would find
	// "{id}/variations" ambiguous next to "categories/{id}").
	a.mux.HandleFunc("GET "+wc+"/{id}/{sub...}", a.staff(a.productSub))
	a.mux.HandleFunc("POST "+wc+"/{id}/{sub...}", a.staff(a.productSub))
	a.mux.HandleFunc("GET "+admin+"/products/counts", a.staff(a.productCounts))
	a.mux.HandleFunc("POST "+admin+"/products/bulk", a.staff(a.productsBulk))
	a.mux.HandleFunc("GET "+admin+"/product-images", a.staff(a.productImages))
	a.mux.HandleFunc("GET "+wc+"/categories", a.staff(a.categoriesList))
	a.mux.HandleFunc("POST "+wc+"/categories", a.staff(a.categorySave))
	a.mux.HandleFunc("GET "+wc+"/categories/{id}", a.staff(a.categoryGet))
	a.mux.HandleFunc("PUT "+wc+"/categories/{id}", a.staff(a.categorySave))
	a.mux.HandleFunc("DELETE "+wc+"/categories/{id}", a.staff(a.categoryDelete))
	a.mux.HandleFunc("GET "+wc+"/tags", a.staff(a.tagsList))
	a.mux.HandleFunc("POST "+wc+"/tags", a.staff(a.tagSave))
	a.mux.HandleFunc("PUT "+wc+"/tags/{id}", a.staff(a.tagSave))
	a.mux.HandleFunc("DELETE "+wc+"/tags/{id}", a.staff(a.tagDelete))
	a.mux.HandleFunc("GET "+wc+"/attributes", a.staff(a.attributesList))
	a.mux.HandleFunc("POST "+wc+"/attributes", a.staff(a.attributeCreate))
	a.mux.HandleFunc("PUT "+wc+"/attributes/{id}", a.staff(a.attributeUpdate))
	a.mux.HandleFunc("POST "+wc+"/attributes/{id}/terms", a.staff(a.termSave))
	a.mux.HandleFunc("PUT "+wc+"/attributes/{id}/terms/{term_id}", a.staff(a.termSave))
}
