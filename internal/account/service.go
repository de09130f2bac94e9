package account

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/checkout"
	"vitrine/internal/clock"
)

// Defaults of the Service's limits and lifetimes (a zero field takes these).
const (
	// FailureLimit failed logins per account and per client address in
	// FailureWindow, then logins are refused until the window ends.
	FailureLimit  = 5
	FailureWindow = 15 * time.Minute
	// SessionLifetime is a session's absolute end after login; SessionIdle
	// ends one not seen for that long. SessionTouch: last_seen_at is
	// written at most this often (not on every request).
	SessionLifetime = 14 * 24 * time.Hour
	SessionIdle     = 2 * 24 * time.Hour
	SessionTouch    = time.Minute
	// ResetLifetime is how long a lost-password link works.
	ResetLifetime = time.Hour
	// VerifyLifetime is how long an email verification link works.
	VerifyLifetime = 24 * time.Hour
	// DeviceLifetime is how long a remembered device skips the second factor.
	DeviceLifetime = 30 * 24 * time.Hour
)

// Service is the accounts' use cases.
type Service struct {
	Store Store
	// Issuer names the shop in authenticator apps ("Vitrine" when empty).
	Issuer string
	// Sealer encrypts TOTP secrets at rest and seals link tokens for their
	// mails (mail.go). Nil stores secrets as they are and queues no link
	// mails (tests, tools); the server always sets one, derived from the
	// shop's secret.
	Sealer *Sealer
	// Limits and lifetimes; zero takes the default constant of the same name.
	FailureLimit    int
	FailureWindow   time.Duration
	SessionLifetime time.Duration
	SessionIdle     time.Duration
	ResetLifetime   time.Duration
	VerifyLifetime  time.Duration
	DeviceLifetime  time.Duration
	// RegisterLimit is registrations an hour per client address
	// (Registration.ClientIP): 0 takes RegisterLimitPerAddress, a
	// negative value turns the limit off (--register-rate-limit 0).
	RegisterLimit int
	Now           func() time.Time
	Log           *slog.Logger
}

func (s *Service) now() time.Time { return clock.UTC(s.Now) }

func (s *Service) log() *slog.Logger { return cmp.Or(s.Log, discard) }

var discard = slog.New(slog.DiscardHandler)

func or[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// NormalizeEmail case-folds and trims an email address.
func NormalizeEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// Registration is what Register needs.
type Registration struct {
	Email       string
	Password    string
	Username    string // optional
	DisplayName string // optional; the email's local part when empty
	Role        string // RoleCustomer when empty
	// ClientIP, when set, counts the attempt against
	// RegisterLimitPerAddress (the public registration form); the CLI
	// and the tests leave it empty.
	ClientIP string
	// NoPassword makes the account without a password (Password is
	// ignored): it cannot log in until its owner sets one through a
	// lost-password link or an invitation (UnusablePasswordHash).
	NoPassword bool
}

// ValidateUsername checks an optional username: 3 to 60 of a-z, 0-9, '.',
// '_' and '-' after case folding (never '@', so a login names an email or
// a username unambiguously).
func ValidateUsername(u string) error {
	if u == "" {
		return nil
	}
	if len(u) < 3 || len(u) > 60 {
		return &InputError{Field: "username", Message: "Username must be 3 to 60 characters long."}
	}
	for _, c := range u {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return &InputError{Field: "username", Message: "Username may only contain letters, digits, '.', '_' and '-'."}
		}
	}
	return nil
}

func validateEmail(e string) error {
	if e == "" {
		return &InputError{Field: "email", Message: "Please provide a valid email address."}
	}
	if len(e) > 254 || !checkout.ValidEmail(e) {
		return &InputError{Field: "email", Message: "Please provide a valid email address."}
	}
	return nil
}

