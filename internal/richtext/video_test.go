package richtext

import (
	"reflect"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func TestParseVideoURL(t *testing.T) {
	for _, c := range []struct {
		in    string
		want  Video
		ok    bool
		embed string
	}{
		{"https://www.youtube.com/watch?v=dQw4w9WgXcQ", Video{Provider: "youtube", ID: "dQw4w9WgXcQ"}, true, YouTubeOrigin + "/embed/dQw4w9WgXcQ?rel=0"},
		{"http://m.youtube.com/watch?v=dQw4w9WgXcQ&t=1m30s", Video{Provider: "youtube", ID: "dQw4w9WgXcQ", Start: 90}, true, YouTubeOrigin + "/embed/dQw4w9WgXcQ?rel=0&start=90"},
		{"https://youtu.be/dQw4w9WgXcQ?t=42", Video{Provider: "youtube", ID: "dQw4w9WgXcQ", Start: 42}, true, ""},
		{"https://www.youtube.com/embed/dQw4w9WgXcQ", Video{Provider: "youtube", ID: "dQw4w9WgXcQ"}, true, ""},
		{"https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=5", Video{Provider: "youtube", ID: "dQw4w9WgXcQ", Start: 5}, true, ""},
		{"https://youtube.com/shorts/dQw4w9WgXcQ", Video{Provider: "youtube", ID: "dQw4w9WgXcQ"}, true, ""},
		{"https://vimeo.com/76979871", Video{Provider: "vimeo", ID: "76979871"}, true, VimeoOrigin + "/video/76979871?dnt=1"},
		{"https://vimeo.com/76979871/abc123def0", Video{Provider: "vimeo", ID: "76979871", Hash: "abc123def0"}, true, VimeoOrigin + "/video/76979871?dnt=1&h=abc123def0"},
		{"https://player.vimeo.com/video/76979871?h=abc123def0", Video{Provider: "vimeo", ID: "76979871", Hash: "abc123def0"}, true, ""},
		{"https://vimeo.com/channels/staffpicks/76979871", Video{Provider: "vimeo", ID: "76979871"}, true, ""},
		// Not videos.
		{"https://www.youtube.com/watch?v=short", Video{}, false, ""},
		{"https://www.youtube.com/channel/UCabcdefghijk", Video{}, false, ""},
		{"https://vimeo.com/about", Video{}, false, ""},
		{"https://vimeo.com/76979871/NOT-A-HASH", Video{}, false, ""},
		{"javascript://youtube.com/watch?v=dQw4w9WgXcQ", Video{}, false, ""},
		{"https://user@youtube.com/watch?v=dQw4w9WgXcQ", Video{}, false, ""},
		{"https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ", Video{}, false, ""},
		{"https://evil.example/?u=https://youtu.be/dQw4w9WgXcQ", Video{}, false, ""},
	} {
		got, ok := ParseVideoURL(c.in)
		if ok != c.ok || got != c.want {
			t.Errorf("ParseVideoURL(%q) = %+v, %v; want %+v, %v", c.in, got, ok, c.want, c.ok)
			continue
		}
		if c.embed != "" && got.EmbedURL() != c.embed {
			t.Errorf("ParseVideoURL(%q).EmbedURL() = %q, want %q", c.in, got.EmbedURL(), c.embed)
		}
	}
}

// parse returns the fragment's nodes for inspection.
func findAll(t *testing.T, src string, match func(*html.Node) bool) []*html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader("<body>" + src))
	if err != nil {
		t.Fatal(err)
	}
	var out []*html.Node
	var f func(*html.Node)
	f = func(n *html.Node) {
		if match(n) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			f(c)
		}
		if n.Type == html.ElementNode && n.Data == "template" {
			// The parser keeps a template's content apart from the tree;
			// html.Parse appends it as children, so f reached it above.
			return
		}
	}
	f(doc)
	return out
}

func isElement(tag string) func(*html.Node) bool {
	return func(n *html.Node) bool { return n.Type == html.ElementNode && n.Data == tag }
}

