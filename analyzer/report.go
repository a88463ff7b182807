package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/ssa"

	"github.com/lostupdate/lostupdate/analyzer/internal/flow"
	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/rv"
	"github.com/lostupdate/lostupdate/analyzer/internal/writes"
)

// checker is the state of one run of the Analyzer on one package.
type checker struct {
	pass     *analysis.Pass
	cfg      *Config
	ssaPkg   *ssa.Package
	funcs    []*ssa.Function // the functions analysed: the package's, under the size cap
	flow     *flow.Package   // nil for a package out of scope (see runOpaqueRVOutOfScope)
	calls    map[token.Pos]*ast.CallExpr
	reported map[string]bool
	current  *ssa.Function // the function being looked at, for internal errors
	// recs are the records of the package's writes, built on first use.
	recs *writes.Set
	// rv is the resourceVersion analysis of the package, run on first use;
	// rvServes: the package issues versions itself; rvTx names its code.
	rv       *rv.Result
	rvServes bool
	rvTx     *rvText
	insp     *inspector.Inspector // the package's files, built on first use
	// directives are the package's suppression directives (see ignore.go),
	// indexed on first use.
	directives *directiveIndex
	// testFiles are the package's files of test code, found on first use.
	testFiles map[*token.File]bool
	// files are the files of the pass's file set by name, for positions
	// that facts carry; indexed on first use.
	files map[string]*token.File
}

// posOf returns the position in the pass of a position a fact carries
// (the source of the package, or of a dependency as its export data or
// source has it), or token.NoPos.
func (ck *checker) posOf(at flow.WritePos) token.Pos {
	if at.File == "" || at.Line <= 0 {
		return token.NoPos
	}
	if ck.files == nil {
		ck.files = map[string]*token.File{}
		ck.pass.Fset.Iterate(func(f *token.File) bool {
			if _, dup := ck.files[f.Name()]; !dup {
				ck.files[f.Name()] = f
			}
			return true
		})
	}
	tf := ck.files[at.File]
	if tf == nil || at.Line > tf.LineCount() {
		return token.NoPos
	}
	pos := tf.LineStart(at.Line)
	// The column, where the line holds it (export data keeps lines only).
	end := token.Pos(tf.Base() + tf.Size())
	if at.Line < tf.LineCount() {
		end = tf.LineStart(at.Line + 1)
	}
	if at.Col > 1 && pos+token.Pos(at.Col-1) < end {
		pos += token.Pos(at.Col - 1)
	}
	return pos
}

// helperWritePos returns where the helper a write goes through writes the
// object: the client call at the end of its chain of helpers, or the
// helper itself when that is not known.
func (ck *checker) helperWritePos(w *writes.Write) token.Pos {
	if pos := ck.posOf(w.ViaWrite.At); pos.IsValid() {
		return pos
	}
	return w.Via.Pos()
}

// inTestCode reports whether a position is in test code: a file named
// *_test.go, a file that imports testing or a test framework, or any file
// of a directory of test support (isTestSupport).
func (ck *checker) inTestCode(pos token.Pos) bool {
	if ck.testFiles == nil {
		ck.testFiles = map[*token.File]bool{}
		support := ck.isTestSupport()
		for _, f := range ck.pass.Files {
			tf := ck.pass.Fset.File(f.Pos())
			if tf == nil {
				continue
			}
			ck.testFiles[tf] = support || isTestFile(tf.Name(), f)
		}
	}
	return ck.testFiles[ck.pass.Fset.File(pos)]
}

// isTestSupport reports whether the package is test support code as a
// whole: a directory of its module's tests (model.IsTestSupportDir), such
// as test/framework or test/e2e/fixture, where a file of RBAC helpers that
// imports no test framework is test code all the same.
func (ck *checker) isTestSupport() bool {
	rel := ck.pass.Pkg.Path()
	if m := ck.pass.Module; m != nil && m.Path != "" {
		if rel == m.Path {
			rel = ""
		} else if r, ok := strings.CutPrefix(rel, m.Path+"/"); ok {
			rel = r
		}
	} else {
		rel = model.WithinRepo(rel)
	}
	return model.IsTestSupportDir(rel)
}

