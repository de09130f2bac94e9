package richtext

import (
	"strings"
	"testing"
)

// TestSanitize: script in every form the probe used is gone, the formatting
// of a WooCommerce description survives.
func TestSanitize(t *testing.T) {
	for _, c := range []struct {
		in      string
		want    []string
		notWant []string
	}{
		{`<p>Soft <strong>cotton</strong>.</p><script>alert(1)</script>`, []string{"<p>Soft <strong>cotton</strong>.</p>"}, []string{"script", "alert"}},
		{`<img src=x onerror=alert(1)>`, nil, []string{"onerror", "alert"}},
		{`<img src="https://img.example/a.jpg" alt="A" onload="x()">`, []string{`<img src="https://img.example/a.jpg" alt="A">`}, []string{"onload"}},
		{`<img src="javascript:alert(1)">`, nil, []string{"javascript"}},
		{`<a href="javascript:alert(1)">x</a>`, []string{"x"}, []string{"javascript", "href"}},
		{`<a href="JaVaScRiPt&#58;alert(1)">x</a>`, []string{"x"}, []string{"alert", "href"}},
		{`<a href="https://example.com/" target="_blank">more</a>`, []string{`href="https://example.com/"`, `rel="nofollow noopener"`, `target="_blank"`}, nil},
		{`<a href="/product/tee/" onclick="x()">tee</a>`, []string{`<a href="/product/tee/" rel="nofollow">tee</a>`}, []string{"onclick"}},
		{`<ul><li>One</li><li>Two</li></ul><ol><li>1</li></ol>`, []string{`<ul><li>One</li><li>Two</li></ul><ol><li>1</li></ol>`}, nil},
		{`<h2>Care</h2><p>Wash<br>cold</p><em>e</em>`, []string{`<h2>Care</h2><p>Wash<br>cold</p><em>e</em>`}, nil},
		{`<table><thead><tr><th>Size</th></tr></thead><tbody><tr><td>M</td></tr></tbody></table>`, []string{`<table><thead><tr><th>Size</th></tr></thead><tbody><tr><td>M</td></tr></tbody></table>`}, nil},
		{`<iframe src="https://evil.example/"></iframe><style>body{}</style><form action="/x"><input></form>`, nil, []string{"iframe", "style", "form", "input", "body{}"}},
		{`<svg onload=alert(1)><p style="background:url(javascript:alert(1))">s</p>`, []string{"<p>s</p>"}, []string{"svg", "style", "alert"}},
		{`Plain text, 5 < 6 & "quoted"`, []string{"Plain text, 5 &lt; 6 &amp; &#34;quoted&#34;"}, nil},
		{"", nil, nil},
	} {
		got := Sanitize(c.in)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("Sanitize(%q) = %q, want it to contain %q", c.in, got, w)
			}
		}
		for _, n := range c.notWant {
			if strings.Contains(strings.ToLower(got), n) {
				t.Errorf("Sanitize(%q) = %q, contains %q", c.in, got, n)
			}
		}
		if again := Sanitize(got); again != got {
			t.Errorf("Sanitize is not stable: %q then %q", got, again)
		}
	}
}
