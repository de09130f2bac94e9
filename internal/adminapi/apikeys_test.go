package adminapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/adminapi"
	"vitrine/internal/audit"
	"vitrine/internal/integration"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// The REST API keys' admin routes on both engines, with the real key,
// account and audit services: administrators only, the key and secret
// answered once and working, the list without them, clear refusals that
// change nothing, revocation, and the audit entries without secrets.
func TestAPIKeyRoutes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		clock := storetest.FrozenClock(time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC))
		db.SetClock(clock.Now)
		users := map[string]*account.User{}
		for _, u := range []*account.User{
			{Email: "ada@example.com", DisplayName: "Ada Admin", Role: account.RoleAdministrator},
			{Email: "mia@example.com", DisplayName: "Mia Manager", Role: account.RoleShopManager},
			{Email: "carla@example.com", Role: account.RoleCustomer},
		} {
			u.PasswordHash, u.CreatedAt = "unused", clock.Now()
			id, err := db.CreateUser(ctx, u)
			if err != nil {
				t.Fatal(err)
			}
			u.ID = id
			users[strings.TrimSuffix(u.Email, "@example.com")] = u
		}
		keys := &integration.Service{Store: db, Now: clock.Now}
		log := &audit.Service{Store: db, Now: clock.Now}
		api := adminapi.New(adminapi.Deps{
			Viewer:   func(r *http.Request) *account.User { return users[r.Header.Get("Test-User")] },
			ClientIP: func(*http.Request) string { return "192.0.2.7" },
			Audit:    log,
			Accounts: &account.Service{Store: db, Now: clock.Now},
			Keys:     keys,
			Now:      clock.Now,
		})
		do := func(method, path, who, body string) *httptest.ResponseRecorder {
			r := httptest.NewRequest(method, path, strings.NewReader(body))
			r.Header.Set("Test-User", who)
			w := httptest.NewRecorder()
			api.ServeHTTP(w, r)
			return w
		}
		const path = "/wp-json/vitrine/v1/admin/api-keys"
		stored := func() []integration.Key {
			t.Helper()
			ks, err := keys.List(ctx, 0)
			if err != nil {
				t.Fatal(err)
			}
			return ks
		}
		carla := users["carla"].ID

		// Only an administrator: the others are refused, and nothing is made.
		body := `{"description":"Accounting","user_id":` + itoa(int(carla)) + `,"permissions":"read"}`
		for _, c := range []struct {
			who, method, path string
			status            int
			code              string
		}{
			{"", "GET", path, 401, "rest_not_logged_in"},
			{"carla", "GET", path, 403, "rest_forbidden"},
			{"mia", "GET", path, 403, "rest_forbidden"},
			{"mia", "POST", path, 403, "rest_forbidden"},
			{"mia", "DELETE", path + "/1", 403, "rest_forbidden"},
		} {
			w := do(c.method, c.path, c.who, body)
			if w.Code != c.status || !strings.Contains(w.Body.String(), `"code":"`+c.code+`"`) {
				t.Errorf("%s %s %s: %d %s", c.who, c.method, c.path, w.Code, w.Body)
			}
		}
		if w := do("POST", path, "mia", body); !strings.Contains(w.Body.String(), "Only an administrator may manage REST API keys.") {
			t.Errorf("the manager's refusal: %s", w.Body)
		}

		// Bad input: the field named, nothing made.
		for _, c := range []struct{ body, code, param string }{
			{`{"description":" ","user_id":` + itoa(int(carla)) + `,"permissions":"read"}`, "rest_invalid_param", "description"},
			{`{"description":"` + strings.Repeat("x", 201) + `","user_id":` + itoa(int(carla)) + `,"permissions":"read"}`, "rest_invalid_param", "description"},
			{`{"description":"x","user_id":` + itoa(int(carla)) + `,"permissions":"admin"}`, "rest_invalid_param", "permissions"},
			{`{"description":"x","permissions":"read"}`, "rest_invalid_param", "user_id"},
			{`{"description":"x","user_id":99999,"permissions":"read"}`, "rest_invalid_param", "user_id"},
			{`{"description":`, "rest_invalid_json", ""},
		} {
			w := do("POST", path, "ada", c.body)
			if w.Code != 400 || !strings.Contains(w.Body.String(), `"code":"`+c.code+`"`) || (c.param != "" && !strings.Contains(w.Body.String(), `"params":{"`+c.param+`"`)) {
				t.Errorf("%s: %d %s", c.body, w.Code, w.Body)
			}
		}
		if ks := stored(); len(ks) != 0 {
			t.Fatalf("refused creations stored keys: %+v", ks)
		}

		// Created: the key and secret once, and they authenticate as the user.
		w := do("POST", path, "ada", body)
		var made struct {
			ID             int64  `json:"id"`
			Description    string `json:"description"`
			Permissions    string `json:"permissions"`
			TruncatedKey   string `json:"truncated_key"`
			ConsumerKey    string `json:"consumer_key"`
			ConsumerSecret string `json:"consumer_secret"`
			LastAccess     *string
			User           struct{ Email, Role string }
		}
		if w.Code != 201 || json.Unmarshal(w.Body.Bytes(), &made) != nil {
			t.Fatalf("create: %d %s", w.Code, w.Body)
		}
		if !regexp.MustCompile(`^ck_[0-9a-f]{40}$`).MatchString(made.ConsumerKey) || !regexp.MustCompile(`^cs_[0-9a-f]{40}$`).MatchString(made.ConsumerSecret) ||
			made.TruncatedKey != made.ConsumerKey[len(made.ConsumerKey)-7:] || made.Permissions != "read" || made.Description != "Accounting" ||
			made.User.Email != "carla@example.com" || made.User.Role != account.RoleCustomer || made.LastAccess != nil {
			t.Errorf("created: %+v", made)
		}
		auth, err := keys.Basic(ctx, made.ConsumerKey, made.ConsumerSecret, "192.0.2.1")
		if err != nil || auth.User.ID != carla || auth.Key.Permissions != integration.Read {
			t.Fatalf("the answered key: %+v %v", auth, err)
		}

		// Listed without the key or the secret, with the last access the use above set.
		w = do("GET", path, "ada", "")
		if w.Code != 200 || strings.Contains(w.Body.String(), made.ConsumerKey) || strings.Contains(w.Body.String(), made.ConsumerSecret) ||
			!strings.Contains(w.Body.String(), `"truncated_key":"`+made.TruncatedKey+`"`) || !strings.Contains(w.Body.String(), `"last_access":"2026-11-24T10:00:00Z"`) ||
			!strings.Contains(w.Body.String(), `"email":"carla@example.com"`) || w.Header().Get("X-WP-Total") != "1" {
			t.Errorf("list: %d %s", w.Code, w.Body)
		}

		// Revoked: bad ids refused, then the key no longer works.
		for _, p := range []string{path + "/abc", path + "/99999"} {
			if w := do("DELETE", p, "ada", ""); w.Code != 404 || !strings.Contains(w.Body.String(), `"code":"vitrine_api_key_invalid_id"`) {
				t.Errorf("revoke %s: %d %s", p, w.Code, w.Body)
			}
		}
		if len(stored()) != 1 {
			t.Fatal("a refused revocation deleted the key")
		}
		if w := do("DELETE", path+"/"+itoa(int(made.ID)), "ada", ""); w.Code != 200 || !strings.Contains(w.Body.String(), `"deleted":true`) {
			t.Fatalf("revoke: %d %s", w.Code, w.Body)
		}
		if _, err := keys.Basic(ctx, made.ConsumerKey, made.ConsumerSecret, "192.0.2.1"); !errors.Is(err, integration.ErrInvalidKey) {
			t.Errorf("the revoked key: %v", err)
		}
		if w := do("GET", path, "ada", ""); w.Body.String() != "[]" {
			t.Errorf("list after revoking: %s", w.Body)
		}

		// Audited, by the administrator, without secrets.
		entries, err := log.List(ctx, audit.Filter{Object: "api_key"})
		if err != nil || len(entries) != 2 {
			t.Fatalf("audit: %+v %v", entries, err)
		}
		revoke, create := entries[0], entries[1]
		if create.Action != "api_key.create" || create.ObjectID != made.ID || create.ActorID != users["ada"].ID ||
			create.Summary != `REST API key "Accounting" (…`+made.TruncatedKey+`, read) created for carla@example.com` {
			t.Errorf("create's entry: %+v", create)
		}
		if revoke.Action != "api_key.revoke" || revoke.ObjectID != made.ID || !strings.Contains(revoke.Summary, "…"+made.TruncatedKey) {
			t.Errorf("revoke's entry: %+v", revoke)
		}
		for _, e := range entries {
			if strings.Contains(e.Summary, made.ConsumerKey) || strings.Contains(e.Summary, made.ConsumerSecret) {
				t.Errorf("a secret in the audit log: %+v", e)
			}
		}
	})
}
