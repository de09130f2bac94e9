package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"vitrine/internal/account"
	"vitrine/internal/alerts"
	"vitrine/internal/botcheck"
	"vitrine/internal/catalog"
)

// Back-in-stock alerts through the real server: the notify form on a
// cached product page (no personal data), its post (bad input answered in
// the REST error shape, changing nothing), the guest's confirmation link
// (a page with a button; the POST works once), a customer's one click,
// the restock worker, and the unsubscribe link's one-click POST without
// login.

func alertRows(t *testing.T, s *shop) int {
	t.Helper()
	var n int
	if err := s.db.Read.GetContext(context.Background(), &n, `SELECT COUNT(*) FROM stock_alerts`); err != nil {
		t.Fatal(err)
	}
	return n
}

// soldOutSimple saves a published simple product with no stock.
func soldOutSimple(t *testing.T, s *shop, slug string) *catalog.Product {
	t.Helper()
	zero, price := int64(0), int64(3000)
	p := &catalog.Product{Type: catalog.TypeSimple, Name: "Sold Out Jug", Slug: slug, Status: catalog.StatusPublish,
		CatalogVisibility: "visible", RegularPrice: &price, ManageStock: true, StockQuantity: &zero, StockStatus: catalog.StockOutOfStock,
		Backorders: catalog.BackordersNo, TaxStatus: "taxable"}
	if _, err := s.db.SaveProduct(context.Background(), p, nil); err != nil {
		t.Fatal(err)
	}
	return p
}

func (c *client) solve(purpose string) string {
	c.s.t.Helper()
	r := c.do("GET", "/wp-json/vitrine/v1/botcheck/"+purpose, "")
	var ch botcheck.Challenge
	if r.status != 200 || json.Unmarshal([]byte(r.raw), &ch) != nil {
		c.s.t.Fatalf("challenge: %d %s", r.status, r.raw)
	}
	p, err := botcheck.Solve(ch)
	if err != nil {
		c.s.t.Fatal(err)
	}
	return p
}

var alertToken = regexp.MustCompile(`token=([A-Za-z0-9_%.-]+)`)

