// Package model is lostupdate's knowledge of the Kubernetes client APIs: which
// calls read an object, write it, retry on conflict, copy it or only log an
// error. It is data plus the small helpers that match a call against it; it
// holds no state and knows nothing of the rules.
//
// It is the only package of lostupdate that names a library: the others ask
// it by role (IsEncoder, PatchBuilder, ListMutator, SinkOf, IsModelled, ...),
// and a test fails when a path of a library is spelled anywhere else. The
// catalog is in declarative tables, one file per subject:
//
//   - packages.go: the package paths, the modelled libraries, logging and
//     API server storage packages;
//   - model.go: client calls, recognised by their shape (Classify), and the
//     object types;
//   - funcs.go: retry helpers, copies and decoders, error helpers, clocks
//     and contexts;
//   - patches.go: encoders, patch builders and appliers, controller-runtime
//     patches, the text of hand-written patches;
//   - objects.go: changes to objects: list mutators, unstructured setters,
//     identity fields, read-only calls;
//   - versions.go: what parses, orders or produces a resourceVersion string,
//     and the types whose ResourceVersion field holds one;
//   - builder.go: the controller-runtime builder, what a controller
//     reconciles and whether its events are filtered;
//   - names.go: full names of functions (the keys of every table), short
//     names for messages, JSON names of struct fields.
//
// Calls on client objects are recognised by their shape (method name and the
// apimachinery or controller-runtime option types they take), not by the
// package of the receiver, so that every generated clientset, the dynamic
// client, fakes and user wrappers of these interfaces are covered alike.
package model

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
)

// Op is what a recognised call does.
type Op uint8

const (
	OpNone      Op = iota
	OpRead         // GET or LIST served by the API server (or a controller-runtime client)
	OpCacheRead    // read from a lister or an informer store
	OpCreate       // POST
	OpUpdate       // PUT: Update, UpdateStatus, Status().Update, SubResource(..).Update, UpdateScale, ...
	OpPatch        // PATCH
	OpApply        // Server-Side Apply
	OpDelete       // DELETE
)

func (op Op) String() string {
	return [...]string{"none", "read", "cache read", "create", "update", "patch", "apply", "delete"}[op]
}

// IsWrite reports whether op changes an existing object on the server.
func (op Op) IsWrite() bool { return op == OpUpdate || op == OpPatch || op == OpApply }

// ClientKind names the family of client a call belongs to.
type ClientKind uint8

const (
	Typed             ClientKind = iota // client-gen typed clientset (gentype), metadata client
	Dynamic                             // k8s.io/client-go/dynamic
	ControllerRuntime                   // sigs.k8s.io/controller-runtime/pkg/client
	Lister                              // generated listers, listers.ResourceIndexer
	Store                               // cache.Store, cache.Indexer
)

// Call is a recognised client call. Argument indices count the call's
// arguments without the receiver; -1 means "none".
type Call struct {
	Op          Op
	Client      ClientKind
	Method      string // method name as called: Update, UpdateStatus, Get, ...
	List        bool   // a List (the object is a list)
	Obj         int    // argument holding the object written, or filled by a controller-runtime read
	Result      int    // result holding the object returned
	Opts        int    // argument holding GetOptions/ListOptions (typed, dynamic) or the first variadic option (controller-runtime)
	Name        int    // typed and dynamic Patch: the name argument
	PatchType   int    // typed and dynamic Patch: the types.PatchType argument
	Data        int    // typed and dynamic Patch: the []byte argument
	Patch       int    // controller-runtime Patch: the client.Patch argument
	Err         int    // result holding the error (-1: none)
	Subresource string // "status", "scale", ... ; "" for the main resource
}

// Args returns the arguments of a call without its receiver.
func Args(c *ssa.CallCommon) []ssa.Value {
	if c.IsInvoke() {
		return c.Args
	}
	if fn := c.StaticCallee(); fn != nil && fn.Signature.Recv() != nil {
		return c.Args[1:]
	}
	return c.Args
}

// Recv returns the receiver of a method call, or nil.
func Recv(c *ssa.CallCommon) ssa.Value {
	if c.IsInvoke() {
		return c.Value
	}
	if fn := c.StaticCallee(); fn != nil && fn.Signature.Recv() != nil && len(c.Args) > 0 {
		return c.Args[0]
	}
	return nil
}

