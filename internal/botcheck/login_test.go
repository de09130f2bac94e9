package botcheck_test

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"vitrine/internal/botcheck"
)

// downStore is a store that cannot be reached.
type downStore struct{ memStore }

func (*downStore) SpendBotcheck(context.Context, string, time.Time) (bool, error) {
	return false, errors.New("store down")
}

func newLogin(store botcheck.Store, c *clock) *botcheck.Login {
	check := func(purpose string) *botcheck.Service {
		return &botcheck.Service{Store: store, Secret: secret, Purpose: purpose, MaxNumber: 2000, Now: c.Now}
	}
	return &botcheck.Login{Normal: check("login"), Strong: check(botcheck.StrongLoginPurpose),
		Secret: secret, Store: store, Now: c.Now, Log: slog.New(slog.DiscardHandler)}
}

func TestLoginCheckChoosesTheCheck(t *testing.T) {
	ctx := context.Background()
	c := newClock()
	store := &memStore{spent: map[string]time.Time{}}
	l := newLogin(store, c)
	other := &botcheck.Service{Store: store, Secret: secret, Purpose: "register", MaxNumber: 2000, Now: c.Now}
	const login, addr = "ada@example.com", "192.0.2.1"

	_, normal := solved(t, l.Normal)
	_, strong := solved(t, l.Strong)
	_, register := solved(t, other)
	for _, tc := range []struct {
		name       string
		payload    string
		wantStrong bool
		wantErr    error
	}{
		{"the login check's payload", normal, false, nil},
		{"the stronger check's payload", strong, true, nil},
		{"no payload", "", false, botcheck.ErrMissing},
		{"another purpose's payload", register, false, botcheck.ErrBadSignature},
		{"a spent payload", normal, false, botcheck.ErrReplayed},
		{"a spent stronger payload", strong, false, botcheck.ErrReplayed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := l.Check(ctx, botcheck.LoginAttempt{Payload: tc.payload, Login: login, Address: addr})
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err %v, want %v", err, tc.wantErr)
			}
			if tc.wantErr != nil && !botcheck.IsRefusal(err) {
				t.Errorf("%v is not a refusal", err)
			}
			if p.Strong != tc.wantStrong || p.Proof != nil {
				t.Errorf("passed %+v, want strong %v and no proof", p, tc.wantStrong)
			}
		})
	}
}

func TestLoginProofPassesOnceForItsLoginAndAddress(t *testing.T) {
	ctx := context.Background()
	c := newClock()
	store := &memStore{spent: map[string]time.Time{}}
	l := newLogin(store, c)
	const login, addr = "Ada@Example.com ", "192.0.2.1"
	proof := l.IssueProof(login, addr, 42, true)

	for _, tc := range []struct {
		name, login, addr, proof string
	}{
		{"another login", "bob@example.com", addr, proof},
		{"another address", login, "192.0.2.2", proof},
		{"an edited proof", login, addr, "43" + proof[2:]},
		{"not a proof", login, addr, "1.0.2.3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := l.Check(ctx, botcheck.LoginAttempt{Proof: tc.proof, Login: tc.login, Address: tc.addr})
			if !errors.Is(err, botcheck.ErrMissing) {
				t.Fatalf("err %v, want the payload's refusal (no payload)", err)
			}
		})
	}

	// The login as typed, case-folded: the proof passes, strong.
	p, err := l.Check(ctx, botcheck.LoginAttempt{Proof: proof, Login: "ada@example.com", Address: addr})
	if err != nil {
		t.Fatal(err)
	}
	if p.Proof == nil || p.Proof.UserID != 42 || !p.Proof.TwoFactor || !p.Strong {
		t.Fatalf("passed %+v, want user 42's two-factor proof, strong", p)
	}

	// Spent: the attempt falls back to its payload.
	if _, err := l.Check(ctx, botcheck.LoginAttempt{Proof: proof, Login: login, Address: addr}); !errors.Is(err, botcheck.ErrMissing) {
		t.Fatalf("spent proof without payload: %v, want ErrMissing", err)
	}
	_, payload := solved(t, l.Normal)
	p, err = l.Check(ctx, botcheck.LoginAttempt{Proof: proof, Payload: payload, Login: login, Address: addr})
	if err != nil || p.Proof != nil || p.Strong {
		t.Fatalf("spent proof with a payload: %+v %v, want the payload's pass", p, err)
	}
}

func TestLoginProofExpires(t *testing.T) {
	c := newClock()
	l := newLogin(&memStore{spent: map[string]time.Time{}}, c)
	proof := l.IssueProof("ada", "192.0.2.1", 7, false)
	c.Add(botcheck.ProofLifetime)
	if _, err := l.Check(context.Background(), botcheck.LoginAttempt{Proof: proof, Login: "ada", Address: "192.0.2.1"}); !errors.Is(err, botcheck.ErrMissing) {
		t.Fatalf("expired proof: %v, want ErrMissing", err)
	}
}

func TestLoginCheckFailsClosed(t *testing.T) {
	c := newClock()
	l := newLogin(&downStore{}, c)
	proof := l.IssueProof("ada", "192.0.2.1", 7, false)
	_, err := l.Check(context.Background(), botcheck.LoginAttempt{Proof: proof, Login: "ada", Address: "192.0.2.1"})
	if err == nil || botcheck.IsRefusal(err) {
		t.Fatalf("store down: %v, want an error that is not a refusal", err)
	}
}
