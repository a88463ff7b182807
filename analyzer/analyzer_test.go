package analyzer_test

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lostupdate/lostupdate/analyzer"
)

// testdata is the test module: real client-go, apimachinery and
// controller-runtime code shapes, with // want expectations.
var testdata = filepath.Join("..", "testdata")

// corpus is the rule corpus: a package per rule with the code shapes it
// reports and the safe idioms it must not, the helpers they call in other
// packages (analysed for their summaries, which only facts asserts), the
// summaries exported for callers in other packages (facts, factsuser, the
// retry wrappers and patch helpers of retryshapes/kubeutil, and the patch
// bodies patchbodies/patchbuild builds for another package), the
// suppression directives in the default configuration (suppress), and a
// package with files that import "C" (cgo).
// Every rule runs on all of it, so that each finding a package gets, of any
// rule, is asserted by a // want; a message begins with its rule.
//
// Loading the real client libraries from source is most of the cost of a
// run, so the corpus is one run, and each configuration other than the
// default is a small one of its own.
var corpus = []string{
	"./unconditionalupdate",
	"./staleretry",
	"./missingretry",
	"./staleread",
	"./unconditionalpatch",
	"./mutations",
	"./patchhelpers",
	"./patchhelpers/kubeutil",
	"./applyretry",
	"./unboundedretry",
	"./testopretry",
	"./retryshapes",
	"./retryshapes/kubeutil",
	"./patchbodies",
	"./patchbodies/patchbuild",
	"./facts",
	"./factsuser",
	"./suppress",
	"./cgo",
}

