package flow

import (
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/patch"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
)

// Patch helpers and patchers: functions where the snapshot a merge patch is
// computed from and the object it patches meet only across a call.
//
//   - a wrapper that patches one parameter with a merge patch from another
//     (PatchResource(original, updated, c)), or with a patch it is given;
//   - a patcher that keeps its snapshot in a struct field: its constructor
//     stores a copy of the object (NewPatcher(obj, c)), and its Patch method
//     sends a merge patch from that field to the object it is given.
//
// Their summaries say so (WriteFact.Diff, WriteFact.PatchArg, StoreFact);
// the caller, who sees what changed between the snapshot and the write,
// decides.

// StoreFact says a function returns (in result Result) a pointer to a
// struct whose field Field holds a copy of parameter Param (of its field
// ParamField, when set): a constructor that keeps a snapshot. Field may be a
// path: "helper.before" is the snapshot a patcher the constructor made and
// kept in field helper holds. With Alias, the field holds the object itself,
// not a copy: a scope struct that keeps the object it patches on Close.
type StoreFact struct {
	Result     int
	Field      string
	Param      int
	ParamField string `json:",omitempty"`
	Alias      bool   `json:",omitempty"`
}

// source is where a value comes from in the terms of one function: its
// parameter param, or field field of the struct parameter param points to;
// copied when through a DeepCopy.
type source struct {
	param  int
	field  string
	copied bool
}

// maxSourceDepth bounds the walks of sourceOf.
const maxSourceDepth = 12

// sourceOf follows v back to a parameter of fn (or a closure of fn bound to
// one), through conversions, variables, DeepCopy and DeepCopyObject, loads
// of a field of a parameter, copies returned by local helpers, and fields of
// structs built by constructors with a StoreFact.
func (p *Package) sourceOf(fn *ssa.Function, v ssa.Value, depth int) (source, bool) {
	if depth > maxSourceDepth || v == nil {
		return source{}, false
	}
	switch x := strip(v).(type) {
	case *ssa.Parameter:
		if x.Parent() == fn {
			return source{param: paramIndex(fn, x)}, true
		}
	case *ssa.FreeVar:
		if b, ok := p.bindings[x]; ok {
			return p.sourceOf(fn, b, depth+1)
		}
	case *ssa.UnOp:
		if x.Op != token.MUL {
			break
		}
		if isVariable(x.X) {
			vals := p.storedValues(root(x.X, p))
			if len(vals) == 1 {
				return p.sourceOf(fn, vals[0], depth+1)
			}
			break
		}
		if fa, ok := x.X.(*ssa.FieldAddr); ok {
			return p.fieldSource(fn, fa.X, FieldName(fa), depth+1)
		}
	case *ssa.Field:
		// A field of a struct passed by value (NewScope(params Params)
		// reading params.Object).
		st, ok := x.X.Type().Underlying().(*types.Struct)
		if !ok {
			break
		}
		s, ok := p.sourceOf(fn, x.X, depth+1)
		if !ok {
			break
		}
		return source{param: s.param, field: joinField(s.field, st.Field(x.Field).Name())}, true
	case *ssa.Alloc:
		// A struct parameter spilled to a variable, its field addressed.
		if vals := p.storedValues(x); len(vals) == 1 {
			return p.sourceOf(fn, vals[0], depth+1)
		}
	case *ssa.Call:
		switch model.ObjectMethod(x.Common()) {
		case model.DeepCopy, model.DeepCopyObject:
			s, ok := p.sourceOf(fn, model.Recv(x.Common()), depth+1)
			s.copied = true
			return s, ok
		}
		return p.returnedSource(fn, x, 0, depth)
	case *ssa.Extract:
		if c, ok := x.Tuple.(*ssa.Call); ok {
			return p.returnedSource(fn, c, x.Index, depth)
		}
	}
	return source{}, false
}

