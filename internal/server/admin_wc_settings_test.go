package server_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"vitrine/internal/integration"
	"vitrine/internal/server"
)

// The REST API's settings, tax, shipping and payment routes
// (/wp-json/wc/v3/settings, /taxes, /shipping/zones, /payment_gateways):
// WooCommerce 11's shapes (reference: woocommerce-11-responses/
// wc-v3-settings*.http, wc-v3-taxes*.http, wc-v3-shipping-zones*.http,
// wc-v3-payment_gateways.http), on the shop's real settings: a write
// changes what the admin's screens and the storefront see, and is in the
// activity log; a refusal changes nothing.

const selfLink = `"_links":{"self":[{"href":"x","targetHints":{"allow":["GET"]}}],"collection":[{"href":"x"}]}`

// refSettingsGroup is one group of WooCommerce 11's GET /wc/v3/settings.
const refSettingsGroup = `{"id":"general","label":"General","description":"","parent_id":"","sub_groups":[],"_links":{"options":[{"href":"x"}]}}`

// refOption and refSelectOption are options of WooCommerce 11's
// GET /wc/v3/settings/general (a text one, a select one).
const refOption = `{"id":"woocommerce_store_address","label":"Address line 1","description":"d","type":"text","default":"","tip":"d","value":"1 Anchor Way",` + selfLink + `}`
const refSelectOption = `{"id":"woocommerce_default_country","label":"Country / State","description":"d","type":"select","default":"US:CA","tip":"d","value":"US:CA","options":{"AF":"Afghanistan"},` + selfLink + `}`

const refMultiOption = `{"id":"woocommerce_all_except_countries","label":"l","description":"","type":"multiselect","default":"","value":"","options":{"AF":"Afghanistan"},` + selfLink + `}`

// refGeneralIDs are the general group's options in WooCommerce 11's order.
var refGeneralIDs = []string{"woocommerce_store_address", "woocommerce_store_address_2", "woocommerce_store_city", "woocommerce_default_country",
	"woocommerce_store_postcode", "woocommerce_allowed_countries", "woocommerce_all_except_countries", "woocommerce_specific_allowed_countries",
	"woocommerce_ship_to_countries", "woocommerce_specific_ship_to_countries", "woocommerce_default_customer_address",
	"woocommerce_address_autocomplete_enabled", "woocommerce_calc_taxes", "woocommerce_enable_coupons", "woocommerce_calc_discounts_sequentially",
	"woocommerce_price_thousand_sep", "woocommerce_price_decimal_sep"}

// keyCalls are calls signed with a read key and a read/write key of Mia's
// (OAuth 1.0a over HTTP, as the reference recordings).
type keyCalls struct {
	f      *frameShop
	ro, rw *integration.Created
	n      int
}

func newKeyCalls(f *frameShop) *keyCalls {
	k := &apiKeyShop{frameShop: f, keys: &integration.Service{Store: f.db, Now: f.db.Now}}
	return &keyCalls{f: f, ro: k.key("Mia", integration.Read), rw: k.key("Mia", integration.ReadWrite)}
}

func (k *keyCalls) call(key *integration.Created, method, path, body string) frameAnswer {
	k.f.t.Helper()
	k.n++
	return k.f.do(method, oauthTarget(k.f.db, key, method, path, url.Values{}, fmt.Sprintf("nonce%d", k.n)), nil, body, "Content-Type", "application/json")
}

// readOnlyKey checks that a read key may GET path and may not write it.
func (k *keyCalls) readOnlyKey(t *testing.T, path, method, writePath, body string) {
	t.Helper()
	if a := k.call(k.ro, "GET", path, ""); a.status != 200 {
		t.Errorf("read key GET %s: %d %.200s", path, a.status, a.body)
	}
	a := k.call(k.ro, method, writePath, body)
	wantWooError(t, "read key "+method+" "+writePath, a, 401, "woocommerce_rest_authentication_error", "")
}

// shapeOK compares got's shape with ref's (sameShape), the maps keyed by
// data compared by their entries: an "options" map (a select's choices)
// must be an object of strings, each entry of a "settings" map (a
// shipping method's or a gateway's) must have the shape of ref's first,
// each of a "totals" map (a sales report's days) ref's day's.
func shapeOK(t *testing.T, what string, got any, ref string) {
	t.Helper()
	want := decodeAny(t, ref)
	got = byEntries(t, what, got, want)
	want = byEntries(t, what, want, want)
	if d := sameShape(what, got, want); len(d) > 0 {
		t.Errorf("%s's shape differs from WooCommerce's:\n%s", what, strings.Join(d, "\n"))
	}
}

