package account

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base32"
	"strconv"
	"strings"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
)

// TOTP parameters (RFC 6238 as authenticator apps expect them): 30-second
// steps, six digits, SHA-1; a code of the step before or after now is
// accepted too (TOTPSkew).
const (
	TOTPPeriod = 30
	TOTPSkew   = 1
	// RecoveryCodes is how many single-use recovery codes ConfirmTOTP makes.
	RecoveryCodes = 10
	// CodeFailureLimit wrong second-factor codes per user in FailureWindow.
	CodeFailureLimit = 5
)

var totpOpts = totp.ValidateOpts{Period: TOTPPeriod, Skew: TOTPSkew, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}

// Enrollment is a started two-factor setup: the secret to show as text and
// the otpauth:// URL for the QR code (otp.Key.Image draws it).
type Enrollment struct {
	Secret string
	URL    string
	Key    *otp.Key
}

// EnrollTOTP starts (or restarts) two-factor setup after checking the
// password (confirmPassword: a stolen session alone cannot turn two-factor
// on and lock the owner out): a new secret, pending until ConfirmTOTP.
// ErrTOTPEnabled when the user already has one; a wrong password is
// ErrBadCredentials, none an *InputError; nothing changes on a refusal.
func (s *Service) EnrollTOTP(ctx context.Context, userID int64, password string) (*Enrollment, error) {
	u, err := s.Store.UserByID(ctx, userID)
	if err != nil {
		return nil, err
	}
	if u.TwoFactor() {
		return nil, ErrTOTPEnabled
	}
	if password == "" {
		return nil, &InputError{Field: "password", Message: "Enter your current password to turn on two-factor authentication."}
	}
	if err := s.confirmPassword(ctx, u, password); err != nil {
		return nil, err
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: or(s.Issuer, "Vitrine"), AccountName: u.Email,
		Period: TOTPPeriod, SecretSize: 20, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		return nil, err
	}
	sealed, err := s.seal(userID, key.Secret())
	if err != nil {
		return nil, err
	}
	if err := s.Store.SetPendingTOTP(ctx, userID, sealed); err != nil {
		return nil, err
	}
	return &Enrollment{Secret: key.Secret(), URL: key.URL(), Key: key}, nil
}

// pendingSecret is the user and the opened secret of a started, unconfirmed
// setup: ErrTOTPEnabled when two-factor is already on, ErrTOTPNotPending
// when no setup was started.
func (s *Service) pendingSecret(ctx context.Context, userID int64) (*User, string, error) {
	u, err := s.Store.UserByID(ctx, userID)
	if err != nil {
		return nil, "", err
	}
	if u.TwoFactor() {
		return nil, "", ErrTOTPEnabled
	}
	if u.TOTPPending == "" {
		return nil, "", ErrTOTPNotPending
	}
	secret, err := s.open(userID, u.TOTPPending)
	if err != nil {
		return nil, "", err
	}
	return u, secret, nil
}

// PendingEnrollment is the started, unconfirmed setup of the user again
// (to show the QR code once more after a wrong code): ErrTOTPNotPending
// when none was started, ErrTOTPEnabled when two-factor is already on.
func (s *Service) PendingEnrollment(ctx context.Context, userID int64) (*Enrollment, error) {
	u, secret, err := s.pendingSecret(ctx, userID)
	if err != nil {
		return nil, err
	}
	raw, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(strings.TrimRight(secret, "="))
	if err != nil {
		return nil, ErrSealed
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: or(s.Issuer, "Vitrine"), AccountName: u.Email,
		Period: TOTPPeriod, Secret: raw, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		return nil, err
	}
	return &Enrollment{Secret: key.Secret(), URL: key.URL(), Key: key}, nil
}

// seal and open put a TOTP secret through the Sealer. Without one, a
// sealed value cannot be read: that fails closed (ErrSealed).
func (s *Service) seal(userID int64, secret string) (string, error) {
	if s.Sealer == nil {
		return secret, nil
	}
	return s.Sealer.Seal(userID, secret)
}

func (s *Service) open(userID int64, stored string) (string, error) {
	if s.Sealer == nil {
		if IsSealed(stored) {
			return "", ErrSealed
		}
		return stored, nil
	}
	return s.Sealer.Open(userID, stored)
}

