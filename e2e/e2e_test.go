// Package e2e_test runs lostupdate where users run it: the standalone
// command, go vet -vettool, golangci-lint v2 with the lostupdate module
// plugin, and pre-commit. It is a module of its own so that golangci-lint
// (GPL-3.0, and heavy) never enters the root go.mod.
//
// The tests build the binaries, run them on the bundled example operator and
// on the test module, and check that the three drivers report the same
// findings. They need what ./scripts/test downloads first: the modules of
// this module, of ../example and of ../testdata, and Debian's pre-commit.
// They fail, never skip, when something is missing.
package e2e_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lostupdate/lostupdate/analyzer"
)

var (
	// root is the lostupdate checkout; example and testdata are its
	// bundled modules.
	root     = absPath("..")
	example  = filepath.Join(root, "example")
	testdata = filepath.Join(root, "testdata")

	// bin holds the binaries the tests build; gclCache is golangci-lint's
	// cache, shared by the runs of one test process; tmp is the TMPDIR of
	// every command the tests run.
	bin      string
	gclCache string
	tmp      string
)

func absPath(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		panic(err)
	}
	return a
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "lostupdate-e2e")
	if err != nil {
		panic(err)
	}
	bin = filepath.Join(dir, "bin")
	gclCache = filepath.Join(dir, "golangci-cache")
	// The commands share no temporary files with other processes on the
	// machine: golangci-lint, unless --allow-parallel-runners, locks a file
	// in TMPDIR and gives up after 5 seconds when another golangci-lint
	// holds it.
	tmp = filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is what one command did.
type result struct {
	stdout, stderr string
	code           int
	took           time.Duration
}

// run runs a command in dir with the environment plus env, and logs how
// long it took. The tests work offline: GOPROXY=off; each command's
// temporary files are the test process's own: TMPDIR=tmp.
func run(t *testing.T, dir string, env []string, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GOPROXY=off", "GOLANGCI_LINT_CACHE="+gclCache, "TMPDIR="+tmp), env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	start := time.Now()
	err := cmd.Run()
	r := result{stdout: o.String(), stderr: e.String(), took: time.Since(start)}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	default:
		t.Fatalf("%s: %v", name, err)
	}
	t.Logf("%s %s (in %s): exit %d, %s", filepath.Base(name), strings.Join(args, " "), dir, r.code, r.took.Round(100*time.Millisecond))
	return r
}

// mustRun runs a command that must succeed.
func mustRun(t *testing.T, dir string, env []string, name string, args ...string) result {
	t.Helper()
	r := run(t, dir, env, name, args...)
	if r.code != 0 {
		t.Fatalf("%s %s failed (exit %d):\n%s%s", name, strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return r
}

var (
	buildOnce sync.Once
	buildErr  error
)

// lostupdateBinary builds the lostupdate command of the checkout.
func lostupdateBinary(t *testing.T) string {
	t.Helper()
	path := filepath.Join(bin, "lostupdate")
	buildOnce.Do(func() {
		start := time.Now()
		out, err := exec.Command("go", "build", "-C", root, "-o", path, "./cmd/lostupdate").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("building lostupdate: %v\n%s", err, out)
			return
		}
		t.Logf("building lostupdate took %s", time.Since(start).Round(100*time.Millisecond))
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return path
}

// A finding is what the comparison of drivers looks at: where, and which
// rule (or directive category).
type finding struct {
	file string // slash-separated, relative to the module
	line int
	rule string
}

func (f finding) String() string { return fmt.Sprintf("%s:%d: %s", f.file, f.line, f.rule) }

// findingLine matches the first line of a go/analysis diagnostic in text
// output; related information follows on lines indented with a tab.
var findingLine = regexp.MustCompile(`(?m)^(\S[^\n]*?\.go):(\d+):(\d+): ([a-z][a-z-]*): `)

// parseText extracts the findings from the text output of lostupdate or
// go vet, with file names made relative to module.
func parseText(t *testing.T, module, out string) []finding {
	t.Helper()
	var fs []finding
	for _, m := range findingLine.FindAllStringSubmatch(out, -1) {
		line, _ := strconv.Atoi(m[2])
		fs = append(fs, finding{relFile(t, module, m[1]), line, m[4]})
	}
	return sorted(fs)
}

func relFile(t *testing.T, module, file string) string {
	t.Helper()
	if filepath.IsAbs(file) {
		rel, err := filepath.Rel(module, file)
		if err != nil {
			t.Fatal(err)
		}
		file = rel
	}
	return filepath.ToSlash(filepath.Clean(file))
}

// gclIssue is an issue of golangci-lint's JSON output.
type gclIssue struct {
	FromLinter string
	Text       string
	Pos        struct {
		Filename string
		Line     int
	}
}

// parseGolangci reads golangci-lint's JSON output and returns the findings
// of lostupdate and the other issues (nolintlint's) apart.
func parseGolangci(t *testing.T, module, path string) (lostupdate []finding, others []gclIssue) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out struct{ Issues []gclIssue }
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("golangci-lint JSON: %v\n%s", err, data)
	}
	for _, is := range out.Issues {
		if is.FromLinter != "lostupdate" {
			others = append(others, is)
			continue
		}
		rule, _, ok := strings.Cut(is.Text, ": ")
		if !ok || strings.Contains(rule, " ") {
			t.Errorf("lostupdate issue without a rule prefix: %q", is.Text)
			continue
		}
		lostupdate = append(lostupdate, finding{relFile(t, module, is.Pos.Filename), is.Pos.Line, rule})
	}
	return sorted(lostupdate), others
}

func sorted(fs []finding) []finding {
	sort.Slice(fs, func(i, j int) bool { return fs[i].String() < fs[j].String() })
	return fs
}

func without(fs []finding, drop func(finding) bool) []finding {
	var out []finding
	for _, f := range fs {
		if !drop(f) {
			out = append(out, f)
		}
	}
	return out
}

func format(fs []finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString("\t" + f.String() + "\n")
	}
	if b.Len() == 0 {
		return "\t(none)\n"
	}
	return b.String()
}

// sameFindings fails the test unless each driver reported want.
func sameFindings(t *testing.T, want []finding, got map[string][]finding) {
	t.Helper()
	for driver, fs := range got {
		if format(fs) != format(want) {
			t.Errorf("%s reported\n%swant\n%s", driver, format(fs), format(want))
		}
	}
}

// byRule counts findings per rule, and fails on a finding whose rule is not
// one of lostupdate's (the message prefix users exclude by).
func byRule(t *testing.T, fs []finding) map[string]int {
	t.Helper()
	n := map[string]int{}
	for _, f := range fs {
		if !contains(analyzer.RuleNames(), f.rule) {
			t.Errorf("%s: %q is not a rule name", f, f.rule)
		}
		n[f.rule]++
	}
	return n
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// copyTree copies the files of src to dst, skipping .git, the directories
// skip returns true for, and files that are not regular.
func copyTree(t *testing.T, src, dst string, skip func(rel string, d fs.DirEntry) bool) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if rel != "." && (d.Name() == ".git" || (skip != nil && skip(rel, d))) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		return copyFile(path, target)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	info, err := in.Stat()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, info.Mode().Perm()|0o200)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// rootModuleOnly skips the nested modules of the checkout (example,
// testdata, e2e, ...) and built binaries: what remains is the root module,
// what `go install` and `golangci-lint custom` build from.
func rootModuleOnly(rel string, d fs.DirEntry) bool {
	if !d.IsDir() {
		return false
	}
	if rel == "bin" {
		return true
	}
	_, err := os.Stat(filepath.Join(root, rel, "go.mod"))
	return err == nil
}
