package adminapi

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"vitrine/internal/checkout"
	"vitrine/internal/money"
)

// Shipping zones: WooCommerce REST v3's /wc/v3/shipping/zones, their
// locations and methods, on the shop's real zones (checkout.Rules, the
// same document as shipping.go's screen). Zone 0 is the rest of the world
// (the rules' RestOfWorld): its methods can change, not its name or
// locations. A zone's order is its position (the first zone whose
// location matches wins). Locations are countries and states; methods are
// flat rate, free shipping (with an optional minimum amount) and local
// pickup, always enabled (decision 0090 lists what is refused).

const zonesPath = wcPrefix + "/shipping/zones"

var (
	errZoneID = &Error{Status: http.StatusNotFound, Code: "woocommerce_rest_shipping_zone_invalid", Message: "Resource does not exist."}
	// errZoneRest refuses a change to zone 0's name, order or locations.
	errZoneRest = &Error{Status: http.StatusForbidden, Code: "woocommerce_rest_shipping_zone_invalid_zone",
		Message: "The \"locations not covered by your other zones\" zone cannot be updated."}
	errMethodID    = &Error{Status: http.StatusNotFound, Code: "woocommerce_rest_shipping_zone_method_invalid", Message: "Resource does not exist."}
	errZoneNoTrash = &Error{Status: http.StatusNotImplemented, Code: "woocommerce_rest_trash_not_supported",
		Message: "Shipping zones do not support trashing."}
	errMethodNoTrash = &Error{Status: http.StatusNotImplemented, Code: "woocommerce_rest_trash_not_supported",
		Message: "Shipping methods do not support trashing."}
)

const restOfWorldName = "Locations not covered by your other zones"

type zoneRESTJSON struct {
	ID    int              `json:"id"`
	Name  string           `json:"name"`
	Order int              `json:"order"`
	Links map[string][]any `json:"_links"`
}

func allow(href string, methods ...string) map[string]any {
	return map[string]any{"href": href, "targetHints": map[string]any{"allow": methods}}
}

func link(href string) map[string]string { return map[string]string{"href": href} }

func (a *API) zoneOut(id int, name string, order int) zoneRESTJSON {
	self := a.d.BaseURL + zonesPath + "/" + strconv.Itoa(id)
	return zoneRESTJSON{ID: id, Name: name, Order: order, Links: map[string][]any{
		"self":        {allow(self, "GET", "POST", "PUT", "PATCH", "DELETE")},
		"collection":  {link(a.d.BaseURL + zonesPath)},
		"describedby": {link(self + "/locations")},
	}}
}

// zoneAt finds zone id in r: its index in r.Zones, or -1 for zone 0.
func zoneAt(r *checkout.Rules, id int64) (int, error) {
	if id == 0 {
		return -1, nil
	}
	if i := slices.IndexFunc(r.Zones, func(z checkout.Zone) bool { return int64(z.ID) == id }); i >= 0 {
		return i, nil
	}
	return 0, errZoneID
}

// zone is zone id of r (zone 0 the rest of the world).
func zone(r *checkout.Rules, id int64) (*checkout.Zone, error) {
	i, err := zoneAt(r, id)
	if err != nil {
		return nil, err
	}
	if i < 0 {
		return &r.RestOfWorld, nil
	}
	return &r.Zones[i], nil
}

func (a *API) zoneByID(id int64) (zoneRESTJSON, error) {
	r := a.d.Rules.Current().Value
	i, err := zoneAt(&r, id)
	if err != nil {
		return zoneRESTJSON{}, err
	}
	if i < 0 {
		return a.zoneOut(0, restOfWorldName, 0), nil
	}
	return a.zoneOut(r.Zones[i].ID, r.Zones[i].Name, i), nil
}