// isTestFile reports whether a file is test code: named *_test.go, or
// importing a package only tests import (model.IsTestPackage).
func isTestFile(name string, f *ast.File) bool {
	if strings.HasSuffix(name, "_test.go") {
		return true
	}
	for _, imp := range f.Imports {
		if path, err := strconv.Unquote(imp.Path.Value); err == nil && model.IsTestPackage(path) {
			return true
		}
	}
	return false
}

// writes returns the records of the package's writes (built once).
func (ck *checker) writes() *writes.Set {
	if ck.recs == nil {
		ck.recs = writes.Build(ck.flow)
	}
	return ck.recs
}

// callAt returns the call expression whose Lparen is at pos, or nil. The
// index is built on first use: most packages report nothing and never need
// it.
func (ck *checker) callAt(pos token.Pos) *ast.CallExpr {
	if ck.calls == nil {
		ck.calls = indexCalls(ck.inspector())
	}
	return ck.calls[pos]
}

// inspector returns the inspector of the package's files (built once).
func (ck *checker) inspector() *inspector.Inspector {
	if ck.insp == nil {
		ck.insp = inspector.New(ck.pass.Files)
	}
	return ck.insp
}

// report emits one diagnostic of a rule, once per rule and position; in
// test code only with Config.Tests. A directive that covers a finding in
// test code is used either way.
func (ck *checker) report(rule string, pos, end token.Pos, msg string, related []analysis.RelatedInformation, fixes ...analysis.SuggestedFix) {
	key := fmt.Sprintf("%s@%d", rule, pos)
	if ck.reported[key] {
		return
	}
	ck.reported[key] = true
	if ck.suppressed(rule, pos) {
		return
	}
	if !ck.cfg.Tests && ck.inTestCode(pos) {
		return
	}
	if ck.cfg.OmitRelated {
		related = nil
	}
	ck.pass.Report(analysis.Diagnostic{
		Pos:            pos,
		End:            end,
		Category:       rule,
		Message:        rule + ": " + msg,
		Related:        related,
		SuggestedFixes: fixes,
	})
}

// callExpr returns the syntax of an SSA call, or nil.
func (ck *checker) callExpr(call ssa.CallInstruction) *ast.CallExpr {
	return ck.callAt(call.Common().Pos())
}

// callPos returns where to report a call: at the method name of a selector
// call (the line a reader looks for in a chain), else at the call.
func (ck *checker) callPos(call ssa.CallInstruction) (token.Pos, token.Pos) {
	ce := ck.callExpr(call)
	if ce == nil {
		return flow.Pos(call), token.NoPos
	}
	if sel, ok := ast.Unparen(ce.Fun).(*ast.SelectorExpr); ok {
		return sel.Sel.Pos(), ce.End()
	}
	return ce.Pos(), ce.End()
}

// callName names a call for a message: "Update", "Status().Update",
// "SubResource(\"scale\").Update", or a helper's name.
func (ck *checker) callName(call ssa.CallInstruction) string {
	ce := ck.callExpr(call)
	if ce == nil {
		if fn := call.Common().StaticCallee(); fn != nil {
			return fn.Name()
		}
		if call.Common().IsInvoke() {
			return call.Common().Method.Name()
		}
		return "the call"
	}
	switch fun := ast.Unparen(ce.Fun).(type) {
	case *ast.SelectorExpr:
		if inner, ok := ast.Unparen(fun.X).(*ast.CallExpr); ok {
			if isel, ok := ast.Unparen(inner.Fun).(*ast.SelectorExpr); ok {
				if model.IsSubResourceAccessor(isel.Sel.Name) {
					return isel.Sel.Name + "(" + exprList(inner.Args) + ")." + fun.Sel.Name
				}
			}
		}
		return fun.Sel.Name
	case *ast.Ident:
		return fun.Name
	case *ast.IndexExpr:
		return types.ExprString(fun.X)
	}
	return types.ExprString(ce.Fun)
}

