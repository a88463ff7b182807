package analyzer

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/flow"
	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/patch"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
	"github.com/lostupdate/lostupdate/analyzer/internal/writes"
)

// checkUnconditionalPatch reports read-modify-write patches without a
// precondition (every patch without one, in strict mode).
func checkUnconditionalPatch(ck *checker, w *writes.Write) []finding {
	if w.Op != model.OpPatch {
		return nil
	}
	if w.ReadsFirst {
		return ck.createOrPatch(w)
	}
	if w.Condition().Verdict != writes.Unconditional {
		return nil
	}
	info := w.Patch()
	all := append([]*patch.Info{info}, info.Alternatives...)
	why, rel := ck.patchHazard(w, info)
	for _, alt := range info.Alternatives {
		if why != "" {
			break
		}
		if why, rel = ck.patchHazard(w, alt); why != "" {
			info = alt // the patch of the branch that loses updates
		}
	}
	strict := false
	if why == "" {
		if !ck.cfg.StrictPatch || info.Kind == patch.KindObject {
			return nil
		}
		strict = true
	}
	call := ck.writeText(w)
	kind := info.Type.String()
	if info.Fn != "" && info.Kind == patch.KindDiff {
		kind += " from " + info.Fn
	} else if info.Fn != "" {
		kind += " built by " + info.Fn
	}
	fix := ck.lockFix(info)
	if len(all) > 1 {
		fix = ck.lockFixAll(all)
	}
	var advice string
	switch {
	case w.Via != nil && info.Site == nil:
		advice = "send the change with client.MergeFromWithOptimisticLock{} (or an Update) instead of " + helperName(w.Via) + ", which patches without a lock, so that a concurrent change fails with 409 Conflict, and retry on it"
	case info.Kind == patch.KindDiff && info.Fn == "StrategicMergeFrom":
		advice = "pass client.MergeFromWithOptimisticLock{} to StrategicMergeFrom so that a concurrent change fails with 409 Conflict, and retry on it"
	case info.Kind == patch.KindDiff && strings.Contains(info.Fn, "From"):
		advice = "add client.MergeFromWithOptimisticLock{} (client.MergeFromWithOptions) so that a concurrent change fails with 409 Conflict, and retry on it"
	case info.Type == patch.TypeJSON:
		advice = "add a test op on /metadata/resourceVersion with the version read, and retry when it fails (422, apierrors.IsInvalid) or on conflict"
	default:
		advice = "carry the metadata.resourceVersion read in the patch so that a concurrent change fails with 409 Conflict, and retry on it"
	}

	var fixes []analysis.SuggestedFix
	if fix != nil {
		fixes = append(fixes, *fix)
	}
	pos, end := ck.callPos(w.Call)
	if w.Via != nil && why != "" {
		rel = append(rel, related(ck.helperWritePos(w), "%s sends the patch here", helperName(w.Via)))
	}
	msg := call + " sends a " + kind + " without a precondition, and " + why + ", so a concurrent change is silently overwritten; " + advice
	if r := w.Retry(); r != nil && !strict {
		// The retry the patch is in never runs: without a precondition
		// the server never answers 409.
		msg += " (the " + strings.TrimPrefix(r.Name, "a ") + " around it never retries: a patch without a precondition gets no 409)"
		rel = append(rel, related(r.Pos(), "the retry: %s", r.Name))
	}
	if strict {
		msg = call + " sends a " + kind + " without a precondition (strict mode: every patch that is not Server-Side Apply needs one), " +
			"so it overwrites whatever changed since the values it sends were decided; " + advice
	}
	return []finding{{pos: pos, end: end, msg: msg, related: rel, fixes: fixes}}
}

