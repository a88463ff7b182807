package model

import (
	"go/types"
	"slices"
	"strings"
)

// Package paths of the libraries the model knows. The rest of lostupdate
// names them only through these constants and the queries of this package.
const (
	MetaV1          = "k8s.io/apimachinery/pkg/apis/meta/v1"
	Meta            = "k8s.io/apimachinery/pkg/api/meta"
	APITypes        = "k8s.io/apimachinery/pkg/types"
	APIErrors       = "k8s.io/apimachinery/pkg/api/errors"
	Labels          = "k8s.io/apimachinery/pkg/labels"
	Unstructured    = "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	Runtime         = "k8s.io/apimachinery/pkg/runtime"
	Wait            = "k8s.io/apimachinery/pkg/util/wait"
	Watch           = "k8s.io/apimachinery/pkg/watch"
	UtilJSON        = "k8s.io/apimachinery/pkg/util/json"
	UtilYAML        = "k8s.io/apimachinery/pkg/util/yaml"
	UtilRuntime     = "k8s.io/apimachinery/pkg/util/runtime"
	UtilErrors      = "k8s.io/apimachinery/pkg/util/errors"
	StrategicPatch  = "k8s.io/apimachinery/pkg/util/strategicpatch"
	JSONMergePatch  = "k8s.io/apimachinery/pkg/util/jsonmergepatch"
	ResourceVersion = "k8s.io/apimachinery/pkg/util/resourceversion" // CompareResourceVersion, apimachinery v0.35 and later
	CoreV1          = "k8s.io/api/core/v1"
	Retry           = "k8s.io/client-go/util/retry"
	Cache           = "k8s.io/client-go/tools/cache"
	Listers         = "k8s.io/client-go/listers"
	Workqueue       = "k8s.io/client-go/util/workqueue"
	CR              = "sigs.k8s.io/controller-runtime" // the ctrl package of aliases
	CRClient        = "sigs.k8s.io/controller-runtime/pkg/client"
	CRReconcile     = "sigs.k8s.io/controller-runtime/pkg/reconcile"
	CRUtil          = "sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	CRBuilder       = "sigs.k8s.io/controller-runtime/pkg/builder"
	CRPredicate     = "sigs.k8s.io/controller-runtime/pkg/predicate"
	CRCache         = "sigs.k8s.io/controller-runtime/pkg/cache"
	SigsYAML        = "sigs.k8s.io/yaml"
	JSONPatch       = "github.com/evanphx/json-patch" // v0-v4 import path
	JSONPatchV4     = "gopkg.in/evanphx/json-patch.v4"
	JSONPatchV5     = "github.com/evanphx/json-patch/v5"
)

// Modelled are the Kubernetes libraries lostupdate models by this catalog:
// their own code is not analysed (a package of theirs is out of scope), a
// package that imports one is in scope, and the fields of their types are
// not merged across objects nor taken for the program's own fields.
var Modelled = []string{
	"k8s.io/api",
	"k8s.io/apimachinery",
	"k8s.io/client-go",
	"k8s.io/apiserver",
	"k8s.io/apiextensions-apiserver",
	"k8s.io/kube-aggregator",
	"sigs.k8s.io/controller-runtime",
}

// Inert are Kubernetes libraries outside the modelled ones that import
// client-go or apimachinery but hold nothing lostupdate summarises: no
// client call, retry, object builder or resourceVersion helper. Their
// packages carry no facts, so a driver reads them from export data (on
// cluster-api, 20 packages it would otherwise type-check and analyse on a
// first run), and they are not analysed. Each entry is checked against the
// library's source: component-base uses client-go only for metrics,
// transport and configuration types; cluster-bootstrap only reads the
// fields of Secrets.
var Inert = []string{
	"k8s.io/component-base",
	"k8s.io/cluster-bootstrap",
}

// InertPackages are single packages of otherwise unmodelled libraries that
// hold nothing lostupdate summarises, as Inert libraries do, each checked
// against its source at k8s.io/kubectl v0.36: kubectl's command framework
// (pkg/cmd/util: the client factory, flags and help; its Merge and JSONPatch
// apply a patch to an object in memory, for kubectl run --overrides, and
// keep the resourceVersion it carries), its scheme, OpenAPI getter,
// schema validation and terminal and help helpers. Helm and kubectl-based
// tools pull them in; the rest of kubectl (drain, apply, rollout...) writes
// objects and is not listed. A package below one of these is not covered.
var InertPackages = []string{
	"k8s.io/kubectl/pkg/cmd/util",
	"k8s.io/kubectl/pkg/scheme",
	"k8s.io/kubectl/pkg/util/openapi",
	"k8s.io/kubectl/pkg/util/templates",
	"k8s.io/kubectl/pkg/util/term",
	"k8s.io/kubectl/pkg/validation",
}

// IsInert reports whether a package belongs to an Inert library or is one
// of the InertPackages.
func IsInert(path string) bool {
	path = Unvendor(path)
	if slices.Contains(InertPackages, path) {
		return true
	}
	for _, m := range Inert {
		if within(path, m) {
			return true
		}
	}
	return false
}

