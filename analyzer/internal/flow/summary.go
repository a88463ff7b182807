package flow

import (
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/patch"
)

// Summary is what a function does with Kubernetes objects, as its callers
// need to know it. Parameter indices count the receiver of a method as 0.
type Summary struct {
	Returns         [][]Origin   // per result: provenance, in the function's own terms
	ReadsInto       map[int]bool // parameters filled by a read (controller-runtime Get into them)
	Writes          []WriteFact  // parameters written as they were passed
	Feeds           []FeedFact   // object parameters a patch it sends is computed from
	Retries         []RetryFact  // function parameters run inside a conflict retry
	ReturnsErrorArg bool         // returns (a wrapping of) an error argument
	// HandsOnResult is the parameter that every return gives back as the
	// function's reconcile.Result, as it was passed (a reporting helper:
	// return res, err), or -1.
	HandsOnResult int
	LogsErrorArg  bool // only logs an error argument
	// SwallowsConflictArg: returns an error argument, but nil when it is a
	// conflict (func ignoreConflict(err error) error).
	SwallowsConflictArg bool
	ConflictTest        bool         // func(error) bool that tests for a conflict (wraps apierrors.IsConflict)
	Mutates             []MutateFact // object parameters whose lists or values change
	Patches             []PatchFact  // results that are patch bodies
	Writer              bool         // writes objects (Update, Patch, Apply), itself or through helpers
	ReturnsFake         bool         // returns a fake client
	SetsRV              []int        // parameters whose resourceVersion is set (copied) from a read
	ClearsRV            []int        // parameters whose resourceVersion is cleared
	Stores              []StoreFact  // copies of parameters kept in a field of the struct returned
	Copies              []CopyFact   // results that are copies of parameters (or of their fields)
	Creates             []int        // object parameters passed to a Create, itself or through helpers
	ListParts           []int        // list parameters whose elements are all result 0 holds (a remove, a filter)
	ChoosesObjects      bool         // returns a watch predicate that chooses objects, not changes (predicates.go)
	Queues              bool         // a method that adds to a work queue (of a wrapper of one)
}

// typeGuard returns T when instr runs only where prm holds a T: in the
// case of a type switch on it (switch prm.(type) { case T: ... }), or the
// ok branch of a type assertion; nil otherwise.
func typeGuard(instr ssa.Instruction, prm *ssa.Parameter) types.Type {
	for b := instr.Block(); b != nil; b = b.Idom() {
		if len(b.Preds) != 1 {
			continue
		}
		pred := b.Preds[0]
		iff, ok := pred.Instrs[len(pred.Instrs)-1].(*ssa.If)
		if !ok || pred.Succs[0] != b {
			continue
		}
		ex, ok := iff.Cond.(*ssa.Extract)
		if !ok || ex.Index != 1 {
			continue
		}
		ta, ok := ex.Tuple.(*ssa.TypeAssert)
		if !ok || !ta.CommaOk || strip(ta.X) != prm {
			continue
		}
		if _, isIface := ta.AssertedType.Underlying().(*types.Interface); isIface {
			continue
		}
		return ta.AssertedType
	}
	return nil
}

// summary computes (once) the summary of a local function.
// known returns what is known of a function the code calls: the part of
// its summary that local picks when it is analysed here, else the part of
// its fact that fact picks; the zero T when neither is known.
func known[T any](p *Package, fn *ssa.Function, local func(*Summary) T, fact func(*FuncFact) T) T {
	if p.local(fn) {
		return local(p.summary(fn))
	}
	if obj := funcObject(fn); obj != nil && p.facts != nil {
		if ff := p.facts.FuncFact(obj); ff != nil {
			return fact(ff)
		}
	}
	var zero T
	return zero
}

