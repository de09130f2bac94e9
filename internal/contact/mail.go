package contact

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/checkout"
	"vitrine/internal/contactform"
	"vitrine/internal/mail"
)

// Renderer is the outbox Renderer of KindMessage: the submission to the
// shop's addresses, the visitor's email (the form's first email field,
// when it is a valid address) as Reply-To, the subject from the form's
// subject field (your-subject) or its title, a text body listing the
// fields by label, and the uploaded files as attachments (those the
// retention already removed are listed as removed). A missing submission
// or no shop address is permanent.
func (s *Service) Renderer(shopTo []string, siteName string) mail.Renderer {
	return func(ctx context.Context, kind, ref string) (mail.Message, error) {
		id, err := strconv.ParseInt(ref, 10, 64)
		if kind != KindMessage || err != nil || id <= 0 {
			return mail.Message{}, mail.Permanent(fmt.Errorf("contact: bad mail %s %q", kind, ref))
		}
		if len(shopTo) == 0 {
			return mail.Message{}, mail.Permanent(errors.New("contact: no shop address to send the message to"))
		}
		st, err := s.Store.ContactSubmission(ctx, id)
		if errors.Is(err, ErrNotFound) {
			return mail.Message{}, mail.Permanent(err)
		}
		if err != nil {
			return mail.Message{}, err
		}
		form, ok := s.Form(st.FormID)
		if !ok {
			// The form was removed from the configuration since: the
			// values are still worth sending, under their names.
			form = contactform.Form{ID: st.FormID, Title: "Contact form"}
		}
		return Compose(form, st, shopTo, siteName), nil
	}
}

// Compose builds the shop's mail of a stored submission.
func Compose(form contactform.Form, st *Stored, shopTo []string, siteName string) mail.Message {
	first := func(name string) string {
		if v := st.Values[name]; len(v) > 0 {
			return strings.TrimSpace(v[0])
		}
		return ""
	}
	var replyTo, sender string
	for _, fd := range form.Fields {
		if fd.Kind == contactform.KindEmail && replyTo == "" {
			// checkout.ValidEmail allows no space or line break: nothing
			// the visitor typed can add a header.
			if e := first(fd.Name); checkout.ValidEmail(e) {
				replyTo = e
			}
		}
	}
	sender = oneLine(first("your-name"))
	subject := oneLine(first("your-subject"))
	if subject == "" {
		subject = oneLine(form.Title)
		if sender != "" {
			subject += " from " + sender
		}
	}
	if siteName != "" {
		subject = "[" + oneLine(siteName) + "] " + subject
	}
	subject = clipRunes(subject, 200)

	labels := map[string]string{}
	kinds := map[string]contactform.Kind{}
	for _, fd := range form.Fields {
		labels[fd.Name], kinds[fd.Name] = fd.Label, fd.Kind
	}
	var b strings.Builder
	fmt.Fprintf(&b, "A visitor sent the %s.\n\n", or(oneLine(form.Title), "contact form"))
	for _, name := range sortedFields(form, st.Values) {
		if kinds[name] == contactform.KindFile {
			continue
		}
		vals, ok := st.Values[name]
		if !ok && kinds[name] != contactform.KindAcceptance {
			continue
		}
		label := or(labels[name], name)
		if kinds[name] == contactform.KindAcceptance {
			fmt.Fprintf(&b, "%s: %s\n", label, yesNo(len(vals) > 0 && strings.TrimSpace(strings.Join(vals, "")) != ""))
			continue
		}
		text := strings.Join(vals, ", ")
		if strings.Contains(text, "\n") {
			fmt.Fprintf(&b, "%s:\n%s\n\n", label, strings.TrimRight(text, "\n"))
		} else {
			fmt.Fprintf(&b, "%s: %s\n", label, text)
		}
	}
	var atts []mail.Attachment
	if len(st.Files) > 0 {
		b.WriteString("\nFiles:\n")
		for _, f := range st.Files {
			state := "attached"
			if f.Purged || f.Content == nil {
				state = "removed after the retention period"
			} else {
				atts = append(atts, mail.Attachment{Name: f.Name, ContentType: f.MIME, Data: f.Content})
			}
			fmt.Fprintf(&b, "- %s (%s, %d bytes): %s\n", f.Name, f.MIME, f.Size, state)
		}
	}
	fmt.Fprintf(&b, "\nSent: %s\nAddress: %s\n", st.CreatedAt.UTC().Format(time.RFC1123Z), or(st.ClientIP, "(unknown)"))
	if st.UserID > 0 {
		fmt.Fprintf(&b, "Customer account: #%d\n", st.UserID)
	}
	fmt.Fprintf(&b, "Submission: #%d\n", st.ID)
	return mail.Message{To: shopTo, ReplyTo: replyTo, Subject: subject, Text: b.String(), Attachments: atts}
}

// oneLine folds every run of white space, line breaks included, into one
// space: a header value built from it cannot start a new header.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func clipRunes(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
