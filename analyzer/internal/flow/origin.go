package flow

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
)

// objInfo is what is known of a value that refers to an object: where it can
// come from, and the events that may change its resourceVersion.
type objInfo struct {
	origins []Origin
	events  []*event
}

type eventKind uint8

const (
	evFill  eventKind = iota // the whole object is filled from src (a copy, a decode, a controller-runtime read)
	evSetRV                  // its resourceVersion is set from a read
	evClear                  // its resourceVersion is set to ""
	// its resourceVersion is set to that of src as read at rvRead: evSetRV
	// if src carries one there, evClear if it certainly carries none. It is
	// resolved when first asked (kindOf), once the provenance of src is
	// complete: src is often the object itself, being described when the
	// event is made (a live object's version saved, the object overwritten
	// with desired state, the version stored back).
	evSetRVFrom
)

// event is an instruction that changes the resourceVersion of an object.
type event struct {
	kind   eventKind
	instr  ssa.Instruction
	src    ssa.Value       // evFill from a value: the object copied in
	origin Origin          // evFill without src: the origin filled in
	rvRead ssa.Instruction // evSetRVFrom: where src's resourceVersion is read
	// onSuccess: the event happens only if the call succeeds (a
	// controller-runtime write fills the object in with the server's state).
	onSuccess bool
}

// kindOf returns the kind of an event, evSetRVFrom resolved.
func (p *Package) kindOf(e *event) eventKind {
	if e.kind != evSetRVFrom {
		return e.kind
	}
	// Provisionally a version from a read, should the question come back
	// to this event: it then reports nothing it could not prove.
	e.kind = evSetRV
	if allNoRV(p.Object(e.src, e.rvRead)) {
		e.kind = evClear
	}
	return e.kind
}

func (p *Package) merge(dst *objInfo, src *objInfo) {
	dst.origins = append(dst.origins, src.origins...)
	dst.events = append(dst.events, src.events...)
}

func add(info *objInfo, o Origin) { info.origins = append(info.origins, o) }

// describe returns the provenance and events of a value, memoised. A value
// met again while it is being described contributes nothing (cycles through
// phis and stores).
func (p *Package) describe(v ssa.Value) *objInfo {
	if info, ok := p.objMemo[v]; ok {
		return info
	}
	info := &objInfo{}
	p.objMemo[v] = info
	p.describeInto(v, info)
	for _, a := range p.aliases(v) {
		info.events = append(info.events, p.eventsOn(a)...)
	}
	// An object held in a field of a struct of the program (w :=
	// wrapper{}; Get(ctx, key, &w.obj); write(&w.obj)): each &w.obj is an
	// address of its own, and what fills one fills them all.
	if fa, ok := v.(*ssa.FieldAddr); ok && wrapper(fa.X) {
		for _, r := range ssax.Referrers(fa.X) {
			if o, ok := r.(*ssa.FieldAddr); ok && o != fa && o.Field == fa.Field {
				for _, a := range p.aliases(o) {
					info.events = append(info.events, p.eventsOn(a)...)
				}
			}
		}
	}
	info.origins = dedupOrigins(info.origins)
	info.events = dedupEvents(info.events)
	return info
}

