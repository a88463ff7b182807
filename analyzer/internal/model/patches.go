package model

import (
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/ssax"
)

// encoders encode their argument 0 as the JSON (or YAML) of an object; the
// bytes are result 0. Patch data built by one of them is the object as it
// is, metadata.resourceVersion included.
var encoders = map[string]bool{
	"encoding/json.Marshal": true,
	UtilJSON + ".Marshal":   true, // apimachinery's wrapper of encoding/json
	SigsYAML + ".Marshal":   true, // JSON through the struct's json tags, then YAML
	// u.MarshalJSON(): the receiver, argument 0 of the call.
	"(*" + Unstructured + ".Unstructured).MarshalJSON": true,
}

// byteConverters turn one encoding of a document into another (YAML into
// JSON and back): the argument that holds the document.
var byteConverters = map[string]int{
	SigsYAML + ".YAMLToJSON":       0,
	SigsYAML + ".YAMLToJSONStrict": 0,
	SigsYAML + ".JSONToYAML":       0,
	UtilYAML + ".ToJSON":           0,
	// sigs.k8s.io/yaml's predecessor, still imported.
	"github.com/ghodss/yaml.YAMLToJSON": 0,
	"github.com/ghodss/yaml.JSONToYAML": 0,
}

// ConvertedDocument returns the argument of a call that converts a
// document from one encoding to another (yaml.YAMLToJSON(data)), or nil.
func ConvertedDocument(c *ssa.CallCommon) ssa.Value {
	if i, ok := byteConverters[CalleeName(c)]; ok && i < len(c.Args) {
		return c.Args[i]
	}
	return nil
}

// IsEncoder reports whether a call encodes its argument 0 as an object's
// JSON or YAML.
func IsEncoder(c *ssa.CallCommon) bool { return encoders[CalleeName(c)] }

// streamEncoders write the encoding of their argument 0 to the writer
// their argument 1 is: apimachinery's encoders and serializers (a codec,
// unstructured.UnstructuredJSONScheme, serializer/json's Serializer).
var streamEncoders = map[string]bool{
	// Codec and Serializer embed Encoder: a call through them is Encoder's.
	"(" + Runtime + ".Encoder).Encode":                     true,
	"(*" + Runtime + "/serializer/json.Serializer).Encode": true,
}

// BufferEncoding returns the object encoded into the buffer whose bytes a
// call takes ((*bytes.Buffer).Bytes or String, after codec.Encode(obj,
// buf) or json.NewEncoder(buf).Encode(obj)), or nil.
func BufferEncoding(c *ssa.CallCommon) ssa.Value {
	switch CalleeName(c) {
	case "(*bytes.Buffer).Bytes", "(*bytes.Buffer).String":
	default:
		return nil
	}
	buf := c.Args[0]
	var obj ssa.Value
	writer := func(w ssa.Value) bool { return ssax.Strip(w) == buf }
	for _, r := range ssax.Referrers(buf) {
		mi, ok := r.(*ssa.MakeInterface)
		if !ok {
			continue
		}
		for _, u := range ssax.Referrers(mi) {
			call, ok := u.(ssa.CallInstruction)
			if !ok {
				continue
			}
			uc := call.Common()
			args := Args(uc)
			switch {
			case streamEncoders[CalleeName(uc)] && len(args) == 2 && writer(args[1]):
				obj = ssax.Strip(args[0])
			case CalleeName(uc) == "encoding/json.NewEncoder" && writer(args[0]):
				// json.NewEncoder(buf).Encode(obj)
				enc, ok := call.(*ssa.Call)
				if !ok {
					continue
				}
				for _, e := range ssax.Referrers(enc) {
					ec, ok := e.(ssa.CallInstruction)
					if ok && CalleeName(ec.Common()) == "(*encoding/json.Encoder).Encode" && Recv(ec.Common()) == enc {
						obj = ssax.Strip(ec.Common().Args[1])
					}
				}
			}
		}
	}
	if obj == nil || !IsObject(obj.Type()) {
		return nil
	}
	return obj
}

// PatchDiff is a function that builds patch data as the difference of the
// encodings of two objects.
type PatchDiff struct {
	Fn       string // its name in messages
	Base     int    // argument: the encoding of the object before the change
	Modified int    // argument: the encoding of the object after it
}