func (p *Package) summary(fn *ssa.Function) *Summary {
	fn = body(fn)
	if s, ok := p.summaries[fn]; ok {
		return s
	}
	if p.computing[fn] {
		return &Summary{ReadsInto: map[int]bool{}}
	}
	p.computing[fn] = true
	// A summary is computed once, when first needed, and kept: not under
	// the assumptions of the judgement that asked for it.
	assumeNil, onlyNonNil := p.assumeNil, p.onlyNonNil
	p.assumeNil, p.onlyNonNil = nil, false
	s := p.computeSummary(fn)
	p.assumeNil, p.onlyNonNil = assumeNil, onlyNonNil
	delete(p.computing, fn)
	p.summaries[fn] = s
	return s
}

func (p *Package) computeSummary(fn *ssa.Function) *Summary {
	s := &Summary{ReadsInto: map[int]bool{}}
	sig := fn.Signature
	nres := sig.Results().Len()
	s.Returns = make([][]Origin, nres)
	params := fn.Params

	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			ret, ok := instr.(*ssa.Return)
			if !ok {
				continue
			}
			for i, r := range ret.Results {
				if !isObjectType(r.Type()) || isNil(r) {
					continue
				}
				s.Returns[i] = append(s.Returns[i], p.Object(r, ret)...)
			}
		}
	}
	for i := range s.Returns {
		s.Returns[i] = dedupOrigins(s.Returns[i])
	}

	// Parameters filled by a read, or whose resourceVersion is set or cleared.
	var rvFor map[int][]string // set only in a type switch's case, by type
	for i, prm := range params {
		if !isObjectType(prm.Type()) && !model.IsObjectMeta(prm.Type()) {
			continue
		}
		sets, clears := false, false
		for _, a := range p.aliases(prm) {
			for _, e := range p.eventsOn(a) {
				switch {
				case e.kind == evFill && e.src == nil && e.origin.Kind == Read:
					s.ReadsInto[i] = true
				case p.kindOf(e) == evSetRV:
					if t := typeGuard(e.instr, prm); t != nil {
						if rvFor == nil {
							rvFor = map[int][]string{}
						}
						rvFor[i] = append(rvFor[i], types.TypeString(t, nil))
					}
					sets = true
				case p.kindOf(e) == evClear:
					clears = true
				}
			}
		}
		if sets {
			s.SetsRV = append(s.SetsRV, i)
		} else if clears {
			s.ClearsRV = append(s.ClearsRV, i)
		}
	}

	// Writes of parameters, as passed, also from closures.
	var writes []*WriteSite
	for _, f := range withClosures(fn) {
		writes = append(writes, p.writesIn(f)...)
		writes = append(writes, p.dispatchedLost(f)...)
	}
	s.Writer = len(writes) > 0
	// Writes of an object the function reads itself, by op and type: a
	// write of a parameter next to one of these (UpdateStatus(obj), and on
	// a conflict Get and UpdateStatus the fresh copy) rereads on that path.
	type opType struct {
		op model.Op
		t  string
	}
	readWrites := map[opType]bool{}
	for _, w := range writes {
		if w.Obj == nil {
			continue
		}
		for _, o := range p.Object(w.Obj, w.Call) {
			if o.Kind == Read || o.Kind == Precondition {
				readWrites[opType{w.Op, types.TypeString(strip(w.Obj).Type(), nil)}] = true
			}
		}
	}
	for _, w := range writes {
		written := map[int]bool{}
		rereads := w.Via != nil && w.ViaWrite.Rereads
		for _, o := range p.Object(w.Obj, w.Call) {
			switch {
			case o.Kind == Unknown && o.Param != nil && o.Param.Parent() == fn:
				written[paramIndex(fn, o.Param)] = true
				if readWrites[opType{w.Op, types.TypeString(strip(w.Obj).Type(), nil)}] {
					rereads = true
				}
			case o.Kind == Read || o.Kind == Precondition:
				rereads = true
			}
		}
		// A patch between parameters (or through copies of them).
		d, isDiff := p.patchOfWrite(fn, w)
		if isDiff && d.objField == "" {
			written[d.obj] = true
		}
		emit := func(idx int, field string) {
			// A helper of a helper that reads the object first
			// (a wrapper of controllerutil.CreateOrUpdate) reads it first too.
			readsFirst := w.ReadsFirst || w.Via != nil && w.ViaWrite.ReadsFirst
			// A helper given, with the object, one this function reads,
			// whose version the helper copies onto it
			// (UpdateIfOwned(ctx, &actual, desired) after a Get of
			// actual): the function reads first too.
			if w.RVFromArg != nil && p.allRead(w.RVFromArg, w.Call) {
				readsFirst = true
			}
			wf := WriteFact{Param: idx, ParamField: field, Op: w.Op, ReadsFirst: readsFirst, Rereads: rereads, Replaces: w.Replaces, Client: -1, At: w.ViaWrite.At, PatchArg: -1}
			wf.Status = w.Client != nil && w.Client.Subresource == "status" || w.Via != nil && w.ViaWrite.Status
			wf.IfRV = field == "" && (w.Via != nil && w.ViaWrite.IfRV || idx >= 0 && idx < len(params) && p.writtenWithRV(fn, w, params[idx]))
			if isDiff && d.obj == idx && d.objField == field {
				wf.Diff, wf.From, wf.FromField, wf.PatchArg, wf.Status = d.patchArg < 0, d.from, d.fromField, d.patchArg, d.status
			}
			if w.Via == nil {
				wf.SetsRVFor = strings.Join(rvFor[idx], "\n")
			}
			if field == "" && idx >= 0 && idx < len(params) {
				wf.RVFrom = p.rvFromParam(fn, params[idx], w.Call)
			}
			if wf.RVFrom == 0 && w.Via != nil && w.ViaWrite.RVFrom > 0 && w.ViaWrite.RVFrom-1 < len(w.Call.Common().Args) {
				// A helper of a helper: the version comes from what this
				// function passes on, a parameter of its own.
				if prm, ok := strip(w.Call.Common().Args[w.ViaWrite.RVFrom-1]).(*ssa.Parameter); ok && prm.Parent() == fn {
					wf.RVFrom = paramIndex(fn, prm) + 1
				}
			}
			if w.Via == nil || wf.At.File == "" {
				pos := fn.Prog.Fset.Position(Pos(w.Call))
				wf.At = WritePos{File: pos.Filename, Line: pos.Line, Col: pos.Column}
			}
			if w.Client != nil {
				if prm, ok := p.clientRoot(w.Call.Common()).(*ssa.Parameter); ok && prm.Parent() == fn {
					wf.Client = paramIndex(fn, prm)
				}
			}
			if r := p.RetryOfWrite(w); r != nil || p.retriedOnFailure(fn, w, writes) {
				wf.InRetry = true
			} else if w.Err != nil {
				if fate, _ := p.ErrorFate(w.Err, w.Call); fate == Handled && p.returnsValue(fn, w.Err) {
					wf.ErrReturned = true
				}
			}
			if !wf.InRetry && !wf.ErrReturned && (w.Via == nil || w.ViaWrite.ErrReturned || w.ViaWrite.ErrLost) && p.LostToCallers(w.Call, w.Obj) {
				if fate, _ := p.LostFate(w); fate != Handled {
					wf.ErrLost = true
				}
			}
			s.Writes = append(s.Writes, wf)
		}
		for _, idx := range sortedKeys(written) {
			emit(idx, "")
		}
		if isDiff && d.objField != "" && d.patchArg < 0 {
			// A scope struct's Close: a merge patch of the object kept in
			// a field, from the snapshot of the patcher kept in another.
			emit(d.obj, d.objField)
		}
	}
	s.Writes = dedupWrites(s.Writes)
	s.Creates = p.createdParams(fn)
	s.Feeds = p.feedsOf(fn)
	p.storesAndCopies(fn, s)

	// Function parameters run inside a conflict retry.
	for i, prm := range params {
		if _, ok := prm.Type().Underlying().(*types.Signature); !ok {
			continue
		}
		if rf, ok := p.runsInRetry(fn, prm); ok {
			rf.Param = i
			s.Retries = append(s.Retries, rf)
		}
	}

	s.ConflictTest = isPredicate(sig) && p.mentionsConflictFn(fn, 1)
	s.ListParts = p.listParts(fn)

	// Parameters whose lists change, or whose fields get values computed from
	// themselves (a merge patch of them after this call is a read-modify-write);
	// also the metadata of an object (func(m *metav1.ObjectMeta) given
	// &obj.ObjectMeta).
	for i, prm := range params {
		if !isObjectType(prm.Type()) && !model.IsObjectMeta(prm.Type()) {
			continue
		}
		var mf *MutateFact
		for _, m := range p.Mutations(prm, nil, nil) {
			if !m.List && !m.FromRead || m.Replaced {
				continue
			}
			if mf == nil {
				mf = &MutateFact{Param: i, Field: m.Field, Merge: true, Remove: true}
			}
			if m.List {
				mf.List = true
				mf.Merge = mf.Merge && m.Merge
				mf.Remove = mf.Remove && m.Remove && m.Field == mf.Field
			} else {
				mf.Remove = false // a value changed besides
			}
			mf.FromRead = mf.FromRead || m.FromRead
		}
		if mf != nil {
			if !mf.List {
				mf.Merge, mf.Remove = false, false
			}
			s.Mutates = append(s.Mutates, *mf)
		}
	}

	s.ChoosesObjects = p.returnsChooser(fn)
	s.Queues = fn.Signature.Recv() != nil && addsToWorkqueue(fn)

	// A function that builds a fake client for tests.
	for _, b := range fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && len(ret.Results) > 0 && p.isFakeValue(ret.Results[0]) {
			s.ReturnsFake = true
		}
	}

	// Results that are patch bodies the function builds.
	for i := 0; i < nres; i++ {
		if t := sig.Results().At(i).Type(); !isBytesOrString(t) && !isOpList(t) {
			continue
		}
		if pf, ok := p.returnedPatch(fn, i); ok {
			s.Patches = append(s.Patches, pf)
		}
	}

	s.HandsOnResult = p.handsOnResult(fn)

	// Error wrappers and loggers: func wrap(err error) error { return fmt.Errorf(...) }
	for pi, prm := range params {
		variadicAny := sig.Variadic() && pi == len(params)-1 && isAnySlice(prm.Type())
		if !model.IsError(prm.Type()) && !variadicAny {
			continue
		}
		t := p.taint(prm)
		for _, sink := range t.sinks {
			if _, ok := sink.(*ssa.Return); ok {
				s.ReturnsErrorArg = true
			}
		}
		if s.ReturnsErrorArg && errorResult(sig) >= 0 && p.swallowsConflictArg(t) {
			s.SwallowsConflictArg = true
		}
		if !t.handled && t.logged {
			s.LogsErrorArg = true
		}
	}
	return s
}

