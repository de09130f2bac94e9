package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"vitrine/internal/account"
	"vitrine/internal/audit"
	"vitrine/internal/contact"
	vmail "vitrine/internal/mail"
	"vitrine/internal/review"
	"vitrine/internal/server"
	"vitrine/internal/server/servertest"
	"vitrine/internal/storage/sqlstore"
)

// The moderation queue and the contact inbox through the real server
// (internal/adminapi reviews.go, messages.go): staff only, bad input
// refused with WordPress's error shape and nothing changed, every write
// audited, the product page's cache following each moderation change, the
// reply mail delivered to a real SMTP server, and attachments sent as
// downloads only.

// newInboxShop is a started server (the change log followed every 10 ms)
// with the frame's users.
func newInboxShop(t *testing.T, db *sqlstore.DB) *frameShop {
	t.Helper()
	srv := newServer(t, db, "", 1, server.Config{BaseURL: "https://shop.example", Tagline: "Tagline",
		CacheBytes: 16 << 20, CacheMaxAge: time.Hour, ChangePoll: 10 * time.Millisecond})
	servertest.Start(t, srv)
	f := &frameShop{shop: &shop{t: t, db: db, srv: srv}, users: map[string]int64{}}
	f.addUsers(frameUser{"Carla Customer", account.RoleCustomer}, frameUser{"Mia Manager", account.RoleShopManager})
	return f
}

// as calls the admin API as the named user ("" a visitor) with their REST nonce.
func (f *frameShop) as(who, method, path, body string) frameAnswer {
	f.t.Helper()
	var c *http.Cookie
	h := []string{"Content-Type", "application/json"}
	if who != "" {
		c = f.cookie(who)
		h = append(h, "X-WP-Nonce", f.nonce(who))
	}
	return f.do(method, path, c, body, h...)
}

func wantError(t *testing.T, what string, a frameAnswer, status int, code string) {
	t.Helper()
	if a.status != status || !strings.Contains(a.body, `"code":"`+code+`"`) || !strings.Contains(a.body, `"status":`+strconv.Itoa(status)) {
		t.Errorf("%s: %d %.300s, want %d %s", what, a.status, a.body, status, code)
	}
}

// adminCall is an admin API call.
type adminCall struct{ method, path, body string }

// refusal is an admin API call and the status and error code it answers.
type refusal struct {
	method, path, body string
	status             int
	code               string
}

// wantStaffOnly checks that visitors and customers are refused every call.
func (f *frameShop) wantStaffOnly(calls []adminCall) {
	f.t.Helper()
	for _, c := range calls {
		wantError(f.t, "visitor "+c.method+" "+c.path, f.as("", c.method, c.path, c.body), 401, "rest_not_logged_in")
		wantError(f.t, "customer "+c.method+" "+c.path, f.as("Carla", c.method, c.path, c.body), 403, "rest_forbidden")
	}
}

// wantRefusals checks that every call, made as who, answers its error.
func (f *frameShop) wantRefusals(who string, calls []refusal) {
	f.t.Helper()
	for _, c := range calls {
		wantError(f.t, c.method+" "+c.path+" "+c.body, f.as(who, c.method, c.path, c.body), c.status, c.code)
	}
}

