package render_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"vitrine/internal/render"
	"vitrine/web"
)

// workerEnv makes this test binary a render worker (TestMain): its value is
// the bundle's file, or "embedded" for the web app's server bundle.
const workerEnv = "VITRINE_TEST_RENDER_WORKER"

func TestMain(m *testing.M) {
	if src := os.Getenv(workerEnv); src != "" {
		os.Exit(runTestWorker(src))
	}
	os.Exit(m.Run())
}

func runTestWorker(src string) int {
	var bundle string
	var err error
	if src == "embedded" {
		bundle, err = web.ServerBundle()
	} else {
		var b []byte
		b, err = os.ReadFile(src)
		bundle = string(b)
	}
	if err == nil {
		err = render.ServeWorker(bundle, os.Stdin, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "test render worker:", err)
		return 1
	}
	return 0
}

// testBundle renders "ok <url> <data>", throws on /throw and loops forever
// on /hang.
const testBundle = `globalThis.render = function (url, json) {
  if (url === '/hang') { for (;;) {} }
  if (url === '/throw') { throw new Error('thrown on purpose'); }
  return 'ok ' + url + ' ' + json;
};`

// newWorkers starts size test workers on bundle ("embedded" or a script).
func newWorkers(t testing.TB, bundle string, size int, timeout time.Duration) *render.Workers {
	t.Helper()
	src := bundle
	if bundle != "embedded" {
		src = filepath.Join(t.TempDir(), "bundle.js")
		if err := os.WriteFile(src, []byte(bundle), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return startWorkers(t, render.WorkersConfig{Size: size, Timeout: timeout, Command: func() *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run", "^$")
		cmd.Env = append(os.Environ(), workerEnv+"="+src)
		return cmd
	}})
}

// startWorkers starts cfg's workers, logging nowhere, closed with the test.
func startWorkers(t testing.TB, cfg render.WorkersConfig) *render.Workers {
	t.Helper()
	cfg.Log = slog.New(slog.DiscardHandler)
	ws, err := render.NewWorkers(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ws.Close)
	return ws
}

// TestWorkersRenderLikeTheEngine: a worker renders the real bundle's
// product and shop pages byte for byte as the in-process engine does.
func TestWorkersRenderLikeTheEngine(t *testing.T) {
	f := newFixture(t)
	e := newEngine(t, f.bundle, 1)
	ws := newWorkers(t, "embedded", 1, 0)
	if ws.Size() != 1 {
		t.Errorf("size %d", ws.Size())
	}
	ctx := context.Background()
	for _, p := range []struct {
		url  string
		data []byte
	}{{"/product/classic-tee/", f.prodRaw}, {"/shop/", f.listRaw}} {
		want, err := e.Render(ctx, p.url, p.data)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2; i++ {
			got, err := ws.Render(ctx, p.url, p.data)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("%s: worker HTML (%d bytes) differs from the engine's (%d bytes)", p.url, len(got), len(want))
			}
		}
		if !strings.Contains(want, "Classic") {
			t.Errorf("%s: no product name in the HTML: %.300s", p.url, want)
		}
	}
}

