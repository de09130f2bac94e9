package render

import (
	"context"
	"sync"
	"testing"
)

// A slow render: each call spins a little so calls overlap.
const slowBundle = `globalThis.render = (url, json) => { const t = Date.now(); while (Date.now() - t < 30) {} return url; };`

func TestEngineMakesVMsAsRendersOverlap(t *testing.T) {
	e, err := NewEngine(slowBundle, 3)
	if err != nil {
		t.Fatal(err)
	}
	if e.made != 1 || e.Size() != 3 {
		t.Fatalf("a new engine made %d VMs (size %d); want 1 of 3", e.made, e.Size())
	}
	// One render at a time keeps to the first VM.
	for range 3 {
		if out, err := e.Render(context.Background(), "/a", []byte("{}")); err != nil || out != "/a" {
			t.Fatalf("render: %q %v", out, err)
		}
	}
	if e.made != 1 {
		t.Fatalf("serial renders made %d VMs", e.made)
	}
	// Overlapping renders make more, never past size.
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if out, err := e.Render(context.Background(), "/b", []byte("{}")); err != nil || out != "/b" {
				t.Errorf("render: %q %v", out, err)
			}
		})
	}
	wg.Wait()
	if e.made < 2 || e.made > 3 {
		t.Fatalf("overlapping renders made %d VMs; want 2 or 3", e.made)
	}
	e.Close()
	if e.made != 0 || len(e.pool) != 0 {
		t.Fatalf("after close: %d made, %d idle", e.made, len(e.pool))
	}
}

func TestEngineRefusesABadBundle(t *testing.T) {
	if _, err := NewEngine(`globalThis.notRender = 1;`, 2); err == nil {
		t.Fatal("a bundle without render was accepted")
	}
	if _, err := NewEngine(`this is not JavaScript`, 2); err == nil {
		t.Fatal("a bundle that does not parse was accepted")
	}
}
