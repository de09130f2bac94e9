package importer

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"vitrine/internal/catalog"
)

// group is a parent product with the variations the file gives it. A parent
// from the file has rec set; a parent already in the shop has only product.
type group struct {
	rec     *record
	product *catalog.Product
	vars    []*record
}

// run saves what read accepted: each parent with its variations in one
// SaveProduct call, then the links between products once all are saved.
func (imp *importer) run(ctx context.Context, recs []*record) error {
	var groups []*group
	byRec := map[*record]*group{}
	for _, rc := range recs {
		if !rc.isVariation() {
			g := &group{rec: rc, product: rc.product}
			groups = append(groups, g)
			byRec[rc] = g
		}
	}
	existing := map[int64]*group{} // parents already in the shop, by id
	var existingOrder []*group
	for _, rc := range recs {
		if !rc.isVariation() {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if prc, ok := imp.fileRow(*rc.parent); ok {
			switch {
			case imp.failed[prc]:
				imp.rejectRec(rc, fmt.Sprintf("its parent %s (row %d) was rejected", rc.parent, prc.line))
			case prc.product.Type != catalog.TypeVariable:
				imp.rejectRec(rc, fmt.Sprintf("its parent %s (row %d) is a %s product, not a variable one", rc.parent, prc.line, prc.product.Type))
			default:
				byRec[prc].vars = append(byRec[prc].vars, rc)
			}
			continue
		}
		parent, err := imp.shopProduct(ctx, *rc.parent)
		if errors.Is(err, catalog.ErrNotFound) {
			imp.rejectRec(rc, fmt.Sprintf("its parent %s is neither in the file nor in the shop", rc.parent))
			continue
		}
		if err != nil {
			imp.rejectRec(rc, fmt.Sprintf("its parent %s could not be loaded: %v", rc.parent, err))
			continue
		}
		if parent.Type != catalog.TypeVariable {
			imp.rejectRec(rc, fmt.Sprintf("its parent %s is a %s product, not a variable one", rc.parent, parent.Type))
			continue
		}
		g := existing[parent.ID]
		if g == nil {
			g = &group{product: parent}
			existing[parent.ID] = g
			existingOrder = append(existingOrder, g)
		}
		g.vars = append(g.vars, rc)
	}

	var linked []*record
	for _, g := range append(groups, existingOrder...) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if imp.saveGroup(ctx, g) && g.rec != nil && g.rec.hasLinks() {
			linked = append(linked, g.rec)
		}
	}
	// Second pass: every product of the file now has an id.
	for _, rc := range linked {
		if err := ctx.Err(); err != nil {
			return err
		}
		imp.saveLinks(ctx, rc)
	}
	return nil
}

// fileRow finds the file's row a reference names: a SKU, or id:N matching
// the file's ID column.
func (imp *importer) fileRow(r ref) (*record, bool) {
	if r.SKU != "" {
		rc, ok := imp.bySKU[r.SKU]
		return rc, ok
	}
	rc, ok := imp.byFileID[r.ID]
	return rc, ok
}

// shopProduct loads a product already in the shop by SKU or id.
func (imp *importer) shopProduct(ctx context.Context, r ref) (*catalog.Product, error) {
	id := r.ID
	if r.SKU != "" {
		var err error
		if id, err = imp.w.ProductIDBySKU(ctx, r.SKU); err != nil {
			return nil, err
		}
	}
	return imp.store.Product(ctx, id)
}