func (p *Package) describeInto(v ssa.Value, info *objInfo) {
	switch x := v.(type) {
	case *ssa.MakeInterface:
		p.merge(info, p.describe(x.X))
	case *ssa.ChangeInterface:
		p.merge(info, p.describe(x.X))
	case *ssa.ChangeType:
		p.merge(info, p.describe(x.X))
	case *ssa.Convert:
		p.merge(info, p.describe(x.X))
	case *ssa.TypeAssert:
		p.merge(info, p.describe(x.X))
	case *ssa.Slice:
		p.merge(info, p.describe(x.X))
	case *ssa.Extract:
		switch t := x.Tuple.(type) {
		case *ssa.Call:
			p.callResult(t, x.Index, info)
		case *ssa.TypeAssert:
			p.merge(info, p.describe(t.X))
		case *ssa.Lookup:
			p.lookup(t, info)
		default:
			add(info, Origin{Kind: Unknown, Site: x})
		}
	case *ssa.Call:
		p.callResult(x, 0, info)
	case *ssa.Phi:
		for _, e := range x.Edges {
			if isNil(e) {
				continue
			}
			p.merge(info, p.describe(e))
		}
	case *ssa.Alloc:
		p.alloc(x, info)
	case *ssa.UnOp:
		if x.Op == token.MUL {
			p.load(x, info)
		} else {
			add(info, Origin{Kind: Unknown, Site: x})
		}
	case *ssa.FieldAddr:
		p.part(x, p.describe(x.X), info)
	case *ssa.IndexAddr:
		p.part(x, p.describe(x.X), info)
	case *ssa.Field:
		p.part(x, p.describe(x.X), info)
	case *ssa.Index:
		p.part(x, p.describe(x.X), info)
	case *ssa.Lookup:
		p.lookup(x, info)
	case *ssa.Parameter:
		add(info, Origin{Kind: Unknown, Param: x})
	case *ssa.FreeVar:
		if b, ok := p.bindings[x]; ok {
			p.merge(info, p.describe(b))
		} else {
			add(info, Origin{Kind: Unknown})
		}
	case *ssa.Const:
		// A zero typed list (return v1.WidgetList{}, err) holds no items:
		// nothing is built that a write could send.
		if !isNil(x) && !(x.Value == nil && model.IsTypedList(x.Type())) {
			add(info, Origin{Kind: Constructed})
		}
	case *ssa.MakeMap, *ssa.MakeSlice:
		add(info, Origin{Kind: Constructed, Site: v.(ssa.Instruction)})
	default:
		o := Origin{Kind: Unknown}
		if instr, ok := v.(ssa.Instruction); ok {
			o.Site = instr
		}
		add(info, o)
	}
}

// part describes a field or element of a value: a list item is read when its
// list is; a field of an unknown value is unknown, located at the access so
// that a retry that reaches into a receiver's field again counts as a re-read.
func (p *Package) part(at ssa.Instruction, whole *objInfo, info *objInfo) {
	for _, o := range whole.origins {
		if o.Kind == Unknown {
			o = Origin{Kind: Unknown, Site: at}
		}
		if vals := heldByValue(at, o); len(vals) > 0 {
			// &nsMarker{ns: item}: the object held is what was put there.
			for _, v := range vals {
				p.merge(info, p.describe(v))
			}
			continue
		}
		add(info, o)
	}
	// A list filled by a read fills its items; a struct of the program that
	// merely holds an object is no object, and what is stored into it is no
	// event of the object.
	if !wrapper(containerOf(at)) {
		info.events = append(info.events, whole.events...)
	}
}

// gatheredItems returns, for the address of a slice field of objects
// (Items) of an object the function constructs (all := new(WidgetList)),
// what the function stores into that field, and of an append stored there
// what it appends (all.Items = append(all.Items, l.Items...)); nil when
// nothing is stored into the field, or the object is not constructed.
func (p *Package) gatheredItems(fa *ssa.FieldAddr) []ssa.Value {
	sl, ok := fa.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Slice)
	if !ok || !model.IsObject(sl.Elem()) {
		return nil
	}
	whole := p.describe(fa.X)
	if len(whole.origins) == 0 {
		return nil
	}
	for _, o := range whole.origins {
		if o.Kind != Constructed {
			return nil
		}
	}
	return itemStores(p.sameFields(fa))
}

// itemsStored is gatheredItems for a typed list the function allocates:
// what it stores into, or appends to, the list's Items.
func (p *Package) itemsStored(a *ssa.Alloc) []ssa.Value {
	var fas []*ssa.FieldAddr
	for _, base := range p.aliases(a) {
		for _, r := range ssax.Referrers(base) {
			if f, ok := r.(*ssa.FieldAddr); ok && f.X == base && FieldName(f) == "Items" {
				fas = append(fas, f)
			}
		}
	}
	return itemStores(fas)
}

// itemStores returns what is stored into the Items fields fas address, and,
// of an append stored there, what it appends.
func itemStores(fas []*ssa.FieldAddr) []ssa.Value {
	var vals []ssa.Value
	for _, f := range fas {
		for _, r := range ssax.Referrers(f) {
			st, isStore := r.(*ssa.Store)
			if !isStore || st.Addr != f {
				continue
			}
			if c, isCall := st.Val.(*ssa.Call); isCall {
				if b, isBuiltin := c.Call.Value.(*ssa.Builtin); isBuiltin && b.Name() == "append" {
					for _, a := range c.Call.Args[1:] {
						vals = append(vals, appended(a)...)
					}
					continue
				}
			}
			vals = append(vals, st.Val)
		}
	}
	return vals
}

