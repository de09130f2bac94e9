package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/storage/sqlstore"
)

// An anonymised order through the REST API v3 (the admin's orders
// screen reads the same answer): placeholders where the customer's data
// was, the amounts and lines as they were, and when it was anonymised.
func TestAdminOrderAnonymised(t *testing.T) {
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		ctx := context.Background()
		price, stock := int64(4500), int64(10)
		lamp := &catalog.Product{Type: catalog.TypeSimple, Name: "Admin Lamp", Slug: "admin-lamp", SKU: "ALAMP", RegularPrice: &price,
			ManageStock: true, StockQuantity: &stock, Purchasable: true, Status: "publish"}
		addr := checkout.Address{FirstName: "Carla", LastName: "Customer", Address1: "1 Main St", City: "Sacramento", State: "CA", Postcode: "95814",
			Country: "US", Email: "carla@example.com", Phone: "5550100200"}
		o := placeStoreOrder(t, f.db, lamp, 2, "t_admin_orders_000000000000000001", checkout.Customer{Billing: addr, Shipping: addr},
			map[string]string{"_wc_order_attribution_source_type": "utm", "_customer_ip_address": "198.51.100.7"})
		path := fmt.Sprintf("/wp-json/wc/v3/orders/%d", o.ID)
		before := f.as("Mia", "GET", path, "")
		if before.status != 200 || strings.Contains(before.body, "date_anonymised_gmt") || !strings.Contains(before.body, "carla@example.com") {
			t.Fatalf("before: %d %.300s", before.status, before.body)
		}
		if n, err := f.db.AnonymiseOrders(ctx, []int64{o.ID}); err != nil || n != 1 {
			t.Fatalf("anonymised %d, %v", n, err)
		}
		a := f.as("Mia", "GET", path, "")
		var got struct {
			Total          string            `json:"total"`
			TotalTax       string            `json:"total_tax"`
			Billing        map[string]string `json:"billing"`
			Shipping       map[string]string `json:"shipping"`
			IP             string            `json:"customer_ip_address"`
			CustomerID     int64             `json:"customer_id"`
			LineItems      []map[string]any  `json:"line_items"`
			DateAnonymised string            `json:"date_anonymised_gmt"`
		}
		if err := json.Unmarshal([]byte(a.body), &got); err != nil || a.status != 200 {
			t.Fatalf("after: %d %s", a.status, a.body)
		}
		var was struct {
			Total     string           `json:"total"`
			TotalTax  string           `json:"total_tax"`
			LineItems []map[string]any `json:"line_items"`
		}
		_ = json.Unmarshal([]byte(before.body), &was)
		if got.Billing["first_name"] != sqlstore.AnonymisedText || got.Billing["email"] != sqlstore.AnonymisedEmail || got.Billing["phone"] != "" ||
			got.Billing["country"] != "US" || got.Shipping["address_1"] != sqlstore.AnonymisedText || got.IP != sqlstore.AnonymisedIP || got.CustomerID != 0 {
			t.Errorf("after: %s", a.body)
		}
		if got.Total != was.Total || got.TotalTax != was.TotalTax || len(got.LineItems) != len(was.LineItems) ||
			got.LineItems[0]["name"] != was.LineItems[0]["name"] || got.LineItems[0]["total"] != was.LineItems[0]["total"] {
			t.Errorf("amounts changed: %s, was %s", a.body, before.body)
		}
		if got.DateAnonymised == "" {
			t.Errorf("no date_anonymised_gmt: %s", a.body)
		}
		for _, p := range []string{"carla@example.com", "Carla", "1 Main St", "5550100200", "198.51.100.7", "95814"} {
			if strings.Contains(a.body, p) {
				t.Errorf("the answer still holds %q", p)
			}
		}
		// The list searched by the old email no longer finds it.
		if l := f.as("Mia", "GET", "/wp-json/wc/v3/orders?search=carla%40example", ""); l.status != 200 || l.body != "[]" {
			t.Errorf("search by the old email: %d %.300s", l.status, l.body)
		}
	})
}
