package app

import (
	"bytes"
	"strings"
	"testing"
)

// --video-load and --video-delay-ms: press by default, viewport on
// request, from the flag or VITRINE_VIDEO_LOAD; anything else refused.
func TestVideoFlags(t *testing.T) {
	var errb bytes.Buffer
	c, _, err := parse(nil, env(nil), &errb)
	if err != nil || c.VideoLoad != "press" || c.VideoDelayMS != 0 {
		t.Fatalf("defaults: %q %d %v", c.VideoLoad, c.VideoDelayMS, err)
	}
	c, _, err = parse([]string{"--video-delay-ms", "3000"}, env(map[string]string{"VITRINE_VIDEO_LOAD": "viewport"}), &errb)
	if err != nil || c.VideoLoad != "viewport" || c.VideoDelayMS != 3000 {
		t.Fatalf("viewport: %q %d %v", c.VideoLoad, c.VideoDelayMS, err)
	}
	for _, args := range [][]string{{"--video-load", "hover"}, {"--video-delay-ms", "-1"}, {"--video-delay-ms", "60001"}} {
		if _, _, err := parse(args, env(nil), &errb); err == nil || !strings.Contains(err.Error(), "--video-") {
			t.Errorf("%v accepted: %v", args, err)
		}
	}
}
