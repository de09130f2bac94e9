package adminapi

import (
	"context"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/contact"
)

// The contact inbox under /vitrine/v1/admin/messages (WooCommerce has
// none): list, read (marks read), status changes, replies by mail,
// delete, and the attachments' downloads. The rules are
// contact.Service's.

const messagesPath = "/wp-json/vitrine/v1/admin/messages"

type messageJSON struct {
	ID         int64              `json:"id"`
	Date       string             `json:"date"`
	Status     string             `json:"status"`
	FormID     int64              `json:"form_id"`
	FormTitle  string             `json:"form_title"`
	Name       string             `json:"name"`
	Email      string             `json:"email"`
	Subject    string             `json:"subject"`
	Excerpt    string             `json:"excerpt"`
	Fields     []messageFieldJSON `json:"fields"`
	Files      []messageFileJSON  `json:"files"`
	Replies    []messageReplyJSON `json:"replies"`
	ClientIP   string             `json:"client_ip"`
	CustomerID int64              `json:"customer_id"`
}

type messageFieldJSON struct {
	Name  string `json:"name"`
	Label string `json:"label"`
	Value string `json:"value"`
}

type messageFileJSON struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	MIMEType string `json:"mime_type"`
	Size     int64  `json:"size"`
	// Purged: the retention removed the content; Download is "" then.
	Purged   bool   `json:"purged"`
	Download string `json:"download"`
}

type messageReplyJSON struct {
	ID      int64  `json:"id"`
	Date    string `json:"date"`
	Author  string `json:"author"`
	To      string `json:"to"`
	Subject string `json:"subject"`
	Message string `json:"message"`
	// Mail is the reply's mail in the outbox: queued, sent or failed.
	Mail string `json:"mail"`
}

func messageOut(m *contact.Message) messageJSON {
	out := messageJSON{ID: m.ID, Date: m.CreatedAt.UTC().Format(time.RFC3339), Status: m.Status, FormID: m.FormID, FormTitle: m.FormTitle,
		Name: m.Name, Email: m.Email, Subject: m.Subject, Excerpt: m.Excerpt, ClientIP: m.ClientIP, CustomerID: m.UserID,
		Fields: []messageFieldJSON{}, Files: []messageFileJSON{}, Replies: []messageReplyJSON{}}
	for _, f := range m.Fields {
		out.Fields = append(out.Fields, messageFieldJSON{Name: f.Name, Label: f.Label, Value: strings.Join(f.Values, ", ")})
	}
	for _, f := range m.Files {
		j := messageFileJSON{ID: f.ID, Name: f.Name, MIMEType: f.MIME, Size: f.Size, Purged: f.Purged}
		if !f.Purged {
			j.Download = messagesPath + "/" + strconv.FormatInt(m.ID, 10) + "/files/" + strconv.FormatInt(f.ID, 10)
		}
		out.Files = append(out.Files, j)
	}
	for _, r := range m.Replies {
		out.Replies = append(out.Replies, replyOut(r))
	}
	return out
}

func replyOut(r contact.Reply) messageReplyJSON {
	return messageReplyJSON{ID: r.ID, Date: r.CreatedAt.UTC().Format(time.RFC3339), Author: r.Author, To: r.To,
		Subject: r.Subject, Message: r.Text, Mail: r.Mail}
}

// GET /wp-json/vitrine/v1/admin/messages?status=&search=&page=&per_page=
func (a *API) messagesList(w http.ResponseWriter, r *http.Request, _ Staff) error {
	var q contact.InboxQuery
	return List[contact.Message, messageJSON]{
		Search:  &q.Search,
		Filters: []Filter{OneOf("status", &q.Status, contact.InboxAll, contact.InboxNew, contact.InboxRead, contact.InboxReplied, contact.InboxTrash)},
		Fetch: func(ctx context.Context, p Paging) ([]contact.Message, int, error) {
			q.Page, q.PerPage = p.Page, p.PerPage
			return a.d.Contact.Inbox(ctx, q)
		},
		Row: func(m contact.Message) messageJSON { return messageOut(&m) },
	}.Serve(w, r)
}

