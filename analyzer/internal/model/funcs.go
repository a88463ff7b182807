package model

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// FuncKind says what a known function does, for the table below.
type FuncKind uint8

const (
	FuncNone       FuncKind = iota
	FuncRetry               // runs its function argument again on failure
	FuncIsConflict          // apierrors.IsConflict
	FuncCopy                // copies an object: into argument Dst from argument Src, or returns a copy of Src
	FuncDecode              // decodes bytes into argument Dst or returns a decoded object (no resourceVersion)
	FuncReadWrite           // controllerutil.CreateOrUpdate/CreateOrPatch: reads into Obj, runs Fn, writes Obj
	FuncAlias               // returns its argument Src under another type (meta.Accessor)
)

// Retries says which errors a retry helper retries.
type Retries uint8

const (
	RetriesConflict Retries = iota + 1 // only 409 Conflict
	RetriesByPred                      // what its predicate argument accepts
	RetriesByCond                      // what its condition function does: (false, nil) retries
	RetriesAll                         // every error
)

// Func is what the model knows of a function, by full name.
type Func struct {
	Kind    FuncKind
	Fn      int     // FuncRetry, FuncReadWrite: the function argument it runs
	Pred    int     // FuncRetry with RetriesByPred: the predicate argument
	Retries Retries // FuncRetry
	Bounded bool    // FuncRetry: the number of attempts or the time is bounded
	Ctx     int     // FuncRetry not Bounded: the context argument that may bound it by its deadline, or -1
	Backoff bool    // FuncRetry: waits between attempts
	Wait    int     // FuncRetry: the argument that sets the wait between attempts (a poll's interval, a wait.Backoff), or -1
	Src     int     // FuncCopy: the source argument
	Dst     int     // FuncCopy, FuncDecode: the destination argument (-1: the result)
	Obj     int     // FuncReadWrite: the object argument
	Data    int     // FuncDecode: the argument holding the bytes
	Op      Op      // FuncReadWrite: the write it does
}

func retry(fn int, r Retries, bounded, backoff bool) Func {
	return Func{Kind: FuncRetry, Fn: fn, Pred: -1, Retries: r, Bounded: bounded, Backoff: backoff, Src: -1, Dst: -1, Obj: -1, Ctx: -1, Wait: -1}
}

// waitAt is f with the wait between its attempts set by argument i.
func waitAt(i int, f Func) Func {
	f.Wait = i
	return f
}

// ctxRetry is a poll bounded only by the deadline of its context argument 0,
// which waits the interval of argument 1 between attempts.
func ctxRetry(fn int) Func {
	f := retry(fn, RetriesByCond, false, true)
	f.Ctx, f.Wait = 0, 1
	return f
}

func copyFn(src, dst int) Func {
	return Func{Kind: FuncCopy, Fn: -1, Pred: -1, Src: src, Dst: dst, Obj: -1}
}

func decode(data, dst int) Func {
	return Func{Kind: FuncDecode, Fn: -1, Pred: -1, Src: -1, Dst: dst, Obj: -1, Data: data}
}

