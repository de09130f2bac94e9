package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"vitrine/internal/botcheck"
	"vitrine/internal/server"
	"vitrine/internal/server/servertest"
	"vitrine/internal/storage/sqlstore"
	"vitrine/internal/storage/storetest"
)

// BenchmarkContactFeedback measures the feedback handler in process on
// SQLite: a valid submission without a file (parse, schema, bot-check
// spend, rate-limit hit, the submission and its outbox row in one
// transaction), and one refused by the schema (no store write). The
// bot-check payloads are solved before the timer starts.
//
//	go test -run '^$' -bench ContactFeedback -benchmem ./internal/server/
func BenchmarkContactFeedback(b *testing.B) {
	srv := newServer(b, storetest.Open(b, sqlstore.SQLite), "", 1, server.Config{BaseURL: "http://localhost",
		Secret: []byte("0123456789abcdef0123456789abcdef"), ContactRateLimit: 1 << 30})
	servertest.Start(b, srv)
	solve := func() string {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("GET", "/wp-json/vitrine/v1/botcheck/contact", nil))
		var c botcheck.Challenge
		if err := json.Unmarshal(rec.Body.Bytes(), &c); err != nil {
			b.Fatal(err)
		}
		p, err := botcheck.Solve(c)
		if err != nil {
			b.Fatal(err)
		}
		return p
	}
	post := func(fields []string, want string) {
		ct, body := contactBody(b, fields)
		req := httptest.NewRequest("POST", contactFeedbackPath, bytes.NewReader(body))
		req.Header.Set("Content-Type", ct)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || !bytes.Contains(rec.Body.Bytes(), []byte(`"status":"`+want+`"`)) {
			b.Fatalf("%d %s", rec.Code, rec.Body.String())
		}
	}
	b.Run("mail_sent", func(b *testing.B) {
		tokens := make([]string, b.N)
		for i := range tokens {
			tokens[i] = solve()
		}
		b.ReportAllocs()
		b.ResetTimer()
		start := time.Now()
		for i := 0; i < b.N; i++ {
			post(append(contactGood(), "_wpcf7_recaptcha_response", tokens[i]), "mail_sent")
		}
		b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "msgs/s")
	})
	b.Run("validation_failed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			post(contactGood("your-email", "nope"), "validation_failed")
		}
	})
}