// zoneIDParam is the path's zone id: {id}, or {zone_id} under methods
// (WooCommerce's names).
func zoneIDParam(r *http.Request) (int64, error) {
	v := r.PathValue("id")
	if v == "" {
		v = r.PathValue("zone_id")
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id < 0 {
		return 0, errZoneID
	}
	return id, nil
}

// GET /wp-json/wc/v3/shipping/zones: zone 0 first, then the zones in order.
func (a *API) zonesList(w http.ResponseWriter, _ *http.Request, _ Staff) error {
	r := a.d.Rules.Current().Value
	out := []zoneRESTJSON{a.zoneOut(0, restOfWorldName, 0)}
	for i, z := range r.Zones {
		out = append(out, a.zoneOut(z.ID, z.Name, i))
	}
	WriteAll(w, out)
	return nil
}

// GET /wp-json/wc/v3/shipping/zones/{id}
func (a *API) zoneGet(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := zoneIDParam(r)
	if err != nil {
		return err
	}
	z, err := a.zoneByID(id)
	return answer(w, http.StatusOK, z, err, func(z zoneRESTJSON) zoneRESTJSON { return z })
}

type zoneBody struct {
	Name  *string `json:"name"`
	Order *int    `json:"order"`
}

// moveZone puts zone i at position to (clamped to the list).
func moveZone(r *checkout.Rules, i, to int) {
	to = max(0, min(to, len(r.Zones)-1))
	z := r.Zones[i]
	r.Zones = slices.Insert(slices.Delete(r.Zones, i, i+1), to, z)
}

var zoneFields = map[string]string{"name": "name", "locations": "locations", "country": "code", "state": "code",
	"title": "settings.title", "cost": "settings.cost", "method_id": "method_id"}

// POST /wp-json/wc/v3/shipping/zones {name, order}
func (a *API) zoneCreate(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var b zoneBody
	if err := Decode(r, &b); err != nil {
		return err
	}
	if b.Name == nil || strings.TrimSpace(*b.Name) == "" {
		return &Error{Status: http.StatusBadRequest, Code: "rest_missing_callback_param", Message: "Missing parameter(s): name",
			Data: map[string]any{"params": []string{"name"}}}
	}
	var id int
	_, err := a.d.Rules.Edit(r.Context(), func(rules *checkout.Rules) error {
		rules.Zones = append(rules.Zones, checkout.Zone{Name: *b.Name})
		rules.Normalize()
		id = rules.Zones[len(rules.Zones)-1].ID
		if b.Order != nil {
			moveZone(rules, len(rules.Zones)-1, *b.Order)
		}
		return nil
	})
	if err != nil {
		return ruleError(err, zoneFields)
	}
	z, err := a.zoneByID(int64(id))
	if err != nil {
		return err
	}
	Note(r, "shipping_zone.create", "shipping_zone", int64(id), "Shipping zone created: "+z.Name)
	w.Header().Set("Location", a.d.BaseURL+zonesPath+"/"+strconv.Itoa(id))
	WriteJSON(w, http.StatusCreated, z)
	return nil
}

// PUT /wp-json/wc/v3/shipping/zones/{id} {name, order}
func (a *API) zoneUpdate(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := zoneIDParam(r)
	if err != nil {
		return err
	}
	var b zoneBody
	if err := Decode(r, &b); err != nil {
		return err
	}
	if id == 0 && (b.Name != nil || b.Order != nil) {
		return errZoneRest
	}
	_, err = a.d.Rules.Edit(r.Context(), func(rules *checkout.Rules) error {
		i, err := zoneAt(rules, id)
		if err != nil || i < 0 {
			return err
		}
		if b.Name != nil {
			rules.Zones[i].Name = *b.Name
		}
		if b.Order != nil {
			moveZone(rules, i, *b.Order)
		}
		return nil
	})
	if err != nil {
		return ruleError(err, zoneFields)
	}
	z, err := a.zoneByID(id)
	if err != nil {
		return err
	}
	Note(r, "shipping_zone.update", "shipping_zone", id, "Shipping zone updated: "+z.Name)
	WriteJSON(w, http.StatusOK, z)
	return nil
}

// DELETE /wp-json/wc/v3/shipping/zones/{id}?force=true
func (a *API) zoneDelete(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := zoneIDParam(r)
	if err != nil {
		return err
	}
	if id == 0 {
		return errZoneRest
	}
	if !forced(r) {
		return errZoneNoTrash
	}
	var gone zoneRESTJSON
	_, err = a.d.Rules.Edit(r.Context(), func(rules *checkout.Rules) error {
		i, err := zoneAt(rules, id)
		if err != nil {
			return err
		}
		gone = a.zoneOut(rules.Zones[i].ID, rules.Zones[i].Name, i)
		rules.Zones = slices.Delete(rules.Zones, i, i+1)
		return nil
	})
	if err != nil {
		return ruleError(err, zoneFields)
	}
	Note(r, "shipping_zone.delete", "shipping_zone", id, "Shipping zone deleted: "+gone.Name)
	WriteJSON(w, http.StatusOK, gone)
	return nil
}

// Locations.

type zoneLocationJSON struct {
	Code  string           `json:"code"`
	Type  string           `json:"type"`
	Links map[string][]any `json:"_links,omitempty"`
}

func (a *API) locationsOut(id int64, z *checkout.Zone) []zoneLocationJSON {
	base := a.d.BaseURL + zonesPath + "/" + strconv.FormatInt(id, 10)
	out := []zoneLocationJSON{}
	for _, l := range z.Locations {
		loc := zoneLocationJSON{Code: l.Country, Type: "country",
			Links: map[string][]any{"collection": {link(base + "/locations")}, "describes": {link(base)}}}
		if l.State != "" {
			loc.Code, loc.Type = l.Country+":"+l.State, "state"
		}
		out = append(out, loc)
	}
	return out
}

// GET /wp-json/wc/v3/shipping/zones/{id}/locations
func (a *API) zoneLocations(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := zoneIDParam(r)
	if err != nil {
		return err
	}
	rules := a.d.Rules.Current().Value
	z, err := zone(&rules, id)
	if err != nil {
		return err
	}
	WriteAll(w, a.locationsOut(id, z))
	return nil
}

// PUT /wp-json/wc/v3/shipping/zones/{id}/locations [{code, type}]: the
// zone's locations, replaced.
func (a *API) zoneLocationsPut(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := zoneIDParam(r)
	if err != nil {
		return err
	}
	var in []zoneLocationJSON
	if err := Decode(r, &in); err != nil {
		return err
	}
	if id == 0 {
		return errZoneRest
	}
	var locs []checkout.Location
	for i, l := range in {
		country, state, hasState := strings.Cut(strings.TrimSpace(l.Code), ":")
		switch {
		case l.Type == "country" && !hasState, l.Type == "" && !hasState:
		case l.Type == "state" && hasState && state != "":
		default:
			return InvalidParam(fmt.Sprintf("[%d].type", i),
				"Vitrine's zones hold countries (code US, type country) and states (code US:CA, type state): no postcodes or continents.")
		}
		locs = append(locs, checkout.Location{Country: country, State: state})
	}
	d, err := a.d.Rules.Edit(r.Context(), func(rules *checkout.Rules) error {
		z, err := zone(rules, id)
		if err != nil {
			return err
		}
		z.Locations = locs
		return nil
	})
	if err != nil {
		return ruleError(err, zoneFields)
	}
	z, _ := zone(&d.Value, id)
	Note(r, "shipping_zone.locations", "shipping_zone", id, fmt.Sprintf("Shipping zone %s: %d locations", z.Name, len(z.Locations)))
	WriteAll(w, a.locationsOut(id, z))
	return nil
}

// Methods.

// settingJSON is one setting of a shipping method or a payment gateway
// (WooCommerce's WC_Settings_API field: a gateway's have no options).
type settingJSON struct {
	ID          string            `json:"id"`
	Label       string            `json:"label"`
	Description string            `json:"description"`
	Type        string            `json:"type"`
	Value       string            `json:"value"`
	Default     string            `json:"default"`
	Tip         string            `json:"tip"`
	Placeholder string            `json:"placeholder"`
	Options     map[string]string `json:"options,omitempty"`
}

type zoneMethodJSON struct {
	ID                int                    `json:"id"`
	InstanceID        int                    `json:"instance_id"`
	Title             string                 `json:"title"`
	Order             int                    `json:"order"`
	Enabled           bool                   `json:"enabled"`
	MethodID          string                 `json:"method_id"`
	MethodTitle       string                 `json:"method_title"`
	MethodDescription string                 `json:"method_description"`
	Settings          map[string]settingJSON `json:"settings"`
	Links             map[string][]any       `json:"_links"`
}

// methodKinds are WooCommerce's names and descriptions of the methods.
var methodKinds = map[string][2]string{
	checkout.FlatRate:     {"Flat rate", "<p>Lets you charge a fixed rate for shipping.</p>\n"},
	checkout.FreeShipping: {"Free shipping", "<p>Free shipping is a special method which can be triggered with coupons and minimum spends.</p>\n"},
	checkout.LocalPickup:  {"Local pickup", "<p>Allow customers to pick up orders themselves. By default, when using local pickup store base taxes will apply regardless of customer address.</p>\n"},
}

func (a *API) methodOut(zoneID int64, m checkout.Method, order int) zoneMethodJSON {
	c := a.d.Base
	kind := methodKinds[m.Type]
	title := settingJSON{ID: "title", Label: "Name", Type: "text", Value: m.Title, Default: kind[0],
		Description: "Your customers will see the name of this shipping method during checkout.",
		Tip:         "Your customers will see the name of this shipping method during checkout."}
	s := map[string]settingJSON{"title": title}
	if m.Type == checkout.FreeShipping {
		requires := ""
		if m.MinAmount > 0 {
			requires = "min_amount"
		}
		s["requires"] = settingJSON{ID: "requires", Label: "Free shipping requires", Type: "select", Value: requires,
			Options: map[string]string{"": "No requirement", "min_amount": "A minimum order amount"}}
		s["min_amount"] = settingJSON{ID: "min_amount", Label: "Minimum order amount", Type: "price", Value: plain(c, m.MinAmount), Default: "0",
			Description: "Users will need to spend this amount to get free shipping (if enabled above).",
			Tip:         "Users will need to spend this amount to get free shipping (if enabled above)."}
	} else {
		status := "none"
		if m.Taxable {
			status = "taxable"
		}
		s["tax_status"] = settingJSON{ID: "tax_status", Label: "Tax status", Type: "select", Value: status, Default: "taxable",
			Options: map[string]string{"taxable": "Taxable", "none": "None"}}
		s["cost"] = settingJSON{ID: "cost", Label: "Cost", Type: "text", Value: plain(c, m.Cost),
			Description: "Enter a cost (excl. tax), e.g. 10.00.", Tip: "Enter a cost (excl. tax), e.g. 10.00."}
	}
	base := a.d.BaseURL + zonesPath + "/" + strconv.FormatInt(zoneID, 10)
	return zoneMethodJSON{ID: m.InstanceID, InstanceID: m.InstanceID, Title: m.Title, Order: order, Enabled: true, MethodID: m.Type,
		MethodTitle: kind[0], MethodDescription: kind[1], Settings: s,
		Links: map[string][]any{
			"self":       {allow(base+"/methods/"+strconv.Itoa(m.InstanceID), "GET", "POST", "PUT", "PATCH", "DELETE")},
			"collection": {link(base + "/methods")},
			"describes":  {link(base)},
		}}
}

// GET /wp-json/wc/v3/shipping/zones/{id}/methods
func (a *API) zoneMethods(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := zoneIDParam(r)
	if err != nil {
		return err
	}
	rules := a.d.Rules.Current().Value
	z, err := zone(&rules, id)
	if err != nil {
		return err
	}
	out := []zoneMethodJSON{}
	for i, m := range z.Methods {
		out = append(out, a.methodOut(id, m, i+1))
	}
	WriteAll(w, out)
	return nil
}

func (a *API) methodByID(zoneID, instance int64) (zoneMethodJSON, error) {
	rules := a.d.Rules.Current().Value
	z, err := zone(&rules, zoneID)
	if err != nil {
		return zoneMethodJSON{}, err
	}
	for i, m := range z.Methods {
		if int64(m.InstanceID) == instance {
			return a.methodOut(zoneID, m, i+1), nil
		}
	}
	return zoneMethodJSON{}, errMethodID
}

func methodParams(r *http.Request) (zoneID, instance int64, err error) {
	if zoneID, err = zoneIDParam(r); err != nil {
		return 0, 0, err
	}
	instance, perr := strconv.ParseInt(r.PathValue("instance_id"), 10, 64)
	if perr != nil || instance <= 0 {
		return 0, 0, errMethodID
	}
	return zoneID, instance, nil
}

// GET /wp-json/wc/v3/shipping/zones/{id}/methods/{instance_id}
func (a *API) zoneMethodGet(w http.ResponseWriter, r *http.Request, _ Staff) error {
	zoneID, instance, err := methodParams(r)
	if err != nil {
		return err
	}
	m, err := a.methodByID(zoneID, instance)
	return answer(w, http.StatusOK, m, err, func(m zoneMethodJSON) zoneMethodJSON { return m })
}

type methodBody struct {
	MethodID *string           `json:"method_id"`
	Order    *int              `json:"order"`
	Enabled  *bool             `json:"enabled"`
	Settings map[string]string `json:"settings"`
}

// apply sets b on m, refusing what Vitrine's methods cannot hold.
func (b methodBody) apply(m *checkout.Method, minor int) error {
	if b.Enabled != nil && !*b.Enabled {
		return InvalidParam("enabled", "Vitrine has no disabled shipping methods: delete the method instead.")
	}
	amount := func(field, v string) (int64, error) {
		if strings.TrimSpace(v) == "" {
			return 0, nil
		}
		n, err := money.Parse(strings.TrimSpace(v), minor)
		if err != nil || n < 0 {
			return 0, InvalidParam("settings."+field, fmt.Sprintf("An amount such as 5 or 4.99 (at most %d decimals), not negative: Vitrine takes no cost formulas.", minor))
		}
		return n, nil
	}
	keys := make([]string, 0, len(b.Settings))
	for k := range b.Settings {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	requires := ""
	if m.MinAmount > 0 {
		requires = "min_amount"
	}
	for _, k := range keys {
		v := b.Settings[k]
		var err error
		switch {
		case k == "title":
			m.Title = v
		case k == "cost" && m.Type != checkout.FreeShipping:
			m.Cost, err = amount(k, v)
		case k == "tax_status" && m.Type != checkout.FreeShipping:
			if v != "taxable" && v != "none" {
				return InvalidParam("settings.tax_status", "tax_status must be taxable or none.")
			}
			m.Taxable = v == "taxable"
		case k == "min_amount" && m.Type == checkout.FreeShipping:
			m.MinAmount, err = amount(k, v)
		case k == "requires" && m.Type == checkout.FreeShipping:
			if v != "" && v != "min_amount" {
				return InvalidParam("settings.requires", "Vitrine's free shipping requires nothing or a minimum order amount (\"\" or min_amount): no coupons.")
			}
			requires = v
		default:
			return InvalidParam("settings."+k, "Not a setting of this method in Vitrine.")
		}
		if err != nil {
			return err
		}
	}
	if m.Type == checkout.FreeShipping && requires == "" {
		m.MinAmount = 0
	}
	return nil
}

// moveMethod puts method i of z at position to (from 1, clamped).
func moveMethod(z *checkout.Zone, i, to int) {
	to = max(0, min(to-1, len(z.Methods)-1))
	m := z.Methods[i]
	z.Methods = slices.Insert(slices.Delete(z.Methods, i, i+1), to, m)
}

// POST /wp-json/wc/v3/shipping/zones/{id}/methods {method_id, order, settings}
func (a *API) zoneMethodCreate(w http.ResponseWriter, r *http.Request, _ Staff) error {
	zoneID, err := zoneIDParam(r)
	if err != nil {
		return err
	}
	var b methodBody
	if err := Decode(r, &b); err != nil {
		return err
	}
	if b.MethodID == nil {
		return &Error{Status: http.StatusBadRequest, Code: "rest_missing_callback_param", Message: "Missing parameter(s): method_id",
			Data: map[string]any{"params": []string{"method_id"}}}
	}
	kind, ok := methodKinds[*b.MethodID]
	if !ok {
		return InvalidParam("method_id", "Vitrine's shipping methods are flat_rate, free_shipping and local_pickup.")
	}
	m := checkout.Method{Type: *b.MethodID, Title: kind[0], Taxable: *b.MethodID != checkout.FreeShipping}
	if err := b.apply(&m, a.d.Base.MinorUnit); err != nil {
		return err
	}
	var instance int
	_, err = a.d.Rules.Edit(r.Context(), func(rules *checkout.Rules) error {
		z, err := zone(rules, zoneID)
		if err != nil {
			return err
		}
		z.Methods = append(z.Methods, m)
		rules.Normalize()
		z, _ = zone(rules, zoneID)
		instance = z.Methods[len(z.Methods)-1].InstanceID
		if b.Order != nil {
			moveMethod(z, len(z.Methods)-1, *b.Order)
		}
		return nil
	})
	if err != nil {
		return ruleError(err, zoneFields)
	}
	out, err := a.methodByID(zoneID, int64(instance))
	if err != nil {
		return err
	}
	Note(r, "shipping_method.create", "shipping_zone", zoneID, "Shipping method added: "+out.Title)
	w.Header().Set("Location", a.d.BaseURL+zonesPath+"/"+strconv.FormatInt(zoneID, 10)+"/methods/"+strconv.Itoa(instance))
	WriteJSON(w, http.StatusCreated, out)
	return nil
}

// PUT /wp-json/wc/v3/shipping/zones/{id}/methods/{instance_id} {order, enabled, settings}
func (a *API) zoneMethodUpdate(w http.ResponseWriter, r *http.Request, _ Staff) error {
	zoneID, instance, err := methodParams(r)
	if err != nil {
		return err
	}
	var b methodBody
	if err := Decode(r, &b); err != nil {
		return err
	}
	if b.MethodID != nil {
		return InvalidParam("method_id", "A method's kind cannot change: add a new method instead.")
	}
	_, err = a.d.Rules.Edit(r.Context(), func(rules *checkout.Rules) error {
		z, err := zone(rules, zoneID)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(z.Methods, func(m checkout.Method) bool { return int64(m.InstanceID) == instance })
		if i < 0 {
			return errMethodID
		}
		if err := b.apply(&z.Methods[i], a.d.Base.MinorUnit); err != nil {
			return err
		}
		if b.Order != nil {
			moveMethod(z, i, *b.Order)
		}
		return nil
	})
	if err != nil {
		return ruleError(err, zoneFields)
	}
	out, err := a.methodByID(zoneID, instance)
	if err != nil {
		return err
	}
	Note(r, "shipping_method.update", "shipping_zone", zoneID, "Shipping method updated: "+out.Title)
	WriteJSON(w, http.StatusOK, out)
	return nil
}

// DELETE /wp-json/wc/v3/shipping/zones/{id}/methods/{instance_id}?force=true
func (a *API) zoneMethodDelete(w http.ResponseWriter, r *http.Request, _ Staff) error {
	zoneID, instance, err := methodParams(r)
	if err != nil {
		return err
	}
	if !forced(r) {
		return errMethodNoTrash
	}
	var gone zoneMethodJSON
	_, err = a.d.Rules.Edit(r.Context(), func(rules *checkout.Rules) error {
		z, err := zone(rules, zoneID)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(z.Methods, func(m checkout.Method) bool { return int64(m.InstanceID) == instance })
		if i < 0 {
			return errMethodID
		}
		gone = a.methodOut(zoneID, z.Methods[i], i+1)
		z.Methods = slices.Delete(z.Methods, i, i+1)
		return nil
	})
	if err != nil {
		return ruleError(err, zoneFields)
	}
	Note(r, "shipping_method.delete", "shipping_zone", zoneID, "Shipping method deleted: "+gone.Title)
	WriteJSON(w, http.StatusOK, gone)
	return nil
}
