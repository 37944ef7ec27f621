package api

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/fake"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// TestControlRefusesLinkKeys checks that the control API acts for users
// only: "x-api-key names the acting user". A shared link's key, which may
// not even list links, may not create links or read its owner's assets
// either, whether or not an API key stands beside it.
func TestControlRefusesLinkKeys(t *testing.T) {
	srv := newTestServer(t)
	for _, tt := range []struct {
		name, method, path, body string
	}{
		{"create a link", http.MethodPost, "/__mock/shared-links", `{"type":"INDIVIDUAL","assetIds":["` + aliceAssetID + `"]}`},
		{"list the assets", http.MethodGet, "/__mock/assets", ""},
	} {
		for _, key := range []string{linkUpload, linkView} {
			t.Run(tt.name+" with "+key[:8], func(t *testing.T) {
				r := newRequest(t, tt.method, srv.URL+tt.path+"?key="+key, bytes.NewReader([]byte(tt.body)), "Content-Type", "application/json")
				requireError(t, do(t, r), http.StatusForbidden, "Forbidden resource")
				r = newRequest(t, tt.method, srv.URL+tt.path+"?key="+key, bytes.NewReader([]byte(tt.body)), "Content-Type", "application/json", "x-api-key", keyAlice)
				requireError(t, do(t, r), http.StatusForbidden, "Forbidden resource")
			})
		}
	}
	// The link holder created nothing.
	assert.Len(t, listLinks(t, srv, keyAlice), 3, "Alice's links")
}

// TestRunTimeObjectsTakeTheWallClock: assets, links and albums made at run
// time get the wall clock's time, and a later one never gets an equal or
// earlier time, even when the clock stands still or goes back.
func TestRunTimeObjectsTakeTheWallClock(t *testing.T) {
	var now atomic.Pointer[time.Time]
	set := func(t time.Time) { now.Store(&t) }
	t0 := testNow()
	set(t0)
	srv := newTestServer(t, func(c *Config) { c.Now = func() time.Time { return *now.Load() } })

	rep := do(t, uploadRequest(t, srv, validForm("a photo at t0"), keyAlice))
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	assets := listAssets(t, srv, keyAlice)
	assert.Equal(t, t0, assets[0].UpdatedAt.Time, "the upload takes the clock's time")

	link := func(typ string) model.SharedLink {
		rep := controlJSON(t, srv, http.MethodPost, "/__mock/shared-links", keyAlice, map[string]any{"type": typ, "assetIds": []string{aliceAssetID}})
		require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
		var l model.SharedLink
		rep.json(t, &l)
		return l
	}
	standing := link("INDIVIDUAL")
	assert.Equal(t, t0.Add(time.Millisecond), standing.CreatedAt.Time, "the clock stood still: a millisecond later")

	set(t0.Add(time.Hour))
	album := link("ALBUM")
	require.NotNil(t, album.Album)
	assert.Equal(t, t0.Add(time.Hour), album.Album.CreatedAt.Time, "the album takes the clock's time")
	assert.True(t, album.CreatedAt.After(album.Album.CreatedAt.Time), "its link comes after it")

	set(t0.Add(-time.Hour))
	back := link("INDIVIDUAL")
	assert.True(t, back.CreatedAt.After(album.CreatedAt.Time), "the clock went back, the times do not: %s after %s", back.CreatedAt.Time, album.CreatedAt.Time)
}

// TestControlUserQuota: a user made with quotaSizeInBytes may upload until
// their assets would pass it; the upload that would is refused and stored
// nowhere.
func TestControlUserQuota(t *testing.T) {
	srv := newTestServer(t)
	rep := controlJSON(t, srv, http.MethodPost, "/__mock/users", "", map[string]any{"name": "Dana Okafor", "email": "dana@example.com", "quotaSizeInBytes": 100})
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var made struct {
		APIKey string `json:"apiKey"`
	}
	rep.json(t, &made)

	requireUpload(t, srv, validForm(strings.Repeat("a", 60)), made.APIKey, http.StatusCreated)
	requireError(t, do(t, uploadRequest(t, srv, validForm(strings.Repeat("b", 60)), made.APIKey)), http.StatusBadRequest, "Quota has been exceeded!")
	requireUpload(t, srv, validForm(strings.Repeat("c", 40)), made.APIKey, http.StatusCreated)
	assertAssetCount(t, srv, made.APIKey, 2)
}

