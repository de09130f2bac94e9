package server_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http/httptest"
	"net/textproto"
	"strings"
	"testing"
	"time"

	"vitrine/internal/contact"
	"vitrine/internal/contactform"
	vmail "vitrine/internal/mail"
	"vitrine/internal/server"
	"vitrine/internal/server/servertest"
	"vitrine/internal/storage/sqlstore"
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
	return b.send(req)
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
	t.Parallel()
	eachLoginShop(t, func(t *testing.T, s *loginShop) {
		b := s.browser()
		a, m := contactSend(b, contactGood(), contactFile{"your-file", "photo.png", "image/png", contactPNG})
		if m["status"] != "mail_sent" || m["message"] != "Thank you for your message. It has been sent." ||
			m["into"] != "#wpcf7-f1-p12-o1" || m["contact_form_id"] != float64(1) || len(str(m, "posted_data_hash")) != 32 ||
			m["invalid_fields"] != nil || a.header.Get("Cache-Control") != "no-store" {
			t.Fatalf("sent: %v %v", a.header, m)
		}
		if subs, files, mails := contactCounts(t, s.db); subs != 1 || files != 1 || mails != 1 {
			t.Fatalf("stored %d submissions, %d files, %d mails", subs, files, mails)
		}
		st, err := s.db.ContactSubmission(context.Background(), 1)
		if err != nil || st.FormID != 1 || st.UnitTag != "wpcf7-f1-p12-o1" || st.ContainerPost != 12 || st.ClientIP != "192.0.2.10" ||
			st.Values["your-email"][0] != "ada@example.com" || st.Values["_wpcf7"] != nil || len(st.Files) != 1 ||
			st.Files[0].MIME != "image/png" || !bytes.Equal(st.Files[0].Content, contactPNG) || st.Status != "new" {
			t.Fatalf("stored: %+v %v", st, err)
		}
	})
}

