package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/rv"
	"github.com/lostupdate/lostupdate/analyzer/internal/ssabuild"
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

// rvResult runs the resourceVersion analysis of the package once, when
// opaque-rv is on, and exports the resourceVersion summaries of its
// functions and fields.
func (ck *checker) rvResult() *rv.Result {
	if ck.rv == nil {
		ck.rv = rv.Analyze(ck.ssaPkg, ck.funcs, rvFacts{ck.pass})
		if exportRVFacts(ck.pass, ck.rv) && ck.flow != nil {
			// Only a package in scope makes its importers in scope.
			ck.pass.ExportPackageFact(new(packageFact))
		}
		ck.rvServes = len(ck.rv.Findings) > 0 && servesVersions(ck.pass, ck.rv)
	}
	return ck.rv
}

// rvText returns the namer of the code of rv findings, built on first use.
func (ck *checker) rvText() *rvText {
	if ck.rvTx == nil {
		ck.rvTx = newRVText(ck)
	}
	return ck.rvTx
}

// runOpaqueRVOutOfScope runs opaque-rv on a package of the analysed module
// that imports no Kubernetes library: a helper that parses or orders its
// string arguments is found there and exported as a fact, so that callers
// that pass it a resourceVersion are reported; names that say a string is a
// resourceVersion (rv, lastResourceVersion) are the only sources there.
// Packages of other modules (the standard library, dependencies) and
// packages without a parse or an ordering of strings are skipped before any
// SSA is built.
func (c *Config) runOpaqueRVOutOfScope(pass *analysis.Pass) (err error) {
	if !c.enabled("opaque-rv") || pass.Module == nil || pass.Module.Path == "" || pass.Module.Version != "" {
		return nil
	}
	if !mayOrderStrings(pass) {
		return nil
	}
	ssapkg, funcs, err := ssabuild.Build(pass.Fset, pass.Pkg, pass.Files, pass.TypesInfo)
	if err != nil {
		return fmt.Errorf("%s: %v", pass.Pkg.Path(), err)
	}
	ck := newChecker(pass, c, ssapkg, funcs)
	defer ck.recoverInto(&err)
	ck.runRules()
	return nil
}

// mayOrderStrings reports whether a package has anything opaque-rv looks
// for: a known parse or ordering function (strconv.Atoi, sort.Strings, ...),
// an ordering of strings, max or min, or a function with a resourceVersion
// fact.
func mayOrderStrings(pass *analysis.Pass) bool {
	found := false
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if found {
				return false
			}
			switch x := n.(type) {
			case *ast.BinaryExpr:
				switch x.Op {
				case token.LSS, token.LEQ, token.GTR, token.GEQ:
					if t := pass.TypesInfo.TypeOf(x.X); t != nil && isStringType(t) {
						found = true
					}
				}
			case *ast.Ident:
				switch obj := pass.TypesInfo.Uses[x].(type) {
				case *types.Func:
					if obj.Pkg() == nil || obj.Pkg() == pass.Pkg {
						return true
					}
					var ff rv.FuncFact
					if model.IsSinkFunc(model.FuncName(obj)) || pass.ImportObjectFact(obj.Origin(), &ff) {
						found = true
					}
				case *types.TypeName:
					if model.IsStringSlice(obj.Type()) {
						found = true
					}
				case *types.Builtin:
					if obj.Name() == "min" || obj.Name() == "max" {
						found = true
					}
				}
			}
			return true
		})
	}
	return found
}

