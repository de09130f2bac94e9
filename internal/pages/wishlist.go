package pages

import (
	"context"
	"time"

	"vitrine/internal/catalog"
	"vitrine/internal/storeapi"
)

// WishlistItem is one item of a wishlist page: the product's card, the
// chosen variation (nil when the item is the product itself) and the
// price, in the shop's minor units, when it was added.
type WishlistItem struct {
	Product    storeapi.Product  `json:"product"`
	Variation  *storeapi.Product `json:"variation"`
	PriceAdded int64             `json:"price_added"`
	AddedAt    string            `json:"added_at"`
	// Attributes are the variation's chosen attributes as the product page
	// names them ("Colour": "Navy"); "" is "any".
	Attributes []WishlistAttr `json:"attributes"`
	// ID is what the item names (the variation, else the product): the
	// remove form's and the hearts' id.
	ID int64 `json:"id"`
}

// WishlistAttr is one chosen attribute of a wished variation.
type WishlistAttr struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// WishlistEntry is what the loader is handed per item (wishlist.Item's
// fields, so pages need not import the capability).
type WishlistEntry struct {
	ProductID, VariationID, PriceAdded int64
	AddedAt                            time.Time
}

// WishlistInput is what the wishlist page shows: the owner's own list
// (Shared false: remove buttons, the sharing controls) or a list seen by
// its share link (read-only).
type WishlistInput struct {
	Items  []WishlistEntry
	Shared bool
	// ShareEnabled: the owner shares the list; ShareURL is the link made
	// by this request (shown once: only its hash is kept).
	ShareEnabled bool
	ShareURL     string
	Notices      []Notice
}

// WishlistPage is the data of /wishlist/ and /wishlist/view/{token}/.
type WishlistPage struct {
	Base
	Items        []WishlistItem `json:"items"`
	Shared       bool           `json:"shared"`
	ShareEnabled bool           `json:"share_enabled"`
	ShareURL     string         `json:"share_url"`
	Notices      []Notice       `json:"notices"`
}

// Wishlist loads a wishlist page. Items whose product is gone or not
// published are left out, as the cart leaves them out.
func (l *Loader) Wishlist(ctx context.Context, reqURL string, in WishlistInput) (*Result, error) {
	e, err := l.setup(ctx, "wishlist", reqURL)
	if err != nil {
		return nil, err
	}
	title, path := "Wishlist", "/wishlist/"
	if in.Shared {
		title, path = "A shared wishlist", reqURL
	}
	h := l.head(l.title(title), "Products saved for later at "+l.live().SiteName+".", path)
	h.Robots = "noindex, nofollow"
	if in.Shared {
		h.Canonical = ""
	}
	ids := make([]int64, 0, 2*len(in.Items))
	for _, it := range in.Items {
		ids = append(ids, it.ProductID)
		if it.VariationID != 0 {
			ids = append(ids, it.VariationID)
		}
	}
	byID := map[int64]*catalog.Product{}
	if len(ids) > 0 {
		ps, err := l.Store.Products(ctx, ids)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			byID[p.ID] = p
		}
	}
	var parents []*catalog.Product
	seen := map[int64]bool{}
	for _, it := range in.Items {
		if p := byID[it.ProductID]; p != nil && p.Published() && !seen[p.ID] {
			seen[p.ID] = true
			parents = append(parents, p)
		}
	}
	cards := map[int64]storeapi.Product{}
	if len(parents) > 0 {
		out, err := l.cards(ctx, e.b, parents)
		if err != nil {
			return nil, err
		}
		for _, c := range out {
			cards[c.ID] = c
		}
	}
	items := []WishlistItem{}
	for _, it := range in.Items {
		card, ok := cards[it.ProductID]
		if !ok {
			continue
		}
		wi := WishlistItem{Attributes: []WishlistAttr{}, Product: card, PriceAdded: it.PriceAdded, AddedAt: it.AddedAt.UTC().Format(time.RFC3339), ID: it.ProductID}
		if it.VariationID != 0 {
			v := byID[it.VariationID]
			if v == nil || !v.Published() {
				continue
			}
			vp := e.b.Product(v, nil)
			wi.Variation, wi.ID = &vp, v.ID
			wi.Attributes = variationAttrs(byID[it.ProductID], v)
		}
		items = append(items, wi)
	}
	if in.Notices == nil {
		in.Notices = []Notice{}
	}
	return &Result{Status: 200, Data: WishlistPage{Base: e.base, Items: items, Shared: in.Shared, ShareEnabled: in.ShareEnabled,
		ShareURL: in.ShareURL, Notices: in.Notices}, Head: h}, nil
}

// variationAttrs names a variation's attributes as its product does.
func variationAttrs(parent, v *catalog.Product) []WishlistAttr {
	out := []WishlistAttr{}
	for _, va := range v.Variation {
		a := WishlistAttr{Name: va.Name, Value: va.Value}
		if parent != nil {
			for _, pa := range parent.Attributes {
				if pa.Key() != va.Name {
					continue
				}
				a.Name = pa.Name
				for _, val := range pa.Values {
					if val.Slug == va.Value {
						a.Value = val.Name
					}
				}
			}
		}
		out = append(out, a)
	}
	return out
}
