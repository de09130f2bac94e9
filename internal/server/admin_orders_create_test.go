package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
)

// Orders made through the REST API (POST /wp-json/wc/v3/orders): priced by
// the shop's own price function, stock taken, order.created raised, the
// shape of WooCommerce 11's answer (reference:
// woocommerce-11-responses/wc-v3-orders-create.http); refusals change
// nothing.

// refOrderKeys are the keys of WooCommerce 11's order create answer.
var refOrderKeys = []string{"id", "parent_id", "status", "currency", "version", "prices_include_tax", "date_created", "date_modified",
	"discount_total", "discount_tax", "shipping_total", "shipping_tax", "cart_tax", "total", "total_tax", "customer_id", "order_key",
	"billing", "shipping", "payment_method", "payment_method_title", "transaction_id", "customer_ip_address", "customer_user_agent",
	"created_via", "customer_note", "date_completed", "date_paid", "cart_hash", "number", "meta_data", "line_items", "tax_lines",
	"shipping_lines", "fee_lines", "coupon_lines", "refunds", "payment_url", "is_editable", "needs_payment", "needs_processing",
	"date_created_gmt", "date_modified_gmt", "date_completed_gmt", "date_paid_gmt", "currency_symbol", "_links"}

func TestOrdersCreateAPI(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, db *sqlstore.DB) *frameShop {
		return newFrameShopWith(t, db, server.Config{BaseURL: "https://shop.example", WebhooksAllowPrivate: true})
	}, func(t *testing.T, f *frameShop) {
		const path = "/wp-json/wc/v3/orders"
		ctx := context.Background()
		staff := func(method, target, body string) frameAnswer {
			t.Helper()
			return f.staffCall("Mia", method, target, body)
		}
		a := staff("POST", "/wp-json/wc/v3/products", `{"name":"API Lamp","status":"publish","regular_price":"45.00","manage_stock":true,"stock_quantity":10}`)
		if a.status != 201 {
			t.Fatalf("product: %d %s", a.status, a.body)
		}
		lamp := savedProductOf(a).ID
		stock := func() int64 {
			t.Helper()
			p, err := f.db.Product(ctx, lamp)
			if err != nil || p.StockQuantity == nil {
				t.Fatalf("stock: %v", err)
			}
			return *p.StockQuantity
		}
		count := func() string {
			t.Helper()
			return staff("GET", path, "").header.Get("X-WP-Total")
		}
		l := &hookListener{}
		hs := httptest.NewServer(l)
		defer hs.Close()
		if a := staff("POST", "/wp-json/wc/v3/webhooks", `{"topic":"order.created","delivery_url":"`+hs.URL+`","status":"active","secret":"s"}`); a.status != 201 {
			t.Fatalf("webhook: %d %s", a.status, a.body)
		}
		deliver := func() {
			t.Helper()
			if _, err := f.srv.WebhookWorker().RunOnce(ctx); err != nil {
				t.Fatal(err)
			}
		}
		deliver() // the ping
		before := count()

		// Refusals: nothing placed, no stock taken.
		for _, tc := range []struct{ body, code string }{
			{`{"status":"cancelled","line_items":[{"product_id":%d,"quantity":1}]}`, "rest_invalid_param"},
			{`{"line_items":[]}`, "woocommerce_rest_cart_empty"},
			{`{"line_items":[{"product_id":%d,"quantity":0}]}`, "rest_invalid_param"},
			{`{"line_items":[{"product_id":99999,"quantity":1}]}`, "woocommerce_rest_cart_invalid_product"},
			{`{"line_items":[{"product_id":%d,"quantity":11}]}`, "woocommerce_rest_product_partially_out_of_stock"},
			{`{"customer_id":99999,"line_items":[{"product_id":%d,"quantity":1}]}`, "woocommerce_rest_invalid_customer_id"},
			{`{"line_items":[{"product_id":%d,"quantity":1}],"coupon_lines":[{"code":"nosuchcode"}]}`, ""},
		} {
			body := tc.body
			if strings.Contains(body, "%d") {
				body = fmt.Sprintf(body, lamp)
			}
			a := staff("POST", path, body)
			code, _ := a.json(t)["code"].(string)
			if a.status < 400 || a.status >= 500 || (tc.code != "" && code != tc.code) {
				t.Errorf("%s: %d %s, want %s", body, a.status, a.body, tc.code)
			}
		}
		if n := count(); n != before || stock() != 10 {
			t.Fatalf("after refusals: %s orders (was %s), %d in stock", n, before, stock())
		}

		// Created processing and paid, for a customer: priced as the checkout prices.
		carla := f.users["Carla"]
		a = staff("POST", path, fmt.Sprintf(`{"payment_method":"bacs","set_paid":true,"customer_id":%d,
			"billing":{"first_name":"Carla","last_name":"Customer","address_1":"1 Main St","city":"Sacramento","state":"CA","postcode":"95814","country":"US",
			"email":"carla@example.com","phone":"5550100200"},
			"line_items":[{"product_id":%d,"quantity":2}]}`, carla, lamp))
		if a.status != 201 {
			t.Fatalf("create: %d %s", a.status, a.body)
		}
		o := a.json(t)
		id := int64(o["id"].(float64))
		if loc := a.header.Get("Location"); loc != "https://shop.example"+path+"/"+strconv.FormatInt(id, 10) {
			t.Errorf("Location %q", loc)
		}
		var missing []string
		for _, k := range refOrderKeys {
			if _, ok := o[k]; !ok {
				missing = append(missing, k)
			}
		}
		if len(missing) > 0 {
			t.Errorf("keys of WooCommerce's answer missing: %v", missing)
		}
		lines := o["line_items"].([]any)
		line := lines[0].(map[string]any)
		if o["status"] != "processing" || o["date_paid"] == nil || int64(o["customer_id"].(float64)) != carla || o["payment_method"] != "bacs" ||
			o["payment_method_title"] == "" || len(lines) != 1 || line["subtotal"] != "90.00" || int64(line["quantity"].(float64)) != 2 {
			t.Errorf("created: %s", a.body)
		}
		// The total is the parts' sum, as the shop's quote adds them.
		cents := func(k string) int64 {
			s, _ := o[k].(string)
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatalf("%s = %v", k, o[k])
			}
			return int64(v*100 + 0.5)
		}
		if cents("total") != 9000+cents("shipping_total")+cents("total_tax")-cents("discount_total") {
			t.Errorf("total %s: items 90.00, shipping %s, tax %s", o["total"], o["shipping_total"], o["total_tax"])
		}
		if got := stock(); got != 8 {
			t.Errorf("stock after a processing order of 2: %d", got)
		}

		// order.created is raised for it.
		deliver()
		l.mu.Lock()
		raws := l.raw
		l.mu.Unlock()
		var hooked map[string]any
		if len(raws) != 2 || json.Unmarshal(raws[1], &hooked) != nil || int64(hooked["id"].(float64)) != id {
			t.Errorf("order.created: %d deliveries", len(raws))
		}

		// on-hold takes stock too; the order belongs to a guest.
		a = staff("POST", path, fmt.Sprintf(`{"status":"on-hold","billing":{"email":"guest@example.com","country":"US","state":"CA"},
			"line_items":[{"product_id":%d,"quantity":3}]}`, lamp))
		if a.status != 201 || a.json(t)["status"] != "on-hold" || a.json(t)["date_paid"] != nil || a.json(t)["customer_id"] != float64(0) {
			t.Errorf("on-hold: %d %s", a.status, a.body)
		}
		if got := stock(); got != 5 {
			t.Errorf("stock after on-hold 3: %d", got)
		}
		onHold := int64(a.json(t)["id"].(float64))

		// A pending order holds its stock, as at checkout; deleting it
		// (force only: there is no trash) gives the stock back.
		a = staff("POST", path, fmt.Sprintf(`{"line_items":[{"product_id":%d,"quantity":1}]}`, lamp))
		if a.status != 201 || a.json(t)["status"] != "pending" || a.json(t)["needs_payment"] != true {
			t.Fatalf("pending: %d %s", a.status, a.body)
		}
		pending := int64(a.json(t)["id"].(float64))
		if got := stock(); got != 4 {
			t.Errorf("stock after pending 1: %d", got)
		}
		one := fmt.Sprintf("%s/%d", path, pending)
		if a := staff("DELETE", one, ""); a.status != 501 || a.json(t)["code"] != "woocommerce_rest_trash_not_supported" {
			t.Errorf("delete without force: %d %s", a.status, a.body)
		}
		if a := staff("DELETE", one+"?force=true", ""); a.status != 200 || int64(a.json(t)["id"].(float64)) != pending {
			t.Errorf("delete: %d %s", a.status, a.body)
		}
		if a := staff("GET", one, ""); a.status != 404 {
			t.Errorf("deleted order: %d", a.status)
		}
		if got := stock(); got != 5 {
			t.Errorf("stock after deleting the pending order: %d", got)
		}

		// Batch: each item answered or refused on its own.
		a = staff("POST", path+"/batch", fmt.Sprintf(`{"create":[{"status":"processing","line_items":[{"product_id":%d,"quantity":1}]},{"line_items":[]}],
			"update":[{"id":%d,"status":"completed"}],"delete":[99999]}`, lamp, onHold))
		if a.status != 200 {
			t.Fatalf("batch: %d %s", a.status, a.body)
		}
		var batch map[string][]map[string]any
		if err := json.Unmarshal([]byte(a.body), &batch); err != nil {
			t.Fatal(err)
		}
		errCode := func(m map[string]any) any {
			e, _ := m["error"].(map[string]any)
			return e["code"]
		}
		if len(batch["create"]) != 2 || batch["create"][0]["status"] != "processing" || errCode(batch["create"][1]) != "woocommerce_rest_cart_empty" ||
			len(batch["update"]) != 1 || batch["update"][0]["status"] != "completed" ||
			len(batch["delete"]) != 1 || errCode(batch["delete"][0]) != "woocommerce_rest_shop_order_invalid_id" {
			t.Errorf("batch: %s", a.body)
		}
		if got := stock(); got != 4 {
			t.Errorf("stock after the batch: %d", got)
		}
	})
}
