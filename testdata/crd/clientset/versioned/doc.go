// Hand-written imitation of client-gen output for the Widget custom resource
// (client-go v0.37.2 generation: gentype-based typed clients). Part of the
// lostupdate test corpus; nothing here is generated.

// Package versioned has the clientset for the example.com API group
// (imitating the automatically generated clientset).
package versioned