var patchDiffs = map[string]PatchDiff{
	JSONPatchV5 + ".CreateMergePatch":          {"CreateMergePatch", 0, 1},
	JSONPatchV4 + ".CreateMergePatch":          {"CreateMergePatch", 0, 1},
	JSONPatch + ".CreateMergePatch":            {"CreateMergePatch", 0, 1},
	StrategicPatch + ".CreateTwoWayMergePatch": {"CreateTwoWayMergePatch", 0, 1}, // argument 2 is the struct type for the merge keys
	// Three-way patches (original, modified, current): the changes from
	// current to modified, lists whole, and the deletions from original.
	// A list changed since current is sent whole.
	JSONMergePatch + ".CreateThreeWayJSONMergePatch": {"CreateThreeWayJSONMergePatch", 2, 1},
	StrategicPatch + ".CreateThreeWayMergePatch":     {"CreateThreeWayMergePatch", 2, 1}, // argument 3 is the lookup of the merge keys
}

// PatchBuilder recognises a call that builds patch data as a diff of
// encoded objects: jsonpatch.CreateMergePatch(a, b),
// strategicpatch.CreateTwoWayMergePatch(a, b, T),
// jsonmergepatch.CreateThreeWayJSONMergePatch(original, modified, current).
func PatchBuilder(c *ssa.CallCommon) (PatchDiff, bool) {
	d, ok := patchDiffs[CalleeName(c)]
	return d, ok
}

// patchAppliers apply a patch to the encoding of an object, given as
// argument Doc (not counting a method's receiver); the result is the
// patched encoding, with the metadata the patch leaves alone.
var patchAppliers = map[string]int{
	JSONPatchV5 + ".MergePatch":             0,
	JSONPatchV4 + ".MergePatch":             0,
	JSONPatch + ".MergePatch":               0,
	StrategicPatch + ".StrategicMergePatch": 0,
	"(" + JSONPatchV5 + ".Patch).Apply":     0,
	"(" + JSONPatchV4 + ".Patch).Apply":     0,
}

// PatchApplier recognises a call that applies a patch to the encoding of
// an object and returns the argument holding that encoding.
func PatchApplier(c *ssa.CallCommon) (doc ssa.Value, ok bool) {
	i, ok := patchAppliers[CalleeName(c)]
	if !ok {
		return nil, false
	}
	return Arg(c, i), true
}

// CRPatchKind is the kind of patch a controller-runtime patch constructor
// makes.
type CRPatchKind uint8

const (
	CRMerge     CRPatchKind = iota + 1 // a JSON merge patch of the diff from Base
	CRStrategic                        // a strategic merge patch of the diff from Base
	CRRaw                              // RawPatch(Type, Data): given bytes
)

// CRPatch is a controller-runtime function returning a client.Patch.
type CRPatch struct {
	Kind CRPatchKind
	Fn   string // its name in messages
	Base int    // CRMerge, CRStrategic: the object the diff starts from
	Opts int    // the variadic MergeFromOption argument, or -1
	Type int    // CRRaw: the types.PatchType argument
	Data int    // CRRaw: the bytes
}

var crPatches = map[string]CRPatch{
	CRClient + ".MergeFrom":            {Kind: CRMerge, Fn: "MergeFrom", Base: 0, Opts: -1, Type: -1, Data: -1},
	CRClient + ".MergeFromWithOptions": {Kind: CRMerge, Fn: "MergeFromWithOptions", Base: 0, Opts: 1, Type: -1, Data: -1},
	CRClient + ".StrategicMergeFrom":   {Kind: CRStrategic, Fn: "StrategicMergeFrom", Base: 0, Opts: 1, Type: -1, Data: -1},
	CRClient + ".RawPatch":             {Kind: CRRaw, Fn: "RawPatch", Base: -1, Opts: -1, Type: 0, Data: 1},
}

// CRPatchOf recognises a call of a controller-runtime patch constructor.
func CRPatchOf(c *ssa.CallCommon) (CRPatch, bool) {
	p, ok := crPatches[CalleeName(c)]
	return p, ok
}

// CRPatchVar is a package-level client.Patch of controller-runtime.
type CRPatchVar uint8

