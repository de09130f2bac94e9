// Package botcheck is the shop's invisible bot-check: an ALTCHA (protocol
// v1) proof of work. The browser widget fetches a challenge (Challenge),
// finds the number whose SHA-256 with the salt is the challenge, and
// submits the base64 payload with the form; Verify checks the signature,
// the solution, the expiry and that the payload was not accepted before.
//
// The challenge is signed with a key derived from the shop's secret and the
// check's purpose (login, registration, contact), so a challenge issued for
// one purpose does not pass another, and the key is used for nothing else.
// Spent challenges are recorded in the store, shared by every instance, so a
// payload is accepted once across the whole shop.
package botcheck

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	altcha "github.com/altcha-org/altcha-lib-go"

	"vitrine/internal/clock"
)

// Defaults of the Service's settings.
const (
	// DefaultMaxNumber bounds the secret number, so the work: a solver tries
	// on average half of it. 50,000 SHA-256 hashes is a fraction of a second
	// for the widget on a phone (see BenchmarkSolve for the server's figure).
	DefaultMaxNumber int64 = 50_000
	// StrongMaxNumber is the stronger check's bound (ten times the work),
	// asked of logins to an account under attack: a few seconds for the
	// widget on a phone, once, for the owner; the same for every guess.
	StrongMaxNumber int64 = 500_000
	// DefaultTTL is how long a challenge can be solved and submitted.
	DefaultTTL = 10 * time.Minute
	// ClockSkew is how long past its expiry a spent challenge is kept, so an
	// instance whose clock runs behind still finds it spent.
	ClockSkew = time.Minute
	// MinSecretLen is the shortest secret the key is derived from.
	MinSecretLen = 16
	// MaxPayloadLen bounds the payload read (a real one is about 400 bytes).
	MaxPayloadLen = 2048

	algorithm = altcha.SHA256
)

// Store records spent challenges (sqlstore.DB implements it).
type Store interface {
	// SpendBotcheck records the challenge named by signature as spent until
	// expires and reports whether this call recorded it; of concurrent
	// calls for one signature exactly one reports true.
	SpendBotcheck(ctx context.Context, signature string, expires time.Time) (bool, error)
	// DeleteSpentBotcheck deletes the records that expired before before.
	DeleteSpentBotcheck(ctx context.Context, before time.Time) (int64, error)
}

// Service issues and verifies challenges for one purpose.
type Service struct {
	Store     Store
	Secret    []byte        // the shop's secret; the signing key is derived from it
	Purpose   string        // "login", "register", "contact", …: part of the key
	MaxNumber int64         // DefaultMaxNumber when 0
	TTL       time.Duration // DefaultTTL when 0
	Now       func() time.Time
	Log       *slog.Logger
}

// Error is a refused payload. Every refusal is one of the values below; the
// adapters answer them all with the surface's captcha error.
type Error struct {
	Reason  string // missing, malformed, bad_signature, wrong_solution, expired, replayed
	message string
}

func (e *Error) Error() string { return "botcheck: " + e.message }

// The refusals of Verify.
var (
	ErrMissing       = &Error{"missing", "no bot-check payload"}
	ErrMalformed     = &Error{"malformed", "the bot-check payload is malformed"}
	ErrBadSignature  = &Error{"bad_signature", "the bot-check challenge is not ours"}
	ErrWrongSolution = &Error{"wrong_solution", "the bot-check solution is wrong"}
	ErrExpired       = &Error{"expired", "the bot-check challenge expired"}
	ErrReplayed      = &Error{"replayed", "the bot-check payload was used already"}
)

// ErrNoSecret: the Service has no usable secret (a configuration error, not
// a refusal: the adapters fail closed).
var ErrNoSecret = fmt.Errorf("botcheck: the secret must be at least %d bytes", MinSecretLen)

// IsRefusal reports whether err is a refused payload (an *Error), as
// opposed to a configuration or store failure.
func IsRefusal(err error) bool {
	var e *Error
	return errors.As(err, &e)
}

// Challenge is what the widget fetches (its challengeurl's JSON).
type Challenge struct {
	Algorithm string
	Challenge string
	MaxNumber int64
	Salt      string
	Signature string
	Expires   time.Time // encoded in Salt; not sent separately
}

// MarshalJSON writes the challenge as the widget reads it. The maximum is
// sent under both spellings the v1 libraries use (maxnumber by the
// JavaScript one, maxNumber by the Go one).
func (c Challenge) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Algorithm  string `json:"algorithm"`
		Challenge  string `json:"challenge"`
		MaxNumber  int64  `json:"maxnumber"`
		MaxNumber2 int64  `json:"maxNumber"`
		Salt       string `json:"salt"`
		Signature  string `json:"signature"`
	}{c.Algorithm, c.Challenge, c.MaxNumber, c.MaxNumber, c.Salt, c.Signature})
}

// DeriveKey is the signing key of a purpose: HMAC-SHA-256 of the purpose's
// label under the shop's secret, in hex.
func DeriveKey(secret []byte, purpose string) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("vitrine botcheck altcha v1\x00" + purpose))
	return hex.EncodeToString(m.Sum(nil))
}

func (s *Service) key() (string, error) {
	if len(s.Secret) < MinSecretLen {
		return "", ErrNoSecret
	}
	return DeriveKey(s.Secret, s.Purpose), nil
}