// Register creates an account. Bad input is an *InputError; a taken email
// or username is ErrEmailTaken or ErrUsernameTaken. Nothing is written
// unless all checks pass. With r.ClientIP set, more than RegisterLimit
// (RegisterLimitPerAddress by default) attempts an hour from that address
// are a *LockedError, counted before anything else is checked.
func (s *Service) Register(ctx context.Context, r Registration) (*User, error) {
	if a := checkout.AddressKey(r.ClientIP); a != "" && s.RegisterLimit >= 0 {
		wait, ok, err := s.Store.HitRateLimits(ctx, []RateHit{{Key: "register:a:" + a, Limit: or(s.RegisterLimit, RegisterLimitPerAddress)}}, LinkLimitWindow, s.now())
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, &LockedError{RetryAfter: wait}
		}
	}
	email := NormalizeEmail(r.Email)
	username := strings.ToLower(strings.TrimSpace(r.Username))
	role := or(r.Role, RoleCustomer)
	if err := validateEmail(email); err != nil {
		return nil, err
	}
	if err := ValidateUsername(username); err != nil {
		return nil, err
	}
	if !ValidRole(role) {
		return nil, ErrInvalidRole
	}
	if !r.NoPassword {
		if err := ValidatePassword(r.Password, email, username); err != nil {
			return nil, err
		}
	}
	display := strings.TrimSpace(r.DisplayName)
	if display == "" {
		display, _, _ = strings.Cut(email, "@")
	}
	if len(display) > 250 {
		return nil, &InputError{Field: "display_name", Message: "Display name is too long."}
	}
	hash := UnusablePasswordHash()
	if !r.NoPassword {
		var err error
		if hash, err = HashPassword(r.Password); err != nil {
			return nil, err
		}
	}
	u := &User{Email: email, Username: username, DisplayName: display, Role: role, PasswordHash: hash, CreatedAt: s.now().Truncate(time.Second)}
	id, err := s.Store.CreateUser(ctx, u)
	if err != nil {
		return nil, err
	}
	u.ID = id
	return u, nil
}

// NotifyRegisterAttempt tells the owner of email, by mail, that someone
// tried to register it (a "log in or reset your password" notice), at
// most once an hour per account. Registration answers the same for new
// and taken emails; this mail is how the owner learns of the attempt.
// An email with no account does nothing.
func (s *Service) NotifyRegisterAttempt(ctx context.Context, email string) error {
	u, err := s.Store.UserByEmail(ctx, NormalizeEmail(email))
	if errors.Is(err, ErrNoUser) {
		return nil
	}
	if err != nil {
		return err
	}
	now := s.now()
	_, ok, err := s.Store.HitRateLimits(ctx, []RateHit{{Key: "regmail:u:" + strconv.FormatInt(u.ID, 10), Limit: 1}}, LinkLimitWindow, now)
	if err != nil || !ok {
		return err
	}
	return s.Store.QueueNotice(ctx, u.ID, &Notice{Kind: MailRegisterAttempt, CreatedAt: now})
}

// Login is a correct password's outcome.
type Login struct {
	User *User
	// TwoFactorRequired: the password was right and the account has a
	// second factor; the login completes only after VerifyTOTP (or
	// UseRecoveryCode), unless the client holds a remembered device
	// (DeviceRemembered).
	TwoFactorRequired bool
}

// Attempt is one login attempt: a login (an email, or a username when it
// has no '@'), its password and the client's address. Strong says the
// client passed the stronger bot-check (or holds a login proof, issued
// only after a right password moments ago): an account under attack
// asks for it (ErrStepUp).
type Attempt struct {
	Login, Password, ClientIP string
	Strong                    bool
}

// Authenticate is AuthenticateAttempt without a strong proof.
func (s *Service) Authenticate(ctx context.Context, login, password, clientIP string) (*Login, error) {
	return s.AuthenticateAttempt(ctx, Attempt{Login: login, Password: password, ClientIP: clientIP})
}

