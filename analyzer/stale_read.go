package analyzer

import (
	"go/ast"
	"go/token"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/flow"
	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/writes"
)

// checkStaleRead reports reads served from a cache that feed a write: reads
// with ResourceVersion "0", and lister or store reads inside a conflict retry.
func checkStaleRead(ck *checker, w *writes.Write) []finding {
	if w.Op != model.OpUpdate && w.Op != model.OpPatch {
		return nil
	}
	origins := slices.Clip(w.Origins())
	if w.Client != nil && w.Client.Op == model.OpPatch && w.Client.Data >= 0 {
		c := w.Call.Common()
		origins = append(origins, ck.flow.Feeding(model.Arg(c, w.Client.Data))...)
		origins = append(origins, ck.flow.Feeding(model.Arg(c, w.Client.Name))...)
	}
	call := ck.writeText(w)
	wpos, _ := ck.callPos(w.Call)
	r := w.Retry()
	var out []finding
	for _, o := range origins {
		read, ok := o.Site.(ssa.CallInstruction)
		if !ok || (o.Via != nil && !(o.Kind == flow.CacheRead && !o.RV0)) {
			// A helper that reads with ResourceVersion "0" is reported
			// in the helper; one that reads a cache, where it is called
			// inside a retry.
			continue
		}
		switch {
		case o.RV0:
			pos, end := ck.callPos(read)
			var fixes []analysis.SuggestedFix
			if fix := ck.dropRV0Fix(read); fix != nil {
				fixes = append(fixes, *fix)
			}
			out = append(out, finding{pos: pos, end: end, fixes: fixes,
				msg: ck.callName(read) + ` with ResourceVersion "0" may be served from the watch cache, arbitrarily stale, and what it reads feeds ` + call +
					`; drop ResourceVersion "0" to read the latest version before writing`,
				related: []analysis.RelatedInformation{related(wpos, "the write: %s", call)}})
		case o.Kind == flow.CacheRead && r != nil && r.Inside(read):
			pos, end := ck.callPos(read)
			what := "lister/informer " + ck.callName(read) + " inside " + r.Name + " reads the cache"
			if o.Via != nil {
				what = ck.callName(read) + " inside " + r.Name + " reads a lister or informer cache"
			}
			out = append(out, finding{pos: pos, end: end,
				msg: what + ", so every attempt sees the same stale object and " + call +
					" keeps failing with 409 Conflict; re-read with a client Get inside the retry",
				related: []analysis.RelatedInformation{related(wpos, "the write: %s", call), related(r.Pos(), "the retry: %s", r.Name)}})
		}
	}
	return out
}

// dropRV0Fix removes the ResourceVersion: "0" element from the composite
// literal of a read's options.
func (ck *checker) dropRV0Fix(read ssa.CallInstruction) *analysis.SuggestedFix {
	mc, ok := model.Classify(read.Common())
	if !ok {
		return nil
	}
	store := ck.flow.RV0Site(read.Common(), mc)
	if store == nil || !store.Pos().IsValid() {
		return nil
	}
	lit, kv := ck.keyValueAt(store.Pos())
	if kv == nil {
		return ck.dropRV0AssignFix(store.Pos())
	}
	file := ck.pass.Fset.File(kv.Pos())
	src, err := ck.pass.ReadFile(file.Name())
	if err != nil {
		return nil
	}
	i := -1
	for j, el := range lit.Elts {
		if el == ast.Expr(kv) {
			i = j
		}
	}
	var from, to token.Pos
	switch {
	case i < 0:
		return nil
	case i+1 < len(lit.Elts):
		from, to = kv.Pos(), lit.Elts[i+1].Pos() // up to the next element
	case i > 0:
		from, to = lit.Elts[i-1].End(), kv.End() // from the end of the previous one
	default:
		from, to = kv.Pos(), kv.End() // the only element, and its trailing comma
		off := file.Offset(to)
		for off < len(src) && (src[off] == ' ' || src[off] == '\t') {
			off++
		}
		if off < len(src) && src[off] == ',' {
			to = file.Pos(off + 1)
		}
	}
	return &analysis.SuggestedFix{
		Message:   `Drop ResourceVersion: "0"`,
		TextEdits: []analysis.TextEdit{{Pos: from, End: to}},
	}
}

// keyValueAt finds the key-value element of a composite literal whose colon
// is at pos.
func (ck *checker) keyValueAt(pos token.Pos) (*ast.CompositeLit, *ast.KeyValueExpr) {
	for _, f := range ck.pass.Files {
		if f.FileStart > pos || pos > f.FileEnd {
			continue
		}
		var lit *ast.CompositeLit
		var kv *ast.KeyValueExpr
		ast.Inspect(f, func(n ast.Node) bool {
			if kv != nil {
				return false
			}
			if cl, ok := n.(*ast.CompositeLit); ok {
				for _, el := range cl.Elts {
					if e, ok := el.(*ast.KeyValueExpr); ok && e.Colon == pos {
						lit, kv = cl, e
						return false
					}
				}
			}
			return true
		})
		return lit, kv
	}
	return nil, nil
}

// dropRV0AssignFix removes the statement opts.ResourceVersion = "0" that
// holds the store at pos, if it is on a line of its own.
func (ck *checker) dropRV0AssignFix(pos token.Pos) *analysis.SuggestedFix {
	var stmt *ast.AssignStmt
	for _, f := range ck.pass.Files {
		if f.FileStart > pos || pos > f.FileEnd {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if stmt != nil {
				return false
			}
			if a, ok := n.(*ast.AssignStmt); ok && a.Pos() <= pos && pos < a.End() && a.Tok == token.ASSIGN && len(a.Lhs) == 1 && len(a.Rhs) == 1 {
				if sel, ok := a.Lhs[0].(*ast.SelectorExpr); ok && sel.Sel.Name == "ResourceVersion" {
					if lit, ok := a.Rhs[0].(*ast.BasicLit); ok && lit.Value == `"0"` {
						stmt = a
					}
				}
			}
			return true
		})
	}
	if stmt == nil {
		return nil
	}
	file := ck.pass.Fset.File(stmt.Pos())
	src, err := ck.pass.ReadFile(file.Name())
	if err != nil {
		return nil
	}
	// The whole line, indentation and newline included, if the statement
	// is alone on it.
	start, end := file.Offset(stmt.Pos()), file.Offset(stmt.End())
	for start > 0 && (src[start-1] == ' ' || src[start-1] == '\t') {
		start--
	}
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	if (start > 0 && src[start-1] != '\n') || (end < len(src) && src[end] != '\n') {
		return nil
	}
	if end < len(src) {
		end++
	}
	return &analysis.SuggestedFix{
		Message:   `Drop ResourceVersion = "0"`,
		TextEdits: []analysis.TextEdit{{Pos: file.Pos(start), End: file.Pos(end)}},
	}
}