const (
	CRApplyVar CRPatchVar = iota + 1 // client.Apply: a Server-Side Apply patch of the object
	CRMergeVar                       // client.Merge: a merge patch of the whole object
)

// CRPatchVarOf recognises client.Apply and client.Merge.
func CRPatchVarOf(g *ssa.Global) (CRPatchVar, bool) {
	if !isGlobal(g, CRClient) {
		return 0, false
	}
	switch g.Name() {
	case "Apply":
		return CRApplyVar, true
	case "Merge":
		return CRMergeVar, true
	}
	return 0, false
}

// IsForceOwnership reports whether g is client.ForceOwnership, the apply
// option that takes fields over from other managers.
func IsForceOwnership(g *ssa.Global) bool {
	return isGlobal(g, CRClient) && g.Name() == "ForceOwnership"
}

func isGlobal(g *ssa.Global, path string) bool {
	return g != nil && g.Pkg != nil && PkgPath(g.Pkg.Pkg) == path
}

// IsOptimisticLock reports whether t is client.MergeFromWithOptimisticLock,
// the MergeFromOption that puts the base's resourceVersion in the patch.
// PatchData recognises a call of the Data method of a controller-runtime
// patch (client.Patch, or one of the package's patch types):
// client.MergeFrom(base).Data(obj) computes the bytes the patch would send
// for obj. It returns the patch and the object.
func PatchData(c *ssa.CallCommon) (patch, obj ssa.Value, ok bool) {
	if c.IsInvoke() {
		if c.Method.Name() == "Data" && len(c.Args) == 1 && IsNamed(c.Value.Type(), CRClient, "Patch") {
			return c.Value, c.Args[0], true
		}
		return nil, nil, false
	}
	fn := c.StaticCallee()
	if fn == nil || fn.Name() != "Data" || fn.Signature.Recv() == nil || len(c.Args) != 2 || fn.Pkg == nil || fn.Pkg.Pkg.Path() != CRClient {
		return nil, nil, false
	}
	return c.Args[0], c.Args[1], true
}

func IsOptimisticLock(t types.Type) bool { return isNamed(t, CRClient, "MergeFromWithOptimisticLock") }

// TextFunc is a function that builds the text of patch data.
type TextFunc struct {
	Format int  // the argument holding the format; -1: not a formatter
	Args   int  // the variadic argument of the values formatted
	Opaque bool // builds text the patch evaluator does not follow
}

var textFuncs = map[string]TextFunc{
	"fmt.Sprintf":        {Format: 0, Args: 1},
	"fmt.Appendf":        {Format: 1, Args: 2},
	"strings.Join":       {Format: -1, Args: -1, Opaque: true},
	"strings.Replace":    {Format: -1, Args: -1, Opaque: true},
	"strings.ReplaceAll": {Format: -1, Args: -1, Opaque: true},
}

// TextBuilder recognises a call that builds text (patch data written by
// hand): a formatter (fmt.Sprintf) or a function whose result the patch
// evaluator cannot follow (strings.Join).
func TextBuilder(c *ssa.CallCommon) (TextFunc, bool) {
	f, ok := textFuncs[CalleeName(c)]
	return f, ok
}

// fixedLists are the lists of an object whose entries the API server keeps
// in place once it is created: an update that adds, removes or reorders an
// entry is rejected (a Pod's containers: only their images may change), so
// an index read from the object stays the index of the same entry.
var fixedLists = map[[2]string][]string{
	{CoreV1, "Pod"}: {"/spec/containers", "/spec/initContainers"},
}

// FixedIndex reports whether every index of a JSON pointer ("{}" for a
// computed one) addresses an entry of a list that an object of type t keeps
// in place: /spec/containers/{}/image of a Pod.
func FixedIndex(t types.Type, ptr string) bool {
	p, n := typeName(t)
	lists := fixedLists[[2]string{p, n}]
	if len(lists) == 0 {
		return false
	}
	segs := strings.Split(ptr, "/")
	indexed := false
	for i := 1; i < len(segs); i++ {
		if segs[i] != "{}" {
			if _, err := strconv.Atoi(segs[i]); err != nil {
				continue
			}
		}
		indexed = true
		if !slices.Contains(lists, strings.Join(segs[:i], "/")) {
			return false
		}
	}
	return indexed
}