// AuthenticateAttempt checks a login attempt. Unknown logins and wrong
// passwords take the same path (a hash is checked against a dummy when
// the account is missing) and answer the same ErrBadCredentials.
//
// Limits, counted before the password is checked, one statement per key,
// so concurrent attempts cannot slip past a limit between a check and a
// count:
//
//   - per client address (IPv6: its /64): beyond FailureLimit failures in
//     FailureWindow the address is refused with *LockedError until the
//     window ends. This only ever stops the guesser's own addresses.
//   - per account (its id, or the login as typed when unknown, so an
//     unknown login behaves the same): beyond FailureLimit failures in
//     FailureWindow from any addresses the account is under attack, and
//     an attempt without Attempt.Strong is refused unchecked with
//     ErrStepUp. It is never a lockout: the owner passes with the
//     stronger check, and so must every further guess.
//
// An attempt refused by a limit is taken back (it was never checked), so
// a burst of attempts in flight at once cannot keep an address locked. A
// right password clears the account's count and takes its one hit back
// from the address, so only failures add up. A hash made with other
// parameters than HashParams is replaced after a right password.
func (s *Service) AuthenticateAttempt(ctx context.Context, a Attempt) (*Login, error) {
	login := strings.ToLower(strings.TrimSpace(a.Login))
	if login == "" || a.Password == "" {
		return nil, ErrBadCredentials
	}
	var u *User
	var err error
	if strings.Contains(login, "@") {
		u, err = s.Store.UserByEmail(ctx, login)
	} else {
		u, err = s.Store.UserByUsername(ctx, login)
	}
	if err != nil && !errors.Is(err, ErrNoUser) {
		return nil, err
	}
	key := "?" + login
	hash := ""
	if u != nil {
		key, hash = strconv.FormatInt(u.ID, 10), u.PasswordHash
	}
	limit, window, now := or(s.FailureLimit, FailureLimit), or(s.FailureWindow, FailureWindow), s.now()
	accountKey := "login:u:" + key
	var taken []string // keys counted so far (taken back when refused unchecked)
	refund := func() {
		if err := s.Store.RefundRateLimits(ctx, taken); err != nil {
			s.log().Warn("account: refund refused login attempt", "err", err)
		}
	}
	if addr := checkout.AddressKey(a.ClientIP); addr != "" {
		k := "login:a:" + addr
		wait, ok, err := s.Store.HitRateLimits(ctx, []RateHit{{Key: k, Limit: limit}}, window, now)
		if err != nil {
			return nil, err
		}
		taken = append(taken, k)
		if !ok {
			refund()
			return nil, &LockedError{RetryAfter: wait}
		}
	}
	_, ok, err := s.Store.HitRateLimits(ctx, []RateHit{{Key: accountKey, Limit: limit}}, window, now)
	if err != nil {
		return nil, err
	}
	taken = append(taken, accountKey)
	if !ok && !a.Strong {
		refund()
		return nil, ErrStepUp
	}
	if !checkPassword(a.Password, hash) || u == nil {
		return nil, ErrBadCredentials
	}
	if err := s.Store.ClearRateLimits(ctx, []string{accountKey}); err != nil {
		s.log().Warn("account: clear login failures", "user", u.ID, "err", err)
	}
	if len(taken) > 1 {
		if err := s.Store.RefundRateLimits(ctx, taken[:1]); err != nil {
			s.log().Warn("account: refund login attempt", "user", u.ID, "err", err)
		}
	}
	if outdated(u.PasswordHash) {
		if h, err := HashPassword(a.Password); err == nil {
			if err := s.Store.UpdatePasswordHash(ctx, u.ID, u.PasswordHash, h); err != nil {
				s.log().Warn("account: rehash password", "user", u.ID, "err", err)
			}
		}
	}
	return &Login{User: u, TwoFactorRequired: u.TwoFactor()}, nil
}

// User loads an account by id (ErrNoUser).
func (s *Service) User(ctx context.Context, id int64) (*User, error) {
	return s.Store.UserByID(ctx, id)
}

// ChangePassword sets a new password after checking the current one; all
// the user's sessions end and remembered devices are forgotten (the caller
// starts a new session for the current client).
func (s *Service) ChangePassword(ctx context.Context, userID int64, current, next string) error {
	u, err := s.Store.UserByID(ctx, userID)
	if err != nil {
		return err
	}
	if err := s.confirmPassword(ctx, u, current); err != nil {
		return err
	}
	if err := ValidatePassword(next, u.Email, u.Username); err != nil {
		return err
	}
	hash, err := HashPassword(next)
	if err != nil {
		return err
	}
	return s.Store.SetPassword(ctx, userID, hash, &Notice{Kind: MailPasswordChanged, CreatedAt: s.now()})
}

// ChangeEmail sets a new email (unverified again) after checking the
// password.
func (s *Service) ChangeEmail(ctx context.Context, userID int64, password, email string) error {
	email = NormalizeEmail(email)
	if err := validateEmail(email); err != nil {
		return err
	}
	u, err := s.Store.UserByID(ctx, userID)
	if err != nil {
		return err
	}
	if err := s.confirmPassword(ctx, u, password); err != nil {
		return err
	}
	if email == u.Email {
		return nil
	}
	return s.Store.SetEmail(ctx, userID, email, &Notice{Kind: MailEmailChanged, Email: u.Email, NewEmail: email, CreatedAt: s.now()})
}

// confirmPassword checks the password of a logged-in user before a
// sensitive change (email, password, deleting the account, turning
// two-factor off) under the same per-user limit as second-factor codes:
// a stolen session cannot guess at the password through these forms
// (*LockedError after CodeFailureLimit wrong ones in FailureWindow).
func (s *Service) confirmPassword(ctx context.Context, u *User, password string) error {
	return s.secondFactor(ctx, u.ID, func() error {
		if !checkPassword(password, u.PasswordHash) {
			return ErrBadCredentials
		}
		return nil
	})
}

