package api

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// A new server, its first admin, and the users, sessions and keys they
// make: each answer is the reference's (the upstream's own API tests of
// these operations pass against the mock).

// emptyServer is a mock with no user at all, as a freshly installed server.
func emptyServer(t *testing.T) *httptest.Server {
	return newTestServer(t, func(c *Config) {
		c.Dataset = func() model.Dataset { return EmptyDataset(testDataset(), false) }
	})
}

// signUp makes the first admin and logs in as them: their access token.
func signUp(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	rep := postJSON(t, srv, "/api/auth/admin-sign-up", `{"name":"Ada Admin","email":"Ada@Example.com","password":"first-admin"}`)
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	rep = postJSON(t, srv, "/api/auth/login", `{"email":"ada@example.com","password":"first-admin"}`)
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var l model.Login
	rep.json(t, &l)
	return l.AccessToken
}

func asBearer(token string) []string { return []string{"Authorization", "Bearer " + token} }

// makeUser makes a user as the admin, and logs in as them.
func makeUser(t *testing.T, srv *httptest.Server, admin, name string) (id, token string) {
	t.Helper()
	email := strings.ToLower(name) + "@example.com"
	rep := postJSON(t, srv, "/api/admin/users", `{"email":"`+email+`","password":"pw-`+name+`","name":"`+name+`"}`, asBearer(admin)...)
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var u model.UserAdmin
	rep.json(t, &u)
	rep = postJSON(t, srv, "/api/auth/login", `{"email":"`+email+`","password":"pw-`+name+`"}`)
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var l model.Login
	rep.json(t, &l)
	return u.ID, l.AccessToken
}

func TestANewServerHasOneAdmin(t *testing.T) {
	srv := emptyServer(t)
	config := func() map[string]any {
		var c map[string]any
		do(t, newRequest(t, http.MethodGet, srv.URL+"/api/server-info/config", nil)).json(t, &c)
		return c
	}
	assert.Equal(t, false, config()["isInitialized"], "no admin yet")
	requireError(t, postJSON(t, srv, "/api/auth/admin-sign-up", `{}`), 400, []any{
		"name should not be empty", "name must be a string", "email should not be empty", "email must be an email",
		"password should not be empty", "password must be a string",
	})

	rep := postJSON(t, srv, "/api/auth/admin-sign-up", `{"name":"Ada Admin","email":"Ada@Example.com","password":"first-admin"}`)
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var admin model.UserAdmin
	rep.json(t, &admin)
	assert.Equal(t, "ada@example.com", admin.Email, "in lower case")
	assert.True(t, admin.IsAdmin)
	assert.Equal(t, "admin", *admin.StorageLabel)
	assert.True(t, admin.ShouldChangePassword)
	assert.Equal(t, "active", admin.Status)
	assert.Equal(t, true, config()["isInitialized"])

	requireError(t, postJSON(t, srv, "/api/auth/admin-sign-up", `{"name":"Eve","email":"eve@example.com","password":"second"}`), 400, "The server already has an admin")

	token := signUp2(t, srv)
	assert.Equal(t, false, config()["isOnboarded"])
	rep = postJSON(t, srv, "/api/system-metadata/admin-onboarding", `{"isOnboarded":true}`, asBearer(token)...)
	require.Equal(t, http.StatusNoContent, rep.status, "%s", rep.body)
	assert.Equal(t, true, config()["isOnboarded"])
}

// signUp2 logs in as the admin signUp made.
func signUp2(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	rep := postJSON(t, srv, "/api/auth/login", `{"email":"ada@example.com","password":"first-admin"}`)
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var l model.Login
	rep.json(t, &l)
	return l.AccessToken
}

