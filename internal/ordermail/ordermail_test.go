package ordermail

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"vitrine/internal/cart"
	"vitrine/internal/checkout"
	"vitrine/internal/mail"
	"vitrine/internal/money"
	"vitrine/internal/orders"
	"vitrine/internal/pages"
	"vitrine/internal/payment"
)

// fakeOrders holds one order and its notes in memory.
type fakeOrders struct {
	d     *orders.Detail
	notes map[int64]orders.Note
}

func (f fakeOrders) Get(_ context.Context, id int64) (*orders.Detail, error) {
	if f.d == nil || f.d.ID != id {
		return nil, checkout.ErrOrderNotFound
	}
	return f.d, nil
}

func (f fakeOrders) Note(_ context.Context, id int64) (orders.Note, error) {
	n, ok := f.notes[id]
	if !ok {
		return orders.Note{}, checkout.ErrOrderNotFound
	}
	return n, nil
}

func views(o fakeOrders) *Views {
	return New(Deps{
		Orders: o,
		PaymentTexts: func(*checkout.Order) (string, []pages.BankAccountView) {
			return "Pay to our account.", []pages.BankAccountView{{Details: []payment.Detail{{Label: "IBAN", Value: "GB00 TEST"}}}}
		},
		TestNotice:  func(*checkout.Order) string { return "" },
		SiteName:    func() string { return "Shop" },
		BaseURL:     "https://shop.example",
		BaseCountry: "GB",
	})
}

func order(status, method string) *orders.Detail {
	usd, _ := money.Lookup("USD")
	addr := cart.Address{FirstName: "Ada", LastName: "Lovelace", Address1: "1 Road", City: "London", Country: "GB", Email: "ada@example.com"}
	return &orders.Detail{
		Order: &checkout.Order{ID: 7, Number: "7", Key: "wc_order_k", Status: status, Currency: "USD", PaymentMethod: method,
			Billing: addr, Shipping: addr, CreatedAt: time.Date(2027, 1, 2, 3, 4, 5, 0, time.UTC),
			Lines: []checkout.Line{{Name: "Cap", Quantity: 2, Subtotal: 3000, Total: 3000}}, Total: 3000},
		Refunds: []orders.Refund{{Amount: 500, Status: orders.RefundCompleted}, {Amount: 900, Status: orders.RefundFailed}},
		Money:   usd,
	}
}

func TestOrderView(t *testing.T) {
	v := views(fakeOrders{d: order(checkout.StatusOnHold, payment.BankTransferID)})
	m, err := v.Order(context.Background(), 7)
	if err != nil {
		t.Fatal(err)
	}
	if !m.AwaitingPayment || m.Instructions != "Pay to our account." || len(m.BankAccounts) != 1 || m.BankAccounts[0][0] != (mail.Row{Label: "IBAN", Value: "GB00 TEST"}) {
		t.Errorf("an unpaid bank transfer shows its instructions and accounts: %+v", m)
	}
	if m.Shipping != nil {
		t.Errorf("a shipping address equal to the billing one is not repeated: %v", m.Shipping)
	}
	if !strings.HasPrefix(m.OrderURL, "https://shop.example/checkout/order-received/7/") || m.ShopName != "Shop" || m.CustomerName != "Ada Lovelace" {
		t.Errorf("url, shop and customer: %q %q %q", m.OrderURL, m.ShopName, m.CustomerName)
	}
	if len(m.Lines) != 1 || m.Lines[0].Quantity != "2" || m.Lines[0].Name != "Cap" {
		t.Errorf("lines: %+v", m.Lines)
	}
	last := m.Totals[len(m.Totals)-1]
	if last.Label != "Refund:" || last.Value != "-$5.00" {
		t.Errorf("only the completed refund is listed under the total: %+v", m.Totals)
	}
	if m.FullRefund {
		t.Error("an on-hold order is not fully refunded")
	}
}

func TestOrderViewPaidAndRefunded(t *testing.T) {
	d := order(checkout.StatusRefunded, payment.BankTransferID)
	paid := d.CreatedAt
	d.PaidAt = &paid
	d.Shipping.Address1 = "2 Lane"
	m, err := views(fakeOrders{d: d}).Order(context.Background(), 7)
	if err != nil {
		t.Fatal(err)
	}
	if m.AwaitingPayment || m.Instructions != "" || m.BankAccounts != nil {
		t.Errorf("a paid order asks for no payment: %+v", m)
	}
	if !m.FullRefund || len(m.Shipping) == 0 {
		t.Errorf("refunded %v, shipping %v", m.FullRefund, m.Shipping)
	}
}

func TestUnknownOrderAndNote(t *testing.T) {
	v := views(fakeOrders{d: order(checkout.StatusProcessing, "cod"), notes: map[int64]orders.Note{3: {ID: 3, OrderID: 7, Note: "Shipped today."}}})
	if _, err := v.Order(context.Background(), 8); !errors.Is(err, mail.ErrNotFound) {
		t.Errorf("unknown order: %v, want mail.ErrNotFound (given up, not retried)", err)
	}
	if _, err := v.CustomerNote(context.Background(), 4); !errors.Is(err, mail.ErrNotFound) {
		t.Errorf("unknown note: %v, want mail.ErrNotFound", err)
	}
	m, err := v.CustomerNote(context.Background(), 3)
	if err != nil || m.Note != "Shipped today." || m.Number != "7" {
		t.Errorf("a note's mail is its order's with the note: %q %q %v", m.Note, m.Number, err)
	}
}