// appended returns what an argument of append adds: the items of a slice
// passed with ..., or each value of the array the compiler builds for
// append(list, a, b).
func appended(arg ssa.Value) []ssa.Value {
	sl, ok := arg.(*ssa.Slice)
	if !ok {
		return []ssa.Value{arg}
	}
	a, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return []ssa.Value{arg}
	}
	if _, isArray := a.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Array); !isArray {
		return []ssa.Value{arg}
	}
	var vals []ssa.Value
	for _, r := range ssax.Referrers(a) {
		ia, isIndex := r.(*ssa.IndexAddr)
		if !isIndex {
			continue
		}
		for _, rr := range ssax.Referrers(ia) {
			if st, isStore := rr.(*ssa.Store); isStore && st.Addr == ia {
				vals = append(vals, st.Val)
			}
		}
	}
	if len(vals) == 0 {
		return []ssa.Value{arg}
	}
	return vals
}

// heldByValue returns, for the address of an object field held by value in
// a struct of the program that the function allocates (o, Constructed at
// that allocation: m := &nsMarker{ns: item}, later &m.ns), the values
// stored into that field of the allocation; nil for other parts.
func heldByValue(at ssa.Instruction, o Origin) []ssa.Value {
	fa, ok := at.(*ssa.FieldAddr)
	if !ok || o.Kind != Constructed || !wrapper(fa.X) {
		return nil
	}
	a, ok := o.Site.(*ssa.Alloc)
	if !ok || !types.Identical(a.Type(), fa.X.Type()) {
		return nil
	}
	if _, isStruct := fa.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct); !isStruct {
		return nil
	}
	var vals []ssa.Value
	for _, r := range ssax.Referrers(a) {
		f, isField := r.(*ssa.FieldAddr)
		if !isField || f.Field != fa.Field {
			continue
		}
		for _, rr := range ssax.Referrers(f) {
			if st, isStore := rr.(*ssa.Store); isStore && st.Addr == f {
				vals = append(vals, st.Val)
			}
		}
	}
	return vals
}

// containerOf returns the value a field or element access reads from.
func containerOf(at ssa.Instruction) ssa.Value {
	switch x := at.(type) {
	case *ssa.FieldAddr:
		return x.X
	case *ssa.Field:
		return x.X
	case *ssa.IndexAddr:
		return x.X
	case *ssa.Index:
		return x.X
	case *ssa.UnOp:
		return x.X
	}
	return nil
}

// wrapper reports whether v is a struct of the program (or a pointer to
// one) that is not a Kubernetes object: a wrapper that holds one.
func wrapper(v ssa.Value) bool {
	if v == nil {
		return false
	}
	t := v.Type()
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if _, ok := t.Underlying().(*types.Struct); !ok {
		return false
	}
	return !model.IsObject(t)
}

// alloc describes a local or heap allocation: a variable holding an object
// (the values stored in it) or the memory of an object (constructed, unless
// a whole object value is stored into it).
func (p *Package) alloc(a *ssa.Alloc, info *objInfo) {
	stored := false
	for _, v := range p.storedValues(a) {
		if isNil(v) {
			continue
		}
		stored = true
		p.merge(info, p.describe(v))
	}
	if stored {
		return
	}
	if model.IsTypedList(a.Type()) {
		// var selected WidgetList; selected.Items = append(selected.Items,
		// item): a list the function gathers holds what it appends, and
		// is that as a whole (a list is never written), also to a caller
		// it is returned to.
		if vals := p.itemsStored(a); len(vals) > 0 {
			for _, v := range vals {
				p.merge(info, p.describe(v))
			}
			return
		}
	}
	if model.IsUnstructured(a.Type()) {
		// &unstructured.Unstructured{Object: m}: it is what m is, e.g. the
		// conversion of a read object.
		for _, r := range ssax.Referrers(a) {
			fa, ok := r.(*ssa.FieldAddr)
			if !ok || FieldName(fa) != "Object" {
				continue
			}
			for _, rr := range ssax.Referrers(fa) {
				if st, ok := rr.(*ssa.Store); ok && st.Addr == fa {
					p.merge(info, p.describe(st.Val))
					stored = true
				}
			}
		}
		if stored {
			return
		}
	}
	if isObjectMemory(a.Type()) {
		add(info, Origin{Kind: Constructed, Site: a})
	}
}

