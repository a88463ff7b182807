package rv

import (
	"go/types"
	"strings"
	"unicode"

	"github.com/lostupdate/lostupdate/analyzer/internal/model"
)

// rvName reports whether a name says it holds a resourceVersion:
// resourceVersion, lastResourceVersion, rv, rv2, minRV, lastRv, rvOld.
func rvName(name string) bool {
	lower := strings.ToLower(name)
	if strings.HasSuffix(lower, "resourceversion") {
		return true
	}
	trimmed := strings.TrimRightFunc(name, unicode.IsDigit)
	if strings.ToLower(trimmed) == "rv" {
		return true
	}
	if len(trimmed) > 2 && (strings.HasSuffix(trimmed, "RV") || strings.HasSuffix(trimmed, "Rv")) {
		return unicode.IsLower(rune(trimmed[len(trimmed)-3])) || unicode.IsDigit(rune(trimmed[len(trimmed)-3]))
	}
	if len(name) > 2 && strings.HasPrefix(name, "rv") && unicode.IsUpper(rune(name[2])) {
		return true
	}
	return false
}

// versionKey reports whether a constant map key (an annotation, a label, a
// ConfigMap entry) names a resourceVersion: "example.com/last-resource-version",
// "observedResourceVersion".
func versionKey(k string) bool {
	k = strings.ToLower(k)
	return strings.Contains(k, "resourceversion") || strings.Contains(k, "resource-version") || strings.Contains(k, "resource_version")
}

// isString reports whether t is a string type.
func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// isStringOrPtr reports whether t is a string or a pointer to one.
func isStringOrPtr(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	return isString(t)
}

// namedOf returns the named type of t or *t.
func namedOf(t types.Type) *types.Named {
	t = types.Unalias(t)
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	n, _ := t.(*types.Named)
	return n
}

// isNamedRVField reports whether a field of a program's own struct type
// says by its name and type that it holds a resourceVersion.
func isNamedRVField(t types.Type, f *types.Var) bool {
	if !isStringOrPtr(f.Type()) || !rvName(f.Name()) {
		return false
	}
	if n := namedOf(t); n != nil && n.Obj().Pkg() != nil && model.IsModelled(n.Obj().Pkg().Path()) {
		return false
	}
	return true
}

// isRVMethod reports whether a method returns a resourceVersion:
// GetResourceVersion() string, LastSyncResourceVersion() string, and the
// form of apimachinery's meta.MetadataAccessor that takes the object and
// can fail, ResourceVersion(obj) (string, error).
func isRVMethod(name string, sig *types.Signature) bool {
	if !strings.HasSuffix(name, "ResourceVersion") || strings.HasPrefix(name, "Set") {
		return false
	}
	res := sig.Results()
	switch {
	case sig.Params().Len() == 0 && res.Len() == 1:
		return isString(res.At(0).Type())
	case sig.Params().Len() == 1 && res.Len() == 2:
		return types.IsInterface(sig.Params().At(0).Type()) && isString(res.At(0).Type()) && model.IsError(res.At(1).Type())
	}
	return false
}
