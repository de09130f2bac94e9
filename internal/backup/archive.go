package backup

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// The archive: one gzip-compressed tar file whose first entry is
// manifest.json and whose other entries are the files the manifest lists,
// each with its size and SHA-256. `tar tzf` lists it; nothing in it is
// specific to Go.

// FormatVersion is the archive format this build writes and reads.
const FormatVersion = 1

// ManifestName is the archive's first entry.
const ManifestName = "manifest.json"

// The store's snapshot in the archive, by engine: a SQLite database file
// (VACUUM INTO), or pg_dump's plain SQL for PostgreSQL.
const (
	sqliteEntry   = "store.sqlite"
	postgresEntry = "store.sql"
)

// Manifest describes an archive.
type Manifest struct {
	Format int `json:"format"`
	// Engine is the store's engine (sqlite or postgres); a backup restores
	// into a store of the same engine.
	Engine string `json:"engine"`
	// Schema is the PostgreSQL schema the store lived in ("" on SQLite).
	Schema string `json:"schema,omitempty"`
	// SchemaVersion is the newest migration applied to the store.
	SchemaVersion int64     `json:"schema_version"`
	CreatedAt     time.Time `json:"created_at"`
	ShopVersion   string    `json:"shop_version"`
	Files         []File    `json:"files"`
	// Contents counts what the snapshot holds. The media library's files
	// and the contact form's uploads are rows of the store, so the
	// snapshot holds them; their counts and bytes are here.
	Contents Contents `json:"contents"`
}

