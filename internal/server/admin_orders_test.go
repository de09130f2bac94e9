package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"vitrine/internal/audit"
	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/storage/sqlstore"
)

// The orders admin API through the real server (internal/adminapi/orders.go
// over internal/orders): staff list, read, change, note, refund and resend;
// a customer and a visitor are refused; bad input gets WordPress's error
// shape and changes nothing.

// placeAdminOrder places a bank-transfer order of two lamps (10 in stock)
// for Carla's email, straight through the store.
func placeAdminOrder(t *testing.T, db *sqlstore.DB) (*checkout.Order, *catalog.Product) {
	t.Helper()
	price, stock := int64(4500), int64(10)
	lamp := &catalog.Product{Type: catalog.TypeSimple, Name: "Admin Lamp", Slug: "admin-lamp", SKU: "ALAMP", RegularPrice: &price,
		ManageStock: true, StockQuantity: &stock, Purchasable: true, Status: "publish"}
	addr := checkout.Address{FirstName: "Carla", LastName: "Customer", Address1: "1 Main St", City: "Sacramento", State: "CA", Postcode: "95814",
		Country: "US", Email: "carla@example.com", Phone: "5550100200"}
	o := placeStoreOrder(t, db, lamp, 2, "t_admin_orders_000000000000000001", checkout.Customer{Billing: addr, Shipping: addr},
		map[string]string{"_wc_order_attribution_source_type": "utm", "_wc_order_attribution_utm_source": "newsletter"})
	return o, lamp
}