func TestResetToAServerWithNoUser(t *testing.T) {
	srv := newTestServer(t)
	rep := controlJSON(t, srv, http.MethodPost, "/__mock/reset", "", map[string]any{"empty": true, "keepDefaultUser": false})
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/me", nil, "x-api-key", keyAlice)), 401, "Invalid API key")
	signUp(t, srv)

	rep = controlJSON(t, srv, http.MethodPost, "/__mock/reset", "", map[string]any{"empty": true})
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.Equal(t, http.StatusOK, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/me", nil, "x-api-key", keyAlice)).status, "the default user stays")
	requireError(t, controlJSON(t, srv, http.MethodPost, "/__mock/reset", "", map[string]any{"keepDefaultUser": false}), 400, nil)
}

func TestDeletedUsersAreGoneUntilRestored(t *testing.T) {
	srv := emptyServer(t)
	admin := signUp(t, srv)
	id, token := makeUser(t, srv, admin, "Dora")
	key := postJSON(t, srv, "/api/api-keys", `{}`, asBearer(token)...)
	require.Equal(t, http.StatusCreated, key.status)
	var made model.NewAPIKey
	key.json(t, &made)

	rep := sendJSON(t, srv, http.MethodDelete, "/api/admin/users/"+id, `{}`, asBearer(admin)...)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	var deleted model.UserAdmin
	rep.json(t, &deleted)
	assert.Equal(t, "deleted", deleted.Status)
	assert.NotNil(t, deleted.DeletedAt)

	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/me", nil, asBearer(token)...)), 401, "Invalid user token")
	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/me", nil, "x-api-key", made.Secret)), 401, "Invalid API key")
	requireError(t, postJSON(t, srv, "/api/auth/login", `{"email":"dora@example.com","password":"pw-Dora"}`), 401, "Incorrect email or password")
	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/"+id, nil, asBearer(admin)...)), 400, "User not found")
	var list []model.UserAdmin
	do(t, newRequest(t, http.MethodGet, srv.URL+"/api/admin/users", nil, asBearer(admin)...)).json(t, &list)
	assert.Len(t, list, 1, "the admin alone")
	do(t, newRequest(t, http.MethodGet, srv.URL+"/api/admin/users?withDeleted=true", nil, asBearer(admin)...)).json(t, &list)
	assert.Len(t, list, 2, "and the deleted user, when asked")

	rep = postJSON(t, srv, "/api/admin/users/"+id+"/restore", ``, asBearer(admin)...)
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	assert.Equal(t, http.StatusOK, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/me", nil, "x-api-key", made.Secret)).status, "restored, the key works again")

	requireError(t, sendJSON(t, srv, http.MethodDelete, "/api/admin/users/"+id, `{"force":"x"}`, asBearer(admin)...), 400, []any{"force must be a boolean value"})
	admins := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/me", nil, asBearer(admin)...))
	var me model.UserAdmin
	admins.json(t, &me)
	requireError(t, sendJSON(t, srv, http.MethodDelete, "/api/admin/users/"+me.ID, `{}`, asBearer(admin)...), 403, "Cannot delete admin user")
	requireError(t, sendJSON(t, srv, http.MethodDelete, "/api/admin/users/"+id, `{}`, asBearer(token)...), 403, "Forbidden resource")
}

// TestADeletedUsersLinksStopOpening: a user's links open until an admin
// deletes them, and again once restored; a user deleted for good takes
// their links, albums and assets with them.
func TestADeletedUsersLinksStopOpening(t *testing.T) {
	srv := newTestServer(t)
	open := func() int {
		return do(t, newRequest(t, http.MethodGet, srv.URL+"/api/shared-links/me", nil, "x-immich-share-key", "link-bob")).status
	}
	require.Equal(t, http.StatusOK, open())
	require.Equal(t, http.StatusOK, sendJSON(t, srv, http.MethodDelete, "/api/admin/users/"+bobID, `{}`, "x-api-key", keyAlice).status)
	assert.Equal(t, http.StatusUnauthorized, open(), "deleted: the link opens no more")
	require.Equal(t, http.StatusCreated, postJSON(t, srv, "/api/admin/users/"+bobID+"/restore", ``, "x-api-key", keyAlice).status)
	assert.Equal(t, http.StatusOK, open(), "restored: it opens again")

	rep := sendJSON(t, srv, http.MethodDelete, "/api/admin/users/"+bobID, `{"force":true}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	var gone model.UserAdmin
	rep.json(t, &gone)
	assert.Equal(t, "removing", gone.Status)
	assert.Equal(t, http.StatusUnauthorized, open())
	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/admin/users/"+bobID, nil, "x-api-key", keyAlice)), 400, "User not found")
	rep = do(t, newRequest(t, http.MethodGet, srv.URL+"/api/albums/"+testAlbumID, nil, "x-api-key", keyAlice))
	var al model.Album
	rep.json(t, &al)
	assert.Empty(t, al.AlbumUsers, "no longer a user of Alice's album")
}

func TestUsersUpdateThemselvesAndTheirPreferences(t *testing.T) {
	srv := emptyServer(t)
	admin := signUp(t, srv)
	_, token := makeUser(t, srv, admin, "Dora")
	me := func() model.UserAdmin {
		var u model.UserAdmin
		do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/me", nil, asBearer(token)...)).json(t, &u)
		return u
	}
	before := me()
	rep := sendJSON(t, srv, http.MethodPut, "/api/users/me", `{"name":"Dora D.","email":"DORA.D@example.com"}`, asBearer(token)...)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	after := me()
	assert.Equal(t, "Dora D.", after.Name)
	assert.Equal(t, "dora.d@example.com", after.Email)
	assert.Equal(t, store.AvatarColorOf("dora.d@example.com"), after.AvatarColor, "the colour follows the email")
	assert.NotEqual(t, before.UpdatedAt, after.UpdatedAt)
	requireError(t, sendJSON(t, srv, http.MethodPut, "/api/users/me", `{"email":"ada@example.com"}`, asBearer(token)...), 400, "Email already in use by another account")
	requireError(t, sendJSON(t, srv, http.MethodPut, "/api/users/me", `{"email":null,"password":null,"name":null}`, asBearer(token)...), 400, []any{
		"email must be an email", "password must be a string", "password should not be empty", "name should not be empty", "name must be a string",
	})

	rep = sendJSON(t, srv, http.MethodPut, "/api/users/me/preferences", `{"avatar":{"color":"orange"},"memories":{"enabled":false}}`, asBearer(token)...)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.JSONEq(t, `{"memories":{"enabled":false},"avatar":{"color":"orange"}}`, string(rep.body))
	assert.Equal(t, "orange", me().AvatarColor, "the chosen colour is the user's")
	sendJSON(t, srv, http.MethodPut, "/api/users/me", `{"email":"dora.e@example.com"}`, asBearer(token)...)
	assert.Equal(t, "orange", me().AvatarColor, "a chosen colour stays when the email changes")
	requireError(t, sendJSON(t, srv, http.MethodPut, "/api/users/me/preferences", `{"avatar":"x","memories":1}`, asBearer(token)...), 400, []any{
		"nested property avatar must be either object or array", "nested property memories must be either object or array",
	})
	requireError(t, sendJSON(t, srv, http.MethodPut, "/api/users/me/preferences", `{"avatar":{"color":"x"}}`, asBearer(token)...), 400, []any{
		"avatar.color must be one of the following values: primary, pink, red, yellow, blue, green, purple, orange, gray, amber",
	})
}

func TestPasswordsChangeAndSessionsEnd(t *testing.T) {
	srv := emptyServer(t)
	admin := signUp(t, srv)
	_, first := makeUser(t, srv, admin, "Dora")
	r := newRequest(t, http.MethodPost, srv.URL+"/api/auth/login", strings.NewReader(`{"email":"dora@example.com","password":"pw-Dora"}`),
		"Content-Type", "application/json", "User-Agent", "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15")
	rep := do(t, r)
	require.Equal(t, http.StatusCreated, rep.status)
	var second model.Login
	rep.json(t, &second)

	var sessions []model.Session
	do(t, newRequest(t, http.MethodGet, srv.URL+"/api/sessions", nil, asBearer(first)...)).json(t, &sessions)
	require.Len(t, sessions, 2)
	assert.True(t, sessions[1].Current, "the session the request came with, the older")
	assert.False(t, sessions[0].Current, "the newest first")
	assert.Equal(t, "Safari", sessions[0].DeviceType)
	assert.Equal(t, "Mac OS", sessions[0].DeviceOS)

	requireError(t, postJSON(t, srv, "/api/auth/change-password", `{"password":"wrong","newPassword":"long enough"}`, asBearer(first)...), 400, "Wrong password")
	requireError(t, postJSON(t, srv, "/api/auth/change-password", `{"password":"pw-Dora","newPassword":"short"}`, asBearer(first)...), 400,
		[]any{"newPassword must be longer than or equal to 8 characters"})
	rep = postJSON(t, srv, "/api/auth/change-password", `{"password":"pw-Dora","newPassword":"long enough"}`, asBearer(first)...)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.Equal(t, http.StatusCreated, postJSON(t, srv, "/api/auth/login", `{"email":"dora@example.com","password":"long enough"}`).status)

	rep = do(t, newRequest(t, http.MethodDelete, srv.URL+"/api/sessions", nil, asBearer(first)...))
	require.Equal(t, http.StatusNoContent, rep.status)
	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/me", nil, asBearer(second.AccessToken)...)), 401, "Invalid user token")
	assert.Equal(t, http.StatusOK, postJSON(t, srv, "/api/auth/validateToken", ``, asBearer(first)...).status, "the current one stays")

	rep = postJSON(t, srv, "/api/auth/logout", ``, asBearer(first)...)
	require.Equal(t, http.StatusOK, rep.status)
	assert.JSONEq(t, `{"successful":true,"redirectUri":"/auth/login?autoLaunch=0"}`, string(rep.body))
	assert.Contains(t, rep.header.Values("Set-Cookie"), "immich_access_token=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT")
	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/me", nil, asBearer(first)...)), 401, "Invalid user token")
	requireError(t, do(t, newRequest(t, http.MethodDelete, srv.URL+"/api/sessions/00000000-0000-4000-8000-000000000000", nil, asBearer(admin)...)), 400,
		"Not found or no authDevice.delete access")
}

func TestLoginCookiesAreWrittenAsTheReferenceWritesThem(t *testing.T) {
	srv := newTestServer(t)
	rep := postJSON(t, srv, "/api/auth/login", `{"email":"alice@example.com","password":"`+testPassword+`"}`)
	require.Equal(t, http.StatusCreated, rep.status)
	cookies := rep.header.Values("Set-Cookie")
	require.Len(t, cookies, 3)
	assert.Regexp(t, `^immich_access_token=\w+; Max-Age=34560000; Path=/; Expires=[^;]+ GMT; HttpOnly; SameSite=Lax$`, cookies[0])
	assert.Regexp(t, `^immich_auth_type=password; Max-Age=34560000; Path=/; Expires=[^;]+ GMT; HttpOnly; SameSite=Lax$`, cookies[1])
	assert.Regexp(t, `^immich_is_authenticated=true; Max-Age=34560000; Path=/; Expires=[^;]+ GMT; SameSite=Lax$`, cookies[2])
}

func TestAPIKeysAreListedRenamedAndDeleted(t *testing.T) {
	srv := newTestServer(t)
	rep := postJSON(t, srv, "/api/api-keys", `{"name":"laptop"}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusCreated, rep.status)
	var made model.NewAPIKey
	rep.json(t, &made)
	rep = postJSON(t, srv, "/api/api-keys", `{"name":"phone"}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusCreated, rep.status)
	var keys []model.APIKey
	do(t, newRequest(t, http.MethodGet, srv.URL+"/api/api-keys", nil, "x-api-key", keyAlice)).json(t, &keys)
	require.Len(t, keys, 2)
	assert.Equal(t, []string{"phone", "laptop"}, []string{keys[0].Name, keys[1].Name}, "the newest first")
	assert.NotContains(t, string(do(t, newRequest(t, http.MethodGet, srv.URL+"/api/api-keys", nil, "x-api-key", keyAlice)).body), made.Secret, "never the secret")

	rep = sendJSON(t, srv, http.MethodPut, "/api/api-keys/"+made.APIKey.ID, `{"name":"desktop"}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.Contains(t, string(rep.body), `"name":"desktop"`)
	requireError(t, sendJSON(t, srv, http.MethodPut, "/api/api-keys/"+made.APIKey.ID, `{}`, "x-api-key", keyAlice), 400, []any{"name should not be empty", "name must be a string"})
	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/api-keys/"+made.APIKey.ID, nil, "x-api-key", keyBob)), 400, "API Key not found")

	rep = do(t, newRequest(t, http.MethodDelete, srv.URL+"/api/api-keys/"+made.APIKey.ID, nil, "x-api-key", keyAlice))
	require.Equal(t, http.StatusOK, rep.status)
	assert.Empty(t, rep.body)
	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/me", nil, "x-api-key", made.Secret)), 401, "Invalid API key")
}

// profileForm is a multipart body with one file under field.
func profileForm(t *testing.T, field, name string, content []byte) (*bytes.Buffer, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	fw, err := w.CreateFormFile(field, name)
	require.NoError(t, err)
	_, err = fw.Write(content)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return &buf, w.FormDataContentType()
}

func TestProfileImagesAreKept(t *testing.T) {
	for name, media := range map[string]string{"with a media folder": t.TempDir(), "in memory": ""} {
		t.Run(name, func(t *testing.T) {
			srv := newTestServer(t, func(c *Config) { c.MediaDir = media })
			image := testJPEG(t, 40, 30)
			body, ct := profileForm(t, "file", "me.JPG", image)
			rep := do(t, newRequest(t, http.MethodPost, srv.URL+"/api/users/profile-image", body, "Content-Type", ct, "x-api-key", keyBob))
			require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
			var made struct{ UserID, ProfileImagePath string }
			rep.json(t, &made)
			assert.Equal(t, bobID, made.UserID)
			assert.Regexp(t, `^upload/profile/`+bobID+`/[0-9a-f-]{36}\.jpg$`, made.ProfileImagePath)

			got := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/"+bobID+"/profile-image", nil, "x-api-key", keyAlice))
			require.Equal(t, http.StatusOK, got.status)
			assert.Equal(t, "image/jpeg", got.header.Get("Content-Type"))
			assert.Equal(t, image, got.body, "the bytes uploaded")

			body, ct = profileForm(t, "file", "me.gif", image)
			requireError(t, do(t, newRequest(t, http.MethodPost, srv.URL+"/api/users/profile-image", body, "Content-Type", ct, "x-api-key", keyBob)), 400, "Unsupported file type me.gif")
			body, ct = profileForm(t, "avatar", "me.jpg", image)
			requireError(t, do(t, newRequest(t, http.MethodPost, srv.URL+"/api/users/profile-image", body, "Content-Type", ct, "x-api-key", keyBob)), 400, "Unexpected field")
			requireError(t, do(t, newRequest(t, http.MethodPost, srv.URL+"/api/users/profile-image", strings.NewReader("x"), "Content-Type", "text/plain", "x-api-key", keyBob)), 400, nil)

			require.Equal(t, http.StatusNoContent, do(t, newRequest(t, http.MethodDelete, srv.URL+"/api/users/profile-image", nil, "x-api-key", keyBob)).status)
			requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/"+bobID+"/profile-image", nil, "x-api-key", keyAlice)), 404, "User does not have a profile image")
			requireError(t, do(t, newRequest(t, http.MethodDelete, srv.URL+"/api/users/profile-image", nil, "x-api-key", keyBob)), 400, "Can't delete a missing profile Image")
		})
	}
}

func TestServerInfoAnswersTheWebApp(t *testing.T) {
	srv := newTestServer(t)
	for _, path := range []string{"/api/server-info/config", "/api/server-info/features", "/api/server-info/theme"} {
		assert.Equal(t, http.StatusOK, do(t, newRequest(t, http.MethodGet, srv.URL+path, nil)).status, "%s needs no credentials", path)
	}
	css := do(t, newRequest(t, http.MethodGet, srv.URL+"/custom.css", nil))
	assert.Equal(t, http.StatusOK, css.status)
	assert.Equal(t, "text/css; charset=utf-8", css.header.Get("Content-Type"))
	assert.Empty(t, css.body)

	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/server-info/storage", nil)), 401, "Authentication required")
	var storage map[string]any
	do(t, newRequest(t, http.MethodGet, srv.URL+"/api/server-info/storage", nil, "x-api-key", keyBob)).json(t, &storage)
	assert.Regexp(t, `^\d+(\.\d)? (B|KiB|MiB|GiB|TiB)$`, storage["diskSize"])

	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/server-info/statistics", nil, "x-api-key", keyBob)), 403, "Forbidden resource")
	var stats struct {
		Photos      int              `json:"photos"`
		UsageByUser []map[string]any `json:"usageByUser"`
	}
	do(t, newRequest(t, http.MethodGet, srv.URL+"/api/server-info/statistics", nil, "x-api-key", keyAlice)).json(t, &stats)
	assert.Equal(t, 2, stats.Photos, "Alice's and Bob's")
	assert.Len(t, stats.UsageByUser, 3)
}

// TestJSONAnswersCarryAnETag: every JSON answer is tagged as the
// reference tags it, and a GET that names the tag gets 304 and no body.
func TestJSONAnswersCarryAnETag(t *testing.T) {
	srv := newTestServer(t)
	rep := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/server-info/ping", nil))
	assert.Equal(t, `"e-X79OU2IZYkDmLU4ZK9k3d4mHVbI"`, rep.header.Get("ETag"), "the reference's tag of the same body")
	for _, path := range []string{"/api/server-info/ping", "/api/shared-links", "/api/albums/" + testAlbumID} {
		first := do(t, newRequest(t, http.MethodGet, srv.URL+path, nil, "x-api-key", keyAlice))
		etag := first.header.Get("ETag")
		require.NotEmpty(t, etag, path)
		again := do(t, newRequest(t, http.MethodGet, srv.URL+path, nil, "x-api-key", keyAlice, "If-None-Match", etag))
		assert.Equal(t, http.StatusNotModified, again.status, path)
		assert.Empty(t, again.body)
		other := do(t, newRequest(t, http.MethodGet, srv.URL+path, nil, "x-api-key", keyAlice, "If-None-Match", `"0-x"`))
		assert.Equal(t, http.StatusOK, other.status, "%s: another tag", path)
	}
	// An error is tagged too, and never 304.
	rep = do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/me", nil))
	etag := rep.header.Get("ETag")
	require.NotEmpty(t, etag)
	assert.Equal(t, http.StatusUnauthorized, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/me", nil, "If-None-Match", etag)).status)
}