// funcs is keyed by types.Func.FullName of the (generic origin of the) callee.
var funcs = map[string]Func{
	// client-go retry helpers. RetryOnConflict retries fn on 409 Conflict,
	// DefaultRetry/DefaultBackoff bound the attempts and back off.
	Retry + ".RetryOnConflict": waitAt(0, retry(1, RetriesConflict, true, true)),
	// OnError retries fn while its predicate (argument 1) accepts the error.
	Retry + ".OnError": func() Func { f := waitAt(0, retry(2, RetriesByPred, true, true)); f.Pred = 1; return f }(),

	// wait: the condition returns (false, nil) to try again.
	Wait + ".ExponentialBackoff":                 waitAt(0, retry(1, RetriesByCond, true, true)),
	Wait + ".ExponentialBackoffWithContext":      waitAt(1, retry(2, RetriesByCond, true, true)),
	Wait + ".Poll":                               waitAt(0, retry(2, RetriesByCond, true, true)),
	Wait + ".PollImmediate":                      waitAt(0, retry(2, RetriesByCond, true, true)),
	Wait + ".PollWithContext":                    waitAt(1, retry(3, RetriesByCond, true, true)),
	Wait + ".PollImmediateWithContext":           waitAt(1, retry(3, RetriesByCond, true, true)),
	Wait + ".PollUntilContextTimeout":            waitAt(1, retry(4, RetriesByCond, true, true)),
	Wait + ".PollUntilContextCancel":             ctxRetry(3), // bounded only by the context's deadline
	Wait + ".PollInfinite":                       waitAt(0, retry(1, RetriesByCond, false, true)),
	Wait + ".PollInfiniteWithContext":            ctxRetry(2), // bounded only by the context's deadline
	Wait + ".PollImmediateInfinite":              waitAt(0, retry(1, RetriesByCond, false, true)),
	Wait + ".PollImmediateInfiniteWithContext":   ctxRetry(2), // bounded only by the context's deadline
	Wait + ".PollUntil":                          waitAt(0, retry(1, RetriesByCond, false, true)),
	Wait + ".PollImmediateUntil":                 waitAt(0, retry(1, RetriesByCond, false, true)),
	Wait + ".PollUntilWithContext":               ctxRetry(2),                      // bounded only by the context's deadline
	Wait + ".PollImmediateUntilWithContext":      ctxRetry(2),                      // bounded only by the context's deadline
	"github.com/cenkalti/backoff/v4.Retry":       retry(0, RetriesAll, true, true), // ExponentialBackOff stops after MaxElapsedTime
	"github.com/cenkalti/backoff/v4.RetryNotify": retry(0, RetriesAll, true, true),
	"github.com/cenkalti/backoff/v5.Retry":       retry(1, RetriesAll, true, true),
	"github.com/avast/retry-go/v4.Do":            retry(0, RetriesAll, true, true), // 10 attempts by default
	"github.com/avast/retry-go.Do":               retry(0, RetriesAll, true, true),
	"github.com/sethvargo/go-retry.Do":           retry(2, RetriesAll, true, true), // retries only errors marked RetryableError
	// gomega's Eventually polls the function it is given until its matcher
	// passes (Should(Succeed()) on the error it returns, or the assertions
	// of its Gomega argument), within a timeout: in a test, a retry of every
	// error. (Consistently is not: it fails at the first failure.)
	// gomega.NewWithT returns an internal.Gomega; the function of an
	// Eventually is given a types.Gomega.
	"github.com/onsi/gomega.Eventually":                              retry(0, RetriesAll, true, true),
	"github.com/onsi/gomega.EventuallyWithOffset":                    retry(1, RetriesAll, true, true),
	"(*github.com/onsi/gomega/internal.Gomega).Eventually":           retry(0, RetriesAll, true, true),
	"(*github.com/onsi/gomega/internal.Gomega).EventuallyWithOffset": retry(1, RetriesAll, true, true),
	"(github.com/onsi/gomega/types.Gomega).Eventually":               retry(0, RetriesAll, true, true),
	"(github.com/onsi/gomega/types.Gomega).EventuallyWithOffset":     retry(1, RetriesAll, true, true),
	Meta + ".Accessor":                                                       {Kind: FuncAlias, Fn: -1, Pred: -1, Src: 0, Dst: -1, Obj: -1},
	APIErrors + ".IsConflict":                                                {Kind: FuncIsConflict, Fn: -1, Pred: -1, Src: -1, Dst: -1, Obj: -1},
	CRUtil + ".CreateOrUpdate":                                               {Kind: FuncReadWrite, Fn: 3, Pred: -1, Src: -1, Dst: -1, Obj: 2, Op: OpUpdate},
	CRUtil + ".CreateOrPatch":                                                {Kind: FuncReadWrite, Fn: 3, Pred: -1, Src: -1, Dst: -1, Obj: 2, Op: OpPatch},
	"(" + Runtime + ".UnstructuredConverter).FromUnstructured":               copyFn(0, 1),
	"(*" + Runtime + ".unstructuredConverter).FromUnstructured":              copyFn(0, 1),
	"(" + Runtime + ".UnstructuredConverter).FromUnstructuredWithValidation": copyFn(0, 1),
	"(" + Runtime + ".UnstructuredConverter).ToUnstructured":                 copyFn(0, -1),
	"(*" + Runtime + ".unstructuredConverter).ToUnstructured":                copyFn(0, -1),
	"(*" + Runtime + ".Scheme).Convert":                                      copyFn(0, 1),
	"encoding/json.Unmarshal":                                                decode(0, 1),
	UtilJSON + ".Unmarshal":                                                  decode(0, 1),
	SigsYAML + ".Unmarshal":                                                  decode(0, 1),
	SigsYAML + ".UnmarshalStrict":                                            decode(0, 1),
	"gopkg.in/yaml.v2.Unmarshal":                                             decode(0, 1),
	"gopkg.in/yaml.v3.Unmarshal":                                             decode(0, 1),
	Runtime + ".Decode":                                                      decode(1, -1),
	Runtime + ".DecodeInto":                                                  decode(1, 2),
	"(" + Runtime + ".Decoder).Decode":                                       decode(0, -1),
	// yaml.NewYAMLOrJSONDecoder(r, n).Decode(&obj): a manifest read from a
	// stream; the bytes are behind the receiver.
	"(*" + UtilYAML + ".YAMLOrJSONDecoder).Decode": decode(-1, 0),
	"(*" + UtilYAML + ".YAMLToJSONDecoder).Decode": decode(-1, 0),
}

