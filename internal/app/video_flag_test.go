package app

import (
	"strings"
	"testing"
)

// --video-load and --video-delay-ms: press by default, viewport on
// request, from the flag or VITRINE_VIDEO_LOAD; anything else refused.
func TestVideoFlags(t *testing.T) {
	c, err := parseFlags(nil, nil)
	if err != nil || c.VideoLoad != "press" || c.VideoDelayMS != 0 {
		t.Fatalf("defaults: %q %d %v", c.VideoLoad, c.VideoDelayMS, err)
	}
	c, err = parseFlags([]string{"--video-delay-ms", "3000"}, map[string]string{"VITRINE_VIDEO_LOAD": "viewport"})
	if err != nil || c.VideoLoad != "viewport" || c.VideoDelayMS != 3000 {
		t.Fatalf("viewport: %q %d %v", c.VideoLoad, c.VideoDelayMS, err)
	}
	for _, args := range [][]string{{"--video-load", "hover"}, {"--video-delay-ms", "-1"}, {"--video-delay-ms", "60001"}} {
		if _, err := parseFlags(args, nil); err == nil || !strings.Contains(err.Error(), "--video-") {
			t.Errorf("%v accepted: %v", args, err)
		}
	}
}
