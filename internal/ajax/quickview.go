package ajax

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/httpx"
	"vitrine/internal/pages"
	"vitrine/internal/render"
)

// quickView answers admin-ajax action=flatsome_quickview&product=<id>
// with the popup's HTML, rendered by the same React component the
// storefront's quick-view dialog uses (protocol notes section 5). An unknown
// product answers 404, as newer versions of the original do.
func (a *API) quickView(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(strings.TrimSpace(r.FormValue("product")), 10, 64)
	if err != nil || id < 1 {
		http.Error(w, "Missing or invalid product.", http.StatusBadRequest)
		return
	}
	key := "quickview:" + strconv.FormatInt(id, 10)
	if p, ok := a.d.PageCache.Get(key); ok {
		writeFragment(w, r, p)
		return
	}
	v, err, _ := a.flight.Do(key, func() (any, error) {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), 10*time.Second)
		defer cancel()
		put := a.d.PageCache.Begin(ctx)
		res, err := a.d.Loader.QuickView(ctx, id)
		if err != nil {
			return nil, err
		}
		if a.d.Engine == nil {
			return nil, errNoEngine
		}
		data, err := json.Marshal(res.Data)
		if err != nil {
			return nil, err
		}
		html, err := a.d.Engine.Render(ctx, "/?quickview="+strconv.FormatInt(id, 10), data)
		if err != nil {
			return nil, err
		}
		p := render.NewPage(http.StatusOK, []byte(html), res.Tags)
		put(key, p)
		return p, nil
	})
	switch {
	case err == nil:
		writeFragment(w, r, v.(*render.Page))
	case pages.IsNotFound(err):
		http.Error(w, "Product not found.", http.StatusNotFound)
	default:
		a.d.Log.Error("quick view", "product", id, "err", err)
		http.Error(w, "The product could not be shown. Please try again.", http.StatusInternalServerError)
	}
}

type engineError string

func (e engineError) Error() string { return string(e) }

const errNoEngine = engineError("server rendering is not available")

func writeFragment(w http.ResponseWriter, r *http.Request, p *render.Page) {
	w.Header().Set("Content-Type", "text/html; charset=UTF-8")
	w.Header().Set("X-Robots-Tag", "noindex")
	w.Header().Set("Cache-Control", "no-cache")
	httpx.WriteBody(w, r, p)
}