func isStringType(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

type rvFacts struct{ pass *analysis.Pass }

func (s rvFacts) FuncFact(fn *types.Func) *rv.FuncFact {
	var f rv.FuncFact
	if s.pass.ImportObjectFact(fn, &f) {
		return &f
	}
	return nil
}

func (s rvFacts) FieldFact(v *types.Var) *rv.FieldFact {
	var f rv.FieldFact
	if s.pass.ImportObjectFact(v, &f) {
		return &f
	}
	return nil
}

// exportRVFacts exports the facts of a package's functions and fields and
// reports whether there were any.
func exportRVFacts(pass *analysis.Pass, res *rv.Result) bool {
	for obj, f := range res.Funcs {
		pass.ExportObjectFact(obj, f)
	}
	for v, f := range res.Fields {
		pass.ExportObjectFact(v, f)
	}
	return len(res.Funcs)+len(res.Fields) > 0
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
		case s.Kind == rv.FromName && tx.ck.calls[s.Pos] != nil:
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

// rvText names the code of findings for messages.
type rvText struct {
	ck   *checker
	sels map[token.Pos]*ast.SelectorExpr // by the position of Sel
	bins map[token.Pos]*ast.BinaryExpr   // by OpPos
}

func newRVText(ck *checker) *rvText {
	tx := &rvText{ck: ck, sels: map[token.Pos]*ast.SelectorExpr{}, bins: map[token.Pos]*ast.BinaryExpr{}}
	for _, f := range ck.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.SelectorExpr:
				tx.sels[x.Sel.Pos()] = x
			case *ast.BinaryExpr:
				tx.bins[x.OpPos] = x
			}
			return true
		})
	}
	return tx
}

// pos returns where to report an instruction.
func (tx *rvText) pos(instr ssa.Instruction) (token.Pos, token.Pos) {
	if c, ok := instr.(ssa.CallInstruction); ok {
		return tx.ck.callPos(c)
	}
	if b := tx.bins[instr.Pos()]; b != nil {
		return b.Pos(), b.End()
	}
	if ce := tx.ck.calls[instr.Pos()]; ce != nil {
		return ce.Pos(), ce.End()
	}
	return rv.PosOf(instr), token.NoPos
}

// expr returns the source of a comparison.
func (tx *rvText) expr(instr ssa.Instruction) string {
	if b := tx.bins[instr.Pos()]; b != nil {
		if text := types.ExprString(b); len(text) <= 96 {
			return text
		}
		return "the comparison " + b.Op.String()
	}
	return "a comparison"
}

func (tx *rvText) whatCompare(f *rv.Finding) string {
	if isOperator(f.What) {
		return tx.expr(f.Instr)
	}
	return f.What
}

// what names the call of an instruction.
func (tx *rvText) what(instr ssa.Instruction) string {
	if c, ok := instr.(ssa.CallInstruction); ok {
		if ce := tx.ck.callExpr(c); ce != nil {
			return short(types.ExprString(ce.Fun))
		}
	}
	return "a parse"
}

// arg returns the source of argument i of the call an instruction is
// (a conversion's operand for i == 0), or "".
func (tx *rvText) arg(instr ssa.Instruction, i int) string {
	var ce *ast.CallExpr
	if c, ok := instr.(ssa.CallInstruction); ok {
		ce = tx.ck.callExpr(c)
	} else {
		ce = tx.ck.calls[instr.Pos()]
	}
	if ce == nil || i >= len(ce.Args) {
		return ""
	}
	return short(types.ExprString(ce.Args[i]))
}

// callText returns the source of the call an instruction is.
func (tx *rvText) callText(instr ssa.Instruction, fallback string) string {
	if c, ok := instr.(ssa.CallInstruction); ok {
		if ce := tx.ck.callExpr(c); ce != nil {
			if text := types.ExprString(ce); len(text) <= 96 {
				return text
			}
		}
	}
	return fallback
}

// elems reports whether an ordering is of the elements of a slice: a sort,
// slices.Max, a conversion to sort.StringSlice.
func (tx *rvText) elems(instr ssa.Instruction) bool {
	c, ok := instr.(ssa.CallInstruction)
	if !ok {
		return true
	}
	ce := tx.ck.callExpr(c)
	if ce == nil || len(ce.Args) == 0 {
		return false
	}
	t := tx.ck.pass.TypesInfo.TypeOf(ce.Args[0])
	if t == nil {
		return false
	}
	switch t.Underlying().(type) {
	case *types.Slice, *types.Signature:
		return true
	}
	return false
}

func joinNames(names []string) string {
	switch len(names) {
	case 1:
		return names[0]
	case 2:
		return names[0] + " and " + names[1]
	}
	return fmt.Sprintf("%s, %s and %d more", names[0], names[1], len(names)-2)
}

