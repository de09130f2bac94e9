// Package integration is how other software talks to the shop on its
// owner's behalf: REST API keys, made for a user with a permission (read,
// write or both), and WooCommerce's ways of authenticating with them
// (auth.go): HTTP Basic or query parameters over HTTPS, OAuth 1.0a
// one-legged signatures over plain HTTP (oauth.go). A request
// authenticated by a key acts as the key's user: their role decides what
// the admin API lets it do, as it does for the login cookie.
//
// Keys are stored as WooCommerce stores them (woocommerce_api_keys): the
// consumer key only as its HMAC-SHA256 keyed "wc-api" (hex), so a copy of
// the database does not hold usable keys; the secret as is, because an
// OAuth signature is checked by computing it again; and the key's last
// seven characters, to tell keys apart in lists. The consumer key and
// secret are shown once, when the key is made.
//
// Every check reads the store (the key, its user, the spent nonces), so a
// revoked key, a deleted user or a changed role take effect at once on
// every instance. The key's last access is written at most once a minute.
//
// The package speaks no HTTP: the adapter (internal/integrationapi) hands
// it the credentials, the method, the signed URLs and parameters.
package integration

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"vitrine/internal/account"
	"vitrine/internal/checkout"
)

// Permission is what a key may do: read (GET, HEAD), write (POST, PUT,
// PATCH, DELETE) or both.
type Permission string

// The permissions, spelled as WooCommerce spells them.
const (
	Read      Permission = "read"
	Write     Permission = "write"
	ReadWrite Permission = "read_write"
)

// Valid reports whether p is one of the three permissions.
func (p Permission) Valid() bool { return p == Read || p == Write || p == ReadWrite }

// Key is a stored API key. The consumer key itself is not kept.
type Key struct {
	ID          int64
	UserID      int64
	Description string
	Permissions Permission
	// KeyHash is the consumer key's HMAC-SHA256 keyed "wc-api", hex.
	KeyHash string `json:"-"`
	// Secret is the consumer secret (cs_…).
	Secret string `json:"-"`
	// TruncatedKey is the consumer key's last 7 characters.
	TruncatedKey string
	CreatedAt    time.Time
	// LastAccess is the last authenticated request, to the minute (zero:
	// never used).
	LastAccess time.Time
}

// Created is a key just made, with the consumer key and secret: the only
// time they are shown.
type Created struct {
	Key
	ConsumerKey    string
	ConsumerSecret string
}

// Store keeps the keys and the spent OAuth nonces (sqlstore.DB).
type Store interface {
	InsertAPIKey(ctx context.Context, k *Key) (int64, error)
	// APIKeys lists keys oldest first, the user's only when userID > 0.
	APIKeys(ctx context.Context, userID int64) ([]Key, error)
	// APIKeyByHash loads a key by its consumer key's hash (ErrNoKey).
	APIKeyByHash(ctx context.Context, hash string) (*Key, error)
	// DeleteAPIKey deletes a key and its nonces (ErrNoKey).
	DeleteAPIKey(ctx context.Context, id int64) error
	// TouchAPIKey sets the key's last access to at unless it is already
	// after notBefore (a conditional UPDATE: of instances racing, one writes).
	TouchAPIKey(ctx context.Context, id int64, at, notBefore time.Time) error
	// SpendOAuthNonce records the nonce's hash for the key until expires
	// and reports whether this call recorded it (false: spent already).
	SpendOAuthNonce(ctx context.Context, keyID int64, nonceHash string, expires time.Time) (bool, error)
	// DeleteSpentOAuthNonces deletes the nonces that expired before before.
	DeleteSpentOAuthNonces(ctx context.Context, before time.Time) (int64, error)
	// RateLimitCount is a rate-limit counter's hits in its current window
	// and the window's end (0 hits when it has none); it counts nothing.
	RateLimitCount(ctx context.Context, key string, now time.Time) (hits int, ends time.Time, err error)
	HitRateLimits(ctx context.Context, hits []checkout.RateHit, window time.Duration, now time.Time) (wait time.Duration, ok bool, err error)
	UserByID(ctx context.Context, id int64) (*account.User, error)
}

// Errors of the key use cases.
var (
	ErrNoKey          = errors.New("integration: no such API key")
	ErrNoUser         = account.ErrNoUser
	ErrDescription    = errors.New("integration: a key needs a description (up to 200 characters)")
	ErrBadPermissions = errors.New("integration: permissions are read, write or read_write")
)

// Defaults of the Service's limits.
const (
	// FailureLimit failed authentications (unknown key, wrong secret, bad
	// signature) per client address in FailureWindow, then every key
	// request from the address is refused until the window ends.
	FailureLimit  = 10
	FailureWindow = 15 * time.Minute
	// TouchEvery: a key's last access is written at most this often.
	TouchEvery = time.Minute
	// NonceWindow is how far an OAuth timestamp may be from now, either
	// way; a nonce is kept as long.
	NonceWindow = 15 * time.Minute
	// maxDescription is WooCommerce's column width.
	maxDescription = 200
)

// Service owns the keys and their checks.
type Service struct {
	Store Store
	// FailureLimit and FailureWindow override the defaults above when set.
	FailureLimit  int
	FailureWindow time.Duration
	Now           func() time.Time
	Log           *slog.Logger
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

func (s *Service) log() *slog.Logger {
	if s.Log != nil {
		return s.Log
	}
	return slog.Default()
}

// HashKey is a consumer key as the store keeps it: HMAC-SHA256 keyed
// "wc-api", hex (WooCommerce's wc_api_hash).
func HashKey(consumerKey string) string {
	m := hmac.New(sha256.New, []byte("wc-api"))
	m.Write([]byte(consumerKey))
	return hex.EncodeToString(m.Sum(nil))
}

// randomHex is n random bytes, hex.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// Create makes a key for the user: "ck_" and "cs_" each followed by 40
// random hex digits. The consumer key and secret are in the answer only.
func (s *Service) Create(ctx context.Context, userID int64, description string, p Permission) (*Created, error) {
	description = strings.TrimSpace(description)
	if description == "" || utf8.RuneCountInString(description) > maxDescription || !utf8.ValidString(description) ||
		strings.ContainsRune(description, 0) {
		return nil, ErrDescription
	}
	if !p.Valid() {
		return nil, ErrBadPermissions
	}
	if _, err := s.Store.UserByID(ctx, userID); err != nil {
		return nil, err
	}
	ck, cs := "ck_"+randomHex(20), "cs_"+randomHex(20)
	k := Key{UserID: userID, Description: description, Permissions: p, KeyHash: HashKey(ck), Secret: cs,
		TruncatedKey: ck[len(ck)-7:], CreatedAt: s.now().Truncate(time.Second)}
	id, err := s.Store.InsertAPIKey(ctx, &k)
	if err != nil {
		return nil, err
	}
	k.ID = id
	return &Created{Key: k, ConsumerKey: ck, ConsumerSecret: cs}, nil
}

// List is the keys, oldest first: the user's when userID > 0, else all.
func (s *Service) List(ctx context.Context, userID int64) ([]Key, error) {
	return s.Store.APIKeys(ctx, userID)
}

// Revoke deletes a key (ErrNoKey): the next request with it is refused,
// on every instance.
func (s *Service) Revoke(ctx context.Context, id int64) error {
	return s.Store.DeleteAPIKey(ctx, id)
}

// DeleteSpentNonces deletes the OAuth nonces whose timestamps have left
// the window (the upkeep loop calls it).
func (s *Service) DeleteSpentNonces(ctx context.Context) (int64, error) {
	return s.Store.DeleteSpentOAuthNonces(ctx, s.now())
}