// patchHazard says why a patch without a precondition loses updates, or "".
func (ck *checker) patchHazard(w *writes.Write, info *patch.Info) (string, []analysis.RelatedInformation) {
	switch info.Kind {
	case patch.KindDiff:
		obj, from, to := w.Obj, info.Snapshot, ssa.Instruction(w.Call)
		snapshot := info.Snapshot
		if info.Modified != nil {
			obj, to = info.Modified, info.ModifiedAt
		}
		if obj == nil {
			return "", nil
		}
		if from == info.Site && info.Base != nil {
			// cp := obj.DeepCopy(); change cp; Patch(cp, MergeFrom(obj)):
			// the diff is everything cp changed since it was copied.
			if cp := ck.copyOf(obj, info.Base); cp != nil {
				from = cp
			} else if snap := ck.copyOf(info.Base, obj); snap != nil && snap.Parent() != w.Call.Parent() {
				// original := obj.DeepCopy(); defer func() { Patch(obj,
				// MergeFrom(original)) }(): the snapshot was taken in the
				// function that runs the closure; the diff is everything
				// obj changed since.
				from, snapshot = snap, snap
			}
		}
		if info.Base != nil && flow.AllNoResourceVersion(ck.flow.Object(info.Base, from)) {
			return "", nil // a blind patch of a built object, not a read-modify-write
		}
		if info.BaseArg != nil && clearedCopy(ck.flow.Object(info.BaseArg, to)) {
			// base.ResourceVersion = "": the diff then carries the object's
			// resourceVersion, a precondition.
			return "", nil
		}
		name := "the object"
		if obj == w.Obj {
			name = ck.objText(w)
			if src, ok := copied(name); ok {
				name = src // what the copy sends is what src changed
			}
		}
		until := to
		if _, deferred := w.Call.(*ssa.Defer); deferred && to == ssa.Instruction(w.Call) {
			until = nil // it runs when the function returns: every change after it counts
		}
		muts := ck.flow.Mutations(obj, from, until)
		if c, ok := ssax.Strip(obj).(*ssa.Call); ok && model.ObjectMethod(c.Common()) == model.DeepCopy {
			// Patch(ctx, cr.DeepCopy(), MergeFrom(orig)): the copy carries
			// what cr changed since the snapshot.
			if src := model.Recv(c.Common()); src != nil {
				muts = append(muts, ck.flow.Mutations(src, from, c)...)
			}
		}
		for _, m := range muts {
			if !sentBy(w, m.Field, obj) {
				continue
			}
			if m.Field == "finalizers" && onlyRemoves(m) && (ck.whileDeleting(w, obj) || ck.flow.WhileDeleting(obj, m.Instr)) {
				// The API server refuses new finalizers on an object being
				// deleted: a stale list that brings back one removed
				// meanwhile is rejected (422), not applied. A removal that
				// runs only while the object is being deleted is sent
				// while it still is (a deletion timestamp is never unset),
				// by a patch inside the test of it or after it.
				continue
			}
			if m.Replaced {
				// The whole list set to desired state: a lock would only
				// make the write retry to send the same list.
				continue
			}
			if m.List && !(info.Type == patch.TypeStrategic && m.Merge) {
				why := "a merge patch replaces the whole list"
				if info.Type == patch.TypeStrategic {
					why = "a strategic merge patch replaces a list without a merge key whole"
				}
				return fmt.Sprintf("%s of %s changed since the snapshot (%s)", listName(m.Field), name, why),
					ck.mutationRelated(m, snapshot)
			}
			if m.FromRead {
				return fmt.Sprintf("%s of %s is set from a value read from it", fieldName(m.Field), name),
					ck.mutationRelated(m, snapshot)
			}
		}
	case patch.KindBody:
		isTarget := ck.patchTarget(w)
		named := ck.namedTarget(w, isTarget)
		// The read a value is taken from: of the object the patch names
		// first (dep.GetName()), then of any object that is the target.
		readOf := func(v ssa.Value, field string) ssa.Instruction {
			if named != nil {
				if r := ck.flow.ReadFromField(v, named, field); r != nil {
					return r
				}
			}
			return ck.flow.ReadFromField(v, isTarget, field)
		}
		for _, op := range info.Ops {
			if op.Op == "test" {
				continue
			}
			if op.Indexed && !model.FixedIndex(patchedType(w), op.Path) {
				switch {
				case op.Path == helperIndexed:
					return "its body has an op that addresses a list element by index", builtBy(info)
				case op.Op == "":
					// An op of a body a helper builds, known by its path.
					return fmt.Sprintf("its body has an op that addresses %s by index", indexedPath(op.Path, patchedType(w))), builtBy(info)
				}
				return fmt.Sprintf("its %s op addresses %s by index", op.Op, indexedPath(op.Path, patchedType(w))), nil
			}
			if op.Op == "replace" || op.Op == "remove" || op.Op == "add" {
				for _, v := range op.Value {
					if r := readOf(v, pointerField(op.Path)); r != nil {
						if op.Path == "/metadata/finalizers" && ck.removalWhileDeleting(flow.ReadBase(r), r, w) {
							continue // as for a merge patch: a stale list is rejected while deleting
						}
						return fmt.Sprintf("its %s op sets %s to a value computed from the object read earlier", op.Op, op.Path),
							[]analysis.RelatedInformation{related(flow.Pos(r), "read here")}
					}
				}
			}
		}
		for _, o := range info.FromObjects {
			for _, a := range ck.flow.Aliases(o) {
				if isTarget(a) {
					return "its body carries values computed from the object read earlier", builtBy(info)
				}
			}
		}
		// A value computed from what was read (name + suffix) names the
		// hazard better than one sent back as read: a field whose every
		// part is sent back as read is named only when no other is. Every
		// field so set is named (a patch of an annotation and of a
		// user-written list loses both).
		type member struct {
			path       string
			read       ssa.Instruction
			list, echo bool
		}
		var members []*member
		byPath := map[string]*member{}
		for _, h := range info.Holes {
			m := byPath[h.Path]
			if m == nil {
				m = &member{path: h.Path, echo: true}
				byPath[h.Path] = m
				members = append(members, m)
			}
			m.echo = m.echo && echoed(h.Value)
			if m.read != nil {
				continue
			}
			r := readOf(h.Value, memberField(h.Path))
			if r == nil {
				continue
			}
			if h.Path == "metadata.finalizers" && ck.removalWhileDeleting(flow.ReadBase(r), r, w) {
				continue // as for a diff: a stale list is rejected while deleting
			}
			m.read, m.list = r, h.List
		}
		var paths []string
		var rel []analysis.RelatedInformation
		list, readAt := false, map[token.Pos]bool{}
		for _, echo := range []bool{false, true} {
			if len(paths) > 0 {
				break
			}
			for _, m := range members {
				if m.read == nil || m.echo != echo {
					continue
				}
				paths = append(paths, m.path)
				list = list || m.list
				if p := flow.Pos(m.read); !readAt[p] {
					readAt[p] = true
					rel = append(rel, related(p, "read here"))
				}
			}
		}
		switch {
		case len(paths) == 1 && list:
			return fmt.Sprintf("its body sets %s to a list computed from the object read earlier", paths[0]), rel
		case len(paths) == 1:
			return fmt.Sprintf("its body sets %s to a value computed from the object read earlier", paths[0]), rel
		case len(paths) > 3:
			return fmt.Sprintf("its body sets %s and %d other fields to values computed from the object read earlier", strings.Join(paths[:3], ", "), len(paths)-3), rel[:min(len(rel), 3)]
		case len(paths) > 1:
			return fmt.Sprintf("its body sets %s to values computed from the object read earlier", andList(paths)), rel
		}
	}
	return "", nil
}

