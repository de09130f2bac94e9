package storefront

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"image/png"
	"net/http"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// The web app manifest (/manifest.webmanifest) and its icons, which every
// page's head links (render.Document): the shop's name, colours and its
// mark drawn as PNGs at start (favicon.go's drawMark), so installing the
// shop or pinning it to a home screen shows the shop's own icon. All are
// the same for every visitor and cacheable for a day.

// appIcon is one icon the manifest lists.
type appIcon struct {
	path, purpose string
	size          int
	rounded       bool
	vScale        float32
}

// appIcons: "any" icons with the favicon's rounded corners; a maskable one
// (full-bleed, the V inside the safe zone's 80 % circle); Apple's touch
// icon full-bleed (iOS rounds it itself).
var appIcons = []appIcon{
	{path: "/icon-192.png", size: 192, rounded: true, vScale: 1, purpose: "any"},
	{path: "/icon-512.png", size: 512, rounded: true, vScale: 1, purpose: "any"},
	{path: "/icon-maskable-512.png", size: 512, vScale: 0.72, purpose: "maskable"},
	{path: "/apple-touch-icon.png", size: 180, vScale: 0.9},
}

// staticFile is a generated file kept in memory with its ETag.
type staticFile struct {
	body []byte
	etag string
}

func newStaticFile(b []byte) staticFile {
	sum := sha256.Sum256(b)
	return staticFile{body: b, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
}

// IconPaths are the paths of the manifest's icons (the route table
// registers them; coming-soon mode leaves them open).
func IconPaths() []string {
	out := make([]string, len(appIcons))
	for i, ic := range appIcons {
		out[i] = ic.path
	}
	return out
}

// iconFiles are the PNGs by path, drawn once per process.
var iconFiles = sync.OnceValue(func() map[string]staticFile {
	out := map[string]staticFile{}
	for _, ic := range appIcons {
		var b bytes.Buffer
		if err := png.Encode(&b, drawMark(ic.size, ic.rounded, ic.vScale)); err != nil {
			panic(err) // encoding an in-memory image cannot fail
		}
		out[ic.path] = newStaticFile(b.Bytes())
	}
	return out
})

// manifestIcon is an icon entry of the manifest.
type manifestIcon struct {
	Src     string `json:"src"`
	Sizes   string `json:"sizes"`
	Type    string `json:"type"`
	Purpose string `json:"purpose,omitempty"`
}

// webManifest is the manifest's JSON.
type webManifest struct {
	Name            string         `json:"name"`
	ShortName       string         `json:"short_name"`
	Description     string         `json:"description,omitempty"`
	StartURL        string         `json:"start_url"`
	Scope           string         `json:"scope"`
	Display         string         `json:"display"`
	ThemeColor      string         `json:"theme_color"`
	BackgroundColor string         `json:"background_color"`
	Lang            string         `json:"lang"`
	Icons           []manifestIcon `json:"icons"`
}

// ThemeColor is the mark's blue: the manifest's theme colour and the
// pages' theme-color meta.
const ThemeColor = "#1f3a5f"

// maxShortName is what launchers show under an icon without cutting it.
const maxShortName = 12

func shortName(name string) string {
	if utf8.RuneCountInString(name) <= maxShortName {
		return name
	}
	return string([]rune(name)[:maxShortName])
}

// buildManifest makes the shop's manifest the one served.
func (f *Storefront) buildManifest() {
	lv := f.live()
	m := webManifest{Name: lv.SiteName, ShortName: shortName(lv.SiteName), Description: lv.Tagline,
		StartURL: "/", Scope: "/", Display: "standalone", ThemeColor: ThemeColor, BackgroundColor: "#ffffff", Lang: "en"}
	if m.Name == "" {
		m.Name, m.ShortName = "Vitrine", "Vitrine"
	}
	for _, ic := range appIcons {
		if ic.purpose == "" {
			continue // Apple's touch icon: linked from the head, not listed
		}
		size := strconv.Itoa(ic.size) + "x" + strconv.Itoa(ic.size)
		m.Icons = append(m.Icons, manifestIcon{Src: ic.path, Sizes: size, Type: "image/png", Purpose: ic.purpose})
	}
	m.Icons = append(m.Icons, manifestIcon{Src: "/favicon.svg", Sizes: "any", Type: "image/svg+xml", Purpose: "any"})
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		panic(err) // plain strings and ints always marshal
	}
	file := newStaticFile(b)
	f.manifest.Store(&file)
}

// serveStatic answers a generated file, cacheable for a day and
// revalidated by its ETag.
func serveStatic(w http.ResponseWriter, r *http.Request, f staticFile, contentType string) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Cache-Control", "public, max-age=86400")
	h.Set("ETag", f.etag)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(f.body))
}

// Manifest answers /manifest.webmanifest.
func (f *Storefront) Manifest(w http.ResponseWriter, r *http.Request) {
	serveStatic(w, r, *f.manifest.Load(), "application/manifest+json")
}

// Icon answers one of the manifest's icons (IconPaths).
func (f *Storefront) Icon(w http.ResponseWriter, r *http.Request) {
	icon, ok := iconFiles()[r.URL.Path]
	if !ok {
		f.NotFound(w, r)
		return
	}
	serveStatic(w, r, icon, "image/png")
}
