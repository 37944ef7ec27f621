package conformance_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Broken variants of TestBrokenVariantsAreCaught for the scenarios of
// albums_users.feature, assets.feature, trash.feature and
// partners.feature: servers that ignore album roles, forget a change, pick
// from the trash, empty the wrong trash, and let a partner see everything.

// brokenAlbumUsers are the variants of albums and their users.
var brokenAlbumUsers = []brokenVariant{
	{
		name:     "says a user's role in an album changed, and keeps the old one",
		break_:   saysDone(isAlbumUserRequest(http.MethodPut), http.StatusOK),
		caughtBy: "An editor adds photos of their own to an album; made a viewer, they only look",
		tags:     "@album-users",
	},
	{
		name:     "says a user was taken off an album, and keeps showing it to them",
		break_:   saysDone(isAlbumUserRequest(http.MethodDelete), http.StatusOK),
		caughtBy: "A user taken off an album no longer sees it",
		tags:     "@album-users",
	},
	{
		name:     "lets an album's editor change it",
		break_:   letsEditorsChangeAlbums,
		caughtBy: "Only its owner changes an album, not even an editor of it",
		tags:     "@album-users",
	},
	{
		name:     "deletes an album and leaves open the links that shared it",
		break_:   keepsLinksOfDeletedAlbums,
		caughtBy: "Deleting an album takes the links that share it with it",
		tags:     "@album-users",
	},
	{
		name: "counts an album shared in a link as not shared",
		break_: editJSON(isRequest(http.MethodGet, "/api/albums/count"), func(status int, body any) (int, any) {
			if m, ok := body.(map[string]any); ok {
				m["notShared"] = m["owned"]
			}
			return status, body
		}),
		caughtBy: "A user's count of albums follows the albums they make, share and delete",
		tags:     "@album-users",
	},
}

// brokenAssets are the variants of assets, stacks, random picks and memory
// lane.
var brokenAssets = []brokenVariant{
	{
		name:     "answers a photo's change without keeping it",
		break_:   answersAssetChangesWithoutKeeping,
		caughtBy: "A photo's owner marks it as a favourite and archives it",
		tags:     "@assets",
	},
	{
		name:     "forgets the date and place of a change of several photos",
		break_:   dropsFields(http.MethodPut, "/api/asset", "dateTimeOriginal", "latitude", "longitude"),
		caughtBy: "Several photos are marked, archived, dated and placed at once",
		tags:     "@assets",
	},
	{
		name:     "stacks photos under none of them",
		break_:   dropsFields(http.MethodPut, "/api/asset", "stackParentId"),
		caughtBy: "Photos gathered in a stack show it, under their parent",
		tags:     "@assets",
	},
	{
		name:     "picks photos from the trash at random",
		break_:   picksFromTheTrash,
		caughtBy: "Random picks are the user's own photos out of the trash",
		tags:     "@assets",
	},
	{
		name:     "shows archived photos in memory lane",
		break_:   remembersArchivedPhotos,
		caughtBy: "Memory lane shows the photos taken on a day in earlier years",
		// Memory lane shows photos with pictures: the target keeps the
		// uploads' files, as for @pictures.
		tags: "@assets @pictures",
	},
}

// brokenTrash are the variants of the trash.
var brokenTrash = []brokenVariant{
	{
		name:     "says the trash is restored, and leaves everything in it",
		break_:   saysDone(isRequest(http.MethodPost, "/api/trash/restore"), http.StatusNoContent),
		caughtBy: "Restoring the trash brings back everything in it",
		tags:     "@trash",
	},
	{
		name:     "empties the trash and deletes what is out of it too",
		break_:   emptiesMoreThanTheTrash,
		caughtBy: "Emptying the trash deletes what is in it for good, and nothing else",
		tags:     "@trash",
	},
	{
		name:     "empties every user's trash",
		break_:   withKeys(emptiesEveryTrash),
		caughtBy: "Emptying a trash leaves another user's as it was",
		tags:     "@trash",
	},
}

