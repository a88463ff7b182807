// Command lostupdate finds Go code that can lose updates when it writes
// Kubernetes objects.
//
// Run it on packages directly:
//
//	lostupdate ./...
//
// or as a go vet tool (the path must be absolute):
//
//	go vet -vettool=$(go env GOPATH)/bin/lostupdate ./...
//
// Run "lostupdate help" for the rules and flags.
//
// Standalone, lostupdate loads from source only the packages that can carry
// its facts (see load.go) and reads every other dependency from export
// data; under go vet it is a unitchecker, which go vet gives each package's
// dependencies' facts.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/types"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/lostupdate/lostupdate/analyzer"
)

const name = analyzer.Name

// options are the driver's own flags.
type options struct {
	json       bool
	sarif      bool
	format     string
	context    int
	fix        bool
	diff       bool
	tests      bool
	version    bool
	vflag      versionFlag
	cpuprofile string
	memprofile string
	printFlags bool
}

// newFlagSet returns the command's flag set: the analyzer's flags and the
// driver's.
func newFlagSet(a *analysis.Analyzer, o *options) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	a.Flags.VisitAll(func(f *flag.Flag) { fs.Var(f.Value, f.Name, f.Usage) })
	fs.BoolVar(&o.json, "json", false, "print the findings as go/analysis JSON on standard output")
	fs.BoolVar(&o.sarif, "sarif", false, "print the findings as SARIF 2.1.0 on standard output (same as -format=sarif)")
	fs.StringVar(&o.format, "format", "text", "output format: text, json or sarif")
	fs.IntVar(&o.context, "c", -1, "display the offending line with this many lines of context")
	fs.BoolVar(&o.fix, "fix", false, "apply the suggested fixes")
	fs.BoolVar(&o.diff, "diff", false, "with -fix, do not change the files but print a unified diff")
	fs.BoolVar(&o.tests, "test", false, "load the packages' tests (default: on with -tests, off without: findings in test code are reported only with -tests)")
	fs.BoolVar(&o.version, "version", false, "print the version and exit")
	fs.Var(&o.vflag, "V", "print the version and exit (-V=full: the form go vet reads)")
	fs.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile to this file")
	fs.StringVar(&o.memprofile, "memprofile", "", "write a memory profile to this file")
	fs.BoolVar(&o.printFlags, "flags", false, "print the flags in JSON (for go vet)")
	return fs
}

const shortUsage = `usage: lostupdate [flags] [packages]
       go vet -vettool=$(go env GOPATH)/bin/lostupdate [flags] [packages]
Run "lostupdate -help" for the flags and "lostupdate help" for the rules.
`

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if vetMode(args) {
		return vet(args)
	}
	a := analyzer.Analyzer
	var o options
	fs := newFlagSet(a, &o)
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(os.Stderr, shortUsage)
			fs.SetOutput(os.Stderr)
			fs.PrintDefaults()
			return 0
		}
		fmt.Fprintf(os.Stderr, "%s: %v\n%s", name, err, shortUsage)
		return 2
	}
	testSet := false
	fs.Visit(func(f *flag.Flag) { testSet = testSet || f.Name == "test" })
	if !testSet {
		// Findings in test code are left out without -tests: loading the
		// test packages would be work for nothing.
		o.tests = a.Flags.Lookup("tests").Value.String() == "true"
	}
	if o.version || o.vflag.set {
		fmt.Println(versionLine(o.vflag.full))
		return 0
	}
	patterns := fs.Args()
	if len(patterns) > 0 && patterns[0] == "help" {
		help(os.Stdout, fs, a, patterns[1:])
		return 0
	}
	if len(patterns) == 0 {
		fmt.Fprintf(os.Stderr, "%s: no packages given\n%s", name, shortUsage)
		return 2
	}
	if o.sarif {
		o.format = "sarif"
	}
	if o.json {
		o.format = "json"
	}
	switch o.format {
	case "text", "json", "sarif":
	default:
		fmt.Fprintf(os.Stderr, "%s: -format=%s: want text, json or sarif\n%s", name, o.format, shortUsage)
		return 2
	}
	if o.diff && !o.fix {
		o.fix = true
	}

	if o.cpuprofile != "" {
		f, err := os.Create(o.cpuprofile)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
			return 1
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	return analyse(a, &o, patterns)
}

// analyse loads the packages, runs the analyzer and prints the findings.
func analyse(a *analysis.Analyzer, o *options, patterns []string) int {
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		return 1
	}
	ld := &loader{dir: wd, tests: o.tests, notice: noticeOnce(), cache: openFactsCache(a)}
	ld.init()
	slow := time.AfterFunc(noticeAfter(), func() {
		ld.notice("building the dependencies' export data: the first run in a module can take minutes, later runs use the build cache")
	})
	pkgs, err := ld.load(patterns)
	slow.Stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		return 1
	}
	if len(pkgs) == 0 {
		fmt.Fprintf(os.Stderr, "%s: %s matched no packages\n", name, strings.Join(patterns, " "))
		return 1
	}
	generated := map[string]bool{}
	graph, err := checker.Analyze([]*analysis.Analyzer{inGraph(a, ld, generated)}, pkgs, nil)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		return 1
	}
	ld.cache.record(graph, ld)
	if o.memprofile != "" {
		// Written while the analysis results are still reachable, so that
		// the profile shows what the run holds at its end.
		if err := writeHeapProfile(o.memprofile); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		}
	}
	code := 0
	if printErrors(os.Stderr, ld) > 0 {
		code = 1
	}
	res := collect(graph)
	res.generated = generated
	if o.fix {
		if err := applyFixes(res, o.diff, os.Stdout); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
			return 1
		}
		return code
	}
	switch o.format {
	case "json":
		res.printJSON(os.Stdout)
		return code
	case "sarif":
		if err := res.printSARIF(os.Stdout, a); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
			return 1
		}
		return code
	}
	res.printText(os.Stderr, o.context)
	if len(res.errors) > 0 {
		return 1
	}
	if len(res.findings) > 0 && code == 0 {
		return 3
	}
	return code
}

