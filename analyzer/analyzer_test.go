package analyzer_test

import (
	"path/filepath"
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
