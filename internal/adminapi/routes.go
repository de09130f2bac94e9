package adminapi

// routes is the admin API on one screen. Each capability adds its routes
// here, every one wrapped in a.staff.
func (a *API) routes() {
	const admin = "/wp-json/vitrine/v1/admin"
	a.mux.HandleFunc("GET "+admin+"/me", a.staff(a.me))
	a.mux.HandleFunc("GET "+admin+"/audit", a.staff(a.auditList))
	a.mux.HandleFunc("GET "+admin+"/settings", a.staff(a.settingsGet))
	a.mux.HandleFunc("PUT "+admin+"/settings", a.staff(a.settingsPut))
}
