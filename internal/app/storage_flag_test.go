package app

import (
	"strings"
	"testing"
)

func TestStorageFlags(t *testing.T) {
	c, err := parseFlags(nil, nil)
	if err != nil || c.ContactFilesQuotaMB != 200 || c.MediaQuotaMB != 5120 || c.MinFreeDiskMB != 512 {
		t.Fatalf("defaults: %+v %v", c, err)
	}
	c, err = parseFlags([]string{"--contact-files-quota-mb", "0", "--media-quota-mb", "100", "--min-free-disk-mb", "1024"}, nil)
	if err != nil || c.ContactFilesQuotaMB != 0 || c.MediaQuotaMB != 100 || c.MinFreeDiskMB != 1024 {
		t.Fatalf("flags: %+v %v", c, err)
	}
	c, err = parseFlags(nil, map[string]string{"VITRINE_CONTACT_FILES_QUOTA_MB": "50"})
	if err != nil || c.ContactFilesQuotaMB != 50 {
		t.Fatalf("env: %d %v", c.ContactFilesQuotaMB, err)
	}
	for _, bad := range []string{"-1", "100000001"} {
		if _, err := parseFlags([]string{"--media-quota-mb", bad}, nil); err == nil || !strings.Contains(err.Error(), "use 0 (off)") {
			t.Fatalf("%s: %v", bad, err)
		}
	}
	for dsn, want := range map[string]string{"sqlite:./data/vitrine.db": "data", "/var/lib/shop/x.db": "/var/lib/shop",
		"postgres://u@h/db": "", "postgresql://u@h/db": ""} {
		if got := storeDir(dsn); got != want {
			t.Errorf("%s: %q, want %q", dsn, got, want)
		}
	}
}
