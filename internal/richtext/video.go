package richtext

import (
	"bytes"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Videos in rich text. A description or content page names a YouTube or
// Vimeo video as WordPress's auto-embed does: the video's URL alone on its
// line, in its own paragraph or block, as text or as a link whose text is
// the URL (Gutenberg's embed block, figure > div > URL, with an optional
// figcaption, too). An imported <iframe> of either player is kept as such
// a link by Sanitize (everything else about iframes is dropped).
//
// EmbedVideos, run when a page is loaded (never stored), turns each into
// the lazy video's markup: a neutral poster made locally (no request to
// the provider before the shopper asks), a real button "Play video:
// <title>", a plain link to the video for pages without scripts, and the
// player iframe inside an inert <template>, with its address in data-src.
// The storefront's lazy video loader (web/src/ui/lazy-video.ts) puts the
// iframe in the page when the button is pressed (or, if the shop chose it,
// on viewport entry), so the player's origin is contacted only then; the
// page's CSP allows that origin in frame-src only on pages that have a
// video (EmbedVideos answers the origins).

// Video is a YouTube or Vimeo video.
type Video struct {
	Provider string // "youtube" or "vimeo"
	ID       string
	// Hash is a Vimeo unlisted video's privacy hash.
	Hash string
	// Start is where playback starts, in seconds (YouTube's t=).
	Start int
}

// Player origins, the only ones a page with a video allows in frame-src.
const (
	YouTubeOrigin = "https://www.youtube-nocookie.com"
	VimeoOrigin   = "https://player.vimeo.com"
)

var (
	youTubeID   = regexp.MustCompile(`^[A-Za-z0-9_-]{11}$`)
	vimeoID     = regexp.MustCompile(`^[0-9]{1,12}$`)
	vimeoHash   = regexp.MustCompile(`^[0-9a-f]{6,20}$`)
	startParam  = regexp.MustCompile(`^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s?)?$`)
	urlInText   = regexp.MustCompile(`^https?://\S+$`)
	providerTag = map[string]string{"youtube": "YouTube", "vimeo": "Vimeo"}
)

// ParseVideoURL recognizes a YouTube or Vimeo watch, share or embed URL.
func ParseVideoURL(raw string) (Video, bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.User != nil {
		return Video{}, false
	}
	host := strings.ToLower(u.Hostname())
	host = strings.TrimPrefix(strings.TrimPrefix(host, "www."), "m.")
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	q := u.Query()
	switch host {
	case "youtube.com", "youtube-nocookie.com", "youtu.be":
		var id string
		switch {
		case host == "youtu.be" && len(parts) == 1:
			id = parts[0]
		case len(parts) == 1 && parts[0] == "watch":
			id = q.Get("v")
		case len(parts) == 2 && (parts[0] == "embed" || parts[0] == "shorts" || parts[0] == "live" || parts[0] == "v"):
			id = parts[1]
		}
		if !youTubeID.MatchString(id) {
			return Video{}, false
		}
		v := Video{Provider: "youtube", ID: id}
		for _, k := range []string{"t", "start"} {
			if s := q.Get(k); s != "" {
				v.Start = parseStart(s)
				break
			}
		}
		return v, true
	case "vimeo.com", "player.vimeo.com":
		var id, hash string
		switch {
		case host == "player.vimeo.com" && len(parts) == 2 && parts[0] == "video":
			id, hash = parts[1], q.Get("h")
		case host == "vimeo.com" && len(parts) == 1:
			id = parts[0]
		case host == "vimeo.com" && len(parts) == 2 && vimeoID.MatchString(parts[0]):
			id, hash = parts[0], parts[1]
		case host == "vimeo.com" && len(parts) == 3 && parts[0] == "channels":
			id = parts[2]
		}
		if !vimeoID.MatchString(id) || (hash != "" && !vimeoHash.MatchString(hash)) {
			return Video{}, false
		}
		return Video{Provider: "vimeo", ID: id, Hash: hash}, true
	}
	return Video{}, false
}

// parseStart reads YouTube's t= (90, 90s, 1m30s, 1h2m3s); 0 when unreadable.
func parseStart(s string) int {
	m := startParam.FindStringSubmatch(s)
	if m == nil {
		return 0
	}
	total := 0
	for i, mul := range []int{3600, 60, 1} {
		if n, err := strconv.Atoi(m[i+1]); err == nil {
			total += n * mul
		}
	}
	return min(total, 24*3600)
}

// URL is the video's page on its provider.
func (v Video) URL() string {
	if v.Provider == "vimeo" {
		if v.Hash != "" {
			return "https://vimeo.com/" + v.ID + "/" + v.Hash
		}
		return "https://vimeo.com/" + v.ID
	}
	u := "https://www.youtube.com/watch?v=" + v.ID
	if v.Start > 0 {
		u += "&t=" + strconv.Itoa(v.Start) + "s"
	}
	return u
}

// EmbedURL is the player's address: YouTube's privacy-enhanced domain,
// Vimeo's player with do-not-track. The loader adds autoplay=1 when a
// press loads it.
func (v Video) EmbedURL() string {
	if v.Provider == "vimeo" {
		u := VimeoOrigin + "/video/" + v.ID + "?dnt=1"
		if v.Hash != "" {
			u += "&h=" + v.Hash
		}
		return u
	}
	u := YouTubeOrigin + "/embed/" + v.ID + "?rel=0"
	if v.Start > 0 {
		u += "&start=" + strconv.Itoa(v.Start)
	}
	return u
}

// Origin is the player's origin (for the page's frame-src).
func (v Video) Origin() string {
	if v.Provider == "vimeo" {
		return VimeoOrigin
	}
	return YouTubeOrigin
}

// ProviderName is "YouTube" or "Vimeo".
func (v Video) ProviderName() string { return providerTag[v.Provider] }

// EmbedVideos replaces the videos in sanitized rich text with the lazy
// video markup and answers the player origins the result needs, sorted
// and without repeats (none: html comes back unchanged). title names the
// videos whose link gives no better name (the product's or page's name);
// a second video of a page is "<title>, video 2".
func EmbedVideos(src, title string) (string, []string) {
	if !strings.Contains(src, "youtu") && !strings.Contains(src, "vimeo.com") {
		return src, nil
	}
	body := &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
	nodes, err := html.ParseFragment(strings.NewReader(src), body)
	if err != nil {
		return src, nil
	}
	for _, n := range nodes {
		body.AppendChild(n)
	}
	e := &embedder{title: strings.TrimSpace(title), origins: map[string]bool{}}
	e.walk(body)
	if e.count == 0 {
		return src, nil
	}
	var b bytes.Buffer
	for c := body.FirstChild; c != nil; c = c.NextSibling {
		if err := html.Render(&b, c); err != nil {
			return src, nil
		}
	}
	origins := make([]string, 0, len(e.origins))
	for _, o := range []string{VimeoOrigin, YouTubeOrigin} {
		if e.origins[o] {
			origins = append(origins, o)
		}
	}
	return b.String(), origins
}

type embedder struct {
	title   string
	count   int
	origins map[string]bool
}

// inlineOK are the elements allowed around the URL inside a video's block.
var inlineOK = map[atom.Atom]bool{atom.A: true, atom.Div: true, atom.P: true, atom.Span: true, atom.Br: true,
	atom.Strong: true, atom.Em: true, atom.B: true, atom.I: true}

// containers are the elements whose children are blocks that may be videos.
var containers = map[atom.Atom]bool{atom.Body: true, atom.Div: true, atom.Figure: true, atom.Section: true,
	atom.Article: true, atom.Blockquote: true, atom.Li: true, atom.Td: true}

// walk replaces the video blocks among n's children: a paragraph, div or
// figure holding a video URL alone, a link alone between blocks, or a line
// of text that is a URL alone. A URL inside a sentence stays a link.
func (e *embedder) walk(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		switch {
		case c.Type == html.TextNode:
			e.splitText(n, c)
		case c.Type != html.ElementNode:
		case c.DataAtom == atom.P || c.DataAtom == atom.Div || c.DataAtom == atom.Figure || c.DataAtom == atom.A:
			if v, name, ok := videoBlock(c); ok {
				n.InsertBefore(e.markup(v, name), c)
				n.RemoveChild(c)
			} else if containers[c.DataAtom] {
				e.walk(c)
			}
		case containers[c.DataAtom]:
			e.walk(c)
		}
		c = next
	}
}