func byEntries(t *testing.T, what string, v, ref any) any {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := map[string]any{}
	for k, x := range m {
		out[k] = x
	}
	if o, ok := m["options"].(map[string]any); ok {
		for k, x := range o {
			if _, ok := x.(string); !ok {
				t.Errorf("%s.options.%s: %v is not a string", what, k, x)
			}
		}
		out["options"] = map[string]any{}
	}
	if days, ok := m["totals"].(map[string]any); ok { // a sales report's days
		var first any
		for _, x := range ref.(map[string]any)["totals"].(map[string]any) {
			first = x
		}
		for k, x := range days {
			if d := sameShape(what+".totals."+k, x, first); len(d) > 0 {
				t.Errorf("%s", strings.Join(d, "\n"))
			}
		}
		out["totals"] = map[string]any{}
	}
	if s, ok := m["settings"].(map[string]any); ok {
		var first any
		for _, x := range ref.(map[string]any)["settings"].(map[string]any) {
			if _, hasOptions := x.(map[string]any)["options"]; !hasOptions {
				first = x
			}
		}
		for k, x := range s {
			refEntry := first
			if o, ok := x.(map[string]any)["options"]; ok {
				refEntry = map[string]any{}
				for rk, rx := range first.(map[string]any) {
					refEntry.(map[string]any)[rk] = rx
				}
				refEntry.(map[string]any)["options"] = o
			}
			if d := sameShape(what+".settings."+k, x, refEntry); len(d) > 0 {
				t.Errorf("%s", strings.Join(d, "\n"))
			}
		}
		out["settings"] = map[string]any{}
	}
	return out
}

func list(t *testing.T, a frameAnswer) []any {
	t.Helper()
	var v []any
	if a.status != 200 || json.Unmarshal([]byte(a.body), &v) != nil {
		t.Fatalf("list: %d %.300s", a.status, a.body)
	}
	return v
}

