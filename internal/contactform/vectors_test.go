package contactform

import (
	"encoding/json"
	"os"
	"testing"
)

// vector is one case of testdata/vectors.json, the test vectors the browser's
// validator (web/src/contact/swv.ts, swv.test.ts) runs too: a rule, a
// submission, and whether it passes. Files carry a name, a size and a type;
// the server takes the type as what it sniffed from the content, the browser
// as what the file input reports, so both see the same file.
type vector struct {
	Name   string              `json:"name"`
	Rule   Rule                `json:"rule"`
	Values map[string][]string `json:"values"`
	Files  map[string][]struct {
		Name string `json:"name"`
		Size int64  `json:"size"`
		Type string `json:"type"`
	} `json:"files"`
	Pass   bool   `json:"pass"`
	Report string `json:"report"`
}

func TestSharedVectors(t *testing.T) {
	raw, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(raw, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) < 100 {
		t.Fatalf("only %d vectors", len(vs))
	}
	rules := map[string]bool{}
	for _, v := range vs {
		rules[v.Rule.Rule] = true
		files := map[string][]File{}
		for k, fs := range v.Files {
			for _, f := range fs {
				files[k] = append(files[k], File{Name: f.Name, Size: f.Size, ContentType: f.Type, Sniffed: f.Type})
			}
		}
		got := Validate(Schema{Version: SchemaVersion, Locale: "en_US", Rules: []Rule{v.Rule}}, v.Values, files)
		if (len(got) == 0) != v.Pass {
			t.Errorf("%s: got %v, want pass=%v", v.Name, got, v.Pass)
			continue
		}
		if v.Report != "" && (len(got) != 1 || got[0].Field != v.Report) {
			t.Errorf("%s: reported %v, want field %q", v.Name, got, v.Report)
		}
	}
	// Every rule of protocol-notes 10.4 has vectors.
	for _, name := range []string{"required", "requiredfile", "email", "url", "tel", "number", "date", "time", "file", "enum",
		"dayofweek", "minitems", "maxitems", "minlength", "maxlength", "minnumber", "maxnumber", "mindate", "maxdate",
		"minfilesize", "maxfilesize", "stepnumber", "all", "any"} {
		if !rules[name] {
			t.Errorf("no vector for rule %q", name)
		}
	}
}
