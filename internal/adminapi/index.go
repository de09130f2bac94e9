package adminapi

import (
	"net/http"
	"regexp"
	"slices"
	"strings"
)

// The namespace's index, GET /wp-json/wc/v3: WordPress's description of
// the namespace, every route the API registers under /wp-json/wc/v3 with
// its methods. It is built from the routes the mux really holds (handle
// records each one as it registers it), so it cannot drift from them.

const wcPrefix = "/wp-json/wc/v3"

// handle registers h for pattern ("METHOD /path") and records it for the
// index. Its answers carry WordPress's Allow header: the methods
// registered for the path (a handler may set its own).
func (a *API) handle(pattern string, h http.HandlerFunc) {
	_, path, _ := strings.Cut(pattern, " ")
	a.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", a.allowed(path))
		h(w, r)
	})
	a.patterns = append(a.patterns, pattern)
}

// allowed is the methods registered for path, as the Allow header
// writes them.
func (a *API) allowed(path string) string {
	var methods []string
	for _, p := range a.patterns {
		if m, pp, _ := strings.Cut(p, " "); pp == path && !slices.Contains(methods, m) {
			methods = append(methods, m)
		}
	}
	return strings.Join(methods, ", ")
}

// indexRoute is one route in WordPress's index shape.
type indexRoute struct {
	Namespace string          `json:"namespace"`
	Methods   []string        `json:"methods"`
	Endpoints []indexEndpoint `json:"endpoints"`
	Links     *selfLinks      `json:"_links,omitempty"`
}

type indexEndpoint struct {
	Methods []string `json:"methods"`
	// Args is [] (as WordPress writes an endpoint without declared
	// arguments): the routes' arguments are described in docs/api.md.
	Args []any `json:"args"`
}

type selfLinks struct {
	Self []href `json:"self"`
}

type href struct {
	Href string `json:"href"`
}

var pathParam = regexp.MustCompile(`\{([a-z_]+)(\.\.\.)?\}`)

// wordIDs are the collections whose ids are words ("general",
// "woocommerce_store_city", "bacs"), not numbers.
var wordIDs = []string{"/settings/", "/payment_gateways/"}

// wpRoute writes a mux path as WordPress names a route: "{id}" is
// "(?P<id>[\d]+)" (but for wordIDs), another parameter "(?P<name>[\w-]+)",
// a rest of path "(?P<name>.+)".
func wpRoute(path string) string {
	words := slices.ContainsFunc(wordIDs, func(c string) bool { return strings.Contains(path, c) })
	return pathParam.ReplaceAllStringFunc(path, func(m string) string {
		p := pathParam.FindStringSubmatch(m)
		switch {
		case p[2] != "":
			return "(?P<" + p[1] + ">.+)"
		case !words && (p[1] == "id" || strings.HasSuffix(p[1], "_id")):
			return "(?P<" + p[1] + `>[\d]+)`
		}
		return "(?P<" + p[1] + `>[\w-]+)`
	})
}

// index answers the namespace's routes.
func (a *API) index(w http.ResponseWriter, r *http.Request, _ Staff) error {
	methods := map[string][]string{}
	var order []string
	for _, p := range a.patterns {
		method, path, ok := strings.Cut(p, " ")
		if !ok || (path != wcPrefix && !strings.HasPrefix(path, wcPrefix+"/")) {
			continue
		}
		route := "/wc/v3" + wpRoute(strings.TrimPrefix(path, wcPrefix))
		if _, seen := methods[route]; !seen {
			order = append(order, route)
		}
		if !slices.Contains(methods[route], method) {
			methods[route] = append(methods[route], method)
		}
	}
	routes := make(map[string]indexRoute, len(order))
	for _, route := range order {
		m := methods[route]
		rt := indexRoute{Namespace: "wc/v3", Methods: m, Endpoints: []indexEndpoint{{Methods: m, Args: []any{}}}}
		if !strings.Contains(route, "(?P<") {
			rt.Links = &selfLinks{Self: []href{{Href: a.d.BaseURL + "/wp-json" + route}}}
		}
		routes[route] = rt
	}
	w.Header().Set("Allow", "GET")
	WriteJSON(w, http.StatusOK, map[string]any{"namespace": "wc/v3", "routes": routes})
	return nil
}