// Arg returns argument i (not counting the receiver), or nil.
func Arg(c *ssa.CallCommon, i int) ssa.Value {
	args := Args(c)
	if i < 0 || i >= len(args) {
		return nil
	}
	return args[i]
}

// methodOf returns the name, the signature (receiver in Recv) and the
// receiver type of the method a call invokes; ok is false for calls of
// functions and of function values.
func methodOf(c *ssa.CallCommon) (name string, sig *types.Signature, recv types.Type, ok bool) {
	if c.IsInvoke() {
		return c.Method.Name(), c.Method.Type().(*types.Signature), c.Value.Type(), true
	}
	fn := c.StaticCallee()
	if fn == nil || fn.Signature.Recv() == nil {
		return "", nil, nil, false
	}
	return fn.Name(), fn.Signature, fn.Signature.Recv().Type(), true
}

// Classify recognises a call of a Kubernetes client method.
func Classify(c *ssa.CallCommon) (Call, bool) {
	name, sig, recv, ok := methodOf(c)
	if !ok {
		return Call{}, false
	}
	if call, ok := classifyControllerRuntime(c, name, sig, recv); ok {
		return call, true
	}
	if call, ok := classifyREST(name, sig); ok {
		return call, true
	}
	if call, ok := classifyLegacyTyped(name, sig, recv); ok {
		return call, true
	}
	return classifyCache(name, sig, recv)
}

func none() Call {
	return Call{Obj: -1, Result: -1, Opts: -1, Name: -1, PatchType: -1, Data: -1, Patch: -1, Err: -1}
}

// classifyREST recognises the typed, dynamic and metadata clients by the
// metav1 option type the method takes. Their methods take a context first
// since client-go v0.18; before it, they took none (Get(name, opts),
// dynamic Update(obj, opts, subresources...)), and the arguments after the
// context are where they are in these.
func classifyREST(name string, sig *types.Signature) (Call, bool) {
	params := sig.Params()
	optIdx, opt := -1, ""
	for i := 0; i < params.Len(); i++ {
		if n, ok := namedIn(params.At(i).Type(), MetaV1); ok && strings.HasSuffix(n, "Options") {
			optIdx, opt = i, n
			break
		}
	}
	if optIdx < 0 {
		return Call{}, false
	}
	base := 0 // the first argument after the context
	if isContext(params.At(0).Type()) {
		base = 1
	}
	res := sig.Results()
	call := none()
	call.Client = Typed
	call.Method = name
	call.Opts = optIdx
	if res.Len() > 0 && isError(res.At(res.Len()-1).Type()) {
		call.Err = res.Len() - 1
	}
	if res.Len() == 2 {
		call.Result = 0
		if isUnstructured(res.At(0).Type()) {
			call.Client = Dynamic
		}
	}
	switch opt {
	case "GetOptions":
		if call.Result < 0 {
			return Call{}, false
		}
		call.Op = OpRead
		if strings.HasPrefix(name, "Get") && name != "Get" {
			call.Subresource = strings.ToLower(strings.TrimPrefix(name, "Get"))
		}
	case "ListOptions":
		if name != "List" || call.Result < 0 {
			return Call{}, false
		}
		call.Op, call.List = OpRead, true
	case "UpdateOptions":
		call.Op = OpUpdate
		call.Obj = objectParam(params, base, optIdx)
		switch {
		case name == "UpdateStatus":
			call.Subresource = "status"
		case strings.HasPrefix(name, "Update") && name != "Update":
			call.Subresource = strings.ToLower(strings.TrimPrefix(name, "Update"))
		}
	case "PatchOptions":
		if !strings.HasPrefix(name, "Patch") || optIdx < base+3 {
			return Call{}, false
		}
		call.Op = OpPatch
		call.Name, call.PatchType, call.Data = base, base+1, base+2
	case "ApplyOptions":
		call.Op = OpApply
		call.Obj = objectParam(params, base, optIdx)
		if name == "ApplyStatus" {
			call.Subresource = "status"
		}
	case "CreateOptions":
		call.Op = OpCreate
		call.Obj = objectParam(params, base, optIdx)
	case "DeleteOptions":
		call.Op = OpDelete
	default:
		return Call{}, false
	}
	if call.Client == Dynamic && call.Obj >= 0 && !isUnstructured(params.At(call.Obj).Type()) {
		call.Client = Typed
	}
	if call.Obj >= 0 && isUnstructured(params.At(call.Obj).Type()) {
		call.Client = Dynamic
	}
	return call, true
}

