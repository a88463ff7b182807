package patchbodies

import (
	"context"
	"encoding/json"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

const exposedPorts = "example.com/exposed-ports"

// The body sets an annotation and a list, each computed from the Service
// read: a concurrent change to either is lost, and the message names both.
func badAnnotationAndListFromRead(ctx context.Context, c client.Client, svc *corev1.Service, port int32) error {
	annotations := svc.GetAnnotations()
	ports := append(svc.Spec.Ports, corev1.ServicePort{Port: port})
	body := map[string]interface{}{}
	body["metadata"] = map[string]map[string]string{"annotations": {exposedPorts: annotations[exposedPorts] + "," + strconv.Itoa(int(port))}}
	body["spec"] = map[string]interface{}{"ports": ports}
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	return c.Patch(ctx, svc, client.RawPatch(types.MergePatchType, data)) // want `^unconditional-patch: Patch of svc sends a merge patch without a precondition, and its body sets metadata\.annotations\.example\.com/exposed-ports and spec\.ports to values computed from the object read earlier`
}

// The same patch with the resourceVersion read: a concurrent change fails
// with 409 Conflict.
func okAnnotationAndListWithLock(ctx context.Context, c client.Client, svc *corev1.Service, port int32) error {
	annotations := svc.GetAnnotations()
	ports := append(svc.Spec.Ports, corev1.ServicePort{Port: port})
	body := map[string]interface{}{}
	body["metadata"] = map[string]interface{}{
		"resourceVersion": svc.ResourceVersion,
		"annotations":     map[string]string{exposedPorts: annotations[exposedPorts] + "," + strconv.Itoa(int(port))},
	}
	body["spec"] = map[string]interface{}{"ports": ports}
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	return c.Patch(ctx, svc, client.RawPatch(types.MergePatchType, data))
}

// The functions above are run by the controller's workers.
var _ = []any{badAnnotationAndListFromRead, okAnnotationAndListWithLock}
