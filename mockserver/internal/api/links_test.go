package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	viewLinkID    = "00000000-0000-4000-8000-00000000002a" // Alice's INDIVIDUAL link, key linkView
	uploadLinkID  = "00000000-0000-4000-8000-00000000001a" // Alice's ALBUM link of testAlbumID, key linkUpload
	expiredLinkID = "00000000-0000-4000-8000-00000000003a" // Alice's expired link, password "sardines"
	bobLinkID     = "00000000-0000-4000-8000-00000000004b"
)

// sendJSON sends a body with the given method and headers.
func sendJSON(t *testing.T, srv *httptest.Server, method, path, body string, headers ...string) reply {
	t.Helper()
	return do(t, newRequest(t, method, srv.URL+path, strings.NewReader(body), append([]string{"Content-Type", "application/json"}, headers...)...))
}

// createLink makes a link through the API and returns its answer.
func createLink(t *testing.T, srv *httptest.Server, key, body string) map[string]any {
	t.Helper()
	rep := postJSON(t, srv, "/api/shared-links", body, "x-api-key", key)
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var l map[string]any
	rep.json(t, &l)
	return l
}

func assetIDsOf(l map[string]any) []string {
	var ids []string
	for _, a := range l["assets"].([]any) {
		ids = append(ids, a.(map[string]any)["id"].(string))
	}
	return ids
}