// videoBlock reports whether n holds only a video URL (and, in a figure,
// a caption, which names the video; a link's own text or title does too).
func videoBlock(n *html.Node) (Video, string, bool) {
	var text strings.Builder
	var name, href string
	ok := true
	var visit func(*html.Node)
	visit = func(m *html.Node) {
		for c := m.FirstChild; c != nil && ok; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				text.WriteString(c.Data)
			case html.ElementNode:
				switch {
				case c.DataAtom == atom.Figcaption && n.DataAtom == atom.Figure:
					name = strings.Join(strings.Fields(textOf(c)), " ")
				case inlineOK[c.DataAtom]:
					if c.DataAtom == atom.A {
						if href != "" {
							ok = false
							return
						}
						href = attr(c, "href")
						if t := attr(c, "title"); t != "" && name == "" {
							name = t
						}
					}
					visit(c)
				default:
					ok = false
				}
			case html.CommentNode:
			default:
				ok = false
			}
		}
	}
	if n.DataAtom == atom.A {
		href = attr(n, "href")
		if t := attr(n, "title"); t != "" {
			name = t
		}
	}
	visit(n)
	if !ok {
		return Video{}, "", false
	}
	t := strings.TrimSpace(text.String())
	if t == "" {
		return Video{}, "", false
	}
	v, isVideo := ParseVideoURL(t)
	if !isVideo || !urlInText.MatchString(t) {
		return Video{}, "", false
	}
	if href != "" {
		if hv, hok := ParseVideoURL(href); !hok || hv != v {
			return Video{}, "", false // the text says one thing, the link goes elsewhere
		}
	}
	return v, name, true
}

