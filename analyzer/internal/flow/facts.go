package flow

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
)

// FuncFact is the summary of a function exported for the packages that call
// it: what it returns, which parameters it reads into or writes, which
// function parameters it runs inside a conflict retry. Parameter indices
// count a method's receiver as 0.
type FuncFact struct {
	Returns      []ReturnFact
	ReadsInto    []int
	Writes       []WriteFact
	Feeds        []FeedFact
	Retries      []RetryFact
	ConflictTest bool // tests its error argument for a conflict
	Mutates      []MutateFact
	Patches      []PatchFact
	LogsErrors   bool // only logs the error (or the ...any arguments) it is given
	// SwallowsConflict: returns the error it is given, but nil for a
	// conflict.
	SwallowsConflict bool
	ReturnsFake      bool // returns a fake client (a test helper)
	SetsRV           []int
	ClearsRV         []int
	Stores           []StoreFact // a constructor: copies of parameters kept in fields
	Creates          []int       // object parameters passed to a Create
	ListParts        []int       `json:",omitempty"` // list parameters result 0 is a part of
	// ChoosesObjects: returns a watch predicate that chooses objects, not
	// changes (predicates.go).
	ChoosesObjects bool `json:",omitempty"`
	// Queues: adds to a work queue (a method of a wrapper of one).
	Queues bool `json:",omitempty"`
	// BuiltIn: interface results that hold an object of a built-in kind
	// on every path (kinds.go).
	BuiltIn []int `json:",omitempty"`
	// HandsOnError: returns (a wrapping of) its error argument, or nil.
	HandsOnError bool `json:",omitempty"`
	// HandsOnResult: the parameters (one at most) every return gives back
	// as the reconcile.Result, as passed.
	HandsOnResult []int `json:",omitempty"`
}

// PatchFact says a result of a function is a patch body it builds.
type PatchFact struct {
	Result  int
	JSON    bool // a JSON patch (a list of operations)
	Indexed bool // an operation addresses a list element by index
	// IndexedPaths are the paths of those operations, "{}" for a
	// computed segment: /metadata/finalizers/{}.
	IndexedPaths []string
	HasTest      bool  // a test operation
	HasRV        bool  // metadata.resourceVersion
	FromParams   []int // it carries values computed from these (object) parameters
}

// what says what a patch does, for the fact's text: " that addresses
// /metadata/finalizers/{} by index, with a test op, from #1", or " from no object"
// (a blind patch: constants, or values other than objects).
func (pf PatchFact) what() string {
	var parts []string
	switch {
	case len(pf.IndexedPaths) > 0:
		parts = append(parts, "that addresses "+strings.Join(pf.IndexedPaths, ", ")+" by index")
	case pf.Indexed:
		parts = append(parts, "that addresses a list element by index")
	}
	if pf.HasTest {
		parts = append(parts, "with a test op")
	}
	if pf.HasRV {
		parts = append(parts, "with the resourceVersion")
	}
	for _, i := range pf.FromParams {
		parts = append(parts, fmt.Sprintf("from #%d", i))
	}
	if len(parts) == 0 {
		return " from no object"
	}
	return " " + strings.Join(parts, ", ")
}

// MutateFact says a function changes a list of an object parameter, or sets
// a field of it from a value it read from it.
type MutateFact struct {
	Param    int
	Field    string // the first field changed, for messages
	List     bool
	Merge    bool // every list changed merges by key in a strategic merge patch
	FromRead bool
	Remove   bool // every list change only removes elements
}

// ReturnFact says a result of a function is always of one provenance.
type ReturnFact struct {
	Result int
	Kind   Kind
}

