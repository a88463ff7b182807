// Package patch turns the SSA value of a Kubernetes patch into what is known
// about it: its type, its operations and paths, whether it carries a
// precondition (a test op, metadata.resourceVersion, controller-runtime's
// optimistic lock), which values the program computed into it, and, for
// patches computed as a diff of two objects, the snapshot and the object.
// Where it cannot tell, it says so (Known is false): unknown is never a
// finding. It never reports.
package patch

import (
	"encoding/json"
	"go/constant"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
)

// Type is the patch type (the request's Content-Type).
type Type uint8

const (
	TypeUnknown   Type = iota
	TypeJSON           // RFC 6902 JSON patch
	TypeMerge          // RFC 7386 JSON merge patch
	TypeStrategic      // strategic merge patch
	TypeApply          // Server-Side Apply
)

func (t Type) String() string {
	return [...]string{"patch", "JSON patch", "merge patch", "strategic merge patch", "Server-Side Apply"}[t]
}

// Kind is how the patch is built.
type Kind uint8

const (
	KindUnknown Kind = iota
	KindDiff         // a diff of an object against a snapshot: client.MergeFrom, jsonpatch.CreateMergePatch, ...
	KindBody         // a body the code writes: a literal, fmt.Sprintf, json.Marshal of maps and structs
	KindObject       // the whole object: controller-runtime's client.Merge
	KindApply        // Server-Side Apply: client.Apply, an apply configuration
)

// Op is one operation of a JSON patch.
type Op struct {
	Op        string      // add, remove, replace, test, move, copy; "" when not known
	Path      string      // JSON pointer, with "{}" for segments the program computes
	Indexed   bool        // addresses an array element by index (a number or a computed segment)
	Value     []ssa.Value // values of the program in the op's value
	PathHoles []ssa.Value // values of the program in the path
}

// Hole is a value of the program inside a patch body.
type Hole struct {
	Value ssa.Value
	Path  string // JSON path of the member it is in, "metadata.finalizers"
	List  bool   // the value is a list (a slice), or sits inside a list of the body
}

// Info is what is known about a patch.
type Info struct {
	Type  Type
	Kind  Kind
	Known bool // the body or the diff is understood

	Lock    bool // controller-runtime MergeFromWithOptimisticLock
	HasTest bool // JSON patch: a test op
	HasRV   bool // merge body: metadata.resourceVersion; JSON patch: add/replace of /metadata/resourceVersion
	Force   bool // Server-Side Apply with force

	Ops   []Op   // JSON patch
	Holes []Hole // merge body: values the program computed
	Lists []string

	// Diff patches.
	Base       ssa.Value       // the object the diff starts from (the snapshot)
	BaseArg    ssa.Value       // MergeFrom's argument: the snapshot copy itself
	Snapshot   ssa.Instruction // where the snapshot was taken: a DeepCopy, a json.Marshal, or the MergeFrom call
	Modified   ssa.Value       // the object the diff ends at (json.Marshal'd second), nil for MergeFrom: the patched object
	ModifiedAt ssa.Instruction
	// Site is the call that built the patch value (MergeFrom, Sprintf, Marshal, CreateMergePatch).
	Site *ssa.Call
	// Fn names the constructor: "MergeFrom", "StrategicMergeFrom", "CreateMergePatch", ...
	Fn string
	// FromObjects are objects the body carries values of (for bodies built by
	// a helper, from its summary).
	FromObjects []ssa.Value
	// Alternatives are the other patches the value may be: a variable set
	// to a MergeFrom in each of two branches (var patch client.Patch; if
	// found { patch = MergeFrom(...) ... } else { patch = MergeFrom(...) ... }).
	Alternatives []*Info
}

// HasPrecondition reports whether the server rejects the patch when the
// object changed since it was read.
func (i *Info) HasPrecondition() bool { return i.Lock || i.HasTest || i.HasRV }

