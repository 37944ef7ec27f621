package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/internal/store/storetest"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// postJSON sends a raw JSON body with the given headers (name, value, ...).
func postJSON(t *testing.T, srv *httptest.Server, path, body string, headers ...string) reply {
	t.Helper()
	return do(t, newRequest(t, http.MethodPost, srv.URL+path, strings.NewReader(body), append([]string{"Content-Type", "application/json"}, headers...)...))
}

func TestLogin(t *testing.T) {
	srv := newTestServer(t)
	rep := postJSON(t, srv, "/api/auth/login", `{"email":"Alice@Example.com","password":"`+testPassword+`"}`, "x-api-key", "wrong", "Authorization", "Bearer wrong")
	require.Equal(t, http.StatusCreated, rep.status, "credentials sent along are ignored: %s", rep.body)
	var res map[string]any
	rep.json(t, &res)
	assert.Equal(t, aliceID, res["userId"])
	assert.Equal(t, "alice@example.com", res["userEmail"])
	assert.Equal(t, "Alice Moreau", res["name"])
	assert.Equal(t, true, res["isAdmin"])
	assert.Equal(t, false, res["shouldChangePassword"])
	assert.Equal(t, "", res["profileImagePath"])
	token, _ := res["accessToken"].(string)
	assert.Regexp(t, `^[A-Za-z0-9]{30,43}$`, token, "base64 of 32 bytes without + / =")

	cookies := map[string]*http.Cookie{}
	for _, c := range (&http.Response{Header: rep.header}).Cookies() {
		cookies[c.Name] = c
	}
	require.Len(t, cookies, 3)
	assert.Equal(t, token, cookies["immich_access_token"].Value)
	assert.Equal(t, "password", cookies["immich_auth_type"].Value)
	assert.Equal(t, "true", cookies["immich_is_authenticated"].Value)
	for name, c := range cookies {
		assert.Equal(t, name != "immich_is_authenticated", c.HttpOnly, name)
		assert.Equal(t, 34560000, c.MaxAge, name)
		assert.Equal(t, "/", c.Path, name)
		assert.Equal(t, http.SameSiteLaxMode, c.SameSite, name)
		assert.False(t, c.Expires.IsZero(), name)
	}

	// The token works wherever the reference takes a session's token.
	for name, h := range map[string][]string{
		"bearer":              {"Authorization", "Bearer " + token},
		"bearer in any case":  {"Authorization", "bEaReR " + token},
		"cookie":              {"Cookie", "immich_access_token=" + token},
		"user token header":   {"x-immich-user-token", token},
		"good token, bad key": {"Authorization", "Bearer " + token, "x-api-key", "wrong"},
	} {
		t.Run(name, func(t *testing.T) {
			rep := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/me", nil, h...))
			require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
		})
	}
	other := login(t, srv, "alice@example.com")
	assert.NotEqual(t, token, other, "a new token per login")
}

func TestLoginRefused(t *testing.T) {
	srv := newTestServer(t)
	for _, tt := range []struct {
		name, body string
		status     int
		message    any
	}{
		{"wrong password", `{"email":"alice@example.com","password":"nope"}`, 401, "Incorrect email or password"},
		{"unknown email", `{"email":"nobody@example.com","password":"` + testPassword + `"}`, 401, "Incorrect email or password"},
		{"a user without a password", `{"email":"carol@example.com","password":""}`, 400, []any{"password should not be empty"}},
		{"nothing", `{}`, 400, []any{"email should not be empty", "email must be an email", "password should not be empty", "password must be a string"}},
		{"no body", ``, 400, []any{"email should not be empty", "email must be an email", "password should not be empty", "password must be a string"}},
		{"a bad email", `{"email":"alice","password":"x"}`, 400, []any{"email must be an email"}},
		{"an empty password", `{"email":"alice@example.com","password":""}`, 400, []any{"password should not be empty"}},
		{"a number for the email", `{"email":5,"password":"x"}`, 400, []any{"email must be an email"}},
		{"a number for the password", `{"email":"alice@example.com","password":5}`, 400, []any{"password must be a string"}},
		{"malformed JSON", `{"email":`, 400, "Unexpected end of JSON input"},
		{"a stray character", `{"email":"a"}}`, 400, "Unexpected non-whitespace character after JSON at position 13"},
		{"a huge password", `{"email":"alice@example.com","password":"` + strings.Repeat("p", 2000) + `"}`, 400, []any{"password must be shorter than or equal to 1024 characters"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, postJSON(t, srv, "/api/auth/login", tt.body), tt.status, tt.message)
		})
	}
	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/me", nil, "Authorization", "Bearer "+keyAlice)), 401, "Invalid user token")
	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/me", nil, "Authorization", "Basic YWxpY2U6eA==")), 401, "Authentication required")
}

