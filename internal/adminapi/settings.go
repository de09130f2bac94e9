package adminapi

import (
	"errors"
	"net/http"
	"time"

	"vitrine/internal/settings"
)

// The shop's settings (internal/settings): read them, save them. A save
// names the version it was based on; a stale one is refused with the
// settings now in force, never merged.

// settingsAnswer is the settings in force and their version.
type settingsAnswer struct {
	settings.Shop
	Version   int64  `json:"version"`
	UpdatedAt string `json:"updated_at,omitempty"` // RFC 3339; absent while the flags' defaults are in force
}

func answerOf(v settings.Versioned) settingsAnswer {
	a := settingsAnswer{Shop: v.Shop, Version: v.Version}
	if !v.UpdatedAt.IsZero() {
		a.UpdatedAt = v.UpdatedAt.Format(time.RFC3339)
	}
	return a
}

// GET /wp-json/vitrine/v1/admin/settings
func (a *API) settingsGet(w http.ResponseWriter, _ *http.Request, _ Staff) error {
	WriteJSON(w, http.StatusOK, answerOf(a.d.Settings.Current()))
	return nil
}

// PUT /wp-json/vitrine/v1/admin/settings: the whole document and the
// version it was based on.
func (a *API) settingsPut(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var in struct {
		settings.Shop
		Version *int64 `json:"version"`
	}
	if err := Decode(r, &in); err != nil {
		return err
	}
	if in.Version == nil || *in.Version < 0 {
		return InvalidParam("version", "The version the changes are based on is required.")
	}
	before := a.d.Settings.Current()
	v, err := a.d.Settings.Update(r.Context(), in.Shop, *in.Version)
	var ie *settings.InputError
	switch {
	case errors.Is(err, settings.ErrStale):
		return Conflict("vitrine_settings_stale",
			"Someone else saved the settings after you opened them. Your changes were not saved: reload to see theirs, then make yours again.",
			map[string]any{"current": answerOf(a.d.Settings.Current())})
	case errors.As(err, &ie):
		return InvalidParam(ie.Field, ie.Message)
	case err != nil:
		return err
	}
	Note(r, "settings.update", "settings", 0, settingsSummary(before.Shop, v.Shop))
	WriteJSON(w, http.StatusOK, answerOf(v))
	return nil
}

// settingsSummary names what a save changed, for the audit log.
func settingsSummary(old, cur settings.Shop) string {
	var changed []string
	add := func(name string, differ bool) {
		if differ {
			changed = append(changed, name)
		}
	}
	add("name", old.Name != cur.Name)
	add("tagline", old.Tagline != cur.Tagline)
	add("address", old.Address != cur.Address)
	add("store notice", old.StoreNotice != cur.StoreNotice)
	add("coming soon "+onOff(cur.ComingSoon), old.ComingSoon != cur.ComingSoon)
	add("infinite scroll", old.InfiniteScroll != cur.InfiniteScroll || old.InfiniteScrollHistory != cur.InfiniteScrollHistory)
	add("gallery", old.Zoom != cur.Zoom || old.Lightbox != cur.Lightbox)
	add("page loader", old.PageLoader != cur.PageLoader)
	add("header", old.HeaderHideOnScroll != cur.HeaderHideOnScroll)
	add("swatches", old.ClearOnReselect != cur.ClearOnReselect || old.ClickableOutOfStock != cur.ClickableOutOfStock ||
		old.DeselectConflicting != cur.DeselectConflicting)
	if len(changed) == 0 {
		return "Settings saved unchanged"
	}
	s := "Changed "
	for i, c := range changed {
		if i > 0 {
			s += ", "
		}
		s += c
	}
	return s
}

func onOff(b bool) string {
	if b {
		return "(on)"
	}
	return "(off)"
}
