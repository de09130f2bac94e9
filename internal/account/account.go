// Package account is the accounts capability's core: users and their roles,
// passwords (argon2id), logging in with failure limits, server-side
// sessions, lost-password links, TOTP two-factor with recovery codes and
// remembered devices. It speaks no HTTP: cookies, the admin-ajax wire and
// the bot check belong to the adapters, which hand this package tokens and
// client addresses as strings.
package account

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"vitrine/internal/checkout"
)

// Roles.
const (
	RoleCustomer      = "customer"
	RoleShopManager   = "shop_manager"
	RoleAdministrator = "administrator"
)

// ValidRole reports whether r is one of the three roles.
func ValidRole(r string) bool {
	return r == RoleCustomer || r == RoleShopManager || r == RoleAdministrator
}

// User is an account. Email and Username are case-folded.
type User struct {
	ID              int64
	Email           string
	Username        string // "" when none
	DisplayName     string
	Role            string
	PasswordHash    string    `json:"-"` // argon2id PHC string, a WordPress hash or "no password yet" (wppass.go)
	EmailVerifiedAt time.Time // zero: not verified
	CreatedAt       time.Time
	TOTPSecret      string `json:"-"` // the active second factor; "" when off
	TOTPPending     string `json:"-"` // enrolled, awaiting ConfirmTOTP
	TOTPLastStep    int64  `json:"-"` // newest TOTP time step accepted
}

// TwoFactor reports whether the user has an active second factor.
func (u *User) TwoFactor() bool { return u.TOTPSecret != "" }

// CanEditPages is settings.user.can_edit_pages: staff see the content
// blocks' edit links.
func (u *User) CanEditPages() bool {
	return u.Role == RoleShopManager || u.Role == RoleAdministrator
}

// Session is a server-side login session. Its token is handed to the
// client once (CreateSession, RenewSession); the store keeps its SHA-256.
type Session struct {
	UserID     int64
	CreatedAt  time.Time
	LastSeenAt time.Time
	ExpiresAt  time.Time // absolute end; the idle end is LastSeenAt+Idle
}

// Device is a remembered device (the second factor skipped on it).
type Device struct {
	ID        int64
	Label     string
	CreatedAt time.Time
	ExpiresAt time.Time
}

// PasswordReset is a stored lost-password link.
type PasswordReset struct {
	TokenHash string
	UserID    int64
	CreatedAt time.Time
	ExpiresAt time.Time
	UsedAt    time.Time // zero: unused
	// Sealed is the token sealed for the mail ("" once used, or when no
	// mail is queued); a row inserted with it set queues MailPasswordReset.
	Sealed string
}

// RateHit is one failure counter (the checkout's shared rate_limits rows).
type RateHit = checkout.RateHit

