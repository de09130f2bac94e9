package pages_test

import (
	"time"

	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"vitrine/internal/money"
	"vitrine/internal/pages"
)

// The store notice: sanitized like a description, its id WooCommerce's
// (the MD5 of the notice as shown), a new text a new id.
func TestNewStoreNotice(t *testing.T) {
	n, err := pages.NewStoreNotice("  Sale ends <em>Sunday</em> <a href=\"/shop/\" onclick=\"x()\">Shop</a><script>alert(1)</script> ")
	if err != nil {
		t.Fatal(err)
	}
	const want = `Sale ends <em>Sunday</em> <a href="/shop/" rel="nofollow">Shop</a>`
	sum := md5.Sum([]byte(want))
	if n.HTML != want || n.ID != hex.EncodeToString(sum[:]) {
		t.Fatalf("notice %+v", n)
	}
	other, _ := pages.NewStoreNotice("Sale ends Monday")
	if other.ID == n.ID {
		t.Fatal("a new text keeps the old id")
	}
	if n, err := pages.NewStoreNotice(" \n "); n != nil || err != nil {
		t.Fatalf("blank: %+v %v", n, err)
	}
	if _, err := pages.NewStoreNotice("<script>x</script><iframe src=/x></iframe>"); !errors.Is(err, pages.ErrEmptyNotice) {
		t.Fatalf("script only: %v", err)
	}
	if _, err := pages.NewStoreNotice(strings.Repeat("é", 1001)); err == nil {
		t.Fatal("2002 bytes accepted")
	}
}

// The coming-soon page: 503, noindex, no menu, the visitor, no notice and
// no currencies, even when the loader's settings carry them.
func TestComingSoonPage(t *testing.T) {
	usd, _ := money.Lookup("USD")
	notice, _ := pages.NewStoreNotice("Hello")
	settings := pages.DefaultSettings()
	settings.StoreNotice = notice
	settings.Currencies = []pages.CurrencyOption{{Code: "USD"}, {Code: "EUR"}}
	l := &pages.Loader{Currency: usd, SiteName: "Vitrine", Tagline: "Soon", BaseURL: "https://shop.example", Settings: settings,
		Now: func() time.Time { return time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC) }}
	ctx := pages.WithUser(context.Background(), pages.User{LoggedIn: true, ID: 9, DisplayName: "Carla"})
	res, err := l.ComingSoon(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != 503 || res.Head.Robots != "noindex, nofollow" || res.Head.Canonical != "" || res.Head.Title != "Coming soon – Vitrine" {
		t.Fatalf("result %d %+v", res.Status, res.Head)
	}
	b, _ := json.Marshal(res.Data)
	s := string(b)
	for _, want := range []string{`"page":"coming-soon"`, `"nav":[]`, `"user":{"logged_in":false,"can_edit_pages":false}`, `"sticky_height":70`, `"tagline":"Soon"`} {
		if !strings.Contains(s, want) {
			t.Errorf("page lacks %s: %s", want, s)
		}
	}
	for _, not := range []string{"store_notice", "Carla", "EUR"} {
		if strings.Contains(s, not) {
			t.Errorf("page carries %s: %s", not, s)
		}
	}
}
