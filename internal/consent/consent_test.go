package consent_test

import (
	"testing"

	"vitrine/internal/consent"
)

func TestReadAndAllows(t *testing.T) {
	for _, tc := range []struct {
		name          string
		cookie, gpc   string
		want          consent.Signal
		asked, silent bool // Allows(true), Allows(false)
	}{
		{"nothing said", "", "", consent.Signal{}, false, true},
		{"accepted", "granted", "", consent.Signal{Choice: consent.Granted}, true, true},
		{"rejected", "denied", "", consent.Signal{Choice: consent.Denied}, false, false},
		{"an unknown value is no choice", "yes", "", consent.Signal{}, false, true},
		{"GPC refuses without a choice", "", "1", consent.Signal{GPC: true}, false, false},
		{"GPC wins over an Accept", "granted", "1", consent.Signal{Choice: consent.Granted, GPC: true}, false, false},
		{"Sec-GPC other than 1 says nothing", "", "0", consent.Signal{}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := consent.Read(tc.cookie, tc.gpc)
			if s != tc.want {
				t.Fatalf("signal %+v, want %+v", s, tc.want)
			}
			if s.Allows(true) != tc.asked || s.Allows(false) != tc.silent {
				t.Errorf("allows: banner on %v (want %v), banner off %v (want %v)", s.Allows(true), tc.asked, s.Allows(false), tc.silent)
			}
		})
	}
}
