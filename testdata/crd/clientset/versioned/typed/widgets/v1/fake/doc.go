// Hand-written imitation of client-gen output for the Widget custom resource
// (client-go v0.37.2 generation: gentype-based typed clients). Part of the
// lostupdate test corpus; nothing here is generated.

// Package fake has the fake typed clients for the example.com/v1 API group version.
package fake