// saveGroup builds and saves one parent with its variations. It reports
// whether the parent was saved.
func (imp *importer) saveGroup(ctx context.Context, g *group) bool {
	p := g.product
	fromFile := g.rec != nil
	var before *catalog.Product // the parent as the shop has it, if it does
	if fromFile {
		var err error
		if before, err = imp.existingParent(ctx, p); err != nil {
			imp.failGroup(g, err.Error())
			return false
		}
		if err := imp.build(ctx, g.rec); err != nil {
			imp.failGroup(g, err.Error())
			return false
		}
	} else {
		before = p
	}

	// Variations the shop already has under this parent, to tell created
	// from updated ones.
	known := map[int64]bool{}
	if before != nil && len(g.vars) > 0 {
		vs, err := imp.store.Variations(ctx, before.ID)
		if err != nil {
			imp.failGroup(g, fmt.Sprintf("could not load the existing variations: %v", err))
			return false
		}
		for _, v := range vs {
			known[v.ID] = true
		}
	}

	var vars []*catalog.Product
	var varRecs []*record
	for _, vr := range g.vars {
		if err := imp.build(ctx, vr); err != nil {
			imp.rejectRec(vr, err.Error())
			continue
		}
		if sku := vr.product.SKU; sku != "" {
			id, err := imp.w.ProductIDBySKU(ctx, sku)
			switch {
			case err == nil && !known[id]:
				imp.rejectRec(vr, fmt.Sprintf("SKU %q is already used by another product in the shop", sku))
				continue
			case err != nil && !errors.Is(err, catalog.ErrNotFound):
				imp.rejectRec(vr, fmt.Sprintf("could not look up SKU %q: %v", sku, err))
				continue
			}
		}
		vars = append(vars, vr.product)
		varRecs = append(varRecs, vr)
	}
	orderVariations(varRecs)
	markVariationAttributes(p, vars, before)

	if fromFile {
		if ids, done := imp.resolveLinks(ctx, g.rec, false); done {
			p.Children, p.Upsells, p.CrossSells = ids[0], ids[1], ids[2]
			g.rec.linksDone = true
		}
	}

	created, err := imp.w.SaveProduct(ctx, p, vars)
	if err != nil {
		reason := fmt.Sprintf("could not be saved: %v", err)
		if fromFile {
			imp.failGroup(g, reason)
		} else {
			for _, vr := range varRecs {
				imp.rejectRec(vr, reason)
			}
		}
		return false
	}
	if fromFile {
		if created {
			imp.sum.ProductsCreated++
		} else {
			imp.sum.ProductsUpdated++
		}
	}
	for _, v := range vars {
		if known[v.ID] {
			imp.sum.VariationsUpdated++
		} else {
			imp.sum.VariationsCreated++
		}
	}
	return true
}

// failGroup rejects a parent row and every variation row under it.
func (imp *importer) failGroup(g *group, reason string) {
	if g.rec != nil {
		imp.rejectRec(g.rec, reason)
	}
	for _, vr := range g.vars {
		if g.rec != nil {
			imp.rejectRec(vr, fmt.Sprintf("its parent (row %d) was not imported", g.rec.line))
		} else {
			imp.rejectRec(vr, reason)
		}
	}
}

// existingParent returns the shop's product that SaveProduct will update
// for p (matched by SKU, else by slug), or nil. A SKU that belongs to a
// variation is refused: saving would turn the variation into a product.
func (imp *importer) existingParent(ctx context.Context, p *catalog.Product) (*catalog.Product, error) {
	var found *catalog.Product
	if p.SKU != "" {
		id, err := imp.w.ProductIDBySKU(ctx, p.SKU)
		if errors.Is(err, catalog.ErrNotFound) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("could not look up SKU %q: %v", p.SKU, err)
		}
		if found, err = imp.store.Product(ctx, id); err != nil {
			return nil, fmt.Errorf("could not load the product with SKU %q: %v", p.SKU, err)
		}
	} else {
		slug := p.Slug
		if slug == "" {
			slug = catalog.Slugify(p.Name)
		}
		var err error
		found, err = imp.store.ProductBySlug(ctx, slug)
		if errors.Is(err, catalog.ErrNotFound) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("could not look up product %q: %v", slug, err)
		}
	}
	if found.ParentID != 0 || found.Type == catalog.TypeVariation {
		return nil, fmt.Errorf("SKU %q belongs to a variation in the shop", p.SKU)
	}
	return found, nil
}

// orderVariations numbers variations by their Position, then file order, so
// the menu order is stable and 1-based.
func orderVariations(vrs []*record) {
	sorted := slices.Clone(vrs)
	slices.SortStableFunc(sorted, func(a, b *record) int {
		return cmp.Compare(a.product.MenuOrder, b.product.MenuOrder)
	})
	for i, vr := range sorted {
		vr.product.MenuOrder = i + 1
	}
}

