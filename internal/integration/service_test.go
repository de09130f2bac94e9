package integration_test

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/integration"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// keyShop is a store with a shop manager and a customer, and the key service on a test clock.
type keyShop struct {
	t        testing.TB
	db       *sqlstore.DB
	clock    *storetest.Clock
	svc      *integration.Service
	manager  int64
	customer int64
}

func newKeyShop(t testing.TB, db *sqlstore.DB) *keyShop {
	t.Helper()
	clock := storetest.FrozenClock(time.Unix(wooTime, 0))
	db.SetClock(clock.Now)
	s := &keyShop{t: t, db: db, clock: clock, svc: &integration.Service{Store: db, Now: clock.Now}}
	for i, role := range []string{account.RoleShopManager, account.RoleCustomer} {
		id, err := db.CreateUser(context.Background(), &account.User{Email: strconv.Itoa(i) + "@example.com", Role: role,
			PasswordHash: "unused", CreatedAt: clock.Now()})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			s.manager = id
		} else {
			s.customer = id
		}
	}
	return s
}

func (s *keyShop) create(p integration.Permission) *integration.Created {
	s.t.Helper()
	c, err := s.svc.Create(context.Background(), s.manager, "Accounting", p)
	if err != nil {
		s.t.Fatal(err)
	}
	return c
}

// wantRefused fails unless err is the refusal want.
func wantRefused(t *testing.T, what string, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Errorf("%s: %v, want %v", what, err, want)
	}
}

var (
	keyRe    = regexp.MustCompile(`^ck_[0-9a-f]{40}$`)
	secretRe = regexp.MustCompile(`^cs_[0-9a-f]{40}$`)
)

func TestCreateListRevoke(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		s := newKeyShop(t, db)
		ctx := context.Background()
		for _, c := range []struct {
			user int64
			desc string
			p    integration.Permission
			want error
		}{
			{s.manager, "  ", integration.ReadWrite, integration.ErrDescription},
			{s.manager, string(make([]rune, 201)), integration.ReadWrite, integration.ErrDescription},
			{s.manager, "Zapier", "admin", integration.ErrBadPermissions},
			{s.manager + 100, "Zapier", integration.Read, integration.ErrNoUser},
		} {
			if _, err := s.svc.Create(ctx, c.user, c.desc, c.p); !errors.Is(err, c.want) {
				t.Errorf("create %q %q for %d: %v", c.desc, c.p, c.user, err)
			}
		}
		a := s.create(integration.Read)
		b := s.create(integration.ReadWrite)
		if !keyRe.MatchString(a.ConsumerKey) || !secretRe.MatchString(a.ConsumerSecret) || a.ConsumerKey == b.ConsumerKey || a.ConsumerSecret == b.ConsumerSecret {
			t.Fatalf("keys: %s %s / %s %s", a.ConsumerKey, a.ConsumerSecret, b.ConsumerKey, b.ConsumerSecret)
		}
		// Stored as WooCommerce stores it: the key's hash, the secret, the last 7 characters.
		keys, err := s.svc.List(ctx, 0)
		if err != nil || len(keys) != 2 {
			t.Fatalf("list: %+v %v", keys, err)
		}
		k := keys[0]
		if k.ID != a.ID || k.KeyHash != integration.HashKey(a.ConsumerKey) || k.Secret != a.ConsumerSecret ||
			k.TruncatedKey != a.ConsumerKey[36:] || len(k.TruncatedKey) != 7 || k.Permissions != integration.Read ||
			k.Description != "Accounting" || k.UserID != s.manager || !k.LastAccess.IsZero() || !k.CreatedAt.Equal(s.clock.Now()) {
			t.Fatalf("stored: %+v", k)
		}
		// wc_api_hash: HMAC-SHA256 keyed "wc-api", hex.
		if got := integration.HashKey("ck_test"); got != "c84d2755258acc4448a88c9c78ff71533c13fb2e23886445743b0c75f08bf2d1" {
			t.Errorf("hash: %s", got)
		}
		var n int
		if err := db.Read.Get(&n, db.Read.Rebind(`SELECT COUNT(*) FROM api_keys WHERE consumer_key = ? OR consumer_key = ?`), a.ConsumerKey, b.ConsumerKey); err != nil || n != 0 {
			t.Errorf("a consumer key is stored as it is: %d %v", n, err)
		}
		if mine, _ := s.svc.List(ctx, s.customer); len(mine) != 0 {
			t.Errorf("the customer's keys: %+v", mine)
		}

		// Revoked: refused at once, and gone from the list.
		if _, err := s.svc.Basic(ctx, a.ConsumerKey, a.ConsumerSecret, "192.0.2.1"); err != nil {
			t.Fatal(err)
		}
		if err := s.svc.Revoke(ctx, a.ID); err != nil {
			t.Fatal(err)
		}
		wantRefused(t, "revoked key", func() error { _, err := s.svc.Basic(ctx, a.ConsumerKey, a.ConsumerSecret, "192.0.2.1"); return err }(), integration.ErrInvalidKey)
		wantRefused(t, "revoke twice", s.svc.Revoke(ctx, a.ID), integration.ErrNoKey)
		if keys, _ := s.svc.List(ctx, s.manager); len(keys) != 1 || keys[0].ID != b.ID {
			t.Errorf("after revoking: %+v", keys)
		}
		// A key goes with its user.
		if err := db.DeleteUser(ctx, s.manager); err != nil {
			t.Fatal(err)
		}
		if keys, _ := s.svc.List(ctx, 0); len(keys) != 0 {
			t.Errorf("keys of a deleted user: %+v", keys)
		}
	})
}

