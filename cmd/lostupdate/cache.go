package main

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
)

// The no-facts cache.
//
// Most packages of other modules that can carry facts (a shared operator
// library, kubectl, cli-runtime: they import client-go) carry none: their
// functions neither read, write nor retry, nor parse a resourceVersion. Such
// a package, once analysed, need not be loaded from source again: its export
// data is enough, as for any package that cannot carry facts, and so are the
// export data of its imports (loading it from source costs their export
// data too). lostupdate records, in a cache directory, each package of
// another module whose pass ended without error and without a fact, under a
// key that covers everything the pass depends on: the lostupdate binary, the
// analyzer's flags, the package's files and export data, and, the same way,
// every package it imports, transitively. A later run reads such a package
// from export data; its importers see no facts from it, as before, and the
// facts of the packages below it reach them directly.
//
// LOSTUPDATE_CACHE names the directory (default: lostupdate in the user's
// cache directory); LOSTUPDATE_CACHE=off turns the cache off. The
// directory holds one empty file per package and can be deleted at any time.

type factsCache struct {
	dir    string            // "" when off
	tool   string            // the binary and the analyzer's flags
	keys   map[*node]string  // memoised keys
	hashed map[string]string // file contents hashed, by name
}

// openFactsCache returns the cache, off if it cannot be used.
func openFactsCache(a *analysis.Analyzer) *factsCache {
	c := &factsCache{keys: map[*node]string{}, hashed: map[string]string{}}
	dir := os.Getenv("LOSTUPDATE_CACHE")
	if dir == "off" {
		return c
	}
	if dir == "" {
		user, err := os.UserCacheDir()
		if err != nil {
			return c
		}
		dir = filepath.Join(user, "lostupdate")
	}
	exe, err := os.Executable()
	if err != nil {
		return c
	}
	h := sha256.New()
	f, err := os.Open(exe)
	if err != nil {
		return c
	}
	_, err = io.Copy(h, f)
	f.Close()
	if err != nil {
		return c
	}
	a.Flags.VisitAll(func(f *flag.Flag) { fmt.Fprintf(h, "-%s=%s\n", f.Name, f.Value) })
	c.tool = hex.EncodeToString(h.Sum(nil))
	c.dir = filepath.Join(dir, "nofacts")
	return c
}

// cacheable reports whether a package's pass can be recorded, or skipped:
// a package of another module (not one of the main modules, not a test
// variant) that loaded without error and has export data.
func cacheable(n *node) bool {
	lp := n.lp
	mod := lp.Module
	return !n.root && !lp.Standard && mod != nil && mod.Path != "" && mod.Version != "" && !mod.Main &&
		lp.ForTest == "" && lp.Export != "" && lp.Error == nil && !lp.Incomplete && len(lp.DepsErrors) == 0
}

// noFacts reports whether an earlier run recorded n as carrying no facts.
func (c *factsCache) noFacts(n *node) bool {
	if c.dir == "" || !cacheable(n) {
		return false
	}
	_, err := os.Stat(c.file(n))
	return err == nil
}

// record records the packages of another module whose passes ended
// without error and exported no fact.
func (c *factsCache) record(g *checker.Graph, ld *loader) {
	if c.dir == "" {
		return
	}
	for act := range g.All() {
		n := ld.byTypes[act.Package.Types]
		if n == nil || !n.source || !cacheable(n) || act.Err != nil || len(act.Package.Errors) > 0 || act.Package.IllTyped {
			continue
		}
		if ownFacts(act) {
			continue
		}
		file := c.file(n)
		if os.MkdirAll(filepath.Dir(file), 0o777) == nil {
			os.WriteFile(file, nil, 0o666)
		}
	}
}

// ownFacts reports whether the pass of act exported a fact.
func ownFacts(act *checker.Action) bool {
	for _, f := range act.AllObjectFacts() {
		if f.Object.Pkg() == act.Package.Types {
			return true
		}
	}
	for _, f := range act.AllPackageFacts() {
		if f.Package == act.Package.Types {
			return true
		}
	}
	return false
}

func (c *factsCache) file(n *node) string {
	k := c.key(n)
	return filepath.Join(c.dir, k[:2], k)
}

// key is the hash of everything the pass of n depends on: the tool, the
// package (its files' names and contents, and its export data, which the
// go command names by a hash of its contents) and, by their keys, its
// imports. A file in the module cache is identified by its name (a module
// version never changes), any other by its contents.
func (c *factsCache) key(n *node) string {
	if k, ok := c.keys[n]; ok {
		return k
	}
	c.keys[n] = "cycle" // import cycles (only in broken code)
	h := sha256.New()
	lp := n.lp
	fmt.Fprintf(h, "lostupdate no-facts 1\n%s\n%s\n%s\n", c.tool, lp.ImportPath, lp.Export)
	if !lp.Standard {
		for _, name := range absAll(lp.Dir, lp.CompiledGoFiles) {
			fmt.Fprintf(h, "file %s %s\n", name, c.contents(n, name))
		}
	}
	var imports []string
	for path, dep := range n.imports {
		imports = append(imports, path+" "+c.key(dep))
	}
	sort.Strings(imports)
	fmt.Fprintf(h, "imports\n%s\n", strings.Join(imports, "\n"))
	k := hex.EncodeToString(h.Sum(nil))
	c.keys[n] = k
	return k
}

// contents returns the hash of the contents of a file of n, or "" for a
// file of a module version in the module cache.
func (c *factsCache) contents(n *node, name string) string {
	if mod := n.lp.Module; mod != nil && mod.Version != "" && mod.Replace == nil && mod.Dir != "" &&
		!strings.Contains(mod.Dir, string(filepath.Separator)+"vendor"+string(filepath.Separator)) &&
		strings.HasPrefix(name, mod.Dir+string(filepath.Separator)) {
		return ""
	}
	if h, ok := c.hashed[name]; ok {
		return h
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return "unreadable"
	}
	sum := sha256.Sum256(data)
	c.hashed[name] = hex.EncodeToString(sum[:])
	return c.hashed[name]
}
