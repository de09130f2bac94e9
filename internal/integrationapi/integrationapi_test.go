package integrationapi

import (
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"vitrine/internal/integration"
)

func TestAuthorizationParams(t *testing.T) {
	got := authorizationParams(`OAuth realm="Example", oauth_consumer_key="ck_1", oauth_signature="a%2Bb%2F%3D",oauth_nonce="x y", other="1", oauth_bad`)
	want := map[string]string{"oauth_consumer_key": "ck_1", "oauth_signature": "a+b/=", "oauth_nonce": "x y"}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	for _, h := range []string{"", "Basic Y2s6Y3M=", "Bearer x", "OAuth"} {
		if got := authorizationParams(h); len(got) != 0 {
			t.Errorf("%q: %v", h, got)
		}
	}
}

// The header's oauth_* parameters replace the query's of the same name;
// the query's own parameters stay, a repeated plain name once with its
// last value (as PHP's $_GET, and as WooCommerce's JavaScript client,
// which sends per_page twice, signs it), array names with every value.
func TestOAuthParams(t *testing.T) {
	r := httptest.NewRequest("GET", "/wp-json/wc/v3/products?per_page=1&per_page=2&oauth_nonce=query&include%5B%5D=1&include%5B%5D=2&search=a+b", nil)
	r.Header.Set("Authorization", `OAuth oauth_nonce="header", oauth_consumer_key="ck_1"`)
	var got []string
	for _, p := range oauthParams(r) {
		got = append(got, p.Name+"="+p.Value)
	}
	slices.Sort(got)
	want := []string{"include[]=1", "include[]=2", "oauth_consumer_key=ck_1", "oauth_nonce=header", "per_page=2", "search=a b"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestSignedURLs(t *testing.T) {
	a := New(Deps{BaseURL: "https://shop.example"})
	r := httptest.NewRequest("GET", "http://127.0.0.1:8080/wp-json/wc/v3/products/12?x=1", nil)
	if got := a.signedURLs(r); !slices.Equal(got, []string{"http://shop.example/wp-json/wc/v3/products/12", "http://127.0.0.1:8080/wp-json/wc/v3/products/12"}) {
		t.Errorf("got %v", got)
	}
	r = httptest.NewRequest("GET", "http://shop.example/wp-json/wc/v3/products", nil)
	if got := a.signedURLs(r); !slices.Equal(got, []string{"http://shop.example/wp-json/wc/v3/products"}) {
		t.Errorf("same host twice: %v", got)
	}
}

// Whatever the header and query hold, reading them never panics and
// yields only oauth_* names from the header.
func FuzzOAuthParams(f *testing.F) {
	f.Add(`OAuth realm="r", oauth_consumer_key="ck_1", oauth_signature="a%2B"`, "per_page=1&oauth_nonce=n")
	f.Add(`OAuth oauth_nonce="%zz", =, ,,`, "%zz&a=&=b")
	f.Fuzz(func(t *testing.T, header, query string) {
		for name := range authorizationParams(header) {
			if !strings.HasPrefix(name, "oauth_") {
				t.Fatalf("header name %q", name)
			}
		}
		r := httptest.NewRequest("GET", "/wp-json/wc/v3/products", nil)
		r.URL.RawQuery = query
		r.Header.Set("Authorization", header)
		_ = integration.IsOAuth(oauthParams(r))
	})
}