// storedValues returns the values stored whole into a variable, also from
// closures that capture it. The answer is kept: closures nested N deep that
// each use a captured variable ask about it N times.
func (p *Package) storedValues(cell ssa.Value) []ssa.Value {
	if vals, ok := p.storeMemo[cell]; ok {
		return slices.Clip(vals)
	}
	var vals []ssa.Value
	for _, addr := range p.cellAddrs(cell) {
		for _, r := range ssax.Referrers(addr) {
			if st, ok := r.(*ssa.Store); ok && st.Addr == addr {
				vals = append(vals, st.Val)
			}
		}
	}
	p.storeMemo[cell] = vals
	return slices.Clip(vals)
}

// cellAddrs returns a variable and the free variables of closures bound to
// it, kept as storedValues' answers are.
func (p *Package) cellAddrs(cell ssa.Value) []ssa.Value {
	if addrs, ok := p.cellMemo[cell]; ok {
		return slices.Clip(addrs)
	}
	addrs := []ssa.Value{cell}
	for _, fv := range p.boundTo[cell] {
		addrs = append(addrs, fv)
		addrs = append(addrs, p.cellAddrs(fv)[1:]...)
	}
	p.cellMemo[cell] = addrs
	return slices.Clip(addrs)
}

// isObjectMemory reports whether a pointer type points to a struct (the
// memory of an object value), not to a variable holding a reference.
func isObjectMemory(t types.Type) bool {
	ptr, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	_, ok = ptr.Elem().Underlying().(*types.Struct)
	return ok
}

func (p *Package) load(x *ssa.UnOp, info *objInfo) {
	switch addr := x.X.(type) {
	case *ssa.Alloc:
		p.merge(info, p.describe(addr))
	case *ssa.FreeVar:
		if b, ok := p.bindings[addr]; ok {
			if a, ok := b.(*ssa.Alloc); ok {
				p.merge(info, p.describe(a))
				return
			}
			p.merge(info, p.describe(b))
			return
		}
		add(info, Origin{Kind: Unknown, Site: x})
	case *ssa.FieldAddr:
		if vals, ok := p.wrapperField(addr); ok {
			// A reference held in a field of the program's own struct is
			// what was stored into that field, not the struct's memory.
			for _, v := range vals {
				p.merge(info, p.describe(v))
			}
			if len(vals) == 0 {
				add(info, Origin{Kind: Unknown, Site: x})
			}
			return
		}
		if vals := p.gatheredItems(addr); len(vals) > 0 {
			// all.Items = append(all.Items, l.Items...): the items of a
			// list the function allocates are what it put there.
			for _, v := range vals {
				p.merge(info, p.describe(v))
			}
			return
		}
		p.part(x, p.describe(addr), info)
	case *ssa.IndexAddr:
		if vals, ok := madeElems(addr); ok {
			// An element of a slice of references the function makes is
			// what it stores there: make leaves the elements nil.
			for _, v := range vals {
				p.merge(info, p.describe(v))
			}
			return
		}
		p.part(x, p.describe(addr), info)
	case *ssa.Parameter:
		add(info, Origin{Kind: Unknown, Param: addr})
	default:
		// A global, or memory reached through a value the model cannot follow.
		add(info, Origin{Kind: Unknown, Site: x})
	}
}

// lookup describes a map element: what was stored into the map, or unknown.
func (p *Package) lookup(l *ssa.Lookup, info *objInfo) {
	m := l.X
	found := false
	if refs := m.Referrers(); refs != nil {
		for _, r := range *refs {
			if u, ok := r.(*ssa.MapUpdate); ok && u.Map == m {
				found = true
				p.merge(info, p.describe(u.Value))
			}
		}
	}
	if !found {
		add(info, Origin{Kind: Unknown, Site: l})
	}
}