// TestControlAssetsNewestUploadFirst: GET /__mock/assets lists the caller's
// assets, the most recently uploaded first: the uploads, newest first, then
// the generated assets (stored in no such order) by createdAt. The uploads
// come first even when the generated dates lie after the wall clock, as
// they do with an anchor in the future.
func TestControlAssetsNewestUploadFirst(t *testing.T) {
	for name, anchor := range map[string]time.Time{
		"anchor today":      testNow().Truncate(24 * time.Hour),
		"anchor in 5 years": testNow().AddDate(5, 0, 0),
	} {
		t.Run(name, func(t *testing.T) {
			d := fake.Generate(fake.Options{Seed: 5, Anchor: anchor, Links: 6, APIKey: keyAlice})
			srv := newTestServer(t, func(c *Config) { c.Dataset = func() model.Dataset { return d } })
			older := requireUpload(t, srv, validForm("a new photo"), keyAlice, http.StatusCreated)
			newer := requireUpload(t, srv, validForm("a newer photo"), keyAlice, http.StatusCreated)

			rep := controlJSON(t, srv, http.MethodGet, "/__mock/assets", keyAlice, nil)
			require.Equal(t, http.StatusOK, rep.status)
			var assets []struct {
				ID string `json:"id"`
			}
			rep.json(t, &assets)
			require.Greater(t, len(assets), 10)
			assert.Equal(t, newer.ID, assets[0].ID, "the newest upload first")
			assert.Equal(t, older.ID, assets[1].ID, "then the one before it")

			createdAt := map[string]time.Time{}
			for _, a := range d.Assets {
				createdAt[a.ID] = a.CreatedAt.Time
			}
			for i := 3; i < len(assets); i++ {
				assert.False(t, createdAt[assets[i].ID].After(createdAt[assets[i-1].ID]), "asset %d (%s) was created after the one before it", i, assets[i].ID)
			}
		})
	}
}