// TypeOf evaluates a types.PatchType value.
func TypeOf(v ssa.Value) Type {
	s, ok := constString(v)
	if !ok {
		return TypeUnknown
	}
	switch s {
	case "application/json-patch+json":
		return TypeJSON
	case "application/merge-patch+json":
		return TypeMerge
	case "application/strategic-merge-patch+json":
		return TypeStrategic
	case "application/apply-patch+yaml", "application/apply-patch+cbor":
		return TypeApply
	}
	return TypeUnknown
}

// Variables resolves a load of a variable (a local or a captured one) to the
// values stored in it.
type Variables func(load *ssa.UnOp) []ssa.Value

// Raw evaluates the data of a typed or dynamic Patch call, or of
// controller-runtime's RawPatch, given its patch type. vars may be nil.
func Raw(typ Type, data ssa.Value, vars Variables) *Info {
	info := &Info{Type: typ}
	if typ == TypeApply {
		info.Kind, info.Known = KindApply, true
		return info
	}
	e := &evaluator{seen: map[ssa.Value]bool{}, vars: vars}
	// The bytes of a controller-runtime patch?
	if d := patchData(data, vars); d != nil {
		return d
	}
	// A diff of two marshalled objects?
	if d := diffOf(data); d != nil {
		d.Type = typ
		return d
	}
	tree, site, ok := e.tree(data)
	if !ok {
		return info
	}
	info.Kind, info.Known, info.Site = KindBody, true, site
	switch typ {
	case TypeJSON:
		info.jsonPatch(tree)
	case TypeMerge, TypeStrategic:
		info.mergeBody(tree)
	default:
		// An unknown type: guess from the shape.
		info.guessBody(tree)
	}
	return info
}

// ControllerRuntime evaluates the client.Patch argument of a
// controller-runtime Patch call.
func ControllerRuntime(v ssa.Value, vars Variables) *Info {
	if phi, ok := strip(v).(*ssa.Phi); ok {
		return phiPatches(phi, vars)
	}
	return controllerRuntime(v, vars)
}

// phiPatches is the patch of a phi: the patch of one of its edges, the
// first without a precondition, with the others as alternatives; nil edges
// (the variable before it is set) are left out.
func phiPatches(phi *ssa.Phi, vars Variables) *Info {
	var infos []*Info
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value)
	walk = func(v ssa.Value) {
		v = strip(v)
		if seen[v] || len(seen) > maxPhiEdges {
			return
		}
		seen[v] = true
		switch x := v.(type) {
		case *ssa.Phi:
			for _, e := range x.Edges {
				walk(e)
			}
		case *ssa.Const:
			if !x.IsNil() {
				infos = append(infos, &Info{})
			}
		default:
			infos = append(infos, controllerRuntime(v, vars))
		}
	}
	walk(phi)
	if len(infos) == 0 {
		return &Info{}
	}
	first := 0
	for i, info := range infos {
		if info.Known && !info.HasPrecondition() {
			first = i
			break
		}
	}
	out := infos[first]
	for i, info := range infos {
		if i != first {
			out.Alternatives = append(out.Alternatives, info)
		}
	}
	return out
}

// maxPhiEdges bounds the values a phi of patches is followed through.
const maxPhiEdges = 16

func controllerRuntime(v ssa.Value, vars Variables) *Info {
	v = strip(v)
	if ld, ok := v.(*ssa.UnOp); ok && vars != nil {
		if vals := vars(ld); len(vals) == 1 {
			return ControllerRuntime(vals[0], vars)
		}
	}
	switch x := v.(type) {
	case *ssa.UnOp:
		if g, ok := x.X.(*ssa.Global); ok && x.Op == token.MUL {
			switch v, _ := model.CRPatchVarOf(g); v {
			case model.CRApplyVar:
				return &Info{Type: TypeApply, Kind: KindApply, Known: true}
			case model.CRMergeVar:
				return &Info{Type: TypeMerge, Kind: KindObject, Known: true}
			}
		}
	case *ssa.Call:
		cp, ok := model.CRPatchOf(x.Common())
		if !ok {
			break
		}
		args := x.Call.Args
		lock := cp.Opts >= 0 && hasLock(args[cp.Opts])
		switch cp.Kind {
		case model.CRMerge:
			return diff(TypeMerge, cp.Fn, x, args[cp.Base], lock)
		case model.CRStrategic:
			return diff(TypeStrategic, cp.Fn, x, args[cp.Base], lock)
		case model.CRRaw:
			info := Raw(TypeOf(args[cp.Type]), args[cp.Data], vars)
			if info.Type == TypeUnknown {
				info.Type = TypeOf(args[cp.Type])
			}
			return info
		}
	}
	return &Info{}
}

