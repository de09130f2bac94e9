package render

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
)

func TestDocumentEscapesDataAndHead(t *testing.T) {
	data, _ := json.Marshal(map[string]string{"name": `</script><script>alert(1)</script>`})
	head := Head{Title: `Tee "Classic" <b>`, Description: "A & B", Canonical: "https://shop.example/product/tee/",
		JSONLD: []any{map[string]string{"@type": "Product", "name": "</script>"}}}
	doc, err := Document(head, Assets{Script: "/assets/app.js", CSS: []string{"/assets/app.css"}}, `<main>ok</main>`, data)
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	for _, want := range []string{
		`<title>Tee &#34;Classic&#34; &lt;b&gt;</title>`,
		`<meta name="description" content="A &amp; B">`,
		`<link rel="canonical" href="https://shop.example/product/tee/">`,
		`<script data-entry="/assets/app.js">`,
		`<link rel="stylesheet" href="/assets/app.css">`,
		`<div id="root"><main>ok</main></div>`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("document lacks %q:\n%s", want, s)
		}
	}
	if strings.Count(s, "</script>") != 3 { // head script, one JSON-LD, the data
		t.Errorf("a value closed a script element early:\n%s", s)
	}
}

func TestLoadAssets(t *testing.T) {
	fsys := fstest.MapFS{".vite/manifest.json": {Data: []byte(`{"src/entry-client.tsx":{"file":"assets/entry-abc.js","css":["assets/entry-def.css"],"isEntry":true}}`)}}
	a, err := LoadAssets(fsys, "src/entry-client.tsx")
	if err != nil || a.Script != "/assets/entry-abc.js" || len(a.CSS) != 1 || a.CSS[0] != "/assets/entry-def.css" {
		t.Errorf("LoadAssets = %+v, %v", a, err)
	}
	// The entry's static imports are preloaded, each once, through chains and cycles.
	fsys[".vite/manifest.json"] = &fstest.MapFile{Data: []byte(`{
		"src/entry-client.tsx":{"file":"assets/entry-abc.js","css":["assets/entry-def.css"],"isEntry":true,"imports":["_react-1.js"],"dynamicImports":["src/home/HomePage.tsx"]},
		"_react-1.js":{"file":"assets/react-1.js","imports":["_util-2.js","src/entry-client.tsx"]},
		"_util-2.js":{"file":"assets/util-2.js","imports":["_react-1.js"]},
		"src/home/HomePage.tsx":{"file":"assets/HomePage-3.js","imports":["src/entry-client.tsx","_react-1.js"]}}`)}
	a, err = LoadAssets(fsys, "src/entry-client.tsx")
	if err != nil || strings.Join(a.Preload, " ") != "/assets/react-1.js /assets/util-2.js" {
		t.Errorf("LoadAssets preloads %q, %v; want the entry's static imports only", a.Preload, err)
	}
	doc, err := Document(Head{Title: "x"}, a, "", []byte("{}"))
	if err != nil || !strings.Contains(string(doc), ` data-entry="/assets/entry-abc.js" data-preload="/assets/react-1.js /assets/util-2.js">`) {
		t.Errorf("the head script does not name the entry and its preloads: %v\n%s", err, doc)
	}
	if _, err := LoadAssets(fsys, "nope.tsx"); err == nil {
		t.Error("missing entry accepted")
	}
}

// TestHeadScript: the inline head script is in every page, carries the
// store notice's id when there is one (escaped as an attribute) and the
// app's entry, which no element fetches before the head script loads it,
// and its text is exactly what HeadScriptCSP hashes (the CSP would block
// it otherwise).
func TestHeadScript(t *testing.T) {
	sum := sha256.Sum256([]byte(HeadScript))
	if want := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"; HeadScriptCSP != want {
		t.Fatalf("HeadScriptCSP = %s, the script hashes to %s", HeadScriptCSP, want)
	}
	re := regexp.MustCompile(`<script( data-store-notice="([^"]*)")? data-entry="/assets/app.js">([^<]*)</script>`)
	for _, c := range []struct{ id, attr string }{{"", ""}, {"0123abcd", "0123abcd"}, {`"><x`, "&#34;&gt;&lt;x"}} {
		doc, err := Document(Head{Title: "T", StoreNoticeID: c.id}, Assets{Script: "/assets/app.js"}, "", []byte("{}"))
		if err != nil {
			t.Fatal(err)
		}
		s := string(doc)
		m := re.FindStringSubmatch(s)
		if m == nil {
			t.Fatalf("no inline head script:\n%s", s)
		}
		if m[2] != c.attr || m[3] != HeadScript {
			t.Errorf("id %q: attribute %q, script %q", c.id, m[2], m[3])
		}
		if strings.Index(s, m[0]) > strings.Index(s, "</head>") {
			t.Error("the head script must run in the head")
		}
		// No element the preload scanner fetches names a script: the head
		// script loads the app after the first paint.
		if strings.Contains(s, `<script type="module"`) || strings.Contains(s, `<link rel="modulepreload"`) {
			t.Errorf("the page fetches its scripts before the first paint:\n%s", s)
		}
	}
}
