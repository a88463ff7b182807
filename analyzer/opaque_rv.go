package analyzer

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/rv"
)

// rvFix is the fix every opaque-rv message ends with.
const rvFix = "compare versions for equality, or order two versions of the same resource with resourceversion.CompareResourceVersion and handle its error"

// checkOpaqueRV reports code that parses or orders resourceVersions, or
// compares versions of two different resource types: one finding of the
// resourceVersion analysis. Code that issues versions itself may parse them.
func checkOpaqueRV(ck *checker, f *rv.Finding) []finding {
	if ck.rvServes {
		return nil
	}
	tx := ck.rvText()
	pos, end := tx.pos(f.Instr)
	var msg string
	var fixes []analysis.SuggestedFix
	switch f.Kind {
	case rv.Parse:
		msg = tx.parseMessage(f) + ", but resourceVersions are opaque strings: they are not numbers on aggregated API servers, and their format may change; " + rvFix
		fixes = ck.rvParseFix(f)
	case rv.Order:
		msg = tx.orderMessage(f) + `, but resourceVersions are opaque strings: string order is not numeric order ("9" > "10"), and aggregated API servers may serve versions that are not numbers; ` + rvFix
	case rv.CrossType:
		msg = tx.whatCompare(f) + " compares the resourceVersion of a " + f.Labels[0].Name() + " with that of a " + f.Labels[1].Name() +
			" (" + tx.sources(f.Sources) + "), but versions of different resources are unrelated, so the result means nothing; compare versions of the same object only"
	case rv.DroppedError:
		msg = "the error of " + tx.callText(f.Instr, f.What) + " is dropped: it fails, returning 0, for versions that are not well-formed integers, " +
			"as aggregated API servers may serve; handle the error, for example by treating the versions as not comparable"
	}
	return []finding{{pos: pos, end: end, msg: msg, related: tx.related(f, pos, end), fixes: fixes}}
}

// servesVersions reports whether a package issues resourceVersions itself:
// it implements API server storage (k8s.io/apiserver/pkg/storage, etcd), it
// stores numbers it formats as resourceVersions (a fake client's tracker),
// or it sends watch bookmarks (an in-memory API server). Such code may
// parse the versions it issues.
func servesVersions(pass *analysis.Pass, res *rv.Result) bool {
	for _, imp := range pass.Pkg.Imports() {
		p := imp.Path()
		if model.IsAPIServerStorage(p) {
			return true
		}
	}
	return len(res.Mints) > 0
}

// related lists where the versions come from, the local calls they are
// passed through, and for parses the other parses and the uses of the
// numbers. Sources inside the reported code are left out.
func (tx *rvText) related(f *rv.Finding, pos, end token.Pos) []analysis.RelatedInformation {
	var rel []analysis.RelatedInformation
	for _, s := range namedOnlyIfAlone(f.Sources) {
		if !s.Pos.IsValid() || (s.Pos >= pos && s.Pos < end) {
			continue
		}
		switch {
		case s.Kind == rv.FromName && tx.ck.callAt(s.Pos) != nil:
			rel = append(rel, related(s.Pos, "%s returns the resourceVersion here (result %s)", tx.source(s), s.Name))
		case s.Kind == rv.FromName && tx.sels[s.Pos] == nil:
			rel = append(rel, related(s.Pos, "%s is named like a resourceVersion", s.Name))
		default:
			rel = append(rel, related(s.Pos, "%s is read here", tx.source(s)))
		}
	}
	for _, v := range f.Via {
		rel = append(rel, related(v.Common().Pos(), "the resourceVersion is passed to %s here", tx.ck.callName(v)))
	}
	for _, m := range f.Merged {
		rel = append(rel, related(rv.PosOf(m), "%s parses a resourceVersion here too", tx.what(m)))
	}
	arith := false
	for _, u := range f.Uses {
		switch {
		case !u.Arith:
			rel = append(rel, related(u.Instr.Pos(), "the numbers are compared here"))
		case !arith:
			rel = append(rel, related(u.Instr.Pos(), "arithmetic on the number"))
			arith = true
		}
	}
	return rel
}

// parseMessage says what a parse finding parses and what for:
// "strconv.Atoi parses a.ResourceVersion and b.ResourceVersion as numbers
// to compare them", "x.ResourceVersion is passed to util.Newer, which
// parses it as a number".
func (tx *rvText) parseMessage(f *rv.Finding) string {
	srcs := tx.sources(f.Sources)
	var args []string
	if f.Helper == nil {
		for _, instr := range append([]ssa.Instruction{f.Instr}, f.Merged...) {
			if a := tx.arg(instr, 0); a != "" && !containsString(args, a) {
				args = append(args, a)
			}
		}
	}
	parsed := srcs
	if len(args) > 0 {
		parsed = joinNames(args)
		if len(args) == 1 && !strings.Contains(srcs, " and ") && srcs != args[0] {
			parsed += " (" + srcs + ")" // rv (kv.ResourceVersion)
		}
	}
	plural := strings.Contains(parsed, " and ") || len(f.Merged) > 0
	how := " as a number"
	if plural {
		how = " as numbers"
	}
	switch {
	case hasUse(f.Uses, false) && hasUse(f.Uses, true):
		how += " to compare and compute with"
	case hasUse(f.Uses, false) && plural:
		how += " to compare them"
	case hasUse(f.Uses, false):
		how += " to compare it"
	case hasUse(f.Uses, true):
		how += " to compute with"
	}
	switch {
	case f.Helper != nil && plural:
		return srcs + " are passed to " + helperName(f.Helper) + ", which parses them" + how
	case f.Helper != nil:
		return srcs + " is passed to " + helperName(f.Helper) + ", which parses it" + how
	}
	return f.What + " parses " + parsed + how
}

// orderMessage says what an ordering finding orders.
func (tx *rvText) orderMessage(f *rv.Finding) string {
	srcs := tx.sources(f.Sources)
	switch {
	case f.Helper != nil && strings.Contains(srcs, " and "):
		return srcs + " are passed to " + helperName(f.Helper) + ", which orders them as strings"
	case f.Helper != nil:
		return srcs + " is passed to " + helperName(f.Helper) + ", which orders it as a string"
	case isOperator(f.What):
		return tx.expr(f.Instr) + " orders resourceVersions by string order"
	case f.What == "max" || f.What == "min":
		return tx.callText(f.Instr, f.What) + " picks a resourceVersion by string order"
	case tx.elems(f.Instr):
		verb := " orders"
		if strings.Contains(f.What, "Sort") || strings.HasPrefix(f.What, "sort.") {
			verb = " sorts"
		}
		return f.What + verb + " the resourceVersions in " + tx.arg(f.Instr, 0) + " by string order"
	}
	return tx.callText(f.Instr, f.What) + " orders resourceVersions by string order"
}

func hasUse(us []rv.Use, arith bool) bool {
	for _, u := range us {
		if u.Arith == arith {
			return true
		}
	}
	return false
}

func isOperator(s string) bool {
	switch s {
	case "<", "<=", ">", ">=", "==", "!=":
		return true
	}
	return false
}

func helperName(fn *types.Func) string {
	name := fn.Name()
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
		if n := namedType(sig.Recv().Type()); n != nil {
			name = n.Obj().Name() + "." + name
		}
	}
	if fn.Pkg() != nil {
		name = fn.Pkg().Name() + "." + name
	}
	return name
}

func namedType(t types.Type) *types.Named {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}

func (tx *rvText) whatCompare(f *rv.Finding) string {
	if isOperator(f.What) {
		return tx.expr(f.Instr)
	}
	return f.What
}
