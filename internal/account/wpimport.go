package account

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// Customers moved in from a WordPress shop (internal/wcimport records them
// as legacy "customer" ids, created without a password): their WordPress
// password hashes, when the owner has them, and the invitations to set a
// password here for the others (invite.go).

// MovedIn is a customer moved in from the old shop, with its latest
// invitation (zero InvitedAt: never invited).
type MovedIn struct {
	UserID       int64
	Email        string
	Username     string
	PasswordHash string
	// The latest invitation: its link's hash, when it was queued, when its
	// mail is due, and how many were sent in all.
	InviteHash  string
	InvitedAt   time.Time
	InviteDueAt time.Time
	Invitations int
}

// PasswordChange replaces a hash when it is still Old.
type PasswordChange struct {
	UserID   int64
	Old, New string
}

// Invitation is one invitation to queue: its reset link (Reset, sealed
// for the mail), when the mail is due, and the link it replaces ("" for
// the first).
type Invitation struct {
	Reset    PasswordReset
	DueAt    time.Time
	Replaces string
	// PasswordHash is the account's hash as read: the invitation is queued
	// only while it is still that (no password set meanwhile).
	PasswordHash string
}

// MovedInStore is the store's part for moved-in customers
// (sqlstore/customer_invite.go).
type MovedInStore interface {
	// MovedInCustomers lists the accounts that legacy "customer" ids point
	// at, each once, by id, with its latest invitation.
	MovedInCustomers(ctx context.Context) ([]MovedIn, error)
	// SetPasswordHashes writes each change whose account's hash is still
	// its Old, in one transaction, and returns the ids written. Sessions
	// are kept: no password was chosen here.
	SetPasswordHashes(ctx context.Context, changes []PasswordChange) ([]int64, error)
	// InsertInvitation stores the invitation's link, records the
	// invitation and queues its mail (MailInvitation, ref the link's hash,
	// due at DueAt), in one transaction; a replaced link is deleted.
	// ErrInvitationRaced, with nothing written, when the account's hash
	// is no longer inv.PasswordHash or its latest invitation is no longer
	// inv.Replaces.
	InsertInvitation(ctx context.Context, userID int64, inv *Invitation) error
}

// ErrInvitationRaced: the account changed while it was being invited.
var ErrInvitationRaced = errors.New("account: the account changed while it was being invited")

// Why a row of a password import was not applied.
const (
	SkipUnknownEmail  = "no account with this email"
	SkipNotMovedIn    = "the account was not moved in from the old shop"
	SkipOwnPassword   = "the customer already chose a password in this shop"
	SkipUnknownFormat = "the hash is of no accepted WordPress format"
	SkipDuplicate     = "the email is on an earlier row (that row is used)"
)

// SkippedRow is a row of a password import that was not applied.
type SkippedRow struct {
	Line   int // in the file, the header being line 1
	Email  string
	Reason string // one of the Skip constants
}

// PasswordImport is what ImportWordPressPasswords did.
type PasswordImport struct {
	Rows int
	// Applied rows stored their hash; Unchanged ones held it already (an
	// earlier run).
	Applied, Unchanged int
	Skipped            []SkippedRow
}

// Count is how many rows were skipped for reason.
func (p *PasswordImport) Count(reason string) int {
	n := 0
	for _, s := range p.Skipped {
		if s.Reason == reason {
			n++
		}
	}
	return n
}

// ErrBadPasswordsCSV wraps what is wrong with a passwords file.
var ErrBadPasswordsCSV = errors.New("account: bad passwords CSV")

// MaxPasswordsCSV bounds a passwords file (a million customers' rows fit).
const MaxPasswordsCSV = 256 << 20

