package e2e_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGolangciSettings checks that the plugin's settings take effect, and
// that a bad setting stops golangci-lint with a message naming it.
func TestGolangciSettings(t *testing.T) {
	base := exampleFindings(t)
	gcl := customGCL(t)
	rule := base[0].rule
	t.Run("disable", func(t *testing.T) {
		fs, _, _ := golangci(t, gcl, example, gclConfig(t, "disable: ["+rule+"]"), nil, "./...")
		want := without(base, func(f finding) bool { return f.rule == rule })
		sameFindings(t, want, map[string][]finding{"golangci-lint with disable: [" + rule + "]": fs})
	})
	// .golangci.example.yml shows every setting with its default: it gives
	// the findings of the default configuration. (Its linters, and the
	// standard ones it does not turn off, are limited to lostupdate and
	// nolintlint, which has nothing to report on the example.)
	t.Run("example config", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "issues.json")
		r := run(t, example, nil, gcl, "run", "--allow-parallel-runners", "-c", filepath.Join(root, ".golangci.example.yml"),
			"--enable-only=lostupdate,nolintlint", "--path-mode=abs", "--output.json.path="+out, "./...")
		if r.code != 1 {
			t.Fatalf("exit %d, want 1 (issues):\n%s%s", r.code, r.stdout, r.stderr)
		}
		fs, others := parseGolangci(t, example, out)
		sameFindings(t, base, map[string][]finding{"golangci-lint with .golangci.example.yml": fs})
		if len(others) > 0 {
			t.Errorf("issues of other linters: %+v", others)
		}
	})
	for _, tc := range []struct{ name, settings, want string }{
		{"unknown rule", "disable: [no-such-rule]", `lostupdate settings: disable: unknown rule "no-such-rule" (known rules: `},
		{"unknown setting", "disabled: [" + rule + "]", `lostupdate settings: unknown setting "disabled" (known settings: rules, disable, `},
		{"bad value", `strict-patch: "yes"`, `lostupdate settings: strict-patch: got a string, want true or false`},
		{"bad function name", "retry-helpers: [RetryOnConflict]", `lostupdate settings: retry-helpers: "RetryOnConflict" is not a full function name`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, example, nil, gcl, "run", "--allow-parallel-runners", "-c", gclConfig(t, tc.settings), "./...")
			if r.code == 0 || r.code == 1 {
				t.Errorf("exit %d, want golangci-lint to fail on the bad setting", r.code)
			}
			if !strings.Contains(r.stdout+r.stderr, tc.want) {
				t.Errorf("output does not say %q:\n%s%s", tc.want, r.stdout, r.stderr)
			}
		})
	}
}