// objectParam returns the index of the object parameter of a write: the
// first pointer parameter from base (after the context) before the options.
func objectParam(params *types.Tuple, base, optIdx int) int {
	for i := base; i < optIdx; i++ {
		if _, ok := params.At(i).Type().Underlying().(*types.Pointer); ok {
			return i
		}
	}
	return -1
}

// classifyLegacyTyped recognises the writes of client-gen typed clientsets
// before client-go v0.18, which take neither a context nor options:
// Update(obj), UpdateStatus(obj), UpdateScale(name, scale), Create(obj),
// Patch(name, pt, data, subresources...). Their reads take GetOptions and
// ListOptions, and classifyREST knows them; a write is told from a user's
// method of the same shape by its receiver, whose Get takes a name and
// metav1.GetOptions, as a typed client's does.
func classifyLegacyTyped(name string, sig *types.Signature, recv types.Type) (Call, bool) {
	params, res := sig.Params(), sig.Results()
	if params.Len() == 0 || res.Len() != 2 || !isError(res.At(1).Type()) || isContext(params.At(0).Type()) {
		return Call{}, false
	}
	call := none()
	call.Client = Typed
	call.Method = name
	call.Result, call.Err = 0, 1
	switch {
	case strings.HasPrefix(name, "Patch"):
		if params.Len() < 3 || !isString(params.At(0).Type()) || !isNamed(params.At(1).Type(), APITypes, "PatchType") {
			return Call{}, false
		}
		if s, ok := params.At(2).Type().(*types.Slice); !ok || !types.Identical(s.Elem(), types.Typ[types.Byte]) {
			return Call{}, false
		}
		call.Op = OpPatch
		call.Name, call.PatchType, call.Data = 0, 1, 2
	case strings.HasPrefix(name, "Update"), name == "Create":
		// (obj) or (name, obj): the object is the last parameter.
		last := params.Len() - 1
		if params.Len() > 2 || (last == 1 && !isString(params.At(0).Type())) || sig.Variadic() {
			return Call{}, false
		}
		if _, ok := params.At(last).Type().Underlying().(*types.Pointer); !ok || !IsObject(params.At(last).Type()) {
			return Call{}, false
		}
		call.Obj = last
		call.Op = OpUpdate
		switch {
		case name == "Create":
			call.Op = OpCreate
		case name == "UpdateStatus":
			call.Subresource = "status"
		case name != "Update":
			call.Subresource = strings.ToLower(strings.TrimPrefix(name, "Update"))
		}
	default:
		return Call{}, false
	}
	if !hasLegacyGet(recv) {
		return Call{}, false
	}
	return call, true
}

// hasLegacyGet reports whether a type has the Get of a typed client before
// client-go v0.18: Get(name string, options metav1.GetOptions) (*T, error).
func hasLegacyGet(t types.Type) bool {
	sel := types.NewMethodSet(t).Lookup(nil, "Get")
	if sel == nil {
		if _, ok := t.Underlying().(*types.Pointer); !ok {
			sel = types.NewMethodSet(types.NewPointer(t)).Lookup(nil, "Get")
		}
	}
	if sel == nil {
		return false
	}
	sig, ok := sel.Type().(*types.Signature)
	if !ok {
		return false
	}
	p := sig.Params()
	return p.Len() == 2 && isString(p.At(0).Type()) && isNamed(p.At(1).Type(), MetaV1, "GetOptions") &&
		sig.Results().Len() == 2
}

