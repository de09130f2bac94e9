package pages

import (
	"context"
	"strconv"

	"vitrine/internal/review"
)

// User is settings.user: who is looking at the page, as far as the page
// shows it. Cached pages are shared by every viewer, so they carry only
// the constant visitor value (Visitor); a logged-in viewer's own value
// comes in their part of the page (ViewerPart), added as the page is sent.
// Pages rendered for one viewer alone (my account, checkout) load with it
// in the context (WithUser).
type User struct {
	LoggedIn bool `json:"logged_in"`
	// CanEditPages is the spec's user.can_edit_pages: shop managers and
	// administrators see the content blocks' edit links.
	CanEditPages bool `json:"can_edit_pages"`
	// The rest is only for a logged-in viewer.
	ID          int64  `json:"id,omitempty"`
	DisplayName string `json:"display_name,omitempty"`
	// LogoutURL is the header's log-out link, with its nonce.
	LogoutURL string `json:"logout_url,omitempty"`
	// RESTNonce is the viewer's wp_rest nonce: the X-WP-Nonce header of
	// their REST calls.
	RESTNonce string `json:"rest_nonce,omitempty"`
	// ComingSoonBanner, when set, shows the coming-soon footer banner
	// (staff only, while the shop is in coming-soon mode, until dismissed).
	ComingSoonBanner *ComingSoonBanner `json:"coming_soon_banner,omitempty"`
}

// ComingSoonBanner is what the footer banner's dismiss link carries.
type ComingSoonBanner struct {
	RESTURL   string `json:"rest_url"`   // /wp-json/wp/v2/users/<id>
	RESTNonce string `json:"rest_nonce"` // a wp_rest nonce
}

// Visitor is settings.user for everyone not logged in.
var Visitor = User{}

type userKey struct{}

// WithUser makes the pages loaded with ctx show u as their viewer. Only
// per-request (never cached) loads may carry it.
func WithUser(ctx context.Context, u User) context.Context {
	return context.WithValue(ctx, userKey{}, u)
}

// WithoutUser is ctx with the visitor as viewer, for loads whose result is
// shared (the page cache).
func WithoutUser(ctx context.Context) context.Context {
	if _, ok := ctx.Value(userKey{}).(User); !ok {
		return ctx
	}
	return context.WithValue(ctx, userKey{}, Visitor)
}

func userFrom(ctx context.Context) User {
	u, _ := ctx.Value(userKey{}).(User)
	return u
}

// EditLink is a content block's pair of edit links for staff (spec: "a
// visual builder link and a backend editor link"). Block names the block
// the app puts them on: "product" (the product summary) or "category"
// (the category description).
type EditLink struct {
	Block      string `json:"block"`
	Label      string `json:"label"` // "Edit <name>"
	BuilderURL string `json:"builder_url"`
	EditorURL  string `json:"editor_url"`
}

// The admin arrives with a later issue; its WordPress-shaped addresses
// already answer (a placeholder page for staff).
func productEditLink(id int64, name string) EditLink {
	base := "/wp-admin/post.php?post=" + strconv.FormatInt(id, 10) + "&action=edit"
	return EditLink{Block: "product", Label: "Edit " + name, BuilderURL: base + "&app=uxbuilder", EditorURL: base}
}

func categoryEditLink(id int64, name string) EditLink {
	base := "/wp-admin/term.php?taxonomy=product_cat&tag_ID=" + strconv.FormatInt(id, 10) + "&post_type=product"
	return EditLink{Block: "category", Label: "Edit " + name, BuilderURL: base + "&app=uxbuilder", EditorURL: base}
}

// Personal is what a shared page shows a logged-in viewer of their own,
// as the loader found it: the server keeps it with the cached page and
// builds each viewer's part from it when it sends the page (Part).
type Personal struct {
	// EditLinks are the page's content blocks' edit links, for staff.
	EditLinks []EditLink
	// ReviewsOf is the product page's product (0: not a product page):
	// its viewer sees their own reviews held for moderation.
	ReviewsOf int64
	// AskEligible: the page's review form is for verified owners only,
	// so the part says whether the viewer is one.
	AskEligible bool
}

// ViewerPart is one viewer's part of a shared page, sent with it as JSON
// (the app's lib/viewer.tsx): settings.user, and the page fields that are
// theirs, which the app merges into the page data once it has hydrated.
type ViewerPart struct {
	User User      `json:"user"`
	Page *PagePart `json:"page,omitempty"`
}

// PagePart is a viewer's page fields: objects are merged key by key into
// the page data, the rest replaced.
type PagePart struct {
	EditLinks      []EditLink      `json:"edit_links,omitempty"`
	PendingReviews []Review        `json:"pending_reviews,omitempty"`
	ReviewForm     *ReviewFormPart `json:"review_form,omitempty"`
}

// ReviewFormPart is the review form's field that depends on its viewer.
type ReviewFormPart struct {
	Eligible *bool `json:"eligible"`
}

// ViewerReviews answers what of a product's reviews is one account's:
// review.Service.
type ViewerReviews interface {
	ForAuthor(ctx context.Context, productID, userID int64, email string) ([]review.Review, error)
	MayReview(ctx context.Context, productID, userID int64) (bool, error)
}

// Part is viewer u's part of a page with p: their settings.user, the
// edit links for staff, and on a product page their held reviews and
// whether they may review (reviews may be nil: neither). A visitor's part
// is empty: their page is the shared one as it is.
func (p Personal) Part(ctx context.Context, u User, reviews ViewerReviews) (ViewerPart, error) {
	v := ViewerPart{User: u}
	if !u.LoggedIn {
		return v, nil
	}
	var pp PagePart
	if u.CanEditPages {
		pp.EditLinks = p.EditLinks
	}
	if p.ReviewsOf != 0 && reviews != nil {
		held, err := reviews.ForAuthor(ctx, p.ReviewsOf, u.ID, "")
		if err != nil {
			return v, err
		}
		for _, r := range held {
			pr := ReviewOf(r)
			pr.Pending = true
			pp.PendingReviews = append(pp.PendingReviews, pr)
		}
		if p.AskEligible {
			ok, err := reviews.MayReview(ctx, p.ReviewsOf, u.ID)
			if err != nil {
				return v, err
			}
			pp.ReviewForm = &ReviewFormPart{Eligible: &ok}
		}
	}
	if pp.EditLinks != nil || pp.PendingReviews != nil || pp.ReviewForm != nil {
		v.Page = &pp
	}
	return v, nil
}