func diff(typ Type, fn string, call *ssa.Call, base ssa.Value, lock bool) *Info {
	info := &Info{Type: typ, Kind: KindDiff, Known: true, Lock: lock, Site: call, Fn: fn, Snapshot: call}
	info.Base, info.BaseArg = base, base
	if c, ok := strip(base).(*ssa.Call); ok {
		switch model.ObjectMethod(c.Common()) {
		case model.DeepCopy, model.DeepCopyObject:
			info.Base = model.Recv(c.Common())
			info.Snapshot = c
		}
	}
	return info
}

// hasLock reports whether a MergeFromOption variadic argument holds
// client.MergeFromWithOptimisticLock{}.
func hasLock(v ssa.Value) bool {
	for _, el := range variadic(v) {
		if model.IsOptimisticLock(strip(el).Type()) {
			return true
		}
	}
	return false
}

// patchData recognises patch data a controller-runtime patch computes:
// client.MergeFrom(base).Data(obj), sent as a RawPatch (cluster-api's patch
// helper checks the bytes for an empty patch first). It is that patch, the
// diff from its snapshot to obj when Data is called.
func patchData(data ssa.Value, vars Variables) *Info {
	call := firstResultOf(data)
	if call == nil {
		return nil
	}
	p, obj, ok := model.PatchData(call.Common())
	if !ok {
		return nil
	}
	info := ControllerRuntime(p, vars)
	if info.Kind != KindDiff {
		return nil
	}
	info.Modified, info.ModifiedAt = obj, call
	return info
}

// firstResultOf returns the call whose result 0 (of several) v is, or nil.
func firstResultOf(v ssa.Value) *ssa.Call {
	e, ok := strip(v).(*ssa.Extract)
	if !ok || e.Index != 0 {
		return nil
	}
	call, _ := e.Tuple.(*ssa.Call)
	return call
}

// diffOf recognises patch data computed as the diff of two marshalled
// objects: jsonpatch.CreateMergePatch(a, b), strategicpatch.CreateTwoWayMergePatch(a, b, T).
func diffOf(data ssa.Value) *Info {
	call := firstResultOf(data)
	if call == nil {
		return nil
	}
	d, ok := model.PatchBuilder(call.Common())
	if !ok {
		return nil
	}
	args := call.Call.Args
	info := &Info{Kind: KindDiff, Site: call, Fn: d.Fn}
	base, baseAt := marshalled(args[d.Base])
	mod, modAt := marshalled(args[d.Modified])
	if base == nil || mod == nil {
		return info // a diff of bytes the code got elsewhere: not known
	}
	info.Known = true
	info.Base, info.Snapshot = base, baseAt
	info.Modified, info.ModifiedAt = mod, modAt
	return info
}

// marshalled returns the object a json.Marshal call encodes, and the call.
func marshalled(v ssa.Value) (ssa.Value, ssa.Instruction) {
	e, ok := strip(v).(*ssa.Extract)
	if !ok || e.Index != 0 {
		return nil, nil
	}
	call, ok := e.Tuple.(*ssa.Call)
	if !ok {
		return nil, nil
	}
	if model.IsEncoder(call.Common()) {
		return strip(call.Call.Args[0]), call
	}
	return nil, nil
}

// ---- bodies ----

// holeMark starts the mark of a value of the program in a body rendered as
// text: holeMark, the hole's number, holeEnd.
const (
	holeMark = "__lostupdate_hole_"
	holeEnd  = "__"
)