// Unvendor returns the import path a package has outside a vendor
// directory: in GOPATH mode a vendored package's path is that of the
// directory holding it, github.com/foo/bar/vendor/k8s.io/client-go/...,
// and every question of the catalog about a path or a name asks it of
// k8s.io/client-go/.... Module-mode paths have no vendor element and are
// returned as they are. A full function name is unvendored too:
// (*github.com/foo/bar/vendor/k8s.io/apimachinery/pkg/runtime.Scheme).Convert
// becomes (*k8s.io/apimachinery/pkg/runtime.Scheme).Convert.
func Unvendor(s string) string {
	for {
		i := vendorElem(s)
		if i < 0 {
			return s
		}
		// The path holding the vendor directory begins after the last
		// character that cannot be in an import path: "(", "*", "[", ...
		j := strings.LastIndexAny(s[:i], "(*[], ") + 1
		s = s[:j] + s[i+len("vendor/"):]
	}
}

// vendorElem returns the index of the first path element "vendor/" in s,
// or -1.
func vendorElem(s string) int {
	for off := 0; ; {
		i := strings.Index(s[off:], "vendor/")
		if i < 0 {
			return -1
		}
		i += off
		if i == 0 || strings.ContainsRune("/(*[], ", rune(s[i-1])) {
			return i
		}
		off = i + 1
	}
}

// PkgPath returns the path of a package as the catalog knows it: without
// a vendor directory (see Unvendor); "" for nil.
func PkgPath(p *types.Package) string {
	if p == nil {
		return ""
	}
	return Unvendor(p.Path())
}

// IsModelled reports whether a package belongs to a modelled library.
func IsModelled(path string) bool {
	path = Unvendor(path)
	for _, m := range Modelled {
		if within(path, m) {
			return true
		}
	}
	return false
}

// within reports whether path is prefix or a package below it.
func within(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}

// IsAPIGroup reports whether a package holds the built-in API types
// (k8s.io/api/apps/v1, ...): objects whose update the API server allows
// without a resourceVersion.
func IsAPIGroup(path string) bool { return strings.HasPrefix(Unvendor(path), "k8s.io/api/") }

