// Package writes is the record of every write call of a package: what the
// rules of lostupdate ask of a write, decided once.
//
// Build turns each write site that flow finds (a client Update, Patch or
// Apply, or a call of a helper that does one) into a Write: the call, its
// operation and object, whether it is conditional and why, the retry it runs
// in, the fate of its error and, for a patch, what it sends. The rules read
// these fields; none of them asks flow the same question again.
//
// A field that costs an analysis is computed on first use and kept, so that
// a package whose rules never ask it pays nothing for it, and each answer is
// computed at most once. writes never reports.
package writes

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/flow"
	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/patch"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
)

// Set is the writes of one package.
type Set struct {
	All   []*Write
	flow  *flow.Package
	calls map[ssa.Instruction]bool // the calls of All
}

// Build makes the record of every write of the package flow analyses, in
// the order flow finds them.
func Build(p *flow.Package) *Set {
	s := &Set{flow: p, calls: map[ssa.Instruction]bool{}}
	for _, site := range p.Writes() {
		s.All = append(s.All, &Write{WriteSite: site, set: s})
		s.calls[site.Call] = true
	}
	return s
}

// IsWrite reports whether an instruction is a write call (of the API, or of
// a helper that writes).
func (s *Set) IsWrite(instr ssa.Instruction) bool { return s.calls[instr] }

// Write is one write call. The fields of flow.WriteSite are what the call
// is (its operation, client call or helper, object and error value); the
// methods are what is decided of it, each at most once.
type Write struct {
	*flow.WriteSite
	set *Set

	origins  lazy[[]flow.Origin]
	cond     lazy[Condition]
	retry    lazy[*flow.Retry]
	fate     lazy[errorFate]
	patch    lazy[*patch.Info]
	fresh    lazy[freshness]
	deleting lazy[bool]
	watch    lazy[*ssa.Call]
}

type errorFate struct {
	fate  flow.Fate
	check *ssa.Call
}

type freshness struct {
	fresh bool
	reads []flow.Origin
}

// lazy holds a value computed on first use.
type lazy[T any] struct {
	done bool
	v    T
}

func (l *lazy[T]) get(compute func() T) T {
	if !l.done {
		l.v, l.done = compute(), true
	}
	return l.v
}

// Origins returns the possible provenances of the object written, when the
// write executes (nil without an object).
func (w *Write) Origins() []flow.Origin {
	return w.origins.get(func() []flow.Origin {
		if w.Obj == nil {
			return nil
		}
		return w.set.flow.ObjectWhenRun(w.Obj, w.Call)
	})
}

// BuiltInObject reports whether the object written, held in an
// interface, is of a built-in kind on every path (what a builder returns).
func (w *Write) BuiltInObject() bool { return w.Obj != nil && w.set.flow.BuiltInObject(w.Obj) }

// HelperReadsFirst reports whether the write is through a helper that reads
// the object again itself before writing it (it calls CreateOrUpdate).
func (w *Write) HelperReadsFirst() bool { return w.Via != nil && w.ViaWrite.ReadsFirst }

// HelperRereads reports whether the write is through a helper that, on some
// path, writes an object it reads itself instead of the one passed.
func (w *Write) HelperRereads() bool { return w.Via != nil && w.ViaWrite.Rereads }

// HelperRetries reports whether the write is through a helper that retries
// its write on conflict itself.
func (w *Write) HelperRetries() bool { return w.Via != nil && w.ViaWrite.InRetry }

// Retry returns the conflict retry that retries the write, or nil: the retry
// it runs in, when its error reaches that retry.
func (w *Write) Retry() *flow.Retry {
	return w.retry.get(func() *flow.Retry { return w.set.flow.RetryOfWrite(w.WriteSite) })
}

// RewatchedStatus returns, for a status write (a client call, or a
// helper's), the For call of a controller of the package that reconciles
// the written object's type with no event filter and runs the write in its
// Reconcile, or the AddEventHandler call of an informer of the type whose
// UpdateFunc queues every update, or runs the write itself, for an object
// read: a conflicting write's event reconciles the object again, and the
// status, observed state, is computed and written afresh. nil if none, and
// for other writes.
func (w *Write) RewatchedStatus() *ssa.Call {
	return w.watch.get(func() *ssa.Call {
		status := w.Client != nil && w.Client.Subresource == "status" || w.Via != nil && w.ViaWrite.Status
		if !status {
			return nil
		}
		if fc := w.set.flow.Rewatched(w.Call, w.Obj); fc != nil {
			return fc
		}
		// A client-go controller's sync handler: the object is read (from
		// the informer's cache, here or by every caller), and the
		// informer queues every update of its type.
		origins := w.Origins()
		if len(origins) == 0 {
			return nil
		}
		for _, o := range origins {
			read := o.Kind == flow.Read || o.Kind == flow.CacheRead ||
				o.Kind == flow.Unknown && o.Param != nil && w.set.flow.ParamRead(o.Param)
			if !read {
				return nil
			}
		}
		return w.set.flow.InformerRewatched(w.Call.Parent(), w.Obj)
	})
}

