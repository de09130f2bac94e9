package pages

import (
	"context"
	"strconv"

	"vitrine/internal/contactform"
)

// The contact page (GET /contact/): the shop's contact form rendered as
// Contact Form 7 renders it. The page is the same for every visitor, so it is
// cached like a listing: nothing in it belongs to the viewer. The form's SWV
// schema is embedded in the page data, so the browser validates without
// fetching .../feedback/schema first (CF7 fetches it; one request less).

// CF7Version is the Contact Form 7 version the form's markup and REST calls
// follow (the hidden _wpcf7_version field).
const CF7Version = "6.2"

// ContactPath is the contact page's path.
const ContactPath = "/contact/"

// HiddenField is one of the form's hidden inputs, in the order CF7 writes
// them.
type HiddenField struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// ContactForm is one rendered form: its definition, texts and schema, and
// where it posts.
type ContactForm struct {
	ID int64 `json:"id"`
	// UnitTag is "wpcf7-f<id>-o<n>": the element id of the form's wrapper
	// and the _wpcf7_unit_tag field. No "-p<post>" part: the page is not a
	// WordPress post (the container post is 0).
	UnitTag string `json:"unit_tag"`
	// Action is the form's action attribute ("/contact/#<unit tag>").
	Action   string               `json:"action"`
	Locale   string               `json:"locale"`
	Hidden   []HiddenField        `json:"hidden"`
	Fields   []contactform.Field  `json:"fields"`
	Messages contactform.Messages `json:"messages"`
	Schema   contactform.Schema   `json:"schema"`
	// FeedbackURL, RefillURL: the CF7 REST routes of this form.
	FeedbackURL string `json:"feedback_url"`
	RefillURL   string `json:"refill_url"`
	// BotcheckURL gives a fresh ALTCHA challenge (purpose "contact"); the
	// solved payload goes in _wpcf7_recaptcha_response.
	BotcheckURL string `json:"botcheck_url"`
	// Answer is set on the page that answers a form posted without
	// scripts (POST /contact/): the feedback route's answer, shown as the
	// form's status, response and tips. Values are the posted values to
	// show again (none after mail_sent: the form starts afresh).
	Answer *ContactAnswer      `json:"answer,omitempty"`
	Values map[string][]string `json:"values,omitempty"`
}

// ContactAnswer is the feedback route's answer (web/src/contact/state.ts
// FeedbackAnswer) carried in the page.
type ContactAnswer struct {
	Status         string           `json:"status"`
	Message        string           `json:"message"`
	PostedDataHash string           `json:"posted_data_hash,omitempty"`
	InvalidFields  []ContactInvalid `json:"invalid_fields,omitempty"`
}

// ContactInvalid is one invalid field of an answer.
type ContactInvalid struct {
	Field   string  `json:"field"`
	Message string  `json:"message"`
	IDRef   *string `json:"idref"`
	ErrorID string  `json:"error_id"`
}

// ContactPosted is what a form posted without scripts adds to the page:
// the answer, the values to show again and the page's status code.
type ContactPosted struct {
	Status int
	Answer ContactAnswer
	Values map[string][]string
}

// ContactPage is the page's data (web/src/types.ts ContactPage).
type ContactPage struct {
	Base
	Title       string      `json:"title"`
	Breadcrumbs []Crumb     `json:"breadcrumbs"`
	Form        ContactForm `json:"form"`
}

// contactForm finds a form by id: through ContactForms when set, else the
// default form (id 1) only.
func (l *Loader) contactForm(id int64) (contactform.Form, bool) {
	if l.ContactForms != nil {
		return l.ContactForms(id)
	}
	if id == contactform.DefaultFormID {
		return contactform.DefaultForm(), true
	}
	return contactform.Form{}, false
}

// UnitTag is the unit tag of the n-th form (from 1) on a page that is not a
// post: "wpcf7-f<id>-o<n>".
func UnitTag(formID int64, n int) string {
	return "wpcf7-f" + strconv.FormatInt(formID, 10) + "-o" + strconv.Itoa(n)
}

// ContactAnswered loads the contact page answering a form posted without
// scripts: the default form with the answer and the values kept.
func (l *Loader) ContactAnswered(ctx context.Context, url string, posted ContactPosted) (*Result, error) {
	res, err := l.Contact(ctx, url)
	if err != nil {
		return nil, err
	}
	page := res.Data.(ContactPage)
	a := posted.Answer
	page.Form.Answer = &a
	page.Form.Values = posted.Values
	if a.PostedDataHash != "" {
		for i := range page.Form.Hidden {
			if page.Form.Hidden[i].Name == "_wpcf7_posted_data_hash" {
				page.Form.Hidden[i].Value = a.PostedDataHash
			}
		}
	}
	res.Data, res.Status = page, posted.Status
	return res, nil
}

// Contact loads the contact page with the default form.
func (l *Loader) Contact(ctx context.Context, url string) (*Result, error) {
	form, ok := l.contactForm(contactform.DefaultFormID)
	if !ok {
		return nil, ErrNotFound
	}
	e, err := l.setup(ctx, "contact", url)
	if err != nil {
		return nil, err
	}
	unit := UnitTag(form.ID, 1)
	id := strconv.FormatInt(form.ID, 10)
	rest := "/wp-json/contact-form-7/v1/contact-forms/" + id
	cf := ContactForm{
		ID:      form.ID,
		UnitTag: unit,
		Action:  ContactPath + "#" + unit,
		Locale:  "en_US",
		Hidden: []HiddenField{
			{"_wpcf7", id},
			{"_wpcf7_version", CF7Version},
			{"_wpcf7_locale", "en_US"},
			{"_wpcf7_unit_tag", unit},
			{"_wpcf7_container_post", "0"},
			{"_wpcf7_posted_data_hash", ""},
			{"_wpcf7_recaptcha_response", ""},
		},
		Fields:      form.Fields,
		Messages:    form.Texts(),
		Schema:      form.Schema(),
		FeedbackURL: rest + "/feedback",
		RefillURL:   rest + "/refill",
		BotcheckURL: "/wp-json/vitrine/v1/botcheck/contact",
	}
	if cf.Fields == nil {
		cf.Fields = []contactform.Field{}
	}
	crumbs := []Crumb{{"Home", "/"}, {"Contact", ContactPath}}
	page := ContactPage{Base: e.base, Title: "Contact", Breadcrumbs: crumbs, Form: cf}
	h := l.head(l.title("Contact"), "Write to "+l.live().SiteName+": questions about an order, a product or anything else.", ContactPath)
	h.JSONLD = []any{
		breadcrumbLD(l.BaseURL, crumbs),
		map[string]any{"@context": "https://schema.org", "@type": "ContactPage", "name": "Contact", "url": l.BaseURL + ContactPath},
	}
	return &Result{Status: 200, Data: page, Head: h}, nil
}
