package standin

// Generated history: customers, coupons, orders with their notes and
// refunds, reviews with a staff reply, pages and settings, shaped as
// WooCommerce 11's REST API v3 (and WordPress's wp/v2) answers them in
// ../shared/reference/woocommerce-11-responses/:
//
//   - customers (wc-v3-customers*.http): id, dates, email, names, role,
//     username, billing and shipping, is_paying_customer, avatar_url,
//     meta_data. The first customer's shipping address differs from its
//     billing one.
//   - coupons (wc-v3-coupons*.http): amounts and minimums as decimal
//     strings, limits null when none, usage_count, used_by.
//   - orders (wc-v3-orders-*.http): amounts as decimal strings, *_gmt
//     dates, line_items with sku, price (a number), meta_data (variation
//     attributes with display_key and display_value, _reduced_stock for
//     orders that took stock), tax_lines, shipping_lines (instance_id a
//     string), fee_lines, coupon_lines (discount as "5.4", discount_type),
//     refunds ({id, reason, total "-x"}). Statuses cycle through every
//     one WooCommerce has, trash included; a line may name a product the
//     old shop deleted (product_id 0); every tenth order is taxed (10 %:
//     tax_lines with rate_percent, each line's and shipping's taxes).
//   - order notes (wc-v3-orders-90-notes.http) and refunds
//     (wc-v3-orders-90-refunds.http), by order id; a refund's line_items
//     carry negative quantities and totals and _refunded_item_id.
//   - reviews (wc-v3-products-reviews.http): status approved, hold, spam
//     or trash, reviewer, reviewer_email, review (rendered HTML), rating,
//     verified. A staff reply is not a review: WooCommerce stores it as a
//     plain comment whose parent is the review, listed by wp/v2/comments,
//     not by products/reviews; GenerateHistory answers the replies for
//     that endpoint.
//   - pages (wp/v2/pages): title and content as {rendered}, slug, status,
//     parent, link; WooCommerce's own cart page among them.
//   - settings (wc-v3-settings-general.http): the general group's options
//     {id, label, description, type, default, tip, value}, and the tax
//     group's woocommerce_prices_include_tax.

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// HistoryProduct is a product of the old shop that orders and reviews
// link: its id, name, SKU, price in cents and its variations' ids.
type HistoryProduct struct {
	ID         int64
	Name       string
	SKU        string
	Price      int64
	Variations []int64
}

// HistoryOptions size a generated history.
type HistoryOptions struct {
	Customers, Coupons, Orders, Reviews int
	Products                            []HistoryProduct
	// Start is the first record's date; each next one is an hour later.
	Start time.Time
	// Origin is the old shop's origin in links ("https://shop.example").
	Origin string
}

// OrderStatuses are WooCommerce's order statuses, as generated orders
// cycle through them.
var OrderStatuses = []string{"pending", "processing", "on-hold", "completed", "cancelled", "refunded", "failed", "checkout-draft", "trash"}

// First ids of each generated kind.
const (
	FirstCustomerID = 2001
	FirstCouponID   = 3001
	FirstOrderID    = 10001
	FirstReviewID   = 50001
	// Pages share WordPress's post ids with products; the catalogue's
	// products start at 100, so pages are numbered apart.
	FirstPageID = 7001
)

func cents(v int64) string {
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	return fmt.Sprintf("%s%d.%02d", sign, v/100, v%100)
}

func wcDate(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05") }

func links(origin, path string, allow ...string) Object {
	self := Object{"href": origin + "/wp-json/" + path}
	if len(allow) > 0 {
		self["targetHints"] = Object{"allow": allow}
	}
	coll := path
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '/' {
			coll = path[:i]
			break
		}
	}
	return Object{"self": []any{self}, "collection": []any{Object{"href": origin + "/wp-json/" + coll}}}
}

var allMethods = []string{"GET", "POST", "PUT", "PATCH", "DELETE"}