// brokenPartners are the variants of partners.
var brokenPartners = []brokenVariant{
	{
		name:     "lets a partner see everything of the library, archived and trashed photos too",
		break_:   withKeys(partnersSeeEverything),
		caughtBy: "A partner reads the library shared with them, but not its archived or trashed photos",
		tags:     "@partners",
	},
	{
		name:     "says a partnership ended, and keeps it",
		break_:   saysDone(isRequest(http.MethodDelete, "/api/partners/"), http.StatusOK),
		caughtBy: "A partner no longer reads the library once the partnership ends",
		tags:     "@partners",
	},
	{
		name:     "shows a library in the partner's timeline without their asking",
		break_:   withKeys(showsPartnersInTimelineAtOnce),
		caughtBy: "A partner's library shows in their timeline and memory lane only when they ask",
		tags:     "@partners @pictures",
	},
}

// isAlbumUserRequest selects the requests of a method on one user of an
// album: /api/albums/{id}/user/{userId}.
func isAlbumUserRequest(method string) func(*http.Request) bool {
	return func(r *http.Request) bool {
		return r.Method == method && strings.HasPrefix(r.URL.Path, "/api/albums/") && strings.Contains(r.URL.Path, "/user/")
	}
}

// saysDone answers the requests match selects with status and no body,
// without asking the mock: a server that says it did what it did not.
func saysDone(match func(*http.Request) bool, status int) func(http.Handler, model.Dataset) http.Handler {
	return func(h http.Handler, _ model.Dataset) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !match(r) {
				h.ServeHTTP(w, r)
				return
			}
			w.Header().Set("Content-Length", "0")
			w.WriteHeader(status)
		})
	}
}

// asUser is a request of the user of key to the mock, for localhost (the
// control API answers no other host).
func asUser(key, method, path string, body any) *http.Request {
	r := jsonRequest(method, path, body)
	r.Header.Set("x-api-key", key)
	r.Host = "127.0.0.1"
	return r
}

// serveJSON asks h and decodes its answer.
func serveJSON(h http.Handler, r *http.Request, v any) int {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	_ = json.Unmarshal(rec.Body.Bytes(), v)
	return rec.Code
}

// letsEditorsChangeAlbums changes an album for a user it is shared with,
// as a server that checks that the caller may read it, not own it. The
// albums of the scenarios are the default user's.
func letsEditorsChangeAlbums(h http.Handler, _ model.Dataset) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPatch || !strings.HasPrefix(r.URL.Path, "/api/albums/") {
			h.ServeHTTP(w, r)
			return
		}
		var seen map[string]any
		if serveJSON(h, asUser(r.Header.Get("x-api-key"), http.MethodGet, r.URL.Path, nil), &seen) == http.StatusOK {
			r.Header.Set("x-api-key", apiKey)
		}
		h.ServeHTTP(w, r)
	})
}

// keepsLinksOfDeletedAlbums deletes an album, and keeps answering the keys
// of the links that shared it with the link, as a server that forgets
// them.
func keepsLinksOfDeletedAlbums(h http.Handler, _ model.Dataset) http.Handler {
	var mu sync.Mutex
	kept := map[string]any{} // key → the link
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.URL.Query().Get("key")
		mu.Lock()
		l, ok := kept[key]
		mu.Unlock()
		switch {
		case ok && r.URL.Path == "/api/shared-links/me":
			writeJSON(w, http.StatusOK, l)
			return
		case r.Method != http.MethodDelete || !strings.HasPrefix(r.URL.Path, "/api/albums/") || strings.Count(r.URL.Path, "/") != 3:
			h.ServeHTTP(w, r)
			return
		}
		var links []map[string]any
		serveJSON(h, asUser(r.Header.Get("x-api-key"), http.MethodGet, "/api/shared-links", nil), &links)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		id := strings.TrimPrefix(r.URL.Path, "/api/albums/")
		mu.Lock()
		for _, l := range links {
			if al, _ := l["album"].(map[string]any); rec.Code == http.StatusOK && al != nil && al["id"] == id {
				kept[fmt.Sprint(l["key"])] = l
			}
		}
		mu.Unlock()
		copyAnswer(w, rec)
	})
}