// File is one entry of the archive besides the manifest.
type File struct {
	Name   string `json:"name"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// Contents counts the shop's data in a store.
type Contents struct {
	Products         int64 `json:"products"`
	Orders           int64 `json:"orders"`
	Users            int64 `json:"users"`
	Reviews          int64 `json:"reviews"`
	Coupons          int64 `json:"coupons"`
	Pages            int64 `json:"pages"`
	ContactMessages  int64 `json:"contact_messages"`
	MediaFiles       int64 `json:"media_files"`
	MediaBytes       int64 `json:"media_bytes"`
	ContactFiles     int64 `json:"contact_files"`
	ContactFileBytes int64 `json:"contact_file_bytes"`
}

// Empty reports whether the store holds none of the shop's data. A
// shop's first start drafts a privacy policy page; a store with only
// pages still counts as empty, so a restore into a shop started once
// needs no --force.
func (c Contents) Empty() bool {
	return c.Products == 0 && c.Orders == 0 && c.Users == 0 && c.Reviews == 0 && c.Coupons == 0 &&
		c.ContactMessages == 0 && c.MediaFiles == 0
}

// String is what a restore says it replaces.
func (c Contents) String() string {
	return fmt.Sprintf("%d products, %d orders, %d users, %d reviews, %d coupons, %d pages, %d contact messages, %d media files (%d bytes), %d contact files (%d bytes)",
		c.Products, c.Orders, c.Users, c.Reviews, c.Coupons, c.Pages, c.ContactMessages, c.MediaFiles, c.MediaBytes, c.ContactFiles, c.ContactFileBytes)
}

// ErrCorrupt is a refused archive: unreadable, not one of ours, or a file
// whose size or checksum differs from its manifest.
var ErrCorrupt = errors.New("backup archive is corrupted or not a Vitrine backup")

// writeArchive writes the archive of m and the files in dir (m.Files
// without their sizes and checksums, which it fills) to path atomically:
// it writes path's ".partial" sibling, syncs it and renames it over path,
// so a crash leaves either no archive or a whole one (and an earlier
// archive at path intact). It returns the archive's size.
func writeArchive(path string, m *Manifest, dir string) (int64, error) {
	for i := range m.Files {
		sum, size, err := hashFile(filepath.Join(dir, m.Files[i].Name))
		if err != nil {
			return 0, err
		}
		m.Files[i].Size, m.Files[i].SHA256 = size, sum
	}
	manifest, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return 0, err
	}
	tmp := path + ".partial"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return 0, fmt.Errorf("create backup file: %w", err)
	}
	defer func() {
		if f != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	// BestSpeed: a store's pages compress about as well at level 1 and the
	// shop's CPUs keep serving while a scheduled backup runs.
	zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	tw := tar.NewWriter(zw)
	put := func(name string, size int64, r io.Reader) error {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: size, ModTime: m.CreatedAt, Format: tar.FormatPAX}); err != nil {
			return err
		}
		_, err := io.Copy(tw, r)
		return err
	}
	if err := put(ManifestName, int64(len(manifest)), bytes.NewReader(manifest)); err != nil {
		return 0, fmt.Errorf("write backup: %w", err)
	}
	for _, file := range m.Files {
		src, err := os.Open(filepath.Join(dir, file.Name))
		if err != nil {
			return 0, err
		}
		err = put(file.Name, file.Size, src)
		src.Close()
		if err != nil {
			return 0, fmt.Errorf("write backup: %w", err)
		}
	}
	if err := tw.Close(); err != nil {
		return 0, fmt.Errorf("write backup: %w", err)
	}
	if err := zw.Close(); err != nil {
		return 0, fmt.Errorf("write backup: %w", err)
	}
	if err := f.Sync(); err != nil {
		return 0, fmt.Errorf("write backup: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	if err := f.Close(); err != nil {
		return 0, fmt.Errorf("write backup: %w", err)
	}
	f = nil
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return 0, fmt.Errorf("write backup: %w", err)
	}
	syncDir(filepath.Dir(path))
	return st.Size(), nil
}

// readArchive reads the archive at path into dir: its manifest, and each
// file it lists, checked against its size and SHA-256. Any difference, a
// missing or extra entry, or an unreadable archive is ErrCorrupt.
func readArchive(path, dir string) (*Manifest, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	corrupt := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s: %s", ErrCorrupt, path, fmt.Sprintf(format, a...))
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, corrupt("%v", err)
	}
	tr := tar.NewReader(zr)
	h, err := tr.Next()
	if err != nil {
		return nil, corrupt("%v", err)
	}
	if h.Name != ManifestName || h.Size > 1<<20 {
		return nil, corrupt("the first entry is %q, not %s", h.Name, ManifestName)
	}
	var m Manifest
	if err := json.NewDecoder(io.LimitReader(tr, 1<<20)).Decode(&m); err != nil {
		return nil, corrupt("manifest: %v", err)
	}
	if m.Format != FormatVersion {
		return nil, fmt.Errorf("%s: archive format %d; this build reads format %d", path, m.Format, FormatVersion)
	}
	if m.Engine != engineSQLite && m.Engine != enginePostgres {
		return nil, corrupt("unknown engine %q", m.Engine)
	}
	seen := map[string]bool{}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, corrupt("%v", err)
		}
		i := slices.IndexFunc(m.Files, func(f File) bool { return f.Name == h.Name })
		if i < 0 || seen[h.Name] || filepath.Base(h.Name) != h.Name {
			return nil, corrupt("unexpected entry %q", h.Name)
		}
		seen[h.Name] = true
		want := m.Files[i]
		out, err := os.OpenFile(filepath.Join(dir, h.Name), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err != nil {
			return nil, err
		}
		hash := sha256.New()
		n, err := io.Copy(io.MultiWriter(out, hash), tr)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, corrupt("%s: %v", h.Name, err)
		}
		if n != want.Size || hex.EncodeToString(hash.Sum(nil)) != want.SHA256 {
			return nil, corrupt("%s: %d bytes with SHA-256 %s; the manifest says %d bytes with %s", h.Name, n, hex.EncodeToString(hash.Sum(nil)), want.Size, want.SHA256)
		}
	}
	// Reading the gzip stream to its end checks its CRC, which covers the
	// manifest too.
	if _, err := io.Copy(io.Discard, zr); err != nil {
		return nil, corrupt("%v", err)
	}
	for _, file := range m.Files {
		if !seen[file.Name] {
			return nil, corrupt("%s is missing", file.Name)
		}
	}
	return &m, nil
}

// ReadManifest reads and checks the archive at path without restoring it
// (vitrine restore --check).
func ReadManifest(path string) (*Manifest, error) {
	dir, err := os.MkdirTemp(filepath.Dir(path), ".vitrine-check-")
	if err != nil {
		dir, err = os.MkdirTemp("", "vitrine-check-")
		if err != nil {
			return nil, err
		}
	}
	defer os.RemoveAll(dir)
	return readArchive(path, dir)
}

func hashFile(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// syncDir makes a rename in dir durable (best effort: not every system
// syncs a directory).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
