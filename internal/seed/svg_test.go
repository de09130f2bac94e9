package seed

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

var allKinds = []string{
	kindTee, kindPocketTee, kindBreton, kindTank, kindLongSleeve, kindShirt, kindSweater, kindHoodie,
	kindTrousers, kindShorts, kindCap, kindBucket, kindBeanie, kindPomBeanie, kindTote,
	kindPouch, kindScarf, kindBandana, kindSocks, kindGiftCard, kindPrint,
}

// checkSVG asserts what the storefront relies on: well-formed XML with an
// svg root sized 1200x1200, a title, nothing fetched from elsewhere, and a
// small file.
func checkSVG(t *testing.T, name string, data []byte, wantTitle string) {
	t.Helper()
	if len(data) >= 6*1024 {
		t.Errorf("%s: %d bytes, want < 6 KB", name, len(data))
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	var root *xml.StartElement
	var title strings.Builder
	inTitle := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: not well-formed XML: %v\n%s", name, err, data)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			if root == nil {
				e := el.Copy()
				root = &e
			}
			switch el.Name.Local {
			case "title":
				inTitle = true
			case "image", "script", "foreignObject", "a", "use", "style":
				t.Errorf("%s: has a <%s> element", name, el.Name.Local)
			}
			for _, a := range el.Attr {
				if a.Name.Local == "href" || strings.Contains(a.Value, "http") && a.Name.Local != "xmlns" {
					t.Errorf("%s: attribute %s=%q reaches out", name, a.Name.Local, a.Value)
				}
			}
		case xml.EndElement:
			if el.Name.Local == "title" {
				inTitle = false
			}
		case xml.CharData:
			if inTitle {
				title.Write(el)
			}
		}
	}
	if root == nil || root.Name.Local != "svg" || root.Name.Space != "http://www.w3.org/2000/svg" {
		t.Fatalf("%s: root is not an svg element", name)
	}
	attrs := map[string]string{}
	for _, a := range root.Attr {
		attrs[a.Name.Local] = a.Value
	}
	if attrs["viewBox"] != "0 0 1200 1200" || attrs["width"] != "1200" || attrs["height"] != "1200" {
		t.Errorf("%s: root attributes %v", name, attrs)
	}
	if wantTitle != "" && title.String() != wantTitle {
		t.Errorf("%s: title %q, want %q", name, title.String(), wantTitle)
	}
}

func TestRenderSVG(t *testing.T) {
	for _, kind := range allKinds {
		for _, c := range colours {
			for view := viewFront; view <= viewFlat; view++ {
				title := "Tom & Jerry's <" + kind + "> in " + c.Name
				data := renderSVG(picture{Kind: kind, Color: c.Hex, View: view, Title: title, Label: "$50 <&>"})
				checkSVG(t, kind+"/"+c.Slug, data, title)
				if !bytes.Contains(data, []byte(c.Hex)) {
					t.Errorf("%s in %s: the item's colour is not used", kind, c.Name)
				}
			}
		}
	}
}

func TestRenderSVGDeterministic(t *testing.T) {
	pic := picture{Kind: kindHoodie, Color: "#2f5d46", View: viewDetail, Title: "Hoodie"}
	if !bytes.Equal(renderSVG(pic), renderSVG(pic)) {
		t.Fatal("same picture rendered twice differs")
	}
}

func TestPalette(t *testing.T) {
	for _, c := range colours {
		p := paletteOf(c.Hex)
		if p.main != c.Hex || p.dark == p.main || p.light == p.main {
			t.Errorf("%s: palette %+v", c.Name, p)
		}
	}
	// A bad colour falls back to grey instead of producing invalid markup.
	if got := paletteOf("not a colour").main; got != "#808080" {
		t.Errorf("fallback colour %s", got)
	}
}
