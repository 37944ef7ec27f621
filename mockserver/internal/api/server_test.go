package api

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/openapi"
)

func TestSharedLinksErrors(t *testing.T) {
	tests := []struct {
		name    string
		query   string
		headers []string
		status  int
		message string
	}{
		{"no credentials", "", nil, 401, "Authentication required"},
		{"unknown API key", "", []string{"x-api-key", "nope"}, 401, "Invalid API key"},
		{"unknown bearer token", "", []string{"Authorization", "Bearer nope"}, 401, "Invalid user token"},
		{"unknown share key", "key=nope", nil, 401, "Invalid share key"},
		{"share key wins over a good bearer token", "key=nope", []string{"Authorization", "Bearer " + keyAlice}, 401, "Invalid share key"},
		{"a share key beside an unknown bearer token", "key=" + linkView, []string{"Authorization", "Bearer nope"}, 403, "Forbidden resource"},
		{"expired share key", "key=" + linkExpired, nil, 401, "Invalid share key"},
		{"a share key", "key=" + linkView, nil, 403, "Forbidden resource"},
		{"a share key beside a good API key", "key=" + linkUpload, []string{"x-api-key", keyAlice}, 403, "Forbidden resource"},
	}
	srv := newTestServer(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRequest(t, http.MethodGet, srv.URL+"/api/shared-links?"+tt.query, nil, tt.headers...)
			requireError(t, do(t, r), tt.status, tt.message)
		})
	}
}

func TestSharedLinksListing(t *testing.T) {
	srv := newTestServer(t)
	links := listLinks(t, srv, keyAlice)
	keys := make([]string, 0, len(links))
	for _, l := range links {
		keys = append(keys, l.Key)
		assert.Equal(t, aliceID, l.UserID, "only the caller's own links")
	}
	// Newest first, the expired one included.
	assert.Equal(t, []string{linkView, linkUpload, linkExpired}, keys)

	album := links[1].Album
	require.NotNil(t, album)
	assert.Equal(t, 1, album.AssetCount)
	assert.Len(t, album.Assets, 1)
	assert.True(t, album.HasSharedLink)
	assert.True(t, album.Shared)
	require.NotNil(t, album.AlbumThumbnailAssetID)
	assert.Equal(t, aliceAssetID, *album.AlbumThumbnailAssetID)
	assert.Equal(t, "Bob Tanaka", album.AlbumUsers[0].User.Name)
	assert.Equal(t, "Alice Moreau", album.Owner.Name)
	assert.Nil(t, links[0].Album, "an INDIVIDUAL link has no album")
	assert.Equal(t, album.Assets[0], links[0].Assets[0], "nested copies of an asset agree")

	// A session's access token lists the same; an API key is no access token.
	rep := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/shared-links", nil, "Authorization", "Bearer "+login(t, srv, "alice@example.com")))
	assert.Equal(t, http.StatusOK, rep.status)
	assert.JSONEq(t, string(do(t, newRequest(t, http.MethodGet, srv.URL+"/api/shared-links", nil, "x-api-key", keyAlice)).body), string(rep.body))
	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/shared-links", nil, "Authorization", "Bearer "+keyAlice)), 401, "Invalid user token")

	bob := listLinks(t, srv, keyBob)
	require.Len(t, bob, 1)
	assert.Equal(t, bobID, bob[0].UserID)

	rep = do(t, newRequest(t, http.MethodGet, srv.URL+"/api/shared-links", nil, "x-api-key", keyCarol))
	assert.Equal(t, "[]", string(rep.body), "a user without links gets an empty array")
}

