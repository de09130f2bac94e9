package integration

import (
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"hash"
	"slices"
	"strings"
)

// OAuth 1.0a signatures (RFC 5849, section 3.4) as WooCommerce checks them
// on plain HTTP: one-legged (no token), so the HMAC key is the consumer
// secret followed by "&"; HMAC-SHA1 or HMAC-SHA256; the signed URL is the
// shop's address with the request's path and no query; the parameters are
// the query's and the Authorization header's oauth_* ones, without
// oauth_signature.

// Param is one request parameter, decoded.
type Param struct{ Name, Value string }

// The signature methods WooCommerce accepts.
const (
	HMACSHA1   = "HMAC-SHA1"
	HMACSHA256 = "HMAC-SHA256"
)

// Encode percent-encodes s as OAuth does (RFC 5849, section 3.6, and
// PHP's rawurlencode): letters, digits and "-._~" stay, every other byte
// is %XX in upper case.
func Encode(s string) string {
	const hexDigits = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hexDigits[c>>4])
		b.WriteByte(hexDigits[c&15])
	}
	return b.String()
}

// BaseString is the signature base string: the method in upper case, the
// encoded URL (no query) and the encoded normalized parameters, joined by
// "&". The parameters are each name and value encoded, sorted by name and
// then value, joined as name=value with "&"; oauth_signature (and an
// Authorization header's realm, which callers leave out) is not signed.
func BaseString(method, url string, params []Param) string {
	pairs := make([][2]string, 0, len(params))
	for _, p := range params {
		if p.Name == "oauth_signature" {
			continue
		}
		pairs = append(pairs, [2]string{Encode(p.Name), Encode(p.Value)})
	}
	slices.SortFunc(pairs, func(a, b [2]string) int {
		if c := strings.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return strings.Compare(a[1], b[1])
	})
	var norm strings.Builder
	for i, p := range pairs {
		if i > 0 {
			norm.WriteByte('&')
		}
		norm.WriteString(p[0])
		norm.WriteByte('=')
		norm.WriteString(p[1])
	}
	return strings.ToUpper(method) + "&" + Encode(url) + "&" + Encode(norm.String())
}

// Sign is the base64 HMAC of base under key with the signature method
// (HMAC-SHA1 or HMAC-SHA256); ok is false for any other method. A
// one-legged request's key is the consumer secret and "&".
func Sign(signatureMethod, key, base string) (sig string, ok bool) {
	var h func() hash.Hash
	switch signatureMethod {
	case HMACSHA1:
		h = sha1.New
	case HMACSHA256:
		h = sha256.New
	default:
		return "", false
	}
	m := hmac.New(h, []byte(key))
	m.Write([]byte(base))
	return base64.StdEncoding.EncodeToString(m.Sum(nil)), true
}