// classifyControllerRuntime recognises client.Reader, client.Writer,
// client.SubResourceWriter and client.SubResourceReader methods, on any
// implementation, by their variadic option type; and the Get of
// client.Reader before controller-runtime v0.13, which took no options:
// Get(ctx, key, obj).
func classifyControllerRuntime(c *ssa.CallCommon, name string, sig *types.Signature, recv types.Type) (Call, bool) {
	if !sig.Variadic() {
		return classifyLegacyCRGet(name, sig)
	}
	params := sig.Params()
	last := params.At(params.Len() - 1).Type().(*types.Slice).Elem()
	opt, ok := namedIn(last, CRClient)
	if !ok || params.Len() < 2 || !isContext(params.At(0).Type()) {
		return Call{}, false
	}
	call := none()
	call.Client = ControllerRuntime
	call.Method = name
	call.Opts = params.Len() - 1
	if sig.Results().Len() == 1 && isError(sig.Results().At(0).Type()) {
		call.Err = 0
	}
	// Before controller-runtime v0.14, Status() returned a StatusWriter
	// whose methods took the options of the main resource.
	sub := strings.HasPrefix(opt, "SubResource") || isNamed(recv, CRClient, "StatusWriter")
	switch strings.TrimPrefix(opt, "SubResource") {
	case "GetOption":
		if name != "Get" {
			return Call{}, false
		}
		call.Op = OpRead
		call.Obj = params.Len() - 2 // Get(ctx, key, obj) and SubResourceReader.Get(ctx, obj, subResource)
	case "ListOption":
		if name != "List" {
			return Call{}, false
		}
		call.Op, call.List, call.Obj = OpRead, true, 1
	case "UpdateOption":
		call.Op, call.Obj = OpUpdate, 1
	case "PatchOption":
		// Patch(ctx, obj, patch, opts...): a method that takes no patch
		// (a helper patch(ctx, obj, opts...)) is not a client's.
		if n, ok := namedIn(params.At(2).Type(), CRClient); !ok || n != "Patch" || params.Len() != 4 {
			return Call{}, false
		}
		call.Op, call.Obj, call.Patch = OpPatch, 1, 2
	case "ApplyOption":
		call.Op, call.Obj = OpApply, 1
	case "CreateOption":
		call.Op, call.Obj = OpCreate, 1
	case "DeleteOption", "DeleteAllOfOption":
		call.Op, call.Obj = OpDelete, 1
	default:
		return Call{}, false
	}
	if sub {
		call.Subresource = subresourceOf(c)
	}
	if call.Op == OpRead && isNamed(recv, CRCache, "Cache") {
		// A read through the manager's cache.Cache (mgr.GetCache(), a
		// field of that type) reads the informers' store, as a lister
		// does. (The manager's client reads the cache too, but it is the
		// client reconcilers Get through, and the work queue's reconcile
		// of the next event is what makes those reads catch up.)
		call.Op = OpCacheRead
	}
	return call, true
}

// classifyLegacyCRGet recognises Get(ctx, key types.NamespacedName, obj)
// error, client.Reader's Get before controller-runtime v0.13 (client.ObjectKey
// is an alias of types.NamespacedName).
func classifyLegacyCRGet(name string, sig *types.Signature) (Call, bool) {
	params, res := sig.Params(), sig.Results()
	if name != "Get" || params.Len() != 3 || res.Len() != 1 || !isError(res.At(0).Type()) ||
		!isContext(params.At(0).Type()) || !isNamed(params.At(1).Type(), APITypes, "NamespacedName") ||
		!IsObject(params.At(2).Type()) {
		return Call{}, false
	}
	if _, ok := params.At(2).Type().Underlying().(*types.Interface); !ok {
		return Call{}, false
	}
	call := none()
	call.Client = ControllerRuntime
	call.Method = name
	call.Op, call.Obj, call.Err = OpRead, 2, 0
	return call, true
}

// subresourceOf names the subresource of a controller-runtime
// SubResourceWriter call: "status" for Status(), the argument of
// SubResource(name) when it is a constant.
func subresourceOf(c *ssa.CallCommon) string {
	recv := Recv(c)
	for {
		switch v := recv.(type) {
		case *ssa.ChangeInterface:
			recv = v.X
			continue
		case *ssa.MakeInterface:
			recv = v.X
			continue
		}
		break
	}
	call, ok := recv.(*ssa.Call)
	if !ok {
		return "subresource"
	}
	name, _, _, ok := methodOf(&call.Call)
	if !ok {
		return "subresource"
	}
	switch name {
	case "Status": // see IsSubResourceAccessor
		return "status"
	case "SubResource":
		if s, ok := ConstString(Arg(&call.Call, 0)); ok {
			return s
		}
	}
	return "subresource"
}