// callResult describes result idx of a call.
func (p *Package) callResult(call *ssa.Call, idx int, info *objInfo) {
	c := call.Common()
	if mc, ok := classify(c); ok {
		switch {
		case mc.Result != idx:
			add(info, Origin{Kind: Unknown, Site: call})
		case mc.Op == model.OpRead:
			add(info, Origin{Kind: Read, Site: call, RV0: p.RV0(c, mc)})
		case mc.Op == model.OpCacheRead:
			add(info, Origin{Kind: CacheRead, Site: call})
		case mc.Op == model.OpUpdate || mc.Op == model.OpPatch || mc.Op == model.OpApply || mc.Op == model.OpCreate:
			// The server's state after the write: it carries the new resourceVersion.
			add(info, Origin{Kind: Read, Site: call})
		default:
			add(info, Origin{Kind: Unknown, Site: call})
		}
		return
	}
	switch model.ObjectMethod(c) {
	case model.DeepCopy, model.DeepCopyObject:
		p.merge(info, p.describe(model.Recv(c)))
		return
	case model.GetObjectMeta:
		p.merge(info, p.describe(metaOwner(call)))
		return
	}
	if f, ok := model.FuncOf(c); ok {
		switch {
		case f.Kind == model.FuncCopy && f.Dst < 0 && idx == 0:
			p.merge(info, p.describe(model.Arg(c, f.Src)))
			return
		case f.Kind == model.FuncAlias && idx == 0:
			p.merge(info, p.describe(model.Arg(c, f.Src)))
			return
		case f.Kind == model.FuncDecode && f.Dst < 0 && idx == 0:
			src, callers := p.encodingOf(model.Arg(c, f.Data))
			switch {
			case src != nil:
				p.merge(info, p.describe(src))
				return
			case callers:
				add(info, Origin{Kind: Unknown, Site: call})
				return
			}
			add(info, Origin{Kind: Constructed, Site: call, Decoded: true})
			return
		}
	}
	fn := callee(c)
	if p.local(fn) {
		s := p.summary(fn)
		if idx < len(s.Returns) {
			for _, o := range s.Returns[idx] {
				if o.Kind == Unknown && o.Param != nil {
					if arg := argFor(c, o.Param); arg != nil {
						p.merge(info, p.describe(arg))
						continue
					}
				}
				add(info, Origin{Kind: o.Kind, Site: call, Via: funcObject(fn), RV0: o.RV0, Decoded: o.Decoded})
			}
			return
		}
	} else if obj := calleeObject(c); obj != nil && p.facts != nil {
		if ff := p.facts.FuncFact(obj); ff != nil {
			if k, ok := ff.returns(idx); ok {
				add(info, Origin{Kind: k, Site: call, Via: obj})
				return
			}
		}
	}
	add(info, Origin{Kind: Unknown, Site: call})
}

// calleeObject returns the declared function a static call invokes.
func calleeObject(c *ssa.CallCommon) *types.Func {
	return funcObject(callee(c))
}

// argFor returns the argument a call passes for a parameter of its callee.
// An interface method call passes its receiver as the call's value.
func argFor(c *ssa.CallCommon, param *ssa.Parameter) ssa.Value {
	fn := param.Parent()
	for i, prm := range fn.Params {
		if prm != param {
			continue
		}
		if c.IsInvoke() && fn.Signature.Recv() != nil {
			if i == 0 {
				return c.Value
			}
			i--
		}
		if i < len(c.Args) {
			return c.Args[i]
		}
	}
	return nil
}

// RV0 reports whether the options of a read ask for ResourceVersion "0":
// metav1.GetOptions/ListOptions{ResourceVersion: "0"}, directly or as the
// Raw options of a controller-runtime option.
func (p *Package) RV0(c *ssa.CallCommon, mc model.Call) bool {
	opts := model.Arg(c, mc.Opts)
	return opts != nil && p.rv0Site(opts, 0) != nil
}

// RV0Site returns the store of ResourceVersion "0" into the options of a read.
func (p *Package) RV0Site(c *ssa.CallCommon, mc model.Call) *ssa.Store {
	opts := model.Arg(c, mc.Opts)
	if opts == nil {
		return nil
	}
	return p.rv0Site(opts, 0)
}

