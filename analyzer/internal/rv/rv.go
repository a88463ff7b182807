// Package rv follows resourceVersion strings through the SSA of one package:
// where they come from (the ResourceVersion fields of ObjectMeta, ListMeta
// and the options, GetResourceVersion and LastSyncResourceVersion, watch
// events, helpers that return one), where they go (variables, fields of the
// program's own types, maps, slices and channels, parameters and results),
// and the places that treat them as numbers or ordered values: parses,
// orderings, sorts, max and min, and comparisons of versions of two
// different resource types.
//
// Strings are followed context-sensitively through calls: a function's
// summary says which of its string parameters it parses or orders, which
// results are versions, and which function parameters' results it orders.
// Summaries of exported functions become analysis facts, so that a helper in
// another package counts where the version flows into it. Memory is
// flow-insensitive: a field of the program's own types is one location for
// every object, and containers that flow into each other (appends, stores,
// parameters) share their elements.
//
// rv never reports; the opaque-rv rule reads its findings.
package rv

import (
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
)

// Kind is what a finding is.
type Kind uint8

const (
	Parse        Kind = iota + 1 // a resourceVersion parsed as a number
	Order                        // resourceVersions ordered: <, strings.Compare, a sort, max or min
	CrossType                    // versions of two different resource types compared
	DroppedError                 // resourceversion.CompareResourceVersion whose error is dropped
)

func (k Kind) String() string {
	return [...]string{"", "parses", "orders", "compares across types", "drops the error of"}[k]
}

// SourceKind says how a resourceVersion was obtained.
type SourceKind uint8

const (
	FromField        SourceKind = iota + 1 // a ResourceVersion field of ObjectMeta, ListMeta, options, ObjectReference
	FromMethod                             // GetResourceVersion(), LastSyncResourceVersion()
	FromName                               // a string parameter, field or result named like one (rv, resourceVersion, lastRV)
	FromHelper                             // a function whose summary or fact says it returns one, or a field a fact says holds one
	FromUnstructured                       // unstructured.NestedString(obj, "metadata", "resourceVersion")
)

// Source is where a resourceVersion comes from.
type Source struct {
	Kind  SourceKind
	Pos   token.Pos       // the field's selector, the call's Lparen, the parameter
	Name  string          // the field, method, parameter, result or function
	Label *types.TypeName // the resource type (Pod for a Pod or a PodList), nil when unknown
}

// Use is an instruction that uses a parsed number.
type Use struct {
	Instr ssa.Instruction
	Arith bool // arithmetic, not a comparison
}

// Finding is one place where code treats resourceVersions as numbers or as
// ordered values.
type Finding struct {
	Kind    Kind
	Instr   ssa.Instruction       // the parse, the comparison, the sort, the call of another package's helper
	What    string                // "strconv.Atoi", "<", "sort.Strings", "max", or the helper's name
	Helper  *types.Func           // the helper of another package that parses or orders, reported at its call
	Sources []*Source             // the versions involved, by position
	Via     []ssa.CallInstruction // local calls through which the versions reached it
	Merged  []ssa.Instruction     // Parse: other parses of versions whose numbers meet this one's
	Uses    []Use                 // Parse: comparisons and arithmetic of the numbers
	Labels  []*types.TypeName     // CrossType: the two resource types
}

// Result is what rv finds in a package.
type Result struct {
	Findings []*Finding
	Funcs    map[*types.Func]*FuncFact // facts of exported functions
	Fields   map[*types.Var]*FieldFact // facts of exported fields
	Mints    []ssa.Instruction         // where the package issues versions: a formatted number stored as one, a bookmark event sent
}

// FactSource gives access to the facts of other packages.
type FactSource interface {
	FuncFact(*types.Func) *FuncFact
	FieldFact(*types.Var) *FieldFact
}

// maxRounds bounds the fixpoint iteration; each round only adds.
const maxRounds = 40

// Analyze follows the resourceVersions of a package. funcs are its source
// functions, closures included.
func Analyze(pkg *ssa.Package, funcs []*ssa.Function, facts FactSource) *Result {
	s := &state{
		pkg:      pkg,
		funcs:    funcs,
		facts:    facts,
		local:    map[*ssa.Function]bool{},
		nodes:    map[any]*node{},
		vals:     map[ssa.Value]tagset{},
		bindings: map[*ssa.FreeVar]ssa.Value{},
		tagIDs:   map[tag]int32{},
		srcs:     map[srcKey]*Source{},
		sums:     map[*ssa.Function]*summary{},
		sinks:    map[ssa.Instruction]*sink{},
		seenEq:   map[ssa.Instruction]bool{},
		names:    map[*ssa.CallCommon]string{},
	}
	for _, fn := range funcs {
		s.local[fn] = true
	}
	if !s.anything() {
		return &Result{Funcs: map[*types.Func]*FuncFact{}, Fields: map[*types.Var]*FieldFact{}}
	}
	s.bindings = ssax.ClosuresOf(funcs).Bindings
	// Phase 1: which containers and locations flow into each other.
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				s.unify(instr)
			}
		}
	}
	// Phase 2: tags, to a fixpoint.
	for _, fn := range funcs {
		s.initParams(fn)
	}
	for round := 0; round < maxRounds; round++ {
		s.changed = false
		for _, fn := range funcs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					s.visit(instr)
				}
			}
		}
		if !s.changed {
			break
		}
	}
	return s.result()
}

// anything reports whether a package has a resourceVersion source or a
// place that parses or orders strings: without either there is nothing to
// find and no fact to export (most packages, generated ones above all).
func (s *state) anything() bool {
	for _, fn := range s.funcs {
		for _, p := range fn.Params {
			if isStringOrPtr(p.Type()) && rvName(p.Name()) {
				return true
			}
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if s.mayMatter(instr) {
					return true
				}
			}
		}
	}
	return false
}