// source names a resourceVersion for a message: app.ResourceVersion,
// obj.GetResourceVersion(), the parameter rv.
func (tx *rvText) source(s *rv.Source) string {
	if sel := tx.sels[s.Pos]; sel != nil {
		text := types.ExprString(sel)
		text = strings.Replace(text, ".ObjectMeta.", ".", 1)
		text = strings.Replace(text, ".ListMeta.", ".", 1)
		return short(text)
	}
	if ce := tx.ck.calls[s.Pos]; ce != nil {
		if s.Kind == rv.FromUnstructured && len(ce.Args) > 0 {
			return "the metadata.resourceVersion of " + short(types.ExprString(ce.Args[0]))
		}
		return short(types.ExprString(ce))
	}
	if s.Kind == rv.FromName {
		return s.Name
	}
	return "the resourceVersion from " + s.Name
}

// sources names the versions of a finding: "a.ResourceVersion and
// b.ResourceVersion", "x, y and 2 more".
func (tx *rvText) sources(srcs []*rv.Source) string {
	var names []string
	for _, s := range namedOnlyIfAlone(srcs) {
		n := tx.source(s)
		if !containsString(names, n) {
			names = append(names, n)
		}
	}
	switch len(names) {
	case 0:
		return "a resourceVersion"
	case 1:
		return names[0]
	case 2:
		return names[0] + " and " + names[1]
	}
	return fmt.Sprintf("%s, %s and %d more resourceVersions", names[0], names[1], len(names)-2)
}