func TestControlAPI(t *testing.T) {
	srv := newTestServer(t)

	t.Run("a new user sees only their own links", func(t *testing.T) {
		rep := controlJSON(t, srv, http.MethodPost, "/__mock/users", "", map[string]any{"name": "Dana Okafor", "email": "dana@example.com"})
		require.Equal(t, http.StatusCreated, rep.status, "body: %s", rep.body)
		var created struct {
			User   model.User `json:"user"`
			APIKey string     `json:"apiKey"`
		}
		rep.json(t, &created)
		assert.Equal(t, "Dana Okafor", created.User.Name)
		assert.Contains(t, model.AvatarColors(), created.User.AvatarColor)
		require.NotEmpty(t, created.APIKey)
		assert.Empty(t, listLinks(t, srv, created.APIKey))

		res := requireUpload(t, srv, validForm("dana's photo"), created.APIKey, http.StatusCreated)
		rep = controlJSON(t, srv, http.MethodPost, "/__mock/shared-links", created.APIKey, map[string]any{"type": "INDIVIDUAL", "assetIds": []string{res.ID}})
		require.Equal(t, http.StatusCreated, rep.status, "body: %s", rep.body)
		links := listLinks(t, srv, created.APIKey)
		require.Len(t, links, 1)
		assert.Equal(t, res.ID, links[0].Assets[0].ID)
		assert.Equal(t, "PXL_20261101_093000000.jpg", links[0].Assets[0].OriginalFileName)
		assert.Len(t, listLinks(t, srv, keyAlice), 3, "other users' listings are untouched")

		rep = controlJSON(t, srv, http.MethodPost, "/__mock/users", "", map[string]any{"name": "Dana again", "email": "DANA@example.com"})
		requireError(t, rep, http.StatusBadRequest, "A user with email DANA@example.com already exists")
		rep = controlJSON(t, srv, http.MethodPost, "/__mock/users", "", map[string]any{"name": " ", "email": "nope"})
		requireError(t, rep, http.StatusBadRequest, []string{"name should not be empty", "email must be an email"})
	})

	t.Run("a link without allowUpload", func(t *testing.T) {
		rep := controlJSON(t, srv, http.MethodPost, "/__mock/shared-links", keyAlice, map[string]any{
			"type": "ALBUM", "albumName": "Porto, May 2026", "assetIds": []string{aliceAssetID}, "allowUpload": false,
			"description": "The trip", "password": "port", "expiresAt": "2099-01-01T00:00:00.000Z",
		})
		require.Equal(t, http.StatusCreated, rep.status, "body: %s", rep.body)
		var link model.SharedLink
		rep.json(t, &link)
		require.NotNil(t, link.Album)
		assert.Equal(t, "Porto, May 2026", link.Album.AlbumName)
		assert.Equal(t, 1, link.Album.AssetCount)
		assert.True(t, link.Album.HasSharedLink)
		assert.Regexp(t, `^[A-Za-z0-9_-]{67}$`, link.Key, "base64url of 50 bytes")
		assert.True(t, link.CreatedAt.After(link.Album.CreatedAt.Time))
		listed := listLinks(t, srv, keyAlice)
		assert.Equal(t, link, listed[0], "the answer is the link as the listing shows it, newest first")

		r := uploadRequest(t, srv, validForm("through the link"), "")
		r.URL.RawQuery = "key=" + link.Key
		requireError(t, do(t, r), http.StatusUnauthorized, "Unauthorized")
		r = newRequest(t, http.MethodGet, srv.URL+"/api/shared-links?key="+link.Key, nil)
		requireError(t, do(t, r), http.StatusForbidden, "Forbidden resource")
	})

	t.Run("link errors", func(t *testing.T) {
		for _, tt := range []struct {
			name string
			key  string
			body map[string]any
			want int
		}{
			{"no credentials", "", map[string]any{"type": "ALBUM"}, 401},
			{"unknown type", keyAlice, map[string]any{"type": "FOLDER"}, 400},
			{"individual without assets", keyAlice, map[string]any{"type": "INDIVIDUAL"}, 400},
			{"unknown asset", keyAlice, map[string]any{"type": "INDIVIDUAL", "assetIds": []string{"nope"}}, 400},
			{"another user's asset", keyBob, map[string]any{"type": "ALBUM", "assetIds": []string{aliceAssetID}}, 400},
			{"unknown field", keyAlice, map[string]any{"type": "ALBUM", "colour": "red"}, 400},
			{"bad expiry", keyAlice, map[string]any{"type": "ALBUM", "expiresAt": "soon"}, 400},
		} {
			t.Run(tt.name, func(t *testing.T) {
				before := listLinks(t, srv, keyAlice)
				requireError(t, controlJSON(t, srv, http.MethodPost, "/__mock/shared-links", tt.key, tt.body), tt.want, nil)
				assert.Equal(t, before, listLinks(t, srv, keyAlice), "a refused request changes nothing")
			})
		}
	})

	t.Run("reset", func(t *testing.T) {
		requireUpload(t, srv, validForm("before reset"), keyAlice, http.StatusCreated)
		rep := controlJSON(t, srv, http.MethodPost, "/__mock/reset", "", nil)
		require.Equal(t, http.StatusOK, rep.status, "body: %s", rep.body)
		assert.Len(t, listLinks(t, srv, keyAlice), 3)
		assertAssetCount(t, srv, keyAlice, 1)

		rep = controlJSON(t, srv, http.MethodPost, "/__mock/reset", "", map[string]any{"empty": true})
		require.Equal(t, http.StatusOK, rep.status, "body: %s", rep.body)
		assert.Empty(t, listLinks(t, srv, keyAlice))
		assertAssetCount(t, srv, keyAlice, 0)
		requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/shared-links", nil, "x-api-key", keyBob)), 401, "Invalid API key")
		controlJSON(t, srv, http.MethodPost, "/__mock/reset", "", nil)
	})

	t.Run("the dataset loads back", func(t *testing.T) {
		requireUpload(t, srv, validForm("kept in the dataset"), keyAlice, http.StatusCreated)
		rep := do(t, newRequest(t, http.MethodGet, srv.URL+"/__mock/dataset", nil))
		require.Equal(t, http.StatusOK, rep.status)
		d, err := ReadDataset(rep.body)
		require.NoError(t, err)
		again := newTestServer(t, func(c *Config) { c.Dataset = func() model.Dataset { return d } })
		assert.Equal(t, listLinks(t, srv, keyAlice), listLinks(t, again, keyAlice))
		assert.Equal(t, listAssets(t, srv, keyAlice), listAssets(t, again, keyAlice))
		rep2 := do(t, newRequest(t, http.MethodGet, again.URL+"/__mock/dataset", nil))
		assert.Equal(t, string(rep.body), string(rep2.body))
	})

	t.Run("off with NoControl", func(t *testing.T) {
		off := newTestServer(t, func(c *Config) { c.NoControl = true })
		requireError(t, do(t, newRequest(t, http.MethodGet, off.URL+"/__mock/dataset", nil)), 404, "Cannot GET /__mock/dataset")
	})
}