// mayMatter reports whether an instruction is a source or a sink.
func (s *state) mayMatter(instr ssa.Instruction) bool {
	switch x := instr.(type) {
	case *ssa.BinOp:
		switch x.Op {
		case token.LSS, token.LEQ, token.GTR, token.GEQ:
			return isString(x.X.Type())
		}
	case *ssa.FieldAddr:
		return s.isSourceField(x.X.Type(), x.Field)
	case *ssa.Field:
		return s.isSourceField(x.X.Type(), x.Field)
	case *ssa.Lookup:
		k, ok := model.ConstString(x.Index)
		return ok && versionKey(k)
	case *ssa.Convert, *ssa.ChangeType:
		n := namedOf(x.(ssa.Value).Type())
		return n != nil && n.Obj().Name() == "StringSlice"
	case ssa.CallInstruction:
		c := x.Common()
		if b, ok := c.Value.(*ssa.Builtin); ok {
			return (b.Name() == "min" || b.Name() == "max") && len(c.Args) > 0 && isString(c.Args[0].Type())
		}
		name := s.calleeName(c)
		if model.IsSinkFunc(name) || name == model.NestedString {
			return true
		}
		if mname, sig, _, ok := methodOf(c); ok && isRVMethod(mname, sig) {
			return true
		}
		res := c.Signature().Results()
		for i := 0; i < res.Len(); i++ {
			if isString(res.At(i).Type()) && rvName(res.At(i).Name()) {
				return true
			}
		}
		if obj := calleeObj(c); obj != nil && s.facts != nil && obj.Pkg() != s.pkg.Pkg && s.facts.FuncFact(obj) != nil {
			return true
		}
	}
	return false
}

func (s *state) isSourceField(t types.Type, idx int) bool {
	st := structOf(t)
	if st == nil || idx >= st.NumFields() {
		return false
	}
	f := st.Field(idx)
	if model.IsRVField(t, f) || isNamedRVField(t, f) {
		return true
	}
	return f.Pkg() != nil && f.Pkg() != s.pkg.Pkg && s.facts != nil && s.facts.FieldFact(f.Origin()) != nil
}

// ---- tags ----

type tagKind uint8

const (
	tagRV        tagKind = iota // a resourceVersion
	tagParam                    // the string parameter idx of fn
	tagParamCall                // a result of calling the function parameter idx of fn
	tagParsed                   // the number a parse produced
)

type tag struct {
	kind  tagKind
	src   *Source
	fn    *ssa.Function
	idx   int
	parse *sink
}

// tagset is a sorted set of tag ids.
type tagset []int32

// maxTags bounds a tagset; the lowest ids (versions first, then the first
// parameters met) are kept.
const maxTags = 24

func (ts tagset) has(id int32) bool {
	i := sort.Search(len(ts), func(i int) bool { return ts[i] >= id })
	return i < len(ts) && ts[i] == id
}

// union returns ts ∪ o, and whether it is larger than ts.
func (ts tagset) union(o tagset) (tagset, bool) {
	grew := false
	for _, id := range o {
		if ts.has(id) {
			continue
		}
		if len(ts) >= maxTags && id > ts[len(ts)-1] {
			continue
		}
		i := sort.Search(len(ts), func(i int) bool { return ts[i] >= id })
		out := make(tagset, 0, len(ts)+1)
		out = append(out, ts[:i]...)
		out = append(out, id)
		out = append(out, ts[i:]...)
		if len(out) > maxTags {
			out = out[:maxTags]
		}
		ts = out
		grew = true
	}
	return ts, grew
}

type srcKey struct {
	at  any
	idx int
}

type state struct {
	pkg      *ssa.Package
	funcs    []*ssa.Function
	facts    FactSource
	local    map[*ssa.Function]bool
	nodes    map[any]*node
	vals     map[ssa.Value]tagset
	bindings map[*ssa.FreeVar]ssa.Value

	tags    []tag // parameter tags, by id
	negTags []tag // version and parsed-number tags, by -id-1
	tagIDs  map[tag]int32
	srcs    map[srcKey]*Source

	sums     map[*ssa.Function]*summary
	sinks    map[ssa.Instruction]*sink
	sinkList []*sink
	meets    []meet
	equal    []ssa.Instruction // string equalities and CompareResourceVersion calls
	seenEq   map[ssa.Instruction]bool
	dropped  []ssa.CallInstruction
	mints    []ssa.Instruction
	changed  bool
	names    map[*ssa.CallCommon]string // callee full names, computed once
}

// calleeName returns model.CalleeName of a call, memoised: building full
// names is the costliest part of looking at a call.
func (s *state) calleeName(c *ssa.CallCommon) string {
	name, ok := s.names[c]
	if !ok {
		name = model.CalleeName(c)
		s.names[c] = name
	}
	return name
}

// id interns a tag. Versions and parsed numbers get negative ids, so that
// they sort first and survive the bound on a tagset's size; parameters get
// the others.
func (s *state) id(t tag) int32 {
	if id, ok := s.tagIDs[t]; ok {
		return id
	}
	var id int32
	if t.kind == tagRV || t.kind == tagParsed {
		s.negTags = append(s.negTags, t)
		id = -int32(len(s.negTags))
	} else {
		id = int32(len(s.tags))
		s.tags = append(s.tags, t)
	}
	s.tagIDs[t] = id
	return id
}

func (s *state) tag(id int32) tag {
	if id < 0 {
		return s.negTags[-id-1]
	}
	return s.tags[id]
}

// source interns the Source of a resourceVersion obtained at key.
func (s *state) source(at any, idx int, mk func() *Source) tagset {
	k := srcKey{at, idx}
	src, ok := s.srcs[k]
	if !ok {
		src = mk()
		s.srcs[k] = src
	}
	return tagset{s.id(tag{kind: tagRV, src: src})}
}

// of returns the tags of a value.
func (s *state) of(v ssa.Value) tagset {
	switch x := v.(type) {
	case nil:
		return nil
	case *ssa.FreeVar:
		if b, ok := s.bindings[x]; ok {
			return s.of(b)
		}
		return nil
	case *ssa.Const, *ssa.Global, *ssa.Function, *ssa.Builtin:
		return nil
	}
	return s.vals[v]
}

