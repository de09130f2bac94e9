package server_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"testing"

	"vitrine/internal/storage/sqlstore"
)

// The REST API's customers (/wp-json/wc/v3/customers) and the namespace's
// index (/wp-json/wc/v3): WooCommerce 11's shapes (reference:
// woocommerce-11-responses/wc-v3-customers*.http and wc-v3-index.http),
// staff only, WooCommerce's refusal codes.

// refCustomer is WooCommerce 11's GET /wc/v3/customers/4, trimmed of its
// values' details: what the shape check compares against.
const refCustomer = `{"id":4,"date_created":"2026-11-29T04:07:40","date_created_gmt":"2026-11-29T04:07:40",
 "date_modified":"2026-11-29T04:07:41","date_modified_gmt":"2026-11-29T04:07:41","email":"a@example.com",
 "first_name":"Alice","last_name":"Archer","role":"customer","username":"alice.fixture",
 "billing":{"first_name":"","last_name":"","company":"","address_1":"","address_2":"","city":"","postcode":"","country":"","state":"","email":"","phone":""},
 "shipping":{"first_name":"","last_name":"","company":"","address_1":"","address_2":"","city":"","postcode":"","country":"","state":"","phone":""},
 "is_paying_customer":true,"avatar_url":"https://secure.gravatar.com/avatar/x","meta_data":[],
 "_links":{"self":[{"href":"x","targetHints":{"allow":["GET"]}}],"collection":[{"href":"x"}]}}`

// sameShape reports where got's key sets and JSON types differ from
// want's (objects compared key by key, arrays by their first element).
func sameShape(path string, got, want any) []string {
	typ := func(v any) string { return fmt.Sprintf("%T", v) }
	if typ(got) != typ(want) {
		return []string{fmt.Sprintf("%s: %s, want %s", path, typ(got), typ(want))}
	}
	var out []string
	switch w := want.(type) {
	case map[string]any:
		g := got.(map[string]any)
		for k := range w {
			if _, ok := g[k]; !ok {
				out = append(out, path+"."+k+": missing")
			}
		}
		for k, v := range g {
			if wv, ok := w[k]; ok {
				out = append(out, sameShape(path+"."+k, v, wv)...)
			} else {
				out = append(out, path+"."+k+": not in WooCommerce's answer")
			}
		}
	case []any:
		if g := got.([]any); len(w) > 0 && len(g) > 0 {
			out = append(out, sameShape(path+"[0]", g[0], w[0])...)
		}
	}
	sort.Strings(out)
	return out
}

func decodeAny(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("not JSON: %.300s", s)
	}
	return v
}