func TestReadDatasetErrors(t *testing.T) {
	for _, tt := range []struct{ name, data, want string }{
		{"empty", "", "the dataset is empty"},
		{"syntax", "{\n  \"seed\": 1,\n  \"users\": [}\n", "line 3, column 13"},
		{"type", `{"seed": "one"}`, "line 1, column 15"},
		{"unknown field", `{"sead": 1}`, `unknown field "sead"`},
		{"trailing", `{} {}`, "data after the dataset"},
		{"a user without a key", `{"users":[{"id":"u1","name":"Ana","email":"ana@example.com","avatarColor":"red"}]}`, `users[0]: apiKey of user "u1" is empty`},
		{"dangling owner", `{"users":[{"id":"u1","name":"Ana","email":"ana@example.com","avatarColor":"red","apiKey":"k1"}], "assets":[{"id":"a","ownerId":"ghost","type":"IMAGE","checksum":"x"}]}`, `assets[0]: owner "ghost" is not a user`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadDataset([]byte(tt.data))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestRoutingErrors(t *testing.T) {
	srv := newTestServer(t)
	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/nope", nil)), 404, "Cannot GET /api/nope")
	rep := do(t, newRequest(t, http.MethodDelete, srv.URL+"/api/shared-links", nil))
	requireError(t, rep, 404, "Cannot DELETE /api/shared-links")
	requireError(t, do(t, newRequest(t, http.MethodPatch, srv.URL+"/api/asset/upload", nil)), 404, "Cannot PATCH /api/asset/upload")

	// Paths the mux would clean and redirect with an HTML body are no
	// route: a JSON 404 naming the path as it came.
	for _, tt := range []struct{ method, path string }{
		{http.MethodGet, "//api/shared-links"},
		{http.MethodGet, "/api//shared-links"},
		{http.MethodGet, "/api/./shared-links"},
		{http.MethodGet, "/api/shared-links/../shared-links"},
		{http.MethodPost, "/api/shared-links/../asset/upload"},
		{http.MethodPost, "//__mock/reset"},
	} {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			r := newRequest(t, tt.method, srv.URL+tt.path, nil, "x-api-key", keyAlice)
			requireError(t, do(t, r), 404, "Cannot "+tt.method+" "+tt.path)
		})
	}
}

func TestMockHeaders(t *testing.T) {
	srv := newTestServer(t)
	// CORS has tests of its own, a rule each (cors_test.go).
	t.Run("x-mock-status, before authentication", func(t *testing.T) {
		for _, status := range []int{400, 404, 429, 500, 503} {
			r := newRequest(t, http.MethodGet, srv.URL+"/api/shared-links", nil, "x-mock-status", strconv.Itoa(status))
			requireError(t, do(t, r), status, nil)
		}
		// A status HTTP does not name would get an empty "error": refused.
		for _, v := range []string{"200", "499", "599", "x"} {
			r := newRequest(t, http.MethodGet, srv.URL+"/api/shared-links", nil, "x-mock-status", v)
			requireError(t, do(t, r), 400, "x-mock-status must be an error status from 400 to 599 that HTTP names, like 503")
		}
	})
	t.Run("x-mock-delay", func(t *testing.T) {
		r := newRequest(t, http.MethodGet, srv.URL+"/api/shared-links", nil, "x-mock-delay", "50ms", "x-api-key", keyAlice)
		start := time.Now()
		rep := do(t, r)
		assert.Equal(t, http.StatusOK, rep.status)
		assert.GreaterOrEqual(t, time.Since(start), 50*time.Millisecond, "the delay is a lower bound")
		r = newRequest(t, http.MethodGet, srv.URL+"/api/shared-links", nil, "x-mock-delay", "soon")
		requireError(t, do(t, r), 400, "x-mock-delay must be a duration from 0s to 1m0s, like 300ms")
	})
	t.Run("x-mock-delay, before authentication", func(t *testing.T) {
		for _, r := range []*http.Request{
			newRequest(t, http.MethodGet, srv.URL+"/api/shared-links", nil, "x-mock-delay", "50ms"),
			newRequest(t, http.MethodPost, srv.URL+"/api/asset/upload", nil, "x-mock-delay", "50ms"),
		} {
			start := time.Now()
			rep := do(t, r)
			assert.GreaterOrEqual(t, time.Since(start), 50*time.Millisecond, "%s %s: the delay is a lower bound", r.Method, r.URL.Path)
			requireError(t, rep, http.StatusUnauthorized, "Authentication required")
		}
	})
	t.Run("latency", func(t *testing.T) {
		slow := newTestServer(t, func(c *Config) { c.Latency = 40 * time.Millisecond })
		start := time.Now()
		do(t, newRequest(t, http.MethodGet, slow.URL+"/api/shared-links", nil, "x-api-key", keyAlice))
		assert.GreaterOrEqual(t, time.Since(start), 40*time.Millisecond, "the latency is a lower bound")
	})
}

// TestRunTimeCreatedAtIncreases: objects made at run time get strictly
// increasing times even when the clock stands still.
func TestRunTimeCreatedAtIncreases(t *testing.T) {
	frozen := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	srv := newTestServer(t, func(c *Config) { c.Now = func() time.Time { return frozen } })
	var last time.Time
	for range 3 {
		rep := controlJSON(t, srv, http.MethodPost, "/__mock/shared-links", keyAlice, map[string]any{"type": "INDIVIDUAL", "assetIds": []string{aliceAssetID}})
		require.Equal(t, http.StatusCreated, rep.status, "body: %s", rep.body)
		var link model.SharedLink
		rep.json(t, &link)
		assert.True(t, link.CreatedAt.After(last), "%s after %s", link.CreatedAt.Time, last)
		last = link.CreatedAt.Time
	}
}

// TestServesOpenAPIDocument: the document is served, without credentials,
// as JSON and as YAML, and the JSON is the document spec.Load validates with.
func TestServesOpenAPIDocument(t *testing.T) {
	srv := newTestServer(t)
	rep := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/openapi.json", nil))
	require.Equal(t, http.StatusOK, rep.status)
	assert.Contains(t, rep.header.Get("Content-Type"), "application/json")
	var doc struct {
		OpenAPI string                     `json:"openapi"`
		Paths   map[string]json.RawMessage `json:"paths"`
	}
	rep.json(t, &doc)
	assert.Contains(t, doc.OpenAPI, "3.0")
	assert.Contains(t, doc.Paths, "/asset/upload")
	assert.Contains(t, doc.Paths, "/shared-links")
	assert.Equal(t, openapi.JSON(), rep.body)

	rep = do(t, newRequest(t, http.MethodGet, srv.URL+"/api/openapi.yaml", nil))
	require.Equal(t, http.StatusOK, rep.status)
	assert.Contains(t, rep.header.Get("Content-Type"), "yaml")
	assert.Equal(t, openapi.YAML(), rep.body)
}

// TestLinkExpiresAtItsExpiry judges a link's expiry against the wall clock:
// a link is refused from the millisecond its expiresAt is reached.
func TestLinkExpiresAtItsExpiry(t *testing.T) {
	for _, tt := range []struct {
		name      string
		expiresAt time.Time
		status    int
	}{
		{"a millisecond before its expiry", testNow().Add(time.Millisecond), http.StatusOK},
		{"at its expiry", testNow(), http.StatusUnauthorized},
		{"a millisecond after its expiry", testNow().Add(-time.Millisecond), http.StatusUnauthorized},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newTestServer(t, func(c *Config) {
				c.Dataset = func() model.Dataset {
					d := testDataset()
					for i := range d.SharedLinks {
						if d.SharedLinks[i].Key == linkUpload {
							d.SharedLinks[i].ExpiresAt = model.At(tt.expiresAt).Ptr()
						}
					}
					return d
				}
			})
			r := uploadRequest(t, srv, validForm("a photo sent in time"), "")
			r.URL.RawQuery = "key=" + linkUpload
			rep := do(t, r)
			if tt.status == http.StatusOK {
				assert.Equal(t, http.StatusCreated, rep.status, string(rep.body))
				return
			}
			requireError(t, rep, tt.status, "Invalid share key")
		})
	}
}

