package server_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"vitrine/internal/server"
	"vitrine/internal/server/servertest"
)

// The admin's products API through the real server (internal/adminapi
// products.go): staff only, bad input refused with nothing changed, stale
// edits refused with 409, and every write seen by the storefront.

// staffCall is an admin API call as the named user, with their REST nonce.
func (f *frameShop) staffCall(who, method, path, body string, headers ...string) frameAnswer {
	f.t.Helper()
	h := append([]string{"X-WP-Nonce", f.nonce(who), "Content-Type", "application/json"}, headers...)
	return f.do(method, path, f.cookie(who), body, h...)
}

// savedProduct is the id and version of a product the admin API answered.
type savedProduct struct {
	ID      int64 `json:"id"`
	Version int64 `json:"version"`
}

func savedProductOf(a frameAnswer) savedProduct {
	var p savedProduct
	_ = json.Unmarshal([]byte(a.body), &p)
	return p
}

func storePrice(t *testing.T, srv *server.Server, id int64) string {
	t.Helper()
	r := visitorGet(srv, "/wp-json/wc/store/v1/products/"+strconv.FormatInt(id, 10))
	var p struct {
		Prices struct {
			Price string `json:"price"`
		} `json:"prices"`
	}
	if r.status != 200 {
		return "status " + strconv.Itoa(r.status)
	}
	if err := json.Unmarshal([]byte(r.body), &p); err != nil {
		t.Fatal(err)
	}
	return p.Prices.Price
}