func (s *state) add(v ssa.Value, ts tagset) {
	if len(ts) == 0 {
		return
	}
	out, grew := s.vals[v].union(ts)
	if grew {
		s.vals[v] = out
		s.changed = true
	}
}

func (s *state) addCell(n *node, ts tagset) {
	if len(ts) == 0 {
		return
	}
	n = find(n)
	out, grew := n.tags.union(ts)
	if grew {
		n.tags = out
		s.changed = true
	}
}

func cell(n *node) tagset { return find(n).tags }

// initParams tags the string parameters of a function: as parameters, for
// its summary, and as resourceVersions when their name says so.
func (s *state) initParams(fn *ssa.Function) {
	for i, p := range fn.Params {
		if !isStringOrPtr(p.Type()) {
			continue
		}
		ts := tagset{s.id(tag{kind: tagParam, fn: fn, idx: i})}
		if rvName(p.Name()) {
			named := s.source(p, 0, func() *Source { return &Source{Kind: FromName, Pos: p.Pos(), Name: p.Name()} })
			ts, _ = ts.union(named)
		}
		s.add(p, ts)
	}
}

// ---- summaries and sinks ----

// slot is a parameter of a function: its string value, or the results of
// calling it.
type slot struct {
	idx  int
	call bool
}

type summary struct {
	returns []tagset
	sinks   map[slot][]*sink
	// calledWith: for a function parameter, the tags of the arguments it
	// is called with, by argument.
	calledWith map[int][]tagset
}

func (s *state) sum(fn *ssa.Function) *summary {
	fn = body(fn)
	sm := s.sums[fn]
	if sm == nil {
		sm = &summary{returns: make([]tagset, fn.Signature.Results().Len()), sinks: map[slot][]*sink{}, calledWith: map[int][]tagset{}}
		s.sums[fn] = sm
	}
	return sm
}

func (sm *summary) slots() []slot {
	out := make([]slot, 0, len(sm.sinks))
	for sl := range sm.sinks {
		out = append(out, sl)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].idx != out[j].idx {
			return out[i].idx < out[j].idx
		}
		return !out[i].call && out[j].call
	})
	return out
}

// sink is an instruction that parses or orders what reaches it.
type sink struct {
	kind   Kind
	instr  ssa.Instruction
	what   string
	helper *types.Func
	rvs    tagset
	via    []ssa.CallInstruction
	uses   []Use
	parent *sink // Parse: the group of parses whose numbers meet
}

type meet struct{ a, b *sink }

func (s *state) sinkAt(instr ssa.Instruction, kind Kind, what string, helper *types.Func) *sink {
	if sk, ok := s.sinks[instr]; ok {
		if kind == Parse && sk.kind != Parse {
			sk.kind, sk.what = kind, what
		}
		return sk
	}
	sk := &sink{kind: kind, instr: instr, what: what, helper: helper}
	s.sinks[instr] = sk
	s.sinkList = append(s.sinkList, sk)
	return sk
}

// reach records that the tags ts reach a sink (through a call of a local
// function, via): resourceVersions make it a finding, parameters put it in
// their function's summary.
func (s *state) reach(sk *sink, ts tagset, via ssa.CallInstruction) {
	for _, id := range ts {
		t := s.tag(id)
		switch t.kind {
		case tagRV:
			out, grew := sk.rvs.union(tagset{id})
			if grew {
				sk.rvs = out
				s.changed = true
			}
			if via != nil && !containsCall(sk.via, via) {
				sk.via = append(sk.via, via)
			}
		case tagParam, tagParamCall:
			sm := s.sum(t.fn)
			sl := slot{t.idx, t.kind == tagParamCall}
			if !containsSink(sm.sinks[sl], sk) {
				sm.sinks[sl] = append(sm.sinks[sl], sk)
				s.changed = true
			}
		}
	}
}

func containsCall(list []ssa.CallInstruction, c ssa.CallInstruction) bool {
	for _, x := range list {
		if x == c {
			return true
		}
	}
	return false
}

func containsSink(list []*sink, sk *sink) bool {
	for _, x := range list {
		if x == sk {
			return true
		}
	}
	return false
}

// ---- the transfer functions ----

func (s *state) visit(instr ssa.Instruction) {
	switch x := instr.(type) {
	case *ssa.Phi:
		for _, e := range x.Edges {
			s.add(x, s.of(e))
		}
	case *ssa.Convert:
		s.add(x, s.of(x.X))
		s.stringSliceSink(x, x.X, x.Type())
	case *ssa.ChangeType:
		s.add(x, s.of(x.X))
		s.stringSliceSink(x, x.X, x.Type())
	case *ssa.MakeInterface:
		s.add(x, s.of(x.X))
	case *ssa.ChangeInterface:
		s.add(x, s.of(x.X))
	case *ssa.TypeAssert:
		s.add(x, s.of(x.X))
	case *ssa.Extract:
		s.add(x, s.extract(x))
	case *ssa.UnOp:
		switch x.Op {
		case token.MUL:
			s.add(x, s.load(x))
		case token.ARROW:
			if !x.CommaOk {
				s.add(x, cell(s.elemOf(s.valNode(x.X))))
			}
		case token.SUB, token.XOR:
			s.add(x, s.parsedOf(x.X))
		}
	case *ssa.Field:
		s.add(x, s.field(x, x.X, x.X.Type(), x.Field))
	case *ssa.Store:
		s.addCell(s.locOf(x.Addr), s.of(x.Val))
		s.mint(x, x.Addr, x.Val)
		if isBookmark(x.Val) {
			s.addMint(x)
		}
	case *ssa.MapUpdate:
		n := s.valNode(x.Map)
		s.addCell(s.elemOf(n), s.of(x.Value))
		s.addCell(s.keyOf(n), s.of(x.Key))
	case *ssa.Send:
		s.addCell(s.elemOf(s.valNode(x.Chan)), s.of(x.X))
	case *ssa.Lookup:
		if _, ok := x.X.Type().Underlying().(*types.Map); ok && !x.CommaOk {
			s.add(x, s.lookup(x))
		}
	case *ssa.Index:
		s.add(x, cell(s.elemOf(s.valNode(x.X))))
	case *ssa.BinOp:
		s.binOp(x)
	case *ssa.Return:
		sm := s.sum(x.Parent())
		for i, r := range x.Results {
			if i < len(sm.returns) {
				if out, grew := sm.returns[i].union(s.of(r)); grew {
					sm.returns[i] = out
					s.changed = true
				}
			}
		}
	case *ssa.Call:
		if _, tuple := x.Type().(*types.Tuple); !tuple {
			s.add(x, s.callResult(x, 0))
		}
		s.call(x)
	case *ssa.Go:
		s.call(x)
	case *ssa.Defer:
		s.call(x)
	}
}

