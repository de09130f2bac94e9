package adminapi

// HandleForTest adds a staff route, for tests of the guard and the audit.
func (a *API) HandleForTest(pattern string, h Handler) { a.mux.HandleFunc(pattern, a.staff(h)) }