func TestAdminProductsAPI(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		const products = "/wp-json/wc/v3/products"

		// A customer and a visitor are refused every route, and nothing is made.
		for _, c := range []struct{ method, path, body string }{
			{"GET", products, ""}, {"POST", products, `{"name":"Sneaky"}`}, {"PUT", products + "/1", `{"name":"x","version":1}`},
			{"DELETE", products + "/1", ""}, {"POST", "/wp-json/vitrine/v1/admin/products/bulk", `{"action":"trash","ids":[1]}`},
			{"POST", products + "/categories", `{"name":"Sneaky"}`}, {"POST", products + "/1/variations/batch", `{"version":1,"delete":[2]}`},
		} {
			if a := f.staffCall("Carla", c.method, c.path, c.body); a.status != 403 || !strings.Contains(a.body, "rest_forbidden") {
				t.Errorf("customer %s %s: %d %s", c.method, c.path, a.status, a.body)
			}
			if a := f.do(c.method, c.path, nil, c.body); a.status != 401 {
				t.Errorf("visitor %s %s: %d", c.method, c.path, a.status)
			}
		}
		if a := f.staffCall("Mia", "GET", products+"?search=sneaky&status=any", ""); a.body != "[]" {
			t.Errorf("a refused create made a product: %s", a.body)
		}

		// Create a published simple product.
		a := f.staffCall("Mia", "POST", products, `{"name":"Enamel Mug","status":"publish","regular_price":"10.00","sku":"MUG-9"}`)
		if a.status != 201 {
			t.Fatalf("create: %d %s", a.status, a.body)
		}
		var p struct {
			ID           int64  `json:"id"`
			Version      int64  `json:"version"`
			RegularPrice string `json:"regular_price"`
			Permalink    string `json:"permalink"`
			Status       string `json:"status"`
		}
		_ = json.Unmarshal([]byte(a.body), &p)
		if p.ID == 0 || p.Version != 1 || p.RegularPrice != "10.00" || p.Permalink != "/product/enamel-mug/" || a.header.Get("ETag") != `"1"` {
			t.Fatalf("created: %s (ETag %s)", a.body, a.header.Get("ETag"))
		}
		path := products + "/" + strconv.FormatInt(p.ID, 10)
		if got := storePrice(t, f.srv, p.ID); got != "1000" {
			t.Fatalf("Store API price after create: %s", got)
		}

		// A second instance on the same database learns of edits from the change log.
		other := newServerOn(t, f.db, "", 1, server.Config{BaseURL: "https://shop.example", CacheBytes: 16 << 20, CacheMaxAge: time.Hour, ChangePoll: 10 * time.Millisecond})
		servertest.Start(t, other)
		if got := storePrice(t, other, p.ID); got != "1000" {
			t.Fatalf("other instance: %s", got)
		}
		pageBefore := visitorGet(other, "/product/enamel-mug/")
		if !strings.Contains(pageBefore.body, "10.00") {
			t.Fatalf("product page before: %.300s", pageBefore.body)
		}

		// Edits need the version they were based on.
		if a := f.staffCall("Mia", "PUT", path, `{"regular_price":"12.34"}`); a.status != 428 || !strings.Contains(a.body, "vitrine_version_required") {
			t.Errorf("no version: %d %s", a.status, a.body)
		}
		a = f.staffCall("Mia", "PUT", path, `{"regular_price":"12.34"}`, "If-Match", `"1"`)
		if a.status != 200 || !strings.Contains(a.body, `"regular_price":"12.34"`) || !strings.Contains(a.body, `"version":2`) {
			t.Fatalf("edit: %d %s", a.status, a.body)
		}
		// This instance shows it at once; the other after its change poll.
		if got := storePrice(t, f.srv, p.ID); got != "1234" {
			t.Errorf("Store API price after the edit: %s", got)
		}
		deadline := time.Now().Add(10 * time.Second)
		for storePrice(t, other, p.ID) != "1234" && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if got := storePrice(t, other, p.ID); got != "1234" {
			t.Errorf("the other instance still answers %s", got)
		}
		// Its cached page is served stale until its re-render lands.
		for deadline := time.Now().Add(10 * time.Second); !strings.Contains(visitorGet(other, "/product/enamel-mug/").body, "12.34"); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the other instance's product page still shows the old price")
			}
		}

		// A stale edit (Ada opened version 1) is refused with the current version; nothing changes.
		a = f.staffCall("Ada", "PUT", path, `{"regular_price":"1.00","version":1}`)
		if a.status != 409 || !strings.Contains(a.body, `"code":"vitrine_product_stale"`) || !strings.Contains(a.body, `"version":2`) ||
			!strings.Contains(a.body, "Reload") {
			t.Errorf("stale: %d %s", a.status, a.body)
		}
		if got := storePrice(t, f.srv, p.ID); got != "1234" {
			t.Errorf("a stale edit changed the price: %s", got)
		}

		// Bad input: WordPress's error shape naming the field; nothing changes.
		for _, c := range []struct{ body, param string }{
			{`{"regular_price":"12.345","version":2}`, "regular_price"},
			{`{"sale_price":"99","version":2}`, "sale_price"},
			{`{"name":"","version":2}`, "name"},
			{`{"status":"future","date_publish_gmt":"2020-01-01T00:00:00","version":2}`, "date_publish_gmt"},
			{`{"status":"future","date_publish_gmt":"soon","version":2}`, "date_publish_gmt"},
			{`{"categories":[{"id":987654}],"version":2}`, "categories"},
			{`{"images":[{"src":"https://evil.example/x.png"}],"version":2}`, "images"},
			{`{"sku":"MUG-9X","version":0}`, "version"},
		} {
			a := f.staffCall("Mia", "PUT", path, c.body)
			if a.status != 400 || !strings.Contains(a.body, `"params":{"`+c.param+`"`) {
				t.Errorf("%s: %d %s", c.body, a.status, a.body)
			}
		}
		if a := f.staffCall("Mia", "PUT", path, `{"regular_price":`); a.status != 400 || !strings.Contains(a.body, "rest_invalid_json") {
			t.Errorf("broken JSON: %d %s", a.status, a.body)
		}
		if a := f.staffCall("Mia", "PUT", products+"/99999", `{"name":"x","version":1}`); a.status != 404 {
			t.Errorf("missing product: %d %s", a.status, a.body)
		}
		if a := f.staffCall("Mia", "GET", path, ""); !strings.Contains(a.body, `"version":2`) || !strings.Contains(a.body, `"regular_price":"12.34"`) {
			t.Errorf("refused edits changed the product: %s", a.body)
		}

		// List filters, counts, bulk trash (gone from the shop) and restore.
		if a := f.staffCall("Mia", "GET", products+"?search=enamel&per_page=5", ""); a.status != 200 || a.header.Get("X-WP-Total") != "1" {
			t.Errorf("search: %d %s", a.status, a.header)
		}
		if a := f.staffCall("Mia", "GET", products+"?stock_status=plenty", ""); a.status != 400 || !strings.Contains(a.body, "stock_status") {
			t.Errorf("bad filter: %d %s", a.status, a.body)
		}
		a = f.staffCall("Mia", "POST", "/wp-json/vitrine/v1/admin/products/bulk", `{"action":"trash","ids":[`+strconv.FormatInt(p.ID, 10)+`]}`)
		if a.status != 200 || !strings.Contains(a.body, `"changed":1`) {
			t.Fatalf("bulk trash: %d %s", a.status, a.body)
		}
		if got := storePrice(t, f.srv, p.ID); got != "status 404" {
			t.Errorf("a trashed product in the Store API: %s", got)
		}
		if a := f.staffCall("Mia", "GET", "/wp-json/vitrine/v1/admin/products/counts", ""); !strings.Contains(a.body, `"trash":1`) {
			t.Errorf("counts: %s", a.body)
		}
		if a := f.staffCall("Mia", "POST", "/wp-json/vitrine/v1/admin/products/bulk", `{"action":"nuke","ids":[1]}`); a.status != 400 {
			t.Errorf("bad action: %d", a.status)
		}
		a = f.staffCall("Mia", "POST", "/wp-json/vitrine/v1/admin/products/bulk", `{"action":"restore","ids":[`+strconv.FormatInt(p.ID, 10)+`]}`)
		if a.status != 200 || !strings.Contains(a.body, `"changed":1`) {
			t.Fatalf("restore: %d %s", a.status, a.body)
		}

		// The audit log names the writes.
		if a := f.staffCall("Ada", "GET", "/wp-json/vitrine/v1/admin/audit?object=product&object_id="+strconv.FormatInt(p.ID, 10), ""); !strings.Contains(a.body, `"action":"product.update"`) ||
			!strings.Contains(a.body, `"action":"product.create"`) || !strings.Contains(a.body, "Mia Manager") {
			t.Errorf("audit: %s", a.body)
		}
	})
}