// IsBuiltInType reports whether t (or *t) is a named type, not an
// interface, of a Kubernetes API group package: an object of a built-in
// kind.
func IsBuiltInType(t types.Type) bool {
	if ptr, ok := t.Underlying().(*types.Pointer); ok {
		t = ptr.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || types.IsInterface(n) {
		return false
	}
	return IsAPIGroup(PkgPath(n.Obj().Pkg()))
}

// IsKubernetesImport reports whether an import path belongs to the
// Kubernetes project (k8s.io/..., sigs.k8s.io/...): a suggested fix adds
// its import to the group of these.
func IsKubernetesImport(path string) bool {
	path = Unvendor(path)
	return strings.HasPrefix(path, "k8s.io/") || strings.HasPrefix(path, "sigs.k8s.io/")
}

// apiServerStorage are the packages of API server storage: code that
// imports one implements storage and issues resourceVersions itself.
var apiServerStorage = []string{
	"k8s.io/apiserver/pkg/storage", // and below
}

// apiServerStoragePrefixes are storage backends by path prefix.
var apiServerStoragePrefixes = []string{
	"go.etcd.io/etcd/",
}

// IsAPIServerStorage reports whether a package is API server storage.
func IsAPIServerStorage(path string) bool {
	path = Unvendor(path)
	for _, p := range apiServerStorage {
		if within(path, p) {
			return true
		}
	}
	for _, p := range apiServerStoragePrefixes {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

// logPackages log whatever they are given, by function or method.
var logPackages = map[string]bool{
	"github.com/go-logr/logr":                true,
	"k8s.io/klog":                            true,
	"k8s.io/klog/v2":                         true,
	"log":                                    true,
	"log/slog":                               true,
	"go.uber.org/zap":                        true,
	"github.com/sirupsen/logrus":             true,
	"k8s.io/client-go/tools/record":          true, // EventRecorder: an event is a log line on the object
	"k8s.io/client-go/tools/events":          true,
	"sigs.k8s.io/controller-runtime/pkg/log": true,
	"github.com/coreos/pkg/capnslog":         true,
	"github.com/golang/glog":                 true,
	"github.com/rs/zerolog":                  true,
	"github.com/rs/zerolog/log":              true,
	"github.com/go-kit/log":                  true,
	"github.com/go-kit/log/level":            true,
	"github.com/hashicorp/go-hclog":          true,
	"github.com/charmbracelet/log":           true,
}

// IsLogging reports whether a package only logs what it is given.
func IsLogging(path string) bool { return logPackages[Unvendor(path)] }

// Libraries are the path prefixes of every library this catalog names.
// Only package model spells them; a test holds the rest of lostupdate to it.
var Libraries = []string{
	"k8s.io/",
	"sigs.k8s.io/",
	"github.com/evanphx/json-patch",
	"gopkg.in/evanphx/json-patch",
	"gomodules.xyz/jsonpatch",
	"go.etcd.io/etcd",
	"github.com/fluxcd/",
	"github.com/cenkalti/backoff",
	"github.com/avast/retry-go",
	"github.com/sethvargo/go-retry",
	"github.com/pkg/errors",
	"github.com/hashicorp/go-multierror",
	"go.uber.org/multierr",
	"github.com/go-logr/",
	"go.uber.org/zap",
	"github.com/sirupsen/logrus",
	"github.com/coreos/pkg/capnslog",
	"github.com/golang/glog",
	"github.com/rs/zerolog",
	"github.com/go-kit/log",
	"github.com/hashicorp/go-hclog",
	"github.com/charmbracelet/log",
	"gopkg.in/yaml",
	"github.com/onsi/",
	"github.com/stretchr/testify",
}

// testPackages are the packages only test code imports: the standard
// library's testing, and the test frameworks. A file that imports one is
// test code, whatever its name (an e2e suite, a test helper package).
var testPackages = []string{
	"testing", // and below: testing/fstest, ...
	"github.com/onsi/ginkgo",
	"github.com/onsi/ginkgo/v2",
	"github.com/onsi/gomega",
	"github.com/stretchr/testify",
}

// IsTestPackage reports whether only test code imports a package: testing
// or a test framework (ginkgo, gomega, testify), or a package below one.
func IsTestPackage(path string) bool {
	path = Unvendor(path)
	for _, p := range testPackages {
		if within(path, p) {
			return true
		}
	}
	return false
}

// IsTestSupportDir reports whether a package directory, given relative to
// its module's root (slash-separated), holds test code by the conventions
// of Go repositories:
//   - at the top, or right under a directory named internal, pkg or hack
//     (at any depth: a component of a repository keeps its own): test,
//     tests, testing, testenv, testdata, or a name ending in tests or _test
//     (test/framework, integrationtests/gitjob, internal/test/util,
//     job-scheduler/internal/test);
//   - anywhere: e2e or a name ending in e2e, and names only test helpers
//     have (testutil, testhelpers, testframework, testfixtures, ...).
//
// A tests directory deeper down may hold production code (the controllers
// of an operator whose custom resources are tests), and names that only
// begin with test (testcode, tester) are not enough; envtest, a library,
// is no test directory. The module's own path is not looked at: a module
// named test-operator is not a test.
func IsTestSupportDir(rel string) bool {
	els := strings.Split(rel, "/")
	for i, el := range els {
		top := i == 0 || els[i-1] == "internal" || els[i-1] == "pkg" || els[i-1] == "hack"
		switch {
		case el == "e2e" || strings.HasSuffix(el, "e2e") || testHelperDirs[el]:
			return true
		case top && (topTestDirs[el] || strings.HasSuffix(el, "tests") || strings.HasSuffix(el, "_test")):
			return true
		}
	}
	return false
}

// topTestDirs are the names of test directories at the top of a module.
var topTestDirs = map[string]bool{"test": true, "tests": true, "testing": true, "testenv": true, "testdata": true}

// testHelperDirs are directory names only test helpers have.
var testHelperDirs = map[string]bool{
	"testutil": true, "testutils": true, "testhelper": true, "testhelpers": true,
	"testframework": true, "testfixtures": true, "testsupport": true,
	"testlib": true, "testlibs": true, "testcommon": true,
}

// WithinRepo returns an import path without the part that names its
// repository, for a driver that does not say which module a package is in:
// github.com/owner/repo/test/framework gives test/framework. A path whose
// first element is not a host name (no dot) is returned as it is.
func WithinRepo(path string) string {
	els := strings.Split(path, "/")
	if len(els) == 0 || !strings.Contains(els[0], ".") {
		return path
	}
	n := 3 // host/owner/repo
	if els[0] == "k8s.io" || els[0] == "sigs.k8s.io" || els[0] == "go.etcd.io" {
		n = 2 // host/repo
	}
	if len(els) <= n {
		return ""
	}
	return strings.Join(els[n:], "/")
}

// IsFakePackage reports whether a package holds fake clients: a package
// named fake, as client-go's kubernetes/fake, dynamic/fake and metadata/fake,
// controller-runtime's pkg/client/fake and every clientset client-gen
// generates for custom resources (.../clientset/versioned/fake) are. Writes
// through a fake client reach no API server, and no one else writes its
// objects.
func IsFakePackage(path string) bool { return path == "fake" || strings.HasSuffix(path, "/fake") }

// IsFakeType reports whether a value of a type is a fake client: a named
// type, or a pointer to one, of a fake package (*fake.Clientset,
// *fake.FakeDynamicClient). A fake client is told by its type wherever it
// comes from: a constructor, a helper of the test that returns it among
// other values, a field.
func IsFakeType(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && IsFakePackage(PkgPath(n.Obj().Pkg()))
}