// FuncOf returns what the model knows of the callee of a static call or an
// interface method call.
func FuncOf(c *ssa.CallCommon) (Func, bool) {
	name := CalleeName(c)
	if name == "" {
		return Func{}, false
	}
	f, ok := funcs[name]
	return f, ok
}

// periodic are the runners of a function on a period until a stop
// (k8s.io/apimachinery/pkg/util/wait), by full name: the argument that is
// the function run.
var periodic = map[string]int{
	Wait + ".Until":                      0,
	Wait + ".UntilWithContext":           1,
	Wait + ".JitterUntil":                0,
	Wait + ".JitterUntilWithContext":     1,
	Wait + ".NonSlidingUntil":            0,
	Wait + ".NonSlidingUntilWithContext": 1,
	Wait + ".Forever":                    0,
	Wait + ".BackoffUntil":               0,
}

// PeriodicFn returns the function argument a call of a periodic runner
// (wait.Until, JitterUntilWithContext, ...) runs on every period, or nil.
func PeriodicFn(c *ssa.CallCommon) ssa.Value {
	i, ok := periodic[CalleeName(c)]
	if !ok || i >= len(c.Args) {
		return nil
	}
	return c.Args[i]
}

// CallsIsConflict reports whether a call is apierrors.IsConflict.
func CallsIsConflict(c *ssa.CallCommon) bool {
	f, ok := FuncOf(c)
	return ok && f.Kind == FuncIsConflict
}

// Method names with a fixed meaning on every Kubernetes object type.
const (
	DeepCopy           = "DeepCopy"
	DeepCopyObject     = "DeepCopyObject"
	DeepCopyInto       = "DeepCopyInto"
	SetResourceVersion = "SetResourceVersion"
	GetResourceVersion = "GetResourceVersion"
	// GetObjectMeta returns the object's metadata as a metav1.Object
	// (metav1.ObjectMetaAccessor): a view of the object, not a copy.
	GetObjectMeta = "GetObjectMeta"
	// SetUnstructuredContent replaces an unstructured object's content with
	// the map it is given (runtime.Unstructured): the object is then what
	// the map holds, a copy of a typed object made by ToUnstructured.
	SetUnstructuredContent = "SetUnstructuredContent"
	// UnmarshalJSON decodes JSON into the object (unstructured.Unstructured
	// has it): what the bytes encode.
	UnmarshalJSON = "UnmarshalJSON"
)