func TestAdminVariableProductAPI(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		const products = "/wp-json/wc/v3/products"
		color := f.globalAttribute("pa_color")
		imgs := f.staffCall("Mia", "GET", "/wp-json/vitrine/v1/admin/product-images", "")
		var images []struct {
			ID int64 `json:"id"`
		}
		_ = json.Unmarshal([]byte(imgs.body), &images)
		if len(images) == 0 {
			t.Fatalf("images: %s", imgs.body)
		}
		body := `{"name":"Wool Beanie","type":"variable","status":"publish","images":[{"id":` + strconv.FormatInt(images[0].ID, 10) + `}],
			"attributes":[{"id":` + strconv.FormatInt(color.ID, 10) + `,"options":["` + color.Terms[0].Name + `","` + color.Terms[1].Name + `"],"visible":true,"variation":true}]}`
		a := f.staffCall("Mia", "POST", products, body)
		if a.status != 201 {
			t.Fatalf("create: %d %s", a.status, a.body)
		}
		p := savedProductOf(a)
		path := products + "/" + strconv.FormatInt(p.ID, 10)
		if a := f.staffCall("Mia", "POST", path+"/variations/generate", `{"version":99}`); a.status != 409 {
			t.Errorf("stale generate: %d %s", a.status, a.body)
		}
		a = f.staffCall("Mia", "POST", path+"/variations/generate", `{"version":`+strconv.FormatInt(p.Version, 10)+`}`)
		var gen struct {
			Count      int   `json:"count"`
			Version    int64 `json:"version"`
			Variations []struct {
				ID int64 `json:"id"`
			} `json:"variations"`
		}
		_ = json.Unmarshal([]byte(a.body), &gen)
		if a.status != 200 || gen.Count != 2 || len(gen.Variations) != 2 || gen.Version != p.Version+1 {
			t.Fatalf("generate: %d %s", a.status, a.body)
		}
		// Priced in one batch; a bad price refuses the whole batch.
		upd := func(price string) string {
			return `{"version":` + strconv.FormatInt(gen.Version, 10) + `,"update":[{"id":` + strconv.FormatInt(gen.Variations[0].ID, 10) + `,"regular_price":"` + price +
				`","manage_stock":true,"stock_quantity":3},{"id":` + strconv.FormatInt(gen.Variations[1].ID, 10) + `,"regular_price":"` + price + `"}]}`
		}
		if a := f.staffCall("Mia", "POST", path+"/variations/batch", upd("x")); a.status != 400 || !strings.Contains(a.body, `update[0].regular_price`) {
			t.Errorf("bad batch: %d %s", a.status, a.body)
		}
		a = f.staffCall("Mia", "POST", path+"/variations/batch", upd("18.00"))
		if a.status != 200 || strings.Count(a.body, `"regular_price":"18.00"`) != 2 || !strings.Contains(a.body, `"stock_quantity":3`) {
			t.Fatalf("batch: %d %s", a.status, a.body)
		}
		// The storefront sells it now.
		if got := storePrice(t, f.srv, p.ID); got != "1800" {
			t.Errorf("Store API price of the new variable product: %s", got)
		}
		// A variation's sale schedule: an end before the start is refused on the row, a good one kept.
		sched := func(to string) string {
			return `{"version":` + strconv.FormatInt(gen.Version+1, 10) + `,"update":[{"id":` + strconv.FormatInt(gen.Variations[0].ID, 10) +
				`,"sale_price":"15.00","date_on_sale_from_gmt":"2030-01-01T00:00:00","date_on_sale_to_gmt":"` + to + `"}]}`
		}
		if a := f.staffCall("Mia", "POST", path+"/variations/batch", sched("2029-12-31T00:00:00")); a.status != 400 || !strings.Contains(a.body, `update[0].date_on_sale_to`) {
			t.Errorf("bad variation schedule: %d %s", a.status, a.body)
		}
		a = f.staffCall("Mia", "POST", path+"/variations/batch", sched("2030-02-01T00:00:00"))
		if a.status != 200 || !strings.Contains(a.body, `"date_on_sale_from_gmt":"2030-01-01T00:00:00"`) || !strings.Contains(a.body, `"date_on_sale_to":"2030-02-01T00:00:00"`) {
			t.Fatalf("variation schedule: %d %s", a.status, a.body)
		}
		if got := storePrice(t, f.srv, p.ID); got != "1800" {
			t.Errorf("a sale scheduled in 2030 is already on: %s", got)
		}
		// Duplicate: a draft copy.
		if a := f.staffCall("Mia", "POST", path+"/duplicate", ""); a.status != 201 || !strings.Contains(a.body, `"name":"Wool Beanie (Copy)"`) || !strings.Contains(a.body, `"status":"draft"`) {
			t.Errorf("duplicate: %d %s", a.status, a.body)
		}
		// Categories and tags.
		a = f.staffCall("Mia", "POST", products+"/categories", `{"name":"Winter"}`)
		if a.status != 201 || !strings.Contains(a.body, `"slug":"winter"`) {
			t.Fatalf("category: %d %s", a.status, a.body)
		}
		if a := f.staffCall("Mia", "POST", products+"/categories", `{"name":"Winter"}`); a.status != 400 || !strings.Contains(a.body, `"slug"`) {
			t.Errorf("duplicate category: %d %s", a.status, a.body)
		}
		var cat struct {
			ID int64 `json:"id"`
		}
		_ = json.Unmarshal([]byte(a.body), &cat)
		cpath := products + "/categories/" + strconv.FormatInt(cat.ID, 10)
		if a := f.staffCall("Mia", "DELETE", cpath, ""); a.status != 501 {
			t.Errorf("delete without force: %d", a.status)
		}
		if a := f.staffCall("Mia", "DELETE", cpath+"?force=true", ""); a.status != 200 {
			t.Errorf("delete: %d %s", a.status, a.body)
		}
		if a := f.staffCall("Mia", "GET", cpath, ""); a.status != 404 {
			t.Errorf("deleted category: %d", a.status)
		}
		if a := f.staffCall("Mia", "POST", products+"/tags", `{"name":""}`); a.status != 400 {
			t.Errorf("empty tag: %d", a.status)
		}
		// Swatches.
		if a := f.staffCall("Mia", "PUT", products+"/attributes/"+strconv.FormatInt(color.ID, 10)+"/terms/"+strconv.FormatInt(color.Terms[0].ID, 10), `{"color":"#123456"}`); a.status != 200 || !strings.Contains(a.body, `"color":"#123456"`) {
			t.Errorf("term colour: %d %s", a.status, a.body)
		}
		if a := f.staffCall("Mia", "PUT", products+"/attributes/"+strconv.FormatInt(color.ID, 10), `{"type":"plaid"}`); a.status != 400 {
			t.Errorf("bad swatch type: %d", a.status)
		}
		// Listing filters: the attribute leaves the shop's filters.
		if a := f.staffCall("Mia", "PUT", products+"/attributes/"+strconv.FormatInt(color.ID, 10), `{"filter_query_type":"both"}`); a.status != 400 {
			t.Errorf("bad filter query type: %d %s", a.status, a.body)
		}
		if a := f.staffCall("Mia", "PUT", products+"/attributes/"+strconv.FormatInt(color.ID, 10), `{"filterable":false,"filter_query_type":"and"}`); a.status != 200 || !strings.Contains(a.body, `"filterable":false`) {
			t.Errorf("filter setting: %d %s", a.status, a.body)
		}
		for deadline := time.Now().Add(10 * time.Second); strings.Contains(visitorGet(f.srv, "/shop/").body, `"taxonomy":"pa_color"`); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("an attribute set not to filter is still among the shop's filters")
			}
		}
	})
}

