package analyzer

// The suggested fixes of every rule, in one place. They edit the source as
// the rules found it, located through the package's inspector (built on
// first use):
//
//   - unconditional-patch: MergeFrom(base) becomes
//     MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})
//     (lockFix);
//   - stale-read: ResourceVersion: "0", or opts.ResourceVersion = "0", is
//     dropped from the options of the read (dropRV0Fix);
//   - opaque-rv: two strconv parses of versions and the comparison of the
//     numbers become resourceversion.CompareResourceVersion (rvParseFix).
//
// A fix is offered only where the edit is mechanical; a shape it does not
// recognise gets no fix, never a guess. Nodes are found with the cursors of
// the package's inspector (checker.inspector) and callees with typeutil.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
	"github.com/lostupdate/lostupdate/analyzer/internal/patch"
	"github.com/lostupdate/lostupdate/analyzer/internal/rv"
)

// ---- unconditional-patch ----

// lockFix rewrites client.MergeFrom(base) into
// client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}),
// and adds the option to StrategicMergeFrom(base, ...) and
// MergeFromWithOptions(base, ...).
func (ck *checker) lockFix(info *patch.Info) *analysis.SuggestedFix {
	if info.Kind != patch.KindDiff || info.Site == nil || info.Lock {
		return nil
	}
	ce := ck.callAt(info.Site.Common().Pos())
	if ce == nil || len(ce.Args) == 0 || ce.Ellipsis.IsValid() {
		return nil
	}
	sel, ok := ast.Unparen(ce.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok {
		return nil
	}
	lock := pkg.Name + ".MergeFromWithOptimisticLock{}"
	last := ce.Args[len(ce.Args)-1]
	edits := []analysis.TextEdit{{Pos: last.End(), End: last.End(), NewText: []byte(", " + lock)}}
	switch sel.Sel.Name {
	case "MergeFrom":
		edits = append(edits, analysis.TextEdit{Pos: sel.Sel.Pos(), End: sel.Sel.End(), NewText: []byte("MergeFromWithOptions")})
	case "StrategicMergeFrom", "MergeFromWithOptions":
	default:
		return nil
	}
	return &analysis.SuggestedFix{
		Message:   "Add client.MergeFromWithOptimisticLock{} to the patch",
		TextEdits: sortEdits(edits),
	}
}

// lockFixAll is lockFix for a patch value that is one of several diffs (a
// variable set in two branches): one fix that locks every one without a
// lock, or none when one of them cannot be fixed.
func (ck *checker) lockFixAll(infos []*patch.Info) *analysis.SuggestedFix {
	var edits []analysis.TextEdit
	for _, info := range infos {
		if info.Kind == patch.KindDiff && info.Lock {
			continue
		}
		f := ck.lockFix(info)
		if f == nil {
			return nil
		}
		edits = append(edits, f.TextEdits...)
	}
	if len(edits) == 0 {
		return nil
	}
	slices.SortFunc(edits, func(a, b analysis.TextEdit) int { return int(a.Pos) - int(b.Pos) })
	return &analysis.SuggestedFix{Message: "Add client.MergeFromWithOptimisticLock{} to the patches", TextEdits: edits}
}

func sortEdits(edits []analysis.TextEdit) []analysis.TextEdit {
	if len(edits) == 2 && edits[0].Pos > edits[1].Pos {
		edits[0], edits[1] = edits[1], edits[0]
	}
	return edits
}

// ---- stale-read ----

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
	cur, ok := ck.inspector().Root().FindByPos(pos, pos+1)
	if !ok {
		return nil, nil
	}
	for c := range cur.Enclosing((*ast.KeyValueExpr)(nil)) {
		kv := c.Node().(*ast.KeyValueExpr)
		if lit, ok := c.Parent().Node().(*ast.CompositeLit); ok && kv.Colon == pos {
			return lit, kv
		}
	}
	return nil, nil
}

