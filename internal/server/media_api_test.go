package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/jpeg"
	"mime/multipart"
	"strconv"
	"strings"
	"testing"

	"vitrine/internal/catalog"
)

// The media library through the real server (internal/adminapi/media.go):
// staff with their nonce upload, the upload route alone takes bodies over
// the server's cap, a customer is refused, and a library image shown by a
// product is served with its srcset.

func mediaForm(t *testing.T, name string, data []byte) (string, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, err := mw.CreateFormFile("file", name)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = fw.Write(data)
	_ = mw.WriteField("alt_text", "A blue lamp")
	_ = mw.Close()
	return buf.String(), mw.FormDataContentType()
}

func TestMediaLibraryThroughTheServer(t *testing.T) {
	t.Parallel()
	eachFrameShop(t, func(t *testing.T, f *frameShop) {
		mia, carla := f.cookie("Mia"), f.cookie("Carla")
		miaNonce, carlaNonce := f.nonce("Mia"), f.nonce("Carla")
		img := image.NewRGBA(image.Rect(0, 0, 1300, 650))
		for i := range img.Pix {
			img.Pix[i] = uint8(i * 7)
		}
		img.SetRGBA(0, 0, color.RGBA{A: 255})
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 100}); err != nil {
			t.Fatal(err)
		}
		// Over the server's 1 MiB body cap (the file's trailing bytes are
		// not part of the image, and are not kept).
		data := append(buf.Bytes(), make([]byte, 1<<20)...)
		body, ctype := mediaForm(t, "lamp.jpg", data)

		if a := f.do("POST", "/wp-json/wp/v2/media", carla, body, "X-WP-Nonce", carlaNonce, "Content-Type", ctype); a.status != 403 || a.json(t)["code"] != "rest_forbidden" {
			t.Errorf("customer: %d %.200s", a.status, a.body)
		}
		if a := f.do("POST", "/wp-json/wp/v2/media", mia, body, "Content-Type", ctype); a.status != 401 {
			t.Errorf("staff without a nonce: %d %.200s", a.status, a.body)
		}
		a := f.do("POST", "/wp-json/wp/v2/media", mia, body, "X-WP-Nonce", miaNonce, "Content-Type", ctype)
		if a.status != 201 {
			t.Fatalf("upload: %d %.300s", a.status, a.body)
		}
		var att struct {
			ID           int64
			SourceURL    string `json:"source_url"`
			MediaDetails struct {
				Sizes map[string]struct {
					Width     int
					SourceURL string `json:"source_url"`
				}
			} `json:"media_details"`
		}
		if err := json.Unmarshal([]byte(a.body), &att); err != nil {
			t.Fatal(err)
		}
		large := att.MediaDetails.Sizes["large"]
		if large.Width != 1200 || att.MediaDetails.Sizes["medium"].Width != 300 {
			t.Fatalf("sizes: %+v", att.MediaDetails.Sizes)
		}
		// The files are served as the stored type, never sniffed.
		file := f.do("GET", large.SourceURL, nil, "")
		if file.status != 200 || file.header.Get("Content-Type") != "image/jpeg" || file.header.Get("X-Content-Type-Options") != "nosniff" ||
			!strings.Contains(file.header.Get("Content-Security-Policy"), "sandbox") {
			t.Errorf("%s: %d %v", large.SourceURL, file.status, file.header)
		}
		// The raised cap is the upload route's only: an edit as large is refused.
		id := strconv.FormatInt(att.ID, 10)
		big := `{"alt_text":"` + strings.Repeat("x", 1<<20+10) + `"}`
		if a := f.do("POST", "/wp-json/wp/v2/media/"+id, mia, big, "X-WP-Nonce", miaNonce, "Content-Type", "application/json"); a.status != 413 {
			t.Errorf("a large edit: %d %.200s", a.status, a.body)
		}

		// A product showing the library image: its srcset lists the sizes.
		stored, err := f.db.Attachment(context.Background(), att.ID)
		if err != nil {
			t.Fatal(err)
		}
		p := &catalog.Product{Type: catalog.TypeSimple, Name: "Library Lamp", Slug: "library-lamp", Purchasable: true,
			Status: catalog.StatusPublish, Images: []catalog.Image{stored.Image}}
		if _, err := f.db.SaveProduct(context.Background(), p, nil); err != nil {
			t.Fatal(err)
		}
		ps := f.do("GET", "/wp-json/wc/store/v1/products/"+strconv.FormatInt(p.ID, 10), nil, "")
		var prod struct {
			Images []struct{ Src, Srcset, Alt string }
		}
		if err := json.Unmarshal([]byte(ps.body), &prod); err != nil || len(prod.Images) != 1 {
			t.Fatalf("product: %d %.300s", ps.status, ps.body)
		}
		if im := prod.Images[0]; !strings.HasSuffix(im.Src, att.SourceURL) || !strings.Contains(im.Srcset, large.SourceURL+" 1200w") ||
			!strings.Contains(im.Srcset, " 300w") || im.Alt != "A blue lamp" {
			t.Errorf("product image: %+v", im)
		}
	})
}
