package flow

import (
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
)

// maxReplyDepth bounds how many helpers deep a status parameter is
// followed to the reply that sends it.
const maxReplyDepth = 3

// httpErrorReply reports whether a call answers an HTTP request with an
// error status: model.IsHTTPErrorReply, or a call of a function of the
// package that passes a parameter on as the status of a reply, with a
// constant status of 400 or more there (writeJSONError(w,
// http.StatusInternalServerError, resp), whose writeJSON calls
// w.WriteHeader(status)). The HTTP caller is told.
func (p *Package) httpErrorReply(c *ssa.CallCommon) bool {
	if model.IsHTTPErrorReply(c) {
		return true
	}
	fn := callee(c)
	if fn == nil || fn.Pkg != p.Pkg {
		return false
	}
	params, ok := p.statusMemo[fn]
	if !ok {
		params = p.statusParams(fn, 0)
		if p.statusMemo == nil {
			p.statusMemo = map[*ssa.Function][]int{}
		}
		p.statusMemo[fn] = params
	}
	for _, i := range params {
		if i < len(c.Args) && model.IsHTTPErrorStatus(strip(c.Args[i])) {
			return true
		}
	}
	return false
}

// statusParams returns the indices of fn's parameters that fn passes on as
// the status of an HTTP reply: to WriteHeader of a ResponseWriter or
// net/http's Error, or to a function of the package that does.
func (p *Package) statusParams(fn *ssa.Function, depth int) []int {
	if depth >= maxReplyDepth || fn.Blocks == nil {
		return nil
	}
	index := func(v ssa.Value) int {
		if prm, ok := strip(v).(*ssa.Parameter); ok {
			return paramIndex(fn, prm)
		}
		return -1
	}
	var out []int
	add := func(i int) {
		if i >= 0 && !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			c := call.Common()
			if status, ok := model.HTTPReplyStatus(c); ok {
				add(index(status))
				continue
			}
			g := callee(c)
			if g == nil || g == fn || g.Pkg != p.Pkg {
				continue
			}
			for _, j := range p.statusParams(g, depth+1) {
				if j < len(c.Args) {
					add(index(c.Args[j]))
				}
			}
		}
	}
	return out
}
