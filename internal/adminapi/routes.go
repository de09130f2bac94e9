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

	const media = "/wp-json/wp/v2/media"
	a.mux.HandleFunc("GET "+media, a.staff(a.mediaList))
	a.mux.HandleFunc("POST "+media, a.staff(a.mediaUpload))
	a.mux.HandleFunc("GET "+media+"/{id}", a.staff(a.mediaGet))
	a.mux.HandleFunc("POST "+media+"/{id}", a.staff(a.mediaUpdate))
	a.mux.HandleFunc("PUT "+media+"/{id}", a.staff(a.mediaUpdate))
	a.mux.HandleFunc("PATCH "+media+"/{id}", a.staff(a.mediaUpdate))
	a.mux.HandleFunc("DELETE "+media+"/{id}", a.staff(a.mediaDelete))
	a.mux.HandleFunc("POST "+media+"/{id}/post-process", a.staff(a.mediaPostProcess))
}
