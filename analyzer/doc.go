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
by the shape of their calls, in older releases too (client-go before v0.18,
whose methods take no context, controller-runtime before v0.13, whose Get
takes no options) and vendored in GOPATH mode; and the conflict retries: retry.RetryOnConflict,
retry.OnError with apierrors.IsConflict, wait conditions and hand-written
loops that retry on apierrors.IsConflict or on any error (for i := 0; i < n
&& err != nil; i++ { err = op() }: they go round again when the attempt
fails and leave when it succeeds), gomega's Eventually in tests, and the
user's own wrappers of these, also in other packages.

Each diagnostic begins with the name of its rule, which is also its
category. The -rules flag selects the rules to run (all by default) and
-disable turns single rules off. A function over 20,000 SSA instructions
(generated code, mostly) is not analysed; -report-skipped reports each
one, under the category skipped.

Test code is analysed but not reported, the way gosec leaves tests out:
a lost update in a test loses no one's data. Test code is a file named
*_test.go, or a file that imports testing or a test framework (ginkgo,
gomega, testify), such as the helpers of an e2e suite. -tests reports
findings there too. Writes through fake clients (client-go's
kubernetes/fake, dynamic/fake, the fake clientsets client-gen generates for
custom resources, controller-runtime's client/fake), told by the constructor
or the type of the client, are never reported.

# Rule unconditional-update

An Update of an object that carries no resourceVersion from a read.

An object built from scratch (a composite literal, new, a decoded manifest,
a builder function), or a read object whose resourceVersion was set to "",
is written unconditionally: the PUT overwrites every change made since the
object was last read by anyone. Reported at the Update call, or at the call
of a helper that updates the object it is given, pointing at the helper's
Update at the end of its chain of calls. A helper of the package itself
that every call in the package gives a built object is reported once, at
its Update, with the calls as related locations.

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
logged, or swallowed (if apierrors.IsConflict(err) { return nil }, also
inside a helper such as return ignoreConflict(err), in any package) instead
of being returned. The change is then lost whenever another writer got there
first. Returning the error is fine: a controller's work queue requeues it,
and a caller may retry; so is asking for a requeue on conflict, also from a
deferred closure that sets the function's named results. So is a write on a
path on which the function then returns a non-nil error or asks for a
requeue, whichever error that is (a best-effort status write on an error
path: the next reconcile writes it again), also in an unexported helper
every caller of which in the package then does; and a conflict mapped to a
result that differs from the success path's (if IsConflict(err) { return
false, nil } in an election between replicas: the caller is told). The
swallow is a conflict mapped to exactly what success returns. Reported at
the write call, with the read in the related information.

	if err := r.Status().Update(ctx, obj); err != nil {
		log.Error(err, "unable to update status")
	}
	return ctrl.Result{}, nil

Fix: return the error (the reconcile is retried with backoff), requeue on
conflict, or wrap the read-modify-write in retry.RetryOnConflict; where the
function has no error to return, requeue on conflict or retry.

# Rule stale-read

A read served from a cache that feeds a write.

A Get or List with ResourceVersion "0" may be answered from the API server's
watch cache, arbitrarily stale; an object read that way and then written
back carries an old resourceVersion and old content. That holds too when
the object reaches the write only as the argument of a helper, in any
package, that computes the patch it sends from it (a taint or label patch
helper that diffs two versions of a Node): the related information names
the helper call and its Patch. Inside a conflict retry, re-reading from a
lister or informer store returns the same cached object on every attempt,
so the retry keeps failing. A read with ResourceVersion "0" only on the
first attempt of a conflict retry (if firstTry { opts.ResourceVersion = "0";
firstTry = false }) is not reported: an attempt after a conflict reads from
etcd. Reported at the read.

	pod, err := pods.Get(ctx, name, metav1.GetOptions{ResourceVersion: "0"})
	pod.Spec.NodeName = node
	_, err = pods.Update(ctx, pod, metav1.UpdateOptions{})

Fix: drop ResourceVersion "0" when the object will be written; inside a
retry, re-read with a client Get, not from the cache. A suggested fix drops
ResourceVersion "0".

# Rule unconditional-patch

A read-modify-write Patch without a precondition.

