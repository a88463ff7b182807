package model

import (
	"go/constant"
	"go/token"
	"go/types"
	"time"

	"golang.org/x/tools/go/ssa"
)

// backoffVars are the wait.Backoff variables of the client libraries, by
// full name, with the first and shortest wait they set between attempts.
var backoffVars = map[string]time.Duration{
	Retry + ".DefaultRetry":   10 * time.Millisecond,
	Retry + ".DefaultBackoff": 10 * time.Millisecond,
}

// MinWait returns a lower bound of the wait between two attempts that v
// sets: a time.Duration (a poll's interval, the argument of time.Sleep) or
// a wait.Backoff, whose Duration is its first and shortest wait (client
// code does not shrink it: Factor is 0 or at least 1). A sum is at least
// its largest constant term: a base plus a jitter (500*time.Millisecond +
// jitter*time.Duration(rand.Intn(5))). Zero when it is not known.
//
// fixed, when not nil, gives the one value a package variable holds (its
// initialiser, where nothing else assigns it or takes its address), or nil:
// a retry interval kept in a variable (var APIRetryInterval = 500 *
// time.Millisecond) is bounded by it.
func MinWait(v ssa.Value, fixed func(*ssa.Global) ssa.Value) time.Duration {
	return (&waits{fixed}).minWait(v, 0)
}

type waits struct {
	fixed func(*ssa.Global) ssa.Value
}

func (ws *waits) minWait(v ssa.Value, depth int) time.Duration {
	if v == nil || depth > 6 {
		return 0
	}
	switch x := v.(type) {
	case *ssa.Const:
		if x.Value != nil && x.Value.Kind() == constant.Int {
			if n, ok := constant.Int64Val(x.Value); ok && n > 0 {
				return time.Duration(n)
			}
		}
	case *ssa.Convert:
		return ws.minWait(x.X, depth+1)
	case *ssa.ChangeType:
		return ws.minWait(x.X, depth+1)
	case *ssa.BinOp:
		switch x.Op {
		case token.ADD:
			return max(ws.minWait(x.X, depth+1), ws.minWait(x.Y, depth+1))
		case token.MUL:
			a, b := ws.minWait(x.X, depth+1), ws.minWait(x.Y, depth+1)
			_, ca := x.X.(*ssa.Const)
			_, cb := x.Y.(*ssa.Const)
			if ca && cb {
				return a * b
			}
		}
	case *ssa.Phi:
		var low time.Duration
		for i, e := range x.Edges {
			w := ws.minWait(e, depth+1)
			if i == 0 || w < low {
				low = w
			}
		}
		return low
	case *ssa.UnOp:
		if x.Op != token.MUL {
			return 0
		}
		switch a := x.X.(type) {
		case *ssa.Global:
			if a.Pkg == nil {
				return 0
			}
			if w, ok := backoffVars[a.Pkg.Pkg.Path()+"."+a.Name()]; ok {
				return w
			}
			if ws.fixed != nil {
				if init := ws.fixed(a); init != nil {
					return ws.minWait(init, depth+1)
				}
			}
		case *ssa.Alloc:
			// wait.Backoff{Duration: d, ...}: the store into its field.
			if !isBackoff(a.Type()) {
				return 0
			}
			// The least of the values stored into its Duration field.
			var low time.Duration
			found := false
			for _, r := range *a.Referrers() {
				fa, ok := r.(*ssa.FieldAddr)
				if !ok || fa.X != a {
					continue
				}
				if f := fieldOf(fa); f == nil || f.Name() != "Duration" {
					continue
				}
				for _, rr := range *fa.Referrers() {
					if st, ok := rr.(*ssa.Store); ok && st.Addr == fa {
						if w := ws.minWait(st.Val, depth+1); !found || w < low {
							low, found = w, true
						}
					}
				}
			}
			return low
		}
	}
	return 0
}

func isBackoff(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	return isNamed(t, Wait, "Backoff")
}

func fieldOf(fa *ssa.FieldAddr) *types.Var {
	p, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	s, ok := p.Elem().Underlying().(*types.Struct)
	if !ok || fa.Field >= s.NumFields() {
		return nil
	}
	return s.Field(fa.Field)
}