// TestLinkPasswordNotChecked: neither operation asks for a link's password.
// Through a link with a password and allowUpload, an upload is taken; the
// listing refuses the link key as it refuses any link key.
func TestLinkPasswordNotChecked(t *testing.T) {
	srv := newTestServer(t)
	rep := controlJSON(t, srv, http.MethodPost, "/__mock/shared-links", keyAlice, map[string]any{
		"type": "INDIVIDUAL", "assetIds": []string{aliceAssetID}, "password": "open sesame", "allowUpload": true,
	})
	require.Equal(t, http.StatusCreated, rep.status, "body: %s", rep.body)
	var link model.SharedLink
	rep.json(t, &link)
	require.NotNil(t, link.Password)
	assert.Equal(t, "open sesame", *link.Password)
	assert.True(t, link.AllowUpload)

	r := uploadRequest(t, srv, validForm("sent without the password"), "")
	r.URL.RawQuery = "key=" + link.Key
	rep = do(t, r)
	assert.Equal(t, http.StatusCreated, rep.status, "body: %s", rep.body)

	r = newRequest(t, http.MethodGet, srv.URL+"/api/shared-links?key="+link.Key, nil)
	requireError(t, do(t, r), http.StatusForbidden, "Forbidden resource")
}

// TestSharedLinksPasswordAndToken reads the listing's raw JSON: password is
// the plaintext or null, always present, and no link has a token key.
func TestSharedLinksPasswordAndToken(t *testing.T) {
	srv := newTestServer(t)
	rep := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/shared-links", nil, "x-api-key", keyAlice))
	require.Equal(t, http.StatusOK, rep.status, "body: %s", rep.body)
	var links []map[string]any
	rep.json(t, &links)
	require.Len(t, links, 3)
	for _, l := range links {
		key := l["key"]
		require.Contains(t, l, "password", "link %v", key)
		if key == linkExpired {
			assert.Equal(t, "sardines", l["password"], "link %v", key)
		} else {
			assert.Nil(t, l["password"], "link %v", key)
		}
		assert.NotContains(t, l, "token", "link %v", key)
	}
}
