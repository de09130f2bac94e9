package account

import (
	"crypto/hmac"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha512"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"strings"

	"golang.org/x/crypto/bcrypt"
)

// Passwords that came from elsewhere. A customer moved in from a WordPress
// shop may bring the hash WordPress kept (its wp_users.user_pass); the
// login accepts it and replaces it with an argon2id hash of the same
// password on the first success (outdated). An account made without a
// password (moved in through the REST API, or created in the back office
// without one) holds an unusable hash until its owner sets one.
//
// The hash alone tells an account's state:
//
//	"!…"                    no password yet (UnusablePasswordHash)
//	"$P$…", "$H$…"          phpass portable (WordPress before 6.8)
//	"$2y$…" (2a, 2b)        bcrypt (plugins, PHP's password_hash)
//	"$wp$2y$…"              WordPress 6.8 and later
//	"$argon2id$…"           a password chosen in this shop

// unusablePrefix starts a hash that never matches any password.
const unusablePrefix = "!"

// UnusablePasswordHash is the hash of an account with no password yet:
// it never matches, and says so (HasNoPassword). Random, so two such
// accounts never share a hash.
func UnusablePasswordHash() string {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return unusablePrefix + hex.EncodeToString(b[:])
}

// HasNoPassword reports whether hash is an account's "no password yet".
func HasNoPassword(hash string) bool { return strings.HasPrefix(hash, unusablePrefix) }

// WordPress hash formats, as IsWordPressHash names them.
const (
	WPPhpass = "phpass"      // $P$ and $H$
	WPBcrypt = "bcrypt"      // $2y$, $2a$, $2b$
	WP68     = "wordpress68" // $wp$2y$
)

// WordPressHashFormat names the WordPress hash format of hash, "" when it
// is none this shop accepts (plain MD5 from before WordPress 2.5 is not).
// It checks the shape only: a hash of the right shape may still never
// match.
func WordPressHashFormat(hash string) string {
	switch {
	case (strings.HasPrefix(hash, "$P$") || strings.HasPrefix(hash, "$H$")) && len(hash) == 34 && phpassRounds(hash[3]) > 0:
		return WPPhpass
	case strings.HasPrefix(hash, "$wp$2") && bcryptShape(hash[3:]):
		return WP68
	case bcryptShape(hash):
		return WPBcrypt
	}
	return ""
}

// bcryptShape: "$2y$10$" then 53 characters of bcrypt's base64 (22 of
// salt, 31 of hash).
func bcryptShape(h string) bool {
	if len(h) != 60 || h[0] != '$' || h[1] != '2' || h[3] != '$' || h[6] != '$' {
		return false
	}
	switch h[2] {
	case 'a', 'b', 'y':
	default:
		return false
	}
	if h[4] < '0' || h[4] > '3' || h[5] < '0' || h[5] > '9' {
		return false
	}
	for i := 7; i < len(h); i++ {
		if strings.IndexByte(phpassAlphabet, h[i]) < 0 {
			return false // bcrypt's alphabet is phpass's letters in another order
		}
	}
	return true
}

// phpTrim is PHP's trim(): WordPress trims a password before hashing it
// and when a login is checked (wp_authenticate), so the hash is of the
// trimmed password.
func phpTrim(s string) string { return strings.Trim(s, " \t\n\r\x00\x0b") }

// checkWordPress compares pw to a WordPress hash as WordPress does; a
// hash of no accepted format never matches.
func checkWordPress(pw, hash string) bool {
	pw = phpTrim(pw)
	switch WordPressHashFormat(hash) {
	case WPPhpass:
		return subtle.ConstantTimeCompare([]byte(phpassHash(pw, hash)), []byte(hash)) == 1
	case WP68:
		return bcrypt.CompareHashAndPassword([]byte(hash[3:]), []byte(wpPrehash(pw))) == nil
	case WPBcrypt:
		return bcrypt.CompareHashAndPassword([]byte(hash), []byte(pw)) == nil
	}
	return false
}

// wpPrehash is what WordPress 6.8 gives bcrypt: the standard base64 of
// HMAC-SHA384 of the password under the key "wp-sha384" (bcrypt reads 72
// bytes at most; the 64 characters keep a long password's entropy).
func wpPrehash(pw string) string {
	m := hmac.New(sha512.New384, []byte("wp-sha384"))
	m.Write([]byte(pw))
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// phpassAlphabet is phpass's base64 alphabet (also bcrypt's letters).
const phpassAlphabet = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// phpassRounds is 2^n MD5 rounds for the setting character c, 0 when c
// is outside phpass's accepted 7 to 30.
func phpassRounds(c byte) int {
	n := strings.IndexByte(phpassAlphabet, c)
	if n < 7 || n > 30 {
		return 0
	}
	return 1 << n
}

// phpassHash is the phpass portable hash of pw with setting's rounds and
// salt (setting is a whole hash or its first 12 characters): MD5 of salt
// and password, then MD5 of the digest and the password, 2^n times, the
// 16 bytes written in phpass's base64.
func phpassHash(pw, setting string) string {
	rounds := phpassRounds(setting[3])
	sum := md5.Sum([]byte(setting[4:12] + pw))
	buf := make([]byte, 0, md5.Size+len(pw))
	for range rounds {
		buf = append(append(buf[:0], sum[:]...), pw...)
		sum = md5.Sum(buf)
	}
	return setting[:12] + phpassEncode(sum[:])
}

// phpassEncode writes b as phpass does: little-endian groups of three
// bytes, six bits at a time, low bits first; a short last group writes
// only the characters its bytes reach.
func phpassEncode(b []byte) string {
	var out strings.Builder
	for i := 0; i < len(b); i += 3 {
		n := min(3, len(b)-i)
		var v uint
		for j := range n {
			v |= uint(b[i+j]) << (8 * j)
		}
		for k := 0; k <= n; k++ {
			out.WriteByte(phpassAlphabet[(v>>(6*k))&0x3f])
		}
	}
	return out.String()
}
