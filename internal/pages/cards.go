package pages

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"vitrine/internal/storeapi"
)

// Cards are products a page shows as product cards (a listing, the
// related products, the home page's sections). Each is written with a
// card_key: a digest of the product's own JSON, so the server render names
// the card's cached HTML (web/src/lib/server-fragments.tsx) by a short
// string instead of serialising the product again in the render engine,
// where that cost more than rendering a few elements
// (docs/decisions/0131-card-keys.md). The key follows every field of the
// product: a change of price, stock or image is another key, another card.
type Cards []storeapi.Product

// MarshalJSON writes the products as the Store API does, each with its card_key.
func (c Cards) MarshalJSON() ([]byte, error) {
	if c == nil {
		return []byte("null"), nil
	}
	var out bytes.Buffer
	out.WriteByte('[')
	for i := range c {
		if i > 0 {
			out.WriteByte(',')
		}
		b, err := json.Marshal(&c[i])
		if err != nil {
			return nil, err
		}
		// A product's JSON is an object with fields: the key goes before its brace.
		sum := sha256.Sum256(b)
		var key [32]byte
		hex.Encode(key[:], sum[:16])
		out.Write(b[:len(b)-1])
		out.WriteString(`,"card_key":"`)
		out.Write(key[:])
		out.WriteString(`"}`)
	}
	out.WriteByte(']')
	return out.Bytes(), nil
}
