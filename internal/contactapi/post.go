package contactapi

import (
	"errors"
	"mime"
	"net/http"

	"vitrine/internal/contact"
	"vitrine/internal/contactform"
	"vitrine/internal/pages"
)

// msgNeedsScript answers a form posted without the bot-check's payload:
// the visitor's browser ran no script.
const msgNeedsScript = "Your message was not sent: sending this form needs JavaScript, which runs a short, invisible check that you are not a robot. Please turn JavaScript on and send it again."

// pageStatus is the status code of the page answering a posted form, by
// the feedback status: as the HTML forms elsewhere answer a refusal (400
// bad input, 403 bot-check, 429 too many).
func pageStatus(status string) int {
	switch status {
	case contact.StatusMailSent:
		return http.StatusOK
	case contact.StatusSpam:
		return http.StatusForbidden
	case contact.StatusAborted:
		return http.StatusTooManyRequests
	case contact.StatusMailFailed:
		return http.StatusServiceUnavailable
	default: // validation_failed, acceptance_missing
		return http.StatusBadRequest
	}
}

// Post answers POST /contact/: the form posted by the browser itself, as
// Contact Form 7 answers it without its script. The body is read as the
// feedback route reads it (readBody, the form's size bounds) and goes
// through the same contact.Service.Submit: the same schema, the bot-check (a payload in _wpcf7_recaptcha_response; without one the
// answer is spam, as CF7's with reCAPTCHA), the rate limit and the store.
// The page comes back with the answer: the thank-you message (and an empty
// form) after mail_sent, else the message, the tips and the values posted
// (never the files). Never cached.
func (a *API) Post(w http.ResponseWriter, r *http.Request) {
	form, ok := a.d.Contact.Form(contactform.DefaultFormID)
	if !ok {
		a.d.Pages.NotFound(w, r)
		return
	}
	texts := form.Texts()
	answer := func(status int, ans pages.ContactAnswer, values map[string][]string) {
		res, err := a.d.Loader.ContactAnswered(a.d.Pages.PageContext(r), pages.ContactPath, pages.ContactPosted{Status: status, Answer: ans, Values: values})
		a.d.Pages.SendPersonal(w, r, "contact page", pages.ContactPath, res, err)
	}
	failed := func(status int, text string) {
		answer(status, pages.ContactAnswer{Status: contact.StatusMailFailed, Message: text}, nil)
	}
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		failed(http.StatusUnsupportedMediaType, "The request payload format is not supported.")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, bodyLimit(form))
	sub, err := readBody(r, form)
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		failed(http.StatusRequestEntityTooLarge, "The request is larger than this form accepts.")
		return
	case err != nil:
		failed(http.StatusBadRequest, "The request body could not be read.")
		return
	}
	res, err := a.submit(r, form, sub)
	switch {
	case errors.Is(err, contact.ErrUnitTag):
		failed(http.StatusBadRequest, "There is no valid unit tag.")
		return
	case err != nil:
		a.d.Log.Error("contact form post", "err", err)
		failed(http.StatusServiceUnavailable, texts.MailSentNG)
		return
	}
	ans := pages.ContactAnswer{Status: res.Status, Message: res.Message, PostedDataHash: res.PostedDataHash}
	if res.Status == contact.StatusSpam && sub.BotToken == "" {
		// No script ran the bot-check: say so, rather than CF7's generic text.
		ans.Message = msgNeedsScript
	}
	for _, v := range res.Invalid {
		iv := pages.ContactInvalid{Field: v.Field, Message: v.Message, ErrorID: v.ErrorID}
		if v.IDRef != "" {
			id := v.IDRef
			iv.IDRef = &id
		}
		ans.InvalidFields = append(ans.InvalidFields, iv)
	}
	if res.Status == contact.StatusMailSent {
		a.d.KickMail()
		answer(http.StatusOK, ans, nil)
		return
	}
	answer(pageStatus(res.Status), ans, formValues(form, sub.Values))
}

// formValues keeps the posted values of the form's own fields, under the
// fields' names, to fill the form again.
func formValues(form contactform.Form, posted map[string][]string) map[string][]string {
	out := map[string][]string{}
	for _, fd := range form.Fields {
		if fd.Kind == contactform.KindFile {
			continue
		}
		for _, k := range []string{fd.Name, fd.Name + "[]", contactform.Reported(fd.Name)} {
			if v, ok := posted[k]; ok {
				out[fd.Name] = append(out[fd.Name], v...)
			}
		}
	}
	return out
}