// ObjectMethod returns the name of a method call on an object whose name has
// a fixed meaning (DeepCopy, DeepCopyInto, SetResourceVersion, ...), or "".
func ObjectMethod(c *ssa.CallCommon) string {
	name, sig, _, ok := methodOf(c)
	if !ok {
		return ""
	}
	switch name {
	case DeepCopy, DeepCopyObject, GetResourceVersion, GetObjectMeta:
		if sig.Params().Len() == 0 && sig.Results().Len() == 1 {
			return name
		}
	case DeepCopyInto, SetResourceVersion, SetUnstructuredContent:
		if sig.Params().Len() == 1 && sig.Results().Len() == 0 {
			return name
		}
	case UnmarshalJSON:
		if sig.Params().Len() == 1 && sig.Results().Len() == 1 {
			return name
		}
	}
	return ""
}

// ErrUse is what a call does with an error passed to it.
type ErrUse uint8

const (
	ErrUnknown ErrUse = iota // passes it on in a way the model cannot follow: treated as handled
	ErrLog                   // only logs or records it
	ErrWrap                  // returns an error (or string) that carries it: follow the result
	ErrTest                  // only inspects it (IsNotFound, errors.Is)
	ErrExit                  // ends the program (log.Fatal, klog.Fatal)
)

// errFuncs are error helpers by full name.
var errFuncs = map[string]ErrUse{
	"fmt.Errorf":    ErrWrap,
	"fmt.Sprintf":   ErrWrap,
	"fmt.Sprint":    ErrWrap,
	"fmt.Sprintln":  ErrWrap,
	"errors.Join":   ErrWrap,
	"errors.Unwrap": ErrWrap,
	"errors.Is":     ErrTest,
	"errors.As":     ErrTest,
	// Transient network failures, which a conflict is not.
	"k8s.io/apimachinery/pkg/util/net.IsProbableEOF":       ErrTest,
	"k8s.io/apimachinery/pkg/util/net.IsConnectionReset":   ErrTest,
	"k8s.io/apimachinery/pkg/util/net.IsConnectionRefused": ErrTest,
	"github.com/pkg/errors.Wrap":                           ErrWrap,
	"github.com/pkg/errors.Wrapf":                          ErrWrap,
	"github.com/pkg/errors.WithMessage":                    ErrWrap,
	"github.com/pkg/errors.WithMessagef":                   ErrWrap,
	"github.com/pkg/errors.WithStack":                      ErrWrap,
	"github.com/pkg/errors.Cause":                          ErrWrap,
	"github.com/hashicorp/go-multierror.Append":            ErrWrap,
	"go.uber.org/multierr.Append":                          ErrWrap,
	"go.uber.org/multierr.Combine":                         ErrWrap,
	UtilErrors + ".NewAggregate":                           ErrWrap,
	UtilErrors + ".Flatten":                                ErrWrap,
	UtilErrors + ".Reduce":                                 ErrWrap,
	CRClient + ".IgnoreNotFound":                           ErrWrap,
	CRClient + ".IgnoreAlreadyExists":                      ErrWrap,
	CRReconcile + ".TerminalError":                         ErrWrap,
	UtilRuntime + ".HandleError":                           ErrLog,
	UtilRuntime + ".HandleErrorWithContext":                ErrLog,
	UtilRuntime + ".HandleErrorWithLogger":                 ErrLog,
	"fmt.Print":                                            ErrLog,
	"fmt.Printf":                                           ErrLog,
	"fmt.Println":                                          ErrLog,
	"fmt.Fprint":                                           ErrLog,
	"fmt.Fprintf":                                          ErrLog,
	"fmt.Fprintln":                                         ErrLog,
	"os.Exit":                                              ErrExit,
	"(error).Error":                                        ErrWrap,
}

