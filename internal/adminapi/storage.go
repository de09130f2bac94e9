package adminapi

import (
	"net/http"

	"vitrine/internal/backup"
	"vitrine/internal/storage/space"
)

// What uploads hold of the shop's storage, for the inbox and media
// screens: the contact files and the media library against their quotas
// (0: none), and the store's disk against its floor; and, for the
// dashboard, the scheduled backups.

const storagePath = "/wp-json/vitrine/v1/admin/storage"

type storageJSON struct {
	ContactFiles space.Usage     `json:"contact_files"`
	Media        space.Usage     `json:"media"`
	Disk         space.DiskUsage `json:"disk"`
	// Backups: the scheduled backups and the newest one written.
	Backups backup.Status `json:"backups"`
}

// GET /wp-json/vitrine/v1/admin/storage
func (a *API) storageGet(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var out storageJSON
	var err error
	if out.ContactFiles, err = a.d.Contact.FileUsage(r.Context()); err != nil {
		return err
	}
	if out.Media, err = a.d.Media.Usage(r.Context()); err != nil {
		return err
	}
	if out.Disk, err = a.d.Media.Disk.Usage(); err != nil {
		return err
	}
	if a.d.Backups != nil {
		out.Backups = a.d.Backups()
	}
	WriteJSON(w, http.StatusOK, out)
	return nil
}