func TestCreateSharedLink(t *testing.T) {
	srv := newTestServer(t)
	second := uploadAsset(t, srv, keyAlice, "second")
	l := createLink(t, srv, keyAlice, `{"type":"INDIVIDUAL","assetIds":["`+second+`","`+aliceAssetID+`","`+second+`"],"description":""}`)
	assert.Equal(t, true, l["allowUpload"])
	assert.Equal(t, true, l["allowDownload"])
	assert.Equal(t, true, l["showMetadata"])
	assert.Nil(t, l["description"], `"" is stored as null`)
	assert.Nil(t, l["password"])
	assert.Nil(t, l["expiresAt"])
	assert.NotContains(t, l, "token")
	assert.NotContains(t, l, "album")
	assert.Len(t, l["key"], 67)
	assert.Equal(t, []string{aliceAssetID, second}, assetIDsOf(l), "by fileCreatedAt ascending, repeats collapsed")
	asset := l["assets"].([]any)[0].(map[string]any)
	assert.NotContains(t, asset, "owner")
	assert.Contains(t, asset, "exifInfo")

	// Both fields are kept: an ALBUM link's assetIds lead its assets.
	al := createLink(t, srv, keyAlice, `{"type":"ALBUM","albumId":"`+testAlbumID+`","assetIds":["`+second+`"],"password":"x","expiresAt":"2020-01-01T00:00:00Z"}`)
	assert.Equal(t, []string{second, aliceAssetID}, assetIDsOf(al))
	album := al["album"].(map[string]any)
	assert.Equal(t, []any{}, album["assets"])
	assert.EqualValues(t, 1, album["assetCount"])
	assert.Equal(t, "x", al["password"])
	requireError(t, getJSON(t, srv, "/api/users/me?key="+al["key"].(string), nil), 401, "Invalid share key")

	// An INDIVIDUAL link with an album shows it, and the album has a link.
	other := createAlbum(t, srv, keyAlice, `{"albumName":"Linked"}`)
	il := createLink(t, srv, keyAlice, `{"type":"INDIVIDUAL","assetIds":["`+second+`"],"albumId":"`+other["id"].(string)+`"}`)
	assert.Contains(t, il, "album")
	var again map[string]any
	getJSON(t, srv, "/api/albums/"+other["id"].(string), &again, "x-api-key", keyAlice)
	assert.Equal(t, true, again["hasSharedLink"])
	assert.Equal(t, true, again["shared"], "shared: it has a link")

	before := len(listLinks(t, srv, keyAlice))
	for _, tt := range []struct {
		name, body string
		message    any
	}{
		{"no type", `{}`, []any{"type must be one of the following values: ALBUM, INDIVIDUAL"}},
		{"a lower-case type", `{"type":"album"}`, []any{"type must be one of the following values: ALBUM, INDIVIDUAL"}},
		{"ALBUM without an album", `{"type":"ALBUM"}`, "Invalid albumId"},
		{"INDIVIDUAL without assets", `{"type":"INDIVIDUAL","assetIds":[]}`, "Invalid assetIds"},
		{"another's asset", `{"type":"INDIVIDUAL","assetIds":["` + second + `","00000000-0000-4000-8000-000000b0a5e7"]}`, "Not found or no asset.share access"},
		{"an album shared with me", `{"type":"ALBUM","albumId":"` + testAlbumID + `"}`, "Not found or no album.share access"},
		{"bad fields", `{"type":"INDIVIDUAL","albumId":"x","assetIds":["x"],"description":1,"password":2,"allowUpload":"yes","allowDownload":3,"showMetadata":null}`, []any{"each value in assetIds must be a UUID", "albumId must be a UUID", "description must be a string", "password must be a string", "allowUpload must be a boolean value", "allowDownload must be a boolean value", "showMetadata must be a boolean value"}},
		{"a date that is none", `{"type":"X","description":1,"expiresAt":"tomorrow"}`, "expiresAt must be a date string"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			key := keyAlice
			if tt.name == "an album shared with me" {
				key = keyBob
			}
			requireError(t, postJSON(t, srv, "/api/shared-links", tt.body, "x-api-key", key), 400, tt.message)
		})
	}
	assert.Len(t, listLinks(t, srv, keyAlice), before, "nothing was made")
	requireError(t, postJSON(t, srv, "/api/shared-links?key="+linkUpload, `{"type":"ALBUM"}`), 403, "Forbidden resource")
	rep := postJSON(t, srv, "/api/shared-links", `{"type":"INDIVIDUAL","assetIds":["`+second+`"],"allowUpload":"false"}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusCreated, rep.status, `"false" is a boolean`)
}

func TestSharedLinkLife(t *testing.T) {
	srv := newTestServer(t)
	l := createLink(t, srv, keyAlice, `{"type":"ALBUM","albumId":"`+testAlbumID+`","description":"first"}`)
	id, key := l["id"].(string), l["key"].(string)

	var got map[string]any
	require.Equal(t, http.StatusOK, getJSON(t, srv, "/api/shared-links/"+id, &got, "x-api-key", keyAlice).status)
	assert.Equal(t, "first", got["description"])
	requireError(t, getJSON(t, srv, "/api/shared-links/"+id, nil, "x-api-key", keyBob), 400, "Shared link not found")
	require.Equal(t, http.StatusOK, getJSON(t, srv, "/api/shared-links/"+expiredLinkID, nil, "x-api-key", keyAlice).status, "expired links too")

	patch := func(body string, key string) reply {
		return sendJSON(t, srv, http.MethodPatch, "/api/shared-links/"+id, body, "x-api-key", key)
	}
	rep := patch(`{"description":null,"password":"","expiresAt":"2099-01-01T00:00:00.000Z","allowUpload":false,"type":"INDIVIDUAL","key":"x","assetIds":[]}`, keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	rep.json(t, &got)
	assert.Nil(t, got["description"], "null clears")
	assert.Equal(t, "", got["password"], `"" is stored as ""`)
	assert.Equal(t, "2099-01-01T00:00:00.000Z", got["expiresAt"])
	assert.Equal(t, false, got["allowUpload"])
	assert.Equal(t, "ALBUM", got["type"], "type is ignored")
	assert.Equal(t, key, got["key"], "key is ignored")
	assert.Equal(t, true, got["showMetadata"], "absent fields keep their value")
	assert.Contains(t, got, "album")

	patch(`{"changeExpiryTime":false}`, keyAlice).json(t, &got)
	assert.Equal(t, "2099-01-01T00:00:00.000Z", got["expiresAt"], "false keeps the expiry")
	patch(`{"changeExpiryTime":true}`, keyAlice).json(t, &got)
	assert.Nil(t, got["expiresAt"], "true without a date clears it")
	patch(`{"changeExpiryTime":true,"expiresAt":"2098-01-01T00:00:00Z"}`, keyAlice).json(t, &got)
	assert.Equal(t, "2098-01-01T00:00:00.000Z", got["expiresAt"], "a given date wins")

	requireError(t, patch(`{"allowDownload":"x","showMetadata":1,"changeExpiryTime":"y"}`, keyAlice), 400, []any{"allowDownload must be a boolean value", "showMetadata must be a boolean value", "changeExpiryTime must be a boolean value"})
	requireError(t, patch(`{"allowUpload":"x","description":5}`, keyAlice), 400, []any{"description must be a string", "allowUpload must be a boolean value"})
	requireError(t, patch(`{"expiresAt":"soon","allowUpload":"x"}`, keyAlice), 400, "expiresAt must be a date string")
	requireError(t, patch(`{}`, keyBob), 400, "Shared link not found")
	requireError(t, patch(`{"allowDownload":"x"}`, keyBob), 400, []any{"allowDownload must be a boolean value"})

	// Its key works until it is deleted; then it is gone everywhere.
	require.Equal(t, http.StatusOK, getJSON(t, srv, "/api/shared-links/me?key="+key, nil).status)
	del := do(t, newRequest(t, http.MethodDelete, srv.URL+"/api/shared-links/"+id, nil, "x-api-key", keyAlice))
	require.Equal(t, http.StatusOK, del.status)
	assert.Empty(t, del.body)
	assert.Empty(t, del.header.Get("Content-Type"))
	requireError(t, getJSON(t, srv, "/api/shared-links/me?key="+key, nil), 401, "Invalid share key")
	requireError(t, getJSON(t, srv, "/api/shared-links/"+id, nil, "x-api-key", keyAlice), 400, "Shared link not found")
	requireError(t, do(t, newRequest(t, http.MethodDelete, srv.URL+"/api/shared-links/"+id, nil, "x-api-key", keyAlice)), 400, "Shared link not found")
	for _, listed := range listLinks(t, srv, keyAlice) {
		assert.NotEqual(t, id, listed.ID)
	}
	// The album keeps its other link, so its flag stays; deleting that one too clears it.
	var al map[string]any
	getJSON(t, srv, "/api/albums/"+testAlbumID, &al, "x-api-key", keyAlice)
	assert.Equal(t, true, al["hasSharedLink"])
	do(t, newRequest(t, http.MethodDelete, srv.URL+"/api/shared-links/"+uploadLinkID, nil, "x-api-key", keyAlice))
	getJSON(t, srv, "/api/albums/"+testAlbumID, &al, "x-api-key", keyAlice)
	assert.Equal(t, false, al["hasSharedLink"])
	assert.Equal(t, true, al["shared"], "it still has Bob")
}

func TestSharedLinkAssets(t *testing.T) {
	srv := newTestServer(t)
	second := uploadAsset(t, srv, keyAlice, "second")
	bobAsset := "00000000-0000-4000-8000-000000b0a5e7"
	put := func(id, body string, headers ...string) reply {
		return sendJSON(t, srv, http.MethodPut, "/api/shared-links/"+id+"/assets", body, headers...)
	}
	del := func(id, body string, headers ...string) reply {
		return sendJSON(t, srv, http.MethodDelete, "/api/shared-links/"+id+"/assets", body, headers...)
	}
	rep := put(viewLinkID, `{"assetIds":["`+second+`","`+second+`","`+aliceAssetID+`","`+bobAsset+`"]}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.JSONEq(t, `[{"assetId":"`+second+`","success":true},{"assetId":"`+second+`","success":false,"error":"duplicate"},
		{"assetId":"`+aliceAssetID+`","success":false,"error":"duplicate"},{"assetId":"`+bobAsset+`","success":false,"error":"no_permission"}]`, string(rep.body))
	var l map[string]any
	getJSON(t, srv, "/api/shared-links/"+viewLinkID, &l, "x-api-key", keyAlice)
	assert.ElementsMatch(t, []string{aliceAssetID, second}, assetIDsOf(l))
	for _, listed := range listLinks(t, srv, keyAlice) {
		if listed.ID == viewLinkID {
			assert.Len(t, listed.Assets, 2, "the listing shows it too")
		}
	}

	rep = del(viewLinkID, `{"assetIds":["`+second+`","`+second+`","`+bobAsset+`"]}`, "x-api-key", keyAlice)
	assert.JSONEq(t, `[{"assetId":"`+second+`","success":true},{"assetId":"`+second+`","success":false,"error":"not_found"},{"assetId":"`+bobAsset+`","success":false,"error":"not_found"}]`, string(rep.body))
	assert.JSONEq(t, `[]`, string(put(viewLinkID, `{"assetIds":[]}`, "x-api-key", keyAlice).body))

	// A key edits only its own link, and only when it lets its holder upload.
	editable := createLink(t, srv, keyAlice, `{"type":"INDIVIDUAL","assetIds":["`+aliceAssetID+`"]}`)
	rep = put(editable["id"].(string), `{"assetIds":["`+second+`"]}`, "x-immich-share-key", editable["key"].(string))
	assert.JSONEq(t, `[{"assetId":"`+second+`","success":true}]`, string(rep.body))
	requireError(t, put(viewLinkID, `{"assetIds":[]}`, "x-immich-share-key", editable["key"].(string)), 403, "Forbidden resource")
	readOnly := createLink(t, srv, keyAlice, `{"type":"INDIVIDUAL","assetIds":["`+aliceAssetID+`"],"allowUpload":false}`)
	requireError(t, put(readOnly["id"].(string), `{"assetIds":[]}`, "x-immich-share-key", readOnly["key"].(string)), 403, "Forbidden resource")

	requireError(t, put(uploadLinkID, `{"assetIds":[]}`, "x-api-key", keyAlice), 400, "Invalid shared link type")
	requireError(t, put(bobLinkID, `{"assetIds":[]}`, "x-api-key", keyAlice), 400, "Shared link not found")
	requireError(t, del(viewLinkID, `{}`, "x-api-key", keyAlice), 400, []any{"each value in assetIds must be a UUID", "assetIds should not be empty", "assetIds must be an array"})
}

