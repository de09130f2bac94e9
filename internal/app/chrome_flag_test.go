package app

import (
	"strings"
	"testing"
)

// The site chrome's flags: the store notice and hide-on-scroll.
func TestStoreNoticeFlag(t *testing.T) {
	c, err := parseFlags(nil, nil)
	if err != nil || c.storeNotice != nil || c.HeaderHideOnScroll {
		t.Fatalf("defaults: notice %+v hide %v err %v", c.storeNotice, c.HeaderHideOnScroll, err)
	}
	c, err = parseFlags([]string{"--store-notice", "Free shipping <strong>this week</strong><script>alert(1)</script>", "--header-hide-on-scroll"}, nil)
	if err != nil || c.storeNotice == nil || !c.HeaderHideOnScroll {
		t.Fatalf("flags: %+v %v %v", c.storeNotice, c.HeaderHideOnScroll, err)
	}
	if c.storeNotice.HTML != "Free shipping <strong>this week</strong>" || len(c.storeNotice.ID) != 32 {
		t.Fatalf("notice: %+v", c.storeNotice)
	}
	e, err := parseFlags(nil, map[string]string{"VITRINE_STORE_NOTICE": "Closed on Monday", "VITRINE_HEADER_HIDE_ON_SCROLL": "true"})
	if err != nil || e.storeNotice == nil || e.storeNotice.HTML != "Closed on Monday" || !e.HeaderHideOnScroll {
		t.Fatalf("env: %+v %v %v", e.storeNotice, e.HeaderHideOnScroll, err)
	}
	if e.storeNotice.ID == c.storeNotice.ID {
		t.Fatal("two texts, one id")
	}
	for _, bad := range []struct{ text, want string }{
		{"<script>alert(1)</script>", "no text left"},
		{"<img src=x onerror=alert(1)>", "no text left"},
		{strings.Repeat("a", 2001), "at most 2000"},
	} {
		if _, err := parseFlags([]string{"--store-notice", bad.text}, nil); err == nil || !strings.Contains(err.Error(), bad.want) ||
			!strings.HasPrefix(err.Error(), "--store-notice: ") {
			t.Errorf("%.30q: %v", bad.text, err)
		}
	}
	if c, err := parseFlags([]string{"--store-notice", "   "}, nil); err != nil || c.storeNotice != nil {
		t.Errorf("blank: %+v %v", c.storeNotice, err)
	}
}
