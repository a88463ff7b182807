package model

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// What the model knows of changes to objects: helpers and methods that
// change a list of an object, the unstructured setters, the identity
// fields, and calls that only look at an object.

// ListChange is a change of a list of an object by a helper or a method.
type ListChange struct {
	Arg    int    // helpers: the object argument (not counting a receiver)
	Field  string // the list's JSON path from the object
	Merge  bool   // a strategic merge patch merges the list by key
	Remove bool   // it only removes elements (RemoveFinalizer)
}

// listMutators change a list of their object argument, by full name.
var listMutators = map[string]ListChange{
	CRUtil + ".AddFinalizer":              {0, "finalizers", true, false},
	CRUtil + ".RemoveFinalizer":           {0, "finalizers", true, true},
	CRUtil + ".SetControllerReference":    {1, "ownerReferences", true, false}, // (owner, object, scheme)
	CRUtil + ".SetOwnerReference":         {1, "ownerReferences", true, false},
	CRUtil + ".RemoveOwnerReference":      {1, "ownerReferences", true, true},
	CRUtil + ".RemoveControllerReference": {1, "ownerReferences", true, true},
}

// ListMutator recognises a call of a helper that changes a list of its
// object argument: controllerutil.AddFinalizer, SetControllerReference, ...
func ListMutator(c *ssa.CallCommon) (ListChange, bool) {
	m, ok := listMutators[CalleeName(c)]
	return m, ok
}

// listMethods are methods of objects (metav1.Object) that replace a list,
// by method name: every object type has them.
var listMethods = map[string]ListChange{
	"SetFinalizers":      {-1, "finalizers", true, false},
	"SetOwnerReferences": {-1, "ownerReferences", true, false},
	"SetManagedFields":   {-1, "managedFields", false, false},
}

// ListMethod recognises, by its name, a method of an object that replaces
// one of its lists (SetFinalizers, ...); Arg is -1.
func ListMethod(name string) (ListChange, bool) {
	m, ok := listMethods[name]
	return m, ok
}

// listParts return a part of the list they are given (the argument, by
// full name): every element of the result is an element of it, so a list
// set to the result only loses elements.
var listParts = map[string]int{
	"slices.Clone":       0,
	"slices.Clip":        0,
	"slices.Compact":     0,
	"slices.CompactFunc": 0,
	"slices.Delete":      0,
	"slices.DeleteFunc":  0,
}

// ListPart recognises a call that returns a part of a list argument
// (slices.DeleteFunc(l, f)), and returns that argument's index. Besides the
// table, a function of any package named for a removal (Remove..., Delete...,
// Without..., Filter..., Exclude..., Drop...) whose one result is a list,
// of the type of exactly one of its parameters, is taken for a filter of
// that argument: the RemoveString(list, s) and RemoveStringInSlice(s, list)
// that many operators keep in a utils package.
func ListPart(c *ssa.CallCommon) (int, bool) {
	if i, ok := listParts[CalleeName(c)]; ok {
		return i, ok
	}
	fn := c.StaticCallee()
	if fn == nil || fn.Signature.Recv() != nil || fn.Parent() != nil {
		return 0, false
	}
	name := strings.ToLower(fn.Name())
	removal := false
	for _, prefix := range []string{"remove", "delete", "without", "filter", "exclude", "drop"} {
		removal = removal || strings.HasPrefix(name, prefix)
	}
	sig := fn.Signature
	if !removal || sig.Params().Len() < 1 || sig.Results().Len() != 1 {
		return 0, false
	}
	res := sig.Results().At(0).Type()
	if _, ok := res.Underlying().(*types.Slice); !ok {
		return 0, false
	}
	list := -1
	for i := 0; i < sig.Params().Len(); i++ {
		if sig.Variadic() && i == sig.Params().Len()-1 {
			break // the elements to remove (RemoveAll(list, xs...)), not a list
		}
		if types.Identical(sig.Params().At(i).Type(), res) {
			if list >= 0 {
				return 0, false // two lists: which one is filtered?
			}
			list = i
		}
	}
	return list, list >= 0
}

