package app

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestRenderFlags: --render-procs is one per CPU by default and read from
// the flag or VITRINE_RENDER_PROCS (0: render in this process); negative or
// huge counts are refused with a message naming both render flags.
func TestRenderFlags(t *testing.T) {
	if c, err := parseFlags(nil, nil); err != nil || c.RenderProcs != runtime.GOMAXPROCS(0) || c.RenderWorkers != 0 {
		t.Fatalf("defaults: %d %d %v", c.RenderProcs, c.RenderWorkers, err)
	}
	if c, err := parseFlags([]string{"--render-procs", "3"}, nil); err != nil || c.RenderProcs != 3 {
		t.Errorf("--render-procs 3: %d %v", c.RenderProcs, err)
	}
	if c, err := parseFlags(nil, map[string]string{"VITRINE_RENDER_PROCS": "0"}); err != nil || c.RenderProcs != 0 {
		t.Errorf("VITRINE_RENDER_PROCS=0: %d %v", c.RenderProcs, err)
	}
	if c, err := parseFlags([]string{"--render-node", "/usr/bin/node"}, nil); err != nil || c.RenderNode != "/usr/bin/node" {
		t.Errorf("--render-node: %q %v", c.RenderNode, err)
	}
	if _, err := parseFlags([]string{"--render-node", "/usr/bin/node", "--render-procs", "0"}, nil); err == nil || !strings.Contains(err.Error(), "--render-node") {
		t.Errorf("--render-node with --render-procs 0: %v, want an error", err)
	}
	for _, bad := range [][]string{{"--render-procs", "-1"}, {"--render-procs", "2000"}, {"--render-workers", "-3"}} {
		if _, err := parseFlags(bad, nil); err == nil || !strings.Contains(err.Error(), "--render-procs") {
			t.Errorf("%v: err %v, want a render flags error", bad, err)
		}
	}
}

// TestServeRenderProcs: the product page is rendered on the server with
// worker processes (this test binary as `vitrine render-worker`, TestMain),
// in this process (--render-procs 0), and in this process again when the
// workers cannot start (a worker command that exits at once).
func TestServeRenderProcs(t *testing.T) {
	serverRendered := func(t *testing.T, base string) {
		t.Helper()
		r, body := fetch(t, "GET", base+"/product/classic-tee/")
		i := strings.Index(body, `<div id="root">`)
		root, _, _ := strings.Cut(body[i+1:], `<script id="vitrine-data"`)
		if r.StatusCode != 200 || i < 0 || !strings.Contains(root, "<h1") || !strings.Contains(root, "Classic Tee") {
			t.Errorf("product page %d, not rendered on the server: %.300q", r.StatusCode, root)
		}
	}
	t.Run("procs", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		metricsAddr := l.Addr().String()
		l.Close()
		serverRendered(t, runServe(t, "--demo", "--render-procs", "2", "--metrics-addr", metricsAddr))
		// Replacements are exported, none so far.
		if r, body := fetch(t, "GET", "http://"+metricsAddr+"/metrics"); r.StatusCode != 200 ||
			!strings.Contains(body, "\nvitrine_render_worker_replacements_total 0\n") {
			t.Errorf("metrics %d without the workers' replacements: %.2000s", r.StatusCode, body)
		}
		// The workers are this process's children running as workers.
		tasks, _ := filepath.Glob("/proc/self/task/*/children")
		workers := 0
		for _, task := range tasks {
			raw, _ := os.ReadFile(task)
			for _, pid := range strings.Fields(string(raw)) {
				if environ, _ := os.ReadFile("/proc/" + pid + "/environ"); strings.Contains(string(environ), renderWorkerEnv+"=1") {
					workers++
				}
			}
		}
		if len(tasks) > 0 && workers != 2 {
			t.Errorf("%d render worker processes, want 2", workers)
		}
	})
	t.Run("in-process", func(t *testing.T) { serverRendered(t, runServe(t, "--demo", "--render-procs", "0")) })
	t.Run("workers fail to start", func(t *testing.T) {
		saved := WorkerCommand
		WorkerCommand = func() *exec.Cmd { return exec.Command("false") }
		t.Cleanup(func() { WorkerCommand = saved })
		serverRendered(t, runServe(t, "--demo", "--render-procs", "2"))
	})
}
