package account

import "testing"

// WordPress hashes of known passwords. The two published phpass hashes
// are phpass's own test ("test12345") and passlib's documented example
// ("password"); the others were computed for this test outside Go:
// phpass with python3's hashlib, bcrypt with the system's libxcrypt
// (python3's crypt module), WordPress 6.8's with the HMAC-SHA384 prehash
// from python3's hmac fed to that bcrypt.
var wpVectors = []struct {
	password, hash, format string
}{
	{"test12345", "$P$9IQRaTwmfeRo7ud9Fh4E2PdI0S3r.L0", WPPhpass},
	{"password", "$P$8ohUJ.1sdFw09/bMaAQPTGDNi2BIUt1", WPPhpass},
	{"correct horse battery", "$P$Bsaltsaltc/FDgntba538D7eNXZq/i1", WPPhpass},
	{"correct horse battery", "$H$9AbCd1234NEyVdKWOpAt9D6j0Nm.z/.", WPPhpass},
	{"pässwörd ünicode", "$P$BZx.9/aQwyygyQxriIcdRlssrkzjB51", WPPhpass},
	{"correct horse battery", "$2y$10$abcdefghijklmnopqrstuuCj7fyLDJytXL.TfOiOeiv0fQvSOK1/2", WPBcrypt},
	{"correct horse battery", "$2b$10$abcdefghijklmnopqrstuuCj7fyLDJytXL.TfOiOeiv0fQvSOK1/2", WPBcrypt},
	{"correct horse battery", "$wp$2y$10$ABCDEFGHIJKLMNOPQRSTUuu4vvg95ADwcdkqxOnKD5aKppYll6v2y", WP68},
}

func TestWordPressHashes(t *testing.T) {
	for _, v := range wpVectors {
		if f := WordPressHashFormat(v.hash); f != v.format {
			t.Errorf("%s: format %q, want %q", v.hash, f, v.format)
		}
		if !checkPassword(v.password, v.hash) {
			t.Errorf("%s: the right password %q does not match", v.hash, v.password)
		}
		// WordPress trims the password it hashes and the one it checks.
		if !checkPassword(" "+v.password+"\t", v.hash) {
			t.Errorf("%s: the padded password does not match", v.hash)
		}
		for _, wrong := range []string{v.password + "!", v.password[1:], "", "Password"} {
			if checkPassword(wrong, v.hash) {
				t.Errorf("%s: the wrong password %q matches", v.hash, wrong)
			}
		}
		if !outdated(v.hash) {
			t.Errorf("%s: not outdated, so never rehashed", v.hash)
		}
	}
	if got := phpassHash("test12345", "$P$9IQRaTwmf"); got != "$P$9IQRaTwmfeRo7ud9Fh4E2PdI0S3r.L0" {
		t.Errorf("phpassHash = %s", got)
	}
	if got := wpPrehash("correct horse battery"); got != "Qbtwf+kTkE/B1UxVa5B9eckyjlWZT96ECPESH3aMXPl1efiE0S0oK7KA0AeUAY4s" {
		t.Errorf("prehash = %s", got)
	}
}

// Shapes that are not an accepted hash never match and are not
// outdated (a malformed row is not "rehashed" into a password).
func TestWordPressHashShapes(t *testing.T) {
	for _, h := range []string{
		"",
		"5f4dcc3b5aa765d61d8327deb882cf99",    // plain MD5 (WordPress before 2.5): not accepted
		"$P$9IQRaTwmfeRo7ud9Fh4E2PdI0S3r.L",   // one short
		"$P$9IQRaTwmfeRo7ud9Fh4E2PdI0S3r.L0x", // one long
		"$P$zIQRaTwmfeRo7ud9Fh4E2PdI0S3r.L0",  // 2^61 rounds
		"$P$4IQRaTwmfeRo7ud9Fh4E2PdI0S3r.L0",  // 2^6 rounds: below the least (2^7)
		"$Q$9IQRaTwmfeRo7ud9Fh4E2PdI0S3r.L0",  // another prefix
		"$2x$10$abcdefghijklmnopqrstuuCj7fyLDJytXL.TfOiOeiv0fQvSOK1/2", // 2x: not PHP's
		"$2y$10$abcdefghijklmnopqrstuuCj7fyLDJytXL.TfOiOeiv0fQvSOK1/",  // short
		"$wp$2y$10$ABCDEFGHIJKLMNOPQRSTUuu4vvg95ADwcdkqxOnKD5aKppYll6v2!",
		"$wp$argon2id$v=19$m=65536,t=4,p=1$c2FsdA$aGFzaA",
		UnusablePasswordHash(),
	} {
		if f := WordPressHashFormat(h); f != "" {
			t.Errorf("%q: format %q", h, f)
		}
		if checkPassword("test12345", h) || checkPassword("password", h) {
			t.Errorf("%q matched", h)
		}
		if outdated(h) {
			t.Errorf("%q: outdated", h)
		}
	}
	a, b := UnusablePasswordHash(), UnusablePasswordHash()
	if a == b || !HasNoPassword(a) || HasNoPassword(wpVectors[0].hash) {
		t.Errorf("unusable hashes %q %q", a, b)
	}
}
