package model

import (
	"go/token"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Every name of a function in lostupdate is types.Func.FullName of its
// generic origin: "strconv.Atoi", "(*k8s.io/apimachinery/pkg/runtime.Scheme).Convert".
// The catalog is keyed by such names, the user's configuration is written
// in them, and ShortName shortens them for messages.

// FuncName returns the full name of a declared function or method, of its
// generic origin for an instance, without a vendor directory in its
// package path (see Unvendor); "" for nil.
func FuncName(obj *types.Func) string {
	if obj == nil {
		return ""
	}
	return Unvendor(obj.Origin().FullName())
}

// FunctionName returns the full name of an SSA function: of the declared
// function it is (or is an instance of), "" for closures and wrappers
// without one.
func FunctionName(fn *ssa.Function) string {
	if fn == nil {
		return ""
	}
	if fn.Origin() != nil {
		fn = fn.Origin()
	}
	obj, _ := fn.Object().(*types.Func)
	return FuncName(obj)
}

// CalleeName returns the full name of the function or interface method a
// call invokes, the generic origin for instances, or "".
// A call of a variable of a library that holds one of its functions
// (ctrl.SetControllerReference) is named after that function.
func CalleeName(c *ssa.CallCommon) string {
	if c.IsInvoke() {
		return FuncName(c.Method)
	}
	if fn := c.StaticCallee(); fn != nil {
		return FunctionName(fn)
	}
	if ld, ok := c.Value.(*ssa.UnOp); ok && ld.Op == token.MUL {
		if g, ok := ld.X.(*ssa.Global); ok && g.Pkg != nil {
			return funcVars[g.Pkg.Pkg.Path()+"."+g.Name()]
		}
	}
	return ""
}

// ShortName shortens a full function name for messages: the last element
// of the package path, the receiver type without parentheses or star:
// "retry.RetryOnConflict", "big.Int.SetString", "x.T.M".
func ShortName(full string) string {
	out := make([]byte, 0, len(full))
	for i := 0; i < len(full); i++ {
		switch full[i] {
		case '(', ')', '*':
			continue
		}
		out = append(out, full[i])
	}
	name := string(out)
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// Tag looks a key up in a struct tag, as reflect.StructTag.Get does.
func Tag(tag, key string) string { return reflect.StructTag(tag).Get(key) }

// JSONName returns the name encoding/json gives a struct field: the name in
// its json tag, or the Go field name itself when the tag gives none
// (encoding/json matches it case-insensitively when decoding, but writes it
// as it is spelled). A field tagged "-" is not encoded: its name is "-".
func JSONName(field, tag string) string {
	name, _, _ := strings.Cut(Tag(tag, "json"), ",")
	if name == "" {
		return field
	}
	return name
}