// waitPage polls a page until test holds on its body (the change log is
// followed every 10 ms; a second is ample).
func (f *frameShop) waitPage(path string, test func(string) bool, what string) {
	f.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		a := f.do("GET", path, nil, "")
		if a.status == 200 && test(a.body) {
			return
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("%s: the page never showed it", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (f *frameShop) audits(object string) []audit.Entry {
	f.t.Helper()
	es, err := (&audit.Service{Store: f.db}).List(context.Background(), audit.Filter{Object: object})
	if err != nil {
		f.t.Fatal(err)
	}
	return es
}

func TestAdminReviews(t *testing.T) {
	t.Parallel()
	each(t, newInboxShop, func(t *testing.T, f *frameShop) {
		ctx := context.Background()
		tee, err := f.db.ProductBySlug(ctx, "classic-tee")
		if err != nil {
			t.Fatal(err)
		}
		svc := &review.Service{Store: f.db, Settings: review.DefaultSettings(), Now: func() time.Time { return seedTime }}
		held, err := svc.Submit(ctx, review.Submission{ProductID: tee.ID, Rating: 4, Text: "Held text: does it shrink?", Name: "Zoe", Email: "zoe@example.com"})
		if err != nil || held.Status != review.StatusHold {
			t.Fatalf("submit: %+v %v", held, err)
		}
		const page = "/product/classic-tee/"
		f.waitPage(page, func(b string) bool { return strings.Contains(b, "Classic Tee") && !strings.Contains(b, "Held text") }, "the page before")
		const reviews = "/wp-json/wc/v3/products/reviews"
		one := reviews + "/" + strconv.FormatInt(held.ID, 10)
		reply := "/wp-json/vitrine/v1/admin/reviews/" + strconv.FormatInt(held.ID, 10) + "/reply"

		// Visitors and customers are refused every route.
		f.wantStaffOnly([]adminCall{
			{"GET", reviews, ""}, {"GET", one, ""}, {"PUT", one, `{"status":"approved"}`}, {"DELETE", one, ""},
			{"GET", "/wp-json/vitrine/v1/admin/reviews/counts", ""}, {"PUT", reply, `{"text":"hi"}`}, {"DELETE", reply, ""},
		})
		// Bad input: a clear error in the REST shape.
		f.wantRefusals("Mia", []refusal{
			{"GET", reviews + "?status=pending", "", 400, "rest_invalid_param"},
			{"GET", reviews + "?product=abc", "", 400, "rest_invalid_param"},
			{"GET", reviews + "?per_page=500", "", 400, "rest_invalid_param"},
			{"GET", reviews + "/999999", "", 404, "woocommerce_rest_review_invalid_id"},
			{"PUT", one, `{}`, 400, "rest_invalid_param"},
			{"PUT", one, `{"status":"published"}`, 400, "rest_invalid_param"},
			{"PUT", one, `{"status":`, 400, "rest_invalid_json"},
			{"PUT", reviews + "/abc", `{"status":"approved"}`, 404, "rest_not_found"},
			{"PUT", reviews + "/999999", `{"status":"approved"}`, 404, "woocommerce_rest_review_invalid_id"},
			{"DELETE", one + "?force=maybe", "", 400, "rest_invalid_param"},
			{"DELETE", one + "?force=true", "", 409, "vitrine_review_not_trashed"},
			{"PUT", reply, `{"text":"  "}`, 400, "rest_invalid_param"},
			{"PUT", reply, `[1]`, 400, "rest_invalid_json"},
			{"PUT", "/wp-json/vitrine/v1/admin/reviews/999999/reply", `{"text":"Thanks"}`, 404, "woocommerce_rest_review_invalid_id"},
		})
		if r, _ := svc.Get(ctx, held.ID); r.Status != review.StatusHold || r.Reply.Text != "" {
			t.Fatalf("refused calls changed the review: %+v", r)
		}
		if es := f.audits("review"); len(es) != 0 {
			t.Fatalf("refused calls audited: %+v", es)
		}

		// The queue: held first, with the reviewer's email; counts per status.
		list := f.as("Mia", "GET", reviews+"?status=hold&product="+strconv.FormatInt(tee.ID, 10), "")
		if list.status != 200 || list.header.Get("X-WP-Total") != "1" || !strings.Contains(list.body, `"reviewer_email":"zoe@example.com"`) ||
			!strings.Contains(list.body, `"product_permalink":"https://shop.example/product/classic-tee/"`) || !strings.Contains(list.body, `"reply":null`) {
			t.Errorf("held list: %d %v %s", list.status, list.header, list.body)
		}
		if all := f.as("Mia", "GET", reviews+"?per_page=1", ""); !strings.Contains(all.body, `"id":`+strconv.FormatInt(held.ID, 10)+`,`) {
			t.Errorf("the held review is not first in all: %s", all.body)
		}
		if c := f.as("Mia", "GET", "/wp-json/vitrine/v1/admin/reviews/counts", ""); c.status != 200 || c.json(t)["hold"] != 1.0 || c.json(t)["spam"] != 0.0 {
			t.Errorf("counts: %s", c.body)
		}

		// Approve and reply at once: the product page shows both.
		a := f.as("Mia", "PUT", reply, `{"text":"It does not shrink <b>at all</b>."}`)
		if a.status != 200 || a.json(t)["status"] != "approved" || !strings.Contains(a.body, `"author":"Mia Manager"`) {
			t.Fatalf("reply: %d %s", a.status, a.body)
		}
		f.waitPage(page, func(b string) bool {
			return strings.Contains(b, "Held text: does it shrink?") && strings.Contains(b, "It does not shrink &lt;b&gt;at all&lt;/b&gt;.")
		}, "the approved review and its reply")
		// Spam: it leaves the page.
		if a := f.as("Mia", "PUT", one, `{"status":"spam"}`); a.status != 200 || a.json(t)["status"] != "spam" {
			t.Fatalf("spam: %d %s", a.status, a.body)
		}
		f.waitPage(page, func(b string) bool { return !strings.Contains(b, "Held text") }, "the spam review gone")
		wantError(t, "reply to spam", f.as("Mia", "PUT", reply, `{"text":"Again"}`), 409, "vitrine_review_not_replyable")
		// Trash, then delete for good.
		if a := f.as("Mia", "DELETE", one, ""); a.status != 200 || a.json(t)["status"] != "trash" {
			t.Fatalf("trash: %d %s", a.status, a.body)
		}
		if a := f.as("Mia", "DELETE", one+"?force=true", ""); a.status != 200 || a.json(t)["deleted"] != true {
			t.Fatalf("delete: %d %s", a.status, a.body)
		}
		wantError(t, "read deleted", f.as("Mia", "GET", one, ""), 404, "woocommerce_rest_review_invalid_id")

		es := f.audits("review")
		var actions []string
		for _, e := range es {
			actions = append(actions, e.Action)
			if e.ObjectID != held.ID || e.ActorName != "Mia Manager" {
				t.Errorf("audit entry: %+v", e)
			}
		}
		if strings.Join(actions, " ") != "review.delete review.trash review.spam review.reply" {
			t.Errorf("audited: %v", actions)
		}
	})
}

var inboxPNG = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")

func TestAdminMessages(t *testing.T) {
	t.Parallel()
	each(t, newInboxShop, func(t *testing.T, f *frameShop) {
		ctx := context.Background()
		insert := func(email string, files ...contact.StoredFile) int64 {
			id, err := f.db.InsertContactSubmission(ctx, &contact.Stored{FormID: 1, UnitTag: "wpcf7-f1-o1", ClientIP: "192.0.2.7", UserAgent: "test",
				Status: contact.InboxNew, CreatedAt: seedTime, Files: files,
				Values: map[string][]string{"your-name": {"Ada"}, "your-email": {email}, "your-subject": {"Sizes"}, "your-message": {"Is M\nlarge?"}}}, 0)
			if err != nil {
				t.Fatal(err)
			}
			return id
		}
		id := insert("ada@example.com",
			contact.StoredFile{Field: "your-file", Name: "photo 1.png", MIME: "image/png", Size: int64(len(inboxPNG)), Content: inboxPNG},
			contact.StoredFile{Field: "your-file", Name: "page.png", MIME: "text/html", Size: 27, Content: []byte("<script>alert(1)</script>")})
		noAddress := insert("nobody")
		msgs := "/wp-json/vitrine/v1/admin/messages"
		one := msgs + "/" + strconv.FormatInt(id, 10)
		replies := func() int {
			q, err := f.db.MailOutbox(ctx, "", 1000)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, m := range q {
				if m.Kind == contact.KindReply {
					n++
				}
			}
			return n
		}
		read := f.as("Mia", "GET", one, "") // marks read; its files' ids for the routes below
		var opened struct {
			Files []struct {
				ID       int64
				Download string
			}
		}
		if err := json.Unmarshal([]byte(read.body), &opened); err != nil || len(opened.Files) != 2 {
			t.Fatalf("open: %s", read.body)
		}
		png, html := opened.Files[0], opened.Files[1]
		if _, err := f.srv.Contact().SetStatus(ctx, id, contact.InboxNew); err != nil {
			t.Fatal(err)
		}

		f.wantStaffOnly([]adminCall{
			{"GET", msgs, ""}, {"GET", msgs + "/counts", ""}, {"GET", one, ""}, {"PUT", one, `{"status":"read"}`}, {"DELETE", one, ""},
			{"POST", one + "/replies", `{"message":"Yes"}`}, {"GET", png.Download, ""},
		})
		f.wantRefusals("Mia", []refusal{
			{"GET", msgs + "?status=spam", "", 400, "rest_invalid_param"},
			{"GET", msgs + "?page=0", "", 400, "rest_invalid_param"},
			{"GET", msgs + "/abc", "", 404, "rest_not_found"},
			{"GET", msgs + "/999999", "", 404, "vitrine_message_invalid_id"},
			{"PUT", one, `{}`, 400, "rest_invalid_param"},
			{"PUT", one, `{"status":"replied"}`, 400, "rest_invalid_param"},
			{"PUT", one, `nope`, 400, "rest_invalid_json"},
			{"POST", one + "/replies", `{"message":""}`, 400, "rest_invalid_param"},
			{"POST", one + "/replies", `{"message":"ok","subject":"` + strings.Repeat("s", 201) + `"}`, 400, "rest_invalid_param"},
			{"POST", msgs + "/" + strconv.FormatInt(noAddress, 10) + "/replies", `{"message":"Hello"}`, 409, "vitrine_message_no_address"},
			{"POST", msgs + "/999999/replies", `{"message":"Hello"}`, 404, "vitrine_message_invalid_id"},
			{"DELETE", one + "?force=true", "", 409, "vitrine_message_not_trashed"},
			{"DELETE", one + "?force=yes", "", 400, "rest_invalid_param"},
			{"GET", msgs + "/" + strconv.FormatInt(noAddress, 10) + "/files/" + strconv.FormatInt(png.ID, 10), "", 404, "vitrine_message_invalid_id"},
		})
		if c := f.as("Mia", "GET", msgs+"/counts", ""); c.json(t)["new"] != 2.0 || c.json(t)["replied"] != 0.0 {
			t.Fatalf("refused calls changed the statuses: %s", c.body)
		}
		if n := replies(); n != 0 {
			t.Fatalf("refused replies queued %d mails", n)
		}
		if es := f.audits("message"); len(es) != 0 {
			t.Fatalf("refused calls audited: %+v", es)
		}

		// The list, then reading one marks it read.
		list := f.as("Mia", "GET", msgs+"?status=new&search=LARGE", "")
		if list.status != 200 || list.header.Get("X-WP-Total") != "2" || !strings.Contains(list.body, `"excerpt":"Is M large?"`) ||
			!strings.Contains(list.body, `"email":"ada@example.com"`) {
			t.Errorf("list: %d %v %s", list.status, list.header, list.body)
		}
		if a := f.as("Mia", "GET", one, ""); a.status != 200 || a.json(t)["status"] != "read" || !strings.Contains(a.body, `"label":"Your message","value":"Is M\nlarge?"`) {
			t.Errorf("read: %d %s", a.status, a.body)
		}

		// Downloads: attachments only, their type (HTML never), nosniff.
		a := f.as("Mia", "GET", png.Download, "")
		if a.status != 200 || a.body != string(inboxPNG) || a.header.Get("Content-Type") != "image/png" || a.header.Get("X-Content-Type-Options") != "nosniff" ||
			!strings.Contains(a.header.Get("Content-Security-Policy"), "sandbox") {
			t.Errorf("png download: %d %v", a.status, a.header)
		}
		if d, p, _ := mime.ParseMediaType(a.header.Get("Content-Disposition")); d != "attachment" || p["filename"] != "photo 1.png" {
			t.Errorf("disposition: %q", a.header.Get("Content-Disposition"))
		}
		if a := f.as("Mia", "GET", html.Download, ""); a.status != 200 || a.header.Get("Content-Type") != "application/octet-stream" ||
			!strings.HasPrefix(a.header.Get("Content-Disposition"), "attachment") {
			t.Errorf("html download: %d %v", a.status, a.header)
		}

		// A reply: stored, queued, delivered to the sender by a real SMTP server.
		r := f.as("Mia", "POST", one+"/replies", `{"message":"Yes, M is large.\nRegards"}`)
		if r.status != 201 || r.json(t)["to"] != "ada@example.com" || r.json(t)["subject"] != "Re: Sizes" || r.json(t)["mail"] != "queued" {
			t.Fatalf("reply: %d %s", r.status, r.body)
		}
		sender, sink := servertest.SMTPSender(t)
		kinds := vmail.Renderers{contact.KindReply: f.srv.Contact().ReplyRenderer([]string{"inbox@shop.example"}, "Vitrine"),
			contact.KindMessage: func(context.Context, string, string) (vmail.Message, error) {
				return vmail.Message{}, vmail.Permanent(fmt.Errorf("not this test's"))
			}}
		ob := vmail.NewOutbox(f.db, sender, kinds.Render, nil, vmail.Options{})
		if res, err := ob.RunOnce(ctx); err != nil || res.Sent != 1 {
			t.Fatalf("outbox: %+v %v", res, err)
		}
		m := onlyMail(t, sink, "ada@example.com")
		text, _ := io.ReadAll(m.Body)
		if m.Header.Get("Subject") != "Re: Sizes" || m.Header.Get("Reply-To") != "<inbox@shop.example>" || !strings.Contains(string(text), "Yes, M is large.") {
			t.Errorf("the reply mail: %v %s", m.Header, text)
		}
		if a := f.as("Mia", "GET", one, ""); a.json(t)["status"] != "replied" || !strings.Contains(a.body, `"mail":"sent"`) {
			t.Errorf("after the reply: %s", a.body)
		}

		// Purged files say so.
		if _, err := f.db.PurgeContactFiles(ctx, time.Now().Add(time.Hour), time.Now()); err != nil {
			t.Fatal(err)
		}
		if a := f.as("Mia", "GET", one, ""); !strings.Contains(a.body, `"purged":true,"download":""`) {
			t.Errorf("purged file: %s", a.body)
		}
		wantError(t, "purged download", f.as("Mia", "GET", png.Download, ""), 410, "vitrine_file_purged")

		// Delete: the trash, then for good.
		if a := f.as("Mia", "DELETE", one, ""); a.status != 200 || a.json(t)["status"] != "trash" {
			t.Fatalf("trash: %d %s", a.status, a.body)
		}
		wantError(t, "reply in the trash", f.as("Mia", "POST", one+"/replies", `{"message":"More"}`), 409, "vitrine_message_trashed")
		if a := f.as("Mia", "DELETE", one+"?force=true", ""); a.status != 200 || a.json(t)["deleted"] != true {
			t.Fatalf("delete: %d %s", a.status, a.body)
		}
		wantError(t, "read deleted", f.as("Mia", "GET", one, ""), 404, "vitrine_message_invalid_id")
		var actions []string
		for _, e := range f.audits("message") {
			actions = append(actions, e.Action)
		}
		if strings.Join(actions, " ") != "message.delete message.trash message.reply" {
			t.Errorf("audited: %v", actions)
		}
	})
}
