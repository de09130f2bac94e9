package app

import (
	"strings"
	"testing"
)

func TestContactFileRetentionFlag(t *testing.T) {
	if c, err := parseFlags(nil, nil); err != nil || c.ContactFileRetentionDays != 30 {
		t.Fatalf("default: %d %v", c.ContactFileRetentionDays, err)
	}
	if c, err := parseFlags([]string{"--contact-file-retention", "7"}, nil); err != nil || c.ContactFileRetentionDays != 7 {
		t.Fatalf("flag: %d %v", c.ContactFileRetentionDays, err)
	}
	if c, err := parseFlags(nil, map[string]string{"VITRINE_CONTACT_FILE_RETENTION": "90"}); err != nil || c.ContactFileRetentionDays != 90 {
		t.Fatalf("env: %d %v", c.ContactFileRetentionDays, err)
	}
	for _, bad := range []string{"0", "-1", "3651"} {
		if _, err := parseFlags([]string{"--contact-file-retention", bad}, nil); err == nil || !strings.Contains(err.Error(), "use 1 to 3650") {
			t.Fatalf("%s: %v", bad, err)
		}
	}
}