// answersAssetChangesWithoutKeeping answers a change of one asset with the
// asset as it would be, and keeps nothing of it.
func answersAssetChangesWithoutKeeping(h http.Handler, _ model.Dataset) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPut || !strings.HasPrefix(r.URL.Path, "/api/asset/") || strings.Count(r.URL.Path, "/") != 3 {
			h.ServeHTTP(w, r)
			return
		}
		var change, a map[string]any
		readBody(r, &change)
		if status := serveJSON(h, asUser(r.Header.Get("x-api-key"), http.MethodGet, r.URL.Path, nil), &a); status != http.StatusOK {
			h.ServeHTTP(w, r)
			return
		}
		for _, f := range []string{"isFavorite", "isArchived"} {
			if v, ok := change[f]; ok {
				a[f] = v
			}
		}
		writeJSON(w, http.StatusOK, a)
	})
}

// dropsFields leaves fields out of the JSON bodies of the requests of a
// method to path, as a server that does not read them.
func dropsFields(method, path string, fields ...string) func(http.Handler, model.Dataset) http.Handler {
	return func(h http.Handler, _ model.Dataset) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == method && r.URL.Path == path {
				var in map[string]any
				readBody(r, &in)
				for _, f := range fields {
					delete(in, f)
				}
				r = asUser(r.Header.Get("x-api-key"), method, path, in)
			}
			h.ServeHTTP(w, r)
		})
	}
}

// assetsOf is every asset of the user of key, as the control API lists
// them: in the trash and archived too.
func assetsOf(h http.Handler, key string) []map[string]any {
	var all []map[string]any
	serveJSON(h, asUser(key, http.MethodGet, "/__mock/assets", nil), &all)
	return all
}

// picksFromTheTrash picks at random among every asset of the caller, as a
// server whose query forgets the trash.
func picksFromTheTrash(h http.Handler, d model.Dataset) http.Handler {
	return answer(isRequest(http.MethodGet, "/api/asset/random"), func(r *http.Request) (int, any) {
		all := assetsOf(h, r.Header.Get("x-api-key"))
		rand.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		n := 1
		_, _ = fmt.Sscan(r.URL.Query().Get("count"), &n)
		return http.StatusOK, all[:min(n, len(all))]
	})(h, d)
}

// remembersArchivedPhotos answers memory lane with the archived photos of
// the day too, as a server whose query forgets the archive.
func remembersArchivedPhotos(h http.Handler, d model.Dataset) http.Handler {
	return answer(isRequest(http.MethodGet, "/api/asset/memory-lane"), func(r *http.Request) (int, any) {
		var day, month int
		_, _ = fmt.Sscan(r.URL.Query().Get("day"), &day)
		_, _ = fmt.Sscan(r.URL.Query().Get("month"), &month)
		years := map[int][]any{}
		now := time.Now().Year()
		for _, a := range assetsOf(h, r.Header.Get("x-api-key")) {
			t, err := time.Parse(time.RFC3339Nano, fmt.Sprint(a["localDateTime"]))
			if err == nil && a["isTrashed"] == false && a["isVisible"] != false && t.Day() == day && int(t.Month()) == month && t.Year() < now {
				years[now-t.Year()] = append(years[now-t.Year()], a)
			}
		}
		out := []any{}
		for ago := 1; ago <= 200; ago++ {
			if as, ok := years[ago]; ok {
				out = append(out, map[string]any{"yearsAgo": ago, "title": fmt.Sprint(ago, " years ago"), "assets": as})
			}
		}
		return http.StatusOK, out
	})(h, d)
}