// parsedOf returns the parsed-number tags of a value.
func (s *state) parsedOf(v ssa.Value) tagset {
	var out tagset
	for _, id := range s.of(v) {
		if s.tag(id).kind == tagParsed {
			out, _ = out.union(tagset{id})
		}
	}
	return out
}

func (s *state) extract(x *ssa.Extract) tagset {
	switch t := x.Tuple.(type) {
	case *ssa.Call:
		return s.callResult(t, x.Index)
	case *ssa.TypeAssert:
		if x.Index == 0 {
			return s.of(t.X)
		}
	case *ssa.Lookup:
		if _, ok := t.X.Type().Underlying().(*types.Map); ok && x.Index == 0 {
			return s.lookup(t)
		}
	case *ssa.UnOp:
		if t.Op == token.ARROW && x.Index == 0 {
			return cell(s.elemOf(s.valNode(t.X)))
		}
	case *ssa.Next:
		if r, ok := t.Iter.(*ssa.Range); ok && !t.IsString {
			switch x.Index {
			case 1:
				return cell(s.keyOf(s.valNode(r.X)))
			case 2:
				return cell(s.elemOf(s.valNode(r.X)))
			}
		}
	}
	return nil
}

// lookup returns the tags of a map value: what the map holds, and a source
// for a string keyed by a constant that names a version
// (annotations["example.com/last-applied-resource-version"]).
func (s *state) lookup(x *ssa.Lookup) tagset {
	ts := cell(s.elemOf(s.valNode(x.X)))
	if k, ok := model.ConstString(x.Index); ok && versionKey(k) && isString(x.X.Type().Underlying().(*types.Map).Elem()) {
		more := s.source(x, 0, func() *Source { return &Source{Kind: FromName, Pos: x.Pos(), Name: k} })
		ts, _ = ts.union(more)
	}
	return ts
}

// load returns the tags of a value loaded from an address: a source if the
// address is a resourceVersion field, else what was stored there.
func (s *state) load(x *ssa.UnOp) tagset {
	if fa, ok := x.X.(*ssa.FieldAddr); ok {
		if ts, ok := s.fieldSource(x, fa.X, fa.X.Type(), fa.Field, fa.Pos()); ok {
			return ts
		}
	}
	ts, _ := s.of(x.X).union(cell(s.locOf(x.X)))
	return ts
}

// field returns the tags of a field read from a struct value.
func (s *state) field(at ssa.Value, base ssa.Value, t types.Type, idx int) tagset {
	if ts, ok := s.fieldSource(at, base, t, idx, at.Pos()); ok {
		return ts
	}
	return cell(s.fieldNode(at, t, idx))
}

// fieldSource returns a source for a load of field idx of the struct (or
// pointer to struct) type t at base, if the field holds a resourceVersion.
func (s *state) fieldSource(at ssa.Value, base ssa.Value, t types.Type, idx int, pos token.Pos) (tagset, bool) {
	st := structOf(t)
	if st == nil || idx >= st.NumFields() {
		return nil, false
	}
	f := st.Field(idx)
	switch {
	case model.IsRVField(t, f):
		return s.source(at, 0, func() *Source {
			return &Source{Kind: FromField, Pos: pos, Name: f.Name(), Label: s.labelOfBase(base)}
		}), true
	case isNamedRVField(t, f):
		return s.source(at, 0, func() *Source { return &Source{Kind: FromName, Pos: pos, Name: f.Name()} }), true
	}
	if f.Pkg() != nil && f.Pkg() != s.pkg.Pkg && s.facts != nil {
		if ff := s.facts.FieldFact(f.Origin()); ff != nil {
			src := func() *Source { return &Source{Kind: FromHelper, Pos: pos, Name: f.Name()} }
			if ff.Elems {
				s.addCell(s.elemOf(s.valNode(at)), s.source(at, 1, src))
			}
			if ff.Keys {
				s.addCell(s.keyOf(s.valNode(at)), s.source(at, 2, src))
			}
			if ff.Value {
				return s.source(at, 0, src), true
			}
		}
	}
	return nil, false
}

// labelOfBase returns the resource type of the object whose ObjectMeta (or
// ListMeta, ...) base is.
func (s *state) labelOfBase(base ssa.Value) *types.TypeName {
	switch b := base.(type) {
	case *ssa.FieldAddr:
		return labelOf(b.X.Type())
	case *ssa.Field:
		return labelOf(b.X.Type())
	}
	return labelOf(base.Type())
}

// labelOf returns the resource type of an object type: the type itself, or
// the item type of a list; nil for metadata-only, unstructured and unknown
// types.
func labelOf(t types.Type) *types.TypeName {
	n := namedOf(t)
	if n == nil || n.Obj().Pkg() == nil {
		return nil
	}
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	hasMeta := false
	var items types.Type
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if f.Embedded() {
			switch model.EmbeddedMeta(f.Type()) {
			case model.MetaObject:
				hasMeta = true
			case model.MetaPartial:
				return nil
			}
		}
		if f.Name() == "Items" {
			if sl, ok := f.Type().Underlying().(*types.Slice); ok {
				items = sl.Elem()
			}
		}
	}
	if !hasMeta || model.InMetaV1(n) {
		return nil
	}
	if items != nil {
		return labelOf(items)
	}
	return n.Obj()
}

func structOf(t types.Type) *types.Struct {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, _ := t.Underlying().(*types.Struct)
	return st
}