type evaluator struct {
	holes []ssa.Value
	seen  map[ssa.Value]bool
	vars  Variables
	// plain: the text being rendered is a Go string the body holds (a
	// path), not JSON text, so a verb's value is not quoted.
	plain bool
	// bound are the arguments of the calls of constructors being
	// evaluated, by parameter.
	bound map[*ssa.Parameter]ssa.Value
}

type hole struct{ v ssa.Value }

// tree evaluates a []byte or string value holding JSON into a tree of
// map[string]any, []any, constants and *hole.
func (e *evaluator) tree(v ssa.Value) (any, *ssa.Call, bool) {
	v = strip(v)
	// A variable holding the bytes (one a closure captures, say).
	for i := 0; i < maxTextDepth; i++ {
		ld, ok := v.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL || e.vars == nil {
			break
		}
		vals := e.vars(ld)
		if len(vals) != 1 {
			break
		}
		v = strip(vals[0])
	}
	if ext, ok := v.(*ssa.Extract); ok && ext.Index == 0 {
		if call, ok := ext.Tuple.(*ssa.Call); ok {
			if model.IsEncoder(call.Common()) {
				t, ok := e.value(call.Call.Args[0], 0)
				return t, call, ok
			}
		}
	}
	text, site, ok := e.text(v, 0)
	if !ok {
		return nil, nil, false
	}
	var t any
	if err := json.Unmarshal([]byte(text), &t); err != nil {
		return nil, nil, false
	}
	return e.unmark(t), site, true
}

// Caps on the evaluation of a patch: the nesting of the string operations
// (concatenations, Sprintf, conversions) that build a body's text, and of
// the values (literals, maps, slices, fields) of an object encoded into one.
// Deeper text is not known; a deeper value is a hole, a value the program
// computes.
const (
	maxTextDepth  = 8
	maxValueDepth = 10
)

// text renders a string or []byte value as text, with holes marked.
func (e *evaluator) text(v ssa.Value, depth int) (string, *ssa.Call, bool) {
	if depth > maxTextDepth {
		return "", nil, false
	}
	if prm, ok := strip(v).(*ssa.Parameter); ok && e.bound[prm] != nil {
		return e.text(e.bound[prm], depth+1)
	}
	switch x := strip(v).(type) {
	case *ssa.Const:
		s, ok := constString(x)
		return s, nil, ok
	case *ssa.BinOp:
		if x.Op != token.ADD {
			return "", nil, false
		}
		a, _, ok1 := e.text(x.X, depth+1)
		b, _, ok2 := e.text(x.Y, depth+1)
		if !ok1 || !ok2 {
			return e.mark(x), nil, true
		}
		return a + b, nil, true
	case *ssa.Call:
		if tf, ok := model.TextBuilder(x.Common()); ok {
			if tf.Opaque {
				return "", nil, false
			}
			format, ok := constString(x.Call.Args[tf.Format])
			if !ok {
				return "", nil, false
			}
			return e.sprintf(format, variadic(x.Call.Args[tf.Args])), x, true
		}
		return e.mark(x), nil, true
	case *ssa.Phi:
		return "", nil, false
	case *ssa.UnOp:
		// A variable holding the text.
		if x.Op == token.MUL && e.vars != nil {
			if vals := e.vars(x); len(vals) == 1 {
				return e.text(vals[0], depth+1)
			}
		}
	}
	return e.mark(v), nil, true
}

func (e *evaluator) mark(v ssa.Value) string {
	e.holes = append(e.holes, e.resolve(v))
	return holeMark + strconv.Itoa(len(e.holes)-1) + holeEnd
}

