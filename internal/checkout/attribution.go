package checkout

import (
	"encoding/json"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Order attribution (spec section 3, protocol notes section 14): the
// storefront's first-party tracking cookies are sent with the order as the
// classic form fields wc_order_attribution_<field>, or as the Store API
// extension data "woocommerce/order-attribution" with the same names
// without the prefix. The order keeps them as meta _wc_order_attribution_<field>,
// plus the derived origin and device_type.

// AttributionFields are the 16 fields, in the spec's order.
var AttributionFields = []string{"source_type", "referrer", "utm_campaign", "utm_source", "utm_medium",
	"utm_content", "utm_id", "utm_term", "utm_source_platform", "utm_creative_format", "utm_marketing_tactic",
	"session_entry", "session_start_time", "session_pages", "session_count", "user_agent"}

// Attribution prefixes and names.
const (
	AttributionFormPrefix = "wc_order_attribution_"
	AttributionMetaPrefix = "_wc_order_attribution_"
	AttributionExtension  = "woocommerce/order-attribution"
)

// attributionCap bounds each field (characters).
func attributionCap(field string) int {
	switch field {
	case "referrer", "session_entry":
		return 2048
	case "user_agent":
		return 512
	}
	return 255
}

var tags = regexp.MustCompile(`<[^>]*>`)

// sanitizeAttribution strips tags and control characters, collapses white
// space and cuts to the field's cap.
func sanitizeAttribution(field, v string) string {
	v = Clean(tags.ReplaceAllString(v, ""))
	if max := attributionCap(field); utf8.RuneCountInString(v) > max {
		v = string([]rune(v)[:max])
	}
	return v
}

// AttributionFromForm reads the classic form fields.
func AttributionFromForm(form url.Values) map[string]string {
	out := map[string]string{}
	for _, f := range AttributionFields {
		if v := sanitizeAttribution(f, form.Get(AttributionFormPrefix+f)); v != "" {
			out[f] = v
		}
	}
	return out
}

// AttributionFromExtension reads the Store API extension object; values may
// be strings or numbers. Unknown keys are ignored.
func AttributionFromExtension(raw json.RawMessage) map[string]string {
	out := map[string]string{}
	var m map[string]any
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil {
		return out
	}
	for _, f := range AttributionFields {
		var v string
		switch x := m[f].(type) {
		case string:
			v = x
		case float64:
			v = strconv.FormatFloat(x, 'f', -1, 64)
		case bool:
			v = strconv.FormatBool(x)
		}
		if v = sanitizeAttribution(f, v); v != "" {
			out[f] = v
		}
	}
	return out
}

// AttributionMeta turns attribution fields into order meta, adding the
// derived origin and device type. Nothing is recorded without a source type
// (tracking was off).
func AttributionMeta(fields map[string]string) map[string]string {
	meta := map[string]string{}
	if fields["source_type"] == "" {
		return meta
	}
	for k, v := range fields {
		meta[AttributionMetaPrefix+k] = v
	}
	meta[AttributionMetaPrefix+"origin"] = Origin(fields["source_type"], fields["utm_source"])
	meta[AttributionMetaPrefix+"device_type"] = DeviceType(fields["user_agent"])
	return meta
}

// Origin is the human label of where an order came from, as WooCommerce's
// order list shows it ("Source: Newsletter", "Organic: Google", "Direct").
func Origin(sourceType, source string) string {
	source = strings.Trim(source, "()")
	if source != "" {
		source = strings.ToUpper(source[:1]) + source[1:]
	}
	switch sourceType {
	case "utm":
		return "Source: " + source
	case "organic":
		return "Organic: " + source
	case "referral":
		return "Referral: " + source
	case "typein":
		return "Direct"
	case "admin":
		return "Web admin"
	case "mobile_app":
		return "Mobile app"
	}
	return "Unknown"
}

var (
	tabletUA = regexp.MustCompile(`(?i)tablet|ipad|playbook|silk`)
	mobileUA = regexp.MustCompile(`(?i)mobile|iphone|ipod|android|blackberry|iemobile|kindle|webos|hpwos|opera m(obi|ini)`)
	android  = regexp.MustCompile(`(?i)android`)
	mobileKw = regexp.MustCompile(`(?i)mobile`)
)

// DeviceType classifies a user agent as "Mobile", "Tablet" or "Desktop"
// ("Unknown" when empty).
func DeviceType(ua string) string {
	switch {
	case ua == "":
		return "Unknown"
	case tabletUA.MatchString(ua) || (android.MatchString(ua) && !mobileKw.MatchString(ua)):
		return "Tablet"
	case mobileUA.MatchString(ua):
		return "Mobile"
	}
	return "Desktop"
}