func TestMySharedLink(t *testing.T) {
	srv := newTestServer(t)
	var l map[string]any
	rep := getJSON(t, srv, "/api/shared-links/me?key="+linkView, &l)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.Equal(t, viewLinkID, l["id"])
	assert.NotContains(t, l, "token", "no token for a link without password")

	rep = getJSON(t, srv, "/api/shared-links/me", nil, "x-api-key", keyAlice)
	assert.Equal(t, http.StatusForbidden, rep.status)
	assert.JSONEq(t, `{"message":"Forbidden","statusCode":403}`, string(rep.body), "the reference's 403 has no error name")

	p := createLink(t, srv, keyAlice, `{"type":"INDIVIDUAL","assetIds":["`+aliceAssetID+`"],"password":"sardines","showMetadata":false}`)
	key := p["key"].(string)
	requireError(t, getJSON(t, srv, "/api/shared-links/me?key="+key, nil), 401, "Invalid password")
	requireError(t, getJSON(t, srv, "/api/shared-links/me?key="+key+"&password=nope", nil), 401, "Invalid password")
	requireError(t, getJSON(t, srv, "/api/shared-links/me?key="+key+"&password=a&password=b", nil), 400, []any{"password must be a string"})

	rep = getJSON(t, srv, "/api/shared-links/me?key="+key+"&password=sardines", &l)
	require.Equal(t, http.StatusOK, rep.status)
	token, _ := l["token"].(string)
	assert.Len(t, token, 44)
	assert.Nil(t, l["password"], "the holder is not shown the password")
	asset := l["assets"].([]any)[0].(map[string]any)
	assert.Len(t, asset, 8, "sanitized: %v", asset)
	assert.Equal(t, false, asset["hasMetadata"])
	cookie := (&http.Response{Header: rep.header}).Cookies()
	require.Len(t, cookie, 1)
	assert.Equal(t, "immich_shared_link_token", cookie[0].Name)
	assert.Equal(t, url.QueryEscape(token), cookie[0].Value)
	assert.True(t, cookie[0].HttpOnly)
	assert.Equal(t, 86400, cookie[0].MaxAge)

	// The token opens it again, even beside a wrong password, and the
	// cookie does too; without it, the key alone opens nothing else.
	require.Equal(t, http.StatusOK, getJSON(t, srv, "/api/shared-links/me?key="+key+"&password=nope&token="+url.QueryEscape(token), nil).status)
	list := "other," + token
	require.Equal(t, http.StatusOK, getJSON(t, srv, "/api/shared-links/me?key="+key+"&token="+url.QueryEscape(list), &l).status)
	assert.Equal(t, list, l["token"], "the answer echoes the list of tokens")
	require.Equal(t, http.StatusOK, getJSON(t, srv, "/api/shared-links/me?key="+key, nil, "Cookie", "immich_shared_link_token="+url.QueryEscape(token)).status)
	requireError(t, getJSON(t, srv, "/api/albums/"+testAlbumID+"?key="+key, nil), 401, "Invalid password")
	requireError(t, getJSON(t, srv, "/api/albums/"+testAlbumID+"?key="+key+"&token="+url.QueryEscape(token), nil), 400, "Not found or no album.read access")

	// The owner still sees the password.
	getJSON(t, srv, "/api/shared-links/"+p["id"].(string), &l, "x-api-key", keyAlice)
	assert.Equal(t, "sardines", l["password"])
}

