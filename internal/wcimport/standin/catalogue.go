package standin

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"
)

// The catalogue's shapes, as WooCommerce 11 answers them (field for field
// the recordings wc-v3-products-*.http, -categories, -tags, -attributes
// and -attributes-1-terms in the shared reference; _links left out):
//
//   - products: every type. Products whose index (from 0) modulo 8 is 0
//     are variable with an "any" attribute (Color × Size where each
//     variation names a colour only: any size), 4 grouped (the simple
//     products before it and after it as children), 5 external (with
//     external_url and button_text), 6 variable with one variation per
//     colour and size, 7 simple with a scheduled sale
//     (date_on_sale_from/to and their _gmt twins); the rest simple,
//     some with managed stock, low_stock_amount and backorders. Every
//     product has one or two images (alt text on the second), a
//     category, up-sells (the next product: a link forward) and
//     cross-sells (the previous one); product 1 also cross-sells the
//     deleted product 999999. Quantity rules are in meta_data under the
//     Min/Max Quantities extension's keys (minimum_allowed_quantity,
//     maximum_allowed_quantity, group_of_quantity).
//   - variations (products/{id}/variations): as WooCommerce lists them,
//     each with its own SKU, prices, stock and image; "any" is an
//     attribute the variation does not list.
//   - categories: Clothing with Tshirts, Hoodies and Accessories under it
//     (listed before their parent, as WooCommerce lists by name), Music
//     with a description and an image, Uncategorized.
//   - tags: three.
//   - attributes: Color (type "color", as a swatch plugin sets it) and
//     Size (select); terms with menu_order, Color's with the swatch
//     plugin's colour in meta_data (product_attribute_color).
//
// Ids are WooCommerce's: products, variations and images share one id
// space (posts), categories, tags and terms another. Every image's body
// is a small PNG under Images.

// Origin is the address the generated records link to.
const Origin = "https://shop.example"

// catalogue id spaces: terms from 15, posts from 100.
type gen struct {
	shop  *Shop
	post  int64
	image int
}

func (g *gen) nextPost() int64 { g.post++; return g.post }

