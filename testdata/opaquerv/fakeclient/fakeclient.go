package fakeclient // want package:"has summaries"

// A fake operator client for tests, as library-go's v1helpers has: it
// issues the resourceVersions of its state itself, so it may parse them.
// Nothing here is reported.

import (
	"context"
	"fmt"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// OperatorClient keeps a status and the version of it.
type OperatorClient struct {
	status          *corev1.PodStatus
	resourceVersion string
}

// GetOperatorState returns the status and its version.
func (c *OperatorClient) GetOperatorState() (*corev1.PodStatus, string, error) { // want GetOperatorState:"returns resourceVersion #1"
	return c.status, c.resourceVersion, nil
}

// UpdateOperatorStatus stores a status written at the current version and
// moves to the next version.
func (c *OperatorClient) UpdateOperatorStatus(ctx context.Context, resourceVersion string, status *corev1.PodStatus) (*corev1.PodStatus, error) {
	if c.resourceVersion != resourceVersion {
		return nil, errors.NewConflict(schema.GroupResource{Resource: "operators"}, "cluster", fmt.Errorf("invalid resourceVersion"))
	}
	rv, err := strconv.Atoi(resourceVersion)
	if err != nil {
		return nil, err
	}
	c.resourceVersion = strconv.Itoa(rv + 1)
	c.status = status
	return c.status, nil
}
