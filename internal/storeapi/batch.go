package storeapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"vitrine/internal/httpx"
)

// POST /wp-json/wc/store/v1/batch runs several cart writes in one request:
//
//	{"requests": [{"path": "/wc/store/v1/cart/add-item", "method": "POST", "body": {…}, "headers": {…}}, …]}
//
// and answers 207 with {"responses": [{"status", "headers", "body"}, …]} in
// request order. Only the cart's write routes may be named (paths start
// with /wc/store/v1/cart, with or without /wp-json), at most 25 requests,
// methods POST, PUT, PATCH or DELETE (default POST). A batch that breaks
// these rules runs nothing. Every request runs in the batch's session (the
// Cart-Token or session cookie of the batch request) with the nonce rules
// of its route: a request's own Nonce header, else the batch's. The session
// cookie is set once, on the batch response, when any write succeeded.

const maxBatch = 25

type batchRequest struct {
	Path    string            `json:"path"`
	Method  string            `json:"method"`
	Body    json.RawMessage   `json:"body"`
	Headers map[string]string `json:"headers"`
}

type batchResponse struct {
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
	Body    json.RawMessage   `json:"body"`
}

// batchRoute finds the cart write handler for a method and path, setting
// the {key} path value of the item routes; nil when there is none.
func (a *API) batchRoute(r *http.Request) cartHandler {
	const base = "/wc/store/v1/cart"
	path := strings.TrimSuffix(r.URL.Path, "/")
	if key, ok := strings.CutPrefix(path, base+"/items/"); ok && key != "" && !strings.Contains(key, "/") {
		r.SetPathValue("key", key)
		switch r.Method {
		case http.MethodPut, http.MethodPatch:
			return a.cartItemPut
		case http.MethodDelete:
			return a.cartItemDelete
		}
		return nil
	}
	if r.Method != http.MethodPost {
		return nil
	}
	switch strings.TrimPrefix(path, base) {
	case "/add-item":
		return a.cartAddItem
	case "/remove-item":
		return a.cartRemoveItem
	case "/update-item":
		return a.cartUpdateItem
	case "/update-customer":
		return a.cartUpdateCustomer
	case "/select-shipping-rate":
		return a.cartSelectShippingRate
	case "/items":
		return a.cartItemsPost
	}
	return nil
}

// Batch serves POST /batch (see above).
func (a *API) Batch(w http.ResponseWriter, r *http.Request) {
	now := a.d.Now()
	sess := a.d.Sessions.CartSessionOf(r, now)
	invalid := func(msg string) {
		a.cartHeaders(w, sess, now)
		httpx.WriteError(w, http.StatusBadRequest, "rest_invalid_param", "Invalid parameter(s): requests",
			map[string]any{"params": map[string]string{"requests": msg}})
	}
	var in struct {
		Requests []batchRequest `json:"requests"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Requests == nil {
		invalid("requests is not of type array.")
		return
	}
	if len(in.Requests) > maxBatch {
		invalid(fmt.Sprintf("requests must contain at most %d items.", maxBatch))
		return
	}
	// Check every request before running any.
	subs := make([]*http.Request, len(in.Requests))
	for i, br := range in.Requests {
		method := strings.ToUpper(strings.TrimSpace(br.Method))
		if method == "" {
			method = http.MethodPost
		}
		switch method {
		case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		default:
			invalid(fmt.Sprintf("requests[%d][method] is not one of POST, PUT, PATCH and DELETE.", i))
			return
		}
		// The parse error is checked before the URL is used: a path such as
		// "%zz" has none.
		u, err := url.Parse(br.Path)
		if err != nil || u.Host != "" || u.Scheme != "" || u.Opaque != "" ||
			!strings.HasPrefix(strings.TrimPrefix(u.Path, "/wp-json"), "/wc/store/v1/cart") {
			a.cartHeaders(w, sess, now)
			httpx.WriteErrorRaw(w, http.StatusBadRequest, "woocommerce_rest_invalid_path", "Invalid path provided.", nil)
			return
		}
		path := strings.TrimPrefix(u.Path, "/wp-json")
		body := br.Body
		if len(body) == 0 || string(body) == "null" {
			body = json.RawMessage("{}")
		}
		if body[0] != '{' {
			invalid(fmt.Sprintf("requests[%d][body] is not of type object.", i))
			return
		}
		// The sub-request's URL is set as parsed, not re-read from a request
		// line: a query WordPress accepts (a space, a bare %) is no valid
		// request target, and httptest panics on one.
		sub := httptest.NewRequestWithContext(r.Context(), method, "/", bytes.NewReader(body))
		sub.URL = &url.URL{Path: path, RawQuery: u.RawQuery}
		sub.RequestURI = sub.URL.RequestURI()
		sub.Header.Set("Content-Type", "application/json")
		if n := r.Header.Get("Nonce"); n != "" {
			sub.Header.Set("Nonce", n)
		}
		for k, v := range br.Headers {
			sub.Header.Set(k, v)
		}
		subs[i] = sub
	}
	out := struct {
		Responses []batchResponse `json:"responses"`
	}{Responses: make([]batchResponse, 0, len(subs))}
	wrote := false
	for _, sub := range subs {
		rec := httptest.NewRecorder()
		if h := a.batchRoute(sub); h != nil {
			if a.serveCart(rec, sub, true, h, sess, now, false) {
				wrote = true
			}
		} else {
			httpx.WriteError(rec, http.StatusNotFound, "rest_no_route", "No route was found matching the URL and request method.", nil)
		}
		resp := batchResponse{Status: rec.Code, Headers: map[string]string{}, Body: json.RawMessage("null")}
		for k, v := range rec.Header() {
			if k != "Set-Cookie" && len(v) > 0 {
				resp.Headers[k] = v[0]
			}
		}
		if b := bytes.TrimSpace(rec.Body.Bytes()); len(b) > 0 {
			resp.Body = b
		}
		out.Responses = append(out.Responses, resp)
	}
	if wrote && !sess.ViaToken {
		sess.ViaCookie = true
		a.d.Sessions.SetSessionCookie(w, sess.ID, now.Add(a.d.CartLifetime))
	}
	a.cartHeaders(w, sess, now)
	httpx.WriteJSON(w, http.StatusMultiStatus, out)
}