// returnsValue reports whether an error value reaches a return of fn.
func (p *Package) returnsValue(fn *ssa.Function, err ssa.Value) bool {
	for _, sink := range p.taint(err).sinks {
		if ret, ok := sink.(*ssa.Return); ok && ret.Parent() == fn {
			return true
		}
	}
	return false
}

// runsInRetry reports whether fn calls its function parameter prm inside a
// conflict retry: passes it (or a closure that calls it) to a retry helper,
// or calls it in a conflict retry loop.
func (p *Package) runsInRetry(fn *ssa.Function, prm *ssa.Parameter) (RetryFact, bool) {
	for _, f := range withClosures(fn) {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				c, ok := instr.(ssa.CallInstruction)
				if !ok || !p.isParamValue(c.Common().Value, prm) {
					continue
				}
				if r := p.RetryOf(c); r != nil {
					return p.retryFact(fn, *r), true
				}
			}
		}
	}
	// Passed straight to a retry helper.
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			for _, r := range p.retriesOfCall(c) {
				if arg := model.Arg(c.Common(), r.argIndex); arg != nil && p.isParamValue(arg, prm) {
					return p.retryFact(fn, r.Retry), true
				}
			}
		}
	}
	return RetryFact{}, false
}

// retryFact is what a retry fn runs a parameter in says to fn's callers:
// how it retries, and which of fn's parameters is the context that bounds
// it, if one is (a helper that hands its context to a wait poll).
func (p *Package) retryFact(fn *ssa.Function, r Retry) RetryFact {
	rf := RetryFact{ConflictOnly: r.ConflictOnly, Bounded: r.Bounded, Backoff: r.Backoff, MinWait: r.MinWait, ByCond: r.ByCond}
	if r.Ctx != nil {
		for i, prm := range fn.Params {
			if p.onlyParam(r.Ctx, prm) {
				rf.HasCtx, rf.Ctx, rf.CtxAttempts = true, i, r.CtxAttempts
				break
			}
		}
	}
	return rf
}

