// Package contactform defines the shop's contact forms and validates their
// submissions with the rules of Contact Form 7's schema-woven validation
// (SWV): the same schema the browser fetches from
// .../contact-forms/{id}/feedback/schema is the one the server checks with.
//
// The package is pure: no HTTP, no store. The feedback endpoint, the
// submission store and the page build on it.
package contactform

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
)

// Kind is the kind of a form field (CF7's form-tag type without the "*").
type Kind string

const (
	KindText       Kind = "text"
	KindEmail      Kind = "email"
	KindURL        Kind = "url"
	KindTel        Kind = "tel"
	KindNumber     Kind = "number"
	KindDate       Kind = "date"
	KindTime       Kind = "time"
	KindTextarea   Kind = "textarea"
	KindSelect     Kind = "select"
	KindCheckbox   Kind = "checkbox"
	KindAcceptance Kind = "acceptance"
	KindFile       Kind = "file"
)

// Field is one field of a form. Options that do not apply to its Kind must be
// left zero (Form.Check refuses them).
type Field struct {
	Name  string `json:"name"`
	Label string `json:"label"`
	Kind  Kind   `json:"kind"`
	// Required: a value (or a file) must be given. For an acceptance
	// checkbox it means the box must be ticked (CF7's non-optional
	// acceptance), checked by Form.AcceptanceMissing, not by the schema.
	Required bool `json:"required,omitempty"`

	// Text kinds (text, email, url, tel, textarea): length bounds in
	// characters (UTF-16 code units, as the browser counts), 0 = none.
	MinLength int `json:"minlength,omitempty"`
	MaxLength int `json:"maxlength,omitempty"`

	// Number and date: bounds as the input's own syntax ("2.5",
	// "2026-01-31"), "" = none. Step is the number step, based at Min (or 0).
	Min  string `json:"min,omitempty"`
	Max  string `json:"max,omitempty"`
	Step string `json:"step,omitempty"`
	// Date: the ISO weekdays (1 = Monday … 7 = Sunday) allowed, none = all.
	DaysOfWeek []int `json:"days_of_week,omitempty"`

	// Select and checkbox: the values offered. Multiple lets a select
	// send several; Exclusive makes a checkbox group behave like radios.
	Options   []string `json:"options,omitempty"`
	Multiple  bool     `json:"multiple,omitempty"`
	Exclusive bool     `json:"exclusive,omitempty"`
	MinItems  int      `json:"min_items,omitempty"`
	MaxItems  int      `json:"max_items,omitempty"`

	// File: accepted types (".pdf" or MIME types such as "image/png",
	// "image/*"), and the bounds of the total size in bytes, 0 = none.
	Accept  []string `json:"accept,omitempty"`
	MinSize int64    `json:"min_size,omitempty"`
	MaxSize int64    `json:"max_size,omitempty"`
}

// Messages are the form's texts, keyed like CF7's message settings. Empty
// texts fall back to DefaultMessages.
type Messages struct {
	MailSentOK      string `json:"mail_sent_ok,omitempty"`
	MailSentNG      string `json:"mail_sent_ng,omitempty"`
	ValidationError string `json:"validation_error,omitempty"`
	Spam            string `json:"spam,omitempty"`
	AcceptTerms     string `json:"accept_terms,omitempty"`
	Aborted         string `json:"aborted,omitempty"`

	InvalidRequired string `json:"invalid_required,omitempty"`
	InvalidTooLong  string `json:"invalid_too_long,omitempty"`
	InvalidTooShort string `json:"invalid_too_short,omitempty"`
	InvalidEmail    string `json:"invalid_email,omitempty"`
	InvalidURL      string `json:"invalid_url,omitempty"`
	InvalidTel      string `json:"invalid_tel,omitempty"`
	InvalidNumber   string `json:"invalid_number,omitempty"`
	NumberTooSmall  string `json:"number_too_small,omitempty"`
	NumberTooLarge  string `json:"number_too_large,omitempty"`
	InvalidStep     string `json:"invalid_step,omitempty"`
	InvalidDate     string `json:"invalid_date,omitempty"`
	DateTooEarly    string `json:"date_too_early,omitempty"`
	DateTooLate     string `json:"date_too_late,omitempty"`
	InvalidWeekday  string `json:"invalid_weekday,omitempty"`
	InvalidTime     string `json:"invalid_time,omitempty"`
	InvalidEnum     string `json:"invalid_enum,omitempty"`
	TooFewItems     string `json:"too_few_items,omitempty"`
	TooManyItems    string `json:"too_many_items,omitempty"`
	FileTypeInvalid string `json:"upload_file_type_invalid,omitempty"`
	FileTooLarge    string `json:"upload_file_too_large,omitempty"`
	FileTooSmall    string `json:"upload_file_too_small,omitempty"`
}

