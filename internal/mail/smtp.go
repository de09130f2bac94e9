package mail

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"mime"
	"net"
	netmail "net/mail"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	gomail "github.com/wneessen/go-mail"
)

// TLS modes of an SMTP connection.
const (
	TLSNone     = "none"     // plain SMTP (a local relay)
	TLSStartTLS = "starttls" // STARTTLS required (submission, port 587)
	TLSImplicit = "tls"      // TLS from the first byte (port 465)
)

// DefaultSendTimeout bounds one send (connect, TLS, auth and data).
const DefaultSendTimeout = 30 * time.Second

// SMTPConfig configures the SMTP sender. ParseSMTPURL builds one from a URL.
type SMTPConfig struct {
	Host     string
	Port     int
	Username string
	Password string
	// TLS is TLSNone, TLSStartTLS or TLSImplicit.
	TLS string
	// From is the sender address used when a message has none; it may carry
	// a display name ("Vitrine <shop@example.com>").
	From string
	// Timeout bounds one send; 0 means DefaultSendTimeout.
	Timeout time.Duration
	// HELO is the name given in EHLO; empty means the machine's host name.
	HELO string
	// TLSConfig, when set, replaces the default TLS settings (to trust a
	// private CA, say). It is not settable from the URL.
	TLSConfig *tls.Config
}

// String describes the configuration for logs, without the password.
func (c SMTPConfig) String() string {
	u := url.URL{Scheme: "smtp", Host: net.JoinHostPort(c.Host, strconv.Itoa(c.Port))}
	if c.Username != "" {
		u.User = url.UserPassword(c.Username, "xxxxx")
	}
	q := url.Values{}
	q.Set("tls", c.TLS)
	q.Set("from", c.From)
	u.RawQuery = q.Encode()
	return u.String()
}

// ParseSMTPURL reads an SMTP configuration from a URL:
//
//	smtp://user:pass@host:port?tls=none|starttls|tls&from=shop@example.com&timeout=30s&helo=name
//
// smtps:// means tls=tls. tls defaults to starttls (tls for smtps). The
// port defaults to 25 for none, 587 for starttls and 465 for tls. from is
// required. User and password are URL-encoded; they are refused with
// tls=none unless the host is a loopback address (a password is never sent
// in clear over a network).
func ParseSMTPURL(raw string) (SMTPConfig, error) {
	var c SMTPConfig
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		// url's errors quote the whole URL, password included.
		return c, errors.New("smtp url: not a valid URL")
	}
	switch u.Scheme {
	case "smtp":
		c.TLS = TLSStartTLS
	case "smtps":
		c.TLS = TLSImplicit
	default:
		return c, fmt.Errorf("smtp url: scheme must be smtp or smtps, not %q", u.Scheme)
	}
	if u.Opaque != "" || u.Host == "" {
		return c, errors.New("smtp url: no host (expected smtp://host:port?from=…)")
	}
	if u.Path != "" && u.Path != "/" {
		return c, fmt.Errorf("smtp url: unexpected path %q", u.Path)
	}
	c.Host = u.Hostname()
	if c.Host == "" {
		return c, errors.New("smtp url: no host")
	}
	if u.User != nil {
		c.Username = u.User.Username()
		c.Password, _ = u.User.Password()
		if c.Username == "" {
			return c, errors.New("smtp url: a password needs a user name")
		}
	}
	q := u.Query()
	for k, v := range q {
		if len(v) != 1 {
			return c, fmt.Errorf("smtp url: %s is given %d times", k, len(v))
		}
		switch k {
		case "tls":
			switch v[0] {
			case TLSNone, TLSStartTLS, TLSImplicit:
				c.TLS = v[0]
			default:
				return c, fmt.Errorf("smtp url: tls must be none, starttls or tls, not %q", v[0])
			}
		case "from":
			c.From = v[0]
		case "timeout":
			d, err := time.ParseDuration(v[0])
			if err != nil || d <= 0 {
				return c, fmt.Errorf("smtp url: timeout must be a positive duration such as 30s, not %q", v[0])
			}
			c.Timeout = d
		case "helo":
			c.HELO = v[0]
		default:
			return c, fmt.Errorf("smtp url: unknown parameter %q (known: tls, from, timeout, helo)", k)
		}
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return c, fmt.Errorf("smtp url: port must be 1 to 65535, not %q", p)
		}
		c.Port = n
	}
	if err := c.validate(); err != nil {
		return c, err
	}
	return c, nil
}

