package analyzer

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/flow"
	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/patch"
)

// patchOf evaluates the patch a write site sends, or returns nil for writes
// that are not patches.
func (ck *checker) patchOf(w *flow.WriteSite) *patch.Info {
	if w.Client == nil {
		return nil
	}
	if info, ok := ck.patches[w]; ok {
		return info
	}
	c := w.Call.Common()
	var info *patch.Info
	switch {
	case w.Op == model.OpApply:
		info = &patch.Info{Type: patch.TypeApply, Kind: patch.KindApply, Known: true}
	case w.Op != model.OpPatch:
	case w.Client.Patch >= 0:
		info = patch.ControllerRuntime(model.Arg(c, w.Client.Patch), ck.flow.VariableValues)
	case w.Client.Data >= 0:
		typ := patch.TypeOf(model.Arg(c, w.Client.PatchType))
		data := model.Arg(c, w.Client.Data)
		if pf, call := ck.flow.ReturnedPatch(data); pf != nil && typ != patch.TypeApply {
			info = helperPatch(typ, pf, call)
			break
		}
		info = patch.Raw(typ, data, ck.flow.VariableValues)
		if info.Type == patch.TypeUnknown {
			info.Type = typ
		}
	}
	if ck.patches == nil {
		ck.patches = map[*flow.WriteSite]*patch.Info{}
	}
	ck.patches[w] = info
	return info
}

// isApply reports whether a write is a Server-Side Apply.
func (ck *checker) isApply(w *flow.WriteSite) bool {
	info := ck.patchOf(w)
	return info != nil && info.Type == patch.TypeApply
}

// patchTarget returns a predicate for the objects a typed or dynamic patch
// writes: values of the type the call returns that were not built from
// scratch (the object the code read and now patches).
func (ck *checker) patchTarget(w *flow.WriteSite) func(ssa.Value) bool {
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

func derefType(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// helperPatch describes a patch body built by a helper, from its summary.
func helperPatch(typ patch.Type, pf *flow.PatchFact, call ssa.CallInstruction) *patch.Info {
	info := &patch.Info{Type: typ, Kind: patch.KindBody, Known: true, HasTest: pf.HasTest, HasRV: pf.HasRV}
	if fn := call.Common().StaticCallee(); fn != nil {
		info.Fn = fn.Name()
	}
	if pf.Indexed {
		info.Ops = append(info.Ops, patch.Op{Op: "an", Path: "a list element", Indexed: true})
	}
	for _, i := range pf.FromParams {
		if i < len(call.Common().Args) {
			info.FromObjects = append(info.FromObjects, call.Common().Args[i])
		}
	}
	return info
}
