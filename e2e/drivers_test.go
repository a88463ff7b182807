package e2e_test

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/lostupdate/lostupdate/analyzer"
)

// golangciVersion is the golangci-lint release the plugin is built into;
// go.mod requires it.
const golangciVersion = "v2.15.0"

var (
	gclOnce    sync.Once
	gclErr     error
	gclVersion string
)

// customGCL builds golangci-lint with the plugin of the checkout, once per
// test process, the way the README says: scripts/custom-gcl.
func customGCL(t *testing.T) string {
	t.Helper()
	path := filepath.Join(bin, "custom-gcl")
	gclOnce.Do(func() {
		gclErr = fmt.Errorf("building golangci-lint failed")
		gclVersion = buildGCL(t, root, path, "")
		gclErr = nil
	})
	if gclErr != nil {
		t.Fatal(gclErr)
	}
	return path
}

// buildGCL builds golangci-lint into out with scripts/custom-gcl, with the
// plugin of the lostupdate module in src, and returns its version: the
// golangci-lint release and a hash of the plugin's source, unless version
// is given.
func buildGCL(t *testing.T, src, out, version string) string {
	t.Helper()
	env := []string{"LOSTUPDATE_SRC=" + src}
	if version != "" {
		env = append(env, "GCL_VERSION="+version)
	}
	r := mustRun(t, root, env, filepath.Join(root, "scripts", "custom-gcl"), out)
	_, got, ok := strings.Cut(strings.TrimSpace(r.stdout), ": golangci-lint ")
	if !ok || !strings.HasPrefix(got, golangciVersion+"-custom-gcl-") && version == "" {
		t.Fatalf("scripts/custom-gcl printed %q, want the path and the version", r.stdout)
	}
	// It is golangci-lint of the pinned release, with lostupdate from a
	// directory.
	deps := mustRun(t, root, nil, "go", "version", "-m", out).stdout
	for _, want := range []string{"github.com/golangci/golangci-lint/v2\t" + golangciVersion, "github.com/lostupdate/lostupdate\tv0.0.0\n\t=>\t"} {
		if !strings.Contains(deps, want) {
			t.Fatalf("%s does not link %q:\n%s", out, want, deps)
		}
	}
	if v := mustRun(t, root, nil, out, "version").stdout; !strings.Contains(v, "version "+got+" ") {
		t.Errorf("%s version: %q, want version %s", out, v, got)
	}
	return got
}

// gclConfig writes a golangci-lint configuration that runs lostupdate with
// the given settings (YAML, indented by two spaces per level from the
// settings key) and the other linters named, and returns its path.
// Everything else is chosen so that every issue shows: no limits per linter
// or per text, and more than one issue per line.
func gclConfig(t *testing.T, settings string, linters ...string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`version: "2"
linters:
  default: none
  enable:
    - lostupdate
`)
	for _, l := range linters {
		b.WriteString("    - " + l + "\n")
	}
	b.WriteString(`  settings:
    custom:
      lostupdate:
        type: module
        description: finds Kubernetes writes that can lose updates
`)
	if settings != "" {
		b.WriteString("        settings:\n")
		for _, line := range strings.Split(strings.TrimSpace(settings), "\n") {
			b.WriteString("          " + line + "\n")
		}
	}
	b.WriteString(`issues:
  max-issues-per-linter: 0
  max-same-issues: 0
  uniq-by-line: false
`)
	path := filepath.Join(t.TempDir(), ".golangci.yml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// golangci runs a golangci-lint binary with a configuration in module.
func golangci(t *testing.T, gcl, module, config string, env []string, patterns ...string) (lostupdate []finding, others []gclIssue, r result) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "issues.json")
	args := append([]string{"run", "--allow-parallel-runners", "-c", config, "--path-mode=abs", "--output.json.path=" + out, "--output.text.path=stdout", "--output.text.print-issued-lines=false"}, patterns...)
	r = run(t, module, env, gcl, args...)
	if r.code != 0 && r.code != 1 {
		t.Fatalf("golangci-lint failed (exit %d):\n%s%s", r.code, r.stdout, r.stderr)
	}
	lostupdate, others = parseGolangci(t, module, out)
	if want := exitFor(len(lostupdate)+len(others), 1); r.code != want {
		t.Errorf("golangci-lint exit %d with %d issues, want %d", r.code, len(lostupdate)+len(others), want)
	}
	return lostupdate, others, r
}