// stringSliceSink reports a conversion to sort.StringSlice (to sort it) of
// a slice of resourceVersions.
func (s *state) stringSliceSink(instr ssa.Instruction, x ssa.Value, to types.Type) {
	if !model.IsStringSlice(to) {
		return
	}
	sk := s.sinkAt(instr, Order, "sort.StringSlice", nil)
	s.reach(sk, cell(s.elemOf(s.valNode(x))), nil)
}

func (s *state) binOp(x *ssa.BinOp) {
	str := isString(x.X.Type())
	switch x.Op {
	case token.LSS, token.LEQ, token.GTR, token.GEQ:
		if str && lengthFirst(x) {
			return // numeric order of well-formed versions: what CompareResourceVersion computes
		}
		if str {
			sk := s.sinkAt(x, Order, x.Op.String(), nil)
			s.reach(sk, s.of(x.X), nil)
			s.reach(sk, s.of(x.Y), nil)
			return
		}
		s.meetParsed(x, false)
	case token.EQL, token.NEQ:
		if str {
			if !s.seenEq[x] {
				s.seenEq[x] = true
				s.equal = append(s.equal, x)
			}
			return
		}
		s.meetParsed(x, false)
	case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.AND, token.OR, token.XOR, token.SHL, token.SHR, token.AND_NOT:
		if str {
			return // a concatenation is a new string: a key or a message
		}
		s.meetParsed(x, true)
		ts, _ := s.parsedOf(x.X).union(s.parsedOf(x.Y))
		s.add(x, ts)
	}
}

// lengthFirst reports whether a string order of a and b is in a function
// that also compares len(a) with len(b): if len(a) != len(b) { return
// len(a) > len(b) }; return a > b. For digit strings without leading zeros
// that is numeric order, which is how CompareResourceVersion orders
// well-formed versions, so the string order is not the "9" > "10" mistake.
func lengthFirst(x *ssa.BinOp) bool {
	a, b := ssax.Strip(x.X), ssax.Strip(x.Y)
	for _, blk := range x.Parent().Blocks {
		for _, instr := range blk.Instrs {
			cmp, ok := instr.(*ssa.BinOp)
			if !ok || cmp == x {
				continue
			}
			switch cmp.Op {
			case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			default:
				continue
			}
			l, r := lenOf(cmp.X), lenOf(cmp.Y)
			if l != nil && r != nil && (l == a && r == b || l == b && r == a) {
				return true
			}
		}
	}
	return false
}

// lenOf returns s of a call len(s), or nil.
func lenOf(v ssa.Value) ssa.Value {
	c, ok := v.(*ssa.Call)
	if !ok {
		return nil
	}
	if b, ok := c.Call.Value.(*ssa.Builtin); !ok || b.Name() != "len" || len(c.Call.Args) != 1 {
		return nil
	}
	return ssax.Strip(c.Call.Args[0])
}

// meetParsed records a comparison or arithmetic of parsed numbers: a use of
// each parse, and (for comparisons) that the parses belong together.
func (s *state) meetParsed(x *ssa.BinOp, arith bool) {
	if !arith {
		_, kx := x.X.(*ssa.Const)
		_, ky := x.Y.(*ssa.Const)
		if kx || ky {
			return // n == 0, n > 0: a test of the number, not of its order
		}
	}
	var parses []*sink
	for _, v := range []ssa.Value{x.X, x.Y} {
		for _, id := range s.parsedOf(v) {
			p := s.tag(id).parse
			if !containsSink(parses, p) {
				parses = append(parses, p)
			}
		}
	}
	for _, p := range parses {
		found := false
		for _, u := range p.uses {
			if u.Instr == ssa.Instruction(x) {
				found = true
			}
		}
		if !found {
			p.uses = append(p.uses, Use{Instr: x, Arith: arith})
		}
	}
	if arith {
		return
	}
	for i := 1; i < len(parses); i++ {
		m := meet{parses[0], parses[i]}
		dup := false
		for _, o := range s.meets {
			if o == m {
				dup = true
			}
		}
		if !dup {
			s.meets = append(s.meets, m)
		}
	}
}

// mint records a store of a formatted number into a resourceVersion field.
func (s *state) mint(instr ssa.Instruction, addr, val ssa.Value) {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return
	}
	st := structOf(fa.X.Type())
	if st == nil {
		return
	}
	f := st.Field(fa.Field)
	switch {
	case model.IsRVField(fa.X.Type(), f):
		if !model.IssuesRV(fa.X.Type()) {
			return // options and references name versions, they do not issue them
		}
	case isNamedRVField(fa.X.Type(), f):
		// A fake client's own version counter: c.resourceVersion = strconv.Itoa(n + 1).
	default:
		return
	}
	if formatted(val) {
		s.addMint(instr)
	}
}

func (s *state) addMint(instr ssa.Instruction) {
	for _, m := range s.mints {
		if m == instr {
			return
		}
	}
	s.mints = append(s.mints, instr)
}

// isBookmark reports whether v is the constant watch.Bookmark. Code that
// emits bookmark events serves a watch: it is an API server or a fake of
// one, and it issues the versions it sends.
func isBookmark(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	if !ok || k.Value == nil {
		return false
	}
	return model.IsBookmark(k.Type(), k.Value)
}

// formatted reports whether v is a number formatted as a string.
func formatted(v ssa.Value) bool {
	return formattedDepth(v, 2)
}

// formattedDepth also looks into the returns of a local helper:
// obj.SetResourceVersion(nextVersion()).
func formattedDepth(v ssa.Value, depth int) bool {
	c, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	if model.IsFormatFunc(model.CalleeName(&c.Call)) {
		return true
	}
	fn := c.Call.StaticCallee()
	if depth == 0 || fn == nil || len(fn.Blocks) == 0 || fn.Signature.Results().Len() == 0 {
		return false
	}
	rets := 0
	for _, b := range fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			if !formattedDepth(ret.Results[0], depth-1) {
				return false
			}
			rets++
		}
	}
	return rets > 0
}

// ---- calls ----

