package opaquerv

import (
	"math/big"

	corev1 "k8s.io/api/core/v1"
)

// Big integers do not make versions numbers either.
func badBigIntVersion(a, b *corev1.Secret) bool {
	x, ok := new(big.Int).SetString(a.ResourceVersion, 10) // want `^opaque-rv: big.Int.SetString parses a.ResourceVersion as a number`
	if !ok {
		return false
	}
	y, ok := new(big.Int).SetString(b.ResourceVersion, 10) // want `^opaque-rv: big.Int.SetString parses b.ResourceVersion as a number`
	if !ok {
		return false
	}
	return x.Cmp(y) > 0
}

// The functions above are run by the controller's workers.
var _ = []any{badBigIntVersion}