func (s *Service) now() time.Time { return clock.Now(s.Now) }

func (s *Service) maxNumber() int64 {
	if s.MaxNumber > 0 {
		return s.MaxNumber
	}
	return DefaultMaxNumber
}

func (s *Service) ttl() time.Duration {
	if s.TTL > 0 {
		return s.TTL
	}
	return DefaultTTL
}

func (s *Service) log() *slog.Logger {
	if s.Log != nil {
		return s.Log
	}
	return slog.Default()
}

// Challenge issues a new challenge: a random salt carrying its expiry
// (now + TTL, in unix seconds), a random secret number up to MaxNumber,
// and the signature of the challenge under the purpose's key.
func (s *Service) Challenge(ctx context.Context) (Challenge, error) {
	key, err := s.key()
	if err != nil {
		return Challenge{}, err
	}
	expires := s.now().Add(s.ttl()).Truncate(time.Second)
	c, err := altcha.CreateChallenge(altcha.ChallengeOptions{
		Algorithm: algorithm,
		MaxNumber: s.maxNumber(),
		HMACKey:   key,
		Expires:   &expires,
	})
	if err != nil {
		return Challenge{}, fmt.Errorf("botcheck: create challenge: %w", err)
	}
	return Challenge{
		Algorithm: c.Algorithm,
		Challenge: c.Challenge,
		MaxNumber: c.MaxNumber,
		Salt:      c.Salt,
		Signature: c.Signature,
		Expires:   expires,
	}, nil
}

// Verify accepts payload, the base64 JSON the widget submits, once: it
// must be well formed, signed with the purpose's key, solved, not expired
// and not accepted before. A refusal is one of the *Error values; nothing
// is recorded unless the payload is accepted. Any other error (no secret,
// the store failed) means the check could not be made: fail closed.
func (s *Service) Verify(ctx context.Context, payload string) error {
	key, err := s.key()
	if err != nil {
		return err
	}
	p, expires, err := parse(payload)
	if err != nil {
		return err
	}
	want := hmac.New(sha256.New, []byte(key))
	want.Write([]byte(p.Challenge))
	sig, _ := hex.DecodeString(p.Signature) // checked by parse
	if !hmac.Equal(sig, want.Sum(nil)) {
		return ErrBadSignature
	}
	ok, err := altcha.VerifySolutionSafe(p, key, false) // expiry checked below, on s.Now
	if err != nil || !ok {
		return ErrWrongSolution
	}
	if s.now().After(expires) {
		return ErrExpired
	}
	first, err := s.Store.SpendBotcheck(ctx, p.Signature, expires)
	if err != nil {
		return fmt.Errorf("botcheck: record spent challenge: %w", err)
	}
	if !first {
		s.log().Warn("bot-check payload replayed", "purpose", s.Purpose)
		return ErrReplayed
	}
	return nil
}

// DeleteExpired deletes the spent challenges whose expiry passed more than
// ClockSkew ago (their payloads are refused as expired anyway).
func (s *Service) DeleteExpired(ctx context.Context) (int64, error) {
	return s.Store.DeleteSpentBotcheck(ctx, s.now().Add(-ClockSkew))
}

// parse decodes and checks the shape of a payload, and reads its expiry
// from the salt.
func parse(payload string) (altcha.Payload, time.Time, error) {
	payload = strings.TrimSpace(payload)
	// The spec's client sends "grecaptcha-missing" when its captcha script
	// is absent.
	if payload == "" || payload == "grecaptcha-missing" {
		return altcha.Payload{}, time.Time{}, ErrMissing
	}
	if len(payload) > MaxPayloadLen {
		return altcha.Payload{}, time.Time{}, ErrMalformed
	}
	raw, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		return altcha.Payload{}, time.Time{}, ErrMalformed
	}
	var p altcha.Payload
	if err := json.Unmarshal(raw, &p); err != nil {
		return altcha.Payload{}, time.Time{}, ErrMalformed
	}
	if p.Algorithm != string(algorithm) || !isHex64(p.Challenge) || !isHex64(p.Signature) ||
		p.Salt == "" || len(p.Salt) > 256 || p.Number < 0 {
		return altcha.Payload{}, time.Time{}, ErrMalformed
	}
	params := altcha.ExtractParams(p)
	exp, err := strconv.ParseInt(params.Get("expires"), 10, 64)
	if err != nil || exp <= 0 {
		return altcha.Payload{}, time.Time{}, ErrMalformed
	}
	return p, time.Unix(exp, 0).UTC(), nil
}

func isHex64(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// Solve solves a challenge as the widget does (trying every number up to
// its maximum) and returns the payload the widget would submit. For tests
// and load tools; it costs up to MaxNumber hashes.
func Solve(c Challenge) (string, error) {
	sol, err := altcha.SolveChallenge(c.Challenge, c.Salt, altcha.Algorithm(c.Algorithm), int(c.MaxNumber), 0, nil)
	if err != nil {
		return "", err
	}
	if sol == nil {
		return "", errors.New("botcheck: no solution within the maximum")
	}
	raw, err := json.Marshal(map[string]any{
		"algorithm": c.Algorithm,
		"challenge": c.Challenge,
		"number":    sol.Number,
		"salt":      c.Salt,
		"signature": c.Signature,
		"took":      sol.Took.Milliseconds(),
	})
	if err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(raw), nil
}