// ErrorFate says what becomes of the write's error; check is the call that
// swallows a conflict, for flow.Swallowed.
func (w *Write) ErrorFate() (fate flow.Fate, check *ssa.Call) {
	f := w.fate.get(func() errorFate {
		fate, check := w.set.flow.ErrorFate(w.Err, w.Call)
		return errorFate{fate, check}
	})
	return f.fate, f.check
}

// FreshInRetry says, for a write inside a conflict retry, whether the object
// it sends is read again inside the retried attempt (if only for the next
// attempt), or may be: read there, a parameter of the retried function, of
// an origin the analysis cannot place, or filled again there by a call that
// is not a write. When it is not, reads are the reads of the object outside
// the retry. A write outside any retry is fresh.
func (w *Write) FreshInRetry() (fresh bool, reads []flow.Origin) {
	f := w.fresh.get(func() freshness {
		r := w.Retry()
		if r == nil || w.Obj == nil {
			return freshness{fresh: true}
		}
		var reads []flow.Origin
		for _, o := range w.Origins() {
			if insideRetry(r, o) || o.Untraced() {
				return freshness{fresh: true}
			}
			if o.Kind == flow.Read || o.Kind == flow.CacheRead {
				reads = append(reads, o)
			}
		}
		if w.set.flow.RefilledWhere(w.Obj, func(i ssa.Instruction) bool { return r.Inside(i) && !w.set.IsWrite(i) }) {
			return freshness{fresh: true}
		}
		return freshness{reads: reads}
	})
	return f.fresh, f.reads
}

// insideRetry reports whether an origin is produced inside the retried
// attempt: a read in the retried function, or a parameter of it.
func insideRetry(r *flow.Retry, o flow.Origin) bool {
	if o.Param != nil {
		return r.Fn != nil && r.Inside(o.Param.Parent().Blocks[0].Instrs[0])
	}
	return o.Site != nil && r.Inside(o.Site)
}

// WhileDeleting reports whether the write runs only while its object's
// deletion timestamp is set (in the branch of a test of it): the API server
// then refuses to add finalizers, so a stale finalizer list is rejected
// rather than applied.
func (w *Write) WhileDeleting() bool {
	return w.deleting.get(func() bool { return w.set.flow.WhileDeleting(w.Obj, w.Call) })
}

// Patch returns what a patch or apply sends, evaluated once; nil for writes
// that are not client patches (an Update, a helper).
func (w *Write) Patch() *patch.Info {
	return w.patch.get(w.evalPatch)
}

// IsApply reports whether the write is a Server-Side Apply (an Apply, or a
// Patch of type apply).
func (w *Write) IsApply() bool {
	info := w.Patch()
	return info != nil && info.Type == patch.TypeApply
}

func (w *Write) evalPatch() *patch.Info {
	if w.Client == nil {
		return w.helperDiff()
	}
	p := w.set.flow
	c := w.Call.Common()
	switch {
	case w.Op == model.OpApply:
		return &patch.Info{Type: patch.TypeApply, Kind: patch.KindApply, Known: true}
	case w.Op != model.OpPatch:
		return nil
	case w.Client.Patch >= 0:
		arg := model.Arg(c, w.Client.Patch)
		if rc, ok := ssax.Strip(arg).(*ssa.Call); ok {
			// client.RawPatch(typ, data) of data a helper builds.
			if cp, ok := model.CRPatchOf(rc.Common()); ok && cp.Kind == model.CRRaw {
				typ := patch.TypeOf(rc.Call.Args[cp.Type])
				if pf, call := returnedPatch(p, rc.Call.Args[cp.Data]); pf != nil && typ != patch.TypeApply {
					return helperPatch(typ, pf, call)
				}
			}
		}
		return patch.ControllerRuntime(arg, p.VariableValues)
	case w.Client.Data >= 0:
		typ := patch.TypeOf(model.Arg(c, w.Client.PatchType))
		data := model.Arg(c, w.Client.Data)
		if pf, call := returnedPatch(p, data); pf != nil && typ != patch.TypeApply {
			return helperPatch(typ, pf, call)
		}
		info := patch.Raw(typ, data, p.VariableValues)
		if info.Type == patch.TypeUnknown {
			info.Type = typ
		}
		return info
	}
	return nil
}