func (p *Package) rv0Site(v ssa.Value, depth int) *ssa.Store {
	if depth > maxRV0Depth || v == nil {
		return nil
	}
	v = strip(v)
	switch x := v.(type) {
	case *ssa.UnOp:
		if x.Op == token.MUL {
			return p.rv0Site(x.X, depth+1)
		}
	case *ssa.Slice:
		return p.rv0Site(x.X, depth+1)
	case *ssa.Phi:
		for _, e := range x.Edges {
			if s := p.rv0Site(e, depth+1); s != nil {
				return s
			}
		}
	case *ssa.Alloc:
		for _, r := range ssax.Referrers(x) {
			switch a := r.(type) {
			case *ssa.Store:
				if a.Addr == x {
					if s := p.rv0Site(a.Val, depth+1); s != nil {
						return s
					}
				}
			case *ssa.FieldAddr:
				name := FieldName(a)
				for _, rr := range ssax.Referrers(a) {
					st, ok := rr.(*ssa.Store)
					if !ok || st.Addr != a {
						continue
					}
					switch name {
					case "ResourceVersion":
						if s, ok := model.ConstString(st.Val); ok && s == "0" {
							return st
						}
					case "Raw":
						if s := p.rv0Site(st.Val, depth+1); s != nil {
							return s
						}
					}
				}
			case *ssa.IndexAddr: // variadic options
				for _, rr := range ssax.Referrers(a) {
					if st, ok := rr.(*ssa.Store); ok && st.Addr == a {
						if s := p.rv0Site(st.Val, depth+1); s != nil {
							return s
						}
					}
				}
			}
		}
	}
	return nil
}

// FieldName returns the name of the field a FieldAddr or Field selects, or
// "" for any other value.
func FieldName(v ssa.Value) string {
	var t types.Type
	var i int
	switch x := v.(type) {
	case *ssa.FieldAddr:
		p, ok := x.X.Type().Underlying().(*types.Pointer)
		if !ok { // a type parameter's pointer
			return ""
		}
		t, i = p.Elem(), x.Field
	case *ssa.Field:
		t, i = x.X.Type(), x.Field
	default:
		return ""
	}
	if s, ok := t.Underlying().(*types.Struct); ok && i < s.NumFields() {
		return s.Field(i).Name()
	}
	return ""
}

func isNil(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.IsNil()
}