A patch computed from an earlier read of the object, sent without a
precondition, overwrites what changed since. A JSON merge patch replaces a
whole list, so a finalizer, owner reference or condition another writer
added in between is lost; a JSON patch that addresses an array element by
index, or sets a value computed from what was read, hits whatever is there
now. Reported at the Patch call:

  - controller-runtime client.MergeFrom and client.StrategicMergeFrom, and
    jsonpatch.CreateMergePatch (json-patch v4 and v5),
    strategicpatch.CreateTwoWayMergePatch and the three-way
    jsonmergepatch.CreateThreeWayJSONMergePatch /
    strategicpatch.CreateThreeWayMergePatch of json.Marshal'd read objects
    (from the current object to the modified one), where a list field of
    the object changes between the snapshot and the patch (append, index
    writes, a sort in place,
    controllerutil.AddFinalizer/RemoveFinalizer, meta.SetStatusCondition,
    SetControllerReference/SetOwnerReference (controllerutil's, or ctrl's
    alias), SetFinalizers/SetOwnerReferences (of an Unstructured, of an
    interface value, or of the ObjectMeta a typed object embeds),
    unstructured.SetNestedSlice, and helpers of any package that do these
    to the object or its ObjectMeta), or where a field is set from a
    value computed from the value it replaces, or from the list or map that
    holds it (a counter, a joined bundle, a map value moved within its map).
    A value computed from other fields of the object, or from the
    controller's own desired state (looked up by a label, say), is a
    desired-state write and is not reported; so is a whole list set to a
    value not computed from the list it replaces (a copy of a template's
    list, a list kept from another object). A strategic merge patch merges lists
    that declare patchStrategy merge (finalizers, owner references, ...) by
    key, so for it only the other lists count.
  - the same through helpers of any package, followed by their summaries: a
    wrapper that patches one parameter with a merge patch from another
    (PatchResource(original, updated, c)) or sends a patch it is given, and
    a patcher that keeps its snapshot in a struct field (p :=
    NewPatcher(obj, c) ... p.Patch(ctx, obj), as fluxcd/pkg/runtime/patch's
    SerialPatcher does: its constructor stores a copy of the object, and
    Patch sends metadata and spec as a merge patch from it without a
    lock). The call of the helper, where the snapshot
    and the change are seen, is reported, with the helper's Patch as related
    information. A wrapper that sends client.MergeFromWithOptimisticLock{},
    or is given a patch that carries it, is not reported. A patcher's status
    patch is not followed: fluxcd's sends the conditions apart, with a lock
    and a retry, and leaves them out of its status patch, which the
    analysis does not see: through a patcher, changes to status alone are
    not reported.
  - controllerutil.CreateOrPatch (or ctrl.CreateOrPatch), whose mutate
    function changes a list.
  - JSON patches without a test op whose operations address an array element
    by index, or set a value computed from the value read at the same path:
    text, and operations marshalled from maps or structs with json tags
    (op, path, value), built as literals, by constructors of the package, or
    appended in a loop (remove /metadata/finalizers/%d for each index of the
    list read, replace of a list filtered from the one read), sent through a
    typed, dynamic or controller-runtime client (client.RawPatch); and
    bodies or operations built by helpers of any package from the object
    (their summaries say which elements they address by index, whether
    they carry a test op, and which object parameters they are built
    from). An index into a list the API server keeps in place is not a
    hazard: a Pod's containers and init containers cannot be added,
    removed or reordered after creation (only their images change), so
    /spec/containers/%d/image of a Pod read names the same container.
  - merge and strategic merge patch bodies (literals, fmt.Sprintf,
    json.Marshal of maps and structs, and bodies built by helpers) that carry
    a list or value computed from the value read at the same path, without
    metadata.resourceVersion.

A blind patch of constant values (set a label, add a finalizer with a JSON
patch add at /-) is not a read-modify-write and is not reported. Nor is a
change that only removes finalizers (controllerutil.RemoveFinalizer, a
filtered list, slices.Delete or slices.DeleteFunc of the list, SetFinalizers
of one) in a branch where the object's deletion
timestamp is set (obj.DeletionTimestamp != nil,
!obj.GetDeletionTimestamp().IsZero(), or after a return from their
negation; or in an unexported helper given the object, when every caller
in the package calls it so; or in a closure made there, such as a retried
function that reads the object again): the API server refuses new
finalizers on an object being deleted, so a stale list that brings back one removed meanwhile is rejected
with 422 Unprocessable Entity instead of being applied. Nor is
Server-Side Apply, nor a patch whose body the analysis cannot see. With
-strict-patch every patch that is not Server-Side Apply and has no
precondition is reported.

	patch := client.MergeFrom(obj.DeepCopy())
	controllerutil.AddFinalizer(obj, "example.com/cleanup")
	err := r.Patch(ctx, obj, patch)

Fix: add a precondition: client.MergeFromWithOptions(base,
client.MergeFromWithOptimisticLock{}) (a suggested fix does this for
MergeFrom, StrategicMergeFrom and MergeFromWithOptions), a test op in a JSON
patch, or metadata.resourceVersion in a merge patch; then retry on conflict.

# Rule opaque-rv

Code that treats a resourceVersion as a number or an ordered value.

