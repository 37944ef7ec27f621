package conformance_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Broken variants of TestBrokenVariantsAreCaught for people, search and
// the map, activities and the server's settings: servers whose access
// checks forget their owner, whose changes do not stick, whose searches
// reach another user's photos and whose threads a stranger reads.

// brokenPeople are the variants of people.feature.
var brokenPeople = []brokenVariant{
	{
		name:     "lets a user read another user's person",
		break_:   actsAsMaker(isMade(http.MethodPost, "/api/people"), "Not found or no person.read access", pathID("/api/people/")),
		caughtBy: "No one but its user reads or changes a person",
		tags:     "@people",
	},
	{
		name:     "says a person is renamed and keeps the old name",
		break_:   changesOnlyInAnswer,
		caughtBy: "A person is renamed, dated and hidden, and it sticks",
		tags:     "@people",
	},
	{
		name: "changes another user's person among several at once",
		break_: editJSON(isMade(http.MethodPut, "/api/people"), func(status int, body any) (int, any) {
			for _, r := range asList(body) {
				if m, ok := r.(map[string]any); ok {
					m["success"] = true
					delete(m, "error")
				}
			}
			return status, body
		}),
		caughtBy: "Changing several people at once does not reach another user's",
		tags:     "@people",
	},
	{
		name:     "shows a picture of a person no face was seen of",
		break_:   picturesEveryone,
		caughtBy: "A person no face was seen of has no picture",
		tags:     "@people",
	},
	{
		name: "finds the hidden people when searching by name",
		break_: func(h http.Handler, _ model.Dataset) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/api/search/person" {
					q := r.URL.Query()
					q.Set("withHidden", "true")
					r.URL.RawQuery = q.Encode()
				}
				h.ServeHTTP(w, r)
			})
		},
		caughtBy: "People are found by the start of their name",
		tags:     "@search",
	},
}

// brokenSearch are the variants of search.feature.
var brokenSearch = []brokenVariant{
	{
		name:     "finds another user's photos",
		break_:   alsoAsDefaultUser(isMade(http.MethodPost, "/api/search/metadata"), searchItems),
		caughtBy: "A user does not find another user's photos",
		tags:     "@search",
	},
	{
		name:     "marks another user's photos on the map",
		break_:   alsoAsDefaultUser(isMade(http.MethodGet, "/api/map/markers"), asList),
		caughtBy: "Another user's map does not mark my photos",
		tags:     "@search",
	},
	{
		name:     "ignores the camera a search asks for",
		break_:   forgetsCriteria("make", "model"),
		caughtBy: "A photo is found by its file name, its place, its camera and its day",
		tags:     "@search",
	},
	{
		name:     "ignores the day a search asks for",
		break_:   forgetsCriteria("takenAfter", "takenBefore"),
		caughtBy: "A photo is found by its file name, its place, its camera and its day",
		tags:     "@search",
	},
	{
		name: "marks a photo with its latitude and longitude swapped",
		break_: editJSON(isMade(http.MethodGet, "/api/map/markers"), func(status int, body any) (int, any) {
			for _, m := range asList(body) {
				if m, ok := m.(map[string]any); ok {
					m["lat"], m["lon"] = m["lon"], m["lat"]
				}
			}
			return status, body
		}),
		caughtBy: "The map marks a photo where it was taken",
		tags:     "@search",
	},
	{
		name: "answers a smart search with nothing, without machine learning",
		break_: editJSON(isMade(http.MethodPost, "/api/search/smart"), func(status int, body any) (int, any) {
			if m, ok := body.(map[string]any); ok && m["message"] == "Smart search is not enabled" {
				return http.StatusOK, map[string]any{
					"albums": map[string]any{"total": 0, "count": 0, "items": []any{}, "facets": []any{}},
					"assets": map[string]any{"total": 0, "count": 0, "items": []any{}, "facets": []any{}, "nextPage": nil},
				}
			}
			return status, body
		}),
		caughtBy: "Smart search answers only where the server has machine learning",
		tags:     "@search",
	},
	{
		name: "suggests a country once for each photo taken there",
		break_: editJSON(isMade(http.MethodGet, "/api/search/suggestions"), func(status int, body any) (int, any) {
			if list := asList(body); len(list) > 0 {
				return status, append(list, list...)
			}
			return status, body
		}),
		caughtBy: "The search form suggests the places and cameras of my photos",
		tags:     "@search",
	},
	{
		name: "pictures each city twice",
		break_: editJSON(isMade(http.MethodGet, "/api/search/cities"), func(status int, body any) (int, any) {
			if list := asList(body); len(list) > 0 {
				return status, append(list, list[0])
			}
			return status, body
		}),
		caughtBy: "Each city of my photos has a picture",
		tags:     "@search",
	},
	{
		name: "explores no city",
		break_: editJSON(isMade(http.MethodGet, "/api/search/explore"), func(status int, body any) (int, any) {
			for _, f := range asList(body) {
				if f, ok := f.(map[string]any); ok {
					f["items"] = []any{}
				}
			}
			return status, body
		}),
		caughtBy: "A city five photos were taken in is one to explore",
		tags:     "@search",
	},
}