// markVariationAttributes flags the parent's attributes that its variations
// use. Flags the shop already had stay on, so importing a parent without
// its variations does not unhook the variations it has.
func markVariationAttributes(p *catalog.Product, vars []*catalog.Product, before *catalog.Product) {
	used := map[string]bool{}
	for _, v := range vars {
		for _, a := range v.Variation {
			used[a.Name] = true
		}
	}
	if before != nil {
		for _, a := range before.Attributes {
			if a.Variation {
				used[a.Key()] = true
			}
		}
	}
	for i := range p.Attributes {
		if used[p.Attributes[i].Key()] {
			p.Attributes[i].Variation = true
		}
	}
}

// build resolves a row's taxonomy, images and attributes through the store.
func (imp *importer) build(ctx context.Context, rc *record) error {
	p := rc.product
	if imp.opts.Now != nil {
		p.CreatedAt = imp.opts.Now().UTC() // used only when the product is new
	}
	p.Categories, p.Tags, p.Images = nil, nil, nil
	for _, path := range rc.cats {
		id, err := imp.category(ctx, path)
		if err != nil {
			return fmt.Errorf("category %q: %v", strings.Join(path, " > "), err)
		}
		p.Categories = append(p.Categories, catalog.Term{ID: id, Name: path[len(path)-1]})
	}
	for _, name := range rc.tags {
		id, err := imp.tag(ctx, name)
		if err != nil {
			return fmt.Errorf("tag %q: %v", name, err)
		}
		p.Tags = append(p.Tags, catalog.Term{ID: id, Name: name})
	}
	alt := p.Name
	for _, u := range rc.images {
		p.Images = append(p.Images, imp.imgs.get(ctx, u, alt))
	}
	if rc.isVariation() {
		return imp.buildVariationAttrs(ctx, rc)
	}
	return imp.buildAttributes(ctx, rc)
}

func (imp *importer) buildAttributes(ctx context.Context, rc *record) error {
	p := rc.product
	p.Attributes = nil
	defaults := map[string]string{}
	for i, ra := range rc.attrs {
		pa := catalog.ProductAttribute{Name: ra.name, Position: i, Visible: ra.visible}
		var attr catalog.Attribute
		if ra.global {
			var err error
			if attr, err = imp.attribute(ctx, ra.name); err != nil {
				return fmt.Errorf("attribute %q: %v", ra.name, err)
			}
			pa.AttributeID, pa.Taxonomy = attr.ID, attr.Taxonomy()
		}
		for _, v := range ra.values {
			if !ra.global {
				pa.Values = append(pa.Values, catalog.AttributeValue{Name: v, Slug: v})
				continue
			}
			t, err := imp.term(ctx, attr, v)
			if err != nil {
				return fmt.Errorf("attribute %q value %q: %v", ra.name, v, err)
			}
			pa.Values = append(pa.Values, catalog.AttributeValue{TermID: t.ID, Name: t.Name, Slug: t.Slug})
		}
		if ra.def != "" {
			if ra.global {
				defaults[pa.Key()] = catalog.Slugify(ra.def)
			} else {
				defaults[pa.Key()] = ra.def
			}
		}
		p.Attributes = append(p.Attributes, pa)
	}
	if len(defaults) > 0 {
		// Vitrine has no field for a variable product's preselected
		// options yet; keep them where WooCommerce does.
		b, _ := json.Marshal(defaults)
		if p.Meta == nil {
			p.Meta = map[string]string{}
		}
		p.Meta["_default_attributes"] = string(b)
	}
	return nil
}

func (imp *importer) buildVariationAttrs(ctx context.Context, rc *record) error {
	p := rc.product
	p.Variation = nil
	for _, ra := range rc.attrs {
		va := catalog.VariationAttr{Name: catalog.SanitizeAttributeName(ra.name)}
		value := ""
		if len(ra.values) > 0 {
			value = ra.values[0]
		}
		if ra.global {
			attr, err := imp.attribute(ctx, ra.name)
			if err != nil {
				return fmt.Errorf("attribute %q: %v", ra.name, err)
			}
			va.Name = attr.Taxonomy()
			if value != "" {
				t, err := imp.term(ctx, attr, value)
				if err != nil {
					return fmt.Errorf("attribute %q value %q: %v", ra.name, value, err)
				}
				value = t.Slug
			}
		}
		va.Value = value
		p.Variation = append(p.Variation, va)
	}
	return nil
}