// onlyParam reports whether v is the parameter prm on every path: not a
// context the helper may put in its place (c := ctx; if x { c =
// context.Background() }).
func (p *Package) onlyParam(v ssa.Value, prm *ssa.Parameter) bool {
	if strip(v) == prm {
		return true
	}
	origins := p.describe(strip(v)).origins
	if len(origins) == 0 {
		return false
	}
	for _, o := range origins {
		if o.Param != prm || o.Site != nil {
			return false
		}
	}
	return true
}

// isParamValue reports whether v is the parameter prm, also through a
// variable that captures it.
func (p *Package) isParamValue(v ssa.Value, prm *ssa.Parameter) bool {
	v = strip(v)
	if v == prm {
		return true
	}
	for _, o := range p.describeFunc(v) {
		if o == prm {
			return true
		}
	}
	return false
}

// describeFunc returns the parameters a function value may come from.
func (p *Package) describeFunc(v ssa.Value) []*ssa.Parameter {
	var out []*ssa.Parameter
	for _, o := range p.describe(v).origins {
		if o.Param != nil {
			out = append(out, o.Param)
		}
	}
	return out
}

// withClosures returns fn and the closures nested in it.
func withClosures(fn *ssa.Function) []*ssa.Function {
	out := []*ssa.Function{fn}
	for i := 0; i < len(out); i++ {
		out = append(out, out[i].AnonFuncs...)
	}
	return out
}