// sprintf renders a format with its arguments as holes. A verb outside a
// JSON string becomes a quoted hole so that the text stays JSON.
func (e *evaluator) sprintf(format string, args []ssa.Value) string {
	var b strings.Builder
	inString, escaped := false, false
	argi := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			if e.plain {
				continue
			}
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = !inString
			}
			continue
		}
		// A verb: skip flags and width, read the verb letter.
		j := i + 1
		for j < len(format) && strings.IndexByte("+-# 0123456789.", format[j]) >= 0 {
			j++
		}
		if j >= len(format) {
			break
		}
		verb := format[j]
		i = j
		if verb == '%' {
			b.WriteByte('%')
			continue
		}
		var arg ssa.Value
		if argi < len(args) {
			arg = e.resolve(args[argi])
		}
		argi++
		m := holeMark + strconv.Itoa(len(e.holes)) + holeEnd
		e.holes = append(e.holes, arg)
		if inString || e.plain {
			b.WriteString(m)
		} else {
			b.WriteString(`"` + m + `"`)
		}
	}
	return b.String()
}

// unmark replaces the marked strings of a parsed tree by holes.
func (e *evaluator) unmark(t any) any {
	switch x := t.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, v := range x {
			out[renderPath(k)] = e.unmark(v) // a computed key reads as "{}"
		}
		return out
	case []any:
		for i := range x {
			x[i] = e.unmark(x[i])
		}
		return x
	case string:
		return e.unmarkString(x)
	}
	return t
}

func (e *evaluator) unmarkString(s string) any {
	if !strings.Contains(s, holeMark) {
		return s
	}
	// The whole string is one hole: the value itself.
	if strings.HasPrefix(s, holeMark) && strings.Count(s, holeMark) == 1 && strings.HasSuffix(s, holeEnd) {
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(s, holeMark), holeEnd))
		if err == nil && n < len(e.holes) {
			return &hole{e.holes[n]}
		}
	}
	// A string with holes in it: a composite hole of all of them.
	return &compound{s: s, holes: e.holesIn(s)}
}

type compound struct {
	s     string
	holes []ssa.Value
}

func (e *evaluator) holesIn(s string) []ssa.Value {
	var out []ssa.Value
	for _, part := range strings.Split(s, holeMark)[1:] {
		end := strings.Index(part, holeEnd)
		if end < 0 {
			continue
		}
		if n, err := strconv.Atoi(part[:end]); err == nil && n < len(e.holes) && e.holes[n] != nil {
			out = append(out, e.holes[n])
		}
	}
	return out
}

// value evaluates a Go value passed to json.Marshal into a tree.
func (e *evaluator) value(v ssa.Value, depth int) (any, bool) {
	if depth > maxValueDepth {
		return &hole{v}, true
	}
	v = strip(v)
	if prm, ok := v.(*ssa.Parameter); ok && e.bound[prm] != nil {
		return e.value(e.bound[prm], depth+1)
	}
	switch x := v.(type) {
	case *ssa.Const:
		if x.Value == nil {
			return nil, true
		}
		switch x.Value.Kind() {
		case constant.String:
			return constant.StringVal(x.Value), true
		case constant.Bool:
			return constant.BoolVal(x.Value), true
		case constant.Int, constant.Float:
			f, _ := constant.Float64Val(x.Value)
			return f, true
		}
		return &hole{v}, true
	case *ssa.MakeMap:
		out := map[string]any{}
		for _, r := range ssax.Referrers(x) {
			u, ok := r.(*ssa.MapUpdate)
			if !ok || u.Map != x {
				continue
			}
			k, ok := constString(strip(u.Key))
			if !ok {
				return &hole{v}, true
			}
			out[k], _ = e.value(u.Value, depth+1)
		}
		return out, true
	case *ssa.Slice:
		if arr, ok := x.X.(*ssa.Alloc); ok {
			return e.array(arr, depth)
		}
	case *ssa.Phi:
		if ssax.IsJSONList(x.Type()) {
			return e.list(x, depth)
		}
	case *ssa.Call:
		if isAppend(x) && ssax.IsJSONList(x.Type()) {
			return e.list(x, depth)
		}
		if isString(x.Type()) {
			return e.textValue(x)
		}
		if t, ok := e.constructor(x, depth); ok {
			return t, true
		}
	case *ssa.BinOp:
		if isString(x.Type()) {
			return e.textValue(x)
		}
	case *ssa.UnOp:
		if a, ok := x.X.(*ssa.Alloc); ok && x.Op == token.MUL {
			if _, ok := a.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct); ok {
				return e.structLit(a, depth)
			}
		}
		if x.Op == token.MUL && ssax.IsJSONList(x.Type()) && e.vars != nil {
			// A variable the list is built up in.
			if vals := e.vars(x); len(vals) > 0 {
				return e.list(x, depth)
			}
		}
	case *ssa.Alloc:
		if _, ok := x.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct); ok {
			return e.structLit(x, depth)
		}
	}
	return &hole{v}, true
}

