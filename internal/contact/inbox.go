package contact

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"vitrine/internal/checkout"
	"vitrine/internal/contactform"
	"vitrine/internal/mail"
)

// The contact inbox: staff read the stored submissions, answer
// them by mail and delete them. A message moves new → read (opened) →
// replied (answered); trash holds deleted ones until they are deleted for
// good. A reply is stored with the submission and its mail queued in the
// same transaction (KindReply); it goes to the address the visitor gave in
// the form, fixed when the reply is written.

// Inbox statuses of a submission.
const (
	InboxNew     = "new"
	InboxRead    = "read"
	InboxReplied = "replied"
	InboxTrash   = "trash"
	// InboxAll lists every message but the trashed ones.
	InboxAll = "all"
)

// KindReply is the outbox kind of a reply to a contact message; its ref is
// the reply's id.
const KindReply = "contact_reply"

// excerptRunes is the length of Message.Excerpt.
const excerptRunes = 160

// Bounds of a reply.
const (
	MaxReplySubject = 200
	MaxReplyText    = 10000
)

// Reply is a staff member's answer to a message, sent by mail.
type Reply struct {
	ID           int64
	SubmissionID int64
	UserID       int64  // the staff member (0 once the account is deleted)
	Author       string // the staff member's name in the admin
	To           string // the visitor's address
	Subject      string
	Text         string
	CreatedAt    time.Time
	// Mail is the outbox's state of the reply's mail: MailQueued,
	// MailSent or MailFailed (filled by reads).
	Mail string
}

// States of a reply's mail.
const (
	MailQueued = "queued"
	MailSent   = "sent"
	MailFailed = "failed"
)

// InboxQuery selects messages, newest first.
type InboxQuery struct {
	Status string // InboxAll (default) or one status
	// Search matches the submitted values (case-insensitive).
	Search  string
	Page    int // from 1
	PerPage int // 1..100
}

// FieldValue is one field of a message, with its label in the form.
type FieldValue struct {
	Name   string
	Label  string
	Values []string
}

// Message is a stored submission as the inbox shows it.
type Message struct {
	*Stored
	FormTitle string
	// Name, Email and Subject are read from the form's fields: the
	// visitor's name (your-name), the first email field when it holds a
	// valid address ("" otherwise: no reply is possible), the subject
	// field or the form's title.
	Name, Email, Subject string
	// Fields are the values by the form's fields, files and acceptance
	// boxes aside.
	Fields []FieldValue
	// Excerpt is the start of the form's first long-text field, on one
	// line, for a list.
	Excerpt string
}

// InputError is a request refused for one field, with the text to show.
type InputError struct {
	Field   string
	Message string
}

func (e *InputError) Error() string { return e.Field + ": " + e.Message }

// Errors of the inbox.
var (
	ErrBadStatus  = errors.New("contact: unknown inbox status")
	ErrNotTrashed = errors.New("contact: only a message in the trash can be deleted permanently")
	ErrTrashed    = errors.New("contact: a message in the trash cannot be replied to")
	ErrNoAddress  = errors.New("contact: the message has no valid email address to reply to")
	ErrFilePurged = errors.New("contact: the file was removed after the retention period")
)

// Inbox returns one page of messages (their files without content) and
// their total.
func (s *Service) Inbox(ctx context.Context, q InboxQuery) ([]Message, int, error) {
	if q.Status == "" {
		q.Status = InboxAll
	}
	switch q.Status {
	case InboxAll, InboxNew, InboxRead, InboxReplied, InboxTrash:
	default:
		return nil, 0, ErrBadStatus
	}
	q.Search = strings.TrimSpace(q.Search)
	q.Page = max(q.Page, 1)
	if q.PerPage <= 0 {
		q.PerPage = 20
	}
	q.PerPage = min(q.PerPage, 100)
	sts, total, err := s.Store.ContactInbox(ctx, q)
	if err != nil {
		return nil, 0, err
	}
	out := make([]Message, len(sts))
	for i := range sts {
		out[i] = s.message(&sts[i])
	}
	return out, total, nil
}

// InboxCounts counts the messages by status (every status present).
func (s *Service) InboxCounts(ctx context.Context) (map[string]int, error) {
	c, err := s.Store.ContactCounts(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]int{InboxNew: 0, InboxRead: 0, InboxReplied: 0, InboxTrash: 0}
	for k, v := range c {
		out[k] += v
	}
	return out, nil
}

