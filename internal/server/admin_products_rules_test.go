package server_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// The purchase rules of a product through the admin API: low-stock
// threshold, quantity rules, sold individually, tax status and class,
// up-sells and cross-sells; a variation's rules and pre-order. Each is
// saved, read back, refused when wrong (naming the field, changing
// nothing) and seen by the storefront.

type rulesProduct struct {
	ID               int64   `json:"id"`
	Version          int64   `json:"version"`
	UpsellIDs        []int64 `json:"upsell_ids"`
	CrossSellIDs     []int64 `json:"cross_sell_ids"`
	LowStockAmount   *int64  `json:"low_stock_amount"`
	SoldIndividually bool    `json:"sold_individually"`
	TaxStatus        string  `json:"tax_status"`
	TaxClass         string  `json:"tax_class"`
	QuantityRules    struct {
		Minimum    int64 `json:"minimum"`
		Maximum    int64 `json:"maximum"`
		MultipleOf int64 `json:"multiple_of"`
	} `json:"quantity_rules"`
}

func TestAdminProductPurchaseRulesAPI(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		const products = "/wp-json/wc/v3/products"
		create := func(body string) rulesProduct {
			t.Helper()
			a := f.staffCall("Mia", "POST", products, body)
			var p rulesProduct
			if a.status != 201 || json.Unmarshal([]byte(a.body), &p) != nil {
				t.Fatalf("create %s: %d %s", body, a.status, a.body)
			}
			return p
		}
		idOf := func(id int64) string { return strconv.FormatInt(id, 10) }
		mug := create(`{"name":"Enamel Mug","status":"publish","regular_price":"9.00"}`)
		plate := create(`{"name":"Enamel Plate","status":"publish","regular_price":"12.00"}`)
		draft := create(`{"name":"Enamel Bowl","regular_price":"11.00"}`)

		// A new product's defaults.
		if mug.TaxStatus != "taxable" || mug.TaxClass != "" || mug.LowStockAmount != nil || mug.SoldIndividually ||
			mug.QuantityRules.Minimum != 0 || mug.UpsellIDs == nil || len(mug.UpsellIDs) != 0 || mug.CrossSellIDs == nil {
			t.Errorf("defaults: %+v", mug)
		}

		// A customer cannot set them.
		if a := f.staffCall("Carla", "PUT", products+"/"+idOf(mug.ID), `{"tax_status":"none","version":`+idOf(mug.Version)+`}`); a.status != 403 {
			t.Errorf("customer: %d %s", a.status, a.body)
		}

		path := products + "/" + idOf(mug.ID)
		edit := `{"low_stock_amount":3,"quantity_rules":{"minimum":2,"maximum":12,"multiple_of":2},"tax_status":"shipping",
			"tax_class":"reduced-rate","upsell_ids":[` + idOf(plate.ID) + `,` + idOf(draft.ID) + `],"cross_sell_ids":[` + idOf(plate.ID) + `],"version":` + idOf(mug.Version) + `}`
		a := f.staffCall("Mia", "PUT", path, edit)
		var got rulesProduct
		if a.status != 200 || json.Unmarshal([]byte(a.body), &got) != nil {
			t.Fatalf("edit: %d %s", a.status, a.body)
		}
		if got.LowStockAmount == nil || *got.LowStockAmount != 3 || got.QuantityRules.Minimum != 2 || got.QuantityRules.Maximum != 12 ||
			got.QuantityRules.MultipleOf != 2 || got.TaxStatus != "shipping" || got.TaxClass != "reduced-rate" ||
			len(got.UpsellIDs) != 2 || got.UpsellIDs[0] != plate.ID || got.UpsellIDs[1] != draft.ID ||
			len(got.CrossSellIDs) != 1 || got.CrossSellIDs[0] != plate.ID || got.Version != mug.Version+1 {
			t.Fatalf("after the edit: %s", a.body)
		}
		// Read back from the store, not from the answer's memory.
		if a := f.staffCall("Mia", "GET", path, ""); !strings.Contains(a.body, `"quantity_rules":{"minimum":2,"maximum":12,"multiple_of":2}`) ||
			!strings.Contains(a.body, `"low_stock_amount":3`) || !strings.Contains(a.body, `"cross_sell_ids":[`+idOf(plate.ID)+`]`) {
			t.Errorf("read back: %s", a.body)
		}

		// The storefront follows: the Store API's quantity bounds, and the
		// published up-sell (not the draft) on the product page.
		store := visitorGet(f.srv, "/wp-json/wc/store/v1/products/"+idOf(mug.ID))
		var sp struct {
			AddToCart struct {
				Minimum    int64 `json:"minimum"`
				Maximum    int64 `json:"maximum"`
				MultipleOf int64 `json:"multiple_of"`
			} `json:"add_to_cart"`
		}
		if err := json.Unmarshal([]byte(store.body), &sp); err != nil || sp.AddToCart.Minimum != 2 || sp.AddToCart.Maximum != 12 || sp.AddToCart.MultipleOf != 2 {
			t.Errorf("Store API add_to_cart: %s", store.body)
		}
		var pd struct {
			Upsells []struct {
				ID int64 `json:"id"`
			} `json:"upsells"`
		}
		pageData(t, visitorGet(f.srv, "/product/enamel-mug/").body, &pd)
		if len(pd.Upsells) != 1 || pd.Upsells[0].ID != plate.ID {
			t.Errorf("product page up-sells (the published one only): %+v", pd.Upsells)
		}

		// Refusals: the field named, nothing changed.
		ver := `,"version":` + idOf(got.Version) + `}`
		for _, c := range []struct{ body, field string }{
			{`{"low_stock_amount":-3`, "low_stock_amount"},
			{`{"low_stock_amount":"many"`, ""},
			{`{"quantity_rules":{"minimum":5,"maximum":4,"multiple_of":0}`, "quantity_rules.maximum"},
			{`{"quantity_rules":{"minimum":3}`, "quantity_rules.minimum"},
			{`{"quantity_rules":{"maximum":13}`, "quantity_rules.maximum"},
			{`{"quantity_rules":{"multiple_of":-1}`, "quantity_rules.multiple_of"},
			{`{"quantity_rules":{"maximum":2000000}`, "quantity_rules.maximum"},
			{`{"tax_status":"sometimes"`, "tax_status"},
			{`{"tax_class":"luxury"`, "tax_class"},
			{`{"upsell_ids":[` + idOf(mug.ID) + `]`, "upsell_ids"},
			{`{"upsell_ids":[` + idOf(plate.ID) + `,` + idOf(plate.ID) + `]`, "upsell_ids"},
			{`{"cross_sell_ids":[999999]`, "cross_sell_ids"},
			{`{"cross_sell_ids":[` + strings.Repeat(idOf(plate.ID)+",", 50) + idOf(plate.ID) + `]`, "cross_sell_ids"},
		} {
			a := f.staffCall("Mia", "PUT", path, c.body+ver)
			if a.status != 400 || (c.field != "" && (!strings.Contains(a.body, "rest_invalid_param") || !strings.Contains(a.body, `"`+c.field+`"`))) {
				t.Errorf("%s: %d %s", c.body, a.status, a.body)
			}
		}
		if a := f.staffCall("Mia", "GET", path, ""); !strings.Contains(a.body, `"version":`+idOf(got.Version)) || !strings.Contains(a.body, `"tax_status":"shipping"`) {
			t.Errorf("a refused edit changed the product: %s", a.body)
		}

		// null gives the threshold back to the shop; sold individually
		// replaces the quantity bounds on the storefront.
		a = f.staffCall("Mia", "PUT", path, `{"low_stock_amount":null,"sold_individually":true,"upsell_ids":[]`+ver)
		if a.status != 200 || !strings.Contains(a.body, `"low_stock_amount":null`) || !strings.Contains(a.body, `"sold_individually":true`) ||
			!strings.Contains(a.body, `"upsell_ids":[]`) || !strings.Contains(a.body, `"quantity_rules":{"minimum":2,`) {
			t.Fatalf("clear: %d %s", a.status, a.body)
		}
		store = visitorGet(f.srv, "/wp-json/wc/store/v1/products/"+idOf(mug.ID))
		if err := json.Unmarshal([]byte(store.body), &sp); err != nil || sp.AddToCart.Minimum != 1 || sp.AddToCart.Maximum != 1 {
			t.Errorf("sold individually on the Store API: %s", store.body)
		}
	})
}

