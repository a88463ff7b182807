package unconditionalupdate

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/json"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
)

const agentManifest = `
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: node-agent
  namespace: kube-system
spec:
  selector:
    matchLabels:
      app: node-agent
  template:
    metadata:
      labels:
        app: node-agent
    spec:
      containers:
      - name: agent
        image: example.com/node-agent:v1.4.0
`

func decodeDaemonSet(manifest []byte) (*appsv1.DaemonSet, error) {
	obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(manifest, nil, nil)
	if err != nil {
		return nil, err
	}
	ds, ok := obj.(*appsv1.DaemonSet)
	if !ok {
		return nil, fmt.Errorf("manifest holds a %T, not a DaemonSet", obj)
	}
	return ds, nil
}

// An addon installer decodes its embedded manifest and PUTs it on upgrade, overwriting every change made to the live DaemonSet.
func badUpdateOfDecodedManifest(ctx context.Context, cs kubernetes.Interface) error {
	obj, _, err := scheme.Codecs.UniversalDeserializer().Decode([]byte(agentManifest), nil, nil)
	if err != nil {
		return err
	}
	ds := obj.(*appsv1.DaemonSet)
	_, err = cs.AppsV1().DaemonSets(ds.Namespace).Update(ctx, ds, metav1.UpdateOptions{}) // want "^unconditional-update: "
	return err
}

// A GitOps-style sync unmarshals a ConfigMap from a file in the repository and writes it with PUT: no resourceVersion from the cluster.
func badUpdateOfJSONDecodedConfigMap(ctx context.Context, cs kubernetes.Interface, fileContents []byte) error {
	var cm corev1.ConfigMap
	if err := json.Unmarshal(fileContents, &cm); err != nil {
		return err
	}
	_, err := cs.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, &cm, metav1.UpdateOptions{}) // want "^unconditional-update: "
	return err
}

// Upgrade through a decoding helper: the manifest object still carries no resourceVersion.
func badUpgradeDecodedDaemonSet(ctx context.Context, cs kubernetes.Interface) error {
	ds, err := decodeDaemonSet([]byte(agentManifest))
	if err != nil {
		return err
	}
	_, err = cs.AppsV1().DaemonSets(ds.Namespace).Update(ctx, ds, metav1.UpdateOptions{}) // want "^unconditional-update: "
	return err
}

// The installer does it right: the decoded manifest takes the live resourceVersion before the PUT.
func okUpgradeDecodedManifestWithLiveResourceVersion(ctx context.Context, cs kubernetes.Interface) error {
	desired, err := decodeDaemonSet([]byte(agentManifest))
	if err != nil {
		return err
	}
	live, err := cs.AppsV1().DaemonSets(desired.Namespace).Get(ctx, desired.Name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	desired.ResourceVersion = live.ResourceVersion
	_, err = cs.AppsV1().DaemonSets(desired.Namespace).Update(ctx, desired, metav1.UpdateOptions{})
	return err
}

// First install: a decoded manifest is created, never PUT.
func okInstallDecodedManifest(ctx context.Context, cs kubernetes.Interface) error {
	ds, err := decodeDaemonSet([]byte(agentManifest))
	if err != nil {
		return err
	}
	_, err = cs.AppsV1().DaemonSets(ds.Namespace).Create(ctx, ds, metav1.CreateOptions{})
	return err
}

// A patch applied to the caller's encoding of the live object, then decoded and PUT: the encoding is of an object that exists (argo-rollouts' DestinationRule update), so the decoded object keeps whatever resourceVersion it had. The analysis cannot tell it is missing: not reported.
func okUpdateOfPatchedCallerBytes(ctx context.Context, cs kubernetes.Interface, orig, patch []byte) error {
	patched, err := jsonpatch.MergePatch(orig, patch)
	if err != nil {
		return err
	}
	var cm corev1.ConfigMap
	if err := json.Unmarshal(patched, &cm); err != nil {
		return err
	}
	_, err = cs.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, &cm, metav1.UpdateOptions{})
	return err
}

// The control: the same patch applied to a manifest of the package: no resourceVersion.
func badUpdateOfPatchedManifest(ctx context.Context, cs kubernetes.Interface, patch []byte) error {
	patched, err := jsonpatch.MergePatch([]byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"agent","namespace":"kube-system"}}`), patch)
	if err != nil {
		return err
	}
	var cm corev1.ConfigMap
	if err := json.Unmarshal(patched, &cm); err != nil {
		return err
	}
	_, err = cs.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, &cm, metav1.UpdateOptions{}) // want "^unconditional-update: .*decoded"
	return err
}

// The functions above are run by the controller's workers.
var _ = []any{badUpdateOfDecodedManifest, badUpdateOfJSONDecodedConfigMap, badUpdateOfPatchedManifest, badUpgradeDecodedDaemonSet}

// The functions above are run by the program's workers.
var _ = []any{okInstallDecodedManifest, okUpdateOfPatchedCallerBytes, okUpgradeDecodedManifestWithLiveResourceVersion}
