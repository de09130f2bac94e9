package server_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"vitrine/internal/server"
	"vitrine/internal/server/servertest"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// Sale schedules, external and grouped products through the admin API
// (products, second part), and the cached pages following a scheduled
// sale's start and end (Server.ScheduleUpkeep).

func TestAdminProductSaleScheduleAPI(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		clock := storetest.FrozenClock(time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC))
		cfg := server.Config{BaseURL: "https://shop.example", CacheBytes: 16 << 20, CacheMaxAge: time.Hour, Now: clock.Now}
		f := newFrameShopWith(t, db, cfg)
		const products = "/wp-json/wc/v3/products"

		// A customer cannot schedule a sale.
		if a := f.staffCall("Carla", "POST", products, `{"name":"Sneaky","sale_price":"1","date_on_sale_from":"2026-12-01T00:00:00"}`); a.status != 403 {
			t.Errorf("customer: %d %s", a.status, a.body)
		}
		a := f.staffCall("Mia", "POST", products, `{"name":"Copper Kettle","status":"publish","regular_price":"20.00","sale_price":"15.00",
			"date_on_sale_from_gmt":"2026-11-24T10:10:00","date_on_sale_to_gmt":"2026-11-24T11:00:00"}`)
		if a.status != 201 || !strings.Contains(a.body, `"date_on_sale_from_gmt":"2026-11-24T10:10:00"`) ||
			!strings.Contains(a.body, `"date_on_sale_to":"2026-11-24T11:00:00"`) || !strings.Contains(a.body, `"on_sale":false`) ||
			!strings.Contains(a.body, `"price":"20.00"`) {
			t.Fatalf("create: %d %s", a.status, a.body)
		}
		p := savedProductOf(a)
		path := products + "/" + strconv.FormatInt(p.ID, 10)
		ver := `,"version":` + strconv.FormatInt(p.Version, 10) + `}`

		// Bad schedules: the field named, nothing changed.
		for _, c := range []struct{ body, field string }{
			{`{"date_on_sale_from":"soon"`, "date_on_sale_from"},
			{`{"date_on_sale_to_gmt":"2026-11-24T10:00:00"`, "date_on_sale_to"},
			{`{"sale_price":"","date_on_sale_to":"2026-12-24T10:00:00"`, "date_on_sale_to"},
			{`{"external_url":"javascript:alert(1)"`, "external_url"},
			{`{"grouped_products":[1]`, "grouped_products"},
		} {
			a := f.staffCall("Mia", "PUT", path, c.body+ver)
			if a.status != 400 || !strings.Contains(a.body, "rest_invalid_param") || !strings.Contains(a.body, c.field) {
				t.Errorf("%s: %d %s", c.body, a.status, a.body)
			}
		}
		if a := f.staffCall("Mia", "GET", path, ""); !strings.Contains(a.body, `"version":`+strconv.FormatInt(p.Version, 10)+`,`) &&
			!strings.HasSuffix(strings.TrimSpace(a.body), `"version":`+strconv.FormatInt(p.Version, 10)+`}`) {
			t.Errorf("a refused edit changed the product: %s", a.body)
		}

		// Another instance caches the page at the regular price.
		other := newServerOn(t, db, "", 1, server.Config{BaseURL: "https://shop.example", CacheBytes: 16 << 20, CacheMaxAge: time.Hour,
			ChangePoll: 10 * time.Millisecond, Now: clock.Now})
		servertest.Start(t, other)
		ctx := context.Background()
		if page := visitorGet(other, "/product/copper-kettle/"); !strings.Contains(page.body, "20.00") || strings.Contains(page.body, "15.00") {
			t.Fatalf("page before the sale: %.300s", page.body)
		}
		// The sale starts: the cached page is kept until the upkeep pass
		// records the start; then every instance drops it.
		clock.Add(11 * time.Minute)
		if page := visitorGet(other, "/product/copper-kettle/"); strings.Contains(page.body, "15.00") {
			t.Fatal("the page was rendered again without a change (the test proves nothing)")
		}
		if n := f.srv.ScheduleUpkeep(ctx); n < 1 {
			t.Fatalf("upkeep saw %d sales start", n)
		}
		deadline := time.Now().Add(10 * time.Second)
		for !strings.Contains(visitorGet(other, "/product/copper-kettle/").body, "15.00") && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if page := visitorGet(other, "/product/copper-kettle/"); !strings.Contains(page.body, "15.00") {
			t.Error("the cached page still shows the regular price after the sale started")
		}
		if n := f.srv.ScheduleUpkeep(ctx); n != 0 {
			t.Errorf("a second pass saw %d", n)
		}
	})
}

func TestAdminExternalAndGroupedAPI(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		const products = "/wp-json/wc/v3/products"
		a := f.staffCall("Mia", "POST", products, `{"name":"Partner Lamp","type":"external","status":"publish","regular_price":"80.00",
			"external_url":"https://partner.example/lamp","button_text":"Buy at partner"}`)
		if a.status != 201 || !strings.Contains(a.body, `"external_url":"https://partner.example/lamp"`) {
			t.Fatalf("external: %d %s", a.status, a.body)
		}
		var ext struct {
			ID int64 `json:"id"`
		}
		_ = json.Unmarshal([]byte(a.body), &ext)
		if page := visitorGet(f.srv, "/product/partner-lamp/"); !strings.Contains(page.body, "https://partner.example/lamp") ||
			!strings.Contains(page.body, "Buy at partner") {
			t.Errorf("storefront external page: %.300s", page.body)
		}
		if a := f.staffCall("Mia", "POST", products, `{"name":"Bad Lamp","type":"external","external_url":"ftp://x.example/"}`); a.status != 400 ||
			!strings.Contains(a.body, "external_url") {
			t.Errorf("ftp url: %d %s", a.status, a.body)
		}
		id := strconv.FormatInt(ext.ID, 10)
		a = f.staffCall("Mia", "POST", products, `{"name":"Lamp Kit","type":"grouped","status":"publish","grouped_products":[`+id+`]}`)
		if a.status != 201 || !strings.Contains(a.body, `"grouped_products":[`+id+`]`) {
			t.Fatalf("grouped: %d %s", a.status, a.body)
		}
		if a := f.staffCall("Mia", "POST", products, `{"name":"Kit 2","type":"grouped","grouped_products":[`+id+`,`+id+`]}`); a.status != 400 {
			t.Errorf("twice: %d %s", a.status, a.body)
		}
		if a := f.staffCall("Carla", "POST", products, `{"name":"Kit 3","type":"grouped","grouped_products":[`+id+`]}`); a.status != 403 {
			t.Errorf("customer: %d", a.status)
		}
		if a := f.staffCall("Mia", "GET", products+"?search=kit&status=any", ""); strings.Contains(a.body, "Kit 2") || strings.Contains(a.body, "Kit 3") {
			t.Errorf("a refused create made a product: %s", a.body)
		}
	})
}
