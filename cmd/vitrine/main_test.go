package main_test

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"vitrine/internal/storage/storetest"
)

// buildBinary compiles the real command once per test.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "vitrine")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// forEachEngine builds the binary and runs body on every storage engine
// with a fresh store (skipped in -short mode).
func forEachEngine(t *testing.T, body func(t *testing.T, bin, dsn string)) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	storetest.EachDSN(t, func(t *testing.T, dsn string) { body(t, bin, dsn) })
}

// serve starts `vitrine serve` on addr with the extra environment and
// arguments, and waits until /readyz answers 200 (else the test fails with
// the logs). exited yields the process's end (Wait's error); the process is
// killed, and waited for, when the test ends.
func serve(t *testing.T, bin, addr, dsn string, env []string, args ...string) (cmd *exec.Cmd, logs *bytes.Buffer, exited <-chan error) {
	t.Helper()
	logs = &bytes.Buffer{}
	cmd = exec.Command(bin, append([]string{"serve", "--addr", addr, "--metrics-addr", "", "--db", dsn, "--log-level", "warn"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	gone := make(chan struct{})
	go func() { done <- cmd.Wait(); close(gone) }()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-gone })
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if r, err := http.Get("http://" + addr + "/readyz"); err == nil {
			r.Body.Close()
			if r.StatusCode == 200 {
				return cmd, logs, done
			}
		}
	}
	t.Fatalf("server never became ready:\n%s", logs.String())
	return nil, nil, nil
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	r, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	return r.StatusCode, string(b)
}

// TestBinary runs the real binary: version, migrate, serve with the demo
// catalogue, an import into the same store while it serves (the served
// pages pick it up), and a graceful stop on SIGTERM.
func TestBinary(t *testing.T) {
	forEachEngine(t, func(t *testing.T, bin, dsn string) {
		run := func(args ...string) string {
			out, err := exec.Command(bin, append(args, "--db", dsn)...).CombinedOutput()
			if err != nil {
				t.Fatalf("vitrine %v: %v\n%s", args, err, out)
			}
			return string(out)
		}
		if out := run("version"); !strings.HasPrefix(out, "vitrine ") {
			t.Errorf("version printed %q", out)
		}
		if out := run("migrate"); !strings.Contains(out, "migrations applied") {
			t.Errorf("migrate printed %q", out)
		}
		if out, err := exec.Command(bin, "frobnicate", "--db", dsn).CombinedOutput(); err == nil || !strings.Contains(string(out), "unknown command") {
			t.Errorf("unknown command: err=%v out=%q", err, out)
		}

		addr := freeAddr(t)
		base := "http://" + addr
		metricsAddr := freeAddr(t)
		srv, logs, done := serve(t, bin, addr, dsn, []string{"VITRINE_SITE_NAME=Binary Test Shop"}, "--demo", "--metrics-addr", metricsAddr)

		// /metrics lives on its own loopback listener, never on the shop's port.
		if code, body := get(t, "http://"+metricsAddr+"/metrics"); code != 200 || !strings.Contains(body, "vitrine_http_requests_total") {
			t.Errorf("metrics listener: %d", code)
		}
		if code, _ := get(t, base+"/metrics"); code != 404 {
			t.Errorf("/metrics on the shop's port: %d, want 404", code)
		}

		if code, body := get(t, base+"/"); code != 200 || !strings.Contains(body, "<title>Binary Test Shop") || !strings.Contains(body, "Classic Tee") {
			t.Errorf("home: %d (env config or seeding failed)", code)
		}
		if code, body := get(t, base+"/product/classic-tee/"); code != 200 || !strings.Contains(body, "$28.00") {
			t.Errorf("product page: %d", code)
		}
		if code, _ := get(t, base+"/shop/"); code != 200 {
			t.Errorf("shop: %d", code)
		}
		if code, _ := get(t, base+"/product/hoodie/"); code != 404 {
			t.Errorf("not-yet-imported product: %d, want 404", code)
		}

		// Cache a listing and an API answer, then import into the same
		// store from another process while the server runs: the change
		// log must invalidate what is cached.
		if code, body := get(t, base+"/wp-json/wc/store/v1/products?search=hoodie&per_page=100"); code != 200 || strings.Contains(body, `"sku":"HOOD-1"`) {
			t.Fatalf("before import: %d", code)
		}
		if code, _ := get(t, base+"/product/classic-tee-2/"); code != 404 {
			t.Fatalf("before import: imported product page answered %d", code)
		}
		out := run("import", "woocommerce-csv", filepath.Join("..", "..", "internal", "importer", "testdata", "products.csv"), "--fetch-images=false")
		for _, want := range []string{"Products: 6 created, 0 updated", "Variations: 3 created", "row 7: regular price"} {
			if !strings.Contains(out, want) {
				t.Errorf("import summary lacks %q:\n%s", want, out)
			}
		}
		// Importing again updates, never duplicates.
		if again := run("import", "woocommerce-csv", filepath.Join("..", "..", "internal", "importer", "testdata", "products.csv"), "--fetch-images=false"); !strings.Contains(again, "Products: 0 created, 6 updated") {
			t.Errorf("second import:\n%s", again)
		}
		found := false
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
			code, body := get(t, base+"/wp-json/wc/store/v1/products?search=hoodie&per_page=100")
			if code == 200 && strings.Contains(body, `"sku":"HOOD-1"`) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("imported product not served; import said:\n%s", out)
		}
		if code, body := get(t, base+"/product/classic-tee-2/"); code != 200 || !strings.Contains(body, "19.99") {
			t.Errorf("imported simple product page: %d", code)
		}

		// Graceful stop.
		if err := srv.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("server exited with %v:\n%s", err, logs.String())
			}
		case <-time.After(30 * time.Second):
			t.Fatal("server did not stop on SIGTERM")
		}
	})
}
