package storefront

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"net/http"
	"sync"
	"time"

	"golang.org/x/image/vector"
)

// faviconICO is /favicon.ico: the shop's mark (favicon.svg) drawn at 32×32
// into a PNG inside an ICO container, made once per process. Browsers and
// crawlers ask for /favicon.ico whatever the page links. New draws it.
var faviconICO = sync.OnceValues(func() ([]byte, string) {
	ico := makeFaviconICO(32)
	sum := sha256.Sum256(ico)
	return ico, `"` + hex.EncodeToString(sum[:8]) + `"`
})

// markBlue is the mark's (and the manifest's theme) colour.
var markBlue = color.NRGBA{0x1f, 0x3a, 0x5f, 0xff}

// drawMark draws the shop's mark at size×size: favicon.svg's blue square
// (its corners rounded, or square to the edge for icons a platform masks)
// and the white V, scaled by vScale about the centre (below 1 keeps it in
// a maskable icon's safe zone).
func drawMark(size int, rounded bool, vScale float32) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	k := float32(size) / 64 // favicon.svg's viewBox is 64 units
	fill := func(c color.Color, path func(z *vector.Rasterizer)) {
		z := vector.NewRasterizer(size, size)
		z.DrawOp = draw.Over
		path(z)
		z.Draw(img, img.Bounds(), image.NewUniform(c), image.Point{})
	}
	fill(markBlue, func(z *vector.Rasterizer) {
		s, r := 64*k, 14*k
		if !rounded {
			r = 0
		}
		// A rounded square; each corner a cubic Bézier quarter circle.
		c := r * (1 - 0.5523) // control point offset for a quarter circle
		z.MoveTo(r, 0)
		z.LineTo(s-r, 0)
		z.CubeTo(s-c, 0, s, c, s, r)
		z.LineTo(s, s-r)
		z.CubeTo(s, s-c, s-c, s, s-r, s)
		z.LineTo(r, s)
		z.CubeTo(c, s, 0, s-c, 0, s-r)
		z.LineTo(0, r)
		z.CubeTo(0, c, c, 0, r, 0)
		z.ClosePath()
	})
	fill(color.White, func(z *vector.Rasterizer) {
		// M18 20h8l6 20 6-20h8L36 46h-8z, scaled about (32, 33).
		pts := [][2]float32{{18, 20}, {26, 20}, {32, 40}, {38, 20}, {46, 20}, {36, 46}, {28, 46}}
		at := func(p [2]float32) (float32, float32) {
			return (32 + (p[0]-32)*vScale) * k, (33 + (p[1]-33)*vScale) * k
		}
		z.MoveTo(at(pts[0]))
		for _, p := range pts[1:] {
			z.LineTo(at(p))
		}
		z.ClosePath()
	})
	return img
}

// makeFaviconICO draws favicon.svg's shapes (a 64-unit square with 14-unit
// rounded corners in the shop's blue, and a white V) at size×size pixels.
func makeFaviconICO(size int) []byte {
	img := drawMark(size, true, 1)
	var pngData bytes.Buffer
	if err := png.Encode(&pngData, img); err != nil {
		panic(err) // encoding an in-memory image cannot fail
	}
	// ICONDIR (reserved, type 1 = icon, one image), then its ICONDIRENTRY:
	// width, height, palette size, reserved, planes, bits per pixel, the
	// image's size and its offset (6 + 16 bytes), then the PNG itself.
	var b bytes.Buffer
	le := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	dim := uint8(size)
	if size >= 256 {
		dim = 0 // 0 means 256
	}
	le([3]uint16{0, 1, 1})
	le([4]uint8{dim, dim, 0, 0})
	le([2]uint16{1, 32})
	le([2]uint32{uint32(pngData.Len()), 22})
	b.Write(pngData.Bytes())
	return b.Bytes()
}

// FaviconICO answers /favicon.ico (faviconICO), revalidated by its ETag.
func (f *Storefront) FaviconICO(w http.ResponseWriter, r *http.Request) {
	ico, etag := faviconICO()
	h := w.Header()
	h.Set("Content-Type", "image/x-icon")
	h.Set("Cache-Control", "public, max-age=604800")
	h.Set("ETag", etag)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(ico))
}