// isPredicate reports whether sig is func(error) bool.
func isPredicate(sig *types.Signature) bool {
	if sig.Params().Len() != 1 || sig.Results().Len() != 1 || !model.IsError(sig.Params().At(0).Type()) {
		return false
	}
	b, ok := sig.Results().At(0).Type().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

func paramIndex(fn *ssa.Function, prm *ssa.Parameter) int {
	for i, x := range fn.Params {
		if x == prm {
			return i
		}
	}
	return -1
}

// isObjectType reports whether t can hold a Kubernetes object.
func isObjectType(t types.Type) bool { return model.IsObject(t) }

func dedupWrites(ws []WriteFact) []WriteFact {
	sort.Slice(ws, func(i, j int) bool { return ws[i].less(ws[j]) })
	out := ws[:0]
	for i, w := range ws {
		if i > 0 && w.same(out[len(out)-1]) {
			continue
		}
		out = append(out, w)
	}
	return out
}

func isBytesOrString(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&types.IsString != 0
	case *types.Slice:
		b, ok := u.Elem().Underlying().(*types.Basic)
		return ok && b.Kind() == types.Byte
	}
	return false
}

// returnedPatch summarises the patch body a function returns in result i:
// every return of it must be one known body (or nil).
func (p *Package) returnedPatch(fn *ssa.Function, i int) (PatchFact, bool) {
	pf := PatchFact{Result: i}
	found := false
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || i >= len(ret.Results) {
			continue
		}
		v := ret.Results[i]
		if c, ok := v.(*ssa.Const); ok && (c.Value == nil || c.IsNil()) {
			continue
		}
		var info *patch.Info
		if isBytesOrString(v.Type()) {
			info = patch.Body(v, p.VariableValues)
		} else {
			// The operations of a JSON patch, for the caller to marshal.
			info = patch.Value(v, p.VariableValues)
			if info.Type != patch.TypeJSON || !namedOps(info) {
				return PatchFact{}, false
			}
		}
		if !info.Known || info.Kind != patch.KindBody {
			return PatchFact{}, false
		}
		found = true
		pf.JSON = pf.JSON || info.Type == patch.TypeJSON
		pf.HasTest = pf.HasTest || info.HasTest
		pf.HasRV = pf.HasRV || info.HasRV
		var holes []ssa.Value
		for _, op := range info.Ops {
			if op.Indexed && op.Op != "test" {
				pf.Indexed = true
				if !slices.Contains(pf.IndexedPaths, op.Path) {
					pf.IndexedPaths = append(pf.IndexedPaths, op.Path)
				}
			}
			holes = append(holes, op.Value...)
		}
		for _, h := range info.Holes {
			holes = append(holes, h.Value)
		}
		for pi, prm := range fn.Params {
			if !isObjectType(prm.Type()) {
				continue
			}
			set := map[ssa.Value]bool{}
			for _, a := range p.objectAliases(prm) {
				set[a] = true
			}
			for _, h := range holes {
				if p.ReadFrom(h, func(v ssa.Value) bool { return set[v] }) != nil {
					pf.FromParams = append(pf.FromParams, pi)
					break
				}
			}
		}
	}
	return pf, found
}