// WriteFact says a function writes a parameter as it was passed.
type WriteFact struct {
	Param int
	// ParamField: the object written is field ParamField of the struct
	// parameter Param points to, not the parameter (set only for a merge
	// patch from a snapshot, Diff: a scope struct's Close that patches the
	// object its constructor kept, from the snapshot of the patcher it
	// made).
	ParamField  string `json:",omitempty"`
	Op          model.Op
	ErrReturned bool // the write's error is returned to the caller
	// ErrLost: the write's error is not handed on, in an exported function
	// its package never calls (LostToCallers): a caller in another package
	// that then neither fails nor requeues is where the failure is lost.
	ErrLost    bool `json:",omitempty"`
	InRetry    bool // the write runs inside the function's own conflict retry
	ReadsFirst bool // the write reads the object itself first (controllerutil.CreateOrUpdate)
	// Rereads: on some path the function writes, instead of the parameter,
	// an object it reads itself (a helper that re-reads when its caller
	// asks, after a conflict): a retry around it need not resend the
	// parameter's version.
	Rereads  bool `json:",omitempty"`
	Replaces bool // an Update of a parameter the function also creates: create-or-replace
	// IfRV: the parameter is written only when it carries a resourceVersion
	// (writtenWithRV); without one, the function writes an object it
	// creates and reads back instead.
	IfRV   bool `json:",omitempty"`
	Client int  // the parameter holding the client written through, or -1
	// At is where the write is: the client call, at the end of the chain
	// of helpers that pass the object on. A position of the helper's
	// package, as a file name and line, to point a caller's finding at.
	At WritePos
	// Diff: a Patch that sends a merge patch without a lock from
	// parameter From (from its field FromField, when set: a patcher's
	// snapshot) to parameter Param.
	Diff      bool
	From      int
	FromField string
	// PatchArg is the parameter holding the patch sent (a client.Patch
	// the caller built), or -1.
	PatchArg int
	Status   bool // the write goes to the status subresource (for a patch from a snapshot: the patch does)
	// SetsRVFor are the types (types.TypeString, one per line) for which
	// the function copies a read resourceVersion into the parameter before
	// the write, in a branch of a type switch on it: an argument of one of
	// them is written conditionally.
	SetsRVFor string `json:",omitempty"`
	// RVFrom, when not 0, is 1 + the parameter whose resourceVersion the
	// function copies into the parameter written before the write
	// (obj.SetResourceVersion(old.GetResourceVersion()), also only when
	// old is not nil): an argument for it that was read makes the write
	// conditional.
	RVFrom int `json:",omitempty"`
}

// WritePos is a position in a function's source, portable across the
// analyses of packages (a token.Pos is not).
type WritePos struct {
	File      string
	Line, Col int
}

// same reports whether two writes are the same but for where they are.
func (a WriteFact) same(b WriteFact) bool {
	a.At, b.At = WritePos{}, WritePos{}
	return a == b
}

func (a WriteFact) less(b WriteFact) bool {
	return fmt.Sprint(a) < fmt.Sprint(b)
}

// patchString describes a patch between parameters, or "".
func (w WriteFact) patchString() string {
	sub := ""
	if w.Status {
		sub = " (status)"
	}
	switch {
	case w.PatchArg >= 0:
		return fmt.Sprintf("patches parameter %d%s with a merge patch from a patch passed as parameter %d", w.Param, sub, w.PatchArg)
	case !w.Diff:
		return ""
	case w.FromField != "" && w.From == 0 && w.ParamField != "":
		return fmt.Sprintf("sends a merge patch from field %s of the receiver to its field %s%s, without a lock", w.FromField, w.ParamField, sub)
	case w.FromField != "" && w.From == 0:
		return fmt.Sprintf("Patch sends a merge patch from field %s of the receiver to parameter %d%s, without a lock", w.FromField, w.Param, sub)
	case w.FromField != "":
		return fmt.Sprintf("sends a merge patch from field %s of parameter %d to parameter %d%s, without a lock", w.FromField, w.From, w.Param, sub)
	}
	return fmt.Sprintf("patches parameter %d%s with a merge patch from parameter %d, without a lock", w.Param, sub, w.From)
}

// RetryFact says a function runs a function parameter inside a conflict retry.
type RetryFact struct {
	Param        int
	ConflictOnly bool
	Bounded      bool
	Backoff      bool
	MinWait      time.Duration // as in Retry
	ByCond       bool          // a wait condition: it retries conflicts if the function given does
	// HasCtx: the retry ends when the context parameter Ctx (counted as
	// Param is) is done, as a wait poll given the caller's context does;
	// CtxAttempts as in Retry.
	HasCtx      bool
	Ctx         int
	CtxAttempts bool
}

func (*FuncFact) AFact() {}

