package analyzer

import (
	"sort"
	"strings"
)

// rule is one of lostupdate's checks. Its documentation is the "# Rule name"
// section of doc.go.
type rule struct {
	name  string
	check func(*checker)
}

// rules are run in this order.
var rules = []rule{
	{"unconditional-update", checkUnconditionalUpdate},
	{"stale-retry", checkStaleRetry},
	{"missing-retry", checkMissingRetry},
	{"stale-read", checkStaleRead},
	{"unconditional-patch", checkUnconditionalPatch},
	{"opaque-rv", checkOpaqueRV},
	{"apply-retry", checkApplyRetry},
	{"unbounded-retry", checkUnboundedRetry},
	{"test-op-retry", checkTestOpRetry},
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
