package adminapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"vitrine/internal/catalog"
	"vitrine/internal/checkout"
	"vitrine/internal/money"
)

// Tax rates and classes: WooCommerce REST v3's /wc/v3/taxes and
// /wc/v3/taxes/classes on the shop's real tax rates (checkout.Rules, kept
// by settings.Rules, the admin's Shipping & tax screen). Each write edits
// the rules in force (settings.Rules.Edit) with the checks the screen's
// saves get. What Vitrine's rates cannot hold is refused, never dropped:
// a rate is for a whole country or state (no postcodes or cities), rates
// of different priorities stack on the net amount (no compound rates), and
// every rate applies to every taxable product (class standard). The tax
// classes are the three products may carry, fixed (decision 0090).

const taxesPath = wcPrefix + "/taxes"

type taxJSON struct {
	ID        int              `json:"id"`
	Country   string           `json:"country"`
	State     string           `json:"state"`
	Postcode  string           `json:"postcode"`
	City      string           `json:"city"`
	Postcodes []string         `json:"postcodes"`
	Cities    []string         `json:"cities"`
	Rate      string           `json:"rate"`
	Name      string           `json:"name"`
	Priority  int              `json:"priority"`
	Compound  bool             `json:"compound"`
	Shipping  bool             `json:"shipping"`
	Order     int              `json:"order"`
	Class     string           `json:"class"`
	Links     map[string][]any `json:"_links"`
}

// taxBody is a create's or an update's JSON; nil leaves a field as it is.
type taxBody struct {
	ID        int64     `json:"id"` // batch updates and deletes
	Country   *string   `json:"country"`
	State     *string   `json:"state"`
	Postcode  *string   `json:"postcode"`
	City      *string   `json:"city"`
	Postcodes *[]string `json:"postcodes"`
	Cities    *[]string `json:"cities"`
	Rate      *string   `json:"rate"`
	Name      *string   `json:"name"`
	Priority  *int      `json:"priority"`
	Compound  *bool     `json:"compound"`
	Shipping  *bool     `json:"shipping"`
	Order     *int      `json:"order"`
	Class     *string   `json:"class"`
}

// taxRate4 writes thousandths of a percent as WooCommerce writes a rate,
// with four decimals ("7.2500").
var taxRate4 = money.Currency{MinorUnit: 4}

var (
	errTaxID = &Error{Status: http.StatusNotFound, Code: "woocommerce_rest_invalid_id", Message: "Invalid resource ID."}
	// errTaxNoTrash is WooCommerce's refusal of a delete without force.
	errTaxNoTrash = &Error{Status: http.StatusNotImplemented, Code: "woocommerce_rest_trash_not_supported",
		Message: "Taxes do not support trashing."}
)

func (a *API) taxOut(t checkout.TaxRate, order int) taxJSON {
	self := a.d.BaseURL + taxesPath + "/" + strconv.Itoa(t.ID)
	return taxJSON{ID: t.ID, Country: t.Country, State: t.State, Postcodes: []string{}, Cities: []string{},
		Rate: plain(taxRate4, t.Rate*10), Name: t.Label, Priority: t.Priority, Shipping: t.Shipping, Order: order, Class: "standard",
		Links: map[string][]any{
			"self":       {map[string]any{"href": self, "targetHints": map[string]any{"allow": []string{"GET", "POST", "PUT", "PATCH", "DELETE"}}}},
			"collection": {map[string]string{"href": a.d.BaseURL + taxesPath}},
		}}
}

