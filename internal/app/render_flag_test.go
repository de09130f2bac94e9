package app

import (
	"bytes"
	"strings"
	"testing"
)

// TestRenderFlags: --render-procs is off (0) by default and read from the
// flag or VITRINE_RENDER_PROCS; negative or huge counts are refused with a
// message naming both render flags.
func TestRenderFlags(t *testing.T) {
	var errb bytes.Buffer
	if c, _, err := parse(nil, env(nil), &errb); err != nil || c.RenderProcs != 0 || c.RenderWorkers != 0 {
		t.Fatalf("defaults: %d %d %v", c.RenderProcs, c.RenderWorkers, err)
	}
	if c, _, err := parse([]string{"--render-procs", "3"}, env(nil), &errb); err != nil || c.RenderProcs != 3 {
		t.Errorf("--render-procs 3: %d %v", c.RenderProcs, err)
	}
	if c, _, err := parse(nil, env(map[string]string{"VITRINE_RENDER_PROCS": "2"}), &errb); err != nil || c.RenderProcs != 2 {
		t.Errorf("VITRINE_RENDER_PROCS=2: %d %v", c.RenderProcs, err)
	}
	for _, bad := range [][]string{{"--render-procs", "-1"}, {"--render-procs", "1000"}, {"--render-workers", "-3"}} {
		if _, _, err := parse(bad, env(nil), &errb); err == nil || !strings.Contains(err.Error(), "--render-procs") {
			t.Errorf("%v: err %v, want a render flags error", bad, err)
		}
	}
}
