package privacy

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"vitrine/internal/account"
	"vitrine/internal/mail"
)

// Outbox kinds of the privacy mails; ref is the request id. The store
// queues them in the transaction that made the link.
const (
	// MailConfirm asks the person to confirm a request.
	MailConfirm = "privacy_confirm"
	// MailExportReady sends an export's one-time download link.
	MailExportReady = "privacy_export_ready"
)

// MailKinds lists the kinds above.
var MailKinds = []string{MailConfirm, MailExportReady}

// Paths of the links the mails carry (internal/privacyapi answers them).
const (
	ConfirmPath  = "/privacy-request/confirm/"
	DownloadPath = "/privacy-request/download/"
)

// Renderer is the outbox Renderer of the privacy mails: the link's token
// is opened from its seal at send time. A link used or expired, or a seal
// that does not open, is void (a permanent error): a dead link is never
// mailed.
func (s *Service) Renderer(baseURL string) mail.Renderer {
	return func(ctx context.Context, kind, ref string) (mail.Message, error) {
		id, err := strconv.ParseInt(ref, 10, 64)
		if err != nil || id <= 0 || (kind != MailConfirm && kind != MailExportReady) {
			return mail.Message{}, mail.Permanent(fmt.Errorf("privacy: bad mail %s %q", kind, ref))
		}
		l, err := s.Store.PrivacyLink(ctx, kind, id)
		if errors.Is(err, ErrNotFound) {
			return mail.Message{}, mail.Permanent(err)
		}
		if err != nil {
			return mail.Message{}, err
		}
		if l.Used || l.Sealed == "" || !s.now().Before(l.ExpiresAt) || s.Sealer == nil || l.Email == "" {
			return mail.Message{}, mail.Permanent(fmt.Errorf("privacy: %s %d: the link is void", kind, id))
		}
		tok, err := s.Sealer.OpenToken(l.Sealed, l.Hash)
		if err != nil || account.HashToken(tok) != l.Hash {
			return mail.Message{}, mail.Permanent(fmt.Errorf("privacy: %s %d: the seal does not open", kind, id))
		}
		name := ""
		if s.SiteName != nil {
			name = s.SiteName()
		}
		return Compose(kind, l, strings.TrimRight(baseURL, "/"), tok, name), nil
	}
}

// Compose builds a privacy mail to l.Email with the link to token.
func Compose(kind string, l *Link, baseURL, token, shop string) mail.Message {
	shopName := shop
	if shopName == "" {
		shopName = "the shop"
	}
	what, action := "an export of the personal data", "export of personal data"
	if l.Kind == KindErase {
		what, action = "the erasure of the personal data", "erasure of personal data"
	}
	var subject, body string
	switch kind {
	case MailConfirm:
		link := baseURL + ConfirmPath + "?token=" + url.QueryEscape(token)
		subject = fmt.Sprintf("[%s] Confirm action: %s", shopName, action)
		body = fmt.Sprintf("Howdy,\n\nA request has been made on %s for %s of the account or orders of %s.\n\n"+
			"To confirm this, please open the following link (it works until %s):\n\n%s\n\n"+
			"You can safely ignore and delete this email if you do not want to take this action.\n",
			shopName, what, l.Email, l.ExpiresAt.UTC().Format("January 2, 2006 15:04 MST"), link)
		if l.Kind == KindErase {
			body += "\nOnce you confirm, the shop's staff will review the request and erase the data. Records the shop must keep (the amounts and products of your orders) are kept without your name, addresses or contact details.\n"
		}
	default:
		link := baseURL + DownloadPath + "?token=" + url.QueryEscape(token)
		subject = fmt.Sprintf("[%s] Personal Data Export", shopName)
		body = fmt.Sprintf("Howdy,\n\nYour request for an export of personal data has been completed. You may download your personal data from this link, once, until %s:\n\n%s\n\n"+
			"For privacy and security, the file will be deleted when the link expires.\n",
			l.ExpiresAt.UTC().Format("January 2, 2006 15:04 MST"), link)
	}
	body += "\nThis email has been sent to " + l.Email + ".\n\nRegards,\n" + shopName + "\n"
	return mail.Message{To: []string{l.Email}, Subject: subject, Text: body}
}
