package adminapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"vitrine/internal/account"
	"vitrine/internal/catalog"
	"vitrine/internal/coupon"
	"vitrine/internal/orders"
	"vitrine/internal/webhook"
)

// Webhooks (internal/webhook) under /wp-json/wc/v3/webhooks, in
// WooCommerce's shape and with its refusals, and the JSON each delivery
// carries (WebhookPayload: the same builders as the orders, products and
// coupons routes).

const webhooksPath = "/wp-json/wc/v3/webhooks"

type webhookJSON struct {
	ID              int64     `json:"id"`
	Name            string    `json:"name"`
	Status          string    `json:"status"`
	Topic           string    `json:"topic"`
	Resource        string    `json:"resource"`
	Event           string    `json:"event"`
	Hooks           []string  `json:"hooks"`
	DeliveryURL     string    `json:"delivery_url"`
	DateCreated     string    `json:"date_created"`
	DateCreatedGMT  string    `json:"date_created_gmt"`
	DateModified    *string   `json:"date_modified"`
	DateModifiedGMT *string   `json:"date_modified_gmt"`
	Links           linksJSON `json:"_links"`
}

type linkJSON struct {
	Href        string `json:"href"`
	TargetHints *struct {
		Allow []string `json:"allow"`
	} `json:"targetHints,omitempty"`
}

type linksJSON struct {
	Self       []linkJSON `json:"self"`
	Collection []linkJSON `json:"collection"`
}

func (a *API) webhookOut(h *webhook.Hook) webhookJSON {
	resource, event := webhook.Split(h.Topic)
	hooks := webhook.Topics[h.Topic]
	if hooks == nil {
		hooks = []string{}
	}
	self := linkJSON{Href: a.d.BaseURL + webhooksPath + "/" + strconv.FormatInt(h.ID, 10)}
	self.TargetHints = &struct {
		Allow []string `json:"allow"`
	}{Allow: []string{"GET", "POST", "PUT", "PATCH", "DELETE"}}
	out := webhookJSON{ID: h.ID, Name: h.Name, Status: h.Status, Topic: h.Topic, Resource: resource, Event: event, Hooks: hooks,
		DeliveryURL: h.DeliveryURL, DateCreated: gmt(h.CreatedAt), DateCreatedGMT: gmt(h.CreatedAt),
		Links: linksJSON{Self: []linkJSON{self}, Collection: []linkJSON{{Href: a.d.BaseURL + webhooksPath}}}}
	if !h.ModifiedAt.IsZero() {
		m := gmt(h.ModifiedAt)
		out.DateModified, out.DateModifiedGMT = &m, &m
	}
	return out
}

type webhookBody struct {
	Name        *string `json:"name"`
	Status      *string `json:"status"`
	Topic       *string `json:"topic"`
	DeliveryURL *string `json:"delivery_url"`
	Secret      *string `json:"secret"`
}

func (b webhookBody) input() webhook.Input {
	return webhook.Input{Name: b.Name, Status: b.Status, Topic: b.Topic, DeliveryURL: b.DeliveryURL, Secret: b.Secret}
}

// webhookError maps the webhook service's errors to WooCommerce's answers.
func webhookError(err error) error {
	if errors.Is(err, webhook.ErrNotFound) {
		return &Error{Status: http.StatusNotFound, Code: "woocommerce_rest_shop_webhook_invalid_id", Message: "Invalid ID."}
	}
	if ie, ok := webhook.IsInput(err); ok {
		if ie.Code == "rest_invalid_param" {
			return InvalidParam(ie.Param, ie.Message)
		}
		return &Error{Status: http.StatusBadRequest, Code: ie.Code, Message: ie.Message}
	}
	return err
}

func (a *API) webhookID(r *http.Request) (int64, error) {
	id, err := IDParam(r, "id")
	if err != nil {
		return 0, webhookError(webhook.ErrNotFound)
	}
	return id, nil
}

// GET /wp-json/wc/v3/webhooks?status=&page=&per_page=
func (a *API) webhooksList(w http.ResponseWriter, r *http.Request, _ Staff) error {
	q := r.URL.Query()
	page, perPage := 1, 10
	if v := q.Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return InvalidParam("page", "page must be greater than or equal to 1")
		}
		page = n
	}
	if v := q.Get("per_page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			return InvalidParam("per_page", "per_page must be between 1 (inclusive) and 100 (inclusive)")
		}
		perPage = n
	}
	hooks, err := a.d.Webhooks.List(r.Context(), q.Get("status"))
	if err != nil {
		return webhookError(err)
	}
	total := len(hooks)
	out := []webhookJSON{}
	for i := (page - 1) * perPage; i < total && i < page*perPage; i++ {
		out = append(out, a.webhookOut(&hooks[i]))
	}
	w.Header().Set("X-WP-Total", strconv.Itoa(total))
	w.Header().Set("X-WP-TotalPages", strconv.Itoa((total+perPage-1)/perPage))
	w.Header().Set("Allow", "GET, POST")
	WriteJSON(w, http.StatusOK, out)
	return nil
}

