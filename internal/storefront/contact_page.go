package storefront

import (
	"context"
	"net/http"

	"vitrine/internal/pages"
)

// Contact serves the contact page (/contact/). It is the same for every
// visitor, so it goes through servePage and is cached for guests under its
// path alone: query strings neither reach the page nor multiply cache
// entries. With scripts the form posts to the CF7 feedback route; without
// them (or when a script failed before it took the submit) the browser
// posts the form itself to /contact/. Both are internal/contactapi's.
func (f *Storefront) Contact(w http.ResponseWriter, r *http.Request) {
	f.servePage(w, r, pages.ContactPath, func(ctx context.Context, u string) (*pages.Result, error) {
		return f.d.Loader.Contact(ctx, u)
	})
}
