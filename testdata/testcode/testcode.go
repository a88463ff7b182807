// Package testcode holds writes in test code, which lostupdate leaves out
// by default: files named *_test.go, and files that import testing or a
// test framework. The same writes in a file of the program are reported.
package testcode

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

func labelledNode(name string) *corev1.Node {
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"pool": "blue"}}}
}

// The positive control: the program's own write of a built object.
func relabelNode(ctx context.Context, cs kubernetes.Interface) error {
	_, err := cs.CoreV1().Nodes().Update(ctx, labelledNode("n1"), metav1.UpdateOptions{}) // want "^unconditional-update: "
	return err
}

// The functions above are run by the controller's workers.
var _ = []any{relabelNode}