// isOpList reports whether t can hold the operations of a JSON patch: a
// slice of structs or of maps.
func isOpList(t types.Type) bool {
	sl, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	switch sl.Elem().Underlying().(type) {
	case *types.Struct, *types.Map:
		return true
	}
	return false
}

// namedOps reports whether every operation of a JSON patch has a known op.
func namedOps(info *patch.Info) bool {
	for _, op := range info.Ops {
		if op.Op == "" {
			return false
		}
	}
	return len(info.Ops) > 0
}

// ReturnedPatch returns the summary of the patch body a call returns, when
// v is such a result: the callee's summary (local) or fact.
func (p *Package) ReturnedPatch(v ssa.Value) (*PatchFact, ssa.CallInstruction) {
	idx := 0
	v = strip(v)
	if e, ok := v.(*ssa.Extract); ok {
		idx, v = e.Index, e.Tuple
	}
	call, ok := v.(*ssa.Call)
	if !ok {
		return nil, nil
	}
	fn := callee(call.Common())
	pfs := known(p, fn, func(s *Summary) []PatchFact { return s.Patches }, func(f *FuncFact) []PatchFact { return f.Patches })
	for _, pf := range pfs {
		if pf.Result == idx {
			pf := pf
			return &pf, call
		}
	}
	return nil, nil
}

func isAnySlice(t types.Type) bool {
	sl, ok := t.(*types.Slice)
	if !ok {
		return false
	}
	iface, ok := sl.Elem().Underlying().(*types.Interface)
	return ok && iface.Empty()
}

// createdParams returns the object parameters a function passes to a
// Create as they were passed, itself or through a helper.
func (p *Package) createdParams(fn *ssa.Function) []int {
	set := map[int]bool{}
	for v := range p.createdIn(fn) {
		if prm, ok := v.(*ssa.Parameter); ok && prm.Parent() == fn {
			set[paramIndex(fn, prm)] = true
		}
	}
	return sortedKeys(set)
}

// listParts returns the list parameters of fn that result 0 is always a
// part of: every element it returns is one of theirs (func
// removeString(l []string, s string) []string, a filter).
func (p *Package) listParts(fn *ssa.Function) []int {
	res := fn.Signature.Results()
	if res.Len() == 0 {
		return nil
	}
	if _, ok := res.At(0).Type().Underlying().(*types.Slice); !ok {
		return nil
	}
	var out []int
	for i, prm := range fn.Params {
		if !types.Identical(prm.Type(), res.At(0).Type()) {
			continue
		}
		inner := func(y ssa.Value) bool { return y == prm }
		returns, part := 0, true
		for _, b := range fn.Blocks {
			ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
			if !ok || len(ret.Results) == 0 {
				continue
			}
			returns++
			if !p.partOf(ret.Results[0], inner, map[ssa.Value]bool{}, 0) {
				part = false
				break
			}
		}
		if part && returns > 0 {
			out = append(out, i)
		}
	}
	return out
}

