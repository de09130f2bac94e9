package botcheck

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"time"
)

// StrongLoginPurpose is the purpose of the stronger login check, asked of
// an account under attack: its own key, and StrongMaxNumber's work.
const StrongLoginPurpose = "login-strong"

// ProofLifetime is how long a login proof can be used.
const ProofLifetime = 5 * time.Minute

// proofPurpose keys the proofs' MAC: a proof passes for nothing else.
const proofPurpose = "login-proof"

// Login is the login's bot-check. A login attempt passes it with one of,
// in this order of preference:
//
//   - a login proof: "this client passed the login check and gave the
//     right password for this login, moments ago" (and, with its second
//     factor flag, "and a right two-factor code"). The ajax check hands one
//     out, so the real form submit that follows needs neither a second
//     proof of work nor a second code. A proof is spent when used, so it
//     works once; a bad or spent one falls back to the payload;
//   - a payload of the login check (Normal);
//   - a payload of the stronger check (Strong), which an account under
//     attack asks for (account.ErrStepUp).
//
// A proof is "<user id>.<2fa 0|1>.<expiry unix>.<random>.<mac>": the MAC
// covers those fields plus the login as typed (case-folded) and the client
// address, so it passes for no other login or address.
type Login struct {
	Normal, Strong *Service
	// Secret keys the proofs' MAC (the shop's secret).
	Secret []byte
	// Store spends proofs, in the table of spent challenges.
	Store Store
	Now   func() time.Time
	Log   *slog.Logger
}

// Proof is a login proof that passed.
type Proof struct {
	UserID    int64
	TwoFactor bool // a right two-factor code was given with it
	Expires   time.Time
	mac       string // names the proof in the spent table
}

// LoginAttempt is what a login attempt brings to the check.
type LoginAttempt struct {
	Proof   string // the proof handed out before, if any
	Payload string // the widget's payload, if any
	Login   string // the login as typed
	Address string // the client's address key
}

// Passed is how an attempt passed the check.
type Passed struct {
	// Proof is the proof used; nil when a payload passed.
	Proof *Proof
	// Strong: the attempt counts as strong (account.Attempt.Strong): a
	// proof (issued only after a right password and every check, moments
	// ago) or a payload of the stronger check.
	Strong bool
}

// Check passes a login attempt with its proof, else its payload. A refusal
// is one of the *Error values (IsRefusal); any other error means the store
// could not be asked (fail closed).
func (l *Login) Check(ctx context.Context, a LoginAttempt) (Passed, error) {
	if a.Proof != "" {
		if p, ok := l.parseProof(a.Proof, a.Login, a.Address); ok {
			first, err := l.Store.SpendBotcheck(ctx, "proof:"+p.mac, p.Expires)
			if err != nil {
				return Passed{}, err
			}
			if first {
				return Passed{Proof: p, Strong: true}, nil
			}
			l.log().Warn("login proof replayed")
		}
	}
	err := l.Normal.Verify(ctx, a.Payload)
	strong := false
	if errors.Is(err, ErrBadSignature) {
		// Not the login check's: perhaps the stronger one's.
		if serr := l.Strong.Verify(ctx, a.Payload); !errors.Is(serr, ErrBadSignature) {
			err, strong = serr, serr == nil
		}
	}
	if err != nil {
		return Passed{}, err
	}
	return Passed{Strong: strong}, nil
}

// IssueProof signs a proof for login from address, valid ProofLifetime.
func (l *Login) IssueProof(login, address string, userID int64, twoFactor bool) string {
	var nonce [12]byte
	_, _ = rand.Read(nonce[:])
	tf := "0"
	if twoFactor {
		tf = "1"
	}
	body := strconv.FormatInt(userID, 10) + "." + tf + "." + strconv.FormatInt(l.now().Add(ProofLifetime).Unix(), 10) + "." + hex.EncodeToString(nonce[:])
	return body + "." + l.proofMAC(body, login, address)
}

// parseProof checks a proof's shape, MAC (for login from address) and
// expiry; it does not spend it.
func (l *Login) parseProof(raw, login, address string) (*Proof, bool) {
	if len(raw) > 200 {
		return nil, false
	}
	parts := strings.Split(raw, ".")
	if len(parts) != 5 {
		return nil, false
	}
	want := l.proofMAC(strings.Join(parts[:4], "."), login, address)
	if !hmac.Equal([]byte(parts[4]), []byte(want)) {
		return nil, false
	}
	uid, err1 := strconv.ParseInt(parts[0], 10, 64)
	exp, err2 := strconv.ParseInt(parts[2], 10, 64)
	if err1 != nil || err2 != nil || (parts[1] != "0" && parts[1] != "1") {
		return nil, false
	}
	p := &Proof{UserID: uid, TwoFactor: parts[1] == "1", Expires: time.Unix(exp, 0), mac: parts[4]}
	if !l.now().Before(p.Expires) {
		return nil, false
	}
	return p, true
}

// proofMAC is the HMAC-SHA-256 of the proof's purpose and fields under the
// shop's secret.
func (l *Login) proofMAC(body, login, address string) string {
	m := hmac.New(sha256.New, l.Secret)
	m.Write([]byte(proofPurpose))
	m.Write([]byte{0})
	m.Write([]byte(body + "|" + strings.ToLower(strings.TrimSpace(login)) + "|" + address))
	return hex.EncodeToString(m.Sum(nil))
}

func (l *Login) now() time.Time {
	if l.Now != nil {
		return l.Now()
	}
	return time.Now().UTC()
}

func (l *Login) log() *slog.Logger {
	if l.Log != nil {
		return l.Log
	}
	return slog.Default()
}
