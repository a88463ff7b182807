package analyzer_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lostupdate/lostupdate/analyzer"
)

// TestLegacyClients runs every rule on code written against old releases
// of the client libraries, each a module of its own under testdata/legacy
// that requires the real release: client-go v0.17 (typed and dynamic
// clients without a context or write options) and controller-runtime v0.12
// (Reader.Get without options, the StatusWriter of Status()).
func TestLegacyClients(t *testing.T) {
	t.Parallel()
	for _, mod := range []string{"clientgo017", "crv012"} {
		t.Run(mod, func(t *testing.T) {
			t.Parallel()
			allLive(t, analysistest.Run(t, filepath.Join(testdata, "legacy", mod), analyzer.Analyzer, "./..."))
		})
	}
}
