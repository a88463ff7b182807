package main

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lostupdate/lostupdate/analyzer"
)

func newAnalyzer() *analysis.Analyzer {
	a, err := analyzer.New(analyzer.Config{})
	if err != nil {
		panic(err)
	}
	return a
}

// versionFlag is -V, and -V=full, the form go vet asks for.
type versionFlag struct{ set, full bool }

func (*versionFlag) IsBoolFlag() bool { return true }
func (f *versionFlag) String() string {
	if f == nil || !f.set {
		return ""
	}
	return "full"
}
func (f *versionFlag) Set(s string) error {
	switch s {
	case "full":
		f.set, f.full = true, true
	case "true":
		f.set = true
	default:
		return fmt.Errorf("-V=%s: want -V or -V=full", s)
	}
	return nil
}

// version is the module version of the binary as the go command recorded
// it: a release (v0.1.0) for go install ...@v0.1.0, a pseudo-version from
// version control for a build in a checkout, or "(devel)".
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+dirty"
			}
		}
	}
	if v == "(devel)" && rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		v += " " + rev + modified
	}
	return v + " " + bi.GoVersion
}

// versionLine is what -version and -V print. With full, it ends in the
// build ID go vet keys its cache by (a hash of the executable), so that a
// rebuilt binary never gets results cached for another.
func versionLine(full bool) string {
	line := name + " version " + version()
	if !full {
		return line
	}
	return line + " buildID=" + executableHash()
}

func executableHash() string {
	exe, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	f, err := os.Open(exe)
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "unknown"
	}
	return strings.ToLower(fmt.Sprintf("%x", h.Sum(nil)))
}