func TestRESTSettingsOptions(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		const path = "/wp-json/wc/v3/settings"
		staff := func(method, target, body string) frameAnswer {
			t.Helper()
			return f.staffCall("Mia", method, target, body)
		}
		a := staff("GET", path, "")
		if a.header.Get("Allow") != "GET" {
			t.Errorf("Allow: %q", a.header.Get("Allow"))
		}
		groups := list(t, a)
		var ids []string
		for _, g := range groups {
			shapeOK(t, "group", g, refSettingsGroup)
			ids = append(ids, g.(map[string]any)["id"].(string))
		}
		if strings.Join(ids, ",") != "general,products,tax,shipping,checkout" {
			t.Errorf("groups: %v", ids)
		}
		opts := list(t, staff("GET", path+"/general", ""))
		ids = nil
		for _, o := range opts {
			m := o.(map[string]any)
			ids = append(ids, m["id"].(string))
			ref := refOption
			switch m["type"] {
			case "select", "radio":
				ref = refSelectOption
			case "multiselect":
				ref = refMultiOption
			}
			shapeOK(t, "option "+m["id"].(string), o, ref)
		}
		if strings.Join(ids, ",") != strings.Join(refGeneralIDs, ",") {
			t.Errorf("general's options:\n%v\nwant\n%v", ids, refGeneralIDs)
		}
		for _, g := range []string{"products", "tax", "shipping", "checkout"} {
			for _, o := range list(t, staff("GET", path+"/"+g, "")) {
				ref := refOption
				if _, ok := o.(map[string]any)["options"]; ok {
					ref = refSelectOption
				}
				shapeOK(t, g+" option", o, ref)
			}
		}
		option := func(group, id string) map[string]any {
			t.Helper()
			a := staff("GET", path+"/"+group+"/"+id, "")
			if a.status != 200 {
				t.Fatalf("%s/%s: %d %s", group, id, a.status, a.body)
			}
			return a.json(t)
		}
		shop := func() map[string]any {
			t.Helper()
			return staff("GET", "/wp-json/vitrine/v1/admin/settings", "").json(t)
		}
		before := shop()

		// Refusals change nothing.
		wantWooError(t, "read-only option", staff("PUT", path+"/general/woocommerce_enable_coupons", `{"value":"no"}`), 400, "rest_setting_setting_invalid", "")
		wantWooError(t, "unknown option", staff("PUT", path+"/general/woocommerce_nope", `{"value":"x"}`), 404, "rest_setting_setting_invalid", "Invalid setting.")
		wantWooError(t, "unknown group", staff("GET", path+"/email", ""), 404, "rest_setting_setting_group_invalid", "Invalid setting group.")
		wantWooError(t, "not a country", staff("PUT", path+"/general/woocommerce_default_country", `{"value":"ZZ"}`), 400, "rest_setting_value_invalid", "")
		wantWooError(t, "a state of another country", staff("PUT", path+"/general/woocommerce_default_country", `{"value":"US:ON"}`), 400, "rest_setting_value_invalid", "")
		wantWooError(t, "not a string", staff("PUT", path+"/general/woocommerce_store_city", `{"value":12}`), 400, "rest_setting_value_invalid", "")
		wantWooError(t, "too long", staff("PUT", path+"/general/woocommerce_store_city", `{"value":"`+strings.Repeat("x", 101)+`"}`), 400, "rest_setting_value_invalid", "")
		wantWooError(t, "prices with tax", staff("PUT", path+"/tax/woocommerce_prices_include_tax", `{"value":"maybe"}`), 400, "rest_setting_value_invalid", "")
		if a := f.do("PUT", path+"/general/woocommerce_store_city", f.cookie("Carla"), `{"value":"Nope"}`, "X-WP-Nonce", f.nonce("Carla")); a.status != 403 {
			t.Errorf("customer: %d", a.status)
		}
		if after := shop(); fmt.Sprint(after) != fmt.Sprint(before) {
			t.Errorf("a refusal changed the settings: %v", after)
		}

		// Writes change the real settings.
		a = staff("PUT", path+"/general/woocommerce_store_city", `{"value":"Oakland"}`)
		if a.status != 200 || a.json(t)["value"] != "Oakland" {
			t.Fatalf("city: %d %s", a.status, a.body)
		}
		shapeOK(t, "put answer", decodeAny(t, a.body), refOption)
		if a := staff("PATCH", path+"/general/woocommerce_default_country", `{"value":"US:NY"}`); a.status != 200 || a.json(t)["value"] != "US:NY" {
			t.Errorf("country: %d %s", a.status, a.body)
		}
		addr := shop()["address"].(map[string]any)
		if addr["city"] != "Oakland" || addr["country"] != "US" || addr["state"] != "NY" {
			t.Errorf("the shop's address: %v", addr)
		}
		if o := option("general", "woocommerce_store_city"); o["value"] != "Oakland" {
			t.Errorf("read back: %v", o)
		}
		// The storefront: an instance that loads the settings shows the new
		// address in its footer (this one within its change poll, as an
		// admin save).
		other := newServerOn(t, f.db, "", 1, server.Config{BaseURL: "https://shop.example"})
		if home := httptestGet(other, "/"); !strings.Contains(home, "Oakland") {
			t.Errorf("the storefront's footer does not show the new city")
		}
		if a := staff("PUT", path+"/tax/woocommerce_prices_include_tax", `{"value":"yes"}`); a.status != 200 || a.json(t)["value"] != "yes" {
			t.Errorf("prices include tax: %d %s", a.status, a.body)
		}
		if doc := staff("GET", "/wp-json/vitrine/v1/admin/shipping-tax", "").json(t); doc["prices_include_tax"] != true {
			t.Errorf("shipping-tax document: %v", doc["prices_include_tax"])
		}

		// Batch: each update or its error.
		a = staff("POST", path+"/general/batch", `{"update":[{"id":"woocommerce_store_postcode","value":"94612"},{"id":"woocommerce_enable_coupons","value":"no"}]}`)
		var batch struct {
			Update []map[string]any `json:"update"`
		}
		if a.status != 200 || json.Unmarshal([]byte(a.body), &batch) != nil || len(batch.Update) != 2 || batch.Update[0]["value"] != "94612" ||
			batch.Update[1]["error"].(map[string]any)["code"] != "rest_setting_setting_invalid" {
			t.Errorf("batch: %d %s", a.status, a.body)
		}
		if addr := shop()["address"].(map[string]any); addr["postcode"] != "94612" {
			t.Errorf("batch postcode: %v", addr)
		}
		audit := staff("GET", "/wp-json/vitrine/v1/admin/audit?object=settings", "")
		if !strings.Contains(audit.body, "Setting woocommerce_store_city changed through the REST API") ||
			!strings.Contains(audit.body, "Settings changed through the REST API: 1 (woocommerce_store_postcode)") {
			t.Errorf("audit: %.500s", audit.body)
		}
		newKeyCalls(f).readOnlyKey(t, path+"/general", "PUT", path+"/general/woocommerce_store_city", `{"value":"Key"}`)
	})
}