// brokenActivities are the variants of activities.feature.
var brokenActivities = []brokenVariant{
	{
		name:     "lets a stranger read an album's thread",
		break_:   actsAsMaker(isMade(http.MethodPost, "/api/albums"), "Not found or no album.read access", queryID("albumId")),
		caughtBy: "Someone the album is not shared with neither reads nor writes its thread",
		tags:     "@activities",
	},
	{
		name:     "lets an album's user delete another's comment",
		break_:   actsAsMaker(isMade(http.MethodPost, "/api/activities"), "Not found or no activity.delete access", pathID("/api/activities/")),
		caughtBy: "A comment is deleted by its author or by the album's owner, and by no one else",
		tags:     "@activities",
	},
	{
		name: "gives a like twice",
		break_: editJSON(isMade(http.MethodPost, "/api/activities"), func(status int, body any) (int, any) {
			if m, ok := body.(map[string]any); ok && status == http.StatusOK {
				m["id"] = newUUID()
				return http.StatusCreated, m
			}
			return status, body
		}),
		caughtBy: "A like is given once",
		tags:     "@activities",
	},
	{
		name:     "takes comments on an album whose activity is off",
		break_:   takesCommentsAnyway,
		caughtBy: "An album whose activity is turned off takes no more comments",
		tags:     "@activities",
	},
	{
		name: "counts the likes among the comments",
		break_: editJSON(isMade(http.MethodGet, "/api/activities/statistics"), func(status int, body any) (int, any) {
			if m, ok := body.(map[string]any); ok {
				if n, ok := m["comments"].(json.Number); ok {
					v, _ := n.Int64()
					m["comments"] = v + 1
				}
			}
			return status, body
		}),
		caughtBy: "The album's owner and its user comment and like, and both read one thread",
		tags:     "@activities",
	},
	{
		name: "lists a thread newest first",
		break_: editJSON(isMade(http.MethodGet, "/api/activities"), func(status int, body any) (int, any) {
			slices.Reverse(asList(body))
			return status, body
		}),
		caughtBy: "The album's owner and its user comment and like, and both read one thread",
		tags:     "@activities",
	},
	{
		name:     "lets the holder of an album's link read its thread",
		break_:   linkActsAsOwner(isMade(http.MethodGet, "/api/activities")),
		caughtBy: "The holder of the album's link neither reads nor writes its thread",
		tags:     "@activities",
	},
}

