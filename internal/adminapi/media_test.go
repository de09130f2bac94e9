package adminapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"vitrine/internal/account"
	"vitrine/internal/adminapi"
	"vitrine/internal/audit"
	"vitrine/internal/catalog"
	"vitrine/internal/media"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// flakyStore fails to store sizes while fails > 0, as a server that runs
// out of memory or time after storing the original would.
type flakyStore struct {
	*sqlstore.DB
	fails int
}

func (f *flakyStore) SetAttachmentSizes(ctx context.Context, id int64, sizes []catalog.ImageSize, files []catalog.MediaFile) error {
	if f.fails > 0 {
		f.fails--
		return errors.New("out of memory")
	}
	return f.DB.SetAttachmentSizes(ctx, id, sizes, files)
}

func jpegOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetRGBA(x, y, color.RGBA{R: uint8(x), G: uint8(y), B: 90, A: 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// multipartBody is a form with a file field and text fields.
func multipartBody(t *testing.T, field, name string, data []byte, fields ...string) (io.Reader, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	if field != "" {
		fw, err := mw.CreateFormFile(field, name)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = fw.Write(data)
	}
	for i := 0; i+1 < len(fields); i += 2 {
		_ = mw.WriteField(fields[i], fields[i+1])
	}
	_ = mw.Close()
	return &buf, mw.FormDataContentType()
}

type mediaFixture struct {
	t     *testing.T
	db    *sqlstore.DB
	api   *adminapi.API
	store *flakyStore
	log   *audit.Service
}

func newMediaFixture(t *testing.T, db *sqlstore.DB) *mediaFixture {
	users := map[string]*account.User{
		"mia":   {ID: 3, DisplayName: "Mia Manager", Role: account.RoleShopManager},
		"carla": {ID: 5, DisplayName: "Carla", Role: account.RoleCustomer},
	}
	f := &mediaFixture{t: t, db: db, store: &flakyStore{DB: db}, log: &audit.Service{Store: db}}
	f.api = adminapi.New(adminapi.Deps{
		Viewer: func(r *http.Request) *account.User { return users[r.Header.Get("Test-User")] },
		Audit:  f.log,
		Media:  &media.Library{Store: f.store},
	})
	return f
}

func (f *mediaFixture) do(method, path, who string, body io.Reader, ctype string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, path, body)
	r.Header.Set("Test-User", who)
	if ctype != "" {
		r.Header.Set("Content-Type", ctype)
	}
	w := httptest.NewRecorder()
	f.api.ServeHTTP(w, r)
	return w
}

func (f *mediaFixture) upload(who, name string, data []byte, fields ...string) *httptest.ResponseRecorder {
	body, ctype := multipartBody(f.t, "file", name, data, fields...)
	return f.do("POST", "/wp-json/wp/v2/media", who, body, ctype)
}

func (f *mediaFixture) count() int {
	_, n, err := f.db.Attachments(context.Background(), media.Query{})
	if err != nil {
		f.t.Fatal(err)
	}
	return n
}

type attachment struct {
	ID           int64  `json:"id"`
	Slug         string `json:"slug"`
	AltText      string `json:"alt_text"`
	MimeType     string `json:"mime_type"`
	MediaType    string `json:"media_type"`
	SourceURL    string `json:"source_url"`
	Title        struct{ Raw, Rendered string }
	MediaDetails struct {
		Width, Height int
		Sizes         map[string]struct {
			File      string
			Width     int
			Height    int
			SourceURL string `json:"source_url"`
		}
	} `json:"media_details"`
	Missing []string `json:"missing_image_sizes"`
}

func decodeAttachment(t *testing.T, w *httptest.ResponseRecorder) attachment {
	t.Helper()
	var a attachment
	if err := json.Unmarshal(w.Body.Bytes(), &a); err != nil {
		t.Fatalf("%s: %v", w.Body, err)
	}
	return a
}

func code(w *httptest.ResponseRecorder) string {
	var e struct{ Code string }
	_ = json.Unmarshal(w.Body.Bytes(), &e)
	return e.Code
}

func TestMediaUploadAndEdit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newMediaFixture(t, db)
		w := f.upload("mia", "Sofa <b>.jpg", jpegOf(t, 800, 400), "alt_text", "A grey sofa")
		if w.Code != 201 {
			t.Fatalf("upload: %d %s", w.Code, w.Body)
		}
		a := decodeAttachment(t, w)
		if a.ID == 0 || a.MediaType != "image" || a.MimeType != "image/jpeg" || a.AltText != "A grey sofa" || a.Title.Raw != "Sofa <b>" ||
			a.Title.Rendered != "Sofa &lt;b&gt;" || a.Slug == "" || a.MediaDetails.Width != 800 || len(a.Missing) != 0 ||
			w.Header().Get("Location") != "/wp-json/wp/v2/media/"+strconv.FormatInt(a.ID, 10) {
			t.Fatalf("attachment: %+v", a)
		}
		sizes := a.MediaDetails.Sizes
		if len(sizes) != 3 || sizes["woocommerce_single"].Width != 600 || sizes["woocommerce_single"].Height != 300 ||
			sizes["medium"].Width != 300 || sizes["full"].SourceURL != a.SourceURL {
			t.Errorf("sizes: %+v", sizes)
		}
		// Read, list with paging headers, search.
		if g := f.do("GET", "/wp-json/wp/v2/media/"+strconv.FormatInt(a.ID, 10), "mia", nil, ""); g.Code != 200 || decodeAttachment(t, g).SourceURL != a.SourceURL {
			t.Errorf("get: %d %s", g.Code, g.Body)
		}
		f.upload("mia", "lamp.png", jpegOf(t, 100, 100))
		l := f.do("GET", "/wp-json/wp/v2/media?per_page=1&search=sofa", "mia", nil, "")
		if l.Code != 200 || l.Header().Get("X-WP-Total") != "1" || !strings.Contains(l.Body.String(), `"alt_text":"A grey sofa"`) {
			t.Errorf("list: %d %v %s", l.Code, l.Header(), l.Body)
		}
		if l := f.do("GET", "/wp-json/wp/v2/media?per_page=1", "mia", nil, ""); l.Header().Get("X-WP-TotalPages") != "2" {
			t.Errorf("pages: %v", l.Header())
		}
		if l := f.do("GET", "/wp-json/wp/v2/media?include=1,x", "mia", nil, ""); l.Code != 400 || code(l) != "rest_invalid_param" {
			t.Errorf("bad include: %d %s", l.Code, l.Body)
		}

		// Edit the alt text and title; a bad edit changes nothing.
		path := "/wp-json/wp/v2/media/" + strconv.FormatInt(a.ID, 10)
		u := f.do("POST", path, "mia", strings.NewReader(`{"alt_text":"A sofa, grey","title":"Sofa"}`), "application/json")
		if u.Code != 200 || decodeAttachment(t, u).AltText != "A sofa, grey" || decodeAttachment(t, u).Title.Raw != "Sofa" {
			t.Fatalf("update: %d %s", u.Code, u.Body)
		}
		for _, c := range []struct {
			body   string
			status int
			code   string
		}{
			{`{"alt_text":"` + strings.Repeat("x", 501) + `"}`, 400, "rest_invalid_param"},
			{`{"alt_text":`, 400, "rest_invalid_json"},
		} {
			if u := f.do("PUT", path, "mia", strings.NewReader(c.body), "application/json"); u.Code != c.status || code(u) != c.code {
				t.Errorf("%.30s: %d %s", c.body, u.Code, u.Body)
			}
		}
		if u := f.do("PUT", path, "mia", strings.NewReader(`{"caption":"`+strings.Repeat("x", 1001)+`"}`), "application/json"); !strings.Contains(u.Body.String(), `"params":{"caption":"The caption is at most 1000 characters."}`) {
			t.Errorf("the bad field is not named: %s", u.Body)
		}
		if u := f.do("PUT", "/wp-json/wp/v2/media/99999", "mia", strings.NewReader(`{"alt_text":"x"}`), "application/json"); u.Code != 404 || code(u) != "rest_post_invalid_id" {
			t.Errorf("unknown: %d %s", u.Code, u.Body)
		}
		if g, _ := db.Attachment(context.Background(), a.ID); g.Alt != "A sofa, grey" {
			t.Errorf("a refused edit changed the alt text: %q", g.Alt)
		}
		entries, _ := f.log.List(context.Background(), audit.Filter{Object: "media", ObjectID: a.ID})
		if len(entries) != 2 || entries[0].Action != "media.update" || entries[1].Action != "media.upload" || entries[0].ActorName != "Mia Manager" {
			t.Errorf("audit: %+v", entries)
		}

		// Delete: force is required (no trash), then it is gone.
		if d := f.do("DELETE", path, "mia", nil, ""); d.Code != 501 || code(d) != "rest_trash_not_supported" {
			t.Errorf("delete without force: %d %s", d.Code, d.Body)
		}
		if d := f.do("DELETE", path+"?force=true", "mia", nil, ""); d.Code != 200 || !strings.Contains(d.Body.String(), `"deleted":true`) {
			t.Errorf("delete: %d %s", d.Code, d.Body)
		}
		if g := f.do("GET", path, "mia", nil, ""); g.Code != 404 {
			t.Errorf("deleted: %d", g.Code)
		}
	})
}

