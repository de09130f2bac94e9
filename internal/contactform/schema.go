package contactform

import (
	"strconv"
)

// SchemaVersion is the version string of CF7's SWV schema documents.
const SchemaVersion = "Contact Form 7 SWV Schema 2024-10"

// Schema is the SWV schema of a form, the document served at
// .../feedback/schema and used by both the browser and Validate.
type Schema struct {
	Version string `json:"version"`
	Locale  string `json:"locale"`
	Rules   []Rule `json:"rules"`
}

// Rule is one SWV rule. Threshold, Base and Interval are strings, as CF7
// writes them; Rules holds the children of "all" and "any".
type Rule struct {
	Rule      string   `json:"rule"`
	Field     string   `json:"field,omitempty"`
	Error     string   `json:"error,omitempty"`
	Accept    []string `json:"accept,omitempty"`
	Threshold string   `json:"threshold,omitempty"`
	Base      string   `json:"base,omitempty"`
	Interval  string   `json:"interval,omitempty"`
	Rules     []Rule   `json:"rules,omitempty"`
}

// Schema builds the SWV schema of a form: for each field in order, the
// rules CF7's form-tag modules add for the same options. Acceptance
// checkboxes add none: CF7 checks them after validation (AcceptanceMissing).
func (f Form) Schema() Schema {
	m := f.Texts()
	var rules []Rule
	add := func(r Rule) { rules = append(rules, r) }
	itoa := strconv.Itoa
	for _, fd := range f.Fields {
		name := fd.Name
		rule := func(kind, msg string) Rule { return Rule{Rule: kind, Field: name, Error: msg} }
		// bound adds a min or max rule when the field sets its threshold.
		bound := func(kind, msg, threshold string) {
			if threshold != "" {
				r := rule(kind, msg)
				r.Threshold = threshold
				add(r)
			}
		}
		if fd.Required && fd.Kind != KindAcceptance {
			if fd.Kind == KindFile {
				add(rule("requiredfile", m.InvalidRequired))
			} else {
				add(rule("required", m.InvalidRequired))
			}
		}
		switch fd.Kind {
		case KindEmail:
			add(rule("email", m.InvalidEmail))
		case KindURL:
			add(rule("url", m.InvalidURL))
		case KindTel:
			add(rule("tel", m.InvalidTel))
		case KindNumber:
			add(rule("number", m.InvalidNumber))
			bound("minnumber", m.NumberTooSmall, fd.Min)
			bound("maxnumber", m.NumberTooLarge, fd.Max)
			if fd.Step != "" {
				r := rule("stepnumber", m.InvalidStep)
				r.Base, r.Interval = fd.Min, fd.Step
				if r.Base == "" {
					r.Base = "0"
				}
				add(r)
			}
		case KindDate:
			add(rule("date", m.InvalidDate))
			bound("mindate", m.DateTooEarly, fd.Min)
			bound("maxdate", m.DateTooLate, fd.Max)
			if len(fd.DaysOfWeek) > 0 {
				r := rule("dayofweek", m.InvalidWeekday)
				for _, d := range fd.DaysOfWeek {
					r.Accept = append(r.Accept, itoa(d))
				}
				add(r)
			}
		case KindTime:
			add(rule("time", m.InvalidTime))
		case KindSelect, KindCheckbox:
			r := rule("enum", m.InvalidEnum)
			r.Accept = append([]string(nil), fd.Options...)
			add(r)
			maxItems := fd.MaxItems
			if fd.Exclusive || (fd.Kind == KindSelect && !fd.Multiple) {
				maxItems = 1
			}
			if fd.MinItems > 0 {
				r := rule("minitems", m.TooFewItems)
				r.Threshold = itoa(fd.MinItems)
				add(r)
			}
			if maxItems > 0 {
				r := rule("maxitems", m.TooManyItems)
				r.Threshold = itoa(maxItems)
				add(r)
			}
		case KindFile:
			r := rule("file", m.FileTypeInvalid)
			r.Accept = append([]string(nil), fd.Accept...)
			add(r)
			if fd.MinSize > 0 {
				r := rule("minfilesize", m.FileTooSmall)
				r.Threshold = strconv.FormatInt(fd.MinSize, 10)
				add(r)
			}
			if fd.MaxSize > 0 {
				r := rule("maxfilesize", m.FileTooLarge)
				r.Threshold = strconv.FormatInt(fd.MaxSize, 10)
				add(r)
			}
		}
		if fd.MinLength > 0 {
			r := rule("minlength", m.InvalidTooShort)
			r.Threshold = itoa(fd.MinLength)
			add(r)
		}
		if fd.MaxLength > 0 {
			r := rule("maxlength", m.InvalidTooLong)
			r.Threshold = itoa(fd.MaxLength)
			add(r)
		}
	}
	if rules == nil {
		rules = []Rule{}
	}
	return Schema{Version: SchemaVersion, Locale: "en_US", Rules: rules}
}
