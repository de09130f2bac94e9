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

	const wc = "/wp-json/wc/v3"
	a.mux.HandleFunc("GET "+wc+"/coupons", a.staff(a.couponList))
	a.mux.HandleFunc("POST "+wc+"/coupons", a.staff(a.couponCreate))
	a.mux.HandleFunc("GET "+wc+"/coupons/{id}", a.staff(a.couponGet))
	a.mux.HandleFunc("PUT "+wc+"/coupons/{id}", a.staff(a.couponUpdate))
	a.mux.HandleFunc("PATCH "+wc+"/coupons/{id}", a.staff(a.couponUpdate))
	a.mux.HandleFunc("POST "+wc+"/coupons/{id}", a.staff(a.couponUpdate))
	a.mux.HandleFunc("DELETE "+wc+"/coupons/{id}", a.staff(a.couponDelete))
}