// Catalogue is a shop with n products (n ≥ 8 has every product type)
// and their categories, tags, attributes, terms, variations and images.
// It is deterministic: the same n gives the same shop.
func Catalogue(n int) *Shop {
	g := &gen{shop: &Shop{Origin: Origin, AttributeTerms: map[int64][]Object{}, Variations: map[int64][]Object{},
		Images: map[string][]byte{}}, post: 99}
	s := g.shop
	s.Attributes = []Object{
		{"id": int64(1), "name": "Color", "slug": "pa_color", "type": "color", "order_by": "menu_order", "has_archives": false},
		{"id": int64(2), "name": "Size", "slug": "pa_size", "type": "select", "order_by": "menu_order", "has_archives": true},
	}
	colors := []struct {
		id        int64
		name, hex string
	}{{22, "Blue", "#1f4e79"}, {23, "Green", "#2e7d32"}, {24, "Red", "#c62828"}}
	sizes := []struct {
		id   int64
		name string
	}{{25, "Small"}, {26, "Medium"}, {27, "Large"}}
	for i, c := range colors {
		s.AttributeTerms[1] = append(s.AttributeTerms[1], Object{"id": c.id, "name": c.name, "slug": strings.ToLower(c.name),
			"description": "", "menu_order": int64(i), "count": int64(0),
			"meta_data": []Object{{"id": c.id * 10, "key": "product_attribute_color", "value": c.hex}}})
	}
	for i, z := range sizes {
		s.AttributeTerms[2] = append(s.AttributeTerms[2], Object{"id": z.id, "name": z.name, "slug": strings.ToLower(z.name),
			"description": "", "menu_order": int64(i), "count": int64(0)})
	}
	musicImage := g.imageObj("album-cover", "An album cover")
	s.Categories = []Object{
		category(19, "Accessories", "accessories", 16, "", nil, 2),
		category(16, "Clothing", "clothing", 0, "Everything to wear.", nil, 0),
		category(18, "Hoodies", "hoodies", 16, "", nil, 1),
		category(20, "Music", "music", 0, "<p>Albums and singles.</p>", musicImage, 3),
		category(17, "Tshirts", "tshirts", 16, "", nil, 0),
		category(15, "Uncategorized", "uncategorized", 0, "", nil, 0),
	}
	s.Tags = []Object{
		{"id": int64(30), "name": "Cotton", "slug": "cotton", "description": "", "count": int64(0)},
		{"id": int64(31), "name": "Gift", "slug": "gift", "description": "Good as a present.", "count": int64(0)},
		{"id": int64(32), "name": "New", "slug": "new", "description": "", "count": int64(0)},
	}
	cats := []Object{
		{"id": int64(17), "name": "Tshirts", "slug": "tshirts"},
		{"id": int64(18), "name": "Hoodies", "slug": "hoodies"},
		{"id": int64(19), "name": "Accessories", "slug": "accessories"},
		{"id": int64(20), "name": "Music", "slug": "music"},
	}
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = g.nextPost()
	}
	for i := 0; i < n; i++ {
		id := ids[i]
		name := fmt.Sprintf("Product %d", i+1)
		slug := fmt.Sprintf("product-%d", i+1)
		typ := "simple"
		switch i % 8 {
		case 0, 6:
			typ = "variable"
		case 4:
			typ = "grouped"
		case 5:
			typ = "external"
		}
		cat := cats[i%len(cats)]
		p := product(id, name, slug, typ, cat)
		p["sku"] = fmt.Sprintf("SKU-%05d", i+1)
		p["description"] = fmt.Sprintf("<p>The %s, described at length.</p>\n", name)
		p["short_description"] = fmt.Sprintf("<p>A short word on %s.</p>\n", name)
		p["images"] = []Object{g.imageObj(slug, "")}
		if i%3 == 0 {
			p["images"] = append(p["images"].([]Object), g.imageObj(slug+"-back", name+" seen from the back"))
		}
		if i%5 == 1 {
			p["tags"] = []Object{{"id": int64(30), "name": "Cotton", "slug": "cotton"}, {"id": int64(32), "name": "New", "slug": "new"}}
		}
		var ups, cross []int64
		if i+1 < n {
			ups = append(ups, ids[i+1])
		}
		if i > 0 {
			cross = append(cross, ids[i-1])
		}
		if i == 0 {
			cross = append(cross, 999999) // deleted in the old shop
		}
		p["upsell_ids"], p["cross_sell_ids"] = ids64(ups), ids64(cross)
		price := int64(10 + i%40)
		switch typ {
		case "simple":
			p["regular_price"] = fmt.Sprintf("%d.00", price)
			p["price"] = fmt.Sprintf("%d.00", price)
			if i%8 == 7 {
				p["sale_price"] = fmt.Sprintf("%d.50", price-3)
				p["price"] = p["sale_price"]
				p["on_sale"] = true
				setSale(p, "2026-12-01T00:00:00", "2027-01-15T23:59:59")
			}
			if i%8 == 2 {
				p["manage_stock"] = true
				p["stock_quantity"] = int64(5 + i%17)
				p["low_stock_amount"] = int64(2)
				p["backorders"] = "notify"
				p["backorders_allowed"] = true
			}
			if i%8 == 3 {
				p["stock_status"] = "outofstock"
				p["meta_data"] = []Object{
					{"id": id*10 + 1, "key": "minimum_allowed_quantity", "value": "2"},
					{"id": id*10 + 2, "key": "maximum_allowed_quantity", "value": "12"},
					{"id": id*10 + 3, "key": "group_of_quantity", "value": "2"},
				}
			}
		case "external":
			p["regular_price"] = fmt.Sprintf("%d.00", price)
			p["price"] = p["regular_price"]
			p["external_url"] = fmt.Sprintf("https://maker.example/%s", slug)
			p["button_text"] = "Buy from the maker"
			p["shipping_required"] = false
		case "grouped":
			var kids []int64
			for _, j := range []int{i - 1, i + 1} {
				if j >= 0 && j < n && (j%8 == 1 || j%8 == 2 || j%8 == 3 || j%8 == 5 || j%8 == 7) {
					kids = append(kids, ids[j])
				}
			}
			p["grouped_products"] = ids64(kids)
			p["price"] = ""
		case "variable":
			g.variable(p, i, colors, sizes, i%8 == 0)
		}
		s.Products = append(s.Products, p)
	}
	return s
}

func ids64(v []int64) []int64 {
	if v == nil {
		return []int64{}
	}
	return v
}

func setSale(o Object, from, to string) {
	o["date_on_sale_from"], o["date_on_sale_from_gmt"] = from, from
	o["date_on_sale_to"], o["date_on_sale_to_gmt"] = to, to
}