// textValue evaluates a string the program formats (fmt.Sprintf of a path
// with an index, a concatenation) as the text it renders, with holes.
func (e *evaluator) textValue(v ssa.Value) (any, bool) {
	plain := e.plain
	e.plain = true
	s, _, ok := e.text(v, 0)
	e.plain = plain
	if !ok {
		return &hole{v}, true
	}
	return e.unmarkString(s), true
}

// list evaluates a slice the program builds up: a slice literal, nil or an
// empty make, appended to along branches and in loops (ops = append(ops,
// op) for each element of a list read). Its tree holds every element some
// path appends, once: a loop's body reads as one of each. A slice it cannot
// follow (a parameter, elements set by index) is a hole.
func (e *evaluator) list(v ssa.Value, depth int) (any, bool) {
	var out []any
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value) bool
	walk = func(v ssa.Value) bool {
		v = strip(v)
		if seen[v] {
			return true // a loop's phi, or a value already walked
		}
		seen[v] = true
		switch x := v.(type) {
		case *ssa.Const:
			return x.IsNil()
		case *ssa.MakeSlice:
			n, ok := x.Len.(*ssa.Const)
			return ok && n.Value != nil && constant.Sign(n.Value) == 0
		case *ssa.Slice:
			arr, ok := x.X.(*ssa.Alloc)
			if !ok || x.Low != nil || x.High != nil {
				return false
			}
			t, ok := e.array(arr, depth)
			if !ok {
				return false
			}
			out = append(out, t.([]any)...)
			return true
		case *ssa.Phi:
			for _, ed := range x.Edges {
				if !walk(ed) {
					return false
				}
			}
			return true
		case *ssa.UnOp:
			if x.Op != token.MUL || e.vars == nil {
				return false
			}
			vals := e.vars(x)
			for _, sv := range vals {
				if !walk(sv) {
					return false
				}
			}
			return len(vals) > 0
		case *ssa.Call:
			if !isAppend(x) || len(x.Call.Args) != 2 {
				return false
			}
			if !walk(x.Call.Args[0]) {
				return false
			}
			if els := variadic(x.Call.Args[1]); els != nil {
				for _, el := range els {
					t, _ := e.value(el, depth+1)
					out = append(out, t)
				}
				return true
			}
			return walk(x.Call.Args[1]) // append(a, b...)
		}
		return false
	}
	if !walk(v) || len(seen) > maxListValues {
		return &hole{v}, true
	}
	return out, true
}

// resolve returns the argument bound to a parameter of a constructor being
// evaluated, or v.
func (e *evaluator) resolve(v ssa.Value) ssa.Value {
	for {
		prm, ok := strip(v).(*ssa.Parameter)
		if !ok || e.bound[prm] == nil {
			return v
		}
		v = e.bound[prm]
	}
}