// DefaultMessages are the texts a form gets unless it sets its own; those CF7
// ships are the same words, so the shop reads like the plugin it replaces.
func DefaultMessages() Messages {
	return Messages{
		MailSentOK:      "Thank you for your message. It has been sent.",
		MailSentNG:      "There was an error trying to send your message. Please try again later.",
		ValidationError: "One or more fields have an error. Please check and try again.",
		Spam:            "There was an error trying to send your message. Please try again later.",
		AcceptTerms:     "You must accept the terms and conditions before sending your message.",
		Aborted:         "Sending the message has been aborted.",

		InvalidRequired: "Please fill out this field.",
		InvalidTooLong:  "This field has a too long input.",
		InvalidTooShort: "This field has a too short input.",
		InvalidEmail:    "Please enter an email address.",
		InvalidURL:      "Please enter a URL.",
		InvalidTel:      "Please enter a telephone number.",
		InvalidNumber:   "Please enter a number.",
		NumberTooSmall:  "This field has a too small number.",
		NumberTooLarge:  "This field has a too large number.",
		InvalidStep:     "Please enter a number that fits the allowed steps.",
		InvalidDate:     "Please enter a date in YYYY-MM-DD format.",
		DateTooEarly:    "This field has a too early date.",
		DateTooLate:     "This field has a too late date.",
		InvalidWeekday:  "This date falls on a day of the week that is not available.",
		InvalidTime:     "Please enter a time in HH:MM format.",
		InvalidEnum:     "Undefined value was submitted through this field.",
		TooFewItems:     "Too few items are selected.",
		TooManyItems:    "Too many items are selected.",
		FileTypeInvalid: "You are not allowed to upload files of this type.",
		FileTooLarge:    "The uploaded file is too large.",
		FileTooSmall:    "The uploaded file is too small.",
	}
}

// withDefaults fills the empty texts of m from DefaultMessages (every
// field of Messages is a text).
func (m Messages) withDefaults() Messages {
	d := reflect.ValueOf(DefaultMessages())
	v := reflect.ValueOf(&m).Elem()
	for i := range v.NumField() {
		if f := v.Field(i); f.String() == "" {
			f.SetString(d.Field(i).String())
		}
	}
	return m
}

// Form is a contact form defined by the shop.
type Form struct {
	ID       int64    `json:"id"`
	Title    string   `json:"title"`
	Fields   []Field  `json:"fields"`
	Messages Messages `json:"messages"`
}

// Texts returns the form's messages with the defaults filled in.
func (f Form) Texts() Messages { return f.Messages.withDefaults() }

// DefaultFormID is the id of the shop's default contact form.
const DefaultFormID = 1

// MiB is 2^20 bytes.
const MiB = 1 << 20

// DefaultForm is the shop's contact form: name, email, subject, message, an
// optional attachment and the terms checkbox.
func DefaultForm() Form {
	return Form{
		ID:    DefaultFormID,
		Title: "Contact form",
		Fields: []Field{
			{Name: "your-name", Label: "Your name", Kind: KindText, Required: true, MaxLength: 400},
			{Name: "your-email", Label: "Your email", Kind: KindEmail, Required: true, MaxLength: 400},
			{Name: "your-subject", Label: "Subject", Kind: KindText, MaxLength: 400},
			{Name: "your-message", Label: "Your message", Kind: KindTextarea, Required: true, MaxLength: 2000},
			{Name: "your-file", Label: "Attachment (PDF, JPEG or PNG, up to 2 MiB)", Kind: KindFile,
				Accept: []string{".pdf", ".jpg", ".jpeg", ".png"}, MaxSize: 2 * MiB},
			{Name: "your-consent", Label: "I agree to the shop's privacy policy and terms.", Kind: KindAcceptance, Required: true},
		},
	}
}

// namePattern is CF7's form-tag name syntax (HTML 4 NAME tokens).
var namePattern = regexp.MustCompile(`^[A-Za-z][-A-Za-z0-9_:.]*$`)

// ErrInvalidForm wraps every problem Check finds in a form definition.
var ErrInvalidForm = errors.New("contactform: invalid form definition")