// echoed reports whether a value a patch body sends is a field or element
// taken as it is, with no computation on it (ref["apiVersion"].(string)).
func echoed(v ssa.Value) bool {
	v = ssax.Strip(v)
	if x, ok := v.(*ssa.Extract); ok { // v, ok := m[k].(string)
		if ta, ok := x.Tuple.(*ssa.TypeAssert); ok {
			v = ssax.Strip(ta.X)
		}
	}
	switch x := v.(type) {
	case *ssa.Lookup, *ssa.Field, *ssa.Index:
		return true
	case *ssa.UnOp:
		return x.Op == token.MUL
	}
	return false
}

// patchedType is the type of the object a patch writes: the object a
// controller-runtime Patch is given, the result of a typed or dynamic one.
func patchedType(w *writes.Write) types.Type {
	if w.Obj != nil {
		return ssax.ConcreteType(w.Obj)
	}
	if res := w.Call.Common().Signature().Results(); res.Len() > 0 {
		return res.At(0).Type()
	}
	return nil
}

// helperIndexed is the path of the op that stands for the index-addressed
// ops of a body a helper builds (see writes.helperPatch).
const helperIndexed = "a list element"

// builtBy points at the call of the helper that builds a patch body.
func builtBy(info *patch.Info) []analysis.RelatedInformation {
	if info.Site == nil || info.Fn == "" {
		return nil
	}
	return []analysis.RelatedInformation{related(info.Site.Pos(), "the patch is built here by %s", info.Fn)}
}

