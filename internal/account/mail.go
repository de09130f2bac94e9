package account

import (
	"context"
	"errors"
	"strconv"
	"time"
)

// The account mails. The store queues them in the outbox in the
// transaction of the change they report; the outbox renders them at send
// time through MailContent. A link's token is stored only as its hash for
// lookups, so the row also keeps it sealed (Sealer.SealToken) for the renderer;
// the seal is blanked when the link is used.

// Outbox kinds of the account mails.
const (
	// MailPasswordReset is the lost-password link; ref: the link's hash.
	MailPasswordReset = "account_password_reset"
	// MailVerifyEmail is the email verification link; ref: the link's hash.
	MailVerifyEmail = "account_verify_email"
	// MailPasswordChanged tells the owner the password changed; ref: the
	// notice id.
	MailPasswordChanged = "account_password_changed"
	// MailEmailChanged tells the old address the email changed; ref: the
	// notice id.
	MailEmailChanged = "account_email_changed"
	// MailRegisterAttempt tells the owner of an email that someone tried
	// to register it again (registration answers the same for new and
	// taken emails, so the owner learns it by mail); ref: the notice id.
	MailRegisterAttempt = "account_register_attempt"
	// MailInvitation invites a customer moved in from the old shop to set
	// a password (invite.go); ref: its reset link's hash.
	MailInvitation = "account_invitation"
)

// MailKinds lists the kinds above (the outbox routes them to one renderer).
var MailKinds = []string{MailPasswordReset, MailVerifyEmail, MailPasswordChanged, MailEmailChanged, MailRegisterAttempt, MailInvitation}

// Request limits of the mailed links, per hour.
const (
	ResetLimitPerAddress = 5
	ResetLimitPerAccount = 3
	VerifyLimitPerUser   = 5
	LinkLimitWindow      = time.Hour
	// RegisterLimitPerAddress registrations an hour from one client
	// address (IPv6: one /64), counted whatever their outcome.
	RegisterLimitPerAddress = 5
)

// EmailVerification is a stored email verification link.
type EmailVerification struct {
	TokenHash string
	UserID    int64
	Email     string // the address the link was sent to
	CreatedAt time.Time
	ExpiresAt time.Time
	UsedAt    time.Time // zero: unused
	// Sealed is the token sealed for the mail ("" once used, or when no
	// mail is queued); a row inserted with it set queues MailVerifyEmail.
	Sealed string
}

// Notice is a queued account notice (MailPasswordChanged,
// MailEmailChanged) with the address captured when it was queued.
type Notice struct {
	ID        int64
	UserID    int64
	Kind      string
	Email     string // where it goes
	NewEmail  string // MailEmailChanged: the address the account moved to
	CreatedAt time.Time
}

// MailContent is what an account mail shows.
type MailContent struct {
	User *User
	To   string
	// Token is the link's token (MailPasswordReset, MailVerifyEmail,
	// MailInvitation), and ExpiresAt the link's end.
	Token     string
	ExpiresAt time.Time
	// NewEmail is the account's new address (MailEmailChanged).
	NewEmail string
}

// ErrMailVoid: the mail can no longer be sent (the link was used or
// expired, the email changed, the account is gone, the seal does not
// open). The outbox gives it up.
var ErrMailVoid = errors.New("account: this mail is void")

// MailContent loads an outbox row's mail at send time. A link already
// used, expired, sent to an address the account no longer has, or sealed
// under another secret is ErrMailVoid: a dead link is never mailed; so is
// an invitation to an account that has a password by now.
func (s *Service) MailContent(ctx context.Context, kind, ref string) (*MailContent, error) {
	now := s.now()
	var userID int64
	c := &MailContent{}
	switch kind {
	case MailPasswordReset, MailVerifyEmail, MailInvitation:
		var sealed, to string
		var expires, used time.Time
		if kind != MailVerifyEmail {
			r, err := s.Store.Reset(ctx, ref)
			if err != nil {
				return nil, voidIfGone(err)
			}
			userID, sealed, expires, used = r.UserID, r.Sealed, r.ExpiresAt, r.UsedAt
		} else {
			v, err := s.Store.EmailVerification(ctx, ref)
			if err != nil {
				return nil, voidIfGone(err)
			}
			userID, sealed, expires, used, to = v.UserID, v.Sealed, v.ExpiresAt, v.UsedAt, v.Email
		}
		if sealed == "" || !used.IsZero() || !now.Before(expires) || s.Sealer == nil {
			return nil, ErrMailVoid
		}
		tok, err := s.Sealer.OpenToken(sealed, ref)
		if err != nil || HashToken(tok) != ref {
			return nil, ErrMailVoid
		}
		c.Token, c.To, c.ExpiresAt = tok, to, expires
	case MailPasswordChanged, MailEmailChanged, MailRegisterAttempt:
		id, err := strconv.ParseInt(ref, 10, 64)
		if err != nil {
			return nil, ErrMailVoid
		}
		n, err := s.Store.Notice(ctx, id)
		if err != nil {
			return nil, voidIfGone(err)
		}
		if n.Kind != kind {
			return nil, ErrMailVoid
		}
		userID, c.To, c.NewEmail = n.UserID, n.Email, n.NewEmail
	default:
		return nil, ErrMailVoid
	}
	u, err := s.Store.UserByID(ctx, userID)
	if err != nil {
		return nil, voidIfGone(err)
	}
	c.User = u
	if c.To == "" {
		c.To = u.Email
	}
	if kind == MailVerifyEmail && c.To != u.Email {
		return nil, ErrMailVoid // the email changed since: the link is void
	}
	if kind == MailInvitation && !HasNoPassword(u.PasswordHash) {
		return nil, ErrMailVoid // a password arrived since (imported, or set)
	}
	return c, nil
}

// ErrNoRow is what the mail lookups answer for a row that is not there.
var ErrNoRow = errors.New("account: no such row")

func voidIfGone(err error) error {
	if errors.Is(err, ErrNoRow) || errors.Is(err, ErrNoUser) {
		return ErrMailVoid
	}
	return err
}

// CheckReset reports whether a lost-password token is live (unused and
// unexpired), without using it: the reset form is shown only for one.
func (s *Service) CheckReset(ctx context.Context, token string) (*User, error) {
	if token == "" {
		return nil, ErrResetInvalid
	}
	r, err := s.Store.Reset(ctx, HashToken(token))
	if errors.Is(err, ErrNoRow) {
		return nil, ErrResetInvalid
	}
	if err != nil {
		return nil, err
	}
	if !r.UsedAt.IsZero() || !s.now().Before(r.ExpiresAt) {
		return nil, ErrResetInvalid
	}
	return s.Store.UserByID(ctx, r.UserID)
}
