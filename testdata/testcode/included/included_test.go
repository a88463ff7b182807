package included

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	kubefake "k8s.io/client-go/kubernetes/fake"
)

func overwriteNode(ctx context.Context, t *testing.T, cs kubernetes.Interface) {
	//lostupdate:ignore unconditional-update the test overwrites the node on purpose
	if _, err := cs.CoreV1().Nodes().Update(ctx, labelledNode("n1"), metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CoreV1().Nodes().Update(ctx, labelledNode("n2"), metav1.UpdateOptions{}); err != nil { // want "^unconditional-update: "
		t.Fatal(err)
	}
	node, err := cs.CoreV1().Nodes().Get(ctx, "n1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	node.Labels["pool"] = "green"
	_, _ = cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{}) // want "^missing-retry: "
}

// Writes through a fake clientset stay silent with Config.Tests.
func TestRelabelOnFake(t *testing.T) {
	ctx := context.Background()
	cs := kubefake.NewSimpleClientset(labelledNode("n1"))
	if _, err := cs.CoreV1().Nodes().Update(ctx, labelledNode("n1"), metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
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
