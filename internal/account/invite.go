package account

import (
	"context"
	"errors"
	"time"
)

// Invitations: a customer moved in from the old shop without a password
// (no WordPress hash imported, none set here) gets one mail with a
// lost-password link that lives InviteLifetime, saying why: the shop
// moved. The link is an ordinary reset link (password_resets, the same
// page, single use); only its lifetime and its mail differ.

// Defaults of InviteMovedIn.
const (
	// InviteLifetime is how long an invitation's link works.
	InviteLifetime = 14 * 24 * time.Hour
	// InvitesPerMinute spreads the mails so the shop's mail provider is
	// not flooded: one every two seconds.
	InvitesPerMinute = 30
)

// InviteOptions are InviteMovedIn's.
type InviteOptions struct {
	// PerMinute is how many invitation mails go out a minute at most
	// (their due times are spread); 0 is InvitesPerMinute.
	PerMinute int
	// Again invites also the customers invited before who still have no
	// password, with a new link (the earlier one stops working).
	Again bool
	// DryRun lists who would be invited and changes nothing.
	DryRun bool
	// Lifetime of the links; 0 is InviteLifetime.
	Lifetime time.Duration
}

// Invitee is a customer invited (or, in a dry run, who would be).
type Invitee struct {
	UserID int64
	Email  string
	// DueAt is when the mail goes out (the outbox sends it then).
	DueAt time.Time
	// Again: invited before (InviteOptions.Again).
	Again bool
}

// InviteResult is what InviteMovedIn did.
type InviteResult struct {
	Invited []Invitee
	// AlreadyInvited were invited before and not again (no Again);
	// HavePassword have a password (a WordPress hash or one of their
	// own) and are not invited; Raced changed while being invited.
	AlreadyInvited, HavePassword, Raced int
}

// ErrNoSealer: links cannot be mailed without the shop's sealing key.
var ErrNoSealer = errors.New("account: no sealer: invitation links cannot be mailed")

// InviteMovedIn queues a "set your password for our new shop" mail to
// each customer moved in from the old shop who has no password yet and
// was not invited before (with o.Again: also those invited before). Each
// mail carries a single-use lost-password link valid o.Lifetime; the
// mails are due one after the other, o.PerMinute a minute, after any
// invitation still due from an earlier run. A re-run invites nobody
// twice.
func (s *Service) InviteMovedIn(ctx context.Context, o InviteOptions) (*InviteResult, error) {
	if !o.DryRun && s.Sealer == nil {
		return nil, ErrNoSealer
	}
	if o.PerMinute < 0 || o.Lifetime < 0 {
		return nil, &InputError{Field: "per_minute", Message: "The rate and the lifetime cannot be negative."}
	}
	perMinute, lifetime := or(o.PerMinute, InvitesPerMinute), or(o.Lifetime, InviteLifetime)
	moved, err := s.Store.MovedInCustomers(ctx)
	if err != nil {
		return nil, err
	}
	now := s.now().Truncate(time.Second)
	// After the last mail still due from an earlier run, so two runs do
	// not send twice the rate.
	next := now
	for _, m := range moved {
		if m.InviteDueAt.After(next) {
			next = m.InviteDueAt.Add(spacing(perMinute, 1))
		}
	}
	res := &InviteResult{}
	n := 0
	for _, m := range moved {
		switch {
		case !HasNoPassword(m.PasswordHash):
			res.HavePassword++
			continue
		case !m.InvitedAt.IsZero() && !o.Again:
			res.AlreadyInvited++
			continue
		}
		inv := Invitee{UserID: m.UserID, Email: m.Email, DueAt: next.Add(spacing(perMinute, n)), Again: !m.InvitedAt.IsZero()}
		if !o.DryRun {
			token, hash := newToken()
			err := s.Store.InsertInvitation(ctx, m.UserID, &Invitation{
				Reset: PasswordReset{TokenHash: hash, UserID: m.UserID, CreatedAt: now, ExpiresAt: now.Add(lifetime),
					Sealed: s.Sealer.SealToken(token, hash)},
				DueAt: inv.DueAt, Replaces: m.InviteHash, PasswordHash: m.PasswordHash})
			if errors.Is(err, ErrInvitationRaced) {
				res.Raced++
				continue
			}
			if err != nil {
				return res, err
			}
		}
		n++
		res.Invited = append(res.Invited, inv)
	}
	if !o.DryRun {
		s.log().Info("account: moved-in customers invited", "invited", len(res.Invited), "already", res.AlreadyInvited,
			"have_password", res.HavePassword, "raced", res.Raced)
	}
	return res, nil
}

// spacing is when the n-th mail of a run is due after the first, at
// perMinute a minute (whole seconds: the outbox's clock).
func spacing(perMinute, n int) time.Duration {
	return time.Duration(n*60/perMinute) * time.Second
}