// variable adds a variable product's attributes and variations: with any,
// one per colour (any size); else one per colour and size.
func (g *gen) variable(p Object, i int, colors []struct {
	id        int64
	name, hex string
}, sizes []struct {
	id   int64
	name string
}, any bool) {
	id := p["id"].(int64)
	var cn, sn []string
	for _, c := range colors {
		cn = append(cn, c.name)
	}
	for _, z := range sizes {
		sn = append(sn, z.name)
	}
	p["attributes"] = []Object{
		{"id": int64(1), "name": "Color", "slug": "pa_color", "position": int64(0), "visible": true, "variation": true, "options": cn},
		{"id": int64(2), "name": "Size", "slug": "pa_size", "position": int64(1), "visible": true, "variation": true, "options": sn},
		{"id": int64(0), "name": "Material", "slug": "Material", "position": int64(2), "visible": true, "variation": false, "options": []string{"Cotton", "Linen"}},
	}
	p["default_attributes"] = []Object{{"id": int64(1), "name": "Color", "option": "blue"}}
	var vars []Object
	var vids []int64
	n := 0
	for ci, c := range colors {
		combos := []Object{{"id": int64(1), "name": "Color", "slug": "pa_color", "option": c.name}}
		sizesFor := []string{""}
		if !any {
			sizesFor = sn
		}
		for _, z := range sizesFor {
			attrs := append([]Object{}, combos...)
			name := c.name
			sku := fmt.Sprintf("SKU-%05d-%s", i+1, strings.ToLower(c.name))
			link := fmt.Sprintf("%s/product/%s/?attribute_pa_color=%s", Origin, p["slug"], strings.ToLower(c.name))
			if z != "" {
				attrs = append(attrs, Object{"id": int64(2), "name": "Size", "slug": "pa_size", "option": z})
				name += ", " + z
				sku += "-" + strings.ToLower(z)
				link += "&attribute_pa_size=" + strings.ToLower(z)
			}
			vid := g.nextPostAfter()
			n++
			v := variation(vid, id, name, sku, link)
			reg := int64(20 + ci*2)
			v["regular_price"] = fmt.Sprintf("%d.00", reg)
			v["price"] = v["regular_price"]
			if n%2 == 0 {
				v["sale_price"] = fmt.Sprintf("%d.00", reg-3)
				v["price"] = v["sale_price"]
				v["on_sale"] = true
			}
			if n == 3 {
				setSale(v, "2026-11-20T08:00:00", "2026-12-24T20:00:00")
			}
			v["manage_stock"] = true
			v["stock_quantity"] = int64(3 * n)
			v["attributes"] = attrs
			img := g.imageObj(fmt.Sprintf("%s-%d", p["slug"], n), name)
			delete(img, "srcset")
			delete(img, "sizes")
			delete(img, "thumbnail")
			v["image"] = img
			v["menu_order"] = int64(n)
			vars = append(vars, v)
			vids = append(vids, vid)
		}
	}
	p["variations"] = vids
	p["price"] = vars[0]["price"]
	g.shop.Variations[id] = vars
}

// nextPostAfter is a variation's id: after every product's (WooCommerce
// numbers them when they are made, after their parent).
func (g *gen) nextPostAfter() int64 { return g.nextPost() + 1_000_000 }

// imageObj adds a PNG under uploads and answers its object as a product's
// images list holds it.
func (g *gen) imageObj(name, alt string) Object {
	g.image++
	id := int64(5_000_000 + g.image)
	file := fmt.Sprintf("2026/11/%s.png", name)
	g.shop.Images[file] = pngOf(g.image)
	src := Origin + "/wp-content/uploads/" + file
	return Object{
		"id": id, "date_created": "2026-11-29T03:21:25", "date_created_gmt": "2026-11-29T03:21:25",
		"date_modified": "2026-11-29T03:21:25", "date_modified_gmt": "2026-11-29T03:21:25",
		"src": src, "name": name + ".png", "alt": alt,
		"srcset":    src + " 8w",
		"sizes":     "(max-width: 8px) 100vw, 8px",
		"thumbnail": src,
	}
}

// pngOf is a small PNG of a colour picked by n (each image differs).
func pngOf(n int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 8, 6))
	c := color.RGBA{uint8(n * 37), uint8(n * 91 >> 1), uint8(n * 13), 255}
	for y := 0; y < 6; y++ {
		for x := 0; x < 8; x++ {
			img.Set(x, y, c)
		}
	}
	img.Set(n%8, 0, color.RGBA{uint8(n >> 8), uint8(n >> 16), 1, 255})
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

