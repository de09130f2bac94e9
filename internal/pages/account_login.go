package pages

import "context"

// The login and registration page (GET /my-account/ for a visitor, and a
// refused POST /my-account/ re-rendered), and the log-out confirmation. Both
// are per visitor: never cached. The server builds the nonces, the entered
// values and the notices; the loader adds the page frame.

// LoginNotice is one notice above a form: Kind "error" or "message"; HTML
// is the server's own markup (user input in it is escaped).
type LoginNotice struct {
	Kind string `json:"kind"`
	HTML string `json:"html"`
}

// LoginValues are the entered values kept after a refused submit
// (passwords never are).
type LoginValues struct {
	Username string `json:"username"`  // login form: email or username
	RegEmail string `json:"reg_email"` // registration form (no username is asked)
}

// AccountLoginPage is the page's data (web/src/types.ts AccountLoginPage).
type AccountLoginPage struct {
	Base
	LoginNonce    string `json:"login_nonce"`
	RegisterNonce string `json:"register_nonce"`
	// AjaxURL receives wordfence_ls_authenticate and
	// wordfence_ls_register_support.
	AjaxURL string `json:"ajax_url"`
	// Botcheck holds the challenge URL per purpose (login, register).
	Botcheck map[string]string `json:"botcheck"`
	// RememberDevice shows the code overlay's "remember for 30 days" box.
	RememberDevice  bool          `json:"remember_device"`
	LostPasswordURL string        `json:"lost_password_url"`
	Redirect        string        `json:"redirect"`
	Values          LoginValues   `json:"values"`
	Form            string        `json:"form"` // "login" or "register": which form the notices belong to
	Notices         []LoginNotice `json:"notices"`
	// SupportNonce (wfls-message-nonce) is set after registration was
	// refused by the bot-check: the page then offers "Message to Support".
	SupportNonce string `json:"support_nonce"`
}

// AccountLoginInput is what the server hands the loader.
type AccountLoginInput struct {
	Page   AccountLoginPage // Base is filled by the loader
	Status int
}

// AccountLogin loads the login and registration page.
func (l *Loader) AccountLogin(ctx context.Context, reqURL string, in AccountLoginInput) (*Result, error) {
	e, err := l.setup(ctx, "account-login", reqURL)
	if err != nil {
		return nil, err
	}
	h := l.privateHead("My account", "/my-account/", l.accountDescription())
	p := in.Page
	p.Base = e.base
	if p.Notices == nil {
		p.Notices = []LoginNotice{}
	}
	if p.Botcheck == nil {
		p.Botcheck = map[string]string{}
	}
	return &Result{Status: loginStatusOr(in.Status, 200), Head: h, Data: p}, nil
}

// AccountLogoutPage asks a logged-in customer to confirm logging out (a
// log-out link without a valid nonce).
type AccountLogoutPage struct {
	Base
	LogoutURL string `json:"logout_url"`
}

// AccountLogout loads the log-out confirmation.
func (l *Loader) AccountLogout(ctx context.Context, reqURL, logoutURL string) (*Result, error) {
	e, err := l.setup(ctx, "account-logout", reqURL)
	if err != nil {
		return nil, err
	}
	h := l.privateHead("Log out", "/my-account/", l.accountDescription())
	return &Result{Status: 200, Head: h, Data: AccountLogoutPage{Base: e.base, LogoutURL: logoutURL}}, nil
}

func loginStatusOr(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}
