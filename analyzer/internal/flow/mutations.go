package flow

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
)

// Mutation is a change of a field of an object.
type Mutation struct {
	Instr    ssa.Instruction
	Field    string // "finalizers", "status.conditions", "spec.replicas"
	List     bool   // a list changes: a merge patch sends the whole list
	Merge    bool   // the list has patchStrategy merge: a strategic merge patch merges it by key
	FromRead bool   // the new value is computed from the value it replaces, read from the object
	Remove   bool   // the list only loses elements: it is set to a part of what was read
	// Replaced: the whole list is set to a value not computed from the list
	// it replaces (desired state: a copy of a template's list, a list kept
	// from another object, a list computed from other fields, constants),
	// or is filled element by element after such a set. A merge patch then
	// sends what the controller wants whatever changed meanwhile in that
	// list; a lock would only make it retry to send the same list.
	Replaced bool
	Via      *types.Func // the helper that does it
}

// Mutations returns the changes made to the object v refers to that may run
// after instruction from and before instruction to (both optional).
func (p *Package) Mutations(v ssa.Value, from, to ssa.Instruction) []Mutation {
	aliases := p.objectAliases(v)
	set := map[ssa.Value]bool{}
	for _, a := range aliases {
		set[a] = true
	}
	var all []Mutation
	for _, a := range aliases {
		all = append(all, p.mutationsOn(a, "", set, 0)...)
	}
	p.fillsOfReplaced(all, set)
	var out []Mutation
	for _, m := range all {
		if m.Instr == from || m.Instr == to {
			continue
		}
		// Between two instructions of one function run only that
		// function and the closures it calls, not its enclosing function.
		if from != nil && !within(m.Instr.Parent(), from.Parent()) {
			continue
		}
		if from != nil && !p.mayReach(from, m.Instr) {
			continue
		}
		if to != nil && !p.sentAfter(m.Instr, to) {
			continue
		}
		if from != nil && to != nil && !p.reachesAvoiding(m.Instr, to, from) {
			// for { change(obj); base := obj.DeepCopy(); Patch(obj, base) }:
			// the change of the next round is taken into its snapshot.
			continue
		}
		out = append(out, m)
	}
	return out
}

// fillsOfReplaced marks as Replaced the element writes of a list that a
// set of the whole list to desired state dominates: make([]T, n), then
// obj.Status.Plugins[i].Name = ... fills the list just set, not the list
// that was read. So too the calls that add to such a list:
// SetOwnerReferences(nil), then SetControllerReference(owner, obj) builds
// the list from nothing.
func (p *Package) fillsOfReplaced(ms []Mutation, obj map[ssa.Value]bool) {
	for i := range ms {
		if st, ok := ms[i].Instr.(*ssa.Store); ok && ms[i].List && !ms[i].Replaced && !ms[i].Remove && p.appendsToItself(st, obj, ms[i].Field) {
			// obj.Status.Conditions = make([]T, 0, n); for ... {
			// obj.Status.Conditions = append(obj.Status.Conditions, c) }:
			// the list is built anew, from values not read from it.
			for _, set := range ms {
				if set.Instr != st && set.replaces(ms[i].Field) && p.dominates(set.Instr, st) {
					ms[i].Replaced = true
					break
				}
			}
			continue
		}
		if _, ok := ms[i].Instr.(ssa.CallInstruction); ok && ms[i].List && !ms[i].Replaced {
			for _, set := range ms {
				if set.Instr != ms[i].Instr && set.replaces(ms[i].Field) && p.dominates(set.Instr, ms[i].Instr) {
					ms[i].Replaced = true
					break
				}
			}
			continue
		}
		if _, ok := ms[i].Instr.(ssa.CallInstruction); ok && ms[i].FromRead && !ms[i].Replaced {
			// obj.Status.Operators = make(map[string]S); for ... {
			// obj.SetOperatorStatus(name, ...) }: the helper reads and
			// sets an entry of the map just made, not of the map read.
			for _, set := range ms {
				if st, ok := set.Instr.(*ssa.Store); ok && set.Field == ms[i].Field && freshMap(st.Val) && p.dominates(st, ms[i].Instr) {
					ms[i].Replaced = true
					break
				}
			}
			continue
		}
		ia, ok := ms[i].Instr.(*ssa.IndexAddr)
		if !ok || !ms[i].List || ms[i].Replaced {
			continue
		}
		// An element of a list set to desired state is filled from what
		// it is filled with; an element of a struct set whole (dep.Spec =
		// build(cr)) is an element of the list built, whatever it is
		// filled from after (ct.Env = append(ct.Env, e)).
		filled := p.filledFrom(ia, obj, ms[i].Field)
		for _, set := range ms {
			if _, ok := set.Instr.(*ssa.Store); ok && set.replaces(ms[i].Field) && (!filled || set.Field != ms[i].Field) && p.dominates(set.Instr, ms[i].Instr) {
				ms[i].Replaced = true
				break
			}
		}
	}
}

// replaces reports whether a change sets the list at field path to desired
// state: it sets that list so, or it stores into a struct that holds the
// list a value not computed from the object (dep.Spec = buildSpec(cr):
// every list inside is the one built).
func (m Mutation) replaces(field string) bool {
	if m.Field == field {
		return m.Replaced
	}
	_, store := m.Instr.(*ssa.Store)
	return store && !m.List && !m.FromRead && strings.HasPrefix(field, m.Field+".")
}