// apply sets b's fields on t, refusing what Vitrine's rates cannot hold.
func (b taxBody) apply(t *checkout.TaxRate) error {
	w := checkout.WooRate{Compound: b.Compound != nil && *b.Compound}
	if b.Class != nil {
		w.Class = *b.Class
	}
	for _, p := range []struct {
		field string
		set   bool
	}{
		{"postcode", b.Postcode != nil && strings.TrimSpace(*b.Postcode) != ""},
		{"city", b.City != nil && strings.TrimSpace(*b.City) != ""},
		{"postcodes", b.Postcodes != nil && len(*b.Postcodes) > 0},
		{"cities", b.Cities != nil && len(*b.Cities) > 0},
	} {
		if p.set && w.Places == "" {
			w.Places = p.field
		}
	}
	if re := w.HeldBy(); re != nil {
		return InvalidParam(re.Field, re.Message)
	}
	if b.Rate != nil {
		n, re := checkout.ParseWooRate(*b.Rate)
		if re != nil {
			return InvalidParam(re.Field, re.Message)
		}
		t.Rate = n
	}
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&t.Country, b.Country)
	set(&t.State, b.State)
	set(&t.Label, b.Name)
	if b.Priority != nil {
		t.Priority = *b.Priority
	}
	if b.Shipping != nil {
		t.Shipping = *b.Shipping
	}
	return nil
}

// ruleError maps the rules' refusal of a field to rest_invalid_param
// naming the REST field ("tax_rates[2].rate" is rate).
func ruleError(err error, fields map[string]string) error {
	var re *checkout.RuleError
	if !errors.As(err, &re) {
		return err
	}
	f := re.Field
	if i := strings.LastIndex(f, "."); i >= 0 {
		f = f[i+1:]
	}
	if n, ok := fields[f]; ok {
		f = n
	}
	return InvalidParam(f, re.Message)
}

var taxFields = map[string]string{"name": "name", "rate": "rate", "priority": "priority"}

func findTax(r *checkout.Rules, id int64) int {
	return slices.IndexFunc(r.TaxRates, func(t checkout.TaxRate) bool { return int64(t.ID) == id })
}

// taxByID answers the rate id and its order in the rules in force.
func (a *API) taxByID(id int64) (taxJSON, error) {
	rates := a.d.Rules.Current().Value.TaxRates
	for i, t := range rates {
		if int64(t.ID) == id {
			return a.taxOut(t, i+1), nil
		}
	}
	return taxJSON{}, errTaxID
}

// GET /wp-json/wc/v3/taxes?class=&orderby=id|order|priority&order=&page=&per_page=
func (a *API) taxesList(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var class, orderBy, order string
	return List[taxJSON, taxJSON]{
		Filters: []Filter{OneOf("class", &class, "standard", "reduced-rate", "zero-rate")},
		Sort:    &Sort{Keys: []string{"id", "order", "priority"}, By: &orderBy, Order: &order},
		Fetch: func(_ context.Context, p Paging) ([]taxJSON, int, error) {
			var all []taxJSON
			if class == "" || class == "standard" {
				for i, t := range a.d.Rules.Current().Value.TaxRates {
					all = append(all, a.taxOut(t, i+1))
				}
			}
			key := func(t taxJSON) int {
				switch orderBy {
				case "id":
					return t.ID
				case "priority":
					return t.Priority
				}
				return t.Order
			}
			slices.SortStableFunc(all, func(x, y taxJSON) int {
				if order == "desc" {
					return key(y) - key(x)
				}
				return key(x) - key(y)
			})
			return pageOf(all, p), len(all), nil
		},
		Row: func(t taxJSON) taxJSON { return t },
	}.Serve(w, r)
}

// pageOf is p's page of all.
func pageOf[T any](all []T, p Paging) []T {
	from := min(p.Offset(), len(all))
	return all[from:min(from+p.PerPage, len(all))]
}

// GET /wp-json/wc/v3/taxes/{id}
func (a *API) taxGet(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := taxID(r)
	if err != nil {
		return err
	}
	t, err := a.taxByID(id)
	return answer(w, http.StatusOK, t, err, func(t taxJSON) taxJSON { return t })
}

func taxID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, errTaxID
	}
	return id, nil
}

