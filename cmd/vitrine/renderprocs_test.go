package main_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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

// TestBinaryRenderNode: with --render-node the real binary's render
// workers are Node.js processes, given the bundle by the shop, and its
// product and shop pages are the ones the built-in engine renders, byte
// for byte once the per-request values (nonces) are masked.
func TestBinaryRenderNode(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	node := os.Getenv("VITRINE_TEST_NODE")
	if node == "" {
		var err error
		if node, err = exec.LookPath("node"); err != nil {
			t.Skip("no Node.js: set VITRINE_TEST_NODE (make test does)")
		}
	}
	bin := buildBinary(t)
	db := filepath.Join(t.TempDir(), "v.db")
	qjs, nodeAddr := freeAddr(t), freeAddr(t)
	srv, logs, _ := serve(t, bin, nodeAddr, "sqlite:"+db, nil, "--demo", "--cache-mb", "0", "--render-procs", "1", "--render-node", node)
	_, qlogs, _ := serve(t, bin, qjs, "sqlite:"+db, nil, "--demo", "--cache-mb", "0", "--render-procs", "1")
	workers := children(srv.Process.Pid)
	if len(workers) != 1 {
		t.Fatalf("child processes %v, want one render worker", workers)
	}
	if exe, err := os.Readlink("/proc/" + workers[0] + "/exe"); err != nil || !strings.Contains(filepath.Base(exe), "node") {
		t.Errorf("the render worker runs %q (%v), not Node.js", exe, err)
	}
	nonce := regexp.MustCompile(`"(nonce|[a-z_]*nonce)":"[^"]*"|nonce="[^"]*"|127\.0\.0\.1:\d+`)
	for _, url := range []string{"/product/classic-tee/", "/shop/", "/", "/product-category/clothing/", "/contact/"} {
		code, got := get(t, "http://"+nodeAddr+url)
		_, want := get(t, "http://"+qjs+url)
		root, _, _ := strings.Cut(got[strings.Index(got, `<div id="root">`)+1:], `<script id="vitrine-data"`)
		if code != 200 || !strings.Contains(root, "<h1") {
			t.Errorf("%s: %d, server-rendered app %.300q\n%s", url, code, root, logs.String())
		}
		if g, w := nonce.ReplaceAllString(got, "…"), nonce.ReplaceAllString(want, "…"); g != w {
			i := 0
			for i < min(len(g), len(w)) && g[i] == w[i] {
				i++
			}
			t.Errorf("%s: Node's page differs from the built-in engine's at %d: %.120q / %.120q", url, i, g[i:], w[i:])
		}
	}
	for _, l := range []string{logs.String(), qlogs.String()} {
		if strings.Contains(l, "server render failed") || strings.Contains(l, "unavailable") {
			t.Errorf("a render failed:\n%s", l)
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