// constructor evaluates the call of a function of the package that returns
// one value built from its arguments (func NewPatchReplace(path string,
// value any) Op { return Op{Op: "replace", Path: path, Value: value} }):
// the value it returns, with its parameters bound to the arguments.
func (e *evaluator) constructor(call *ssa.Call, depth int) (any, bool) {
	fn := call.Call.StaticCallee()
	if fn == nil || len(fn.Blocks) == 0 || fn.Signature.Results().Len() != 1 || len(fn.FreeVars) > 0 {
		return nil, false
	}
	if _, isStruct := fn.Signature.Results().At(0).Type().Underlying().(*types.Struct); !isStruct {
		// A list or a string a function computes stays a hole, whose
		// operands the callers follow to what it is computed from.
		return nil, false
	}
	var ret ssa.Value
	for _, b := range fn.Blocks {
		if r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			if ret != nil {
				return nil, false // one return only: a constructor, not a decision
			}
			ret = r.Results[0]
		}
	}
	if ret == nil {
		return nil, false
	}
	for prm := range e.bound {
		if prm.Parent() == fn {
			return nil, false // recursion
		}
	}
	bound := make(map[*ssa.Parameter]ssa.Value, len(e.bound)+len(fn.Params))
	for k, v := range e.bound {
		bound[k] = v
	}
	for i, prm := range fn.Params {
		if i < len(call.Call.Args) {
			bound[prm] = call.Call.Args[i]
		}
	}
	saved := e.bound
	e.bound = bound
	t, _ := e.value(ret, depth+1)
	e.bound = saved
	if _, ok := t.(*hole); ok {
		return nil, false // not a value it builds: the call stays a hole
	}
	return t, true
}

// maxListValues caps the values walked to evaluate one list.
const maxListValues = 64

func isAppend(c *ssa.Call) bool {
	b, ok := c.Call.Value.(*ssa.Builtin)
	return ok && b.Name() == "append"
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// array evaluates a slice literal's backing array.
func (e *evaluator) array(arr *ssa.Alloc, depth int) (any, bool) {
	at, ok := arr.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Array)
	if !ok {
		return nil, false
	}
	out := make([]any, at.Len())
	for _, r := range ssax.Referrers(arr) {
		ia, ok := r.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		c, ok := ia.Index.(*ssa.Const)
		if !ok {
			return nil, false
		}
		i, _ := constant.Int64Val(c.Value)
		for _, rr := range ssax.Referrers(ia) {
			if st, ok := rr.(*ssa.Store); ok && st.Addr == ia && int(i) < len(out) {
				out[i], _ = e.value(st.Val, depth+1)
			}
		}
	}
	return out, true
}

// structLit evaluates a struct composite literal by its json field names.
func (e *evaluator) structLit(a *ssa.Alloc, depth int) (any, bool) {
	st := a.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
	out := map[string]any{}
	for _, r := range ssax.Referrers(a) {
		switch x := r.(type) {
		case *ssa.FieldAddr:
			f := st.Field(x.Field)
			name := model.JSONName(f.Name(), st.Tag(x.Field))
			if name == "-" {
				continue
			}
			for _, rr := range ssax.Referrers(x) {
				if s, ok := rr.(*ssa.Store); ok && s.Addr == x {
					out[name], _ = e.value(s.Val, depth+1)
				}
			}
		case *ssa.Store:
			if x.Addr == a {
				return e.value(x.Val, depth+1)
			}
		}
	}
	return out, true
}

// ---- JSON patch and merge body analysis ----

func (info *Info) jsonPatch(tree any) {
	ops, ok := tree.([]any)
	if !ok {
		info.Known = false
		return
	}
	for _, el := range ops {
		m, ok := el.(map[string]any)
		if !ok {
			// An op the code computes: not known.
			info.Known = false
			continue
		}
		var op Op
		switch o := m["op"].(type) {
		case string:
			op.Op = o
		}
		switch p := m["path"].(type) {
		case string:
			op.Path = p
			op.Indexed = indexed(p)
		case *hole:
			op.Path = "{}"
			op.PathHoles = []ssa.Value{p.v}
		case *compound:
			op.Path = renderPath(p.s)
			op.PathHoles = p.holes
			op.Indexed = indexed(op.Path)
			for _, h := range p.holes {
				if isInteger(h.Type()) {
					op.Indexed = true // a computed index: /spec/containers/%d/image
				}
			}
		}
		op.Value = holesOf(m["value"])
		switch op.Op {
		case "test":
			info.HasTest = true
		case "add", "replace":
			if op.Path == "/metadata/resourceVersion" {
				info.HasRV = true
			}
		}
		info.Ops = append(info.Ops, op)
	}
}