// GET /wp-json/vitrine/v1/admin/messages/counts: messages per status.
func (a *API) messageCounts(w http.ResponseWriter, r *http.Request, _ Staff) error {
	return Tabs{Count: a.d.Contact.InboxCounts}.Serve(w, r)
}

// GET /wp-json/vitrine/v1/admin/messages/{id}: the message, marked read.
func (a *API) messageGet(w http.ResponseWriter, r *http.Request, _ Staff) error {
	return getByID(w, r, a.d.Contact.Open, messageOut)
}

// PUT /wp-json/vitrine/v1/admin/messages/{id} {"status": "new"|"read"|"trash"}
func (a *API) messageUpdate(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, status, err := idAndStatus(r, nil, "status is not one of new, read, trash.")
	if err != nil {
		return err
	}
	m, err := a.d.Contact.SetStatus(r.Context(), id, status)
	if err != nil {
		return err
	}
	Note(r, "message."+status, "message", m.ID, "Marked the message from "+senderName(m)+" as "+m.Status)
	WriteJSON(w, http.StatusOK, messageOut(m))
	return nil
}

// DELETE /wp-json/vitrine/v1/admin/messages/{id}[?force=true]: to the
// trash, or, with force, for good (only from the trash).
func (a *API) messageDelete(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, force, err := idAndForce(r)
	if err != nil {
		return err
	}
	if !force {
		m, err := a.d.Contact.SetStatus(r.Context(), id, contact.InboxTrash)
		if err != nil {
			return err
		}
		Note(r, "message.trash", "message", m.ID, "Trashed the message from "+senderName(m))
		WriteJSON(w, http.StatusOK, messageOut(m))
		return nil
	}
	if err := a.d.Contact.Delete(r.Context(), id); err != nil {
		return err
	}
	Note(r, "message.delete", "message", id, "Deleted the message permanently")
	WriteJSON(w, http.StatusOK, map[string]any{"deleted": true, "id": id})
	return nil
}

// POST /wp-json/vitrine/v1/admin/messages/{id}/replies {"subject", "message"}:
// the reply is mailed to the sender's address through the outbox.
func (a *API) messageReply(w http.ResponseWriter, r *http.Request, st Staff) error {
	var body struct {
		Subject string `json:"subject"`
		Message string `json:"message"`
	}
	id, err := idAndBody(r, &body)
	if err != nil {
		return err
	}
	rp, err := a.d.Contact.Reply(r.Context(), id, contact.ReplyInput{StaffID: st.ID, StaffName: st.Name, Subject: body.Subject, Text: body.Message})
	if err != nil {
		return err
	}
	Note(r, "message.reply", "message", id, "Replied to "+rp.To+": "+rp.Subject)
	WriteJSON(w, http.StatusCreated, replyOut(*rp))
	return nil
}

// GET /wp-json/vitrine/v1/admin/messages/{id}/files/{file}: an attachment,
// always as a download: Content-Disposition attachment, nosniff, a CSP
// that runs nothing, and its stored type (found in its content at upload)
// unless that is a type a browser would render as a page or a script
// (HTML, XML, SVG…), which is sent as application/octet-stream.
func (a *API) messageFile(w http.ResponseWriter, r *http.Request, _ Staff) error {
	id, fileID, err := twoIDs(r, "file")
	if err != nil {
		return err
	}
	f, err := a.d.Contact.File(r.Context(), id, fileID)
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", downloadType(f.MIME))
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": f.Name}))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("Content-Length", strconv.Itoa(len(f.Content)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(f.Content)
	}
	return nil
}

// downloadType is the Content-Type a stored file is sent with.
func downloadType(stored string) string {
	t, _, err := mime.ParseMediaType(stored)
	if err != nil {
		return "application/octet-stream"
	}
	switch {
	case strings.Contains(t, "html"), strings.Contains(t, "xml"), strings.Contains(t, "javascript"), strings.Contains(t, "ecmascript"):
		return "application/octet-stream"
	}
	return t
}

// senderName names a message's sender in the audit log.
func senderName(m *contact.Message) string {
	if m.Name == "" {
		return "a visitor"
	}
	return m.Name
}
