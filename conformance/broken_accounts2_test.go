package conformance_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Broken variants of TestBrokenVariantsAreCaught for the scenarios of
// logins, sessions, API keys and users (sessions.feature, users.feature,
// and what an admin does to a user in accounts.feature): servers whose
// logouts, password changes, keys, names, preferences and portraits do not
// stick, that show a user's account or secrets to whom they should not,
// and that let a user who is no admin act as one.
var brokenAccounts2 = []brokenVariant{
	{
		name:     "keeps a session its user logged out of",
		break_:   answer(isExactly(http.MethodPost, "/api/auth/logout"), loggedOut),
		caughtBy: "A session's token is good until its user logs out",
	},
	{
		name:     "says any credentials are good",
		break_:   editJSON(isExactly(http.MethodPost, "/api/auth/validateToken"), answeredAsGood),
		caughtBy: "My API key is good, a token the server never gave is not",
	},
	{
		name:     "marks every session current",
		break_:   editJSON(isExactly(http.MethodGet, "/api/sessions"), everySessionCurrent),
		caughtBy: "A user sees each of their sessions",
	},
	{
		name:     "ends the session it came with when asked to end the others",
		break_:   endsCurrentSessionToo,
		caughtBy: "A user ends every other session at once",
	},
	{
		name:     "says it ended another user's session",
		break_:   editJSON(isRequest(http.MethodDelete, "/api/sessions/"), refusalAnswered(http.StatusNoContent, nil)),
		caughtBy: "No one ends another user's session",
	},
	{
		name:     "keeps the old password after a change",
		break_:   keepsOldPassword,
		caughtBy: "A new password logs in at once",
	},
	{
		name:     "lists API keys with their secrets",
		break_:   editJSON(isExactly(http.MethodGet, "/api/api-keys"), withSecrets),
		caughtBy: "A user's API keys are listed newest first",
	},
	{
		name:     "lists API keys oldest first",
		break_:   editJSON(isExactly(http.MethodGet, "/api/api-keys"), reversed),
		caughtBy: "A user's API keys are listed newest first",
	},
	{
		name:     "answers a rename with another user's key",
		break_:   editJSON(isRequest(http.MethodPut, "/api/api-keys/"), anotherKey),
		caughtBy: "A renamed API key is listed under its new name",
	},
	{
		name:     "keeps a deleted API key working",
		break_:   answerEmpty(isRequest(http.MethodDelete, "/api/api-keys/"), http.StatusOK),
		caughtBy: "A deleted API key is refused at once",
	},
	{
		name:     "shows another user's API key",
		break_:   editJSON(isRequest(http.MethodGet, "/api/api-keys/"), refusalAnswered(http.StatusOK, someKey)),
		caughtBy: "No one reads, renames or deletes another user's API key",
	},
	{
		name:     "shows others a user's account",
		break_:   editJSON(isRequest(http.MethodGet, "/api/users"), withAccount),
		caughtBy: "Users see each other by name, email and avatar colour",
	},
	{
		name:     "still lists deleted users",
		break_:   listsDeletedUsers,
		caughtBy: "An admin sees every user with their account, and a deleted one only among the deleted",
	},
	{
		name:     "forgets a new name",
		break_:   answersChangeWithoutIt(http.MethodPut, "/api/users/me", "/api/users/me"),
		caughtBy: "A user renames themselves",
	},
	{
		name:     "lets a user take another user's email",
		break_:   editJSON(isExactly(http.MethodPut, "/api/users/me"), refusalAnswered(http.StatusOK, map[string]any{})),
		caughtBy: "A user cannot take another user's email",
	},
	{
		name:     "forgets preferences",
		break_:   answersChangeWithoutIt(http.MethodPut, "/api/users/me/preferences", "/api/users/me/preferences"),
		caughtBy: "A user's preferences stay as they chose them",
	},
	{
		name:     "takes any avatar colour",
		break_:   editJSON(isExactly(http.MethodPut, "/api/users/me/preferences"), refusalAnswered(http.StatusOK, map[string]any{"avatar": map[string]any{"color": "mauve"}, "memories": map[string]any{"enabled": true}})),
		caughtBy: "A colour that is none of the avatar colours is refused",
	},
	{
		name:     "keeps a user's first portrait",
		break_:   keepsFirstPortrait,
		caughtBy: "A user's portrait is the last picture they uploaded",
	},
	{
		name:     "keeps a removed portrait",
		break_:   answerEmpty(isExactly(http.MethodDelete, "/api/users/profile-image"), http.StatusNoContent),
		caughtBy: "A user removes their portrait",
	},
	{
		name:     "lets a user who is no admin list users as an admin",
		break_:   servesAsAdmin(isExactly(http.MethodGet, "/api/admin/users")),
		caughtBy: "A user who is no admin neither sees nor changes users as an admin does",
	},
	{
		name:     "lets any user read another's preferences",
		break_:   servesAsAdmin(isPreferencesAdmin),
		caughtBy: "A user who is no admin neither reads nor sets another user's preferences",
	},
	{
		name:     "forgets an admin's limit of a user's storage",
		break_:   forgetsQuota,
		caughtBy: "An admin renames a user, limits their storage and labels it",
	},
	{
		name:     "signs up a second admin",
		break_:   editJSON(isExactly(http.MethodPost, "/api/auth/admin-sign-up"), refusalAnswered(http.StatusCreated, map[string]any{})),
		caughtBy: "A server that has an admin makes no second one through sign-up",
	},
}

