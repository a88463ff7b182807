package analyzer_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lostupdate/lostupdate/analyzer"
)

var update = flag.Bool("update", false, "rewrite the generated section of README.md")

const (
	rulesBegin = "<!-- rules:begin: generated from analyzer/doc.go by `go test ./analyzer -run TestREADME -update`; do not edit -->"
	rulesEnd   = "<!-- rules:end -->"
)

// rulesMarkdown renders the rule documentation of doc.go for the README: a
// table, then a section per rule with its tab-indented example as Go code.
func rulesMarkdown() string {
	var b strings.Builder
	b.WriteString("| rule | finds |\n| --- | --- |\n")
	for _, d := range analyzer.RuleDocs() {
		b.WriteString("| [`" + d.Name + "`](#" + d.Name + ") | " + d.Summary + " |\n")
	}
	for _, d := range analyzer.RuleDocs() {
		b.WriteString("\n### " + d.Name + "\n\n" + d.Summary + "\n\n")
		inCode := false
		for _, line := range strings.Split(d.Body, "\n") {
			code := strings.HasPrefix(line, "\t")
			switch {
			case code && !inCode:
				b.WriteString("```go\n")
				inCode = true
			case !code && inCode && line != "":
				b.WriteString("```\n\n")
				inCode = false
			}
			if code {
				line = line[1:]
			}
			if inCode && line == "" {
				continue
			}
			b.WriteString(line + "\n")
		}
		if inCode {
			b.WriteString("```\n")
		}
	}
	return b.String()
}

// TestREADME fails when the README's rule documentation differs from doc.go,
// the one source of the docs (it is also the Analyzer's Doc, shown by -help).
func TestREADME(t *testing.T) {
	path := filepath.Join("..", "README.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	i, j := strings.Index(readme, rulesBegin), strings.Index(readme, rulesEnd)
	if i < 0 || j < i {
		t.Fatalf("README.md has no generated rules section (%q ... %q)", rulesBegin, rulesEnd)
	}
	want := rulesBegin + "\n\n" + rulesMarkdown() + "\n" + rulesEnd
	got := readme[i : j+len(rulesEnd)]
	if got == want {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(readme[:i]+want+readme[j+len(rulesEnd):]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's rules section is out of date with analyzer/doc.go; run: go test ./analyzer -run TestREADME -update")
}

// TestDoc checks that every rule has documentation and the Analyzer's Doc
// has the go/analysis form (a one-line summary first).
func TestDoc(t *testing.T) {
	docs := analyzer.RuleDocs()
	names := analyzer.RuleNames()
	if len(docs) != len(names) {
		t.Fatalf("doc.go documents %d rules, the analyzer has %d", len(docs), len(names))
	}
	for i, d := range docs {
		if d.Name != names[i] {
			t.Errorf("doc.go rule %d is %q, want %q", i, d.Name, names[i])
		}
		if d.Summary == "" || d.Body == "" || !strings.Contains(d.Body, "Fix:") {
			t.Errorf("rule %s: documentation needs a summary, a body and a Fix", d.Name)
		}
	}
	first, _, _ := strings.Cut(analyzer.Analyzer.Doc, "\n")
	if !strings.HasPrefix(first, "lostupdate: ") {
		t.Errorf("Doc's first line %q should be the one-line summary", first)
	}
	for _, n := range names {
		if !strings.Contains(analyzer.Analyzer.Doc, "# Rule "+n) {
			t.Errorf("Analyzer.Doc does not cover rule %s", n)
		}
	}
}
