package importer

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/catalog"
)

// header maps the exporter's column titles (matched case-insensitively) to
// positions in a record.
type header struct {
	cols  map[string]int // normalized title -> index
	dims  map[string]int // "weight", "length", "width", "height" -> index
	attrs []attrCols     // by attribute number
	meta  []metaCol
}

type attrCols struct {
	n                                    int
	name, value, visible, global, defVal int // -1 when absent
}

type metaCol struct {
	key string
	idx int
}

var attrColumn = regexp.MustCompile(`^attribute (\d+) (name|value\(s\)|values?|visible|global|default)$`)

func normalize(title string) string {
	return strings.Join(strings.Fields(strings.ToLower(title)), " ")
}

// readHeader indexes the header row. It needs at least Name and Type.
func readHeader(titles []string) (*header, error) {
	h := &header{cols: map[string]int{}, dims: map[string]int{}}
	attrs := map[int]*attrCols{}
	for i, raw := range titles {
		if i == 0 {
			raw = strings.TrimPrefix(raw, "\uFEFF")
		}
		title := normalize(raw)
		if title == "" {
			continue
		}
		if key, ok := cutPrefixFold(strings.TrimSpace(raw), "meta:"); ok {
			if key = strings.TrimSpace(key); key != "" {
				h.meta = append(h.meta, metaCol{key: key, idx: i})
			}
			continue
		}
		if m := attrColumn.FindStringSubmatch(title); m != nil {
			n, _ := strconv.Atoi(m[1])
			a := attrs[n]
			if a == nil {
				a = &attrCols{n: n, name: -1, value: -1, visible: -1, global: -1, defVal: -1}
				attrs[n] = a
			}
			switch m[2] {
			case "name":
				a.name = i
			case "visible":
				a.visible = i
			case "global":
				a.global = i
			case "default":
				a.defVal = i
			default:
				a.value = i
			}
			continue
		}
		matched := false
		for _, d := range []string{"weight", "length", "width", "height"} {
			if title == d || strings.HasPrefix(title, d+" (") {
				h.dims[d] = i
				matched = true
			}
		}
		if matched {
			continue
		}
		if _, dup := h.cols[title]; !dup {
			h.cols[title] = i
		}
	}
	for _, a := range attrs {
		if a.name >= 0 {
			h.attrs = append(h.attrs, *a)
		}
	}
	sort.Slice(h.attrs, func(i, j int) bool { return h.attrs[i].n < h.attrs[j].n })
	var missing []string
	for _, c := range []string{"name", "type"} {
		if _, ok := h.cols[c]; !ok {
			missing = append(missing, strings.ToUpper(c[:1])+c[1:])
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("the header has no %s column; is this a WooCommerce product export?", strings.Join(missing, " or "))
	}
	return h, nil
}

func (h *header) has(title string) bool {
	_, ok := h.cols[title]
	return ok
}

// cell returns a column's trimmed, unescaped value, or "" when the column or
// the cell is missing.
func cell(rec []string, idx int) string {
	if idx < 0 || idx >= len(rec) {
		return ""
	}
	return unescape(strings.TrimSpace(rec[idx]))
}

func (h *header) get(rec []string, title string) string {
	idx, ok := h.cols[title]
	if !ok {
		return ""
	}
	return cell(rec, idx)
}

// record is one parsed row before it touches the store.
type record struct {
	line      int
	fileID    int64
	product   *catalog.Product
	virtual   bool
	download  bool
	cats      [][]string
	tags      []string
	images    []string
	parent    *ref
	grouped   []ref
	upsells   []ref
	crossSell []ref
	attrs     []rawAttr
	linksDone bool // links were set when the product was first saved
}

// rawAttr is an attribute as the row gives it.
type rawAttr struct {
	name    string
	values  []string // parents: the list; variations: one value or none (any)
	visible bool
	global  bool
	def     string
}

func (r *record) isVariation() bool { return r.product.Type == catalog.TypeVariation }

var productTypes = map[string]bool{
	catalog.TypeSimple: true, catalog.TypeVariable: true, catalog.TypeVariation: true,
	catalog.TypeGrouped: true, catalog.TypeExternal: true,
}

// parseRecord maps one CSV record onto a product. The error is the reason
// the row is rejected, in words for the merchant.
func parseRecord(h *header, rec []string, line, minorUnit int) (*record, error) {
	p := &catalog.Product{Purchasable: true, Visible: true, Active: true}
	r := &record{line: line, product: p}
	p.SKU = h.get(rec, "sku")
	p.Name = h.get(rec, "name")

	if s := h.get(rec, "id"); s != "" {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil || id <= 0 {
			return r, fmt.Errorf("ID %q is not a product id", s)
		}
		r.fileID = id
	}

	for _, t := range splitList(strings.ToLower(h.get(rec, "type"))) {
		switch {
		case t == "virtual":
			r.virtual = true
		case t == "downloadable":
			r.download = true
		case productTypes[t]:
			if p.Type != "" && p.Type != t {
				return r, fmt.Errorf("type lists both %q and %q", p.Type, t)
			}
			p.Type = t
		default:
			return r, fmt.Errorf("unknown product type %q (expected simple, variable, variation, grouped or external)", t)
		}
	}
	if p.Type == "" {
		p.Type = catalog.TypeSimple
	}
	if p.Name == "" && !r.isVariation() {
		return r, errors.New("name is empty")
	}

	var err error
	if p.Status, err = parseStatus(h.get(rec, "published")); err != nil {
		return r, err
	}
	if r.isVariation() {
		// A disabled variation is exported as private; it is not offered.
		p.Visible = p.Status == catalog.StatusPublish
	}
	if p.Featured, err = boolField(h, rec, "is featured?", "Is featured?"); err != nil {
		return r, err
	}
	switch v := strings.ToLower(h.get(rec, "visibility in catalog")); v {
	case "":
		p.CatalogVisibility = catalog.VisibilityVisible
	case catalog.VisibilityVisible, catalog.VisibilityCatalog, catalog.VisibilitySearch, catalog.VisibilityHidden:
		p.CatalogVisibility = v
	default:
		return r, fmt.Errorf("visibility in catalog %q is not one of visible, catalog, search, hidden", v)
	}
	p.ShortDescription = description(h.get(rec, "short description"))
	p.Description = description(h.get(rec, "description"))

	if err := parsePrices(h, rec, p, minorUnit); err != nil {
		return r, err
	}
	if err := parseStock(h, rec, p); err != nil {
		return r, err
	}

	switch v := strings.ToLower(h.get(rec, "tax status")); v {
	case "", "taxable", "shipping", "none":
		p.TaxStatus = v
	default:
		return r, fmt.Errorf("tax status %q is not one of taxable, shipping, none", v)
	}
	p.TaxClass = h.get(rec, "tax class")
	if p.SoldIndividually, err = boolField(h, rec, "sold individually?", "Sold individually?"); err != nil {
		return r, err
	}
	p.Weight = dimension(cell(rec, h.dimIdx("weight")))
	p.Length = dimension(cell(rec, h.dimIdx("length")))
	p.Width = dimension(cell(rec, h.dimIdx("width")))
	p.Height = dimension(cell(rec, h.dimIdx("height")))
	p.ExternalURL = h.get(rec, "external url")
	p.ButtonText = h.get(rec, "button text")
	if s := h.get(rec, "position"); s != "" {
		n, err := parseInt(s)
		if err != nil {
			return r, fmt.Errorf("position %v", err)
		}
		p.MenuOrder = int(n)
	}

	r.cats = categoryPaths(h.get(rec, "categories"))
	r.tags = splitList(h.get(rec, "tags"))
	r.images = splitList(h.get(rec, "images"))

	if s := h.get(rec, "parent"); s != "" {
		pr, err := parseRef(s)
		if err != nil {
			return r, fmt.Errorf("parent %v", err)
		}
		r.parent = &pr
	}
	if r.isVariation() && r.parent == nil {
		return r, errors.New("variation has no Parent (parent SKU or id:N)")
	}
	for _, l := range []struct {
		title string
		dst   *[]ref
	}{{"grouped products", &r.grouped}, {"upsells", &r.upsells}, {"cross-sells", &r.crossSell}} {
		refs, err := parseRefs(h.get(rec, l.title))
		if err != nil {
			return r, fmt.Errorf("%s: %v", l.title, err)
		}
		*l.dst = refs
	}

	for _, ac := range h.attrs {
		name := cell(rec, ac.name)
		if name == "" {
			continue
		}
		a := rawAttr{name: name, def: cell(rec, ac.defVal)}
		raw := cell(rec, ac.value)
		if r.isVariation() {
			if v := strings.TrimSpace(strings.ReplaceAll(raw, `\,`, ",")); v != "" {
				a.values = []string{v}
			}
		} else {
			a.values = splitList(raw)
		}
		if a.global, err = parseBool(cell(rec, ac.global)); err != nil {
			return r, fmt.Errorf("attribute %d global: %v", ac.n, err)
		}
		a.visible = true
		if v := cell(rec, ac.visible); v != "" {
			if a.visible, err = parseBool(v); err != nil {
				return r, fmt.Errorf("attribute %d visible: %v", ac.n, err)
			}
		}
		r.attrs = append(r.attrs, a)
	}

	if err := parseMeta(h, rec, r); err != nil {
		return r, err
	}
	return r, nil
}

func (h *header) dimIdx(d string) int {
	if i, ok := h.dims[d]; ok {
		return i
	}
	return -1
}

// dimension keeps a size as typed, with a decimal comma made a point.
func dimension(s string) string {
	if strings.Count(s, ",") == 1 && !strings.Contains(s, ".") {
		return strings.Replace(s, ",", ".", 1)
	}
	return s
}

func boolField(h *header, rec []string, title, label string) (bool, error) {
	b, err := parseBool(h.get(rec, title))
	if err != nil {
		return false, fmt.Errorf("%s %v", label, err)
	}
	return b, nil
}

// parseStatus maps the exporter's Published column: 1 publish, 0 private,
// -1 draft, 2 pending (kept as a draft here). Empty means published.
func parseStatus(s string) (string, error) {
	switch strings.ToLower(s) {
	case "", "1", "true", "yes", "publish":
		return catalog.StatusPublish, nil
	case "0", "private":
		return catalog.StatusPrivate, nil
	case "-1", "false", "no", "draft", "2", "pending":
		return catalog.StatusDraft, nil
	}
	return "", fmt.Errorf("published %q is not 1 (published), 0 (private) or -1 (draft)", s)
}

func parsePrices(h *header, rec []string, p *catalog.Product, minorUnit int) error {
	for _, f := range []struct {
		title string
		dst   **int64
	}{{"regular price", &p.RegularPrice}, {"sale price", &p.SalePrice}} {
		s := h.get(rec, f.title)
		if s == "" {
			continue
		}
		n, err := parsePrice(s, minorUnit)
		if err != nil {
			return fmt.Errorf("%s %v", f.title, err)
		}
		*f.dst = &n
	}
	if s := h.get(rec, "date sale price starts"); s != "" {
		t, _, err := parseDate(s)
		if err != nil {
			return fmt.Errorf("sale start date %v", err)
		}
		p.SaleFrom = &t
	}
	if s := h.get(rec, "date sale price ends"); s != "" {
		t, dateOnly, err := parseDate(s)
		if err != nil {
			return fmt.Errorf("sale end date %v", err)
		}
		if dateOnly {
			// WooCommerce ends a sale at the end of the day given; Vitrine's
			// end is exclusive, so the sale runs until the next midnight.
			t = t.Add(24 * time.Hour)
		}
		p.SaleTo = &t
	}
	if p.SaleFrom != nil && p.SaleTo != nil && !p.SaleTo.After(*p.SaleFrom) {
		return fmt.Errorf("sale ends (%s) before it starts (%s)", p.SaleTo.Format(time.DateTime), p.SaleFrom.Format(time.DateTime))
	}
	return nil
}

func parseStock(h *header, rec []string, p *catalog.Product) error {
	switch v := strings.ToLower(h.get(rec, "in stock?")); v {
	case "", "1", "yes", "true", "instock":
		p.StockStatus = catalog.StockInStock
	case "0", "no", "false", "outofstock":
		p.StockStatus = catalog.StockOutOfStock
	case "backorder", "onbackorder":
		p.StockStatus = catalog.StockOnBackorder
	default:
		return fmt.Errorf("in stock? %q is not 1, 0 or backorder", v)
	}
	switch s := strings.ToLower(h.get(rec, "stock")); s {
	case "":
	case "parent":
		// A variation whose stock the parent manages: nothing of its own.
	default:
		n, err := parseInt(s)
		if err != nil {
			return fmt.Errorf("stock %v", err)
		}
		p.ManageStock, p.StockQuantity = true, &n
	}
	if s := h.get(rec, "low stock amount"); s != "" {
		n, err := parseInt(s)
		if err != nil {
			return fmt.Errorf("low stock amount %v", err)
		}
		p.LowStockAmount = &n
	}
	switch v := strings.ToLower(h.get(rec, "backorders allowed?")); v {
	case "", "0", "no", "false":
		p.Backorders = catalog.BackordersNo
	case "1", "yes", "true":
		p.Backorders = catalog.BackordersYes
	case "notify":
		p.Backorders = catalog.BackordersNotify
	default:
		return fmt.Errorf("backorders allowed? %q is not 1, 0 or notify", v)
	}
	return nil
}

// parseMeta keeps every "Meta: key" column in Product.Meta, fills the
// pre-order and quantity fields from their keys, and files the exporter's
// columns Vitrine has no field for under WooCommerce's own meta keys.
func parseMeta(h *header, rec []string, r *record) error {
	p := r.product
	meta := map[string]string{}
	set := func(k, v string) {
		if v != "" {
			meta[k] = v
		}
	}
	if r.virtual {
		meta["_virtual"] = "yes"
	}
	if r.download {
		meta["_downloadable"] = "yes"
	}
	set("_purchase_note", h.get(rec, "purchase note"))
	set("_shipping_class", h.get(rec, "shipping class"))
	set("_download_limit", h.get(rec, "download limit"))
	set("_download_expiry", h.get(rec, "download expiry days"))
	set("_global_unique_id", h.get(rec, "gtin, upc, ean, or isbn"))
	if v := h.get(rec, "allow customer reviews?"); v != "" {
		ok, err := parseBool(v)
		if err != nil {
			return fmt.Errorf("Allow customer reviews? %v", err)
		}
		meta["_reviews_allowed"] = yesNo(ok)
	}
	for _, m := range h.meta {
		set(m.key, cell(rec, m.idx))
	}

	if v, ok := meta["_pre_order"]; ok {
		b, err := parseBool(v)
		if err != nil {
			return fmt.Errorf("meta _pre_order %v", err)
		}
		p.PreOrder = b
	}
	if v, ok := meta["_pre_order_date"]; ok {
		t, _, err := parseDate(v)
		if err != nil {
			return fmt.Errorf("meta _pre_order_date %v", err)
		}
		p.PreOrderAt = &t
	}
	p.PreOrderLabel = meta["_pre_order_label"]
	for _, q := range []struct {
		key string
		dst *int64
	}{{"_min_qty", &p.MinQty}, {"_max_qty", &p.MaxQty}, {"_step", &p.Step}} {
		v, ok := meta[q.key]
		if !ok {
			continue
		}
		n, err := parseInt(v)
		if err != nil || n < 0 {
			return fmt.Errorf("meta %s %q is not a whole number of 0 or more", q.key, v)
		}
		*q.dst = n
	}
	if len(meta) > 0 {
		p.Meta = meta
	}
	return nil
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