func dedupEvents(es []*event) []*event {
	seen := map[*event]bool{}
	out := es[:0]
	for _, e := range es {
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return out
}

// wrapperField returns, for a field of a struct of the program (not an
// object) that holds a reference (a pointer or an interface), the values
// stored into that field of the same struct in this function; ok is false
// for other fields.
func (p *Package) wrapperField(fa *ssa.FieldAddr) (vals []ssa.Value, ok bool) {
	if !wrapper(fa.X) {
		return nil, false
	}
	switch fa.Type().Underlying().(*types.Pointer).Elem().Underlying().(type) {
	case *types.Pointer, *types.Interface:
	default:
		return nil, false
	}
	for _, f := range p.sameFields(fa) {
		for _, rr := range ssax.Referrers(f) {
			if st, isStore := rr.(*ssa.Store); isStore && st.Addr == f && !isNil(st.Val) {
				vals = append(vals, st.Val)
			}
		}
	}
	for _, v := range vals {
		if st := storeOf(v, fa.Field); st != nil && st.Parent() != fa.Parent() && p.callsStoreField(fa.Parent(), fa) {
			// Stored by the function that made this closure, but the
			// closure runs code that may store another value there.
			return nil, true
		}
	}
	return vals, true
}

// maxStoreSearch caps the functions callsStoreField looks into.
const maxStoreSearch = 64

// callsStoreField reports whether a function of the package that fn calls
// (statically, through an interface whose method the package declares, or
// a closure it makes), or one they call, stores into field fa.Field of a
// struct of fa.X's type; true when there are too many functions to tell.
func (p *Package) callsStoreField(fn *ssa.Function, fa *ssa.FieldAddr) bool {
	t := fa.X.Type()
	seen := map[*ssa.Function]bool{fn: true}
	work := []*ssa.Function{fn}
	for len(work) > 0 {
		if len(seen) > maxStoreSearch {
			return true
		}
		g := work[len(work)-1]
		work = work[:len(work)-1]
		add := func(h *ssa.Function) {
			if h != nil && p.local(h) && !seen[h] {
				seen[h] = true
				work = append(work, body(h))
			}
		}
		for _, b := range g.Blocks {
			for _, instr := range b.Instrs {
				switch x := instr.(type) {
				case *ssa.Store:
					if f, ok := x.Addr.(*ssa.FieldAddr); ok && g != fn && f.Field == fa.Field && types.Identical(f.X.Type(), t) {
						return true
					}
				case *ssa.MakeClosure:
					add(x.Fn.(*ssa.Function))
				case ssa.CallInstruction:
					c := x.Common()
					if c.IsInvoke() {
						for _, m := range p.methods[c.Method.Name()] {
							add(m)
						}
					} else {
						add(c.StaticCallee())
					}
				}
			}
		}
	}
	return false
}

// sameFields returns the addresses of fa's field of the struct fa.X
// refers to (through its aliases) in fa's function: each use of a field
// takes its address anew. Where fa.X is loaded from a variable that holds
// the one struct pointer (a receiver or parameter that a closure captures,
// never assigned again), the loads of that variable in the function that
// declares it and in the closures that capture it refer to the same
// struct: their fields count too.
func (p *Package) sameFields(fa *ssa.FieldAddr) []*ssa.FieldAddr {
	var out []*ssa.FieldAddr
	bases := p.aliases(fa.X)
	if ld, ok := strip(fa.X).(*ssa.UnOp); ok && ld.Op == token.MUL && isVariable(ld.X) {
		cell := root(ld.X, p)
		if a, ok := cell.(*ssa.Alloc); ok && len(p.storedValues(a)) == 1 {
			for _, addr := range p.cellAddrs(a) {
				for _, r := range ssax.Referrers(addr) {
					if l, ok := r.(*ssa.UnOp); ok && l.Op == token.MUL && l != ld {
						bases = append(slices.Clip(bases), l)
					}
				}
			}
		}
	}
	for _, base := range bases {
		for _, r := range ssax.Referrers(base) {
			if f, isField := r.(*ssa.FieldAddr); isField && f.Field == fa.Field && f.X == base {
				out = append(out, f)
			}
		}
	}
	return out
}

// storeOf returns the store of v into field field, or nil.
func storeOf(v ssa.Value, field int) *ssa.Store {
	for _, r := range ssax.Referrers(v) {
		if st, ok := r.(*ssa.Store); ok && st.Val == v {
			if f, ok := st.Addr.(*ssa.FieldAddr); ok && f.Field == field {
				return st
			}
		}
	}
	return nil
}

// madeElems returns, for an element of a slice of pointers that the
// function makes (objs := make([]*T, n)), the values stored into elements
// of that slice (objs[i] = obj); ok is false for other slices, and for a
// made slice nothing is stored into, or that is resliced or escapes to a
// call, whose elements the function does not show.
func madeElems(ia *ssa.IndexAddr) (vals []ssa.Value, ok bool) {
	ms, isMade := ia.X.(*ssa.MakeSlice)
	if !isMade {
		return nil, false
	}
	if _, isPtr := ms.Type().Underlying().(*types.Slice).Elem().Underlying().(*types.Pointer); !isPtr {
		return nil, false
	}
	for _, r := range ssax.Referrers(ms) {
		elem, isIndex := r.(*ssa.IndexAddr)
		if !isIndex {
			switch r := r.(type) {
			case *ssa.DebugRef:
				continue
			case *ssa.Call:
				if b, isBuiltin := r.Call.Value.(*ssa.Builtin); isBuiltin && (b.Name() == "len" || b.Name() == "cap") {
					continue
				}
			}
			return nil, false // resliced, stored, passed or appended to: other elements may be there
		}
		for _, rr := range ssax.Referrers(elem) {
			if st, isStore := rr.(*ssa.Store); isStore && st.Addr == elem && !isNil(st.Val) {
				vals = append(vals, st.Val)
			}
		}
	}
	return vals, len(vals) > 0
}

// ParamRead reports whether every call in the package of the function of
// param (there is at least one) passes for it an object that was read (a
// fresh or a cache read), directly or through its own callers' parameters.
func (p *Package) ParamRead(param *ssa.Parameter) bool {
	return p.paramRead(param, 0)
}

func (p *Package) paramRead(param *ssa.Parameter, depth int) bool {
	calls := p.callsOf[param.Parent()]
	if len(calls) == 0 || depth > maxParamReadDepth {
		return false
	}
	for _, c := range calls {
		arg := argFor(c.Common(), param)
		if arg == nil {
			return false
		}
		read := false
		for _, o := range p.Object(arg, c) {
			switch {
			case o.Kind == Read || o.Kind == CacheRead:
				read = true
			case o.Kind == Unknown && o.Param != nil && o.Param != param && p.paramRead(o.Param, depth+1):
				read = true
			default:
				return false
			}
		}
		if !read {
			return false
		}
	}
	return true
}