// returnedPatch returns the summary of the patch data a helper builds: the
// bytes it returns, or the operations it returns, marshalled here.
func returnedPatch(p *flow.Package, data ssa.Value) (*flow.PatchFact, ssa.CallInstruction) {
	if pf, call := p.ReturnedPatch(data); pf != nil {
		return pf, call
	}
	if e, ok := ssax.Strip(data).(*ssa.Extract); ok && e.Index == 0 {
		if c, ok := e.Tuple.(*ssa.Call); ok && model.IsEncoder(c.Common()) {
			if pf, call := p.ReturnedPatch(ssax.Strip(c.Call.Args[0])); pf != nil && pf.JSON {
				return pf, call
			}
		}
	}
	return nil, nil
}

// helperDiff describes the patch a helper sends, from its summary: a merge
// patch from one of its arguments (or from the field of a patcher where its
// constructor keeps a copy of the object), or the patch it is given; nil
// when the summary says neither.
func (w *Write) helperDiff() *patch.Info {
	wf := w.ViaWrite
	if w.Via == nil || w.Op != model.OpPatch {
		return nil
	}
	c := w.Call.Common()
	p := w.set.flow
	switch {
	case wf.PatchArg >= 0 && wf.PatchArg < len(c.Args):
		return patch.ControllerRuntime(c.Args[wf.PatchArg], p.VariableValues)
	case !wf.Diff || wf.From >= len(c.Args):
		return nil
	case wf.FromField != "":
		// p := NewPatcher(obj, c) ... p.Patch(ctx, obj): the snapshot is
		// the copy the constructor made.
		base, ctor := p.StoredCopy(c.Args[wf.From], wf.FromField)
		if base == nil {
			return &patch.Info{Type: patch.TypeMerge, Kind: patch.KindDiff}
		}
		info := &patch.Info{Type: patch.TypeMerge, Kind: patch.KindDiff, Known: true, Base: base, Snapshot: ctor}
		if fn := ctor.Common().StaticCallee(); fn != nil {
			info.Fn = fn.Name()
		}
		return info
	}
	// Helper(original, updated): a diff from original.
	base := c.Args[wf.From]
	info := &patch.Info{Type: patch.TypeMerge, Kind: patch.KindDiff, Known: true, Fn: "MergeFrom",
		Base: base, BaseArg: base, Snapshot: w.Call}
	if cp, ok := ssax.Strip(base).(*ssa.Call); ok {
		switch model.ObjectMethod(cp.Common()) {
		case model.DeepCopy, model.DeepCopyObject:
			info.Base, info.Snapshot = model.Recv(cp.Common()), cp
		}
	}
	return info
}

// helperPatch describes a patch body built by a helper, from its summary.
func helperPatch(typ patch.Type, pf *flow.PatchFact, call ssa.CallInstruction) *patch.Info {
	info := &patch.Info{Type: typ, Kind: patch.KindBody, Known: true, HasTest: pf.HasTest, HasRV: pf.HasRV}
	if fn := call.Common().StaticCallee(); fn != nil {
		info.Fn = fn.Name()
	}
	if c, ok := call.(*ssa.Call); ok {
		info.Site = c
	}
	for _, path := range pf.IndexedPaths {
		info.Ops = append(info.Ops, patch.Op{Path: path, Indexed: true})
	}
	if pf.Indexed && len(pf.IndexedPaths) == 0 {
		info.Ops = append(info.Ops, patch.Op{Path: "a list element", Indexed: true})
	}
	for _, i := range pf.FromParams {
		if i < len(call.Common().Args) {
			info.FromObjects = append(info.FromObjects, call.Common().Args[i])
		}
	}
	return info
}

// ---- whether a write is conditional ----

// Verdict says whether a concurrent change makes a write fail.
type Verdict uint8

const (
	Unknown       Verdict = iota // the analysis cannot tell: no object it sees, no origin, a patch it cannot evaluate
	Conditional                  // a concurrent change can make it fail with 409 Conflict
	Unconditional                // it overwrites a concurrent change
)

