package unconditionalupdate

import (
	"context"
	"fmt"

	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// upsert creates an object, and replaces it when it already exists, with
// the functions it is given.
func upsert(kind, name string, create, update func() (any, error)) error {
	if _, err := create(); err != nil {
		if !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("creating %s %q: %w", kind, name, err)
		}
		if _, err := update(); err != nil {
			return fmt.Errorf("updating %s %q: %w", kind, name, err)
		}
	}
	return nil
}

// A "cluster add" command claims its ClusterRole whole: built from the
// rules it wants, created, or replaced if it exists, by the two closures
// an upsert helper is given. A create-or-replace of a built-in kind that
// reads nothing, as in the same function: not reported.
func okUpsertClusterRole(cs kubernetes.Interface, name string, rules []rbacv1.PolicyRule) error {
	role := rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: name}, Rules: rules}
	return upsert("ClusterRole", name, func() (any, error) {
		return cs.RbacV1().ClusterRoles().Create(context.Background(), &role, metav1.CreateOptions{})
	}, func() (any, error) {
		return cs.RbacV1().ClusterRoles().Update(context.Background(), &role, metav1.UpdateOptions{})
	})
}

// The control: the closure only updates; nothing creates the role it sends.
func badUpdateClosureOnly(cs kubernetes.Interface, name string, rules []rbacv1.PolicyRule) error {
	role := rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: name}, Rules: rules}
	return upsert("ClusterRole", name, func() (any, error) {
		return nil, apierrors.NewAlreadyExists(rbacv1.Resource("clusterroles"), name)
	}, func() (any, error) {
		return cs.RbacV1().ClusterRoles().Update(context.Background(), &role, metav1.UpdateOptions{}) // want "^unconditional-update: "
	})
}

// The control: the role is created by one call and replaced by the next,
// each given a closure; the Update runs after a successful Create too.
func badCreateThenUpdateClosures(cs kubernetes.Interface, name string, rules []rbacv1.PolicyRule) error {
	role := rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: name}, Rules: rules}
	if err := runLogged("create", func() (any, error) {
		return cs.RbacV1().ClusterRoles().Create(context.Background(), &role, metav1.CreateOptions{})
	}); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	return runLogged("update", func() (any, error) {
		return cs.RbacV1().ClusterRoles().Update(context.Background(), &role, metav1.UpdateOptions{}) // want "^unconditional-update: "
	})
}

// runLogged runs fn and says what it did.
func runLogged(what string, fn func() (any, error)) error {
	_, err := fn()
	fmt.Println(what, err)
	return err
}

// The functions above are run by the controller's workers.
var _ = []any{badCreateThenUpdateClosures, badUpdateClosureOnly}

// The functions above are run by the program's workers.
var _ = []any{okUpsertClusterRole}