func TestBasicAndPermissions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		s := newKeyShop(t, db)
		ctx := context.Background()
		rw, r := s.create(integration.ReadWrite), s.create(integration.Read)
		w := s.create(integration.Write)
		auth, err := s.svc.Basic(ctx, rw.ConsumerKey, rw.ConsumerSecret, "192.0.2.1")
		if err != nil || auth.User.ID != s.manager || auth.User.Role != account.RoleShopManager || auth.Key.ID != rw.ID {
			t.Fatalf("basic: %+v %v", auth, err)
		}
		wantRefused(t, "wrong secret", func() error { _, err := s.svc.Basic(ctx, rw.ConsumerKey, r.ConsumerSecret, "192.0.2.1"); return err }(), integration.ErrInvalidSecret)
		wantRefused(t, "unknown key", func() error {
			_, err := s.svc.Basic(ctx, otherKey(rw.ConsumerKey), rw.ConsumerSecret, "192.0.2.1")
			return err
		}(), integration.ErrInvalidKey)
		wantRefused(t, "no key", func() error { _, err := s.svc.Basic(ctx, "", rw.ConsumerSecret, "192.0.2.1"); return err }(), integration.ErrInvalidKey)

		for _, c := range []struct {
			key    *integration.Created
			method string
			want   error
		}{
			{rw, "GET", nil}, {rw, "DELETE", nil}, {rw, "OPTIONS", nil},
			{r, "GET", nil}, {r, "HEAD", nil}, {r, "POST", integration.ErrNoWrite}, {r, "PUT", integration.ErrNoWrite},
			{r, "PATCH", integration.ErrNoWrite}, {r, "DELETE", integration.ErrNoWrite},
			{w, "POST", nil}, {w, "GET", integration.ErrNoRead}, {w, "OPTIONS", nil}, {rw, "PROPFIND", integration.ErrUnknownMethod},
		} {
			a, err := s.svc.Basic(ctx, c.key.ConsumerKey, c.key.ConsumerSecret, "192.0.2.1")
			if err != nil {
				t.Fatal(err)
			}
			if err := a.Permit(c.method); err != c.want {
				t.Errorf("%s key, %s: %v, want %v", c.key.Permissions, c.method, err, c.want)
			}
		}
		if integration.ErrNoWrite.Message != "The API key provided does not have write permissions." || integration.ErrNoWrite.Status != 401 {
			t.Errorf("write refusal: %+v", integration.ErrNoWrite)
		}
	})
}

