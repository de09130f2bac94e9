package payment

import (
	"slices"
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
	// The instructions are the description alone: the accounts are listed
	// once, from Details, never also run into the text.
	if ins := m.Instructions(); ins != bacsDescription {
		t.Errorf("instructions: %q", ins)
	}
	got := b.Accounts[0].Details("US")
	want := []Detail{{"Bank", "Bank"}, {"Account name", "Shop Ltd"}, {"Account number", "123"}, {"IBAN", "DE89370400440532013000"}}
	if !slices.Equal(got, want) {
		t.Errorf("details: %+v", got)
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

// The sort code is named as the shop's country names it; empty fields are
// left out and values trimmed.
func TestBankAccountDetails(t *testing.T) {
	a := BankAccount{AccountName: " Shop Ltd ", RoutingNumber: "12-34-56", BIC: "COBADEFFXXX", AccountNumber: "  "}
	for country, label := range map[string]string{"GB": "Sort code", "": "Sort code", "us": "Routing number", "AU": "BSB", "IN": "IFSC", "CA": "Bank transit number"} {
		want := []Detail{{"Account name", "Shop Ltd"}, {label, "12-34-56"}, {"BIC", "COBADEFFXXX"}}
		if got := a.Details(country); !slices.Equal(got, want) {
			t.Errorf("%q: %+v", country, got)
		}
	}
	if got := (BankAccount{}).Details("GB"); len(got) != 0 {
		t.Errorf("empty account: %+v", got)
	}
}