resourceVersions are opaque strings: clients may compare two versions of
the same resource for equality, nothing more. Parsing one (strconv.Atoi,
ParseInt, ParseUint, ParseFloat, fmt.Sscan, big.Int.SetString), ordering
versions (<, >, strings.Compare, cmp.Compare, sorting, slices.Max, max and
min), or comparing versions of two different resource types is wrong:
string order is not numeric order, and aggregated API servers may serve
versions that are not integers at all. Sources: the ResourceVersion of
ObjectMeta, ListMeta and the list options, GetResourceVersion(),
LastSyncResourceVersion(), watch events and bookmarks, strings named like
a version (rv, lastResourceVersion), followed through variables, fields,
maps, slices, channels, parameters and results, also into and out of
helpers in other packages. Reported once per flow: at the parse (two
parses whose numbers are compared are one finding), the comparison, or the
call of another package's helper that parses or orders the version it is
given. Equality, and a version carried as an opaque string (options,
preconditions, keys, logs), are fine. A package that issues versions
itself (it stores numbers it formats as resourceVersions, or implements API
server storage) may parse them and is not reported.

	if newObj.GetResourceVersion() > cached.GetResourceVersion() {
		c.cache[key] = newObj
	}

Fix: compare for equality when that is all you need. To order two versions
of the same resource, use
k8s.io/apimachinery/pkg/util/resourceversion.CompareResourceVersion(a, b)
(apimachinery v0.35 and later) and handle its error, which it returns for
versions that are not well-formed integers; its error dropped is reported
too. Two strconv parses followed by one comparison get a suggested fix
that does this.

# Rule apply-retry

A Server-Side Apply inside a conflict retry.

A 409 from Server-Side Apply is a field-ownership conflict (another field
manager owns a field you set), not a stale resourceVersion: re-reading and
retrying does not clear it, so the retry only repeats the failure. Covered:
typed Apply/ApplyStatus, Patch with types.ApplyPatchType, controller-runtime
client.Apply patches and the Apply method. Reported at the apply call.

	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		_, err := cs.AppsV1().Deployments(ns).Apply(ctx, cfg, metav1.ApplyOptions{FieldManager: "op"})
		return err
	})

An apply with force (ApplyOptions{Force: true}, client.ForceOwnership)
cannot have an ownership conflict and is not reported.

Fix: do not retry Server-Side Apply on conflict. Resolve the ownership:
stop setting fields another manager owns, or apply with Force if this
manager should take them over.

# Rule unbounded-retry

A hand-written conflict retry that can spin forever on a hot object.

A loop that retries on apierrors.IsConflict (or on any error) with no
attempt bound and no deadline, or with no backoff between attempts, or a
wait poll without a timeout (wait.PollInfinite, or
wait.PollUntilContextCancel on a context without a deadline) whose
condition retries conflicts, can hammer the API server or hang a worker
indefinitely under contention. An attempt counter that the conflict path
does not advance (it continues before the i++) is no bound; nor is a ticker
(for range time.Tick(d)) or a timer made in the loop, which only space the
attempts. A select on ctx.Done() or a test of ctx.Err() bounds the loop
unless the context is one that is never done (context.Background, TODO,
WithoutCancel); a context with a deadline (WithTimeout, WithDeadline) that
the attempts are given bounds a loop that retries only conflicts, since
they fail once it is past. A context the analysis cannot trace (a
parameter) bounds a poll or a loop that checks it, not one that only
passes it on. The user's own retry helpers count through their summaries.
Reported at the write call inside the loop.

	for {
		obj, err := c.Get(ctx, name, metav1.GetOptions{})
		...
		if _, err = c.Update(ctx, obj, metav1.UpdateOptions{}); apierrors.IsConflict(err) {
			continue
		}
		return err
	}

Fix: use retry.RetryOnConflict(retry.DefaultRetry, fn), which bounds the
attempts and backs off exponentially, or bound the loop and sleep with
backoff between attempts.

# Rule test-op-retry

A JSON patch guarded by a test op, retried only on conflict.

A failed test op is answered with 422 Unprocessable Entity
(apierrors.IsInvalid), not 409 Conflict, so retry.RetryOnConflict (or any
retry whose predicate is only apierrors.IsConflict) never runs again and the
first failure is final. A retried function that turns the 422 into a
conflict itself is fine. Reported at the Patch call.

	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		patch := fmt.Sprintf(`[{"op":"test","path":"/metadata/resourceVersion","value":%q},{"op":"replace","path":"/spec/replicas","value":3}]`, rv)
		_, err := c.Patch(ctx, name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{})
		return err
	})

Fix: retry on the 422 of a failed test as well (retry.OnError with a
predicate that accepts apierrors.IsInvalid), re-reading the object each
time.
*/
package analyzer
