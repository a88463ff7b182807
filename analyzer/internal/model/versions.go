package model

import (
	"go/constant"
	"go/types"
)

// What the model knows of resourceVersions as strings: the functions that
// parse, order, pass on, collect or produce strings, for the opaque-rv
// analysis, and the types whose ResourceVersion field holds one. Functions
// are keyed by full name (see FuncName); argument indices do not count a
// method's receiver.

// SinkKind is what a sink does with a string.
type SinkKind uint8

const (
	SinkParse SinkKind = iota + 1 // reads it as a number
	SinkOrder                     // orders it against another string
)

// Sink is a function that parses or orders some of its arguments.
type Sink struct {
	Kind   SinkKind
	Args   []int // the string arguments it parses or orders
	Elems  []int // slice or iterator arguments whose elements it orders
	Result int   // SinkParse: the result holding the number (-1: none)
	Cmp    int   // Elems are ordered only when this argument is a three-way string comparison (see IsCompareFunc); -1: always
	Zero   bool  // a three-way comparison: ordering only if its result is used other than == 0 or != 0
	Recv   bool  // the receiver is parsed (json.Number(rv).Int64())
}

func parse(arg, result int) Sink {
	return Sink{Kind: SinkParse, Args: []int{arg}, Result: result, Cmp: -1}
}

func order(args ...int) Sink { return Sink{Kind: SinkOrder, Args: args, Result: -1, Cmp: -1} }

func orderElems(elems ...int) Sink {
	return Sink{Kind: SinkOrder, Elems: elems, Result: -1, Cmp: -1}
}

var sinks = map[string]Sink{
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
	"(encoding/json.Number).Int64":   {Kind: SinkParse, Result: 0, Cmp: -1, Recv: true},
	"(encoding/json.Number).Float64": {Kind: SinkParse, Result: 0, Cmp: -1, Recv: true},

	// Three-way comparisons; strings.Compare(a, b) == 0 is only equality.
	"strings.Compare": {Kind: SinkOrder, Args: []int{0, 1}, Result: -1, Cmp: -1, Zero: true},
	"cmp.Compare":     {Kind: SinkOrder, Args: []int{0, 1}, Result: -1, Cmp: -1, Zero: true},
	"cmp.Less":        order(0, 1),

	// Sorting and searching slices of strings.
	"sort.Strings":          orderElems(0),
	"sort.StringsAreSorted": orderElems(0),
	"sort.SearchStrings":    {Kind: SinkOrder, Args: []int{1}, Elems: []int{0}, Result: -1, Cmp: -1},
	"slices.Sort":           orderElems(0),
	"slices.IsSorted":       orderElems(0),
	"slices.Max":            orderElems(0),
	"slices.Min":            orderElems(0),
	"slices.BinarySearch":   {Kind: SinkOrder, Args: []int{1}, Elems: []int{0}, Result: -1, Cmp: -1},
	"slices.Sorted":         orderElems(0), // of an iterator
	// With strings.Compare or cmp.Compare as the comparison.
	"slices.SortFunc":       {Kind: SinkOrder, Elems: []int{0}, Result: -1, Cmp: 1},
	"slices.SortStableFunc": {Kind: SinkOrder, Elems: []int{0}, Result: -1, Cmp: 1},
	"slices.IsSortedFunc":   {Kind: SinkOrder, Elems: []int{0}, Result: -1, Cmp: 1},
	"slices.MaxFunc":        {Kind: SinkOrder, Elems: []int{0}, Result: -1, Cmp: 1},
	"slices.MinFunc":        {Kind: SinkOrder, Elems: []int{0}, Result: -1, Cmp: 1},
	"slices.SortedFunc":     {Kind: SinkOrder, Elems: []int{0}, Result: -1, Cmp: 1},
}

// SinkOf returns what a function, by full name, does with the strings it
// is given, if it parses or orders them.
func SinkOf(fullName string) (Sink, bool) {
	s, ok := sinks[fullName]
	return s, ok
}

// ParseSink returns a function, by full name, that parses a string as a
// number.
func ParseSink(fullName string) (Sink, bool) {
	s, ok := sinks[fullName]
	return s, ok && s.Kind == SinkParse
}

// IsSinkFunc reports whether a function, by full name, parses, orders or
// compares strings: for a cheap check of a package before any SSA is built.
func IsSinkFunc(fullName string) bool {
	_, ok := sinks[fullName]
	return ok || fullName == CompareResourceVersion
}

// compareFuncs are three-way string comparisons passed as values.
var compareFuncs = map[string]bool{"strings.Compare": true, "cmp.Compare": true}

// IsCompareFunc reports whether a function, by full name, is a three-way
// string comparison (slices.SortFunc(rvs, strings.Compare)).
func IsCompareFunc(fullName string) bool { return compareFuncs[fullName] }

// CompareResourceVersion is apimachinery's comparison of two
// resourceVersions of the same resource (v0.35 and later): (a, b) (int, error).
const CompareResourceVersion = ResourceVersion + ".CompareResourceVersion"