// fieldSource is the source of field field of the struct v points to: the
// value a constructor stored there, or the field of a parameter.
func (p *Package) fieldSource(fn *ssa.Function, v ssa.Value, field string, depth int) (source, bool) {
	if val, _ := p.StoredCopy(v, field); val != nil {
		s, ok := p.sourceOf(fn, val, depth+1)
		s.copied = true
		return s, ok
	}
	s, ok := p.sourceOf(fn, v, depth+1)
	if !ok {
		return source{}, false
	}
	return source{param: s.param, field: joinField(s.field, field)}, true
}

// joinField appends a field to a path of fields ("helper" and "before" make
// "helper.before").
func joinField(path, field string) string {
	if path == "" {
		return field
	}
	return path + "." + field
}

// returnedSource is the source of result idx of a call of a local function
// that returns a copy of one of its parameters (or of a field of one).
func (p *Package) returnedSource(fn *ssa.Function, c *ssa.Call, idx, depth int) (source, bool) {
	f := callee(c.Common())
	if !p.local(f) {
		return source{}, false
	}
	for _, cp := range p.summary(f).Copies {
		if cp.Result != idx || cp.Param >= len(c.Call.Args) {
			continue
		}
		arg := c.Call.Args[cp.Param]
		var s source
		var ok bool
		if cp.Field != "" {
			s, ok = p.fieldSource(fn, arg, cp.Field, depth+1)
		} else {
			s, ok = p.sourceOf(fn, arg, depth+1)
		}
		s.copied = true
		return s, ok
	}
	return source{}, false
}

// StoredCopy returns the value a constructor stored in field field of the
// struct v points to, when v is the result of a call of a function with a
// StoreFact for it, and that call.
func (p *Package) StoredCopy(v ssa.Value, field string) (ssa.Value, ssa.CallInstruction) {
	if c, idx := p.constructorOf(v); c != nil {
		return p.storedIn(c, idx, field, false)
	}
	return nil, nil
}

// KeptObject returns the object a constructor kept, itself, in field field
// of the struct v points to (a scope struct's object, patched by its
// Close), and that call.
func (p *Package) KeptObject(v ssa.Value, field string) (ssa.Value, ssa.CallInstruction) {
	if c, idx := p.constructorOf(v); c != nil {
		return p.storedIn(c, idx, field, true)
	}
	return nil, nil
}

// constructorOf returns the call whose result idx v is, through variables
// and captures, or nil.
func (p *Package) constructorOf(v ssa.Value) (*ssa.Call, int) {
	for depth := 0; depth < maxSourceDepth; depth++ {
		switch x := strip(v).(type) {
		case *ssa.FreeVar:
			b, ok := p.bindings[x]
			if !ok {
				return nil, 0
			}
			v = b
			continue
		case *ssa.UnOp:
			if x.Op != token.MUL || !isVariable(x.X) {
				return nil, 0
			}
			vals := p.storedValues(root(x.X, p))
			if len(vals) != 1 {
				return nil, 0
			}
			v = vals[0]
			continue
		case *ssa.Call:
			return x, 0
		case *ssa.Extract:
			if c, ok := x.Tuple.(*ssa.Call); ok {
				return c, x.Index
			}
		}
		return nil, 0
	}
	return nil, 0
}

// storedIn returns the argument of constructor call c that result idx keeps
// in field field: a copy of it (alias false) or the value itself (alias
// true).
func (p *Package) storedIn(c *ssa.Call, idx int, field string, alias bool) (ssa.Value, ssa.CallInstruction) {
	for _, st := range p.storesOf(c.Common()) {
		if st.Result != idx || st.Field != field || st.Alias != alias || st.Param >= len(c.Call.Args) {
			continue
		}
		arg := c.Call.Args[st.Param]
		if st.ParamField != "" {
			arg = structField(arg, st.ParamField)
			if arg == nil {
				return nil, nil
			}
		}
		return arg, c
	}
	return nil, nil
}

