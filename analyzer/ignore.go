package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"regexp"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Suppression directives. Two forms are understood, so that one comment
// works in every driver (the standalone command, go vet, golangci-lint):
//
//   - golangci-lint's //nolint in all its spellings: //nolint,
//     //nolint:all, //nolint:lostupdate, //nolint:errcheck,lostupdate // reason.
//     It covers every rule. Under golangci-lint (Config.NolintByDriver) the
//     Analyzer leaves these to golangci-lint, which drops the issues itself
//     and whose nolintlint reports the unused ones.
//   - //lostupdate:ignore rule[,rule] reason, which covers the rules named.
//     Like every Go directive it has no space after the slashes.
//
// A directive covers what golangci-lint's //nolint covers: the lines of the
// comment group that holds it, and, where the group ends on the line before
// a syntax node that starts in the group's column, that node's lines too (a
// directive on its own line above a statement covers the whole statement,
// above a function the whole function). A finding is covered when its line
// is.

// ignorePrefix starts the rule-specific directive.
const ignorePrefix = Name + ":ignore"

// Categories of the diagnostics about directives.
const (
	unusedDirective = "unused-directive"
	badDirective    = "bad-directive"
)

// nolintPattern is golangci-lint's test for a nolint comment, applied to the
// comment text without its leading slashes and spaces.
var nolintPattern = regexp.MustCompile(`^nolint( |:|$)`)

// A directive is one suppression comment.
type directive struct {
	pos, end token.Pos
	text     string   // the directive without its reason, for messages
	nolint   bool     // golangci-lint's form
	rules    []string // the rules it covers; nil: all of them
	mine     bool     // it names lostupdate or its rules, so it can be reported as unused
	others   bool     // a //nolint that also names other linters
	bad      string   // why a //lostupdate:ignore is malformed and suppresses nothing
	lines    [][2]int // the line ranges it covers
	used     bool     // it suppressed a finding
}

func (d *directive) covers(rule string, line int) bool {
	if d.bad != "" || (d.rules != nil && !contains(d.rules, rule)) {
		return false
	}
	for _, r := range d.lines {
		if r[0] <= line && line <= r[1] {
			return true
		}
	}
	return false
}

// parseDirective parses a comment; it returns nil for a comment that is not
// a directive for lostupdate, such as a //nolint that names other linters
// only. A bare //nolint or //nolint:all is returned with mine false and no
// rules: golangci-lint applies it to every linter, so it suppresses
// lostupdate's findings too, but it is not lostupdate's to report unused.
func parseDirective(comment string) *directive {
	if !strings.Contains(comment, "nolint") && !strings.Contains(comment, ignorePrefix) {
		return nil
	}
	body := strings.TrimLeft(comment, "/ ")
	switch {
	case nolintPattern.MatchString(body):
		d := &directive{nolint: true, text: "//nolint"}
		if strings.HasPrefix(body, "nolint:all") || !strings.HasPrefix(body, "nolint:") {
			return d // every linter
		}
		list, _, _ := strings.Cut(body, "//")
		list = strings.TrimSpace(list)
		d.text = "//" + list
		for _, item := range strings.Split(strings.TrimPrefix(list, "nolint:"), ",") {
			switch strings.ToLower(strings.TrimSpace(item)) {
			case "all":
				return &directive{nolint: true, text: d.text}
			case Name:
				d.mine = true
			default:
				d.others = true
			}
		}
		if !d.mine {
			return nil // for other linters only
		}
		return d
	case strings.HasPrefix(comment, "//"+ignorePrefix):
		// A Go directive: no space after the slashes, so that prose that
		// mentions one is not taken for one. A reason may follow "//".
		rest := comment[len("//"+ignorePrefix):]
		if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			return nil
		}
		rest, _, _ = strings.Cut(rest, "//")
		d := &directive{mine: true, text: "//" + ignorePrefix}
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			d.bad = "names no rule (write //" + ignorePrefix + " <rule> <reason>)"
			return d
		}
		d.text += " " + fields[0]
		for _, r := range strings.Split(fields[0], ",") {
			if r != "" {
				d.rules = append(d.rules, r) // checked by checkDirectives
			}
		}
		if d.rules == nil {
			d.bad = "names no rule (write //" + ignorePrefix + " <rule> <reason>)"
		}
		return d
	}
	return nil
}

// directiveIndex holds the directives of a package, by file.
type directiveIndex struct {
	byFile map[*token.File][]*directive
	all    []*directive
}

// directiveIndex returns the package's directives, indexed on first use.
func (ck *checker) directiveIndex() *directiveIndex {
	if ck.directives == nil {
		ck.directives = indexDirectives(ck.pass.Fset, ck.pass.Files, ck.cfg.NolintByDriver)
	}
	return ck.directives
}

