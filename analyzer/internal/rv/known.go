package rv

import (
	"go/types"
	"strings"
	"unicode"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
)

// What rv knows of functions that parse, order, produce or pass on strings,
// keyed by types.Func.FullName of the (generic origin of the) callee.
// Argument indices do not count a method's receiver.

// sinkFunc is a function that parses or orders some of its arguments.
type sinkFunc struct {
	kind   Kind
	args   []int // the string arguments it parses or orders
	elems  []int // slice or iterator arguments whose elements it orders
	result int   // Parse: the result holding the number (-1: none)
	cmp    int   // elems ordered only when this argument is strings.Compare or cmp.Compare (-1: always)
	zero   bool  // a three-way comparison: ordering only if its result is used other than == 0 or != 0
	recv   bool  // the receiver is parsed (json.Number(rv).Int64())
}

func parse(arg, result int) sinkFunc {
	return sinkFunc{kind: Parse, args: []int{arg}, result: result, cmp: -1}
}

func order(args ...int) sinkFunc { return sinkFunc{kind: Order, args: args, result: -1, cmp: -1} }

func orderElems(elems ...int) sinkFunc {
	return sinkFunc{kind: Order, elems: elems, result: -1, cmp: -1}
}

var sinkFuncs = map[string]sinkFunc{
	"strconv.Atoi":       parse(0, 0),
	"strconv.ParseInt":   parse(0, 0),
	"strconv.ParseUint":  parse(0, 0),
	"strconv.ParseFloat": parse(0, 0),
	"fmt.Sscan":          parse(0, -1),
	"fmt.Sscanf":         parse(0, -1),
	"fmt.Sscanln":        parse(0, -1),
	// SetString(s, base) on the receiver.
	"(*math/big.Int).SetString":   parse(0, -1),
	"(*math/big.Float).SetString": parse(0, -1),
	"(*math/big.Rat).SetString":   parse(0, -1),
	// json.Number(rv).Int64(): the receiver.
	"(encoding/json.Number).Int64":   {kind: Parse, result: 0, cmp: -1, recv: true},
	"(encoding/json.Number).Float64": {kind: Parse, result: 0, cmp: -1, recv: true},

	// Three-way comparisons; strings.Compare(a, b) == 0 is only equality.
	"strings.Compare": {kind: Order, args: []int{0, 1}, result: -1, cmp: -1, zero: true},
	"cmp.Compare":     {kind: Order, args: []int{0, 1}, result: -1, cmp: -1, zero: true},
	"cmp.Less":        order(0, 1),

	// Sorting and searching slices of strings.
	"sort.Strings":          orderElems(0),
	"sort.StringsAreSorted": orderElems(0),
	"sort.SearchStrings":    {kind: Order, args: []int{1}, elems: []int{0}, result: -1, cmp: -1},
	"slices.Sort":           orderElems(0),
	"slices.IsSorted":       orderElems(0),
	"slices.Max":            orderElems(0),
	"slices.Min":            orderElems(0),
	"slices.BinarySearch":   {kind: Order, args: []int{1}, elems: []int{0}, result: -1, cmp: -1},
	"slices.Sorted":         orderElems(0), // of an iterator
	// With strings.Compare or cmp.Compare as the comparison.
	"slices.SortFunc":       {kind: Order, elems: []int{0}, result: -1, cmp: 1},
	"slices.SortStableFunc": {kind: Order, elems: []int{0}, result: -1, cmp: 1},
	"slices.IsSortedFunc":   {kind: Order, elems: []int{0}, result: -1, cmp: 1},
	"slices.MaxFunc":        {kind: Order, elems: []int{0}, result: -1, cmp: 1},
	"slices.MinFunc":        {kind: Order, elems: []int{0}, result: -1, cmp: 1},
	"slices.SortedFunc":     {kind: Order, elems: []int{0}, result: -1, cmp: 1},
}

// IsSinkFunc reports whether a function, by full name, parses or orders
// strings: for a cheap check of a package before any SSA is built.
func IsSinkFunc(fullName string) bool {
	_, ok := sinkFuncs[fullName]
	return ok || fullName == compareRV
}

// compareFuncs are three-way string comparisons passed as values.
var compareFuncs = map[string]bool{"strings.Compare": true, "cmp.Compare": true}

// compareRV is apimachinery's comparison of two resourceVersions of the same
// resource (v0.35 and later).
const compareRV = "k8s.io/apimachinery/pkg/util/resourceversion.CompareResourceVersion"

// passFuncs return (a trimmed copy of) their first argument.
var passFuncs = map[string]bool{
	"strings.TrimSpace": true,
	"strings.Clone":     true,
}

// containerFunc relates the elements of a result to those of an argument.
type containerFunc uint8

const (
	sameElems containerFunc = iota + 1 // the result has the argument's elements (Collect, Clone, Values, Sorted)
	keysElems                          // the result's elements are the argument's keys (maps.Keys)
	sameKeys                           // keys and elements both (maps.All, maps.Clone)
)