// TestHugeIDLists sends 100,000 ids to every operation that takes a list:
// each answers at once, one result per id where it answers per id (a
// quadratic walk would take minutes here).
func TestHugeIDLists(t *testing.T) {
	srv := newTestServer(t)
	const n = 100_000
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("00000000-0000-4000-8000-%012x", i+1)
	}
	ids[n/2] = aliceAssetID
	list, err := json.Marshal(ids)
	require.NoError(t, err)
	l := createLink(t, srv, keyAlice, `{"type":"INDIVIDUAL","assetIds":["`+aliceAssetID+`"]}`)
	for _, tt := range []struct {
		name, method, path, body string
		results                  int
	}{
		{"add to an album", http.MethodPut, "/api/albums/" + testAlbumID + "/assets", `{"ids":` + string(list) + `}`, n},
		{"add to a link", http.MethodPut, "/api/shared-links/" + l["id"].(string) + "/assets", `{"assetIds":` + string(list) + `}`, n},
		{"remove from a link", http.MethodDelete, "/api/shared-links/" + l["id"].(string) + "/assets", `{"assetIds":` + string(list) + `}`, n},
		{"make a link", http.MethodPost, "/api/shared-links", `{"type":"INDIVIDUAL","assetIds":` + string(list) + `}`, -1},
		{"make an album", http.MethodPost, "/api/albums", `{"albumName":"big","assetIds":` + string(list) + `}`, -1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rep := sendJSON(t, srv, tt.method, tt.path, tt.body, "x-api-key", keyAlice)
			require.Less(t, rep.status, 500, "%.300s", rep.body)
			if tt.results > 0 {
				require.Equal(t, http.StatusOK, rep.status, "%.300s", rep.body)
				var res []map[string]any
				rep.json(t, &res)
				assert.Len(t, res, tt.results)
			}
		})
	}
	items := make([]map[string]string, n)
	for i := range items {
		items[i] = map[string]string{"id": ids[i], "checksum": fmt.Sprintf("%040x", i)}
	}
	body, err := json.Marshal(map[string]any{"assets": items})
	require.NoError(t, err)
	// 100,000 items are over 8 MiB of JSON: a clear 413 that says the limit.
	requireError(t, postJSON(t, srv, "/api/asset/bulk-upload-check", string(body), "x-api-key", keyAlice), 413, "The request body is larger than the limit of 8388608 bytes")
	body, err = json.Marshal(map[string]any{"assets": items[:n/2]})
	require.NoError(t, err)
	rep := postJSON(t, srv, "/api/asset/bulk-upload-check", string(body), "x-api-key", keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%.300s", rep.body)
	var res struct{ Results []any }
	rep.json(t, &res)
	assert.Len(t, res.Results, n/2)
}

// TestListedAlbumFlags: a link's album shows the flags the album
// operations show: shared once it has a link, even without users, and the
// order of its assets.
func TestListedAlbumFlags(t *testing.T) {
	srv := newTestServer(t)
	rep := controlJSON(t, srv, http.MethodPost, "/api/albums", keyAlice, map[string]any{"albumName": "Only a link"})
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var album struct {
		ID     string
		Shared bool
		Order  string
	}
	rep.json(t, &album)
	assert.False(t, album.Shared, "no users, no link")
	assert.Equal(t, "desc", album.Order)
	rep = controlJSON(t, srv, http.MethodPost, "/api/shared-links", keyAlice, map[string]any{"type": "ALBUM", "albumId": album.ID})
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	for _, l := range listLinks(t, srv, keyAlice) {
		if l.Album != nil && l.Album.ID == album.ID {
			assert.True(t, l.Album.Shared, "shared: it has a link")
			assert.True(t, l.Album.HasSharedLink)
			require.NotNil(t, l.Album.Order)
			assert.Equal(t, "desc", *l.Album.Order)
			return
		}
	}
	t.Fatal("the album's link is not listed")
}