// exitFor is the exit code a driver must give: code when there are findings.
func exitFor(findings, code int) int {
	if findings > 0 {
		return code
	}
	return 0
}

// standalone runs the lostupdate command in module.
func standalone(t *testing.T, module string, env []string, args ...string) ([]finding, result) {
	t.Helper()
	r := run(t, module, env, lostupdateBinary(t), args...)
	if r.code == 1 {
		t.Fatalf("lostupdate could not analyse the packages:\n%s", r.stderr)
	}
	fs := parseText(t, module, r.stderr)
	if want := exitFor(len(fs), 3); r.code != want {
		t.Errorf("lostupdate exit %d with %d findings, want %d\n%s", r.code, len(fs), want, r.stderr)
	}
	return fs, r
}

// vet runs go vet with lostupdate as its tool in module; vetArgs go between
// -vettool and the packages.
func vet(t *testing.T, module string, env []string, args ...string) ([]finding, result) {
	t.Helper()
	r := run(t, module, env, "go", append([]string{"vet", "-vettool=" + lostupdateBinary(t)}, args...)...)
	fs := parseText(t, module, r.stderr)
	if want := exitFor(len(fs), 1); r.code != want {
		t.Errorf("go vet exit %d with %d findings, want %d\n%s", r.code, len(fs), want, r.stderr)
	}
	if len(fs) == 0 && r.code != 0 {
		t.Fatalf("go vet failed:\n%s", r.stderr)
	}
	return fs, r
}

// drivers are the findings of the three drivers on one module.
type drivers struct {
	standalone, vet, golangci []finding
}

// runDrivers runs the drivers on the packages of module with their default
// configuration and checks that they agree: the standalone command,
// golangci-lint, and go vet if withVet.
func runDrivers(t *testing.T, module string, env []string, withVet bool, patterns ...string) drivers {
	t.Helper()
	var d drivers
	start := time.Now()
	d.standalone, _ = standalone(t, module, env, patterns...)
	got := map[string][]finding{}
	if withVet {
		d.vet, _ = vet(t, module, env, patterns...)
		got["go vet"] = d.vet
	}
	var others []gclIssue
	d.golangci, others, _ = golangci(t, customGCL(t), module, gclConfig(t, ""), env, patterns...)
	got["golangci-lint"] = d.golangci
	if len(others) > 0 {
		t.Errorf("golangci-lint reported issues of other linters: %+v", others)
	}
	sameFindings(t, d.standalone, got)
	t.Logf("the drivers on %s: %s", filepath.Base(module), time.Since(start).Round(100*time.Millisecond))
	return d
}

var (
	baselineMu sync.Mutex
	baseline   *drivers
)

// exampleFindings runs the three drivers on the example operator once and
// returns what they found.
func exampleFindings(t *testing.T) []finding {
	t.Helper()
	baselineMu.Lock()
	defer baselineMu.Unlock()
	if baseline == nil {
		d := runDrivers(t, example, nil, true, "./...")
		if len(d.standalone) == 0 {
			t.Fatal("no findings on the example operator")
		}
		baseline = &d
	}
	return baseline.standalone
}

// TestDriversAgree runs the standalone command, go vet and golangci-lint on
// the example operator, and the standalone command and golangci-lint on the
// test module's cross-package case, and checks that they report the same
// findings, of every rule that reports something there.
func TestDriversAgree(t *testing.T) {
	t.Run("example", func(t *testing.T) {
		fs := exampleFindings(t)
		counts := byRule(t, fs)
		for _, rule := range analyzer.RuleNames() {
			if counts[rule] == 0 {
				t.Logf("rule %s: no finding on the example yet", rule)
			} else {
				t.Logf("rule %s: %d findings, the same in every driver", rule, counts[rule])
			}
		}
	})
	// factsuser reaches the API only through helpers of lostupdate.test/facts:
	// golangci-lint must analyse the dependencies for their facts, as the
	// standalone command does. (go vet, which passes facts the same way on
	// the example, is left out: on this module's dependencies, which the
	// example does not share, it would compile and analyse for minutes.)
	t.Run("facts", func(t *testing.T) {
		d := runDrivers(t, testdata, []string{"GOFLAGS=-mod=mod"}, false, "./factsuser/...")
		if len(d.standalone) == 0 {
			t.Fatal("no findings in ./factsuser: the cross-package case shows nothing")
		}
		byRule(t, d.standalone)
	})
}

