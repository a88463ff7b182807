// Package framework is the shared helpers of an e2e suite, in the test
// directory of its module. This file imports no test framework, yet it is
// test code: a directory named test holds tests and what they share.
package framework

import (
	"context"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// UpdateRoleBinding rewrites the suite's binding from the manifest it was
// created from. Not reported: only the suite writes it.
func UpdateRoleBinding(ctx context.Context, cs kubernetes.Interface, ns string, subjects []rbacv1.Subject) error {
	rb := &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "e2e-operator", Namespace: ns},
		RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: "e2e-operator"},
		Subjects:   subjects,
	}
	_, err := cs.RbacV1().RoleBindings(ns).Update(ctx, rb, metav1.UpdateOptions{})
	return err
}
