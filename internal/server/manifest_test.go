package server_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"image/png"
	"strings"
	"testing"
)

// /favicon.ico is a real ICO (one 32×32 PNG image), and the web app
// manifest is linked from every page, served as application/manifest+json
// and cacheable, with icons that are the PNGs it says.
func TestFaviconAndManifest(t *testing.T) {
	t.Parallel()
	s := sqliteShop(t)

	r := s.get("/favicon.ico")
	ico := []byte(body(t, r))
	if r.StatusCode != 200 || r.Header.Get("Content-Type") != "image/x-icon" || len(ico) < 22 {
		t.Fatalf("favicon.ico: %d %q %d bytes", r.StatusCode, r.Header.Get("Content-Type"), len(ico))
	}
	var dir struct {
		Reserved, Type, Count uint16
		W, H, Colors, _       uint8
		Planes, BPP           uint16
		Size, Offset          uint32
	}
	if err := binary.Read(bytes.NewReader(ico), binary.LittleEndian, &dir); err != nil {
		t.Fatal(err)
	}
	if dir.Reserved != 0 || dir.Type != 1 || dir.Count != 1 || dir.W != 32 || dir.H != 32 || int(dir.Offset+dir.Size) != len(ico) {
		t.Fatalf("ICO header: %+v (%d bytes)", dir, len(ico))
	}
	img, err := png.Decode(bytes.NewReader(ico[dir.Offset:]))
	if err != nil || img.Bounds().Dx() != 32 || img.Bounds().Dy() != 32 {
		t.Fatalf("ICO image: %v %v", err, img)
	}

	for _, p := range []string{"/", "/shop/", "/product/classic-tee/", "/nope/"} {
		if html := body(t, s.get(p)); !strings.Contains(html, `<link rel="manifest" href="/manifest.webmanifest">`) ||
			!strings.Contains(html, `<link rel="apple-touch-icon" href="/apple-touch-icon.png">`) {
			t.Errorf("%s does not link the manifest", p)
		}
	}
	r = s.get("/manifest.webmanifest")
	raw := body(t, r)
	if r.StatusCode != 200 || r.Header.Get("Content-Type") != "application/manifest+json" ||
		r.Header.Get("Cache-Control") != "public, max-age=86400" || r.Header.Get("ETag") == "" {
		t.Fatalf("manifest: %d %v", r.StatusCode, r.Header)
	}
	if r2 := s.get("/manifest.webmanifest", "If-None-Match", r.Header.Get("ETag")); r2.StatusCode != 304 {
		t.Errorf("manifest revalidation: %d", r2.StatusCode)
	}
	var m struct {
		Name, ShortName, StartURL, Display, ThemeColor, BackgroundColor string
		Icons                                                           []struct{ Src, Sizes, Type, Purpose string }
	}
	dec := json.NewDecoder(strings.NewReader(strings.NewReplacer(`"short_name"`, `"ShortName"`, `"start_url"`, `"StartURL"`,
		`"theme_color"`, `"ThemeColor"`, `"background_color"`, `"BackgroundColor"`).Replace(raw)))
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	if m.Name != "Vitrine" || m.ShortName != "Vitrine" || m.StartURL != "/" || m.Display != "standalone" ||
		m.ThemeColor != "#1f3a5f" || m.BackgroundColor != "#ffffff" || len(m.Icons) != 4 {
		t.Fatalf("manifest = %+v", m)
	}
	maskable := false
	for _, ic := range m.Icons {
		maskable = maskable || ic.Purpose == "maskable"
		r := s.get(ic.Src)
		b := []byte(body(t, r))
		if r.StatusCode != 200 || r.Header.Get("Content-Type") != ic.Type || !strings.Contains(r.Header.Get("Cache-Control"), "max-age") {
			t.Errorf("icon %s: %d %q", ic.Src, r.StatusCode, r.Header.Get("Content-Type"))
			continue
		}
		if ic.Type != "image/png" {
			continue
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Errorf("icon %s: %v", ic.Src, err)
			continue
		}
		if got := itoa(int64(img.Bounds().Dx())) + "x" + itoa(int64(img.Bounds().Dy())); got != ic.Sizes {
			t.Errorf("icon %s is %s, the manifest says %s", ic.Src, got, ic.Sizes)
		}
	}
	if !maskable {
		t.Error("no maskable icon")
	}
	if r := s.get("/apple-touch-icon.png"); r.StatusCode != 200 || r.Header.Get("Content-Type") != "image/png" {
		t.Errorf("apple-touch-icon: %d", r.StatusCode)
	}
}
