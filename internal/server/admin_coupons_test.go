package server_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"vitrine/internal/audit"
)

// The admin's coupons (/wp-json/wc/v3/coupons): staff only, WooCommerce's
// field names, bad input refused with nothing changed, every write in the
// audit log.

func TestAdminCoupons(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		const path = "/wp-json/wc/v3/coupons"
		mia := f.cookie("Mia")
		nonce := []string{"X-WP-Nonce", f.nonce("Mia")}
		staff := func(method, target, body string) frameAnswer {
			t.Helper()
			return f.do(method, target, mia, body, nonce...)
		}
		count := func() int {
			a := staff("GET", path, "")
			var list []map[string]any
			if err := json.Unmarshal([]byte(a.body), &list); err != nil || a.status != 200 {
				t.Fatalf("list: %d %s", a.status, a.body)
			}
			return len(list)
		}

		// A customer is refused, and nothing is made.
		carla := f.cookie("Carla")
		carlaNonce := f.nonce("Carla")
		for _, m := range []string{"GET", "POST"} {
			if a := f.do(m, path, carla, `{"code":"x","amount":"5"}`, "X-WP-Nonce", carlaNonce); a.status != 403 || a.json(t)["code"] != "rest_forbidden" {
				t.Errorf("customer %s: %d %s", m, a.status, a.body)
			}
		}
		if a := f.do("POST", path, mia, `{"code":"x","amount":"5"}`); a.status != 401 {
			t.Errorf("staff without a nonce: %d %s", a.status, a.body)
		}

		a := staff("POST", path, `{"code":" Summer10 ","discount_type":"percent","amount":"10","date_expires":"2030-06-30",
			"minimum_amount":"20.00","usage_limit":100,"usage_limit_per_user":1,"individual_use":true,"product_ids":[12,"13"],
			"excluded_product_categories":[4],"description":"Summer sale"}`)
		if a.status != 201 {
			t.Fatalf("create: %d %s", a.status, a.body)
		}
		c := a.json(t)
		id := int64(c["id"].(float64))
		if c["code"] != "summer10" || c["amount"] != "10.00" || c["discount_type"] != "percent" || c["date_expires"] != "2030-06-30T00:00:00" ||
			c["minimum_amount"] != "20.00" || c["usage_limit"] != float64(100) || c["usage_limit_per_user"] != float64(1) ||
			c["individual_use"] != true || c["usage_count"] != float64(0) || len(c["product_ids"].([]any)) != 2 ||
			len(c["excluded_product_categories"].([]any)) != 1 || c["description"] != "Summer sale" {
			t.Errorf("created: %s", a.body)
		}

		// Bad input: WordPress's error shape, nothing stored.
		for _, tc := range []struct{ body, param string }{
			{`{"code":"","amount":"5"}`, "code"},
			{`{"code":"bad-type","discount_type":"bogo"}`, "discount_type"},
			{`{"code":"over","discount_type":"percent","amount":"150"}`, "amount"},
			{`{"code":"neg","amount":"-5"}`, "amount"},
			{`{"code":"cents","amount":"1.234"}`, "amount"},
			{`{"code":"date","amount":"5","date_expires":"next week"}`, "date_expires"},
			{`{"code":"limit","amount":"5","usage_limit":-1}`, "usage_limit"},
			{`{"code":"ids","amount":"5","product_ids":[0]}`, "product_ids"},
			{`{"code":"ids2","amount":"5","product_ids":"12"}`, "product_ids"},
			{`{"code":"flag","amount":"5","individual_use":"yes"}`, "individual_use"},
		} {
			a := staff("POST", path, tc.body)
			m := a.json(t)
			params, _ := m["data"].(map[string]any)["params"].(map[string]any)
			if a.status != 400 || m["code"] != "rest_invalid_param" || params[tc.param] == nil {
				t.Errorf("%s: %d %s", tc.body, a.status, a.body)
			}
		}
		if a := staff("POST", path, `{"code":"SUMMER10","amount":"1"}`); a.status != 400 || a.json(t)["code"] != "woocommerce_rest_coupon_code_already_exists" {
			t.Errorf("duplicate code: %d %s", a.status, a.body)
		}
		if a := staff("POST", path, `{"code":`); a.status != 400 || a.json(t)["code"] != "rest_invalid_json" {
			t.Errorf("bad JSON: %d %s", a.status, a.body)
		}
		if n := count(); n != 1 {
			t.Fatalf("%d coupons after refusals", n)
		}

		// Read, edit (partial; null clears), search, delete.
		one := path + "/" + itoa(id)
		if a := staff("GET", one, ""); a.status != 200 || a.json(t)["code"] != "summer10" {
			t.Errorf("get: %d %s", a.status, a.body)
		}
		a = staff("PUT", one, `{"amount":"12.5","date_expires":null,"usage_limit":null}`)
		c = a.json(t)
		if a.status != 200 || c["amount"] != "12.50" || c["date_expires"] != nil || c["usage_limit"] != nil || c["code"] != "summer10" ||
			c["usage_limit_per_user"] != float64(1) {
			t.Errorf("edit: %d %s", a.status, a.body)
		}
		if a := staff("PUT", one, `{"discount_type":"fixed_cart","amount":"abc"}`); a.status != 400 {
			t.Errorf("bad edit: %d %s", a.status, a.body)
		}
		if a := staff("GET", one, ""); a.json(t)["discount_type"] != "percent" {
			t.Errorf("a refused edit changed the coupon: %s", a.body)
		}
		staff("POST", path, `{"code":"winter","discount_type":"fixed_product","amount":"3"}`)
		a = staff("GET", path+"?search=WINT&per_page=1", "")
		if a.status != 200 || !strings.Contains(a.body, `"code":"winter"`) || strings.Contains(a.body, "summer10") || a.header.Get("X-WP-Total") != "1" {
			t.Errorf("search: %d %s %v", a.status, a.body, a.header)
		}
		for _, target := range []string{path + "/999999", path + "/abc"} {
			if a := staff("GET", target, ""); a.status != 404 || a.json(t)["code"] != "woocommerce_rest_shop_coupon_invalid_id" {
				t.Errorf("%s: %d %s", target, a.status, a.body)
			}
		}
		if a := staff("DELETE", one+"?force=true", ""); a.status != 200 || a.json(t)["code"] != "summer10" {
			t.Errorf("delete: %d %s", a.status, a.body)
		}
		if a := staff("DELETE", one, ""); a.status != 404 {
			t.Errorf("delete again: %d %s", a.status, a.body)
		}
		if n := count(); n != 1 {
			t.Errorf("%d coupons after the delete", n)
		}

		// Every write is in the audit log with a readable note.
		entries, err := f.db.ListAudit(context.Background(), audit.Filter{Object: "coupon", ObjectID: id, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		var actions []string
		for _, e := range entries {
			actions = append(actions, e.Action)
		}
		if strings.Join(actions, ",") != "coupon.delete,coupon.update,coupon.create" || !strings.Contains(entries[2].Summary, "summer10") {
			t.Errorf("audit: %v", entries)
		}
	})
}
