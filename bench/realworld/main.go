// Command realworld checks lostupdate against judged findings on real
// repositories: it runs a lostupdate binary on a folder of checkouts of the
// repositories in manifest.tsv and prints, per set (tune, holdout) and rule,
// how many findings are TP, FP and NOISE by judgements.tsv, the hazards
// judged FN that are now found or still missed, and every finding that has
// no judgement yet.
//
//	go run ./bench/realworld -checkouts DIR [-bin lostupdate] [-only REPO,...]
//
// DIR holds one checkout per repository, named owner+name (as the search
// tool's fetch names them), at the commit of the manifest. A checkout at
// another commit is measured anyway, with a warning: its line numbers may
// not match the judgements.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/lostupdate/lostupdate/analyzer"
)

type repo struct {
	name, commit, set string
	dir               string   // module folder in the checkout, "." for the root
	patterns          []string // package patterns, default ./...
}

type key struct{ repo, at, rule string } // at is file:line

type judgement struct {
	verdict, why string
}

type finding struct {
	key
	msg string
}

func main() {
	checkouts := flag.String("checkouts", "", "folder of checkouts named owner+name (required)")
	bin := flag.String("bin", "", "lostupdate binary (default: built from this checkout)")
	only := flag.String("only", "", "comma-separated repositories to run (default: all in the manifest)")
	newOut := flag.String("new", "", "also write the unjudged findings to this file, as judgements.tsv rows with an empty verdict")
	flag.Parse()
	if *checkouts == "" {
		fmt.Fprintln(os.Stderr, "usage: realworld -checkouts DIR [-bin lostupdate] [-only REPO,...] [-new FILE]")
		os.Exit(2)
	}
	here := sourceDir()
	repos, err := readManifest(filepath.Join(here, "manifest.tsv"))
	check(err)
	judged, err := readJudgements(filepath.Join(here, "judgements.tsv"))
	check(err)
	if *bin == "" {
		*bin = buildLostupdate(here)
	}
	want := map[string]bool{}
	for _, r := range strings.Split(*only, ",") {
		if r != "" {
			want[r] = true
		}
	}

	var found []finding
	ran := map[string]bool{}
	for _, r := range repos {
		if len(want) > 0 && !want[r.name] {
			continue
		}
		co := filepath.Join(*checkouts, strings.ReplaceAll(r.name, "/", "+"))
		if _, err := os.Stat(co); err != nil {
			fmt.Fprintf(os.Stderr, "skip %s: no checkout at %s\n", r.name, co)
			continue
		}
		if head := gitHead(co); !strings.HasPrefix(head, r.commit) && !strings.HasPrefix(r.commit, head) {
			fmt.Fprintf(os.Stderr, "warning: %s is at %s, the manifest says %s\n", r.name, head, r.commit)
		}
		fs, err := run(*bin, co, r)
		if err != nil && len(fs) == 0 {
			fmt.Fprintf(os.Stderr, "skip %s: %v\n", r.name, err)
			continue
		}
		if err != nil {
			// Some packages did not load (a dependency the module proxy
			// does not serve, say): the others are still measured.
			fmt.Fprintf(os.Stderr, "warning: %s is measured in part: %v\n", r.name, err)
		}
		ran[r.name] = true
		found = append(found, fs...)
	}
	report(os.Stdout, repos, ran, found, judged)
	if *newOut != "" {
		check(writeNew(*newOut, found, judged))
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "realworld:", err)
		os.Exit(1)
	}
}

// sourceDir is the folder of this program's files, for `go run` from the
// repository root or from here.
func sourceDir() string {
	for _, d := range []string{"bench/realworld", "."} {
		if _, err := os.Stat(filepath.Join(d, "manifest.tsv")); err == nil {
			abs, _ := filepath.Abs(d)
			return abs
		}
	}
	check(fmt.Errorf("run from the repository root or bench/realworld"))
	return ""
}

func buildLostupdate(here string) string {
	tmp, err := os.MkdirTemp("", "realworld")
	check(err)
	out := filepath.Join(tmp, "lostupdate")
	cmd := exec.Command("go", "build", "-o", out, "./cmd/lostupdate")
	cmd.Dir = filepath.Join(here, "..", "..")
	cmd.Stderr = os.Stderr
	check(cmd.Run())
	return out
}

