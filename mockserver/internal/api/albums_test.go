package api

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const testAlbumID = "00000000-0000-4000-8000-0000000a1b01" // Alice's, shared with Bob as viewer

// getJSON sends a GET with the given headers and decodes a 200's body into v.
func getJSON(t *testing.T, srv *httptest.Server, path string, v any, headers ...string) reply {
	t.Helper()
	rep := do(t, newRequest(t, http.MethodGet, srv.URL+path, nil, headers...))
	if rep.status == http.StatusOK && v != nil {
		rep.json(t, v)
	}
	return rep
}

// albumNames is the names of a listing of albums, in order.
func albumNames(t *testing.T, srv *httptest.Server, query, key string) []string {
	t.Helper()
	var albums []map[string]any
	rep := getJSON(t, srv, "/api/albums"+query, &albums, "x-api-key", key)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	names := []string{}
	for _, al := range albums {
		names = append(names, al["albumName"].(string))
		assert.Equal(t, []any{}, al["assets"], "the listing carries no assets")
	}
	return names
}

// createAlbum makes an album through the API and returns its answer.
func createAlbum(t *testing.T, srv *httptest.Server, key, body string) map[string]any {
	t.Helper()
	rep := postJSON(t, srv, "/api/albums", body, "x-api-key", key)
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var al map[string]any
	rep.json(t, &al)
	return al
}

func TestCreateAlbum(t *testing.T) {
	srv := newTestServer(t)
	bobAsset := "00000000-0000-4000-8000-000000b0a5e7"
	al := createAlbum(t, srv, keyAlice, `{"albumName":"Porto","assetIds":["`+aliceAssetID+`","`+strings.ToUpper(aliceAssetID)+`","`+bobAsset+`","00000000-0000-4000-8000-00000000beef"]}`)
	assert.Equal(t, "Porto", al["albumName"])
	assert.Equal(t, "", al["description"])
	assert.EqualValues(t, 1, al["assetCount"], "another's and unknown ids are dropped, repeats collapse")
	assert.Equal(t, aliceAssetID, al["albumThumbnailAssetId"])
	assert.Equal(t, false, al["shared"])
	assert.Equal(t, false, al["hasSharedLink"])
	assert.Equal(t, "desc", al["order"])
	assert.Equal(t, true, al["isActivityEnabled"])
	assert.Equal(t, []any{}, al["albumUsers"])
	assets := al["assets"].([]any)
	require.Len(t, assets, 1)
	asset := assets[0].(map[string]any)
	assert.NotContains(t, asset, "owner", "no owner inside albums")
	assert.NotContains(t, asset, "exifInfo", "no exifInfo in createAlbum's answer")
	assert.Equal(t, false, asset["isFavorite"])
	assert.Contains(t, al, "startDate")

	empty := createAlbum(t, srv, keyAlice, `{"albumName":"","albumUsers":[{"userId":"`+bobID+`","role":"editor"}]}`)
	assert.Nil(t, empty["albumThumbnailAssetId"])
	assert.Equal(t, true, empty["shared"], "shared as it has a user")
	assert.NotContains(t, empty, "startDate", "no dates without assets")
	assert.NotContains(t, empty, "endDate")

	for _, tt := range []struct {
		name, body, key string
		status          int
		message         any
	}{
		{"no name", `{}`, keyAlice, 400, []any{"albumName must be a string"}},
		{"a bad asset id", `{"albumName":"x","assetIds":["x"]}`, keyAlice, 400, []any{"each value in assetIds must be a UUID"}},
		{"a bad album user", `{"albumName":"x","albumUsers":[{"userId":"x","role":"owner"}]}`, keyAlice, 400, []any{"albumUsers.0.userId must be a UUID", "albumUsers.0.role must be one of the following values: editor, viewer"}},
		{"no role", `{"albumName":"x","albumUsers":[{"userId":"` + bobID + `"}]}`, keyAlice, 400, []any{"albumUsers.0.role must be one of the following values: editor, viewer"}},
		{"an unknown user", `{"albumName":"x","albumUsers":[{"userId":"00000000-0000-4000-8000-00000000beef","role":"viewer"}]}`, keyAlice, 400, "User not found"},
		{"the owner as a user", `{"albumName":"x","albumUsers":[{"userId":"` + aliceID + `","role":"viewer"}]}`, keyAlice, 400, "Cannot be shared with owner"},
		{"a user twice", `{"albumName":"x","albumUsers":[{"userId":"` + bobID + `","role":"viewer"},{"userId":"` + bobID + `","role":"editor"}]}`, keyAlice, 400, "User already added"},
		{"a name too long", `{"albumName":"` + strings.Repeat("a", 1025) + `"}`, keyAlice, 400, []any{"albumName must be shorter than or equal to 1024 characters"}},
		{"a link's key", `{"albumName":"x"}`, keyAlice + "&key=" + linkUpload, 401, "Invalid API key"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, postJSON(t, srv, "/api/albums", tt.body, "x-api-key", tt.key), tt.status, tt.message)
		})
	}
	requireError(t, postJSON(t, srv, "/api/albums?key="+linkUpload, `{"albumName":"x"}`), 403, "Forbidden resource")
}

