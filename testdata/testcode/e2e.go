package testcode

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// A file that is not named *_test.go but imports testing is test code: the
// helpers of an e2e suite, against a real cluster only the test writes.
func RelabelForTest(ctx context.Context, t *testing.T, cs kubernetes.Interface) {
	if _, err := cs.CoreV1().Nodes().Update(ctx, labelledNode("n1"), metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}
