package analyzer_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lostupdate/lostupdate/analyzer"
)

// testdata is the test module: real client-go, apimachinery and
// controller-runtime code shapes, with // want expectations.
var testdata = filepath.Join("..", "testdata")

// ruleAnalyzer returns an Analyzer that runs only one rule.
func ruleAnalyzer(t *testing.T, rule string) *analyzerT {
	t.Helper()
	a, err := analyzer.New(analyzer.Config{Rules: []string{rule}})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

type analyzerT = analysis.Analyzer

func TestUnconditionalUpdate(t *testing.T) {
	analysistest.Run(t, testdata, ruleAnalyzer(t, "unconditional-update"), "./unconditionalupdate")
}

func TestStaleRetry(t *testing.T) {
	analysistest.Run(t, testdata, ruleAnalyzer(t, "stale-retry"), "./staleretry")
}

func TestMissingRetry(t *testing.T) {
	analysistest.Run(t, testdata, ruleAnalyzer(t, "missing-retry"), "./missingretry")
}

func TestStaleRead(t *testing.T) {
	analysistest.Run(t, testdata, ruleAnalyzer(t, "stale-read"), "./staleread")
}

// TestFacts checks the summaries exported for callers in other packages.
func TestFacts(t *testing.T) {
	a, err := analyzer.New(analyzer.Config{Rules: []string{"unconditional-update"}})
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, testdata, a, "./facts")
}

// TestCrossPackage runs every rule on code that reaches the API only
// through helpers of another package.
func TestCrossPackage(t *testing.T) {
	analysistest.Run(t, testdata, analyzer.Analyzer, "./factsuser")
}

// TestSuppress checks the suppression directives: //nolint (as golangci-lint
// spells and scopes it) and //lostupdate:ignore, the report of directives
// that suppress nothing, and the plugin's mode, which leaves //nolint to
// golangci-lint and omits related information.
func TestSuppress(t *testing.T) {
	newAnalyzer := func(cfg analyzer.Config) *analysis.Analyzer {
		a, err := analyzer.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	t.Run("directives", func(t *testing.T) {
		results := analysistest.Run(t, testdata, analyzer.Analyzer, "./suppress")
		// Related information is kept outside the plugin.
		related := 0
		for _, r := range results {
			for _, d := range r.Diagnostics {
				related += len(d.Related)
			}
		}
		if related == 0 {
			t.Error("no diagnostic has related information; want the read of the stale-retry finding")
		}
	})
	t.Run("unused", func(t *testing.T) {
		analysistest.Run(t, testdata, newAnalyzer(analyzer.Config{ReportUnusedDirectives: true}), "./suppress/unused")
	})
	t.Run("disabled rule", func(t *testing.T) {
		analysistest.Run(t, testdata, newAnalyzer(analyzer.Config{ReportUnusedDirectives: true, Disable: []string{"stale-read"}}), "./suppress/disabled")
	})
	t.Run("plugin mode", func(t *testing.T) {
		a := newAnalyzer(analyzer.Config{ReportUnusedDirectives: true, NolintByDriver: true, OmitRelated: true})
		for _, r := range analysistest.Run(t, testdata, a, "./suppress/driver") {
			for _, d := range r.Diagnostics {
				if len(d.Related) > 0 {
					t.Errorf("%s: related information with OmitRelated: %v", d.Message, d.Related)
				}
			}
		}
	})
}

// TestOpaqueRV runs opaque-rv on code that parses and orders
// resourceVersions, the idioms that must stay silent, helpers in other
// packages (with their facts) and the mechanical suggested fix.
func TestOpaqueRV(t *testing.T) {
	a, err := analyzer.New(analyzer.Config{Rules: []string{"opaque-rv"}})
	if err != nil {
		t.Fatal(err)
	}
	analysistest.RunWithSuggestedFixes(t, testdata, a, "./opaquerv/...")
}

func TestUnconditionalPatch(t *testing.T) {
	analysistest.Run(t, testdata, ruleAnalyzer(t, "unconditional-patch"), "./unconditionalpatch")
}

func TestApplyRetry(t *testing.T) {
	analysistest.Run(t, testdata, ruleAnalyzer(t, "apply-retry"), "./applyretry")
}

func TestUnboundedRetry(t *testing.T) {
	analysistest.Run(t, testdata, ruleAnalyzer(t, "unbounded-retry"), "./unboundedretry")
}

func TestTestOpRetry(t *testing.T) {
	analysistest.Run(t, testdata, ruleAnalyzer(t, "test-op-retry"), "./testopretry")
}

// TestSuggestedFixes applies the mechanical fixes and compares with the
// golden file; TestFixedCodeCompiles builds the golden file.
func TestSuggestedFixes(t *testing.T) {
	a, err := analyzer.New(analyzer.Config{Rules: []string{"unconditional-patch", "stale-read"}})
	if err != nil {
		t.Fatal(err)
	}
	analysistest.RunWithSuggestedFixes(t, testdata, a, "./fixes")
}

func TestFixedCodeCompiles(t *testing.T) {
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

func TestStrictPatch(t *testing.T) {
	a, err := analyzer.New(analyzer.Config{Rules: []string{"unconditional-patch"}, StrictPatch: true})
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, testdata, a, "./strictpatch")
}
