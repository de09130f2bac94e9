package storefront

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"vitrine/internal/account"
	"vitrine/internal/httpx"
	"vitrine/internal/pages"
	"vitrine/internal/render"
	"vitrine/internal/usermeta"
)

// The logged-in frame: what every page and REST call looks like to a
// logged-in viewer.
//
//   - Shared pages (the page cache's: listings, product pages, home,
//     content, contact, the 404 page) are the same for every viewer and
//     carry settings.user's visitor value. A logged-in viewer gets the
//     shared page with their part spliced in before </body> as it is sent
//     (sendPage): a JSON script #vitrine-viewer with their settings.user
//     (pageUser) and their page fields (pages.Personal.Part: edit links for
//     staff, their held reviews, whether they may review), answered with
//     Cache-Control: no-store, private. The app hydrates the shared page,
//     then shows the part (web/src/lib/viewer.tsx). The cache key is the
//     page's URL, never its viewer.
//   - Pages that are the viewer's alone (my account, cart, checkout,
//     order received, a guest's held review through its moderation link)
//     are loaded and rendered for them (servePersonal, SendPersonal).
//   - Staff (shop managers, administrators) see edit links on content
//     blocks; they point at the admin's WordPress-shaped addresses.
//   - The REST nonce: the viewer's part carries their wp_rest nonce, and
//     admin-ajax's rest-nonce action hands out a fresh one (RestNonce).
//     The server's middleware checks it on /wp-json/ (REST cookie auth).
//   - The coming-soon footer banner for staff and its dismissal
//     (POST /wp-json/wp/v2/users/<id>, stored per user by usermeta).

// viewerScript opens and closes a viewer's part in the page.
const (
	viewerScriptOpen  = `<script id="vitrine-viewer" type="application/json">`
	viewerScriptClose = "</script>\n"
)

// sendPage answers a shared page: as it is for a visitor, with the
// viewer's part for a logged-in viewer. A part that cannot be built (a
// store read failed) fails the answer: a page without it would show a
// logged-in viewer as logged out.
func (pg *Pages) sendPage(w http.ResponseWriter, r *http.Request, p *render.Page) {
	if httpx.UserOf(r) == nil {
		httpx.WritePage(w, r, p)
		return
	}
	part, err := pg.viewerPart(r, p)
	if err != nil {
		pg.PageError(w, "a viewer's part of a page", err)
		return
	}
	httpx.WriteSpliced(w, r, p, part)
}

// viewerPart is the request's viewer's part of page p, as HTML: the JSON
// is encoding/json's, whose escaping of <, > and & keeps it inside its
// script element.
func (pg *Pages) viewerPart(r *http.Request, p *render.Page) ([]byte, error) {
	personal, _ := p.Personal.(pages.Personal)
	v, err := personal.Part(r.Context(), pg.pageUser(r), pg.d.Reviews)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(viewerScriptOpen)+len(b)+len(viewerScriptClose))
	return append(append(append(out, viewerScriptOpen...), b...), viewerScriptClose...), nil
}

// pageUser is settings.user for the request's viewer. The banner costs a
// store read, and only for staff while the shop is in coming-soon mode.
func (pg *Pages) pageUser(r *http.Request) pages.User {
	u := httpx.UserOf(r)
	if u == nil {
		return pages.Visitor
	}
	pu := pages.User{LoggedIn: true, CanEditPages: u.CanEditPages(), ID: u.ID, DisplayName: u.DisplayName,
		LogoutURL: pg.d.LogoutURL(r), RESTNonce: pg.d.Sessions.RESTNonce(u.ID, httpx.NonceTickAt(pg.d.Now()))}
	if pg.live().ComingSoon && u.CanEditPages() {
		dismissed, err := pg.d.Meta.BannerDismissed(r.Context(), u.ID)
		if err != nil {
			pg.d.Log.Warn("read coming-soon banner flag", "user", u.ID, "err", err)
		} else if !dismissed {
			pu.ComingSoonBanner = &pages.ComingSoonBanner{RESTURL: userRESTURL(u.ID), RESTNonce: pu.RESTNonce}
		}
	}
	return pu
}

func userRESTURL(id int64) string { return "/wp-json/wp/v2/users/" + strconv.FormatInt(id, 10) }

// PageContext is the context to load a per-request page with: the
// viewer's settings.user when logged in. Every page rendered for its
// viewer alone loads with it; shared pages never do.
func (pg *Pages) PageContext(r *http.Request) context.Context {
	if httpx.UserOf(r) == nil {
		return r.Context()
	}
	return pages.WithUser(r.Context(), pg.pageUser(r))
}

// servePersonal loads and renders a page for the viewer alone: no cache
// read, no cache write, no shared flight.
func (pg *Pages) servePersonal(w http.ResponseWriter, r *http.Request, pageURL string, load loadFunc) {
	ctx := pg.PageContext(r)
	res, err := load(ctx, pageURL)
	if err != nil {
		pg.pageLoadFailed(w, r, err)
		return
	}
	p, err := pg.RenderPage(ctx, pageURL, res)
	if err != nil {
		pg.pageFailed(w, "personal page", err)
		return
	}
	writePersonal(w, r, p)
}

// writePersonal sends a page rendered for one viewer: never stored by a
// browser or a proxy.
func writePersonal(w http.ResponseWriter, r *http.Request, p *render.Page) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store, private")
	h.Set("X-Cache", "bypass")
	httpx.WriteBody(w, r, p)
}

