package wcimport

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"vitrine/internal/account"
	"vitrine/internal/checkout"
	"vitrine/internal/contentpage"
	"vitrine/internal/money"
	"vitrine/internal/review"
	"vitrine/internal/settings"
)

type wcReview struct {
	ID             int64  `json:"id"`
	DateCreatedGMT string `json:"date_created_gmt"`
	ProductID      int64  `json:"product_id"`
	Status         string `json:"status"`
	Reviewer       string `json:"reviewer"`
	ReviewerEmail  string `json:"reviewer_email"`
	Review         string `json:"review"`
	Rating         int    `json:"rating"`
	Verified       bool   `json:"verified"`
}

var reviewStatuses = []string{review.StatusApproved, review.StatusHold, review.StatusSpam, review.StatusTrash}

// importReview moves a review in with its status, rating and verified
// flag; the product's rating figures are recomputed with it. A reply
// already moved in stays (replies are their own resource).
func importReview(ctx context.Context, r *Run, raw json.RawMessage) (Outcome, error) {
	var w wcReview
	if err := json.Unmarshal(raw, &w); err != nil || w.ID <= 0 {
		return Refused, refuse("", "not a review record")
	}
	name := fmt.Sprintf("review %d by %s", w.ID, strings.TrimSpace(w.Reviewer))
	prev, unchanged, err := r.seen(ctx, "review", w.ID, raw)
	if err != nil {
		return 0, err
	}
	if unchanged {
		return Unchanged, nil
	}
	if !slices.Contains(reviewStatuses, w.Status) {
		return Refused, refuse(name, fmt.Sprintf("status %q is not one of approved, hold, spam and trash", w.Status))
	}
	if w.Rating < 0 || w.Rating > 5 {
		return Refused, refuse(name, fmt.Sprintf("rating %d is not between 0 and 5", w.Rating))
	}
	product, err := r.newID(ctx, "product", w.ProductID)
	if err != nil {
		return 0, err
	}
	if product == 0 {
		return Refused, refuse(name, fmt.Sprintf("product %d was not moved in", w.ProductID))
	}
	at, err := wcTime(w.DateCreatedGMT)
	if err != nil {
		return Refused, refuse(name, "date_created_gmt: "+err.Error())
	}
	rv := &review.Review{ID: prev, ProductID: product, Author: strings.TrimSpace(w.Reviewer), Email: strings.ToLower(strings.TrimSpace(w.ReviewerEmail)),
		Rating: w.Rating, Content: plainText(w.Review), Status: w.Status, Verified: w.Verified, CreatedAt: at}
	if r.dry {
		return outcome(prev), r.remember(ctx, "review", w.ID, prev, "", raw)
	}
	if prev != 0 {
		was, err := r.deps.History.Reviews.ReviewByID(ctx, prev)
		switch {
		case errors.Is(err, review.ErrReviewNotFound):
			rv.ID = 0 // deleted here since: moved in again
		case err != nil:
			return 0, err
		default:
			rv.UserID, rv.Reply = was.UserID, was.Reply
		}
	}
	if rv.UserID == 0 && rv.Email != "" { // the reviewer's account, when one has the email
		found, _, err := r.deps.History.Customers.Customers(ctx, account.CustomerQuery{Email: rv.Email, Role: account.RoleAll, Limit: 1})
		if err != nil {
			return 0, err
		}
		if len(found) > 0 {
			rv.UserID = found[0].ID
		}
	}
	if err := r.deps.History.Reviews.ImportReview(ctx, rv); err != nil {
		if errors.Is(err, review.ErrDuplicate) {
			return Refused, refuse(name, "the product has a review from "+rv.Email+" here already (one a product per email)")
		}
		return 0, err
	}
	out := Created
	if prev != 0 && rv.ID == prev {
		out = Updated
	}
	return out, r.remember(ctx, "review", w.ID, rv.ID, "", raw)
}

type wpComment struct {
	ID         int64  `json:"id"`
	Post       int64  `json:"post"`
	Parent     int64  `json:"parent"`
	AuthorName string `json:"author_name"`
	DateGMT    string `json:"date_gmt"`
	Status     string `json:"status"`
	Content    struct {
		Rendered string `json:"rendered"`
	} `json:"content"`
}

