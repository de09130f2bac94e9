package media

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"testing"
)

var widths = []int{1200, 600, 300}

// halves is a w×h image, red on the left half and blue on the right.
func halves(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.RGBA{R: 220, A: 255}
			if x >= w/2 {
				c = color.RGBA{B: 220, A: 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

func encodeJPEG(t *testing.T, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func encodePNG(t *testing.T, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func encodeGIF(t *testing.T, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := gif.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// withAlpha is a w×h NRGBA image whose left half is see-through.
func withAlpha(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			a := uint8(255)
			if x < w/2 {
				a = 0
			}
			img.SetNRGBA(x, y, color.NRGBA{G: 180, A: a})
		}
	}
	return img
}

// paletted converts img to a palette of transparent and opaque green, as
// GIFs with a transparent colour are.
func paletted(img image.Image) *image.Paletted {
	p := image.NewPaletted(img.Bounds(), color.Palette{color.NRGBA{}, color.NRGBA{G: 180, A: 255}})
	draw.Draw(p, p.Bounds(), img, image.Point{}, draw.Src)
	return p
}

// pngHeader is a PNG signature and IHDR claiming w×h, with no pixel data.
func pngHeader(w, h uint32) []byte {
	ihdr := make([]byte, 0, 17)
	ihdr = append(ihdr, "IHDR"...)
	ihdr = binary.BigEndian.AppendUint32(ihdr, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, 8, 6, 0, 0, 0) // 8-bit RGBA
	b := []byte("\x89PNG\r\n\x1a\n")
	b = binary.BigEndian.AppendUint32(b, 13)
	b = append(b, ihdr...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(ihdr))
}

// withOrientation inserts an EXIF APP1 segment with the given orientation
// right after a JPEG's SOI marker.
func withOrientation(jpg []byte, orient uint16, bo binary.AppendByteOrder) []byte {
	tiff := []byte("MM")
	if bo == binary.LittleEndian {
		tiff = []byte("II")
	}
	tiff = bo.AppendUint16(tiff, 42)
	tiff = bo.AppendUint32(tiff, 8)
	tiff = bo.AppendUint16(tiff, 1)      // one IFD entry
	tiff = bo.AppendUint16(tiff, 0x0112) // Orientation
	tiff = bo.AppendUint16(tiff, 3)      // SHORT
	tiff = bo.AppendUint32(tiff, 1)
	tiff = bo.AppendUint16(tiff, orient)
	tiff = bo.AppendUint16(tiff, 0)
	tiff = bo.AppendUint32(tiff, 0) // no next IFD
	seg := append([]byte("Exif\x00\x00"), tiff...)
	out := append([]byte{}, jpg[:2]...)
	out = append(out, 0xff, 0xe1)
	out = binary.BigEndian.AppendUint16(out, uint16(2+len(seg)))
	out = append(out, seg...)
	return append(out, jpg[2:]...)
}

type size struct {
	w, h  int
	ctype string
}

func TestRenditions(t *testing.T) {
	webp, err := os.ReadFile("testdata/600x400.lossy.webp")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		data    []byte
		ctype   string
		widths  []int
		want    []size
		wantErr error // nil: no error; errAny: any error
	}{
		{"large JPEG", encodeJPEG(t, halves(2000, 1000)), "image/jpeg", widths,
			[]size{{1200, 600, "image/jpeg"}, {600, 300, "image/jpeg"}, {300, 150, "image/jpeg"}}, nil},
		{"widths unsorted and repeated", encodeJPEG(t, halves(2000, 1000)), "image/jpeg", []int{300, 1200, 0, 300, 600, 5000},
			[]size{{1200, 600, "image/jpeg"}, {600, 300, "image/jpeg"}, {300, 150, "image/jpeg"}}, nil},
		{"PNG with alpha", encodePNG(t, withAlpha(500, 250)), "image/png", widths,
			[]size{{300, 150, "image/png"}}, nil},
		{"opaque PNG", encodePNG(t, halves(800, 400)), "image/png", widths,
			[]size{{600, 300, "image/jpeg"}, {300, 150, "image/jpeg"}}, nil},
		{"opaque GIF", encodeGIF(t, halves(700, 350)), "image/gif", widths,
			[]size{{600, 300, "image/jpeg"}, {300, 150, "image/jpeg"}}, nil},
		{"GIF with transparency", encodeGIF(t, paletted(withAlpha(700, 350))), "image/gif", widths,
			[]size{{600, 300, "image/png"}, {300, 150, "image/png"}}, nil},
		{"WebP", webp, "image/webp", widths, []size{{300, 200, "image/jpeg"}}, nil},
		{"exactly a rendition width", encodeJPEG(t, halves(600, 300)), "image/jpeg", widths,
			[]size{{300, 150, "image/jpeg"}}, nil},
		{"odd aspect rounds", encodeJPEG(t, halves(1000, 333)), "image/jpeg", []int{300},
			[]size{{300, 100, "image/jpeg"}}, nil},
		{"very wide keeps 1px height", encodeJPEG(t, halves(3000, 2)), "image/jpeg", []int{300},
			[]size{{300, 1, "image/jpeg"}}, nil},
		{"tiny", encodePNG(t, halves(50, 50)), "image/png", widths, nil, nil},
		{"corrupt", []byte("\x89PNG\r\n\x1a\nthis is not a PNG at all"), "image/png", widths, nil, errAny},
		{"truncated", encodeJPEG(t, halves(2000, 1000))[:400], "image/jpeg", widths, nil, errAny},
		{"decompression bomb", pngHeader(20000, 20000), "image/png", widths, nil, ErrTooLarge},
		{"not raster", []byte("<svg xmlns='http://www.w3.org/2000/svg'/>"), "image/svg+xml", widths, nil, errAny},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Renditions(tt.data, tt.ctype, tt.widths)
			switch {
			case tt.wantErr == nil && err != nil:
				t.Fatalf("error %v", err)
			case tt.wantErr != nil && err == nil:
				t.Fatalf("no error, got %d renditions", len(got))
			case tt.wantErr != nil && tt.wantErr != errAny && !errors.Is(err, tt.wantErr):
				t.Fatalf("error %v, want %v", err, tt.wantErr)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d renditions, want %d", len(got), len(tt.want))
			}
			for i, r := range got {
				w := tt.want[i]
				if r.Width != w.w || r.Height != w.h || r.ContentType != w.ctype {
					t.Errorf("rendition %d is %dx%d %s, want %dx%d %s", i, r.Width, r.Height, r.ContentType, w.w, w.h, w.ctype)
				}
				cfg, format, err := image.DecodeConfig(bytes.NewReader(r.Data))
				if err != nil {
					t.Fatalf("rendition %d does not decode: %v", i, err)
				}
				if cfg.Width != r.Width || cfg.Height != r.Height || "image/"+format != r.ContentType || r.Ext != map[string]string{"jpeg": ".jpg", "png": ".png"}[format] {
					t.Errorf("rendition %d encodes %dx%d %s (ext %s)", i, cfg.Width, cfg.Height, format, r.Ext)
				}
			}
		})
	}
}

var errAny = errors.New("any error")

func TestRenditionsKeepTransparency(t *testing.T) {
	got, err := Renditions(encodePNG(t, withAlpha(500, 250)), "image/png", []int{300})
	if err != nil || len(got) != 1 {
		t.Fatalf("%d renditions, %v", len(got), err)
	}
	img, err := png.Decode(bytes.NewReader(got[0].Data))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, a := img.At(10, 75).RGBA(); a != 0 {
		t.Errorf("left edge alpha %d, want transparent", a)
	}
	if _, g, _, a := img.At(290, 75).RGBA(); a != 0xffff || g>>8 < 170 {
		t.Errorf("right edge g=%d a=%d, want opaque green", g>>8, a)
	}
}

func TestRenditionsEXIFOrientation(t *testing.T) {
	// Stored 2000x1000, red left half; orientation 6 shows it turned a
	// quarter clockwise: 1000x2000 with red on top.
	for _, bo := range []binary.AppendByteOrder{binary.BigEndian, binary.LittleEndian} {
		data := withOrientation(encodeJPEG(t, halves(2000, 1000)), 6, bo)
		if o := Orientation(data); o != 6 {
			t.Fatalf("%v: Orientation %d, want 6", bo, o)
		}
		if w, h, err := DisplaySize(data); err != nil || w != 1000 || h != 2000 {
			t.Errorf("%v: DisplaySize %dx%d %v, want 1000x2000", bo, w, h, err)
		}
		got, err := Renditions(data, "image/jpeg", widths)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0].Width != 600 || got[0].Height != 1200 || got[1].Width != 300 || got[1].Height != 600 {
			t.Fatalf("%v: renditions %+v", bo, got)
		}
		img, err := jpeg.Decode(bytes.NewReader(got[1].Data))
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() != 300 || b.Dy() != 600 {
			t.Fatalf("decoded %v", b)
		}
		top, bottom := color.RGBAModel.Convert(img.At(150, 100)).(color.RGBA), color.RGBAModel.Convert(img.At(150, 500)).(color.RGBA)
		if top.R < 180 || top.B > 60 || bottom.B < 180 || bottom.R > 60 {
			t.Errorf("%v: top %v bottom %v, want red over blue", bo, top, bottom)
		}
	}
}