// TestGoVet checks that flags pass through go vet, spelled as for the
// standalone command, and its -json output.
func TestGoVet(t *testing.T) {
	base := exampleFindings(t)
	rule := base[0].rule
	t.Run("flag", func(t *testing.T) {
		fs, _ := vet(t, example, nil, "-disable="+rule, "./...")
		want := without(base, func(f finding) bool { return f.rule == rule })
		sameFindings(t, want, map[string][]finding{"go vet -disable=" + rule: fs})
	})
	t.Run("json", func(t *testing.T) {
		r := run(t, example, nil, "go", "vet", "-vettool="+lostupdateBinary(t), "-json", "./...")
		if r.code != 0 {
			t.Errorf("go vet -json: exit %d, want 0 (findings are data in JSON mode)\n%s", r.code, r.stderr)
		}
		sameFindings(t, base, map[string][]finding{"go vet -json": parseJSONStream(t, example, r.stdout)})
	})
}

// TestGoVetBadFlag: go vet starts lostupdate once per package, dependencies
// included; a bad flag is still reported once or a few times, not with a
// usage per package.
func TestGoVetBadFlag(t *testing.T) {
	r := run(t, example, nil, "go", "vet", "-vettool="+lostupdateBinary(t), "-disable=stale-reed", "./...")
	n := strings.Count(r.stderr, `unknown rule "stale-reed"`)
	if r.code == 0 || n < 1 || n > 3 || strings.Count(r.stderr, "\n") > 4*n+2 {
		t.Errorf("go vet -disable=stale-reed: exit %d, the error %d times, %d lines, want a failure that says it once:\n%s",
			r.code, n, strings.Count(r.stderr, "\n"), r.stderr)
	}
}

// TestSARIFSchema validates lostupdate -format=sarif on the example against
// the SARIF 2.1.0 schema (the OASIS errata01 schema, as the gosec module in
// this module's dependencies carries it in its testdata).
func TestSARIFSchema(t *testing.T) {
	r := run(t, root, nil, "go", "list", "-C", filepath.Join(root, "e2e"), "-m", "-f", "{{.Dir}}", "github.com/securego/gosec/v2")
	if r.code != 0 {
		t.Fatalf("locating the gosec module: %s", r.stderr)
	}
	schemaFile := filepath.Join(strings.TrimSpace(r.stdout), "report", "sarif", "testdata", "sarif-schema-2.1.0.json")
	data, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif-schema-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	out := run(t, example, nil, lostupdateBinary(t), "-format=sarif", "./...")
	if out.code != 0 {
		t.Fatalf("lostupdate -format=sarif: exit %d\n%s", out.code, out.stderr)
	}
	log, err := jsonschema.UnmarshalJSON(strings.NewReader(out.stdout))
	if err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.stdout)
	}
	if err := schema.Validate(log); err != nil {
		t.Errorf("the SARIF log does not conform to the schema: %v", err)
	}
	if !strings.Contains(out.stdout, `"fixes"`) || !strings.Contains(out.stdout, `"relatedLocations"`) {
		t.Errorf("no fixes or related locations in the SARIF log")
	}
}

// parseJSONStream reads the go/analysis JSON output: one object per
// package, {"pkg": {"lostupdate": [diagnostics]}}.
func parseJSONStream(t *testing.T, module, out string) []finding {
	t.Helper()
	var fs []finding
	dec := json.NewDecoder(strings.NewReader(out))
	for {
		var tree map[string]map[string]json.RawMessage
		err := dec.Decode(&tree)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not go/analysis JSON: %v\n%s", err, out)
		}
		for _, byAnalyzer := range tree {
			var diags []struct {
				Posn     string `json:"posn"`
				Category string `json:"category"`
				Message  string `json:"message"`
			}
			if err := json.Unmarshal(byAnalyzer["lostupdate"], &diags); err != nil {
				t.Fatalf("diagnostics: %v", err)
			}
			for _, d := range diags {
				if !strings.HasPrefix(d.Message, d.Category+": ") {
					t.Errorf("%s: message %q does not begin with its category %q", d.Posn, d.Message, d.Category)
				}
				f := parseText(t, module, d.Posn+": "+d.Message)
				if len(f) != 1 {
					t.Fatalf("bad position %q", d.Posn)
				}
				fs = append(fs, f[0])
			}
		}
	}
	return sorted(fs)
}
