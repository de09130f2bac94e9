package server_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"vitrine/internal/server"
)

// Shipping zones and tax rates in the admin (internal/adminapi/shipping.go,
// settings.Rules): the start-up rules until the first save; a save prices
// the next cart read at once; refusals name the field and change nothing.
func TestAdminShippingTax(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		const path = "/wp-json/vitrine/v1/admin/shipping-tax"
		mia, nonce := f.cookie("Mia"), f.nonce("Mia")
		get := f.do("GET", path, mia, "", "X-WP-Nonce", nonce)
		var doc map[string]any
		if err := json.Unmarshal([]byte(get.body), &doc); err != nil || get.status != 200 {
			t.Fatalf("get: %d %s", get.status, get.body)
		}
		if doc["version"] != float64(0) || doc["currency"] != "USD" || !strings.Contains(get.body, `"name":"United States","locations":["US"]`) ||
			!strings.Contains(get.body, `"method_id":"flat_rate","title":"Flat rate","cost":"5.00"`) || !strings.Contains(get.body, `"state":"CA","rate":"7.25","name":"CA Tax"`) {
			t.Fatalf("the start-up rules: %s", get.body)
		}

		// A shopper's cart in California: flat rate 5.00.
		s := f.shop
		c := s.client()
		c.do("GET", cartAPI, "")
		if r := c.do("POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d,"quantity":1}`, s.productID("cotton-tank-top"))); r.status != 201 {
			t.Fatalf("add: %d %s", r.status, r.raw)
		}
		c.do("POST", cartAPI+"/update-customer", `{"shipping_address":{"country":"US","state":"CA","city":"Sacramento","postcode":"95814","address_1":"x","first_name":"a","last_name":"b"}}`)
		flat := func() string {
			r := c.do("GET", cartAPI, "")
			for _, pkg := range r.body["shipping_rates"].([]any) {
				for _, rate := range pkg.(map[string]any)["shipping_rates"].([]any) {
					if m := rate.(map[string]any); m["rate_id"] == "flat_rate:1" {
						return m["price"].(string)
					}
				}
			}
			return ""
		}
		if got := flat(); got != "500" {
			t.Fatalf("flat rate before: %q", got)
		}

		put := func(change func(string) string, h ...string) frameAnswer {
			body := change(get.body)
			if len(h) == 0 {
				h = []string{"X-WP-Nonce", nonce}
			}
			return f.do("PUT", path, mia, body, append(h, "Content-Type", "application/json")...)
		}
		replace := func(old, new string) func(string) string {
			return func(b string) string {
				if !strings.Contains(b, old) {
					t.Fatalf("%q not in the document", old)
				}
				return strings.Replace(b, old, new, 1)
			}
		}
		// Refusals, each naming its field; nothing is saved.
		for field, change := range map[string]func(string) string{
			"zones[0].locations[0].country":   replace(`"locations":["US"]`, `"locations":["ZZ"]`),
			"zones[0].locations[0].state":     replace(`"locations":["US"]`, `"locations":["US:QQ"]`),
			"zones[0].methods[1].cost":        replace(`"cost":"5.00"`, `"cost":"-1"`),
			"zones[0].methods[1].method_id":   replace(`"method_id":"flat_rate","title":"Flat rate","cost":"5.00"`, `"method_id":"teleport","title":"Flat rate","cost":"5.00"`),
			"zones[0].methods[1].title":       replace(`"title":"Flat rate","cost":"5.00"`, `"title":" ","cost":"5.00"`),
			"zones[0].name":                   replace(`"name":"United States"`, `"name":""`),
			"tax_rates[0].rate":               replace(`"rate":"7.25"`, `"rate":"seven"`),
			"tax_rates[0].name":               replace(`"name":"CA Tax"`, `"name":""`),
			"version":                         replace(`"version":0`, `"version":-1`),
			"zones[0].methods[1].instance_id": replace(`"instance_id":1,`, `"instance_id":2,`),
		} {
			a := put(change)
			if a.status != 400 || a.json(t)["code"] != "rest_invalid_param" || !strings.Contains(a.body, `"`+field+`"`) {
				t.Errorf("%s: %d %s", field, a.status, a.body)
			}
		}
		if a := f.do("PUT", path, f.cookie("Carla"), get.body, "X-WP-Nonce", f.nonce("Carla"), "Content-Type", "application/json"); a.status != 403 {
			t.Errorf("customer: %d", a.status)
		}
		if got := flat(); got != "500" {
			t.Fatalf("a refused save changed the rate: %q", got)
		}

		// Save: the US flat rate at 7.50, and a new Canada zone (its method gets a fresh id).
		saved := put(func(b string) string {
			b = replace(`"cost":"5.00"`, `"cost":"7.50"`)(b)
			return replace(`"zones":[`, `"zones":[{"id":0,"name":"Canada","locations":["CA"],"methods":[{"instance_id":0,"method_id":"flat_rate","title":"Canada Post","cost":"12","taxable":true,"min_amount":""}]},`)(b)
		})
		if saved.status != 200 || saved.json(t)["version"] != float64(1) || !strings.Contains(saved.body, `"name":"Canada","locations":["CA"],"methods":[{"instance_id":6,"method_id":"flat_rate","title":"Canada Post","cost":"12.00"`) {
			t.Fatalf("save: %d %s", saved.status, saved.body)
		}
		// The next cart read prices with it, on this instance at once.
		if got := flat(); got != "750" {
			t.Fatalf("flat rate after the save: %q", got)
		}
		// Saving from the old version again is refused with the rules in force.
		if a := put(func(b string) string { return b }); a.status != 409 || a.json(t)["code"] != "vitrine_settings_stale" || !strings.Contains(a.body, `"Canada Post"`) {
			t.Errorf("stale: %d %.300s", a.status, a.body)
		}
		audit := f.do("GET", "/wp-json/vitrine/v1/admin/audit?object=settings", mia, "", "X-WP-Nonce", nonce)
		if !strings.Contains(audit.body, "Shipping and tax saved: 3 zones, 6 methods, 6 tax rates") {
			t.Errorf("audit: %s", audit.body)
		}
		// Another instance on the store starts with the saved rules.
		other := newServerOn(t, f.db, "", 1, server.Config{BaseURL: "https://shop.example"})
		o := &shop{t: t, db: f.db, srv: other}
		oc := o.client()
		oc.do("GET", cartAPI, "")
		oc.do("POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d,"quantity":1}`, s.productID("cotton-tank-top")))
		r := oc.do("POST", cartAPI+"/update-customer", `{"shipping_address":{"country":"CA","state":"ON","city":"Ottawa","postcode":"K1A 0B1","address_1":"x","first_name":"a","last_name":"b"}}`)
		if !strings.Contains(r.raw, `"rate_id":"flat_rate:6"`) || !strings.Contains(r.raw, `"name":"Canada Post"`) {
			t.Errorf("another instance, a Canadian cart: %.500s", r.raw)
		}
	})
}