func TestMyUser(t *testing.T) {
	srv := newTestServer(t)
	rep := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/me", nil, "x-api-key", keyAlice))
	require.Equal(t, http.StatusOK, rep.status)
	var me map[string]any
	rep.json(t, &me)
	for _, k := range []string{"id", "email", "name", "profileImagePath", "avatarColor", "storageLabel", "shouldChangePassword", "isAdmin", "createdAt", "deletedAt", "updatedAt", "oauthId", "quotaSizeInBytes", "quotaUsageInBytes", "status"} {
		assert.Contains(t, me, k)
	}
	assert.Len(t, me, 15)
	assert.Equal(t, aliceID, me["id"])
	assert.Equal(t, "active", me["status"])
	assert.EqualValues(t, len(aliceAssetBody), me["quotaUsageInBytes"])
	assert.NotContains(t, string(rep.body), "argon2", "no password hash")

	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/me?key="+linkView, nil, "x-api-key", keyAlice)), 403, "Forbidden resource")
	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/me", nil, "x-immich-share-key", linkView)), 403, "Forbidden resource")
	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/me?apiKey=wrong", nil)), 401, "Invalid API key")
	assert.Equal(t, http.StatusOK, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/me?apiKey="+keyBob, nil)).status)
}

func TestCreateUserAdmin(t *testing.T) {
	srv := newTestServer(t)
	post := func(body string, key string) reply {
		return postJSON(t, srv, "/api/admin/users", body, "x-api-key", key)
	}
	rep := post(`{"email":"Dora@Example.com","password":"x","name":"Dora Silva","storageLabel":"d.o/ra"}`, keyAlice)
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var u model.UserAdmin
	rep.json(t, &u)
	assert.Equal(t, "dora@example.com", u.Email)
	assert.Equal(t, "Dora Silva", u.Name)
	assert.Equal(t, "dora", *u.StorageLabel)
	assert.True(t, u.ShouldChangePassword)
	assert.False(t, u.IsAdmin)
	assert.Nil(t, u.QuotaSizeInBytes)
	assert.Equal(t, store.AvatarColorOf("dora@example.com"), u.AvatarColor)

	// She can log in, and see herself.
	rep = postJSON(t, srv, "/api/auth/login", `{"email":"dora@example.com","password":"x"}`)
	require.Equal(t, http.StatusCreated, rep.status)

	for _, tt := range []struct {
		name, body, key string
		status          int
		message         any
	}{
		{"not an admin", `{}`, keyBob, 403, "Forbidden resource"},
		{"a link's key", `{}`, keyAlice + "&key=" + linkView, 401, "Invalid API key"},
		{"nothing", `{}`, keyAlice, 400, []any{"email must be an email", "password must be a string", "password should not be empty", "name must be a string", "name should not be empty"}},
		{"empty password and name", `{"email":"e@example.com","password":"","name":""}`, keyAlice, 400, []any{"password should not be empty", "name should not be empty"}},
		{"a negative quota", `{"email":"e@example.com","password":"x","name":"E","quotaSizeInBytes":-1}`, keyAlice, 400, []any{"quotaSizeInBytes must be a positive number"}},
		{"a number for the email", `{"email":1,"password":"x","name":"E"}`, keyAlice, 400, []any{"email must be an email"}},
		{"an existing email in another case", `{"email":"BOB@example.com","password":"x","name":"B"}`, keyAlice, 400, "User exists"},
		{"a name too long", `{"email":"e@example.com","password":"x","name":"` + strings.Repeat("n", 1025) + `"}`, keyAlice, 400, []any{"name must be shorter than or equal to 1024 characters"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, post(tt.body, tt.key), tt.status, tt.message)
		})
	}
}

