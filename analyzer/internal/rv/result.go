package rv

import (
	"fmt"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
)

// FuncFact is what a function does with resourceVersion strings, for its
// callers in other packages. Parameter indices count a method's receiver
// as 0.
type FuncFact struct {
	Returns []int      // results that are resourceVersions
	Sinks   []SinkFact // parameters it parses or orders
}

// SinkFact says a function parses or orders a parameter.
type SinkFact struct {
	Param int
	Call  bool // the results of calling the function parameter, not the parameter itself
	Kind  Kind // Parse or Order
}

func (*FuncFact) AFact() {}

func (f *FuncFact) String() string {
	var parts []string
	for _, r := range f.Returns {
		parts = append(parts, fmt.Sprintf("returns resourceVersion #%d", r))
	}
	for _, sf := range f.Sinks {
		if sf.Call {
			parts = append(parts, fmt.Sprintf("%s results of #%d", sf.Kind, sf.Param))
		} else {
			parts = append(parts, fmt.Sprintf("%s #%d", sf.Kind, sf.Param))
		}
	}
	return strings.Join(parts, "; ")
}

func (f *FuncFact) returns(idx int) bool {
	for _, r := range f.Returns {
		if r == idx {
			return true
		}
	}
	return false
}

// FieldFact says an exported field holds resourceVersions its package
// stores there: as its value, or as the elements or keys of a map or slice.
type FieldFact struct {
	Value bool
	Elems bool
	Keys  bool
}

func (*FieldFact) AFact() {}

func (f *FieldFact) String() string {
	var parts []string
	if f.Value {
		parts = append(parts, "holds resourceVersion")
	}
	if f.Elems {
		parts = append(parts, "holds resourceVersion elements")
	}
	if f.Keys {
		parts = append(parts, "holds resourceVersion keys")
	}
	return strings.Join(parts, "; ")
}

// ---- assembling the result ----

func findSink(sk *sink) *sink {
	for sk.parent != nil {
		sk = sk.parent
	}
	return sk
}

// PosOf returns the position of an instruction: a call's Lparen, a binary
// operator, a conversion.
func PosOf(instr ssa.Instruction) token.Pos {
	if c, ok := instr.(ssa.CallInstruction); ok && c.Common().Pos().IsValid() {
		return c.Common().Pos()
	}
	return instr.Pos()
}

func (s *state) hasRV(ts tagset) bool {
	for _, id := range ts {
		if s.tag(id).kind == tagRV {
			return true
		}
	}
	return false
}

// sources returns the sources of the resourceVersion tags, by position.
func (s *state) sources(ts tagset) []*Source {
	var out []*Source
	for _, id := range ts {
		if t := s.tag(id); t.kind == tagRV {
			out = append(out, t.src)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pos < out[j].Pos })
	return out
}

// labels returns the resource types of the versions of ts, if all are known.
func (s *state) labels(ts tagset) ([]*types.TypeName, bool) {
	var out []*types.TypeName
	for _, id := range ts {
		t := s.tag(id)
		if t.kind != tagRV {
			continue
		}
		if t.src.Label == nil {
			return nil, false
		}
		if !containsType(out, t.src.Label) {
			out = append(out, t.src.Label)
		}
	}
	return out, len(out) > 0
}

func containsType(list []*types.TypeName, t *types.TypeName) bool {
	for _, x := range list {
		if x == t {
			return true
		}
	}
	return false
}