// indexDirectives finds the directives of files and the lines each covers,
// the way golangci-lint's nolint filter does.
func indexDirectives(fset *token.FileSet, files []*ast.File, skipNolint bool) *directiveIndex {
	idx := &directiveIndex{byFile: map[*token.File][]*directive{}}
	// A group is a comment group's lines and column, with the directives
	// in it. golangci-lint extends a nolint range to a node only from the
	// first nolint comment that matches it, including nolints for other
	// linters (other is true for those); each //lostupdate:ignore is
	// extended on its own.
	type group struct {
		from, to, col int
		d             *directive
		other         bool
	}
	for _, f := range files {
		tf := fset.File(f.Pos())
		if tf == nil {
			continue
		}
		var nolints, ignores []group
		for _, cg := range f.Comments {
			from, to := tf.Line(cg.Pos()), tf.Line(cg.End())
			col := fset.PositionFor(cg.Pos(), false).Column
			for _, c := range cg.List {
				d := parseDirective(c.Text)
				if d == nil && strings.Contains(c.Text, "nolint") && nolintPattern.MatchString(strings.TrimLeft(c.Text, "/ ")) {
					nolints = append(nolints, group{from: from, to: to, col: col, other: true})
				}
				if d == nil || (d.nolint && skipNolint) {
					continue
				}
				d.pos, d.end = c.Pos(), c.End()
				d.lines = [][2]int{{from, to}}
				idx.byFile[tf] = append(idx.byFile[tf], d)
				idx.all = append(idx.all, d)
				g := group{from: from, to: to, col: col, d: d}
				if d.nolint {
					nolints = append(nolints, g)
				} else {
					ignores = append(ignores, g)
				}
			}
		}
		if len(idx.byFile[tf]) == 0 {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil || !n.Pos().IsValid() {
				return true
			}
			start := fset.PositionFor(n.Pos(), false)
			end := tf.Line(n.End())
			extend := func(g group) {
				if g.d != nil && g.d.lines[0][1] < end {
					g.d.lines = append(g.d.lines, [2]int{g.from, end})
				}
			}
			for _, g := range nolints {
				if g.to == start.Line-1 && g.col == start.Column {
					extend(g)
					break
				}
			}
			for _, g := range ignores {
				if g.to == start.Line-1 && g.col == start.Column {
					extend(g)
				}
			}
			return true
		})
	}
	return idx
}

// suppressed reports whether a finding of rule at pos is suppressed by a
// directive, and marks the directives that suppress it as used.
func (ck *checker) suppressed(rule string, pos token.Pos) bool {
	tf := ck.pass.Fset.File(pos)
	if tf == nil {
		return false
	}
	line := tf.Line(pos)
	hit := false
	for _, d := range ck.directiveIndex().byFile[tf] {
		if d.covers(rule, line) {
			d.used = true
			hit = true
		}
	}
	return hit
}

// checkDirectives reports, once the rules have run, the directives that
// cannot suppress anything, and (with ReportUnusedDirectives) those that
// suppressed no finding although every rule they cover ran.
func (ck *checker) checkDirectives() {
	for _, d := range ck.directiveIndex().all {
		if !ck.cfg.Tests && ck.inTestCode(d.pos) {
			continue // nothing is reported in test code
		}
		unknown := ""
		for _, r := range d.rules {
			if ruleByName(r) == nil {
				unknown = r
				break
			}
		}
		switch {
		case d.bad != "":
			ck.pass.Report(analysis.Diagnostic{
				Pos:      d.pos,
				End:      d.end,
				Category: badDirective,
				Message:  fmt.Sprintf("%s: %s %s; it suppresses nothing", badDirective, d.text, d.bad),
			})
		case unknown != "":
			// The known rules it names, if any, are still suppressed.
			ck.pass.Report(analysis.Diagnostic{
				Pos:      d.pos,
				End:      d.end,
				Category: badDirective,
				Message: fmt.Sprintf("%s: %s names unknown rule %q; fix or remove it (known rules: %s)",
					badDirective, d.text, unknown, strings.Join(RuleNames(), ", ")),
			})
		case ck.cfg.ReportUnusedDirectives && d.mine && !d.used && ck.allEnabled(d.rules):
			var msg string
			switch {
			case d.nolint && d.others:
				msg = fmt.Sprintf("%s suppresses no finding of %s; remove %s from it", d.text, Name, Name)
			case d.nolint:
				msg = fmt.Sprintf("%s suppresses no finding; remove it", d.text)
			default:
				msg = fmt.Sprintf("%s suppresses no %s finding; remove it", d.text, strings.Join(d.rules, " or "))
			}
			ck.pass.Report(analysis.Diagnostic{
				Pos:      d.pos,
				End:      d.end,
				Category: unusedDirective,
				Message:  unusedDirective + ": " + msg,
			})
		}
	}
}

// allEnabled reports whether every rule of a list (nil: all rules) runs.
func (ck *checker) allEnabled(list []string) bool {
	if list == nil {
		list = RuleNames()
	}
	for _, r := range list {
		if !ck.cfg.enabled(r) {
			return false
		}
	}
	return true
}