func TestAllAlbums(t *testing.T) {
	srv := newTestServer(t)
	assert.Equal(t, []string{"Lisbon, October 2026"}, albumNames(t, srv, "", keyAlice))
	assert.Empty(t, albumNames(t, srv, "", keyBob), "albums shared with Bob are not his")
	assert.Equal(t, []string{"Lisbon, October 2026"}, albumNames(t, srv, "?shared=true", keyBob))
	createAlbum(t, srv, keyAlice, `{"albumName":"Alone"}`)
	createAlbum(t, srv, keyAlice, `{"albumName":"With Bob","albumUsers":[{"userId":"`+bobID+`","role":"viewer"}]}`)
	assert.Equal(t, []string{"With Bob", "Alone", "Lisbon, October 2026"}, albumNames(t, srv, "", keyAlice), "newest first")
	assert.Equal(t, []string{"With Bob", "Lisbon, October 2026"}, albumNames(t, srv, "?shared=true", keyAlice))
	assert.Equal(t, []string{"Alone"}, albumNames(t, srv, "?shared=false", keyAlice))
	assert.Equal(t, []string{"Lisbon, October 2026"}, albumNames(t, srv, "?assetId="+aliceAssetID, keyAlice))
	assert.Equal(t, []string{"Lisbon, October 2026"}, albumNames(t, srv, "?assetId="+aliceAssetID+"&shared=false", keyBob), "shared is ignored beside assetId")

	var albums []map[string]any
	getJSON(t, srv, "/api/albums?assetId="+aliceAssetID, &albums, "x-api-key", keyAlice)
	require.Len(t, albums, 1)
	assert.EqualValues(t, 1, albums[0]["assetCount"])
	assert.Equal(t, true, albums[0]["hasSharedLink"], "the true flag, where the reference says false")
	assert.Contains(t, albums[0], "lastModifiedAssetTimestamp")

	requireError(t, getJSON(t, srv, "/api/albums?shared=yes", nil, "x-api-key", keyAlice), 400, []any{"shared must be a boolean value"})
	requireError(t, getJSON(t, srv, "/api/albums?assetId=x", nil, "x-api-key", keyAlice), 400, []any{"assetId must be a UUID"})
	requireError(t, getJSON(t, srv, "/api/albums?key="+linkUpload, nil), 403, "Forbidden resource")
}

func TestAlbumInfo(t *testing.T) {
	srv := newTestServer(t)
	for name, h := range map[string][]string{
		"the owner":            {"x-api-key", keyAlice},
		"a viewer":             {"x-api-key", keyBob},
		"its album link's key": {"x-immich-share-key", linkUpload},
	} {
		t.Run(name, func(t *testing.T) {
			var al map[string]any
			rep := getJSON(t, srv, "/api/albums/"+testAlbumID, &al, h...)
			require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
			assets := al["assets"].([]any)
			require.Len(t, assets, 1)
			assert.Contains(t, assets[0], "exifInfo")
			assert.NotContains(t, assets[0], "owner")
		})
	}
	var al map[string]any
	getJSON(t, srv, "/api/albums/"+testAlbumID+"?withoutAssets=true", &al, "x-api-key", keyAlice)
	assert.Equal(t, []any{}, al["assets"])
	assert.EqualValues(t, 1, al["assetCount"])
	assert.Contains(t, al, "startDate")

	requireError(t, getJSON(t, srv, "/api/albums/"+testAlbumID, nil, "x-api-key", keyCarol), 400, "Not found or no album.read access")
	requireError(t, getJSON(t, srv, "/api/albums/00000000-0000-4000-8000-00000000beef", nil, "x-api-key", keyAlice), 400, "Not found or no album.read access")
	requireError(t, getJSON(t, srv, "/api/albums/"+testAlbumID+"?key="+linkView, nil), 400, "Not found or no album.read access")
	requireError(t, getJSON(t, srv, "/api/albums/nope", nil, "x-api-key", keyAlice), 400, []any{"id must be a UUID"})
	requireError(t, getJSON(t, srv, "/api/albums/"+testAlbumID+"?withoutAssets=1", nil, "x-api-key", keyAlice), 400, []any{"withoutAssets must be a boolean value"})

	// Through a link that hides metadata, assets are sanitized.
	rep := controlJSON(t, srv, http.MethodPost, "/__mock/shared-links", keyAlice, map[string]any{"type": "ALBUM", "assetIds": []string{aliceAssetID}, "showMetadata": false})
	require.Equal(t, http.StatusCreated, rep.status)
	var link struct {
		Key   string
		Album struct{ ID string }
	}
	rep.json(t, &link)
	getJSON(t, srv, "/api/albums/"+link.Album.ID, &al, "x-immich-share-key", link.Key)
	asset := al["assets"].([]any)[0].(map[string]any)
	assert.ElementsMatch(t, []string{"id", "type", "thumbhash", "localDateTime", "resized", "duration", "livePhotoVideoId", "hasMetadata"}, slices.Collect(maps.Keys(asset)))
	assert.Equal(t, false, asset["hasMetadata"])
}

