package main_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lostupdate/lostupdate/analyzer"
)

// module writes a module of the given files, with the requirements (and
// go.sum) of the testdata module, and returns its directory.
func module(t *testing.T, dir, path string, files map[string]string) string {
	t.Helper()
	gomod, err := os.ReadFile(filepath.Join("..", "..", "testdata", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	gosum, err := os.ReadFile(filepath.Join("..", "..", "testdata", "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	mod := strings.Replace(string(gomod), "module lostupdate.test", "module "+path, 1)
	files["go.mod"] = mod + files["go.mod"]
	files["go.sum"] = string(gosum)
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runIn runs a binary in dir, without network access to modules.
func runIn(t *testing.T, bin, dir string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOSUMDB=off"), env...)
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

const opsGo = `package ops

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// Label writes back what it read from the watch cache.
func Label(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{ResourceVersion: "0"})
	if err != nil {
		return err
	}
	cm.Labels = map[string]string{"example.com/seen": "true"}
	_, err = cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
	return err
}

// SafeUpdate is a write wrapper; it writes what it is given.
func SafeUpdate(ctx context.Context, cs kubernetes.Interface, cm *corev1.ConfigMap) error {
	_, err := cs.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{})
	return err
}

// Install writes a ConfigMap built from scratch.
func Install(ctx context.Context, cs kubernetes.Interface, ns string) error {
	return SafeUpdate(ctx, cs, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings", Namespace: ns}})
}

var retryImpl func(func() error) error

// Retry is a conflict retry whose retry lostupdate cannot see.
func Retry(fn func() error) error { return retryImpl(fn) }

// Relabel retries an Update of an object read outside the retry.
func Relabel(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	cm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	return Retry(func() error {
		cm.Labels = map[string]string{"example.com/owner": "me"}
		_, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
		return err
	})
}
`

const opsTestGo = `package ops

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

func TestRelabel(t *testing.T) {
	var cs kubernetes.Interface
	if err := relabelInTest(context.Background(), cs); err != nil {
		t.Skip(err)
	}
}

func relabelInTest(ctx context.Context, cs kubernetes.Interface) error {
	cm, err := cs.CoreV1().ConfigMaps("default").Get(ctx, "fixture", metav1.GetOptions{ResourceVersion: "0"})
	if err != nil {
		return err
	}
	cm.Labels = map[string]string{"test": "true"}
	_, err = cs.CoreV1().ConfigMaps("default").Update(ctx, cm, metav1.UpdateOptions{})
	return err
}
`

const opsExternalTestGo = `package ops_test

import (
	"context"

	"k8s.io/client-go/kubernetes"

	"lostupdate.test/ops"
)

func installInTest(ctx context.Context, cs kubernetes.Interface) error {
	return ops.Install(ctx, cs, "default")
}
`

// opsModule is a module with one package, ops, a test file and an external
// test package.
func opsModule(t *testing.T) string {
	return module(t, t.TempDir(), "lostupdate.test", map[string]string{
		"ops/ops.go":        opsGo,
		"ops/ops_test.go":   opsTestGo,
		"ops/ops_x_test.go": opsExternalTestGo,
	})
}

var findingLine = regexp.MustCompile(`^(\S+):(\d+):(\d+): (\S+): `)

// findings returns the finding lines of text output (not the related
// locations, which are indented).
func findings(stderr string) []string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if findingLine.MatchString(l) && !strings.Contains(l, ": \t") {
			out = append(out, l)
		}
	}
	return out
}

func count(lines []string, rule string) int {
	n := 0
	for _, l := range lines {
		if strings.Contains(l, ": "+rule+": ") {
			n++
		}
	}
	return n
}

// TestEachFindingOnce: a file of a package with tests is analysed as part of
// the package and of its test variant; each finding is printed once, in
// file, line and column order.
func TestEachFindingOnce(t *testing.T) {
	dir := opsModule(t)
	_, stderr, code := runIn(t, binary, dir, nil, "-tests", "./ops")
	if code != 3 {
		t.Fatalf("exit %d, want 3\n%s", code, stderr)
	}
	fs := findings(stderr)
	if n := count(fs, "stale-read"); n != 2 {
		t.Errorf("%d stale-read findings, want 2 (ops.go and ops_test.go):\n%s", n, stderr)
	}
	seen := map[string]bool{}
	for _, f := range fs {
		if seen[f] {
			t.Errorf("printed twice: %s", f)
		}
		seen[f] = true
	}
	sorted := slices.SortedFunc(slices.Values(fs), func(a, b string) int {
		ma, mb := findingLine.FindStringSubmatch(a), findingLine.FindStringSubmatch(b)
		if ma[1] != mb[1] {
			return strings.Compare(ma[1], mb[1])
		}
		var la, lb, ca, cb int
		fmt.Sscan(ma[2], &la)
		fmt.Sscan(mb[2], &lb)
		fmt.Sscan(ma[3], &ca)
		fmt.Sscan(mb[3], &cb)
		if la != lb {
			return la - lb
		}
		return ca - cb
	})
	if !slices.Equal(fs, sorted) {
		t.Errorf("findings not in file, line, column order:\n%s", strings.Join(fs, "\n"))
	}
}

func TestTestFlag(t *testing.T) {
	dir := opsModule(t)
	_, stderr, _ := runIn(t, binary, dir, nil, "-tests", "-test=false", "./ops")
	if strings.Contains(stderr, "ops_test.go") {
		t.Errorf("-test=false reports in a test file:\n%s", stderr)
	}
	if count(findings(stderr), "stale-read") != 1 {
		t.Errorf("-test=false: want the one stale-read of ops.go:\n%s", stderr)
	}
}

// TestJSONOnce: -json has the go/analysis shape, a package and its test
// variant under the package's path, and no finding twice.
func TestJSONOnce(t *testing.T) {
	dir := opsModule(t)
	stdout, stderr, code := runIn(t, binary, dir, nil, "-tests", "-json", "./ops")
	if code != 0 {
		t.Fatalf("exit %d with -json, want 0\n%s", code, stderr)
	}
	var tree map[string]map[string][]struct {
		Posn     string `json:"posn"`
		End      string `json:"end"`
		Message  string `json:"message"`
		Category string `json:"category"`
		Related  []struct {
			Posn, Message string
		} `json:"related"`
		SuggestedFixes []struct {
			Message string
			Edits   []struct {
				Filename   string
				Start, End int
				New        string
			}
		} `json:"suggested_fixes"`
	}
	if err := json.Unmarshal([]byte(stdout), &tree); err != nil {
		t.Fatalf("not the go/analysis JSON tree: %v\n%s", err, stdout)
	}
	if len(tree) != 1 || tree["lostupdate.test/ops"] == nil {
		t.Fatalf("packages %v, want only lostupdate.test/ops\n%s", slices.Collect(mapKeys(tree)), stdout)
	}
	diags := tree["lostupdate.test/ops"]["lostupdate"]
	seen := map[string]bool{}
	inTest, fixes := false, 0
	for _, d := range diags {
		k := d.Posn + " " + d.Message
		if seen[k] {
			t.Errorf("twice: %s", k)
		}
		seen[k] = true
		if strings.Contains(d.Posn, "ops_test.go") {
			inTest = true
		}
		if !strings.HasPrefix(d.Message, d.Category+": ") || d.End == "" {
			t.Errorf("%s: category %q, end %q, message %q", d.Posn, d.Category, d.End, d.Message)
		}
		if d.Category == "stale-read" {
			if len(d.Related) == 0 || len(d.SuggestedFixes) == 0 || len(d.SuggestedFixes[0].Edits) == 0 {
				t.Errorf("stale-read %s without related locations or fix: %+v", d.Posn, d)
			}
			fixes++
		}
	}
	if !inTest || fixes != 2 {
		t.Errorf("want the stale-reads of ops.go and ops_test.go, with fixes:\n%s", stdout)
	}
}

func mapKeys[K comparable, V any](m map[K]V) func(func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// TestAnalyzerFlags: each of the analyzer's flags changes what is reported.
func TestAnalyzerFlags(t *testing.T) {
	dir := opsModule(t)
	run := func(args ...string) []string {
		_, stderr, _ := runIn(t, binary, dir, nil, append(args, "./ops")...)
		return findings(stderr)
	}
	base := run()
	if count(base, "unconditional-update") == 0 || count(base, "stale-retry") != 0 {
		t.Fatalf("without flags: want unconditional-update and no stale-retry:\n%s", strings.Join(base, "\n"))
	}
	if fs := run("-safe-writers=lostupdate.test/ops.SafeUpdate"); count(fs, "unconditional-update") != 0 {
		t.Errorf("-safe-writers: the wrapper's write is still reported:\n%s", strings.Join(fs, "\n"))
	}
	if fs := run("-retry-helpers=lostupdate.test/ops.Retry"); count(fs, "stale-retry") != 1 {
		t.Errorf("-retry-helpers: want a stale-retry in Relabel:\n%s", strings.Join(fs, "\n"))
	}
	if fs := run("-rules=stale-read"); len(fs) != count(fs, "stale-read") || len(fs) == 0 {
		t.Errorf("-rules=stale-read:\n%s", strings.Join(fs, "\n"))
	}
	if fs := run("-disable=stale-read"); count(fs, "stale-read") != 0 || len(fs) == 0 {
		t.Errorf("-disable=stale-read:\n%s", strings.Join(fs, "\n"))
	}

	strict := func(args ...string) int {
		_, stderr, _ := run2(t, append(args, "./strictpatch")...)
		return count(findings(stderr), "unconditional-patch")
	}
	if plain, withFlag := strict(), strict("-strict-patch"); withFlag <= plain {
		t.Errorf("-strict-patch: %d unconditional-patch findings, %d without it", withFlag, plain)
	}
	unused := func(args ...string) int {
		_, stderr, _ := run2(t, append(args, "./suppress/unused")...)
		return count(findings(stderr), "unused-directive")
	}
	if plain, withFlag := unused(), unused("-report-unused-directives"); plain != 0 || withFlag == 0 {
		t.Errorf("-report-unused-directives: %d unused-directive findings, %d without it", withFlag, plain)
	}
}

// run2 runs the binary in the testdata module.
func run2(t *testing.T, args ...string) (string, string, int) {
	return run(t, args...)
}

func TestContextLines(t *testing.T) {
	dir := opsModule(t)
	_, stderr, _ := runIn(t, binary, dir, nil, "-c=1", "-rules=stale-read", "-test=false", "./ops")
	if !strings.Contains(stderr, "\tcm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{ResourceVersion: \"0\"})") ||
		!regexp.MustCompile(`(?m)^13\t`).MatchString(stderr) {
		t.Errorf("-c=1: no numbered context lines:\n%s", stderr)
	}
}

// TestBadFlag: one line that names the problem, and a short usage.
func TestBadFlag(t *testing.T) {
	for _, args := range [][]string{{"-disable=stale-reed", "./staleread"}, {"-no-such-flag", "./staleread"}, {"-format=xml", "./staleread"}} {
		_, stderr, code := run(t, args...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != 2 || len(lines) > 5 || !strings.HasPrefix(lines[0], "lostupdate: ") || !strings.Contains(stderr, "usage: lostupdate") {
			t.Errorf("%v: exit %d, want 2, one error line and a short usage:\n%s", args, code, stderr)
		}
		if strings.Contains(stderr, "Fix:") {
			t.Errorf("%v: prints the rules' documentation:\n%s", args, stderr)
		}
	}
	_, stderr, _ := run(t, "-disable=stale-reed", "./staleread")
	if !strings.Contains(stderr, `unknown rule "stale-reed"`) {
		t.Errorf("the error does not name the unknown rule:\n%s", stderr)
	}
}

func TestNoPackages(t *testing.T) {
	_, stderr, code := run(t, "lostupdate.test/no/such/...")
	if code != 1 || !strings.Contains(stderr, "matched no packages") {
		t.Errorf("exit %d, want 1 and a message:\n%s", code, stderr)
	}
	_, stderr, code = run(t, "./no/such/dir")
	if code != 1 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Errorf("exit %d, want 1 and one line:\n%s", code, stderr)
	}
}

// TestVersion: -version and -V print the module version the go command
// stamped into the binary; -V=full adds the build ID go vet keys its cache
// by.
func TestVersion(t *testing.T) {
	out, err := exec.Command("go", "version", "-m", binary).Output()
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\tmod\tgithub.com/lostupdate/lostupdate\t(\S+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("no module version in the binary:\n%s", out)
	}
	want := "lostupdate version " + string(m[1]) + " "
	for _, flag := range []string{"-version", "-V"} {
		stdout, _, code := run(t, flag)
		if code != 0 || !strings.HasPrefix(stdout, want) {
			t.Errorf("%s: exit %d, %q, want it to begin with %q", flag, code, stdout, want)
		}
	}
	data, err := os.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	stdout, _, _ := run(t, "-V=full")
	if id := fmt.Sprintf("buildID=%x\n", sha256.Sum256(data)); !strings.HasPrefix(stdout, want) || !strings.HasSuffix(stdout, id) {
		t.Errorf("-V=full: %q, want %q ... %q", stdout, want, id)
	}
}

// TestNotice: a go command that takes long to list and compile the
// packages is announced on standard error in one line.
func TestNotice(t *testing.T) {
	dir := opsModule(t)
	_, stderr, _ := runIn(t, binary, dir, []string{"LOSTUPDATE_NOTICE_AFTER=0s"}, "./ops")
	if n := strings.Count(stderr, "lostupdate: building the dependencies' export data"); n != 1 ||
		!strings.HasPrefix(stderr, "lostupdate: building") {
		t.Errorf("want the notice once, first:\n%s", stderr)
	}
}

// TestFixDiff: -fix -diff prints the fixes as a unified diff and changes no
// file.
func TestFixDiff(t *testing.T) {
	dir := opsModule(t)
	file := filepath.Join(dir, "ops", "ops.go")
	stdout, stderr, code := runIn(t, binary, dir, nil, "-fix", "-diff", "-test=false", "./ops")
	if code != 0 {
		t.Errorf("exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "--- "+file+" (old)\n+++ "+file+" (new)\n@@ ") ||
		!strings.Contains(stdout, "\n-\tcm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{ResourceVersion: \"0\"})\n") ||
		!strings.Contains(stdout, "\n+\tcm, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})\n") {
		t.Errorf("-diff output:\n%s", stdout)
	}
	if data, _ := os.ReadFile(file); string(data) != opsGo {
		t.Errorf("-fix -diff changed %s", file)
	}
	// -fix applies the same edit, and the result is a fixed point.
	runIn(t, binary, dir, nil, "-fix", "-test=false", "./ops")
	data, _ := os.ReadFile(file)
	if strings.Contains(string(data), `ResourceVersion: "0"`) || !strings.Contains(string(data), "metav1.GetOptions{})") {
		t.Errorf("-fix did not drop ResourceVersion \"0\":\n%s", data)
	}
	if stdout, _, _ := runIn(t, binary, dir, nil, "-fix", "-diff", "-test=false", "./ops"); stdout != "" {
		t.Errorf("a second -fix -diff still has changes:\n%s", stdout)
	}
}

// TestSharedLibrary: a helper in a module of its own that wraps client-go
// (a company's operator library) carries facts to its callers in another
// module, as under the x/tools checker, which loads everything from source.
func TestSharedLibrary(t *testing.T) {
	root := t.TempDir()
	module(t, filepath.Join(root, "lib"), "example.com/kubelib", map[string]string{
		"kube/kube.go": `package kube

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// Save writes the ConfigMap it is given.
func Save(ctx context.Context, cs kubernetes.Interface, cm *corev1.ConfigMap) error {
	_, err := cs.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{})
	return err
}
`,
		// A package that imports no client package itself, only the one above.
		"store/store.go": `package store

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes"

	"example.com/kubelib/kube"
)

// Put saves through kube.Save.
func Put(ctx context.Context, cs kubernetes.Interface, cm *corev1.ConfigMap) error {
	return kube.Save(ctx, cs, cm)
}
`,
	})
	op := module(t, filepath.Join(root, "op"), "example.com/op", map[string]string{
		"go.mod": "\nrequire example.com/kubelib v0.0.0\n\nreplace example.com/kubelib => ../lib\n",
		"op.go": `package op

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"example.com/kubelib/kube"
	"example.com/kubelib/store"
)

func Install(ctx context.Context, cs kubernetes.Interface, ns string) error {
	if err := kube.Save(ctx, cs, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: ns}}); err != nil {
		return err
	}
	return store.Put(ctx, cs, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "b", Namespace: ns}})
}
`,
	})
	_, stderr, code := runIn(t, binary, op, nil, "./...")
	fs := findings(stderr)
	if code != 3 || count(fs, "unconditional-update") != 2 {
		t.Errorf("exit %d, want the two writes through the library reported:\n%s", code, stderr)
	}

	xchecker := filepath.Join(t.TempDir(), "xchecker")
	if out, err := exec.Command("go", "build", "-o", xchecker, "../../bench/xchecker").CombinedOutput(); err != nil {
		t.Fatalf("building bench/xchecker: %v\n%s", err, out)
	}
	_, xstderr, _ := runIn(t, xchecker, op, nil, "./...")
	if got, want := findingsAndRelated(stderr), findingsAndRelated(xstderr); !slices.Equal(got, want) {
		t.Errorf("lostupdate:\n%s\nthe x/tools checker:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestNoFactsCache: a package of another module that carries no facts is
// recorded as such and read from export data by the next run, with the same
// findings; once its code changes, it is analysed again and its new facts
// count.
func TestNoFactsCache(t *testing.T) {
	root := t.TempDir()
	const header = `package names

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

var _ metav1.UpdateOptions
`
	lib := module(t, filepath.Join(root, "lib"), "example.com/kubelib", map[string]string{
		"kube/kube.go": `package kube

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// Save writes the ConfigMap it is given.
func Save(ctx context.Context, cs kubernetes.Interface, cm *corev1.ConfigMap) error {
	_, err := cs.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{})
	return err
}
`,
		// Put writes nothing: no facts. It is not inlined, so that its
		// export data stays the same when its body changes below.
		"names/names.go": header + `
//go:noinline
func Put(ctx context.Context, cs kubernetes.Interface, cm *corev1.ConfigMap) error {
	return nil
}
`,
	})
	op := module(t, filepath.Join(root, "op"), "example.com/op", map[string]string{
		"go.mod": "\nrequire example.com/kubelib v0.0.0\n\nreplace example.com/kubelib => ../lib\n",
		"op.go": `package op

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"example.com/kubelib/kube"
	"example.com/kubelib/names"
)

func Install(ctx context.Context, cs kubernetes.Interface, ns string) error {
	if err := kube.Save(ctx, cs, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: ns}}); err != nil {
		return err
	}
	return names.Put(ctx, cs, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "b", Namespace: ns}})
}
`,
	})
	cache := []string{"LOSTUPDATE_CACHE=" + filepath.Join(root, "cache")}
	check := func(what string, want int) {
		t.Helper()
		_, stderr, code := runIn(t, binary, op, cache, "./...")
		_, uncached, _ := runIn(t, binary, op, []string{"LOSTUPDATE_CACHE=off"}, "./...")
		if n := count(findings(stderr), "unconditional-update"); code != 3 || n != want {
			t.Errorf("%s: exit %d, %d findings, want %d:\n%s", what, code, n, want, stderr)
		}
		if got, want := findingsAndRelated(stderr), findingsAndRelated(uncached); !slices.Equal(got, want) {
			t.Errorf("%s: with the cache:\n%s\nwithout:\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	check("first run", 1)
	recorded, _ := filepath.Glob(filepath.Join(root, "cache", "nofacts", "*", "*"))
	if len(recorded) == 0 {
		t.Errorf("no package recorded as carrying no facts")
	}
	check("second run", 1)
	// Put now writes the ConfigMap it is given: its caller's write is
	// reported.
	if err := os.WriteFile(filepath.Join(lib, "names", "names.go"), []byte(header+`
//go:noinline
func Put(ctx context.Context, cs kubernetes.Interface, cm *corev1.ConfigMap) error {
	_, err := cs.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{})
	return err
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	check("after a change", 2)
}

func findingsAndRelated(stderr string) []string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if findingLine.MatchString(l) || regexp.MustCompile(`^\S+:\d+:\d+: \t`).MatchString(l) {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestSARIF: -format=sarif (and -sarif) print a SARIF 2.1.0 log with every
// rule and its documentation, the findings with their related locations and
// fixes.
func TestSARIF(t *testing.T) {
	dir := opsModule(t)
	stdout, stderr, code := runIn(t, binary, dir, nil, "-tests", "-format=sarif", "./ops")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if other, _, _ := runIn(t, binary, dir, nil, "-tests", "-sarif", "./ops"); other != stdout {
		t.Errorf("-sarif and -format=sarif differ")
	}
	var log struct {
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string
					Rules []struct {
						ID              string
						FullDescription struct{ Text string }
					}
				}
			}
			Results []struct {
				RuleID           string
				RuleIndex        int
				Message          struct{ Text string }
				Locations        []json.RawMessage
				RelatedLocations []json.RawMessage
				Fixes            []struct {
					ArtifactChanges []struct {
						ArtifactLocation struct{ URI string }
						Replacements     []struct {
							DeletedRegion   struct{ CharOffset, CharLength *int }
							InsertedContent struct{ Text string }
						}
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &log); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("version %q, %d runs", log.Version, len(log.Runs))
	}
	r := log.Runs[0]
	docs := analyzer.RuleDocs()
	for i, d := range docs {
		if i >= len(r.Tool.Driver.Rules) || r.Tool.Driver.Rules[i].ID != d.Name ||
			!strings.Contains(r.Tool.Driver.Rules[i].FullDescription.Text, d.Body) {
			t.Errorf("rule %d: want %s with its doc.go text", i, d.Name)
		}
	}
	staleReads := 0
	for _, res := range r.Results {
		if res.RuleIndex >= len(r.Tool.Driver.Rules) || r.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID ||
			!strings.HasPrefix(res.Message.Text, res.RuleID+": ") || len(res.Locations) != 1 {
			t.Errorf("result %+v", res)
		}
		if res.RuleID == "stale-read" {
			staleReads++
			if len(res.RelatedLocations) == 0 || len(res.Fixes) != 1 || len(res.Fixes[0].ArtifactChanges) != 1 ||
				res.Fixes[0].ArtifactChanges[0].ArtifactLocation.URI != "ops/ops.go" && res.Fixes[0].ArtifactChanges[0].ArtifactLocation.URI != "ops/ops_test.go" {
				t.Errorf("stale-read without related locations or its fix: %+v", res)
			}
		}
	}
	if staleReads != 2 {
		t.Errorf("%d stale-read results, want 2", staleReads)
	}
}

// TestREADMETryIt keeps the README's "Try it" block true: the findings of
// the example, in order, each line a prefix of the real one (messages are
// cut short at "...") with the checkout shown as /path/to/lostupdate.
func TestREADMETryIt(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "<!-- try-it:begin")
	block, _, ok2 := strings.Cut(block, "<!-- try-it:end -->")
	if !ok || !ok2 {
		t.Fatal("README.md has no try-it block")
	}
	var want []string
	for _, l := range strings.Split(block, "\n") {
		if findingLine.MatchString(l) {
			want = append(want, l)
		}
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runIn(t, binary, filepath.Join(root, "example"), nil, "./...")
	if code != 3 {
		t.Errorf("exit %d on the example, the README says 3", code)
	}
	got := findings(strings.ReplaceAll(stderr, root, "/path/to/lostupdate"))
	if len(got) != len(want) {
		t.Fatalf("the example has %d findings, the README shows %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		prefix, cut := strings.CutSuffix(want[i], " ...")
		if cut && !strings.HasPrefix(got[i], prefix) || !cut && got[i] != want[i] {
			t.Errorf("README:  %s\nreal:    %s", want[i], got[i])
		}
	}
}