// whileDeleting reports whether a write of obj runs only while its deletion
// timestamp is set.
func (ck *checker) whileDeleting(w *writes.Write, obj ssa.Value) bool {
	if obj == w.Obj {
		return w.WhileDeleting()
	}
	return ck.flow.WhileDeleting(obj, w.Call)
}

// removalWhileDeleting reports whether the finalizer list of obj, read at
// r for the body of the patch w sends, only loses elements before it is
// read, and w runs only while obj's deletion timestamp is set.
func (ck *checker) removalWhileDeleting(obj ssa.Value, r ssa.Instruction, w *writes.Write) bool {
	if obj == nil || !ck.flow.WhileDeleting(obj, w.Call) {
		return false
	}
	for _, m := range ck.flow.Mutations(obj, nil, r) {
		if m.Field == "finalizers" && !onlyRemoves(m) {
			return false
		}
	}
	return true
}

// onlyRemoves reports whether a change of a list only drops elements of
// the list read.
func onlyRemoves(m flow.Mutation) bool { return m.List && m.Remove && !m.FromRead }

// createOrPatch reports controllerutil.CreateOrPatch calls whose mutate
// function changes a list: the library sends a plain merge patch. An
// object built with a generateName and no name is never found by the
// library's Get, so it is always created and never patched.
func (ck *checker) createOrPatch(w *writes.Write) []finding {
	c := w.Call.Common()
	fns := ck.flow.FuncValues(model.Arg(c, 3))
	if len(fns) == 0 || w.Obj == nil {
		return nil
	}
	if ck.flow.Unnamed(w.Obj, w.Call) {
		return nil // its Get never finds it: it is created, never patched
	}
	for _, m := range ck.flow.Mutations(w.Obj, nil, nil) {
		inside := false
		for _, fn := range fns {
			if flow.Within(m.Instr.Parent(), fn) {
				inside = true
			}
		}
		if !inside || !m.List || m.Replaced {
			// A whole list set to desired state: a lock would only make
			// the write retry to send the same list.
			continue
		}
		pos, end := ck.callPos(w.Call)
		return []finding{{pos: pos, end: end,
			msg: "CreateOrPatch sends a merge patch without a precondition, and its mutate function changes " + listName(m.Field) +
				" of " + ck.argText(w.Call, 2) + " (a merge patch replaces the whole list), so a concurrent change is silently overwritten; " +
				"Get, change and Patch with client.MergeFromWithOptimisticLock{} (or Update) and retry on conflict",
			related: []analysis.RelatedInformation{related(flow.Pos(m.Instr), "%s changed here", listName(m.Field))}}}
	}
	return nil
}

