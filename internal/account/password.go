package account

import (
	_ "embed"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/alexedwards/argon2id"
)

// HashParams are the argon2id parameters of new password hashes, chosen
// for the project's 2-core machines: OWASP's first argon2id minimum
// (m = 19 MiB, t = 2, p = 1). One hash takes about 45 ms on one core
// here (BenchmarkHash, Turin-class vCPU), so two cores verify about 40
// logins a second, each holding 19 MiB while it runs. Hashes keep their
// own parameters (PHC string), so raising these later leaves old ones
// valid.
var HashParams = &argon2id.Params{
	Memory:      19 * 1024, // KiB
	Iterations:  2,
	Parallelism: 1,
	SaltLength:  16,
	KeyLength:   32,
}

// Password length bounds. The minimum is ASVS 4.0.3 V2.1.1's 12
// characters (ASVS 5.0 asks 8 and recommends 15); characters are counted
// as Unicode code points, so any script counts alike. The maximum is in
// bytes and only bounds the work a request can ask of the hash; it is far
// above ASVS's "at least 64 characters allowed".
const (
	MinPasswordChars = 12
	MaxPasswordBytes = 1024
)

//go:embed common_passwords.txt
var commonPasswordsText string

var commonPasswords = func() map[string]bool {
	m := map[string]bool{}
	for _, l := range strings.Split(commonPasswordsText, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			m[strings.ToLower(l)] = true
		}
	}
	return m
}()

// ValidatePassword checks a new password: length, not a common password,
// not the account's email or username. The error is an *InputError on
// field "password".
func ValidatePassword(pw, email, username string) error {
	bad := func(msg string) error { return &InputError{Field: "password", Message: msg} }
	switch {
	case len(pw) > MaxPasswordBytes:
		return bad("Password is too long (at most 1024 bytes).")
	case !utf8.ValidString(pw):
		return bad("Password is not valid text.")
	case utf8.RuneCountInString(pw) < MinPasswordChars:
		return bad("Password must be at least 12 characters long.")
	}
	l := strings.ToLower(pw)
	if commonPasswords[l] {
		return bad("This password is too common. Please choose another.")
	}
	if (email != "" && l == strings.ToLower(email)) || (username != "" && l == strings.ToLower(username)) {
		return bad("Password must not be your email address or username.")
	}
	return nil
}

// HashPassword hashes pw with HashParams.
func HashPassword(pw string) (string, error) {
	return argon2id.CreateHash(pw, HashParams)
}

// dummyHash is checked against when the login names no account, so an
// unknown login costs one hash as a wrong password does.
var dummyHash = sync.OnceValue(func() string {
	h, err := HashPassword("vitrine-dummy-password-never-matches")
	if err != nil {
		panic(err)
	}
	return h
})

// outdated reports whether hash was made with other parameters than
// HashParams, or is a WordPress hash (wppass.go): it is then rehashed
// after a successful login.
func outdated(hash string) bool {
	if WordPressHashFormat(hash) != "" {
		return true
	}
	p, _, _, err := argon2id.DecodeHash(hash)
	return err == nil && *p != *HashParams
}

// checkPassword compares pw to hash in constant time; a malformed or empty
// hash, or an account's "no password yet", never matches (and still costs
// a hash). A WordPress hash is checked as WordPress does (wppass.go).
func checkPassword(pw, hash string) bool {
	if hash == "" || HasNoPassword(hash) || len(pw) > MaxPasswordBytes {
		_, _ = argon2id.ComparePasswordAndHash(pw[:min(len(pw), MaxPasswordBytes)], dummyHash())
		return false
	}
	if WordPressHashFormat(hash) != "" {
		return checkWordPress(pw, hash)
	}
	ok, err := argon2id.ComparePasswordAndHash(pw, hash)
	return err == nil && ok
}
