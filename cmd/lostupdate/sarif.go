package main

import (
	"encoding/json"
	"go/token"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"

	"github.com/lostupdate/lostupdate/analyzer"
)

// SARIF 2.1.0 (https://docs.oasis-open.org/sarif/sarif/v2.1.0/), the
// subset code scanning reads.

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                   `json:"tool"`
	OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
	Results            []sarifResult               `json:"results"`
	Invocations        []sarifInvocation           `json:"invocations,omitempty"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string       `json:"id"`
	ShortDescription sarifMessage `json:"shortDescription"`
	FullDescription  sarifMessage `json:"fullDescription"`
	HelpURI          string       `json:"helpUri,omitempty"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID           string          `json:"ruleId"`
	RuleIndex        int             `json:"ruleIndex"`
	Level            string          `json:"level"`
	Message          sarifMessage    `json:"message"`
	Locations        []sarifLocation `json:"locations"`
	RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
	Fixes            []sarifFix      `json:"fixes,omitempty"`
}

type sarifLocation struct {
	ID               *int          `json:"id,omitempty"`
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
	Message          *sarifMessage `json:"message,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
	Region           sarifRegion      `json:"region"`
}

type sarifArtifactLoc struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int  `json:"startLine,omitempty"`
	StartColumn int  `json:"startColumn,omitempty"`
	EndLine     int  `json:"endLine,omitempty"`
	EndColumn   int  `json:"endColumn,omitempty"`
	CharOffset  *int `json:"charOffset,omitempty"`
	CharLength  *int `json:"charLength,omitempty"`
}

type sarifFix struct {
	Description     sarifMessage          `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifactLoc   `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion   `json:"deletedRegion"`
	InsertedContent *sarifMessage `json:"insertedContent,omitempty"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string       `json:"level"`
	Message sarifMessage `json:"message"`
}

const srcRoot = "SRCROOT"

// directiveRules are the categories of the diagnostics about suppression
// directives, which are not rules of doc.go.
var directiveRules = []sarifRule{
	{ID: "unused-directive",
		ShortDescription: sarifMessage{"A suppression directive that suppresses nothing."},
		FullDescription:  sarifMessage{"A //nolint:lostupdate or //lostupdate:ignore directive that suppresses no finding (reported with -report-unused-directives)."}},
	{ID: "bad-directive",
		ShortDescription: sarifMessage{"A malformed suppression directive."},
		FullDescription:  sarifMessage{"A //lostupdate:ignore directive that names no rule or an unknown one."}},
}

// printSARIF prints the findings as a SARIF 2.1.0 log: one run, every rule
// with its doc.go text, each finding with its related locations and its
// suggested fixes. Paths are relative to the working directory (SRCROOT)
// where they are inside it.
func (res *results) printSARIF(w io.Writer, a *analysis.Analyzer) error {
	wd, _ := os.Getwd()
	home, _, _ := strings.Cut(a.URL, "#")
	var rules []sarifRule
	index := map[string]int{}
	for _, d := range analyzer.RuleDocs() {
		index[d.Name] = len(rules)
		rules = append(rules, sarifRule{
			ID:               d.Name,
			ShortDescription: sarifMessage{d.Summary},
			FullDescription:  sarifMessage{d.Summary + "\n\n" + d.Body},
			HelpURI:          home + "#" + d.Name,
		})
	}
	for _, r := range directiveRules {
		r.HelpURI = home + "#suppressing-findings"
		index[r.ID] = len(rules)
		rules = append(rules, r)
	}
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{Name: name, Version: version(), InformationURI: home, Rules: rules}},
		OriginalURIBaseIDs: map[string]sarifArtifactLoc{
			srcRoot: {URI: fileURI(wd) + "/"},
		},
		Results: []sarifResult{},
	}
	loc := func(file string) sarifArtifactLoc {
		if rel, err := filepath.Rel(wd, file); err == nil && !strings.HasPrefix(rel, "..") {
			return sarifArtifactLoc{URI: filepath.ToSlash(rel), URIBaseID: srcRoot}
		}
		return sarifArtifactLoc{URI: fileURI(file)}
	}
	region := func(f *finding, start, end token.Pos) sarifRegion {
		s, e := f.fset.Position(start), f.fset.Position(end)
		r := sarifRegion{StartLine: s.Line, StartColumn: s.Column}
		if e.IsValid() && e.Line >= s.Line {
			r.EndLine, r.EndColumn = e.Line, e.Column
		}
		return r
	}
	for _, f := range res.findings {
		id := f.diag.Category
		if _, ok := index[id]; !ok {
			id, _, _ = strings.Cut(f.diag.Message, ":")
		}
		r := sarifResult{
			RuleID:    id,
			RuleIndex: index[id],
			Level:     "warning",
			Message:   sarifMessage{f.diag.Message},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
				ArtifactLocation: loc(f.posn.Filename),
				Region:           region(f, f.diag.Pos, f.diag.End),
			}}},
		}
		for i, rel := range f.diag.Related {
			n := i + 1
			r.RelatedLocations = append(r.RelatedLocations, sarifLocation{
				ID: &n,
				PhysicalLocation: sarifPhysical{
					ArtifactLocation: loc(f.fset.Position(rel.Pos).Filename),
					Region:           region(f, rel.Pos, rel.End),
				},
				Message: &sarifMessage{rel.Message},
			})
		}
		for _, fix := range f.diag.SuggestedFixes {
			byFile := map[string]int{}
			sf := sarifFix{Description: sarifMessage{fix.Message}}
			for _, e := range fix.TextEdits {
				start := f.fset.Position(e.Pos)
				end := start
				if e.End.IsValid() {
					end = f.fset.Position(e.End)
				}
				i, ok := byFile[start.Filename]
				if !ok {
					i = len(sf.ArtifactChanges)
					byFile[start.Filename] = i
					sf.ArtifactChanges = append(sf.ArtifactChanges, sarifArtifactChange{ArtifactLocation: loc(start.Filename)})
				}
				offset := charOffset(start.Filename, start.Offset)
				length := charOffset(start.Filename, end.Offset) - offset
				rep := sarifReplacement{DeletedRegion: sarifRegion{CharOffset: &offset, CharLength: &length}}
				rep.InsertedContent = &sarifMessage{string(e.NewText)}
				sf.ArtifactChanges[i].Replacements = append(sf.ArtifactChanges[i].Replacements, rep)
			}
			r.Fixes = append(r.Fixes, sf)
		}
		run.Results = append(run.Results, r)
	}
	inv := sarifInvocation{ExecutionSuccessful: len(res.errors) == 0}
	for _, e := range res.errors {
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarifNotification{Level: "error", Message: sarifMessage{e}})
	}
	run.Invocations = []sarifInvocation{inv}
	log := sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

// charOffset converts a byte offset in a file to the character (rune)
// offset SARIF counts in.
func charOffset(file string, byteOffset int) int {
	data, err := os.ReadFile(file)
	if err != nil || byteOffset > len(data) {
		return byteOffset
	}
	return utf8.RuneCount(data[:byteOffset])
}

func fileURI(path string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	return u.String()
}
