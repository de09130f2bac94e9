package media_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode"

	"vitrine/internal/catalog"
	"vitrine/internal/media"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// jpegClaiming patches a JPEG's frame header to claim w×h.
func jpegClaiming(t *testing.T, w, h uint16) []byte {
	data := media.EncodeJPEG(t, media.Halves(16, 16))
	i := bytes.Index(data, []byte{0xff, 0xc0})
	if i < 0 {
		t.Fatal("no SOF0")
	}
	binary.BigEndian.PutUint16(data[i+5:], h)
	binary.BigEndian.PutUint16(data[i+7:], w)
	return data
}

func TestCheckSniffsContent(t *testing.T) {
	webp, err := os.ReadFile("testdata/600x400.lossy.webp")
	if err != nil {
		t.Fatal(err)
	}
	gif := media.EncodeGIF(t, media.Halves(20, 10))
	for _, c := range []struct {
		name string
		data []byte
		mime string
		want error
	}{
		{"jpeg", media.EncodeJPEG(t, media.Halves(20, 10)), "image/jpeg", nil},
		{"png", media.EncodePNG(t, media.WithAlpha(20, 10)), "image/png", nil},
		{"gif", gif, "image/gif", nil},
		{"webp", webp, "image/webp", nil},
		{"empty", nil, "", media.ErrNoData},
		{"svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`), "", media.ErrType},
		{"svg with an xml prolog", []byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>`), "", media.ErrType},
		{"html", []byte(`<!DOCTYPE html><html><body>hi</body></html>`), "", media.ErrType},
		{"text named .jpg", []byte("just some text"), "", media.ErrType},
		// A GIF that is also a page: the sniffer says GIF, the markup refuses it.
		{"gif+html polyglot", append(append([]byte{}, gif...), "<html><SCRIPT>alert(1)</SCRIPT>"...), "", media.ErrType},
		{"jpeg with a php payload", append(media.EncodeJPEG(t, media.Halves(20, 10)), "<?php system($_GET['c']); ?>"...), "", media.ErrType},
		// The magic bytes of a PNG, then nothing an image decoder accepts.
		{"png magic only", []byte("\x89PNG\r\n\x1a\ngarbage that is not a chunk"), "", media.ErrType},
		// Decompression bombs: headers claiming huge images, no pixels.
		{"png bomb", media.PNGHeader(50_000, 50_000), "", media.ErrImageTooBig},
		{"png over the pixel cap", media.PNGHeader(10_000, 10_000), "", media.ErrImageTooBig},
		{"jpeg over the side cap", jpegClaiming(t, 20_000, 100), "", media.ErrImageTooBig},
		{"too many bytes", append(media.EncodeJPEG(t, media.Halves(8, 8)), make([]byte, media.MaxUploadBytes)...), "", media.ErrFileTooBig},
	} {
		got, err := media.Check(c.data)
		if !errors.Is(err, c.want) || (c.want == nil && got.MimeType != c.mime) {
			t.Errorf("%s: %+v %v, want %s %v", c.name, got, err, c.mime, c.want)
		}
	}
}

// failingStore fails the first n attempts to store sizes, as a server that
// runs out of memory or time after storing the original would.
type failingStore struct {
	*sqlstore.DB
	fails int
}

func (f *failingStore) SetAttachmentSizes(ctx context.Context, id int64, sizes []catalog.ImageSize, files []catalog.MediaFile) error {
	if f.fails > 0 {
		f.fails--
		return errors.New("out of memory")
	}
	return f.DB.SetAttachmentSizes(ctx, id, sizes, files)
}

func decodeFile(t *testing.T, db *sqlstore.DB, src string) (image.Image, *catalog.MediaFile) {
	t.Helper()
	f, err := db.Media(context.Background(), strings.TrimPrefix(src, "/media/"))
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	img, _, err := image.Decode(bytes.NewReader(f.Data))
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return img, f
}

// near says whether c's red and blue are within 40 of r and b.
func near(c color.Color, r, b int) bool {
	cr, _, cb, _ := c.RGBA()
	d := func(x uint32, y int) bool { return int(x>>8) > y-40 && int(x>>8) < y+40 }
	return d(cr, r) && d(cb, b)
}

func TestLibraryUploadOrientsAndStrips(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		now := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
		lib := &media.Library{Store: db, Now: func() time.Time { return now }}
		// Stored 1400×700, red left and blue right, with orientation 6
		// (turn a quarter clockwise to show): shown 700×1400, red on top.
		raw := media.WithOrientation(media.EncodeJPEG(t, media.Halves(1400, 700)), 6, binary.BigEndian)
		a, err := lib.Add(ctx, media.NewUpload{FileName: `C:\Photos\Red & Blue.JPG`, Data: raw, AuthorID: 3})
		if err != nil {
			t.Fatal(err)
		}
		if a.ID == 0 || a.Width != 700 || a.Height != 1400 || a.MimeType != "image/jpeg" || a.Title != "Red & Blue" || a.Pending ||
			!strings.HasPrefix(a.Src, "/media/uploads/2026/11/red-blue-") || !strings.HasSuffix(a.Src, ".jpg") || a.AuthorID != 3 {
			t.Fatalf("attachment: %+v", a)
		}
		img, f := decodeFile(t, db, a.Src)
		if b := img.Bounds(); b.Dx() != 700 || b.Dy() != 1400 {
			t.Fatalf("stored original is %v", b)
		}
		if !near(img.At(350, 200), 220, 0) || !near(img.At(350, 1200), 0, 220) {
			t.Errorf("not upright: top %v, bottom %v", img.At(350, 200), img.At(350, 1200))
		}
		if bytes.Contains(f.Data, []byte("Exif")) || media.Orientation(f.Data) != 1 || f.ContentType != "image/jpeg" {
			t.Errorf("the stored original keeps its EXIF (%s)", f.ContentType)
		}
		// Sizes narrower than the image, widest first, upright and clean.
		if len(a.Sizes) != 2 || a.Sizes[0].Width != 600 || a.Sizes[0].Height != 1200 || a.Sizes[1].Width != 300 || a.Sizes[1].Height != 600 {
			t.Fatalf("sizes: %+v", a.Sizes)
		}
		for _, s := range a.Sizes {
			img, f := decodeFile(t, db, s.Src)
			if b := img.Bounds(); b.Dx() != s.Width || b.Dy() != s.Height || bytes.Contains(f.Data, []byte("Exif")) {
				t.Errorf("%s: %v", s.Src, b)
			}
			if !near(img.At(s.Width/2, s.Height/8), 220, 0) || !near(img.At(s.Width/2, s.Height*7/8), 0, 220) {
				t.Errorf("%s is not upright", s.Src)
			}
			if !strings.HasSuffix(s.Src, "x"+itoa(s.Height)+".jpg") {
				t.Errorf("size name %s", s.Src)
			}
		}
		got, err := lib.Get(ctx, a.ID)
		if err != nil || got.Src != a.Src || len(got.Sizes) != 2 || !got.Uploaded.Equal(now) || got.Pending {
			t.Errorf("read back: %+v %v", got, err)
		}

		// Transparency stays: a PNG's sizes are PNGs.
		p, err := lib.Add(ctx, media.NewUpload{FileName: "logo.png", Data: media.EncodePNG(t, media.WithAlpha(800, 400))})
		if err != nil {
			t.Fatal(err)
		}
		if p.MimeType != "image/png" || len(p.Sizes) != 2 || !strings.HasSuffix(p.Sizes[0].Src, "-600x300.png") {
			t.Errorf("png: %+v", p)
		}
		// A WebP is stored as what the sizes are (no WebP encoder): opaque, so JPEG.
		webp, _ := os.ReadFile("testdata/600x400.lossy.webp")
		w, err := lib.Add(ctx, media.NewUpload{FileName: "photo.webp", Data: webp, Alt: " A photo "})
		if err != nil || w.MimeType != "image/jpeg" || w.Alt != "A photo" || len(w.Sizes) != 1 || w.Sizes[0].Width != 300 {
			t.Errorf("webp: %+v %v", w, err)
		}

		// Refusals store nothing.
		_, before, _ := lib.List(ctx, media.Query{})
		for _, bad := range [][]byte{media.PNGHeader(50_000, 50_000), []byte("<svg xmlns='http://www.w3.org/2000/svg'/>")} {
			if _, err := lib.Add(ctx, media.NewUpload{FileName: "x.png", Data: bad}); err == nil {
				t.Error("a bad file was accepted")
			}
		}
		if _, err := lib.Add(ctx, media.NewUpload{FileName: "x.jpg", Data: raw, Title: strings.Repeat("t", 201)}); !errors.Is(err, media.ErrInvalidField) {
			t.Errorf("long title: %v", err)
		}
		if _, after, _ := lib.List(ctx, media.Query{}); after != before {
			t.Errorf("refused uploads were stored: %d then %d", before, after)
		}
	})
}

func itoa(n int) string {
	var b []byte
	for n > 0 || len(b) == 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

// The post-process flow: the sizes fail after the original is stored; the
// attachment exists, pending, until CreateSubsizes makes them or Delete
// removes it with its files.
func TestLibrarySubsizesRetryAndDelete(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		store := &failingStore{DB: db, fails: 2}
		lib := &media.Library{Store: store}
		a, err := lib.Add(ctx, media.NewUpload{FileName: "big.jpg", Data: media.EncodeJPEG(t, media.Halves(900, 300))})
		if err == nil || a == nil || a.ID == 0 {
			t.Fatalf("want the stored attachment and the error: %+v %v", a, err)
		}
		got, _ := lib.Get(ctx, a.ID)
		if !got.Pending || len(got.Sizes) != 0 {
			t.Fatalf("after the failure: %+v", got)
		}
		if _, err := lib.CreateSubsizes(ctx, a.ID); err == nil {
			t.Fatal("the second failure was not reported")
		}
		done, err := lib.CreateSubsizes(ctx, a.ID)
		if err != nil || done.Pending || len(done.Sizes) != 2 || done.Sizes[0].Width != 600 || done.Sizes[0].Height != 200 {
			t.Fatalf("retry: %+v %v", done, err)
		}
		// Done already: answered as is.
		if again, err := lib.CreateSubsizes(ctx, a.ID); err != nil || len(again.Sizes) != 2 {
			t.Errorf("again: %+v %v", again, err)
		}
		if _, err := lib.CreateSubsizes(ctx, 99999); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("unknown id: %v", err)
		}

		// Shown by a product: an edit and the deletion are in the change log.
		prod := &catalog.Product{Type: catalog.TypeSimple, Name: "Lamp", Purchasable: true, Images: []catalog.Image{done.Image}}
		if _, err := db.SaveProduct(ctx, prod, nil); err != nil {
			t.Fatal(err)
		}
		last, _ := db.LastChange(ctx)
		alt := "A lamp, lit"
		if _, err := lib.Update(ctx, a.ID, media.Edit{Alt: &alt}); err != nil {
			t.Fatal(err)
		}
		long := strings.Repeat("x", 501)
		if _, err := lib.Update(ctx, a.ID, media.Edit{Alt: &long}); !errors.Is(err, media.ErrInvalidField) {
			t.Errorf("long alt: %v", err)
		}
		if got, _ := lib.Get(ctx, a.ID); got.Alt != alt {
			t.Errorf("alt: %q", got.Alt)
		}
		changes, _ := db.ChangesSince(ctx, last, 10)
		if len(changes) != 1 || changes[0].ProductID != prod.ID || changes[0].Kind != "product" {
			t.Errorf("alt change: %+v", changes)
		}

		if _, err := lib.Delete(ctx, a.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := lib.Get(ctx, a.ID); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("deleted: %v", err)
		}
		for _, src := range append([]string{done.Src}, done.Sizes[0].Src, done.Sizes[1].Src) {
			if _, err := db.Media(ctx, strings.TrimPrefix(src, "/media/")); !errors.Is(err, catalog.ErrNotFound) {
				t.Errorf("%s kept: %v", src, err)
			}
		}
		if changes, _ := db.ChangesSince(ctx, last, 10); len(changes) != 2 || changes[1].ProductID != prod.ID {
			t.Errorf("delete change: %+v", changes)
		}
		if _, err := lib.Delete(ctx, a.ID); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("delete twice: %v", err)
		}
	})
}

func TestLibraryListSearchAndPaging(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		lib := &media.Library{Store: db}
		small := media.EncodeJPEG(t, media.Halves(40, 20))
		var ids []int64
		for _, name := range []string{"red-mug.jpg", "blue_mug.jpg", "lamp.jpg", "100%_cotton.jpg"} {
			a, err := lib.Add(ctx, media.NewUpload{FileName: name, Data: small})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, a.ID)
		}
		list, total, err := lib.List(ctx, media.Query{Search: "MUG", Limit: 1})
		if err != nil || total != 2 || len(list) != 1 || list[0].ID != ids[1] {
			t.Fatalf("search: %d %+v %v", total, list, err)
		}
		if list, _, _ := lib.List(ctx, media.Query{Search: "mug", Limit: 1, Offset: 1}); len(list) != 1 || list[0].ID != ids[0] {
			t.Errorf("page 2: %+v", list)
		}
		// LIKE's wildcards are literal.
		if _, total, _ := lib.List(ctx, media.Query{Search: "%"}); total != 1 {
			t.Errorf("%% matched %d", total)
		}
		if list, total, _ := lib.List(ctx, media.Query{IncludeIDs: []int64{ids[2], ids[0]}, Limit: 10}); total != 2 || list[0].ID != ids[2] {
			t.Errorf("include: %+v", list)
		}
	})
}

// BenchmarkLibraryAdd uploads a 12-megapixel photo (4000×3000, a phone's):
// checks, decoding, the original scaled to 2560 px, three sizes, stored in
// SQLite.
func BenchmarkLibraryAdd(b *testing.B) {
	db := storetest.Open(b, sqlstore.SQLite)
	lib := &media.Library{Store: db}
	img := image.NewRGBA(image.Rect(0, 0, 4000, 3000))
	for i := range img.Pix {
		img.Pix[i] = uint8(i*31) ^ uint8(i>>12)
	}
	var buf bytes.Buffer
	if err := jpegEncode(&buf, img); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for range b.N {
		if _, err := lib.Add(context.Background(), media.NewUpload{FileName: "photo.jpg", Data: data}); err != nil {
			b.Fatal(err)
		}
	}
}

func jpegEncode(w io.Writer, img image.Image) error {
	return jpeg.Encode(w, img, &jpeg.Options{Quality: 90})
}

// Hostile file names (security-and-reliability S15): the stored path is
// made of our slug, a random part and the extension of the stored format,
// whatever the name says; the title keeps no control, format or
// separator character.
func TestLibraryHostileNames(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		ctx := context.Background()
		lib := &media.Library{Store: db}
		data := media.EncodeJPEG(t, media.Halves(40, 20))
		names := []string{
			"shell.php.jpg", "shell.jpg.php", "shell.php", "shell.phtml", "shell.php5", "shell.pHp", "shell.PHP.JPG",
			"x.svg", "x.html", "x.htm", "x.shtml", "x.xhtml", "x.js", ".htaccess", "web.config", "x.jsp", "x.asp", "x.cgi",
			"shell.php.", "shell.php ", "shell.php%00.jpg", "shell.php\x00.jpg", "shell.php\t.jpg", "shell.php\r\n.jpg",
			"shell\u2028.php.jpg", "shell\u00a0.php", "shell\u202egpj.php", "shell\u200b.php.jpg", "\ufeffshell.php",
			"../../etc/passwd", "..\\..\\windows\\win.ini", "/etc/passwd", "C:\\boot.ini", "....//x.jpg", "%2e%2e%2fx.jpg",
			"", ".", "..", "   ", "<script>alert(1)</script>.jpg", "\"><img src=x onerror=alert(1)>.png", "name'with\"quotes.gif",
			strings.Repeat("a", 300) + ".jpg", "ünïcödé ファイル.jpg", "CON.jpg", "x.jpg::$DATA",
		}
		pathRE := regexp.MustCompile(`^/media/uploads/\d{4}/\d{2}/[a-z0-9]+(-[a-z0-9]+)*-[0-9a-f]{8}\.jpg$`)
		for _, name := range names {
			a, err := lib.Add(ctx, media.NewUpload{FileName: name, Data: data})
			if err != nil {
				t.Fatalf("%q: %v", name, err)
			}
			if !pathRE.MatchString(a.Src) || a.MimeType != "image/jpeg" || strings.ContainsAny(a.Name, "/\\\x00%") {
				t.Errorf("%q stored as %s (%s)", name, a.Src, a.Name)
			}
			if a.Title == "" || strings.IndexFunc(a.Title, func(r rune) bool {
				return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.In(r, unicode.Zl, unicode.Zp) || r == '\u00a0'
			}) >= 0 {
				t.Errorf("%q: title %q", name, a.Title)
			}
		}
		if n := len(names); n < 40 {
			t.Fatalf("only %d names", n)
		}
	})
}
