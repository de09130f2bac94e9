package server_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"vitrine/internal/account"
	"vitrine/internal/privacy"
)

// Privacy requests through the real server: the customer's request from
// My account (nonce, bad input, a second open request, the notice), the
// mailed confirmation and download links (a page with a button, the POST
// that does the work, spent links answered 410 with a page that says so),
// and the admin's routes (staff only, with a nonce; refusals in the REST
// error shape changing nothing; approval audited without the person's
// data).

var tokenInMail = regexp.MustCompile(`\?token=([A-Za-z0-9_-]+)`)

// mailedToken renders the newest outbox mail of kind for request id and
// answers the token of the link it carries.
func mailedToken(t *testing.T, f *frameShop, kind string) (string, string) {
	t.Helper()
	var ref string
	if err := f.db.Read.GetContext(context.Background(), &ref, f.db.Read.Rebind(`SELECT ref FROM mail_outbox WHERE kind = ? ORDER BY id DESC LIMIT 1`), kind); err != nil {
		t.Fatalf("no %s mail queued: %v", kind, err)
	}
	m, err := f.srv.Privacy().Renderer("https://shop.example")(context.Background(), kind, ref)
	if err != nil {
		t.Fatalf("render %s %s: %v", kind, ref, err)
	}
	got := tokenInMail.FindStringSubmatch(m.Text)
	if got == nil {
		t.Fatalf("%s mail has no link: %s", kind, m.Text)
	}
	return got[1], m.To[0]
}