// Check reports the first problem of a form definition: a bad or repeated
// name, an unknown kind, an option that does not apply to the kind, a bound
// that does not parse, or a file type the server cannot verify by content.
func (f Form) Check() error {
	bad := func(fd Field, format string, a ...any) error {
		return fmt.Errorf("%w: field %q: %s", ErrInvalidForm, fd.Name, fmt.Sprintf(format, a...))
	}
	seen := map[string]bool{}
	for _, fd := range f.Fields {
		if !namePattern.MatchString(fd.Name) {
			return bad(fd, "name is not a letter followed by letters, digits, - _ : or .")
		}
		if seen[Reported(fd.Name)] {
			return bad(fd, "name used twice")
		}
		seen[Reported(fd.Name)] = true
		text := fd.Kind == KindText || fd.Kind == KindEmail || fd.Kind == KindURL || fd.Kind == KindTel || fd.Kind == KindTextarea
		switch fd.Kind {
		case KindText, KindEmail, KindURL, KindTel, KindTextarea, KindNumber, KindDate, KindTime,
			KindSelect, KindCheckbox, KindAcceptance, KindFile:
		default:
			return bad(fd, "unknown kind %q", fd.Kind)
		}
		if (fd.MinLength != 0 || fd.MaxLength != 0) && !text {
			return bad(fd, "length bounds apply to text kinds only")
		}
		if fd.MinLength < 0 || fd.MaxLength < 0 || (fd.MaxLength > 0 && fd.MinLength > fd.MaxLength) {
			return bad(fd, "length bounds out of order")
		}
		switch fd.Kind {
		case KindNumber:
			for _, s := range []string{fd.Min, fd.Max, fd.Step} {
				if s != "" && !IsNumber(s) {
					return bad(fd, "bound %q is not a number", s)
				}
			}
			if fd.Step != "" {
				if v, _ := strconv.ParseFloat(fd.Step, 64); !(v > 0) {
					return bad(fd, "step must be above 0")
				}
			}
		case KindDate:
			for _, s := range []string{fd.Min, fd.Max} {
				if s != "" && !IsDate(s) {
					return bad(fd, "bound %q is not a date", s)
				}
			}
			for _, d := range fd.DaysOfWeek {
				if d < 1 || d > 7 {
					return bad(fd, "day of week %d is not 1 to 7", d)
				}
			}
		default:
			if fd.Min != "" || fd.Max != "" || fd.Step != "" || len(fd.DaysOfWeek) > 0 {
				return bad(fd, "min, max, step and days apply to number and date only")
			}
		}
		if fd.Kind == KindDate && fd.Step != "" {
			return bad(fd, "step applies to number only")
		}
		choice := fd.Kind == KindSelect || fd.Kind == KindCheckbox
		if choice && len(fd.Options) == 0 {
			return bad(fd, "a choice needs options")
		}
		if !choice && (len(fd.Options) > 0 || fd.Multiple || fd.Exclusive || fd.MinItems != 0 || fd.MaxItems != 0) {
			return bad(fd, "options and item bounds apply to select and checkbox only")
		}
		if fd.Multiple && fd.Kind != KindSelect || fd.Exclusive && fd.Kind != KindCheckbox {
			return bad(fd, "multiple is for select, exclusive for checkbox")
		}
		if fd.MinItems < 0 || fd.MaxItems < 0 || (fd.MaxItems > 0 && fd.MinItems > fd.MaxItems) {
			return bad(fd, "item bounds out of order")
		}
		if fd.Kind == KindFile {
			if len(fd.Accept) == 0 {
				return bad(fd, "a file field needs an accept list")
			}
			for _, a := range fd.Accept {
				if len(acceptExtensions([]string{a})) == 0 {
					return bad(fd, "accept entry %q names no type the server can verify by content", a)
				}
			}
			if fd.MinSize < 0 || fd.MaxSize < 0 || (fd.MaxSize > 0 && fd.MinSize > fd.MaxSize) {
				return bad(fd, "size bounds out of order")
			}
		} else if len(fd.Accept) > 0 || fd.MinSize != 0 || fd.MaxSize != 0 {
			return bad(fd, "accept and size bounds apply to file only")
		}
	}
	return nil
}

// Reported is the name CF7 reports a field under: dots become underscores
// (PHP rewrites them in posted names).
func Reported(name string) string { return strings.ReplaceAll(name, ".", "_") }

// AcceptanceMissing reports whether a required acceptance checkbox of the
// form was not ticked (CF7's acceptance_missing status, checked after the
// schema passes). A ticked box sends any non-blank value.
func (f Form) AcceptanceMissing(values map[string][]string) bool {
	for _, fd := range f.Fields {
		if fd.Kind == KindAcceptance && fd.Required && len(nonBlank(lookup(values, fd.Name))) == 0 {
			return true
		}
	}
	return false
}