// Open returns a message with its files' content left out and its
// replies; a new one is marked read (ErrNotFound).
func (s *Service) Open(ctx context.Context, id int64) (*Message, error) {
	st, err := s.Store.ContactSubmission(ctx, id)
	if err != nil {
		return nil, err
	}
	if st.Status == InboxNew {
		if err := s.Store.MarkContactRead(ctx, id); err != nil {
			return nil, err
		}
		st.Status = InboxRead
	}
	return s.opened(st), nil
}

// SetStatus moves a message to new, read or the trash; "read" on a
// message already answered makes it replied again (ErrBadStatus,
// ErrNotFound).
func (s *Service) SetStatus(ctx context.Context, id int64, status string) (*Message, error) {
	switch status {
	case InboxNew, InboxRead, InboxTrash:
	default:
		return nil, ErrBadStatus
	}
	st, err := s.Store.ContactSubmission(ctx, id)
	if err != nil {
		return nil, err
	}
	if status == InboxRead && len(st.Replies) > 0 {
		status = InboxReplied
	}
	if err := s.Store.SetContactStatus(ctx, id, status); err != nil {
		return nil, err
	}
	st.Status = status
	return s.opened(st), nil
}

// ReplyInput is a staff member's reply as the admin sends it.
type ReplyInput struct {
	StaffID   int64
	StaffName string
	// Subject defaults to "Re: " and the message's subject.
	Subject string
	Text    string
}

// Reply stores a reply to a message, queues its mail to the visitor's
// address and marks the message replied, in one transaction. Refusals:
// *InputError (subject, message), ErrNotFound, ErrTrashed, ErrNoAddress.
func (s *Service) Reply(ctx context.Context, id int64, in ReplyInput) (*Reply, error) {
	text := strings.TrimSpace(strings.ReplaceAll(in.Text, "\r\n", "\n"))
	subject := oneLine(in.Subject)
	switch {
	case text == "":
		return nil, &InputError{"message", "Please type your reply."}
	case !utf8.ValidString(text) || !utf8.ValidString(subject):
		return nil, &InputError{"message", "The reply is not valid text."}
	case utf8.RuneCountInString(text) > MaxReplyText:
		return nil, &InputError{"message", fmt.Sprintf("The reply is longer than %d characters.", MaxReplyText)}
	case utf8.RuneCountInString(subject) > MaxReplySubject:
		return nil, &InputError{"subject", fmt.Sprintf("The subject is longer than %d characters.", MaxReplySubject)}
	}
	st, err := s.Store.ContactSubmission(ctx, id)
	if err != nil {
		return nil, err
	}
	if st.Status == InboxTrash {
		return nil, ErrTrashed
	}
	m := s.message(st)
	if m.Email == "" {
		return nil, ErrNoAddress
	}
	if subject == "" {
		subject = clipRunes("Re: "+m.Subject, MaxReplySubject)
	}
	r := &Reply{SubmissionID: id, UserID: max(in.StaffID, 0), Author: oneLine(in.StaffName), To: m.Email,
		Subject: subject, Text: text, CreatedAt: s.now().Truncate(time.Second), Mail: MailQueued}
	if r.ID, err = s.Store.InsertContactReply(ctx, r); err != nil {
		return nil, err
	}
	s.log().Info("contact message replied", "submission", id, "reply", r.ID)
	if s.Queued != nil {
		s.Queued()
	}
	return r, nil
}

// Delete removes a message, its files and its replies for good; only from
// the trash (ErrNotTrashed, ErrNotFound). A reply whose mail had not gone
// yet is not sent.
func (s *Service) Delete(ctx context.Context, id int64) error {
	if err := s.Store.DeleteContactSubmission(ctx, id); err != nil {
		return err
	}
	s.log().Info("contact message deleted", "submission", id)
	return nil
}

// File returns one file of a message with its content: ErrNotFound when
// the message has no such file; ErrFilePurged, with the file's name, type
// and size but no content, when the retention removed it.
func (s *Service) File(ctx context.Context, id, fileID int64) (*StoredFile, error) {
	f, err := s.Store.ContactFile(ctx, id, fileID)
	if err != nil {
		return nil, err
	}
	if f.Purged || f.Content == nil {
		return f, ErrFilePurged
	}
	return f, nil
}

// message derives what the inbox shows of a stored submission.
// opened is a message as staff open it: its files' content left out.
func (s *Service) opened(st *Stored) *Message {
	for i := range st.Files {
		st.Files[i].Content = nil
	}
	m := s.message(st)
	return &m
}