// visitorGet is a visitor's GET on srv.
// adminAttribute is a global attribute as the admin API lists it.
type adminAttribute struct {
	ID    int64  `json:"id"`
	Slug  string `json:"slug"`
	Terms []struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	} `json:"terms"`
}

// globalAttribute is the demo attribute with that slug, with at least two
// terms, read through the admin API.
func (f *frameShop) globalAttribute(slug string) adminAttribute {
	f.t.Helper()
	a := f.staffCall("Mia", "GET", "/wp-json/wc/v3/products/attributes", "")
	var attrs []adminAttribute
	if err := json.Unmarshal([]byte(a.body), &attrs); err != nil {
		f.t.Fatalf("attributes: %v %s", err, a.body)
	}
	for _, at := range attrs {
		if at.Slug == slug && len(at.Terms) >= 2 {
			return at
		}
	}
	f.t.Fatalf("no attribute %s with two terms: %s", slug, a.body)
	return adminAttribute{}
}

func visitorGet(srv *server.Server, path string) frameAnswer {
	r, _ := http.NewRequest("GET", path, nil)
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, r)
	return frameAnswer{status: w.Code, header: w.Header(), body: w.Body.String()}
}

// DELETE …/products/{id}?force=true deletes a published product for good,
// as WooCommerce does (the integrations' clients send it so), and a plain
// DELETE only trashes.
func TestAdminProductForceDelete(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		const products = "/wp-json/wc/v3/products"
		tee, pouch := strconv.FormatInt(f.productID("cotton-tank-top"), 10), strconv.FormatInt(f.productID("zip-pouch"), 10)
		if a := f.staffCall("Mia", "DELETE", products+"/"+tee+"?force=true", ""); a.status != 200 || !strings.Contains(a.body, `"status":"publish"`) {
			t.Fatalf("force delete: %d %.300s", a.status, a.body)
		}
		if a := f.staffCall("Mia", "GET", products+"/"+tee, ""); a.status != 404 {
			t.Errorf("force-deleted product: %d %.200s", a.status, a.body)
		}
		if a := f.staffCall("Mia", "DELETE", products+"/"+pouch, ""); a.status != 200 || !strings.Contains(a.body, `"status":"trash"`) {
			t.Fatalf("trash: %d %.300s", a.status, a.body)
		}
		if a := f.staffCall("Mia", "GET", products+"/"+pouch, ""); a.status != 200 || !strings.Contains(a.body, `"status":"trash"`) {
			t.Errorf("trashed product: %d %.200s", a.status, a.body)
		}
		if a := f.staffCall("Mia", "DELETE", products+"/"+pouch+"?force=true", ""); a.status != 200 {
			t.Errorf("force delete from the trash: %d %.200s", a.status, a.body)
		}
		if a := f.staffCall("Mia", "GET", products+"/"+pouch, ""); a.status != 404 {
			t.Errorf("deleted from the trash: %d", a.status)
		}
	})
}