// listSorters reorder, in place, the list they are given as argument 0 (or
// a conversion of it, sort.StringSlice(l)), by full name.
var listSorters = map[string]bool{
	"sort.Float64s":         true,
	"sort.Ints":             true,
	"sort.Slice":            true,
	"sort.SliceStable":      true,
	"sort.Sort":             true,
	"sort.Stable":           true,
	"sort.Strings":          true,
	"slices.Reverse":        true,
	"slices.Sort":           true,
	"slices.SortFunc":       true,
	"slices.SortStableFunc": true,
}

// SortsList recognises a call that reorders the list given as its first
// argument in place: sort.Strings(l), slices.SortFunc(l, cmp).
func SortsList(c *ssa.CallCommon) bool { return listSorters[CalleeName(c)] }

// identityFields are fields (and, with Get, getters) whose value says which
// object it is, not what state it is in: computing a new value from them is
// not a read-modify-write.
var identityFields = map[string]bool{
	"Name": true, "Namespace": true, "UID": true, "Generation": true, "ResourceVersion": true,
	"GenerateName": true, "CreationTimestamp": true, "DeletionTimestamp": true, "Kind": true, "APIVersion": true,
}

// IsIdentityField reports whether a field of an object (by Go name, or the
// name after Get of a getter) names the object rather than its state.
func IsIdentityField(name string) bool { return identityFields[name] }

// NestedOp is what an unstructured helper does to a field of the map of an
// Unstructured object (argument 0).
type NestedOp uint8

const (
	NestedSet      NestedOp = iota + 1 // SetNestedField(obj, value, fields...)
	NestedSetSlice                     // SetNestedSlice, SetNestedStringSlice(obj, value, fields...): a list
	NestedRemove                       // RemoveNestedField(obj, fields...)
)

var nestedOps = map[string]NestedOp{
	Unstructured + ".SetNestedField":       NestedSet,
	Unstructured + ".SetNestedSlice":       NestedSetSlice,
	Unstructured + ".SetNestedStringSlice": NestedSetSlice,
	Unstructured + ".RemoveNestedField":    NestedRemove,
}

// NestedOpOf recognises an unstructured helper that changes a field.
func NestedOpOf(c *ssa.CallCommon) (NestedOp, bool) {
	op, ok := nestedOps[CalleeName(c)]
	return op, ok
}

// NestedString is unstructured.NestedString, which reads a string field
// (metadata.resourceVersion among others) of an Unstructured's map.
const NestedString = Unstructured + ".NestedString"

// readOnlyPackages only look at what they are given, by function.
var readOnlyPackages = []string{"fmt", "reflect", "encoding/json"}

// readOnlyFuncs only look at what they are given, by full name: the
// condition finders return a pointer into the list, but do not change it.
var readOnlyFuncs = map[string]bool{
	Meta + ".FindStatusCondition":              true,
	Meta + ".IsStatusConditionTrue":            true,
	Meta + ".IsStatusConditionFalse":           true,
	Meta + ".IsStatusConditionPresentAndEqual": true,
	// equality.Semantic.DeepEqual: the method of the forked reflect
	// package that conversion.Equalities embeds.
	"(k8s.io/apimachinery/third_party/forked/golang/reflect.Equalities).DeepEqual": true,
}

// IsReadOnly reports a call that only looks at what it is given: logging,
// formatting, wrapping errors, encoding, the status-condition finders.
func IsReadOnly(c *ssa.CallCommon) bool {
	switch ErrorUseOf(c) {
	case ErrLog, ErrWrap:
		return true
	}
	name := CalleeName(c)
	for _, p := range readOnlyPackages {
		if strings.HasPrefix(name, p+".") {
			return true
		}
	}
	return readOnlyFuncs[name]
}

// CalledName returns the bare name of the function or method a call
// invokes (Update, SetFinalizers), "" for a call of a function value.
func CalledName(c *ssa.CallCommon) string {
	if c.IsInvoke() {
		return c.Method.Name()
	}
	if fn := c.StaticCallee(); fn != nil {
		return fn.Name()
	}
	return ""
}

// IsUnstructured reports whether t (or *t) is unstructured.Unstructured,
// whose Object field is the map holding the whole object.
func IsUnstructured(t types.Type) bool { return isUnstructured(t) }