// GET /wp-json/wc/v3/webhooks/{id}
func (a *API) webhookGet(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := a.webhookID(r)
	if err != nil {
		return err
	}
	h, err := a.d.Webhooks.Get(r.Context(), id)
	if err != nil {
		return webhookError(err)
	}
	w.Header().Set("Allow", "GET, POST, PUT, PATCH, DELETE")
	WriteJSON(w, http.StatusOK, a.webhookOut(h))
	return nil
}

// POST /wp-json/wc/v3/webhooks {name, topic, delivery_url, status, secret}
func (a *API) webhookCreate(w http.ResponseWriter, r *http.Request, st Staff) error {
	var b webhookBody
	if err := Decode(r, &b); err != nil {
		return err
	}
	h, err := a.d.Webhooks.Create(r.Context(), st.ID, b.input())
	if err != nil {
		return webhookError(err)
	}
	Note(r, "webhook.create", "webhook", h.ID, "Webhook "+strconv.Quote(h.Name)+" ("+h.Topic+") created")
	out := a.webhookOut(h)
	w.Header().Set("Location", out.Links.Self[0].Href)
	WriteJSON(w, http.StatusCreated, out)
	return nil
}

// PUT/PATCH/POST /wp-json/wc/v3/webhooks/{id}
func (a *API) webhookUpdate(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := a.webhookID(r)
	if err != nil {
		return err
	}
	var b webhookBody
	if err := Decode(r, &b); err != nil {
		return err
	}
	h, err := a.d.Webhooks.Update(r.Context(), id, b.input())
	if err != nil {
		return webhookError(err)
	}
	Note(r, "webhook.update", "webhook", h.ID, "Webhook "+strconv.Quote(h.Name)+" updated ("+h.Status+")")
	WriteJSON(w, http.StatusOK, a.webhookOut(h))
	return nil
}

// DELETE /wp-json/wc/v3/webhooks/{id}?force=true (webhooks have no trash).
func (a *API) webhookDelete(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := a.webhookID(r)
	if err != nil {
		return err
	}
	if force, _ := strconv.ParseBool(r.URL.Query().Get("force")); !force {
		return &Error{Status: http.StatusNotImplemented, Code: "woocommerce_rest_trash_not_supported", Message: "Webhooks do not support trashing."}
	}
	h, err := a.d.Webhooks.Delete(r.Context(), id)
	if err != nil {
		return webhookError(err)
	}
	Note(r, "webhook.delete", "webhook", h.ID, "Webhook "+strconv.Quote(h.Name)+" deleted")
	WriteJSON(w, http.StatusOK, a.webhookOut(h))
	return nil
}

type webhookDeliveryJSON struct {
	ID              int64             `json:"id"`
	DeliveryID      string            `json:"delivery_id"`
	Topic           string            `json:"topic"`
	Duration        string            `json:"duration"` // seconds
	Summary         string            `json:"summary"`
	RequestMethod   string            `json:"request_method"`
	RequestURL      string            `json:"request_url"`
	RequestHeaders  map[string]string `json:"request_headers"`
	RequestBodySize int               `json:"request_body_size"`
	ResponseCode    string            `json:"response_code"`
	ResponseMessage string            `json:"response_message"`
	DateCreated     string            `json:"date_created"`
	DateCreatedGMT  string            `json:"date_created_gmt"`
}