// callResult returns the tags of result idx of a call.
func (s *state) callResult(call *ssa.Call, idx int) tagset {
	c := &call.Call
	if b, ok := c.Value.(*ssa.Builtin); ok {
		switch b.Name() {
		case "min", "max":
			var ts tagset
			for _, a := range c.Args {
				ts, _ = ts.union(s.of(a))
			}
			return ts
		}
		return nil
	}
	name := s.calleeName(c)
	if sf, ok := model.ParseSink(name); ok {
		if sf.Result == idx {
			return tagset{s.id(tag{kind: tagParsed, parse: s.sinkAt(call, Parse, model.ShortName(name), nil)})}
		}
		return nil
	}
	if model.IsPassFunc(name) && idx == 0 {
		return s.of(model.Arg(c, 0))
	}
	if name == model.NestedString && idx == 0 {
		args := model.Args(c)
		if k, ok := lastVariadic(args[len(args)-1]); ok && k == "resourceVersion" {
			return s.source(call, 0, func() *Source { return &Source{Kind: FromUnstructured, Pos: c.Pos(), Name: "NestedString"} })
		}
	}
	if mname, sig, recv, ok := methodOf(c); ok && idx == 0 && isRVMethod(mname, sig) {
		return s.source(call, 0, func() *Source {
			return &Source{Kind: FromMethod, Pos: c.Pos(), Name: mname, Label: s.labelOfRecv(recv)}
		})
	}
	var ts tagset
	if fn := s.localCallee(c); fn != nil {
		sm := s.sum(fn)
		if idx < len(sm.returns) {
			ts = s.translate(sm.returns[idx], fn, c, call)
		}
		return ts
	}
	if p, ok := s.paramOf(c.Value); ok {
		res := c.Signature().Results()
		if idx < res.Len() && isStringOrPtr(res.At(idx).Type()) {
			ts = tagset{s.id(tag{kind: tagParamCall, fn: body(p.Parent()), idx: paramIndex(p)})}
		}
	}
	if obj := calleeObj(c); obj != nil && s.facts != nil && obj.Pkg() != s.pkg.Pkg {
		if ff := s.facts.FuncFact(obj); ff != nil && ff.returns(idx) {
			more := s.source(call, idx, func() *Source { return &Source{Kind: FromHelper, Pos: c.Pos(), Name: obj.Name()} })
			ts, _ = ts.union(more)
		}
	}
	// A result of an interface method or a function of another package
	// named like a resourceVersion.
	res := c.Signature().Results()
	if idx < res.Len() && isString(res.At(idx).Type()) && rvName(res.At(idx).Name()) {
		more := s.source(call, idx, func() *Source { return &Source{Kind: FromName, Pos: c.Pos(), Name: res.At(idx).Name()} })
		ts, _ = ts.union(more)
	}
	return ts
}

// lastVariadic returns the last constant string of the slice a variadic
// call packs its arguments into.
func lastVariadic(v ssa.Value) (string, bool) {
	sl, ok := v.(*ssa.Slice)
	if !ok {
		return "", false
	}
	alloc, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return "", false
	}
	arr, ok := alloc.Type().(*types.Pointer).Elem().Underlying().(*types.Array)
	if !ok || arr.Len() == 0 {
		return "", false
	}
	for _, r := range ssax.Referrers(alloc) {
		ia, ok := r.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		if k, ok := ia.Index.(*ssa.Const); !ok || k.Int64() != arr.Len()-1 {
			continue
		}
		for _, rr := range ssax.Referrers(ia) {
			if st, ok := rr.(*ssa.Store); ok {
				return model.ConstString(st.Val)
			}
		}
	}
	return "", false
}

// labelOfRecv returns the resource type of the receiver of a
// GetResourceVersion call: the concrete object type, also behind an
// interface conversion or an embedded ObjectMeta.
func (s *state) labelOfRecv(recv ssa.Value) *types.TypeName {
	for {
		switch x := recv.(type) {
		case *ssa.MakeInterface:
			recv = x.X
			continue
		case *ssa.ChangeInterface:
			recv = x.X
			continue
		case *ssa.FieldAddr:
			return labelOf(x.X.Type())
		case *ssa.Field:
			return labelOf(x.X.Type())
		}
		return labelOf(recv.Type())
	}
}

// translate maps a callee's summary tags into the caller: its parameters
// become the arguments' tags.
func (s *state) translate(ts tagset, fn *ssa.Function, c *ssa.CallCommon, at ssa.CallInstruction) tagset {
	var out tagset
	for _, id := range ts {
		t := s.tag(id)
		switch {
		case t.kind == tagParam && t.fn == fn:
			if t.idx < len(c.Args) {
				out, _ = out.union(s.of(c.Args[t.idx]))
			}
		case t.kind == tagParamCall && t.fn == fn:
			if t.idx < len(c.Args) {
				out, _ = out.union(s.funcResults(c.Args[t.idx], at))
			}
		default:
			out, _ = out.union(tagset{id})
		}
	}
	return out
}

// funcResults returns the tags of what calling a function value returns.
func (s *state) funcResults(v ssa.Value, at ssa.CallInstruction) tagset {
	v = s.resolveFunc(v)
	if p, ok := v.(*ssa.Parameter); ok {
		return tagset{s.id(tag{kind: tagParamCall, fn: body(p.Parent()), idx: paramIndex(p)})}
	}
	fn := funcValue(v)
	if fn == nil {
		return nil
	}
	if s.isLocal(fn) {
		sm := s.sum(fn)
		if len(sm.returns) == 0 {
			return nil
		}
		var out tagset
		for _, id := range sm.returns[0] {
			if t := s.tag(id); (t.kind == tagParam || t.kind == tagParamCall) && t.fn == body(fn) {
				continue
			}
			out, _ = out.union(tagset{id})
		}
		return out
	}
	if obj, ok := fn.Object().(*types.Func); ok && s.facts != nil {
		if ff := s.facts.FuncFact(obj.Origin()); ff != nil && ff.returns(0) {
			return s.source(at, -1, func() *Source { return &Source{Kind: FromHelper, Pos: at.Common().Pos(), Name: obj.Name()} })
		}
		if isRVMethod(obj.Name(), fn.Signature) {
			return s.source(at, -1, func() *Source { return &Source{Kind: FromMethod, Pos: at.Common().Pos(), Name: obj.Name()} })
		}
	}
	return nil
}