// appendsToItself reports whether a store into a list field stores an
// append to what the same field holds (obj.L = append(obj.L, x...)) of
// values not computed from that field of the object.
func (p *Package) appendsToItself(st *ssa.Store, obj map[ssa.Value]bool, field string) bool {
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	c, ok := strip(st.Val).(*ssa.Call)
	if !ok {
		return false
	}
	if b, ok := c.Call.Value.(*ssa.Builtin); !ok || b.Name() != "append" || len(c.Call.Args) != 2 {
		return false
	}
	ld, ok := strip(c.Call.Args[0]).(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return false
	}
	base, ok := ld.X.(*ssa.FieldAddr)
	if !ok || base.Field != fa.Field || !types.Identical(base.X.Type(), fa.X.Type()) {
		return false
	}
	for _, e := range ssax.VariadicElements(c.Call.Args[1]) {
		if p.fromObject(e.Value, obj, field, st) {
			return false
		}
	}
	_, packed := c.Call.Args[1].(*ssa.Slice)
	return packed || !p.fromObject(c.Call.Args[1], obj, field, st)
}

// filledFrom reports whether a value stored into a list element (or into
// a field of it) is computed from the list itself: the list read, copied
// into the new one (old := obj.List; obj.List = make(...); obj.List[i] = old[i]).
func (p *Package) filledFrom(ia *ssa.IndexAddr, obj map[ssa.Value]bool, field string) bool {
	var stored func(v ssa.Value, depth int) bool
	stored = func(v ssa.Value, depth int) bool {
		if depth > maxAliasDepth {
			return false
		}
		for _, r := range ssax.Referrers(v) {
			switch r := r.(type) {
			case *ssa.Store:
				if r.Addr == v && p.fromObject(r.Val, obj, field, r) {
					return true
				}
			case *ssa.FieldAddr:
				if stored(r, depth+1) {
					return true
				}
			}
		}
		return false
	}
	return stored(ia, 0)
}

// objectAliases returns every value that may refer to the object v refers
// to: back through conversions and variables to its definitions, then
// forward through their aliases.
func (p *Package) objectAliases(v ssa.Value) []ssa.Value {
	seen := map[ssa.Value]bool{}
	var roots []ssa.Value
	var back func(v ssa.Value, depth int)
	back = func(v ssa.Value, depth int) {
		v = strip(v)
		if seen[v] || depth > maxAliasDepth {
			return
		}
		seen[v] = true
		switch x := v.(type) {
		case *ssa.UnOp:
			if x.Op == token.MUL && isVariable(x.X) {
				for _, sv := range p.storedValues(root(x.X, p)) {
					back(sv, depth+1)
				}
				return
			}
		case *ssa.Phi:
			for _, e := range x.Edges {
				back(e, depth+1)
			}
			return
		case *ssa.FreeVar:
			if b, ok := p.bindings[x]; ok {
				back(b, depth+1)
				return
			}
		}
		roots = append(roots, v)
	}
	back(v, 0)
	var out []ssa.Value
	added := map[ssa.Value]bool{}
	for _, r := range roots {
		for _, a := range p.aliases(r) {
			if !added[a] {
				added[a] = true
				out = append(out, a)
			}
		}
	}
	return out
}

// mutationsOn finds the changes made through one value referring to an
// object (or to a struct inside it, at path).
func (p *Package) mutationsOn(a ssa.Value, path string, obj map[ssa.Value]bool, depth int) []Mutation {
	refs := a.Referrers()
	if refs == nil || depth > maxMutationDepth {
		return nil
	}
	var out []Mutation
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.FieldAddr:
			out = append(out, p.fieldMutations(r, path, obj, depth)...)
		case ssa.CallInstruction:
			out = append(out, p.callMutations(r, a, path, obj)...)
		}
	}
	return out
}