// classifyCache recognises listers and informer stores.
func classifyCache(name string, sig *types.Signature, recv types.Type) (Call, bool) {
	call := none()
	call.Method = name
	params, res := sig.Params(), sig.Results()
	path, tname := typeName(recv)
	switch {
	case path == Listers || strings.Contains(path, "/listers/") || strings.HasSuffix(tname, "Lister"):
		// Generated listers, listers.ResourceIndexer, cache.GenericLister.
		call.Client = Lister
		switch {
		case name == "Get" && params.Len() == 1 && isString(params.At(0).Type()) && res.Len() == 2:
			call.Op, call.Result, call.Err = OpCacheRead, 0, 1
		case name == "List" && params.Len() == 1 && isNamed(params.At(0).Type(), Labels, "Selector") && res.Len() == 2:
			call.Op, call.List, call.Result, call.Err = OpCacheRead, true, 0, 1
		default:
			return Call{}, false
		}
		return call, true
	case path == Cache:
		call.Client = Store
		switch name {
		case "Get", "GetByKey":
			if res.Len() != 3 {
				return Call{}, false
			}
			call.Op, call.Result, call.Err = OpCacheRead, 0, 2
		case "List", "ByIndex", "Index":
			call.Op, call.List, call.Result = OpCacheRead, true, 0
			if res.Len() == 2 {
				call.Err = 1
			}
		default:
			return Call{}, false
		}
		return call, true
	}
	return Call{}, false
}

// ---- type helpers ----

// typeName returns the package path and name of a (pointer to a) named type.
func typeName(t types.Type) (path, name string) {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
		return PkgPath(n.Obj().Pkg()), n.Obj().Name()
	}
	return "", ""
}

// namedIn reports the name of t (or *t) if it is declared in package path.
func namedIn(t types.Type, path string) (string, bool) {
	p, n := typeName(t)
	return n, p == path && n != ""
}

// isNamed reports whether t (or *t) is path.name.
func isNamed(t types.Type, path, name string) bool {
	p, n := typeName(t)
	return p == path && n == name
}

// IsNamed reports whether t (or *t) is the named type path.name.
func IsNamed(t types.Type, path, name string) bool { return isNamed(t, path, name) }

func isContext(t types.Type) bool { return isNamed(t, "context", "Context") }

func isError(t types.Type) bool { return types.Identical(t, types.Universe.Lookup("error").Type()) }

// IsError reports whether t is the error type.
func IsError(t types.Type) bool { return isError(t) }

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

func isUnstructured(t types.Type) bool { return isNamed(t, Unstructured, "Unstructured") }

// ConstString returns the value of a constant string operand.
func ConstString(v ssa.Value) (string, bool) {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || !isString(c.Type()) {
		return "", false
	}
	return constant.StringVal(c.Value), true
}

// IsObject reports whether t can hold a Kubernetes object or list: a
// (pointer to a) struct with ObjectMeta or ListMeta, Unstructured, or an
// interface with GetResourceVersion (runtime.Object, client.Object, ...).
func IsObject(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			f := u.Field(i)
			if !f.Embedded() {
				if f.Name() == "Object" && isUnstructured(t) {
					return true
				}
				continue
			}
			if isNamed(f.Type(), MetaV1, "ObjectMeta") || isNamed(f.Type(), MetaV1, "ListMeta") {
				return true
			}
		}
		return isNamed(t, Unstructured, "Unstructured") || isNamed(t, Unstructured, "UnstructuredList")
	case *types.Interface:
		if isNamed(t, Runtime, "Object") {
			return true
		}
		for i := 0; i < u.NumMethods(); i++ {
			if m := u.Method(i).Name(); m == "GetResourceVersion" || m == "DeepCopyObject" {
				return true
			}
		}
	}
	return false
}

// IsTypedList reports whether t (or *t) is a typed list: a struct with
// metav1.ListMeta and an Items slice of objects (corev1.PodList).
func IsTypedList(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	meta, items := false, false
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		switch {
		case f.Embedded() && isNamed(f.Type(), MetaV1, "ListMeta"):
			meta = true
		case f.Name() == "Items":
			sl, ok := f.Type().Underlying().(*types.Slice)
			items = ok && IsObject(sl.Elem())
		}
	}
	return meta && items
}

