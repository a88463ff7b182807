package analyzer

import (
	"flag"
	"fmt"
	"sort"
	"strings"
)

// Config configures a lostupdate Analyzer. The zero Config runs every rule
// in the default mode.
type Config struct {
	// Rules are the rules to run, by name; empty means all of them.
	Rules []string
	// Disable are rules not to run, by name.
	Disable []string
	// StrictPatch makes unconditional-patch report every patch that is not
	// Server-Side Apply and carries no precondition, not only
	// read-modify-write patches.
	StrictPatch bool
	// RetryHelpers are the full names of the user's own conflict-retry
	// helpers, as types.Func.FullName spells them
	// ("example.com/pkg/kube.RetryOnConflict", "(*example.com/pkg.Client).Retry"):
	// every function argument they take runs inside a conflict retry.
	// Helpers that wrap retry.RetryOnConflict and the like are found without
	// this; it is for helpers whose retry the analyzer cannot see.
	RetryHelpers []string
	// SafeWriters are the full names of the user's write wrappers known to
	// be safe (they retry or precondition on their own): calls of them are
	// not treated as writes, and nothing inside them is reported.
	SafeWriters []string
	// ReportUnusedDirectives reports suppression directives
	// (//nolint:lostupdate, //lostupdate:ignore) that suppress no finding,
	// under the category "unused-directive", so that stale ones get removed.
	// A directive is only reported when every rule it covers runs.
	ReportUnusedDirectives bool
	// NolintByDriver leaves //nolint directives to the driver that runs the
	// Analyzer: golangci-lint drops the issues under them itself, and its
	// nolintlint reports the ones that match no issue, which it could not
	// if the Analyzer had already dropped the findings. //lostupdate:ignore
	// directives are still applied. Set by the golangci-lint plugin; no flag.
	NolintByDriver bool
	// OmitRelated reports findings without their related information.
	// golangci-lint turns each related location into an issue of its own,
	// which a //nolint on the finding does not cover and which can hide
	// another linter's issue on the same line. Set by the golangci-lint
	// plugin; no flag.
	OmitRelated bool
	// Tests reports findings in test code too. Test code is a file named
	// *_test.go, a file that imports testing or a test framework
	// (ginkgo, gomega, testify), or a package in a test directory of its
	// module (model.IsTestSupportDir: test/framework, test/e2e/fixture).
	// Without it those files are analysed all the same (a helper there
	// still has its summary) but nothing in them is reported, the way
	// gosec leaves tests out without -tests: a lost update in a test loses
	// no one's data. Writes through fake clients are never reported.
	Tests bool
	// ReportSkipped reports, under the category "skipped", what lostupdate
	// leaves out of its analysis and why: each function skipped for its
	// size. (Not named debug: the drivers have a -debug flag of their own.)
	ReportSkipped bool
}

// Validate reports the first problem with a configuration, naming the field.
func (c Config) Validate() error {
	for _, field := range []struct {
		name  string
		rules []string
	}{{"rules", c.Rules}, {"disable", c.Disable}} {
		for _, r := range field.rules {
			if ruleByName(r) == nil {
				return fmt.Errorf("%s: unknown rule %q (known rules: %s)", field.name, r, strings.Join(RuleNames(), ", "))
			}
		}
	}
	for _, field := range []struct {
		name  string
		names []string
	}{{"retry-helpers", c.RetryHelpers}, {"safe-writers", c.SafeWriters}} {
		for _, n := range field.names {
			if err := validFuncName(n); err != nil {
				return fmt.Errorf("%s: %v", field.name, err)
			}
		}
	}
	return nil
}

// validFuncName checks the form of a full function name:
// "path/to/pkg.Func", "(path/to/pkg.Type).Method" or "(*path/to/pkg.Type).Method".
func validFuncName(n string) error {
	bad := fmt.Errorf("%q is not a full function name such as example.com/pkg.Func or (*example.com/pkg.Type).Method", n)
	if n == "" || strings.ContainsAny(n, " \t") {
		return bad
	}
	if strings.HasPrefix(n, "(") {
		end := strings.Index(n, ").")
		if end < 0 || end+2 == len(n) || !strings.Contains(n[:end], ".") {
			return bad
		}
		return nil
	}
	dot := strings.LastIndex(n, ".")
	if dot <= 0 || dot == len(n)-1 || strings.LastIndex(n, "/") > dot {
		return bad
	}
	return nil
}

// enabled reports whether a rule runs.
func (c *Config) enabled(rule string) bool {
	if len(c.Rules) > 0 && !contains(c.Rules, rule) {
		return false
	}
	return !contains(c.Disable, rule)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func set(list []string) map[string]bool {
	m := make(map[string]bool, len(list))
	for _, s := range list {
		m[s] = true
	}
	return m
}

// bindFlags registers the configuration's flags on fs; the flags write into c.
func (c *Config) bindFlags(fs *flag.FlagSet) {
	fs.Var(&listFlag{list: &c.Rules, check: checkRules}, "rules",
		"comma-separated rules to run (default: all): "+strings.Join(RuleNames(), ", "))
	fs.Var(&listFlag{list: &c.Disable, check: checkRules}, "disable",
		"comma-separated rules not to run")
	fs.BoolVar(&c.StrictPatch, "strict-patch", c.StrictPatch,
		"unconditional-patch: report every non-apply patch without a precondition")
	fs.Var(&listFlag{list: &c.RetryHelpers, check: validFuncName}, "retry-helpers",
		"comma-separated full names of your own conflict-retry helpers, e.g. example.com/kube.Retry")
	fs.Var(&listFlag{list: &c.SafeWriters, check: validFuncName}, "safe-writers",
		"comma-separated full names of write wrappers known to be safe, e.g. (*example.com/kube.Client).SafeUpdate")
	fs.BoolVar(&c.ReportUnusedDirectives, "report-unused-directives", c.ReportUnusedDirectives,
		"report //nolint:lostupdate and //lostupdate:ignore directives that suppress no finding")
	fs.BoolVar(&c.Tests, "tests", c.Tests,
		"report findings in test code too: *_test.go files, files that import testing or a test framework, and packages in test directories (test/..., e2e/...)")
	fs.BoolVar(&c.ReportSkipped, "report-skipped", c.ReportSkipped,
		"report each function not analysed and why (its size), under the category skipped")
}

func checkRules(name string) error {
	if name == "all" || ruleByName(name) != nil {
		return nil
	}
	return fmt.Errorf("unknown rule %q (known rules: %s)", name, strings.Join(RuleNames(), ", "))
}

// listFlag is a comma-separated list flag.
type listFlag struct {
	list  *[]string
	check func(string) error
}

func (f *listFlag) String() string {
	if f == nil || f.list == nil {
		return ""
	}
	return strings.Join(*f.list, ",")
}

func (f *listFlag) Set(s string) error {
	var out []string
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if err := f.check(item); err != nil {
			return err
		}
		if item == "all" {
			out = nil
			continue
		}
		out = append(out, item)
	}
	sort.Strings(out)
	*f.list = out
	return nil
}