// TestControlAPIIsSafeFromWebPages: a page on another origin, open in the
// same browser as the mock, can neither wipe the data with a request a
// browser sends without a preflight, nor read the dataset's keys, nor reach
// the control API through a name that resolves to the mock (DNS
// rebinding). The API itself stays open to every origin.
func TestControlAPIIsSafeFromWebPages(t *testing.T) {
	srv := newTestServer(t)
	evil := "https://evil.example"
	before := len(listLinks(t, srv, keyAlice))

	rep := do(t, newRequest(t, http.MethodPost, srv.URL+"/__mock/reset", strings.NewReader(`{"empty":true}`), "Content-Type", "text/plain", "Origin", evil))
	requireError(t, rep, http.StatusUnsupportedMediaType, "The control API takes JSON: send Content-Type: application/json")
	assert.Len(t, listLinks(t, srv, keyAlice), before, "nothing was wiped")
	assert.Empty(t, rep.header.Get("Access-Control-Allow-Origin"))

	rep = do(t, newRequest(t, http.MethodGet, srv.URL+"/__mock/dataset", nil, "Origin", evil))
	assert.Equal(t, http.StatusOK, rep.status, "curl and tests still read it")
	assert.Empty(t, rep.header.Get("Access-Control-Allow-Origin"), "but no page of another origin may")

	rep = do(t, newRequest(t, http.MethodOptions, srv.URL+"/__mock/reset", nil, "Origin", evil, "Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "content-type"))
	assert.Empty(t, rep.header.Get("Access-Control-Allow-Origin"), "the preflight grants nothing")
	assert.Empty(t, rep.header.Get("Access-Control-Allow-Methods"))

	r := newRequest(t, http.MethodGet, srv.URL+"/__mock/dataset", nil)
	r.Host = "rebound.evil.example:2283"
	requireError(t, do(t, r), http.StatusForbidden, `The control API answers only requests for localhost or an IP address, not "rebound.evil.example"`)
	for _, host := range []string{"localhost:2283", "127.0.0.1:2283", "[::1]:2283", "app.localhost"} {
		r := newRequest(t, http.MethodGet, srv.URL+"/__mock/assets", nil, "x-api-key", keyAlice)
		r.Host = host
		assert.Equal(t, http.StatusOK, do(t, r).status, host)
	}

	// The API is open to every origin, for every method it has.
	rep = do(t, newRequest(t, http.MethodOptions, srv.URL+"/api/shared-links/"+viewLinkID, nil, "Origin", evil, "Access-Control-Request-Method", "PATCH"))
	assert.Equal(t, evil, rep.header.Get("Access-Control-Allow-Origin"))
	for _, m := range []string{"PUT", "PATCH", "DELETE"} {
		assert.Contains(t, rep.header.Get("Access-Control-Allow-Methods"), m)
	}
	assert.Contains(t, rep.header.Get("Access-Control-Allow-Headers"), "x-immich-share-key")

	// One origin may be let in.
	dev := newTestServer(t, func(c *Config) { c.ControlOrigin = "http://localhost:5173" })
	rep = do(t, newRequest(t, http.MethodGet, dev.URL+"/__mock/dataset", nil, "Origin", "http://localhost:5173"))
	assert.Equal(t, "http://localhost:5173", rep.header.Get("Access-Control-Allow-Origin"))
	rep = do(t, newRequest(t, http.MethodGet, dev.URL+"/__mock/dataset", nil, "Origin", evil))
	assert.Empty(t, rep.header.Get("Access-Control-Allow-Origin"))
}

// TestControlListsUsers: GET /__mock/users lists every user, the default
// one first, with what a developer needs to act as them: id, email, name,
// isAdmin and API key; a user made at run time is there at once. Like
// /__mock/dataset it needs no credentials, and --no-control removes it.
func TestControlListsUsers(t *testing.T) {
	srv := newTestServer(t)
	type listed struct {
		ID      string `json:"id"`
		Email   string `json:"email"`
		Name    string `json:"name"`
		IsAdmin bool   `json:"isAdmin"`
		APIKey  string `json:"apiKey"`
	}
	var users []listed
	rep := getJSON(t, srv, "/__mock/users", &users)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.Equal(t, "application/json", rep.header.Get("Content-Type"))
	assert.Equal(t, []listed{
		{ID: aliceID, Email: "alice@example.com", Name: "Alice Moreau", IsAdmin: true, APIKey: keyAlice},
		{ID: bobID, Email: "bob@example.com", Name: "Bob Tanaka", APIKey: keyBob},
		{ID: carolID, Email: "carol@example.com", Name: "Carol Diaz", APIKey: keyCarol},
	}, users)
	var raw []map[string]any
	getJSON(t, srv, "/__mock/users", &raw)
	assert.NotContains(t, raw[0], "passwordHash", "never a password, not even hashed")

	rep = controlJSON(t, srv, http.MethodPost, "/__mock/users", "", map[string]any{"name": "Dana Okafor", "email": "dana@example.com"})
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var created struct {
		APIKey string `json:"apiKey"`
	}
	rep.json(t, &created)
	getJSON(t, srv, "/__mock/users", &users)
	require.Len(t, users, 4)
	assert.Equal(t, "Dana Okafor", users[3].Name)
	assert.Equal(t, created.APIKey, users[3].APIKey)
	rep = do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/me", nil, "x-api-key", users[3].APIKey))
	assert.Equal(t, http.StatusOK, rep.status, "the listed key works: %s", rep.body)

	off := newTestServer(t, func(c *Config) { c.NoControl = true })
	assert.Equal(t, http.StatusNotFound, getJSON(t, off, "/__mock/users", nil).status)
}

// TestMadeRecordsAreBounded: the users the control API makes for anyone
// count against --max-records, as every record callers make: past it, one
// more is answered 507, and the API's own writes too.
func TestMadeRecordsAreBounded(t *testing.T) {
	srv := newTestServer(t, func(c *Config) { c.MaxMadeRecords = 2 })
	for i := range 2 {
		rep := controlJSON(t, srv, http.MethodPost, "/__mock/users", "", map[string]string{"name": "n", "email": fmt.Sprintf("made%d@example.com", i)})
		require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	}
	rep := controlJSON(t, srv, http.MethodPost, "/__mock/users", "", map[string]string{"name": "n", "email": "made2@example.com"})
	requireError(t, rep, http.StatusInsufficientStorage, "The mock holds as many records as it may: 2 made since it started, beside its dataset (users, API keys, sessions, albums, shared links, people, partners, activities, tags, memories). Delete some, or reset it (POST /__mock/reset)")
	requireError(t, postJSON(t, srv, "/api/albums", `{"albumName":"one more"}`, "x-api-key", keyAlice), http.StatusInsufficientStorage,
		"The mock holds as many records as it may: 2 made since it started, beside its dataset (users, API keys, sessions, albums, shared links, people, partners, activities, tags, memories). Delete some, or reset it (POST /__mock/reset)")
}