func (p *Package) fieldMutations(f *ssa.FieldAddr, path string, obj map[ssa.Value]bool, depth int) []Mutation {
	st := f.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
	field := st.Field(f.Field)
	tag := st.Tag(f.Field)
	sub := path
	if !field.Embedded() {
		sub = joinPath(path, model.JSONName(field.Name(), tag))
	}
	ft := field.Type()
	isSlice := ssax.IsJSONList(ft)
	_, isMap := ft.Underlying().(*types.Map)
	_, isPtr := ft.Underlying().(*types.Pointer)
	_, isStruct := ft.Underlying().(*types.Struct)
	merge := strings.Contains(model.Tag(tag, "patchStrategy"), "merge")
	var out []Mutation
	if field.Name() == "Object" && model.IsUnstructured(f.X.Type()) {
		return p.unstructuredMutations(f, obj)
	}
	for _, r := range ssax.Referrers(f) {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr != f {
				continue
			}
			m := Mutation{Instr: r, Field: sub, List: isSlice, Merge: merge}
			switch {
			case isMap && keyedMap(ft):
				// obj.Labels = lo.Assign(obj.Labels, more): a merge patch
				// of a map sends the keys that changed, each set blind;
				// concurrent changes to other keys are kept. Unless a
				// value put in a map on the way is computed from the
				// map read (ann := maps.Clone(obj.Annotations);
				// ann["n"] = inc(obj.Annotations["n"]); obj.Annotations = ann).
				m.FromRead = p.mapValueFromRead(r.Val, obj, sub)
			case jsonObject(ft):
				// obj.Spec.Config = merged(obj.Spec.Config, defaults), a
				// free-form object (map[string]any, unstructured): a
				// merge patch recurses into it and sends the leaves that
				// changed, not the object whole. Only a value put into
				// it here from what was read is a read-modify-write.
				m.FromRead = p.mapValueFromRead(r.Val, obj, sub)
			case isStruct && p.copyBack(r.Val, obj, sub, ft):
				// desired := obj.Status; mutate(&desired); obj.Status =
				// desired: the fields that changed, set from elsewhere.
			case !isSlice:
				m.FromRead = p.fromObject(r.Val, obj, sub, r)
			case emptyList(r.Val):
				// obj.Status.ResourceKey = nil: cleared to a constant, the
				// controller's desired state whatever the list held; or
				// make([]T, n), filled after (see fillsOfReplaced).
				_, made := strip(r.Val).(*ssa.MakeSlice)
				m.Remove, m.Replaced = !made, true
			default:
				m.Remove = p.sublist(r.Val, obj, sub)
				m.Replaced = !m.Remove && !p.fromObject(r.Val, obj, sub, r)
			}
			out = append(out, m)
		case *ssa.FieldAddr:
			out = append(out, p.fieldMutations(r, sub, obj, depth+1)...)
		case *ssa.UnOp:
			if r.Op != token.MUL {
				continue
			}
			switch {
			case isSlice:
				// obj.Spec.Ports[i] = x, obj.Spec.Ports[i].Port = x,
				// probe(&obj.Status.Conditions[i]) with a helper of the
				// package that stores through its parameter; and
				// c := findCondition(obj.Status.Conditions, t); c.Status = x,
				// an element changed through the address a helper returns.
				for _, rr := range ssax.Referrers(r) {
					switch rr := rr.(type) {
					case *ssa.IndexAddr:
						if rr.X != r || len(writesThrough(p, rr, 0)) == 0 {
							continue
						}
						m := Mutation{Instr: rr, Field: sub, List: true, Merge: merge}
						if merge {
							// A strategic merge patch merges this list by
							// key, but a list inside an element that is
							// not merged is replaced whole:
							// containers[0].args.
							if field, ok := replacedListIn(rr, sub); ok {
								m.Field, m.Merge = field, false
							}
						}
						out = append(out, m)
					case *ssa.Call:
						for _, w := range p.elemWritesVia(rr, r) {
							out = append(out, Mutation{Instr: w, Field: sub, List: true, Merge: merge})
						}
					}
				}
				// sort.Strings(obj.Finalizers), slices.SortFunc(obj.Status.Conditions, cmp)
				for _, c := range sortsOf(r) {
					out = append(out, Mutation{Instr: c, Field: sub, List: true, Merge: merge})
				}
			case isMap:
				for _, rr := range ssax.Referrers(r) {
					if u, ok := rr.(*ssa.MapUpdate); ok && u.Map == r {
						out = append(out, Mutation{Instr: u, Field: sub, FromRead: p.fromObject(u.Value, obj, sub, u)})
					}
				}
			case isPtr:
				// *obj.Spec.Replicas = n
				for _, rr := range ssax.Referrers(r) {
					if s, ok := rr.(*ssa.Store); ok && s.Addr == r {
						out = append(out, Mutation{Instr: s, Field: sub, FromRead: p.fromObject(s.Val, obj, sub, s)})
					}
				}
			}
		case ssa.CallInstruction:
			// meta.SetStatusCondition(&obj.Status.Conditions, c): a function
			// given the address of a list changes it.
			if isSlice && !model.IsReadOnly(r.Common()) {
				out = append(out, Mutation{Instr: r, Field: sub, List: true, Merge: merge})
			}
			// cm.SetFinalizers(l), a method of the embedded ObjectMeta
			// promoted to the object, whose receiver is &cm.ObjectMeta; a
			// helper given &cm.ObjectMeta.
			if isStruct {
				out = append(out, p.callMutations(r, f, sub, obj)...)
			}
		case *ssa.MakeInterface:
			// A helper given &cm.ObjectMeta as a metav1.Object.
			if isStruct {
				for _, rr := range ssax.Referrers(r) {
					if c, ok := rr.(ssa.CallInstruction); ok {
						out = append(out, p.callMutations(c, r, sub, obj)...)
					}
				}
			}
		}
	}
	return out
}

// mapValueFromRead reports whether a map stored whole has a value put
// into it that is computed from the map field of the object read.
func (p *Package) mapValueFromRead(m ssa.Value, obj map[ssa.Value]bool, field string) bool {
	m = strip(m)
	for _, r := range ssax.Referrers(m) {
		if u, ok := r.(*ssa.MapUpdate); ok && u.Map == m && !rangeCopy(u) && p.fromObject(u.Value, obj, field, u) {
			return true
		}
	}
	return false
}

// rangeCopy reports whether a map update puts a key and its value from
// one step of a range over a map (for k, v := range obj.Annotations {
// ann[k] = v }): a copy, which a merge patch does not send.
func rangeCopy(u *ssa.MapUpdate) bool {
	k, ok1 := strip(u.Key).(*ssa.Extract)
	v, ok2 := strip(u.Value).(*ssa.Extract)
	if !ok1 || !ok2 || k.Tuple != v.Tuple || k.Index != 1 || v.Index != 2 {
		return false
	}
	_, ok := k.Tuple.(*ssa.Next)
	return ok
}

// jsonObject reports whether a field holds a free-form JSON object: a map
// of any values, or an unstructured object.
func jsonObject(t types.Type) bool {
	if model.IsUnstructured(t) {
		return true
	}
	m, ok := t.Underlying().(*types.Map)
	if !ok {
		return false
	}
	_, any := m.Elem().Underlying().(*types.Interface)
	return any
}

// keyedMap reports whether a merge patch of a map type merges it key by
// key with nothing replaced whole below a key: a map of scalars.
func keyedMap(t types.Type) bool {
	m, ok := t.Underlying().(*types.Map)
	if !ok {
		return false
	}
	switch m.Elem().Underlying().(type) {
	case *types.Basic:
		return true
	}
	return false
}

// freshMap reports whether a value is a new map with nothing in it:
// make(map[K]V), or nil as emptyList has it.
func freshMap(v ssa.Value) bool {
	_, made := strip(v).(*ssa.MakeMap)
	return made || emptyList(v)
}

// emptyList reports whether a value is a new list with nothing in it when
// it is stored: nil, []T{}, make([]T, n).
func emptyList(v ssa.Value) bool {
	switch x := strip(v).(type) {
	case *ssa.Const:
		return x.IsNil()
	case *ssa.MakeSlice:
		// make([]T, n) stored as it is: a new list, filled (if at all)
		// element by element after the store (see fillsOfReplaced).
		return true
	case *ssa.Slice:
		if a, ok := x.X.(*ssa.Alloc); ok {
			return len(ssax.VariadicElements(x)) == 0 && arrayLen(a) == 0
		}
	}
	return false
}

