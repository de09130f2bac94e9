package server_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"vitrine/internal/contactform"
)

// contactPageData reads the page data the server inlines into /contact/.
func contactPageData(t *testing.T, page string) map[string]any {
	t.Helper()
	m := regexp.MustCompile(`(?s)<script id="vitrine-data" type="application/json">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no page data in:\n%.500s", page)
	}
	var data map[string]any
	if err := json.Unmarshal([]byte(m[1]), &data); err != nil {
		t.Fatal(err)
	}
	return data
}

func TestContactPage(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		a := f.do("GET", "/contact/", nil, "")
		if a.status != 200 || a.header.Get("Content-Type") != "text/html; charset=utf-8" {
			t.Fatalf("GET /contact/: %d %q", a.status, a.header.Get("Content-Type"))
		}
		if a.header.Get("X-Cache") != "miss" {
			t.Errorf("first guest answer X-Cache %q, want miss", a.header.Get("X-Cache"))
		}
		b := a.body
		for _, want := range []string{
			"<title>Contact – Vitrine</title>",
			`<link rel="canonical" href="https://shop.example/contact/">`,
			`"@type":"BreadcrumbList"`, `"@type":"ContactPage"`,
			// Server-rendered CF7 markup (attributes as the server render writes them:
			// in source order, class first as in CF7's own markup).
			`<div class="wpcf7 no-js" id="wpcf7-f1-o1" lang="en-US" dir="ltr" data-wpcf7-id="1">`,
			`action="/contact/#wpcf7-f1-o1"`, `method="post"`, `enctype="multipart/form-data"`, `novalidate`, `data-status="init"`,
			`<input type="hidden" name="_wpcf7" value="1"`,
			`<input type="hidden" name="_wpcf7_version" value="6.2"`,
			`<input type="hidden" name="_wpcf7_locale" value="en_US"`,
			`<input type="hidden" name="_wpcf7_unit_tag" value="wpcf7-f1-o1"`,
			`<input type="hidden" name="_wpcf7_container_post" value="0"`,
			`<input type="hidden" name="_wpcf7_posted_data_hash" value/>`,
			`<input type="hidden" name="_wpcf7_recaptcha_response" value/>`,
			`<label for="wpcf7-f1-o1-your-name" class="wpcf7-field-label">Your name`,
			`<label for="wpcf7-f1-o1-your-email" class="wpcf7-field-label">Your email`,
			`<label for="wpcf7-f1-o1-your-message" class="wpcf7-field-label">Your message`,
			`<span class="wpcf7-form-control-wrap" data-name="your-email"><input type="email" id="wpcf7-f1-o1-your-email"`,
			`data-target-name="your-message"`,
			// CF7's screen-reader response first in the wrapper (its script
			// writes there), the one live region; the visible output is
			// hidden from screen readers, as CF7's.
			`data-wpcf7-id="1"><div class="screen-reader-response"><p role="status" aria-live="polite" aria-atomic="true"></p><ul></ul></div><form`,
			`<div class="wpcf7-response-output" aria-hidden="true">`,
			// No spinner in the markup: CF7's script inserts its own.
			`class="wpcf7-form-control wpcf7-submit has-spinner button"`,
			`<noscript>`,
			// The submit waits for the acceptance box.
			`disabled aria-describedby="wpcf7-f1-o1-submit-hint"`,
			`<a href="/contact/">Contact</a>`, // the footer link
		} {
			if !strings.Contains(b, want) {
				t.Errorf("/contact/ lacks %q", want)
			}
		}
		wrap := b[strings.Index(b, `class="wpcf7 no-js"`):]
		wrap = wrap[:strings.Index(wrap, "</form>")]
		if strings.Contains(b, "wpcf7-spinner") || strings.Count(wrap, `aria-live=`) != 1 {
			t.Errorf("/contact/: a spinner in the markup, or more than one live region in the form:\n%s", b)
		}
		// The hidden fields come in CF7's order.
		order := regexp.MustCompile(`name="(_wpcf7[a-z_]*)"`).FindAllStringSubmatch(b, -1)
		var names []string
		for _, m := range order {
			names = append(names, m[1])
		}
		if got := strings.Join(names, ","); got != "_wpcf7,_wpcf7_version,_wpcf7_locale,_wpcf7_unit_tag,_wpcf7_container_post,_wpcf7_posted_data_hash,_wpcf7_recaptcha_response" {
			t.Errorf("hidden fields %s", got)
		}

		// The page data carries the form and its SWV schema: the same
		// document the feedback route validates with.
		data := contactPageData(t, b)
		form := data["form"].(map[string]any)
		if data["page"] != "contact" || form["unit_tag"] != "wpcf7-f1-o1" || form["feedback_url"] != "/wp-json/contact-form-7/v1/contact-forms/1/feedback" ||
			form["refill_url"] != "/wp-json/contact-form-7/v1/contact-forms/1/refill" || form["botcheck_url"] != "/wp-json/vitrine/v1/botcheck/contact" {
			t.Errorf("page data: %v", form)
		}
		want, _ := json.Marshal(contactform.DefaultForm().Schema())
		got, _ := json.Marshal(form["schema"])
		var w, g any
		_ = json.Unmarshal(want, &w)
		_ = json.Unmarshal(got, &g)
		if string(mustJSON(t, w)) != string(mustJSON(t, g)) {
			t.Errorf("embedded schema differs from DefaultForm().Schema():\n%s\n%s", got, want)
		}
		if msgs := form["messages"].(map[string]any); msgs["mail_sent_ok"] != "Thank you for your message. It has been sent." || msgs["validation_error"] == "" {
			t.Errorf("messages %v", msgs)
		}

		// Cached for guests, whatever the query; a customer gets the same
		// page with their part, never stored.
		guest := f.do("GET", "/contact/?utm_source=x", nil, "")
		if guest.status != 200 || guest.header.Get("X-Cache") != "hit" {
			t.Errorf("second guest answer: %d X-Cache %q, want a hit", guest.status, guest.header.Get("X-Cache"))
		}
		c, v := f.viewerPage("/contact/", f.cookie("Carla"), guest.body)
		if c.status != 200 || c.header.Get("X-Cache") != "hit" || v.User.DisplayName != "Carla Customer" || v.Page != nil {
			t.Errorf("customer answer: %d X-Cache %q, part %+v", c.status, c.header.Get("X-Cache"), v)
		}
		if !strings.Contains(c.body, `name="_wpcf7_unit_tag" value="wpcf7-f1-o1"`) {
			t.Error("the customer's page lacks the form")
		}

		if r := f.do("GET", "/contact", nil, ""); r.status != 301 || r.header.Get("Location") != "/contact/" {
			t.Errorf("/contact: %d %q", r.status, r.header.Get("Location"))
		}
		if r := f.do("GET", "/sitemap-pages.xml", nil, ""); !strings.Contains(r.body, "<loc>https://shop.example/contact/</loc>") {
			t.Errorf("pages sitemap lacks /contact/:\n%s", r.body)
		}
	})
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
