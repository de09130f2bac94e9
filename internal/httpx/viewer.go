package httpx

import (
	"context"
	"net/http"

	"vitrine/internal/account"
)

// Viewer is the logged-in user of a request.
type Viewer struct {
	User  *account.User
	Token string // the session token from the login cookie
	// APIKey: the request acts as User through a REST API key (no
	// session, no nonce), as WooCommerce's clients call the REST API.
	APIKey bool
}

type viewerKey struct{}

// WithViewer is r carrying v as its viewer; a nil v makes the request a
// visitor's whatever its cookies say.
func WithViewer(r *http.Request, v *Viewer) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), viewerKey{}, v))
}

// ViewerOf is the request's logged-in user and session, nil for a visitor.
func ViewerOf(r *http.Request) *Viewer {
	v, _ := r.Context().Value(viewerKey{}).(*Viewer)
	return v
}

// UserOf is the request's logged-in user, nil for a visitor.
func UserOf(r *http.Request) *account.User {
	if v := ViewerOf(r); v != nil {
		return v.User
	}
	return nil
}
