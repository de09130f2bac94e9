package adminapi

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"vitrine/internal/catalog"
)

// Categories, tags and global attributes with their swatch terms:
// /wc/v3/products/categories, /tags and /attributes, on catalog.Admin.

type categoryJSON struct {
	ID          int64      `json:"id"`
	Name        string     `json:"name"`
	Slug        string     `json:"slug"`
	Parent      int64      `json:"parent"`
	Description string     `json:"description"`
	MenuOrder   int        `json:"menu_order"`
	Count       int        `json:"count"`
	Image       *imageJSON `json:"image"`
}

func categoryOut(c catalog.Category) categoryJSON {
	out := categoryJSON{ID: c.ID, Name: c.Name, Slug: c.Slug, Parent: c.ParentID, Description: c.Description, MenuOrder: c.MenuOrder, Count: c.Count}
	if c.Image != nil {
		out.Image = &imageJSON{ID: c.Image.ID, Src: c.Image.Src, Name: c.Image.Name, Alt: c.Image.Alt}
	} else if c.ImageID != 0 {
		out.Image = &imageJSON{ID: c.ImageID}
	}
	return out
}

// GET /wp-json/wc/v3/products/categories?search= (the whole tree, in
// menu order: a shop's categories fit one answer)
func (a *API) categoriesList(w http.ResponseWriter, r *http.Request, _ Staff) error {
	cats, err := a.d.Catalog.Store.Categories(r.Context())
	if err != nil {
		return err
	}
	search := strings.ToLower(strings.TrimSpace(r.URL.Query().Get("search")))
	out := make([]categoryJSON, 0, len(cats))
	for _, c := range cats {
		if search == "" || strings.Contains(strings.ToLower(c.Name), search) {
			out = append(out, categoryOut(c))
		}
	}
	WriteAll(w, out)
	return nil
}

type categoryBody struct {
	Name        *string `json:"name"`
	Slug        *string `json:"slug"`
	Parent      *int64  `json:"parent"`
	Description *string `json:"description"`
	MenuOrder   *int    `json:"menu_order"`
	Image       *struct {
		ID int64 `json:"id"`
	} `json:"image"`
}

// POST /wp-json/wc/v3/products/categories and PUT …/categories/{id}
func (a *API) categorySave(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var b categoryBody
	id, err := savedIDAndBody(r, "id", &b)
	if err != nil {
		return err
	}
	in := catalog.CategoryInput{Name: b.Name, Slug: b.Slug, ParentID: b.Parent, Description: b.Description, MenuOrder: b.MenuOrder}
	if b.Image != nil {
		in.ImageID = &b.Image.ID
	}
	c, err := a.d.Catalog.SaveCategory(r.Context(), id, in)
	if err != nil {
		return err
	}
	a.changed(r)
	verb := "Edited"
	if id == 0 {
		verb = "Created"
	}
	Note(r, "category.save", "category", c.ID, fmt.Sprintf("%s category %q", verb, c.Name))
	WriteJSON(w, savedStatus(id), categoryOut(*c))
	return nil
}

// GET /wp-json/wc/v3/products/categories/{id}
func (a *API) categoryGet(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, err := IDParam(r, "id")
	if err != nil {
		return err
	}
	cats, err := a.d.Catalog.Store.Categories(r.Context())
	if err != nil {
		return err
	}
	for _, c := range cats {
		if c.ID == id {
			WriteJSON(w, http.StatusOK, categoryOut(c))
			return nil
		}
	}
	return catalog.ErrNotFound
}

// DELETE /wp-json/wc/v3/products/categories/{id}?force=true (categories
// have no trash: WooCommerce requires force, and so do we)
func (a *API) categoryDelete(w http.ResponseWriter, r *http.Request, _ Staff) error {
	return a.termDelete(w, r, "category", "Categories", a.d.Catalog.DeleteCategory)
}

// termDelete answers the DELETE of a category or a tag (what; plural
// names them in the refusal): they have no trash, so only force=true
// deletes, for good.
func (a *API) termDelete(w http.ResponseWriter, r *http.Request, what, plural string, del func(context.Context, int64) error) error {
	id, err := IDParam(r, "id")
	if err != nil {
		return err
	}
	if r.URL.Query().Get("force") != "true" {
		return &Error{Status: http.StatusNotImplemented, Code: "woocommerce_rest_trash_not_supported", Message: plural + " do not support trashing; delete with force=true."}
	}
	if err := del(r.Context(), id); err != nil {
		return err
	}
	a.changed(r)
	Note(r, what+".delete", what, id, fmt.Sprintf("Deleted %s %d", what, id))
	WriteJSON(w, http.StatusOK, map[string]any{"id": id, "deleted": true})
	return nil
}

