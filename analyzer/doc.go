/*
Package analyzer defines an Analyzer that finds Go code which can lose
updates when it writes Kubernetes objects.

# Analyzer lostupdate

lostupdate: find Kubernetes writes that can silently overwrite concurrent changes

The Kubernetes API server protects a write only when the client asks it to.
A PUT (Update) that carries the metadata.resourceVersion it read is rejected
with 409 Conflict if the object changed since; a PUT without it, and a PATCH
without a precondition, silently overwrites what another writer did in
between. Retrying on 409 (re-read, recompute, resend, with bounded backoff)
is the client's job. lostupdate finds the code that gets this wrong.

It recognises the client-gen typed clientsets (k8s.io/client-go/kubernetes
and generated clientsets for custom resources, the generic gentype clients),
the dynamic client, controller-runtime's client, listers and informer stores,
by the shape of their calls; and the conflict retries: retry.RetryOnConflict,
retry.OnError with apierrors.IsConflict, wait conditions and hand-written
loops that retry on apierrors.IsConflict, and the user's own wrappers of
these, also in other packages.

Each diagnostic begins with the name of its rule, which is also its
category. The -rules flag selects the rules to run (all by default) and
-disable turns single rules off.

# Rule unconditional-update

An Update of an object that carries no resourceVersion from a read.

An object built from scratch (a composite literal, new, a decoded manifest,
a builder function), or a read object whose resourceVersion was set to "",
is written unconditionally: the PUT overwrites every change made since the
object was last read by anyone. Reported at the Update call, or at the call
of a helper that updates the object it is given.

	desired := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}, Spec: spec}
	_, err := cs.AppsV1().Deployments(ns).Update(ctx, desired, metav1.UpdateOptions{})

Fix: Get the current object and change it, or copy the resourceVersion you
read into the object you built (desired.ResourceVersion = current.ResourceVersion),
so that a concurrent change makes the write fail with 409 Conflict.

# Rule stale-retry

An Update inside a conflict retry of an object read only outside it.

retry.RetryOnConflict runs its function again after a 409 Conflict. If the
object was read before the retry, every attempt sends the same stale
resourceVersion and fails the same way: the retry can never succeed.
Reported at the write call (or the call of a helper that writes it).

	pod, err := pods.Get(ctx, name, metav1.GetOptions{})
	err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
		pod.Labels["owner"] = owner
		_, err := pods.Update(ctx, pod, metav1.UpdateOptions{})
		return err
	})

Fix: Get the object inside the retried function, apply the change to what
you just read, then Update.

# Rule missing-retry

A read-modify-write Update whose 409 Conflict reaches no retry.

The write is not inside a conflict retry, and its error is dropped, only
logged, or swallowed (if apierrors.IsConflict(err) { return nil }) instead of
being returned. The change is then lost whenever another writer got there
first. Returning the error is fine: a controller's work queue requeues it,
and a caller may retry; so is asking for a requeue on conflict.
Reported at the write call.

	if err := r.Status().Update(ctx, obj); err != nil {
		log.Error(err, "unable to update status")
	}
	return ctrl.Result{}, nil

Fix: return the error (the reconcile is retried with backoff), requeue on
conflict, or wrap the read-modify-write in retry.RetryOnConflict.

# Rule stale-read

A read served from a cache that feeds a write.

A Get or List with ResourceVersion "0" may be answered from the API server's
watch cache, arbitrarily stale; an object read that way and then written
back carries an old resourceVersion and old content. Inside a conflict
retry, re-reading from a lister or informer store returns the same cached
object on every attempt, so the retry keeps failing. Reported at the read.

	pod, err := pods.Get(ctx, name, metav1.GetOptions{ResourceVersion: "0"})
	pod.Spec.NodeName = node
	_, err = pods.Update(ctx, pod, metav1.UpdateOptions{})

Fix: drop ResourceVersion "0" when the object will be written; inside a
retry, re-read with a client Get, not from the cache.
*/
package analyzer