// DeleteAccount deletes the account after checking the password. Its
// orders stay for the shop's books, as guest orders.
func (s *Service) DeleteAccount(ctx context.Context, userID int64, password string) error {
	u, err := s.Store.UserByID(ctx, userID)
	if err != nil {
		return err
	}
	if err := s.confirmPassword(ctx, u, password); err != nil {
		return err
	}
	return s.Store.DeleteUser(ctx, userID)
}

// RequestReset starts a lost-password link for login (an email, or a
// username when it has no '@') requested from clientIP, and queues its mail
// when the Service has a Sealer. It answers the same way whether or not an
// account matches (nil error), so the caller's message cannot tell; token
// is "" and u nil when none does, or when the account already had
// ResetLimitPerAccount links this hour (counted for unknown logins too, so
// both take the same path). More than ResetLimitPerAddress requests an
// hour from one address is a *LockedError, whatever the login. The link is
// single use and valid ResetLifetime.
func (s *Service) RequestReset(ctx context.Context, login, clientIP string) (token string, u *User, err error) {
	login = strings.ToLower(strings.TrimSpace(login))
	if login == "" || len(login) > 254 {
		return "", nil, nil
	}
	if strings.Contains(login, "@") {
		u, err = s.Store.UserByEmail(ctx, login)
	} else {
		u, err = s.Store.UserByUsername(ctx, login)
	}
	if err != nil && !errors.Is(err, ErrNoUser) {
		return "", nil, err
	}
	key := "?" + login
	if u != nil {
		key = strconv.FormatInt(u.ID, 10)
	}
	hits := []RateHit{{Key: "reset:u:" + key, Limit: ResetLimitPerAccount}}
	if a := checkout.AddressKey(clientIP); a != "" {
		hits = append(hits, RateHit{Key: "reset:a:" + a, Limit: ResetLimitPerAddress})
	}
	now := s.now()
	// The address first: its refusal is the only one the caller shows.
	if len(hits) > 1 {
		wait, ok, err := s.Store.HitRateLimits(ctx, hits[1:], LinkLimitWindow, now)
		if err != nil {
			return "", nil, err
		}
		if !ok {
			return "", nil, &LockedError{RetryAfter: wait}
		}
	}
	_, ok, err := s.Store.HitRateLimits(ctx, hits[:1], LinkLimitWindow, now)
	if err != nil {
		return "", nil, err
	}
	if u == nil {
		return "", nil, nil
	}
	if !ok {
		s.log().Warn("account: lost-password links limited", "user", u.ID)
		return "", nil, nil
	}
	token, hash := newToken()
	r := &PasswordReset{TokenHash: hash, UserID: u.ID, CreatedAt: now, ExpiresAt: now.Add(or(s.ResetLifetime, ResetLifetime))}
	if s.Sealer != nil {
		r.Sealed = s.Sealer.SealToken(token, hash)
	}
	if err := s.Store.InsertReset(ctx, r); err != nil {
		return "", nil, err
	}
	return token, u, nil
}

// ResetPassword consumes a lost-password link once and sets the new
// password; every session of the account ends. ErrResetInvalid for an
// unknown, used or expired link; a bad new password is an *InputError and
// leaves the link unused.
func (s *Service) ResetPassword(ctx context.Context, token, password string) (*User, error) {
	if token == "" {
		return nil, ErrResetInvalid
	}
	// The account's own rules (not its email or username) when the link
	// is live; the length rules otherwise (the link is refused below).
	email, username := "", ""
	if r, err := s.Store.Reset(ctx, HashToken(token)); err == nil {
		if u, err := s.Store.UserByID(ctx, r.UserID); err == nil {
			email, username = u.Email, u.Username
		}
	}
	if err := ValidatePassword(password, email, username); err != nil {
		return nil, err
	}
	hash, err := HashPassword(password)
	if err != nil {
		return nil, err
	}
	id, err := s.Store.ConsumeReset(ctx, HashToken(token), hash, s.now())
	if err != nil {
		return nil, err
	}
	return s.Store.UserByID(ctx, id)
}

// CreateSession starts a session for userID and returns its token (32
// random bytes; only the SHA-256 is stored).
func (s *Service) CreateSession(ctx context.Context, userID int64) (string, *Session, error) {
	now := s.now().Truncate(time.Second)
	token, hash := newToken()
	sess := &Session{UserID: userID, CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(or(s.SessionLifetime, SessionLifetime))}
	if err := s.Store.InsertSession(ctx, hash, sess); err != nil {
		return "", nil, err
	}
	return token, sess, nil
}

