package server_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"sort"
	"strings"
	"testing"

	"vitrine/internal/catalog"
	"vitrine/internal/storage/sqlstore"
)

// wcAjax posts a form to /?wc-ajax=endpoint.
func (s *shop) wcAjax(endpoint string, form url.Values) *http.Response {
	s.t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/?wc-ajax="+url.QueryEscape(endpoint), strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	s.srv.ServeHTTP(rec, req)
	return rec.Result()
}

func productID(t testing.TB, db *sqlstore.DB, slug string) string {
	t.Helper()
	p, err := db.ProductBySlug(t.Context(), slug)
	if err != nil {
		t.Fatalf("%s: %v", slug, err)
	}
	return itoa(p.ID)
}

func TestGetVariation(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		tee := productID(t, s.db, "classic-tee")
		form := func(pairs ...string) url.Values {
			v := url.Values{}
			for i := 0; i+1 < len(pairs); i += 2 {
				v.Set(pairs[i], pairs[i+1])
			}
			return v
		}
		wantHeaders := func(name string, r *http.Response) {
			t.Helper()
			for h, want := range map[string]string{
				"Content-Type": "application/json; charset=UTF-8", "X-Robots-Tag": "noindex",
				"Cache-Control": "no-cache, must-revalidate, max-age=0, no-store, private",
			} {
				if got := r.Header.Get(h); got != want {
					t.Errorf("%s: %s = %q, want %q", name, h, got, want)
				}
			}
		}

		// A full match, with exact stock.
		r := s.wcAjax("get_variation", form("product_id", tee, "attribute_pa_color", "rust", "attribute_pa_size", "xxl"))
		if r.StatusCode != 200 {
			t.Fatalf("status %d", r.StatusCode)
		}
		wantHeaders("match", r)
		raw := body(t, r)
		var v map[string]any
		if err := json.Unmarshal([]byte(raw), &v); err != nil {
			t.Fatalf("not JSON: %v: %s", err, raw)
		}
		if attrs, _ := v["attributes"].(map[string]any); attrs["attribute_pa_color"] != "rust" || attrs["attribute_pa_size"] != "xxl" {
			t.Errorf("attributes %v", v["attributes"])
		}
		if v["variation_stock_left"] != float64(3) || v["is_in_stock"] != true || v["is_purchasable"] != true {
			t.Errorf("rust xxl: stock left %v, in stock %v, purchasable %v", v["variation_stock_left"], v["is_in_stock"], v["is_purchasable"])
		}
		// Every key of WooCommerce's answer is there.
		ref, err := os.ReadFile("testdata/wc-ajax-get_variation.json")
		if err != nil {
			t.Fatal(err)
		}
		var want map[string]any
		if err := json.Unmarshal(ref, &want); err != nil {
			t.Fatal(err)
		}
		var missing []string
		for k := range want {
			switch k {
			case "gallery_image_ids", "gallery_images_html": // the gallery plugin's keys, not core
				continue
			}
			if _, ok := v[k]; !ok {
				missing = append(missing, k)
			}
		}
		wantImg, _ := want["image"].(map[string]any)
		gotImg, _ := v["image"].(map[string]any)
		for k := range wantImg {
			if _, ok := gotImg[k]; !ok {
				missing = append(missing, "image."+k)
			}
		}
		sort.Strings(missing)
		if len(missing) > 0 {
			t.Errorf("keys missing from the answer: %v", missing)
		}

		// Out of stock is still the match (the form shows it unavailable).
		v = decode[map[string]any](t, s.wcAjax("get_variation", form("product_id", tee, "attribute_pa_color", "navy", "attribute_pa_size", "xs")))
		if v["is_in_stock"] != false || v["sku"] == "" {
			t.Errorf("navy xs: %v", v)
		}

		// An "any" size matches every size; the variation keeps "".
		ls := productID(t, s.db, "heavyweight-long-sleeve-tee")
		v = decode[map[string]any](t, s.wcAjax("get_variation", form("product_id", ls, "attribute_pa_color", "navy", "attribute_pa_size", "m")))
		if attrs, _ := v["attributes"].(map[string]any); attrs["attribute_pa_color"] != "navy" || attrs["attribute_pa_size"] != "" {
			t.Errorf("any size: %v", v["attributes"])
		}

		// GET works as well.
		if b := body(t, s.get("/?wc-ajax=get_variation&product_id="+tee+"&attribute_pa_color=navy&attribute_pa_size=m")); !strings.Contains(b, `"variation_id"`) {
			t.Errorf("GET: %s", b)
		}

		// No match and incomplete selections: false.
		for name, f := range map[string]url.Values{
			"no such colour":   form("product_id", tee, "attribute_pa_color", "purple", "attribute_pa_size", "m"),
			"no size":          form("product_id", tee, "attribute_pa_color", "navy"),
			"empty size":       form("product_id", tee, "attribute_pa_color", "navy", "attribute_pa_size", ""),
			"no attributes":    form("product_id", tee),
			"any but no value": form("product_id", ls, "attribute_pa_color", "navy"),
		} {
			r := s.wcAjax("get_variation", f)
			wantHeaders(name, r)
			if b := body(t, r); r.StatusCode != 200 || b != "false" {
				t.Errorf("%s: %d %q, want 200 false", name, r.StatusCode, b)
			}
		}

		// Missing, unknown, bad or non-variable products: an empty body.
		simple := productID(t, s.db, "mountain-line-tee")
		draft := productID(t, s.db, "alpaca-cardigan")
		for name, f := range map[string]url.Values{
			"missing":      form("attribute_pa_color", "navy", "attribute_pa_size", "m"),
			"unknown":      form("product_id", "99999999", "attribute_pa_color", "navy", "attribute_pa_size", "m"),
			"non-numeric":  form("product_id", "abc", "attribute_pa_color", "navy"),
			"negative":     form("product_id", "-3"),
			"huge":         form("product_id", strings.Repeat("9", 40)),
			"simple":       form("product_id", simple),
			"draft simple": form("product_id", draft),
			"variation id": form("product_id", itoa(atoi(tee)+1), "attribute_pa_color", "navy", "attribute_pa_size", "m"),
		} {
			r := s.wcAjax("get_variation", f)
			if b := body(t, r); r.StatusCode != 200 || b != "" {
				t.Errorf("%s: %d %q, want 200 and an empty body", name, r.StatusCode, b)
			}
		}
		// Bytes that are not text are refused at the edge, in the shop
		// ajax's shape (internal/server/edge.go), before the handler.
		r = s.wcAjax("get_variation", form("product_id", "\x00\xff", "attribute_pa_color", strings.Repeat("\xff", 5000)))
		if b := body(t, r); r.StatusCode != 400 || !strings.Contains(b, `"code":"vitrine_invalid_text"`) || !strings.Contains(b, `"error":true`) {
			t.Errorf("binary fields: %d %q, want the edge's 400", r.StatusCode, b)
		}

		// A draft variable product: empty.
		editProduct(t, s.db, "classic-tee", func(p *catalog.Product) {
			p.Status = catalog.StatusDraft
		})
		if b := body(t, s.wcAjax("get_variation", form("product_id", tee, "attribute_pa_color", "navy", "attribute_pa_size", "m"))); b != "" {
			t.Errorf("draft: %q", b)
		}

		// Unknown endpoint: 400 "0". POST / without wc-ajax: 405.
		r = s.wcAjax("no_such_thing", form("product_id", tee))
		if b := body(t, r); r.StatusCode != 400 || b != "0" {
			t.Errorf("unknown endpoint: %d %q", r.StatusCode, b)
		}
		if r := s.get("/?wc-ajax="); r.StatusCode != 400 {
			t.Errorf("empty endpoint: %d", r.StatusCode)
		}
		if r := postForm(s, "/", url.Values{"a": {"b"}}); r.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("POST / without wc-ajax: %d", r.StatusCode)
		}
		// The home page itself is unchanged.
		if r := s.get("/"); r.StatusCode != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
			t.Errorf("home: %d %s", r.StatusCode, r.Header.Get("Content-Type"))
		}
	})
}