// namedOnlyIfAlone drops the sources that are only names (a parameter
// called rv) when there are others: the versions passed to it.
func namedOnlyIfAlone(srcs []*rv.Source) []*rv.Source {
	var out []*rv.Source
	for _, s := range srcs {
		if s.Kind != rv.FromName {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return srcs
	}
	return out
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ---- the suggested fix ----

const rvPkgPath = model.ResourceVersion

// rvParse is one of the two parses the fix replaces:
// x, err := strconv.Atoi(e), possibly followed by if err != nil { ... }.
type rvParse struct {
	assign  *ast.AssignStmt
	call    *ast.CallExpr
	num     types.Object // x
	errName string       // err, or "" for _
	check   *ast.IfStmt  // if err != nil { ... } right after it
}

// rvParseFix offers the mechanical replacement of two strconv parses of
// versions whose numbers meet in one comparison, and nothing else, by
// resourceversion.CompareResourceVersion:
//
//	a, err := strconv.ParseInt(x, 10, 64)    order, err := resourceversion.CompareResourceVersion(x, y)
//	if err != nil { return false }        →   if err != nil { return false }
//	b, err := strconv.ParseInt(y, 10, 64)     return order <= 0
//	if err != nil { return false }
//	return a <= b
//
// Parses whose errors are ignored (a, _ := strconv.Atoi(x)) become a
// comparison that is false when the versions are not comparable:
// err == nil && order <= 0.
func (ck *checker) rvParseFix(f *rv.Finding) []analysis.SuggestedFix {
	if f.Helper != nil || len(f.Merged) != 1 || len(f.Uses) != 1 || f.Uses[0].Arith {
		return nil
	}
	file := ck.fileOf(rv.PosOf(f.Instr))
	if file == nil {
		return nil
	}
	info := ck.pass.TypesInfo
	var ps [2]*rvParse
	for i, instr := range []ssa.Instruction{f.Instr, f.Merged[0]} {
		c, ok := instr.(ssa.CallInstruction)
		if !ok {
			return nil
		}
		ps[i] = rvParseAt(info, file, ck.callExpr(c))
		if ps[i] == nil {
			return nil
		}
	}
	// The comparison: a OP b of the two numbers.
	cmpPos := f.Uses[0].Instr.Pos()
	var cmpExpr *ast.BinaryExpr
	path, _ := pathTo(file, cmpPos)
	for _, n := range path {
		if b, ok := n.(*ast.BinaryExpr); ok && b.OpPos == cmpPos {
			cmpExpr = b
			break
		}
	}
	if cmpExpr == nil {
		return nil
	}
	op := cmpExpr.Op
	switch {
	case identIs(info, cmpExpr.X, ps[0].num) && identIs(info, cmpExpr.Y, ps[1].num):
	case identIs(info, cmpExpr.X, ps[1].num) && identIs(info, cmpExpr.Y, ps[0].num):
		op = flipOp(op)
	default:
		return nil
	}
	// The numbers are used nowhere else.
	for _, p := range ps {
		if countUses(info, file, p.num) != 1 {
			return nil
		}
	}
	// The statements: parse 1 [check 1] parse 2 [check 2], in a row, with
	// both errors checked alike or both ignored.
	list := stmtListOf(file, ps[0].assign)
	i := indexOf(list, ps[0].assign)
	if i < 0 {
		return nil
	}
	checked := ps[0].check != nil
	if checked != (ps[1].check != nil) || checked && (ps[0].errName == "" || ps[0].errName != ps[1].errName ||
		ps[0].assign.Tok != token.DEFINE || nodeText(ps[0].check.Body) != nodeText(ps[1].check.Body)) {
		return nil
	}
	var tail ast.Stmt // the last statement replaced
	if checked {
		if i+3 >= len(list) || list[i+1] != ast.Stmt(ps[0].check) || list[i+2] != ast.Stmt(ps[1].assign) || list[i+3] != ast.Stmt(ps[1].check) {
			return nil
		}
		tail = ps[1].check
	} else {
		if ps[0].errName != "" || ps[1].errName != "" || i+1 >= len(list) || list[i+1] != ast.Stmt(ps[1].assign) {
			return nil
		}
		tail = ps[1].assign
	}
	if cmpExpr.Pos() < tail.End() {
		return nil
	}
	fn := enclosingFunc(file, ps[0].assign.Pos())
	if fn == nil || mentions(fn, "order", token.NoPos, token.NoPos) {
		return nil
	}
	errName := ps[0].errName
	if !checked {
		errName = "err"
		// err now holds the comparison's error until the comparison.
		if mentions(fn, errName, tail.End(), cmpExpr.Pos()) {
			return nil
		}
	}
	pkgName, importEdits := ck.importFor(file, rvPkgPath, "resourceversion")
	a1, a2 := ps[0].call.Args[0], ps[1].call.Args[0]
	compare := fmt.Sprintf("order, %s := %s.CompareResourceVersion(%s, %s)", errName, pkgName, types.ExprString(a1), types.ExprString(a2))
	cond := "order " + op.String() + " 0"
	if !checked {
		cond = errName + " == nil && " + cond
		if parentNeedsParens(file, cmpExpr) {
			cond = "(" + cond + ")"
		}
	}
	edits := []analysis.TextEdit{{Pos: ps[0].assign.Pos(), End: ps[0].assign.End(), NewText: []byte(compare)}}
	// The second parse (and its check) go, whole lines.
	fset := ck.pass.Fset
	tf := fset.File(tail.End())
	line := fset.Position(tail.End()).Line
	to := tail.End()
	if line < tf.LineCount() {
		to = tf.LineStart(line + 1)
	}
	edits = append(edits,
		analysis.TextEdit{Pos: lineStart(fset, ps[1].assign.Pos()), End: to},
		analysis.TextEdit{Pos: cmpExpr.Pos(), End: cmpExpr.End(), NewText: []byte(cond)})
	edits = append(edits, importEdits...)
	edits = append(edits, ck.dropImportIfUnused(file, "strconv", ps[0].call, ps[1].call)...)
	return []analysis.SuggestedFix{{
		Message:   "Replace the parses and the comparison with resourceversion.CompareResourceVersion",
		TextEdits: edits,
	}}
}

// rvParseAt recognises x, err := strconv.Parse*(e, ...) or x, _ := ...,
// and the if err != nil check right after it.
func rvParseAt(info *types.Info, file *ast.File, call *ast.CallExpr) *rvParse {
	if call == nil || len(call.Args) == 0 {
		return nil
	}
	fn, ok := typeutilCallee(info, call).(*types.Func)
	if !ok || !model.IsIntParse(model.FuncName(fn)) {
		return nil
	}
	path, _ := pathTo(file, call.Pos())
	var assign *ast.AssignStmt
	for i, n := range path {
		if n == ast.Node(call) && i+1 < len(path) {
			assign, _ = path[i+1].(*ast.AssignStmt)
			break
		}
	}
	if assign == nil || len(assign.Lhs) != 2 || len(assign.Rhs) != 1 || assign.Tok != token.DEFINE && assign.Tok != token.ASSIGN {
		return nil
	}
	numID, ok := assign.Lhs[0].(*ast.Ident)
	if !ok || assign.Tok != token.DEFINE {
		return nil
	}
	p := &rvParse{assign: assign, call: call, num: info.Defs[numID]}
	if p.num == nil {
		return nil
	}
	errID, ok := assign.Lhs[1].(*ast.Ident)
	if !ok {
		return nil
	}
	if errID.Name != "_" {
		p.errName = errID.Name
		list := stmtListOf(file, assign)
		i := indexOf(list, assign)
		if i < 0 || i+1 >= len(list) {
			return nil
		}
		check, ok := list[i+1].(*ast.IfStmt)
		if !ok || check.Init != nil || check.Else != nil {
			return nil
		}
		cond, ok := check.Cond.(*ast.BinaryExpr)
		if !ok || cond.Op != token.NEQ {
			return nil
		}
		if x, ok := cond.X.(*ast.Ident); !ok || x.Name != p.errName {
			return nil
		}
		if y, ok := cond.Y.(*ast.Ident); !ok || y.Name != "nil" {
			return nil
		}
		p.check = check
	}
	return p
}

// typeutilCallee returns the object a call invokes, for a package-qualified
// or plain function call.
func typeutilCallee(info *types.Info, call *ast.CallExpr) types.Object {
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		return info.Uses[fun.Sel]
	case *ast.Ident:
		return info.Uses[fun]
	}
	return nil
}

func flipOp(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.GTR:
		return token.LSS
	case token.LEQ:
		return token.GEQ
	case token.GEQ:
		return token.LEQ
	}
	return op
}