// taxCreate adds a rate: its id and the rules saved.
func (a *API) taxCreate(ctx context.Context, b taxBody) (taxJSON, error) {
	var id int
	_, err := a.d.Rules.Edit(ctx, func(rules *checkout.Rules) error {
		t := checkout.TaxRate{}
		if err := b.apply(&t); err != nil {
			return err
		}
		before := map[int]bool{}
		for _, r := range rules.TaxRates {
			before[r.ID] = true
		}
		rules.TaxRates = append(rules.TaxRates, t)
		rules.Normalize()
		for _, r := range rules.TaxRates {
			if !before[r.ID] {
				id = r.ID
			}
		}
		return nil
	})
	if err != nil {
		return taxJSON{}, ruleError(err, taxFields)
	}
	return a.taxByID(int64(id))
}

func (a *API) taxUpdate(ctx context.Context, id int64, b taxBody) (taxJSON, error) {
	_, err := a.d.Rules.Edit(ctx, func(rules *checkout.Rules) error {
		i := findTax(rules, id)
		if i < 0 {
			return errTaxID
		}
		return b.apply(&rules.TaxRates[i])
	})
	if err != nil {
		return taxJSON{}, ruleError(err, taxFields)
	}
	return a.taxByID(id)
}

func (a *API) taxDelete(ctx context.Context, id int64) (taxJSON, error) {
	var gone taxJSON
	_, err := a.d.Rules.Edit(ctx, func(rules *checkout.Rules) error {
		i := findTax(rules, id)
		if i < 0 {
			return errTaxID
		}
		gone = a.taxOut(rules.TaxRates[i], i+1)
		rules.TaxRates = slices.Delete(rules.TaxRates, i, i+1)
		return nil
	})
	return gone, ruleError(err, taxFields)
}

func taxSummary(t taxJSON) string {
	place := t.Country
	if t.State != "" {
		place += ":" + t.State
	}
	if place == "" {
		place = "every country"
	}
	return fmt.Sprintf("%s %s%% (%s)", t.Name, strings.TrimRight(strings.TrimRight(t.Rate, "0"), "."), place)
}

// POST /wp-json/wc/v3/taxes
func (a *API) taxPost(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var b taxBody
	if err := Decode(r, &b); err != nil {
		return err
	}
	t, err := a.taxCreate(r.Context(), b)
	if err != nil {
		return err
	}
	Note(r, "tax_rate.create", "tax_rate", int64(t.ID), "Tax rate created: "+taxSummary(t))
	w.Header().Set("Location", a.d.BaseURL+taxesPath+"/"+strconv.Itoa(t.ID))
	WriteJSON(w, http.StatusCreated, t)
	return nil
}

// PUT /wp-json/wc/v3/taxes/{id}
func (a *API) taxPut(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := taxID(r)
	if err != nil {
		return err
	}
	var b taxBody
	if err := Decode(r, &b); err != nil {
		return err
	}
	t, err := a.taxUpdate(r.Context(), id, b)
	if err != nil {
		return err
	}
	Note(r, "tax_rate.update", "tax_rate", id, "Tax rate updated: "+taxSummary(t))
	WriteJSON(w, http.StatusOK, t)
	return nil
}

// DELETE /wp-json/wc/v3/taxes/{id}?force=true
func (a *API) taxDel(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := taxID(r)
	if err != nil {
		return err
	}
	if !forced(r) {
		return errTaxNoTrash
	}
	t, err := a.taxDelete(r.Context(), id)
	if err != nil {
		return err
	}
	Note(r, "tax_rate.delete", "tax_rate", id, "Tax rate deleted: "+taxSummary(t))
	WriteJSON(w, http.StatusOK, t)
	return nil
}

