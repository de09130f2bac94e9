package mail

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// AccountView is what an account mail shows, already resolved by the
// accounts capability (the link built, the addresses chosen).
type AccountView struct {
	ShopName string
	// To is the recipient.
	To string
	// Name greets the customer ("Hi Ada,").
	Name string
	// Login names the account (its username, or its email).
	Login string
	// Link is the lost-password or verification link; Lifetime says how
	// long it works ("1 hour"); Expires, when set, the date it ends
	// ("December 13, 2026", the invitation).
	Link     string
	Lifetime string
	Expires  string
	// NewEmail is the address an account moved to (the email-change notice).
	NewEmail string
	// LostPasswordURL is where to start a reset (the change notices: "if
	// this was not you").
	LostPasswordURL string
	// LoginURL is the account page (the registration-attempt notice: "log
	// in").
	LoginURL string
	// TwoFactor: the account has two-factor authentication on (the reset
	// mail says it stays on, and how to log in without the app).
	TwoFactor bool
}

// Account mail kinds (the same strings as account.Mail*: the accounts
// capability queues them).
const (
	KindAccountPasswordReset   = "account_password_reset"
	KindAccountVerifyEmail     = "account_verify_email"
	KindAccountPasswordChanged = "account_password_changed"
	KindAccountEmailChanged    = "account_email_changed"
	KindAccountRegisterAttempt = "account_register_attempt"
	// KindAccountInvitation invites a customer moved in from the shop's
	// old site to set a password here.
	KindAccountInvitation = "account_invitation"
)

// AccountLoader returns the view of an account mail; an error wrapping
// ErrNotFound when it can no longer be sent (the link was used or expired,
// the account is gone): the row is given up.
type AccountLoader func(ctx context.Context, kind, ref string) (AccountView, error)

// AccountRenderer is the Renderer of the account mails.
func AccountRenderer(load AccountLoader) Renderer {
	return func(ctx context.Context, kind, ref string) (Message, error) {
		if _, ok := accountSubjects[kind]; !ok {
			return Message{}, Permanent(fmt.Errorf("mail: unknown kind %q", kind))
		}
		v, err := load(ctx, kind, ref)
		if err != nil {
			if isNotFound(err) {
				return Message{}, Permanent(fmt.Errorf("mail: %s: %w", kind, err))
			}
			return Message{}, fmt.Errorf("mail: %s: %w", kind, err)
		}
		return AccountMessage(kind, v)
	}
}

var accountSubjects = map[string][2]string{ // subject format, heading
	KindAccountPasswordReset:   {"Password Reset Request for %s", "Password Reset Request"},
	KindAccountVerifyEmail:     {"Confirm your email address for %s", "Confirm your email address"},
	KindAccountPasswordChanged: {"[%s] Password Changed", "Your password was changed"},
	KindAccountEmailChanged:    {"[%s] Email Changed", "Your email address was changed"},
	KindAccountRegisterAttempt: {"[%s] Someone tried to register with your email address", "You already have an account"},
	KindAccountInvitation:      {"%s has moved: set your password", "Our shop has moved"},
}

type accountPage struct {
	AccountView
	Subject    string
	Heading    string
	TestNotice string // the layout's; never set for account mails
}

// AccountMessage renders an account mail of kind to v.To.
func AccountMessage(kind string, v AccountView) (Message, error) {
	sh, ok := accountSubjects[kind]
	if !ok {
		return Message{}, Permanent(fmt.Errorf("mail: unknown kind %q", kind))
	}
	p := accountPage{AccountView: v, Subject: oneLine(fmt.Sprintf(sh[0], v.ShopName)), Heading: sh[1]}
	return templates[kind].render(kind, p, p.Subject, v.To)
}

func isNotFound(err error) bool { return errors.Is(err, ErrNotFound) }

// LoginLabel names what Login is, so a mail shows what logs in: "Username"
// for an account's username, "Email address" for an account without one
// (it logs in with its email; the name the shop greets it by does not log
// in). Usernames never hold '@' (account.ValidateUsername).
func (v AccountView) LoginLabel() string {
	if strings.Contains(v.Login, "@") {
		return "Email address"
	}
	return "Username"
}