func identIs(info *types.Info, e ast.Expr, obj types.Object) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && info.Uses[id] == obj
}

func countUses(info *types.Info, file *ast.File, obj types.Object) int {
	n := 0
	ast.Inspect(file, func(node ast.Node) bool {
		if id, ok := node.(*ast.Ident); ok && info.Uses[id] == obj {
			n++
		}
		return true
	})
	return n
}

// mentions reports whether an identifier of that name occurs in n, between
// from and to when they are valid.
func mentions(n ast.Node, name string, from, to token.Pos) bool {
	found := false
	ast.Inspect(n, func(node ast.Node) bool {
		if id, ok := node.(*ast.Ident); ok && id.Name == name {
			if !from.IsValid() || id.Pos() >= from && id.Pos() < to {
				found = true
			}
		}
		return !found
	})
	return found
}

func (ck *checker) fileOf(pos token.Pos) *ast.File {
	for _, f := range ck.pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// pathTo returns the nodes enclosing pos, innermost first.
func pathTo(file *ast.File, pos token.Pos) ([]ast.Node, bool) {
	var path []ast.Node
	ast.Inspect(file, func(n ast.Node) bool {
		if n == nil || pos < n.Pos() || pos >= n.End() {
			return false
		}
		path = append(path, n)
		return true
	})
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path, len(path) > 0
}

// stmtListOf returns the statement list that holds stmt.
func stmtListOf(file *ast.File, stmt ast.Stmt) []ast.Stmt {
	path, _ := pathTo(file, stmt.Pos())
	for _, n := range path {
		switch b := n.(type) {
		case *ast.BlockStmt:
			if indexOf(b.List, stmt) >= 0 {
				return b.List
			}
		case *ast.CaseClause:
			if indexOf(b.Body, stmt) >= 0 {
				return b.Body
			}
		case *ast.CommClause:
			if indexOf(b.Body, stmt) >= 0 {
				return b.Body
			}
		}
	}
	return nil
}

func indexOf(list []ast.Stmt, stmt ast.Stmt) int {
	for i, s := range list {
		if s == stmt {
			return i
		}
	}
	return -1
}

func enclosingFunc(file *ast.File, pos token.Pos) ast.Node {
	path, _ := pathTo(file, pos)
	for _, n := range path {
		switch n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return n
		}
	}
	return nil
}

