package adminapi

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/mail"
	"strings"
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
	return settingsAnswer{Shop: v.Shop, Version: v.Version, UpdatedAt: savedAt(v.UpdatedAt)}
}

// GET /wp-json/vitrine/v1/admin/settings
func (a *API) settingsGet(w http.ResponseWriter, _ *http.Request, _ Staff) error {
	WriteJSON(w, http.StatusOK, answerOf(a.d.Settings.Current()))
	return nil
}

// PUT /wp-json/vitrine/v1/admin/settings: the whole document and the
// version it was based on.
func (a *API) settingsPut(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var in settings.Shop
	version, err := decodeSave(r, &in)
	if err != nil {
		return err
	}
	before := a.d.Settings.Current()
	v, err := a.d.Settings.Update(r.Context(), in, version)
	var ie *settings.InputError
	switch {
	case errors.Is(err, settings.ErrStale):
		return staleSettings("the settings", answerOf(a.d.Settings.Current()))
	case errors.As(err, &ie):
		return InvalidParam(ie.Field, ie.Message)
	case err != nil:
		return err
	}
	Note(r, "settings.update", "settings", 0, settingsSummary(before.Shop, v.Shop))
	WriteJSON(w, http.StatusOK, answerOf(v))
	return nil
}

// savedAt is when a settings document was saved, RFC 3339; "" while it
// never was (the answers omit it then).
func savedAt(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339)
}

// decodeSave reads the save of a settings document: the JSON body into doc
// (Decode's refusals) and the version it says it was read at, required, 0
// or more. A "version" field of doc's own is for answers: the save's
// version is the request's.
func decodeSave(r *http.Request, doc any) (int64, error) {
	var raw json.RawMessage
	if err := Decode(r, &raw); err != nil {
		return 0, err
	}
	var v struct {
		Version *int64 `json:"version"`
	}
	if json.Unmarshal(raw, doc) != nil || json.Unmarshal(raw, &v) != nil {
		return 0, errInvalidJSON
	}
	if v.Version == nil || *v.Version < 0 {
		return 0, InvalidParam("version", "The version the changes are based on is required.")
	}
	return *v.Version, nil
}

// staleSettings refuses a save based on an older version of what ("the
// settings"): 409 with the document now in force, for the screen to load.
func staleSettings(what string, current any) *Error {
	return Conflict("vitrine_settings_stale",
		"Someone else saved "+what+" after you opened them. Your changes were not saved: reload to see theirs, then make yours again.",
		map[string]any{"current": current})
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
	add("contact details", old.Email != cur.Email || old.Phone != cur.Phone)
	add("social profiles", old.Social != cur.Social)
	add("store notice", old.StoreNotice != cur.StoreNotice)
	add("coming soon "+onOff(cur.ComingSoon), old.ComingSoon != cur.ComingSoon)
	add("infinite scroll", old.InfiniteScroll != cur.InfiniteScroll || old.InfiniteScrollHistory != cur.InfiniteScrollHistory)
	add("gallery", old.Zoom != cur.Zoom || old.Lightbox != cur.Lightbox)
	add("page loader", old.PageLoader != cur.PageLoader)
	add("header", old.HeaderHideOnScroll != cur.HeaderHideOnScroll)
	add("privacy erasure of reviews", old.ErasureReviews != cur.ErasureReviews)
	add("swatches", old.ClearOnReselect != cur.ClearOnReselect || old.ClickableOutOfStock != cur.ClickableOutOfStock ||
		old.DeselectConflicting != cur.DeselectConflicting)
	add("consent banner "+onOff(cur.ConsentBanner), old.ConsentBanner != cur.ConsentBanner)
	add("price-drop threshold", old.PriceDropPercent != cur.PriceDropPercent)
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

// ErrMailOff is a test message asked of a shop without SMTP.
var ErrMailOff = errors.New("mail is not configured")

// POST /wp-json/vitrine/v1/admin/settings/test-mail {"to": address}: sends
// a message now and says what the SMTP server answered.
func (a *API) settingsTestMail(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var in struct {
		To string `json:"to"`
	}
	if err := Decode(r, &in); err != nil {
		return err
	}
	addr, err := mail.ParseAddress(strings.TrimSpace(in.To))
	if err != nil || addr.Name != "" || len(addr.Address) > 254 {
		return InvalidParam("to", "Enter one email address, such as owner@example.com.")
	}
	if a.d.TestMail == nil {
		return ErrMailOff
	}
	switch err := a.d.TestMail(r.Context(), addr.Address); {
	case errors.Is(err, ErrMailOff):
		return &Error{Status: http.StatusServiceUnavailable, Code: "vitrine_mail_not_configured",
			Message: "The shop has no mail server: start it with --smtp-url to send mail."}
	case err != nil:
		// Staff see the mail server's own answer: it is what they need to fix it.
		return &Error{Status: http.StatusBadGateway, Code: "vitrine_mail_failed", Message: "The mail server refused the message: " + err.Error()}
	}
	Note(r, "settings.test_mail", "settings", 0, "Test message sent to "+addr.Address)
	WriteJSON(w, http.StatusOK, map[string]any{"sent": true, "to": addr.Address})
	return nil
}
