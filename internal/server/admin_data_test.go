package server_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// The REST API's reference data (/wp-json/wc/v3/data/…) and system status
// (/wp-json/wc/v3/system_status): WooCommerce 11's shapes (reference:
// woocommerce-11-responses/wc-v3-data-*.http, wc-v3-system_status.http).

func TestRESTDataAndSystemStatus(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		get := func(path string) frameAnswer {
			t.Helper()
			return f.staffCall("Mia", "GET", path, "")
		}
		list := func(path string) []any {
			t.Helper()
			a := get(path)
			var v []any
			if a.status != 200 || json.Unmarshal([]byte(a.body), &v) != nil || len(v) == 0 {
				t.Fatalf("%s: %d %.300s", path, a.status, a.body)
			}
			return v
		}
		links := `"_links":{"self":[{"href":"x","targetHints":{"allow":["GET"]}}],"collection":[{"href":"x"}]}`
		refCurrency := decodeAny(t, `{"code":"AED","name":"United Arab Emirates dirham","symbol":"x",`+links+`}`)
		refCountry := decodeAny(t, `{"code":"AL","name":"Albania","states":[{"code":"AL-01","name":"Berat"}],`+links+`}`)

		cur := list("/wp-json/wc/v3/data/currencies")
		if d := sameShape("currency", cur[0], refCurrency); len(d) > 0 {
			t.Errorf("currency: %v", d)
		}
		if a := get("/wp-json/wc/v3/data/currencies/current"); a.status != 200 || a.json(t)["code"] != "USD" || a.json(t)["name"] != "United States (US) dollar" {
			t.Errorf("current currency: %d %s", a.status, a.body)
		}
		if a := get("/wp-json/wc/v3/data/currencies/XXX"); a.status != 404 {
			t.Errorf("unknown currency: %d", a.status)
		}
		countries := list("/wp-json/wc/v3/data/countries")
		var us map[string]any
		for _, c := range countries {
			if d := sameShape("country", c, refCountry); len(d) > 0 {
				t.Errorf("country: %v", d)
			}
			if c.(map[string]any)["code"] == "US" {
				us = c.(map[string]any)
			}
		}
		if us == nil || len(us["states"].([]any)) < 50 {
			t.Errorf("US: %v", us)
		}
		if a := get("/wp-json/wc/v3/data/countries/ca"); a.status != 200 || a.json(t)["name"] != "Canada" {
			t.Errorf("one country: %d %s", a.status, a.body)
		}
		conts := list("/wp-json/wc/v3/data/continents")
		var eu map[string]any
		for _, c := range conts {
			if c.(map[string]any)["code"] == "EU" {
				eu = c.(map[string]any)
			}
		}
		if len(conts) != 7 || eu == nil || len(eu["countries"].([]any)) != 6 {
			t.Errorf("continents: %v", conts)
		}
		if a := get("/wp-json/wc/v3/data/continents/zz"); a.status != 404 || a.json(t)["code"] != "woocommerce_rest_data_invalid_location" {
			t.Errorf("unknown continent: %d %s", a.status, a.body)
		}

		a := get("/wp-json/wc/v3/system_status")
		if a.status != 200 {
			t.Fatalf("system status: %d %s", a.status, a.body)
		}
		s := a.json(t)
		for _, k := range []string{"environment", "database", "active_plugins", "inactive_plugins", "dropins_mu_plugins", "theme", "settings",
			"security", "pages", "post_type_counts", "logging"} {
			if _, ok := s[k]; !ok {
				t.Errorf("system status lacks %s", k)
			}
		}
		env, db, set := s["environment"].(map[string]any), s["database"].(map[string]any), s["settings"].(map[string]any)
		if env["home_url"] != "https://shop.example" || env["version"] != "11.0.1" || set["currency"] != "USD" || set["number_of_decimals"] != float64(2) ||
			set["currency_position"] != "left" || db["wc_database_version"] == "0" || db["wc_database_version"] == "" {
			t.Errorf("system status: %s", a.body)
		}
		if e := db["vitrine_engine"].(string); (e != "sqlite" && e != "postgres") || db["vitrine_engine_version"] == "" {
			t.Errorf("engine: %v %v", e, db["vitrine_engine_version"])
		}
		if a := f.do("GET", "/wp-json/wc/v3/system_status", f.cookie("Carla"), "", "X-WP-Nonce", f.nonce("Carla")); a.status != 403 || !strings.Contains(a.body, "rest_forbidden") {
			t.Errorf("customer: %d", a.status)
		}
	})
}
