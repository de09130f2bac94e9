package server_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

const batchAPI = "/wp-json/wc/store/v1/batch"

// batchResponses decodes a batch answer's responses.
func batchResponses(t *testing.T, r cartResp) []struct {
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
	Body    json.RawMessage   `json:"body"`
} {
	t.Helper()
	var out struct {
		Responses []struct {
			Status  int               `json:"status"`
			Headers map[string]string `json:"headers"`
			Body    json.RawMessage   `json:"body"`
		} `json:"responses"`
	}
	if err := json.Unmarshal([]byte(r.raw), &out); err != nil {
		t.Fatalf("batch answer: %v %s", err, r.raw)
	}
	return out.Responses
}

func TestCartHashHeader(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		tank := s.productID("cotton-tank-top")
		c := s.client()
		r := c.do("GET", cartAPI, "")
		if v, ok := r.header["Cart-Hash"]; !ok || v[0] != "" {
			t.Errorf("empty cart: Cart-Hash %v, want present and empty", r.header["Cart-Hash"])
		}
		r = c.do("POST", cartAPI+"/add-item", fmt.Sprintf(`{"id":%d,"quantity":2}`, tank))
		h := r.header.Get("Cart-Hash")
		if r.status != 201 || !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(h) {
			t.Fatalf("add: %d Cart-Hash %q", r.status, h)
		}
		// The same value the classic cart names it by (cookie and cart_hash).
		f := c.do("POST", "/?wc-ajax=get_refreshed_fragments", "time=1")
		var frag struct {
			CartHash string `json:"cart_hash"`
		}
		_ = json.Unmarshal([]byte(f.raw), &frag)
		if frag.CartHash != h {
			t.Errorf("Cart-Hash %q, fragments cart_hash %q", h, frag.CartHash)
		}
		// Reads carry it too, and any change changes it.
		if g := c.do("GET", cartAPI, ""); g.header.Get("Cart-Hash") != h {
			t.Errorf("GET: Cart-Hash %q, want %q", g.header.Get("Cart-Hash"), h)
		}
		key := r.items()[0]["key"].(string)
		if it := c.do("GET", cartAPI+"/items/"+key, ""); it.status != 200 || it.header.Get("Cart-Hash") != h {
			t.Errorf("item: %d Cart-Hash %q", it.status, it.header.Get("Cart-Hash"))
		}
		u := c.do("POST", cartAPI+"/update-item", fmt.Sprintf(`{"key":%q,"quantity":3}`, key))
		if u.status != 200 || u.header.Get("Cart-Hash") == h || u.header.Get("Cart-Hash") == "" {
			t.Errorf("update: %d Cart-Hash %q (was %q)", u.status, u.header.Get("Cart-Hash"), h)
		}
		if d := c.do("POST", cartAPI+"/remove-item", fmt.Sprintf(`{"key":%q}`, key)); d.header.Get("Cart-Hash") != "" {
			t.Errorf("emptied cart: Cart-Hash %q", d.header.Get("Cart-Hash"))
		}
	})
}