// validate checks the configuration and fills the defaults.
func (c *SMTPConfig) validate() error {
	if c.Host == "" {
		return errors.New("smtp: no host")
	}
	switch c.TLS {
	case "":
		c.TLS = TLSStartTLS
	case TLSNone, TLSStartTLS, TLSImplicit:
	default:
		return fmt.Errorf("smtp: tls must be none, starttls or tls, not %q", c.TLS)
	}
	if c.Port == 0 {
		c.Port = map[string]int{TLSNone: 25, TLSStartTLS: 587, TLSImplicit: 465}[c.TLS]
	}
	if c.Port < 1 || c.Port > 65535 {
		return fmt.Errorf("smtp: port must be 1 to 65535, not %d", c.Port)
	}
	if c.From == "" {
		return errors.New("smtp: from is required (the sender address, e.g. from=shop@example.com)")
	}
	if _, err := netmail.ParseAddress(c.From); err != nil {
		return fmt.Errorf("smtp: from %q is not an email address: %v", c.From, err)
	}
	if c.Username != "" && c.TLS == TLSNone && !loopback(c.Host) {
		return fmt.Errorf("smtp: refusing to send a password in clear to %s; use tls=starttls or tls=tls", c.Host)
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultSendTimeout
	}
	if c.Timeout < 0 {
		return errors.New("smtp: timeout must be positive")
	}
	return nil
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// SMTPSender sends messages over SMTP, one connection per message (the
// shop sends a few messages a minute; a kept-open connection would only
// time out between them).
type SMTPSender struct {
	cfg    SMTPConfig
	client *gomail.Client
}

// NewSMTPSender checks the configuration and returns a sender. It does not
// connect: a server that is down shows at the first send.
func NewSMTPSender(cfg SMTPConfig) (*SMTPSender, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	opts := []gomail.Option{gomail.WithPort(cfg.Port), gomail.WithTimeout(cfg.Timeout)}
	switch cfg.TLS {
	case TLSNone:
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	case TLSStartTLS:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	case TLSImplicit:
		opts = append(opts, gomail.WithSSL())
	}
	if cfg.TLSConfig != nil {
		tc := cfg.TLSConfig.Clone()
		if tc.ServerName == "" {
			tc.ServerName = cfg.Host
		}
		opts = append(opts, gomail.WithTLSConfig(tc))
	}
	if cfg.HELO != "" {
		opts = append(opts, gomail.WithHELO(cfg.HELO))
	}
	if cfg.Username != "" {
		auth := gomail.SMTPAuthAutoDiscover // the strongest the server offers
		if cfg.TLS == TLSNone {
			auth = gomail.SMTPAuthPlainNoEnc // validate allowed this for loopback only
		}
		opts = append(opts, gomail.WithSMTPAuth(auth), gomail.WithUsername(cfg.Username), gomail.WithPassword(cfg.Password))
	}
	client, err := gomail.NewClient(cfg.Host, opts...)
	if err != nil {
		return nil, fmt.Errorf("smtp: %w", err)
	}
	return &SMTPSender{cfg: cfg, client: client}, nil
}

// Config returns the sender's configuration (with defaults filled).
func (s *SMTPSender) Config() SMTPConfig { return s.cfg }

// Send delivers m within the configured timeout (or ctx's deadline, if
// sooner). A message that cannot be built (no recipient, a bad address, no
// text) fails with an error wrapping ErrPermanent.
func (s *SMTPSender) Send(ctx context.Context, m Message) error {
	msg, err := s.build(m)
	if err != nil {
		return Permanent(err)
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	if err := s.client.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("smtp %s:%d: %w", s.cfg.Host, s.cfg.Port, err)
	}
	return nil
}

func (s *SMTPSender) build(m Message) (*gomail.Msg, error) {
	if len(m.To) == 0 {
		return nil, errors.New("mail: no recipient")
	}
	if strings.TrimSpace(m.Text) == "" {
		return nil, errors.New("mail: no text part")
	}
	msg := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	from := m.From
	if from == "" {
		from = s.cfg.From
	}
	if err := msg.From(from); err != nil {
		return nil, fmt.Errorf("mail: from: %w", err)
	}
	if err := msg.To(m.To...); err != nil {
		return nil, fmt.Errorf("mail: to: %w", err)
	}
	if m.ReplyTo != "" {
		// A line break in a header value would start a header of its own.
		if strings.ContainsAny(m.ReplyTo, "\r\n") {
			return nil, errors.New("mail: reply-to holds a line break")
		}
		if err := msg.ReplyTo(m.ReplyTo); err != nil {
			return nil, fmt.Errorf("mail: reply-to: %w", err)
		}
	}
	msg.Subject(oneLine(m.Subject))
	msg.SetDate()
	if id := strings.Trim(m.MessageID, "<> \t\r\n"); id != "" {
		if strings.ContainsAny(id, "<> \t\r\n\"()[],;:\\") || strings.Count(id, "@") > 1 {
			return nil, fmt.Errorf("mail: bad message id %q", m.MessageID)
		}
		if !strings.Contains(id, "@") {
			id += "@" + addressDomain(from)
		}
		msg.SetMessageIDWithValue(id)
	} else {
		msg.SetMessageID()
	}
	if len(m.ListUnsubscribe) > 0 {
		links := make([]string, 0, len(m.ListUnsubscribe))
		oneClick := false
		for _, u := range m.ListUnsubscribe {
			if strings.ContainsAny(u, "\r\n<>, ") || !(strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "mailto:")) {
				return nil, fmt.Errorf("mail: bad unsubscribe link %q", u)
			}
			oneClick = oneClick || strings.HasPrefix(u, "https://")
			links = append(links, "<"+u+">")
		}
		msg.SetGenHeader(gomail.Header("List-Unsubscribe"), strings.Join(links, ", "))
		if oneClick {
			msg.SetGenHeader(gomail.Header("List-Unsubscribe-Post"), "List-Unsubscribe=One-Click")
		}
	}
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	}
	for _, a := range m.Attachments {
		ct := "application/octet-stream"
		if t, _, err := mime.ParseMediaType(a.ContentType); err == nil && strings.Count(t, "/") == 1 {
			ct = t
		}
		if err := msg.AttachReader(AttachmentName(a.Name), bytes.NewReader(a.Data),
			gomail.WithFileContentType(gomail.ContentType(ct))); err != nil {
			return nil, fmt.Errorf("mail: attachment: %w", err)
		}
	}
	return msg, nil
}