// ImportWordPressPasswords reads a CSV of WordPress users (a header with
// user_email and user_pass, as an export of wp_users has, other columns
// ignored) and, for each customer moved in from the old shop who has
// not chosen a password here, stores the WordPress hash as theirs: they
// log in with their old password, which is then rehashed to argon2id.
// Rows for unknown emails, accounts not moved in, accounts with a
// password of their own, or hashes of an unknown format are reported in
// Skipped and change nothing. A file that cannot be read as such a CSV
// is an error wrapping ErrBadPasswordsCSV and changes nothing. A second
// run of the same file applies nothing (its rows are Unchanged).
func (s *Service) ImportWordPressPasswords(ctx context.Context, r io.Reader) (*PasswordImport, error) {
	rows, err := readPasswordsCSV(r)
	if err != nil {
		return nil, err
	}
	moved, err := s.Store.MovedInCustomers(ctx)
	if err != nil {
		return nil, err
	}
	byEmail := make(map[string]*MovedIn, len(moved))
	for i := range moved {
		byEmail[moved[i].Email] = &moved[i]
	}
	out := &PasswordImport{Rows: len(rows)}
	seen := map[string]bool{}
	var changes []PasswordChange
	lineOf := map[int64]passwordRow{}
	for _, row := range rows {
		skip := func(reason string) {
			out.Skipped = append(out.Skipped, SkippedRow{Line: row.line, Email: row.email, Reason: reason})
		}
		if row.email == "" {
			skip(SkipUnknownEmail)
			continue
		}
		if seen[row.email] {
			skip(SkipDuplicate)
			continue
		}
		seen[row.email] = true
		m := byEmail[row.email]
		if m == nil {
			// Tell an unknown email from an account that did not move in.
			if _, err := s.Store.UserByEmail(ctx, row.email); err == nil {
				skip(SkipNotMovedIn)
			} else if errors.Is(err, ErrNoUser) {
				skip(SkipUnknownEmail)
			} else {
				return nil, err
			}
			continue
		}
		switch {
		case WordPressHashFormat(row.hash) == "":
			skip(SkipUnknownFormat)
		case m.PasswordHash == row.hash:
			out.Unchanged++
		case !HasNoPassword(m.PasswordHash) && WordPressHashFormat(m.PasswordHash) == "":
			skip(SkipOwnPassword)
		default:
			changes = append(changes, PasswordChange{UserID: m.UserID, Old: m.PasswordHash, New: row.hash})
			lineOf[m.UserID] = row
		}
	}
	if len(changes) == 0 {
		return out, nil
	}
	done, err := s.Store.SetPasswordHashes(ctx, changes)
	if err != nil {
		return nil, err
	}
	written := make(map[int64]bool, len(done))
	for _, id := range done {
		written[id] = true
	}
	for _, c := range changes {
		if written[c.UserID] {
			out.Applied++
			continue
		}
		// The hash changed between the read and the write: the customer
		// set a password meanwhile.
		row := lineOf[c.UserID]
		out.Skipped = append(out.Skipped, SkippedRow{Line: row.line, Email: row.email, Reason: SkipOwnPassword})
	}
	s.log().Info("account: WordPress passwords imported", "rows", out.Rows, "applied", out.Applied, "unchanged", out.Unchanged, "skipped", len(out.Skipped))
	return out, nil
}

type passwordRow struct {
	line        int
	email, hash string
}

// readPasswordsCSV reads the whole file first, so a bad one changes
// nothing.
func readPasswordsCSV(r io.Reader) ([]passwordRow, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrBadPasswordsCSV, fmt.Sprintf(format, a...))
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxPasswordsCSV+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxPasswordsCSV {
		return nil, bad("the file is larger than %d MiB", MaxPasswordsCSV>>20)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a spreadsheet's byte-order mark
	cr := csv.NewReader(bytes.NewReader(data))
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, bad("the file is empty (want a header with user_email and user_pass)")
	}
	if err != nil {
		return nil, bad("%v", err)
	}
	emailCol, passCol := -1, -1
	for i, h := range header {
		switch strings.ToLower(strings.TrimSpace(h)) {
		case "user_email":
			emailCol = i
		case "user_pass":
			passCol = i
		}
	}
	if emailCol < 0 || passCol < 0 {
		return nil, bad("the header %q has no user_email or no user_pass column", strings.Join(header, ","))
	}
	var rows []passwordRow
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, bad("%v", err) // csv's errors name the line
		}
		line, _ := cr.FieldPos(0)
		rows = append(rows, passwordRow{line: line, email: NormalizeEmail(rec[emailCol]), hash: strings.TrimSpace(rec[passCol])})
	}
	return rows, nil
}
