package model

import "testing"

func TestCarriesFacts(t *testing.T) {
	carriers := map[string]bool{"example.com/lib/kube": true}
	carries := func(path string) bool { return carriers[path] }
	for _, tc := range []struct {
		path    string
		imports []string
		want    bool
	}{
		// A shared library that wraps a client, and its importers.
		{"example.com/lib/kube", []string{"context", "sigs.k8s.io/controller-runtime/pkg/client"}, true},
		{"example.com/app/controllers", []string{"example.com/lib/kube"}, true},
		{"example.com/lib/kube/vendor/k8s.io/client-go/rest", []string{"net/http"}, false},
		// The modelled libraries are in the catalog, not analysed.
		{"k8s.io/client-go/tools/cache", []string{"k8s.io/apimachinery/pkg/runtime"}, false},
		// Inert libraries import client-go but carry nothing; importing
		// one does not make a package carry facts.
		{"k8s.io/component-base/metrics", []string{"k8s.io/client-go/tools/metrics"}, false},
		{"k8s.io/cluster-bootstrap/util/secrets", []string{"k8s.io/api/core/v1"}, false},
		{"example.com/app/cmd", []string{"k8s.io/component-base/logs", "flag"}, false},
		// So are single packages of kubectl; the packages below them and
		// the rest of kubectl are not.
		{"k8s.io/kubectl/pkg/cmd/util", []string{"k8s.io/client-go/rest"}, false},
		{"k8s.io/kubectl/pkg/cmd/util/editor", []string{"k8s.io/cli-runtime/pkg/resource", "k8s.io/apimachinery/pkg/types"}, true},
		{"k8s.io/kubectl/pkg/drain", []string{"k8s.io/client-go/kubernetes"}, true},
		{"example.com/app/status", []string{"k8s.io/kubectl/pkg/cmd/util", "fmt"}, false},
		{"example.com/app/version", []string{"fmt", "runtime"}, false},
	} {
		if got := CarriesFacts(tc.path, tc.imports, carries); got != tc.want {
			t.Errorf("CarriesFacts(%s, %v) = %v, want %v", tc.path, tc.imports, got, tc.want)
		}
	}
}