// structField returns the value put in field path (one field) of a struct
// value built as a literal where it is passed (NewScope(Params{Object:
// obj})), when exactly one is.
func structField(v ssa.Value, field string) ssa.Value {
	if strings.Contains(field, ".") {
		return nil
	}
	var a *ssa.Alloc
	switch x := strip(v).(type) {
	case *ssa.UnOp:
		if x.Op == token.MUL {
			a, _ = x.X.(*ssa.Alloc)
		}
	case *ssa.Alloc:
		a = x
	}
	if a == nil {
		return nil
	}
	st, ok := a.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Name() == field {
			return storedInField(a, i)
		}
	}
	return nil
}

// storesOf returns the StoreFacts of the function a call calls.
func (p *Package) storesOf(c *ssa.CallCommon) []StoreFact {
	fn := callee(c)
	if fn == nil {
		return nil
	}
	return known(p, fn, func(s *Summary) []StoreFact { return s.Stores }, func(f *FuncFact) []StoreFact { return f.Stores })
}

// CopyFact says a function returns in result Result a copy of parameter
// Param (of its field Field, if set).
type CopyFact struct {
	Result int
	Param  int
	Field  string
}

// storesAndCopies computes the StoreFacts and CopyFacts of a function: the
// copies of parameters it stores in the struct it returns, and the copies
// it returns.
func (p *Package) storesAndCopies(fn *ssa.Function, s *Summary) {
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		for i, r := range ret.Results {
			if isObjectType(r.Type()) {
				if src, ok := p.sourceOf(fn, r, 0); ok && src.copied {
					s.Copies = appendCopy(s.Copies, CopyFact{Result: i, Param: src.param, Field: src.field})
				}
			}
			alloc, ok := strip(r).(*ssa.Alloc)
			if !ok {
				continue
			}
			for _, ref := range ssax.Referrers(alloc) {
				fa, ok := ref.(*ssa.FieldAddr)
				if !ok || fa.X != alloc {
					continue
				}
				for _, fr := range ssax.Referrers(fa) {
					st, ok := fr.(*ssa.Store)
					if !ok || st.Addr != fa {
						continue
					}
					s.Stores = p.storesOfField(fn, s.Stores, i, FieldName(fa), st.Val)
				}
			}
		}
	}
}

// storesOfField adds the StoreFacts of value val, stored by constructor fn
// in field field of the struct it returns in result res: a copy of an
// object parameter (or of a field of one), the object parameter itself (an
// alias: a scope struct that keeps the object it patches), or a patcher
// another constructor made, whose snapshot then is in field.snapshotField.
func (p *Package) storesOfField(fn *ssa.Function, ss []StoreFact, res int, field string, val ssa.Value) []StoreFact {
	if isObjectType(val.Type()) {
		if src, ok := p.sourceOf(fn, val, 0); ok {
			if src.copied && src.field == "" {
				return appendStore(ss, StoreFact{Result: res, Field: field, Param: src.param})
			}
			if !src.copied && !strings.Contains(src.field, ".") {
				return appendStore(ss, StoreFact{Result: res, Field: field, Param: src.param, ParamField: src.field, Alias: true})
			}
		}
		return ss
	}
	c, idx := p.constructorOf(val)
	if c == nil {
		return ss
	}
	for _, inner := range p.storesOf(c.Common()) {
		if inner.Result != idx || inner.Alias || inner.ParamField != "" || inner.Param >= len(c.Call.Args) {
			continue
		}
		src, ok := p.sourceOf(fn, c.Call.Args[inner.Param], 0)
		if !ok || src.copied || strings.Contains(src.field, ".") {
			continue
		}
		ss = appendStore(ss, StoreFact{Result: res, Field: joinField(field, inner.Field), Param: src.param, ParamField: src.field})
	}
	return ss
}

func appendCopy(cs []CopyFact, c CopyFact) []CopyFact {
	for _, x := range cs {
		if x == c {
			return cs
		}
	}
	return append(cs, c)
}