func TestAdminVariationPurchaseRulesAPI(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		const products = "/wp-json/wc/v3/products"
		at := f.globalAttribute("pa_color")
		a := f.staffCall("Mia", "POST", products, `{"name":"Linen Apron","type":"variable","status":"publish","attributes":[{"id":`+
			strconv.FormatInt(at.ID, 10)+`,"options":["`+at.Terms[0].Name+`","`+at.Terms[1].Name+`"],"visible":true,"variation":true}]}`)
		var p rulesProduct
		if a.status != 201 || json.Unmarshal([]byte(a.body), &p) != nil {
			t.Fatalf("create: %d %s", a.status, a.body)
		}
		path := products + "/" + strconv.FormatInt(p.ID, 10)
		a = f.staffCall("Mia", "POST", path+"/variations/generate", `{"version":`+strconv.FormatInt(p.Version, 10)+`}`)
		var gen struct {
			Version    int64 `json:"version"`
			Variations []struct {
				ID int64 `json:"id"`
			} `json:"variations"`
		}
		if a.status != 200 || json.Unmarshal([]byte(a.body), &gen) != nil || len(gen.Variations) != 2 {
			t.Fatalf("generate: %d %s", a.status, a.body)
		}
		v0, v1 := strconv.FormatInt(gen.Variations[0].ID, 10), strconv.FormatInt(gen.Variations[1].ID, 10)
		batch := func(version int64, items string) frameAnswer {
			return f.staffCall("Mia", "POST", path+"/variations/batch", `{"version":`+strconv.FormatInt(version, 10)+`,"update":[`+items+`]}`)
		}

		// Refused, the batch item's field named, nothing written.
		for _, c := range []struct{ item, field string }{
			{`{"id":` + v0 + `,"regular_price":"10.00","pre_order":true,"pre_order_date_gmt":"2020-01-01T09:00:00"}`, "update[0].pre_order_date_gmt"},
			{`{"id":` + v0 + `,"pre_order_date_gmt":"next week"}`, "update[0].pre_order_date_gmt"},
			{`{"id":` + v0 + `},{"id":` + v1 + `,"pre_order_label":"` + strings.Repeat("x", 61) + `"}`, "update[1].pre_order_label"},
			{`{"id":` + v0 + `,"quantity_rules":{"minimum":4,"maximum":2}}`, "update[0].quantity_rules.maximum"},
			{`{"id":` + v0 + `,"low_stock_amount":-1}`, "update[0].low_stock_amount"},
		} {
			a := batch(gen.Version, c.item)
			if a.status != 400 || !strings.Contains(a.body, `"`+c.field+`"`) {
				t.Errorf("%s: %d %s", c.item, a.status, a.body)
			}
		}

		a = batch(gen.Version, `{"id":`+v0+`,"regular_price":"30.00","pre_order":true,"pre_order_date_gmt":"2031-03-01T09:00:00",
			"low_stock_amount":2,"quantity_rules":{"maximum":4}},{"id":`+v1+`,"regular_price":"30.00"}`)
		var answer struct {
			Version    int64 `json:"version"`
			Variations []struct {
				ID              int64   `json:"id"`
				PreOrder        bool    `json:"pre_order"`
				PreOrderDateGMT *string `json:"pre_order_date_gmt"`
				PreOrderLabel   string  `json:"pre_order_label"`
				LowStockAmount  *int64  `json:"low_stock_amount"`
				QuantityRules   struct {
					Maximum int64 `json:"maximum"`
				} `json:"quantity_rules"`
			} `json:"variations"`
		}
		if a.status != 200 || json.Unmarshal([]byte(a.body), &answer) != nil || len(answer.Variations) != 2 {
			t.Fatalf("batch: %d %s", a.status, a.body)
		}
		for _, v := range answer.Variations {
			if v.ID != gen.Variations[0].ID {
				if v.PreOrder || v.PreOrderDateGMT != nil {
					t.Errorf("the other variation is a pre-order: %s", a.body)
				}
				continue
			}
			// The label defaults to the storefront's pre-order button text.
			if !v.PreOrder || v.PreOrderDateGMT == nil || *v.PreOrderDateGMT != "2031-03-01T09:00:00" || v.PreOrderLabel != "Pre-order now" ||
				v.LowStockAmount == nil || *v.LowStockAmount != 2 || v.QuantityRules.Maximum != 4 {
				t.Errorf("variation 0: %s", a.body)
			}
		}
		// The storefront's variation data carries the pre-order.
		page := visitorGet(f.srv, "/product/linen-apron/")
		if !strings.Contains(page.body, `"is_pre_order":"yes"`) || !strings.Contains(page.body, "2031-03-01T09:00:00Z") {
			t.Errorf("product page variation data: pre-order missing")
		}

		// Sold individually is the product's, and its variations follow it.
		a = f.staffCall("Mia", "PUT", path, `{"sold_individually":true,"version":`+strconv.FormatInt(answer.Version, 10)+`}`)
		if a.status != 200 {
			t.Fatalf("sold individually: %d %s", a.status, a.body)
		}
		vars, err := f.db.Variations(context.Background(), p.ID)
		if err != nil || len(vars) != 2 || !vars[0].SoldIndividually || !vars[1].SoldIndividually {
			t.Errorf("variations after sold individually: %v %+v", err, vars)
		}
		// Clearing the pre-order date and flag.
		a = batch(answer.Version+1, `{"id":`+v0+`,"pre_order":false,"pre_order_date_gmt":""}`)
		if a.status != 200 || strings.Contains(a.body, `"pre_order":true`) || strings.Contains(a.body, "2031-03-01") {
			t.Errorf("clear pre-order: %d %s", a.status, a.body)
		}
	})
}
