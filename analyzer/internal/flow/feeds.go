package flow

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
)

// FeedFact says the body of a patch a function sends is computed from an
// object parameter: a helper that diffs its parameters into a patch
// (PatchNodeTaints(c, name, oldNode, newNode)). A read that reaches the
// parameter reaches the patch.
type FeedFact struct {
	Param int
	Op    model.Op
	At    WritePos // the client call that sends the patch
}

// feedsOf returns the object parameters of fn whose data the body of a
// patch it sends (itself, in its closures, or through a helper with such a
// summary or fact) is computed from.
func (p *Package) feedsOf(fn *ssa.Function) []FeedFact {
	var out []FeedFact
	add := func(prm *ssa.Parameter, op model.Op, at WritePos) {
		idx := paramIndex(fn, prm)
		if idx < 0 {
			return
		}
		for _, f := range out {
			if f.Param == idx {
				return
			}
		}
		out = append(out, FeedFact{Param: idx, Op: op, At: at})
	}
	for _, f := range withClosures(fn) {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				c := call.Common()
				if mc, ok := classify(c); ok {
					if mc.Op != model.OpPatch || mc.Data < 0 || p.fakeClient(c) {
						continue
					}
					pos := fn.Prog.Fset.Position(Pos(call))
					at := WritePos{File: pos.Filename, Line: pos.Line, Col: pos.Column}
					for _, prm := range p.feedingParams(model.Arg(c, mc.Data), fn) {
						add(prm, mc.Op, at)
					}
					continue
				}
				for _, fc := range p.FedArgs(call) {
					for _, prm := range p.feedingParams(fc.Arg, fn) {
						add(prm, fc.Feed.Op, fc.Feed.At)
					}
				}
			}
		}
	}
	return out
}

// feedingParams returns the object parameters of fn that a value is
// computed from.
func (p *Package) feedingParams(v ssa.Value, fn *ssa.Function) []*ssa.Parameter {
	var out []*ssa.Parameter
	for _, o := range p.feeding(v, func(o Origin) bool { return o.Kind == Unknown && o.Param != nil && o.Param.Parent() == fn }) {
		out = append(out, o.Param)
	}
	return out
}

// FedArg is an argument of a call of a helper whose patch is computed from
// it.
type FedArg struct {
	Call ssa.CallInstruction
	Arg  ssa.Value
	Via  *types.Func
	Feed FeedFact
}

// FedArgs returns the arguments of a call that feed a patch the callee
// sends, from its summary or fact.
func (p *Package) FedArgs(call ssa.CallInstruction) []FedArg {
	c := call.Common()
	fn := callee(c)
	if fn == nil {
		return nil
	}
	obj := funcObject(fn)
	feeds := known(p, fn, func(s *Summary) []FeedFact { return s.Feeds }, func(f *FuncFact) []FeedFact { return f.Feeds })
	var out []FedArg
	for _, f := range feeds {
		if f.Param >= len(c.Args) {
			continue
		}
		out = append(out, FedArg{Call: call, Arg: c.Args[f.Param], Via: obj, Feed: f})
	}
	return out
}

// FedCalls returns the calls of the analysed functions that give a helper
// an object it computes a patch from.
func (p *Package) FedCalls() []FedArg {
	var out []FedArg
	for _, fn := range p.Funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok {
					out = append(out, p.FedArgs(call)...)
				}
			}
		}
	}
	return out
}