// isExactly selects the requests of a method and path.
func isExactly(method, path string) func(*http.Request) bool {
	return func(r *http.Request) bool { return r.Method == method && r.URL.Path == path }
}

// isPreferencesAdmin selects the requests to a user's preferences as an
// admin reads and sets them.
func isPreferencesAdmin(r *http.Request) bool {
	return strings.HasPrefix(r.URL.Path, "/api/admin/users/") && strings.HasSuffix(r.URL.Path, "/preferences")
}

// loggedOut answers a logout as done, and does nothing.
func loggedOut(*http.Request) (int, any) {
	return http.StatusOK, map[string]any{"successful": true, "redirectUri": "/auth/login?autoLaunch=0"}
}

// answeredAsGood answers every question of credentials as good ones.
func answeredAsGood(int, any) (int, any) {
	return http.StatusOK, map[string]any{"authStatus": true}
}

func everySessionCurrent(status int, body any) (int, any) {
	for _, se := range asList(body) {
		if m, ok := se.(map[string]any); ok {
			m["current"] = true
		}
	}
	return status, body
}

func withSecrets(status int, body any) (int, any) {
	for _, k := range asList(body) {
		if m, ok := k.(map[string]any); ok {
			m["secret"] = newUUID()
		}
	}
	return status, body
}

func reversed(status int, body any) (int, any) {
	slices.Reverse(asList(body))
	return status, body
}

// anotherKey answers a key's rename with another key, as the reference
// does (it looks the key up by an id it never set).
func anotherKey(status int, body any) (int, any) {
	if m, ok := body.(map[string]any); ok && status == http.StatusOK {
		m["id"], m["name"] = newUUID(), "reference"
	}
	return status, body
}

// someKey is an API key of no one's the scenario knows, named as theirs.
var someKey = map[string]any{"id": "6f1c7a9e-0d3b-4c52-9a8e-2b7d4e5f6a10", "name": "laptop", "createdAt": "2024-01-01T00:00:00.000Z", "updatedAt": "2024-01-01T00:00:00.000Z"}

// refusalAnswered answers a refusal (a 400) with status and body instead,
// as a server that does not check what it should.
func refusalAnswered(status int, body any) func(int, any) (int, any) {
	return func(was int, got any) (int, any) {
		if was != http.StatusBadRequest {
			return was, got
		}
		return status, body
	}
}

// answerEmpty answers the requests match selects with status and no body,
// doing nothing.
func answerEmpty(match func(*http.Request) bool, status int) func(http.Handler, model.Dataset) http.Handler {
	return func(h http.Handler, _ model.Dataset) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !match(r) {
				h.ServeHTTP(w, r)
				return
			}
			w.WriteHeader(status)
		})
	}
}

// withAccount shows a user's account in what others see of them.
func withAccount(status int, body any) (int, any) {
	show := func(u any) {
		if m, ok := u.(map[string]any); ok {
			m["isAdmin"], m["quotaSizeInBytes"] = false, nil
		}
	}
	if list := asList(body); list != nil {
		for _, u := range list {
			show(u)
		}
	} else {
		show(body)
	}
	return status, body
}

// asked is what the mock answers a GET of path with r's credentials.
func asked(h http.Handler, r *http.Request, path string) (int, any) {
	q := httptest.NewRequest(http.MethodGet, path, nil)
	for _, name := range []string{"Authorization", "X-Api-Key"} {
		if v := r.Header.Get(name); v != "" {
			q.Header.Set(name, v)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, q)
	return rec.Code, decode(rec.Body.Bytes())
}

// endsCurrentSessionToo ends the session a request to end the others came
// with as well.
func endsCurrentSessionToo(h http.Handler, _ model.Dataset) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r)
		if r.Method == http.MethodDelete && r.URL.Path == "/api/sessions" && r.Header.Get("Authorization") != "" {
			logout := httptest.NewRequest(http.MethodPost, "/api/auth/logout", nil)
			logout.Header.Set("Authorization", r.Header.Get("Authorization"))
			h.ServeHTTP(httptest.NewRecorder(), logout)
		}
	})
}

