// Package watchserver serves a watch of the objects of an in-memory store,
// as cluster-api's in-memory API server does: it sends bookmarks, so it
// issues the versions it sends and may compare them. Nothing here is
// reported.
package watchserver

import (
	"context"
	"strconv"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/watch"
)

// Serve sends the events newer than the list a client started from, then a
// bookmark.
func Serve(ctx context.Context, events <-chan watch.Event, listRV, bookmarkRV string, send func(watch.Event) error) error {
	min, err := strconv.ParseUint(listRV, 10, 64)
	if err != nil {
		return err
	}
	for {
		select {
		case <-ctx.Done():
			bookmark := &unstructured.Unstructured{}
			bookmark.SetResourceVersion(bookmarkRV)
			return send(watch.Event{Type: watch.Bookmark, Object: bookmark})
		case ev, ok := <-events:
			if !ok {
				return nil
			}
			u, ok := ev.Object.(*unstructured.Unstructured)
			if !ok {
				continue
			}
			n, err := strconv.ParseUint(u.GetResourceVersion(), 10, 64)
			if err != nil || n <= min {
				continue
			}
			if err := send(ev); err != nil {
				return err
			}
		}
	}
}