// call handles what a call does besides its result: sinks, and the
// summaries and facts of its callee.
func (s *state) call(instr ssa.CallInstruction) {
	c := instr.Common()
	if b, ok := c.Value.(*ssa.Builtin); ok {
		if b.Name() == "min" || b.Name() == "max" {
			if len(c.Args) > 0 && isString(c.Args[0].Type()) {
				sk := s.sinkAt(instr, Order, b.Name(), nil)
				for _, a := range c.Args {
					s.reach(sk, s.of(a), nil)
				}
			}
		}
		return
	}
	name := s.calleeName(c)
	args := model.Args(c)
	if sf, ok := model.SinkOf(name); ok {
		s.sinkCall(instr, name, sf, args)
	}
	if name == model.CompareResourceVersion && len(args) == 2 {
		if !s.seenEq[instr] {
			s.seenEq[instr] = true
			s.equal = append(s.equal, instr)
			if call, ok := instr.(*ssa.Call); !ok || !errorUsed(call) {
				s.dropped = append(s.dropped, instr)
			}
		}
	}
	for _, a := range c.Args {
		if isBookmark(a) {
			s.addMint(instr) // emits a bookmark: serves a watch
		}
	}
	if mname, sig, _, ok := methodOf(c); ok && mname == "SetResourceVersion" && sig.Params().Len() == 1 && len(args) == 1 && formatted(args[0]) {
		s.addMint(instr)
	}
	if fn := s.localCallee(c); fn != nil {
		s.applySummary(instr, fn)
		return
	}
	if p, ok := s.paramOf(c.Value); ok {
		// A call of a function parameter: its arguments, for the callers
		// that pass a function.
		sm := s.sum(p.Parent())
		idx := paramIndex(p)
		cw := sm.calledWith[idx]
		for len(cw) < len(c.Args) {
			cw = append(cw, nil)
		}
		for j, a := range c.Args {
			if out, grew := cw[j].union(s.of(a)); grew {
				cw[j] = out
				s.changed = true
			}
		}
		sm.calledWith[idx] = cw
		return
	}
	if obj := calleeObj(c); obj != nil && s.facts != nil && obj.Pkg() != s.pkg.Pkg {
		if ff := s.facts.FuncFact(obj); ff != nil {
			s.applyFact(instr, obj, ff)
		}
	}
	s.yield(c)
}

// errorUsed reports whether the error result of a call is used.
func errorUsed(call *ssa.Call) bool {
	for _, r := range ssax.Referrers(call) {
		if ex, ok := r.(*ssa.Extract); ok && ex.Index == 1 && len(*ex.Referrers()) > 0 {
			return true
		}
	}
	return false
}

// sinkCall handles a call of a known parse or ordering function.
func (s *state) sinkCall(instr ssa.CallInstruction, name string, sf model.Sink, args []ssa.Value) {
	if sf.Zero && onlyComparedToZero(instr) {
		return
	}
	if sf.Cmp >= 0 {
		if sf.Cmp >= len(args) || !model.IsCompareFunc(funcName(args[sf.Cmp])) {
			return
		}
	}
	sk := s.sinkAt(instr, sinkKind(sf.Kind), model.ShortName(name), nil)
	if sf.Recv {
		if r := model.Recv(instr.Common()); r != nil {
			s.reach(sk, s.of(r), nil)
		}
	}
	for _, i := range sf.Args {
		if i < len(args) && isStringOrPtr(args[i].Type()) {
			s.reach(sk, s.of(args[i]), nil)
		}
	}
	for _, i := range sf.Elems {
		if i < len(args) {
			s.reach(sk, cell(s.elemOf(s.valNode(args[i]))), nil)
		}
	}
}

// onlyComparedToZero reports whether the result of a three-way comparison
// is only compared with 0 for equality: an equality test.
func onlyComparedToZero(instr ssa.CallInstruction) bool {
	call, ok := instr.(*ssa.Call)
	if !ok {
		return false
	}
	refs := *call.Referrers()
	if len(refs) == 0 {
		return false
	}
	for _, r := range refs {
		b, ok := r.(*ssa.BinOp)
		if !ok || (b.Op != token.EQL && b.Op != token.NEQ) {
			return false
		}
		other := b.Y
		if other == ssa.Value(call) {
			other = b.X
		}
		k, ok := other.(*ssa.Const)
		if !ok || k.Value == nil || k.Value.String() != "0" {
			return false
		}
	}
	return true
}

// applySummary applies a local callee's summary at a call.
func (s *state) applySummary(instr ssa.CallInstruction, fn *ssa.Function) {
	c := instr.Common()
	sm := s.sum(fn)
	// Parsed numbers passed on: their parses meet where the callee
	// compares them (one finding per flow).
	for i, p := range fn.Params {
		if i < len(c.Args) {
			s.add(p, s.parsedOf(c.Args[i]))
		}
	}
	for _, sl := range sm.slots() {
		if sl.idx >= len(c.Args) {
			continue
		}
		var ts tagset
		if sl.call {
			ts = s.funcResults(c.Args[sl.idx], instr)
		} else {
			ts = s.of(c.Args[sl.idx])
		}
		for _, sk := range sm.sinks[sl] {
			s.reach(sk, ts, instr)
		}
	}
	// Function arguments the callee calls: their parameters receive what
	// the callee passes.
	for idx := 0; idx < len(c.Args); idx++ {
		cw, ok := sm.calledWith[idx]
		if !ok {
			continue
		}
		g := s.localFuncValue(c.Args[idx])
		if g == nil {
			continue
		}
		gs := s.sum(g)
		for _, sl := range gs.slots() {
			if sl.call || sl.idx >= len(cw) {
				continue
			}
			ts := s.translate(cw[sl.idx], body(fn), c, instr)
			for _, sk := range gs.sinks[sl] {
				s.reach(sk, ts, instr)
			}
		}
	}
}