// AttachmentName is a file name safe to write in a MIME header
// (FileName), "attachment" when nothing is left.
func AttachmentName(name string) string { return FileName(name, "attachment") }

// FileName is a file name safe to store, show and write in a MIME header
// parameter: the last path element, without control characters, quotes,
// backslashes or characters special to shells and MIME parameters, without
// leading or trailing dots, at most 100 characters keeping a short
// extension; fallback when nothing is left. Uploaded files (the contact
// form) and mail attachments share it, so a name is cleaned one way.
func FileName(name, fallback string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		switch {
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == utf8.RuneError:
			return -1
		case strings.ContainsRune("\"'`<>:;*?|%$&{}[]", r):
			return '_'
		}
		return r
	}, strings.ToValidUTF8(name, ""))
	name = strings.Trim(strings.TrimSpace(name), ".")
	if r := []rune(name); len(r) > 100 {
		ext := path.Ext(name)
		if utf8.RuneCountInString(ext) > 10 {
			ext = ""
		}
		name = string(r[:100-utf8.RuneCountInString(ext)]) + ext
	}
	if name == "" {
		return fallback
	}
	return name
}

// addressDomain is the domain of an email address ("vitrine.invalid" when
// it has none).
func addressDomain(addr string) string {
	if a, err := netmail.ParseAddress(addr); err == nil {
		if i := strings.LastIndexByte(a.Address, '@'); i >= 0 && i+1 < len(a.Address) {
			return a.Address[i+1:]
		}
	}
	return "vitrine.invalid"
}