func TestOrientationCorners(t *testing.T) {
	// A 3x2 image with distinct corners; for each orientation, the source
	// corners that end up at the displayed top-left and top-right.
	src := image.NewRGBA(image.Rect(0, 0, 3, 2))
	tl, tr, bl, br := color.RGBA{1, 0, 0, 255}, color.RGBA{2, 0, 0, 255}, color.RGBA{3, 0, 0, 255}, color.RGBA{4, 0, 0, 255}
	src.SetRGBA(0, 0, tl)
	src.SetRGBA(2, 0, tr)
	src.SetRGBA(0, 1, bl)
	src.SetRGBA(2, 1, br)
	tests := []struct {
		orient        int
		w, h          int
		topL, topR    color.RGBA
		bottomL, botR color.RGBA
	}{
		{1, 3, 2, tl, tr, bl, br},
		{2, 3, 2, tr, tl, br, bl},
		{3, 3, 2, br, bl, tr, tl},
		{4, 3, 2, bl, br, tl, tr},
		{5, 2, 3, tl, bl, tr, br},
		{6, 2, 3, bl, tl, br, tr},
		{7, 2, 3, br, tr, bl, tl},
		{8, 2, 3, tr, br, tl, bl},
	}
	for _, tt := range tests {
		got := orientImage(src, tt.orient)
		if b := got.Bounds(); b.Dx() != tt.w || b.Dy() != tt.h {
			t.Errorf("orientation %d: %dx%d, want %dx%d", tt.orient, b.Dx(), b.Dy(), tt.w, tt.h)
			continue
		}
		corners := []color.RGBA{got.RGBAAt(0, 0), got.RGBAAt(tt.w-1, 0), got.RGBAAt(0, tt.h-1), got.RGBAAt(tt.w-1, tt.h-1)}
		want := []color.RGBA{tt.topL, tt.topR, tt.bottomL, tt.botR}
		for i := range corners {
			if corners[i] != want[i] {
				t.Errorf("orientation %d: corners %v, want %v", tt.orient, corners, want)
				break
			}
		}
	}
}

func TestOrientationIgnoresJunk(t *testing.T) {
	jpg := encodeJPEG(t, halves(10, 10))
	for name, data := range map[string][]byte{
		"no EXIF":      jpg,
		"not a JPEG":   encodePNG(t, halves(10, 10)),
		"empty":        nil,
		"bad value":    withOrientation(jpg, 9, binary.BigEndian),
		"cut off EXIF": withOrientation(jpg, 6, binary.BigEndian)[:30],
	} {
		if o := Orientation(data); o != 1 {
			t.Errorf("%s: Orientation %d, want 1", name, o)
		}
	}
}
