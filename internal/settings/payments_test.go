package settings_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"vitrine/internal/payment"
	"vitrine/internal/settings"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

func TestPaymentMethods(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 24, 11, 0, 0, 0, time.UTC)
		defaults := settings.Payments{
			BankTransfer:   settings.BankTransfer{Enabled: true, Accounts: []payment.BankAccount{{AccountName: "Vitrine", AccountNumber: "12345678"}}},
			CashOnDelivery: settings.CashOnDelivery{Enabled: true},
			PayPal:         settings.PayPal{Enabled: true, ClientID: "flag-id", Secret: "flag-secret", Environment: "sandbox"},
		}
		var checked []settings.PayPal
		check := func(_ context.Context, p settings.PayPal) error {
			checked = append(checked, p)
			if p.Secret != "good-secret" && p.Secret != "flag-secret" {
				return errors.New("401 invalid_client")
			}
			return nil
		}
		var seen []int64
		s := &settings.PaymentMethods{Store: db, Defaults: defaults, Now: func() time.Time { return now }, Check: check,
			OnChange: func(d settings.Doc[settings.Payments]) { seen = append(seen, d.Version) }}
		d, err := s.Load(ctx)
		if err != nil || d.Version != 0 || !d.Value.CashOnDelivery.Enabled || d.Value.PayPal.ClientID != "flag-id" {
			t.Fatalf("defaults: %+v %v", d, err)
		}
		if ms := d.Value.Methods(); len(ms) != 2 || ms[0].ID() != "bacs" || ms[1].Title() != "Cash on delivery" {
			t.Fatalf("default methods: %+v", ms)
		}

		// A save without the secret keeps it, and unchanged credentials are not checked again.
		in := d.Value
		in.PayPal.Secret = ""
		in.CashOnDelivery = settings.CashOnDelivery{Enabled: false, Title: " Pay the courier ", Instructions: "Cash only."}
		in.BankTransfer.Title = "Bank transfer"
		in.BankTransfer.Accounts = append(in.BankTransfer.Accounts, payment.BankAccount{AccountName: "EU", IBAN: "de89 3704 0044 0532 0130 00", BIC: "cobadeffxxx"})
		saved, err := s.Update(ctx, in, 0)
		if err != nil {
			t.Fatal(err)
		}
		p := saved.Value
		if saved.Version != 1 || p.PayPal.Secret != "flag-secret" || p.CashOnDelivery.Title != "Pay the courier" ||
			p.BankTransfer.Accounts[1].IBAN != "DE89370400440532013000" || p.BankTransfer.Accounts[1].BIC != "COBADEFFXXX" || len(checked) != 0 {
			t.Fatalf("saved: %+v, checked %v", saved, checked)
		}
		if ms := p.Methods(); len(ms) != 1 || ms[0].Title() != "Bank transfer" ||
			!slices.Contains(ms[0].(payment.BankTransfer).Accounts[1].Details("DE"), payment.Detail{Label: "IBAN", Value: "DE89370400440532013000"}) {
			t.Fatalf("methods after disabling cash on delivery: %+v", ms)
		}
		if len(seen) != 2 || seen[1] != 1 {
			t.Fatalf("OnChange calls: %v", seen)
		}

		// Another instance loads it.
		other := &settings.PaymentMethods{Store: db, Defaults: defaults}
		if got, err := other.Load(ctx); err != nil || got.Version != 1 || got.Value.CashOnDelivery.Enabled || got.Value.PayPal.Secret != "flag-secret" {
			t.Fatalf("other instance: %+v %v", got, err)
		}

		// Wrong credentials are refused with PayPal's answer and nothing is saved.
		bad := p
		bad.PayPal.ClientID, bad.PayPal.Secret = "new-id", "wrong"
		var ce *settings.CheckError
		if _, err := s.Update(ctx, bad, 1); !errors.As(err, &ce) || !strings.Contains(err.Error(), "invalid_client") {
			t.Fatalf("wrong credentials: %v", err)
		}
		if len(checked) != 1 || checked[0].ClientID != "new-id" {
			t.Fatalf("checked: %+v", checked)
		}
		good := p
		good.PayPal.ClientID, good.PayPal.Secret, good.PayPal.Environment = "new-id", "good-secret", "live"
		if d, err := s.Update(ctx, good, 1); err != nil || d.Version != 2 || d.Value.PayPal.Secret != "good-secret" || d.Value.PayPal.Environment != "live" {
			t.Fatalf("good credentials: %+v %v", d, err)
		}

		// A stale save is refused.
		if _, err := s.Update(ctx, p, 1); !errors.Is(err, settings.ErrStale) {
			t.Fatalf("stale: %v", err)
		}

		// Bad input names its field and changes nothing.
		for field, mut := range map[string]func(*settings.Payments){
			"bacs.title":            func(p *settings.Payments) { p.BankTransfer.Title = "a\nb" },
			"cod.instructions":      func(p *settings.Payments) { p.CashOnDelivery.Instructions = strings.Repeat("x", 2001) },
			"bacs.accounts[1].iban": func(p *settings.Payments) { p.BankTransfer.Accounts[1].IBAN = "DE00370400440532013000" },
			"bacs.accounts[1].bic":  func(p *settings.Payments) { p.BankTransfer.Accounts[1].BIC = "ABC" },
			"bacs.accounts[0].account_number": func(p *settings.Payments) {
				p.BankTransfer.Accounts[0].AccountNumber = ""
			},
			"paypal.environment": func(p *settings.Payments) { p.PayPal.Environment = "production" },
			"paypal.client_id":   func(p *settings.Payments) { p.PayPal.ClientID = "" },
		} {
			x := s.Current().Value
			x.BankTransfer.Accounts = append([]payment.BankAccount{}, x.BankTransfer.Accounts...)
			mut(&x)
			var ie *settings.InputError
			if _, err := s.Update(ctx, x, 2); !errors.As(err, &ie) || ie.Field != field {
				t.Errorf("%s: %v", field, err)
			}
		}
		if got, _ := other.Load(ctx); got.Version != 2 || got.Value.PayPal.ClientID != "new-id" {
			t.Fatalf("a refused save changed the document: %+v", got)
		}
		// The test call alone needs credentials.
		var ie *settings.InputError
		if err := s.TestPayPal(ctx, settings.PayPal{ClientID: "x", Environment: "sandbox"}); !errors.As(err, &ie) || ie.Field != "paypal.secret" {
			t.Fatalf("test without a secret: %v", err)
		}
	})
}