// handsOnResult returns the parameter fn gives back, as it was passed, as
// its reconcile.Result on every return (sourceOf: also through the variable
// a parameter whose address is taken is spilled to), or -1.
func (p *Package) handsOnResult(fn *ssa.Function) int {
	res := fn.Signature.Results()
	idx := -1
	for i := 0; i < res.Len(); i++ {
		if model.IsReconcileResult(res.At(i).Type()) {
			idx = i
		}
	}
	if idx < 0 {
		return -1
	}
	param := -1
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || idx >= len(ret.Results) {
			continue
		}
		src, ok := p.sourceOf(fn, returned(ret.Results[idx]), 0)
		if !ok || src.field != "" || param >= 0 && src.param != param {
			return -1
		}
		param = src.param
	}
	return param
}

// retriedOnFailure reports whether a write's failure is followed, in the
// blocks that run only when it failed, by a conflict retry that writes
// again: a write in a retry loop of the function (err := update(obj); if
// err != nil { for tries > 0 { latest := Get(); err = update(latest); ...
// } }), or a retry helper given a function of the package that writes. The
// write's 409 reaches that retry, whatever the function returns after it
// (the first write's error, when the loop's is shadowed).
func (p *Package) retriedOnFailure(fn *ssa.Function, w *WriteSite, writes []*WriteSite) bool {
	if w.Err == nil || w.Call.Parent() != fn {
		return false
	}
	for _, x := range writes {
		if x != w && x.Op == w.Op && x.Call.Parent() == fn && onFailure(w.Err, x.Call) && p.RetryOfWrite(x) != nil {
			return true
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			c, ok := instr.(ssa.CallInstruction)
			if !ok || c == w.Call || !onFailure(w.Err, c) {
				continue
			}
			if f, ok := model.FuncOf(c.Common()); ok && f.Kind == model.FuncRetry && p.rewrites(c.Common()) {
				return true
			}
		}
	}
	return false
}

// rvFromParam returns 1 + the index of the parameter of fn whose
// resourceVersion fn copies into prm before write
// (obj.SetResourceVersion(old.GetResourceVersion())), where the copy runs
// on every way to the write, or only when that parameter is not nil (if
// old != nil { ... }); 0 if none.
func (p *Package) rvFromParam(fn *ssa.Function, prm *ssa.Parameter, write ssa.Instruction) int {
	for _, a := range p.aliases(prm) {
		for _, e := range p.eventsOn(a) {
			if e.src == nil || e.rvRead == nil || e.instr.Parent() != fn {
				continue
			}
			src, ok := strip(e.src).(*ssa.Parameter)
			if !ok || src == prm || src.Parent() != fn {
				continue
			}
			b := e.instr.Block()
			if b.Dominates(write.Block()) || nilGuarded(b, src, write.Block()) {
				return paramIndex(fn, src) + 1
			}
		}
	}
	return 0
}

// nilGuarded reports whether block b is the branch of a test v != nil (or
// the else of v == nil) taken when v is not nil, from a block that
// dominates at.
func nilGuarded(b *ssa.BasicBlock, v ssa.Value, at *ssa.BasicBlock) bool {
	if len(b.Preds) != 1 {
		return false
	}
	pred := b.Preds[0]
	iff, ok := pred.Instrs[len(pred.Instrs)-1].(*ssa.If)
	if !ok || !pred.Dominates(at) {
		return false
	}
	bin, ok := iff.Cond.(*ssa.BinOp)
	if !ok || (bin.Op != token.NEQ && bin.Op != token.EQL) {
		return false
	}
	x, y := strip(bin.X), strip(bin.Y)
	if !(x == v && isNil(y) || y == v && isNil(x)) {
		return false
	}
	taken := pred.Succs[0] // the true branch
	if bin.Op == token.EQL {
		taken = pred.Succs[1]
	}
	return taken == b
}
