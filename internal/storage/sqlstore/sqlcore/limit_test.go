package sqlcore

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestLimitWritesTheNumber(t *testing.T) {
	for n, want := range map[int]string{0: " LIMIT 0", 4: " LIMIT 4", 501: " LIMIT 501"} {
		if got := Limit(n); got != want {
			t.Errorf("Limit(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestNoBoundLimits keeps every store statement's LIMIT in its text
// (Limit): a bound limit makes SQLite compile a statement again on each run.
func TestNoBoundLimits(t *testing.T) {
	bound := regexp.MustCompile(`(?i)\bLIMIT\s+(\?|\$\d)`)
	root := filepath.Join("..")
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || d.Name() == "limit.go" {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if bound.MatchString(line) {
				found = append(found, fmt.Sprintf("%s:%d: %s", path, i+1, strings.TrimSpace(line)))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) > 0 {
		t.Errorf("statements with a bound LIMIT (write it with sqlcore.Limit):\n%s", strings.Join(found, "\n"))
	}
}
