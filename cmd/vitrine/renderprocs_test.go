package main_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestBinaryRenderProcs: with --render-procs 2 the real binary starts two
// render-worker processes, serves a product page whose HTML was rendered on
// the server (the product's title inside the app's root), replaces a worker
// killed after its binary was removed, and when the shop is killed with
// SIGKILL its workers die too.
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
	if _, err := os.Stat(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid)); err != nil {
		t.Skipf("cannot list the shop's child processes: %v", err)
	}
	workers := children(pid)
	if len(workers) != 2 {
		t.Fatalf("child processes %v, want 2 render workers", workers)
	}
	for _, w := range workers {
		cmdline, _ := os.ReadFile("/proc/" + w + "/cmdline")
		if !strings.Contains(string(cmdline), "render-worker") {
			t.Errorf("child %s is %q", w, cmdline)
		}
	}

	// A deploy removes the binary; a worker killed after that is replaced
	// by the same build (started from /proc/self/exe), and pages are still
	// rendered on the server.
	if err := os.Remove(bin); err != nil {
		t.Fatal(err)
	}
	pid0, _ := strconv.Atoi(workers[0])
	if err := syscall.Kill(pid0, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ { // the first may meet the dead worker, and render again on the other
		code, body := get(t, "http://"+addr+"/product/classic-tee/")
		root, _, _ := strings.Cut(body[strings.Index(body, `<div id="root">`)+1:], `<script id="vitrine-data"`)
		if code != 200 || !strings.Contains(root, "Classic Tee") {
			t.Errorf("after a worker was killed: %d, server-rendered app %.300q\n%s", code, root, logs.String())
		}
	}
	if strings.Contains(logs.String(), "server render failed") || strings.Contains(logs.String(), "not replaced") {
		t.Errorf("a render failed, or the worker was not replaced:\n%s", logs.String())
	}
	for deadline := time.Now().Add(30 * time.Second); len(children(pid)) != 2 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	if now := children(pid); len(now) != 2 || slices.Contains(now, workers[0]) {
		t.Errorf("workers %v after %s was killed, want 2 without it", now, workers[0])
	} else {
		workers = now
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

// children lists the processes pid started (each thread's children file
// lists those that thread started).
func children(pid int) []string {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	var ps []string
	for _, task := range tasks {
		raw, _ := os.ReadFile(task)
		ps = append(ps, strings.Fields(string(raw))...)
	}
	return ps
}