// Session looks a token up: ErrNoSession when unknown, past its absolute
// end or idle longer than SessionIdle. A live session's last-seen time is
// moved (at most once a SessionTouch).
func (s *Service) Session(ctx context.Context, token string) (*Session, error) {
	if token == "" {
		return nil, ErrNoSession
	}
	hash := HashToken(token)
	sess, err := s.Store.SessionByHash(ctx, hash)
	if err != nil {
		return nil, err
	}
	now := s.now()
	if !now.Before(sess.ExpiresAt) || !now.Before(sess.LastSeenAt.Add(or(s.SessionIdle, SessionIdle))) {
		return nil, ErrNoSession
	}
	if now.Sub(sess.LastSeenAt) >= SessionTouch {
		if err := s.Store.TouchSession(ctx, hash, now); err != nil {
			return nil, err
		}
		sess.LastSeenAt = now.Truncate(time.Second)
	}
	return sess, nil
}

// RenewSession replaces a live session's token with a new one (on login
// and on a change of privilege), keeping its user and absolute end; the
// old token stops working.
func (s *Service) RenewSession(ctx context.Context, token string) (string, *Session, error) {
	if _, err := s.Session(ctx, token); err != nil {
		return "", nil, err
	}
	next, hash := newToken()
	sess, err := s.Store.ReplaceSession(ctx, HashToken(token), hash, s.now())
	if err != nil {
		return "", nil, err
	}
	return next, sess, nil
}

// DeleteSession ends a session (log out).
func (s *Service) DeleteSession(ctx context.Context, token string) error {
	return s.Store.DeleteSession(ctx, HashToken(token))
}

// DeleteUserSessions ends every session of a user ("log out everywhere").
func (s *Service) DeleteUserSessions(ctx context.Context, userID int64) error {
	return s.Store.DeleteUserSessions(ctx, userID)
}

// DeleteExpired removes ended sessions, reset links and devices (upkeep).
func (s *Service) DeleteExpired(ctx context.Context) (int64, error) {
	now := s.now()
	return s.Store.DeleteExpiredSessions(ctx, now, now.Add(-or(s.SessionIdle, SessionIdle)))
}

// RequestEmailVerification makes a link that verifies the user's current
// email (single use, valid VerifyLifetime, void once the email changes) and
// queues its mail to u.Email when the Service has a Sealer. More than
// VerifyLimitPerUser links an hour is a *LockedError. VerifyEmail links a
// guest's earlier orders by that email.
func (s *Service) RequestEmailVerification(ctx context.Context, userID int64) (token string, u *User, err error) {
	u, err = s.Store.UserByID(ctx, userID)
	if err != nil {
		return "", nil, err
	}
	now := s.now()
	wait, ok, err := s.Store.HitRateLimits(ctx, []RateHit{{Key: "verify:u:" + strconv.FormatInt(userID, 10), Limit: VerifyLimitPerUser}},
		LinkLimitWindow, now)
	if err != nil {
		return "", nil, err
	}
	if !ok {
		return "", nil, &LockedError{RetryAfter: wait}
	}
	token, hash := newToken()
	v := &EmailVerification{TokenHash: hash, UserID: userID, Email: u.Email, CreatedAt: now, ExpiresAt: now.Add(or(s.VerifyLifetime, VerifyLifetime))}
	if s.Sealer != nil {
		v.Sealed = s.Sealer.SealToken(token, hash)
	}
	if err := s.Store.InsertEmailVerification(ctx, v); err != nil {
		return "", nil, err
	}
	return token, u, nil
}

// VerifyEmail consumes a verification link once and marks the email it
// was sent to verified: ErrVerificationInvalid for an unknown, used or
// expired link, or one sent to an email the account no longer has. In the
// same transaction the guest orders placed with that email become the
// account's: only a verified address proves they are the customer's, so
// an email changed but not yet verified links nothing.
func (s *Service) VerifyEmail(ctx context.Context, token string) (*User, error) {
	if token == "" {
		return nil, ErrVerificationInvalid
	}
	id, err := s.Store.ConsumeEmailVerification(ctx, HashToken(token), s.now())
	if err != nil {
		return nil, err
	}
	return s.Store.UserByID(ctx, id)
}

// SetRole changes a user's role (the CLI's user command, later the
// admin). The caller renews the sessions of a user whose privilege
// changed (RenewSession) or ends them (DeleteUserSessions).
func (s *Service) SetRole(ctx context.Context, userID int64, role string) error {
	if !ValidRole(role) {
		return ErrInvalidRole
	}
	return s.Store.SetRole(ctx, userID, role)
}