// signed is an OAuth request with the key's signature for url at the clock's time.
func (s *keyShop) signed(c *integration.Created, method, url, nonce string, extra ...string) integration.OAuthRequest {
	params := append(kv(extra...), kv("oauth_consumer_key", c.ConsumerKey, "oauth_nonce", nonce, "oauth_signature_method", integration.HMACSHA256,
		"oauth_timestamp", strconv.FormatInt(s.clock.Now().Unix(), 10), "oauth_version", "1.0")...)
	sig, _ := integration.Sign(integration.HMACSHA256, c.ConsumerSecret+"&", integration.BaseString(method, url, params))
	params = append(params, integration.Param{Name: "oauth_signature", Value: sig})
	return integration.OAuthRequest{Method: method, URLs: []string{"http://shop.example" + "/wp-json/wc/v3/products"}, Params: params, ClientIP: "192.0.2.7"}
}

func TestOAuth(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		s := newKeyShop(t, db)
		ctx := context.Background()
		const products = "http://shop.example/wp-json/wc/v3/products"

		// WooCommerce's client's request (TestSignWooCommerceRequest) with a key stored with that key and secret.
		if _, err := db.InsertAPIKey(ctx, &integration.Key{UserID: s.manager, Description: "n8n", Permissions: integration.ReadWrite,
			KeyHash: integration.HashKey(wooKey), Secret: wooSecret, TruncatedKey: wooKey[36:], CreatedAt: s.clock.Now()}); err != nil {
			t.Fatal(err)
		}
		woo := append(wooParams(), integration.Param{Name: "oauth_signature", Value: "e3x92R9i4l5k4Q3ThKtZ75cDylPHylp1/3qHEIth1wE="})
		req := integration.OAuthRequest{Method: "GET", URLs: []string{products}, Params: woo, ClientIP: "192.0.2.7"}
		if !integration.IsOAuth(woo) || integration.IsOAuth(kv("per_page", "3")) {
			t.Error("IsOAuth")
		}
		auth, err := s.svc.OAuth(ctx, req)
		if err != nil || auth.User.ID != s.manager {
			t.Fatalf("WooCommerce's request: %+v %v", auth, err)
		}
		// The same request again: its nonce is spent.
		_, err = s.svc.OAuth(ctx, req)
		wantRefused(t, "replayed", err, integration.ErrNonceUsed)

		c := s.create(integration.ReadWrite)
		// Either signature method; a signature for another of the shop's URLs.
		r := s.signed(c, "GET", products, "n1", "per_page", "3")
		if _, err := s.svc.OAuth(ctx, r); err != nil {
			t.Fatalf("signed: %v", err)
		}
		r = s.signed(c, "POST", "http://127.0.0.1:8080/wp-json/wc/v3/products", "n2")
		r.URLs = append(r.URLs, "http://127.0.0.1:8080/wp-json/wc/v3/products")
		if _, err := s.svc.OAuth(ctx, r); err != nil {
			t.Fatalf("signed for the request's host: %v", err)
		}
		// A "+" in the signature read as a space, or the signature encoded twice, is taken back.
		for i := 0; i < 100; i++ {
			r = s.signed(c, "GET", products, "plus"+strconv.Itoa(i))
			sig := r.Params[len(r.Params)-1].Value
			if !regexp.MustCompile(`[+/]`).MatchString(sig) {
				continue
			}
			r.Params[len(r.Params)-1].Value = regexp.MustCompile(`\+`).ReplaceAllString(regexp.MustCompile(`/`).ReplaceAllString(sig, "%2F"), " ")
			if _, err := s.svc.OAuth(ctx, r); err != nil {
				t.Fatalf("signature %q sent as %q: %v", sig, r.Params[len(r.Params)-1].Value, err)
			}
			break
		}

		// Refusals, in WooCommerce's order.
		tampered := s.signed(c, "GET", products, "n3", "per_page", "3")
		set(&tampered, "per_page", "100") // changed after signing
		wrongMethod := s.signed(c, "GET", products, "n4")
		wrongMethod.Method = "DELETE"
		badMethod := s.signed(c, "GET", products, "n5")
		set(&badMethod, "oauth_signature_method", "PLAINTEXT")
		otherKey := s.signed(c, "GET", products, "n6")
		set(&otherKey, "oauth_consumer_key", "ck_"+c.ConsumerKey[3:42]+"x")
		s.clock.Add(-16 * time.Minute)
		stale := s.signed(c, "GET", products, "n7")
		s.clock.Add(32 * time.Minute)
		future := s.signed(c, "GET", products, "n8")
		s.clock.Add(-16 * time.Minute)
		missing := s.signed(c, "GET", products, "n9")
		missing.Params = missing.Params[1:3] // no key, no timestamp, no signature
		for _, x := range []struct {
			what string
			req  integration.OAuthRequest
			want *integration.Error
		}{
			{"tampered", tampered, integration.ErrInvalidSignature},
			{"another method", wrongMethod, integration.ErrInvalidSignature},
			{"PLAINTEXT", badMethod, integration.ErrSignatureMethod},
			{"unknown key", otherKey, integration.ErrInvalidKey},
			{"16 minutes old", stale, integration.ErrTimestamp},
			{"16 minutes ahead", future, integration.ErrTimestamp},
		} {
			_, err := s.svc.OAuth(ctx, x.req)
			wantRefused(t, x.what, err, x.want)
		}
		_, err = s.svc.OAuth(ctx, missing)
		var e *integration.Error
		if !errors.As(err, &e) || e.Code != "woocommerce_rest_authentication_missing_parameter" ||
			e.Message != "Missing OAuth parameters oauth_consumer_key, oauth_timestamp, oauth_signature" || e.Status != 401 {
			t.Errorf("missing: %v", err)
		}
		// A refused timestamp spends no nonce: the same nonce, on time, passes.
		s.clock.Add(-16 * time.Minute)
		late := s.signed(c, "GET", products, "again")
		s.clock.Add(16 * time.Minute)
		_, err = s.svc.OAuth(ctx, late)
		wantRefused(t, "stale", err, integration.ErrTimestamp)
		if _, err := s.svc.OAuth(ctx, s.signed(c, "GET", products, "again")); err != nil {
			t.Errorf("a nonce refused with its stale timestamp: %v", err)
		}

		// Nonces are kept for their window, then pruned; a key's nonces are its own.
		var kept int
		_ = db.Read.Get(&kept, `SELECT COUNT(*) FROM api_key_nonces`)
		if kept < 5 {
			t.Errorf("%d nonces kept", kept)
		}
		other := s.create(integration.Read)
		if _, err := s.svc.OAuth(ctx, s.signed(other, "GET", products, "n1")); err != nil {
			t.Errorf("another key's nonce: %v", err)
		}
		if n, err := s.svc.DeleteSpentNonces(ctx); err != nil || n != 0 {
			t.Errorf("pruned within the window: %d %v", n, err)
		}
		s.clock.Add(NonceWindowPlus)
		if n, err := s.svc.DeleteSpentNonces(ctx); err != nil || int(n) != kept+1 {
			t.Errorf("pruned after the window: %d of %d, %v", n, kept+1, err)
		}
	})
}

