package testcode

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// A test that overwrites an object on purpose, to test a resync.
func overwriteNode(ctx context.Context, t *testing.T, cs kubernetes.Interface) {
	//lostupdate:ignore unconditional-update the directive of a finding left out is used all the same
	if _, err := cs.CoreV1().Nodes().Update(ctx, labelledNode("n1"), metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	// A read-modify-write that drops a conflict, left out as well.
	node, err := cs.CoreV1().Nodes().Get(ctx, "n1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	node.Labels["pool"] = "green"
	_, _ = cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
}

func TestRelabel(t *testing.T) {
	var cs kubernetes.Interface
	overwriteNode(context.Background(), t, cs)
	RelabelForTest(context.Background(), t, cs)
}
