package contactform

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

const (
	pdfHead = "%PDF-1.7\n"
	pngHead = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
	jpgHead = "\xff\xd8\xff\xe0\x00\x10JFIF\x00"
)

func file(name, head string, size int64) File {
	return File{Name: name, Size: size, ContentType: "application/octet-stream", Sniffed: Sniff([]byte(head))}
}

// TestRules checks each SWV rule on its own, passing and failing.
func TestRules(t *testing.T) {
	type vals = map[string][]string
	type fls = map[string][]File
	cases := []struct {
		name  string
		rule  Rule
		vals  vals
		files fls
		ok    bool
	}{
		{"required given", Rule{Rule: "required"}, vals{"f": {"x"}}, nil, true},
		{"required one of several", Rule{Rule: "required"}, vals{"f": {"", "b"}}, nil, true},
		{"required absent", Rule{Rule: "required"}, nil, nil, false},
		{"required empty", Rule{Rule: "required"}, vals{"f": {""}}, nil, false},
		{"required spaces", Rule{Rule: "required"}, vals{"f": {"  \t\n"}}, nil, false},
		{"required via []", Rule{Rule: "required"}, vals{"f[]": {"a"}}, nil, true},

		{"requiredfile given", Rule{Rule: "requiredfile"}, nil, fls{"f": {file("a.pdf", pdfHead, 9)}}, true},
		{"requiredfile absent", Rule{Rule: "requiredfile"}, nil, nil, false},
		{"requiredfile empty part", Rule{Rule: "requiredfile"}, nil, fls{"f": {{}}}, false},

		{"email ok", Rule{Rule: "email"}, vals{"f": {"ann@example.com"}}, nil, true},
		{"email trimmed", Rule{Rule: "email"}, vals{"f": {" a.b+c@mail.example.org "}}, nil, true},
		{"email empty passes", Rule{Rule: "email"}, vals{"f": {""}}, nil, true},
		{"email short", Rule{Rule: "email"}, vals{"f": {"a@b.c"}}, nil, false},
		{"email no at", Rule{Rule: "email"}, vals{"f": {"ann.example.com"}}, nil, false},
		{"email two at", Rule{Rule: "email"}, vals{"f": {"a@b@example.com"}}, nil, false},
		{"email at first", Rule{Rule: "email"}, vals{"f": {"@example.com"}}, nil, false},
		{"email bad local", Rule{Rule: "email"}, vals{"f": {"a(b)@example.com"}}, nil, false},
		{"email one label", Rule{Rule: "email"}, vals{"f": {"ann@localhost"}}, nil, false},
		{"email double dot", Rule{Rule: "email"}, vals{"f": {"ann@example..com"}}, nil, false},
		{"email trailing dot", Rule{Rule: "email"}, vals{"f": {"ann@example.com."}}, nil, false},
		{"email hyphen label", Rule{Rule: "email"}, vals{"f": {"ann@-example.com"}}, nil, false},
		{"email underscore label", Rule{Rule: "email"}, vals{"f": {"ann@ex_ample.com"}}, nil, false},
		{"email second value bad", Rule{Rule: "email"}, vals{"f": {"ann@example.com", "bad"}}, nil, false},

		{"url https", Rule{Rule: "url"}, vals{"f": {"https://example.com/a?b=1"}}, nil, true},
		{"url bare domain gets http", Rule{Rule: "url"}, vals{"f": {"example.com/x"}}, nil, true},
		{"url mailto", Rule{Rule: "url"}, vals{"f": {"mailto:ann@example.com"}}, nil, true},
		{"url bad scheme", Rule{Rule: "url"}, vals{"f": {"javascript:alert(1)"}}, nil, false},
		{"url no dot no scheme", Rule{Rule: "url"}, vals{"f": {"localhost"}}, nil, false},
		{"url empty host", Rule{Rule: "url"}, vals{"f": {"http://"}}, nil, false},
		{"url space", Rule{Rule: "url"}, vals{"f": {"http://exa mple.com"}}, nil, false},

		{"tel plain", Rule{Rule: "tel"}, vals{"f": {"0123 456 789"}}, nil, true},
		{"tel punctuation", Rule{Rule: "tel"}, vals{"f": {"(012) 345-67.89"}}, nil, true},
		{"tel international", Rule{Rule: "tel"}, vals{"f": {"+44 20 7946 0958"}}, nil, true},
		{"tel 00 prefix", Rule{Rule: "tel"}, vals{"f": {"0044 20 7946 0958"}}, nil, true},
		{"tel extension", Rule{Rule: "tel"}, vals{"f": {"020 7946 0958 #123"}}, nil, true},
		{"tel six chars", Rule{Rule: "tel"}, vals{"f": {"123456"}}, nil, true},
		{"tel five chars", Rule{Rule: "tel"}, vals{"f": {"12345"}}, nil, false},
		{"tel sixteen chars", Rule{Rule: "tel"}, vals{"f": {"1234567890123456"}}, nil, false},
		{"tel plus counted", Rule{Rule: "tel"}, vals{"f": {"+123456789012345"}}, nil, false},
		{"tel letters", Rule{Rule: "tel"}, vals{"f": {"0800 FLOWERS"}}, nil, false},

		{"number int", Rule{Rule: "number"}, vals{"f": {"42"}}, nil, true},
		{"number negative fraction", Rule{Rule: "number"}, vals{"f": {"-2.5"}}, nil, true},
		{"number leading dot", Rule{Rule: "number"}, vals{"f": {".5"}}, nil, true},
		{"number exponent", Rule{Rule: "number"}, vals{"f": {"1e3"}}, nil, true},
		{"number plus sign", Rule{Rule: "number"}, vals{"f": {"+1"}}, nil, false},
		{"number trailing dot", Rule{Rule: "number"}, vals{"f": {"1."}}, nil, false},
		{"number hex", Rule{Rule: "number"}, vals{"f": {"0x10"}}, nil, false},
		{"number word", Rule{Rule: "number"}, vals{"f": {"ten"}}, nil, false},

		{"date ok", Rule{Rule: "date"}, vals{"f": {"2026-02-28"}}, nil, true},
		{"date leap day", Rule{Rule: "date"}, vals{"f": {"2024-02-29"}}, nil, true},
		{"date five digit year", Rule{Rule: "date"}, vals{"f": {"12024-02-29"}}, nil, true},
		{"date not leap", Rule{Rule: "date"}, vals{"f": {"2100-02-29"}}, nil, false},
		{"date month 13", Rule{Rule: "date"}, vals{"f": {"2026-13-01"}}, nil, false},
		{"date day 0", Rule{Rule: "date"}, vals{"f": {"2026-01-00"}}, nil, false},
		{"date other format", Rule{Rule: "date"}, vals{"f": {"28/02/2026"}}, nil, false},

		{"time HH:MM", Rule{Rule: "time"}, vals{"f": {"09:30"}}, nil, true},
		{"time HH:MM:SS", Rule{Rule: "time"}, vals{"f": {"23:59:59"}}, nil, true},
		{"time hour 24", Rule{Rule: "time"}, vals{"f": {"24:00"}}, nil, false},
		{"time one digit", Rule{Rule: "time"}, vals{"f": {"9:30"}}, nil, false},
		{"time minute 60", Rule{Rule: "time"}, vals{"f": {"10:60"}}, nil, false},

		{"file pdf", Rule{Rule: "file", Accept: []string{".pdf"}}, nil, fls{"f": {file("cv.PDF", pdfHead, 100)}}, true},
		{"file by mime wildcard", Rule{Rule: "file", Accept: []string{"image/*"}}, nil, fls{"f": {file("a.png", pngHead, 100)}}, true},
		{"file by mime", Rule{Rule: "file", Accept: []string{"image/jpeg"}}, nil, fls{"f": {file("a.jpeg", jpgHead, 100)}}, true},
		{"file none passes", Rule{Rule: "file", Accept: []string{".pdf"}}, nil, nil, true},
		{"file wrong extension", Rule{Rule: "file", Accept: []string{".pdf"}}, nil, fls{"f": {file("a.exe", pdfHead, 100)}}, false},
		{"file no extension", Rule{Rule: "file", Accept: []string{".pdf"}}, nil, fls{"f": {file("pdf", pdfHead, 100)}}, false},
		{"file content lies", Rule{Rule: "file", Accept: []string{".pdf", ".png"}}, nil, fls{"f": {file("a.png", "<html><script>", 100)}}, false},
		{"file content of other allowed type", Rule{Rule: "file", Accept: []string{".pdf", ".png"}}, nil, fls{"f": {file("a.png", pdfHead, 100)}}, false},
		{"file not sniffed", Rule{Rule: "file", Accept: []string{".pdf"}}, nil, fls{"f": {{Name: "a.pdf", Size: 9, ContentType: "application/pdf"}}}, false},

		{"enum ok", Rule{Rule: "enum", Accept: []string{"a", "b"}}, vals{"f": {"b", "a"}}, nil, true},
		{"enum other", Rule{Rule: "enum", Accept: []string{"a", "b"}}, vals{"f": {"a", "c"}}, nil, false},
		{"enum case", Rule{Rule: "enum", Accept: []string{"a"}}, vals{"f": {"A"}}, nil, false},

		{"dayofweek monday", Rule{Rule: "dayofweek", Accept: []string{"1", "2"}}, vals{"f": {"2026-11-23"}}, nil, true},
		{"dayofweek sunday is 7", Rule{Rule: "dayofweek", Accept: []string{"7"}}, vals{"f": {"2026-11-22"}}, nil, true},
		{"dayofweek saturday refused", Rule{Rule: "dayofweek", Accept: []string{"1", "2", "3", "4", "5"}}, vals{"f": {"2026-11-21"}}, nil, false},
		{"dayofweek far year", Rule{Rule: "dayofweek", Accept: []string{"6"}}, vals{"f": {"12026-11-21"}}, nil, true},

		{"minitems ok", Rule{Rule: "minitems", Threshold: "2"}, vals{"f": {"a", "b"}}, nil, true},
		{"minitems few", Rule{Rule: "minitems", Threshold: "2"}, vals{"f": {"a", ""}}, nil, false},
		{"maxitems ok", Rule{Rule: "maxitems", Threshold: "1"}, vals{"f": {"a"}}, nil, true},
		{"maxitems many", Rule{Rule: "maxitems", Threshold: "1"}, vals{"f": {"a", "b"}}, nil, false},

		{"minlength ok", Rule{Rule: "minlength", Threshold: "4"}, vals{"f": {"ab", "cd"}}, nil, true},
		{"minlength empty passes", Rule{Rule: "minlength", Threshold: "4"}, vals{"f": {""}}, nil, true},
		{"minlength short", Rule{Rule: "minlength", Threshold: "4"}, vals{"f": {"abc"}}, nil, false},
		{"minlength counts chars not bytes", Rule{Rule: "minlength", Threshold: "4"}, vals{"f": {"ééé"}}, nil, false},
		{"maxlength ok", Rule{Rule: "maxlength", Threshold: "3"}, vals{"f": {"ééé"}}, nil, true},
		{"maxlength long", Rule{Rule: "maxlength", Threshold: "3"}, vals{"f": {"ab", "cd"}}, nil, false},
		{"maxlength astral is two units", Rule{Rule: "maxlength", Threshold: "3"}, vals{"f": {"a😀b"}}, nil, false},
		{"maxlength ignores surrounding spaces", Rule{Rule: "maxlength", Threshold: "3"}, vals{"f": {"  abc\n"}}, nil, true},
		{"enum on trimmed value", Rule{Rule: "enum", Accept: []string{"a"}}, vals{"f": {" a "}}, nil, true},
		{"maxlength CRLF is one", Rule{Rule: "maxlength", Threshold: "3"}, vals{"f": {"a\r\nb"}}, nil, true},

		{"minnumber ok", Rule{Rule: "minnumber", Threshold: "1.5"}, vals{"f": {"1.5"}}, nil, true},
		{"minnumber small", Rule{Rule: "minnumber", Threshold: "1.5"}, vals{"f": {"1.49"}}, nil, false},
		{"minnumber not a number passes", Rule{Rule: "minnumber", Threshold: "1"}, vals{"f": {"x"}}, nil, true},
		{"maxnumber ok", Rule{Rule: "maxnumber", Threshold: "10"}, vals{"f": {"1e1"}}, nil, true},
		{"maxnumber large", Rule{Rule: "maxnumber", Threshold: "10"}, vals{"f": {"10.01"}}, nil, false},

		{"mindate ok", Rule{Rule: "mindate", Threshold: "2026-01-01"}, vals{"f": {"2026-01-01"}}, nil, true},
		{"mindate early", Rule{Rule: "mindate", Threshold: "2026-01-01"}, vals{"f": {"2025-12-31"}}, nil, false},
		{"maxdate ok", Rule{Rule: "maxdate", Threshold: "2026-12-31"}, vals{"f": {"2026-06-01"}}, nil, true},
		{"maxdate late", Rule{Rule: "maxdate", Threshold: "2026-12-31"}, vals{"f": {"2027-01-01"}}, nil, false},
		{"maxdate five digit year", Rule{Rule: "maxdate", Threshold: "9999-12-31"}, vals{"f": {"10000-01-01"}}, nil, false},

		{"minfilesize ok", Rule{Rule: "minfilesize", Threshold: "10"}, nil, fls{"f": {file("a.pdf", pdfHead, 4), file("b.pdf", pdfHead, 6)}}, true},
		{"minfilesize none passes", Rule{Rule: "minfilesize", Threshold: "10"}, nil, nil, true},
		{"minfilesize small", Rule{Rule: "minfilesize", Threshold: "10"}, nil, fls{"f": {file("a.pdf", pdfHead, 9)}}, false},
		{"maxfilesize ok", Rule{Rule: "maxfilesize", Threshold: "2097152"}, nil, fls{"f": {file("a.pdf", pdfHead, 2097152)}}, true},
		{"maxfilesize total", Rule{Rule: "maxfilesize", Threshold: "2097152"}, nil, fls{"f": {file("a.pdf", pdfHead, 2097152), file("b.pdf", pdfHead, 1)}}, false},

		{"stepnumber ok", Rule{Rule: "stepnumber", Base: "1", Interval: "0.5"}, vals{"f": {"2.5"}}, nil, true},
		{"stepnumber float noise", Rule{Rule: "stepnumber", Base: "0", Interval: "0.1"}, vals{"f": {"0.3"}}, nil, true},
		{"stepnumber negative", Rule{Rule: "stepnumber", Base: "0", Interval: "3"}, vals{"f": {"-6"}}, nil, true},
		{"stepnumber off", Rule{Rule: "stepnumber", Base: "1", Interval: "0.5"}, vals{"f": {"2.25"}}, nil, false},
		{"stepnumber base matters", Rule{Rule: "stepnumber", Base: "1", Interval: "2"}, vals{"f": {"4"}}, nil, false},

		{"unknown rule passes", Rule{Rule: "nosuchrule"}, vals{"f": {"x"}}, nil, true},
		{"bad threshold skipped", Rule{Rule: "maxlength", Threshold: "many"}, vals{"f": {"xxxx"}}, nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := c.rule
			r.Field, r.Error = "f", "bad f"
			got := Validate(Schema{Rules: []Rule{r}}, c.vals, c.files)
			if c.ok && len(got) != 0 {
				t.Fatalf("want pass, got %v", got)
			}
			if !c.ok && !reflect.DeepEqual(got, []Invalid{{Field: "f", Message: "bad f"}}) {
				t.Fatalf("want failure of f, got %v", got)
			}
		})
	}
}

