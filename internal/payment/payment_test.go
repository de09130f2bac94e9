package payment

import (
	"strings"
	"sync"
	"testing"
)

type wallet struct{ title string }

func (wallet) ID() string          { return WalletGatewayID }
func (w wallet) Title() string     { return w.title }
func (wallet) Description() string { return "" }
func (wallet) Offline() bool       { return false }

func TestCheckoutOfflineMethods(t *testing.T) {
	b := BankTransfer{Accounts: []BankAccount{{AccountName: "Shop Ltd", BankName: "Bank", AccountNumber: "123", IBAN: "DE89370400440532013000"}}}
	var m OfflineMethod = b
	if m.ID() != "bacs" || !m.Offline() || m.PlacedStatus() != "on-hold" || m.Title() != "Direct bank transfer" {
		t.Errorf("bacs: %s %v %s", m.ID(), m.Offline(), m.PlacedStatus())
	}
	ins := m.Instructions()
	for _, want := range []string{"Please use your Order ID as the payment reference", "Our bank details", "Shop Ltd:",
		"Account number: 123", "IBAN: DE89370400440532013000"} {
		if !strings.Contains(ins, want) {
			t.Errorf("instructions lack %q:\n%s", want, ins)
		}
	}
	if strings.Contains(ins, "BIC:") || strings.Contains(ins, "Routing number:") {
		t.Errorf("empty account fields shown:\n%s", ins)
	}
	if strings.Contains(BankTransfer{}.Instructions(), "Our bank details") {
		t.Error("bank details header without accounts")
	}
	var c OfflineMethod = CashOnDelivery{}
	if c.ID() != "cod" || c.PlacedStatus() != "processing" || c.Instructions() != "Pay with cash upon delivery." {
		t.Errorf("cod: %s %s", c.ID(), c.PlacedStatus())
	}
}

func TestCheckoutPaymentRegistry(t *testing.T) {
	r := NewRegistry(BankTransfer{}, CashOnDelivery{})
	if _, ok := r.Get("nope"); ok {
		t.Error("unknown method found")
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); r.Add(wallet{"PayPal"}); _ = r.List() }()
	}
	wg.Wait()
	r.Add(wallet{"PayPal (new)"})
	list := r.List()
	if len(list) != 3 || list[2].Title() != "PayPal (new)" || Kind(list[2]) != "wallet" || Kind(list[0]) != "offline" {
		t.Fatalf("list %v", list)
	}
	if m, ok := r.Get("cod"); !ok || m.Title() != "Cash on delivery" {
		t.Error("get cod")
	}
	list[0] = nil // the list is a copy
	if r.List()[0] == nil {
		t.Error("List exposes the registry's slice")
	}
}
