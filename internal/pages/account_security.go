package pages

import (
	"context"

	"vitrine/internal/account"
)

// The my-account security page (/my-account/security/): two-factor setup
// and status, recovery codes, remembered devices. Per customer: the
// server renders it per request and never caches it. The server builds
// everything that needs the account (state, nonces, the enrollment's QR
// code, the codes to show once); the loader adds the page frame.

// EnrollmentView is a started two-factor setup: the secret as text, in
// groups of four for reading aloud or typing, the QR code as a PNG data
// URI, and the otpauth:// link (opens an authenticator app on a phone).
type EnrollmentView struct {
	Secret       string   `json:"secret"`
	SecretGroups []string `json:"secret_groups"`
	QR           string   `json:"qr"`
	OTPAuthURL   string   `json:"otpauth_url"`
}

// DeviceView is a remembered device as the page lists it.
type DeviceView struct {
	ID      int64  `json:"id"`
	Label   string `json:"label"`
	Created string `json:"created"`
	Expires string `json:"expires"`
}

// AccountSecurityPage is the security page's data (web/src/types.ts
// AccountSecurityPage).
type AccountSecurityPage struct {
	Base
	LogoutURL  string          `json:"logout_url"`
	Email      string          `json:"email"`
	TwoFactor  bool            `json:"two_factor"`
	CodesLeft  int             `json:"recovery_codes_left"`
	Enrollment *EnrollmentView `json:"enrollment"`
	// RecoveryCodes are shown once, in the answer that made them; null
	// on every other request.
	RecoveryCodes []string     `json:"recovery_codes"`
	Devices       []DeviceView `json:"devices"`
	// Nonces per form: enroll, confirm, new-codes, disable,
	// forget-device, forget-all.
	Nonces map[string]string `json:"nonces"`
	// Notice is the answer to the last form (WooCommerce's "message" or
	// "error" kind), shown in a live region; null when none.
	Notice *Notice `json:"notice"`
	// Errors by field id (enroll_password, confirm_code, new_codes_code,
	// new_codes_password, disable_password, disable_code).
	Errors map[string]string `json:"errors"`
}

// AccountSecurityInput is what the server hands the loader.
type AccountSecurityInput struct {
	User          *account.User
	LogoutURL     string
	CodesLeft     int
	Enrollment    *EnrollmentView
	RecoveryCodes []string
	Devices       []account.Device
	Nonces        map[string]string
	Notice        *Notice
	Errors        map[string]string
	Status        int // 200, or the refusal's status
}

// AccountSecurity loads the security page.
func (l *Loader) AccountSecurity(ctx context.Context, reqURL string, in AccountSecurityInput) (*Result, error) {
	e, err := l.setup(ctx, "account-security", reqURL)
	if err != nil {
		return nil, err
	}
	h := l.privateHead("Security", "", l.accountDescription())
	devices := []DeviceView{}
	for _, d := range in.Devices {
		devices = append(devices, DeviceView{ID: d.ID, Label: d.Label, Created: formatDate(d.CreatedAt), Expires: formatDate(d.ExpiresAt)})
	}
	errs := in.Errors
	if errs == nil {
		errs = map[string]string{}
	}
	status := in.Status
	if status == 0 {
		status = 200
	}
	return &Result{Status: status, Head: h, Data: AccountSecurityPage{Base: e.base, LogoutURL: in.LogoutURL, Email: in.User.Email,
		TwoFactor: in.User.TwoFactor(), CodesLeft: in.CodesLeft, Enrollment: in.Enrollment, RecoveryCodes: in.RecoveryCodes,
		Devices: devices, Nonces: in.Nonces, Notice: in.Notice, Errors: errs}}, nil
}