// brokenSettings are the variants of settings.feature.
var brokenSettings = []brokenVariant{
	{
		name:     "answers a change of the settings without keeping it",
		break_:   answersSettingsWithoutKeeping,
		caughtBy: "An admin changes a setting, it sticks, and the web app shows it",
		tags:     "@settings",
	},
	{
		name: "tells the web app a login page message of its own",
		break_: editJSON(isMade(http.MethodGet, "/api/server-info/config"), func(status int, body any) (int, any) {
			if m, ok := body.(map[string]any); ok {
				m["loginPageMessage"] = ""
			}
			return status, body
		}),
		caughtBy: "An admin changes a setting, it sticks, and the web app shows it",
		tags:     "@settings",
	},
	{
		name: "tells the web app it has smart search, with machine learning off",
		break_: editJSON(isMade(http.MethodGet, "/api/server-info/features"), func(status int, body any) (int, any) {
			if m, ok := body.(map[string]any); ok {
				m["smartSearch"] = true
			}
			return status, body
		}),
		caughtBy: "What the web app is told before a page agrees with the server's settings",
		tags:     "@settings",
	},
	{
		name:     "lets a user who is not an admin read the settings",
		break_:   refusalRetriedAsDefaultUser(isMade(http.MethodGet, "/api/system-config"), "Forbidden resource"),
		caughtBy: "A user who is not an admin neither reads nor changes the server's settings",
		tags:     "@settings",
	},
	{
		name:     "tells a link's holder how full the disk is",
		break_:   linkActsAsOwner(isMade(http.MethodGet, "/api/server-info/storage")),
		caughtBy: "A link's holder is not told how full the server's disk is",
		tags:     "@settings",
	},
	{
		name: "takes the quality of converted videos past its range",
		break_: editJSON(isMade(http.MethodPut, "/api/system-config"), func(status int, body any) (int, any) {
			if m, ok := body.(map[string]any); ok && fmt.Sprint(m["message"]) == "[ffmpeg.crf must not be greater than 51]" {
				return http.StatusOK, map[string]any{}
			}
			return status, body
		}),
		caughtBy: "A setting the server cannot take is refused, and changes nothing",
		tags:     "@settings",
	},
	{
		name:     "forgets that the admin was shown around",
		break_:   answer(isMade(http.MethodPost, "/api/system-metadata/admin-onboarding"), func(*http.Request) (int, any) { return http.StatusNoContent, nil }),
		caughtBy: "An admin records whether they were shown around",
		tags:     "@settings",
	},
	{
		name: "counts the part of the disk free as the part used",
		break_: editJSON(isMade(http.MethodGet, "/api/server-info/storage"), func(status int, body any) (int, any) {
			if m, ok := body.(map[string]any); ok {
				if n, ok := m["diskUsagePercentage"].(json.Number); ok {
					v, _ := n.Float64()
					m["diskUsagePercentage"] = 100 - v
				}
			}
			return status, body
		}),
		caughtBy: "A user sees how full the server's disk is",
		tags:     "@settings",
	},
	{
		name: "leaves the newest user out of the totals",
		break_: editJSON(isMade(http.MethodGet, "/api/server-info/statistics"), func(status int, body any) (int, any) {
			if m, ok := body.(map[string]any); ok {
				if users := asList(m["usageByUser"]); len(users) > 0 {
					if last, ok := users[len(users)-1].(map[string]any); ok {
						m["photos"] = numberOf(m["photos"]) - numberOf(last["photos"])
						m["usage"] = numberOf(m["usage"]) - numberOf(last["usage"])
					}
				}
			}
			return status, body
		}),
		caughtBy: "An admin sees what each user stores",
		tags:     "@settings",
	},
	{
		name: "has no default theme",
		break_: editJSON(isMade(http.MethodGet, "/api/system-config/defaults"), func(status int, body any) (int, any) {
			if m, ok := body.(map[string]any); ok {
				delete(m, "theme")
			}
			return status, body
		}),
		caughtBy: "The defaults hold every setting",
		tags:     "@settings",
	},
}

// isMade selects the requests of a method to exactly path.
func isMade(method, path string) func(*http.Request) bool {
	return func(r *http.Request) bool { return r.Method == method && r.URL.Path == path }
}

// pathID reads the id that follows prefix in a request's path.
func pathID(prefix string) func(*http.Request) string {
	return func(r *http.Request) string {
		id, _ := strings.CutPrefix(r.URL.Path, prefix)
		id, _, _ = strings.Cut(id, "/")
		return id
	}
}

// queryID reads the id a request's query names.
func queryID(name string) func(*http.Request) string {
	return func(r *http.Request) string { return r.URL.Query().Get(name) }
}

