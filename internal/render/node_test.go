package render_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"vitrine/internal/pages"
	"vitrine/internal/render"
)

// testNode is the Node.js the Node worker's tests run: VITRINE_TEST_NODE
// (make test sets it to the Node it builds the web app with), else the
// first node on PATH. Without either the tests cannot run, and say so.
func testNode(t *testing.T) string {
	t.Helper()
	if n := os.Getenv("VITRINE_TEST_NODE"); n != "" {
		return n
	}
	n, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no Node.js: set VITRINE_TEST_NODE (make test does)")
	}
	return n
}

func newNodeWorkers(t *testing.T, bundle string, size int, timeout time.Duration) *render.Workers {
	t.Helper()
	return startWorkers(t, render.WorkersConfig{Size: size, Timeout: timeout, Command: render.NodeWorkerCommand(testNode(t)), Bundle: bundle})
}

// Node's workers render the real bundle's pages byte for byte as the
// built-in engine does: the demo's product and shop pages, cold and warm
// (their server fragments cached), and the first twelve products listed.
func TestNodeWorkersRenderLikeTheEngine(t *testing.T) {
	f := newFixture(t)
	e := newEngine(t, f.bundle, 1)
	ws := newNodeWorkers(t, f.bundle, 1, 0)
	ctx := context.Background()
	type page struct {
		url  string
		data []byte
	}
	list := []page{{"/product/classic-tee/", f.prodRaw}, {"/shop/", f.listRaw}, {"/product/classic-tee/", f.prodRaw}}
	for _, c := range f.listing.Data.(pages.ListingPage).Products[:12] {
		url := "/product/" + c.Slug + "/"
		res, err := f.loader.Product(ctx, url, c.Slug)
		if err != nil {
			t.Fatal(c.Slug, err)
		}
		raw, err := json.Marshal(res.Data)
		if err != nil {
			t.Fatal(err)
		}
		list = append(list, page{url, raw})
	}
	for _, p := range list {
		want, err := e.Render(ctx, p.url, p.data)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ws.Render(ctx, p.url, p.data)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			i := 0
			for i < min(len(got), len(want)) && got[i] == want[i] {
				i++
			}
			t.Errorf("%s: Node's HTML (%d bytes) differs from the engine's (%d bytes) at %d: %.80q / %.80q",
				p.url, len(got), len(want), i, got[i:], want[i:])
		}
		if len(want) < 1000 {
			t.Errorf("%s: %d bytes of HTML", p.url, len(want))
		}
	}
}

// A render that throws is the bundle's error and the worker stays; one
// that never ends is killed at the timeout and replaced; a bundle that
// does not load, or defines no render, fails NewWorkers with why.
func TestNodeWorkersErrors(t *testing.T) {
	ws := newNodeWorkers(t, testBundle, 1, 2*time.Second)
	ctx := context.Background()
	before := ws.Pids()
	if _, err := ws.Render(ctx, "/throw", []byte(`{}`)); err == nil || !strings.Contains(err.Error(), "thrown on purpose") {
		t.Errorf("throw: %v", err)
	}
	if html, err := ws.Render(ctx, "/p/é", []byte(`{"a":"ü"}`)); err != nil || html != `ok /p/é {"a":"ü"}` {
		t.Errorf("render after the error: %q %v", html, err)
	}
	if after := ws.Pids(); !slices.Equal(before, after) {
		t.Errorf("workers changed after a render error: %v -> %v", before, after)
	}
	big := strings.Repeat("x", 300<<10) // past a pipe's buffer both ways
	if html, err := ws.Render(ctx, "/big", []byte(big)); err != nil || html != "ok /big "+big {
		t.Errorf("a 300 KB page: %d bytes, %v", len(html), err)
	}
	if _, err := ws.Render(ctx, "/hang", []byte(`{}`)); err == nil || !strings.Contains(err.Error(), "no answer") {
		t.Errorf("hanging render: %v", err)
	}
	for deadline := time.Now().Add(30 * time.Second); len(ws.Pids()) != 1 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if html, err := ws.Render(ctx, "/p", []byte(`2`)); err != nil || html != "ok /p 2" {
		t.Errorf("render on the replacement: %q %v", html, err)
	}
	if now := ws.Pids(); len(now) != 1 || now[0] == before[0] {
		t.Errorf("workers %v after %v timed out", now, before)
	}

	for bundle, want := range map[string]string{
		"var x = 1;":             "does not define globalThis.render",
		"globalThis.render = (;": "load server bundle: SyntaxError",
	} {
		_, err := render.NewWorkers(render.WorkersConfig{Size: 1, Log: slog.New(slog.DiscardHandler),
			Command: render.NodeWorkerCommand(testNode(t)), Bundle: bundle})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("bundle %q: %v, want %q", bundle, err, want)
		}
	}
}
