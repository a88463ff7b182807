// Package mutations holds the changes of an object's lists that a merge
// patch of it sends whole: the setters of its metadata, the owner-reference
// helpers, helpers that change a list of their parameter, and filtered
// lists; each next to the safe form of the same code.
package mutations

const finalizer = "widgets.example.com/cleanup"
