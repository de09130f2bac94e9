// Package richtext holds the one policy for the shop's stored rich text
// (product descriptions and short descriptions, variation descriptions,
// category descriptions): the formatting WooCommerce descriptions use
// survives, anything that runs script does not. The storage layer applies
// it on every write, so no writer (import, seed, admin) can bypass it.
package richtext

import (
	"regexp"
	"sync"

	"github.com/microcosm-cc/bluemonday"
)

var policy = sync.OnceValue(func() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	// Text structure and inline formatting.
	p.AllowElements("p", "br", "hr", "div", "span", "blockquote", "pre", "code",
		"h1", "h2", "h3", "h4", "h5", "h6",
		"strong", "b", "em", "i", "u", "s", "del", "ins", "mark", "small", "sub", "sup",
		"ul", "ol", "li", "dl", "dt", "dd",
		"figure", "figcaption")
	p.AllowLists()
	p.AllowTables()
	// Links: http(s), mailto and relative URLs only, never javascript:;
	// rel="nofollow" on every one, and "noopener" too on one that opens a
	// new tab (the only case where it means anything).
	p.AllowStandardURLs()
	p.AllowURLSchemes("http", "https", "mailto")
	p.AllowAttrs("href", "title").OnElements("a")
	p.AllowAttrs("target").Matching(regexp.MustCompile(`^_blank$`)).OnElements("a")
	p.RequireNoFollowOnLinks(true)
	p.AllowRelativeURLs(true)
	// Images with an http(s) or relative source.
	p.AllowImages()
	p.AllowAttrs("loading").Matching(bluemonday.Paragraph).OnElements("img")
	// Alignment classes of the editor ("aligncenter", "has-text-align-…").
	p.AllowAttrs("class").Matching(bluemonday.SpaceSeparatedTokens).Globally()
	return p
})

// Sanitize returns html with everything outside the policy removed: script
// and style elements with their content, event handler attributes,
// javascript: and data: URLs, iframes, forms. Text is kept; "<" in text
// comes back escaped. A YouTube or Vimeo player's iframe is kept as a
// paragraph linking the video (video.go), which pages show as a lazy
// video.
func Sanitize(html string) string {
	if html == "" {
		return ""
	}
	return policy().Sanitize(keepVideoIframes(html))
}
