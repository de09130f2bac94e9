package pages

import (
	"context"
	"strconv"
)

// User is settings.user: who is looking at the page, as far as the page
// shows it. Cached pages are shared by every visitor, so they carry only
// the constant visitor value (Visitor); the server renders a logged-in
// viewer's pages per request, with their own value in the context
// (WithUser), and never caches them.
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