// elemWritesVia returns the writes through the element address that a call
// of a function of the package returns when it is given the list l and
// returns only addresses of its elements, or nil (for i := range conds {
// if conds[i].Type == t { return &conds[i] } }; return nil): stores to the
// element or its fields, and calls of functions of the package that store
// through the address they are given.
func (p *Package) elemWritesVia(c *ssa.Call, l ssa.Value) []ssa.Instruction {
	fn := c.Call.StaticCallee()
	if !p.local(fn) {
		return nil
	}
	k := slices.Index(c.Call.Args, ssa.Value(l))
	if k < 0 || k >= len(fn.Params) || !returnsElemOf(fn, fn.Params[k]) {
		return nil
	}
	var ptr ssa.Value = c
	if fn.Signature.Results().Len() > 1 {
		ptr = nil
		for _, r := range ssax.Referrers(c) {
			if e, ok := r.(*ssa.Extract); ok && e.Index == 0 {
				ptr = e
			}
		}
	}
	if ptr == nil {
		return nil
	}
	return writesThrough(p, ptr, 0)
}

// returnsElemOf reports whether every first result of fn is nil or the
// address of an element of the slice parameter prm.
func returnsElemOf(fn *ssa.Function, prm *ssa.Parameter) bool {
	if fn.Signature.Results().Len() == 0 {
		return false
	}
	if _, ok := fn.Signature.Results().At(0).Type().Underlying().(*types.Pointer); !ok {
		return false
	}
	found := false
	var elemOf func(v ssa.Value, seen map[ssa.Value]bool) bool
	elemOf = func(v ssa.Value, seen map[ssa.Value]bool) bool {
		if seen[v] {
			return true
		}
		seen[v] = true
		switch x := v.(type) {
		case *ssa.Const:
			return x.IsNil()
		case *ssa.IndexAddr:
			found = true
			return x.X == prm
		case *ssa.Phi:
			for _, e := range x.Edges {
				if !elemOf(e, seen) {
					return false
				}
			}
			return true
		}
		return false
	}
	for _, b := range fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && len(ret.Results) > 0 {
			if !elemOf(ret.Results[0], map[ssa.Value]bool{}) {
				return false
			}
		}
	}
	return found
}

// writesThrough returns the stores through an address (to it, or to a
// field inside it) and, when helpers is not nil, the calls that give it to
// a function of that package that stores through that parameter.
func writesThrough(helpers *Package, ptr ssa.Value, depth int) []ssa.Instruction {
	if depth > maxMutationDepth {
		return nil
	}
	var out []ssa.Instruction
	for _, r := range ssax.Referrers(ptr) {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr == ptr {
				out = append(out, r)
			}
		case *ssa.FieldAddr:
			out = append(out, writesThrough(helpers, r, depth+1)...)
		case *ssa.Call:
			fn := r.Call.StaticCallee()
			if helpers == nil || !helpers.local(fn) {
				continue
			}
			for i, a := range r.Call.Args {
				if a == ptr && i < len(fn.Params) && len(writesThrough(helpers, fn.Params[i], depth+1)) > 0 {
					out = append(out, r)
					break
				}
			}
		}
	}
	return out
}

// sortsOf returns the calls that reorder, in place, the list v (a load of a
// list field), given to them as it is or converted (sort.StringSlice(l)).
func sortsOf(v ssa.Value) []ssa.CallInstruction {
	var out []ssa.CallInstruction
	work := []ssa.Value{v}
	for depth := 0; len(work) > 0 && depth < maxFieldChain; depth++ {
		var next []ssa.Value
		for _, x := range work {
			for _, r := range ssax.Referrers(x) {
				switch r := r.(type) {
				case *ssa.MakeInterface, *ssa.ChangeType:
					next = append(next, r.(ssa.Value))
				case ssa.CallInstruction:
					if args := r.Common().Args; len(args) > 0 && args[0] == x && model.SortsList(r.Common()) {
						out = append(out, r)
					}
				}
			}
		}
		work = next
	}
	return out
}

// replacedListIn finds, under the address of an element of a list that a
// strategic merge patch merges by key, a store to a list field that
// declares no merge strategy (a strategic merge patch replaces it whole),
// and returns its path.
func replacedListIn(v ssa.Value, path string) (string, bool) {
	for _, r := range ssax.Referrers(v) {
		f, ok := r.(*ssa.FieldAddr)
		if !ok || f.X != v {
			continue
		}
		ptr, ok := f.X.Type().Underlying().(*types.Pointer)
		if !ok {
			continue
		}
		st, ok := ptr.Elem().Underlying().(*types.Struct)
		if !ok {
			continue
		}
		field, tag := st.Field(f.Field), st.Tag(f.Field)
		sub := path
		if !field.Embedded() {
			sub = joinPath(path, model.JSONName(field.Name(), tag))
		}
		if ssax.IsJSONList(field.Type()) && !strings.Contains(model.Tag(tag, "patchStrategy"), "merge") {
			for _, rr := range ssax.Referrers(f) {
				if s, ok := rr.(*ssa.Store); ok && s.Addr == f {
					return sub, true
				}
			}
			continue
		}
		if p, ok := replacedListIn(f, sub); ok {
			return p, true
		}
	}
	return "", false
}

// unstructuredMutations finds list changes through the map of an
// Unstructured: unstructured.SetNestedSlice, SetNestedStringSlice, and
// SetNestedField with a slice value.
func (p *Package) unstructuredMutations(f *ssa.FieldAddr, obj map[ssa.Value]bool) []Mutation {
	var out []Mutation
	for _, r := range ssax.Referrers(f) {
		ld, ok := r.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			continue
		}
		for _, rr := range ssax.Referrers(ld) {
			c, ok := rr.(ssa.CallInstruction)
			if !ok || len(c.Common().Args) < 2 || c.Common().Args[0] != ld {
				continue
			}
			op, _ := model.NestedOpOf(c.Common())
			args := c.Common().Args
			field := strings.Join(constStrings(variadicValues(args[len(args)-1])), ".")
			switch op {
			case model.NestedSetSlice:
				out = append(out, Mutation{Instr: c, Field: field, List: true})
			case model.NestedSet:
				_, isSlice := strip(args[1]).Type().Underlying().(*types.Slice)
				out = append(out, Mutation{Instr: c, Field: field, List: isSlice, FromRead: p.fromObject(args[1], obj, field, c)})
			}
		}
	}
	return out
}