func gitHead(dir string) string {
	out, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}

func readTSV(path string, cols int) ([][]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rows [][]string
	for i, line := range strings.Split(string(data), "\n") {
		if i == 0 || strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue // header, blank, comment
		}
		f := strings.Split(line, "\t")
		if len(f) < cols {
			return nil, fmt.Errorf("%s:%d: %d columns, want %d", path, i+1, len(f), cols)
		}
		rows = append(rows, f)
	}
	return rows, nil
}

// manifest.tsv: repository, commit, set, module folder, patterns.
func readManifest(path string) ([]repo, error) {
	rows, err := readTSV(path, 5)
	if err != nil {
		return nil, err
	}
	var repos []repo
	for _, f := range rows {
		if f[2] != "tune" && f[2] != "holdout" {
			return nil, fmt.Errorf("%s: %s: set %q, want tune or holdout", path, f[0], f[2])
		}
		pats := strings.Fields(f[4])
		if len(pats) == 0 {
			pats = []string{"./..."}
		}
		repos = append(repos, repo{name: f[0], commit: f[1], set: f[2], dir: f[3], patterns: pats})
	}
	return repos, nil
}

// judgements.tsv: repository, file:line, rule, verdict, why.
func readJudgements(path string) (map[key]judgement, error) {
	rows, err := readTSV(path, 5)
	if err != nil {
		return nil, err
	}
	m := map[key]judgement{}
	for _, f := range rows {
		switch f[3] {
		case "TP", "FP", "NOISE", "FN":
		default:
			return nil, fmt.Errorf("%s: %s %s: verdict %q", path, f[0], f[1], f[3])
		}
		k := key{f[0], f[1], f[2]}
		if _, dup := m[k]; dup {
			return nil, fmt.Errorf("%s: %s %s %s judged twice", path, f[0], f[1], f[2])
		}
		m[k] = judgement{f[3], f[4]}
	}
	return m, nil
}

var isRule = map[string]bool{}

func init() {
	for _, r := range analyzer.RuleNames() {
		isRule[r] = true
	}
}

// line is one finding of lostupdate's text output: file:line:col: rule: message.
var line = regexp.MustCompile(`^(.+?):(\d+):\d+: ([a-z-]+): (.*)$`)

func run(bin, checkout string, r repo) ([]finding, error) {
	dir := filepath.Join(checkout, r.dir)
	cmd := exec.Command(bin, r.patterns...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 3 {
		err = nil // findings
	}
	var fs []finding
	seen := map[key]bool{}
	sc := bufio.NewScanner(&stderr)
	sc.Buffer(nil, 1<<20)
	var other []string
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m != nil && !isRule[m[3]] {
			m = nil // a compiler error, say "undefined: x"
		}
		if m == nil {
			if !strings.HasPrefix(sc.Text(), "\t") { // related information
				other = append(other, sc.Text())
			}
			continue
		}
		rel, relErr := filepath.Rel(checkout, absIn(dir, m[1]))
		if relErr != nil {
			rel = m[1]
		}
		k := key{r.name, rel + ":" + m[2], m[3]}
		if seen[k] {
			continue
		}
		seen[k] = true
		fs = append(fs, finding{k, m[4]})
	}
	if err != nil {
		return fs, fmt.Errorf("%v\n%s", err, strings.Join(head(other, 10), "\n"))
	}
	return fs, nil
}

