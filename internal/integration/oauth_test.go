package integration_test

import (
	"testing"

	"vitrine/internal/integration"
)

// The signature base string of RFC 5849, section 3.4.1.1's example: query,
// body and Authorization header parameters together, realm and
// oauth_signature left out, a repeated name sorted by value, a value
// encoded twice.
func TestBaseStringRFC5849(t *testing.T) {
	params := kv("b5", "=%3D", "a3", "a", "c@", "", "a2", "r b", "oauth_consumer_key", "9djdj82h48djs9d2", "oauth_token", "kkk9d7dh3k39sjv7", "oauth_signature_method", "HMAC-SHA1", "oauth_timestamp", "137131201", "oauth_nonce", "7d8f3e4a", "oauth_signature", "djosJKDKJSD8743243%2Fjdk33klY%3D", "c2", "", "a3", "2 q")
	want := "POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7"
	if got := integration.BaseString("post", "http://example.com/request", params); got != want {
		t.Errorf("base string:\n got %s\nwant %s", got, want)
	}
}

// RFC 5849, section 1.2's signed request: HMAC-SHA1 with the client and
// token secrets.
func TestSignHMACSHA1RFC5849(t *testing.T) {
	params := kv("file", "vacation.jpg", "size", "original", "oauth_consumer_key", "dpf43f3p2l4k3l03", "oauth_token", "nnch734d00sl2jdk", "oauth_signature_method", "HMAC-SHA1", "oauth_timestamp", "137131202", "oauth_nonce", "chapoH")
	base := integration.BaseString("GET", "http://photos.example.net/photos", params)
	sig, ok := integration.Sign(integration.HMACSHA1, "kd94hf93k423kf44&pfkkdhi9sl3r4s00", base)
	if !ok || sig != "MdpQcU8iPSUjWoN/UDMsK2sui9I=" {
		t.Errorf("signature %q %v", sig, ok)
	}
	if _, ok := integration.Sign("PLAINTEXT", "k&", base); ok {
		t.Error("PLAINTEXT signed")
	}
}

// A request as WooCommerce's REST clients sign it over plain HTTP: the
// query's own parameters next to the oauth_* ones, one-legged (the key is
// the secret and "&"). The expected values were computed apart, with
// Python's hmac and urllib.parse.quote.
func TestSignWooCommerceRequest(t *testing.T) {
	params := wooParams()
	base := integration.BaseString("GET", "http://shop.example/wp-json/wc/v3/products", params)
	want := "GET&http%3A%2F%2Fshop.example%2Fwp-json%2Fwc%2Fv3%2Fproducts&oauth_consumer_key%3Dck_0123456789abcdef0123456789abcdef01234567%26oauth_nonce%3D8f2a1c9e%26oauth_signature_method%3DHMAC-SHA256%26oauth_timestamp%3D1795925297%26oauth_version%3D1.0%26per_page%3D3%26search%3Dblue%2520tee"
	if base != want {
		t.Fatalf("base string:\n got %s\nwant %s", base, want)
	}
	if sig, _ := integration.Sign(integration.HMACSHA256, wooSecret+"&", base); sig != "e3x92R9i4l5k4Q3ThKtZ75cDylPHylp1/3qHEIth1wE=" {
		t.Errorf("HMAC-SHA256: %s", sig)
	}
	if sig, _ := integration.Sign(integration.HMACSHA1, wooSecret+"&", base); sig != "feZHJ10NkTLA1c1uCBwjMv/2lI8=" {
		t.Errorf("HMAC-SHA1: %s", sig)
	}
}

const (
	wooKey    = "ck_0123456789abcdef0123456789abcdef01234567"
	wooSecret = "cs_89abcdef0123456789abcdef0123456789abcdef"
	wooTime   = 1795925297
)

func wooParams() []integration.Param {
	return kv("per_page", "3", "search", "blue tee", "oauth_consumer_key", wooKey, "oauth_nonce", "8f2a1c9e", "oauth_signature_method", "HMAC-SHA256", "oauth_timestamp", "1795925297", "oauth_version", "1.0")
}

func TestEncode(t *testing.T) {
	for in, want := range map[string]string{"a-b._~c": "a-b._~c", "a b+c": "a%20b%2Bc", "é/&=": "%C3%A9%2F%26%3D", "*": "%2A"} {
		if got := integration.Encode(in); got != want {
			t.Errorf("Encode(%q) = %q, want %q", in, got, want)
		}
	}
}

// kv is parameters from name, value pairs.
func kv(pairs ...string) []integration.Param {
	var out []integration.Param
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, integration.Param{Name: pairs[i], Value: pairs[i+1]})
	}
	return out
}