func TestCustomersAPI(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		const path = "/wp-json/wc/v3/customers"
		mia := f.cookie("Mia")
		staff := func(method, target, body string) frameAnswer {
			t.Helper()
			return f.do(method, target, mia, body, "X-WP-Nonce", f.nonce("Mia"))
		}
		want := decodeAny(t, refCustomer)

		// Staff only.
		if a := f.do("GET", path, f.cookie("Carla"), "", "X-WP-Nonce", f.nonce("Carla")); a.status != 403 {
			t.Errorf("customer lists customers: %d %s", a.status, a.body)
		}

		// Create: WooCommerce's 201 with Location, the reference's shape.
		a := staff("POST", path, `{"email":"Alice.Fixture@Example.com","first_name":"Alice","last_name":"Archer","username":"alice.fixture",
			"password":"Alice-fixture-1-long","billing":{"first_name":"Alice","last_name":"Archer","address_1":"100 Market St","city":"San Francisco",
			"state":"ca","postcode":"94105","country":"US","email":"alice.fixture@example.com","phone":"415-555-0100"},
			"shipping":{"first_name":"Alice","last_name":"Archer","address_1":"100 Market St","city":"San Francisco","state":"CA","postcode":"94105","country":"US"}}`)
		if a.status != 201 {
			t.Fatalf("create: %d %s", a.status, a.body)
		}
		c := a.json(t)
		id := int64(c["id"].(float64))
		if loc := a.header.Get("Location"); loc != fmt.Sprintf("https://shop.example%s/%d", path, id) {
			t.Errorf("Location %q", loc)
		}
		if d := sameShape("customer", decodeAny(t, a.body), want); len(d) > 0 {
			t.Errorf("create's shape differs from WooCommerce's:\n%s", strings.Join(d, "\n"))
		}
		billing := c["billing"].(map[string]any)
		if c["email"] != "alice.fixture@example.com" || c["username"] != "alice.fixture" || c["first_name"] != "Alice" || c["role"] != "customer" ||
			billing["state"] != "CA" || billing["phone"] != "415-555-0100" || c["is_paying_customer"] != false ||
			c["shipping"].(map[string]any)["city"] != "San Francisco" {
			t.Errorf("created: %s", a.body)
		}

		// Read, list (default role customer: Carla, Dana and Alice), search, email, paging.
		if a := staff("GET", fmt.Sprintf("%s/%d", path, id), ""); a.status != 200 || a.json(t)["email"] != "alice.fixture@example.com" {
			t.Errorf("get: %d %s", a.status, a.body)
		}
		list := func(q string) (emails []string, total string) {
			t.Helper()
			a := staff("GET", path+q, "")
			if a.status != 200 {
				t.Fatalf("list %s: %d %s", q, a.status, a.body)
			}
			var rows []map[string]any
			if err := json.Unmarshal([]byte(a.body), &rows); err != nil {
				t.Fatal(err)
			}
			for _, r := range rows {
				emails = append(emails, r["email"].(string))
			}
			if len(rows) > 0 {
				if d := sameShape("row", decodeAny(t, a.body).([]any)[0], want); len(d) > 0 {
					t.Errorf("list row's shape: %v", d)
				}
			}
			return emails, a.header.Get("X-WP-Total") + "/" + a.header.Get("X-WP-TotalPages")
		}
		if e, tot := list("?orderby=id"); strings.Join(e, ",") != "carla@example.com,dana@example.com,alice.fixture@example.com" || tot != "3/1" {
			t.Errorf("list: %v %s", e, tot)
		}
		if e, tot := list("?role=all&per_page=2&page=2&orderby=id"); strings.Join(e, ",") != "mia@example.com,ada@example.com" || tot != "5/3" {
			t.Errorf("all roles, page 2: %v %s", e, tot)
		}
		if e, _ := list("?search=archer"); strings.Join(e, ",") != "alice.fixture@example.com" {
			t.Errorf("search: %v", e)
		}
		if e, _ := list("?email=" + url.QueryEscape("DANA@example.com")); strings.Join(e, ",") != "dana@example.com" {
			t.Errorf("email: %v", e)
		}
		if e, _ := list("?role=shop_manager"); strings.Join(e, ",") != "mia@example.com" {
			t.Errorf("role: %v", e)
		}
		if e, _ := list("?orderby=id&order=desc&per_page=1"); strings.Join(e, ",") != "alice.fixture@example.com" {
			t.Errorf("desc: %v", e)
		}
		for _, q := range []string{"?role=editor", "?orderby=email", "?per_page=101"} {
			if a := staff("GET", path+q, ""); a.status != 400 || a.json(t)["code"] != "rest_invalid_param" {
				t.Errorf("%s: %d %s", q, a.status, a.body)
			}
		}

		// Refusals, nothing created.
		for _, tc := range []struct{ body, code string }{
			{`{"first_name":"No"}`, "rest_missing_callback_param"},
			{`{"email":"not-an-email"}`, "woocommerce_rest_customer_invalid_email"},
			{`{"email":"CARLA@example.com"}`, "registration-error-email-exists"},
			{`{"email":"new@example.com","username":"alice.fixture"}`, "registration-error-username-exists"},
			{`{"email":"new@example.com","password":"short"}`, "registration-error-invalid-password"},
			{`{"email":`, "rest_invalid_json"},
		} {
			if a := staff("POST", path, tc.body); a.status != 400 || a.json(t)["code"] != tc.code {
				t.Errorf("%s: %d %s, want %s", tc.body, a.status, a.body, tc.code)
			}
		}
		if _, tot := list(""); tot != "3/1" {
			t.Errorf("after refusals: %s", tot)
		}

		// Created without a password or username: allowed (WooCommerce makes them up).
		a = staff("POST", path, `{"email":"bare@example.com"}`)
		if a.status != 201 || a.json(t)["username"] != "" {
			t.Errorf("bare create: %d %s", a.status, a.body)
		}
		bare := int64(a.json(t)["id"].(float64))

		// Update: fields given change, a partial address merges over the saved one.
		a = staff("PUT", fmt.Sprintf("%s/%d", path, id), `{"first_name":"Alicia","billing":{"phone":"415-555-0199"}}`)
		if a.status != 200 {
			t.Fatalf("update: %d %s", a.status, a.body)
		}
		c = a.json(t)
		billing = c["billing"].(map[string]any)
		if c["first_name"] != "Alicia" || c["last_name"] != "Archer" || billing["phone"] != "415-555-0199" || billing["address_1"] != "100 Market St" {
			t.Errorf("updated: %s", a.body)
		}
		for _, tc := range []struct{ body, code string }{
			{`{"email":"bad"}`, "woocommerce_rest_customer_invalid_email"},
			{`{"email":"dana@example.com"}`, "registration-error-email-exists"},
			{`{"username":"other"}`, "woocommerce_rest_customer_invalid_argument"},
		} {
			if a := staff("PUT", fmt.Sprintf("%s/%d", path, id), tc.body); a.status != 400 || a.json(t)["code"] != tc.code {
				t.Errorf("update %s: %d %s, want %s", tc.body, a.status, a.body, tc.code)
			}
		}
		if a := staff("GET", path+"/99999", ""); a.status != 404 || a.json(t)["code"] != "woocommerce_rest_invalid_id" {
			t.Errorf("unknown id: %d %s", a.status, a.body)
		}

		// A shop manager may not touch staff accounts or give a staff
		// role; an administrator may.
		ada, manager := f.users["Ada"], f.users["Mia"]
		for _, tc := range []struct{ method, target, body string }{
			{"POST", path, `{"email":"boss@example.com","role":"administrator"}`},
			{"PUT", fmt.Sprintf("%s/%d", path, id), `{"role":"shop_manager"}`},
			{"PUT", fmt.Sprintf("%s/%d", path, ada), `{"password":"Another-long-pass-9"}`},
			{"DELETE", fmt.Sprintf("%s/%d?force=true", path, ada), ""},
		} {
			if a := staff(tc.method, tc.target, tc.body); a.status != 403 || a.json(t)["code"] != "woocommerce_rest_cannot_edit" {
				t.Errorf("manager %s %s %s: %d %s", tc.method, tc.target, tc.body, a.status, a.body)
			}
		}
		if a := f.staffCall("Ada", "PUT", fmt.Sprintf("%s/%d", path, manager), `{"last_name":"Manager"}`); a.status != 200 || a.json(t)["last_name"] != "Manager" {
			t.Errorf("administrator edits a manager: %d %s", a.status, a.body)
		}

		// Downloads: none.
		if a := staff("GET", fmt.Sprintf("%s/%d/downloads", path, id), ""); a.status != 200 || strings.TrimSpace(a.body) != "[]" {
			t.Errorf("downloads: %d %s", a.status, a.body)
		}

		// Delete: force required (no trash), then gone.
		if a := staff("DELETE", fmt.Sprintf("%s/%d", path, bare), ""); a.status != 501 || a.json(t)["code"] != "woocommerce_rest_trash_not_supported" {
			t.Errorf("delete without force: %d %s", a.status, a.body)
		}
		if a := staff("DELETE", fmt.Sprintf("%s/%d?force=true&reassign=1", path, bare), ""); a.status != 200 || a.json(t)["email"] != "bare@example.com" {
			t.Errorf("delete: %d %s", a.status, a.body)
		}
		if a := staff("GET", fmt.Sprintf("%s/%d", path, bare), ""); a.status != 404 {
			t.Errorf("deleted still there: %d", a.status)
		}

		// Batch: each item answered or refused on its own.
		a = staff("POST", path+"/batch", fmt.Sprintf(`{"create":[{"email":"b1@example.com"},{"email":"carla@example.com"}],
			"update":[{"id":%d,"last_name":"Arch"}],"delete":[99999]}`, id))
		if a.status != 200 {
			t.Fatalf("batch: %d %s", a.status, a.body)
		}
		var batch map[string][]map[string]any
		if err := json.Unmarshal([]byte(a.body), &batch); err != nil {
			t.Fatal(err)
		}
		if len(batch["create"]) != 2 || batch["create"][0]["email"] != "b1@example.com" || batch["create"][1]["error"].(map[string]any)["code"] != "registration-error-email-exists" ||
			batch["update"][0]["last_name"] != "Arch" || batch["delete"][0]["error"].(map[string]any)["code"] != "woocommerce_rest_invalid_id" {
			t.Errorf("batch: %s", a.body)
		}
	})
}