// callMutations recognises calls that change a list of their object
// argument: controllerutil.AddFinalizer, SetControllerReference, SetFinalizers,
// and local helpers or helpers with facts that do.
func (p *Package) callMutations(call ssa.CallInstruction, a ssa.Value, path string, obj map[ssa.Value]bool) []Mutation {
	c := call.Common()
	if m, ok := model.ListMutator(c); ok {
		if model.Arg(c, m.Arg) == a {
			return []Mutation{{Instr: call, Field: joinPath(path, m.Field), List: true, Merge: m.Merge, Remove: m.Remove}}
		}
		return nil
	}
	if model.Recv(c) == a {
		if m, ok := model.ListMethod(model.CalledName(c)); ok {
			field := joinPath(path, m.Field)
			var remove, replaced bool
			if len(c.Args) > 0 {
				v := c.Args[len(c.Args)-1]
				remove = p.sublist(v, obj, field)
				// SetOwnerReferences(nil): cleared, as obj.OwnerReferences = nil is.
				replaced = emptyList(v) || !remove && !p.fromObject(v, obj, field, call)
			}
			return []Mutation{{Instr: call, Field: field, List: true, Merge: m.Merge, Remove: remove, Replaced: replaced}}
		}
	}
	fn := callee(c)
	if fn == nil {
		return nil
	}
	obj0 := funcObject(fn)
	facts := known(p, fn, func(s *Summary) []MutateFact { return s.Mutates }, func(f *FuncFact) []MutateFact { return f.Mutates })
	var out []Mutation
	for _, mf := range facts {
		if mf.Param < len(c.Args) && c.Args[mf.Param] == a {
			out = append(out, Mutation{Instr: call, Field: joinPath(path, mf.Field), List: mf.List, Merge: mf.Merge, FromRead: mf.FromRead, Remove: mf.Remove, Via: obj0})
		}
	}
	return out
}

// fromObject reports whether v, the new value of field, is computed from
// the value it replaces, read from the object (one of the values in obj):
// from the field itself, from a field inside it, or from the list or map
// that holds it. A value computed from other fields of the object (a label
// used as a key into the controller's desired state, a value copied from
// another field) is a desired-state write, not a read-modify-write.
//
// A field read before the object is filled again (a read into it, or a
// controller-runtime write, which fills it with the server's state), when
// the fill runs before the store at, is what the object held before: its
// value is not the one the store replaces. st := obj.Status; Patch(obj);
// obj.Status = st keeps what the program had decided across a write that
// overrides it.
func (p *Package) fromObject(v ssa.Value, obj map[ssa.Value]bool, field string, at ssa.Instruction) bool {
	if phi, ok := strip(v).(*ssa.Phi); ok {
		if same := unequalAt(phi, at); same != nil {
			// desired := current; if ... { desired = "primary" }; if
			// desired == current { continue }; set(desired): where the
			// value is set, it is not the one it was tested against.
			for _, e := range phiLeaves(phi) {
				if e != same && p.ReadFromField(e, func(o ssa.Value) bool { return obj[o] }, field) != nil {
					return true
				}
			}
			return false
		}
	}
	read := p.ReadFromField(v, func(o ssa.Value) bool { return obj[o] }, field)
	if read == nil {
		return false
	}
	// Only the value read itself, stored back as it is: a value computed
	// from it (a counter read before the refill, advanced) still is one
	// computed from what the object held.
	if rv, ok := read.(ssa.Value); ok && rv == strip(v) && p.refilledBetween(obj, read, at) {
		return false
	}
	return true
}

// phiLeaves returns the values a phi may take that are not phis themselves
// (desired := current; if a { desired = x } else if b { desired = y }: a
// phi of x and of a phi of y and current).
func phiLeaves(phi *ssa.Phi) []ssa.Value {
	var out []ssa.Value
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value)
	walk = func(v ssa.Value) {
		v = strip(v)
		if seen[v] {
			return
		}
		seen[v] = true
		if ph, ok := v.(*ssa.Phi); ok {
			for _, e := range ph.Edges {
				walk(e)
			}
			return
		}
		out = append(out, v)
	}
	walk(phi)
	return out
}

// unequalAt returns the value a phi is tested equal to (phi == x, x == phi,
// or phi != x) by a test whose branch where they differ is the only way to
// at: where at runs, the phi is not x, so its edge that is x does not
// reach it. Nil when there is no such test.
func unequalAt(phi *ssa.Phi, at ssa.Instruction) ssa.Value {
	if at == nil || at.Block() == nil || at.Parent() != phi.Parent() {
		return nil
	}
	for _, r := range ssax.Referrers(phi) {
		cmp, ok := r.(*ssa.BinOp)
		if !ok || (cmp.Op != token.EQL && cmp.Op != token.NEQ) {
			continue
		}
		other := cmp.Y
		if cmp.Y == ssa.Value(phi) {
			other = cmp.X
		}
		for _, rr := range ssax.Referrers(cmp) {
			iff, ok := rr.(*ssa.If)
			if !ok {
				continue
			}
			differ := iff.Block().Succs[1] // phi == x is false
			if cmp.Op == token.NEQ {
				differ = iff.Block().Succs[0]
			}
			if len(differ.Preds) == 1 && differ.Dominates(at.Block()) {
				return strip(other)
			}
		}
	}
	return nil
}

