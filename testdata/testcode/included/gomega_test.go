package included

import (
	"context"
	"testing"

	"github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// gomega's Eventually runs its function again until it succeeds: a retry.
// A read-modify-write inside it is safe; an Update inside it of an object
// read outside resends the same stale object on every attempt.
func relabelEventually(ctx context.Context, t *testing.T, cs kubernetes.Interface) {
	g := gomega.NewWithT(t)
	g.Eventually(func() error {
		node, err := cs.CoreV1().Nodes().Get(ctx, "n1", metav1.GetOptions{})
		if err != nil {
			return err
		}
		node.Labels["pool"] = "green"
		_, err = cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
		return err
	}).Should(gomega.Succeed())

	gomega.Eventually(func(g gomega.Gomega) {
		node, err := cs.CoreV1().Nodes().Get(ctx, "n1", metav1.GetOptions{})
		g.Expect(err).NotTo(gomega.HaveOccurred())
		node.Labels["pool"] = "green"
		_, err = cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
		g.Expect(err).NotTo(gomega.HaveOccurred())
	}).Should(gomega.Succeed())

	stale, err := cs.CoreV1().Nodes().Get(ctx, "n1", metav1.GetOptions{})
	g.Expect(err).NotTo(gomega.HaveOccurred())
	stale.Labels["pool"] = "green"
	gomega.Eventually(func() error {
		_, err := cs.CoreV1().Nodes().Update(ctx, stale, metav1.UpdateOptions{}) // want "^stale-retry: Update inside gomega.Eventually writes stale"
		return err
	}).Should(gomega.Succeed())
	g.Eventually(func() error {
		_, err := cs.CoreV1().Nodes().Update(ctx, stale, metav1.UpdateOptions{}) // want "^stale-retry: Update inside [a-z.]*Gomega.Eventually writes stale"
		return err
	}).Should(gomega.Succeed())
}

func TestRelabelEventually(t *testing.T) {
	var cs kubernetes.Interface
	relabelEventually(context.Background(), t, cs)
}