// passFuncs return (a trimmed copy of) their argument 0.
var passFuncs = map[string]bool{
	"strings.TrimSpace": true,
	"strings.Clone":     true,
}

// IsPassFunc reports whether a function returns its string argument 0,
// possibly trimmed.
func IsPassFunc(fullName string) bool { return passFuncs[fullName] }

// Elems relates the elements of a result to those of argument 0.
type Elems uint8

const (
	SameElems Elems = iota + 1 // the result has the argument's elements (Collect, Clone, Values, Sorted)
	KeysElems                  // the result's elements are the argument's keys (maps.Keys)
	SameKeys                   // keys and elements both (maps.All, maps.Clone)
)

var containerFuncs = map[string]Elems{
	"maps.Keys":         KeysElems,
	"maps.Values":       SameElems,
	"maps.All":          SameKeys,
	"maps.Clone":        SameKeys,
	"slices.Values":     SameElems,
	"slices.All":        SameElems,
	"slices.Backward":   SameElems,
	"slices.Collect":    SameElems,
	"slices.Clone":      SameElems,
	"slices.Compact":    SameElems,
	"slices.Sorted":     SameElems,
	"slices.SortedFunc": SameElems,
}

// ContainerOf returns how the result of a function, by full name, holds
// the elements of its argument 0.
func ContainerOf(fullName string) (Elems, bool) {
	e, ok := containerFuncs[fullName]
	return e, ok
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

// IsFormatFunc reports whether a function, by full name, formats a number
// as a string.
func IsFormatFunc(fullName string) bool { return formatFuncs[fullName] }

// rvTypes are the apimachinery and API types whose ResourceVersion field
// holds a resourceVersion; issues says that the type is the metadata of an
// object or list, which the server fills with the version it issues,
// rather than options or a reference naming one.
var rvTypes = map[[2]string]struct{ issues bool }{
	{MetaV1, "ObjectMeta"}:      {true},
	{MetaV1, "ListMeta"}:        {true},
	{MetaV1, "ListOptions"}:     {},
	{MetaV1, "GetOptions"}:      {},
	{MetaV1, "Preconditions"}:   {}, // *string
	{CoreV1, "ObjectReference"}: {},
}

// IsRVField reports whether field f of (a pointer to) the named type t
// holds a resourceVersion by the API's definition (ObjectMeta.ResourceVersion, ...).
func IsRVField(t types.Type, f *types.Var) bool {
	if f.Name() != "ResourceVersion" {
		return false
	}
	_, ok := rvTypes[typeKey(t)]
	return ok
}

// IssuesRV reports whether (a pointer to) t is the metadata of an object
// or a list (ObjectMeta, ListMeta): its resourceVersion is one the server
// issued, not one that options or a reference name.
func IssuesRV(t types.Type) bool { return rvTypes[typeKey(t)].issues }

func typeKey(t types.Type) [2]string {
	if p, ok := types.Unalias(t).Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return [2]string{}
	}
	return [2]string{PkgPath(n.Obj().Pkg()), n.Obj().Name()}
}

// MetaKind says which metadata type an embedded field of an object is.
type MetaKind uint8

const (
	MetaNone    MetaKind = iota
	MetaObject           // metav1.ObjectMeta or metav1.ListMeta: the struct is an object or a list
	MetaPartial          // metav1.PartialObjectMetadata: a metadata-only view
)

// EmbeddedMeta says what (a pointer to) t, the type of an embedded field,
// makes of the struct that embeds it.
func EmbeddedMeta(t types.Type) MetaKind {
	switch k := typeKey(t); k {
	case [2]string{MetaV1, "ObjectMeta"}, [2]string{MetaV1, "ListMeta"}:
		return MetaObject
	case [2]string{MetaV1, "PartialObjectMetadata"}:
		return MetaPartial
	}
	return MetaNone
}

// InMetaV1 reports whether (a pointer to) the named type t is declared in
// metav1 (ObjectMeta, List, PartialObjectMetadata, ...).
func InMetaV1(t types.Type) bool { return typeKey(t)[0] == MetaV1 }

// IsBookmark reports whether a constant is watch.Bookmark: code that emits
// bookmark events serves a watch.
func IsBookmark(t types.Type, v constant.Value) bool {
	return typeKey(t) == [2]string{Watch, "EventType"} && v != nil && v.ExactString() == `"BOOKMARK"`
}

// IsStringSlice reports whether (a pointer to) t is sort.StringSlice,
// whose conversion sorts strings.
func IsStringSlice(t types.Type) bool { return typeKey(t) == [2]string{"sort", "StringSlice"} }

// intParses are the parses of a resourceVersion into an integer that a
// suggested fix can replace by CompareResourceVersion.
var intParses = map[string]bool{
	"strconv.Atoi":      true,
	"strconv.ParseInt":  true,
	"strconv.ParseUint": true,
}

// IsIntParse reports whether a function, by full name, parses a string
// into an integer (x, err := strconv.Atoi(s)).
func IsIntParse(fullName string) bool { return intParses[fullName] }
