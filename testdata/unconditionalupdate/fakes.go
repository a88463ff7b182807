package unconditionalupdate

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/kubernetes"
	kubefake "k8s.io/client-go/kubernetes/fake"
	"sigs.k8s.io/controller-runtime/pkg/client"
	crfake "sigs.k8s.io/controller-runtime/pkg/client/fake"

	widgetsv1 "lostupdate.test/crd/apis/widgets/v1"
	widgetfake "lostupdate.test/crd/clientset/versioned/fake"
)

// Writes through fake clients reach no API server and no other writer: a
// test's Update of an object it built is never reported, however the fake
// client reaches the write.

func builtNode(name string) *corev1.Node {
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"zone": "a"}}}
}

// The fake clientset straight from its constructor.
func okUpdateThroughFakeClientset(ctx context.Context) error {
	cs := kubefake.NewSimpleClientset(builtNode("n1"))
	_, err := cs.CoreV1().Nodes().Update(ctx, builtNode("n1"), metav1.UpdateOptions{})
	return err
}

// NewClientset, the constructor that replaces NewSimpleClientset.
func okUpdateThroughNewClientset(ctx context.Context) error {
	cs := kubefake.NewClientset()
	_, err := cs.CoreV1().Nodes().Update(ctx, builtNode("n1"), metav1.UpdateOptions{})
	return err
}

// setupCluster returns the fake clientset among other values, as test
// setup helpers do: the client is told fake by its type.
func setupCluster(objects ...runtime.Object) (string, *kubefake.Clientset, error) {
	return "cluster", kubefake.NewSimpleClientset(objects...), nil
}

func okUpdateThroughFakeFromSetup(ctx context.Context) error {
	_, cs, err := setupCluster(builtNode("n1"))
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().Nodes().Update(ctx, builtNode("n1"), metav1.UpdateOptions{})
	return err
}

// A helper that takes kubernetes.Interface, given the fake clientset. (The
// one call that gives it a real clientset passes a built node: the helper's
// write is reported, once.)
func updateNode(ctx context.Context, cs kubernetes.Interface, node *corev1.Node) error {
	_, err := cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{}) // want `^unconditional-update: Update \(in updateNode\) writes node, which the one call of updateNode in the package passes built`
	return err
}

func okUpdateThroughHelperOfFake(ctx context.Context) error {
	_, cs, _ := setupCluster()
	return updateNode(ctx, cs, builtNode("n1"))
}

// The positive control: the same helper given a real clientset writes an
// object built without a resourceVersion.
func badUpdateThroughHelperOfRealClient(ctx context.Context, cs kubernetes.Interface) error {
	return updateNode(ctx, cs, builtNode("n1"))
}

// The same write as the fake ones above, on a real clientset.
func badUpdateOfBuiltNode(ctx context.Context, cs kubernetes.Interface) error {
	_, err := cs.CoreV1().Nodes().Update(ctx, builtNode("n1"), metav1.UpdateOptions{}) // want "^unconditional-update: "
	return err
}

// The dynamic fake client.
func okUpdateThroughFakeDynamic(ctx context.Context) error {
	dc := dynamicfake.NewSimpleDynamicClient(runtime.NewScheme())
	u := &unstructured.Unstructured{}
	u.SetName("w1")
	_, err := dc.Resource(schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}).Update(ctx, u, metav1.UpdateOptions{})
	return err
}

// A clientset client-gen made for a custom resource, and its fake.
func okUpdateThroughGeneratedFake(ctx context.Context) error {
	cs := widgetfake.NewSimpleClientset()
	_, err := cs.WidgetsV1().Widgets("default").Update(ctx, &widgetsv1.Widget{ObjectMeta: metav1.ObjectMeta{Name: "w1", Namespace: "default"}}, metav1.UpdateOptions{})
	return err
}

// controller-runtime's fake client, from its builder and from NewFakeClient.
func okUpdateThroughFakeBuilder(ctx context.Context) error {
	c := crfake.NewClientBuilder().WithObjects(builtNode("n1")).Build()
	return c.Update(ctx, builtNode("n1"))
}

func okUpdateThroughNewFakeClient(ctx context.Context) error {
	c := crfake.NewFakeClient()
	return c.Update(ctx, builtNode("n1"))
}

// The positive control: a controller-runtime client of the program.
func badUpdateThroughClient(ctx context.Context, c client.Client) error {
	return c.Update(ctx, builtNode("n1")) // want "^unconditional-update: "
}

// The functions above are run by the controller's workers.
var _ = []any{badUpdateOfBuiltNode, badUpdateThroughClient, badUpdateThroughHelperOfRealClient, okUpdateThroughHelperOfFake}

// The functions above are run by the program's workers.
var _ = []any{okUpdateThroughFakeBuilder, okUpdateThroughFakeClientset, okUpdateThroughFakeDynamic, okUpdateThroughFakeFromSetup, okUpdateThroughGeneratedFake, okUpdateThroughNewClientset, okUpdateThroughNewFakeClient}