// importReviewReply moves a staff reply to a review in as the review's
// reply. This shop keeps one reply a review: the latest one written.
func importReviewReply(ctx context.Context, r *Run, raw json.RawMessage) (Outcome, error) {
	var c wpComment
	if err := json.Unmarshal(raw, &c); err != nil || c.ID <= 0 {
		return Refused, refuse("", "not a comment record")
	}
	name := fmt.Sprintf("reply %d by %s", c.ID, c.AuthorName)
	if c.Parent == 0 {
		return Refused, refuse(name, "not a reply")
	}
	id, err := r.newID(ctx, "review", c.Parent)
	if err != nil {
		return 0, err
	}
	if id == 0 {
		return Refused, refuse(name, fmt.Sprintf("a reply to comment %d, which is not a review moved in", c.Parent))
	}
	if c.Status != "" && c.Status != "approved" {
		return Refused, refuse(name, "the reply is "+c.Status+" in the old shop")
	}
	at, err := wcTime(c.DateGMT)
	if err != nil {
		return Refused, refuse(name, "date_gmt: "+err.Error())
	}
	reply := review.Reply{Text: plainText(c.Content.Rendered), Author: strings.TrimSpace(c.AuthorName), At: at}
	if reply.Text == "" {
		return Refused, refuse(name, "the reply is empty")
	}
	if r.dry || id < 0 {
		return Created, nil
	}
	rv, err := r.deps.History.Reviews.ReviewByID(ctx, id)
	if err != nil {
		return 0, err
	}
	switch {
	case rv.Reply.Text == reply.Text && rv.Reply.Author == reply.Author && rv.Reply.At.Equal(reply.At):
		return Unchanged, nil
	case rv.Reply.Text != "" && rv.Reply.At.After(reply.At):
		return Refused, refuse(name, "the review has a later reply; a review here keeps one reply")
	}
	out := Created
	if rv.Reply.Text != "" {
		out = Updated
	}
	rv.Reply = reply
	if err := r.deps.History.Reviews.ImportReview(ctx, rv); err != nil {
		return 0, err
	}
	return out, nil
}

type wpPage struct {
	ID     int64  `json:"id"`
	Slug   string `json:"slug"`
	Status string `json:"status"`
	Parent int64  `json:"parent"`
	Link   string `json:"link"`
	Title  struct {
		Rendered string `json:"rendered"`
	} `json:"title"`
	Content struct {
		Rendered string `json:"rendered"`
	} `json:"content"`
}

// importPage moves a page in as a content page at /slug/ (published, or
// a draft when it was not public); its old path is kept so the old link
// resolves. WooCommerce's own pages (shop, cart, checkout, my account) are
// this shop's built-in pages and are refused by name.
func importPage(ctx context.Context, r *Run, raw json.RawMessage) (Outcome, error) {
	var p wpPage
	if err := json.Unmarshal(raw, &p); err != nil || p.ID <= 0 {
		return Refused, refuse("", "not a page record")
	}
	name := cmp.Or(p.Slug, unescape(p.Title.Rendered))
	prev, unchanged, err := r.seen(ctx, "page", p.ID, raw)
	if err != nil {
		return 0, err
	}
	if unchanged {
		return Unchanged, nil
	}
	if contentpage.Reserved(p.Slug) {
		return Refused, refuse(name, "/"+p.Slug+"/ is one of this shop's own pages")
	}
	status := contentpage.Draft
	switch p.Status {
	case "publish":
		status = contentpage.Published
	case "draft", "pending", "private", "future":
	default:
		return Refused, refuse(name, "the page is "+p.Status+" in the old shop")
	}
	var oldPath string
	if u, err := url.Parse(p.Link); err == nil && u.Path != "" && u.RawQuery == "" {
		oldPath = u.Path
	}
	in := contentpage.Input{Slug: p.Slug, Title: unescape(p.Title.Rendered), Body: p.Content.Rendered, Status: status}
	if r.dry {
		return outcome(prev), r.remember(ctx, "page", p.ID, prev, oldPath, raw)
	}
	// Pages here are flat (/slug/): two old pages with one slug under
	// different parents would be one page. The first moved in keeps it.
	if have, err := r.deps.History.Pages.Get(ctx, p.Slug); err == nil {
		ids, err := r.deps.Legacy.LegacyIDs(ctx, "page")
		if err != nil {
			return 0, err
		}
		for old, id := range ids {
			if id == have.ID && old != p.ID {
				return Refused, refuse(name, fmt.Sprintf("page %d moved in as /%s/ already (pages here are not nested)", old, p.Slug))
			}
		}
	} else if !errors.Is(err, contentpage.ErrNotFound) {
		return 0, err
	}
	saved, err := r.deps.History.Pages.Set(ctx, in)
	if err != nil {
		return 0, refusalOf(name, err)
	}
	return outcome(prev), r.remember(ctx, "page", p.ID, saved.ID, oldPath, raw)
}

type wcSetting struct {
	ID    string `json:"id"`
	Value any    `json:"value"`
}