type tagJSON struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Slug  string `json:"slug"`
	Count int    `json:"count"`
}

// GET /wp-json/wc/v3/products/tags
func (a *API) tagsList(w http.ResponseWriter, r *http.Request, _ Staff) error {
	tags, err := a.d.Catalog.Store.Tags(r.Context())
	if err != nil {
		return err
	}
	out := make([]tagJSON, 0, len(tags))
	for _, t := range tags {
		out = append(out, tagJSON(t))
	}
	WriteAll(w, out)
	return nil
}

// POST /wp-json/wc/v3/products/tags and PUT …/tags/{id}
func (a *API) tagSave(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var b struct {
		Name *string `json:"name"`
		Slug *string `json:"slug"`
	}
	id, err := savedIDAndBody(r, "id", &b)
	if err != nil {
		return err
	}
	t, err := a.d.Catalog.SaveTag(r.Context(), id, b.Name, b.Slug)
	if err != nil {
		return err
	}
	a.changed(r)
	Note(r, "tag.save", "tag", t.ID, fmt.Sprintf("Saved tag %q", t.Name))
	WriteJSON(w, savedStatus(id), tagJSON(*t))
	return nil
}

// DELETE /wp-json/wc/v3/products/tags/{id}?force=true
func (a *API) tagDelete(w http.ResponseWriter, r *http.Request, _ Staff) error {
	return a.termDelete(w, r, "tag", "Tags", a.d.Catalog.DeleteTag)
}

type attributeDefJSON struct {
	ID    int64          `json:"id"`
	Name  string         `json:"name"`
	Slug  string         `json:"slug"`
	Type  string         `json:"type"`
	Terms []termSwatchJS `json:"terms"`
	// Filterable and FilterQueryType: whether listings offer the attribute
	// as a filter, and whether several chosen terms mean any ("or") or all
	// ("and"); the admin's attributes screen edits them.
	Filterable      bool   `json:"filterable"`
	FilterQueryType string `json:"filter_query_type"`
}

// attributeDef is an attribute's answer without its terms.
func attributeDef(at catalog.Attribute) attributeDefJSON {
	return attributeDefJSON{ID: at.ID, Name: at.Name, Slug: at.Taxonomy(), Type: at.Type, Terms: []termSwatchJS{},
		Filterable: at.Filterable, FilterQueryType: at.FilterQueryType}
}

// termSwatchJS is an attribute term as WooCommerce answers one (id, name,
// slug, description, menu_order, count) with its swatch.
type termSwatchJS struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Slug        string `json:"slug"`
	Description string `json:"description"`
	MenuOrder   int    `json:"menu_order"`
	Count       int    `json:"count"`
	Color       string `json:"color"`
	ImageURL    string `json:"image_url"`
}

func termOut(t catalog.AttrTerm) termSwatchJS {
	return termSwatchJS{ID: t.ID, Name: t.Name, Slug: t.Slug, Description: t.Description, MenuOrder: t.MenuOrder, Count: t.Count,
		Color: t.Color, ImageURL: t.ImageURL}
}

// GET /wp-json/wc/v3/products/attributes: the global attributes, each
// with its terms and their swatches (the editor needs both at once).
func (a *API) attributesList(w http.ResponseWriter, r *http.Request, _ Staff) error {
	attrs, terms, err := a.d.Catalog.Attributes(r.Context())
	if err != nil {
		return err
	}
	out := make([]attributeDefJSON, 0, len(attrs))
	for _, at := range attrs {
		aj := attributeDef(at)
		for _, t := range terms[at.ID] {
			aj.Terms = append(aj.Terms, termOut(t))
		}
		out = append(out, aj)
	}
	WriteJSON(w, http.StatusOK, out)
	return nil
}

var errAttributeID = &Error{Status: http.StatusNotFound, Code: "woocommerce_rest_taxonomy_invalid", Message: "Resource does not exist."}

// attribute is one global attribute with its terms, or errAttributeID.
func (a *API) attribute(r *http.Request) (attributeDefJSON, error) {
	id, err := IDParam(r, "id")
	if err != nil {
		return attributeDefJSON{}, err
	}
	attrs, terms, err := a.d.Catalog.Attributes(r.Context())
	if err != nil {
		return attributeDefJSON{}, err
	}
	for _, at := range attrs {
		if at.ID == id {
			aj := attributeDef(at)
			for _, t := range terms[at.ID] {
				aj.Terms = append(aj.Terms, termOut(t))
			}
			return aj, nil
		}
	}
	return attributeDefJSON{}, errAttributeID
}