func privacyCount(t *testing.T, f *frameShop) int {
	t.Helper()
	var n int
	if err := f.db.Read.GetContext(context.Background(), &n, `SELECT COUNT(*) FROM privacy_requests`); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestPrivacyCustomerExport(t *testing.T) {
	each(t, newInboxShop, func(t *testing.T, f *frameShop) {
		c, u := f.shop.customer("ada@example.com")
		o := f.shop.placeFor(u.ID, u.Email)
		form := c.page("/my-account/edit-account/", 200).AccountForm
		if form.PrivacyNonce == "" {
			t.Fatal("the account page has no privacy nonce")
		}
		// Refusals change nothing.
		for _, tc := range []struct {
			form url.Values
			code int
		}{
			{url.Values{"privacy-request-nonce": {form.DeleteNonce}, "request_type": {"export_personal_data"}}, 403},
			{url.Values{"request_type": {"export_personal_data"}}, 403},
			{url.Values{"privacy-request-nonce": {form.PrivacyNonce}, "request_type": {"everything"}}, 400},
			{url.Values{"privacy-request-nonce": {form.PrivacyNonce}}, 400},
		} {
			r, d := c.postForm("/my-account/privacy-request/", tc.form)
			if r.status != tc.code || d.Errors == nil || len(d.Errors.Notices) == 0 {
				t.Errorf("%v: %d %+v", tc.form, r.status, d.Errors)
			}
		}
		if n := privacyCount(t, f); n != 0 {
			t.Fatalf("refusals stored %d requests", n)
		}
		// A visitor is sent to the login form.
		if r := f.shop.client().do("POST", "/my-account/privacy-request/", url.Values{"request_type": {"export_personal_data"}}.Encode()); r.status != 302 {
			t.Errorf("visitor: %d", r.status)
		}

		ok := url.Values{"privacy-request-nonce": {form.PrivacyNonce}, "request_type": {"export_personal_data"}}
		r, _ := c.postForm("/my-account/privacy-request/", ok)
		if r.status != 303 || r.header.Get("Location") != "/my-account/edit-account/" {
			t.Fatalf("request: %d %s", r.status, r.header.Get("Location"))
		}
		if d := c.page("/my-account/edit-account/", 200); !strings.Contains(d.Notice, "emailed you a link to confirm") {
			t.Errorf("notice = %q", d.Notice)
		}
		if r, d := c.postForm("/my-account/privacy-request/", ok); r.status != 409 || d.Errors == nil {
			t.Errorf("second open request: %d", r.status)
		}

		token, to := mailedToken(t, f, privacy.MailConfirm)
		if to != u.Email {
			t.Errorf("confirmation mailed to %q", to)
		}
		v := f.shop.client()
		if a := v.do("GET", privacy.ConfirmPath, ""); a.status != 400 || !strings.Contains(a.raw, "This link is not valid") {
			t.Errorf("confirm page without a token: %d", a.status)
		}
		if a := v.do("GET", privacy.ConfirmPath+"?token=not-a-token", ""); a.status != 410 || strings.Contains(a.raw, "<button") {
			t.Errorf("confirm page of an unknown token: %d", a.status)
		}
		a := v.do("GET", privacy.ConfirmPath+"?token="+token, "")
		if a.status != 200 || !strings.Contains(a.raw, `<button type="submit">Confirm request</button>`) || !strings.Contains(a.raw, `value="`+token+`"`) ||
			!strings.Contains(a.raw, "A copy of the personal data this shop keeps about ada@example.com") ||
			a.header.Get("Cache-Control") != "no-store, private" {
			t.Fatalf("confirm page: %d %s", a.status, a.raw)
		}
		// Opening the page confirms nothing (a mail scanner's fetch).
		if rs, _ := f.srv.Privacy().List(context.Background(), ""); rs[0].Status != privacy.StatusPending {
			t.Fatalf("GET confirmed the request: %+v", rs[0])
		}
		if a := v.do("POST", privacy.ConfirmPath, url.Values{"token": {token}}.Encode()); a.status != 200 || !strings.Contains(a.raw, "emailed you a link to download") {
			t.Fatalf("confirm: %d %s", a.status, a.raw)
		}
		if a := v.do("POST", privacy.ConfirmPath, url.Values{"token": {token}}.Encode()); a.status != 410 || !strings.Contains(a.raw, "already used or has expired") {
			t.Errorf("second confirm: %d", a.status)
		}
		if a := v.do("GET", privacy.ConfirmPath+"?token="+token, ""); a.status != 410 || strings.Contains(a.raw, "<button") {
			t.Errorf("confirm page of a used link: %d", a.status)
		}

		dl, _ := mailedToken(t, f, privacy.MailExportReady)
		if a := v.do("GET", privacy.DownloadPath+"?token="+dl, ""); a.status != 200 || !strings.Contains(a.raw, "Download my data") {
			t.Errorf("download page: %d", a.status)
		}
		a = v.do("POST", privacy.DownloadPath, url.Values{"token": {dl}}.Encode())
		if a.status != 200 || a.header.Get("Content-Type") != "application/zip" || !strings.Contains(a.header.Get("Content-Disposition"), "attachment") {
			t.Fatalf("download: %d %v", a.status, a.header)
		}
		zr, err := zip.NewReader(bytes.NewReader([]byte(a.raw)), int64(len(a.raw)))
		if err != nil {
			t.Fatal(err)
		}
		var e privacy.Export
		for _, zf := range zr.File {
			if zf.Name == "export.json" {
				rc, _ := zf.Open()
				b, _ := io.ReadAll(rc)
				rc.Close()
				if err := json.Unmarshal(b, &e); err != nil {
					t.Fatal(err)
				}
			}
		}
		if e.Account == nil || e.Account.Email != u.Email || len(e.Orders) != 1 || e.Orders[0].ID != o.ID {
			t.Errorf("export = %+v", e)
		}
		a = v.do("POST", privacy.DownloadPath, url.Values{"token": {dl}}.Encode())
		if a.status != 410 || !strings.Contains(a.raw, "This link was already used or has expired") || strings.Contains(a.header.Get("Content-Type"), "zip") {
			t.Errorf("second download: %d %s", a.status, a.header.Get("Content-Type"))
		}
		// Staff can fetch the kept export; a customer cannot.
		rs, _ := f.srv.Privacy().List(context.Background(), privacy.KindExport)
		path := fmt.Sprintf("/wp-json/vitrine/v1/admin/privacy-requests/%d/export", rs[0].ID)
		if a := f.as("Mia", "GET", path, ""); a.status != 200 || a.header.Get("Content-Type") != "application/zip" {
			t.Errorf("staff export: %d", a.status)
		}
	})
}

func TestPrivacyAdminErasure(t *testing.T) {
	each(t, newInboxShop, func(t *testing.T, f *frameShop) {
		ctx := context.Background()
		const list = "/wp-json/vitrine/v1/admin/privacy-requests"
		carla := "carla@example.com"
		f.shop.placeFor(f.users["Carla"], carla)
		f.wantStaffOnly([]adminCall{{"GET", list, ""}, {"POST", list, `{"type":"erase","email":"x@example.com"}`},
			{"POST", list + "/1/approve", ""}, {"GET", list + "/1/export", ""}})
		f.wantRefusals("Mia", []refusal{
			{"POST", list, `{"type":"erase","email":"not an address"}`, 400, "rest_invalid_param"},
			{"POST", list, `{"type":"forget","email":"x@example.com"}`, 400, "rest_invalid_param"},
			{"POST", list, `{"type":"erase",`, 400, "rest_invalid_json"},
			{"POST", list + "/999/approve", "", 404, "vitrine_privacy_invalid_id"},
			{"POST", list + "/abc/approve", "", 404, "rest_not_found"},
			{"GET", list + "?type=other", "", 400, "rest_invalid_param"},
		})
		// A write with the login cookie but without the REST nonce (CSRF)
		// is not authenticated, as WordPress answers it.
		wantError(t, "no nonce", f.do("POST", list, f.cookie("Mia"), `{"type":"erase","email":"x@example.com"}`, "Content-Type", "application/json"),
			401, "rest_not_logged_in")
		if n := privacyCount(t, f); n != 0 {
			t.Fatalf("refusals stored %d requests", n)
		}

		a := f.as("Mia", "POST", list, `{"type":"erase","email":"Carla@Example.com"}`)
		if a.status != 201 {
			t.Fatalf("create: %d %s", a.status, a.body)
		}
		var req privacy.Request
		if err := json.Unmarshal([]byte(a.body), &req); err != nil {
			t.Fatal(err)
		}
		if req.Email != carla || req.UserID != f.users["Carla"] || req.Source != privacy.SourceStaff || req.Status != privacy.StatusPending {
			t.Errorf("request = %+v", req)
		}
		wantError(t, "duplicate", f.as("Mia", "POST", list, `{"type":"erase","email":"carla@example.com"}`), 409, "vitrine_privacy_pending")
		approve := fmt.Sprintf("%s/%d/approve", list, req.ID)
		wantError(t, "unconfirmed", f.as("Mia", "POST", approve, ""), 409, "vitrine_privacy_not_confirmed")
		wantError(t, "export of an erasure", f.as("Mia", "GET", fmt.Sprintf("%s/%d/export", list, req.ID), ""), 404, "vitrine_privacy_no_export")
		if _, err := f.db.UserByID(ctx, f.users["Carla"]); err != nil {
			t.Fatalf("refusals deleted the account: %v", err)
		}

		token, to := mailedToken(t, f, privacy.MailConfirm)
		if to != carla {
			t.Errorf("mailed to %q", to)
		}
		if a := f.shop.client().do("POST", privacy.ConfirmPath, url.Values{"token": {token}}.Encode()); a.status != 200 || !strings.Contains(a.raw, "staff will now erase") {
			t.Fatalf("confirm: %d", a.status)
		}
		a = f.as("Mia", "POST", approve, "")
		if a.status != 200 {
			t.Fatalf("approve: %d %s", a.status, a.body)
		}
		if err := json.Unmarshal([]byte(a.body), &req); err != nil {
			t.Fatal(err)
		}
		if req.Status != privacy.StatusCompleted || req.Result == nil || req.Result.Orders != 1 || !req.Result.AccountDeleted || req.Email != "" {
			t.Errorf("approved = %+v %+v", req, req.Result)
		}
		if _, err := f.db.UserByID(ctx, f.users["Carla"]); err == nil {
			t.Error("the account is still there")
		} else if err != account.ErrNoUser {
			t.Errorf("account lookup: %v", err)
		}
		wantError(t, "second approval", f.as("Mia", "POST", approve, ""), 409, "vitrine_privacy_not_confirmed")

		es := f.audits("privacy_request")
		if len(es) != 2 {
			t.Fatalf("audit entries = %+v", es)
		}
		top := es[0]
		if top.Action != "privacy.erase.approve" || top.ObjectID != req.ID || top.ActorID != f.users["Mia"] ||
			!strings.Contains(top.Summary, "1 orders anonymised") || !strings.Contains(top.Summary, "account deleted: true") {
			t.Errorf("audit = %+v", top)
		}
		for _, e := range es {
			if strings.Contains(strings.ToLower(e.Summary), "carla") {
				t.Errorf("the audit names the person: %+v", e)
			}
		}
		a = f.as("Mia", "GET", list+"?type=erase", "")
		if a.status != 200 || !strings.Contains(a.body, `"status":"completed"`) || strings.Contains(a.body, carla) {
			t.Errorf("list: %d %s", a.status, a.body)
		}
	})
}