func TestContactSchemaAndRefill(t *testing.T) {
	t.Parallel()
	eachLoginShop(t, func(t *testing.T, s *loginShop) {
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

// The request's own errors, in CF7's REST shape; none stores anything.
func TestContactFeedbackRequestErrors(t *testing.T) {
	t.Parallel()
	eachLoginShop(t, func(t *testing.T, s *loginShop) {
		b := s.browser()
		check := func(name string, a answer, status int, code, msg string) {
			t.Helper()
			m := a.json(t)
			data, _ := m["data"].(map[string]any)
			if a.status != status || m["code"] != code || m["message"] != msg || data["status"] != float64(status) {
				t.Fatalf("%s: %d %s", name, a.status, a.raw)
			}
		}
		good := contactGood()
		good = append(good, "_wpcf7_recaptcha_response", b.solve("contact"))
		// 415: urlencoded, JSON, none.
		form := "your-name=Ada&_wpcf7_unit_tag=wpcf7-f1-o1"
		check("urlencoded", contactPost(b, contactFeedbackPath, "application/x-www-form-urlencoded", []byte(form)), 415,
			"wpcf7_unsupported_media_type", "The request payload format is not supported.")
		check("json", contactPost(b, contactFeedbackPath, "application/json", []byte(`{"your-name":"Ada"}`)), 415,
			"wpcf7_unsupported_media_type", "The request payload format is not supported.")
		check("multipart without boundary", contactPost(b, contactFeedbackPath, "multipart/form-data", []byte("x")), 415,
			"wpcf7_unsupported_media_type", "The request payload format is not supported.")
		// 404: unknown form.
		ct, body := contactBody(t, good)
		for _, p := range []string{"/wp-json/contact-form-7/v1/contact-forms/2/feedback", "/wp-json/contact-form-7/v1/contact-forms/abc/feedback"} {
			check(p, contactPost(b, p, ct, body), 404, "wpcf7_not_found", "The requested contact form was not found.")
		}
		// 400: no unit tag, another form's, garbage.
		for _, tag := range []string{"", "wpcf7-f2-p12-o1", "wpcf7-f1-o1<script>"} {
			ct, body := contactBody(t, contactGood("_wpcf7_unit_tag", tag))
			check("tag "+tag, contactPost(b, contactFeedbackPath, ct, body), 400, "wpcf7_unit_tag_not_found", "There is no valid unit tag.")
		}
		// A malformed multipart body.
		check("malformed", contactPost(b, contactFeedbackPath, "multipart/form-data; boundary=xyz", []byte("--xyz\r\nbroken")), 400,
			"wpcf7_bad_request", "The request body could not be read.")
		// A body over the form's limit (2 MiB of files + slack): 413.
		big := contactFile{"your-file", "big.pdf", "application/pdf", append([]byte("%PDF-1.4\n"), make([]byte, 3<<20)...)}
		ct, body = contactBody(t, good, big)
		check("too big", contactPost(b, contactFeedbackPath, ct, body), 413, "wpcf7_payload_too_large", "The request is larger than this form accepts.")
		// Other methods are not routes.
		if a := b.do("GET", contactFeedbackPath, nil); a.status != 404 || a.json(t)["code"] != "rest_no_route" {
			t.Fatalf("GET feedback: %d %s", a.status, a.raw)
		}
		if subs, files, mails := contactCounts(t, s.db); subs+files+mails != 0 {
			t.Fatalf("stored %d %d %d", subs, files, mails)
		}
	})
}

// The refusals of a well-formed request: each a 200 with CF7's status and
// message, none storing anything.
func TestContactFeedbackRefusals(t *testing.T) {
	t.Parallel()
	eachLoginShop(t, func(t *testing.T, s *loginShop) {
		b := s.browser()
		texts := contactform.DefaultMessages()
		unchanged := func(name string) {
			t.Helper()
			if subs, files, mails := contactCounts(t, s.db); subs+files+mails != 0 {
				t.Fatalf("%s stored %d %d %d", name, subs, files, mails)
			}
		}
		// validation_failed: invalid_fields with error ids, idref null.
		_, m := contactSend(b, contactGood("your-name", "", "your-email", "ada@", "your-message", strings.Repeat("é", 2001)))
		inv, _ := m["invalid_fields"].([]any)
		if m["status"] != "validation_failed" || m["message"] != texts.ValidationError || m["posted_data_hash"] != "" || len(inv) != 3 {
			t.Fatalf("validation: %v", m)
		}
		want := []map[string]any{
			{"field": "your-name", "message": texts.InvalidRequired, "idref": nil, "error_id": "wpcf7-f1-p12-o1-ve-your-name"},
			{"field": "your-email", "message": texts.InvalidEmail, "idref": nil, "error_id": "wpcf7-f1-p12-o1-ve-your-email"},
			{"field": "your-message", "message": texts.InvalidTooLong, "idref": nil, "error_id": "wpcf7-f1-p12-o1-ve-your-message"},
		}
		for i, w := range want {
			got := inv[i].(map[string]any)
			for k, v := range w {
				if got[k] != v {
					t.Fatalf("invalid[%d].%s = %v, want %v (%v)", i, k, got[k], v, got)
				}
			}
			if _, ok := got["idref"]; !ok {
				t.Fatal("idref missing (CF7 sends null)")
			}
		}
		unchanged("validation")
		// Files: wrong type by content with an allowed extension, too large.
		exe := contactFile{"your-file", "invoice.pdf", "application/pdf", append([]byte("MZ\x90\x00\x03"), make([]byte, 200)...)}
		_, m = contactSend(b, contactGood(), exe)
		if inv, _ := m["invalid_fields"].([]any); m["status"] != "validation_failed" || len(inv) != 1 ||
			inv[0].(map[string]any)["message"] != texts.FileTypeInvalid || inv[0].(map[string]any)["field"] != "your-file" {
			t.Fatalf("exe as pdf: %v", m)
		}
		large := contactFile{"your-file", "scan.pdf", "application/pdf", append([]byte("%PDF-1.4\n"), make([]byte, 2<<20)...)}
		_, m = contactSend(b, contactGood(), large)
		if inv, _ := m["invalid_fields"].([]any); m["status"] != "validation_failed" || len(inv) != 1 || inv[0].(map[string]any)["message"] != texts.FileTooLarge {
			t.Fatalf("large: %v", m)
		}
		unchanged("files")
		// acceptance_missing.
		_, m = contactSend(b, contactGood("your-consent", ""))
		if m["status"] != "acceptance_missing" || m["message"] != texts.AcceptTerms || m["posted_data_hash"] != "" || m["invalid_fields"] != nil {
			t.Fatalf("acceptance: %v", m)
		}
		// spam: no payload, a login payload, a replayed payload.
		ct, body := contactBody(t, contactGood())
		if a := contactPost(b, contactFeedbackPath, ct, body); a.json(t)["status"] != "spam" || a.json(t)["message"] != texts.Spam {
			t.Fatalf("no payload: %s", a.raw)
		}
		ct, body = contactBody(t, append(contactGood(), "_wpcf7_recaptcha_response", b.solve("login")))
		if a := contactPost(b, contactFeedbackPath, ct, body); a.json(t)["status"] != "spam" {
			t.Fatalf("login payload: %s", a.raw)
		}
		unchanged("spam")
		tok := b.solve("contact")
		ct, body = contactBody(t, append(contactGood(), "_wpcf7_recaptcha_response", tok))
		if a := contactPost(b, contactFeedbackPath, ct, body); a.json(t)["status"] != "mail_sent" {
			t.Fatalf("first: %s", a.raw)
		}
		if a := contactPost(b, contactFeedbackPath, ct, body); a.json(t)["status"] != "spam" || a.json(t)["posted_data_hash"] != "" {
			t.Fatalf("replayed: %s", a.raw)
		}
		if subs, _, mails := contactCounts(t, s.db); subs != 1 || mails != 1 {
			t.Fatalf("after the replay: %d %d", subs, mails)
		}
		// aborted: over the per-address limit (5 an hour).
		for i := 2; i <= 5; i++ {
			if _, m := contactSend(b, contactGood()); m["status"] != "mail_sent" {
				t.Fatalf("send %d: %v", i, m)
			}
		}
		_, m = contactSend(b, contactGood())
		if m["status"] != "aborted" || !strings.Contains(str(m, "message"), "Please try again in 60 minutes") || str(m, "posted_data_hash") == "" {
			t.Fatalf("limited: %v", m)
		}
		if subs, _, mails := contactCounts(t, s.db); subs != 5 || mails != 5 {
			t.Fatalf("after the limit: %d %d", subs, mails)
		}
		other := s.browser()
		other.addr = "203.0.113.50:999"
		if _, m := contactSend(other, contactGood()); m["status"] != "mail_sent" {
			t.Fatalf("other address: %v", m)
		}
	})
}

// contactRulesForm exercises the SWV rules the default form does not use.
func contactRulesForm() contactform.Form {
	return contactform.Form{ID: 7, Title: "Rules", Fields: []contactform.Field{
		{Name: "site", Label: "Site", Kind: contactform.KindURL},
		{Name: "phone", Label: "Phone", Kind: contactform.KindTel},
		{Name: "qty", Label: "Quantity", Kind: contactform.KindNumber, Min: "1", Max: "10", Step: "0.5"},
		{Name: "day", Label: "Day", Kind: contactform.KindDate, Min: "2026-01-01", Max: "2026-12-31", DaysOfWeek: []int{1, 2, 3, 4, 5}},
		{Name: "at", Label: "Time", Kind: contactform.KindTime},
		{Name: "size", Label: "Size", Kind: contactform.KindSelect, Options: []string{"S", "M", "L"}},
		{Name: "colors", Label: "Colours", Kind: contactform.KindCheckbox, Options: []string{"red", "green", "blue"}, MinItems: 2, MaxItems: 2},
		{Name: "code", Label: "Code", Kind: contactform.KindText, Required: true, MinLength: 3, MaxLength: 5},
		{Name: "mail", Label: "Email", Kind: contactform.KindEmail, Required: true},
		{Name: "doc", Label: "Document", Kind: contactform.KindFile, Required: true, Accept: []string{".txt"}, MinSize: 10, MaxSize: 100},
	}}
}

// Every SWV rule kind fails through HTTP with its message, and the server
// answers what the schema it serves gives in the browser's validator.
func TestContactFeedbackEveryRule(t *testing.T) {
	t.Parallel()
	eachLoginShopWith(t, server.Config{ContactForms: []contactform.Form{contactform.DefaultForm(), contactRulesForm()}}, func(t *testing.T, s *loginShop) {
		b := s.browser()
		path := "/wp-json/contact-form-7/v1/contact-forms/7/feedback"
		a := b.do("GET", "/wp-json/contact-form-7/v1/contact-forms/7/feedback/schema", nil)
		var schema contactform.Schema
		if err := json.Unmarshal([]byte(a.raw), &schema); err != nil || a.status != 200 {
			t.Fatalf("schema: %d %s", a.status, a.raw)
		}
		text := contactFile{"doc", "notes.txt", "text/plain", []byte("twenty bytes of text")}
		base := map[string][]string{"_wpcf7_unit_tag": {"wpcf7-f7-o1"}, "site": {"https://example.com"}, "phone": {"+44 20 7946 0958"},
			"qty": {"2.5"}, "day": {"2026-11-24"}, "at": {"10:30"}, "size": {"M"}, "colors": {"red", "green"}, "code": {"abcd"}, "mail": {"bo@example.com"}}
		m := contactform.DefaultMessages()
		cases := []struct {
			rule, field string
			values      []string // nil: absent
			file        *contactFile
			msg         string
		}{
			{"required", "code", nil, nil, m.InvalidRequired},
			{"requiredfile", "doc", nil, &contactFile{}, m.InvalidRequired},
			{"email", "mail", []string{"bo@"}, nil, m.InvalidEmail},
			{"url", "site", []string{"not a url"}, nil, m.InvalidURL},
			{"tel", "phone", []string{"12"}, nil, m.InvalidTel},
			{"number", "qty", []string{"two"}, nil, m.InvalidNumber},
			{"minnumber", "qty", []string{"0.5"}, nil, m.NumberTooSmall},
			{"maxnumber", "qty", []string{"11"}, nil, m.NumberTooLarge},
			{"stepnumber", "qty", []string{"2.25"}, nil, m.InvalidStep},
			{"date", "day", []string{"2026-02-30"}, nil, m.InvalidDate},
			{"mindate", "day", []string{"2025-12-31"}, nil, m.DateTooEarly},
			{"maxdate", "day", []string{"2027-01-01"}, nil, m.DateTooLate},
			{"dayofweek", "day", []string{"2026-11-28"}, nil, m.InvalidWeekday},
			{"time", "at", []string{"25:00"}, nil, m.InvalidTime},
			{"enum", "size", []string{"XL"}, nil, m.InvalidEnum},
			{"maxitems (single select)", "size", []string{"S", "M"}, nil, m.TooManyItems},
			{"minitems", "colors", []string{"red"}, nil, m.TooFewItems},
			{"maxitems", "colors", []string{"red", "green", "blue"}, nil, m.TooManyItems},
			{"minlength", "code", []string{"ab"}, nil, m.InvalidTooShort},
			{"maxlength", "code", []string{"abcdef"}, nil, m.InvalidTooLong},
			{"file", "doc", nil, &contactFile{"doc", "notes.txt", "text/plain", contactPNG}, m.FileTypeInvalid},
			{"minfilesize", "doc", nil, &contactFile{"doc", "notes.txt", "text/plain", []byte("short")}, m.FileTooSmall},
			{"maxfilesize", "doc", nil, &contactFile{"doc", "notes.txt", "text/plain", bytes.Repeat([]byte("x"), 101)}, m.FileTooLarge},
		}
		for _, c := range cases {
			values := map[string][]string{}
			for k, v := range base {
				values[k] = v
			}
			if c.values != nil || c.file == nil {
				if c.values == nil {
					delete(values, c.field)
				} else {
					values[c.field] = c.values
				}
			}
			var fields []string
			for k, vs := range values {
				for _, v := range vs {
					fields = append(fields, k, v)
				}
			}
			f := text
			var files []contactFile
			if c.file == nil {
				files = []contactFile{f}
			} else if c.file.field != "" {
				files = []contactFile{*c.file}
			}
			ct, body := contactBody(t, fields, files...)
			a := contactPost(b, path, ct, body)
			res := a.json(t)
			inv, _ := res["invalid_fields"].([]any)
			if a.status != 200 || res["status"] != "validation_failed" || len(inv) != 1 {
				t.Fatalf("%s: %d %s", c.rule, a.status, a.raw)
			}
			got := inv[0].(map[string]any)
			if got["field"] != c.field || got["message"] != c.msg || got["error_id"] != "wpcf7-f7-o1-ve-"+c.field {
				t.Fatalf("%s: %v", c.rule, got)
			}
			// The browser's validator on the served schema agrees.
			vfiles := map[string][]contactform.File{}
			for _, f := range files {
				vfiles[f.field] = append(vfiles[f.field], contactform.File{Name: f.name, Size: int64(len(f.data)), Sniffed: contactform.Sniff(f.data)})
			}
			if want := contactform.Validate(schema, values, vfiles); len(want) != 1 || want[0].Field != c.field || want[0].Message != c.msg {
				t.Fatalf("%s: the schema gives %v", c.rule, want)
			}
		}
		// The base passes.
		var fields []string
		for k, vs := range base {
			for _, v := range vs {
				fields = append(fields, k, v)
			}
		}
		fields = append(fields, "_wpcf7_recaptcha_response", b.solve("contact"))
		ct, body := contactBody(t, fields, text)
		if a := contactPost(b, path, ct, body); a.json(t)["status"] != "mail_sent" || a.json(t)["into"] != "#wpcf7-f7-o1" {
			t.Fatalf("base: %s", a.raw)
		}
		if subs, files, mails := contactCounts(t, s.db); subs != 1 || files != 1 || mails != 1 {
			t.Fatalf("stored %d %d %d", subs, files, mails)
		}
	})
}

// A sent message reaches a real SMTP server once, to the shop, with the
// visitor as Reply-To and the file as a real attachment; the upkeep later
// empties the file and keeps the message.
func TestContactMailDeliveredAndRetention(t *testing.T) {
	t.Parallel()
	eachLoginShopWith(t, server.Config{ContactFileRetention: 48 * time.Hour}, func(t *testing.T, s *loginShop) {
		b := s.browser()
		_, m := contactSend(b, contactGood("your-subject", "Sizes\r\nBcc: victim@example.org"),
			contactFile{"your-file", "../photo.png", "text/html", contactPNG})
		if m["status"] != "mail_sent" {
			t.Fatalf("send: %v", m)
		}
		sender, sink := servertest.SMTPSender(t)
		kinds := vmail.Renderers{contact.KindMessage: s.srv.Contact().Renderer([]string{"inbox@shop.example"}, "Vitrine")}
		ob := vmail.NewOutbox(s.db, sender, kinds.Render, nil, vmail.Options{})
		if res, err := ob.RunOnce(context.Background()); err != nil || res.Sent != 1 {
			t.Fatalf("outbox: %+v %v", res, err)
		}
		if res, _ := ob.RunOnce(context.Background()); res.Sent != 0 {
			t.Fatalf("sent again: %+v", res)
		}
		msg := onlyMail(t, sink, "inbox@shop.example")
		subject, _ := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
		if msg.Header.Get("Reply-To") != "<ada@example.com>" || subject != "[Vitrine] Sizes Bcc: victim@example.org" || msg.Header.Get("Bcc") != "" {
			t.Fatalf("headers: %v", msg.Header)
		}
		_, params, _ := mime.ParseMediaType(msg.Header.Get("Content-Type"))
		mr := multipart.NewReader(msg.Body, params["boundary"])
		var text string
		var att []byte
		var attName, attType string
		for {
			p, err := mr.NextPart()
			if err != nil {
				break
			}
			raw, _ := io.ReadAll(p)
			if _, dp, _ := mime.ParseMediaType(p.Header.Get("Content-Disposition")); dp["filename"] != "" {
				attName, attType = dp["filename"], p.Header.Get("Content-Type")
				att, err = base64.StdEncoding.DecodeString(strings.NewReplacer("\r", "", "\n", "").Replace(string(raw)))
				if err != nil {
					t.Fatal(err)
				}
			} else {
				text = string(raw)
			}
		}
		if attName != "photo.png" || !strings.HasPrefix(attType, "image/png") || !bytes.Equal(att, contactPNG) ||
			!strings.Contains(text, "Ada Lovelace") || !strings.Contains(text, "Do you have the tank top in XS?") {
			t.Fatalf("body: %q %q %d bytes\n%s", attName, attType, len(att), text)
		}

		// Retention: nothing before 48 hours, then the file only.
		s.clock.Add(47 * time.Hour)
		if n := s.srv.ContactUpkeep(context.Background()); n != 0 {
			t.Fatalf("early upkeep emptied %d", n)
		}
		s.clock.Add(2 * time.Hour)
		if n := s.srv.ContactUpkeep(context.Background()); n != 1 {
			t.Fatalf("upkeep emptied %d", n)
		}
		c, err := s.db.CountContact(context.Background())
		if err != nil || c.Submissions != 1 || c.Files != 1 || c.KeptFiles != 0 || c.KeptBytes != 0 {
			t.Fatalf("after retention: %+v %v", c, err)
		}
	})
}

// A customer's message is stored with their account, so the shop's inbox
// can tell it from a visitor's; a visitor's carries none.
func TestContactFeedbackKeepsCustomer(t *testing.T) {
	t.Parallel()
	eachLoginShop(t, func(t *testing.T, s *loginShop) {
		u := s.register("grace@example.com")
		b := s.browser()
		if a := b.submitLogin("username", "grace@example.com", "password", loginPass, "wfls-captcha", b.solve("login")); !b.loggedIn() {
			t.Fatalf("login: %d %s", a.status, a.raw)
		}
		if _, m := contactSend(b, contactGood()); m["status"] != "mail_sent" {
			t.Fatalf("customer: %v", m)
		}
		if _, m := contactSend(s.browser(), contactGood("your-email", "visitor@example.com")); m["status"] != "mail_sent" {
			t.Fatalf("visitor: %v", m)
		}
		ctx := context.Background()
		first, err := s.db.ContactSubmission(ctx, 1)
		if err != nil || first.UserID != u.ID {
			t.Fatalf("customer's submission: %+v %v, want user %d", first, err, u.ID)
		}
		second, err := s.db.ContactSubmission(ctx, 2)
		if err != nil || second.UserID != 0 {
			t.Fatalf("visitor's submission: %+v %v", second, err)
		}
	})
}
