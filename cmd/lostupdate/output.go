package main

import (
	"cmp"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// finding is a diagnostic of a root package. A file that belongs to a
// package and to its test variant is analysed twice; its findings are kept
// once.
type finding struct {
	pkg  string // package path, the same for a package and its test variant
	act  *checker.Action
	fset *token.FileSet
	diag analysis.Diagnostic
	posn token.Position
	end  token.Position
}

type results struct {
	findings []*finding
	errors   []string // analysis errors, one line each
	errPkgs  map[string]string
	// generated are the files marked as generated ("Code generated ...
	// DO NOT EDIT."), which -fix leaves alone.
	generated map[string]bool
}

// collect gathers the findings of the root actions, without repeats, in
// file, line and column order, and the analysis errors of every action.
func collect(g *checker.Graph) *results {
	res := &results{errPkgs: map[string]string{}}
	type key struct {
		posn, end token.Position
		msg       string
	}
	seen := map[key]bool{}
	seenErr := map[string]bool{}
	for act := range g.All() {
		if act.Err != nil {
			msg := act.Err.Error()
			if strings.HasPrefix(msg, "failed prerequisites") || len(act.Package.Errors) > 0 && act.Package.IllTyped {
				continue // the errors are printed where they happened
			}
			line := fmt.Sprintf("%s: %s: %v", name, act.Package.ID, msg)
			if !seenErr[line] {
				seenErr[line] = true
				res.errors = append(res.errors, line)
				res.errPkgs[pkgPath(act.Package.ID)] = msg
			}
			continue
		}
		if !act.IsRoot {
			continue
		}
		fset := act.Package.Fset
		for _, d := range act.Diagnostics {
			f := &finding{pkg: pkgPath(act.Package.ID), act: act, fset: fset, diag: d,
				posn: fset.Position(d.Pos), end: fset.Position(cmp.Or(d.End, d.Pos))}
			k := key{f.posn, f.end, d.Message}
			if seen[k] {
				continue
			}
			seen[k] = true
			res.findings = append(res.findings, f)
		}
	}
	slices.SortFunc(res.findings, func(a, b *finding) int {
		return cmp.Or(
			cmp.Compare(a.posn.Filename, b.posn.Filename),
			cmp.Compare(a.posn.Line, b.posn.Line),
			cmp.Compare(a.posn.Column, b.posn.Column),
			cmp.Compare(a.diag.Message, b.diag.Message))
	})
	slices.Sort(res.errors)
	return res
}

// printText prints the findings as go/analysis drivers do: file:line:col:
// message, with the related locations indented below, and with context
// lines if context >= 0.
func (res *results) printText(w io.Writer, context int) {
	for _, line := range res.errors {
		fmt.Fprintln(w, line)
	}
	print := func(fset *token.FileSet, pos, end token.Pos, msg string) {
		posn := fset.Position(pos)
		fmt.Fprintf(w, "%s: %s\n", posn, msg)
		if context < 0 {
			return
		}
		e := fset.Position(end)
		if !e.IsValid() {
			e = posn
		}
		data, _ := os.ReadFile(posn.Filename)
		lines := strings.Split(string(data), "\n")
		for i := posn.Line - context; i <= e.Line+context; i++ {
			if 1 <= i && i <= len(lines) {
				fmt.Fprintf(w, "%d\t%s\n", i, lines[i-1])
			}
		}
	}
	for _, f := range res.findings {
		print(f.fset, f.diag.Pos, f.diag.End, f.diag.Message)
		for _, r := range f.diag.Related {
			print(f.fset, r.Pos, r.End, "\t"+r.Message)
		}
	}
}

// The go/analysis JSON shape (x/tools internal/analysis/driverutil).
type jsonDiagnostic struct {
	Category       string             `json:"category,omitempty"`
	Posn           string             `json:"posn"`
	End            string             `json:"end"`
	Message        string             `json:"message"`
	SuggestedFixes []jsonSuggestedFix `json:"suggested_fixes,omitempty"`
	Related        []jsonRelated      `json:"related,omitempty"`
}

type jsonSuggestedFix struct {
	Message string     `json:"message"`
	Edits   []jsonEdit `json:"edits"`
}

type jsonEdit struct {
	Filename string `json:"filename"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
	New      string `json:"new"`
}

type jsonRelated struct {
	Posn    string `json:"posn"`
	End     string `json:"end"`
	Message string `json:"message"`
}

// printJSON prints the go/analysis JSON tree, {"pkg": {"lostupdate":
// [diagnostics]}}, with a package and its test variant under the package's
// path and each finding once.
func (res *results) printJSON(w io.Writer) {
	tree := map[string]map[string]any{}
	for path, msg := range res.errPkgs {
		tree[path] = map[string]any{name: struct {
			Err string `json:"error"`
		}{msg}}
	}
	diags := map[string][]jsonDiagnostic{}
	for _, f := range res.findings {
		if _, failed := res.errPkgs[f.pkg]; failed {
			continue
		}
		diags[f.pkg] = append(diags[f.pkg], toJSON(f))
	}
	for path, ds := range diags {
		tree[path] = map[string]any{name: ds}
	}
	data, err := json.MarshalIndent(tree, "", "\t")
	if err != nil {
		panic(err)
	}
	fmt.Fprintf(w, "%s\n", data)
}

func toJSON(f *finding) jsonDiagnostic {
	fset := f.fset
	d := jsonDiagnostic{
		Category: f.diag.Category,
		Posn:     f.posn.String(),
		End:      f.end.String(),
		Message:  f.diag.Message,
	}
	for _, fix := range f.diag.SuggestedFixes {
		jf := jsonSuggestedFix{Message: fix.Message}
		for _, e := range fix.TextEdits {
			jf.Edits = append(jf.Edits, jsonEdit{
				Filename: fset.Position(e.Pos).Filename,
				Start:    fset.Position(e.Pos).Offset,
				End:      fset.Position(e.End).Offset,
				New:      string(e.NewText),
			})
		}
		d.SuggestedFixes = append(d.SuggestedFixes, jf)
	}
	for _, r := range f.diag.Related {
		d.Related = append(d.Related, jsonRelated{
			Posn:    fset.Position(r.Pos).String(),
			End:     fset.Position(cmp.Or(r.End, r.Pos)).String(),
			Message: r.Message,
		})
	}
	return d
}

// printErrors prints the errors of the packages loaded from source (list,
// parse and type errors), each once, and returns how many there were.
func printErrors(w io.Writer, ld *loader) int {
	seen := map[string]bool{}
	var lines []string
	for _, n := range ld.nodes {
		if n.pkg == nil || !n.source {
			continue
		}
		errs := n.pkg.Errors
		for _, dep := range n.imports {
			if !dep.source && dep.lp.Error != nil {
				errs = append(errs, listErr(dep.lp.Error)) // why an import could not be loaded
			}
		}
		for _, e := range errs {
			if e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# ") && len(n.pkg.TypeErrors) > 0 {
				continue // the compiler's errors, which the type checker reports too
			}
			line := e.Msg
			if e.Pos != "" && e.Pos != "-" {
				line = e.Pos + ": " + e.Msg
			}
			if !seen[line] {
				seen[line] = true
				lines = append(lines, line)
			}
		}
	}
	slices.Sort(lines)
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
	return len(lines)
}

// firstFlagError reports whether this process is the first one of a go vet
// run to meet a flag error: go vet starts lostupdate once per package, with
// the same flags, and the error needs saying once. The processes of one run
// share their parent, the go command.
func firstFlagError(err error) bool {
	sum := sha256.Sum256([]byte(err.Error()))
	marker := filepath.Join(os.TempDir(), fmt.Sprintf("lostupdate-flag-error-%d-%x", os.Getppid(), sum[:6]))
	if fi, statErr := os.Stat(marker); statErr == nil && time.Since(fi.ModTime()) > 10*time.Minute {
		os.Remove(marker) // left by an earlier go command with the same process id
	}
	f, createErr := os.OpenFile(marker, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if createErr != nil {
		return !os.IsExist(createErr)
	}
	f.Close()
	return true
}