func TestStockAlertsHTTP(t *testing.T) {
	eachShop(t, func(t *testing.T, s *shop) {
		ctx := context.Background()
		p := soldOutSimple(t, s, "sold-out-jug")

		// The cached page holds the form, the same for everyone.
		res := s.get("/product/sold-out-jug/")
		body, _ := io.ReadAll(res.Body)
		html := string(body)
		if res.StatusCode != 200 || !strings.Contains(html, `action="/stock-alerts/subscribe/"`) || !strings.Contains(html, "Notify me when available") ||
			!strings.Contains(html, `name="product_id" value="`+strconv.FormatInt(p.ID, 10)+`"`) {
			t.Fatalf("product page: %d, no notify form", res.StatusCode)
		}

		guest := s.client()
		post := func(c *client, form url.Values) cartResp {
			return c.do("POST", alerts.SubscribePath, form.Encode(), "Accept", "application/json")
		}
		id := strconv.FormatInt(p.ID, 10)
		for _, tc := range []struct {
			form   url.Values
			status int
			code   string
		}{
			{url.Values{"product_id": {id}, "email": {"garbage"}, "altcha": {guest.solve("stock-alert")}}, 400, "vitrine_alert_invalid_email"},
			{url.Values{"product_id": {id}, "email": {"ann@example.com"}}, 403, "vitrine_botcheck_failed"},
			{url.Values{"product_id": {id}, "email": {"ann@example.com"}, "altcha": {guest.solve("login")}}, 403, "vitrine_botcheck_failed"},
			{url.Values{"product_id": {"999999"}, "email": {"ann@example.com"}, "altcha": {guest.solve("stock-alert")}}, 404, "vitrine_alert_unknown_product"},
			{url.Values{"product_id": {"abc"}, "email": {"ann@example.com"}}, 404, "vitrine_alert_unknown_product"},
		} {
			r := post(guest, tc.form)
			if r.status != tc.status || r.body["code"] != tc.code {
				t.Errorf("%v: %d %s", tc.form, r.status, r.raw)
			}
		}
		tee, err := s.db.ProductBySlug(ctx, "classic-tee")
		if err != nil {
			t.Fatal(err)
		}
		if r := post(guest, url.Values{"product_id": {strconv.FormatInt(tee.ID, 10)}, "email": {"ann@example.com"}, "altcha": {guest.solve("stock-alert")}}); r.status != 400 || r.body["code"] != "vitrine_alert_choose_option" {
			t.Errorf("variable product: %d %s", r.status, r.raw)
		}
		if r := guest.do("POST", alerts.SubscribePath, `{"product_id":1}`, "Accept", "application/json"); r.status != 415 {
			t.Errorf("JSON body: %d", r.status)
		}
		if n := alertRows(t, s); n != 0 {
			t.Fatalf("refusals stored %d alerts", n)
		}

		// A guest subscribes: pending until the mailed link is confirmed.
		r := post(guest, url.Values{"product_id": {id}, "email": {"Ann@Example.com"}, "altcha": {guest.solve("stock-alert")}})
		if r.status != 200 || r.body["status"] != "pending" || r.header.Get("Cache-Control") != "no-store, private" {
			t.Fatalf("subscribe: %d %s", r.status, r.raw)
		}
		var ref string
		if err := s.db.Read.GetContext(ctx, &ref, s.db.Read.Rebind(`SELECT ref FROM mail_outbox WHERE kind = ?`), alerts.MailConfirm); err != nil {
			t.Fatal(err)
		}
		links := alerts.MailLinks{BaseURL: "https://shop.example"}
		m, err := s.srv.Alerts().Renderer(links)(ctx, alerts.MailConfirm, ref)
		if err != nil {
			t.Fatal(err)
		}
		tok, _ := url.QueryUnescape(alertToken.FindStringSubmatch(m.Text)[1])
		page := guest.do("GET", alerts.ConfirmPath+"?token="+url.QueryEscape(tok), "")
		if page.status != 200 || !strings.Contains(page.raw, "Confirm alert") || !strings.Contains(page.raw, "Sold Out Jug") {
			t.Fatalf("confirm page: %d", page.status)
		}
		if n := guest.do("GET", alerts.ConfirmPath+"?token=nope", "").status; n != 410 {
			t.Errorf("unknown token page: %d", n)
		}
		if r := guest.do("POST", alerts.ConfirmPath, url.Values{"token": {tok}}.Encode()); r.status != 200 {
			t.Fatalf("confirm: %d", r.status)
		}
		if r := guest.do("POST", alerts.ConfirmPath, url.Values{"token": {tok}}.Encode()); r.status != 410 {
			t.Fatalf("second confirm: %d", r.status)
		}

		// A customer: one click, no bot-check, waiting at once.
		cust, _ := s.customer("cy@example.com")
		if r := post(cust, url.Values{"product_id": {id}}); r.status != 200 || r.body["status"] != "waiting" {
			t.Fatalf("customer: %d %s", r.status, r.raw)
		}

		// In stock: a clear refusal.
		three := int64(3)
		p.StockQuantity, p.StockStatus = &three, catalog.StockInStock
		if _, err := s.db.SaveProduct(ctx, p, nil); err != nil {
			t.Fatal(err)
		}
		if r := post(guest, url.Values{"product_id": {id}, "email": {"dee@example.com"}, "altcha": {guest.solve("stock-alert")}}); r.status != 409 || r.body["code"] != "vitrine_alert_in_stock" {
			t.Errorf("in stock: %d %s", r.status, r.raw)
		}
		// The restock worker queues both mails once.
		if n := s.srv.RestockUpkeep(ctx); n != 2 {
			t.Fatalf("restock queued %d", n)
		}
		if n := s.srv.RestockUpkeep(ctx); n != 0 {
			t.Fatalf("second pass queued %d", n)
		}
		var refs []string
		if err := s.db.Read.SelectContext(ctx, &refs, s.db.Read.Rebind(`SELECT ref FROM mail_outbox WHERE kind = ? ORDER BY id`), alerts.MailBackInStock); err != nil || len(refs) != 2 {
			t.Fatalf("queued: %v %v", refs, err)
		}
		m, err = s.srv.Alerts().Renderer(links)(ctx, alerts.MailBackInStock, refs[0])
		if err != nil || len(m.ListUnsubscribe) != 1 {
			t.Fatalf("mail: %+v %v", m, err)
		}
		u, _ := url.Parse(m.ListUnsubscribe[0])
		// GET shows a button; a bad token is refused; the one-click POST
		// (no cookies, no origin) unsubscribes.
		anon := s.client()
		if r := anon.do("GET", u.RequestURI(), ""); r.status != 200 || !strings.Contains(r.raw, ">Unsubscribe</button>") {
			t.Fatalf("unsubscribe page: %d", r.status)
		}
		if r := anon.do("GET", alerts.UnsubscribePath+"?token=a1.xyz", ""); r.status != 400 {
			t.Errorf("bad token page: %d", r.status)
		}
		if r := anon.do("POST", alerts.UnsubscribePath+"?token=a1.xyz", "List-Unsubscribe=One-Click"); r.status != 400 {
			t.Errorf("bad token post: %d", r.status)
		}
		if r := anon.do("POST", u.RequestURI(), "List-Unsubscribe=One-Click"); r.status != 200 {
			t.Fatalf("one-click: %d %s", r.status, r.raw)
		}
		if _, err := s.srv.Alerts().Renderer(links)(ctx, alerts.MailBackInStock, refs[0]); err == nil {
			t.Error("an unsubscribed alert still renders")
		}
	})
}