// Store is what the account use cases read and write (sqlstore.DB
// implements it). Lookups of what is not there answer ErrNoUser or
// ErrNoSession; hashes are hex SHA-256 of the client's token.
type Store interface {
	// CreateUser inserts u and returns its id: ErrEmailTaken or
	// ErrUsernameTaken when another account holds either.
	CreateUser(ctx context.Context, u *User) (int64, error)
	UserByID(ctx context.Context, id int64) (*User, error)
	UserByEmail(ctx context.Context, email string) (*User, error)
	UserByUsername(ctx context.Context, username string) (*User, error)
	// SetPassword stores a new hash and, in the same transaction, ends the
	// user's sessions, forgets its remembered devices and queues n when
	// set (its Email "" takes the user's).
	SetPassword(ctx context.Context, userID int64, hash string, n *Notice) error
	// UpdatePasswordHash replaces the hash of the same password (new
	// parameters) when it is still oldHash; sessions are kept.
	UpdatePasswordHash(ctx context.Context, userID int64, oldHash, newHash string) error
	// SetEmail changes the email and clears its verification
	// (ErrEmailTaken when another account holds it) and queues n when set
	// (its Email "" takes the old address, NewEmail the new one).
	SetEmail(ctx context.Context, userID int64, email string, n *Notice) error
	// DeleteUser deletes the account and everything hanging off it; its
	// orders stay, as guest orders.
	DeleteUser(ctx context.Context, userID int64) error

	InsertSession(ctx context.Context, hash string, s *Session) error
	SessionByHash(ctx context.Context, hash string) (*Session, error)
	// TouchSession moves last_seen_at to now.
	TouchSession(ctx context.Context, hash string, now time.Time) error
	// ReplaceSession swaps oldHash for newHash (same user and absolute
	// end, seen now) in one transaction; ErrNoSession when oldHash is gone
	// or ended before now.
	ReplaceSession(ctx context.Context, oldHash, newHash string, now time.Time) (*Session, error)
	DeleteSession(ctx context.Context, hash string) error
	DeleteUserSessions(ctx context.Context, userID int64) error
	// DeleteExpiredSessions removes sessions past their absolute end or
	// idle since before idleBefore, and ended resets and devices.
	DeleteExpiredSessions(ctx context.Context, now, idleBefore time.Time) (int64, error)

	// InsertReset stores a link and, when r.Sealed is set, queues its mail
	// (MailPasswordReset, ref the hash) in the same transaction.
	InsertReset(ctx context.Context, r *PasswordReset) error
	// Reset loads a link by hash, used or not (ErrNoRow).
	Reset(ctx context.Context, hash string) (*PasswordReset, error)
	// ConsumeReset marks the unused, unexpired reset hash used (blanking
	// its seal), sets the user's password hash, ends its sessions and
	// devices, forgets its other resets and queues a MailPasswordChanged
	// notice, in one transaction; ErrResetInvalid when the link is
	// unknown, used or expired. Of concurrent calls, one wins.
	ConsumeReset(ctx context.Context, hash, passwordHash string, now time.Time) (userID int64, err error)

	// InsertEmailVerification stores a link and, when v.Sealed is set,
	// queues its mail (MailVerifyEmail, ref the hash) in the same
	// transaction.
	InsertEmailVerification(ctx context.Context, v *EmailVerification) error
	// EmailVerification loads a link by hash, used or not (ErrNoRow).
	EmailVerification(ctx context.Context, hash string) (*EmailVerification, error)
	// Notice loads a queued account notice (ErrNoRow).
	Notice(ctx context.Context, id int64) (*Notice, error)
	// ConsumeEmailVerification marks the unused, unexpired link used and
	// the user's email verified at now when it is still the email the
	// link was sent to, and links the guest orders placed with that email
	// to the user (LinkGuestOrders), in one transaction;
	// ErrVerificationInvalid otherwise (nothing changed).
	ConsumeEmailVerification(ctx context.Context, hash string, now time.Time) (userID int64, err error)
	// SetRole changes the user's role.
	SetRole(ctx context.Context, userID int64, role string) error

	SetPendingTOTP(ctx context.Context, userID int64, secret string) error
	// ActivateTOTP makes the pending secret (which must equal secret)
	// active, records step as used and replaces the recovery codes.
	ActivateTOTP(ctx context.Context, userID int64, secret string, step int64, recoveryHashes []string) error
	// UseTOTPStep records step as used when it is newer than the last one
	// (a conditional UPDATE): false when it was not.
	UseTOTPStep(ctx context.Context, userID int64, step int64) (bool, error)
	// UseRecoveryCode marks an unused code used: false when none matched.
	UseRecoveryCode(ctx context.Context, userID int64, hash string, now time.Time) (bool, error)
	RecoveryCodesLeft(ctx context.Context, userID int64) (int, error)
	// ReplaceRecoveryCodes swaps all the user's recovery codes for these,
	// in one transaction; ErrTOTPNotEnabled when two-factor is off.
	ReplaceRecoveryCodes(ctx context.Context, userID int64, hashes []string) error
	// ReplaceTOTPSecret writes next as the active secret when it is still
	// old (a conditional UPDATE): false when it was not.
	ReplaceTOTPSecret(ctx context.Context, userID int64, old, next string) (bool, error)
	// QueueCodeReusedNotice records in the mail outbox the notice telling
	// the user that a used two-factor code was tried again; at most one
	// per user per clock hour (later calls in the hour record nothing).
	QueueCodeReusedNotice(ctx context.Context, userID int64, at time.Time) error
	// QueueNotice records the account notice n (its Email "" takes the
	// user's address) and queues its mail (MailRegisterAttempt).
	QueueNotice(ctx context.Context, userID int64, n *Notice) error
	// DisableTOTP clears the secrets, the recovery codes and the devices.
	DisableTOTP(ctx context.Context, userID int64) error

	InsertDevice(ctx context.Context, userID int64, hash, label string, created, expires time.Time) (int64, error)
	DeviceValid(ctx context.Context, userID int64, hash string, now time.Time) (bool, error)
	Devices(ctx context.Context, userID int64, now time.Time) ([]Device, error)
	DeleteDevice(ctx context.Context, userID, id int64) (bool, error)
	DeleteUserDevices(ctx context.Context, userID int64) error

	HitRateLimits(ctx context.Context, hits []RateHit, window time.Duration, now time.Time) (wait time.Duration, ok bool, err error)
	// RefundRateLimits takes one hit back from each key (an attempt
	// counted before it was checked that turned out to succeed).
	RefundRateLimits(ctx context.Context, keys []string) error
	ClearRateLimits(ctx context.Context, keys []string) error

	CustomerStore      // names, saved addresses, orders (customer.go)
	CustomerAdminStore // the back office's list (customers_admin.go)
	MovedInStore       // customers moved in from another shop (wpimport.go, invite.go)
}