// refilledBetween reports whether one of the objects in obj is filled
// again after instruction read and before at, on every path.
func (p *Package) refilledBetween(obj map[ssa.Value]bool, read, at ssa.Instruction) bool {
	if at == nil || read.Parent() != at.Parent() {
		return false
	}
	for o := range obj {
		for _, e := range p.describe(o).events {
			if e.kind == evFill && e.instr.Parent() == read.Parent() && p.dominates(read, e.instr) && p.dominates(e.instr, at) {
				return true
			}
		}
	}
	return false
}

// ReadFrom returns an instruction that reads a field (other than the
// object's identity) of an object accepted by isObj, which v is computed
// from; nil if there is none.
func (p *Package) ReadFrom(v ssa.Value, isObj func(ssa.Value) bool) ssa.Instruction {
	return p.readFrom(v, isObj, func(string) bool { return true })
}

// ReadFromField is ReadFrom restricted to reads of field (a JSON path from
// the object, "spec.replicas"; metadata fields without "metadata."), of a
// field inside it, or of a field that holds it; a path segment "{}" stands
// for any. A read whose path the analysis does not know (the map of an
// unstructured object) counts.
func (p *Package) ReadFromField(v ssa.Value, isObj func(ssa.Value) bool, field string) ssa.Instruction {
	return p.readFrom(v, isObj, func(read string) bool { return RelatedPaths(read, field) })
}

// RelatedPaths reports whether one of two field paths (dotted, "" for one
// not known) is the other or inside it.
func RelatedPaths(a, b string) bool {
	if a == "" || b == "" {
		return true
	}
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		if as[i] != bs[i] && as[i] != "{}" && bs[i] != "{}" {
			return false
		}
	}
	return true
}

func (p *Package) readFrom(v ssa.Value, isObj func(ssa.Value) bool, field func(string) bool) ssa.Instruction {
	seen := map[ssa.Value]bool{}
	work := []ssa.Value{v}
	for len(work) > 0 && len(seen) < maxReadFromValues {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if x == nil || seen[x] {
			continue
		}
		seen[x] = true
		switch y := x.(type) {
		case *ssa.Const, *ssa.Function, *ssa.Global, *ssa.Parameter, *ssa.FreeVar, *ssa.Builtin:
			continue
		case *ssa.UnOp:
			if y.Op == token.MUL {
				if path, ok := readsObjectField(y.X, isObj); ok && field(path) && !p.overwritten(y, isObj) {
					return y
				}
			}
		case *ssa.Lookup:
			if set := p.keySetBefore(y, isObj); set != nil {
				// obj.Annotations[k] = v; ... obj.Annotations[k]: the
				// value read back is v, the one just set.
				work = append(work, set.Value)
				continue
			}
			if path, ok := mapKeyPath(y, isObj); ok && !field(path) {
				// obj.Annotations["zone-labels"] read for the value of
				// another key: another field of the object, not the value
				// replaced (a desired-state write).
				continue
			}
		case *ssa.Call:
			if r := model.Recv(y.Common()); r != nil && (isObj(strip(r)) || isObj(embedder(r))) {
				name := model.CalledName(y.Common())
				if f, ok := strings.CutPrefix(name, "Get"); ok && !model.IsIdentityField(f) && field(getterPath(f)) {
					return y
				}
			}
			if p.outsideCall(y.Common()) {
				continue
			}
		case *ssa.Alloc:
			// A value built into a local: follow what is stored into it,
			// and into the elements of an array (the arguments of an
			// append, a slice literal).
			for _, r := range ssax.Referrers(y) {
				switch a := r.(type) {
				case *ssa.Store:
					if a.Addr == y {
						work = append(work, a.Val)
					}
				case *ssa.IndexAddr:
					for _, rr := range ssax.Referrers(a) {
						if s, ok := rr.(*ssa.Store); ok && s.Addr == a {
							work = append(work, s.Val)
						}
					}
				}
			}
			continue
		}
		if instr, ok := x.(ssa.Instruction); ok {
			var ops []*ssa.Value
			for _, op := range instr.Operands(ops) {
				if op != nil && *op != nil {
					work = append(work, *op)
				}
			}
		}
	}
	return nil
}

// keySetBefore returns the last update of a map field of the object that
// sets, before a lookup of that field and on every path to it, the key it
// looks up (the same constant, or the same value); nil if there is none.
// The updates that run on every path to the lookup are the earlier ones of
// its block and of the blocks that dominate it.
func (p *Package) keySetBefore(l *ssa.Lookup, isObj func(ssa.Value) bool) *ssa.MapUpdate {
	ld, ok := l.X.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return nil
	}
	path, ok := readsObjectField(ld.X, isObj)
	if !ok {
		return nil
	}
	for b := l.Block(); b != nil; b = b.Idom() {
		instrs := b.Instrs
		if b == l.Block() {
			instrs = instrs[:p.index[l]]
		}
		for i := len(instrs) - 1; i >= 0; i-- {
			u, ok := instrs[i].(*ssa.MapUpdate)
			if !ok || !sameKey(u.Key, l.Index) {
				continue
			}
			if m, ok := u.Map.(*ssa.UnOp); ok && m.Op == token.MUL {
				if q, ok := readsObjectField(m.X, isObj); ok && q == path {
					return u
				}
			}
		}
	}
	return nil
}

func sameKey(a, b ssa.Value) bool {
	if a == b {
		return true
	}
	ca, ok1 := a.(*ssa.Const)
	cb, ok2 := b.(*ssa.Const)
	return ok1 && ok2 && ca.Value != nil && cb.Value != nil && constant.Compare(ca.Value, token.EQL, cb.Value)
}

// outsideCall reports whether a call is a request to a service: a method
// of an interface, given a context. What it returns is outside data, even
// when the request names something read from the object (an ID kept in an
// annotation): not a value computed from the object.
func (p *Package) outsideCall(c *ssa.CallCommon) bool {
	// A method of an interface: a client of the service. A function of
	// another package given a context may be a helper that computes from
	// its arguments (and takes the context to log).
	if !c.IsInvoke() {
		return false
	}
	for _, a := range c.Args {
		if model.IsContext(a.Type()) {
			return true
		}
	}
	return false
}