// applyFact applies the fact of a function of another package at a call:
// a version passed to a helper that parses or orders it is found here.
func (s *state) applyFact(instr ssa.CallInstruction, obj *types.Func, ff *FuncFact) {
	c := instr.Common()
	for _, sf := range ff.Sinks {
		if sf.Param >= len(c.Args) {
			continue
		}
		var ts tagset
		if sf.Call {
			ts = s.funcResults(c.Args[sf.Param], instr)
		} else {
			ts = s.of(c.Args[sf.Param])
		}
		if len(ts) == 0 {
			continue
		}
		sk := s.sinkAt(instr, sf.Kind, obj.Name(), obj)
		s.reach(sk, ts, nil)
	}
}

// yield handles the yield function of a range-over-func loop over an
// iterator of versions: its parameters receive the iterator's elements.
func (s *state) yield(c *ssa.CallCommon) {
	if c.IsInvoke() || c.StaticCallee() != nil {
		return
	}
	if _, ok := c.Value.(*ssa.Builtin); ok {
		return
	}
	n := s.valNode(c.Value)
	for _, a := range c.Args {
		mc, ok := a.(*ssa.MakeClosure)
		if !ok {
			continue
		}
		fn, ok := mc.Fn.(*ssa.Function)
		if !ok {
			continue
		}
		switch len(fn.Params) {
		case 1:
			s.add(fn.Params[0], cell(s.elemOf(n)))
		case 2:
			s.add(fn.Params[0], cell(s.keyOf(n)))
			s.add(fn.Params[1], cell(s.elemOf(n)))
		}
	}
}

// ---- callees ----

func (s *state) isLocal(fn *ssa.Function) bool {
	return fn != nil && s.local[body(fn)] && len(body(fn).Blocks) > 0
}

// localCallee returns the local function a call invokes, if known.
func (s *state) localCallee(c *ssa.CallCommon) *ssa.Function {
	if c.IsInvoke() {
		return nil
	}
	fn := funcValue(s.resolveFunc(c.Value))
	if s.isLocal(fn) {
		return body(fn)
	}
	return nil
}

// maxFuncChain caps the steps resolveFunc takes from a function value to
// its definition.
const maxFuncChain = 8

// resolveFunc follows a function value to where it is defined: through
// conversions, free variables, and variables stored once (a captured
// parameter or closure).
func (s *state) resolveFunc(v ssa.Value) ssa.Value {
	for i := 0; i < maxFuncChain; i++ {
		v = strip(v)
		switch x := v.(type) {
		case *ssa.FreeVar:
			b, ok := s.bindings[x]
			if !ok {
				return v
			}
			v = b
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return v
			}
			st := s.onlyStore(x.X)
			if st == nil {
				return v
			}
			v = st
		default:
			return v
		}
	}
	return v
}

// onlyStore returns the value of the only store to a local variable.
func (s *state) onlyStore(addr ssa.Value) ssa.Value {
	if fv, ok := addr.(*ssa.FreeVar); ok {
		b, ok := s.bindings[fv]
		if !ok {
			return nil
		}
		addr = b
	}
	alloc, ok := addr.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var val ssa.Value
	for _, r := range ssax.Referrers(alloc) {
		if st, ok := r.(*ssa.Store); ok && st.Addr == alloc {
			if val != nil {
				return nil
			}
			val = st.Val
		}
	}
	return val
}

// localFuncValue returns the local function a function value is.
func (s *state) localFuncValue(v ssa.Value) *ssa.Function {
	fn := funcValue(s.resolveFunc(v))
	if s.isLocal(fn) {
		return body(fn)
	}
	return nil
}

// paramOf returns the parameter a function value is, also through the free
// variables of closures.
func (s *state) paramOf(v ssa.Value) (*ssa.Parameter, bool) {
	p, ok := s.resolveFunc(v).(*ssa.Parameter)
	if ok && p.Parent() != nil && s.isLocal(p.Parent()) {
		return p, true
	}
	return nil, false
}

func funcValue(v ssa.Value) *ssa.Function {
	switch f := v.(type) {
	case *ssa.Function:
		return f
	case *ssa.MakeClosure:
		fn, _ := f.Fn.(*ssa.Function)
		return fn
	}
	return nil
}

// funcName returns the full name of a function value.
func funcName(v ssa.Value) string {
	return model.FunctionName(funcValue(strip(v)))
}

// calleeObj returns the declared function a static call invokes.
func calleeObj(c *ssa.CallCommon) *types.Func {
	if c.IsInvoke() {
		return nil
	}
	fn := c.StaticCallee()
	if fn == nil {
		return nil
	}
	if o := fn.Origin(); o != nil {
		fn = o
	}
	obj, _ := fn.Object().(*types.Func)
	if obj == nil {
		return nil
	}
	return obj.Origin()
}

// methodOf returns the name, signature and receiver of a method call.
func methodOf(c *ssa.CallCommon) (string, *types.Signature, ssa.Value, bool) {
	if c.IsInvoke() {
		return c.Method.Name(), c.Method.Type().(*types.Signature), c.Value, true
	}
	fn := c.StaticCallee()
	if fn == nil || fn.Signature.Recv() == nil || len(c.Args) == 0 {
		return "", nil, nil, false
	}
	return fn.Name(), fn.Signature, c.Args[0], true
}

func body(fn *ssa.Function) *ssa.Function {
	if o := fn.Origin(); o != nil && len(o.Blocks) > 0 {
		return o
	}
	return fn
}

func paramIndex(p *ssa.Parameter) int {
	for i, x := range p.Parent().Params {
		if x == p {
			return i
		}
	}
	return -1
}

// strip removes conversions that keep the identity of a value.
func strip(v ssa.Value) ssa.Value { return ssax.Strip(v) }

// sinkKind is the kind of sink a function of the model is.
func sinkKind(k model.SinkKind) Kind {
	if k == model.SinkParse {
		return Parse
	}
	return Order
}
