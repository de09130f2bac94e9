package app

import (
	"bytes"
	"strings"
	"testing"
)

func TestContactFileRetentionFlag(t *testing.T) {
	var errb bytes.Buffer
	if c, _, err := parse(nil, env(nil), &errb); err != nil || c.ContactFileRetentionDays != 30 {
		t.Fatalf("default: %d %v", c.ContactFileRetentionDays, err)
	}
	if c, _, err := parse([]string{"--contact-file-retention", "7"}, env(nil), &errb); err != nil || c.ContactFileRetentionDays != 7 {
		t.Fatalf("flag: %d %v", c.ContactFileRetentionDays, err)
	}
	if c, _, err := parse(nil, env(map[string]string{"VITRINE_CONTACT_FILE_RETENTION": "90"}), &errb); err != nil || c.ContactFileRetentionDays != 90 {
		t.Fatalf("env: %d %v", c.ContactFileRetentionDays, err)
	}
	for _, bad := range []string{"0", "-1", "3651"} {
		if _, _, err := parse([]string{"--contact-file-retention", bad}, env(nil), &errb); err == nil || !strings.Contains(err.Error(), "use 1 to 3650") {
			t.Fatalf("%s: %v", bad, err)
		}
	}
}