func TestAllAny(t *testing.T) {
	email := Rule{Rule: "email", Field: "contact", Error: "not an email"}
	tel := Rule{Rule: "tel", Field: "contact", Error: "not a phone"}
	noErr := Rule{Rule: "required", Field: "other"}
	cases := []struct {
		name string
		rule Rule
		vals map[string][]string
		want []Invalid
	}{
		{"any passes on one", Rule{Rule: "any", Field: "contact", Error: "email or phone", Rules: []Rule{email, tel}},
			map[string][]string{"contact": {"+44 20 7946 0958"}}, nil},
		{"any fails on none", Rule{Rule: "any", Field: "contact", Error: "email or phone", Rules: []Rule{email, tel}},
			map[string][]string{"contact": {"neither"}}, []Invalid{{"contact", "email or phone"}}},
		{"all passes", Rule{Rule: "all", Field: "contact", Error: "group", Rules: []Rule{email, {Rule: "maxlength", Field: "contact", Threshold: "40", Error: "long"}}},
			map[string][]string{"contact": {"ann@example.com"}}, nil},
		{"all reports first failing child's own error", Rule{Rule: "all", Field: "contact", Error: "group", Rules: []Rule{email, tel}},
			map[string][]string{"contact": {"ann@example.com"}}, []Invalid{{"contact", "not a phone"}}},
		{"all reports itself for a child without error", Rule{Rule: "all", Field: "contact", Error: "group", Rules: []Rule{noErr, email}},
			map[string][]string{"contact": {"ann@example.com"}}, []Invalid{{"contact", "group"}}},
		{"empty any passes", Rule{Rule: "any", Field: "x", Error: "e"}, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Validate(Schema{Rules: []Rule{c.rule}}, c.vals, nil)
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
}

func TestFirstErrorPerFieldAndDots(t *testing.T) {
	s := Schema{Rules: []Rule{
		{Rule: "required", Field: "a.b", Error: "required"},
		{Rule: "email", Field: "a.b", Error: "email"},
		{Rule: "email", Field: "c", Error: "email c"},
		{Rule: "maxlength", Field: "c", Threshold: "2", Error: "long c"},
	}}
	got := Validate(s, map[string][]string{"c": {"nope"}}, nil)
	want := []Invalid{{"a_b", "required"}, {"c", "email c"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	// The value is found under the dotted name and under PHP's rewrite.
	for _, key := range []string{"a.b", "a_b"} {
		got := Validate(s, map[string][]string{key: {"ann@example.com"}}, nil)
		if len(got) != 0 {
			t.Errorf("%s: got %v", key, got)
		}
	}
}

func TestDefaultForm(t *testing.T) {
	f := DefaultForm()
	if err := f.Check(); err != nil {
		t.Fatal(err)
	}
	ok := map[string][]string{
		"your-name": {"Ann"}, "your-email": {"ann@example.com"}, "your-subject": {""},
		"your-message": {strings.Repeat("é", 2000)}, "your-consent": {"1"},
	}
	if got := f.Validate(ok, nil); len(got) != 0 {
		t.Fatalf("valid submission refused: %v", got)
	}
	if f.AcceptanceMissing(ok) {
		t.Fatal("ticked acceptance reported missing")
	}
	withFile := map[string][]File{"your-file": {file("invoice.pdf", pdfHead, 2*MiB)}}
	if got := f.Validate(ok, withFile); len(got) != 0 {
		t.Fatalf("valid file refused: %v", got)
	}

	got := f.Validate(map[string][]string{
		"your-email": {"ann@"}, "your-message": {strings.Repeat("x", 2001)},
	}, map[string][]File{"your-file": {file("invoice.pdf", pdfHead, 2*MiB+1)}})
	want := []Invalid{
		{"your-name", "Please fill out this field."},
		{"your-email", "Please enter an email address."},
		{"your-message", "This field has a too long input."},
		{"your-file", "The uploaded file is too large."},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
	if got := f.Validate(ok, map[string][]File{"your-file": {file("invoice.png", jpgHead, 10)}}); !reflect.DeepEqual(got,
		[]Invalid{{"your-file", "You are not allowed to upload files of this type."}}) {
		t.Fatalf("jpeg content named .png: %v", got)
	}
	if !f.AcceptanceMissing(map[string][]string{"your-consent": {""}}) || !f.AcceptanceMissing(nil) {
		t.Fatal("unticked acceptance not reported")
	}
}

func TestCustomMessages(t *testing.T) {
	f := Form{ID: 2, Fields: []Field{{Name: "n", Kind: KindText, Required: true}},
		Messages: Messages{InvalidRequired: "Name, please."}}
	got := f.Validate(nil, nil)
	if !reflect.DeepEqual(got, []Invalid{{"n", "Name, please."}}) {
		t.Fatal(got)
	}
	if f.Texts().MailSentOK != DefaultMessages().MailSentOK {
		t.Fatal("empty text not defaulted")
	}
}

// TestSchemaOfKinds checks the rules each kind and option produce.
func TestSchemaOfKinds(t *testing.T) {
	f := Form{ID: 3, Fields: []Field{
		{Name: "qty", Kind: KindNumber, Required: true, Min: "1", Max: "10", Step: "0.5"},
		{Name: "day", Kind: KindDate, Min: "2026-01-01", Max: "2026-12-31", DaysOfWeek: []int{1, 5}},
		{Name: "at", Kind: KindTime},
		{Name: "site", Kind: KindURL, MinLength: 4},
		{Name: "phone", Kind: KindTel},
		{Name: "size", Kind: KindSelect, Options: []string{"S", "M"}},
		{Name: "extras", Kind: KindCheckbox, Options: []string{"a", "b", "c"}, MinItems: 1, MaxItems: 2},
		{Name: "one", Kind: KindCheckbox, Options: []string{"x", "y"}, Exclusive: true},
		{Name: "doc", Kind: KindFile, Required: true, Accept: []string{"application/pdf"}, MinSize: 1, MaxSize: 10},
		{Name: "ok", Kind: KindAcceptance, Required: true},
	}}
	if err := f.Check(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range f.Schema().Rules {
		got = append(got, r.Field+":"+r.Rule+"("+r.Threshold+r.Base+"/"+r.Interval+strings.Join(r.Accept, ",")+")")
	}
	want := []string{
		"qty:required(/)", "qty:number(/)", "qty:minnumber(1/)", "qty:maxnumber(10/)", "qty:stepnumber(1/0.5)",
		"day:date(/)", "day:mindate(2026-01-01/)", "day:maxdate(2026-12-31/)", "day:dayofweek(/1,5)",
		"at:time(/)", "site:url(/)", "site:minlength(4/)", "phone:tel(/)",
		"size:enum(/S,M)", "size:maxitems(1/)",
		"extras:enum(/a,b,c)", "extras:minitems(1/)", "extras:maxitems(2/)",
		"one:enum(/x,y)", "one:maxitems(1/)",
		"doc:requiredfile(/)", "doc:file(/application/pdf)", "doc:minfilesize(1/)", "doc:maxfilesize(10/)",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

func TestCheckRefuses(t *testing.T) {
	bad := []Field{
		{Name: "1st", Kind: KindText},
		{Name: "a b", Kind: KindText},
		{Name: "x", Kind: "password"},
		{Name: "x", Kind: KindNumber, MaxLength: 3},
		{Name: "x", Kind: KindText, MinLength: 5, MaxLength: 4},
		{Name: "x", Kind: KindNumber, Min: "one"},
		{Name: "x", Kind: KindNumber, Step: "0"},
		{Name: "x", Kind: KindDate, Max: "2026-02-30"},
		{Name: "x", Kind: KindDate, DaysOfWeek: []int{0}},
		{Name: "x", Kind: KindText, Min: "1"},
		{Name: "x", Kind: KindSelect},
		{Name: "x", Kind: KindText, Options: []string{"a"}},
		{Name: "x", Kind: KindSelect, Options: []string{"a"}, Exclusive: true},
		{Name: "x", Kind: KindFile},
		{Name: "x", Kind: KindFile, Accept: []string{".exe"}},
		{Name: "x", Kind: KindFile, Accept: []string{".pdf"}, MinSize: 10, MaxSize: 5},
		{Name: "x", Kind: KindText, Accept: []string{".pdf"}},
	}
	for _, fd := range bad {
		if err := (Form{Fields: []Field{fd}}).Check(); !errors.Is(err, ErrInvalidForm) {
			t.Errorf("%+v: got %v", fd, err)
		}
	}
	twice := Form{Fields: []Field{{Name: "a.b", Kind: KindText}, {Name: "a_b", Kind: KindText}}}
	if err := twice.Check(); !errors.Is(err, ErrInvalidForm) {
		t.Errorf("names equal once reported: %v", err)
	}
}

// TestDefaultSchemaGolden pins the schema the browser receives for the
// default form. Run with -update after a deliberate change.
func TestDefaultSchemaGolden(t *testing.T) {
	got, err := json.MarshalIndent(DefaultForm().Schema(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	golden := filepath.Join("testdata", "default-form-schema.json")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("schema changed; run go test -run TestDefaultSchemaGolden -update ./internal/contactform\n%s", got)
	}
	// The golden file reads back to the same schema.
	var back Schema
	if err := json.Unmarshal(want, &back); err != nil || !reflect.DeepEqual(back, DefaultForm().Schema()) {
		t.Fatalf("golden does not round-trip: %v", err)
	}
}

// FuzzValidate: any schema and any submission are validated without a panic,
// and every reported field is one the schema names.
func FuzzValidate(f *testing.F) {
	def, _ := json.Marshal(DefaultForm().Schema())
	f.Add(string(def), "your-email", "ann@example.com", "a.pdf", int64(10), pdfHead)
	f.Add(`{"rules":[{"rule":"all","field":"x","error":"e","rules":[{"rule":"stepnumber","field":"x","base":"1e308","interval":"1e-308"}]}]}`,
		"x", "1e309", "", int64(0), "")
	f.Add(`{"rules":[{"rule":"maxfilesize","field":"f","threshold":"-1"},{"rule":"dayofweek","field":"d","accept":["1"]}]}`,
		"d", "99999999999999999999-02-29", "f", int64(-1), "\x00")
	f.Add(`{"rules":[{"rule":"url","field":"u","error":"e"},{"rule":"tel","field":"u"},{"rule":"maxlength","field":"u","threshold":"9223372036854775807"}]}`,
		"u", "http://[::1", "x.png", int64(1<<62), pngHead)
	f.Fuzz(func(t *testing.T, schemaJSON, field, value, fileName string, size int64, head string) {
		var s Schema
		if json.Unmarshal([]byte(schemaJSON), &s) != nil {
			return
		}
		vals := map[string][]string{field: {value, value + value}}
		files := map[string][]File{field: {{Name: fileName, Size: size, Sniffed: Sniff([]byte(head))}}}
		named := map[string]bool{}
		var walk func([]Rule)
		walk = func(rs []Rule) {
			for _, r := range rs {
				named[Reported(r.Field)] = true
				walk(r.Rules)
			}
		}
		walk(s.Rules)
		for _, inv := range Validate(s, vals, files) {
			if !named[inv.Field] {
				t.Fatalf("reported %q, not in the schema", inv.Field)
			}
		}
	})
}

func TestDefaultMessagesComplete(t *testing.T) {
	d := reflect.ValueOf(DefaultMessages())
	for i := range d.NumField() {
		if d.Field(i).String() == "" {
			t.Errorf("no default for %s", d.Type().Field(i).Name)
		}
	}
	if !reflect.DeepEqual(Messages{}.withDefaults(), DefaultMessages()) {
		t.Error("withDefaults does not fill every text")
	}
}

// TestWeekdayAgreesWithTime checks the 400-year shortcut against the time
// package day by day over five centuries.
func TestWeekdayAgreesWithTime(t *testing.T) {
	for d := time.Date(1800, 1, 1, 12, 0, 0, 0, time.UTC); d.Year() < 2300; d = d.AddDate(0, 0, 1) {
		want := int(d.Weekday())
		if want == 0 {
			want = 7
		}
		got, ok := weekday(d.Format("2006-01-02"))
		if !ok || got != want {
			t.Fatalf("%s: got %d %v, want %d", d.Format("2006-01-02"), got, ok, want)
		}
	}
}