func category(id int64, name, slug string, parent int64, desc string, image Object, order int64) Object {
	var img any
	if image != nil {
		img = Object{"id": image["id"], "date_created": image["date_created"], "date_created_gmt": image["date_created_gmt"],
			"date_modified": image["date_modified"], "date_modified_gmt": image["date_modified_gmt"],
			"src": image["src"], "name": image["name"], "alt": image["alt"]}
	}
	return Object{"id": id, "name": name, "slug": slug, "parent": parent, "description": desc, "display": "default",
		"image": img, "menu_order": order, "count": int64(0)}
}

// product is a product with WooCommerce's fields and defaults.
func product(id int64, name, slug, typ string, cat Object) Object {
	return Object{
		"id": id, "name": name, "slug": slug, "permalink": Origin + "/product/" + slug + "/",
		"date_created": "2026-11-29T03:21:29", "date_created_gmt": "2026-11-29T03:21:29",
		"date_modified": "2026-11-29T04:07:54", "date_modified_gmt": "2026-11-29T04:07:54",
		"type": typ, "status": "publish", "featured": false, "catalog_visibility": "visible",
		"description": "", "short_description": "", "sku": "", "price": "", "regular_price": "", "sale_price": "",
		"date_on_sale_from": nil, "date_on_sale_from_gmt": nil, "date_on_sale_to": nil, "date_on_sale_to_gmt": nil,
		"on_sale": false, "purchasable": true, "total_sales": int64(0), "virtual": false, "downloadable": false,
		"downloads": []Object{}, "download_limit": int64(-1), "download_expiry": int64(-1),
		"external_url": "", "button_text": "", "tax_status": "taxable", "tax_class": "",
		"manage_stock": false, "stock_quantity": nil, "backorders": "no", "backorders_allowed": false, "backordered": false,
		"low_stock_amount": nil, "sold_individually": false, "weight": "0.5",
		"dimensions":        Object{"length": "30", "width": "20", "height": "2"},
		"shipping_required": true, "shipping_taxable": true, "shipping_class": "", "shipping_class_id": int64(0),
		"reviews_allowed": true, "average_rating": "0.00", "rating_count": int64(0),
		"upsell_ids": []int64{}, "cross_sell_ids": []int64{}, "parent_id": int64(0), "purchase_note": "",
		"categories": []Object{cat}, "brands": []Object{}, "tags": []Object{}, "images": []Object{},
		"attributes": []Object{}, "default_attributes": []Object{}, "variations": []int64{}, "grouped_products": []int64{},
		"menu_order": int64(0), "price_html": "", "related_ids": []int64{}, "meta_data": []Object{},
		"stock_status": "instock", "has_options": typ == "variable", "post_password": "", "global_unique_id": "",
	}
}

// variation is a variation with WooCommerce's fields and defaults.
func variation(id, parent int64, name, sku, permalink string) Object {
	return Object{
		"id": id, "type": "variation", "date_created": "2026-11-29T03:21:29", "date_created_gmt": "2026-11-29T03:21:29",
		"date_modified": "2026-11-29T03:21:29", "date_modified_gmt": "2026-11-29T03:21:29",
		"description": "", "permalink": permalink, "sku": sku, "global_unique_id": "",
		"price": "", "regular_price": "", "sale_price": "",
		"date_on_sale_from": nil, "date_on_sale_from_gmt": nil, "date_on_sale_to": nil, "date_on_sale_to_gmt": nil,
		"on_sale": false, "status": "publish", "purchasable": true, "virtual": false, "downloadable": false,
		"downloads": []Object{}, "download_limit": int64(-1), "download_expiry": int64(-1),
		"tax_status": "taxable", "tax_class": "", "manage_stock": false, "stock_quantity": nil,
		"stock_status": "instock", "backorders": "no", "backorders_allowed": false, "backordered": false,
		"low_stock_amount": nil, "weight": "0.5", "dimensions": Object{"length": "", "width": "", "height": ""},
		"shipping_class": "", "shipping_class_id": int64(0), "image": nil, "gallery_image_ids": []int64{},
		"attributes": []Object{}, "menu_order": int64(0), "meta_data": []Object{}, "name": name, "parent_id": parent,
	}
}
