package plugin_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"

	"github.com/lostupdate/lostupdate/analyzer"
	_ "github.com/lostupdate/lostupdate/plugin"
)

// newPlugin builds the plugin the way golangci-lint does: by name, from the
// settings as its configuration loader decodes them from YAML.
func newPlugin(t *testing.T, settings any) (register.LinterPlugin, error) {
	t.Helper()
	newFn, err := register.GetPlugin("lostupdate")
	if err != nil {
		t.Fatal(err)
	}
	return newFn(settings)
}

func TestNoSettings(t *testing.T) {
	for _, settings := range []any{nil, map[string]any{}} {
		p, err := newPlugin(t, settings)
		if err != nil {
			t.Fatalf("settings %#v: %v", settings, err)
		}
		as, err := p.BuildAnalyzers()
		if err != nil {
			t.Fatal(err)
		}
		if len(as) != 1 || as[0].Name != "lostupdate" {
			t.Fatalf("BuildAnalyzers: %v, want the one lostupdate analyzer (its name is the plugin's, so messages get no second prefix)", as)
		}
		if got := p.GetLoadMode(); got != register.LoadModeTypesInfo {
			t.Errorf("GetLoadMode() = %q, want %q", got, register.LoadModeTypesInfo)
		}
	}
}

// TestSettings checks that each setting reaches the Analyzer: its flags
// hold the configuration.
func TestSettings(t *testing.T) {
	p, err := newPlugin(t, map[string]any{
		"rules":                    []any{"stale-read", "missing-retry"},
		"disable":                  []any{"missing-retry"},
		"strict-patch":             true,
		"retry-helpers":            []any{"example.com/kube.Retry"},
		"safe-writers":             []any{"(*example.com/kube.Client).SafeUpdate"},
		"report-unused-directives": true,
		"tests":                    true,
	})
	if err != nil {
		t.Fatal(err)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"rules":                    "missing-retry,stale-read",
		"disable":                  "missing-retry",
		"strict-patch":             "true",
		"retry-helpers":            "example.com/kube.Retry",
		"safe-writers":             "(*example.com/kube.Client).SafeUpdate",
		"report-unused-directives": "true",
		"tests":                    "true",
	}
	for name, value := range want {
		f := as[0].Flags.Lookup(name)
		if f == nil {
			t.Errorf("the analyzer has no flag -%s", name)
			continue
		}
		got := f.Value.String()
		if name == "rules" { // kept in the order given
			parts := strings.Split(got, ",")
			sort.Strings(parts)
			got = strings.Join(parts, ",")
		}
		if got != value {
			t.Errorf("-%s = %q, want %q", name, got, value)
		}
	}
}

// TestAnalyzersAreIndependent checks that two plugins (two golangci-lint
// configurations in one process, as in its tests) share no configuration.
func TestAnalyzersAreIndependent(t *testing.T) {
	p1, err := newPlugin(t, map[string]any{"disable": []any{"stale-read"}})
	if err != nil {
		t.Fatal(err)
	}
	p2, err := newPlugin(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	a1, _ := p1.BuildAnalyzers()
	a2, _ := p2.BuildAnalyzers()
	if a1[0] == a2[0] || a1[0] == analyzer.Analyzer || a2[0] == analyzer.Analyzer {
		t.Fatal("plugins share an Analyzer")
	}
	if got := a2[0].Flags.Lookup("disable").Value.String(); got != "" {
		t.Errorf("second plugin: -disable = %q, want empty", got)
	}
	if got := analyzer.Analyzer.Flags.Lookup("disable").Value.String(); got != "" {
		t.Errorf("analyzer.Analyzer: -disable = %q after building a plugin, want empty", got)
	}
}

func TestBadSettings(t *testing.T) {
	for _, tc := range []struct {
		settings any
		want     string
	}{
		{map[string]any{"disable": []any{"stale-reed"}}, `lostupdate settings: disable: unknown rule "stale-reed" (known rules: unconditional-update, stale-retry`},
		{map[string]any{"rules": []any{"all-of-them"}}, `lostupdate settings: rules: unknown rule "all-of-them"`},
		{map[string]any{"disabled": []any{"stale-read"}}, `lostupdate settings: unknown setting "disabled" (known settings: rules, disable, strict-patch, retry-helpers, safe-writers, report-unused-directives, tests)`},
		{map[string]any{"strict-patch": "yes"}, `lostupdate settings: strict-patch: got a string, want true or false`},
		{map[string]any{"tests": []any{"e2e"}}, `lostupdate settings: tests: got a list, want true or false`},
		{map[string]any{"disable": "stale-read"}, `lostupdate settings: disable: got a string, want a list`},
		{map[string]any{"retry-helpers": []any{"Retry"}}, `lostupdate settings: retry-helpers: "Retry" is not a full function name`},
		{map[string]any{"safe-writers": []any{"example.com/kube.Client.Update x"}}, `lostupdate settings: safe-writers: "example.com/kube.Client.Update x" is not a full function name`},
		{[]any{"stale-read"}, `lostupdate settings: got a list, want a mapping of settings (rules, disable, `},
	} {
		_, err := newPlugin(t, tc.settings)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("settings %#v: error %v, want one beginning %q", tc.settings, err, tc.want)
		}
	}
}