// TestSuppressionEverywhere puts a //nolint:lostupdate and a
// //lostupdate:ignore on two findings of a copy of the example, and an
// unused //nolint:lostupdate elsewhere: every driver drops the two
// findings; the standalone command reports the unused directive with
// -report-unused-directives, and golangci-lint's nolintlint reports it, but
// not the used one (the plugin leaves //nolint to golangci-lint).
func TestSuppressionEverywhere(t *testing.T) {
	base := exampleFindings(t)
	gcl := customGCL(t)

	dir := t.TempDir()
	work := filepath.Join(dir, "example")
	copyTree(t, example, work, nil)
	// The example's go.mod replaces lostupdate with ../ (it runs it as a tool).
	if err := copyFile(filepath.Join(root, "go.mod"), filepath.Join(dir, "go.mod")); err != nil {
		t.Fatal(err)
	}

	files := map[string][]string{}
	lines := func(file string) []string {
		if files[file] == nil {
			data, err := os.ReadFile(filepath.Join(work, file))
			if err != nil {
				t.Fatal(err)
			}
			files[file] = strings.Split(string(data), "\n")
		}
		return files[file]
	}
	// Two findings on lines of their own without a comment.
	var picked []finding
	for _, f := range base {
		if len(picked) == 2 {
			break
		}
		if strings.Contains(lines(f.file)[f.line-1], "//") || (len(picked) == 1 && picked[0].file == f.file && picked[0].line == f.line) {
			continue
		}
		picked = append(picked, f)
	}
	if len(picked) < 2 {
		t.Fatalf("the example has fewer than two findings on lines without comments:\n%s", format(base))
	}
	nolinted, ignored := picked[0], picked[1]
	lines(nolinted.file)[nolinted.line-1] += " //nolint:lostupdate // e2e: suppressed"
	lines(ignored.file)[ignored.line-1] += " //lostupdate:ignore " + ignored.rule + " e2e: suppressed"
	// An unused directive, on the package clause of the first file.
	unused := finding{file: nolinted.file, rule: "unused-directive"}
	for i, l := range lines(nolinted.file) {
		if strings.HasPrefix(l, "package ") {
			lines(nolinted.file)[i] += " //nolint:lostupdate // e2e: suppresses nothing"
			unused.line = i + 1
			break
		}
	}
	for file, ls := range files {
		if err := os.WriteFile(filepath.Join(work, file), []byte(strings.Join(ls, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := without(base, func(f finding) bool { return f == nolinted || f == ignored })

	std, _ := standalone(t, work, nil, "-report-unused-directives", "./...")
	sameFindings(t, sorted(append(append([]finding{}, want...), unused)), map[string][]finding{"lostupdate -report-unused-directives": std})
	// Without the flag, which TestGoVet passes through: a go vet flag makes
	// go vet analyse every dependency again, for minutes.
	vetted, _ := vet(t, work, nil, "./...")
	sameFindings(t, want, map[string][]finding{"go vet": vetted})

	fs, others, _ := golangci(t, gcl, work, gclConfig(t, "", "nolintlint"), nil, "./...")
	sameFindings(t, want, map[string][]finding{"golangci-lint": fs})
	if len(others) != 1 || others[0].FromLinter != "nolintlint" || relFile(t, work, others[0].Pos.Filename) != unused.file || others[0].Pos.Line != unused.line {
		t.Errorf("golangci-lint's other issues: %+v\nwant one of nolintlint, the unused directive at %s:%d", others, unused.file, unused.line)
	}
}

// TestGolangciCacheNotStale changes the plugin (a rule stops reporting),
// rebuilds golangci-lint the way the README says and runs it with the cache
// of the run before: the results are the new plugin's. golangci-lint
// salts its cache with its version string, which carries a hash of the
// plugin's source; a control build of the same changed source with the old
// version string gets the old, cached results.
func TestGolangciCacheNotStale(t *testing.T) {
	base := exampleFindings(t) // cached by golangci-lint
	customGCL(t)
	rule := base[0].rule
	want := without(base, func(f finding) bool { return f.rule == rule })

	dir := t.TempDir()
	mod := filepath.Join(dir, "lostupdate")
	copyTree(t, root, mod, rootModuleOnly)
	// The change: the plugin registers itself again, with the rule disabled
	// whatever the settings say (only exported names are used, so that
	// the test does not depend on the analyzer's internals).
	change := fmt.Sprintf(`package plugin

import "github.com/golangci/plugin-module-register/register"

// Written by the e2e test: the plugin changes, and %[1]s reports nothing.
func init() {
	register.Plugin(Name, func(any) (register.LinterPlugin, error) {
		return New(map[string]any{"disable": []any{%[1]q}})
	})
}
`, rule)
	if err := os.WriteFile(filepath.Join(mod, "plugin", "zz_e2e_change.go"), []byte(change), 0o644); err != nil {
		t.Fatal(err)
	}

	changed := filepath.Join(dir, "custom-gcl")
	if v := buildGCL(t, mod, changed, ""); v == gclVersion {
		t.Fatalf("the version %s did not change with the plugin's source", v)
	}
	fs, _, _ := golangci(t, changed, example, gclConfig(t, ""), nil, "./...")
	sameFindings(t, want, map[string][]finding{"golangci-lint rebuilt after the change": fs})

	control := filepath.Join(dir, "custom-gcl-old-version")
	buildGCL(t, mod, control, gclVersion)
	fs, _, _ = golangci(t, control, example, gclConfig(t, ""), nil, "./...")
	sameFindings(t, base, map[string][]finding{"golangci-lint rebuilt with the old version string (control: cached results)": fs})
}
