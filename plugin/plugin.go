// Package plugin makes lostupdate a golangci-lint v2 module plugin.
//
// Build a golangci-lint binary that includes it with `golangci-lint custom`
// (see .custom-gcl.example.yml), then enable it in .golangci.yml:
//
//	linters:
//	  enable:
//	    - lostupdate
//	  settings:
//	    custom:
//	      lostupdate:
//	        type: module
//	        settings:
//	          disable: [stale-read]
//
// The settings mirror the flags of the lostupdate command; .golangci.example.yml
// shows each with its default.
package plugin

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/lostupdate/lostupdate/analyzer"
)

// Name is the plugin's name: the key of its settings in .golangci.yml and
// the linter name in //nolint directives. It is the Analyzer's name, so
// golangci-lint prints messages without a second prefix.
const Name = analyzer.Name

func init() {
	register.Plugin(Name, New)
}

// Settings are the plugin's settings in .golangci.yml; each mirrors a flag
// of the lostupdate command.
type Settings struct {
	// Rules to run, by name; empty: all of them.
	Rules []string `json:"rules"`
	// Disable are rules not to run.
	Disable []string `json:"disable"`
	// StrictPatch makes unconditional-patch report every non-apply patch
	// without a precondition.
	StrictPatch bool `json:"strict-patch"`
	// RetryHelpers are the full names of your own conflict-retry helpers.
	RetryHelpers []string `json:"retry-helpers"`
	// SafeWriters are the full names of write wrappers known to be safe.
	SafeWriters []string `json:"safe-writers"`
	// ReportUnusedDirectives reports //lostupdate:ignore directives that
	// suppress nothing (golangci-lint's nolintlint reports unused //nolint).
	ReportUnusedDirectives bool `json:"report-unused-directives"`
	// Tests reports findings in test code too: *_test.go files, files that
	// import testing or a test framework, and packages in test directories.
	Tests bool `json:"tests"`
}

// keys are the setting names, from the json tags of Settings.
func keys() []string {
	t := reflect.TypeOf(Settings{})
	names := make([]string, t.NumField())
	for i := range names {
		names[i] = t.Field(i).Tag.Get("json")
	}
	return names
}

// Plugin is lostupdate configured for golangci-lint.
type Plugin struct {
	cfg analyzer.Config
}

// New decodes and validates the plugin's settings. Errors name the setting.
func New(settings any) (register.LinterPlugin, error) {
	if m, ok := settings.(map[string]any); ok {
		known := keys()
		var unknown []string
		for k := range m {
			if !contains(known, k) {
				unknown = append(unknown, k)
			}
		}
		if len(unknown) > 0 {
			sort.Strings(unknown)
			return nil, fmt.Errorf("%s settings: unknown setting %q (known settings: %s)", Name, unknown[0], strings.Join(known, ", "))
		}
	}
	s, err := register.DecodeSettings[Settings](settings)
	if err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			if typeErr.Field == "" {
				return nil, fmt.Errorf("%s settings: got %s, want a mapping of settings (%s)", Name, jsonKind(typeErr.Value), strings.Join(keys(), ", "))
			}
			return nil, fmt.Errorf("%s settings: %s: got %s, want %s", Name, typeErr.Field, jsonKind(typeErr.Value), kind(typeErr.Type.Kind()))
		}
		return nil, fmt.Errorf("%s settings: %w", Name, err)
	}
	cfg := analyzer.Config{
		Rules:                  s.Rules,
		Disable:                s.Disable,
		StrictPatch:            s.StrictPatch,
		RetryHelpers:           s.RetryHelpers,
		SafeWriters:            s.SafeWriters,
		ReportUnusedDirectives: s.ReportUnusedDirectives,
		Tests:                  s.Tests,
		// golangci-lint applies //nolint itself, and its nolintlint reports
		// the unused ones; it would report every //nolint:lostupdate as
		// unused if the Analyzer dropped the findings first.
		NolintByDriver: true,
		// golangci-lint makes each related location an issue of its own.
		OmitRelated: true,
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("%s settings: %w", Name, err)
	}
	return &Plugin{cfg: cfg}, nil
}

// jsonKind names a kind of JSON value the way a YAML author sees it.
func jsonKind(v string) string {
	switch v {
	case "array":
		return "a list"
	case "object":
		return "a mapping"
	case "bool":
		return "a boolean"
	}
	return "a " + v
}

// kind names what a setting of a Go kind takes.
func kind(k reflect.Kind) string {
	switch k {
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		return "a list"
	case reflect.String:
		return "a string"
	}
	return k.String()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// BuildAnalyzers returns the lostupdate Analyzer built from the settings: a
// new one each time, sharing no state with any other.
func (p *Plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	a, err := analyzer.New(p.cfg)
	if err != nil {
		return nil, err
	}
	return []*analysis.Analyzer{a}, nil
}

// GetLoadMode asks for type information: lostupdate works on SSA built from
// it, and it needs the facts of dependencies.
func (*Plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
