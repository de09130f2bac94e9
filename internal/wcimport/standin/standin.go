// Package standin is a stand-in for a running WooCommerce shop's REST API
// v3, for the migration's tests and timing: it serves a Shop's records
// with WooCommerce's paging headers and authentication rules, shaped like
// the real answers in ../shared/reference/woocommerce-11-responses/.
//
// Server (server.go) serves a Shop with WooCommerce's paging and
// authentication; Catalogue (catalogue.go, whose comment lists the shapes
// it makes) generates a deterministic catalogue of any size.
package standin

// Object is one record as the REST API answers it (decoded JSON).
type Object = map[string]any

// Shop is the old shop's content. Sub-collections are keyed by their
// parent's id.
type Shop struct {
	// Origin is the address the records' links were made with
	// ("https://shop.example"): Server answers them with its own.
	Origin string

	Attributes     []Object
	AttributeTerms map[int64][]Object // by attribute id
	Categories     []Object
	Tags           []Object
	Products       []Object
	Variations     map[int64][]Object // by product id
	Customers      []Object
	Coupons        []Object
	Orders         []Object
	OrderNotes     map[int64][]Object // by order id
	Refunds        map[int64][]Object // by order id
	Reviews        []Object
	Pages          []Object            // wp/v2/pages
	Comments       []Object            // wp/v2/comments (replies to reviews)
	Settings       map[string][]Object // by group: "general", "tax", …
	Taxes          []Object            // wc/v3/taxes (tax rates)
	Images         map[string][]byte   // image bodies by path under /wp-content/uploads/
}
