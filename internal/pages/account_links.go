package pages

import "context"

// The pages the account mails link to: lost password (request a link, set
// a new password) and email verification. Per visitor, never cached.

// Lost-password stages.
const (
	LostStageRequest = "request" // the "Username or email" form
	LostStageSent    = "sent"    // "If an account matches that email or username, we have sent a link …"
	LostStageReset   = "reset"   // the new-password form (a live link)
	LostStageDone    = "done"    // the password was reset
	LostStageInvalid = "invalid" // the link is unknown, used or expired
)

// LostPasswordPage is the lost-password page's data (page
// "account-lost-password").
type LostPasswordPage struct {
	Base
	Stage string `json:"stage"`
	// Nonce is the form's nonce: woocommerce-lost-password-nonce on
	// request, woocommerce-reset-password-nonce on reset.
	Nonce string `json:"nonce"`
	// Login is what was typed (request, re-shown after an error) or the
	// account the link resets (reset).
	Login string `json:"login"`
	// Error is a refusal to show; Field the input it is about ("" for the
	// form as a whole).
	Error string `json:"error,omitempty"`
	Field string `json:"field,omitempty"`
}

// Email verification outcomes.
const (
	VerifyOutcomePending  = "pending" // logged in, not verified: the resend form
	VerifyOutcomeVerified = "verified"
	VerifyOutcomeInvalid  = "invalid"
	VerifyOutcomeSent     = "sent"    // a new link was queued
	VerifyOutcomeLimited  = "limited" // too many links this hour
)

// VerifyEmailPage is the email verification page's data (page
// "account-verify-email").
type VerifyEmailPage struct {
	Base
	Outcome string `json:"outcome"`
	// LoggedIn: the page links to the account rather than to the login.
	LoggedIn bool `json:"logged_in"`
	// Nonce lets a logged-in customer ask for a new link from the page
	// (the resend form posts _wpnonce); "" for a visitor.
	Nonce string `json:"nonce,omitempty"`
	// Error is a refusal of the resend form.
	Error string `json:"error,omitempty"`
}

// LostPassword loads the lost-password page.
func (l *Loader) LostPassword(ctx context.Context, reqURL string, p LostPasswordPage, status int) (*Result, error) {
	e, err := l.setup(ctx, "account-lost-password", reqURL)
	if err != nil {
		return nil, err
	}
	title := "Lost password"
	if p.Stage == LostStageReset || p.Stage == LostStageDone {
		title = "Reset password"
	}
	h := l.privateHead(title, "/my-account/lost-password/", "Reset the password of your "+l.live().SiteName+" account.")
	p.Base = e.base
	return &Result{Status: or200(status), Head: h, Data: p}, nil
}

// VerifyEmail loads the email verification page.
func (l *Loader) VerifyEmail(ctx context.Context, reqURL string, p VerifyEmailPage, status int) (*Result, error) {
	e, err := l.setup(ctx, "account-verify-email", reqURL)
	if err != nil {
		return nil, err
	}
	h := l.privateHead("Verify your email address", "/my-account/verify-email/", "Verify the email address of your "+l.live().SiteName+" account.")
	p.Base = e.base
	return &Result{Status: or200(status), Head: h, Data: p}, nil
}

func or200(status int) int {
	if status == 0 {
		return 200
	}
	return status
}