func TestCreateAPIKey(t *testing.T) {
	srv := newTestServer(t)
	rep := postJSON(t, srv, "/api/api-keys", `{}`, "x-api-key", keyBob)
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var k model.NewAPIKey
	rep.json(t, &k)
	assert.Equal(t, "API Key", k.APIKey.Name)
	assert.NotEmpty(t, k.APIKey.ID)
	var me model.UserAdmin
	rep = do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/me", nil, "x-api-key", k.Secret))
	require.Equal(t, http.StatusOK, rep.status, "the secret works at once")
	rep.json(t, &me)
	assert.Equal(t, bobID, me.ID)

	rep = postJSON(t, srv, "/api/api-keys", `{"name":"CI"}`, "Authorization", "Bearer "+login(t, srv, "bob@example.com"))
	require.Equal(t, http.StatusCreated, rep.status)
	rep.json(t, &k)
	assert.Equal(t, "CI", k.APIKey.Name)

	requireError(t, postJSON(t, srv, "/api/api-keys", `{"name":""}`, "x-api-key", keyBob), 400, []any{"name should not be empty"})
	requireError(t, postJSON(t, srv, "/api/api-keys", `{"name":5}`, "x-api-key", keyBob), 400, []any{"name must be a string"})
	requireError(t, postJSON(t, srv, "/api/api-keys?key="+linkView, `{}`), 403, "Forbidden resource")
}

// TestIdentityInTheDataset checks that the dataset keeps password hashes,
// API keys and sessions, never a password, and that a mock loading it
// takes the same credentials.
func TestIdentityInTheDataset(t *testing.T) {
	srv := newTestServer(t)
	token := login(t, srv, "alice@example.com")
	rep := postJSON(t, srv, "/api/api-keys", `{"name":"phone"}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusCreated, rep.status)
	var k model.NewAPIKey
	rep.json(t, &k)

	rep = do(t, newRequest(t, http.MethodGet, srv.URL+"/__mock/dataset", nil))
	require.Equal(t, http.StatusOK, rep.status)
	assert.NotContains(t, string(rep.body), testPassword)
	assert.NotContains(t, string(rep.body), token, "sessions are kept as hashes")
	d, err := ReadDataset(rep.body)
	require.NoError(t, err)
	require.Len(t, d.Sessions, 1)
	require.Len(t, d.APIKeys, 1)
	assert.Equal(t, storetest.PasswordHash, d.Users[0].PasswordHash)

	again := newTestServer(t, func(c *Config) { c.Dataset = func() model.Dataset { return d } })
	assert.Equal(t, http.StatusOK, do(t, newRequest(t, http.MethodGet, again.URL+"/api/users/me", nil, "Authorization", "Bearer "+token)).status)
	assert.Equal(t, http.StatusOK, do(t, newRequest(t, http.MethodGet, again.URL+"/api/users/me", nil, "x-api-key", k.Secret)).status)
	login(t, again, "bob@example.com")

	// A broken hash or session is refused when loading, naming the record.
	var raw map[string]any
	require.NoError(t, json.Unmarshal(rep.body, &raw))
	raw["users"].([]any)[1].(map[string]any)["passwordHash"] = "hunter2"
	broken, err := json.Marshal(raw)
	require.NoError(t, err)
	_, err = ReadDataset(broken)
	assert.ErrorContains(t, err, "users[1]: passwordHash")
	_, err = ReadDataset(bytes.Replace(rep.body, []byte(d.Sessions[0].TokenHash), []byte("xyz"), 1))
	assert.ErrorContains(t, err, "sessions[0]: tokenHash")
}
