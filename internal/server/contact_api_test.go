package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http/httptest"
	"net/textproto"
	"strings"
	"testing"

	"vitrine/internal/contact"
	"vitrine/internal/contactform"
	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// --- harness (prefixed contact*: package server_test is shared) ---

const contactFeedbackPath = "/wp-json/contact-form-7/v1/contact-forms/1/feedback"

// contactFile is one file part of a feedback POST.
type contactFile struct {
	field, name, ctype string
	data               []byte
}

// contactBody builds a multipart body: fields in order (name, value
// pairs; a name may repeat), then the files.
func contactBody(t testing.TB, fields []string, files ...contactFile) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for i := 0; i+1 < len(fields); i += 2 {
		if err := mw.WriteField(fields[i], fields[i+1]); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range files {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, f.field, f.name))
		h.Set("Content-Type", f.ctype)
		w, err := mw.CreatePart(h)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write(f.data)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return mw.FormDataContentType(), buf.Bytes()
}

// contactPost posts a raw body with a content type from the browser's
// address.
func contactPost(b *browser, path, ctype string, body []byte) answer {
	b.s.t.Helper()
	req := httptest.NewRequest("POST", path, bytes.NewReader(body))
	req.Header.Set("Content-Type", ctype)
	req.RemoteAddr = b.addr
	for _, c := range b.cookies {
		req.AddCookie(c)
	}
	rec := httptest.NewRecorder()
	b.s.srv.ServeHTTP(rec, req)
	res := rec.Result()
	return answer{status: res.StatusCode, header: res.Header, raw: rec.Body.String(), set: res.Cookies()}
}

// contactGood is a valid submission of the default form (without the
// bot-check payload), with overrides: name, value pairs replace the
// field's value ("" removes it).
func contactGood(over ...string) []string {
	base := [][2]string{{"_wpcf7", "1"}, {"_wpcf7_version", "6.0"}, {"_wpcf7_locale", "en_US"},
		{"_wpcf7_unit_tag", "wpcf7-f1-p12-o1"}, {"_wpcf7_container_post", "12"}, {"_wpcf7_posted_data_hash", ""},
		{"your-name", "Ada Lovelace"}, {"your-email", "ada@example.com"}, {"your-subject", "Sizes"},
		{"your-message", "Do you have the tank top in XS?\nThanks."}, {"your-consent", "1"}}
	set := map[string]string{}
	for i := 0; i+1 < len(over); i += 2 {
		set[over[i]] = over[i+1]
	}
	var out []string
	for _, kv := range base {
		v, ok := set[kv[0]]
		if !ok {
			v = kv[1]
		} else if v == "" {
			delete(set, kv[0])
			continue
		}
		delete(set, kv[0])
		out = append(out, kv[0], v)
	}
	for i := 0; i+1 < len(over); i += 2 {
		if _, ok := set[over[i]]; ok && over[i+1] != "" {
			out = append(out, over[i], over[i+1])
		}
	}
	return out
}

// contactSend posts fields and files to form 1 with a fresh bot-check
// payload and decodes CF7's answer.
func contactSend(b *browser, fields []string, files ...contactFile) (answer, map[string]any) {
	b.s.t.Helper()
	fields = append(fields, "_wpcf7_recaptcha_response", b.solve("contact"))
	ct, body := contactBody(b.s.t, fields, files...)
	a := contactPost(b, contactFeedbackPath, ct, body)
	if a.status != 200 {
		b.s.t.Fatalf("feedback: %d %s", a.status, a.raw)
	}
	return a, a.json(b.s.t)
}

// contactCounts counts stored submissions, files and contact mails.
func contactCounts(t testing.TB, db *sqlstore.DB) (subs, files, mails int) {
	t.Helper()
	ctx := context.Background()
	c, err := db.CountContact(ctx)
	if err != nil {
		t.Fatal(err)
	}
	q, err := db.MailOutbox(ctx, "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range q {
		if m.Kind == contact.KindMessage {
			mails++
		}
	}
	return int(c.Submissions), int(c.Files), mails
}

var contactPNG = append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), bytes.Repeat([]byte{0}, 64)...)

// --- the endpoints ---

func TestContactFeedbackSent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		s := newLoginShop(t, db, server.Config{})
		b := s.browser()
		a, m := contactSend(b, contactGood(), contactFile{"your-file", "photo.png", "image/png", contactPNG})
		if m["status"] != "mail_sent" || m["message"] != "Thank you for your message. It has been sent." ||
			m["into"] != "#wpcf7-f1-p12-o1" || m["contact_form_id"] != float64(1) || len(str(m, "posted_data_hash")) != 32 ||
			m["invalid_fields"] != nil || a.header.Get("Cache-Control") != "no-store" {
			t.Fatalf("sent: %v %v", a.header, m)
		}
		if subs, files, mails := contactCounts(t, db); subs != 1 || files != 1 || mails != 1 {
			t.Fatalf("stored %d submissions, %d files, %d mails", subs, files, mails)
		}
		st, err := db.ContactSubmission(context.Background(), 1)
		if err != nil || st.FormID != 1 || st.UnitTag != "wpcf7-f1-p12-o1" || st.ContainerPost != 12 || st.ClientIP != "192.0.2.10" ||
			st.Values["your-email"][0] != "ada@example.com" || st.Values["_wpcf7"] != nil || len(st.Files) != 1 ||
			st.Files[0].MIME != "image/png" || !bytes.Equal(st.Files[0].Content, contactPNG) || st.Status != "new" {
			t.Fatalf("stored: %+v %v", st, err)
		}
	})
}

func TestContactSchemaAndRefill(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		s := newLoginShop(t, db, server.Config{})
		b := s.browser()
		a := b.do("GET", "/wp-json/contact-form-7/v1/contact-forms/1/feedback/schema", nil)
		want, _ := json.Marshal(contactform.DefaultForm().Schema())
		if a.status != 200 || strings.TrimSpace(a.raw) != string(want) || !strings.Contains(a.header.Get("Cache-Control"), "max-age") {
			t.Fatalf("schema: %d %v %s", a.status, a.header, a.raw)
		}
		if a := b.do("GET", "/wp-json/contact-form-7/v1/contact-forms/1/refill", nil); a.status != 200 || strings.TrimSpace(a.raw) != "{}" {
			t.Fatalf("refill: %d %s", a.status, a.raw)
		}
		for _, p := range []string{"/wp-json/contact-form-7/v1/contact-forms/2/refill", "/wp-json/contact-form-7/v1/contact-forms/x/feedback/schema",
			"/wp-json/contact-form-7/v1/contact-forms/99/feedback/schema"} {
			a := b.do("GET", p, nil)
			if m := a.json(t); a.status != 404 || m["code"] != "wpcf7_not_found" || m["message"] != "The requested contact form was not found." {
				t.Fatalf("%s: %d %s", p, a.status, a.raw)
			}
		}
	})
}
