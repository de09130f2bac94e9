package importer

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"vitrine/internal/money"
)

// unescape removes the apostrophe WooCommerce's exporter puts in front of a
// value that starts with a spreadsheet formula trigger ("'-1" for a draft,
// "'-3" for negative stock), so a CSV opened in a spreadsheet runs nothing.
func unescape(s string) string {
	if len(s) >= 2 && s[0] == '\'' {
		switch s[1] {
		case '=', '+', '-', '@', '\t', '\r':
			return s[1:]
		}
	}
	return s
}

// splitList splits a comma list the way the exporter writes it: items joined
// by ", ", commas inside an item escaped as "\,". Items are trimmed; empty
// ones are dropped.
func splitList(s string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if item := strings.TrimSpace(b.String()); item != "" {
			out = append(out, item)
		}
		b.Reset()
	}
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == ',':
			b.WriteByte(',')
			i++
		case s[i] == ',':
			flush()
		default:
			b.WriteByte(s[i])
		}
	}
	flush()
	return out
}

// categoryPaths reads the Categories column: categories separated by
// commas, each a hierarchy written "Parent > Child".
func categoryPaths(s string) [][]string {
	var paths [][]string
	for _, item := range splitList(s) {
		var path []string
		for _, name := range strings.Split(item, ">") {
			if name = strings.TrimSpace(name); name != "" {
				path = append(path, name)
			}
		}
		if len(path) > 0 {
			paths = append(paths, path)
		}
	}
	return paths
}

// parseBool reads 1/0, yes/no, true/false (any case). Empty is false.
func parseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "yes", "true", "y", "on":
		return true, nil
	case "", "0", "no", "false", "n", "off":
		return false, nil
	}
	return false, fmt.Errorf("%q is not yes or no (1/0, yes/no, true/false)", s)
}

var dateLayouts = []string{
	time.RFC3339,
	"2006-01-02 15:04:05",
	"2006-01-02T15:04:05",
	"2006-01-02 15:04",
}

// parseDate reads "2006-01-02", "2006-01-02 15:04:05" (hour may be one digit,
// as WooCommerce writes it) or RFC 3339. Dates without a zone are UTC. dateOnly
// reports that no time was given.
func parseDate(s string) (t time.Time, dateOnly bool, err error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t.UTC(), true, nil
	}
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), false, nil
		}
	}
	return time.Time{}, false, fmt.Errorf("%q is not a date (use 2006-01-02, 2006-01-02 15:04:05 or RFC 3339)", s)
}

// parsePrice reads a price into minor units. WooCommerce's exporter writes
// prices with the shop's decimal separator and no thousands separator, so a
// lone comma is a decimal comma ("12,50"); money.Parse would take it as a
// thousands separator.
func parsePrice(s string, minorUnit int) (int64, error) {
	s = strings.TrimSpace(s)
	norm := s
	if strings.Contains(norm, ",") && !strings.Contains(norm, ".") && strings.Count(norm, ",") == 1 {
		norm = strings.Replace(norm, ",", ".", 1)
	}
	digits := 0
	for i, r := range norm {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == '.' || r == ',' || (r == '-' && i == 0):
		default:
			return 0, fmt.Errorf("%q is not a number", s)
		}
	}
	if digits == 0 || strings.Count(norm, ".") > 1 {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if strings.HasPrefix(norm, "-") {
		return 0, fmt.Errorf("%q is negative", s)
	}
	n, err := money.Parse(norm, minorUnit)
	if err != nil {
		if _, frac, ok := strings.Cut(norm, "."); ok && len(frac) > minorUnit {
			return 0, fmt.Errorf("%q has more than %d decimals", s, minorUnit)
		}
		return 0, fmt.Errorf("%q is not a valid amount", s)
	}
	return n, nil
}

// parseInt reads a whole number; "5.0" is accepted as 5.
func parseInt(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, nil
	}
	if whole, frac, ok := strings.Cut(s, "."); ok && strings.Trim(frac, "0") == "" {
		if n, err := strconv.ParseInt(whole, 10, 64); err == nil {
			return n, nil
		}
	}
	return 0, fmt.Errorf("%q is not a whole number", s)
}

// description undoes the exporter's newline escaping: real newlines are
// written as the two characters `\n`, and a literal `\n` as `\\n`.
func description(s string) string {
	parts := strings.Split(s, `\\n`)
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(p, `\n`, "\n")
	}
	return strings.Join(parts, `\n`)
}

// ref is a reference to another product: a SKU or "id:N".
type ref struct {
	SKU string
	ID  int64 // from "id:N"
}

func (r ref) String() string {
	if r.SKU != "" {
		return r.SKU
	}
	return "id:" + strconv.FormatInt(r.ID, 10)
}

// parseRef reads a Parent / linked-product reference.
func parseRef(s string) (ref, error) {
	s = strings.TrimSpace(s)
	if rest, ok := cutPrefixFold(s, "id:"); ok {
		n, err := strconv.ParseInt(strings.TrimSpace(rest), 10, 64)
		if err != nil || n <= 0 {
			return ref{}, fmt.Errorf("%q is not a product id", s)
		}
		return ref{ID: n}, nil
	}
	return ref{SKU: s}, nil
}

func parseRefs(s string) ([]ref, error) {
	var refs []ref
	for _, item := range splitList(s) {
		r, err := parseRef(item)
		if err != nil {
			return nil, err
		}
		refs = append(refs, r)
	}
	return refs, nil
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}