var containerFuncs = map[string]containerFunc{
	"maps.Keys":         keysElems,
	"maps.Values":       sameElems,
	"maps.All":          sameKeys,
	"maps.Clone":        sameKeys,
	"slices.Values":     sameElems,
	"slices.All":        sameElems,
	"slices.Backward":   sameElems,
	"slices.Collect":    sameElems,
	"slices.Clone":      sameElems,
	"slices.Compact":    sameElems,
	"slices.Sorted":     sameElems,
	"slices.SortedFunc": sameElems,
}

// formatFuncs turn a number into a string: an implementation that stores
// their result as a resourceVersion mints versions.
var formatFuncs = map[string]bool{
	"strconv.Itoa":       true,
	"strconv.FormatInt":  true,
	"strconv.FormatUint": true,
	"fmt.Sprint":         true,
	"fmt.Sprintf":        true,
}

// rvTypes are the apimachinery and API types whose ResourceVersion field
// holds a resourceVersion.
var rvTypes = map[[2]string]bool{
	{model.MetaV1, "ObjectMeta"}:              true,
	{model.MetaV1, "ListMeta"}:                true,
	{model.MetaV1, "ListOptions"}:             true,
	{model.MetaV1, "GetOptions"}:              true,
	{model.MetaV1, "Preconditions"}:           true, // *string
	{"k8s.io/api/core/v1", "ObjectReference"}: true,
}

// nestedString is unstructured.NestedString, a source when it reads
// metadata.resourceVersion.
const nestedString = model.Unstructured + ".NestedString"

// apiLibraries are the Kubernetes libraries whose types objects are built
// of; their fields are not merged across objects (the annotations of two
// objects are two locations), nor taken for the program's own fields.
var apiLibraries = []string{
	"k8s.io/api",
	"k8s.io/apimachinery",
	"k8s.io/client-go",
	"k8s.io/apiserver",
	"k8s.io/apiextensions-apiserver",
	"k8s.io/kube-aggregator",
	"sigs.k8s.io/controller-runtime",
}

func modelled(path string) bool {
	for _, p := range apiLibraries {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

// rvName reports whether a name says it holds a resourceVersion:
// resourceVersion, lastResourceVersion, rv, rv2, minRV, lastRv, rvOld.
func rvName(name string) bool {
	lower := strings.ToLower(name)
	if strings.HasSuffix(lower, "resourceversion") {
		return true
	}
	trimmed := strings.TrimRightFunc(name, unicode.IsDigit)
	if strings.ToLower(trimmed) == "rv" {
		return true
	}
	if len(trimmed) > 2 && (strings.HasSuffix(trimmed, "RV") || strings.HasSuffix(trimmed, "Rv")) {
		return unicode.IsLower(rune(trimmed[len(trimmed)-3])) || unicode.IsDigit(rune(trimmed[len(trimmed)-3]))
	}
	if len(name) > 2 && strings.HasPrefix(name, "rv") && unicode.IsUpper(rune(name[2])) {
		return true
	}
	return false
}

// versionKey reports whether a constant map key (an annotation, a label, a
// ConfigMap entry) names a resourceVersion: "example.com/last-resource-version",
// "observedResourceVersion".
func versionKey(k string) bool {
	k = strings.ToLower(k)
	return strings.Contains(k, "resourceversion") || strings.Contains(k, "resource-version") || strings.Contains(k, "resource_version")
}

// isString reports whether t is a string type.
func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// isStringOrPtr reports whether t is a string or a pointer to one.
func isStringOrPtr(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	return isString(t)
}

// namedOf returns the named type of t or *t.
func namedOf(t types.Type) *types.Named {
	t = types.Unalias(t)
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	n, _ := t.(*types.Named)
	return n
}

// isRVField reports whether field f of struct type t holds a
// resourceVersion by the API's definition (ObjectMeta.ResourceVersion, ...).
func isRVField(t types.Type, f *types.Var) bool {
	if f.Name() != "ResourceVersion" {
		return false
	}
	n := namedOf(t)
	if n == nil || n.Obj().Pkg() == nil {
		return false
	}
	return rvTypes[[2]string{n.Obj().Pkg().Path(), n.Obj().Name()}]
}

// isNamedRVField reports whether a field of a program's own struct type
// says by its name and type that it holds a resourceVersion.
func isNamedRVField(t types.Type, f *types.Var) bool {
	if !isStringOrPtr(f.Type()) || !rvName(f.Name()) {
		return false
	}
	if n := namedOf(t); n != nil && n.Obj().Pkg() != nil && modelled(n.Obj().Pkg().Path()) {
		return false
	}
	return true
}

// isRVMethod reports whether a method returns a resourceVersion:
// GetResourceVersion() string, LastSyncResourceVersion() string.
func isRVMethod(name string, sig *types.Signature) bool {
	if !strings.HasSuffix(name, "ResourceVersion") || strings.HasPrefix(name, "Set") {
		return false
	}
	return sig.Params().Len() == 0 && sig.Results().Len() == 1 && isString(sig.Results().At(0).Type())
}