// sublist reports whether v, the new value of the list at field, is made
// only of elements of the list read from the object (one of obj): the list
// itself, a slice of it, an empty list, appends to one of these of its
// elements (a filtering loop, append(l[:i], l[i+1:]...)), or what
// slices.DeleteFunc and the like return of one, through local variables
// and local helpers that return such a part of a parameter.
func (p *Package) sublist(v ssa.Value, obj map[ssa.Value]bool, field string) bool {
	isList := func(x ssa.Value) bool {
		switch y := x.(type) {
		case *ssa.UnOp:
			path, ok := readsObjectField(y.X, func(o ssa.Value) bool { return obj[o] })
			return ok && y.Op == token.MUL && path == field
		case *ssa.Call:
			r := model.Recv(y.Common())
			name, ok := strings.CutPrefix(model.CalledName(y.Common()), "Get")
			return ok && r != nil && isObjectOrMeta(r, obj) && getterPath(name) == field
		}
		return false
	}
	return p.partOf(v, isList, map[ssa.Value]bool{}, 0)
}

// partOf reports whether a list value is made only of elements of the
// lists isList accepts (see sublist). A value already being decided counts
// (a loop's phi).
func (p *Package) partOf(v ssa.Value, isList func(ssa.Value) bool, seen map[ssa.Value]bool, depth int) bool {
	v = strip(v)
	if seen[v] {
		return true
	}
	seen[v] = true
	if depth > maxAliasDepth {
		return false
	}
	if isList(v) {
		return true
	}
	switch x := v.(type) {
	case *ssa.Const:
		return x.IsNil()
	case *ssa.MakeSlice:
		return true
	case *ssa.Phi:
		for _, e := range x.Edges {
			if !p.partOf(e, isList, seen, depth+1) {
				return false
			}
		}
		return true
	case *ssa.Slice:
		if a, ok := x.X.(*ssa.Alloc); ok {
			// []string{}: a slice of an array with nothing stored in it.
			return len(ssax.VariadicElements(x)) == 0 && arrayLen(a) == 0
		}
		return p.partOf(x.X, isList, seen, depth+1)
	case *ssa.UnOp:
		if x.Op == token.MUL && isVariable(x.X) {
			vals := p.storedValues(root(x.X, p))
			for _, sv := range vals {
				if !p.partOf(sv, isList, seen, depth+1) {
					return false
				}
			}
			return len(vals) > 0
		}
	case *ssa.Call:
		c := x.Common()
		if b, ok := c.Value.(*ssa.Builtin); ok && b.Name() == "append" && len(c.Args) == 2 {
			if !p.partOf(c.Args[0], isList, seen, depth+1) {
				return false
			}
			if els := ssax.VariadicElements(strip(c.Args[1])); els != nil {
				for _, e := range els {
					if !p.elementOf(e.Value, isList, seen, depth+1) {
						return false
					}
				}
				return true
			}
			return p.partOf(c.Args[1], isList, seen, depth+1) // append(l[:i], l[i+1:]...)
		}
		if i, ok := model.ListPart(c); ok && i < len(c.Args) {
			return p.partOf(c.Args[i], isList, seen, depth+1) // slices.DeleteFunc(l, f)
		}
		fn := callee(c)
		if fn != nil && !p.local(fn) {
			// A helper of another package, by its fact.
			parts := known(p, fn, func(s *Summary) []int { return s.ListParts }, func(f *FuncFact) []int { return f.ListParts })
			for _, i := range parts {
				if i < len(c.Args) && p.partOf(c.Args[i], isList, seen, depth+1) {
					return true
				}
			}
			return false
		}
		if fn == nil || len(fn.Blocks) == 0 {
			return false
		}
		// A local helper: every result it returns is a part of the
		// parameters whose arguments are parts here.
		params := map[ssa.Value]bool{}
		for i, prm := range fn.Params {
			if i < len(c.Args) && p.partOf(c.Args[i], isList, seen, depth+1) {
				params[prm] = true
			}
		}
		if len(params) == 0 {
			return false
		}
		inner := func(y ssa.Value) bool { return params[y] }
		returns := 0
		for _, b := range fn.Blocks {
			if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && len(ret.Results) > 0 {
				returns++
				if !p.partOf(ret.Results[0], inner, map[ssa.Value]bool{}, depth+1) {
					return false
				}
			}
		}
		return returns > 0
	}
	return false
}

// elementOf reports whether a value is an element of a part of the lists
// isList accepts: l[i], or the value of a range over l.
func (p *Package) elementOf(v ssa.Value, isList func(ssa.Value) bool, seen map[ssa.Value]bool, depth int) bool {
	switch x := v.(type) {
	case *ssa.UnOp:
		if ia, ok := x.X.(*ssa.IndexAddr); ok && x.Op == token.MUL {
			return p.partOf(ia.X, isList, seen, depth+1)
		}
		if x.Op == token.MUL && isVariable(x.X) {
			vals := p.storedValues(root(x.X, p))
			for _, sv := range vals {
				if !p.elementOf(strip(sv), isList, seen, depth+1) {
					return false
				}
			}
			return len(vals) > 0
		}
	case *ssa.Index:
		return p.partOf(x.X, isList, seen, depth+1)
	}
	return false
}

func arrayLen(a *ssa.Alloc) int64 {
	if ptr, ok := a.Type().Underlying().(*types.Pointer); ok {
		if arr, ok := ptr.Elem().Underlying().(*types.Array); ok {
			return arr.Len()
		}
	}
	return -1
}

// getterPath is the path of the field a getter of an object returns:
// GetAnnotations returns annotations; "" when it is not one field
// (GetObjectMeta, GetObjectKind).
func getterPath(name string) string {
	switch name {
	case "", "ObjectMeta", "ObjectKind":
		return ""
	}
	return strings.ToLower(name[:1]) + name[1:]
}