// parentNeedsParens reports whether a comparison replaced by a && chain
// needs parentheses where it stands.
func parentNeedsParens(file *ast.File, e ast.Expr) bool {
	path, _ := pathTo(file, e.Pos())
	for i, n := range path {
		if n != ast.Node(e) || i+1 >= len(path) {
			continue
		}
		switch p := path[i+1].(type) {
		case *ast.BinaryExpr:
			return p.Op != token.LAND && p.Op != token.LOR
		case *ast.UnaryExpr:
			return true
		}
		return false
	}
	return true
}

func nodeText(n ast.Node) string {
	var b strings.Builder
	ast.Inspect(n, func(x ast.Node) bool {
		switch v := x.(type) {
		case *ast.Ident:
			b.WriteString(v.Name + " ")
		case *ast.BasicLit:
			b.WriteString(v.Value + " ")
		case nil:
		default:
			fmt.Fprintf(&b, "%T ", v)
		}
		return true
	})
	return b.String()
}

// importFor returns the name to use for a package in a file, and the edit
// that imports it if the file does not yet.
func (ck *checker) importFor(file *ast.File, path, name string) (string, []analysis.TextEdit) {
	for _, imp := range file.Imports {
		if strings.Trim(imp.Path.Value, `"`) == path {
			if imp.Name != nil {
				return imp.Name.Name, nil
			}
			return name, nil
		}
	}
	spec := "\t" + `"` + path + `"` + "\n"
	for _, d := range file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		if !gd.Lparen.IsValid() {
			return name, []analysis.TextEdit{{Pos: gd.Pos(), End: gd.Pos(), NewText: []byte("import " + `"` + path + `"` + "\n")}}
		}
		// Before the first Kubernetes import that sorts after it, or at the
		// end of the group of Kubernetes imports, or at the end.
		var after *ast.ImportSpec
		for _, s := range gd.Specs {
			is := s.(*ast.ImportSpec)
			p := strings.Trim(is.Path.Value, `"`)
			if !model.IsKubernetesImport(p) {
				continue
			}
			if p > path {
				return name, []analysis.TextEdit{{Pos: lineStart(ck.pass.Fset, is.Pos()), End: lineStart(ck.pass.Fset, is.Pos()), NewText: []byte(spec)}}
			}
			after = is
		}
		if after != nil {
			next := ck.pass.Fset.File(after.End()).LineStart(ck.pass.Fset.Position(after.End()).Line + 1)
			return name, []analysis.TextEdit{{Pos: next, End: next, NewText: []byte(spec)}}
		}
		return name, []analysis.TextEdit{{Pos: gd.Rparen, End: gd.Rparen, NewText: []byte("\n" + spec)}}
	}
	return name, []analysis.TextEdit{{Pos: file.Name.End(), End: file.Name.End(), NewText: []byte("\n\nimport " + `"` + path + `"` + "\n")}}
}

func lineStart(fset *token.FileSet, pos token.Pos) token.Pos {
	return fset.File(pos).LineStart(fset.Position(pos).Line)
}

// dropImportIfUnused deletes the import of a package whose only uses in the
// file are in the calls the fix removes.
func (ck *checker) dropImportIfUnused(file *ast.File, path string, removed ...*ast.CallExpr) []analysis.TextEdit {
	var spec *ast.ImportSpec
	for _, imp := range file.Imports {
		if strings.Trim(imp.Path.Value, `"`) == path && imp.Name == nil {
			spec = imp
		}
	}
	if spec == nil {
		return nil
	}
	uses := 0
	ast.Inspect(file, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if pn, ok := ck.pass.TypesInfo.Uses[id].(*types.PkgName); ok && pn.Imported().Path() == path {
				uses++
			}
		}
		return true
	})
	if uses != len(removed) {
		return nil
	}
	start := lineStart(ck.pass.Fset, spec.Pos())
	end := ck.pass.Fset.File(spec.End()).LineStart(ck.pass.Fset.Position(spec.End()).Line + 1)
	return []analysis.TextEdit{{Pos: start, End: end}}
}