// keepsOldPassword answers a change of password with the user, and keeps
// the password as it was.
func keepsOldPassword(h http.Handler, _ model.Dataset) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/api/auth/change-password" {
			h.ServeHTTP(w, r)
			return
		}
		_, me := asked(h, r, "/api/users/me")
		writeJSON(w, http.StatusOK, me)
	})
}

// answersChangeWithoutIt answers a change (PUT of a JSON object) with what
// the mock shows at read once the change's fields are laid over it, and
// changes nothing: a server whose writes do not stick.
func answersChangeWithoutIt(method, path, read string) func(http.Handler, model.Dataset) http.Handler {
	return func(h http.Handler, _ model.Dataset) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != method || r.URL.Path != path {
				h.ServeHTTP(w, r)
				return
			}
			var change map[string]any
			readBody(r, &change)
			status, now := asked(h, r, read)
			if m, ok := now.(map[string]any); ok {
				overlay(m, change)
			}
			writeJSON(w, status, now)
		})
	}
}

// overlay sets the fields of change on m, into nested objects.
func overlay(m, change map[string]any) {
	for k, v := range change {
		inner, isObject := v.(map[string]any)
		if have, ok := m[k].(map[string]any); ok && isObject {
			overlay(have, inner)
			continue
		}
		m[k] = v
	}
}

// keepsFirstPortrait answers a user's second portrait as taken, and keeps
// the first.
func keepsFirstPortrait(h http.Handler, _ model.Dataset) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/api/users/profile-image" {
			h.ServeHTTP(w, r)
			return
		}
		_, me := asked(h, r, "/api/users/me")
		if m, ok := me.(map[string]any); ok && m["profileImagePath"] != "" {
			writeJSON(w, http.StatusCreated, map[string]any{"userId": m["id"], "profileImagePath": m["profileImagePath"]})
			return
		}
		h.ServeHTTP(w, r)
	})
}

// servesAsAdmin answers the requests match selects that the mock forbids
// as if an admin had sent them: a server that checks no role.
func servesAsAdmin(match func(*http.Request) bool) func(http.Handler, model.Dataset) http.Handler {
	return func(h http.Handler, _ model.Dataset) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !match(r) {
				h.ServeHTTP(w, r)
				return
			}
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r.Clone(r.Context()))
			if rec.Code != http.StatusForbidden {
				copyAnswer(w, rec)
				return
			}
			as := httptest.NewRequest(r.Method, r.URL.String(), bytes.NewReader(body))
			as.Header.Set("Content-Type", r.Header.Get("Content-Type"))
			as.Header.Set("x-api-key", apiKey)
			h.ServeHTTP(w, as)
		})
	}
}

// listsDeletedUsers lists every user to users, the deleted ones too, as a
// query that forgot them.
func listsDeletedUsers(h http.Handler, _ model.Dataset) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/api/users" {
			h.ServeHTTP(w, r)
			return
		}
		q := httptest.NewRequest(http.MethodGet, "/api/admin/users?withDeleted=true", nil)
		q.Header.Set("x-api-key", apiKey)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, q)
		var out []map[string]any
		for _, u := range asList(decode(rec.Body.Bytes())) {
			if m, ok := u.(map[string]any); ok {
				out = append(out, map[string]any{"id": m["id"], "name": m["name"], "email": m["email"], "avatarColor": m["avatarColor"], "profileImagePath": m["profileImagePath"]})
			}
		}
		writeJSON(w, http.StatusOK, out)
	})
}

// forgetsQuota answers an admin's change of a user with the quota asked
// for, and stores the change without it.
func forgetsQuota(h http.Handler, _ model.Dataset) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var change map[string]any
		if r.Method != http.MethodPut || !strings.HasPrefix(r.URL.Path, "/api/admin/users/") || isPreferencesAdmin(r) {
			h.ServeHTTP(w, r)
			return
		}
		readBody(r, &change)
		quota, given := change["quotaSizeInBytes"]
		if !given || quota == nil {
			h.ServeHTTP(w, r)
			return
		}
		delete(change, "quotaSizeInBytes")
		b, _ := json.Marshal(change)
		q := httptest.NewRequest(r.Method, r.URL.String(), bytes.NewReader(b))
		q.Header = r.Header.Clone()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, q)
		body := decode(rec.Body.Bytes())
		if m, ok := body.(map[string]any); ok && rec.Code == http.StatusOK {
			m["quotaSizeInBytes"] = quota
		}
		writeJSON(w, rec.Code, body)
	})
}
