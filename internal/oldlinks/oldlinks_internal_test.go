package oldlinks

import (
	"net/url"
	"strings"
	"testing"

	"vitrine/internal/catalog"
)

func TestAsks(t *testing.T) {
	for q, want := range map[string]bool{
		"p=12": true, "page_id=3": true, "post_type=product": true, "product_id=4": true, "product=tee": true,
		"product_cat=hoodies": true, "product_tag=new": true, "attachment_id=9": true,
		"": false, "utm_source=x": false, "orderby=price": false, "p=": false, "product_cat=&x=1": false,
		"post_type=post": false, "post_type=page&page_id=4": true,
		"s=tee&post_type=product&product_cat=hoodies": false, // the shop's search
		"add-to-cart=12&product_id=12":                false, // the no-script add to cart
		"wc-ajax=get_refreshed_fragments&p=1":         false,
	} {
		v, err := url.ParseQuery(q)
		if err != nil {
			t.Fatal(err)
		}
		if got := Asks(v); got != want {
			t.Errorf("Asks(%q) = %v", q, got)
		}
	}
}

func TestWithQuery(t *testing.T) {
	cases := []struct {
		target, extra, raw string
		drop               map[string]bool
		want               string
	}{
		{"/product/tee/", "", "", nil, "/product/tee/"},
		{"/product/tee/", "", "utm_source=a&utm_medium=b", nil, "/product/tee/?utm_source=a&utm_medium=b"},
		{"/product/tee/", "", "p=5&utm_source=a&%70age_id=3", lookupKeys, "/product/tee/?utm_source=a"},
		{"/product/tee/", "attribute_pa_color=red", "attribute_pa_color=blue&ref=x", lookupKeys, "/product/tee/?attribute_pa_color=red&ref=x"},
		{"/shop/", "", "post_type=product&&orderby=price", lookupKeys, "/shop/?orderby=price"},
	}
	for _, c := range cases {
		if got := withQuery(c.target, c.extra, c.raw, c.drop); got != c.want {
			t.Errorf("withQuery(%q, %q, %q) = %q, want %q", c.target, c.extra, c.raw, got, c.want)
		}
	}
}

func TestLocal(t *testing.T) {
	for target, want := range map[string]bool{
		"/product/tee/": true, "/shop/?a=b": true,
		"": false, "/": false, "//evil.example/": false, "/\\evil.example": false, "https://evil.example/": false,
		"evil.example": false, "/product/x/\r\nSet-Cookie: a=b": false,
	} {
		if got := local(target); got != want {
			t.Errorf("local(%q) = %v", target, got)
		}
	}
}

func TestOldID(t *testing.T) {
	for v, want := range map[string]int64{"12": 12, "007": 7, "": 0, "0": 0, "-3": 0, "1e3": 0, " 12": 0, "12abc": 0,
		"//evil.example": 0, "99999999999999999999": 0} {
		if got, ok := oldID(v); got != want || ok != (want > 0) {
			t.Errorf("oldID(%q) = %d %v", v, got, ok)
		}
	}
}

func TestLookable(t *testing.T) {
	for s, want := range map[string]bool{"/product/tee/": true, "/produkt/grüße/": true, "/a\x00/": false,
		"/a\r\n/": false, "/\xff/": false, string(make([]byte, maxPath+1)): false} {
		if got := lookable(s); got != want {
			t.Errorf("lookable(%q) = %v", s, got)
		}
	}
}

func TestWPEscape(t *testing.T) {
	if got := wpEscape("/product/日本-tee/"); got != "/product/%e6%97%a5%e6%9c%ac-tee/" {
		t.Errorf("wpEscape: %q", got)
	}
}

func TestCategoryPath(t *testing.T) {
	cats := []catalog.Category{{ID: 1, Slug: "clothing"}, {ID: 2, ParentID: 1, Slug: "hoodies"},
		{ID: 3, ParentID: 2, Slug: "zip up"}, {ID: 4, ParentID: 5, Slug: "loop"}, {ID: 5, ParentID: 4, Slug: "back"}}
	for id, want := range map[int64]string{1: "/product-category/clothing/", 2: "/product-category/clothing/hoodies/",
		3: "/product-category/clothing/hoodies/zip%20up/", 4: "/product-category/back/loop/"} {
		if got := categoryPath(cats, id); got != want {
			t.Errorf("categoryPath(%d) = %q, want %q", id, got, want)
		}
	}
}

func TestPermalinkLike(t *testing.T) {
	for p, want := range map[string]bool{"/product/tee/": true, "/about/team": true, "/a.b/team/": true,
		"/wp-login.php": false, "/.env": false, "/product/tee.html": false, "/xmlrpc.php/": false} {
		if got := permalinkLike(p); got != want {
			t.Errorf("permalinkLike(%q) = %v", p, got)
		}
	}
}

// Whatever query a request carries, the target stays the path resolved,
// on this shop, without the lookup's own keys.
func FuzzWithQuery(f *testing.F) {
	for _, s := range []string{"", "utm_source=a", "p=5&%70=6&x", "a=%zz&&b", "attribute_pa_color=x&%2F%2Fevil=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if _, err := url.ParseQuery(raw); err == nil {
			for _, c := range raw {
				if c < 0x20 || c == 0x7f {
					return // a request's URL holds no control characters
				}
			}
		} else if len(raw) > 0 {
			return
		}
		got := withQuery("/product/tee/", "attribute_pa_color=red", raw, lookupKeys)
		if !local(got) || !strings.HasPrefix(got, "/product/tee/?attribute_pa_color=red") {
			t.Fatalf("withQuery(%q) = %q", raw, got)
		}
		q, _ := url.ParseQuery(strings.SplitN(got, "?", 2)[1])
		for k := range lookupKeys {
			if q.Has(k) {
				t.Fatalf("withQuery(%q) = %q keeps %q", raw, got, k)
			}
		}
		if q["attribute_pa_color"][0] != "red" {
			t.Fatalf("withQuery(%q) = %q: the variation's choice lost", raw, got)
		}
	})
}
