package flow

import (
	"fmt"
	"slices"
	"testing"

	"golang.org/x/tools/go/ssa"
)

// join is the join of the origin lattice as flow computes it.
func join(a, b []Origin) []Origin {
	return dedupOrigins(slices.Concat(a, b))
}

// sameSet reports whether two sets of origins hold the same keys.
func sameSet(a, b []Origin) bool {
	key := func(o Origin) string { return fmt.Sprintf("%v/%p/%p", o.Kind, o.Site, o.Param) }
	ka, kb := map[string]bool{}, map[string]bool{}
	for _, o := range a {
		ka[key(o)] = true
	}
	for _, o := range b {
		kb[key(o)] = true
	}
	if len(ka) != len(kb) {
		return false
	}
	for k := range ka {
		if !kb[k] {
			return false
		}
	}
	return true
}

// latticeValues are sets of origins on distinct sites and parameters, of
// every kind, with repeats.
func latticeValues() [][]Origin {
	sites := []ssa.Instruction{new(ssa.Call), new(ssa.Store), new(ssa.Alloc)}
	param := new(ssa.Parameter)
	var all []Origin
	for k := Unknown; k <= Precondition; k++ {
		for _, s := range sites {
			all = append(all, Origin{Kind: k, Site: s})
		}
	}
	all = append(all, Origin{Kind: Unknown, Param: param}, Origin{Kind: Unknown})
	values := [][]Origin{nil}
	for i := range all {
		values = append(values, []Origin{all[i]})
		values = append(values, []Origin{all[i], all[(i+5)%len(all)], all[i]})
	}
	values = append(values,
		[]Origin{{Kind: Constructed, Site: sites[0]}, {Kind: Cleared, Site: sites[1]}},
		[]Origin{{Kind: Read, Site: sites[0]}, {Kind: CacheRead, Site: sites[2]}},
	)
	return values
}

func TestOriginJoinLaws(t *testing.T) {
	vs := latticeValues()
	for i, a := range vs {
		if !sameSet(join(a, nil), a) || !sameSet(join(nil, a), a) {
			t.Errorf("value %d: the empty set is not an identity", i)
		}
		if !sameSet(join(a, a), a) {
			t.Errorf("value %d: join is not idempotent", i)
		}
		for j, b := range vs {
			ab := join(a, b)
			if !sameSet(ab, join(b, a)) {
				t.Errorf("values %d, %d: join is not commutative", i, j)
			}
			// More origins never make a write look unconditional.
			if allNoRV(ab) && len(a) > 0 && len(b) > 0 && !(allNoRV(a) && allNoRV(b)) {
				t.Errorf("values %d, %d: AllNoResourceVersion of the join without it of both", i, j)
			}
			if allNoRV(a) && allNoRV(b) && !allNoRV(ab) {
				t.Errorf("values %d, %d: AllNoResourceVersion of both, not of the join", i, j)
			}
			for k, c := range vs[:12] {
				if !sameSet(join(join(a, b), c), join(a, join(b, c))) {
					t.Errorf("values %d, %d, %d: join is not associative", i, j, k)
				}
			}
		}
	}
}

func TestKindJoinLaws(t *testing.T) {
	kinds := []Kind{Unknown, Read, CacheRead, Constructed, Cleared, Precondition}
	for _, a := range kinds {
		if joinKind(a, a) != a {
			t.Errorf("%v ⊔ %v = %v: not idempotent", a, a, joinKind(a, a))
		}
		if joinKind(a, Unknown) != Unknown {
			t.Errorf("%v ⊔ unknown = %v: Unknown does not absorb", a, joinKind(a, Unknown))
		}
		for _, b := range kinds {
			ab := joinKind(a, b)
			if ab != joinKind(b, a) {
				t.Errorf("%v ⊔ %v: not commutative", a, b)
			}
			if joinKind(ab, a) != ab || joinKind(ab, b) != ab {
				t.Errorf("%v ⊔ %v = %v is not an upper bound of both", a, b, ab)
			}
			for _, c := range kinds {
				if joinKind(ab, c) != joinKind(a, joinKind(b, c)) {
					t.Errorf("(%v ⊔ %v) ⊔ %v: not associative", a, b, c)
				}
			}
		}
	}
	for _, tc := range []struct{ a, b, want Kind }{
		{Read, CacheRead, CacheRead},
		{Cleared, Constructed, Constructed},
		{Read, Constructed, Unknown},
		{Precondition, Read, Unknown},
	} {
		if got := joinKind(tc.a, tc.b); got != tc.want {
			t.Errorf("%v ⊔ %v = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestUniformKind(t *testing.T) {
	for _, tc := range []struct {
		kinds []Kind
		want  Kind
		ok    bool
	}{
		{nil, Unknown, false},
		{[]Kind{Read, Read}, Read, true},
		{[]Kind{Read, CacheRead, Read}, CacheRead, true},
		{[]Kind{Cleared}, Cleared, true},
		{[]Kind{Cleared, Constructed, Cleared}, Constructed, true},
		{[]Kind{Read, Constructed}, Unknown, false},
		{[]Kind{Precondition}, Unknown, false},
		{[]Kind{Unknown, Read}, Unknown, false},
	} {
		var os []Origin
		for _, k := range tc.kinds {
			os = append(os, Origin{Kind: k})
		}
		if got, ok := uniformKind(os); got != tc.want || ok != tc.ok {
			t.Errorf("uniformKind(%v) = %v, %v; want %v, %v", tc.kinds, got, ok, tc.want, tc.ok)
		}
	}
}