func TestAdminOrdersAPI(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		ctx := context.Background()
		o, lamp := placeAdminOrder(t, f.db)
		mia, carla := f.cookie("Mia"), f.cookie("Carla")
		staff := []string{"X-WP-Nonce", f.nonce("Mia")}
		customer := []string{"X-WP-Nonce", f.nonce("Carla")}
		base := fmt.Sprintf("/wp-json/wc/v3/orders/%d", o.ID)
		stock := func() int64 {
			t.Helper()
			p, err := f.db.Product(ctx, lamp.ID)
			if err != nil {
				t.Fatal(err)
			}
			return *p.StockQuantity
		}
		state := func() string {
			t.Helper()
			got, err := f.db.Order(ctx, o.ID)
			if err != nil {
				t.Fatal(err)
			}
			return fmt.Sprintf("%s/%v/%d", got.Status, got.Paid(), stock())
		}
		before := state()

		// A customer and a visitor are refused every call, and nothing changes.
		writes := []struct{ method, path, body string }{
			{"PUT", base, `{"status":"completed"}`},
			{"POST", base + "/notes", `{"note":"hi","customer_note":true}`},
			{"POST", base + "/refunds", `{"amount":"1.00"}`},
			{"POST", fmt.Sprintf("/wp-json/vitrine/v1/admin/orders/%d/emails", o.ID), `{"kind":"new_order"}`},
		}
		for _, w := range append(writes, struct{ method, path, body string }{"GET", "/wp-json/wc/v3/orders", ""},
			struct{ method, path, body string }{"GET", base, ""}, struct{ method, path, body string }{"GET", base + "/refunds", ""}) {
			if a := f.do(w.method, w.path, carla, w.body, customer...); a.status != 403 || a.json(t)["code"] != "rest_forbidden" {
				t.Errorf("customer %s %s: %d %s", w.method, w.path, a.status, a.body)
			}
			if a := f.do(w.method, w.path, nil, w.body); a.status != 401 {
				t.Errorf("visitor %s %s: %d", w.method, w.path, a.status)
			}
		}
		if state() != before {
			t.Fatalf("a refused call changed the order: %s, was %s", state(), before)
		}

		// The list: filters, search, totals.
		list := f.do("GET", "/wp-json/wc/v3/orders?status=on-hold&search=carla%40example&per_page=5", mia, "", staff...)
		var rows []map[string]any
		if err := json.Unmarshal([]byte(list.body), &rows); err != nil || list.status != 200 || len(rows) != 1 || rows[0]["total"] == "" ||
			list.header.Get("X-WP-Total") != "1" {
			t.Fatalf("list: %d %s %v", list.status, list.body, list.header)
		}
		if a := f.do("GET", "/wp-json/wc/v3/orders?status=processing", mia, "", staff...); a.body != "[]" || a.header.Get("X-WP-Total") != "0" {
			t.Errorf("processing list: %s", a.body)
		}
		if a := f.do("GET", "/wp-json/wc/v3/orders?status=shipped", mia, "", staff...); a.status != 400 || a.json(t)["code"] != "rest_invalid_param" {
			t.Errorf("bad status filter: %d %s", a.status, a.body)
		}
		if a := f.do("GET", "/wp-json/wc/v3/reports/orders/totals", mia, "", staff...); a.status != 200 || !strings.Contains(a.body, `{"slug":"on-hold","name":"On hold","total":1}`) {
			t.Errorf("totals: %d %s", a.status, a.body)
		}

		// The detail.
		d := f.do("GET", base, mia, "", staff...)
		var detail struct {
			Status      string
			Total       string
			Billing     map[string]string
			LineItems   []map[string]any  `json:"line_items"`
			Attribution map[string]string `json:"attribution"`
			Mails       []map[string]any
			Notes       []map[string]any
			RefundLeft  string   `json:"refund_left"`
			Next        []string `json:"next_statuses"`
		}
		if err := json.Unmarshal([]byte(d.body), &detail); err != nil || d.status != 200 {
			t.Fatalf("detail: %d %s", d.status, d.body)
		}
		if detail.Status != "on-hold" || detail.Billing["email"] != "carla@example.com" || len(detail.LineItems) != 1 ||
			detail.LineItems[0]["name"] != "Admin Lamp" || detail.LineItems[0]["quantity"] != 2.0 || detail.Attribution["utm_source"] != "newsletter" ||
			len(detail.Mails) != 2 || detail.RefundLeft != detail.Total || !strings.Contains(strings.Join(detail.Next, ","), "processing") {
			t.Fatalf("detail: %s", d.body)
		}
		if a := f.do("GET", "/wp-json/wc/v3/orders/999999", mia, "", staff...); a.status != 404 || a.json(t)["code"] != "woocommerce_rest_shop_order_invalid_id" {
			t.Errorf("unknown order: %d %s", a.status, a.body)
		}

		// Status: bad input changes nothing; processing records the payment.
		for _, c := range []struct {
			body string
			code string
		}{{`{"status":"shipped"}`, "rest_invalid_param"}, {`{}`, "rest_invalid_param"}, {`{"status":`, "rest_invalid_json"}, {`{"status":"pending"}`, "rest_invalid_param"}} {
			if a := f.do("PUT", base, mia, c.body, staff...); a.status != 400 || a.json(t)["code"] != c.code {
				t.Errorf("status %s: %d %s", c.body, a.status, a.body)
			}
		}
		if state() != before {
			t.Fatalf("a refused status changed the order: %s", state())
		}
		if a := f.do("PUT", base, mia, `{"status":"processing"}`, staff...); a.status != 200 || a.json(t)["status"] != "processing" || a.json(t)["date_paid_gmt"] == nil {
			t.Fatalf("processing: %d %s", a.status, a.body)
		}

		// Notes.
		if a := f.do("POST", base+"/notes", mia, `{"note":"   "}`, staff...); a.status != 400 || a.json(t)["code"] != "rest_invalid_param" {
			t.Errorf("empty note: %d %s", a.status, a.body)
		}
		if a := f.do("POST", base+"/notes", mia, `{"note":"Your lamps ship tomorrow.","customer_note":true}`, staff...); a.status != 201 ||
			a.json(t)["customer_note"] != true || a.json(t)["author"] != "Mia Manager" {
			t.Fatalf("customer note: %d %s", a.status, a.body)
		}
		if a := f.do("GET", base+"/notes", mia, "", staff...); a.status != 200 || !strings.Contains(a.body, "Your lamps ship tomorrow.") || !strings.Contains(a.body, "On hold to Processing") {
			t.Errorf("notes: %s", a.body)
		}

		// Refunds: bad amounts refused with nothing changed, a partial
		// refund with one lamp back, its double submit answered with the
		// same refund, the key reused for another refund refused.
		mid := state()
		for _, c := range []struct {
			body, code string
			status     int
		}{
			{`{"amount":"abc"}`, "rest_invalid_param", 400},
			{`{"amount":"0"}`, "rest_invalid_param", 400},
			{`{"amount":"10.001"}`, "rest_invalid_param", 400},
			{`{"amount":"100000.00"}`, "woocommerce_rest_invalid_refund_amount", 400},
			{`{"amount":"1.00","line_items":[{"id":5,"quantity":1}]}`, "rest_invalid_param", 400},
			{`{"amount":"1.00","line_items":[{"id":1,"quantity":3}]}`, "rest_invalid_param", 400},
			{`[`, "rest_invalid_json", 400},
		} {
			if a := f.do("POST", base+"/refunds", mia, c.body, staff...); a.status != c.status || a.json(t)["code"] != c.code {
				t.Errorf("refund %s: %d %s", c.body, a.status, a.body)
			}
		}
		if state() != mid {
			t.Fatalf("a refused refund changed the order: %s, was %s", state(), mid)
		}
		refund := `{"amount":"45.00","reason":"One lamp broken","line_items":[{"id":1,"quantity":1,"refund_total":"45.00"}],"restock_items":true}`
		r1 := f.do("POST", base+"/refunds", mia, refund, append(staff, "Idempotency-Key", "form-abc")...)
		if r1.status != 201 || r1.json(t)["amount"] != "45.00" || r1.json(t)["method"] != "manual" || r1.json(t)["status"] != "completed" {
			t.Fatalf("refund: %d %s", r1.status, r1.body)
		}
		r2 := f.do("POST", base+"/refunds", mia, refund, append(staff, "Idempotency-Key", "form-abc")...)
		if r2.status != 200 || r2.json(t)["id"] != r1.json(t)["id"] {
			t.Fatalf("double submit: %d %s", r2.status, r2.body)
		}
		if stock() != 9 {
			t.Fatalf("stock after the refund and its double submit: %d", stock())
		}
		if a := f.do("POST", base+"/refunds", mia, `{"amount":"1.00"}`, append(staff, "Idempotency-Key", "form-abc")...); a.status != 422 || a.json(t)["code"] != "vitrine_idempotency_key_reused" {
			t.Errorf("reused key: %d %s", a.status, a.body)
		}
		if a := f.do("GET", base+"/refunds", mia, "", staff...); a.status != 200 || !strings.Contains(a.body, `"reason":"One lamp broken"`) {
			t.Errorf("refunds: %s", a.body)
		}

		// Finishing a refund: an unknown one is 404; a completed one is
		// answered as it is.
		fin := fmt.Sprintf("/wp-json/vitrine/v1/admin/orders/%d/refunds/%v/finish", o.ID, r1.json(t)["id"])
		if a := f.do("POST", fmt.Sprintf("/wp-json/vitrine/v1/admin/orders/%d/refunds/99999/finish", o.ID), mia, "", staff...); a.status != 404 {
			t.Errorf("finish an unknown refund: %d %s", a.status, a.body)
		}
		if a := f.do("POST", fin, carla, "", customer...); a.status != 403 {
			t.Errorf("customer finishes a refund: %d", a.status)
		}
		if a := f.do("POST", fin, mia, "", staff...); a.status != 200 || a.json(t)["total_refunded"] != "45.00" || stock() != 9 {
			t.Errorf("finish a completed refund: %d %s, stock %d", a.status, a.body, stock())
		}

		// Resend.
		emails := fmt.Sprintf("/wp-json/vitrine/v1/admin/orders/%d/emails", o.ID)
		if a := f.do("POST", emails, mia, `{"kind":"account_verify_email"}`, staff...); a.status != 400 || a.json(t)["code"] != "rest_invalid_param" {
			t.Errorf("resend of another kind: %d %s", a.status, a.body)
		}
		if a := f.do("POST", emails, mia, `{"kind":"order_confirmation"}`, staff...); a.status != 202 {
			t.Errorf("resend: %d %s", a.status, a.body)
		}
		d = f.do("GET", base, mia, "", staff...)
		// 2 placed, the customer note's, the refund's, the resent confirmation.
		if err := json.Unmarshal([]byte(d.body), &detail); err != nil || len(detail.Mails) != 5 || detail.LineItems[0]["refunded_quantity"] != 1.0 ||
			detail.LineItems[0]["restocked"] != 1.0 {
			t.Fatalf("detail after: %s", d.body)
		}

		// The order mails list the refund under the total; the refund mail
		// says it is partial.
		v, err := f.srv.OrderMailView(ctx, o.ID)
		if err != nil || v.FullRefund || v.Totals[len(v.Totals)-1].Label != "Refund:" || v.Totals[len(v.Totals)-1].Value != "-$45.00" {
			t.Errorf("mail view after the refund: %v %+v", err, v.Totals)
		}
		nv, err := f.srv.CustomerNoteMailView(ctx, int64(detail.Notes[0]["id"].(float64)))
		if err != nil || nv.Number != o.Number || nv.Note == "" {
			t.Errorf("customer note mail view: %v %+v", err, nv)
		}

		// Cancelling puts back the lamp the refund did not.
		if a := f.do("PUT", base, mia, `{"status":"cancelled"}`, staff...); a.status != 200 || stock() != 10 {
			t.Fatalf("cancel: %d %s, stock %d", a.status, a.body, stock())
		}

		// Every write is in the audit log, readable.
		entries, err := (&audit.Service{Store: f.db, Now: time.Now}).List(ctx, audit.Filter{Object: "order", ObjectID: o.ID, Limit: 50})
		if err != nil {
			t.Fatal(err)
		}
		actions := map[string]int{}
		for _, e := range entries {
			actions[e.Action]++
		}
		if actions["order.status"] != 2 || actions["order.note"] != 1 || actions["order.refund"] != 3 || actions["order.email"] != 1 {
			t.Errorf("audit: %v", actions)
		}
	})
}
