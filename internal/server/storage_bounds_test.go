package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/jpeg"
	"testing"
	"time"

	"vitrine/internal/media/mediatest"
	"vitrine/internal/server"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// Storage bounds through the real server: the contact files' quota (507)
// and the disk's floor (503 with Retry-After) answer in CF7's feedback
// shape with the REST error's code, storing and mailing nothing; the
// media library refuses an image too large decoded (400) and uploads over
// its quota (507); the admin reads the figures.

// contactRefused posts a file and checks a refusal for room: the status,
// CF7's fields with the REST error's, and nothing stored or mailed.
func contactRefused(t *testing.T, s *loginShop, status int, code string) answer {
	t.Helper()
	b := s.browser()
	subs, files, mails := contactCounts(t, s.db)
	fields := append(contactGood(), "_wpcf7_recaptcha_response", b.solve("contact"))
	ct, body := contactBody(t, fields, contactFile{"your-file", "photo.png", "image/png", contactPNG})
	a := contactPost(b, contactFeedbackPath, ct, body)
	m := a.json(t)
	data, _ := m["data"].(map[string]any)
	if a.status != status || m["code"] != code || data["status"] != float64(status) || m["status"] != "aborted" ||
		m["into"] != "#wpcf7-f1-p12-o1" || m["contact_form_id"] != float64(1) || str(m, "message") == "" {
		t.Fatalf("refused: %d %s", a.status, a.raw)
	}
	if s2, f2, m2 := contactCounts(t, s.db); s2 != subs || f2 != files || m2 != mails {
		t.Fatalf("a refusal stored %d→%d submissions, %d→%d files, %d→%d mails", subs, s2, files, f2, mails, m2)
	}
	return a
}

func TestContactFilesQuotaThroughTheServer(t *testing.T) {
	t.Parallel()
	eachLoginShopWith(t, server.Config{ContactFilesQuota: int64(2*len(contactPNG) + 10)}, func(t *testing.T, s *loginShop) {
		b := s.browser()
		for range 2 {
			if _, m := contactSend(b, contactGood(), contactFile{"your-file", "photo.png", "image/png", contactPNG}); m["status"] != "mail_sent" {
				t.Fatalf("within the quota: %v", m)
			}
		}
		contactRefused(t, s, 507, "wpcf7_insufficient_storage")
		// The message without its file still goes.
		if _, m := contactSend(b, contactGood()); m["status"] != "mail_sent" {
			t.Fatalf("without a file: %v", m)
		}
	})
}

func TestContactFilesRefusedWhileDiskLow(t *testing.T) {
	t.Parallel()
	eachLoginShopWith(t, server.Config{DataDir: t.TempDir(), DiskFloor: 1 << 62}, func(t *testing.T, s *loginShop) {
		a := contactRefused(t, s, 503, "wpcf7_storage_unavailable")
		if a.header.Get("Retry-After") != "600" {
			t.Fatalf("Retry-After %q", a.header.Get("Retry-After"))
		}
		if _, m := contactSend(s.browser(), contactGood()); m["status"] != "mail_sent" {
			t.Fatalf("without a file: %v", m)
		}
	})
}

func TestMediaStorageBoundsThroughTheServer(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *sqlstore.DB) {
		img := image.NewRGBA(image.Rect(0, 0, 200, 100))
		for i := range img.Pix {
			img.Pix[i] = uint8(i * 7)
		}
		img.SetRGBA(0, 0, color.RGBA{A: 255})
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, img, nil); err != nil {
			t.Fatal(err)
		}
		jpg := buf.Bytes()
		f := newFrameShopWith(t, db, server.Config{BaseURL: "https://shop.example", CacheMaxAge: time.Hour,
			MediaQuota: 1, ContactFilesQuota: 200 << 20})
		mia, nonce := f.cookie("Mia"), f.nonce("Mia")
		upload := func(name string, data []byte) frameAnswer {
			body, ctype := mediaForm(t, name, data)
			return f.do("POST", "/wp-json/wp/v2/media", mia, body, "X-WP-Nonce", nonce, "Content-Type", ctype)
		}
		check := func(what string, a frameAnswer, status int, code string) {
			t.Helper()
			m := a.json(t)
			data, _ := m["data"].(map[string]any)
			if a.status != status || m["code"] != code || data["status"] != float64(status) || m["message"] == "" {
				t.Fatalf("%s: %d %.300s", what, a.status, a.body)
			}
		}
		// 40 megapixels of 16-bit colour: some 300 KB sent, 320 MB decoded.
		check("16-bit bomb", upload("bomb.png", mediatest.PNG16(8000, 5000)), 400, "rest_upload_image_too_large")
		// The store already holds the seeded catalogue's images: a quota
		// of one byte is full.
		check("over the quota", upload("a.jpg", jpg), 507, "rest_upload_limited_space")
		var st struct {
			ContactFiles struct{ Used, Quota int64 } `json:"contact_files"`
			Media        struct{ Used, Quota int64 }
			Disk         struct{ Checked bool }
		}
		a := f.do("GET", "/wp-json/vitrine/v1/admin/storage", mia, "", "X-WP-Nonce", nonce)
		if err := json.Unmarshal([]byte(a.body), &st); a.status != 200 || err != nil || st.Media.Used <= 0 || st.Media.Quota != 1 ||
			st.ContactFiles.Quota != 200<<20 || st.ContactFiles.Used != 0 || st.Disk.Checked {
			t.Fatalf("storage: %d %s", a.status, a.body)
		}
		if a := f.do("GET", "/wp-json/vitrine/v1/admin/storage", f.cookie("Carla"), "", "X-WP-Nonce", f.nonce("Carla")); a.status != 403 {
			t.Fatalf("customer: %d", a.status)
		}
		if used, err := db.MediaBytes(context.Background()); err != nil || used != st.Media.Used {
			t.Fatalf("%d %v", used, err)
		}
	})
}

func TestMediaUploadWhileDiskLow(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, sqlstore.SQLite)
	f := newFrameShopWith(t, db, server.Config{BaseURL: "https://shop.example", DataDir: t.TempDir(), DiskFloor: 1 << 62})
	body, ctype := mediaForm(t, "a.png", mediatest.PNG16(20, 10))
	a := f.do("POST", "/wp-json/wp/v2/media", f.cookie("Mia"), body, "X-WP-Nonce", f.nonce("Mia"), "Content-Type", ctype)
	if m := a.json(t); a.status != 503 || m["code"] != "rest_upload_storage_unavailable" || a.header.Get("Retry-After") != "600" {
		t.Fatalf("%d %v %s", a.status, a.header, a.body)
	}
}
