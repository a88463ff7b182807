package analyzer_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lostupdate/lostupdate/analyzer"
)

// TestReportSkipped checks that -report-skipped reports a function skipped for its size: a
// function of more than MaxInstrs SSA instructions, generated into a copy of
// the test module, next to a small one with the same finding.
func TestReportSkipped(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, f := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(testdata, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var src strings.Builder
	src.WriteString(`package large

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

var gvr = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}

func step() {}

// small is analysed: its unconditional Update is reported.
func small(ctx context.Context, dc dynamic.Interface, ns string) error {
	obj := &unstructured.Unstructured{}
	obj.SetName("widget")
	_, err := dc.Resource(gvr).Namespace(ns).Update(ctx, obj, metav1.UpdateOptions{}) // want "^unconditional-update: "
	return err
}

// helper is called only by large: the calls of a function over the cap are
// unknown, so helper is not taken for code that nothing calls, and its
// unconditional Update is reported.
func helper(ctx context.Context, dc dynamic.Interface, ns string) error {
	obj := &unstructured.Unstructured{}
	obj.SetName("gadget")
	_, err := dc.Resource(gvr).Namespace(ns).Update(ctx, obj, metav1.UpdateOptions{}) // want "^unconditional-update: "
	return err
}

// large makes the same Update, in a function over the size cap: it is
// skipped, and -report-skipped says so.
`)
	fmt.Fprintf(&src, "func large(ctx context.Context, dc dynamic.Interface, ns string) error { // want `^skipped: large is not analysed: it has [0-9]+ SSA instructions, over the cap of %d, so no finding in it is reported$`\n", analyzer.MaxInstrs)
	src.WriteString("\tobj := &unstructured.Unstructured{}\n\tobj.SetName(\"widget\")\n\tif err := helper(ctx, dc, ns); err != nil {\n\t\treturn err\n\t}\n")
	// A call is one SSA instruction.
	for range analyzer.MaxInstrs {
		src.WriteString("\tstep()\n")
	}
	src.WriteString("\t_, err := dc.Resource(gvr).Namespace(ns).Update(ctx, obj, metav1.UpdateOptions{})\n\treturn err\n}\n")
	pkg := filepath.Join(dir, "large")
	if err := os.Mkdir(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkg, "large.go"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, dir, newAnalyzer(t, analyzer.Config{ReportSkipped: true}), "./large")
}