// newAnalyzer returns an Analyzer with the given configuration.
func newAnalyzer(t *testing.T, cfg analyzer.Config) *analysis.Analyzer {
	t.Helper()
	a, err := analyzer.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestRules runs every rule on the rule corpus.
func TestRules(t *testing.T) {
	t.Parallel()
	results := analysistest.Run(t, testdata, analyzer.Analyzer, corpus...)
	allLive(t, results)
	relatedAt(t, results, "unconditional-update: SaveObject updates sa,", "kubeutil.go", "return c.Update(ctx, obj)")
	relatedAt(t, results, "unconditional-update: Save updates facts.NewConfigMap(", "facts.go", ".Update(ctx, obj)")
	// A patch through a wrapper or a patcher names the client call at the
	// end of the chain, in the other package (a module's, for fluxcd's).
	relatedAt(t, results, "unconditional-patch: PatchResource of restore", "kubeutil.go", "c.Patch(context.Background(), updated, client.MergeFrom(original))")
	relatedAt(t, results, "unconditional-patch: finalizeStatus of obj", "patch.go", "h.client.Patch(ctx, afterObject, client.MergeFromWithOptions(beforeObject)")
	// A typed Patch names its object: the read of a value sent is that
	// object's, not another read of the same type.
	// A write through a helper of the package names the helper's client
	// call, not its func line.
	relatedAt(t, results, "missing-retry: writeStatus of deploy", "controllerruntime.go", "r.Status().Update(ctx, deploy)")
	relatedIn(t, results, "scalefrom.go", "read here", "replicas = *dep.Spec.Replicas")
	// A helper's dropped error names the caller that goes on, and its read.
	relatedIn(t, results, "helperread.go", "Reconcile calls markSynced here, and goes on without an error or a requeue", "the call that loses the conflict")
	relatedIn(t, results, "helperread.go", "cm is read here", "r.Get(ctx, req.NamespacedName, &cm)")
	relatedIn(t, results, "deferredpatch.go", "the snapshot the patch is computed from", "original := widget.DeepCopy()")

	// Related information is kept outside the plugin.
	related, seen := 0, false
	for _, r := range results {
		if r.Pass == nil || r.Pass.Pkg.Path() != "lostupdate.test/suppress" {
			continue
		}
		seen = true
		for _, d := range r.Diagnostics {
			related += len(d.Related)
		}
	}
	if !seen {
		t.Fatal("no result for lostupdate.test/suppress")
	}
	if related == 0 {
		t.Error("no diagnostic in suppress has related information; want the read of the stale-retry finding")
	}

	// A missing-retry finding names the read in its related information.
	reads := 0
	for _, r := range results {
		if r.Pass == nil || r.Pass.Pkg.Path() != "lostupdate.test/missingretry" {
			continue
		}
		for _, d := range r.Diagnostics {
			if !strings.HasPrefix(d.Message, "missing-retry: Status().Update of pod ") {
				continue
			}
			for _, rel := range d.Related {
				pos := r.Pass.Fset.Position(rel.Pos)
				if rel.Message != "pod is read here" || filepath.Base(pos.Filename) != "errorpath.go" {
					continue
				}
				src, err := os.ReadFile(pos.Filename)
				if err != nil {
					t.Fatal(err)
				}
				if line := strings.Split(string(src), "\n")[pos.Line-1]; !strings.Contains(line, ".Get(ctx, req.NamespacedName, pod)") {
					t.Errorf("%s: the read is at %q, want the Get", d.Message, line)
				}
				reads++
			}
		}
	}
	if reads == 0 {
		t.Error("no missing-retry finding in missingretry/errorpath.go names the read of pod")
	}

	// An earlier write that refills the object is named as a write, not
	// as a read.
	var rels []string
	for _, r := range results {
		if r.Pass == nil || r.Pass.Pkg.Path() != "lostupdate.test/missingretry" {
			continue
		}
		for _, d := range r.Diagnostics {
			if filepath.Base(r.Pass.Fset.Position(d.Pos).Filename) != "deferredstatus.go" {
				continue
			}
			for _, rel := range d.Related {
				rels = append(rels, fmt.Sprintf("%d: %s", r.Pass.Fset.Position(rel.Pos).Line, rel.Message))
			}
		}
	}
	if want := []string{"24: ns is read here", "36: ns is written here and refilled from the response"}; !slices.Equal(rels, want) {
		t.Errorf("related information of the finding in missingretry/deferredstatus.go:\n got %q\nwant %q", rels, want)
	}

	// A stale retry names the reads before the retry, by the object read
	// (a helper that reads into found, not its error result), and no read
	// that runs only after the retry.
	rels = nil
	for _, r := range results {
		if r.Pass == nil || r.Pass.Pkg.Path() != "lostupdate.test/staleretry" {
			continue
		}
		for _, d := range r.Diagnostics {
			if !strings.HasPrefix(d.Message, "stale-retry: Update inside retry.RetryOnConflict writes found,") {
				continue
			}
			for _, rel := range d.Related {
				rels = append(rels, rel.Message+" at "+strings.TrimSpace(sourceLine(t, r.Pass.Fset.Position(rel.Pos))))
			}
		}
	}
	if want := []string{
		"the retry: retry.RetryOnConflict at if err := retry.RetryOnConflict(retry.DefaultRetry, func() error {",
		"found is read here, outside the retry at if err := r.waitReady(ctx, found); err != nil {",
		"current is written here and refilled from the response, outside the retry at return r.Update(ctx, current)",
	}; !slices.Equal(rels, want) {
		t.Errorf("related information of the stale-retry finding in StatefulSetRollback.scaleDownStale:\n got %q\nwant %q", rels, want)
	}
}

// allLive checks that every unexported function and method of the corpus
// is used somewhere in its package, but in uncalled.go, the test of code
// nothing calls: unexported code that nothing calls is not reported, so a
// safe case that nothing calls would pass whatever the analysis does.
func allLive(t *testing.T, results []*analysistest.Result) {
	t.Helper()
	for _, r := range results {
		if r.Pass == nil {
			continue
		}
		used := map[types.Object]bool{}
		methods := map[string]bool{} // names of methods used: through an interface too
		for id, obj := range r.Pass.TypesInfo.Uses {
			used[obj] = true
			if fn, ok := obj.(*types.Func); ok && fn.Signature().Recv() != nil {
				methods[id.Name] = true
			}
		}
		for _, f := range r.Pass.Files {
			name := r.Pass.Fset.Position(f.Pos()).Filename
			if filepath.Base(name) == "uncalled.go" || !strings.HasSuffix(name, ".go") {
				continue
			}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Name.IsExported() || fd.Name.Name == "init" || fd.Name.Name == "main" {
					continue
				}
				if used[r.Pass.TypesInfo.Defs[fd.Name]] || fd.Recv != nil && methods[fd.Name.Name] {
					continue
				}
				t.Errorf("%s: %s is used nowhere in its package, so nothing it does is reported: call it, or list it in a var _ = []any{...} line", r.Pass.Fset.Position(fd.Pos()), fd.Name.Name)
			}
		}
	}
}

// relatedAt checks that a finding through a helper of another package
// points at the client call at the end of the chain of helpers, not at
// the helper's func line.
func relatedAt(t *testing.T, results []*analysistest.Result, msg, file, line string) {
	t.Helper()
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if !strings.HasPrefix(d.Message, msg) {
				continue
			}
			for _, rel := range d.Related {
				src := r.Pass.Fset.Position(rel.Pos)
				if filepath.Base(src.Filename) == file && strings.Contains(sourceLine(t, src), line) {
					return
				}
			}
			t.Errorf("%s: related %v, want one at %q in %s", d.Message, d.Related, line, file)
			return
		}
	}
	t.Errorf("no finding %q", msg)
}