// importSetting maps one option of the settings' general and tax groups
// onto this shop's settings. An option this shop has no setting for is
// Unchanged when its value is this shop's behaviour and refused, by name,
// when it is not.
func importSetting(ctx context.Context, r *Run, raw json.RawMessage) (Outcome, error) {
	var s wcSetting
	if err := json.Unmarshal(raw, &s); err != nil || s.ID == "" {
		return Refused, refuse("", "not a setting record")
	}
	v := strings.TrimSpace(metaText(s.Value))
	d := r.deps.History
	shopText := func(get func(*settings.Shop) *string) (Outcome, error) {
		cur := d.Settings.Current().Shop
		if *get(&cur) == v {
			return Unchanged, nil
		}
		if r.dry {
			return Updated, nil
		}
		_, err := d.Settings.Edit(ctx, func(sh *settings.Shop) error { *get(sh) = v; return nil })
		if err != nil {
			return 0, refusalOf(s.ID, err)
		}
		return Updated, nil
	}
	cur := d.Currency
	fixed := map[string]string{ // options whose value is this shop's behaviour
		"woocommerce_allowed_countries":            "all",
		"woocommerce_all_except_countries":         "",
		"woocommerce_specific_allowed_countries":   "",
		"woocommerce_ship_to_countries":            "",
		"woocommerce_specific_ship_to_countries":   "",
		"woocommerce_default_customer_address":     "base",
		"woocommerce_address_autocomplete_enabled": "no",
		"woocommerce_enable_coupons":               "yes",
		"woocommerce_calc_discounts_sequentially":  "no",
		"woocommerce_currency":                     cur.Code,
		"woocommerce_price_thousand_sep":           cur.ThousandSeparator,
		"woocommerce_price_decimal_sep":            cur.DecimalSeparator,
		"woocommerce_price_num_decimals":           fmt.Sprint(cur.MinorUnit),
		"woocommerce_currency_pos":                 currencyPos(cur),
		"woocommerce_tax_based_on":                 "shipping",
		"woocommerce_shipping_tax_class":           "inherit",
		"woocommerce_tax_round_at_subtotal":        "no",
		"woocommerce_tax_display_shop":             "excl",
		"woocommerce_tax_display_cart":             "excl",
		"woocommerce_tax_total_display":            "itemized",
	}
	switch s.ID {
	case "woocommerce_store_address":
		return shopText(func(sh *settings.Shop) *string { return &sh.Address.Line1 })
	case "woocommerce_store_address_2":
		return shopText(func(sh *settings.Shop) *string { return &sh.Address.Line2 })
	case "woocommerce_store_city":
		return shopText(func(sh *settings.Shop) *string { return &sh.Address.City })
	case "woocommerce_store_postcode":
		return shopText(func(sh *settings.Shop) *string { return &sh.Address.Postcode })
	case "woocommerce_default_country":
		country, state, _ := strings.Cut(strings.ToUpper(v), ":")
		c, ok := checkout.LookupCountry(country)
		if !ok || (state != "" && !slices.ContainsFunc(c.States, func(st checkout.State) bool { return st.Code == state })) {
			return Refused, refuse(s.ID, fmt.Sprintf("%q is not a country (and state) this shop knows", v))
		}
		a := d.Settings.Current().Address
		if a.Country == country && a.State == state {
			return Unchanged, nil
		}
		if r.dry {
			return Updated, nil
		}
		if _, err := d.Settings.Edit(ctx, func(sh *settings.Shop) error {
			sh.Address.Country, sh.Address.State = country, state
			return nil
		}); err != nil {
			return 0, refusalOf(s.ID, err)
		}
		return Updated, nil
	case "woocommerce_prices_include_tax":
		if v != "yes" && v != "no" {
			return Refused, refuse(s.ID, fmt.Sprintf("%q is not yes or no", v))
		}
		if d.Rules.Current().Value.PricesIncludeTax == (v == "yes") {
			return Unchanged, nil
		}
		if r.dry {
			return Updated, nil
		}
		if _, err := d.Rules.Edit(ctx, func(ru *checkout.Rules) error { ru.PricesIncludeTax = v == "yes"; return nil }); err != nil {
			return 0, refusalOf(s.ID, err)
		}
		return Updated, nil
	case "woocommerce_calc_taxes":
		has := len(d.Rules.Current().Value.TaxRates) > 0
		if (v == "yes") == has {
			return Unchanged, nil
		}
		if v == "yes" {
			return Refused, refuse(s.ID, "the old shop calculates taxes; none of its rates could move here (see the taxes refused): add them in Shipping and tax")
		}
		return Refused, refuse(s.ID, "the old shop calculates no taxes; this shop has tax rates (remove them in Shipping and tax to match)")
	}
	if want, ok := fixed[s.ID]; ok {
		if v == want || (want == "" && (v == "[]" || v == "")) {
			return Unchanged, nil
		}
		if s.ID == "woocommerce_currency" {
			return Refused, refuse(s.ID, fmt.Sprintf("the old shop sells in %s; this shop's base currency is %s (start it with --currency %s before moving orders in)", v, want, v))
		}
		return Refused, refuse(s.ID, fmt.Sprintf("this shop has no setting for it: it works as %q, the old shop had %q", want, v))
	}
	return Refused, refuse(s.ID, fmt.Sprintf("this shop has no setting for it (the old shop had %q)", v))
}

// currencyPos is where the currency's symbol goes, in WooCommerce's terms.
func currencyPos(c money.Currency) string {
	switch {
	case c.Prefix != "" && strings.HasSuffix(c.Prefix, " "):
		return "left_space"
	case c.Prefix != "":
		return "left"
	case strings.HasPrefix(c.Suffix, " "), strings.HasPrefix(c.Suffix, "\u00a0"):
		return "right_space"
	default:
		return "right"
	}
}