// renderPath replaces hole marks in a path by "{}".
func renderPath(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, holeMark)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		s = s[i+len(holeMark):]
		j := strings.Index(s, holeEnd)
		if j < 0 {
			return b.String()
		}
		b.WriteString("{}")
		s = s[j+len(holeEnd):]
	}
}

// indexed reports whether a JSON pointer addresses an array element by a
// number (not "-", the end of the array).
func indexed(path string) bool {
	for _, seg := range strings.Split(path, "/")[1:] {
		if seg == "" {
			continue
		}
		if _, err := strconv.Atoi(seg); err == nil {
			return true
		}
	}
	return false
}

func holesOf(t any) []ssa.Value {
	var out []ssa.Value
	var walk func(any)
	walk = func(t any) {
		switch x := t.(type) {
		case *hole:
			if x.v != nil {
				out = append(out, x.v)
			}
		case *compound:
			out = append(out, x.holes...)
		case map[string]any:
			for _, v := range x {
				walk(v)
			}
		case []any:
			for _, v := range x {
				walk(v)
			}
		}
	}
	walk(t)
	return out
}

func (info *Info) mergeBody(tree any) {
	m, ok := tree.(map[string]any)
	if !ok {
		info.Known = false
		return
	}
	if meta, ok := m["metadata"].(map[string]any); ok {
		if _, ok := meta["resourceVersion"]; ok {
			info.HasRV = true
		}
	}
	var walk func(path string, t any, inList bool)
	walk = func(path string, t any, inList bool) {
		switch x := t.(type) {
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				p := k
				if path != "" {
					p = path + "." + k
				}
				walk(p, x[k], inList)
			}
		case []any:
			info.Lists = append(info.Lists, path)
			for _, v := range x {
				walk(path, v, true)
			}
		case *hole:
			if x.v != nil {
				_, isSlice := x.v.Type().Underlying().(*types.Slice)
				info.Holes = append(info.Holes, Hole{Value: x.v, Path: path, List: inList || isSlice})
			}
		case *compound:
			for _, h := range x.holes {
				info.Holes = append(info.Holes, Hole{Value: h, Path: path, List: inList})
			}
		}
	}
	walk("", m, false)
}

// ---- value helpers ----

func strip(v ssa.Value) ssa.Value { return ssax.Strip(v) }

func constString(v ssa.Value) (string, bool) {
	c, ok := strip(v).(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(c.Value), true
}

// variadic returns the values stored into the array behind a variadic
// argument.
func variadic(v ssa.Value) []ssa.Value {
	els := ssax.VariadicElements(v)
	if len(els) == 0 {
		return nil // not a slice of a local array: append(a, b...) of a slice b
	}
	sort.Slice(els, func(a, b int) bool { return els[a].Index < els[b].Index })
	out := make([]ssa.Value, len(els))
	for i, e := range els {
		out[i] = e.Value
	}
	return out
}

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// Value evaluates a Go value that json.Marshal would encode as a patch
// body (the operations a function returns for its caller to marshal): a
// list is a JSON patch, an object a merge patch.
func Value(v ssa.Value, vars Variables) *Info {
	info := &Info{}
	e := &evaluator{seen: map[ssa.Value]bool{}, vars: vars}
	tree, _ := e.value(v, 0)
	if _, ok := tree.(*hole); ok {
		return info
	}
	info.Kind, info.Known = KindBody, true
	info.guessBody(tree)
	return info
}

// guessBody reads a body whose patch type is not known from its shape: a
// list is a JSON patch, anything else a merge patch.
func (info *Info) guessBody(tree any) {
	if _, isList := tree.([]any); isList {
		info.Type = TypeJSON
		info.jsonPatch(tree)
	} else {
		info.mergeBody(tree)
	}
}

// Body evaluates a string or []byte value a function returns as a patch
// body of a type it cannot know: a list is a JSON patch, an object a merge
// patch.
func Body(v ssa.Value, vars Variables) *Info { return Raw(TypeUnknown, v, vars) }
