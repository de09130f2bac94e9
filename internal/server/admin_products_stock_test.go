package server_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/money"
	"vitrine/internal/payment"
	"vitrine/internal/storage/sqlstore"
)

// A product editor opened before some sales saves through the REST API:
// a count sent alone is refused in the REST error shape (409
// vitrine_stock_changed, the count now in data) and changes nothing; a
// count sent with the count the form read moves the stock by the
// difference, so the units sold meanwhile stay sold.
func TestAdminProductStockSaveAfterSales(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		ctx := context.Background()
		a := f.staffCall("Mia", "POST", "/wp-json/wc/v3/products", `{"name":"Stock Lamp","status":"publish","regular_price":"45.00",
			"manage_stock":true,"stock_quantity":10}`)
		if a.status != 201 {
			t.Fatalf("create: %d %s", a.status, a.body)
		}
		p := savedProductOf(a)
		path := "/wp-json/wc/v3/products/" + strconv.FormatInt(p.ID, 10)
		stock := func() int64 {
			t.Helper()
			got, err := f.db.Product(ctx, p.ID)
			if err != nil || got.StockQuantity == nil {
				t.Fatalf("stock: %v", err)
			}
			return *got.StockQuantity
		}

		// The editor has the form (version, 10 in stock); two are sold.
		sess := "t_admin_stock_0000000000000000001"
		if _, err := f.db.AddLine(ctx, sess, cart.Line{Key: cart.LineKey(p.ID, 0, nil), ProductID: p.ID, Quantity: 2, UnitPrice: 4500},
			seedTime, seedTime.Add(cart.Lifetime), nil); err != nil {
			t.Fatal(err)
		}
		usd, _ := money.Lookup("USD")
		cfg := checkout.DefaultConfig(usd)
		addr := checkout.Address{FirstName: "Carla", LastName: "Customer", Address1: "1 Main St", City: "Sacramento", State: "CA",
			Postcode: "95814", Country: "US", Email: "carla@example.com", Phone: "5550100200"}
		if _, _, err := f.db.PlaceOrder(ctx, sqlstore.PlaceOrderInput{Session: sess, Method: payment.BankTransfer{}, Status: checkout.StatusOnHold,
			Config: &cfg, Now: seedTime, Customer: checkout.Customer{Billing: addr, Shipping: addr},
			IdempotencyScope: "checkout:" + sess, IdempotencyKey: "k", RequestHash: "h"}); err != nil {
			t.Fatal(err)
		}
		if got := stock(); got != 8 {
			t.Fatalf("after the sale: %d in stock", got)
		}
		ver := `,"version":` + strconv.FormatInt(p.Version, 10) + `}`

		// A plain client sends the count it read: refused, nothing saved.
		a = f.staffCall("Mia", "PUT", path, `{"name":"Stock Lamp II","stock_quantity":10`+ver)
		var refusal struct {
			Code string `json:"code"`
			Data struct {
				Status        int    `json:"status"`
				Field         string `json:"field"`
				StockQuantity int64  `json:"stock_quantity"`
			} `json:"data"`
		}
		if err := json.Unmarshal([]byte(a.body), &refusal); err != nil || a.status != 409 || refusal.Code != "vitrine_stock_changed" ||
			refusal.Data.Status != 409 || refusal.Data.StockQuantity != 8 || refusal.Data.Field != "stock_quantity" {
			t.Fatalf("stale count: %d %s", a.status, a.body)
		}
		if got, _ := f.db.Product(ctx, p.ID); stock() != 8 || got.Name != "Stock Lamp" {
			t.Errorf("a refused save changed the product: %d in stock, named %q", stock(), got.Name)
		}

		// The editor's save carries the count it read: 5 received on top
		// of the 8 left.
		a = f.staffCall("Mia", "PUT", path, `{"stock_quantity":15,"original_stock_quantity":10`+ver)
		if a.status != 200 || !strings.Contains(a.body, `"stock_quantity":13`) {
			t.Fatalf("save with the original: %d %s", a.status, a.body)
		}
		if got := stock(); got != 13 {
			t.Errorf("after the save: %d in stock, want 13", got)
		}

		// With no sale since the version it names, a plain count is written.
		var now struct {
			Version int64 `json:"version"`
		}
		_ = json.Unmarshal([]byte(f.staffCall("Mia", "GET", path, "").body), &now)
		a = f.staffCall("Mia", "PUT", path, `{"stock_quantity":20,"version":`+strconv.FormatInt(now.Version, 10)+`}`)
		if a.status != 200 || stock() != 20 {
			t.Errorf("a fresh count: %d %s (stock %d)", a.status, a.body, stock())
		}
	})
}