// emptiesMoreThanTheTrash empties the trash, and deletes every other asset
// of the caller for good too.
func emptiesMoreThanTheTrash(h http.Handler, _ model.Dataset) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == "/api/trash/empty" {
			key := r.Header.Get("x-api-key")
			var ids []any
			for _, a := range assetsOf(h, key) {
				ids = append(ids, a["id"])
			}
			if len(ids) > 0 {
				h.ServeHTTP(httptest.NewRecorder(), asUser(key, http.MethodDelete, "/api/asset", map[string]any{"ids": ids, "force": true}))
			}
		}
		h.ServeHTTP(w, r)
	})
}

// keyring is the API keys of the users the harness made, by user id, as a
// broken server that acts for other users than the caller finds them.
type keyring struct {
	mu   sync.Mutex
	keys map[string]string
}

func (k *keyring) all() map[string]string {
	k.mu.Lock()
	defer k.mu.Unlock()
	out := make(map[string]string, len(k.keys))
	for id, key := range k.keys {
		out[id] = key
	}
	return out
}

// withKeys runs broken with a keyring of the users' API keys, kept as the
// harness makes them (POST /api/api-keys, then whose it is).
func withKeys(broken func(http.Handler, *keyring) http.Handler) func(http.Handler, model.Dataset) http.Handler {
	return func(h http.Handler, _ model.Dataset) http.Handler {
		k := &keyring{keys: map[string]string{}}
		b := broken(h, k)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodPost || r.URL.Path != "/api/api-keys" {
				b.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			var made struct{ Secret string }
			var me struct{ ID string }
			if json.Unmarshal(rec.Body.Bytes(), &made) == nil && made.Secret != "" &&
				serveJSON(h, asUser(made.Secret, http.MethodGet, "/api/users/me", nil), &me) == http.StatusOK {
				k.mu.Lock()
				k.keys[me.ID] = made.Secret
				k.mu.Unlock()
			}
			copyAnswer(w, rec)
		})
	}
}

// emptiesEveryTrash empties, with one user's trash, every other user's.
func emptiesEveryTrash(h http.Handler, k *keyring) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == "/api/trash/empty" {
			for _, key := range k.all() {
				h.ServeHTTP(httptest.NewRecorder(), asUser(key, http.MethodPost, "/api/trash/empty", nil))
			}
		}
		h.ServeHTTP(w, r)
	})
}

// partnersSeeEverything answers a partner's read of an asset of the
// library shared with them as its owner reads it, archived or trashed.
func partnersSeeEverything(h http.Handler, k *keyring) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if r.Method != http.MethodGet || !strings.HasPrefix(r.URL.Path, "/api/asset/") || rec.Code != http.StatusBadRequest {
			copyAnswer(w, rec)
			return
		}
		var me struct{ ID string }
		serveJSON(h, asUser(r.Header.Get("x-api-key"), http.MethodGet, "/api/users/me", nil), &me)
		for _, key := range k.all() {
			var partners []struct{ ID string }
			serveJSON(h, asUser(key, http.MethodGet, "/api/partners?direction=shared-by", nil), &partners)
			for _, p := range partners {
				var a map[string]any
				if p.ID == me.ID && serveJSON(h, asUser(key, http.MethodGet, r.URL.Path, nil), &a) == http.StatusOK {
					writeJSON(w, http.StatusOK, a)
					return
				}
			}
		}
		copyAnswer(w, rec)
	})
}

// showsPartnersInTimelineAtOnce puts a library in the partner's timeline
// as soon as it is shared with them, as a server whose default is the
// other way round (and which answers that it is not).
func showsPartnersInTimelineAtOnce(h http.Handler, k *keyring) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/api/partners/") && rec.Code == http.StatusCreated {
			var me struct{ ID string }
			serveJSON(h, asUser(r.Header.Get("x-api-key"), http.MethodGet, "/api/users/me", nil), &me)
			partner := strings.TrimPrefix(r.URL.Path, "/api/partners/")
			if key, ok := k.all()[partner]; ok {
				h.ServeHTTP(httptest.NewRecorder(), asUser(key, http.MethodPut, "/api/partners/"+me.ID, map[string]any{"inTimeline": true}))
			}
		}
		copyAnswer(w, rec)
	})
}