// dropRV0AssignFix removes the statement opts.ResourceVersion = "0" that
// holds the store at pos, if it is on a line of its own.
func (ck *checker) dropRV0AssignFix(pos token.Pos) *analysis.SuggestedFix {
	var stmt *ast.AssignStmt
	if cur, ok := ck.inspector().Root().FindByPos(pos, pos+1); ok {
		for c := range cur.Enclosing((*ast.AssignStmt)(nil)) {
			if a := c.Node().(*ast.AssignStmt); isRV0Assign(a) {
				stmt = a
				break
			}
		}
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

// isRV0Assign reports whether a statement is x.ResourceVersion = "0".
func isRV0Assign(a *ast.AssignStmt) bool {
	if a.Tok != token.ASSIGN || len(a.Lhs) != 1 || len(a.Rhs) != 1 {
		return false
	}
	sel, ok := a.Lhs[0].(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "ResourceVersion" {
		return false
	}
	lit, ok := a.Rhs[0].(*ast.BasicLit)
	return ok && lit.Value == `"0"`
}

// ---- opaque-rv ----

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
		ps[i] = ck.rvParseAt(ck.callExpr(c))
		if ps[i] == nil {
			return nil
		}
	}
	// The comparison: a OP b of the two numbers.
	cmpExpr := ck.rvText().bins[f.Uses[0].Instr.Pos()]
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
		if ck.countUses(file, p.num) != 1 {
			return nil
		}
	}
	// The statements: parse 1 [check 1] parse 2 [check 2], in a row, with
	// both errors checked alike or both ignored.
	list := ck.stmtListOf(ps[0].assign)
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
	fn := ck.enclosingFunc(ps[0].assign)
	if fn == nil || ck.mentions(fn, "order", token.NoPos, token.NoPos) {
		return nil
	}
	errName := ps[0].errName
	if !checked {
		errName = "err"
		// err now holds the comparison's error until the comparison.
		if ck.mentions(fn, errName, tail.End(), cmpExpr.Pos()) {
			return nil
		}
	}
	pkgName, importEdits := ck.importFor(file, rvPkgPath, "resourceversion")
	a1, a2 := ps[0].call.Args[0], ps[1].call.Args[0]
	compare := fmt.Sprintf("order, %s := %s.CompareResourceVersion(%s, %s)", errName, pkgName, types.ExprString(a1), types.ExprString(a2))
	cond := "order " + op.String() + " 0"
	if !checked {
		cond = errName + " == nil && " + cond
		if ck.parentNeedsParens(cmpExpr) {
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
func (ck *checker) rvParseAt(call *ast.CallExpr) *rvParse {
	if call == nil || len(call.Args) == 0 {
		return nil
	}
	info := ck.pass.TypesInfo
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || !model.IsIntParse(model.FuncName(fn)) {
		return nil
	}
	var assign *ast.AssignStmt
	if cur, ok := ck.inspector().Root().FindNode(call); ok {
		assign, _ = cur.Parent().Node().(*ast.AssignStmt)
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
		list := ck.stmtListOf(assign)
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

// countUses counts the uses of an object in a file.
func (ck *checker) countUses(file *ast.File, obj types.Object) int {
	cur, ok := ck.inspector().Root().FindNode(file)
	if !ok {
		return 0
	}
	n := 0
	for c := range cur.Preorder((*ast.Ident)(nil)) {
		if ck.pass.TypesInfo.Uses[c.Node().(*ast.Ident)] == obj {
			n++
		}
	}
	return n
}

// mentions reports whether an identifier of that name occurs in n, between
// from and to when they are valid.
func (ck *checker) mentions(n ast.Node, name string, from, to token.Pos) bool {
	cur, ok := ck.inspector().Root().FindNode(n)
	if !ok {
		return false
	}
	for c := range cur.Preorder((*ast.Ident)(nil)) {
		if id := c.Node().(*ast.Ident); id.Name == name && (!from.IsValid() || id.Pos() >= from && id.Pos() < to) {
			return true
		}
	}
	return false
}

func (ck *checker) fileOf(pos token.Pos) *ast.File {
	for _, f := range ck.pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// stmtListOf returns the statement list that holds stmt.
func (ck *checker) stmtListOf(stmt ast.Stmt) []ast.Stmt {
	cur, ok := ck.inspector().Root().FindNode(stmt)
	if !ok {
		return nil
	}
	switch b := cur.Parent().Node().(type) {
	case *ast.BlockStmt:
		return b.List
	case *ast.CaseClause:
		return b.Body
	case *ast.CommClause:
		return b.Body
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

// enclosingFunc returns the function declaration or literal around n.
func (ck *checker) enclosingFunc(n ast.Node) ast.Node {
	cur, ok := ck.inspector().Root().FindNode(n)
	if !ok {
		return nil
	}
	for c := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		return c.Node()
	}
	return nil
}

// parentNeedsParens reports whether a comparison replaced by a && chain
// needs parentheses where it stands.
func (ck *checker) parentNeedsParens(e ast.Expr) bool {
	cur, ok := ck.inspector().Root().FindNode(e)
	if !ok {
		return true
	}
	switch p := cur.Parent().Node().(type) {
	case *ast.BinaryExpr:
		return p.Op != token.LAND && p.Op != token.LOR
	case *ast.UnaryExpr:
		return true
	}
	return false
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
	cur, ok := ck.inspector().Root().FindNode(file)
	if !ok {
		return nil
	}
	uses := 0
	for c := range cur.Preorder((*ast.Ident)(nil)) {
		if pn, ok := ck.pass.TypesInfo.Uses[c.Node().(*ast.Ident)].(*types.PkgName); ok && pn.Imported().Path() == path {
			uses++
		}
	}
	if uses != len(removed) {
		return nil
	}
	start := lineStart(ck.pass.Fset, spec.Pos())
	end := ck.pass.Fset.File(spec.End()).LineStart(ck.pass.Fset.Position(spec.End()).Line + 1)
	return []analysis.TextEdit{{Pos: start, End: end}}
}