// The admin's figures and a customer's choices: staff only, and the
// customer's own, with their REST nonce.
func TestStockAlertsAdminAndPrefs(t *testing.T) {
	each(t, newInboxShop, func(t *testing.T, f *frameShop) {
		p := soldOutSimple(t, f.shop, "sold-out-vase")
		id := strconv.FormatInt(p.ID, 10)
		u := &account.User{ID: f.users["Carla"], Email: "carla@example.com"}
		if _, err := f.srv.Alerts().Subscribe(context.Background(), alerts.SubscribeInput{ItemID: p.ID, User: u}); err != nil {
			t.Fatal(err)
		}
		const list = "/wp-json/vitrine/v1/admin/stock-alerts"
		f.wantStaffOnly([]adminCall{{"GET", list, ""}, {"GET", list + "/" + id, ""}})
		a := f.as("Mia", "GET", list+"/"+id, "")
		var counts []alerts.Counts
		if a.status != 200 || json.Unmarshal([]byte(a.body), &counts) != nil || len(counts) != 1 || counts[0].Waiting != 1 {
			t.Fatalf("product counts: %d %s", a.status, a.body)
		}
		a = f.as("Mia", "GET", list, "")
		if a.status != 200 || !strings.Contains(a.body, `"product_id":`+id) {
			t.Fatalf("totals: %d %s", a.status, a.body)
		}
		f.wantRefusals("Mia", []refusal{
			{"GET", list + "?limit=0", "", 400, "rest_invalid_param"},
			{"GET", list + "/999999", "", 404, "woocommerce_rest_product_invalid_id"},
			{"GET", list + "/abc", "", 404, "woocommerce_rest_product_invalid_id"},
		})

		const prefs = "/wp-json/vitrine/v1/alerts/prefs"
		wantError(t, "visitor prefs", f.as("", "GET", prefs, ""), 401, "rest_not_logged_in")
		if a := f.as("Carla", "GET", prefs, ""); a.status != 200 || a.body != `{"back_in_stock":false,"price_drop":false}` {
			t.Fatalf("prefs: %d %s", a.status, a.body)
		}
		for _, bad := range []string{`{}`, `{"back_in_stock":true}`, `{"back_in_stock":"yes","price_drop":true}`, `{"back_in_stock":true,"price_drop":true,"x":1}`, `nope`} {
			wantError(t, "prefs "+bad, f.as("Carla", "POST", prefs, bad), 400, "rest_invalid_param")
		}
		if a := f.as("Carla", "POST", prefs, `{"back_in_stock":true,"price_drop":false}`); a.status != 200 {
			t.Fatalf("save prefs: %d %s", a.status, a.body)
		}
		if got, _ := f.srv.Alerts().Prefs(context.Background(), f.users["Carla"]); !got.BackInStock || got.PriceDrop {
			t.Fatalf("saved: %+v", got)
		}
	})
}
