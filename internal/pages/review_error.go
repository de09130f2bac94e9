package pages

import "context"

// ReviewErrorPage is WordPress's "Comment Submission Failure" page in the
// shop frame: a review posted without scripts and refused (the review
// form's POST to /wp-comments-post.php). Rendered for one request, never
// cached.
type ReviewErrorPage struct {
	Base
	Title   string `json:"title"`
	Message string `json:"message"` // plain text
	// Field is the refused field (rating, comment, author, email) or "".
	Field string `json:"field"`
	// Back is the product page's reviews ("" when the product is unknown).
	Back string `json:"back"`
}

// ReviewError loads the refusal page of a review post.
func (l *Loader) ReviewError(ctx context.Context, reqURL string, status int, message, field, back string) (*Result, error) {
	e, err := l.setup(ctx, "review-error", reqURL)
	if err != nil {
		return nil, err
	}
	const title = "Comment Submission Failure"
	h := l.head(l.title(title), "", "")
	h.Canonical = ""
	h.Robots = "noindex, follow"
	return &Result{Status: status, Data: ReviewErrorPage{Base: e.base, Title: title, Message: message, Field: field, Back: back}, Head: h}, nil
}