// GET …/products/attributes/{id} and …/{id}/terms answer one attribute and
// its terms as WooCommerce does (id, name, slug, description, menu_order,
// count), with their swatches and the paging headers; an unknown
// attribute is WooCommerce's 404.
func TestAdminAttributeTerms(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		at := f.globalAttribute("pa_color")
		base := "/wp-json/wc/v3/products/attributes/" + strconv.FormatInt(at.ID, 10)
		one := f.staffCall("Mia", "GET", base, "")
		if one.status != 200 || !strings.Contains(one.body, `"slug":"pa_color"`) {
			t.Fatalf("the attribute: %d %.300s", one.status, one.body)
		}
		a := f.staffCall("Mia", "GET", base+"/terms", "")
		var terms []map[string]any
		if a.status != 200 || json.Unmarshal([]byte(a.body), &terms) != nil || len(terms) != len(at.Terms) {
			t.Fatalf("terms: %d %.300s", a.status, a.body)
		}
		if a.header.Get("X-WP-Total") != strconv.Itoa(len(terms)) || a.header.Get("X-WP-TotalPages") != "1" {
			t.Errorf("paging headers: %v", a.header)
		}
		for _, k := range []string{"id", "name", "slug", "description", "menu_order", "count", "color"} {
			if _, ok := terms[0][k]; !ok {
				t.Errorf("a term without %q: %v", k, terms[0])
			}
		}
		if c, _ := terms[0]["color"].(string); !strings.HasPrefix(c, "#") {
			t.Errorf("a colour term's swatch: %v", terms[0])
		}
		for _, p := range []string{"/wp-json/wc/v3/products/attributes/999999", "/wp-json/wc/v3/products/attributes/999999/terms"} {
			if a := f.staffCall("Mia", "GET", p, ""); a.status != 404 || !strings.Contains(a.body, "woocommerce_rest_taxonomy_invalid") {
				t.Errorf("%s: %d %.200s", p, a.status, a.body)
			}
		}
		if a := visitorGet(f.srv, base+"/terms"); a.status != 401 {
			t.Errorf("a visitor: %d", a.status)
		}
	})
}