func TestRESTIndex(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		a := f.do("GET", "/wp-json/wc/v3", f.cookie("Mia"), "", "X-WP-Nonce", f.nonce("Mia"))
		if a.status != 200 {
			t.Fatalf("index: %d %s", a.status, a.body)
		}
		var idx struct {
			Namespace string `json:"namespace"`
			Routes    map[string]struct {
				Namespace string   `json:"namespace"`
				Methods   []string `json:"methods"`
				Endpoints []struct {
					Methods []string `json:"methods"`
					Args    []any    `json:"args"`
				} `json:"endpoints"`
				Links map[string][]map[string]string `json:"_links"`
			} `json:"routes"`
		}
		if err := json.Unmarshal([]byte(a.body), &idx); err != nil {
			t.Fatalf("%v: %.300s", err, a.body)
		}
		if idx.Namespace != "wc/v3" {
			t.Errorf("namespace %q", idx.Namespace)
		}
		for route, methods := range map[string]string{
			"/wc/v3":                            "GET",
			"/wc/v3/customers":                  "GET,POST",
			`/wc/v3/customers/(?P<id>[\d]+)`:    "GET,PUT,PATCH,POST,DELETE",
			"/wc/v3/customers/batch":            "POST",
			`/wc/v3/orders/(?P<id>[\d]+)/notes`: "GET,POST",
			"/wc/v3/products":                   "GET,POST",
			"/wc/v3/settings":                   "GET",
			`/wc/v3/settings/(?P<group_id>[\w-]+)/(?P<id>[\w-]+)`: "GET,PUT,PATCH,POST",
			`/wc/v3/settings/(?P<group_id>[\w-]+)/batch`:          "POST",
			"/wc/v3/taxes":                                  "GET,POST",
			`/wc/v3/taxes/(?P<id>[\d]+)`:                    "GET,PUT,PATCH,POST,DELETE",
			`/wc/v3/taxes/classes/(?P<slug>[\w-]+)`:         "DELETE",
			`/wc/v3/shipping/zones/(?P<id>[\d]+)/locations`: "GET,POST,PUT,PATCH",
			`/wc/v3/shipping/zones/(?P<zone_id>[\d]+)/methods/(?P<instance_id>[\d]+)`: "GET,PUT,PATCH,POST,DELETE",
			`/wc/v3/payment_gateways/(?P<id>[\w-]+)`:                                  "GET,PUT,PATCH,POST",
			"/wc/v3/reports/top_sellers":                                              "GET",
			"/wc/v3/reports/orders/totals":                                            "GET",
		} {
			r, ok := idx.Routes[route]
			if !ok {
				t.Errorf("route %s missing", route)
				continue
			}
			if strings.Join(r.Methods, ",") != methods || r.Namespace != "wc/v3" || len(r.Endpoints) != 1 || strings.Join(r.Endpoints[0].Methods, ",") != methods {
				t.Errorf("route %s: %+v", route, r)
			}
			if hasParam := strings.Contains(route, "(?P<"); hasParam == (r.Links != nil) {
				t.Errorf("route %s: links %v", route, r.Links)
			}
		}
		if l := idx.Routes["/wc/v3/customers"].Links["self"]; len(l) != 1 || l[0]["href"] != "https://shop.example/wp-json/wc/v3/customers" {
			t.Errorf("self link %v", l)
		}
		for route := range idx.Routes {
			if !strings.HasPrefix(route, "/wc/v3") || strings.Contains(route, "vitrine") || strings.Contains(route, "media") {
				t.Errorf("route %s is not the namespace's", route)
			}
		}
		// Staff only, as every route of the namespace.
		if a := f.do("GET", "/wp-json/wc/v3", nil, ""); a.status != 401 {
			t.Errorf("visitor: %d", a.status)
		}
	})
	// In coming-soon mode the index answers as the namespace's routes do
	// (a REST refusal, not the coming-soon page).
	each(t, func(t *testing.T, db *sqlstore.DB) *frameShop { return newFrameShop(t, db, true) }, func(t *testing.T, f *frameShop) {
		if a := f.do("GET", "/wp-json/wc/v3", nil, ""); a.status != 401 || a.json(t)["code"] != "rest_not_logged_in" {
			t.Errorf("coming soon, visitor: %d %.200s", a.status, a.body)
		}
	})
}
