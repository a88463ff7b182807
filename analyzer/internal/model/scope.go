package model

// CarriesFacts reports whether a package can hold lostupdate's summaries of
// client calls, given its import path and whether each of its direct imports
// does: it is outside the Modelled libraries and imports one of their
// packages, or a package that carries facts (a shared library that wraps
// client-go counts as a client package for its importers). Everything else
// can be read from export data by a driver that loads only fact carriers
// from source; see cmd/lostupdate. A package of an Inert library carries
// none.
func CarriesFacts(path string, imports []string, carries func(string) bool) bool {
	if IsModelled(path) || IsInert(path) {
		return false
	}
	for _, imp := range imports {
		if IsModelled(imp) || carries(imp) {
			return true
		}
	}
	return false
}