func (s *Service) message(st *Stored) Message {
	form, ok := s.Form(st.FormID)
	if !ok {
		form = contactform.Form{ID: st.FormID, Title: "Contact form"}
	}
	m := Message{Stored: st, FormTitle: form.Title, Email: SenderEmail(form, st), Name: oneLine(firstValue(st, "your-name"))}
	m.Subject = oneLine(firstValue(st, "your-subject"))
	if m.Subject == "" {
		m.Subject = oneLine(form.Title)
	}
	m.Subject = clipRunes(m.Subject, MaxReplySubject)
	kinds := map[string]contactform.Kind{}
	for _, fd := range form.Fields {
		kinds[fd.Name] = fd.Kind
		if fd.Kind == contactform.KindFile || fd.Kind == contactform.KindAcceptance {
			continue
		}
		if vs, ok := st.Values[fd.Name]; ok {
			m.Fields = append(m.Fields, FieldValue{Name: fd.Name, Label: or(fd.Label, fd.Name), Values: vs})
			if fd.Kind == contactform.KindTextarea && m.Excerpt == "" {
				m.Excerpt = clipRunes(oneLine(strings.Join(vs, " ")), excerptRunes)
			}
		}
	}
	for _, name := range sortedFields(form, st.Values) {
		if _, known := kinds[name]; !known {
			if vs, ok := st.Values[name]; ok {
				m.Fields = append(m.Fields, FieldValue{Name: name, Label: name, Values: vs})
			}
		}
	}
	return m
}

func firstValue(st *Stored, name string) string {
	if v := st.Values[name]; len(v) > 0 {
		return strings.TrimSpace(v[0])
	}
	return ""
}

// SenderEmail is the visitor's address: the form's first email field when
// it holds a valid address (checkout.ValidEmail allows no space or line
// break, so it is safe in a header), else "".
func SenderEmail(form contactform.Form, st *Stored) string {
	for _, fd := range form.Fields {
		if fd.Kind == contactform.KindEmail {
			if e := firstValue(st, fd.Name); checkout.ValidEmail(e) {
				return e
			}
			return ""
		}
	}
	return ""
}

// ReplyRenderer is the outbox Renderer of KindReply: the reply to the
// visitor's address, the shop's address as Reply-To, the staff member's
// subject, and a text body with the reply, the shop's name and the
// visitor's message quoted. A missing reply (its message deleted for
// good) is permanent.
func (s *Service) ReplyRenderer(shopTo []string, siteName string) mail.Renderer {
	return func(ctx context.Context, kind, ref string) (mail.Message, error) {
		id, err := strconv.ParseInt(ref, 10, 64)
		if kind != KindReply || err != nil || id <= 0 {
			return mail.Message{}, mail.Permanent(fmt.Errorf("contact: bad mail %s %q", kind, ref))
		}
		r, err := s.Store.ContactReply(ctx, id)
		if errors.Is(err, ErrNotFound) {
			return mail.Message{}, mail.Permanent(err)
		}
		if err != nil {
			return mail.Message{}, err
		}
		st, err := s.Store.ContactSubmission(ctx, r.SubmissionID)
		if errors.Is(err, ErrNotFound) {
			return mail.Message{}, mail.Permanent(err)
		}
		if err != nil {
			return mail.Message{}, err
		}
		return ComposeReply(s.message(st), r, shopTo, siteName), nil
	}
}

// ComposeReply builds the mail of a reply.
func ComposeReply(m Message, r *Reply, shopTo []string, siteName string) mail.Message {
	var b strings.Builder
	b.WriteString(r.Text)
	b.WriteString("\n\n-- \n")
	b.WriteString(or(oneLine(siteName), "The shop"))
	b.WriteString("\n")
	fmt.Fprintf(&b, "\nOn %s you wrote:\n", m.CreatedAt.UTC().Format(time.RFC1123Z))
	for _, f := range m.Fields {
		if f.Name == "your-name" || f.Name == "your-email" {
			continue
		}
		for _, line := range strings.Split(strings.Join(f.Values, ", "), "\n") {
			b.WriteString("> " + line + "\n")
		}
	}
	msg := mail.Message{To: []string{r.To}, Subject: r.Subject, Text: b.String()}
	if len(shopTo) > 0 {
		msg.ReplyTo = shopTo[0]
	}
	return msg
}