// set replaces the named parameter's value.
func set(r *integration.OAuthRequest, name, value string) {
	for i := range r.Params {
		if r.Params[i].Name == name {
			r.Params[i].Value = value
		}
	}
}

// NonceWindowPlus is past the window of every nonce of the test.
const NonceWindowPlus = integration.NonceWindow + 17*time.Minute

// A nonce used twice at once, on two instances, is accepted once.
func TestNonceOnceAcrossInstances(t *testing.T) {
	storetest.EachDSN(t, func(t *testing.T, dsn string) {
		s := newKeyShop(t, storetest.OpenDSN(t, dsn))
		c := s.create(integration.ReadWrite)
		other := &integration.Service{Store: storetest.OpenDSN(t, dsn), Now: s.clock.Now}
		req := s.signed(c, "GET", "http://shop.example/wp-json/wc/v3/products", "race")
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			svc := s.svc
			if i%2 == 1 {
				svc = other
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = svc.OAuth(context.Background(), req)
			}()
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case !errors.Is(err, integration.ErrNonceUsed):
				t.Errorf("refused with %v", err)
			}
		}
		if ok != 1 {
			t.Errorf("%d of 8 accepted", ok)
		}
	})
}

func TestFailuresLockTheAddress(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		s := newKeyShop(t, db)
		s.svc.FailureLimit = 3
		ctx := context.Background()
		c := s.create(integration.ReadWrite)
		const products = "http://shop.example/wp-json/wc/v3/products"
		for i := range 3 {
			bad := s.signed(c, "GET", products, "bad"+strconv.Itoa(i))
			bad.Params[len(bad.Params)-1].Value = "AAAA" + bad.Params[len(bad.Params)-1].Value[4:]
			_, err := s.svc.OAuth(ctx, bad)
			wantRefused(t, "bad signature", err, integration.ErrInvalidSignature)
		}
		// The address is refused, even with the right signature or secret.
		_, err := s.svc.OAuth(ctx, s.signed(c, "GET", products, "good"))
		var locked *integration.LockedError
		if !errors.As(err, &locked) || locked.Wait <= 0 || locked.Wait > integration.FailureWindow {
			t.Fatalf("after 3 failures: %v", err)
		}
		if _, err := s.svc.Basic(ctx, c.ConsumerKey, c.ConsumerSecret, "192.0.2.7"); !errors.As(err, &locked) {
			t.Errorf("basic from the address: %v", err)
		}
		// Other addresses are not.
		if _, err := s.svc.Basic(ctx, c.ConsumerKey, c.ConsumerSecret, "192.0.2.8"); err != nil {
			t.Errorf("another address: %v", err)
		}
		// Until the window ends.
		s.clock.Add(integration.FailureWindow + time.Second)
		if _, err := s.svc.OAuth(ctx, s.signed(c, "GET", products, "later")); err != nil {
			t.Errorf("after the window: %v", err)
		}
	})
}