// refTax is WooCommerce 11's tax rate (the schema of /wc/v3/taxes; the
// recording's list is empty, so the row is the one WooCommerce's schema
// documents).
const refTax = `{"id":1,"country":"US","state":"CA","postcode":"","city":"","postcodes":[],"cities":[],"rate":"7.2500","name":"CA Tax",
 "priority":1,"compound":false,"shipping":false,"order":1,"class":"standard",
 "_links":{"self":[{"href":"x","targetHints":{"allow":["GET"]}}],"collection":[{"href":"x"}]}}`

const refTaxClass = `{"slug":"standard","name":"Standard rate","_links":{"collection":[{"href":"x"}]}}`

func TestRESTTaxes(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		const path = "/wp-json/wc/v3/taxes"
		staff := func(method, target, body string) frameAnswer {
			t.Helper()
			return f.staffCall("Mia", method, target, body)
		}
		a := staff("GET", path, "")
		rows := list(t, a)
		total := a.header.Get("X-WP-Total")
		if a.header.Get("Allow") != "GET, POST" {
			t.Errorf("Allow: %q", a.header.Get("Allow"))
		}
		if len(rows) == 0 || total != fmt.Sprint(len(rows)) || a.header.Get("X-WP-TotalPages") != "1" {
			t.Fatalf("list: %s %d", total, len(rows))
		}
		var ca map[string]any
		for _, r := range rows {
			shapeOK(t, "tax", r, refTax)
			if m := r.(map[string]any); m["state"] == "CA" {
				ca = m
			}
		}
		if ca == nil || ca["rate"] != "7.2500" || ca["class"] != "standard" || ca["country"] != "US" {
			t.Errorf("the CA rate: %v", ca)
		}
		if a := staff("GET", path+"?orderby=priority&order=desc&per_page=2", ""); len(list(t, a)) != 2 || a.header.Get("X-WP-Total") != total {
			t.Errorf("paged: %d %s", a.status, a.header.Get("X-WP-Total"))
		}
		if a := staff("GET", path+"?class=zero-rate", ""); len(list(t, a)) != 0 {
			t.Errorf("zero-rate class: %s", a.body)
		}
		wantWooError(t, "orderby", staff("GET", path+"?orderby=bogus", ""), 400, "rest_invalid_param", "")

		// Refusals change nothing.
		for field, body := range map[string]string{
			"postcode": `{"country":"DE","rate":"19","name":"MwSt","postcode":"10115"}`,
			"cities":   `{"country":"DE","rate":"19","name":"MwSt","cities":["Berlin"]}`,
			"compound": `{"country":"DE","rate":"19","name":"MwSt","compound":true}`,
			"class":    `{"country":"DE","rate":"19","name":"MwSt","class":"reduced-rate"}`,
			"rate":     `{"country":"DE","rate":"nineteen","name":"MwSt"}`,
			"country":  `{"country":"ZZ","rate":"19","name":"MwSt"}`,
			"name":     `{"country":"DE","rate":"19","name":""}`,
		} {
			a := staff("POST", path, body)
			if a.status != 400 || a.json(t)["code"] != "rest_invalid_param" || !strings.Contains(a.body, `"`+field+`"`) {
				t.Errorf("%s: %d %s", field, a.status, a.body)
			}
		}
		if n := staff("GET", path, "").header.Get("X-WP-Total"); n != total {
			t.Fatalf("a refusal added a rate: %s", n)
		}

		// Create, read, update: the shipping and tax document holds them.
		a = staff("POST", path, `{"country":"de","rate":"19","name":"MwSt","shipping":true,"priority":2}`)
		if a.status != 201 {
			t.Fatalf("create: %d %s", a.status, a.body)
		}
		shapeOK(t, "created tax", decodeAny(t, a.body), refTax)
		id := int64(a.json(t)["id"].(float64))
		if a.header.Get("Location") != fmt.Sprintf("https://shop.example%s/%d", path, id) || a.json(t)["rate"] != "19.0000" || a.json(t)["country"] != "DE" {
			t.Errorf("created: %v %s", a.header.Get("Location"), a.body)
		}
		if a := staff("PUT", fmt.Sprintf("%s/%d", path, id), `{"rate":"7.5"}`); a.status != 200 || a.json(t)["rate"] != "7.5000" || a.json(t)["name"] != "MwSt" {
			t.Errorf("update: %d %s", a.status, a.body)
		}
		doc := staff("GET", "/wp-json/vitrine/v1/admin/shipping-tax", "")
		if !strings.Contains(doc.body, fmt.Sprintf(`{"id":%d,"country":"DE","state":"","rate":"7.5","name":"MwSt","priority":2,"shipping":true}`, id)) {
			t.Errorf("the shipping and tax document: %s", doc.body)
		}
		if a := staff("GET", fmt.Sprintf("%s/%d", path, id), ""); a.status != 200 || a.json(t)["rate"] != "7.5000" {
			t.Errorf("get: %d %s", a.status, a.body)
		}
		wantWooError(t, "missing", staff("GET", path+"/9999", ""), 404, "woocommerce_rest_invalid_id", "Invalid resource ID.")
		wantWooError(t, "update missing", staff("PUT", path+"/9999", `{"rate":"1"}`), 404, "woocommerce_rest_invalid_id", "")

		// Delete needs force; batch answers each item or its error.
		wantWooError(t, "no force", staff("DELETE", fmt.Sprintf("%s/%d", path, id), ""), 501, "woocommerce_rest_trash_not_supported", "")
		if a := staff("DELETE", fmt.Sprintf("%s/%d?force=true", path, id), ""); a.status != 200 || a.json(t)["name"] != "MwSt" {
			t.Errorf("delete: %d %s", a.status, a.body)
		}
		wantWooError(t, "deleted", staff("GET", fmt.Sprintf("%s/%d", path, id), ""), 404, "woocommerce_rest_invalid_id", "")
		a = staff("POST", path+"/batch", `{"create":[{"country":"FR","rate":"20","name":"TVA"},{"country":"ZZ","rate":"1","name":"x"}],"update":[{"id":9999,"rate":"2"}],"delete":[9998]}`)
		var batch map[string][]map[string]any
		if a.status != 200 || json.Unmarshal([]byte(a.body), &batch) != nil || len(batch["create"]) != 2 || batch["create"][0]["name"] != "TVA" ||
			batch["create"][1]["error"] == nil || batch["update"][0]["error"].(map[string]any)["code"] != "woocommerce_rest_invalid_id" ||
			batch["delete"][0]["error"] == nil {
			t.Errorf("batch: %d %s", a.status, a.body)
		}
		audit := staff("GET", "/wp-json/vitrine/v1/admin/audit?object=tax_rate", "")
		for _, s := range []string{"Tax rate created: MwSt 19% (DE)", "Tax rate deleted: MwSt 7.5% (DE)", "Tax rates: 1 created, 0 updated, 0 deleted"} {
			if !strings.Contains(audit.body, s) {
				t.Errorf("audit lacks %q: %.600s", s, audit.body)
			}
		}

		// Classes: the three products may carry, fixed.
		a = staff("GET", path+"/classes", "")
		var slugs []string
		for _, c := range list(t, a) {
			shapeOK(t, "tax class", c, refTaxClass)
			slugs = append(slugs, c.(map[string]any)["slug"].(string))
		}
		if strings.Join(slugs, ",") != "standard,reduced-rate,zero-rate" || a.header.Get("X-WP-Total") != "3" {
			t.Errorf("classes: %v", slugs)
		}
		wantWooError(t, "existing class", staff("POST", path+"/classes", `{"name":"Reduced rate"}`), 400, "woocommerce_rest_tax_class_exists", "")
		wantWooError(t, "new class", staff("POST", path+"/classes", `{"name":"Luxury"}`), 400, "woocommerce_rest_cannot_create", "")
		wantWooError(t, "no name", staff("POST", path+"/classes", `{}`), 400, "rest_missing_callback_param", "")
		wantWooError(t, "delete a class", staff("DELETE", path+"/classes/zero-rate?force=true", ""), 400, "woocommerce_rest_cannot_delete", "")
		wantWooError(t, "delete no class", staff("DELETE", path+"/classes/nope?force=true", ""), 404, "woocommerce_rest_invalid_id", "")

		newKeyCalls(f).readOnlyKey(t, path, "POST", path, `{"country":"FR","rate":"5.5","name":"TVA"}`)
	})
}