func (f *FuncFact) String() string {
	var parts []string
	for _, r := range f.Returns {
		parts = append(parts, fmt.Sprintf("returns %s #%d", r.Kind, r.Result))
	}
	for _, i := range f.ReadsInto {
		parts = append(parts, fmt.Sprintf("reads into #%d", i))
	}
	for _, w := range f.Writes {
		s := fmt.Sprintf("writes #%d with %s", w.Param, w.Op)
		if w.ParamField != "" {
			s = fmt.Sprintf("writes field %s of #%d with %s", w.ParamField, w.Param, w.Op)
		}
		if w.Replaces {
			s += " after creating it"
		}
		if w.IfRV {
			s += " when it carries a resourceVersion"
		}
		if w.InRetry {
			s += " in retry"
		} else if w.ErrReturned {
			s += " returning its error"
		} else if w.ErrLost {
			s += " losing its error"
		}
		parts = append(parts, s)
		if d := w.patchString(); d != "" {
			parts = append(parts, d)
		}
	}
	for _, st := range f.Stores {
		what := fmt.Sprintf("parameter %d", st.Param)
		if st.ParamField != "" {
			what = fmt.Sprintf("field %s of parameter %d", st.ParamField, st.Param)
		}
		if st.Alias {
			parts = append(parts, fmt.Sprintf("the constructor keeps %s in field %s", what, st.Field))
		} else {
			parts = append(parts, fmt.Sprintf("the constructor stores a copy of %s in field %s", what, st.Field))
		}
	}
	for _, fd := range f.Feeds {
		parts = append(parts, fmt.Sprintf("feeds #%d to %s", fd.Param, fd.Op))
	}
	for _, r := range f.Retries {
		if r.HasCtx {
			parts = append(parts, fmt.Sprintf("retries #%d on conflict until #%d is done", r.Param, r.Ctx))
		} else {
			parts = append(parts, fmt.Sprintf("retries #%d on conflict", r.Param))
		}
	}
	if f.ConflictTest {
		parts = append(parts, "tests for conflict")
	}
	if f.LogsErrors {
		parts = append(parts, "logs errors")
	}
	if f.SwallowsConflict {
		parts = append(parts, "swallows conflicts")
	}
	if f.ReturnsFake {
		parts = append(parts, "returns a fake client")
	}
	for _, i := range f.SetsRV {
		parts = append(parts, fmt.Sprintf("sets resourceVersion of #%d", i))
	}
	for _, i := range f.ClearsRV {
		parts = append(parts, fmt.Sprintf("clears resourceVersion of #%d", i))
	}
	for _, i := range f.Creates {
		parts = append(parts, fmt.Sprintf("creates #%d", i))
	}
	for _, i := range f.ListParts {
		parts = append(parts, fmt.Sprintf("returns a part of #%d", i))
	}
	if f.ChoosesObjects {
		parts = append(parts, "returns a predicate of objects")
	}
	if f.Queues {
		parts = append(parts, "queues")
	}
	for _, i := range f.BuiltIn {
		parts = append(parts, fmt.Sprintf("returns a built-in kind #%d", i))
	}
	if f.HandsOnError {
		parts = append(parts, "returns its error argument")
	}
	for _, i := range f.HandsOnResult {
		parts = append(parts, fmt.Sprintf("returns #%d as its reconcile result", i))
	}
	for _, pf := range f.Patches {
		kind := "merge patch"
		if pf.JSON {
			kind = "JSON patch"
		}
		parts = append(parts, fmt.Sprintf("returns a %s #%d", kind, pf.Result)+pf.what())
	}
	for _, m := range f.Mutates {
		what := "fields"
		if m.List {
			what = "lists"
		}
		parts = append(parts, fmt.Sprintf("changes %s of #%d", what, m.Param))
	}
	return strings.Join(parts, "; ")
}

func (f *FuncFact) returns(idx int) (Kind, bool) {
	for _, r := range f.Returns {
		if r.Result == idx {
			return r.Kind, true
		}
	}
	return Unknown, false
}

func (f *FuncFact) readsInto(i int) bool {
	for _, x := range f.ReadsInto {
		if x == i {
			return true
		}
	}
	return false
}

// Fact returns the fact to export for a function, or nil if it has nothing
// callers need.
func (p *Package) Fact(fn *ssa.Function) *FuncFact {
	s := p.summary(fn)
	f := &FuncFact{}
	for i, os := range s.Returns {
		if k, ok := uniformKind(os); ok {
			f.Returns = append(f.Returns, ReturnFact{Result: i, Kind: k})
		}
	}
	for i := range s.ReadsInto {
		f.ReadsInto = append(f.ReadsInto, i)
	}
	sort.Ints(f.ReadsInto)
	f.Writes = s.Writes
	f.Feeds = s.Feeds
	f.Retries = s.Retries
	f.ConflictTest = s.ConflictTest
	f.Mutates = s.Mutates
	f.Patches = s.Patches
	f.LogsErrors = s.LogsErrorArg
	f.SwallowsConflict = s.SwallowsConflictArg
	f.SetsRV, f.ClearsRV = s.SetsRV, s.ClearsRV
	f.ReturnsFake = s.ReturnsFake
	f.Stores = s.Stores
	f.Creates = s.Creates
	f.ListParts = s.ListParts
	f.ChoosesObjects = s.ChoosesObjects
	f.BuiltIn = p.builtInResults(fn)
	if s.HandsOnResult >= 0 {
		// A reporting helper: what it hands back is what it was given.
		f.HandsOnResult = []int{s.HandsOnResult}
		f.HandsOnError = s.ReturnsErrorArg
	}
	f.Queues = s.Queues
	if len(f.Stores) > 0 {
		return f
	}
	if len(f.Returns)+len(f.ReadsInto)+len(f.Writes)+len(f.Feeds)+len(f.Retries)+len(f.Mutates)+len(f.Patches)+len(f.SetsRV)+len(f.ClearsRV)+len(f.Creates)+len(f.ListParts) == 0 && !f.ConflictTest && !f.LogsErrors && !f.SwallowsConflict && !f.ReturnsFake && !f.ChoosesObjects && !f.Queues && len(f.BuiltIn) == 0 && len(f.HandsOnResult) == 0 {
		return nil
	}
	return f
}
