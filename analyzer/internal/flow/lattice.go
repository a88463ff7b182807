package flow

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// ---- the origin lattice ----
//
// What flow knows of where an object comes from is a value of the origin
// lattice, and everything that combines two such values (two branches of a
// phi, the values stored into one variable, the events on an alias, the
// returns of a function) uses its joins.
//
// The elements are finite sets of Origins. Two origins are the same element
// when they have the same key (Kind, Site, Param); the other fields (Via,
// RV0, Decoded) are functions of the site (the helper called there, the
// options of the read there, the decode there), so that equal keys never
// disagree on them.
//
// The join of two sets is their union by key, computed as dedupOrigins of
// their concatenation: the object may come from any origin of either. Its identity is the empty set (nothing is known:
// a value not yet described, or met again in a cycle). It is commutative,
// associative and idempotent up to the order of the origins, which is the
// order they were found in and matters only for the order of related
// information in messages. More origins never make a verdict bolder:
//
//   - AllNoResourceVersion (every origin Constructed or Cleared, and at least
//     one) holds for a join only if it holds for both sides (or one side is
//     empty). It decides that an Update is unconditional
//     (writes.Condition): unconditional-update reports it, missing-retry and
//     unbounded-retry skip it. An Unknown origin makes it false, so what
//     flow cannot follow is never reported as unconditional.
//   - stale-retry reads the sites and parameters of the origins: one inside
//     the retried attempt, or Untraced, makes the object fresh; the Read and
//     CacheRead origins outside are the stale reads it names.
//   - stale-read reads the read sites, RV0 and CacheRead.
//   - unconditional-patch reads Read and CacheRead (an object read, so a
//     read-modify-write), and AllNoResourceVersion and Cleared of the base
//     of a diff.
//
// A summary (FuncFact) exports one Kind for what a function returns, the
// join of the kinds of its returns (joinKind): a fact holds one kind, not a
// set. On kinds, the order is
//
//	Read < CacheRead < Unknown        (a read, and a read that may be stale)
//	Cleared < Constructed < Unknown   (no resourceVersion: cleared, or built)
//	Precondition < Unknown
//
// and the join is the least upper bound in it: commutative, associative and
// idempotent, with Unknown absorbing. A summary of Unknown or Precondition is
// not exported (uniformKind).

// Kind is where an object comes from: its provenance.
type Kind uint8

const (
	Unknown      Kind = iota // a parameter, a field, a global, a call the model does not know
	Read                     // a Get or List served by the API server, or the object a write returned
	CacheRead                // a lister or informer store
	Constructed              // a composite literal, new(T), a zero value, an object decoded from a manifest
	Cleared                  // its resourceVersion was set to ""
	Precondition             // its resourceVersion was set from a read: a write of it is conditional
)

func (k Kind) String() string {
	return [...]string{"unknown", "read", "cache read", "constructed", "cleared", "precondition"}[k]
}

// NoResourceVersion reports whether an object of this kind carries no
// resourceVersion, so that a PUT of it is unconditional.
func (k Kind) NoResourceVersion() bool { return k == Constructed || k == Cleared }

// Origin is one possible provenance of an object.
type Origin struct {
	Kind    Kind
	Site    ssa.Instruction // the read call, literal, store or call that gave the object this origin; nil for a parameter
	Param   *ssa.Parameter  // Unknown: the parameter the object is
	Via     *types.Func     // the helper function whose summary gave this origin
	RV0     bool            // Read or CacheRead: read with ResourceVersion "0"
	Decoded bool            // Constructed: decoded from a manifest
}

// Pos returns where the origin is, or token.NoPos.
func (o Origin) Pos() token.Pos {
	if o.Site != nil {
		return Pos(o.Site)
	}
	if o.Param != nil {
		return o.Param.Pos()
	}
	return token.NoPos
}

// Untraced reports whether the analysis cannot place an origin: an Unknown
// that is neither a parameter nor the result of an instruction it saw. Such
// an object may come from anywhere, from a read inside a retry too.
func (o Origin) Untraced() bool { return o.Kind == Unknown && o.Param == nil && o.Site == nil }

// dedupOrigins reduces a list of origins to a set: the first of the origins
// of each key, in order. It reuses the list. Of a concatenation, it is the
// join of the parts.
func dedupOrigins(os []Origin) []Origin {
	type key struct {
		k     Kind
		site  ssa.Instruction
		param *ssa.Parameter
	}
	seen := map[key]bool{}
	out := os[:0]
	for _, o := range os {
		k := key{o.Kind, o.Site, o.Param}
		if !seen[k] {
			seen[k] = true
			out = append(out, o)
		}
	}
	return out
}

// allNoRV reports whether every origin carries no resourceVersion.
func allNoRV(os []Origin) bool {
	if len(os) == 0 {
		return false
	}
	for _, o := range os {
		if !o.Kind.NoResourceVersion() {
			return false
		}
	}
	return true
}

// AllNoResourceVersion reports whether an object certainly carries no
// resourceVersion from a read: every origin is constructed or cleared.
func AllNoResourceVersion(os []Origin) bool { return allNoRV(os) }

// joinKind is the join of two kinds in the order of summaries.
func joinKind(a, b Kind) Kind {
	switch {
	case a == b:
		return a
	case isRead(a) && isRead(b):
		return CacheRead // reads of both kinds are still reads
	case a.NoResourceVersion() && b.NoResourceVersion():
		return Constructed
	}
	return Unknown
}

func isRead(k Kind) bool { return k == Read || k == CacheRead }

// uniformKind returns the join of the kinds of the origins, if it is one a
// caller can use.
func uniformKind(os []Origin) (Kind, bool) {
	if len(os) == 0 {
		return Unknown, false
	}
	k := os[0].Kind
	for _, o := range os[1:] {
		k = joinKind(k, o.Kind)
	}
	switch k {
	case Read, CacheRead, Constructed, Cleared:
		return k, true
	}
	return Unknown, false
}
