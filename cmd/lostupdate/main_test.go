package main_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lostupdate/lostupdate/analyzer"
)

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "lostupdate-cmd")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "lostupdate")
	// The no-facts cache of the runs, apart from the user's.
	os.Setenv("LOSTUPDATE_CACHE", filepath.Join(dir, "cache"))
	out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput()
	if err != nil {
		panic("building lostupdate: " + err.Error() + "\n" + string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// run runs the built binary in the test module and returns its output and
// exit code.
func run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = filepath.Join("..", "..", "testdata")
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

func TestFindingsExitCode(t *testing.T) {
	t.Parallel()
	_, stderr, code := run(t, "./staleread")
	if code != 3 {
		t.Errorf("exit code %d, want 3 (findings)\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "stale-read: ") {
		t.Errorf("no stale-read finding in output:\n%s", stderr)
	}
}

func TestCleanExitCode(t *testing.T) {
	t.Parallel()
	_, stderr, code := run(t, "./crd/...")
	if code != 0 {
		t.Errorf("exit code %d on code without findings, want 0\n%s", code, stderr)
	}
}

func TestTypeErrorIsReportedNotPanicked(t *testing.T) {
	t.Parallel()
	_, stderr, code := run(t, "./typeerror")
	if code != 1 {
		t.Errorf("exit code %d, want 1 (errors)", code)
	}
	if !strings.Contains(stderr, "NoSuchField") {
		t.Errorf("type error not reported:\n%s", stderr)
	}
	if strings.Contains(stderr, "panic") || strings.Contains(stderr, "goroutine ") {
		t.Errorf("crashed:\n%s", stderr)
	}
}

func TestJSON(t *testing.T) {
	t.Parallel()
	stdout, stderr, code := run(t, "-json", "-rules=stale-read", "./staleread")
	if code != 0 {
		t.Fatalf("exit code %d with -json, want 0\n%s", code, stderr)
	}
	// {"pkgpath": {"lostupdate": [{"posn": ..., "message": ..., "category": ...}]}}
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal([]byte(stdout), &tree); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	var diags []struct {
		Posn     string `json:"posn"`
		Message  string `json:"message"`
		Category string `json:"category"`
	}
	if err := json.Unmarshal(tree["lostupdate.test/staleread"]["lostupdate"], &diags); err != nil {
		t.Fatalf("no diagnostics for lostupdate.test/staleread: %v\n%s", err, stdout)
	}
	if len(diags) == 0 {
		t.Fatal("no diagnostics")
	}
	for _, d := range diags {
		if d.Category != "stale-read" || !strings.HasPrefix(d.Message, d.Category+": ") {
			t.Errorf("diagnostic %s: category %q, message %q: want the rule as category and message prefix", d.Posn, d.Category, d.Message)
		}
	}
}

func TestBadRuleFlag(t *testing.T) {
	t.Parallel()
	_, stderr, code := run(t, "-rules=no-such-rule", "./staleread")
	if code == 0 || !strings.Contains(stderr, `unknown rule "no-such-rule"`) {
		t.Errorf("exit %d, stderr:\n%s\nwant a failure naming the unknown rule", code, stderr)
	}
}

func TestDisableFlag(t *testing.T) {
	t.Parallel()
	_, stderr, code := run(t, "-rules=stale-read,missing-retry", "-disable=stale-read", "./staleread")
	if code != 0 || strings.Contains(stderr, "stale-read: ") {
		t.Errorf("exit %d, stderr:\n%s\nwant no stale-read findings with -disable=stale-read", code, stderr)
	}
}

// TestTestsFlag checks that test code is reported with -tests only: the
// command loads the test files (its -test flag is on by default), and the
// analyzer leaves their findings out unless asked.
func TestTestsFlag(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		flags []string
		want  bool
	}{{nil, false}, {[]string{"-tests"}, true}} {
		_, stderr, code := run(t, append(tc.flags, "-rules=unconditional-update", "./testcode")...)
		if code != 3 || !strings.Contains(stderr, "testcode.go:") {
			t.Errorf("%v: exit %d, stderr:\n%s\nwant the finding of testcode.go", tc.flags, code, stderr)
		}
		if got := strings.Contains(stderr, "e2e.go:"); got != tc.want { // testcode_test.go has a directive
			t.Errorf("%v: findings in test code: %v, want %v; stderr:\n%s", tc.flags, got, tc.want, stderr)
		}
	}
}

// TestExample checks what the README promises: the bundled example shows a
// finding of every rule. Then it applies the suggested fixes to the copy of
// the example it ran on: the result compiles, and lostupdate accepts the
// fixed sites.
func TestExample(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "example")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(root, "example"))); err != nil {
		t.Fatal(err)
	}
	gomod := filepath.Join(dir, "go.mod")
	data, err := os.ReadFile(gomod)
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.Replace(string(data), "=> ../", "=> "+root+"/", 1))
	if err := os.WriteFile(gomod, data, 0o644); err != nil {
		t.Fatal(err)
	}
	lostupdate := func(args ...string) string {
		cmd := exec.Command(binary, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOPROXY=off")
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	before := lostupdate("./...")
	for _, rule := range analyzer.RuleNames() {
		if !strings.Contains(before, ": "+rule+": ") {
			t.Errorf("the example shows no %s finding:\n%s", rule, before)
		}
	}
	for _, rule := range []string{"unconditional-patch", "stale-read"} {
		if !strings.Contains(before, ": "+rule+": ") {
			t.Fatalf("the example has no %s finding to fix:\n%s", rule, before)
		}
	}
	lostupdate("-fix", "./...")
	build := exec.Command("go", "build", "./...")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOPROXY=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("the fixed example does not compile: %v\n%s", err, out)
	}
	after := lostupdate("./...")
	for _, rule := range []string{"unconditional-patch", "stale-read"} {
		if strings.Contains(after, ": "+rule+": ") {
			t.Errorf("after -fix, lostupdate still reports %s:\n%s", rule, after)
		}
	}
	if !strings.Contains(after, ": stale-retry: ") {
		t.Errorf("after -fix, the findings without a fix are gone too:\n%s", after)
	}
}