// refZone, refLocation and refMethod are WooCommerce 11's
// (wc-v3-shipping-zones.http, -1-locations.http, -1-methods.http).
const refZone = `{"id":1,"name":"United States","order":0,"_links":{"self":[{"href":"x","targetHints":{"allow":["GET"]}}],"collection":[{"href":"x"}],"describedby":[{"href":"x"}]}}`
const refLocation = `{"code":"US","type":"country","_links":{"collection":[{"href":"x"}],"describes":[{"href":"x"}]}}`
const refMethod = `{"id":1,"instance_id":1,"title":"Flat rate","order":1,"enabled":true,"method_id":"flat_rate","method_title":"Flat rate",
 "method_description":"d","settings":{
  "title":{"id":"title","label":"Name","description":"d","type":"text","value":"Flat rate","default":"Flat rate","tip":"d","placeholder":""},
  "tax_status":{"id":"tax_status","label":"Tax status","description":"","type":"select","value":"taxable","default":"taxable","tip":"","placeholder":"","options":{"taxable":"Taxable"}},
  "cost":{"id":"cost","label":"Cost","description":"d","type":"text","value":"5.00","default":"","tip":"d","placeholder":""}},
 "_links":{"self":[{"href":"x","targetHints":{"allow":["GET"]}}],"collection":[{"href":"x"}],"describes":[{"href":"x"}]}}`