// sourceLine returns the line of source at a position, or "".
func sourceLine(t *testing.T, pos token.Position) string {
	t.Helper()
	text, err := os.ReadFile(pos.Filename)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(text), "\n")
	if pos.Line < 1 || pos.Line > len(lines) {
		return ""
	}
	return lines[pos.Line-1]
}

// relatedIn checks that the findings in file name msg as related
// information at a line that holds line.
func relatedIn(t *testing.T, results []*analysistest.Result, file, msg, line string) {
	t.Helper()
	n := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if filepath.Base(r.Pass.Fset.Position(d.Pos).Filename) != file {
				continue
			}
			n++
			var got []string
			for _, rel := range d.Related {
				src := r.Pass.Fset.Position(rel.Pos)
				if rel.Message == msg && strings.Contains(sourceLine(t, src), line) {
					got = nil
					break
				}
				got = append(got, fmt.Sprintf("%d: %s", src.Line, rel.Message))
			}
			if got != nil || len(d.Related) == 0 {
				t.Errorf("%s: related %q, want %q at %q", d.Message, got, msg, line)
			}
		}
	}
	if n == 0 {
		t.Errorf("no finding in %s", file)
	}
}

// TestSuggestedFixes applies the mechanical fixes of every rule and compares
// with the golden files: those of opaque-rv (on code that parses and orders
// resourceVersions, with the idioms that must stay silent and helpers in
// other packages) and of unconditional-patch and stale-read (fixes).
// TestFixedCodeCompiles builds the golden file of fixes.
func TestSuggestedFixes(t *testing.T) {
	t.Parallel()
	allLive(t, analysistest.RunWithSuggestedFixes(t, testdata, analyzer.Analyzer, "./opaquerv/...", "./fixes"))
}

func TestFixedCodeCompiles(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs(testdata)
	if err != nil {
		t.Fatal(err)
	}
	goldens, _ := filepath.Glob(filepath.Join(dir, "fixes", "*.go.golden"))
	if len(goldens) == 0 {
		t.Fatal("no golden files")
	}
	replace := map[string]string{}
	for _, g := range goldens {
		replace[strings.TrimSuffix(g, ".golden")] = g
	}
	overlay, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "overlay.json")
	if err := os.WriteFile(path, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-overlay="+path, "./fixes")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the fixed code does not compile: %v\n%s", err, out)
	}
}

// TestSuppress checks the suppression directives beyond the default
// configuration (which TestRules covers with ./suppress): the report of
// directives that suppress nothing, with a rule disabled, and in the
// plugin's mode, which leaves //nolint to golangci-lint and omits related
// information.
func TestSuppress(t *testing.T) {
	t.Parallel()
	t.Run("unused", func(t *testing.T) {
		t.Parallel()
		analysistest.Run(t, testdata, newAnalyzer(t, analyzer.Config{ReportUnusedDirectives: true}), "./suppress/unused")
	})
	t.Run("disabled rule", func(t *testing.T) {
		t.Parallel()
		analysistest.Run(t, testdata, newAnalyzer(t, analyzer.Config{ReportUnusedDirectives: true, Disable: []string{"stale-read"}}), "./suppress/disabled")
	})
	t.Run("plugin mode", func(t *testing.T) {
		t.Parallel()
		a := newAnalyzer(t, analyzer.Config{ReportUnusedDirectives: true, NolintByDriver: true, OmitRelated: true})
		for _, r := range analysistest.Run(t, testdata, a, "./suppress/driver") {
			for _, d := range r.Diagnostics {
				if len(d.Related) > 0 {
					t.Errorf("%s: related information with OmitRelated: %v", d.Message, d.Related)
				}
			}
		}
	})
}

// TestStrictPatch runs unconditional-patch in its strict mode.
func TestStrictPatch(t *testing.T) {
	t.Parallel()
	allLive(t, analysistest.Run(t, testdata, newAnalyzer(t, analyzer.Config{Rules: []string{"unconditional-patch"}, StrictPatch: true}), "./strictpatch"))
}

// TestTests runs lostupdate on test code: left out by default (with the
// directives there, which are not reported unused), reported with
// Config.Tests, but for writes through fake clients.
func TestTests(t *testing.T) {
	t.Parallel()
	t.Run("default", func(t *testing.T) {
		t.Parallel()
		analysistest.Run(t, testdata, newAnalyzer(t, analyzer.Config{ReportUnusedDirectives: true}), "./testcode", "./test/framework")
	})
	t.Run("included", func(t *testing.T) {
		t.Parallel()
		allLive(t, analysistest.Run(t, testdata, newAnalyzer(t, analyzer.Config{Tests: true, ReportUnusedDirectives: true}), "./testcode/included", "./testcode/included/e2e/fixture"))
	})
}
