package app

import (
	"fmt"
	"path/filepath"
	"strings"

	"vitrine/internal/contact"
)

// Storage bounds: what uploads may hold of the store (the contact form's
// files, the media library) and the free space kept on the SQLite store's
// disk (internal/storage/space).

// DefaultMediaQuotaMB and DefaultMinFreeDiskMB are the flags' defaults.
const (
	DefaultMediaQuotaMB  = 5120
	DefaultMinFreeDiskMB = 512
)

func storageFlags(c *Config, num func(p *int, name string, def int, help string)) {
	num(&c.ContactFilesQuotaMB, "contact-files-quota-mb", contact.DefaultFilesQuota>>20, "MB of files uploaded with the contact form the store keeps at most; over it messages with files are refused (507) until the retention or a deletion frees room (0: no quota)")
	num(&c.MediaQuotaMB, "media-quota-mb", DefaultMediaQuotaMB, "MB of media files (uploads, their sizes, imported images) the store holds at most; over it uploads are refused (507) (0: no quota)")
	num(&c.MinFreeDiskMB, "min-free-disk-mb", DefaultMinFreeDiskMB, "SQLite: MB that must stay free on the store's disk; below it uploads (contact files, media) are refused (503 with Retry-After) (0: no check)")
}

func (c *Config) checkStorage() error {
	for _, v := range []struct {
		name string
		n    int
	}{{"contact-files-quota-mb", c.ContactFilesQuotaMB}, {"media-quota-mb", c.MediaQuotaMB}, {"min-free-disk-mb", c.MinFreeDiskMB}} {
		if v.n < 0 || v.n > 100_000_000 {
			return fmt.Errorf("--%s %d: use 0 (off) to 100000000 (MB)", v.name, v.n)
		}
	}
	return nil
}

// storeDir is the directory of a SQLite store, whose disk's free space is
// checked; "" for PostgreSQL, whose files are on the database server.
func storeDir(dsn string) string {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		return ""
	}
	return filepath.Dir(strings.TrimPrefix(dsn, "sqlite:"))
}
