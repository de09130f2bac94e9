package main_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestBinaryRenderProcs: with --render-procs 2 the real binary starts two
// render-worker processes, serves a product page whose HTML was rendered on
// the server (the product's title inside the app's root), and when the
// shop is killed with SIGKILL its workers die too.
func TestBinaryRenderProcs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	addr := freeAddr(t)
	srv, logs, _ := serve(t, bin, addr, "sqlite:"+filepath.Join(t.TempDir(), "v.db"), nil, "--demo", "--cache-mb", "0", "--render-procs", "2")
	for _, url := range []string{"/product/classic-tee/", "/product/classic-tee/?x=1"} {
		code, body := get(t, "http://"+addr+url)
		root, _, _ := strings.Cut(body[strings.Index(body, `<div id="root">`)+1:], `<script id="vitrine-data"`)
		if code != 200 || !strings.Contains(root, "<h1") || !strings.Contains(root, "Classic Tee") {
			t.Errorf("%s: %d, server-rendered app %.300q\n%s", url, code, root, logs.String())
		}
	}
	if strings.Contains(logs.String(), "server render failed") {
		t.Errorf("a render failed:\n%s", logs.String())
	}

	pid := srv.Process.Pid
	// A thread's children file lists the processes that thread started.
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	if err != nil || len(tasks) == 0 {
		t.Skipf("cannot list the shop's child processes: %v", err)
	}
	var workers []string
	for _, task := range tasks {
		raw, _ := os.ReadFile(task)
		workers = append(workers, strings.Fields(string(raw))...)
	}
	if len(workers) != 2 {
		t.Fatalf("child processes %v, want 2 render workers", workers)
	}
	for _, w := range workers {
		cmdline, _ := os.ReadFile("/proc/" + w + "/cmdline")
		if !strings.Contains(string(cmdline), "render-worker") {
			t.Errorf("child %s is %q", w, cmdline)
		}
	}
	if err := srv.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	gone := func(w string) bool {
		stat, err := os.ReadFile("/proc/" + w + "/stat")
		if err != nil {
			return true
		}
		// A zombie (state Z) is dead, waiting for init to reap it.
		_, rest, _ := strings.Cut(string(stat), ") ")
		return strings.HasPrefix(rest, "Z")
	}
	for _, w := range workers {
		for deadline := time.Now().Add(10 * time.Second); !gone(w) && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
		if !gone(w) {
			t.Errorf("render worker %s outlived the shop", w)
		}
	}
}
