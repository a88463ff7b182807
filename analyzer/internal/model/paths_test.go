package model

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// modelPath is the import path of this package.
const modelPath = "github.com/lostupdate/lostupdate/analyzer/internal/model"

// libraryPath reports whether s holds the package path of a library of the
// catalog: at its start, after a parenthesis or a star (a method's full
// name), a space or a quote.
func libraryPath(s string) (string, bool) {
	for _, lib := range Libraries {
		for i := 0; i+len(lib) <= len(s); i++ {
			if !strings.HasPrefix(s[i:], lib) {
				continue
			}
			if i == 0 || strings.ContainsRune("(* \"`'", rune(s[i-1])) {
				return lib, true
			}
		}
	}
	return "", false
}

// pathConsts returns the names of the constants of package model whose
// value is a library path: MetaV1, CRClient, ...
func pathConsts(t *testing.T) map[string]bool {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if i >= len(vs.Values) {
						continue
					}
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						if v, err := strconv.Unquote(lit.Value); err == nil {
							if _, ok := libraryPath(v); ok {
								out[n.Name] = true
							}
						}
					}
				}
			}
		}
	}
	return out
}

// libraryNames returns a message for every string literal of a file that
// holds a library path and every concatenation that builds a name from a
// path constant of package model (model.CRClient + ".Get").
func libraryNames(fset *token.FileSet, f *ast.File, consts map[string]bool) []string {
	local := ""
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == modelPath {
			local = "model"
			if imp.Name != nil {
				local = imp.Name.Name
			}
		}
	}
	isConst := func(e ast.Expr) bool {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok || local == "" {
			return false
		}
		id, ok := sel.X.(*ast.Ident)
		return ok && id.Name == local && consts[sel.Sel.Name]
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.ImportSpec:
			return false // importing a library is using it, not naming it
		case *ast.BasicLit:
			if x.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(x.Value)
			if err != nil {
				return true
			}
			if lib, ok := libraryPath(s); ok {
				out = append(out, fset.Position(x.Pos()).String()+": literal names "+lib+": "+x.Value)
			}
		case *ast.BinaryExpr:
			if x.Op == token.ADD && (isConst(x.X) || isConst(x.Y)) {
				out = append(out, fset.Position(x.Pos()).String()+": builds a name from a library path of package model")
			}
		}
		return true
	})
	return out
}

// TestLibraryPathsOnlyInModel holds the rest of lostupdate to naming the
// libraries it models only through the queries of package model: no Go
// file of the root module outside package model (tests and testdata
// aside) spells a library path or builds a full name from one.
func TestLibraryPathsOnlyInModel(t *testing.T) {
	consts := pathConsts(t)
	if !consts["CRClient"] || !consts["MetaV1"] {
		t.Fatalf("path constants of package model not found: %v", consts)
	}
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal(err)
	}
	here, _ := filepath.Abs(".")
	fset := token.NewFileSet()
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path == here || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && path != root {
				return filepath.SkipDir // another module: example, e2e, ...
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		checked++
		for _, msg := range libraryNames(fset, f, consts) {
			t.Error(strings.TrimPrefix(msg, root+string(filepath.Separator)))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 10 {
		t.Fatalf("only %d files checked under %s", checked, root)
	}
}

// TestLibraryNamesFound makes sure the check above finds what it must.
func TestLibraryNamesFound(t *testing.T) {
	consts := map[string]bool{"CRClient": true, "Runtime": true}
	for _, tc := range []struct {
		name, src string
		want      int
	}{
		{"path literal", `package p; var s = "k8s.io/api/core/v1"`, 1},
		{"function name", `package p; func f(n string) bool { return n == "sigs.k8s.io/yaml.Marshal" }`, 1},
		{"method name", `package p; var s = "(*github.com/evanphx/json-patch/v5.Patch).Apply"`, 1},
		{"case list", `package p; func f(n string) { switch n { case "strconv.Atoi", "gopkg.in/evanphx/json-patch.v4.MergePatch": } }`, 1},
		{"prefix", `package p; import "strings"; func f(p string) bool { return strings.HasPrefix(p, "go.etcd.io/etcd/") }`, 1},
		{"raw string", "package p; var s = `k8s.io/client-go/util/retry.RetryOnConflict`", 1},
		{"built name", `package p; import "github.com/lostupdate/lostupdate/analyzer/internal/model"; var s = model.CRClient + ".Get"`, 1},
		{"built method", `package p; import "github.com/lostupdate/lostupdate/analyzer/internal/model"; var s = "(*" + model.Runtime + ".Scheme).Convert"`, 1},
		{"renamed import", `package p; import m "github.com/lostupdate/lostupdate/analyzer/internal/model"; var s = m.CRClient + ".Get"`, 1},
		{"stdlib", `package p; var s = []string{"strconv.Atoi", "encoding/json.Marshal", "(time.Time).After"}`, 0},
		{"import", `package p; import _ "k8s.io/api/core/v1"`, 0},
		{"other constant", `package p; import "github.com/lostupdate/lostupdate/analyzer/internal/model"; var s = model.DeepCopy + "()"`, 0},
		{"inside a word", `package p; var s = "example.com/k8s.io/x"`, 0},
		{"comment", "package p\n// k8s.io/api/core/v1\nvar s = 1", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, "p.go", tc.src, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			if got := libraryNames(fset, f, consts); len(got) != tc.want {
				t.Errorf("found %d, want %d: %q", len(got), tc.want, got)
			}
		})
	}
}

// TestTestSupportDir checks the directory names of test code, and names
// that only look like them.
func TestTestSupportDir(t *testing.T) {
	for rel, want := range map[string]bool{
		"test/framework":              true,
		"test/e2e/fixture":            true,
		"e2e":                         true,
		"pkg/util/testutil":           true,
		"internal/testing":            true,
		"integrationtests/gitjob":     true,
		"pkg/conformance_test":        true,
		"job-scheduler/internal/test": true,
		"operator/pkg/testing":        true,
		"":                            false,
		"pkg/controller":              false,
		"testcode":                    false,
		"pkg/latest":                  false,
		"internal/envtest":            false,
		"pkg/controller/contest":      false,
		"cmd/tester":                  false,
		"controllers/tests":           false,
		"pkg/controller/tests":        false,
	} {
		if got := IsTestSupportDir(rel); got != want {
			t.Errorf("IsTestSupportDir(%q) = %v, want %v", rel, got, want)
		}
	}
	for path, want := range map[string]string{
		"github.com/prometheus-operator/prometheus-operator/test/framework": "test/framework",
		"github.com/acme/test-operator":                                     "",
		"sigs.k8s.io/kueue/test/util":                                       "test/util",
		"k8s.io/kubernetes/test/e2e":                                        "test/e2e",
		"lostupdate.test/testcode":                                          "",
		"example/test":                                                      "example/test",
	} {
		if got := WithinRepo(path); got != want {
			t.Errorf("WithinRepo(%q) = %q, want %q", path, got, want)
		}
	}
}
