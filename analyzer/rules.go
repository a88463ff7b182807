package analyzer

import (
	"go/token"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lostupdate/lostupdate/analyzer/internal/flow"
	"github.com/lostupdate/lostupdate/analyzer/internal/rv"
	"github.com/lostupdate/lostupdate/analyzer/internal/writes"
)

// rule is one of lostupdate's checks: a function that decides, from one
// record the analysis built, whether to report and what. Its documentation
// is the "# Rule name" section of doc.go.
//
// A rule has one of the two: write decides on one write call of the
// package, rv on one finding of the resourceVersion analysis; fed, besides
// write, on one object given to a helper that computes the patch it sends
// from it. The framework (checker.runRules) loops over the records, keeps
// the function being looked at for internal errors, and reports what the
// rule returns under its name.
type rule struct {
	name  string
	write func(ck *checker, w *writes.Write) []finding
	fed   func(ck *checker, f flow.FedArg) []finding
	rv    func(ck *checker, f *rv.Finding) []finding
}

// finding is one diagnostic a rule decides on; the framework adds the
// rule's name.
type finding struct {
	pos, end token.Pos
	msg      string
	related  []analysis.RelatedInformation
	fixes    []analysis.SuggestedFix
}

// rules are run in this order.
var rules = []rule{
	{name: "unconditional-update", write: checkUnconditionalUpdate},
	{name: "stale-retry", write: checkStaleRetry},
	{name: "missing-retry", write: checkMissingRetry},
	{name: "stale-read", write: checkStaleRead, fed: checkStaleReadFed},
	{name: "unconditional-patch", write: checkUnconditionalPatch},
	{name: "opaque-rv", rv: checkOpaqueRV},
	{name: "apply-retry", write: checkApplyRetry},
	{name: "unbounded-retry", write: checkUnboundedRetry},
	{name: "test-op-retry", write: checkTestOpRetry},
}

// runRules runs every enabled rule, one after the other, on the records it
// reads. A rule sees every record before the next rule starts, so that the
// fields of a record the rules share are computed in the order of the
// rules, once.
func (ck *checker) runRules() {
	for _, r := range rules {
		if !ck.cfg.enabled(r.name) {
			continue
		}
		switch {
		case r.write != nil && ck.flow != nil: // out of scope, a package has no writes
			for _, w := range ck.writes().All {
				if ck.flow.Uncalled(w.Call.Parent()) {
					continue // code that never runs loses no update
				}
				ck.current = w.Call.Parent()
				ck.reportAll(r.name, r.write(ck, w))
			}
			if r.fed != nil {
				for _, f := range ck.flow.FedCalls() {
					if ck.flow.Uncalled(f.Call.Parent()) {
						continue
					}
					ck.current = f.Call.Parent()
					ck.reportAll(r.name, r.fed(ck, f))
				}
			}
		case r.rv != nil:
			ck.current = nil
			for _, f := range ck.rvResult().Findings {
				if ck.flow != nil && ck.flow.Uncalled(f.Instr.Parent()) {
					continue
				}
				ck.current = f.Instr.Parent()
				ck.reportAll(r.name, r.rv(ck, f))
			}
		}
		ck.current = nil
	}
}

func (ck *checker) reportAll(rule string, fs []finding) {
	for _, f := range fs {
		ck.report(rule, f.pos, f.end, f.msg, f.related, f.fixes...)
	}
}

func ruleByName(name string) *rule {
	for i := range rules {
		if rules[i].name == name {
			return &rules[i]
		}
	}
	return nil
}

// RuleNames returns the names of all rules, in documentation order.
func RuleNames() []string {
	names := make([]string, len(rules))
	for i, r := range rules {
		names[i] = r.name
	}
	return names
}

// RuleDoc is the documentation of one rule, from doc.go.
type RuleDoc struct {
	Name    string
	Summary string // one sentence
	Body    string // the rest: hazard, example (tab-indented), fix
}

// RuleDocs returns the documentation of every rule, in the order of doc.go.
func RuleDocs() []RuleDoc {
	text := docComment(docSource)
	parts := strings.Split(text, "\n# Rule ")
	var docs []RuleDoc
	for _, part := range parts[1:] {
		name, rest, _ := strings.Cut(part, "\n")
		rest = strings.TrimSpace(rest)
		summary, body, _ := strings.Cut(rest, "\n\n")
		docs = append(docs, RuleDoc{
			Name:    strings.TrimSpace(name),
			Summary: strings.Join(strings.Fields(summary), " "),
			Body:    strings.TrimSpace(body),
		})
	}
	sort.SliceStable(docs, func(i, j int) bool { return ruleIndex(docs[i].Name) < ruleIndex(docs[j].Name) })
	return docs
}

func ruleIndex(name string) int {
	for i, r := range rules {
		if r.name == name {
			return i
		}
	}
	return len(rules)
}
