package adminapi

// routes is the admin API on one screen. Each capability adds its routes
// here, every one wrapped in a.staff.
func (a *API) routes() {
	const admin = "/wp-json/vitrine/v1/admin"
	a.mux.HandleFunc("GET "+admin+"/me", a.staff(a.me))
	a.mux.HandleFunc("GET "+admin+"/audit", a.staff(a.auditList))

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
}