// POST /wp-json/wc/v3/taxes/batch {create:[], update:[], delete:[ids]}
func (a *API) taxesBatch(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var in struct {
		Create []taxBody `json:"create"`
		Update []taxBody `json:"update"`
		Delete []int64   `json:"delete"`
	}
	if err := Decode(r, &in); err != nil {
		return err
	}
	b, err := newBatch(len(in.Create)+len(in.Update)+len(in.Delete), asError)
	if err != nil {
		return err
	}
	ctx := r.Context()
	for _, c := range in.Create {
		t, err := a.taxCreate(ctx, c)
		if err := b.add("create", 0, err, func() any { return t }); err != nil {
			return err
		}
	}
	for _, u := range in.Update {
		t, err := a.taxUpdate(ctx, u.ID, u)
		if err := b.add("update", u.ID, err, func() any { return t }); err != nil {
			return err
		}
	}
	for _, id := range in.Delete {
		t, err := a.taxDelete(ctx, id)
		if err := b.add("delete", id, err, func() any { return t }); err != nil {
			return err
		}
	}
	Note(r, "tax_rate.batch", "tax_rate", 0, b.summary("Tax rates"))
	WriteJSON(w, http.StatusOK, b.out)
	return nil
}

// Tax classes: the three a product may carry (catalog.TaxClasses), fixed.

type taxClassJSON struct {
	Slug  string           `json:"slug"`
	Name  string           `json:"name"`
	Links map[string][]any `json:"_links"`
}

var taxClassNames = map[string]string{"": "Standard rate", "reduced-rate": "Reduced rate", "zero-rate": "Zero rate"}

func (a *API) taxClasses() []taxClassJSON {
	var out []taxClassJSON
	for _, c := range catalog.TaxClasses {
		slug := c
		if slug == "" {
			slug = "standard"
		}
		out = append(out, taxClassJSON{Slug: slug, Name: taxClassNames[c],
			Links: map[string][]any{"collection": {map[string]string{"href": a.d.BaseURL + taxesPath + "/classes"}}}})
	}
	return out
}

// GET /wp-json/wc/v3/taxes/classes
func (a *API) taxClassesList(w http.ResponseWriter, _ *http.Request, _ Staff) error {
	WriteAll(w, a.taxClasses())
	return nil
}

// POST /wp-json/wc/v3/taxes/classes {"name"}: an existing class is
// WooCommerce's tax_class_exists; a new one is refused, as the classes are
// fixed.
func (a *API) taxClassCreate(_ http.ResponseWriter, r *http.Request, _ Staff) error {
	var in struct {
		Name *string `json:"name"`
	}
	if err := Decode(r, &in); err != nil {
		return err
	}
	if in.Name == nil || strings.TrimSpace(*in.Name) == "" {
		return &Error{Status: http.StatusBadRequest, Code: "rest_missing_callback_param", Message: "Missing parameter(s): name",
			Data: map[string]any{"params": []string{"name"}}}
	}
	name := strings.TrimSpace(*in.Name)
	for _, c := range a.taxClasses() {
		if strings.EqualFold(c.Name, name) || strings.EqualFold(c.Slug, name) {
			return &Error{Status: http.StatusBadRequest, Code: "woocommerce_rest_tax_class_exists", Message: "Tax class already exists"}
		}
	}
	return errTaxClassesFixed
}

var errTaxClassesFixed = &Error{Status: http.StatusBadRequest, Code: "woocommerce_rest_cannot_create",
	Message: "Vitrine's tax classes are fixed (standard, reduced rate and zero rate): a class cannot be added or deleted."}

// DELETE /wp-json/wc/v3/taxes/classes/{slug}: an unknown class is
// WooCommerce's invalid id; the three classes are fixed.
func (a *API) taxClassDelete(_ http.ResponseWriter, r *http.Request, _ Staff) error {
	slug := r.PathValue("slug")
	for _, c := range a.taxClasses() {
		if c.Slug == slug {
			return &Error{Status: http.StatusBadRequest, Code: "woocommerce_rest_cannot_delete", Message: errTaxClassesFixed.Message}
		}
	}
	return &Error{Status: http.StatusNotFound, Code: "woocommerce_rest_invalid_id", Message: "Invalid resource id."}
}
