package contactform

import (
	"math"
	"mime"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
)

// File is one uploaded file as the validator sees it. ContentType is what the
// client declared and is not trusted; Sniffed is the media type the server
// found in the content (Sniff), without parameters. A file whose Sniffed is
// empty fails the "file" rule: the check fails closed.
type File struct {
	Name        string
	Size        int64
	ContentType string
	Sniffed     string
}

// Sniff returns the media type of content from its first bytes (up to 512
// are looked at), without parameters, as http.DetectContentType sees it.
func Sniff(head []byte) string {
	t, _, err := mime.ParseMediaType(http.DetectContentType(head))
	if err != nil {
		return "application/octet-stream"
	}
	return t
}

// Invalid is one field's error: Field is the reported name (dots turned into
// underscores), Message the rule's error text.
type Invalid struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// Validate checks a form's submission against its schema.
func (f Form) Validate(values map[string][]string, files map[string][]File) []Invalid {
	return Validate(f.Schema(), values, files)
}

// Validate checks values and files against the rules of s in order, the way
// CF7's SWV does on the server and in the browser: every format rule passes
// on an empty field, and a field reports only its first failing rule. A rule
// whose threshold does not parse is skipped (the schemas this package builds
// always parse).
func Validate(s Schema, values map[string][]string, files map[string][]File) []Invalid {
	var out []Invalid
	failed := map[string]bool{}
	for _, r := range s.Rules {
		if r.Field != "" && failed[Reported(r.Field)] {
			continue
		}
		ok, field, msg := check(r, values, files, 0)
		if ok {
			continue
		}
		name := Reported(field)
		if failed[name] {
			continue
		}
		failed[name] = true
		out = append(out, Invalid{Field: name, Message: msg})
	}
	return out
}

// maxDepth bounds the nesting of all/any that Validate follows.
const maxDepth = 32

// check evaluates one rule; on failure it returns the field and message to
// report.
func check(r Rule, values map[string][]string, files map[string][]File, depth int) (bool, string, string) {
	switch r.Rule {
	case "all":
		if depth >= maxDepth {
			return true, "", ""
		}
		for _, c := range r.Rules {
			if ok, f, m := check(c, values, files, depth+1); !ok {
				if c.Error != "" {
					return false, f, m
				}
				return false, r.Field, r.Error
			}
		}
		return true, "", ""
	case "any":
		if depth >= maxDepth || len(r.Rules) == 0 {
			return true, "", ""
		}
		for _, c := range r.Rules {
			if ok, _, _ := check(c, values, files, depth+1); ok {
				return true, "", ""
			}
		}
		return false, r.Field, r.Error
	}
	ok := checkLeaf(r, nonBlank(lookup(values, r.Field)), lookupFiles(files, r.Field))
	return ok, r.Field, r.Error
}

// formats are the format rules' checks of one value.
var formats = map[string]func(string) bool{
	"email": IsEmail, "url": IsURL, "tel": IsTel, "number": IsNumber, "date": IsDate, "time": IsTime,
}

