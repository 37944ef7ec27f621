package conformance_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Broken variants of TestBrokenVariantsAreCaught for the scenarios of
// library.feature: servers whose links forget the trash, keep what was
// taken out of an album or show only their owner's photos, and whose
// timeline miscounts a month.

// asIfUndone answers the GET requests through a link's key as if some
// changes were not made: it undoes them for the time of the request, then
// makes them again, as a server whose query for a link forgets a condition
// (the trash, the owner's deletion). A wrapper records each change it lets
// through with the requests that undo and redo it, and forgets it once the
// client undoes it.
type asIfUndone struct {
	mu   sync.Mutex
	made map[string][2]func() *http.Request // what was changed → undo, redo
}

// serve answers r: a GET through a link's key with every recorded change
// undone, any other request as the mock does.
func (u *asIfUndone) serve(h http.Handler, w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet || !r.URL.Query().Has("key") {
		h.ServeHTTP(w, r)
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, c := range u.made {
		h.ServeHTTP(httptest.NewRecorder(), c[0]())
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	for _, c := range u.made {
		h.ServeHTTP(httptest.NewRecorder(), c[1]())
	}
	copyAnswer(w, rec)
}

func (u *asIfUndone) record(id string, undo, redo func() *http.Request) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.made == nil {
		u.made = map[string][2]func() *http.Request{}
	}
	u.made[id] = [2]func() *http.Request{undo, redo}
}

func (u *asIfUndone) forget(id string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	delete(u.made, id)
}

// jsonRequest is a request of the default user (an admin) to the mock.
func jsonRequest(method, path string, body any) *http.Request {
	var b []byte
	if body != nil {
		b, _ = json.Marshal(body)
	}
	r := httptest.NewRequest(method, path, bytes.NewReader(b))
	if body != nil {
		r.Header.Set("Content-Type", "application/json")
	}
	r.Header.Set("x-api-key", apiKey)
	return r
}

// readBody reads r's JSON body into v and leaves it to be read again.
func readBody(r *http.Request, v any) {
	b, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(b))
	_ = json.Unmarshal(b, v)
}

func copyAnswer(w http.ResponseWriter, rec *httptest.ResponseRecorder) {
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(rec.Body.Bytes())
}

// showsTrashInLinks shows a link's holder the photos its owner trashed,
// as a server whose query for a link's assets forgets the trash.
func showsTrashInLinks(h http.Handler, _ model.Dataset) http.Handler {
	var u asIfUndone
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			IDs   []string
			Force bool
		}
		switch {
		case r.Method == http.MethodDelete && r.URL.Path == "/api/asset":
			readBody(r, &in)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			if rec.Code == http.StatusNoContent && !in.Force {
				for _, id := range in.IDs {
					body := map[string]any{"ids": []string{id}}
					u.record(id,
						func() *http.Request { return jsonRequest(http.MethodPost, "/api/trash/restore/assets", body) },
						func() *http.Request { return jsonRequest(http.MethodDelete, "/api/asset", body) })
				}
			}
			copyAnswer(w, rec)
		case r.Method == http.MethodPost && r.URL.Path == "/api/trash/restore/assets":
			readBody(r, &in)
			for _, id := range in.IDs {
				u.forget(id)
			}
			h.ServeHTTP(w, r)
		default:
			u.serve(h, w, r)
		}
	})
}

// keepsPhotosTakenOutOfAlbums says a photo was taken out of an album, and
// leaves it there.
func keepsPhotosTakenOutOfAlbums(h http.Handler, d model.Dataset) http.Handler {
	return answer(func(r *http.Request) bool {
		return r.Method == http.MethodDelete && strings.HasPrefix(r.URL.Path, "/api/albums/") && strings.HasSuffix(r.URL.Path, "/assets")
	}, func(r *http.Request) (int, any) {
		var in struct{ IDs []string }
		readBody(r, &in)
		out := []map[string]any{}
		for _, id := range in.IDs {
			out = append(out, map[string]any{"id": id, "success": true})
		}
		return http.StatusOK, out
	})(h, d)
}

// showsLinksOnlyTheirOwnersPhotos leaves out of what a link's holder sees
// the photos of an album's other users, as a server that looks for a
// link's assets among its owner's.
func showsLinksOnlyTheirOwnersPhotos(h http.Handler, d model.Dataset) http.Handler {
	byKey := func(r *http.Request) bool {
		return r.Method == http.MethodGet && r.URL.Query().Has("key") &&
			(r.URL.Path == "/api/shared-links/me" || strings.HasPrefix(r.URL.Path, "/api/albums/"))
	}
	onlyOf := func(owner any, list any) []any {
		out := []any{}
		for _, a := range asList(list) {
			// A link that hides metadata shows no owner: kept.
			if m, ok := a.(map[string]any); !ok || m["ownerId"] == nil || m["ownerId"] == owner {
				out = append(out, a)
			}
		}
		return out
	}
	return editJSON(byKey, func(status int, body any) (int, any) {
		m, ok := body.(map[string]any)
		if !ok || status != http.StatusOK {
			return status, body
		}
		if _, isLink := m["userId"]; isLink {
			m["assets"] = onlyOf(m["userId"], m["assets"])
			if al, ok := m["album"].(map[string]any); ok {
				al["assets"] = onlyOf(m["userId"], al["assets"])
			}
		} else {
			m["assets"] = onlyOf(m["ownerId"], m["assets"])
		}
		return status, body
	})(h, d)
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// countsTimelineMonthsOneTooMany counts one asset too many in every month
// of the timeline.
func countsTimelineMonthsOneTooMany(h http.Handler, d model.Dataset) http.Handler {
	return editJSON(isRequest(http.MethodGet, "/api/timeline/buckets"), func(status int, body any) (int, any) {
		for _, b := range asList(body) {
			if b, ok := b.(map[string]any); ok {
				if n, ok := b["count"].(json.Number); ok {
					v, _ := n.Int64()
					b["count"] = v + 1
				}
			}
		}
		return status, body
	})(h, d)
}