func (s *state) result() *Result {
	r := &Result{Funcs: map[*types.Func]*FuncFact{}, Fields: map[*types.Var]*FieldFact{}, Mints: s.mints}

	// Parses of versions whose numbers meet in a comparison are one finding.
	for _, m := range s.meets {
		if len(m.a.rvs) == 0 || len(m.b.rvs) == 0 {
			continue
		}
		a, b := findSink(m.a), findSink(m.b)
		if a != b {
			if PosOf(b.instr) < PosOf(a.instr) {
				a, b = b, a
			}
			b.parent = a
		}
	}
	groups := map[*sink][]*sink{}
	var roots []*sink
	for _, sk := range s.sinkList {
		if len(sk.rvs) == 0 {
			continue
		}
		root := findSink(sk)
		if _, ok := groups[root]; !ok {
			roots = append(roots, root)
		}
		groups[root] = append(groups[root], sk)
	}
	for _, root := range roots {
		f := &Finding{Kind: root.kind, Instr: root.instr, What: root.what, Helper: root.helper}
		var rvs tagset
		for _, sk := range groups[root] {
			rvs, _ = rvs.union(sk.rvs)
			for _, v := range sk.via {
				if !containsCall(f.Via, v) {
					f.Via = append(f.Via, v)
				}
			}
			f.Uses = append(f.Uses, sk.uses...)
			if sk != root {
				f.Merged = append(f.Merged, sk.instr)
			}
		}
		f.Sources = s.sources(rvs)
		sort.Slice(f.Merged, func(i, j int) bool { return PosOf(f.Merged[i]) < PosOf(f.Merged[j]) })
		sort.SliceStable(f.Uses, func(i, j int) bool { return PosOf(f.Uses[i].Instr) < PosOf(f.Uses[j].Instr) })
		f.Uses = dedupUses(f.Uses)
		r.Findings = append(r.Findings, f)
	}

	// Versions of two different resource types compared.
	for _, instr := range s.equal {
		var a, b ssa.Value
		what := ""
		switch x := instr.(type) {
		case *ssa.BinOp:
			a, b, what = x.X, x.Y, x.Op.String()
		case ssa.CallInstruction:
			args := model.Args(x.Common())
			a, b, what = args[0], args[1], model.ShortName(model.CompareResourceVersion)
		}
		la, oka := s.labels(s.of(a))
		lb, okb := s.labels(s.of(b))
		if !oka || !okb || overlap(la, lb) {
			continue
		}
		ts, _ := s.of(a).union(s.of(b))
		r.Findings = append(r.Findings, &Finding{Kind: CrossType, Instr: instr, What: what, Sources: s.sources(ts), Labels: []*types.TypeName{la[0], lb[0]}})
	}
	for _, instr := range s.dropped {
		args := model.Args(instr.Common())
		ts, _ := s.of(args[0]).union(s.of(args[1]))
		r.Findings = append(r.Findings, &Finding{Kind: DroppedError, Instr: instr, What: model.ShortName(model.CompareResourceVersion), Sources: s.sources(ts)})
	}
	sort.SliceStable(r.Findings, func(i, j int) bool { return PosOf(r.Findings[i].Instr) < PosOf(r.Findings[j].Instr) })

	s.funcFacts(r)
	s.fieldFacts(r)
	return r
}

func dedupUses(us []Use) []Use {
	out := us[:0]
	for i, u := range us {
		if i > 0 && u.Instr == us[i-1].Instr {
			continue
		}
		out = append(out, u)
	}
	return out
}

func overlap(a, b []*types.TypeName) bool {
	for _, x := range a {
		if containsType(b, x) {
			return true
		}
	}
	return false
}

// funcFacts builds the facts of the package's exported functions.
func (s *state) funcFacts(r *Result) {
	for _, fn := range s.funcs {
		if fn.Parent() != nil {
			continue
		}
		obj, ok := fn.Object().(*types.Func)
		if !ok || !obj.Exported() {
			continue
		}
		sm := s.sums[fn]
		if sm == nil {
			continue
		}
		f := &FuncFact{}
		for i, ts := range sm.returns {
			if s.hasRV(ts) && isString(fn.Signature.Results().At(i).Type()) {
				f.Returns = append(f.Returns, i)
			}
		}
		for _, sl := range sm.slots() {
			if !sl.call && sl.idx < len(fn.Params) && rvName(fn.Params[sl.idx].Name()) {
				continue // a parameter named like a version: reported here already
			}
			kind := Order
			for _, sk := range sm.sinks[sl] {
				if sk.kind == Parse {
					kind = Parse
				}
			}
			f.Sinks = append(f.Sinks, SinkFact{Param: sl.idx, Call: sl.call, Kind: kind})
		}
		if len(f.Returns)+len(f.Sinks) > 0 {
			r.Funcs[obj] = f
		}
	}
}

// fieldFacts builds the facts of the package's exported fields that hold
// resourceVersions it stores.
func (s *state) fieldFacts(r *Result) {
	for k, n := range s.nodes {
		v, ok := k.(*types.Var)
		if !ok || !v.IsField() || v.Pkg() != s.pkg.Pkg || !v.Exported() || rvName(v.Name()) {
			continue
		}
		root := find(n)
		f := &FieldFact{
			Value: isStringOrPtr(v.Type()) && s.hasRV(root.tags),
			Elems: root.elem != nil && s.hasRV(find(root.elem).tags),
			Keys:  root.key != nil && s.hasRV(find(root.key).tags),
		}
		if f.Value || f.Elems || f.Keys {
			r.Fields[v] = f
		}
	}
}