func TestAddAssetsToAlbum(t *testing.T) {
	srv := newTestServer(t)
	put := func(albumID, body string, headers ...string) reply {
		return do(t, newRequest(t, http.MethodPut, srv.URL+"/api/albums/"+albumID+"/assets", strings.NewReader(body), append([]string{"Content-Type", "application/json"}, headers...)...))
	}
	newAsset := uploadAsset(t, srv, keyAlice, "album-add")
	bobAsset := "00000000-0000-4000-8000-000000b0a5e7"
	unknown := "00000000-0000-4000-8000-00000000beef"
	al := createAlbum(t, srv, keyAlice, `{"albumName":"Grows","albumUsers":[{"userId":"`+bobID+`","role":"editor"}]}`)
	id := al["id"].(string)

	rep := put(id, `{"ids":["`+newAsset+`","`+newAsset+`","`+bobAsset+`","`+unknown+`"]}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.JSONEq(t, `[{"id":"`+newAsset+`","success":true},{"id":"`+newAsset+`","success":false,"error":"duplicate"},
		{"id":"`+bobAsset+`","success":false,"error":"no_permission"},{"id":"`+unknown+`","success":false,"error":"no_permission"}]`, string(rep.body))

	var after map[string]any
	getJSON(t, srv, "/api/albums/"+id, &after, "x-api-key", keyAlice)
	assert.EqualValues(t, 1, after["assetCount"])
	assert.Equal(t, newAsset, after["albumThumbnailAssetId"], "the thumbnail is set when there was none")
	assert.Greater(t, after["updatedAt"], al["updatedAt"])

	// The editor adds his own, not Alice's.
	rep = put(id, `{"ids":["`+bobAsset+`","`+aliceAssetID+`"]}`, "x-api-key", keyBob)
	assert.JSONEq(t, `[{"id":"`+bobAsset+`","success":true},{"id":"`+aliceAssetID+`","success":false,"error":"no_permission"}]`, string(rep.body))
	getJSON(t, srv, "/api/albums/"+id, &after, "x-api-key", keyAlice)
	assert.EqualValues(t, 2, after["assetCount"])
	assert.Equal(t, newAsset, after["albumThumbnailAssetId"], "a thumbnail is kept")

	// The key of the album's link that allows uploads adds the owner's assets.
	rep = put(testAlbumID, `{"ids":["`+newAsset+`"]}`, "x-immich-share-key", linkUpload)
	assert.JSONEq(t, `[{"id":"`+newAsset+`","success":true}]`, string(rep.body))
	assert.JSONEq(t, `[]`, string(put(testAlbumID, `{"ids":[]}`, "x-api-key", keyAlice).body))

	for _, tt := range []struct {
		name, album, body string
		headers           []string
		message           any
	}{
		{"an unknown album", unknown, `{"ids":[]}`, []string{"x-api-key", keyAlice}, "Album not found"},
		{"a viewer", testAlbumID, `{"ids":[]}`, []string{"x-api-key", keyBob}, "Not found or no album.addAsset access"},
		{"another's album", testAlbumID, `{"ids":[]}`, []string{"x-api-key", keyCarol}, "Not found or no album.addAsset access"},
		{"a link of another album", id, `{"ids":[]}`, []string{"x-immich-share-key", linkUpload}, "Not found or no album.addAsset access"},
		{"an INDIVIDUAL link", testAlbumID, `{"ids":[]}`, []string{"x-immich-share-key", linkView}, "Not found or no album.addAsset access"},
		{"no ids", testAlbumID, `{}`, []string{"x-api-key", keyAlice}, []any{"each value in ids must be a UUID", "ids should not be empty", "ids must be an array"}},
		{"ids not an array", testAlbumID, `{"ids":"x"}`, []string{"x-api-key", keyAlice}, []any{"each value in ids must be a UUID", "ids must be an array"}},
		{"an id not a UUID", testAlbumID, `{"ids":["x"]}`, []string{"x-api-key", keyAlice}, []any{"each value in ids must be a UUID"}},
		{"an album id not a UUID", "x", `{"ids":[]}`, []string{"x-api-key", keyAlice}, []any{"id must be a UUID"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, put(tt.album, tt.body, tt.headers...), 400, tt.message)
		})
	}
}

// uploadAsset uploads a new photo with the given content and returns its id.
func uploadAsset(t *testing.T, srv *httptest.Server, key, content string) string {
	t.Helper()
	rep := do(t, uploadRequest(t, srv, validForm(content), key))
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var res struct{ ID string }
	require.NoError(t, json.Unmarshal(rep.body, &res))
	return res.ID
}
