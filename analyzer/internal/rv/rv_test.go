package rv_test

import (
	"go/types"
	"slices"
	"strings"
	"testing"

	"github.com/lostupdate/lostupdate/analyzer/internal/rv"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssatest"
)

// facts are the facts of other packages' functions and fields, by full
// name.
type facts struct {
	funcs  map[string]*rv.FuncFact
	fields map[string]*rv.FieldFact
}

func (f facts) FuncFact(fn *types.Func) *rv.FuncFact { return f.funcs[fn.FullName()] }

func (f facts) FieldFact(v *types.Var) *rv.FieldFact {
	if v.Pkg() == nil {
		return nil
	}
	return f.fields[v.Pkg().Path()+"."+v.Name()]
}

// metav1 is a stub of apimachinery's meta/v1: ObjectMeta and its
// resourceVersion, by the model's names.
const metav1 = `package v1

type ObjectMeta struct {
	Name            string
	ResourceVersion string
}

func (m *ObjectMeta) GetResourceVersion() string { return m.ResourceVersion }
`

const metav1Path = "k8s.io/apimachinery/pkg/apis/meta/v1"

// analyze builds src and follows its resourceVersions.
func analyze(t *testing.T, src string, f facts) (*ssatest.Package, *rv.Result) {
	t.Helper()
	p := ssatest.Build(t, src, map[string]string{
		metav1Path:         metav1,
		"example.com/kube": "package kube\n\nfunc Version() string { return \"\" }\n",
	})
	return p, rv.Analyze(p.SSA, p.Funcs(), f)
}

// found describes each finding as "function: kind what (source kinds)".
func found(res *rv.Result) []string {
	var out []string
	for _, f := range res.Findings {
		var srcs []string
		for _, s := range f.Sources {
			srcs = append(srcs, s.Name)
		}
		out = append(out, f.Instr.Parent().Name()+": "+f.Kind.String()+" "+f.What+" ("+strings.Join(srcs, ", ")+")")
	}
	slices.Sort(out)
	return out
}

func TestFindings(t *testing.T) {
	_, res := analyze(t, `package test

import (
	"sort"
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A parameter named like a resourceVersion, parsed and compared.
func newer(rv, lastRV string) bool {
	a, _ := strconv.ParseUint(rv, 10, 64)
	b, _ := strconv.ParseUint(lastRV, 10, 64)
	return a > b
}

// The field of ObjectMeta, ordered as a string.
func olderThan(m *metav1.ObjectMeta, seen string) bool {
	return m.ResourceVersion < seen
}

// GetResourceVersion, through a local helper that parses its argument.
func asNumber(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func number(m *metav1.ObjectMeta) int {
	return asNumber(m.GetResourceVersion())
}

// resourceVersions sorted.
func sorted(m1, m2 *metav1.ObjectMeta) []string {
	vs := []string{m1.ResourceVersion, m2.ResourceVersion}
	sort.Strings(vs)
	return vs
}

// Silent: equality is what resourceVersions support.
func same(m *metav1.ObjectMeta, rv string) bool {
	return m.ResourceVersion == rv
}

// Silent: numbers that are not versions.
func count(replicas string) int {
	n, _ := strconv.Atoi(replicas)
	return n
}

// Silent: names ordered.
func before(m1, m2 *metav1.ObjectMeta) bool {
	return m1.Name < m2.Name
}
`, facts{})
	got := found(res)
	want := []string{
		"asNumber: parses strconv.Atoi (GetResourceVersion)",
		"newer: parses strconv.ParseUint (rv, lastRV)",
		"olderThan: orders < (ResourceVersion)",
		"sorted: orders sort.Strings (ResourceVersion, ResourceVersion)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	for _, f := range res.Findings {
		switch f.Instr.Parent().Name() {
		case "newer":
			if len(f.Merged) != 1 || len(f.Uses) == 0 {
				t.Errorf("newer: %d merged parses, %d uses; want the other parse, whose number it is compared with, and the comparison", len(f.Merged), len(f.Uses))
			}
			for _, s := range f.Sources {
				if s.Kind != rv.FromName {
					t.Errorf("newer: source %s of kind %d, want FromName", s.Name, s.Kind)
				}
			}
		case "asNumber":
			if len(f.Via) != 1 || len(f.Sources) != 1 || f.Sources[0].Kind != rv.FromMethod {
				t.Errorf("asNumber: via %d calls, sources %v; want the version of GetResourceVersion through the call in number", len(f.Via), f.Sources)
			}
		case "olderThan":
			if len(f.Sources) != 1 || f.Sources[0].Kind != rv.FromField {
				t.Errorf("olderThan: sources %v, want the field", f.Sources)
			}
		}
	}
}

func TestNothingToFollow(t *testing.T) {
	_, res := analyze(t, `package test

import "strconv"

func sum(a, b string) int {
	x, _ := strconv.Atoi(a)
	y, _ := strconv.Atoi(b)
	return x + y
}
`, facts{})
	if len(res.Findings) != 0 || len(res.Funcs) != 0 {
		t.Errorf("findings %v, facts %v in a package without versions", found(res), res.Funcs)
	}
}

// TestFacts checks the summaries exported for callers in other packages,
// and the use of other packages' facts.
func TestFacts(t *testing.T) {
	p, res := analyze(t, `package test

import (
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"example.com/kube"
)

// Parse parses its second parameter.
func Parse(prefix, s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// Version returns a resourceVersion.
func Version(m *metav1.ObjectMeta) string { return m.ResourceVersion }

// Plain does neither.
func Plain(s string) string { return s + "." }

// Latest orders what another package's helper returns.
func Latest(current string) bool {
	return kube.Version() > current
}
`, facts{funcs: map[string]*rv.FuncFact{"example.com/kube.Version": {Returns: []int{0}}}})
	fact := func(name string) *rv.FuncFact {
		obj, _ := p.Types.Scope().Lookup(name).(*types.Func)
		return res.Funcs[obj]
	}
	if f := fact("Parse"); f == nil || f.String() != "parses #1" {
		t.Errorf("Parse: fact %v, want parses #1", f)
	}
	if f := fact("Version"); f == nil || f.String() != "returns resourceVersion #0" {
		t.Errorf("Version: fact %v, want returns resourceVersion #0", f)
	}
	if f := fact("Plain"); f != nil {
		t.Errorf("Plain: fact %v, want none", f)
	}
	if got := found(res); !slices.Equal(got, []string{"Latest: orders > (Version)"}) {
		t.Errorf("findings %q, want the ordering of what kube.Version returns", got)
	} else if s := res.Findings[0].Sources[0]; s.Kind != rv.FromHelper {
		t.Errorf("Latest: source of kind %d, want FromHelper", s.Kind)
	}
}