func appendStore(ss []StoreFact, s StoreFact) []StoreFact {
	for _, x := range ss {
		if x == s {
			return ss
		}
	}
	return append(ss, s)
}

// diffWrite says what a patch write of fn sends, in fn's terms, when it is
// a merge patch without a lock from one parameter (or a field of it) to
// another, or a patch fn is given: the fields of a WriteFact.
type diffWrite struct {
	obj       int
	objField  string // the object is this field of parameter obj
	from      int
	fromField string
	patchArg  int
	status    bool
}

// patchOfWrite describes a patch write of fn by the parameters it joins.
func (p *Package) patchOfWrite(fn *ssa.Function, w *WriteSite) (diffWrite, bool) {
	d, ok := p.joinedParams(fn, w)
	if ok && d.patchArg < 0 && d.from == d.obj && d.fromField == d.objField {
		// A diff between two copies of one parameter: what changed, changed
		// inside fn.
		return diffWrite{}, false
	}
	return d, ok
}

func (p *Package) joinedParams(fn *ssa.Function, w *WriteSite) (diffWrite, bool) {
	if w.Op != model.OpPatch || w.ReadsFirst {
		return diffWrite{}, false
	}
	var obj source
	var ok bool
	switch {
	case w.Obj != nil:
		obj, ok = p.sourceOf(fn, w.Obj, 0)
	case w.Via != nil && w.ViaWrite.ParamField != "" && w.ViaWrite.Param < len(w.Call.Common().Args):
		// The scope's Close calls its own PatchObject: the object is the
		// field of the scope parameter.
		obj, ok = p.fieldSource(fn, w.Call.Common().Args[w.ViaWrite.Param], w.ViaWrite.ParamField, 0)
	}
	if !ok || strings.Contains(obj.field, ".") {
		return diffWrite{}, false
	}
	d := diffWrite{obj: obj.param, objField: obj.field, from: -1, patchArg: -1}
	c := w.Call.Common()
	switch {
	case w.Client != nil && w.Client.Patch >= 0:
		d.status = w.Client.Subresource == "status"
		arg := model.Arg(c, w.Client.Patch)
		if prm, ok := strip(arg).(*ssa.Parameter); ok && prm.Parent() == fn {
			d.patchArg = paramIndex(fn, prm)
			return d, true
		}
		info := patch.ControllerRuntime(arg, p.VariableValues)
		if info.Kind != patch.KindDiff || info.Lock || info.Type != patch.TypeMerge || info.BaseArg == nil {
			return diffWrite{}, false
		}
		from, ok := p.sourceOf(fn, info.BaseArg, 0)
		if !ok || (d.status && from.field != "") {
			// The status patch of a patcher is not followed: the
			// patchers of fluxcd and cluster-api send the conditions
			// apart, with a lock, and leave them out of it, which the
			// analysis cannot see.
			return diffWrite{}, false
		}
		d.from, d.fromField = from.param, from.field
		return d, true
	case w.Via != nil:
		wf := w.ViaWrite
		d.status = wf.Status
		switch {
		case wf.PatchArg >= 0 && wf.PatchArg < len(c.Args):
			prm, ok := strip(c.Args[wf.PatchArg]).(*ssa.Parameter)
			if !ok || prm.Parent() != fn {
				return diffWrite{}, false
			}
			d.patchArg = paramIndex(fn, prm)
			return d, true
		case wf.Diff && wf.From < len(c.Args):
			var from source
			if wf.FromField != "" {
				from, ok = p.fieldSource(fn, c.Args[wf.From], wf.FromField, 0)
			} else {
				from, ok = p.sourceOf(fn, c.Args[wf.From], 0)
			}
			if !ok {
				return diffWrite{}, false
			}
			d.from, d.fromField = from.param, from.field
			return d, true
		}
	}
	return diffWrite{}, false
}

func sortedKeys(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}