func exprList(es []ast.Expr) string {
	var parts []string
	for _, e := range es {
		parts = append(parts, types.ExprString(e))
	}
	return strings.Join(parts, ", ")
}

// argText returns the source of argument i (not counting a receiver) of a
// call, shortened for messages.
func (ck *checker) argText(call ssa.CallInstruction, i int) string {
	ce := ck.callExpr(call)
	if ce == nil || i < 0 {
		return "the object"
	}
	if i >= len(ce.Args) {
		return "the object"
	}
	arg := ce.Args[i]
	// &deploy names the object deploy.
	if u, ok := ast.Unparen(arg).(*ast.UnaryExpr); ok && u.Op == token.AND {
		if _, ok := ast.Unparen(u.X).(*ast.Ident); ok {
			arg = u.X
		}
	}
	return short(types.ExprString(arg))
}

// bodyText returns the source of the body a subresource write sends:
// scale in SubResource("scale").Update(ctx, d, client.WithSubResourceBody(scale)).
func (ck *checker) bodyText(call ssa.CallInstruction) string {
	ce := ck.callExpr(call)
	if ce == nil {
		return "the object"
	}
	text := "the object"
	for _, arg := range ce.Args {
		opt, ok := ast.Unparen(arg).(*ast.CallExpr)
		if !ok || len(opt.Args) != 1 {
			continue
		}
		if sel, ok := ast.Unparen(opt.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "WithSubResourceBody" {
			text = short(types.ExprString(ast.Unparen(opt.Args[0])))
		}
	}
	return text
}

// paramText returns the source of the argument a call passes for a
// parameter of its callee (index counting a method's receiver as 0).
func (ck *checker) paramText(call ssa.CallInstruction, param int) string {
	ce := ck.callExpr(call)
	fn := call.Common().StaticCallee()
	if fn != nil && fn.Signature.Recv() != nil {
		if param == 0 {
			if ce != nil {
				if sel, ok := ast.Unparen(ce.Fun).(*ast.SelectorExpr); ok {
					return short(types.ExprString(sel.X))
				}
			}
			return "the receiver"
		}
		param--
	}
	return ck.argText(call, param)
}

func short(s string) string {
	if len(s) > 48 {
		return s[:45] + "..."
	}
	return s
}

// objText names the object a write writes.
func (ck *checker) objText(w *writes.Write) string {
	if w.Client != nil {
		if model.SubResourceBody(w.Call.Common(), *w.Client) != nil {
			return ck.bodyText(w.Call)
		}
		return ck.argText(w.Call, w.Client.Obj)
	}
	if w.Via != nil && w.ViaWrite.ParamField != "" {
		// scope.Close() patches the object the scope keeps.
		return ck.paramText(w.Call, w.ViaWrite.Param) + "." + w.ViaWrite.ParamField
	}
	if w.Via != nil {
		return ck.paramText(w.Call, w.ViaWrite.Param)
	}
	if w.ReadsFirst {
		return ck.argText(w.Call, 2)
	}
	return "the object"
}

// readText names the object a read origin gave: the object argument of a
// client read (Get(ctx, key, &ds) reads ds), else the variable the read's
// result is assigned to (ds, err := getDataset(...)); "" when neither can be
// told.
func (ck *checker) readText(o flow.Origin) string {
	call, ok := o.Site.(ssa.CallInstruction)
	if !ok || (o.Kind != flow.Read && o.Kind != flow.CacheRead) {
		return ""
	}
	if c, ok := model.Classify(call.Common()); ok && c.Obj >= 0 {
		if s := ck.argText(call, c.Obj); s != "the object" {
			return s
		}
		return ""
	}
	ce := ck.callExpr(call)
	if ce == nil {
		return ""
	}
	cur, ok := ck.inspector().Root().FindNode(ce)
	if !ok {
		return ""
	}
	var lhs []ast.Expr
	switch p := cur.Parent().Node().(type) {
	case *ast.AssignStmt:
		if len(p.Rhs) == 1 && p.Rhs[0] == ce {
			lhs = p.Lhs
		}
	case *ast.ValueSpec:
		if len(p.Values) == 1 && p.Values[0] == ce {
			for _, n := range p.Names {
				lhs = append(lhs, n)
			}
		}
	}
	if len(lhs) == 0 {
		return ""
	}
	// A helper that reads into an argument returns only an error: the
	// object read is the argument, not what the call returns.
	if id, ok := ast.Unparen(lhs[0]).(*ast.Ident); ok && id.Name != "_" && !model.IsError(ck.pass.TypesInfo.TypeOf(id)) {
		return id.Name
	}
	return ""
}

// writeText names a write call and, where it can be told, the object it
// writes: "Update of node".
func (ck *checker) writeText(w *writes.Write) string {
	call := ck.callName(w.Call)
	if obj := ck.objText(w); obj != "" && obj != "the object" {
		if src, ok := copied(obj); ok {
			obj = "a copy of " + src
		}
		call += " of " + obj
	}
	return call
}

// copied returns x of an object written as "x.DeepCopy()".
func copied(obj string) (string, bool) {
	return strings.CutSuffix(obj, ".DeepCopy()")
}

// related builds one piece of related information.
func related(pos token.Pos, format string, args ...any) analysis.RelatedInformation {
	return analysis.RelatedInformation{Pos: pos, Message: fmt.Sprintf(format, args...)}
}

// ---- names of resourceVersion code, for opaque-rv ----

// rvText returns the namer of the code of rv findings, built on first use.
func (ck *checker) rvText() *rvText {
	if ck.rvTx == nil {
		ck.rvTx = newRVText(ck)
	}
	return ck.rvTx
}

// rvText names the code of findings for messages.
type rvText struct {
	ck   *checker
	sels map[token.Pos]*ast.SelectorExpr // by the position of Sel
	bins map[token.Pos]*ast.BinaryExpr   // by OpPos
}

func newRVText(ck *checker) *rvText {
	tx := &rvText{ck: ck, sels: map[token.Pos]*ast.SelectorExpr{}, bins: map[token.Pos]*ast.BinaryExpr{}}
	for c := range ck.inspector().Root().Preorder((*ast.SelectorExpr)(nil), (*ast.BinaryExpr)(nil)) {
		switch x := c.Node().(type) {
		case *ast.SelectorExpr:
			tx.sels[x.Sel.Pos()] = x
		case *ast.BinaryExpr:
			tx.bins[x.OpPos] = x
		}
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
	if ce := tx.ck.callAt(instr.Pos()); ce != nil {
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
		ce = tx.ck.callAt(instr.Pos())
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

// source names a resourceVersion for a message: app.ResourceVersion,
// obj.GetResourceVersion(), the parameter rv.
func (tx *rvText) source(s *rv.Source) string {
	if sel := tx.sels[s.Pos]; sel != nil {
		text := types.ExprString(sel)
		text = strings.Replace(text, ".ObjectMeta.", ".", 1)
		text = strings.Replace(text, ".ListMeta.", ".", 1)
		return short(text)
	}
	if ce := tx.ck.callAt(s.Pos); ce != nil {
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

func joinNames(names []string) string {
	switch len(names) {
	case 1:
		return names[0]
	case 2:
		return names[0] + " and " + names[1]
	}
	return fmt.Sprintf("%s, %s and %d more", names[0], names[1], len(names)-2)
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// funcText names a function for a message: its name, or "a func literal
// in F" for a closure (whose SSA name, F$1, names nothing in the source).
func funcText(fn *ssa.Function) string {
	if fn.Parent() == nil {
		return fn.Name()
	}
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return "a func literal in " + fn.Name()
}