func TestEmbedVideos(t *testing.T) {
	in := `<p>Made in our workshop.</p>
<p><a href="https://www.youtube.com/watch?v=dQw4w9WgXcQ" rel="nofollow">https://www.youtube.com/watch?v=dQw4w9WgXcQ</a></p>
<p>See also https://youtu.be/dQw4w9WgXcQ in a sentence.</p>
<figure class="wp-block-embed"><div class="wp-block-embed__wrapper">
https://vimeo.com/76979871
</div><figcaption>Dyeing &amp; drying</figcaption></figure>
https://youtu.be/aaaaaaaaaaa
<p>End.</p>`
	out, origins := EmbedVideos(in, `Tee "Classic" <b>`)
	if !reflect.DeepEqual(origins, []string{VimeoOrigin, YouTubeOrigin}) {
		t.Fatalf("origins = %v", origins)
	}
	wraps := findAll(t, out, func(n *html.Node) bool {
		return n.Type == html.ElementNode && strings.HasPrefix(attr(n, "class"), "lazy-video ")
	})
	if len(wraps) != 3 {
		t.Fatalf("%d lazy videos, want 3:\n%s", len(wraps), out)
	}
	titles := []string{attr(wraps[0], "data-title"), attr(wraps[1], "data-title"), attr(wraps[2], "data-title")}
	want := []string{`Tee "Classic" <b>`, "Dyeing & drying", `Tee "Classic" <b>, video 3`}
	if !reflect.DeepEqual(titles, want) {
		t.Errorf("titles = %q, want %q", titles, want)
	}
	buttons := findAll(t, out, isElement("button"))
	if len(buttons) != 3 || attr(buttons[0], "type") != "button" || textOf(buttons[0]) != `Play video: Tee "Classic" <b>` {
		t.Fatalf("buttons: %d, first %q", len(buttons), textOf(buttons[0]))
	}
	frames := findAll(t, out, isElement("iframe"))
	if len(frames) != 3 {
		t.Fatalf("%d iframes in templates, want 3", len(frames))
	}
	for _, f := range frames {
		if f.Parent == nil || f.Parent.Data != "template" {
			t.Errorf("iframe outside a template: %v", f.Parent)
		}
		if attr(f, "src") != "" || !strings.HasPrefix(attr(f, "data-src"), "https://") || attr(f, "title") == "" {
			t.Errorf("iframe attributes: %v", f.Attr)
		}
	}
	if got := attr(frames[1], "data-src"); got != VimeoOrigin+"/video/76979871?dnt=1" {
		t.Errorf("vimeo data-src = %q", got)
	}
	// The URL in a sentence stays as it was; the escaping holds.
	if !strings.Contains(out, "See also https://youtu.be/dQw4w9WgXcQ in a sentence.") || strings.Contains(out, "<b>,") {
		t.Errorf("sentence or escaping:\n%s", out)
	}
	if !strings.Contains(out, "<p>Made in our workshop.</p>") || !strings.Contains(out, "<p>End.</p>") {
		t.Errorf("surrounding text lost:\n%s", out)
	}
	links := findAll(t, out, func(n *html.Node) bool { return attr(n, "class") == "lazy-video__link" })
	if len(links) != 3 || attr(links[0], "href") != "https://www.youtube.com/watch?v=dQw4w9WgXcQ" {
		t.Errorf("fallback links: %d", len(links))
	}
}

func TestEmbedVideosLeavesOthers(t *testing.T) {
	for _, in := range []string{
		"",
		"<p>No video here.</p>",
		`<p><a href="https://example.com/">https://www.youtube.com/watch?v=dQw4w9WgXcQ</a></p>`, // text and link differ
		`<p><a href="https://www.youtube.com/watch?v=dQw4w9WgXcQ">Our video</a></p>`,            // a named link stays a link
		`<p>https://www.youtube.com/watch?v=dQw4w9WgXcQ <img src="/a.png"></p>`,                 // more than the URL
		`<ul><li>Watch https://vimeo.com/76979871 now</li></ul>`,
	} {
		out, origins := EmbedVideos(in, "T")
		if out != in || origins != nil {
			t.Errorf("EmbedVideos(%q) = %q, %v; want it unchanged", in, out, origins)
		}
	}
}

func TestSanitizeKeepsVideoIframes(t *testing.T) {
	in := `<p>Intro</p><iframe width="560" height="315" src="https://www.youtube.com/embed/dQw4w9WgXcQ?start=7" ` +
		`onload="alert(1)" allowfullscreen>fallback text</iframe><iframe src="https://evil.example/x"></iframe><p>After</p>`
	got := Sanitize(in)
	want := `<p>Intro</p><p><a href="https://www.youtube.com/watch?v=dQw4w9WgXcQ&amp;t=7s" rel="nofollow">` +
		`https://www.youtube.com/watch?v=dQw4w9WgXcQ&amp;t=7s</a></p><p>After</p>`
	if got != want {
		t.Fatalf("Sanitize =\n%s\nwant\n%s", got, want)
	}
	// And the kept link comes back as a lazy video.
	if out, origins := EmbedVideos(got, "T"); len(origins) != 1 || !strings.Contains(out, "Play video: T") {
		t.Errorf("the kept iframe is not a video: %v\n%s", origins, out)
	}
}