// GET /wp-json/wc/v3/webhooks/{id}/deliveries?per_page= : the last
// attempts, newest first (WooCommerce's v1 had this route).
func (a *API) webhookDeliveries(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := a.webhookID(r)
	if err != nil {
		return err
	}
	limit := webhook.LogKeep
	if n, err := strconv.Atoi(r.URL.Query().Get("per_page")); err == nil && n > 0 {
		limit = n
	}
	log, err := a.d.Webhooks.Deliveries(r.Context(), id, limit)
	if err != nil {
		return webhookError(err)
	}
	out := make([]webhookDeliveryJSON, 0, len(log))
	for _, e := range log {
		// An answer's message is its status text (the worker notes a
		// refusal as "HTTP 500", which the code already says); no
		// answer's is the error.
		msg := e.ResponseError
		if msg == "" || e.ResponseCode != 0 {
			msg = http.StatusText(e.ResponseCode)
		}
		summary := "HTTP " + strconv.Itoa(e.ResponseCode) + " " + msg
		if e.ResponseCode == 0 {
			summary = "Error: " + msg
		}
		headers := e.RequestHeaders
		if headers == nil {
			headers = map[string]string{}
		}
		out = append(out, webhookDeliveryJSON{ID: e.ID, DeliveryID: e.DeliveryID, Topic: e.Topic,
			Duration: strconv.FormatFloat(e.Duration.Seconds(), 'f', 3, 64), Summary: summary, RequestMethod: http.MethodPost,
			RequestURL: e.RequestURL, RequestHeaders: headers, RequestBodySize: e.RequestBodySize,
			ResponseCode: strconv.Itoa(e.ResponseCode), ResponseMessage: msg, DateCreated: gmt(e.At), DateCreatedGMT: gmt(e.At)})
	}
	WriteJSON(w, http.StatusOK, out)
	return nil
}

// WebhookPayload is a delivery's body: the resource's JSON as GET
// /wp-json/wc/v3/{orders,products,coupons}/{id} answers it (an order
// without the admin screen's extras); webhook.ErrGone when it is gone.
func (a *API) WebhookPayload(ctx context.Context, resource string, id int64) ([]byte, error) {
	var v any
	switch resource {
	case "order":
		d, err := a.d.Orders.Get(ctx, id)
		if errors.Is(err, orders.ErrNotFound) {
			return nil, webhook.ErrGone
		}
		if err != nil {
			return nil, err
		}
		v = a.detailOf(d).orderJSON
	case "product":
		p, vars, err := a.d.Catalog.Get(ctx, id)
		if errors.Is(err, catalog.ErrNotFound) {
			return nil, webhook.ErrGone
		}
		if err != nil {
			return nil, err
		}
		v = a.productOut(p, vars)
	case "coupon":
		c, err := a.d.Coupons.Get(ctx, id)
		if errors.Is(err, coupon.ErrNotFound) {
			return nil, webhook.ErrGone
		}
		if err != nil {
			return nil, err
		}
		v = a.couponOut(c)
	case "customer":
		c, err := a.d.Accounts.Customer(ctx, id)
		if errors.Is(err, account.ErrNoUser) {
			return nil, webhook.ErrGone
		}
		if err != nil {
			return nil, err
		}
		v = a.customerOut(c)
	default:
		return nil, webhook.ErrGone
	}
	return json.Marshal(v)
}

// POST /wp-json/wc/v3/webhooks/batch {create: [...], update: [{id, ...}],
// delete: [id, ...]}: WooCommerce's batch, up to 100 items; deletes are
// forced. A refused item is its REST error next to its id; the others go
// on.
func (a *API) webhooksBatch(w http.ResponseWriter, r *http.Request, st Staff) error {
	var b struct {
		Create []webhookBody `json:"create"`
		Update []struct {
			ID int64 `json:"id"`
			webhookBody
		} `json:"update"`
		Delete []int64 `json:"delete"`
	}
	if err := Decode(r, &b); err != nil {
		return err
	}
	ans, err := newBatch(len(b.Create)+len(b.Update)+len(b.Delete), func(err error) (*Error, bool) {
		var e *Error
		return e, errors.As(webhookError(err), &e)
	})
	if err != nil {
		return err
	}
	ctx := r.Context()
	item := func(list string, id int64, h *webhook.Hook, err error) error {
		return ans.add(list, id, err, func() any { return a.webhookOut(h) })
	}
	for _, c := range b.Create {
		h, err := a.d.Webhooks.Create(ctx, st.ID, c.input())
		if err := item("create", 0, h, err); err != nil {
			return err
		}
	}
	for _, u := range b.Update {
		h, err := a.d.Webhooks.Update(ctx, u.ID, u.input())
		if err := item("update", u.ID, h, err); err != nil {
			return err
		}
	}
	for _, id := range b.Delete {
		h, err := a.d.Webhooks.Delete(ctx, id)
		if err := item("delete", id, h, err); err != nil {
			return err
		}
	}
	Note(r, "webhook.batch", "webhook", 0, ans.summary("Webhooks"))
	WriteJSON(w, http.StatusOK, ans.out)
	return nil
}