func (imp *importer) category(ctx context.Context, path []string) (int64, error) {
	key := strings.Join(path, "\x00")
	if id, ok := imp.cats[key]; ok {
		return id, nil
	}
	id, created, err := imp.w.EnsureCategoryPath(ctx, path)
	if err != nil {
		return 0, err
	}
	imp.sum.CategoriesCreated += created
	imp.cats[key] = id
	return id, nil
}

func (imp *importer) tag(ctx context.Context, name string) (int64, error) {
	if id, ok := imp.tags[name]; ok {
		return id, nil
	}
	id, err := imp.w.EnsureTag(ctx, name)
	if err != nil {
		return 0, err
	}
	imp.tags[name] = id
	return id, nil
}

func (imp *importer) attribute(ctx context.Context, name string) (catalog.Attribute, error) {
	slug := catalog.Slugify(name)
	if slug == "" {
		return catalog.Attribute{}, errors.New("the name has no letters or digits")
	}
	if a, ok := imp.attrs[slug]; ok {
		return a, nil
	}
	a, err := imp.w.EnsureAttribute(ctx, catalog.Attribute{Name: name, Slug: slug})
	if err != nil {
		return a, err
	}
	imp.attrs[slug] = a
	return a, nil
}

func (imp *importer) term(ctx context.Context, a catalog.Attribute, name string) (catalog.AttrTerm, error) {
	slug := catalog.Slugify(name)
	if slug == "" {
		return catalog.AttrTerm{}, errors.New("the value has no letters or digits")
	}
	key := termKey{a.ID, slug}
	if t, ok := imp.terms[key]; ok {
		return t, nil
	}
	t, err := imp.w.EnsureTerm(ctx, catalog.AttrTerm{AttributeID: a.ID, Name: name, Slug: slug})
	if err != nil {
		return t, err
	}
	imp.terms[key] = t
	return t, nil
}

func (rc *record) hasLinks() bool {
	return len(rc.grouped) > 0 || len(rc.upsells) > 0 || len(rc.crossSell) > 0
}

// resolveLinks turns a row's grouped products, upsells and cross-sells into
// ids. Before the second pass (final false) it succeeds only when every
// reference resolves already; in the final pass it drops what cannot be
// found and warns.
func (imp *importer) resolveLinks(ctx context.Context, rc *record, final bool) (ids [3][]int64, done bool) {
	if !rc.hasLinks() {
		return ids, true
	}
	for i, refs := range [3][]ref{rc.grouped, rc.upsells, rc.crossSell} {
		for _, r := range refs {
			id, err := imp.linkID(ctx, r, final)
			if err != nil {
				if !final {
					return ids, false
				}
				imp.warn(rc, fmt.Sprintf("%s %s: %v", linkNames[i], r, err))
				continue
			}
			ids[i] = append(ids[i], id)
		}
	}
	return ids, true
}

var linkNames = [3]string{"grouped product", "upsell", "cross-sell"}

var errPending = errors.New("not saved yet")

func (imp *importer) linkID(ctx context.Context, r ref, final bool) (int64, error) {
	if rc, ok := imp.fileRow(r); ok {
		switch {
		case imp.failed[rc]:
			return 0, fmt.Errorf("row %d was not imported", rc.line)
		case rc.product.ID != 0:
			return rc.product.ID, nil
		case !final:
			return 0, errPending
		default:
			return 0, fmt.Errorf("row %d was not imported", rc.line)
		}
	}
	if r.SKU != "" {
		id, err := imp.w.ProductIDBySKU(ctx, r.SKU)
		if errors.Is(err, catalog.ErrNotFound) {
			return 0, errors.New("no product has this SKU")
		}
		return id, err
	}
	p, err := imp.store.Product(ctx, r.ID)
	if errors.Is(err, catalog.ErrNotFound) {
		return 0, errors.New("no product has this id")
	}
	if err != nil {
		return 0, err
	}
	return p.ID, nil
}

// saveLinks is the second pass for a product whose links named products
// saved after it.
func (imp *importer) saveLinks(ctx context.Context, rc *record) {
	if rc.linksDone {
		return
	}
	ids, _ := imp.resolveLinks(ctx, rc, true)
	p := rc.product
	p.Children, p.Upsells, p.CrossSells = ids[0], ids[1], ids[2]
	if _, err := imp.w.SaveProduct(ctx, p, nil); err != nil {
		imp.warn(rc, fmt.Sprintf("imported, but its linked products could not be saved: %v", err))
	}
}