// GenerateHistory fills s's Customers, Coupons, Orders, OrderNotes,
// Refunds, Reviews, Pages and Settings, deterministically for o, and
// answers the staff replies to reviews (wp/v2/comments records).
func GenerateHistory(s *Shop, o HistoryOptions) (replies []Object) {
	rng := rand.New(rand.NewPCG(11, uint64(o.Customers*31+o.Orders)))
	origin := o.Origin
	if origin == "" {
		origin = "https://shop.example"
	}
	at := func(i int) time.Time { return o.Start.UTC().Add(time.Duration(i) * time.Hour) }
	if s.OrderNotes == nil {
		s.OrderNotes = map[int64][]Object{}
	}
	if s.Refunds == nil {
		s.Refunds = map[int64][]Object{}
	}
	if s.Settings == nil {
		s.Settings = map[string][]Object{}
	}

	type person struct {
		id                 int64
		first, last, email string
		billing, shipping  Object
	}
	people := make([]person, o.Customers)
	firsts := []string{"Ada", "Ben", "Cleo", "Dan", "Eva", "Finn", "Gus", "Hana", "Ivo", "Jade"}
	lasts := []string{"Archer", "Baker", "Cole", "Dunn", "Ellis", "Frost", "Grey", "Hale"}
	for i := range people {
		p := person{id: int64(FirstCustomerID + i), first: firsts[i%len(firsts)], last: lasts[(i/len(firsts))%len(lasts)]}
		p.email = fmt.Sprintf("customer%d@example.com", i+1)
		addr := func(street string, phone string, email bool) Object {
			a := Object{"first_name": p.first, "last_name": p.last, "company": "", "address_1": street, "address_2": "",
				"city": "San Francisco", "postcode": "94105", "country": "US", "state": "CA", "phone": phone}
			if email {
				a["email"] = p.email
			}
			return a
		}
		street := fmt.Sprintf("%d Market St", 100+i)
		p.billing, p.shipping = addr(street, fmt.Sprintf("415-555-%04d", i%10000), true), addr(street, "", false)
		if i == 0 { // two different addresses
			p.shipping = addr("350 5th Ave", "", false)
			p.shipping["city"], p.shipping["state"], p.shipping["postcode"] = "New York", "NY", "10118"
		}
		people[i] = p
		s.Customers = append(s.Customers, Object{"id": p.id, "date_created": wcDate(at(i)), "date_created_gmt": wcDate(at(i)),
			"date_modified": wcDate(at(i)), "date_modified_gmt": wcDate(at(i)), "email": p.email, "first_name": p.first, "last_name": p.last,
			"role": "customer", "username": fmt.Sprintf("customer%d", i+1), "billing": p.billing, "shipping": p.shipping,
			"is_paying_customer": i%2 == 0, "avatar_url": "https://secure.gravatar.com/avatar/?s=96&d=mm&r=g", "meta_data": []any{},
			"_links": links(origin, fmt.Sprintf("wc/v3/customers/%d", p.id), allMethods...)})
	}

	type couponDef struct {
		code, typ string
		amount    int64 // cents, or percent
	}
	var coupons []couponDef
	for i := 0; i < o.Coupons; i++ {
		c := couponDef{code: fmt.Sprintf("save%d", 10+i), typ: "percent", amount: int64(10 + i%3*5)}
		if i%2 == 1 {
			c.code, c.typ, c.amount = fmt.Sprintf("off%d", 5+i), "fixed_cart", 500
		}
		coupons = append(coupons, c)
	}
	uses := make([]int64, len(coupons))

	noteID, refundID, itemID := int64(1), int64(900001), int64(1)
	for i := 0; i < o.Orders && len(o.Products) > 0; i++ {
		id := int64(FirstOrderID + i)
		status := OrderStatuses[i%len(OrderStatuses)]
		created := at(i)
		var cust *person
		if o.Customers > 0 && i%7 != 3 {
			cust = &people[i%o.Customers]
		}
		billing := Object{"first_name": "Guest", "last_name": "Buyer", "company": "", "address_1": "1 Guest Way", "address_2": "",
			"city": "Austin", "state": "TX", "postcode": "73301", "country": "US", "email": fmt.Sprintf("guest%d@example.com", i), "phone": ""}
		shipping := Object{"first_name": "Guest", "last_name": "Buyer", "company": "", "address_1": "1 Guest Way", "address_2": "",
			"city": "Austin", "state": "TX", "postcode": "73301", "country": "US", "phone": ""}
		var customerID int64
		if cust != nil {
			billing, shipping, customerID = cust.billing, cust.shipping, cust.id
		}
		reduced := status == "processing" || status == "on-hold" || status == "completed" || status == "refunded"
		var lineItems []any
		var subtotal int64
		nLines := 1 + rng.IntN(3)
		for l := 0; l < nLines; l++ {
			p := o.Products[(i+l*5)%len(o.Products)]
			qty := int64(1 + rng.IntN(3))
			name, sku, productID, variationID := p.Name, p.SKU, p.ID, int64(0)
			meta := []any{}
			if len(p.Variations) > 0 {
				v := rng.IntN(len(p.Variations))
				variationID = p.Variations[v]
				size := []string{"Small", "Medium", "Large", "XL"}[v%4]
				name = p.Name + " - " + size
				sku = fmt.Sprintf("%s-%d", p.SKU, v)
				meta = append(meta, Object{"id": itemID*10 + 1, "key": "pa_size", "value": size, "display_key": "Size", "display_value": size})
			}
			if i%11 == 5 && l == 0 { // a product the old shop deleted since
				name, sku, productID, variationID, meta = "Discontinued Scarf", "", 0, 0, []any{}
			}
			if reduced {
				meta = append(meta, Object{"id": itemID*10 + 2, "key": "_reduced_stock", "value": fmt.Sprint(qty),
					"display_key": "_reduced_stock", "display_value": fmt.Sprint(qty)})
			}
			line := qty * p.Price
			subtotal += line
			lineItems = append(lineItems, Object{"id": itemID, "name": name, "product_id": productID, "variation_id": variationID,
				"quantity": qty, "tax_class": "", "subtotal": cents(line), "subtotal_tax": "0.00", "total": cents(line), "total_tax": "0.00",
				"taxes": []any{}, "meta_data": meta, "sku": sku, "global_unique_id": "", "price": float64(p.Price) / 100,
				"image": Object{"id": "", "src": ""}, "parent_name": nil})
			itemID++
		}
		// A coupon on every sixth order takes its share off the lines.
		var couponLines []any
		var discount int64
		if len(coupons) > 0 && i%6 == 0 {
			ci := (i / 6) % len(coupons)
			c := coupons[ci]
			if c.typ == "percent" {
				discount = subtotal * c.amount / 100
			} else {
				discount = min(c.amount, subtotal)
			}
			left := discount
			for n, li := range lineItems {
				lo := li.(Object)
				var share int64
				if n == len(lineItems)-1 {
					share = left
				} else {
					share = discount * parseCents(lo["subtotal"].(string)) / subtotal
				}
				left -= share
				lo["total"] = cents(parseCents(lo["subtotal"].(string)) - share)
				lo["price"] = float64(parseCents(lo["total"].(string))) / 100 / float64(lo["quantity"].(int64))
			}
			info := fmt.Sprintf(`[%d,"%s","%s",%d]`, FirstCouponID+ci, c.code, c.typ, c.amount)
			couponLines = append(couponLines, Object{"id": itemID, "code": c.code, "discount": trimCents(discount), "discount_tax": "0",
				"meta_data":     []any{Object{"id": itemID*10 + 4, "key": "coupon_info", "value": info, "display_key": "coupon_info", "display_value": info}},
				"discount_type": c.typ, "nominal_amount": c.amount, "free_shipping": false})
			itemID++
			if status != "cancelled" && status != "trash" && status != "checkout-draft" {
				uses[ci]++
			}
		}
		// Every tenth order is taxed at 10 % (rate 1), lines and shipping.
		shippingTotal, shippingTax, cartTax := int64(500), int64(0), int64(0)
		taxLines := []any{}
		shipTaxes := []any{}
		if i%10 == 7 {
			for _, li := range lineItems {
				lo := li.(Object)
				sub, tot := parseCents(lo["subtotal"].(string)), parseCents(lo["total"].(string))
				st, tt := (sub+5)/10, (tot+5)/10
				cartTax += tt
				lo["subtotal_tax"], lo["total_tax"] = cents(st), cents(tt)
				lo["taxes"] = []any{Object{"id": 1, "total": cents(tt), "subtotal": cents(st)}}
			}
			shippingTax = shippingTotal / 10
			shipTaxes = []any{Object{"id": 1, "total": cents(shippingTax), "subtotal": ""}}
			taxLines = append(taxLines, Object{"id": itemID, "rate_code": "US-CA-TAX-1", "rate_id": 1, "label": "Tax", "compound": false,
				"tax_total": cents(cartTax), "shipping_tax_total": cents(shippingTax), "rate_percent": 10, "meta_data": []any{}})
			itemID++
		}
		shippingLines := []any{Object{"id": itemID, "method_title": "Flat rate", "method_id": "flat_rate", "instance_id": "1",
			"total": cents(shippingTotal), "total_tax": cents(shippingTax), "taxes": shipTaxes, "tax_status": "taxable", "meta_data": []any{}}}
		itemID++
		var feeLines []any
		var fees int64
		if i%8 == 2 {
			fees = 250
			feeLines = append(feeLines, Object{"id": itemID, "name": "Gift wrap", "tax_class": "", "tax_status": "none", "amount": "",
				"total": cents(fees), "total_tax": "0.00", "taxes": []any{}, "meta_data": []any{}})
			itemID++
		}
		total := subtotal - discount + shippingTotal + fees + cartTax + shippingTax
		paid := status == "processing" || status == "completed" || status == "refunded"
		var datePaid, dateCompleted any
		if paid {
			datePaid = wcDate(created.Add(time.Minute))
		}
		if status == "completed" {
			dateCompleted = wcDate(created.Add(time.Hour))
		}
		method, methodTitle := "bacs", "Direct bank transfer"
		if i%2 == 1 {
			method, methodTitle = "cod", "Cash on delivery"
		}
		// Notes: the shop's own status note; a customer note on some.
		notes := []Object{{"id": noteID, "author": "WooCommerce", "date_created": wcDate(created), "date_created_gmt": wcDate(created),
			"note": "Order status changed from Pending payment to " + status + ".", "customer_note": false}}
		noteID++
		if i%4 == 1 {
			notes = append(notes, Object{"id": noteID, "author": "Shop Manager", "date_created": wcDate(created.Add(time.Minute)),
				"date_created_gmt": wcDate(created.Add(time.Minute)), "note": fmt.Sprintf("Your order %d is on its way.", id), "customer_note": true})
			noteID++
		}
		for _, n := range notes {
			n["_links"] = links(origin, fmt.Sprintf("wc/v3/orders/%d/notes/%d", id, n["id"]), "GET", "DELETE")
		}
		s.OrderNotes[id] = append([]Object(nil), notes...)
		// Refunds: a refunded order is refunded in full; every fifth
		// completed one gives back its first line.
		var refunds []Object
		first := lineItems[0].(Object)
		if status == "completed" && i%5 == 3 {
			amount := parseCents(first["total"].(string))
			refunds = append(refunds, Object{"id": refundID, "date_created": wcDate(created.Add(2 * time.Hour)), "date_created_gmt": wcDate(created.Add(2 * time.Hour)),
				"amount": cents(amount), "reason": "Returned", "refunded_by": 1, "refunded_payment": false,
				"meta_data": []any{Object{"id": refundID, "key": "_refund_type", "value": "partial"}},
				"line_items": []any{Object{"id": itemID, "name": first["name"], "product_id": first["product_id"], "variation_id": first["variation_id"],
					"quantity": -first["quantity"].(int64), "tax_class": "", "subtotal": cents(-amount), "subtotal_tax": "0.00", "total": cents(-amount),
					"total_tax": "0.00", "taxes": []any{}, "meta_data": []any{Object{"id": itemID*10 + 3, "key": "_refunded_item_id",
						"value": fmt.Sprint(first["id"]), "display_key": "_refunded_item_id", "display_value": fmt.Sprint(first["id"])}},
					"sku": first["sku"], "global_unique_id": "", "price": first["price"], "image": Object{"id": "", "src": ""}, "parent_name": nil}},
				"shipping_lines": []any{}, "tax_lines": []any{}, "fee_lines": []any{}})
			refundID++
			itemID++
		}
		if status == "refunded" {
			refunds = append(refunds, Object{"id": refundID, "date_created": wcDate(created.Add(3 * time.Hour)), "date_created_gmt": wcDate(created.Add(3 * time.Hour)),
				"amount": cents(total), "reason": "Order fully refunded.", "refunded_by": 1, "refunded_payment": false,
				"meta_data":  []any{Object{"id": refundID, "key": "_refund_type", "value": "full"}},
				"line_items": []any{}, "shipping_lines": []any{}, "tax_lines": []any{}, "fee_lines": []any{}})
			refundID++
		}
		var refundSummary []any
		for n := len(refunds) - 1; n >= 0; n-- { // the API lists newest first
			rf := refunds[n]
			rf["_links"] = links(origin, fmt.Sprintf("wc/v3/orders/%d/refunds/%d", id, rf["id"]), "GET", "DELETE")
			refundSummary = append(refundSummary, Object{"id": rf["id"], "reason": rf["reason"], "total": "-" + rf["amount"].(string), "total_tax": "0.00"})
			s.Refunds[id] = append(s.Refunds[id], rf)
		}
		if refundSummary == nil {
			refundSummary = []any{}
		}
		if couponLines == nil {
			couponLines = []any{}
		}
		if feeLines == nil {
			feeLines = []any{}
		}
		key := fmt.Sprintf("wc_order_%013d", id)
		s.Orders = append(s.Orders, Object{"id": id, "parent_id": 0, "status": status, "currency": "USD", "version": "11.0.1",
			"prices_include_tax": false, "date_created": wcDate(created), "date_modified": wcDate(created.Add(3 * time.Hour)),
			"discount_total": cents(discount), "discount_tax": "0.00", "shipping_total": cents(shippingTotal), "shipping_tax": cents(shippingTax),
			"cart_tax": cents(cartTax), "total": cents(total), "total_tax": cents(cartTax + shippingTax), "customer_id": customerID, "order_key": key,
			"billing": billing, "shipping": shipping, "payment_method": method, "payment_method_title": methodTitle, "transaction_id": "",
			"customer_ip_address": "", "customer_user_agent": "", "created_via": "checkout", "customer_note": map[bool]string{true: "Leave at the door.", false: ""}[i%9 == 4],
			"date_completed": dateCompleted, "date_paid": datePaid, "cart_hash": "", "number": fmt.Sprint(id),
			"meta_data":  []any{Object{"id": id * 10, "key": "_wc_order_attribution_source_type", "value": "typein"}},
			"line_items": lineItems, "tax_lines": taxLines, "shipping_lines": shippingLines, "fee_lines": feeLines, "coupon_lines": couponLines,
			"refunds": refundSummary, "payment_url": fmt.Sprintf("%s/checkout/order-pay/%d/?pay_for_order=true&key=%s", origin, id, key),
			"is_editable": status == "pending" || status == "on-hold", "needs_payment": !paid, "needs_processing": true,
			"date_created_gmt": wcDate(created), "date_modified_gmt": wcDate(created.Add(3 * time.Hour)), "date_completed_gmt": dateCompleted,
			"date_paid_gmt": datePaid, "currency_symbol": "$",
			"_links": links(origin, fmt.Sprintf("wc/v3/orders/%d", id), allMethods...)})
	}

	for i, c := range coupons {
		id := int64(FirstCouponID + i)
		var limit any
		if i%2 == 0 {
			limit = max(uses[i]+5, 5)
		}
		s.Coupons = append(s.Coupons, Object{"id": id, "code": c.code, "amount": cents(c.amount * map[bool]int64{true: 100, false: 1}[c.typ == "percent"]),
			"status": "publish", "date_created": wcDate(at(0)), "date_created_gmt": wcDate(at(0)), "date_modified": wcDate(at(0)),
			"date_modified_gmt": wcDate(at(0)), "discount_type": c.typ, "description": "", "date_expires": nil, "date_expires_gmt": nil,
			"usage_count": uses[i], "individual_use": false, "product_ids": []any{}, "excluded_product_ids": []any{}, "usage_limit": limit,
			"usage_limit_per_user": nil, "limit_usage_to_x_items": nil, "free_shipping": false, "product_categories": []any{},
			"excluded_product_categories": []any{}, "exclude_sale_items": false, "minimum_amount": "0.00", "maximum_amount": "0.00",
			"email_restrictions": []any{}, "used_by": []any{}, "meta_data": []any{},
			"_links": links(origin, fmt.Sprintf("wc/v3/coupons/%d", id), allMethods...)})
	}

	reviewStatuses := []string{"approved", "approved", "hold", "spam", "trash"}
	for i := 0; i < o.Reviews && len(o.Products) > 0; i++ {
		id := int64(FirstReviewID + i)
		p := o.Products[i%len(o.Products)]
		email := fmt.Sprintf("reviewer%d@example.com", i)
		name := fmt.Sprintf("Reviewer %d", i)
		if i < len(people) {
			email, name = people[i].email, people[i].first+" "+people[i].last
		}
		s.Reviews = append(s.Reviews, Object{"id": id, "date_created": wcDate(at(i)), "date_created_gmt": wcDate(at(i)), "product_id": p.ID,
			"product_name": p.Name, "product_permalink": fmt.Sprintf("%s/product/p-%d/", origin, p.ID), "status": reviewStatuses[i%len(reviewStatuses)],
			"reviewer": name, "reviewer_email": email, "review": fmt.Sprintf("<p>Review %d of %s.</p>\n", i, p.Name), "rating": 1 + (i*3)%5,
			"verified": i%3 == 0, "reviewer_avatar_urls": Object{"24": "", "48": "", "96": ""},
			"_links": links(origin, fmt.Sprintf("wc/v3/products/reviews/%d", id), allMethods...)})
		if i == 0 {
			replies = append(replies, Object{"id": id + 100000, "post": p.ID, "parent": id, "author": 1, "author_name": "Shop Manager",
				"author_url": "", "date": wcDate(at(i).Add(time.Hour)), "date_gmt": wcDate(at(i).Add(time.Hour)),
				"content": Object{"rendered": "<p>Thank you for your review!</p>\n"}, "link": fmt.Sprintf("%s/product/p-%d/#comment-%d", origin, p.ID, id+100000),
				"status": "approved", "type": "comment", "author_avatar_urls": Object{"24": "", "48": "", "96": ""}, "meta": []any{},
				"_links": links(origin, fmt.Sprintf("wp/v2/comments/%d", id+100000))})
		}
	}

	page := func(id int64, slug, title, body, status string, parent int64, path string) Object {
		return Object{"id": id, "date": wcDate(at(0)), "date_gmt": wcDate(at(0)), "guid": Object{"rendered": fmt.Sprintf("%s/?page_id=%d", origin, id)},
			"modified": wcDate(at(0)), "modified_gmt": wcDate(at(0)), "slug": slug, "status": status, "type": "page", "link": origin + path,
			"title": Object{"rendered": title}, "content": Object{"rendered": body, "protected": false},
			"excerpt": Object{"rendered": "", "protected": false}, "author": 1, "featured_media": 0, "parent": parent, "menu_order": 0,
			"comment_status": "closed", "ping_status": "closed", "template": "", "meta": Object{"footnotes": ""},
			"_links": links(origin, fmt.Sprintf("wp/v2/pages/%d", id))}
	}
	s.Pages = append(s.Pages,
		page(FirstPageID, "about-us", "About &#038; Us", "<p>We knit hats.</p>\n", "publish", 0, "/about-us/"),
		page(FirstPageID+1, "shipping-returns", "Shipping and returns", "<h2>Returns</h2>\n<p>30 days.</p>\n", "publish", FirstPageID, "/about-us/shipping-returns/"),
		page(FirstPageID+2, "winter-sale", "Winter sale", "<p>Soon.</p>\n", "draft", 0, fmt.Sprintf("/?page_id=%d", FirstPageID+2)),
		page(FirstPageID+3, "cart", "Cart", "<!-- wp:woocommerce/cart /-->\n", "publish", 0, "/cart/"),
	)

	setting := func(group, id, label, typ string, def, value any) Object {
		return Object{"id": id, "label": label, "description": "", "type": typ, "default": def, "tip": "", "value": value,
			"_links": links(origin, fmt.Sprintf("wc/v3/settings/%s/%s", group, id), "GET", "POST", "PUT", "PATCH")}
	}
	s.Settings["general"] = append(s.Settings["general"],
		setting("general", "woocommerce_store_address", "Address line 1", "text", "", "1 Anchor Way"),
		setting("general", "woocommerce_store_address_2", "Address line 2", "text", "", "Suite 2"),
		setting("general", "woocommerce_store_city", "City", "text", "", "San Francisco"),
		setting("general", "woocommerce_default_country", "Country / State", "select", "US:CA", "US:CA"),
		setting("general", "woocommerce_store_postcode", "Postcode / ZIP", "text", "", "94103"),
		setting("general", "woocommerce_allowed_countries", "Selling location(s)", "select", "all", "all"),
		setting("general", "woocommerce_specific_allowed_countries", "Sell to specific countries", "multiselect", []any{}, []any{}),
		setting("general", "woocommerce_calc_taxes", "Enable tax rates and calculations", "checkbox", "no", "no"),
		setting("general", "woocommerce_enable_coupons", "Enable the use of coupon codes", "checkbox", "yes", "yes"),
		setting("general", "woocommerce_currency", "Currency", "select", "USD", "USD"),
		setting("general", "woocommerce_currency_pos", "Currency position", "select", "left", "left"),
		setting("general", "woocommerce_price_thousand_sep", "Thousand separator", "text", ",", ","),
		setting("general", "woocommerce_price_decimal_sep", "Decimal separator", "text", ".", "."),
		setting("general", "woocommerce_price_num_decimals", "Number of decimals", "number", "2", "2"),
	)
	s.Settings["tax"] = append(s.Settings["tax"],
		setting("tax", "woocommerce_prices_include_tax", "Prices entered with tax", "radio", "no", "no"))
	return replies
}

// parseCents reads "12.34" (as cents makes it) back.
func parseCents(v string) int64 {
	var whole, frac int64
	neg := len(v) > 0 && v[0] == '-'
	if neg {
		v = v[1:]
	}
	fmt.Sscanf(v, "%d.%d", &whole, &frac)
	out := whole*100 + frac
	if neg {
		out = -out
	}
	return out
}

// trimCents is an amount as coupon_lines write it ("5.4", "10").
func trimCents(v int64) string {
	s := cents(v)
	for s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	return s
}