// The attributes list carries each attribute's filter settings (the admin's
// attributes screen shows and edits them): a PUT of filterable and
// filter_query_type is what the next GET answers; a bad query type is
// refused and changes nothing.
func TestAdminAttributeFilterSettings(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		type filterJSON struct {
			ID              int64  `json:"id"`
			Slug            string `json:"slug"`
			Filterable      *bool  `json:"filterable"`
			FilterQueryType string `json:"filter_query_type"`
		}
		read := func() filterJSON {
			t.Helper()
			a := f.staffCall("Mia", "GET", "/wp-json/wc/v3/products/attributes", "")
			var attrs []filterJSON
			if err := json.Unmarshal([]byte(a.body), &attrs); err != nil {
				t.Fatalf("attributes: %v %.300s", err, a.body)
			}
			for _, at := range attrs {
				if at.Slug == "pa_size" {
					return at
				}
			}
			t.Fatalf("no pa_size among %.300s", a.body)
			return filterJSON{}
		}
		at := read()
		if at.Filterable == nil || !*at.Filterable || at.FilterQueryType != "or" {
			t.Fatalf("the defaults: filterable %v, query type %q", at.Filterable, at.FilterQueryType)
		}
		path := "/wp-json/wc/v3/products/attributes/" + strconv.FormatInt(at.ID, 10)
		if a := f.staffCall("Mia", "PUT", path, `{"filterable":false,"filter_query_type":"and"}`); a.status != 200 {
			t.Fatalf("PUT: %d %s", a.status, a.body)
		}
		if got := read(); *got.Filterable || got.FilterQueryType != "and" {
			t.Errorf("after the PUT: filterable %v, query type %q", *got.Filterable, got.FilterQueryType)
		}
		if a := f.staffCall("Mia", "PUT", path, `{"filterable":true,"filter_query_type":"some"}`); a.status != 400 || !strings.Contains(a.body, "filter_query_type") {
			t.Errorf("a bad query type: %d %s", a.status, a.body)
		}
		if got := read(); *got.Filterable || got.FilterQueryType != "and" {
			t.Errorf("a refused PUT changed the settings: filterable %v, query type %q", *got.Filterable, got.FilterQueryType)
		}
		one := f.staffCall("Mia", "GET", path, "")
		if !strings.Contains(one.body, `"filterable":false`) || !strings.Contains(one.body, `"filter_query_type":"and"`) {
			t.Errorf("GET one: %.300s", one.body)
		}
	})
}
