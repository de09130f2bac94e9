package catalog

import (
	"strings"
	"testing"
)

func TestFoldSearch(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Crème Brûlée", "creme brulee"},
		{"Straße", "strasse"},
		{"STRASSE", "strasse"},
		{"Æsir Œuvre", "aesir oeuvre"},
		{"Søren Łódź", "soren lodz"},
		{"ÇA VA, Señor?", "ca va senor"},
		{"  Classic   Tee  ", "classic tee"},
		{"TEE-RED-S", "tee red s"},
		{`"quoted" *star* -minus 'apos' %pct NEAR(x)`, "quoted star minus apos pct near x"},
		{"100% Coton – bio/organic", "100 coton bio organic"},
		{"ﬁne ①", "fine 1"}, // compatibility forms
		{"Кофе Ёж", "кофе еж"},
		{"日本語", "日本語"},
		{"🔥 hot 🔥", "hot"},
		{"", ""},
		{"---", ""},
	} {
		if got := FoldSearch(tc.in); got != tc.want {
			t.Errorf("FoldSearch(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSearchWords(t *testing.T) {
	if got := SearchWords("Classic  te"); strings.Join(got, "|") != "classic|te" {
		t.Errorf("SearchWords = %q", got)
	}
	long := SearchWords(strings.Repeat("word ", 2000) + strings.Repeat("é", 5000))
	if len(long) != SearchMaxWords {
		t.Errorf("%d words, want %d", len(long), SearchMaxWords)
	}
	if w := SearchWords(strings.Repeat("é", 5000)); len(w) != 1 || len(w[0]) != SearchMaxWordLen {
		t.Errorf("long word not cut: %d", len(w[0]))
	}
	if len(SearchWords(`" * - ( )`)) != 0 {
		t.Error("punctuation made words")
	}
}

func TestNewSearchDoc(t *testing.T) {
	d := NewSearchDoc(SearchSource{Name: "Crème Hoodie", SKUs: []string{"HD-01", "", "hd-01-red"}, Categories: []string{"Hoodies & Sweats"},
		Attributes: []string{"Bleu Marine", "XL"}, Short: "<p>Soft &amp; warm</p>", Description: "<ul><li>Brushed<br>fleece</li></ul>", Tags: []string{"Winter Sale"}})
	if d.Name != "creme hoodie" || d.SKU != "hd 01 hd01 hd 01 red hd01red" || d.Cats != "hoodies sweats" || d.Attrs != "bleu marine xl" ||
		d.Short != "soft warm" || d.Body != "brushed fleece winter sale" {
		t.Errorf("doc = %+v", d)
	}
}