// Errors of the use cases and the store.
var (
	ErrNoUser         = errors.New("account: no such user")
	ErrNoSession      = errors.New("account: no session")
	ErrEmailTaken     = errors.New("account: an account is already registered with this email address")
	ErrUsernameTaken  = errors.New("account: this username is taken")
	ErrBadCredentials = errors.New("account: unknown login or wrong password")
	// ErrStepUp refuses a login attempt, unchecked, to an account that had
	// more than FailureLimit failures in FailureWindow (from any address)
	// when the attempt carries no strong proof (Attempt.Strong): the
	// client is asked for the stronger bot-check instead of being locked
	// out, so failures cannot lock the owner out.
	ErrStepUp              = errors.New("account: many failed logins on this account; a stronger check is needed")
	ErrResetInvalid        = errors.New("account: this password reset link is invalid or has expired")
	ErrVerificationInvalid = errors.New("account: this verification link is invalid or has expired")
	ErrTOTPNotPending      = errors.New("account: two-factor setup was not started")
	ErrTOTPEnabled         = errors.New("account: two-factor authentication is already on")
	ErrTOTPNotEnabled      = errors.New("account: two-factor authentication is off")
	ErrCodeInvalid         = errors.New("account: wrong two-factor code")
	ErrCodeReused          = errors.New("account: this two-factor code was already used")
	ErrDeviceNotFound      = errors.New("account: no such remembered device")
	ErrInvalidRole         = errors.New("account: unknown role")
)

// InputError is bad input: which field and why. Nothing was changed.
type InputError struct {
	Field   string
	Message string
}

func (e *InputError) Error() string { return e.Field + ": " + e.Message }

// LockedError refuses a login (or a second-factor code) after too many
// failures: RetryAfter is the time until the counter's window ends.
type LockedError struct {
	RetryAfter time.Duration
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("account: too many failed attempts, try again in %s", e.RetryAfter.Round(time.Second))
}

// newToken is a random 32-byte token, URL-safe base64, and its hash.
func newToken() (token, hash string) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	token = base64.RawURLEncoding.EncodeToString(b[:])
	return token, HashToken(token)
}

// HashToken is what the store keeps of a client's token: hex SHA-256.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