// credentialHeaders are the headers that say who sends a request.
var credentialHeaders = []string{"X-Api-Key", "Authorization"}

// asSender is r sent again with the credentials of header.
func asSender(r *http.Request, header http.Header, body []byte) *http.Request {
	again := r.Clone(r.Context())
	again.Body = io.NopCloser(bytes.NewReader(body))
	for _, k := range credentialHeaders {
		again.Header.Del(k)
		if v := header.Get(k); v != "" {
			again.Header.Set(k, v)
		}
	}
	return again
}

// actsAsMaker refuses nothing of what someone made: a request the mock
// refuses with refused, naming (idOf) what a request made selects made,
// is answered as its maker, as a server whose access check looks up the
// thing and forgets to compare its owner with the caller.
func actsAsMaker(made func(*http.Request) bool, refused string, idOf func(*http.Request) string) func(http.Handler, model.Dataset) http.Handler {
	return func(h http.Handler, _ model.Dataset) http.Handler {
		var mu sync.Mutex
		makers := map[string]http.Header{}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, asSender(r, r.Header, body))
			var out struct {
				ID      string `json:"id"`
				Message any    `json:"message"`
			}
			_ = json.Unmarshal(rec.Body.Bytes(), &out)
			mu.Lock()
			if made(r) && rec.Code == http.StatusCreated {
				makers[out.ID] = r.Header.Clone()
			}
			maker, known := makers[idOf(r)]
			mu.Unlock()
			if rec.Code == http.StatusBadRequest && out.Message == refused && known {
				rec = httptest.NewRecorder()
				h.ServeHTTP(rec, asSender(r, maker, body))
			}
			copyAnswer(w, rec)
		})
	}
}

// refusalRetriedAsDefaultUser answers a request match selects, which the
// mock refuses with refused, as the default user (an admin) would be
// answered: a server that checks a role and forgets the result.
func refusalRetriedAsDefaultUser(match func(*http.Request) bool, refused string) func(http.Handler, model.Dataset) http.Handler {
	admin := http.Header{"X-Api-Key": {apiKey}}
	return func(h http.Handler, _ model.Dataset) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !match(r) {
				h.ServeHTTP(w, r)
				return
			}
			body, _ := io.ReadAll(r.Body)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, asSender(r, r.Header, body))
			if m, ok := decode(rec.Body.Bytes()).(map[string]any); ok && m["message"] == refused {
				rec = httptest.NewRecorder()
				h.ServeHTTP(rec, asSender(r, admin, body))
			}
			copyAnswer(w, rec)
		})
	}
}

// linkActsAsOwner answers a request match selects through a link's key
// as the link's owner (the default user, as the scenarios make links):
// a server that lets a link's key past a gate meant for users.
func linkActsAsOwner(match func(*http.Request) bool) func(http.Handler, model.Dataset) http.Handler {
	return func(h http.Handler, _ model.Dataset) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			q := r.URL.Query()
			if match(r) && q.Has("key") {
				q.Del("key")
				r.URL.RawQuery = q.Encode()
				r.Header.Set("x-api-key", apiKey)
			}
			h.ServeHTTP(w, r)
		})
	}
}

// alsoAsDefaultUser answers a request match selects, of another user than
// the default one, with the default user's findings (items reads the list
// of an answer) added to the caller's: a query that forgets its owner.
func alsoAsDefaultUser(match func(*http.Request) bool, items func(any) []any) func(http.Handler, model.Dataset) http.Handler {
	mine := http.Header{"X-Api-Key": {apiKey}}
	return func(h http.Handler, _ model.Dataset) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !match(r) || r.Header.Get("x-api-key") == apiKey {
				h.ServeHTTP(w, r)
				return
			}
			body, _ := io.ReadAll(r.Body)
			theirs, others := httptest.NewRecorder(), httptest.NewRecorder()
			h.ServeHTTP(theirs, asSender(r, r.Header, body))
			h.ServeHTTP(others, asSender(r, mine, body))
			answer, more := decode(theirs.Body.Bytes()), decode(others.Body.Bytes())
			if theirs.Code != http.StatusOK {
				copyAnswer(w, theirs)
				return
			}
			if page, ok := answer.(map[string]any); ok {
				assets, ok := page["assets"].(map[string]any)
				if !ok {
					copyAnswer(w, theirs)
					return
				}
				list := append(items(answer), items(more)...)
				assets["items"], assets["count"] = list, len(list)
				writeJSON(w, http.StatusOK, answer)
				return
			}
			writeJSON(w, http.StatusOK, append(items(answer), items(more)...))
		})
	}
}