// readsObjectField reports whether an address is a field of the object
// (through FieldAddr and IndexAddr), other than an identity field, and
// returns the field's path from the object ("" for the map of an
// unstructured object, whose path it does not know).
func readsObjectField(addr ssa.Value, isObj func(ssa.Value) bool) (string, bool) {
	first := ""
	var rev []string
	for depth := 0; depth < maxFieldChain; depth++ {
		if first != "" && isObj(strip(addr)) {
			if model.IsIdentityField(first) {
				return "", false
			}
			path := make([]string, 0, len(rev))
			for i := len(rev) - 1; i >= 0; i-- {
				path = append(path, rev[i])
			}
			return strings.Join(path, "."), true
		}
		switch x := addr.(type) {
		case *ssa.FieldAddr:
			st := x.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
			if f := st.Field(x.Field); !f.Embedded() {
				first = f.Name()
				if f.Name() == "Object" && model.IsUnstructured(x.X.Type()) {
					rev = rev[:0]
					first = "Object"
				} else {
					rev = append(rev, model.JSONName(f.Name(), st.Tag(x.Field)))
				}
			}
			addr = x.X
		case *ssa.IndexAddr:
			addr = x.X
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return "", false
			}
			addr = x.X
		default:
			return "", false
		}
	}
	return "", false
}

func joinPath(path, field string) string {
	if path == "" {
		return field
	}
	if field == "" {
		return path
	}
	return path + "." + field
}

func variadicValues(v ssa.Value) []ssa.Value { return variadicConsts(v) }

func constStrings(vs []ssa.Value) []string {
	var out []string
	for _, v := range vs {
		if s, ok := model.ConstString(v); ok {
			out = append(out, s)
		}
	}
	return out
}

// Aliases returns every value that may refer to the object v refers to.
func (p *Package) Aliases(v ssa.Value) []ssa.Value { return p.objectAliases(v) }

// FuncValues resolves a function value to the functions it may be.
func (p *Package) FuncValues(v ssa.Value) []*ssa.Function { return p.funcValues(v) }

// Within reports whether fn is outer or a closure nested in it.
func Within(fn, outer *ssa.Function) bool { return within(fn, outer) }

// VariableValues returns the values stored in the variable a load reads (a
// local or a captured one), or nil when the load is not of a variable.
func (p *Package) VariableValues(load *ssa.UnOp) []ssa.Value {
	if load.Op != token.MUL || !isVariable(load.X) {
		return nil
	}
	return p.storedValues(root(load.X, p))
}

// overwritten reports whether the field a load reads was set by the program
// before the load (obj.Data = external; ... len(obj.Data)): its value is then
// not what was read from the server.
func (p *Package) overwritten(load *ssa.UnOp, isObj func(ssa.Value) bool) bool {
	root, path := fieldPath(load.X)
	if len(path) == 0 || !isObj(strip(root)) {
		return false
	}
	for _, b := range load.Parent().Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			r, sp := fieldPath(st.Addr)
			// A store to the field, or to a struct field that holds it
			// (obj.Status = s overwrites obj.Status.Capacity).
			if len(sp) == 0 || len(sp) > len(path) || !isObj(strip(r)) || !types.Identical(r.Type(), root.Type()) {
				continue
			}
			same := true
			for i := range sp {
				if sp[i] != path[i] {
					same = false
					break
				}
			}
			if same && p.dominates(st, load) {
				// Overwritten with a value the program decides, not with
				// one computed from the object (obj.List = append(obj.List, x)).
				if p.overwriteDepth > 2 {
					return true
				}
				p.overwriteDepth++
				fromObj := p.ReadFrom(st.Val, isObj) != nil
				p.overwriteDepth--
				if !fromObj {
					return true
				}
			}
		}
	}
	return false
}

// fieldPath returns the value a chain of field addresses starts from and
// the field indices from it: obj.Status.Capacity is (obj, [Status,
// Capacity]).
func fieldPath(v ssa.Value) (ssa.Value, []int) {
	var rev []int
	for {
		fa, ok := v.(*ssa.FieldAddr)
		if !ok {
			break
		}
		rev = append(rev, fa.Field)
		v = fa.X
	}
	path := make([]int, len(rev))
	for i, f := range rev {
		path[len(rev)-1-i] = f
	}
	return v, path
}

// embedder returns the value whose embedded struct v is the address of
// (&cm.ObjectMeta, the receiver of a promoted method such as
// cm.GetFinalizers), through embedded fields; v itself otherwise.
func embedder(v ssa.Value) ssa.Value {
	for depth := 0; depth < maxFieldChain; depth++ {
		v = strip(v)
		fa, ok := v.(*ssa.FieldAddr)
		if !ok {
			return v
		}
		st, ok := fa.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
		if !ok || !st.Field(fa.Field).Embedded() {
			return v
		}
		v = fa.X
	}
	return v
}

// mapKeyPath returns the field path of a lookup of a constant key in a map
// field of the object (obj.Annotations[k], obj.GetLabels()[k]):
// "annotations.k".
func mapKeyPath(l *ssa.Lookup, isObj func(ssa.Value) bool) (string, bool) {
	k, ok := l.Index.(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.String {
		return "", false
	}
	var path string
	switch x := l.X.(type) {
	case *ssa.UnOp:
		if x.Op != token.MUL {
			return "", false
		}
		if path, ok = readsObjectField(x.X, isObj); !ok || path == "" {
			return "", false
		}
	case *ssa.Call:
		r := model.Recv(x.Common())
		if r == nil || !(isObj(strip(r)) || isObj(embedder(r))) {
			return "", false
		}
		f, ok := strings.CutPrefix(model.CalledName(x.Common()), "Get")
		if !ok || getterPath(f) == "" {
			return "", false
		}
		path = getterPath(f)
	default:
		return "", false
	}
	return path + "." + constant.StringVal(k.Value), true
}