// AtLogin runs what a login resets: the coming-soon banner shows again
// (WooCommerce resets the dismissal at every login). The my-account
// surface calls it at every login; a failure is logged, the login stands.
func (pg *Pages) AtLogin(ctx context.Context, u *account.User) {
	if err := pg.d.Meta.ResetAtLogin(ctx, u.ID); err != nil {
		pg.d.Log.Warn("reset coming-soon banner at login", "user", u.ID, "err", err)
	}
}

// RestNonce answers admin-ajax's rest-nonce: a fresh wp_rest nonce as
// plain text for a logged-in viewer. WordPress registers the action for
// logged-in users only, so a visitor gets its unknown-action answer, "0".
func (pg *Pages) RestNonce(w http.ResponseWriter, r *http.Request) {
	u := httpx.UserOf(r)
	if u == nil {
		httpx.AjaxZero(w, http.StatusBadRequest)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=UTF-8")
	h.Set("X-Robots-Tag", "noindex")
	h.Set("Cache-Control", "no-store, private")
	_, _ = io.WriteString(w, pg.d.Sessions.RESTNonce(u.ID, httpx.NonceTickAt(pg.d.Now())))
}

// --- POST /wp-json/wp/v2/users/{id}: the banner's dismissal -------------

// restUser is the user object the route answers (the part of WordPress's
// that the storefront reads, which is nothing: the banner hides anyway).
type restUser struct {
	ID              int64         `json:"id"`
	Name            string        `json:"name"`
	WooCommerceMeta usermeta.Meta `json:"woocommerce_meta"`
}

// UserUpdate changes the viewer's own storefront settings. It is not
// WordPress's whole user update: only the woocommerce_meta flags (and the
// older meta[woocommerce_...] spelling) are taken, and any other field is
// refused, so this route can never change a name, an email, a password or
// a role. The REST nonce was checked by the server's REST cookie auth.
func (pg *Pages) UserUpdate(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store, private")
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		httpx.WriteErrorRaw(w, http.StatusNotFound, "rest_no_route", "No route was found matching the URL and request method.", nil)
		return
	}
	u := httpx.UserOf(r)
	if u == nil {
		httpx.WriteErrorRaw(w, http.StatusUnauthorized, "rest_not_logged_in", "You are not currently logged in.", nil)
		return
	}
	changes, err := readMetaChanges(r)
	if err != nil {
		var pe httpx.ParamError
		if errors.As(err, &pe) {
			httpx.WriteParamError(w, pe)
			return
		}
		httpx.WriteErrorRaw(w, http.StatusBadRequest, "rest_invalid_json", "Invalid JSON body passed.", nil)
		return
	}
	meta, err := pg.d.Meta.Update(r.Context(), u.ID, id, changes)
	var ie *usermeta.InputError
	switch {
	case errors.Is(err, usermeta.ErrForbidden):
		httpx.WriteErrorRaw(w, http.StatusForbidden, "rest_cannot_edit", "Sorry, you are not allowed to edit this user.", nil)
		return
	case errors.As(err, &ie):
		httpx.WriteParamError(w, httpx.ParamError{Param: "woocommerce_meta", Msg: ie.Key + " " + ie.Message})
		return
	case err != nil:
		pg.d.Log.Error("update user meta", "user", u.ID, "err", err)
		httpx.WriteErrorRaw(w, http.StatusInternalServerError, "rest_user_update_failed", "The change could not be saved.", nil)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, restUser{ID: u.ID, Name: u.DisplayName, WooCommerceMeta: meta})
}

// readMetaChanges reads woocommerce_meta[key]=value (and the older
// meta[woocommerce_key]=value) from a form body or the query, or
// {"woocommerce_meta": {...}} from a JSON body. Parameters WordPress
// itself reads (the nonce, _method, _locale, context) are let through;
// anything else is refused.
func readMetaChanges(r *http.Request) (map[string]string, error) {
	changes := map[string]string{}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct == "application/json" {
		var body map[string]json.RawMessage
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			return nil, err
		}
		for field, raw := range body {
			var m map[string]string
			switch field {
			case "woocommerce_meta", "meta":
				if json.Unmarshal(raw, &m) != nil {
					return nil, httpx.ParamError{Param: field, Msg: field + " is not an object of strings."}
				}
			default:
				return nil, httpx.ParamError{Param: clipParam(field), Msg: "This route changes only woocommerce_meta."}
			}
			for k, v := range m {
				if field == "meta" {
					k = legacyMetaKey(k)
				}
				changes[k] = v
			}
		}
		return changes, nil
	}
	if err := r.ParseForm(); err != nil {
		return nil, httpx.ParamError{Param: "body", Msg: "could not be read"}
	}
	for k, vs := range r.Form {
		v := vs[len(vs)-1]
		switch {
		case k == "_wpnonce" || k == "_method" || k == "_locale" || k == "context":
		case strings.HasPrefix(k, "woocommerce_meta[") && strings.HasSuffix(k, "]"):
			changes[k[len("woocommerce_meta["):len(k)-1]] = v
		case strings.HasPrefix(k, "meta[") && strings.HasSuffix(k, "]"):
			changes[legacyMetaKey(k[len("meta["):len(k)-1])] = v
		default:
			return nil, httpx.ParamError{Param: clipParam(k), Msg: "This route changes only woocommerce_meta."}
		}
	}
	return changes, nil
}

// legacyMetaKey maps older WooCommerce's meta[woocommerce_<key>] to <key>;
// other meta keys stay as they are (and are refused as unknown).
func legacyMetaKey(k string) string {
	if rest, ok := strings.CutPrefix(k, "woocommerce_"); ok && rest == usermeta.KeyComingSoonBannerDismissed {
		return rest
	}
	return "meta." + k
}

func clipParam(k string) string {
	if len(k) > 64 {
		k = k[:64]
	}
	return strings.ToValidUTF8(k, "")
}