func (v Verdict) String() string {
	return [...]string{"unknown", "conditional", "unconditional"}[v]
}

// Reason says why a write has its verdict.
type Reason uint8

const (
	NoReason Reason = iota
	// Conditional:
	ReadsFirst   // the call reads the object itself before writing it (CreateOrUpdate, CreateOrPatch)
	CarriesRV    // an Update of an object that may carry a resourceVersion: read, set from a read, or of an origin the analysis cannot tell
	Precondition // a patch with a precondition: a resourceVersion, a test op, an optimistic lock
	Ownership    // a Server-Side Apply: its conflicts are of field ownership
	// Unconditional (an Update of an object without a resourceVersion, or a
	// patch without a precondition):
	Built          // built without a resourceVersion
	Cleared        // its resourceVersion was cleared
	Decoded        // decoded from a manifest without a resourceVersion
	BuiltByHelper  // built by a helper without a resourceVersion
	NoPrecondition // a patch the analysis reads, without a precondition
	// Unknown:
	NoObject     // an Update whose object the analysis does not see
	NoOrigin     // an object of no origin the analysis can find
	UnknownPatch // a patch the analysis cannot evaluate
)

// Evidence is one place that decides a verdict: for an Update of an object
// without a resourceVersion, where the object is built, decoded or cleared.
type Evidence struct {
	Reason Reason
	Pos    token.Pos
	Via    *types.Func // BuiltByHelper: the helper
}

// Condition is whether a write is conditional, and why.
type Condition struct {
	Verdict Verdict
	Reason  Reason
	// Via is the helper that builds the object, for BuiltByHelper.
	Via *types.Func
	// Evidence are the places that decide it, for an unconditional Update.
	Evidence []Evidence
}

// Condition says whether the write is conditional: whether a concurrent
// change since the values it sends were read makes it fail with 409
// Conflict. An Update is conditional when the object carries a
// resourceVersion from a read (or may); a patch when it carries a
// precondition; a Server-Side Apply always is (on field ownership).
//
// A write through a helper is judged by the object passed to the helper;
// HelperReadsFirst tells the helpers that read it again themselves.
func (w *Write) Condition() Condition {
	return w.cond.get(w.condition)
}

func (w *Write) condition() Condition {
	switch {
	case w.ReadsFirst:
		return Condition{Verdict: Conditional, Reason: ReadsFirst}
	case w.Op == model.OpUpdate:
		return w.updateCondition()
	case w.Op == model.OpPatch:
		info := w.Patch()
		switch {
		case info == nil || !info.Known:
			return Condition{Verdict: Unknown, Reason: UnknownPatch}
		case info.Type == patch.TypeApply:
			return Condition{Verdict: Conditional, Reason: Ownership}
		case info.HasPrecondition():
			return Condition{Verdict: Conditional, Reason: Precondition}
		}
		return Condition{Verdict: Unconditional, Reason: NoPrecondition}
	}
	return Condition{Verdict: Conditional, Reason: Ownership}
}

func (w *Write) updateCondition() Condition {
	if w.Obj == nil {
		return Condition{Verdict: Unknown, Reason: NoObject}
	}
	origins := w.Origins()
	if len(origins) == 0 {
		return Condition{Verdict: Unknown, Reason: NoOrigin}
	}
	if !flow.AllNoResourceVersion(origins) {
		return Condition{Verdict: Conditional, Reason: CarriesRV}
	}
	if w.RVFromArg != nil {
		// The helper copies the version of the object given with it
		// (updateOwned(ctx, &actual, desired)): one read, it carries one.
		if from := w.set.flow.Object(w.RVFromArg, w.Call); len(from) > 0 && !flow.AllNoResourceVersion(from) {
			return Condition{Verdict: Conditional, Reason: CarriesRV}
		}
	}
	// The last origin that says more than "built" gives the reason.
	c := Condition{Verdict: Unconditional, Reason: Built}
	for _, o := range origins {
		e := Evidence{Pos: o.Pos()}
		switch {
		case o.Kind == flow.Cleared:
			e.Reason = Cleared
		case o.Decoded:
			e.Reason = Decoded
		case o.Via != nil:
			e.Reason, e.Via = BuiltByHelper, o.Via
		case e.Pos.IsValid():
			c.Evidence = append(c.Evidence, Evidence{Reason: Built, Pos: e.Pos})
			continue
		default:
			continue
		}
		c.Reason, c.Via = e.Reason, e.Via
		c.Evidence = append(c.Evidence, e)
	}
	return c
}
