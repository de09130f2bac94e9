package account

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
)

// Sealer keeps TOTP secrets unreadable at rest, and seals the tokens of
// mailed links for the mail renderer (SealToken). It is AES-256-GCM under a key
// derived from the shop's secret, bound to the user (the id is the
// additional data, so a sealed secret copied onto another account does
// not open). A sealed value is "v1:" + base64url(nonce | ciphertext).
//
// Rows written before sealing hold the bare base32 secret; base32 has no
// ':', so such a row is told apart by the missing prefix and still reads
// (Open returns it as is). The service reseals it on the next successful
// code (Service.VerifyTOTP).
type Sealer struct {
	aead cipher.AEAD
}

const sealPrefix = "v1:"

// ErrSealed means a stored secret could not be opened (another key, or
// the value was altered). The check that needed it fails closed.
var ErrSealed = errors.New("account: stored two-factor secret cannot be opened")

// NewSealer derives the sealing key from the shop's secret with HKDF
// (SHA-256) and a purpose string, so the key is used for nothing else.
func NewSealer(shopSecret []byte) (*Sealer, error) {
	if len(shopSecret) == 0 {
		return nil, errors.New("account: empty shop secret")
	}
	key, err := hkdf.Key(sha256.New, shopSecret, nil, "vitrine account totp-secret v1", 32)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Sealer{aead: aead}, nil
}

func sealAD(userID int64) []byte { return []byte("totp|" + strconv.FormatInt(userID, 10)) }

// Seal encrypts a secret of userID for storage.
func (s *Sealer) Seal(userID int64, plain string) (string, error) {
	nonce := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+len(plain)+s.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	out := s.aead.Seal(nonce, nonce, []byte(plain), sealAD(userID))
	return sealPrefix + base64.RawURLEncoding.EncodeToString(out), nil
}

// Open returns the secret a stored value holds: a sealed value is
// decrypted (ErrSealed when it does not authenticate), an unprefixed one
// is a plaintext row from before sealing and is returned unchanged.
func (s *Sealer) Open(userID int64, stored string) (string, error) {
	if !IsSealed(stored) {
		return stored, nil
	}
	if !strings.HasPrefix(stored, sealPrefix) {
		return "", ErrSealed // a version this build does not know
	}
	raw, err := base64.RawURLEncoding.DecodeString(stored[len(sealPrefix):])
	if err != nil || len(raw) < s.aead.NonceSize()+s.aead.Overhead() {
		return "", ErrSealed
	}
	n := s.aead.NonceSize()
	plain, err := s.aead.Open(nil, raw[:n], raw[n:], sealAD(userID))
	if err != nil {
		return "", ErrSealed
	}
	return string(plain), nil
}

// IsSealed reports whether a stored secret carries a seal's version
// prefix (any "vN:"), as opposed to a plaintext row from before sealing.
func IsSealed(stored string) bool {
	return strings.Contains(stored, ":")
}

// SealToken seals a mailed link's token for its row, bound to the link's
// hash (the additional data, in a domain of its own apart from TOTP
// secrets), so a seal opens only for its own row and a copied database
// alone yields no working link.
func (s *Sealer) SealToken(token, hash string) string {
	nonce := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+len(token)+s.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return base64.RawURLEncoding.EncodeToString(s.aead.Seal(nonce, nonce, []byte(token), []byte("link|"+hash)))
}

// OpenToken opens a seal made by SealToken for hash (ErrSealed otherwise).
func (s *Sealer) OpenToken(sealed, hash string) (string, error) {
	raw, err := base64.RawURLEncoding.DecodeString(sealed)
	n := s.aead.NonceSize()
	if err != nil || len(raw) < n+s.aead.Overhead() {
		return "", ErrSealed
	}
	p, err := s.aead.Open(nil, raw[:n], raw[n:], []byte("link|"+hash))
	if err != nil {
		return "", ErrSealed
	}
	return string(p), nil
}