// splitText turns the lines of a text node that are a video URL alone into
// videos (text written without paragraphs).
func (e *embedder) splitText(parent, n *html.Node) {
	lines := strings.SplitAfter(n.Data, "\n")
	var pending strings.Builder
	found := false
	flush := func() {
		if pending.Len() > 0 {
			parent.InsertBefore(&html.Node{Type: html.TextNode, Data: pending.String()}, n)
			pending.Reset()
		}
	}
	for _, line := range lines {
		if v, ok := ParseVideoURL(line); ok && urlInText.MatchString(strings.TrimSpace(line)) {
			found = true
			flush()
			parent.InsertBefore(e.markup(v, ""), n)
			continue
		}
		pending.WriteString(line)
	}
	if !found {
		return
	}
	flush()
	parent.RemoveChild(n)
}

// markup builds the lazy video's elements.
func (e *embedder) markup(v Video, name string) *html.Node {
	e.count++
	e.origins[v.Origin()] = true
	if name == "" {
		name = e.title
		if name == "" {
			name = v.ProviderName() + " video"
		}
		if e.count > 1 {
			name += ", video " + strconv.Itoa(e.count)
		}
	}
	el := func(a atom.Atom, attrs ...string) *html.Node {
		n := &html.Node{Type: html.ElementNode, Data: a.String(), DataAtom: a}
		for i := 0; i+1 < len(attrs); i += 2 {
			n.Attr = append(n.Attr, html.Attribute{Key: attrs[i], Val: attrs[i+1]})
		}
		return n
	}
	text := func(s string) *html.Node { return &html.Node{Type: html.TextNode, Data: s} }

	wrap := el(atom.Div, "class", "lazy-video lazy-video--"+v.Provider, "data-provider", v.Provider, "data-title", name)
	poster := el(atom.Div, "class", "lazy-video__poster", "aria-hidden", "true")
	pt := el(atom.Span, "class", "lazy-video__title")
	pt.AppendChild(text(name))
	pp := el(atom.Span, "class", "lazy-video__provider")
	pp.AppendChild(text(v.ProviderName()))
	poster.AppendChild(pt)
	poster.AppendChild(pp)
	wrap.AppendChild(poster)

	btn := el(atom.Button, "type", "button", "class", "lazy-video__play")
	icon := el(atom.Span, "class", "lazy-video__icon", "aria-hidden", "true")
	label := el(atom.Span, "class", "lazy-video__label")
	label.AppendChild(text("Play video: " + name))
	btn.AppendChild(icon)
	btn.AppendChild(label)
	wrap.AppendChild(btn)

	link := el(atom.A, "class", "lazy-video__link", "href", v.URL(), "rel", "nofollow")
	link.AppendChild(text("Watch “" + name + "” on " + v.ProviderName()))
	wrap.AppendChild(link)

	tpl := el(atom.Template, "class", "lazy-video__player")
	frame := el(atom.Iframe, "data-src", v.EmbedURL(), "title", name+" ("+v.ProviderName()+" video player)",
		"allow", "autoplay; encrypted-media; picture-in-picture; fullscreen", "allowfullscreen", "",
		"referrerpolicy", "strict-origin-when-cross-origin")
	// html.Render writes a template's children as its content.
	tpl.AppendChild(frame)
	wrap.AppendChild(tpl)
	return wrap
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func textOf(n *html.Node) string {
	var b strings.Builder
	var f func(*html.Node)
	f = func(m *html.Node) {
		if m.Type == html.TextNode {
			b.WriteString(m.Data)
		}
		for c := m.FirstChild; c != nil; c = c.NextSibling {
			f(c)
		}
	}
	f(n)
	return b.String()
}

// keepVideoIframes rewrites each <iframe> of a YouTube or Vimeo player as a
// paragraph holding a link to the video, which the policy keeps and
// EmbedVideos turns back into a (lazy) player; the policy drops every
// other iframe. The rest of the markup is passed through byte for byte.
func keepVideoIframes(src string) string {
	if !strings.Contains(strings.ToLower(src), "<iframe") {
		return src
	}
	z := html.NewTokenizer(strings.NewReader(src))
	var b strings.Builder
	depth := 0 // inside a video iframe being replaced
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return b.String()
		}
		raw := append([]byte(nil), z.Raw()...)
		tok := z.Token()
		if tok.DataAtom == atom.Iframe {
			switch tt {
			case html.StartTagToken, html.SelfClosingTagToken:
				src := ""
				for _, a := range tok.Attr {
					if a.Key == "src" {
						src = a.Val
					}
				}
				if v, ok := ParseVideoURL(src); ok {
					u := html.EscapeString(v.URL())
					b.WriteString(`<p><a href="` + u + `">` + u + `</a></p>`)
					if tt == html.StartTagToken {
						depth++
					}
					continue
				}
			case html.EndTagToken:
				if depth > 0 {
					depth--
					continue
				}
			}
		}
		if depth > 0 {
			continue // an iframe's fallback content
		}
		b.Write(raw)
	}
}
