package main

import (
	"bytes"
	"cmp"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

// edit replaces the bytes [start, end) of a file.
type edit struct {
	start, end int
	text       string
}

// applyFixes applies the first suggested fix of every finding: all its
// edits, or none if one overlaps an edit of a fix already taken. Files
// marked as generated are left alone. With diff, the files are not written
// and a unified diff is printed to w instead.
func applyFixes(res *results, diff bool, w io.Writer) error {
	byFile := map[string][]edit{}
	skipped, untranslated := 0, 0
	generated := res.generated
	for _, f := range res.findings {
		if len(f.diag.SuggestedFixes) == 0 {
			continue
		}
		fix := f.diag.SuggestedFixes[0]
		edits := map[string][]edit{}
		translated := false
		for _, e := range fix.TextEdits {
			start, end := f.fset.Position(e.Pos), f.fset.Position(e.End)
			if !e.End.IsValid() {
				end = start
			}
			if f.fset.PositionFor(e.Pos, false).Filename != start.Filename {
				// A //line directive maps the file analysed to another
				// (cgo's translation of a file that imports "C"): the
				// offsets are those of the file analysed, not of the
				// one the user edits.
				translated = true
			}
			edits[start.Filename] = append(edits[start.Filename], edit{start.Offset, end.Offset, string(e.NewText)})
		}
		if translated {
			untranslated++
			continue
		}
		ok := true
		for file, es := range edits {
			if generated[file] {
				ok = false
			}
			for _, e := range es {
				for _, old := range byFile[file] {
					if old == e {
						continue
					}
					if e.start < old.end && old.start < e.end || e.start == e.end && old.start == old.end && e.start == old.start {
						ok = false
					}
				}
			}
		}
		if !ok {
			skipped++
			continue
		}
		for file, es := range edits {
			for _, e := range es {
				if !slices.Contains(byFile[file], e) {
					byFile[file] = append(byFile[file], e)
				}
			}
		}
	}
	files := make([]string, 0, len(byFile))
	for file := range byFile {
		files = append(files, file)
	}
	slices.Sort(files)
	for _, file := range files {
		old, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		es := byFile[file]
		slices.SortFunc(es, func(a, b edit) int { return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.end, b.end)) })
		var buf bytes.Buffer
		last := 0
		for _, e := range es {
			if e.start < last || e.end > len(old) {
				return fmt.Errorf("%s: overlapping or out-of-range suggested fixes", file)
			}
			buf.Write(old[last:e.start])
			buf.WriteString(e.text)
			last = e.end
		}
		buf.Write(old[last:])
		fixed := removeUnusedImports(old, buf.Bytes())
		if formatted, err := format.Source(fixed); err == nil {
			fixed = formatted
		}
		if diff {
			io.WriteString(w, unifiedDiff(file+" (old)", file+" (new)", string(old), string(fixed)))
			continue
		}
		if err := os.WriteFile(file, fixed, 0o644); err != nil {
			return err
		}
	}
	if skipped > 0 {
		fmt.Fprintf(os.Stderr, "%s: %d fixes left out because they overlap others; run lostupdate -fix again\n", name, skipped)
	}
	if untranslated > 0 {
		fmt.Fprintf(os.Stderr, "%s: %d fixes left out in files that import \"C\": the analysed code is cgo's translation of them; apply these by hand\n", name, untranslated)
	}
	return nil
}

// removeUnusedImports drops the imports a fix left unused: those whose name
// was referred to in the original file and is not in the fixed one.
func removeUnusedImports(old, fixed []byte) []byte {
	fset := token.NewFileSet()
	before, err1 := parser.ParseFile(fset, "old.go", old, parser.SkipObjectResolution)
	after, err2 := parser.ParseFile(fset, "new.go", fixed, parser.ParseComments|parser.SkipObjectResolution)
	if err1 != nil || err2 != nil {
		return fixed
	}
	used := func(f *ast.File) map[string]bool {
		m := map[string]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok {
					m[id.Name] = true
				}
			}
			return true
		})
		return m
	}
	usedBefore, usedAfter := used(before), used(after)
	changed := false
	for _, imp := range after.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		local := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			local = imp.Name.Name
		}
		if local == "_" || local == "." {
			continue
		}
		if usedBefore[local] && !usedAfter[local] {
			if imp.Name != nil {
				changed = astutil.DeleteNamedImport(fset, after, imp.Name.Name, path) || changed
			} else {
				changed = astutil.DeleteImport(fset, after, path) || changed
			}
		}
	}
	if !changed {
		return fixed
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, after); err != nil {
		return fixed
	}
	return buf.Bytes()
}

// unifiedDiff returns a unified diff of two texts, by lines, with three
// lines of context.
func unifiedDiff(oldName, newName, a, b string) string {
	if a == b {
		return ""
	}
	x, y := splitLines(a), splitLines(b)
	ops := diffLines(x, y)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)
	const ctx = 3
	// Group the edit script into hunks.
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := i
		for start > 0 && i-start < ctx && ops[start-1].kind == ' ' {
			start--
		}
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*ctx {
				end = min(end+ctx, run)
				break
			}
			end = run
		}
		ai, bi := ops[start].ai, ops[start].bi
		var an, bn int
		var body strings.Builder
		for _, op := range ops[start:end] {
			switch op.kind {
			case ' ':
				an++
				bn++
				body.WriteString(" " + x[op.ai])
			case '-':
				an++
				body.WriteString("-" + x[op.ai])
			case '+':
				bn++
				body.WriteString("+" + y[op.bi])
			}
			if !strings.HasSuffix(body.String(), "\n") {
				body.WriteString("\n\\ No newline at end of file\n")
			}
		}
		fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n%s", ai+1, an, bi+1, bn, body.String())
		i = end
	}
	return out.String()
}

func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

type diffOp struct {
	kind   byte // ' ', '-', '+'
	ai, bi int  // line indices in the old and the new text (of the line, or where it goes)
}

// diffLines returns an edit script from x to y: the longest common
// subsequence of lines, after the common prefix and suffix are set aside.
func diffLines(x, y []string) []diffOp {
	pre := 0
	for pre < len(x) && pre < len(y) && x[pre] == y[pre] {
		pre++
	}
	suf := 0
	for suf < len(x)-pre && suf < len(y)-pre && x[len(x)-1-suf] == y[len(y)-1-suf] {
		suf++
	}
	mx, my := x[pre:len(x)-suf], y[pre:len(y)-suf]
	// lcs[i][j]: length of the LCS of mx[i:] and my[j:].
	lcs := make([][]int32, len(mx)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(my)+1)
	}
	for i := len(mx) - 1; i >= 0; i-- {
		for j := len(my) - 1; j >= 0; j-- {
			if mx[i] == my[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []diffOp
	for k := 0; k < pre; k++ {
		ops = append(ops, diffOp{' ', k, k})
	}
	i, j := 0, 0
	for i < len(mx) || j < len(my) {
		switch {
		case i < len(mx) && j < len(my) && mx[i] == my[j]:
			ops = append(ops, diffOp{' ', pre + i, pre + j})
			i++
			j++
		case j < len(my) && (i == len(mx) || lcs[i][j+1] >= lcs[i+1][j]):
			ops = append(ops, diffOp{'+', pre + i, pre + j})
			j++
		default:
			ops = append(ops, diffOp{'-', pre + i, pre + j})
			i++
		}
	}
	for k := 0; k < suf; k++ {
		ops = append(ops, diffOp{' ', len(x) - suf + k, len(y) - suf + k})
	}
	return ops
}
