package main_test

import (
	"strings"
	"testing"
)

// TestCgoFile: a file that imports "C" is analysed, although the driver
// hands the analyzer cgo's translation of it, marked as generated; a
// generated file that imports "C" is not. -fix leaves the fixes of such a
// file alone, and says so: their offsets are those of the translation.
func TestCgoFile(t *testing.T) {
	t.Parallel()
	_, stderr, code := run(t, "./cgo")
	if code != 3 {
		t.Errorf("exit code %d, want 3 (findings)\n%s", code, stderr)
	}
	for _, want := range []string{"cgo/agent.go:38:13: unconditional-update: ", "cgo/agent.go:62:13: unconditional-patch: "} {
		if !strings.Contains(stderr, want) {
			t.Errorf("no finding %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "generated.go") {
		t.Errorf("a finding in a generated file:\n%s", stderr)
	}
	stdout, stderr, _ := run(t, "-fix", "-diff", "./cgo")
	if stdout != "" {
		t.Errorf("-fix -diff changes a file that imports \"C\":\n%s", stdout)
	}
	if !strings.Contains(stderr, `1 fixes left out in files that import "C"`) {
		t.Errorf("-fix -diff does not say it left a fix out:\n%s", stderr)
	}
}