func checkLeaf(r Rule, vals []string, fs []File) bool {
	every := func(pred func(string) bool) bool {
		for _, v := range vals {
			if !pred(v) {
				return false
			}
		}
		return true
	}
	switch r.Rule {
	case "required":
		return len(vals) > 0
	case "requiredfile":
		return len(fs) > 0
	case "email", "url", "tel", "number", "date", "time":
		is := formats[r.Rule]
		return every(func(v string) bool { return is(strings.TrimSpace(v)) })
	case "enum":
		return every(func(v string) bool { return slices.Contains(r.Accept, v) })
	case "dayofweek":
		return every(func(v string) bool {
			d, ok := weekday(strings.TrimSpace(v))
			return !ok || slices.Contains(r.Accept, strconv.Itoa(d))
		})
	case "file":
		allowed := acceptExtensions(r.Accept)
		for _, f := range fs {
			if !fileAllowed(f, allowed) {
				return false
			}
		}
		return true
	}
	// The remaining rules compare against a threshold.
	switch r.Rule {
	case "minitems", "maxitems", "minlength", "maxlength", "minfilesize", "maxfilesize":
		t, err := strconv.ParseInt(strings.TrimSpace(r.Threshold), 10, 64)
		if err != nil {
			return true
		}
		switch r.Rule {
		case "minitems":
			return int64(len(vals)) >= t
		case "maxitems":
			return int64(len(vals)) <= t
		case "minlength":
			return len(vals) == 0 || codeUnits(vals) >= t
		case "maxlength":
			return codeUnits(vals) <= t
		case "minfilesize":
			return len(fs) == 0 || totalSize(fs) >= t
		default:
			return totalSize(fs) <= t
		}
	case "minnumber", "maxnumber":
		if !IsNumber(r.Threshold) {
			return true
		}
		t := parseNumber(r.Threshold)
		return every(func(v string) bool {
			v = strings.TrimSpace(v)
			if !IsNumber(v) {
				return true
			}
			if r.Rule == "minnumber" {
				return parseNumber(v) >= t
			}
			return parseNumber(v) <= t
		})
	case "mindate", "maxdate":
		if !IsDate(r.Threshold) {
			return true
		}
		return every(func(v string) bool {
			v = strings.TrimSpace(v)
			if !IsDate(v) {
				return true
			}
			if r.Rule == "mindate" {
				return dateCompare(v, r.Threshold) >= 0
			}
			return dateCompare(v, r.Threshold) <= 0
		})
	case "stepnumber":
		base := 0.0
		if r.Base != "" {
			if !IsNumber(r.Base) {
				return true
			}
			base = parseNumber(r.Base)
		}
		if !IsNumber(r.Interval) {
			return true
		}
		interval := parseNumber(r.Interval)
		if !(interval > 0) || math.IsInf(interval, 0) {
			return true
		}
		return every(func(v string) bool {
			v = strings.TrimSpace(v)
			if !IsNumber(v) {
				return true
			}
			return onStep(parseNumber(v), base, interval)
		})
	}
	// An unknown rule name passes, as CF7 ignores rules it has no class for.
	return true
}

// lookup finds a field's values under its name, its name with "[]" (checkbox
// groups) or its reported name (what PHP would have made of the dots).
func lookup(values map[string][]string, name string) []string {
	for _, k := range []string{name, name + "[]", Reported(name)} {
		if v, ok := values[k]; ok {
			return v
		}
	}
	return nil
}

func lookupFiles(files map[string][]File, name string) []File {
	for _, k := range []string{name, name + "[]", Reported(name)} {
		if v, ok := files[k]; ok {
			var out []File
			for _, f := range v {
				if f.Name != "" || f.Size > 0 {
					out = append(out, f)
				}
			}
			return out
		}
	}
	return nil
}