// searchItems are the assets of a search's page.
func searchItems(page any) []any {
	m, _ := page.(map[string]any)
	assets, _ := m["assets"].(map[string]any)
	return asList(assets["items"])
}

// forgetsCriteria searches without the criteria named: a server that
// does not read them.
func forgetsCriteria(names ...string) func(http.Handler, model.Dataset) http.Handler {
	return func(h http.Handler, _ model.Dataset) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if isMade(http.MethodPost, "/api/search/metadata")(r) {
				var in map[string]any
				readBody(r, &in)
				for _, n := range names {
					delete(in, n)
				}
				b, _ := json.Marshal(in)
				r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
			}
			h.ServeHTTP(w, r)
		})
	}
}

// changesOnlyInAnswer answers a change of a person with the person as
// changed, and keeps them as they were.
func changesOnlyInAnswer(h http.Handler, _ model.Dataset) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPut || !strings.HasPrefix(r.URL.Path, "/api/people/") {
			h.ServeHTTP(w, r)
			return
		}
		var change map[string]any
		readBody(r, &change)
		read := r.Clone(r.Context())
		read.Method, read.Body = http.MethodGet, http.NoBody
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, read)
		person, ok := decode(rec.Body.Bytes()).(map[string]any)
		if rec.Code != http.StatusOK || !ok {
			copyAnswer(w, rec)
			return
		}
		for k, v := range change {
			person[k] = v
		}
		writeJSON(w, http.StatusOK, person)
	})
}

// picturesEveryone answers a person's picture that the mock has not with
// a picture of its own.
func picturesEveryone(h http.Handler, _ model.Dataset) http.Handler {
	var picture bytes.Buffer
	_ = jpeg.Encode(&picture, image.NewGray(image.Rect(0, 0, 8, 8)), nil)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if strings.HasSuffix(r.URL.Path, "/thumbnail") && strings.HasPrefix(r.URL.Path, "/api/people/") && rec.Code == http.StatusNotFound {
			w.Header().Set("Content-Type", "image/jpeg")
			_, _ = w.Write(picture.Bytes())
			return
		}
		copyAnswer(w, rec)
	})
}

// takesCommentsAnyway answers a comment the mock refuses on an album whose
// activity is off as made, as a server that does not look at the flag.
func takesCommentsAnyway(h http.Handler, _ model.Dataset) http.Handler {
	return editJSON(isMade(http.MethodPost, "/api/activities"), func(status int, body any) (int, any) {
		if m, ok := body.(map[string]any); ok && m["message"] == "Not found or no activity.create access" {
			return http.StatusCreated, map[string]any{
				"id": newUUID(), "assetId": nil, "createdAt": "2024-01-01T00:00:00.000Z", "comment": "Hello", "type": "comment",
				"user": map[string]any{"id": newUUID(), "email": "someone@example.com", "name": "Someone", "profileImagePath": "", "avatarColor": "primary"},
			}
		}
		return status, body
	})(h, model.Dataset{})
}

// answersSettingsWithoutKeeping answers a change of the settings with the
// settings asked for, and keeps none of it.
func answersSettingsWithoutKeeping(h http.Handler, _ model.Dataset) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !isMade(http.MethodPut, "/api/system-config")(r) {
			h.ServeHTTP(w, r)
			return
		}
		var asked any
		readBody(r, &asked)
		writeJSON(w, http.StatusOK, asked)
	})
}

// numberOf is a JSON number's value.
func numberOf(v any) int64 {
	n, _ := v.(json.Number)
	i, _ := n.Int64()
	return i
}
