package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// FuzzContactFeedback posts any multipart body (boundary "B") to the
// feedback route: the answer is never a 5xx, and is either CF7's feedback
// JSON with a known status or a REST error in its shape.
func FuzzContactFeedback(f *testing.F) {
	shops := fuzzServer(f)
	part := func(name, value string) string {
		return "--B\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n" + value + "\r\n"
	}
	file := func(name, filename, data string) string {
		return "--B\r\nContent-Disposition: form-data; name=\"" + name + "\"; filename=\"" + filename + "\"\r\nContent-Type: application/pdf\r\n\r\n" + data + "\r\n"
	}
	good := part("_wpcf7_unit_tag", "wpcf7-f1-o1") + part("your-name", "Ada") + part("your-email", "ada@example.com") +
		part("your-message", "Hi") + part("your-consent", "1")
	for _, s := range []string{
		good + "--B--\r\n",
		good + file("your-file", "a.pdf", "%PDF-1.4 x") + "--B--\r\n",
		good + file("your-file", "../../a.pdf", "MZ\x90\x00") + "--B--\r\n",
		good + file("your-file", "a.pdf", "%PDF") + file("your-file", "b.pdf", "%PDF") + "--B--\r\n",
		part("_wpcf7_unit_tag", "wpcf7-f1-o1") + part("your-checkbox[]", "a") + part("your-checkbox[]", "b") + "--B--\r\n",
		part("_wpcf7_unit_tag", "wpcf7-f2-o1") + "--B--\r\n",
		part("_wpcf7_unit_tag", "") + "--B--\r\n",
		part("_wpcf7_recaptcha_response", "eyJhbGdvcml0aG0iOiJTSEEtMjU2In0=") + good + "--B--\r\n",
		part("your-name", strings.Repeat("x", 500)) + "--B--\r\n",
		"--B\r\nContent-Disposition: form-data\r\n\r\nx\r\n--B--\r\n",
		good + part("your-message", "a\x00b") + "--B--\r\n",
		part("your-name\xff", "x") + good + "--B--\r\n",
		good + file("your-file", "a.pdf", "%PDF-1.4 \x00\xff\xfe") + "--B--\r\n",
		"--B\r\n\r\n--B--", "--B--", "", "--B\r\nContent-Disposition: form-data; name=\"a\"\r\n",
	} {
		f.Add(uint8(1), s)
	}
	f.Add(uint8(0), good)
	f.Add(uint8(2), good)
	f.Fuzz(func(t *testing.T, form uint8, body string) {
		for _, srv := range shops {
			func() {
				target := "/wp-json/contact-form-7/v1/contact-forms/" + []string{"0", "1", "2"}[int(form)%3] + "/feedback"
				rec, _ := fuzzDo(t, srv, http.MethodPost, target, body, http.Header{"Content-Type": {"multipart/form-data; boundary=B"}})
				raw := rec.Body.Bytes()
				if rec.Code != http.StatusOK {
					checkStoreAPIError(t, rec.Code, raw)
					if !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
						t.Fatalf("error not JSON: %v", rec.Header())
					}
					return
				}
				var out struct {
					ID     int64  `json:"contact_form_id"`
					Status string `json:"status"`
					Msg    string `json:"message"`
					Into   string `json:"into"`
					Hash   string `json:"posted_data_hash"`
					Inv    []struct {
						Field   string  `json:"field"`
						Message string  `json:"message"`
						IDRef   *string `json:"idref"`
						ErrorID string  `json:"error_id"`
					} `json:"invalid_fields"`
				}
				if err := json.Unmarshal(raw, &out); err != nil {
					t.Fatalf("200 not JSON: %s", raw)
				}
				switch out.Status {
				case "validation_failed":
					if len(out.Inv) == 0 || out.Hash != "" {
						t.Fatalf("validation_failed: %s", raw)
					}
					for _, v := range out.Inv {
						if v.ErrorID != strings.TrimPrefix(out.Into, "#")+"-ve-"+v.Field || v.Message == "" || v.IDRef != nil {
							t.Fatalf("invalid field: %s", raw)
						}
					}
				case "acceptance_missing", "spam":
					if out.Hash != "" || len(out.Inv) != 0 {
						t.Fatalf("%s: %s", out.Status, raw)
					}
				case "aborted", "mail_sent", "mail_failed":
				default:
					t.Fatalf("unknown status: %s", raw)
				}
				if out.ID != 1 || out.Msg == "" || !strings.HasPrefix(out.Into, "#wpcf7-f1-") || rec.Header().Get("Cache-Control") != "no-store" {
					t.Fatalf("answer: %v %s", rec.Header(), raw)
				}
			}()
		}
	})
}
