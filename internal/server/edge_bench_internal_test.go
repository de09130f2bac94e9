package server

import "testing"

// BenchmarkEdgeCleanText is the edge's bad-bytes check of a typical
// request: a Store API checkout body (JSON, about 1 KB, with escapes) and a
// listing query string with escapes. What every request pays before its
// route runs.
//
//	go test -run '^$' -bench EdgeCleanText -benchmem ./internal/server/
func BenchmarkEdgeCleanText(b *testing.B) {
	body := []byte(`{"billing_address":{"first_name":"Zo\u00eb","last_name":"Fran\u00e7ois","company":"","address_1":"12 rue de l'\u00c9glise",` +
		`"address_2":"B\u00e2timent C","city":"Paris","state":"","postcode":"75002","country":"FR","email":"zoe@example.com","phone":"+33 1 23 45 67 89"},` +
		`"shipping_address":{"first_name":"Zo\u00eb","last_name":"Fran\u00e7ois","company":"","address_1":"12 rue de l'\u00c9glise","address_2":"",` +
		`"city":"Paris","state":"","postcode":"75002","country":"FR","phone":""},"customer_note":"Merci \u2014 \"sonnez\" s'il vous pla\u00eet\\n2e \u00e9tage",` +
		`"payment_method":"bacs","payment_data":[],"extensions":{"woocommerce/order-attribution":{"source_type":"utm","utm_source":"newsletter"}}}`)
	query := "orderby=price&min_price=2000&max_price=8000&filter_color=black%2Cnavy&s=caf%C3%A9+cr%C3%A8me&paged=2"
	b.Run("json", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			if !cleanJSON(body) {
				b.Fatal("refused")
			}
		}
	})
	b.Run("query", func(b *testing.B) {
		b.SetBytes(int64(len(query)))
		for b.Loop() {
			if !cleanQuery(query) {
				b.Fatal("refused")
			}
		}
	})
	b.Run("path", func(b *testing.B) {
		path := "/product-category/clothing/t-shirts/page/2/"
		for b.Loop() {
			if !cleanText(path) {
				b.Fatal("refused")
			}
		}
	})
}