// TestWorkersRenderErrors: a render that throws is an error from the bundle
// and the worker stays (same pid); a URL with a NUL is refused before any
// worker sees it; a bundle without render() fails NewWorkers with its reason.
func TestWorkersRenderErrors(t *testing.T) {
	ws := newWorkers(t, testBundle, 1, 0)
	ctx := context.Background()
	before := ws.Pids()
	if _, err := ws.Render(ctx, "/throw", []byte(`{}`)); err == nil || !strings.Contains(err.Error(), "thrown on purpose") {
		t.Errorf("throw: %v", err)
	}
	if _, err := ws.Render(ctx, "/a\x00b", []byte(`{}`)); err == nil || !strings.Contains(err.Error(), "NUL") {
		t.Errorf("NUL in the URL: %v", err)
	}
	if html, err := ws.Render(ctx, "/p", []byte(`{"a":1}`)); err != nil || html != `ok /p {"a":1}` {
		t.Errorf("render after errors: %q %v", html, err)
	}
	if after := ws.Pids(); !slices.Equal(before, after) {
		t.Errorf("workers changed after render errors: %v -> %v", before, after)
	}
	_, err := render.NewWorkers(render.WorkersConfig{Size: 1, Log: slog.New(slog.DiscardHandler), Command: func() *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run", "^$")
		src := filepath.Join(t.TempDir(), "bad.js")
		_ = os.WriteFile(src, []byte("var x = 1;"), 0o600)
		cmd.Env = append(os.Environ(), workerEnv+"="+src)
		cmd.Stderr = io.Discard
		return cmd
	}})
	if err == nil || !strings.Contains(err.Error(), "does not define globalThis.render") {
		t.Errorf("bundle without render: %v", err)
	}
	ws.Close()
	if _, err := ws.Render(ctx, "/p", nil); !errors.Is(err, render.ErrWorkersClosed) {
		t.Errorf("render after Close: %v", err)
	}
}

// TestWorkerKilledIsReplaced: a worker killed with SIGKILL is replaced, and
// the next render succeeds (on the replacement).
func TestWorkerKilledIsReplaced(t *testing.T) {
	ws := newWorkers(t, testBundle, 1, 0)
	ctx := context.Background()
	if _, err := ws.Render(ctx, "/p", []byte(`1`)); err != nil {
		t.Fatal(err)
	}
	old := ws.Pids()
	if len(old) != 1 {
		t.Fatalf("pids %v", old)
	}
	if err := syscall.Kill(old[0], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	html, err := ws.Render(ctx, "/p", []byte(`2`))
	if err != nil || html != "ok /p 2" {
		t.Fatalf("render after the kill: %q %v", html, err)
	}
	now := ws.Pids()
	if len(now) != 1 || now[0] == old[0] {
		t.Errorf("workers %v after %v was killed", now, old)
	}
	if n := ws.Replaced(); n != 1 {
		t.Errorf("Replaced() = %d after one worker was killed, want 1", n)
	}
}

// TestWorkerTimeoutKillsOnlyThatWorker: a render that never ends fails at
// the timeout; its worker is killed and replaced, the other one is kept,
// and both then render.
func TestWorkerTimeoutKillsOnlyThatWorker(t *testing.T) {
	ws := newWorkers(t, testBundle, 2, 300*time.Millisecond)
	ctx := context.Background()
	before := ws.Pids()
	if n := ws.Replaced(); n != 0 {
		t.Fatalf("Replaced() = %d before any render", n)
	}
	_, err := ws.Render(ctx, "/hang", []byte(`{}`))
	if err == nil || !strings.Contains(err.Error(), "no answer") {
		t.Fatalf("hanging render: %v", err)
	}
	if n := ws.Replaced(); n != 1 {
		t.Errorf("Replaced() = %d after one render timed out, want 1", n)
	}
	// The replacement starts in the background: wait for it to join.
	for deadline := time.Now().Add(30 * time.Second); len(ws.Pids()) != 2 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	errs := make(chan error, 2)
	for i := range 2 {
		go func() {
			html, err := ws.Render(ctx, "/p", []byte(fmt.Sprint(i)))
			if err == nil && html != fmt.Sprintf("ok /p %d", i) {
				err = fmt.Errorf("html %q", html)
			}
			errs <- err
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	after := ws.Pids()
	kept := 0
	for _, p := range after {
		if slices.Contains(before, p) {
			kept++
		}
	}
	if len(after) != 2 || kept != 1 {
		t.Errorf("workers %v before the timeout, %v after: want one kept and one new", before, after)
	}
	for _, p := range before {
		if !slices.Contains(after, p) {
			if err := syscall.Kill(p, 0); !errors.Is(err, syscall.ESRCH) {
				t.Errorf("timed-out worker %d still exists: %v", p, err)
			}
		}
	}
}