// IsObjectMeta reports whether t (or *t) is metav1.ObjectMeta, the
// metadata of an object.
func IsObjectMeta(t types.Type) bool { return isNamed(t, MetaV1, "ObjectMeta") }

// HasStatus reports whether an object type (or a pointer to one) has a
// Status field, and so, presumably, a status subresource that a write of
// the main resource does not change.
func HasStatus(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Name() == "Status" {
			return true
		}
	}
	return false
}

// IsSubResourceAccessor reports whether a method of a controller-runtime
// client, by name, returns the writer of a subresource: Status(),
// SubResource(name).
func IsSubResourceAccessor(name string) bool { return name == "Status" || name == "SubResource" }

// SubResourceBody returns the object a controller-runtime subresource
// write sends, and fills with the response, in place of its object
// argument: the body given with client.WithSubResourceBody(body)
// (c.SubResource("scale").Update(ctx, dep, client.WithSubResourceBody(scale))
// PUTs scale, and dep only names the object); nil when none is given.
func SubResourceBody(c *ssa.CallCommon, call Call) ssa.Value {
	if call.Client != ControllerRuntime || call.Subresource == "" || call.Opts < 0 || !call.Op.IsWrite() {
		return nil
	}
	var body ssa.Value
	for _, el := range ssax.VariadicElements(ssax.Strip(Arg(c, call.Opts))) {
		opt, ok := el.Value.(*ssa.Call)
		if !ok || CalleeName(&opt.Call) != CRClient+".WithSubResourceBody" || len(opt.Call.Args) != 1 {
			continue
		}
		body = ssax.Strip(opt.Call.Args[0]) // the last one given wins
	}
	return body
}

// IsDryRun reports whether a write asks for a dry run: controller-runtime's
// client.DryRunAll option (or options built with DryRun set), or DryRun set
// in the metav1.UpdateOptions or PatchOptions given to a typed or dynamic
// client. The server validates the request and answers what it would have
// stored, resourceVersion included, but persists nothing: it can lose no
// update.
func IsDryRun(c *ssa.CallCommon, call Call) bool {
	if call.Opts < 0 || !call.Op.IsWrite() || call.Opts >= len(Args(c)) {
		return false
	}
	opts := ssax.Strip(Arg(c, call.Opts))
	if call.Client != ControllerRuntime {
		return setsDryRun(opts)
	}
	for _, el := range ssax.VariadicElements(opts) {
		if ld, ok := el.Value.(*ssa.UnOp); ok && ld.Op == token.MUL {
			if g, ok := ld.X.(*ssa.Global); ok && isGlobal(g, CRClient) && g.Name() == "DryRunAll" {
				return true
			}
		}
		if setsDryRun(el.Value) {
			return true // &client.UpdateOptions{DryRun: []string{metav1.DryRunAll}}
		}
	}
	return false
}

// setsDryRun reports whether v is an options struct (or its address) built
// in the function with its DryRun field set to a list.
func setsDryRun(v ssa.Value) bool {
	if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
		v = ld.X
	}
	a, ok := v.(*ssa.Alloc)
	if !ok {
		return false
	}
	for _, r := range ssax.Referrers(a) {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok || fa.X != a {
			continue
		}
		st, ok := fa.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
		if !ok || st.Field(fa.Field).Name() != "DryRun" {
			continue
		}
		for _, rr := range ssax.Referrers(fa) {
			if s, ok := rr.(*ssa.Store); ok && s.Addr == fa {
				if c, isConst := s.Val.(*ssa.Const); !isConst || !c.IsNil() {
					return true
				}
			}
		}
	}
	return false
}

// IsScale reports whether t is a Scale (autoscaling/v1, or the older
// groups' copies): the body of the scale subresource, which holds the
// replica count alone.
func IsScale(t types.Type) bool {
	p, n := typeName(t)
	return n == "Scale" && strings.HasPrefix(p, "k8s.io/api/") && (strings.HasSuffix(p, "/autoscaling/v1") ||
		strings.HasSuffix(p, "/extensions/v1beta1") || strings.HasSuffix(p, "/apps/v1beta1") || strings.HasSuffix(p, "/apps/v1beta2"))
}