// writeHeapProfile writes a heap profile of the live objects to file.
func writeHeapProfile(file string) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	runtime.GC()
	if err := pprof.WriteHeapProfile(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// noticeOnce returns a function that prints one notice line on standard
// error, the first time it is called.
func noticeOnce() func(string) {
	var once sync.Once
	return func(msg string) {
		once.Do(func() { fmt.Fprintf(os.Stderr, "%s: %s\n", name, msg) })
	}
}

// noticeAfter is how long the go command may run before lostupdate says
// that it is building export data.
func noticeAfter() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("LOSTUPDATE_NOTICE_AFTER")); err == nil {
		return d
	}
	return 4 * time.Second
}

// help prints the analyzer's documentation and the flags.
func help(w io.Writer, fs *flag.FlagSet, a *analysis.Analyzer, args []string) {
	fmt.Fprintf(w, "%s: %s\n\n", a.Name, a.Doc)
	fmt.Fprint(w, shortUsage)
	fmt.Fprintln(w, "\nFlags:")
	fs.SetOutput(w)
	fs.PrintDefaults()
}

// vetMode reports whether lostupdate runs under go vet: with a unit.cfg file
// or asked for its flags.
func vetMode(args []string) bool {
	if len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg") {
		return true
	}
	for _, a := range args {
		if a == "-flags" || a == "--flags" {
			return true
		}
	}
	return false
}

// vet runs lostupdate as a go vet tool. A flag error is printed as one line
// by the first of the processes go vet starts (one per package) and not
// repeated by the others.
func vet(args []string) int {
	var o options
	fs := newFlagSet(newAnalyzer(), &o)
	fs.SetOutput(io.Discard)
	if len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg") {
		if err := fs.Parse(args[:len(args)-1]); err != nil {
			if firstFlagError(err) {
				fmt.Fprintf(os.Stderr, "%s: %v\nRun \"lostupdate -help\" for the flags.\n", name, err)
				return 1
			}
			// Said already: go vet, which runs lostupdate once per
			// package, fails because of the first process, and prints
			// nothing for the others if they leave an empty facts file.
			writeEmptyVetx(args[len(args)-1])
			return 0
		}
		if o.vflag.set {
			fmt.Println(versionLine(o.vflag.full))
			return 0
		}
	}
	os.Args = append([]string{os.Args[0]}, args...)
	singlechecker.Main(analyzer.Analyzer)
	return 0
}

// writeEmptyVetx writes the (empty) facts file a go vet unit.cfg asks for.
func writeEmptyVetx(cfgFile string) {
	data, err := os.ReadFile(cfgFile)
	if err != nil {
		return
	}
	var cfg struct{ VetxOutput string }
	if json.Unmarshal(data, &cfg) == nil && cfg.VetxOutput != "" {
		os.WriteFile(cfg.VetxOutput, nil, 0o666)
	}
}

// inGraph returns a copy of a that loads each package when its pass runs,
// runs at most GOMAXPROCS passes at a time, and drops the package's syntax
// and type information when its pass is done (its types stay, for the
// packages that import it). The checker starts every package's pass at
// once, each waiting for those of its imports: loading a package before its
// turn, or running hundreds of passes together, would keep the syntax and
// type information of all of them in memory at the same time. The names of
// generated files go into generated, for -fix.
func inGraph(a *analysis.Analyzer, ld *loader, generated map[string]bool) *analysis.Analyzer {
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var mu sync.Mutex
	run := a.Run
	requires := a.Requires
	if len(requires) > 0 {
		// The analyzers a requires run before its pass, on the loaded
		// package: load it in a pass of its own that they require.
		load := &analysis.Analyzer{
			Name:             "load",
			Doc:              "load: type-check the package",
			RunDespiteErrors: true,
			Run: func(pass *analysis.Pass) (any, error) {
				ld.loadTypes(pass.Pkg)
				return nil, nil
			},
		}
		requires = append([]*analysis.Analyzer{load}, requires...)
	}
	return &analysis.Analyzer{
		Name:             a.Name,
		Doc:              a.Doc,
		URL:              a.URL,
		Flags:            a.Flags,
		Requires:         requires,
		ResultType:       a.ResultType,
		FactTypes:        a.FactTypes,
		RunDespiteErrors: true, // checked here, once the package is loaded
		Run: func(pass *analysis.Pass) (any, error) {
			sem <- struct{}{}
			defer func() { <-sem }()
			n := ld.byTypes[pass.Pkg]
			if n != nil {
				// The pass was made before the package was loaded: the
				// type information is filled in place, the files and
				// type errors are set here.
				ld.loadNode(n)
				pass.Files = n.pkg.Syntax
				pass.TypeErrors = n.pkg.TypeErrors
			}
			defer func() {
				mu.Lock()
				for _, f := range pass.Files {
					if ast.IsGenerated(f) {
						generated[pass.Fset.File(f.FileStart).Name()] = true
					}
				}
				mu.Unlock()
				if n != nil {
					n.pkg.Syntax = nil
				}
				*pass.TypesInfo = types.Info{}
				pass.Files = nil
			}()
			if n != nil && n.pkg.IllTyped && !a.RunDespiteErrors {
				return nil, fmt.Errorf("analysis skipped due to errors in package")
			}
			return run(pass)
		},
	}
}
