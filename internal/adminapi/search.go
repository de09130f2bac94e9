package adminapi

import (
	"errors"
	"net/http"
	"strconv"

	"vitrine/internal/catalog"
	"vitrine/internal/settings"
)

// searchJSON is the search settings as the admin reads and saves them,
// with the searches that found nothing (read only).
type searchJSON struct {
	Synonyms  [][]string           `json:"synonyms"`
	Version   int64                `json:"version"`
	UpdatedAt string               `json:"updated_at"`
	Misses    []catalog.SearchMiss `json:"misses"`
}

// searchMissesShown is how many searches without results the screen lists.
const searchMissesShown = 50

func (a *API) searchOut(r *http.Request, d settings.Doc[settings.Search]) (searchJSON, error) {
	misses, err := a.d.Search.TopMisses(r.Context(), searchMissesShown)
	if err != nil {
		return searchJSON{}, err
	}
	if misses == nil {
		misses = []catalog.SearchMiss{}
	}
	syn := d.Value.Synonyms
	if syn == nil {
		syn = [][]string{}
	}
	return searchJSON{Synonyms: syn, Version: d.Version, UpdatedAt: savedAt(d.UpdatedAt), Misses: misses}, nil
}

// GET /wp-json/vitrine/v1/admin/search: the synonyms and the most asked
// searches that found nothing.
func (a *API) searchGet(w http.ResponseWriter, r *http.Request, _ Staff) error {
	out, err := a.searchOut(r, a.d.SearchSettings.Current())
	if err != nil {
		return err
	}
	WriteJSON(w, http.StatusOK, out)
	return nil
}

// PUT /wp-json/vitrine/v1/admin/search {synonyms, version}: the whole
// synonym list and the version it was based on.
func (a *API) searchPut(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var in searchJSON
	version, err := decodeSave(r, &in)
	if err != nil {
		return err
	}
	d, err := a.d.SearchSettings.Update(r.Context(), settings.Search{Synonyms: in.Synonyms}, version)
	if errors.Is(err, settings.ErrStale) {
		out, oerr := a.searchOut(r, a.d.SearchSettings.Current())
		if oerr != nil {
			return oerr
		}
		return staleSettings("the search settings", out)
	}
	var ie *settings.InputError
	if errors.As(err, &ie) {
		return InvalidParam(ie.Field, ie.Message)
	}
	if err != nil {
		return err
	}
	if a.d.CatalogChanged != nil {
		a.d.CatalogChanged(r.Context()) // the change log's settings entry: cached searches dropped
	}
	Note(r, "settings.search", "settings", 0, "Search synonyms saved: "+strconv.Itoa(len(d.Value.Synonyms))+" groups")
	out, err := a.searchOut(r, d)
	if err != nil {
		return err
	}
	WriteJSON(w, http.StatusOK, out)
	return nil
}
