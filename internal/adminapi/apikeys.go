package adminapi

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/integration"
)

// REST API keys (internal/integration) for the admin's Settings > Advanced
// > REST API screen, under /wp-json/vitrine/v1/admin/api-keys (WooCommerce
// manages keys from a PHP screen, with no REST route to follow). Only an
// administrator may list, make or revoke keys: a key acts as its user, so
// a shop manager who could make one for an administrator would gain the
// administrator's rights. Keys themselves are refused here: they
// authenticate under /wp-json/wc/v3/ only, so no key can make another.
//
// The consumer key and secret are in the creation's answer only; the audit
// entry names the key by its description and last seven characters.

const apiKeysPath = "/wp-json/vitrine/v1/admin/api-keys"

var errAdminOnly = &Error{Status: http.StatusForbidden, Code: "rest_forbidden", Message: "Only an administrator may manage REST API keys."}

// adminOnly guards h further: administrators only.
func adminOnly(h Handler) Handler {
	return func(w http.ResponseWriter, r *http.Request, st Staff) error {
		if st.Role != account.RoleAdministrator {
			return errAdminOnly
		}
		return h(w, r, st)
	}
}

type apiKeyUserJSON struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Email string `json:"email"`
	Role  string `json:"role"`
}

type apiKeyJSON struct {
	ID           int64                  `json:"id"`
	Description  string                 `json:"description"`
	Permissions  integration.Permission `json:"permissions"`
	TruncatedKey string                 `json:"truncated_key"`
	UserID       int64                  `json:"user_id"`
	// User is nil when the account is gone (its keys go with it).
	User        *apiKeyUserJSON `json:"user"`
	DateCreated time.Time       `json:"date_created"`
	LastAccess  *time.Time      `json:"last_access"`
}

// apiKeyCreatedJSON is the creation's answer: the only time the consumer
// key and secret leave the shop.
type apiKeyCreatedJSON struct {
	apiKeyJSON
	ConsumerKey    string `json:"consumer_key"`
	ConsumerSecret string `json:"consumer_secret"`
}

func apiKeyUser(u *account.User) *apiKeyUserJSON {
	if u == nil {
		return nil
	}
	name := u.DisplayName
	if name == "" {
		name = u.Email
	}
	return &apiKeyUserJSON{ID: u.ID, Name: name, Email: u.Email, Role: u.Role}
}

func apiKeyOut(k *integration.Key, u *account.User) apiKeyJSON {
	out := apiKeyJSON{ID: k.ID, Description: k.Description, Permissions: k.Permissions, TruncatedKey: k.TruncatedKey,
		UserID: k.UserID, User: apiKeyUser(u), DateCreated: k.CreatedAt.UTC()}
	if !k.LastAccess.IsZero() {
		t := k.LastAccess.UTC()
		out.LastAccess = &t
	}
	return out
}

// apiKeyError maps the key service's errors to REST answers.
func apiKeyError(err error) error {
	switch {
	case errors.Is(err, integration.ErrDescription):
		return InvalidParam("description", "A description is required, up to 200 characters.")
	case errors.Is(err, integration.ErrBadPermissions):
		return InvalidParam("permissions", "permissions is not one of read, write, and read_write.")
	case errors.Is(err, integration.ErrNoUser):
		return InvalidParam("user_id", "No account has this id.")
	case errors.Is(err, integration.ErrNoKey):
		return &Error{Status: http.StatusNotFound, Code: "vitrine_api_key_invalid_id", Message: "Invalid ID."}
	}
	return err
}

// keyUser loads a key's user (cached by id in cache); nil when the
// account is gone.
func (a *API) keyUser(r *http.Request, id int64, cache map[int64]*account.User) (*account.User, error) {
	if u, ok := cache[id]; ok {
		return u, nil
	}
	u, err := a.d.Accounts.User(r.Context(), id)
	if errors.Is(err, account.ErrNoUser) {
		u, err = nil, nil
	}
	if err != nil {
		return nil, err
	}
	cache[id] = u
	return u, nil
}

// GET /wp-json/vitrine/v1/admin/api-keys: every key, oldest first.
func (a *API) apiKeysList(w http.ResponseWriter, r *http.Request, _ Staff) error {
	keys, err := a.d.Keys.List(r.Context(), 0)
	if err != nil {
		return err
	}
	users := map[int64]*account.User{}
	out := make([]apiKeyJSON, 0, len(keys))
	for i := range keys {
		u, err := a.keyUser(r, keys[i].UserID, users)
		if err != nil {
			return err
		}
		out = append(out, apiKeyOut(&keys[i], u))
	}
	w.Header().Set("X-WP-Total", strconv.Itoa(len(out)))
	w.Header().Set("X-WP-TotalPages", "1")
	WriteJSON(w, http.StatusOK, out)
	return nil
}

// POST /wp-json/vitrine/v1/admin/api-keys {description, user_id,
// permissions}: 201 with consumer_key and consumer_secret.
func (a *API) apiKeyCreate(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var b struct {
		Description string                 `json:"description"`
		UserID      int64                  `json:"user_id"`
		Permissions integration.Permission `json:"permissions"`
	}
	if err := Decode(r, &b); err != nil {
		return err
	}
	if b.UserID <= 0 {
		return InvalidParam("user_id", "Choose the user the key acts as.")
	}
	c, err := a.d.Keys.Create(r.Context(), b.UserID, b.Description, b.Permissions)
	if err != nil {
		return apiKeyError(err)
	}
	u, err := a.keyUser(r, c.UserID, map[int64]*account.User{})
	if err != nil {
		return err
	}
	who := strconv.FormatInt(c.UserID, 10)
	if u != nil {
		who = u.Email
	}
	Note(r, "api_key.create", "api_key", c.ID, "REST API key "+strconv.Quote(c.Description)+" (…"+c.TruncatedKey+", "+string(c.Permissions)+") created for "+who)
	WriteJSON(w, http.StatusCreated, apiKeyCreatedJSON{apiKeyJSON: apiKeyOut(&c.Key, u), ConsumerKey: c.ConsumerKey, ConsumerSecret: c.ConsumerSecret})
	return nil
}

// DELETE /wp-json/vitrine/v1/admin/api-keys/{id}: the key is revoked at
// once on every instance; the answer is the key as it was.
func (a *API) apiKeyRevoke(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := IDParam(r, "id")
	if err != nil {
		return apiKeyError(integration.ErrNoKey)
	}
	keys, err := a.d.Keys.List(r.Context(), 0)
	if err != nil {
		return err
	}
	var k *integration.Key
	for i := range keys {
		if keys[i].ID == id {
			k = &keys[i]
		}
	}
	if k == nil {
		return apiKeyError(integration.ErrNoKey)
	}
	if err := a.d.Keys.Revoke(r.Context(), id); err != nil {
		return apiKeyError(err)
	}
	u, err := a.keyUser(r, k.UserID, map[int64]*account.User{})
	if err != nil {
		return err
	}
	Note(r, "api_key.revoke", "api_key", id, "REST API key "+strconv.Quote(k.Description)+" (…"+k.TruncatedKey+") revoked")
	WriteJSON(w, http.StatusOK, map[string]any{"deleted": true, "previous": apiKeyOut(k, u)})
	return nil
}