func absIn(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

func head(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

type counts struct{ tp, fp, noise, unjudged, fnFound, fnMissed int }

func report(w io.Writer, repos []repo, ran map[string]bool, found []finding, judged map[key]judgement) {
	setOf := map[string]string{}
	for _, r := range repos {
		setOf[r.name] = r.set
	}
	type sk struct{ set, rule string }
	tab := map[sk]*counts{}
	get := func(set, rule string) *counts {
		k := sk{set, rule}
		if tab[k] == nil {
			tab[k] = &counts{}
		}
		return tab[k]
	}
	reported := map[key]bool{}
	var unjudged []finding
	var fnFound []string
	for _, f := range found {
		reported[f.key] = true
		c := get(setOf[f.repo], f.rule)
		switch judged[f.key].verdict {
		case "TP":
			c.tp++
		case "FP":
			c.fp++
		case "NOISE":
			c.noise++
		case "FN":
			c.fnFound++ // a miss judged earlier, reported now
			fnFound = append(fnFound, fmt.Sprintf("  %s %s %s", f.repo, f.at, f.rule))
		default:
			c.unjudged++
			unjudged = append(unjudged, f)
		}
	}
	var gone, fnMissed []string
	for k, j := range judged {
		if !ran[k.repo] || reported[k] {
			continue
		}
		if j.verdict == "FN" {
			get(setOf[k.repo], k.rule).fnMissed++
			fnMissed = append(fnMissed, fmt.Sprintf("  %s %s %s: %s", k.repo, k.at, k.rule, j.why))
		} else {
			gone = append(gone, fmt.Sprintf("  %s %s %s (was %s)", k.repo, k.at, k.rule, j.verdict))
		}
	}

	for _, set := range []string{"tune", "holdout"} {
		var names []string
		for _, r := range repos {
			if r.set == set && ran[r.name] {
				names = append(names, r.name)
			}
		}
		if len(names) == 0 {
			continue
		}
		fmt.Fprintf(w, "## %s: %s\n\n", set, strings.Join(names, ", "))
		fmt.Fprintln(w, "| rule | TP | FP | NOISE | unjudged | precision | noise share | FN found | FN missed |")
		fmt.Fprintln(w, "| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
		var rules []string
		for k := range tab {
			if k.set == set {
				rules = append(rules, k.rule)
			}
		}
		sort.Strings(rules)
		var total counts
		for _, rule := range append(rules, "all") {
			c := tab[sk{set, rule}]
			if rule == "all" {
				c = &total
			} else {
				total.tp += c.tp
				total.fp += c.fp
				total.noise += c.noise
				total.unjudged += c.unjudged
				total.fnFound += c.fnFound
				total.fnMissed += c.fnMissed
			}
			fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %s | %s | %d | %d |\n", rule, c.tp, c.fp, c.noise, c.unjudged,
				ratio(c.tp, c.tp+c.fp), ratio(c.noise, c.tp+c.fp+c.noise), c.fnFound, c.fnMissed)
		}
		fmt.Fprintln(w)
	}
	for _, l := range []struct {
		title string
		rows  []string
	}{{"Misses judged earlier, now found", fnFound}, {"Misses judged earlier, still missed", fnMissed}} {
		if len(l.rows) > 0 {
			sort.Strings(l.rows)
			fmt.Fprintf(w, "%s (%d):\n%s\n\n", l.title, len(l.rows), strings.Join(l.rows, "\n"))
		}
	}
	if len(gone) > 0 {
		sort.Strings(gone)
		fmt.Fprintf(w, "Judged findings no longer reported (%d):\n%s\n\n", len(gone), strings.Join(gone, "\n"))
	}
	if len(unjudged) > 0 {
		sort.Slice(unjudged, func(i, j int) bool { return less(unjudged[i].key, unjudged[j].key) })
		fmt.Fprintf(w, "Unjudged findings (%d):\n", len(unjudged))
		for _, f := range unjudged {
			fmt.Fprintf(w, "  %s %s %s: %s\n", f.repo, f.at, f.rule, f.msg)
		}
	}
}

func less(a, b key) bool {
	if a.repo != b.repo {
		return a.repo < b.repo
	}
	if a.at != b.at {
		return a.at < b.at
	}
	return a.rule < b.rule
}

func ratio(n, d int) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(n)/float64(d))
}

func writeNew(path string, found []finding, judged map[key]judgement) error {
	var b strings.Builder
	b.WriteString("repository\tfile:line\trule\tverdict\twhy\n")
	for _, f := range found {
		if _, ok := judged[f.key]; !ok {
			fmt.Fprintf(&b, "%s\t%s\t%s\t\t%s\n", f.repo, f.at, f.rule, f.msg)
		}
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