func TestCartBatch(t *testing.T) {
	t.Parallel()
	eachShop(t, func(t *testing.T, s *shop) {
		tank := s.productID("cotton-tank-top")
		gift := s.productID("gift-card-50")

		t.Run("runs each request in one session", func(t *testing.T) {
			c := s.client()
			c.do("GET", cartAPI, "") // the anonymous nonce
			r := c.do("POST", batchAPI, fmt.Sprintf(`{"requests":[
				{"path":"/wc/store/v1/cart/add-item","method":"POST","body":{"id":%d,"quantity":2}},
				{"path":"/wc/store/v1/cart/add-item","body":{"id":%d}},
				{"path":"/wc/store/v1/cart/add-item","body":{"id":999999}},
				{"path":"/wc/store/v1/cart/nope"}]}`, tank, gift))
			if r.status != 207 {
				t.Fatalf("batch: %d %s", r.status, r.raw)
			}
			res := batchResponses(t, r)
			if len(res) != 4 || res[0].Status != 201 || res[1].Status != 201 || res[2].Status != 400 || res[3].Status != 404 {
				t.Fatalf("statuses: %+v", res)
			}
			if !strings.Contains(string(res[2].Body), "woocommerce_rest_cart_invalid_product") ||
				!strings.Contains(string(res[3].Body), "rest_no_route") || res[1].Headers["Cart-Hash"] == "" {
				t.Errorf("bodies: %s / %s, headers %v", res[2].Body, res[3].Body, res[1].Headers)
			}
			// The second add's answer holds both lines: one session.
			var second struct {
				Items []struct{ ID int64 } `json:"items"`
			}
			_ = json.Unmarshal(res[1].Body, &second)
			if len(second.Items) != 2 {
				t.Errorf("second answer: %s", res[1].Body)
			}
			// The batch set the session cookie: the cart is there.
			g := c.do("GET", cartAPI, "")
			if len(g.items()) != 2 || g.body["items_count"].(float64) != 3 {
				t.Errorf("cart after batch: %s", g.raw)
			}
			key := g.items()[0]["key"].(string)
			// REST item routes, and the nonce the cart now answers.
			r = c.do("POST", batchAPI, fmt.Sprintf(`{"requests":[
				{"path":"/wc/store/v1/cart/items/%s","method":"PUT","body":{"quantity":5}},
				{"path":"/wp-json/wc/store/v1/cart/items/%s","method":"DELETE"}]}`, key, key))
			res = batchResponses(t, r)
			if r.status != 207 || len(res) != 2 || res[0].Status != 200 || res[1].Status != 204 {
				t.Fatalf("item routes: %d %s", r.status, r.raw)
			}
			if g := c.do("GET", cartAPI, ""); len(g.items()) != 1 {
				t.Errorf("after delete: %s", g.raw)
			}
		})

		t.Run("nonce rules of each route", func(t *testing.T) {
			c := s.client()
			r := c.do("POST", batchAPI, fmt.Sprintf(`{"requests":[{"path":"/wc/store/v1/cart/add-item","body":{"id":%d}}]}`, tank))
			res := batchResponses(t, r)
			if r.status != 207 || len(res) != 1 || res[0].Status != 401 || !strings.Contains(string(res[0].Body), "woocommerce_rest_missing_nonce") {
				t.Fatalf("no nonce: %d %s", r.status, r.raw)
			}
			r = c.do("POST", batchAPI, fmt.Sprintf(`{"requests":[{"path":"/wc/store/v1/cart/add-item","body":{"id":%d},"headers":{"Nonce":"0123456789"}}]}`, tank))
			if res := batchResponses(t, r); res[0].Status != 403 {
				t.Errorf("bad nonce: %s", r.raw)
			}
			if len(r.header.Values("Set-Cookie")) != 0 {
				t.Errorf("a batch without a write set a cookie: %v", r.header.Values("Set-Cookie"))
			}
			// A Cart-Token needs no nonce.
			tc := s.client()
			tc.do("GET", cartAPI, "")
			tc.useTok = true
			r = tc.do("POST", batchAPI, fmt.Sprintf(`{"requests":[{"path":"/wc/store/v1/cart/add-item","body":{"id":%d}}]}`, tank))
			if res := batchResponses(t, r); res[0].Status != 201 {
				t.Errorf("token: %s", r.raw)
			}
		})

		t.Run("refused batches run nothing", func(t *testing.T) {
			c := s.client()
			c.do("GET", cartAPI, "")
			add := fmt.Sprintf(`{"path":"/wc/store/v1/cart/add-item","body":{"id":%d}}`, tank)
			for name, tc := range map[string]struct {
				body, code string
			}{
				"too many":     {`{"requests":[` + strings.TrimSuffix(strings.Repeat(add+",", 26), ",") + `]}`, "rest_invalid_param"},
				"not a cart":   {`{"requests":[` + add + `,{"path":"/wc/store/v1/products","method":"POST"}]}`, "woocommerce_rest_invalid_path"},
				"other site":   {`{"requests":[` + add + `,{"path":"https://evil.example/wc/store/v1/cart/add-item"}]}`, "woocommerce_rest_invalid_path"},
				"GET method":   {`{"requests":[` + add + `,{"path":"/wc/store/v1/cart","method":"GET"}]}`, "rest_invalid_param"},
				"no requests":  {`{"nope":1}`, "rest_invalid_param"},
				"body array":   {`{"requests":[{"path":"/wc/store/v1/cart/add-item","body":[1]}]}`, "rest_invalid_param"},
				"invalid JSON": {`{"requests":`, "rest_invalid_param"},
			} {
				r := c.do("POST", batchAPI, tc.body)
				if r.status != 400 || r.code() != tc.code {
					t.Errorf("%s: %d %s", name, r.status, r.raw)
				}
			}
			if g := c.do("GET", cartAPI, ""); len(g.items()) != 0 {
				t.Errorf("a refused batch changed the cart: %s", g.raw)
			}
			// Exactly 25 is fine.
			r := c.do("POST", batchAPI, `{"requests":[`+strings.TrimSuffix(strings.Repeat(add+",", 25), ",")+`]}`)
			if res := batchResponses(t, r); r.status != 207 || len(res) != 25 || res[24].Status != 201 {
				t.Errorf("25 requests: %d", r.status)
			}
			if g := c.do("GET", cartAPI, ""); len(g.items()) != 1 || g.items()[0]["quantity"].(float64) != 25 {
				t.Errorf("after 25 adds: %s", g.raw)
			}
		})
	})
}