// GET /wp-json/wc/v3/products/attributes/{id}
func (a *API) attributeGet(w http.ResponseWriter, r *http.Request, _ Staff) error {
	aj, err := a.attribute(r)
	if err != nil {
		return err
	}
	WriteJSON(w, http.StatusOK, aj)
	return nil
}

// GET /wp-json/wc/v3/products/attributes/{id}/terms: the attribute's terms
// in their order, as WooCommerce lists them (a migration and sync tools
// read them so), each with its swatch.
func (a *API) termsList(w http.ResponseWriter, r *http.Request, _ Staff) error {
	aj, err := a.attribute(r)
	if err != nil {
		return err
	}
	WriteAll(w, aj.Terms)
	return nil
}

// POST /wp-json/wc/v3/products/attributes {"name","type"}
func (a *API) attributeCreate(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var b struct {
		Name string `json:"name"`
		Type string `json:"type"`
	}
	if err := Decode(r, &b); err != nil {
		return err
	}
	at, err := a.d.Catalog.CreateAttribute(r.Context(), b.Name, b.Type)
	if err != nil {
		return err
	}
	a.changed(r)
	Note(r, "attribute.create", "attribute", at.ID, fmt.Sprintf("Created attribute %q", at.Name))
	out := attributeDef(at)
	// The store's defaults for a new attribute's filter settings.
	if attrs, _, err := a.d.Catalog.Attributes(r.Context()); err == nil {
		for _, x := range attrs {
			if x.ID == at.ID {
				out = attributeDef(x)
			}
		}
	}
	WriteJSON(w, http.StatusCreated, out)
	return nil
}

// PUT /wp-json/wc/v3/products/attributes/{id} {"type", "filterable",
// "filter_query_type"}: the swatch type, and whether listings filter by
// the attribute with any ("or") or all ("and") of the chosen terms.
func (a *API) attributeUpdate(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var b struct {
		Type            string  `json:"type"`
		Filterable      *bool   `json:"filterable"`
		FilterQueryType *string `json:"filter_query_type"`
	}
	id, err := idAndBody(r, &b)
	if err != nil {
		return err
	}
	if b.Type != "" || (b.Filterable == nil && b.FilterQueryType == nil) {
		if err := a.d.Catalog.SetSwatchType(r.Context(), id, b.Type); err != nil {
			return err
		}
	}
	if b.Filterable != nil || b.FilterQueryType != nil {
		if err := a.d.Catalog.SetAttributeFilter(r.Context(), id, b.Filterable, b.FilterQueryType); err != nil {
			return err
		}
	}
	a.changed(r)
	note := "Filter settings changed"
	if b.Type != "" {
		note = "Swatch type set to " + b.Type
	}
	Note(r, "attribute.update", "attribute", id, note)
	out := map[string]any{"id": id}
	if b.Type != "" {
		out["type"] = b.Type
	}
	if b.Filterable != nil {
		out["filterable"] = *b.Filterable
	}
	if b.FilterQueryType != nil {
		out["filter_query_type"] = *b.FilterQueryType
	}
	WriteJSON(w, http.StatusOK, out)
	return nil
}

// POST /wp-json/wc/v3/products/attributes/{id}/terms and
// PUT …/terms/{term_id} {"name","color","image_url","menu_order"}
func (a *API) termSave(w http.ResponseWriter, r *http.Request, _ Staff) error {
	attrID, err := IDParam(r, "id")
	if err != nil {
		return err
	}
	var b struct {
		Name      *string `json:"name"`
		Color     *string `json:"color"`
		ImageURL  *string `json:"image_url"`
		MenuOrder *int    `json:"menu_order"`
	}
	termID, err := savedIDAndBody(r, "term_id", &b)
	if err != nil {
		return err
	}
	t, err := a.d.Catalog.SaveTerm(r.Context(), attrID, termID, catalog.TermInput{Name: b.Name, Color: b.Color, ImageURL: b.ImageURL, MenuOrder: b.MenuOrder})
	if err != nil {
		return err
	}
	a.changed(r)
	Note(r, "attribute.term_save", "attribute", attrID, fmt.Sprintf("Saved term %q", t.Name))
	WriteJSON(w, savedStatus(termID), termOut(t))
	return nil
}