// ErrorUseOf says what a call does with an error argument.
func ErrorUseOf(c *ssa.CallCommon) ErrUse {
	if b, ok := c.Value.(*ssa.Builtin); ok {
		switch b.Name() {
		case "panic":
			return ErrExit
		case "append":
			return ErrWrap
		case "print", "println":
			return ErrLog
		}
		return ErrTest
	}
	name := CalleeName(c)
	if u, ok := errFuncs[name]; ok {
		return u
	}
	if strings.HasPrefix(name, APIErrors+".") {
		return ErrTest // IsNotFound, ReasonForError, ...
	}
	var pkg string
	var fname string
	if c.IsInvoke() {
		pkg, _ = typeName(c.Value.Type())
		fname = c.Method.Name()
	} else if fn := c.StaticCallee(); fn != nil {
		if fn.Pkg != nil {
			pkg = PkgPath(fn.Pkg.Pkg)
		} else if obj := fn.Object(); obj != nil && obj.Pkg() != nil {
			pkg = PkgPath(obj.Pkg())
		}
		fname = fn.Name()
	}
	if logPackages[pkg] {
		if strings.HasPrefix(fname, "Fatal") || strings.HasPrefix(fname, "Exit") || strings.HasPrefix(fname, "Panic") {
			return ErrExit
		}
		return ErrLog
	}
	if pkg == "testing" {
		// t.Fatal and t.Error fail the test: the error surfaces.
		if strings.HasPrefix(fname, "Fatal") || strings.HasPrefix(fname, "Error") || fname == "FailNow" || fname == "Fail" {
			return ErrExit
		}
		return ErrLog
	}
	return ErrUnknown
}

// IsReconcileResult reports whether t is controller-runtime's reconcile.Result.
func IsReconcileResult(t types.Type) bool { return isNamed(t, CRReconcile, "Result") }

// IsWorkqueueAdd reports whether a call puts an item back on a client-go
// work queue (Add, AddRateLimited, AddAfter): a retry of the whole reconcile.
func IsWorkqueueAdd(c *ssa.CallCommon) bool {
	name, _, recv, ok := methodOf(c)
	if !ok {
		return false
	}
	path, _ := typeName(recv)
	return path == Workqueue && (name == "Add" || name == "AddRateLimited" || name == "AddAfter")
}

// IsHTTPErrorReply reports whether a call answers an HTTP request with an
// error status: net/http's Error, or WriteHeader of a net/http
// ResponseWriter with a constant status of 400 or more. In an HTTP handler
// that is how a failure reaches the caller, who may try again.
func IsHTTPErrorReply(c *ssa.CallCommon) bool {
	status, ok := HTTPReplyStatus(c)
	return ok && IsHTTPErrorStatus(status)
}

// HTTPReplyStatus returns the status argument of a call that answers an
// HTTP request: the code of net/http's Error, or the status of WriteHeader
// of a net/http ResponseWriter.
func HTTPReplyStatus(c *ssa.CallCommon) (ssa.Value, bool) {
	if CalleeName(c) == "net/http.Error" && len(c.Args) == 3 {
		return c.Args[2], true
	}
	name, _, recv, ok := methodOf(c)
	if !ok || name != "WriteHeader" || !IsHTTPResponseWriter(recv) {
		return nil, false
	}
	if v := Arg(c, 0); v != nil {
		return v, true
	}
	return nil, false
}

// IsHTTPErrorStatus reports whether v is a constant HTTP status of 400 or
// more.
func IsHTTPErrorStatus(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.Int {
		return false
	}
	code, exact := constant.Int64Val(k.Value)
	return exact && code >= 400
}

// IsHTTPResponseWriter reports whether t is net/http's ResponseWriter: a
// function with a parameter of it is an HTTP handler.
func IsHTTPResponseWriter(t types.Type) bool {
	path, name := typeName(t)
	return path == "net/http" && name == "ResponseWriter"
}