func (ck *checker) mutationRelated(m flow.Mutation, snapshot ssa.Instruction) []analysis.RelatedInformation {
	rel := []analysis.RelatedInformation{related(flow.Pos(m.Instr), "%s changed here", fieldName(m.Field))}
	if m.Via != nil {
		rel = append(rel, related(m.Via.Pos(), "%s changes it", m.Via.Name()))
	}
	if snapshot != nil {
		rel = append(rel, related(flow.Pos(snapshot), "the snapshot the patch is computed from"))
	}
	return rel
}

// pointerField is the field path of a JSON patch op's path, as flow spells
// it: /metadata/annotations/a~1b is annotations.a/b.
func pointerField(ptr string) string {
	segs := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i, s := range segs {
		segs[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
	}
	return memberField(strings.Join(segs, "."))
}

// memberField is the field path of a member of a patch body, as flow spells
// it: metadata.finalizers is finalizers.
func memberField(path string) string {
	if path == "metadata" {
		return ""
	}
	return strings.TrimPrefix(path, "metadata.")
}

func listName(field string) string {
	if field == "" {
		return "a list"
	}
	return "the " + field + " list"
}

func fieldName(field string) string {
	if field == "" {
		return "a field"
	}
	return field
}

// indexedPath renders a JSON pointer whose computed segments ("{}") are
// named by what they address in an object of type t: <index> in a list,
// <key> in a map, <field> in a struct. Where the type does not say (an
// unstructured object, a field the type lacks), a computed segment is an
// index, as the patch addresses a list element.
func indexedPath(path string, t types.Type) string {
	segs := strings.Split(path, "/")
	cur := t
	for i := 1; i < len(segs); i++ {
		var under types.Type
		if cur != nil {
			under = derefType(cur).Underlying()
		}
		seg := segs[i]
		switch u := under.(type) {
		case *types.Slice:
			cur = u.Elem()
			if seg == "{}" {
				segs[i] = "<index>"
			}
		case *types.Map:
			cur = u.Elem()
			if seg == "{}" {
				segs[i] = "<key>"
			}
		case *types.Struct:
			if seg == "{}" {
				segs[i], cur = "<field>", nil
				continue
			}
			cur = jsonField(u, seg)
		default:
			cur = nil
			if seg == "{}" {
				segs[i] = "<index>"
			}
		}
	}
	return "the list element " + strings.Join(segs, "/")
}

// jsonField returns the type of the field of a struct that encoding/json
// encodes under name, looking into embedded structs without a name of
// their own (TypeMeta, ObjectMeta under metadata is named); nil if none.
func jsonField(s *types.Struct, name string) types.Type {
	return jsonFieldDepth(s, name, 0)
}

func jsonFieldDepth(s *types.Struct, name string, depth int) types.Type {
	if depth > 8 {
		return nil // a type that embeds itself
	}
	for i := 0; i < s.NumFields(); i++ {
		f := s.Field(i)
		tagName, _, _ := strings.Cut(model.Tag(s.Tag(i), "json"), ",")
		if f.Embedded() && tagName == "" {
			if es, ok := derefType(f.Type()).Underlying().(*types.Struct); ok {
				if t := jsonFieldDepth(es, name, depth+1); t != nil {
					return t
				}
			}
			continue
		}
		if model.JSONName(f.Name(), s.Tag(i)) == name {
			return f.Type()
		}
	}
	return nil
}

// sentBy reports whether a change to a field reaches the server through a
// write: the status subresource takes only status, the main resource of an
// object with a status takes everything but status.
func sentBy(w *writes.Write, field string, obj ssa.Value) bool {
	status := field == "status" || strings.HasPrefix(field, "status.")
	if (w.Client != nil && w.Client.Subresource == "status") || (w.Via != nil && w.ViaWrite.Status) {
		return status
	}
	return !status || !model.HasStatus(ssax.ConcreteType(obj))
}

// clearedCopy reports whether a snapshot's resourceVersion was cleared.
func clearedCopy(os []flow.Origin) bool {
	for _, o := range os {
		if o.Kind == flow.Cleared {
			return true
		}
	}
	return false
}

// copyOf returns the DeepCopy (or DeepCopyObject) of base that obj is, if
// it is one.
func (ck *checker) copyOf(obj, base ssa.Value) *ssa.Call {
	bases := map[ssa.Value]bool{}
	for _, a := range ck.flow.Aliases(base) {
		bases[a] = true
	}
	for _, a := range ck.flow.Aliases(obj) {
		c, ok := a.(*ssa.Call)
		if !ok {
			continue
		}
		switch model.ObjectMethod(c.Common()) {
		case model.DeepCopy, model.DeepCopyObject:
			if r := model.Recv(c.Common()); r != nil && bases[r] {
				return c
			}
		}
	}
	return nil
}

// patchTarget returns a predicate for the objects a typed or dynamic patch
// writes: values of the type the call returns that were not built from
// scratch (the object the code read and now patches).
func (ck *checker) patchTarget(w *writes.Write) func(ssa.Value) bool {
	c := w.Call.Common()
	if w.Obj != nil {
		set := map[ssa.Value]bool{}
		for _, a := range ck.flow.Aliases(w.Obj) {
			set[a] = true
		}
		return func(v ssa.Value) bool { return set[v] }
	}
	res := c.Signature().Results()
	if res.Len() == 0 {
		return func(ssa.Value) bool { return false }
	}
	target := res.At(0).Type()
	return func(v ssa.Value) bool {
		t := v.Type()
		if !types.Identical(t, target) {
			if p, ok := t.Underlying().(*types.Pointer); !ok || !types.Identical(p.Elem(), derefType(target)) {
				return false
			}
		}
		for _, o := range ck.flow.Object(v, w.Call) {
			if o.Kind == flow.Read || o.Kind == flow.CacheRead {
				return true // the object was read: its values are a read-modify-write
			}
			if o.Kind == flow.Unknown && o.Param != nil && ck.flow.ParamRead(o.Param) {
				return true // a parameter that every caller fills with a read
			}
		}
		return false
	}
}

// namedTarget returns, for a typed or dynamic Patch whose name argument is
// the name of an object (dep.GetName(), dep.Name), a test of the values that
// are that object and are targets (isTarget: read); nil otherwise. Another read of the same type (the
// primary Deployment a canary's replicas are copied from) is not the
// object patched.
func (ck *checker) namedTarget(w *writes.Write, isTarget func(ssa.Value) bool) func(ssa.Value) bool {
	if w.Obj != nil || w.Client == nil || w.Client.Name < 0 {
		return nil
	}
	src := nameSource(model.Arg(w.Call.Common(), w.Client.Name))
	if src == nil {
		return nil
	}
	set := map[ssa.Value]bool{}
	for _, a := range ck.flow.Aliases(src) {
		set[a] = true
	}
	return func(v ssa.Value) bool { return set[v] && isTarget(v) }
}

// nameSource returns the object a name is taken from: the receiver of
// GetName(), or the object whose metadata.name field is loaded; nil if
// neither.
func nameSource(v ssa.Value) ssa.Value {
	switch x := ssax.Strip(v).(type) {
	case *ssa.Call:
		if model.CalledName(x.Common()) == "GetName" {
			if r := model.Recv(x.Common()); r != nil {
				r = ssax.Strip(r)
				if meta, ok := r.(*ssa.FieldAddr); ok && flow.FieldName(meta) == "ObjectMeta" {
					return meta.X // the promoted method of the embedded ObjectMeta
				}
				return r
			}
		}
	case *ssa.UnOp:
		fa, ok := x.X.(*ssa.FieldAddr)
		if !ok || flow.FieldName(fa) != "Name" {
			return nil
		}
		meta, ok := fa.X.(*ssa.FieldAddr)
		if !ok || flow.FieldName(meta) != "ObjectMeta" {
			return nil
		}
		return meta.X
	}
	return nil
}

func derefType(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// andList joins names as prose: "a", "a and b", "a, b and c".
func andList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