// matchStep is the newest time step within the skew around now whose code
// for secret is code, or -1. Every candidate is computed and compared in
// constant time.
func matchStep(secret, code string, now time.Time) int64 {
	step := now.Unix() / TOTPPeriod
	found := int64(-1)
	for d := int64(-TOTPSkew); d <= TOTPSkew; d++ {
		want, err := totp.GenerateCodeCustom(secret, time.Unix((step+d)*TOTPPeriod, 0), totpOpts)
		if err != nil {
			return -1
		}
		if subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			found = step + d
		}
	}
	return found
}

func validCodeShape(code string) bool {
	if len(code) != 6 {
		return false
	}
	for _, c := range code {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// ConfirmTOTP checks a code from the pending secret, turns two-factor on
// and returns the recovery codes, shown once (only their hashes are kept).
// The code's step counts as used.
func (s *Service) ConfirmTOTP(ctx context.Context, userID int64, code string) ([]string, error) {
	u, secret, err := s.pendingSecret(ctx, userID)
	if err != nil {
		return nil, err
	}
	// Confirming tests a code like logging in does: under the same
	// wrong-code limit, so the pending secret cannot be guessed at.
	var codes []string
	err = s.secondFactor(ctx, userID, func() error {
		code = strings.TrimSpace(code)
		step := int64(-1)
		if validCodeShape(code) {
			step = matchStep(secret, code, s.now())
		}
		if step < 0 {
			return ErrCodeInvalid
		}
		c, hashes := newRecoveryCodes()
		if err := s.Store.ActivateTOTP(ctx, userID, u.TOTPPending, step, hashes); err != nil {
			return err
		}
		codes = c
		return nil
	})
	return codes, err
}

func (s *Service) codeHits(userID int64) []RateHit {
	return []RateHit{{Key: "2fa:u:" + strconv.FormatInt(userID, 10), Limit: CodeFailureLimit}}
}

// secondFactor runs check under the user's wrong-code limit: the attempt
// is counted first (one statement, so concurrent guesses cannot pass the
// limit together), an attempt beyond CodeFailureLimit in the window is
// refused with *LockedError without checking, and a success clears the
// count, so only failures add up.
func (s *Service) secondFactor(ctx context.Context, userID int64, check func() error) error {
	hits := s.codeHits(userID)
	wait, ok, err := s.Store.HitRateLimits(ctx, hits, or(s.FailureWindow, FailureWindow), s.now())
	if err != nil {
		return err
	}
	if !ok {
		return &LockedError{RetryAfter: wait}
	}
	err = check()
	switch err {
	case nil:
		if cerr := s.Store.ClearRateLimits(ctx, []string{hits[0].Key}); cerr != nil {
			s.log().Warn("account: clear code failures", "user", userID, "err", cerr)
		}
	case ErrCodeReused:
		// A replayed code was seen by someone else: tell the owner
		// (ASVS V2.8.5). The refusal stands whatever the outbox says.
		s.log().Warn("account: two-factor code replayed", "user", userID)
		if nerr := s.Store.QueueCodeReusedNotice(ctx, userID, s.now()); nerr != nil {
			s.log().Error("account: queue code-reused notice", "user", userID, "err", nerr)
		}
	}
	return err
}

// VerifyTOTP checks a six-digit code at the Service's now: a code of the
// current step or one step either side, and each step at most once per
// user: a step at or before the last one accepted is ErrCodeReused (a
// conditional UPDATE, so of concurrent uses of one code exactly one
// wins). A wrong code is ErrCodeInvalid; both count towards the
// user's wrong-code limit (*LockedError).
func (s *Service) VerifyTOTP(ctx context.Context, userID int64, code string) error {
	return s.secondFactor(ctx, userID, func() error {
		u, err := s.Store.UserByID(ctx, userID)
		if err != nil {
			return err
		}
		if !u.TwoFactor() {
			return ErrTOTPNotEnabled
		}
		code = strings.TrimSpace(code)
		if !validCodeShape(code) {
			return ErrCodeInvalid
		}
		secret, err := s.open(userID, u.TOTPSecret)
		if err != nil {
			return err
		}
		step := matchStep(secret, code, s.now())
		if step < 0 {
			return ErrCodeInvalid
		}
		ok, err := s.Store.UseTOTPStep(ctx, userID, step)
		if err != nil {
			return err
		}
		if !ok {
			return ErrCodeReused
		}
		s.resealIfPlain(ctx, u, secret)
		return nil
	})
}

// resealIfPlain seals a secret stored before sealing existed, once a code
// proved it is the user's (a conditional write: a concurrent change wins).
func (s *Service) resealIfPlain(ctx context.Context, u *User, secret string) {
	if s.Sealer == nil || IsSealed(u.TOTPSecret) {
		return
	}
	sealed, err := s.Sealer.Seal(u.ID, secret)
	if err == nil {
		_, err = s.Store.ReplaceTOTPSecret(ctx, u.ID, u.TOTPSecret, sealed)
	}
	if err != nil {
		s.log().Warn("account: reseal two-factor secret", "user", u.ID, "err", err)
	}
}

var recoveryEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

func newRecoveryCodes() (codes, hashes []string) {
	for range RecoveryCodes {
		var b [10]byte // 80 bits
		if _, err := rand.Read(b[:]); err != nil {
			panic(err)
		}
		c := strings.ToLower(recoveryEncoding.EncodeToString(b[:])) // 16 characters
		codes = append(codes, c[:4]+"-"+c[4:8]+"-"+c[8:12]+"-"+c[12:])
		hashes = append(hashes, HashToken(c))
	}
	return codes, hashes
}

func normalizeRecovery(code string) string {
	code = strings.ToLower(code)
	return strings.Map(func(r rune) rune {
		if r == '-' || r == ' ' {
			return -1
		}
		return r
	}, code)
}

// VerifySecondFactor checks what a login's code field holds: a six-digit
// TOTP code (VerifyTOTP), or else a recovery code (UseRecoveryCode).
func (s *Service) VerifySecondFactor(ctx context.Context, userID int64, code string) error {
	if validCodeShape(code) {
		return s.VerifyTOTP(ctx, userID, code)
	}
	return s.UseRecoveryCode(ctx, userID, code)
}

// UseRecoveryCode accepts one of the user's unused recovery codes (any
// case, dashes and spaces ignored) once; ErrCodeInvalid otherwise,
// counted like a wrong code.
func (s *Service) UseRecoveryCode(ctx context.Context, userID int64, code string) error {
	return s.secondFactor(ctx, userID, func() error {
		c := normalizeRecovery(code)
		if len(c) != 16 {
			return ErrCodeInvalid
		}
		ok, err := s.Store.UseRecoveryCode(ctx, userID, HashToken(c), s.now())
		if err != nil {
			return err
		}
		if !ok {
			return ErrCodeInvalid
		}
		return nil
	})
}

// NewRecoveryCodes replaces the user's recovery codes with 10 new ones,
// shown once, after proof that the user holds the account: a current TOTP
// code (under the wrong-code limit, and spending its step) or else the
// password. ErrTOTPNotEnabled when two-factor is off; a wrong code is
// ErrCodeInvalid or ErrCodeReused, a wrong password ErrBadCredentials,
// neither given an *InputError. Nothing changes on a refusal.
func (s *Service) NewRecoveryCodes(ctx context.Context, userID int64, code, password string) ([]string, error) {
	u, err := s.Store.UserByID(ctx, userID)
	if err != nil {
		return nil, err
	}
	if !u.TwoFactor() {
		return nil, ErrTOTPNotEnabled
	}
	switch {
	case strings.TrimSpace(code) != "":
		if err := s.VerifyTOTP(ctx, userID, code); err != nil {
			return nil, err
		}
	case password != "":
		// Counted like a wrong code, so a stolen session cannot guess
		// at the password here without limit.
		if err := s.secondFactor(ctx, userID, func() error {
			if !checkPassword(password, u.PasswordHash) {
				return ErrBadCredentials
			}
			return nil
		}); err != nil {
			return nil, err
		}
	default:
		return nil, &InputError{Field: "code", Message: "Enter a code from your authenticator app or your password."}
	}
	codes, hashes := newRecoveryCodes()
	if err := s.Store.ReplaceRecoveryCodes(ctx, userID, hashes); err != nil {
		return nil, err
	}
	return codes, nil
}

// RecoveryCodesLeft counts the user's unused recovery codes.
func (s *Service) RecoveryCodesLeft(ctx context.Context, userID int64) (int, error) {
	return s.Store.RecoveryCodesLeft(ctx, userID)
}

// DisableTOTP turns two-factor off after checking the password and a
// current code of the second factor (a six-digit TOTP code, spending its
// step, or a recovery code: VerifySecondFactor), so a stolen session that
// also learnt the password cannot remove the factor. A setup started but
// not confirmed is cancelled with the password alone. The recovery codes
// and remembered devices go with it. A missing password or code is an
// *InputError (Field "password" or "code"), a wrong password
// ErrBadCredentials, a wrong code ErrCodeInvalid or ErrCodeReused, all
// under the per-user limit; nothing changes on a refusal.
func (s *Service) DisableTOTP(ctx context.Context, userID int64, password, code string) error {
	u, err := s.Store.UserByID(ctx, userID)
	if err != nil {
		return err
	}
	code = strings.TrimSpace(code)
	switch {
	case password == "":
		return &InputError{Field: "password", Message: "Enter your current password."}
	case u.TwoFactor() && code == "":
		return &InputError{Field: "code", Message: "Enter a code from your authenticator app, or one of your recovery codes."}
	}
	if err := s.confirmPassword(ctx, u, password); err != nil {
		return err
	}
	if !u.TwoFactor() && u.TOTPPending == "" {
		return ErrTOTPNotEnabled
	}
	if u.TwoFactor() {
		if err := s.VerifySecondFactor(ctx, userID, code); err != nil {
			return err
		}
	}
	return s.Store.DisableTOTP(ctx, userID)
}

// ResetTwoFactor turns two-factor off without asking for anything: the
// shop's own recovery, from the command line, for an owner who lost both
// the authenticator app and the recovery codes (a password reset keeps
// two-factor on). The secrets, recovery codes and remembered devices go,
// and every session of the account ends. ErrTOTPNotEnabled when neither a
// second factor nor a setup is there.
func (s *Service) ResetTwoFactor(ctx context.Context, userID int64) error {
	u, err := s.Store.UserByID(ctx, userID)
	if err != nil {
		return err
	}
	if !u.TwoFactor() && u.TOTPPending == "" {
		return ErrTOTPNotEnabled
	}
	if err := s.Store.DisableTOTP(ctx, userID); err != nil {
		return err
	}
	return s.Store.DeleteUserSessions(ctx, userID)
}

// RememberDevice makes a token that skips the second factor for userID on
// one device for DeviceLifetime; the caller puts it in a signed cookie.
// label is shown in the device list (a user agent summary).
func (s *Service) RememberDevice(ctx context.Context, userID int64, label string) (string, *Device, error) {
	if len(label) > 200 {
		label = label[:200]
	}
	now := s.now().Truncate(time.Second)
	token, hash := newToken()
	d := &Device{Label: label, CreatedAt: now, ExpiresAt: now.Add(or(s.DeviceLifetime, DeviceLifetime))}
	id, err := s.Store.InsertDevice(ctx, userID, hash, label, d.CreatedAt, d.ExpiresAt)
	if err != nil {
		return "", nil, err
	}
	d.ID = id
	return token, d, nil
}

// DeviceRemembered reports whether token is a live remembered device of
// userID (a token of another user, expired or revoked is not).
func (s *Service) DeviceRemembered(ctx context.Context, userID int64, token string) (bool, error) {
	if token == "" {
		return false, nil
	}
	return s.Store.DeviceValid(ctx, userID, HashToken(token), s.now())
}

// ListDevices lists the user's live remembered devices.
func (s *Service) ListDevices(ctx context.Context, userID int64) ([]Device, error) {
	return s.Store.Devices(ctx, userID, s.now())
}

// RevokeDevice forgets one remembered device: ErrDeviceNotFound when the
// user has none with that id.
func (s *Service) RevokeDevice(ctx context.Context, userID, id int64) error {
	ok, err := s.Store.DeleteDevice(ctx, userID, id)
	if err != nil {
		return err
	}
	if !ok {
		return ErrDeviceNotFound
	}
	return nil
}

// RevokeAllDevices forgets every remembered device of the user.
func (s *Service) RevokeAllDevices(ctx context.Context, userID int64) error {
	return s.Store.DeleteUserDevices(ctx, userID)
}
