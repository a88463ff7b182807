package flow

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
)

// WriteSite is a call that writes an existing object: a client Update,
// Patch or Apply, or a call of a helper that does.
type WriteSite struct {
	Call   ssa.CallInstruction
	Op     model.Op
	Client *model.Call // the client call, or nil for a helper
	Obj    ssa.Value   // the object written, or nil (a typed Patch names the object)
	Err    ssa.Value   // the error value that carries a 409, or nil if it is not kept
	// ReadsFirst is set for calls that read the object themselves before
	// writing it (controllerutil.CreateOrUpdate).
	ReadsFirst bool
	Via        *types.Func // the helper, for writes through one
	ViaWrite   WriteFact   // what the helper does with the object
}

// Writes returns the write sites of a function (its closures are functions
// of their own).
func (p *Package) writesIn(fn *ssa.Function) []*WriteSite {
	if p.opts.SafeWriters[FullName(outermost(fn))] {
		return nil
	}
	var out []*WriteSite
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok {
				out = append(out, p.writeSites(c)...)
			}
		}
	}
	return out
}

// Writes returns every write site of the analysed functions.
func (p *Package) Writes() []*WriteSite {
	var out []*WriteSite
	for _, fn := range p.Funcs {
		out = append(out, p.writesIn(fn)...)
	}
	return out
}

func outermost(fn *ssa.Function) *ssa.Function {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn
}

func (p *Package) writeSites(call ssa.CallInstruction) []*WriteSite {
	c := call.Common()
	if mc, ok := classify(c); ok {
		if !mc.Op.IsWrite() || p.fakeClient(c) {
			return nil
		}
		w := &WriteSite{Call: call, Op: mc.Op, Client: &mc}
		if mc.Obj >= 0 {
			w.Obj = model.Arg(c, mc.Obj)
		}
		w.Err = errValue(call, mc.Err, mc.Result >= 0)
		return []*WriteSite{w}
	}
	if f, ok := model.FuncOf(c); ok {
		if f.Kind == model.FuncReadWrite {
			return []*WriteSite{{Call: call, Op: f.Op, Obj: model.Arg(c, f.Obj), Err: errValue(call, 1, true), ReadsFirst: true}}
		}
		return nil
	}
	fn := callee(c)
	if fn == nil {
		return nil
	}
	if p.opts.SafeWriters[FullName(fn)] {
		return nil
	}
	var writes []WriteFact
	obj := funcObject(fn)
	if p.local(fn) {
		writes = p.summary(fn).Writes
	} else if obj != nil && p.facts != nil {
		if ff := p.facts.FuncFact(obj); ff != nil {
			writes = ff.Writes
		}
	}
	var out []*WriteSite
	for _, wf := range writes {
		if wf.Param >= len(c.Args) {
			continue
		}
		w := &WriteSite{Call: call, Op: wf.Op, Obj: c.Args[wf.Param], Via: obj, ViaWrite: wf}
		if idx := errorResult(fn.Signature); idx >= 0 && wf.ErrReturned {
			w.Err = errValue(call, idx, fn.Signature.Results().Len() > 1)
		}
		out = append(out, w)
	}
	return out
}

// errValue returns the error result of a call: the call itself when it
// returns only an error, else the Extract of result idx. nil when the call is
// a go or defer statement or the result is never extracted.
func errValue(call ssa.CallInstruction, idx int, tuple bool) ssa.Value {
	if idx < 0 {
		return nil
	}
	v, ok := call.(*ssa.Call)
	if !ok {
		return nil
	}
	if !tuple {
		return v
	}
	for _, r := range *v.Referrers() {
		if e, ok := r.(*ssa.Extract); ok && e.Index == idx {
			return e
		}
	}
	return nil
}

// fakeClient reports whether a client call goes to a fake client built in
// the same function chain (k8s.io/client-go/kubernetes/fake,
// controller-runtime's fake.NewClientBuilder, generated .../fake packages):
// tests that drive a fake in one goroutine have no concurrent writer to lose.
func (p *Package) fakeClient(c *ssa.CallCommon) bool {
	v := model.Recv(c)
	for depth := 0; v != nil && depth < 16; depth++ {
		switch x := strip(v).(type) {
		case *ssa.Call:
			cc := x.Common()
			if r := model.Recv(cc); r != nil {
				v = r // CoreV1(), Pods(ns), Resource(gvr), Status(), Build(), WithObjects(...)
				continue
			}
			if fn := cc.StaticCallee(); fn != nil && fn.Pkg != nil {
				return strings.HasSuffix(fn.Pkg.Pkg.Path(), "/fake")
			} else if obj := calleeObject(cc); obj != nil && obj.Pkg() != nil {
				return strings.HasSuffix(obj.Pkg().Path(), "/fake")
			}
			return false
		case *ssa.UnOp:
			if x.Op != token.MUL || !isVariable(x.X) {
				return false
			}
			vals := p.storedValues(root(x.X, p))
			if len(vals) != 1 {
				return false
			}
			v = vals[0]
		case *ssa.FreeVar:
			b, ok := p.bindings[x]
			if !ok {
				return false
			}
			v = b
		default:
			return false
		}
	}
	return false
}