// IsRequeueCall reports whether a call puts the work back on a queue, by
// the name of what it calls: a function, method or func-valued field
// named enqueue... or requeue... (ec.enqueueExperimentAfter(ex, time.Second),
// c.enqueue(obj), r.requeueAfter(key, d)), as controllers name their
// wrappers of a work queue's Add.
func IsRequeueCall(c *ssa.CallCommon) bool {
	var name string
	switch {
	case c.IsInvoke():
		name = c.Method.Name()
	case c.StaticCallee() != nil:
		if c.StaticCallee().Parent() != nil {
			return false // a closure: its name says nothing
		}
		name = c.StaticCallee().Name()
	default:
		switch v := c.Value.(type) {
		case *ssa.UnOp:
			if fa, ok := v.X.(*ssa.FieldAddr); ok {
				st := fa.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
				name = st.Field(fa.Field).Name()
			}
		case *ssa.Field:
			name = v.X.Type().Underlying().(*types.Struct).Field(v.Field).Name()
		case *ssa.Parameter:
			name = v.Name()
		}
	}
	name = strings.ToLower(name)
	return strings.HasPrefix(name, "enqueue") || strings.HasPrefix(name, "requeue")
}

// IsRequeueValue reports whether a package-level variable or a struct's
// field, returned as a result that is not an error, asks by its name for
// another attempt or
// reports a failure (worker.StatusConflict, worker.StatusError,
// ResultRequeue, RetryLater, StatusBackoff), as controllers with a result
// type of their own name the values their work queue requeues; a name that
// says no retry (StatusErrorNoRetry) does not.
func IsRequeueValue(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"noretry", "norequeue", "withoutretry", "dontretry"} {
		if strings.Contains(n, w) {
			return false
		}
	}
	for _, w := range []string{"requeue", "retry", "conflict", "backoff", "error", "fail"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// RequeueDelayParam returns the index of a parameter of a function that
// says, by its name and type, after how long to requeue the work it
// describes: a time.Duration named requeueAfter, retryAfter, backoff, ...
// (NewReconcileResultWithResource(kind, name, ns, requeueAfter
// time.Duration), as controllers with a result type of their own build the
// result their worker requeues); -1 if it has none.
func RequeueDelayParam(sig *types.Signature) int {
	for i := 0; i < sig.Params().Len(); i++ {
		p := sig.Params().At(i)
		n := strings.ToLower(p.Name())
		if !isNamed(p.Type(), "time", "Duration") {
			continue
		}
		for _, w := range []string{"requeue", "retry", "backoff"} {
			if strings.Contains(n, w) {
				return i
			}
		}
	}
	return -1
}

// IsConflictFunc reports whether a function is apierrors.IsConflict (passed
// as a value: retry.OnError(backoff, apierrors.IsConflict, fn)).
func IsConflictFunc(obj *types.Func) bool {
	f, ok := funcs[FuncName(obj)]
	return ok && f.Kind == FuncIsConflict
}

// CallsIsInvalid reports whether a call is apierrors.IsInvalid: the test of
// a 422, which a failed JSON patch test operation returns.
func CallsIsInvalid(c *ssa.CallCommon) bool { return CalleeName(c) == APIErrors+".IsInvalid" }

// waitFuncs wait before they return (or return a channel or timer that
// fires later): a loop that calls one backs off between attempts.
var waitFuncs = map[string]bool{
	"time.Sleep":                   true,
	"time.After":                   true,
	"time.NewTimer":                true,
	"(*" + Wait + ".Backoff).Step": true, // returns the duration to wait
	"(" + Wait + ".Backoff).Step":  true,
}

// Waits reports whether a call waits or sets a timer.
func Waits(c *ssa.CallCommon) bool { return waitFuncs[CalleeName(c)] }

// ComparesTime reports whether a call compares two times (a deadline
// check: time.Now().After(deadline)).
func ComparesTime(c *ssa.CallCommon) bool {
	switch CalleeName(c) {
	case "(time.Time).After", "(time.Time).Before":
		return true
	}
	return false
}

// CtxUse is what a function of package context makes of a context.
type CtxUse uint8

const (
	CtxNone     CtxUse = iota
	CtxRoot            // Background, TODO, WithoutCancel: a context that is never done
	CtxDeadline        // WithTimeout, WithDeadline: done by a deadline
	CtxDerived         // WithCancel: done when its parent (argument 0) is, or when cancelled
)

var ctxFuncs = map[string]CtxUse{
	"context.Background":        CtxRoot,
	"context.TODO":              CtxRoot,
	"context.WithTimeout":       CtxDeadline,
	"context.WithDeadline":      CtxDeadline,
	"context.WithTimeoutCause":  CtxDeadline,
	"context.WithDeadlineCause": CtxDeadline,
	"context.WithCancel":        CtxDerived,
	"context.WithCancelCause":   CtxDerived,
	// WithoutCancel's context has no deadline and is never cancelled,
	// whatever its parent does.
	"context.WithoutCancel": CtxRoot,
}

// ContextOf says what kind of context a call of package context returns.
func ContextOf(c *ssa.CallCommon) CtxUse { return ctxFuncs[CalleeName(c)] }

// funcVars are package-level variables of the libraries that hold one of
// their functions, by full name: controller-runtime's ctrl package
// re-exports controllerutil's helpers so. A call of one is a call of the
// function it holds.
var funcVars = map[string]string{
	CR + ".SetControllerReference": CRUtil + ".SetControllerReference",
	CR + ".CreateOrUpdate":         CRUtil + ".CreateOrUpdate",
	CR + ".CreateOrPatch":          CRUtil + ".CreateOrPatch",
	CR + ".NewControllerManagedBy": CRBuilder + ".ControllerManagedBy",
}

// IsContext reports whether t is context.Context.
func IsContext(t types.Type) bool {
	named, ok := t.(*types.Named)
	return ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "context" && named.Obj().Name() == "Context"
}

// ContextDone returns the context of a call of its Done or Err method:
// <-ctx.Done() in a select, ctx.Err() != nil, which end a loop when the
// context is done.
func ContextDone(c *ssa.CallCommon) (ssa.Value, bool) {
	if !c.IsInvoke() || (c.Method.Name() != "Done" && c.Method.Name() != "Err") {
		return nil, false
	}
	if !IsContext(c.Value.Type()) {
		return nil, false
	}
	return c.Value, true
}

// timerFuncs make a channel that fires once after a while (repeats false)
// or at every period (repeats true): NewTimer and NewTicker through their
// field C.
var timerFuncs = map[string]bool{
	"time.After":     false,
	"time.NewTimer":  false,
	"time.Tick":      true,
	"time.NewTicker": true,
}

// TimerChan reports whether a channel is a timer's: the result of
// time.After or time.Tick, or the field C of a Timer or Ticker made by
// time.NewTimer or time.NewTicker. It returns the call that makes it.
func TimerChan(ch ssa.Value) (call ssa.CallInstruction, repeats, ok bool) {
	switch x := ch.(type) {
	case *ssa.Call:
		r, ok := timerFuncs[CalleeName(x.Common())]
		return x, r, ok
	case *ssa.UnOp:
		fa, isField := x.X.(*ssa.FieldAddr)
		if x.Op != token.MUL || !isField {
			return nil, false, false
		}
		if c, ok := fa.X.(*ssa.Call); ok {
			if r, ok := timerFuncs[CalleeName(c.Common())]; ok && CalleeName(c.Common()) != "time.After" && CalleeName(c.Common()) != "time.Tick" {
				return c, r, true
			}
		}
		// The C of a Ticker or Timer made elsewhere (a parameter, a field).
		if ptr, ok := fa.X.Type().Underlying().(*types.Pointer); ok {
			if n, ok := types.Unalias(ptr.Elem()).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" &&
				fa.Field == 0 && (n.Obj().Name() == "Ticker" || n.Obj().Name() == "Timer") {
				return nil, n.Obj().Name() == "Ticker", true
			}
		}
	}
	return nil, false, false
}