// nonBlank trims the surrounding white space of each value and drops those
// left empty, as CF7 strips posted values before its rules see them (and the
// browser trims them too).
func nonBlank(vals []string) []string {
	var out []string
	for _, v := range vals {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// codeUnits counts characters as the browser does (UTF-16 code units), with
// CRLF counted as one newline, as a textarea's value has it.
func codeUnits(vals []string) int64 {
	var n int64
	for _, v := range vals {
		v = strings.ReplaceAll(v, "\r\n", "\n")
		for _, r := range v {
			if utf16.RuneLen(r) == 2 {
				n += 2
			} else {
				n++
			}
		}
	}
	return n
}

func totalSize(fs []File) int64 {
	var n int64
	for _, f := range fs {
		if f.Size > 0 {
			if n > math.MaxInt64-f.Size {
				return math.MaxInt64
			}
			n += f.Size
		}
	}
	return n
}

// --- formats ---

var localPart = regexp.MustCompile(`^[a-zA-Z0-9!#$%&'*+/=?^_` + "`" + `{|}~.-]+$`)
var domainLabel = regexp.MustCompile(`^[a-zA-Z0-9-]+$`)

// IsEmail is WordPress's is_email: at least 6 characters, one "@" not first,
// a local part of the allowed characters, and a domain of at least two dot
// separated labels of letters, digits and inner hyphens.
func IsEmail(s string) bool {
	if len(s) < 6 || strings.Count(s, "@") != 1 {
		return false
	}
	at := strings.IndexByte(s, '@')
	if at < 1 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	if !localPart.MatchString(local) {
		return false
	}
	if strings.Contains(domain, "..") || strings.Trim(domain, " \t\n\r\x00\x0B.") != domain {
		return false
	}
	labels := strings.Split(domain, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		l2 := strings.Trim(l, " \t\n\r\x00\x0B-")
		if l2 == "" || l2 != l || !domainLabel.MatchString(l) {
			return false
		}
	}
	return true
}

// allowedSchemes is WordPress's wp_allowed_protocols().
var allowedSchemes = []string{"http", "https", "ftp", "ftps", "mailto", "news", "irc", "irc6", "ircs",
	"gopher", "nntp", "feed", "telnet", "mms", "rtsp", "sms", "svn", "tel", "fax", "xmpp", "webcal", "urn"}

var schemePrefix = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9.+-]*:`)

// NormalizeURL is what the browser does before checking a url field: input
// with no scheme but with a dot gets "http://" in front.
func NormalizeURL(s string) string {
	if !schemePrefix.MatchString(s) && strings.Contains(s, ".") {
		return "http://" + strings.TrimLeft(s, "/")
	}
	return s
}

// IsURL reports whether s (after NormalizeURL) is an absolute URL whose
// scheme is one WordPress allows and that has something after the scheme.
func IsURL(s string) bool {
	s = NormalizeURL(s)
	if strings.ContainsAny(s, " \t\r\n\x00") {
		return false
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" || !slices.Contains(allowedSchemes, strings.ToLower(u.Scheme)) {
		return false
	}
	if u.Opaque != "" {
		return true
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "ftp", "ftps":
		return u.Host != "" && u.Hostname() != ""
	}
	return u.Host != "" || u.Path != ""
}

var telStrip = regexp.MustCompile(`[()/.*#\s-]+`)
var telDigits = regexp.MustCompile(`^\+?[0-9]+$`)

// IsTel is CF7's telephone check: drop an extension (from the first # or *),
// remove ( ) / . spaces and hyphens, write a leading + or 00 as one "+",
// then an optional + and digits, 6 to 15 characters in all ("+" counted).
func IsTel(s string) bool {
	if i := strings.IndexAny(s, "#*"); i >= 0 {
		s = s[:i]
	}
	s = telStrip.ReplaceAllString(s, "")
	if strings.HasPrefix(s, "+") || strings.HasPrefix(s, "00") {
		s = "+" + strings.TrimLeft(s, "+0")
	}
	return telDigits.MatchString(s) && len(s) > 5 && len(s) < 16
}

var numberPattern = regexp.MustCompile(`^-?(?:[0-9]+|[0-9]*\.[0-9]+)(?:[eE][-+]?[0-9]+)?$`)

// IsNumber is the HTML floating-point syntax CF7 accepts: optional "-",
// digits with an optional fraction (".5" too), optional exponent.
func IsNumber(s string) bool { return numberPattern.MatchString(s) }

// parseNumber reads a string IsNumber accepted; overflow gives ±Inf.
func parseNumber(s string) float64 {
	v, _ := strconv.ParseFloat(s, 64)
	return v
}

func onStep(v, base, interval float64) bool {
	if math.IsInf(v, 0) || math.IsInf(base, 0) {
		return false
	}
	rem := math.Abs(math.Mod(v-base, interval))
	eps := 1e-9 * math.Max(1, interval)
	return rem < eps || math.Abs(rem-interval) < eps
}

var datePattern = regexp.MustCompile(`^([0-9]{4,})-([0-9]{2})-([0-9]{2})$`)

// IsDate reports whether s is YYYY-MM-DD (a year of four or more digits) and
// a real calendar date.
func IsDate(s string) bool {
	_, ok := weekday(s)
	return ok
}

// weekday returns the ISO weekday (1 = Monday) of a YYYY-MM-DD date. The
// Gregorian calendar repeats every 400 years (146097 days, a whole number of
// weeks), and 10000 is a multiple of 400, so the year's last four digits are
// enough for leap years and weekdays of any year.
func weekday(s string) (int, bool) {
	m := datePattern.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	y4, _ := strconv.Atoi(m[1][len(m[1])-4:])
	month, _ := strconv.Atoi(m[2])
	day, _ := strconv.Atoi(m[3])
	y := 2000 + y4%400
	if month < 1 || month > 12 || day < 1 {
		return 0, false
	}
	t := time.Date(y, time.Month(month), day, 12, 0, 0, 0, time.UTC)
	if t.Day() != day {
		return 0, false
	}
	wd := int(t.Weekday())
	if wd == 0 {
		wd = 7
	}
	return wd, true
}

// dateCompare orders two valid dates; years of different lengths compare by
// length first (CF7 compares the strings, which agrees for 4-digit years).
func dateCompare(a, b string) int {
	ya, yb := strings.IndexByte(a, '-'), strings.IndexByte(b, '-')
	if ya != yb {
		if ya < yb {
			return -1
		}
		return 1
	}
	return strings.Compare(a, b)
}

var timePattern = regexp.MustCompile(`^(?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9])?$`)

// IsTime reports whether s is HH:MM or HH:MM:SS on a 24-hour clock.
func IsTime(s string) bool { return timePattern.MatchString(s) }

// --- files ---

// fileTypes maps the extensions the shop can verify by content to their MIME
// type and to the types http.DetectContentType finds in such files.
var fileTypes = map[string]struct {
	mime    string
	sniffed []string
}{
	"pdf":  {"application/pdf", []string{"application/pdf"}},
	"jpg":  {"image/jpeg", []string{"image/jpeg"}},
	"jpeg": {"image/jpeg", []string{"image/jpeg"}},
	"png":  {"image/png", []string{"image/png"}},
	"gif":  {"image/gif", []string{"image/gif"}},
	"webp": {"image/webp", []string{"image/webp"}},
	"txt":  {"text/plain", []string{"text/plain"}},
	"csv":  {"text/csv", []string{"text/plain"}},
	"zip":  {"application/zip", []string{"application/zip"}},
}

// acceptExtensions turns an accept list (".ext", "type/subtype", "type/*")
// into the set of extensions it allows among those in fileTypes.
func acceptExtensions(accept []string) map[string]bool {
	out := map[string]bool{}
	for _, a := range accept {
		a = strings.ToLower(strings.TrimSpace(a))
		if ext, ok := strings.CutPrefix(a, "."); ok {
			if _, known := fileTypes[ext]; known {
				out[ext] = true
			}
			continue
		}
		for ext, ft := range fileTypes {
			if a == ft.mime {
				out[ext] = true
			} else if major, ok := strings.CutSuffix(a, "/*"); ok && strings.HasPrefix(ft.mime, major+"/") {
				out[ext] = true
			}
		}
	}
	return out
}

// fileAllowed: the name's extension is allowed and the sniffed content is
// what a file of that extension holds.
func fileAllowed(f File, allowed map[string]bool) bool {
	ext := strings.ToLower(strings.TrimPrefix(path.Ext(f.Name), "."))
	if !allowed[ext] {
		return false
	}
	return slices.Contains(fileTypes[ext].sniffed, f.Sniffed)
}
