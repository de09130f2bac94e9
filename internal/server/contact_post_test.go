package server_test

import (
	"strings"
	"testing"

	"vitrine/internal/server"
)

// contactPageAnswer posts the form natively to /contact/ (as the browser
// does when no script took the submit) and reads the answering page's
// form data.
func contactPageAnswer(b *browser, ctype string, body []byte) (answer, map[string]any) {
	b.s.t.Helper()
	a := contactPost(b, "/contact/", ctype, body)
	if !strings.HasPrefix(a.header.Get("Content-Type"), "text/html") || a.header.Get("Cache-Control") != "no-store, private" {
		b.s.t.Fatalf("POST /contact/: %d %v\n%.300s", a.status, a.header, a.raw)
	}
	var data map[string]any
	pageData(b.s.t, a.raw, &data)
	form, _ := data["form"].(map[string]any)
	return a, form
}

// A form posted to /contact/ without scripts (CF7's script failed before
// it took the submit, or none ran) is answered as CF7 answers it: the page
// again, with its errors and the values kept, or with the thank-you
// message, through the same contact service as the REST route: schema,
// bot-check, rate limit, one stored submission and one mail.
func TestContactNativePost(t *testing.T) {
	t.Parallel()
	eachLoginShopWith(t, server.Config{ContactRateLimit: 2}, func(t *testing.T, s *loginShop) {
		b := s.browser()
		unit := []string{"_wpcf7_unit_tag", "wpcf7-f1-o1", "_wpcf7_container_post", "0"}

		// Errors: the page (400) with the tips, the message and the values.
		ct, body := contactBody(t, append(contactGood("your-name", "", "_wpcf7_unit_tag", "", "_wpcf7_container_post", "",
			"_wpcf7_recaptcha_response", b.solve("contact")), unit...))
		a, form := contactPageAnswer(b, ct, body)
		ans, _ := form["answer"].(map[string]any)
		inv, _ := ans["invalid_fields"].([]any)
		vals, _ := form["values"].(map[string]any)
		if a.status != 400 || ans["status"] != "validation_failed" || len(inv) != 1 || inv[0].(map[string]any)["field"] != "your-name" ||
			inv[0].(map[string]any)["error_id"] != "wpcf7-f1-o1-ve-your-name" || vals["your-email"].([]any)[0] != "ada@example.com" {
			t.Fatalf("validation: %d %v", a.status, form)
		}
		if !strings.Contains(a.raw, "One or more fields have an error.") || !strings.Contains(a.raw, `value="ada@example.com"`) ||
			!strings.Contains(a.raw, "Please fill out this field.") {
			t.Errorf("the page does not show the errors and values:\n%s", a.raw)
		}
		if subs, _, mails := contactCounts(t, s.db); subs != 0 || mails != 0 {
			t.Fatalf("a refused post stored %d, queued %d", subs, mails)
		}

		// No bot-check payload (no script ran): spam, 403, nothing stored.
		ct, body = contactBody(t, append(contactGood("_wpcf7_unit_tag", "", "_wpcf7_container_post", ""), unit...))
		a, form = contactPageAnswer(b, ct, body)
		if ans, _ := form["answer"].(map[string]any); a.status != 403 || ans["status"] != "spam" || !strings.Contains(str(ans, "message"), "needs JavaScript") {
			t.Fatalf("no bot-check: %d %v", a.status, form)
		}
		if subs, _, _ := contactCounts(t, s.db); subs != 0 {
			t.Fatal("spam stored")
		}

		// Sent: 200, the thank-you message, an empty form, one message and one mail.
		ct, body = contactBody(t, append(contactGood("_wpcf7_unit_tag", "", "_wpcf7_container_post", "",
			"_wpcf7_recaptcha_response", b.solve("contact")), unit...))
		a, form = contactPageAnswer(b, ct, body)
		ans, _ = form["answer"].(map[string]any)
		if a.status != 200 || ans["status"] != "mail_sent" || ans["message"] != "Thank you for your message. It has been sent." ||
			form["values"] != nil || len(str(ans, "posted_data_hash")) != 32 {
			t.Fatalf("sent: %d %v", a.status, form)
		}
		if !strings.Contains(a.raw, "Thank you for your message. It has been sent.") || strings.Contains(a.raw, `value="ada@example.com"`) {
			t.Errorf("the page does not show the thanks on an empty form:\n%s", a.raw)
		}
		if subs, _, mails := contactCounts(t, s.db); subs != 1 || mails != 1 {
			t.Fatalf("sent: %d submissions, %d mails", subs, mails)
		}

		// The rate limit is the REST route's (shared): one more passes, the
		// next is aborted with 429.
		if a, _ := contactSend(b, contactGood()); a.status != 200 {
			t.Fatal(a.raw)
		}
		ct, body = contactBody(t, append(contactGood("_wpcf7_unit_tag", "", "_wpcf7_container_post", "",
			"_wpcf7_recaptcha_response", b.solve("contact")), unit...))
		a, form = contactPageAnswer(b, ct, body)
		if ans, _ := form["answer"].(map[string]any); a.status != 429 || ans["status"] != "aborted" || !strings.Contains(str(ans, "message"), "several messages") {
			t.Fatalf("rate limit: %d %v", a.status, form)
		}
		if subs, _, _ := contactCounts(t, s.db); subs != 2 {
			t.Fatalf("%d submissions after the limit", subs)
		}

		// Not a form body: the page with a clear message, 415.
		a, form = contactPageAnswer(b, "application/x-www-form-urlencoded", []byte("your-name=x"))
		if ans, _ := form["answer"].(map[string]any); a.status != 415 || ans["status"] != "mail_failed" || ans["message"] != "The request payload format is not supported." {
			t.Fatalf("urlencoded: %d %v", a.status, form)
		}
		// A bad unit tag: 400.
		ct, body = contactBody(t, contactGood("_wpcf7_unit_tag", "nope", "_wpcf7_recaptcha_response", b.solve("contact")))
		if a, _ := contactPageAnswer(b, ct, body); a.status != 400 {
			t.Fatalf("bad unit tag: %d", a.status)
		}
		if subs, _, _ := contactCounts(t, s.db); subs != 2 {
			t.Fatalf("%d submissions after refusals", subs)
		}
		// The page itself is unchanged: no answer in it.
		g := b.do("GET", "/contact/", nil)
		var data map[string]any
		pageData(t, g.raw, &data)
		if f, _ := data["form"].(map[string]any); g.status != 200 || f["answer"] != nil || f["values"] != nil {
			t.Fatalf("GET after POST: %d %v", g.status, f)
		}
	})
}