func TestRESTShippingZones(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		const path = "/wp-json/wc/v3/shipping/zones"
		staff := func(method, target, body string) frameAnswer {
			t.Helper()
			return f.staffCall("Mia", method, target, body)
		}
		zones := list(t, staff("GET", path, ""))
		for _, z := range zones {
			shapeOK(t, "zone", z, refZone)
		}
		first := zones[0].(map[string]any)
		if first["id"] != float64(0) || first["name"] != "Locations not covered by your other zones" || zones[1].(map[string]any)["name"] != "United States" {
			t.Fatalf("zones: %v", zones)
		}
		us := int64(zones[1].(map[string]any)["id"].(float64))
		a := staff("GET", fmt.Sprintf("%s/%d/locations", path, us), "")
		if a.header.Get("Allow") != "GET, POST, PUT, PATCH" || a.header.Get("X-WP-Total") != "1" {
			t.Errorf("locations' headers: %v", a.header)
		}
		locs := list(t, a)
		if len(locs) != 1 || locs[0].(map[string]any)["code"] != "US" {
			t.Errorf("US locations: %v", locs)
		}
		shapeOK(t, "location", locs[0], refLocation)
		var flatID int64
		for _, m := range list(t, staff("GET", fmt.Sprintf("%s/%d/methods", path, us), "")) {
			mm := m.(map[string]any)
			if mm["method_id"] == "flat_rate" {
				shapeOK(t, "method", m, refMethod)
				flatID = int64(mm["instance_id"].(float64))
				if mm["settings"].(map[string]any)["cost"].(map[string]any)["value"] != "5.00" {
					t.Errorf("flat rate's cost: %v", mm["settings"])
				}
			}
		}
		if a := staff("GET", fmt.Sprintf("%s/%d/methods/%d", path, us, flatID), ""); a.status != 200 || a.json(t)["title"] != "Flat rate" {
			t.Errorf("one method: %d %s", a.status, a.body)
		}
		before := staff("GET", "/wp-json/vitrine/v1/admin/shipping-tax", "").json(t)["version"]

		// Refusals change nothing.
		wantWooError(t, "unknown zone", staff("GET", path+"/999", ""), 404, "woocommerce_rest_shipping_zone_invalid", "")
		wantWooError(t, "unknown method", staff("GET", fmt.Sprintf("%s/%d/methods/999", path, us), ""), 404, "woocommerce_rest_shipping_zone_method_invalid", "")
		wantWooError(t, "zone 0's locations", staff("PUT", path+"/0/locations", `[{"code":"FR","type":"country"}]`), 403, "woocommerce_rest_shipping_zone_invalid_zone", "")
		wantWooError(t, "zone 0's name", staff("PUT", path+"/0", `{"name":"Elsewhere"}`), 403, "woocommerce_rest_shipping_zone_invalid_zone", "")
		wantWooError(t, "delete zone 0", staff("DELETE", path+"/0?force=true", ""), 403, "woocommerce_rest_shipping_zone_invalid_zone", "")
		wantWooError(t, "postcode location", staff("PUT", fmt.Sprintf("%s/%d/locations", path, us), `[{"code":"94103","type":"postcode"}]`), 400, "rest_invalid_param", "")
		wantWooError(t, "unknown state", staff("PUT", fmt.Sprintf("%s/%d/locations", path, us), `[{"code":"US:QQ","type":"state"}]`), 400, "rest_invalid_param", "")
		wantWooError(t, "unknown method kind", staff("POST", fmt.Sprintf("%s/%d/methods", path, us), `{"method_id":"teleport"}`), 400, "rest_invalid_param", "")
		wantWooError(t, "cost formula", staff("PUT", fmt.Sprintf("%s/%d/methods/%d", path, us, flatID), `{"settings":{"cost":"10 * [qty]"}}`), 400, "rest_invalid_param", "")
		wantWooError(t, "disable", staff("PUT", fmt.Sprintf("%s/%d/methods/%d", path, us, flatID), `{"enabled":false}`), 400, "rest_invalid_param", "")
		wantWooError(t, "no name", staff("POST", path, `{"order":1}`), 400, "rest_missing_callback_param", "")
		wantWooError(t, "delete without force", staff("DELETE", fmt.Sprintf("%s/%d", path, us), ""), 501, "woocommerce_rest_trash_not_supported", "")
		if v := staff("GET", "/wp-json/vitrine/v1/admin/shipping-tax", "").json(t)["version"]; v != before {
			t.Errorf("a refusal saved the rules: version %v, was %v", v, before)
		}

		// A zone for Canada, its location and a flat rate: a Canadian cart gets it.
		a = staff("POST", path, `{"name":"Canada"}`)
		if a.status != 201 {
			t.Fatalf("create zone: %d %s", a.status, a.body)
		}
		shapeOK(t, "created zone", decodeAny(t, a.body), refZone)
		ca := int64(a.json(t)["id"].(float64))
		a = staff("PUT", fmt.Sprintf("%s/%d/locations", path, ca), `[{"code":"CA","type":"country"},{"code":"US:AK","type":"state"}]`)
		if a.status != 200 || !strings.Contains(a.body, `"code":"CA","type":"country"`) || !strings.Contains(a.body, `"code":"US:AK","type":"state"`) {
			t.Fatalf("locations: %d %s", a.status, a.body)
		}
		a = staff("POST", fmt.Sprintf("%s/%d/methods", path, ca), `{"method_id":"flat_rate","settings":{"title":"Canada Post","cost":"12"}}`)
		if a.status != 201 || a.json(t)["title"] != "Canada Post" {
			t.Fatalf("create method: %d %s", a.status, a.body)
		}
		shapeOK(t, "created method", decodeAny(t, a.body), refMethod)
		post := int64(a.json(t)["instance_id"].(float64))
		if a := staff("PUT", fmt.Sprintf("%s/%d/methods/%d", path, ca, post), `{"settings":{"cost":"15.50"}}`); a.status != 200 ||
			a.json(t)["settings"].(map[string]any)["cost"].(map[string]any)["value"] != "15.50" {
			t.Errorf("update method: %d %s", a.status, a.body)
		}
		if a := staff("POST", fmt.Sprintf("%s/%d/methods", path, ca), `{"method_id":"free_shipping","settings":{"requires":"min_amount","min_amount":"100"}}`); a.status != 201 ||
			a.json(t)["settings"].(map[string]any)["min_amount"].(map[string]any)["value"] != "100.00" {
			t.Errorf("free shipping: %d %s", a.status, a.body)
		}
		c := f.shop.client()
		c.do("GET", cartAPI, "")
		c.do("POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d,"quantity":1}`, f.shop.productID("cotton-tank-top")))
		r := c.do("POST", cartAPI+"/update-customer", `{"shipping_address":{"country":"CA","state":"ON","city":"Ottawa","postcode":"K1A 0B1","address_1":"x","first_name":"a","last_name":"b"}}`)
		if !strings.Contains(r.raw, fmt.Sprintf(`"rate_id":"flat_rate:%d"`, post)) || !strings.Contains(r.raw, `"name":"Canada Post"`) || !strings.Contains(r.raw, `"price":"1550"`) {
			t.Errorf("a Canadian cart: %.600s", r.raw)
		}
		if a := staff("PUT", fmt.Sprintf("%s/%d", path, ca), `{"name":"Canada & Alaska","order":0}`); a.status != 200 || a.json(t)["order"] != float64(0) {
			t.Errorf("rename and move: %d %s", a.status, a.body)
		}
		if zs := list(t, staff("GET", path, "")); zs[1].(map[string]any)["name"] != "Canada & Alaska" {
			t.Errorf("order after the move: %v", zs)
		}
		if a := staff("DELETE", fmt.Sprintf("%s/%d/methods/%d?force=true", path, ca, post), ""); a.status != 200 || a.json(t)["title"] != "Canada Post" {
			t.Errorf("delete method: %d %s", a.status, a.body)
		}
		if a := staff("DELETE", fmt.Sprintf("%s/%d?force=true", path, ca), ""); a.status != 200 || a.json(t)["name"] != "Canada & Alaska" {
			t.Errorf("delete zone: %d %s", a.status, a.body)
		}
		wantWooError(t, "deleted zone", staff("GET", fmt.Sprintf("%s/%d", path, ca), ""), 404, "woocommerce_rest_shipping_zone_invalid", "")
		audit := staff("GET", "/wp-json/vitrine/v1/admin/audit?object=shipping_zone", "")
		for _, s := range []string{"Shipping zone created: Canada", "Shipping method added: Canada Post", "Shipping zone deleted: Canada &amp; Alaska"} {
			if !strings.Contains(strings.ReplaceAll(audit.body, `\u0026`, "&amp;"), s) {
				t.Errorf("audit lacks %q: %.600s", s, audit.body)
			}
		}
		newKeyCalls(f).readOnlyKey(t, path, "POST", path, `{"name":"Key zone"}`)
	})
}

