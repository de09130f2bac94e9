package mail

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestCodeReusedNotice(t *testing.T) {
	v := OwnerView{ShopName: "Vitrine", Email: "ada@example.com", Name: "Ada <b>", SecurityURL: "https://shop.test/my-account/security/"}
	var asked int64
	r := CodeReusedRenderer(func(ctx context.Context, id int64) (OwnerView, error) {
		asked = id
		return v, nil
	})
	at := time.Date(2026, 11, 23, 14, 5, 0, 0, time.UTC)
	m, err := r(context.Background(), KindAccountCodeReused, fmt.Sprintf("42.%d", at.Unix()))
	if err != nil {
		t.Fatal(err)
	}
	if asked != 42 || len(m.To) != 1 || m.To[0] != "ada@example.com" {
		t.Fatalf("asked %d, to %v", asked, m.To)
	}
	if m.Subject != "[Vitrine] A used security code was entered again" {
		t.Errorf("subject %q", m.Subject)
	}
	for _, want := range []string{"Hi Ada <b>,", "November 23, 2026 at 14:05 UTC", "ada@example.com", "change your password", v.SecurityURL, "\n-- \nVitrine\n"} {
		if !strings.Contains(m.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, m.Text)
		}
	}
	if strings.Contains(m.HTML, "Ada <b>") || !strings.Contains(m.HTML, "Ada &lt;b&gt;") || !strings.Contains(m.HTML, `href="https://shop.test/my-account/security/"`) {
		t.Errorf("html does not escape the name or lacks the link:\n%s", m.HTML)
	}
	for _, ref := range []string{"", "42", "x.1", "42.x", "0.1", "-3.1"} {
		if _, err := r(context.Background(), KindAccountCodeReused, ref); !errors.Is(err, ErrPermanent) {
			t.Errorf("ref %q: %v, want permanent", ref, err)
		}
	}
	gone := CodeReusedRenderer(func(context.Context, int64) (OwnerView, error) {
		return OwnerView{}, fmt.Errorf("x: %w", ErrNotFound)
	})
	if _, err := gone(context.Background(), KindAccountCodeReused, "1.1"); !errors.Is(err, ErrPermanent) {
		t.Errorf("deleted account: %v, want permanent", err)
	}
	down := CodeReusedRenderer(func(context.Context, int64) (OwnerView, error) { return OwnerView{}, errors.New("store down") })
	if _, err := down(context.Background(), KindAccountCodeReused, "1.1"); err == nil || errors.Is(err, ErrPermanent) {
		t.Errorf("store down: %v, want a retryable error", err)
	}
}