func TestMediaUploadRefusals(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newMediaFixture(t, db)
		good := jpegOf(t, 40, 40)
		svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`)
		for _, c := range []struct {
			name   string
			w      func() *httptest.ResponseRecorder
			status int
			code   string
		}{
			{"svg named .jpg", func() *httptest.ResponseRecorder { return f.upload("mia", "cat.jpg", svg) }, 415, "rest_upload_invalid_type"},
			{"html", func() *httptest.ResponseRecorder {
				return f.upload("mia", "page.png", []byte("<html><script>alert(1)</script></html>"))
			}, 415, "rest_upload_invalid_type"},
			{"polyglot", func() *httptest.ResponseRecorder {
				return f.upload("mia", "x.jpg", append(append([]byte{}, good...), "<script>alert(1)</script>"...))
			}, 415, "rest_upload_invalid_type"},
			{"too big", func() *httptest.ResponseRecorder {
				return f.upload("mia", "big.jpg", append(append([]byte{}, good...), make([]byte, media.MaxUploadBytes)...))
			}, 413, "rest_upload_file_too_big"},
			{"no file", func() *httptest.ResponseRecorder {
				body, ctype := multipartBody(t, "", "", nil, "title", "x")
				return f.do("POST", "/wp-json/wp/v2/media", "mia", body, ctype)
			}, 400, "rest_upload_no_data"},
			{"not multipart", func() *httptest.ResponseRecorder {
				return f.do("POST", "/wp-json/wp/v2/media", "mia", bytes.NewReader(good), "image/jpeg")
			}, 415, "rest_upload_no_data"},
			{"a customer", func() *httptest.ResponseRecorder { return f.upload("carla", "x.jpg", good) }, 403, "rest_forbidden"},
			{"a visitor", func() *httptest.ResponseRecorder { return f.upload("", "x.jpg", good) }, 401, "rest_not_logged_in"},
		} {
			w := c.w()
			if w.Code != c.status || code(w) != c.code {
				t.Errorf("%s: %d %s, want %d %s", c.name, w.Code, w.Body, c.status, c.code)
			}
		}
		if n := f.count(); n != 0 {
			t.Fatalf("refused uploads stored %d attachments", n)
		}
		// A customer can do nothing else either.
		w := f.upload("mia", "ok.jpg", good)
		id := strconv.FormatInt(decodeAttachment(t, w).ID, 10)
		for _, c := range []struct{ method, path, body string }{
			{"GET", "/wp-json/wp/v2/media", ""},
			{"GET", "/wp-json/wp/v2/media/" + id, ""},
			{"POST", "/wp-json/wp/v2/media/" + id, `{"alt_text":"mine"}`},
			{"POST", "/wp-json/wp/v2/media/" + id + "/post-process", `{"action":"create-image-subsizes"}`},
			{"DELETE", "/wp-json/wp/v2/media/" + id + "?force=true", ""},
		} {
			if w := f.do(c.method, c.path, "carla", strings.NewReader(c.body), "application/json"); w.Code != 403 || code(w) != "rest_forbidden" {
				t.Errorf("customer %s %s: %d %s", c.method, c.path, w.Code, w.Body)
			}
		}
		if a, err := db.Attachment(context.Background(), decodeAttachment(t, w).ID); err != nil || a.Alt != "" {
			t.Errorf("after the customer: %+v %v", a, err)
		}
	})
}

// The spec's flow when the sizes fail after the file was stored: a 500
// naming the attachment, post-process retries, then success, or a
// deletion after the retries.
func TestMediaPostProcessRetryAndDelete(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		f := newMediaFixture(t, db)
		f.store.fails = 3
		w := f.upload("mia", "chair.jpg", jpegOf(t, 700, 350))
		hdr := w.Header().Get(adminapi.UploadAttachmentHeader)
		if w.Code != 500 || code(w) != "rest_upload_image_subsizes" || hdr == "" || strings.Contains(w.Body.String(), "out of memory") {
			t.Fatalf("failed sizes: %d %q %s", w.Code, hdr, w.Body)
		}
		pp := "/wp-json/wp/v2/media/" + hdr + "/post-process"
		g := f.do("GET", "/wp-json/wp/v2/media/"+hdr, "mia", nil, "")
		if a := decodeAttachment(t, g); len(a.Missing) != 2 || a.MediaDetails.Sizes["medium"].Width != 0 {
			t.Errorf("pending attachment: %+v", a)
		}
		for i := 0; i < 2; i++ {
			if r := f.do("POST", pp, "mia", strings.NewReader(`{"action":"create-image-subsizes"}`), "application/json"); r.Code != 500 {
				t.Fatalf("retry %d: %d %s", i, r.Code, r.Body)
			}
		}
		if r := f.do("POST", pp, "mia", strings.NewReader(`{"action":"regenerate"}`), "application/json"); r.Code != 400 || code(r) != "rest_invalid_param" {
			t.Errorf("bad action: %d %s", r.Code, r.Body)
		}
		r := f.do("POST", pp, "mia", strings.NewReader(`{"action":"create-image-subsizes"}`), "application/json")
		if a := decodeAttachment(t, r); r.Code != 200 || a.MediaDetails.Sizes["woocommerce_single"].Height != 300 || len(a.Missing) != 0 {
			t.Fatalf("third retry: %d %s", r.Code, r.Body)
		}

		// Five failures: the client deletes the upload and its files go.
		f.store.fails = 6
		w = f.upload("mia", "table.jpg", jpegOf(t, 700, 350))
		id := w.Header().Get(adminapi.UploadAttachmentHeader)
		for i := 0; i < 5; i++ {
			if r := f.do("POST", "/wp-json/wp/v2/media/"+id+"/post-process", "mia", strings.NewReader(`{"action":"create-image-subsizes"}`), "application/json"); r.Code != 500 {
				t.Fatalf("retry %d: %d", i, r.Code)
			}
		}
		n, _ := strconv.ParseInt(id, 10, 64)
		a, err := db.Attachment(context.Background(), n)
		if err != nil {
			t.Fatal(err)
		}
		if d := f.do("DELETE", "/wp-json/wp/v2/media/"+id+"?force=true", "mia", nil, ""); d.Code != 200 {
			t.Fatalf("delete: %d %s", d.Code, d.Body)
		}
		if _, err := db.Media(context.Background(), strings.TrimPrefix(a.Src, "/media/")); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("the original outlived its deletion: %v", err)
		}
		if f.count() != 1 {
			t.Errorf("attachments: %d", f.count())
		}
		if r := f.do("POST", "/wp-json/wp/v2/media/"+id+"/post-process", "mia", strings.NewReader(`{"action":"create-image-subsizes"}`), "application/json"); r.Code != 404 {
			t.Errorf("post-process after delete: %d", r.Code)
		}
	})
}