// refGateway is WooCommerce 11's bacs gateway (wc-v3-payment_gateways.http).
const refGateway = `{"id":"bacs","title":"Direct bank transfer","description":"d","order":1,"enabled":true,"method_title":"Direct bank transfer",
 "method_description":"d","method_supports":["products"],
 "settings":{"title":{"id":"title","label":"Title","description":"d","type":"safe_text","value":"v","default":"v","tip":"d","placeholder":""}},
 "needs_setup":false,"post_install_scripts":[],"settings_url":"x","connection_url":null,"setup_help_text":null,"required_settings_keys":[],
 "_links":{"self":[{"href":"x","targetHints":{"allow":["GET"]}}],"collection":[{"href":"x"}]}}`

func TestRESTPaymentGateways(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		const path = "/wp-json/wc/v3/payment_gateways"
		staff := func(method, target, body string) frameAnswer {
			t.Helper()
			return f.staffCall("Mia", method, target, body)
		}
		a := staff("GET", path, "")
		var ids []string
		for _, g := range list(t, a) {
			shapeOK(t, "gateway", g, refGateway)
			ids = append(ids, g.(map[string]any)["id"].(string))
		}
		if strings.Join(ids, ",") != "bacs,cod,ppcp-gateway" || a.header.Get("X-WP-Total") != "3" {
			t.Errorf("gateways: %v %s", ids, a.header.Get("X-WP-Total"))
		}
		payments := func() map[string]any {
			t.Helper()
			return staff("GET", "/wp-json/vitrine/v1/admin/payments", "").json(t)
		}
		before := payments()["version"]
		wantWooError(t, "unknown", staff("GET", path+"/cheque", ""), 404, "woocommerce_rest_payment_gateway_invalid", "")
		wantWooError(t, "order", staff("PUT", path+"/bacs", `{"order":3}`), 400, "rest_invalid_param", "")
		wantWooError(t, "unknown setting", staff("PUT", path+"/bacs", `{"settings":{"account_details":"x"}}`), 400, "rest_invalid_param", "")
		wantWooError(t, "PayPal's title", staff("PUT", path+"/ppcp-gateway", `{"title":"Pay"}`), 400, "rest_invalid_param", "")
		wantWooError(t, "title too long", staff("PUT", path+"/cod", `{"title":"`+strings.Repeat("x", 101)+`"}`), 400, "rest_invalid_param", "")
		if v := payments()["version"]; v != before {
			t.Errorf("a refusal saved: version %v, was %v", v, before)
		}

		a = staff("PUT", path+"/bacs", `{"title":"Wire transfer","settings":{"instructions":"Pay to our account."}}`)
		if a.status != 200 || a.json(t)["title"] != "Wire transfer" || a.json(t)["description"] != "Pay to our account." {
			t.Fatalf("bacs: %d %s", a.status, a.body)
		}
		shapeOK(t, "put answer", decodeAny(t, a.body), refGateway)
		enabled := a.json(t)["enabled"].(bool)
		if a := staff("PUT", path+"/bacs", fmt.Sprintf(`{"enabled":%t}`, !enabled)); a.status != 200 || a.json(t)["enabled"] != !enabled {
			t.Errorf("toggle bacs: %d %s", a.status, a.body)
		}
		p := payments()
		bacs := p["bacs"].(map[string]any)
		if bacs["title"] != "Wire transfer" || bacs["description"] != "Pay to our account." || bacs["enabled"] != !enabled {
			t.Errorf("the payments document: %v", bacs)
		}
		if a := staff("GET", path+"/bacs", ""); a.json(t)["title"] != "Wire transfer" {
			t.Errorf("read back: %s", a.body)
		}
		audit := staff("GET", "/wp-json/vitrine/v1/admin/audit?object=settings", "")
		if !strings.Contains(audit.body, "Payment method Wire transfer saved through the REST API") {
			t.Errorf("audit: %.400s", audit.body)
		}
		newKeyCalls(f).readOnlyKey(t, path, "PUT", path+"/cod", `{"enabled":false}`)
	})
}