// The last access is written on the first use, then at most once a minute.
func TestLastAccessOnceAMinute(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		s := newKeyShop(t, db)
		ctx := context.Background()
		c := s.create(integration.Read)
		last := func() time.Time {
			keys, err := s.svc.List(ctx, 0)
			if err != nil {
				t.Fatal(err)
			}
			return keys[0].LastAccess
		}
		use := func() {
			if _, err := s.svc.Basic(ctx, c.ConsumerKey, c.ConsumerSecret, "192.0.2.1"); err != nil {
				t.Fatal(err)
			}
		}
		start := s.clock.Now()
		use()
		if got := last(); !got.Equal(start) {
			t.Fatalf("first use: %v, want %v", got, start)
		}
		s.clock.Add(59 * time.Second)
		use()
		if got := last(); !got.Equal(start) {
			t.Errorf("written again within the minute: %v", got)
		}
		s.clock.Add(time.Second)
		use()
		if got := last(); !got.Equal(start.Add(time.Minute)) {
			t.Errorf("a minute later: %v", got)
		}
	})
}

// otherKey is a well-formed consumer key that differs from k in its last
// character: always a different key, whatever k's random last digit is.
func otherKey(k string) string {
	last := "0"
	if k[len(k)-1] == '0' {
		last = "1"
	}
	return k[:len(k)-1] + last
}
