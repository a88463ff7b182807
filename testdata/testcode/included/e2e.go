package included

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// A file that imports testing is test code, reported with Config.Tests.
func RelabelForTest(ctx context.Context, t *testing.T, cs kubernetes.Interface) {
	if _, err := cs.CoreV1().Nodes().Update(ctx, labelledNode("n1"), metav1.UpdateOptions{}); err != nil { // want "^unconditional-update: "
		t.Fatal(err)
	}
}
