package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// The library as its owner changes it (library.go): albums, their users
// and assets, assets, stacks, the trash, partners and people. What each
// answer must be is the upstream's (server/src/services at 66fced40e, and
// its e2e specs album, asset, trash, partner and person); a case the mock
// answers otherwise is skipped with "mock differs" and the upstream's
// evidence.

const (
	libBobAsset  = "00000000-0000-4000-8000-000000b0a5e7" // Bob's one asset of testDataset
	libUnknownID = "00000000-0000-4000-8000-00000000beef" // names nothing
)

// libKey is the header that acts as the user of key.
func libKey(key string) []string { return []string{"x-api-key", key} }

// libSend sends method path with a JSON body ("" for none) as the user of
// key ("" for nobody).
func libSend(t *testing.T, srv *httptest.Server, method, path, body, key string) reply {
	t.Helper()
	var headers []string
	if key != "" {
		headers = libKey(key)
	}
	return sendJSON(t, srv, method, path, body, headers...)
}

// libRead is a GET of path as the user of key that must answer 200,
// decoded.
func libRead(t *testing.T, srv *httptest.Server, path, key string) map[string]any {
	t.Helper()
	var out map[string]any
	rep := getJSON(t, srv, path, &out, libKey(key)...)
	require.Equal(t, http.StatusOK, rep.status, "GET %s: %s", path, rep.body)
	return out
}

// libList is a GET of path as the user of key that must answer 200 with a
// list, decoded.
func libList(t *testing.T, srv *httptest.Server, path, key string) []map[string]any {
	t.Helper()
	var out []map[string]any
	rep := getJSON(t, srv, path, &out, libKey(key)...)
	require.Equal(t, http.StatusOK, rep.status, "GET %s: %s", path, rep.body)
	return out
}

// libEmptyOK checks the reference's answer to an operation that
// returns nothing: 200 with no body.
func libEmptyOK(t *testing.T, rep reply) {
	t.Helper()
	require.Equal(t, http.StatusOK, rep.status, "body: %s", rep.body)
	require.Empty(t, rep.body)
}

// libNoContent checks a 204 with no body.
func libNoContent(t *testing.T, rep reply) {
	t.Helper()
	require.Equal(t, http.StatusNoContent, rep.status, "body: %s", rep.body)
	require.Empty(t, rep.body)
}

// libIDsIn is the ids of a list of objects (assets, albums), in order.
func libIDsIn(list any) []string {
	ids := []string{}
	items, _ := list.([]any)
	for _, it := range items {
		ids = append(ids, it.(map[string]any)["id"].(string))
	}
	return ids
}

// libIDs is the ids of decoded objects, in order.
func libIDs(list []map[string]any) []string {
	ids := []string{}
	for _, it := range list {
		ids = append(ids, it["id"].(string))
	}
	return ids
}

// libNames is the albumName of each album, in order.
func libNames(albums []map[string]any) []string {
	names := []string{}
	for _, al := range albums {
		names = append(names, al["albumName"].(string))
	}
	return names
}

// libRoles is an album answer's users as "id:role", in order.
func libRoles(al map[string]any) []string {
	out := []string{}
	for _, au := range al["albumUsers"].([]any) {
		m := au.(map[string]any)
		out = append(out, m["user"].(map[string]any)["id"].(string)+":"+m["role"].(string))
	}
	return out
}

// libUpload uploads a photo of the given content as the user of key,
// with form fields changed (name, value, ...); its id.
func libUpload(t *testing.T, srv *httptest.Server, key, content string, fields ...string) string {
	t.Helper()
	f := validForm(content)
	for i := 0; i+1 < len(fields); i += 2 {
		f = f.with(fields[i], fields[i+1])
	}
	rep := do(t, uploadRequest(t, srv, f, key))
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var res struct{ ID string }
	rep.json(t, &res)
	return res.ID
}

// Albums.

func TestLibraryUpdateAlbum(t *testing.T) {
	srv := newTestServer(t)
	before := libRead(t, srv, "/api/albums/"+testAlbumID, keyAlice)
	rep := libSend(t, srv, http.MethodPatch, "/api/albums/"+testAlbumID,
		`{"albumName":"Lisboa","description":"Tiles and trams","isActivityEnabled":false,"order":"asc","albumThumbnailAssetId":"`+aliceAssetID+`"}`, keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	var al map[string]any
	rep.json(t, &al)
	assert.Equal(t, testAlbumID, al["id"])
	assert.Equal(t, aliceID, al["ownerId"])
	assert.Equal(t, "Lisboa", al["albumName"])
	assert.Equal(t, "Tiles and trams", al["description"])
	assert.Equal(t, false, al["isActivityEnabled"])
	assert.Equal(t, "asc", al["order"])
	assert.Equal(t, aliceAssetID, al["albumThumbnailAssetId"])
	assert.Equal(t, []any{}, al["assets"], "mapAlbumWithoutAssets: no assets in the answer")
	assert.EqualValues(t, 1, al["assetCount"], "but their count")
	assert.Equal(t, []string{bobID + ":viewer"}, libRoles(al))
	assert.Equal(t, true, al["shared"])
	assert.Equal(t, true, al["hasSharedLink"])
	assert.Equal(t, before["createdAt"], al["createdAt"])
	assert.Greater(t, al["updatedAt"], before["updatedAt"])
	assert.Equal(t, before["startDate"], al["startDate"])

	after := libRead(t, srv, "/api/albums/"+testAlbumID, keyAlice)
	for _, k := range []string{"albumName", "description", "isActivityEnabled", "order", "updatedAt"} {
		assert.Equal(t, al[k], after[k], k)
	}
	assert.Equal(t, []string{aliceAssetID}, libIDsIn(after["assets"]))

	// A member left out is kept.
	rep = libSend(t, srv, http.MethodPatch, "/api/albums/"+testAlbumID, `{"description":""}`, keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	rep.json(t, &al)
	assert.Equal(t, "Lisboa", al["albumName"])
	assert.Equal(t, "", al["description"])
	assert.Equal(t, "asc", al["order"])

	// The thumbnail must be one of the album's assets.
	outside := uploadAsset(t, srv, keyAlice, "not in the album")
	for _, id := range []string{outside, libBobAsset, libUnknownID} {
		requireError(t, libSend(t, srv, http.MethodPatch, "/api/albums/"+testAlbumID, `{"albumThumbnailAssetId":"`+id+`"}`, keyAlice), 400, "Invalid album thumbnail")
	}

	editors := createAlbum(t, srv, keyAlice, `{"albumName":"Edited by Bob","albumUsers":[{"userId":"`+bobID+`","role":"editor"}]}`)["id"].(string)
	for _, tt := range []struct {
		name, album, body, key string
		status                 int
		message                any
	}{
		{"a viewer", testAlbumID, `{"albumName":"x"}`, keyBob, 400, "Not found or no album.update access"},
		{"an editor", editors, `{"albumName":"x"}`, keyBob, 400, "Not found or no album.update access"},
		{"a stranger", testAlbumID, `{"albumName":"x"}`, keyCarol, 400, "Not found or no album.update access"},
		{"an unknown album", libUnknownID, `{"albumName":"x"}`, keyAlice, 400, "Not found or no album.update access"},
		{"an album id not a UUID", "nope", `{"albumName":"x"}`, keyAlice, 400, []any{"id must be a UUID"}},
		{"every member wrong", testAlbumID, `{"albumName":5,"description":5,"albumThumbnailAssetId":"x","isActivityEnabled":"x","order":"up"}`, keyAlice, 400,
			[]any{"albumName must be a string", "description must be a string", "albumThumbnailAssetId must be a UUID", "isActivityEnabled must be a boolean value", "order must be one of the following values: asc, desc"}},
		{"no credentials", testAlbumID, `{"albumName":"x"}`, "", 401, "Authentication required"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, libSend(t, srv, http.MethodPatch, "/api/albums/"+tt.album, tt.body, tt.key), tt.status, tt.message)
		})
	}
	requireError(t, sendJSON(t, srv, http.MethodPatch, "/api/albums/"+testAlbumID, `{"albumName":"x"}`, "x-immich-share-key", linkUpload), 403, "Forbidden resource")
	assert.Equal(t, "Lisboa", libRead(t, srv, "/api/albums/"+testAlbumID, keyAlice)["albumName"], "no refused change was made")
	assert.Equal(t, "Edited by Bob", libRead(t, srv, "/api/albums/"+editors, keyAlice)["albumName"])
}

func TestLibraryDeleteAlbum(t *testing.T) {
	srv := newTestServer(t)
	for _, tt := range []struct {
		name, album, key string
		status           int
		message          any
	}{
		{"a viewer", testAlbumID, keyBob, 400, "Not found or no album.delete access"},
		{"a stranger", testAlbumID, keyCarol, 400, "Not found or no album.delete access"},
		{"an unknown album", libUnknownID, keyAlice, 400, "Not found or no album.delete access"},
		{"an album id not a UUID", "nope", keyAlice, 400, []any{"id must be a UUID"}},
		{"no credentials", testAlbumID, "", 401, "Authentication required"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, libSend(t, srv, http.MethodDelete, "/api/albums/"+tt.album, "", tt.key), tt.status, tt.message)
		})
	}
	requireError(t, do(t, newRequest(t, http.MethodDelete, srv.URL+"/api/albums/"+testAlbumID, nil, "x-immich-share-key", linkUpload)), 403, "Forbidden resource")
	require.Len(t, listLinks(t, srv, keyAlice), 3, "nothing was deleted yet")

	libEmptyOK(t, libSend(t, srv, http.MethodDelete, "/api/albums/"+testAlbumID, "", keyAlice))

	requireError(t, getJSON(t, srv, "/api/albums/"+testAlbumID, nil, libKey(keyAlice)...), 400, "Not found or no album.read access")
	requireError(t, getJSON(t, srv, "/api/albums/"+testAlbumID, nil, libKey(keyBob)...), 400, "Not found or no album.read access")
	assert.Empty(t, libList(t, srv, "/api/albums", keyAlice))
	assert.Empty(t, libList(t, srv, "/api/albums?shared=true", keyBob), "gone for its users too")
	assert.Equal(t, map[string]any{"owned": 0.0, "shared": 0.0, "notShared": 0.0}, libRead(t, srv, "/api/albums/count", keyAlice))

	// Its links go with it (the reference's foreign key cascades); the
	// other links and the asset stay.
	var left []string
	for _, l := range listLinks(t, srv, keyAlice) {
		assert.Nil(t, l.Album, "link %s", l.ID)
		left = append(left, l.ID)
	}
	assert.ElementsMatch(t, []string{viewLinkID, expiredLinkID}, left)
	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/shared-links/me?key="+linkUpload, nil)), 401, "Invalid share key")
	requireError(t, getJSON(t, srv, "/api/shared-links/"+uploadLinkID, nil, libKey(keyAlice)...), 400, "Shared link not found")
	assert.Equal(t, aliceAssetID, libRead(t, srv, "/api/asset/"+aliceAssetID, keyAlice)["id"])

	requireError(t, libSend(t, srv, http.MethodDelete, "/api/albums/"+testAlbumID, "", keyAlice), 400, "Not found or no album.delete access")
}

func TestLibraryRemoveAlbumAssets(t *testing.T) {
	srv := newTestServer(t)
	a1 := libUpload(t, srv, keyAlice, "remove-1", "fileCreatedAt", "2026-05-01T10:00:00.000Z")
	a2 := libUpload(t, srv, keyAlice, "remove-2", "fileCreatedAt", "2026-06-01T10:00:00.000Z")
	album := createAlbum(t, srv, keyAlice, `{"albumName":"Mixed","assetIds":["`+a1+`","`+a2+`"],"albumUsers":[{"userId":"`+bobID+`","role":"editor"},{"userId":"`+carolID+`","role":"viewer"}]}`)
	id := album["id"].(string)
	path := "/api/albums/" + id + "/assets"
	addBobs := func() {
		rep := libSend(t, srv, http.MethodPut, path, `{"ids":["`+libBobAsset+`"]}`, keyBob)
		require.JSONEq(t, `[{"id":"`+libBobAsset+`","success":true}]`, string(rep.body))
	}
	addBobs()

	// Refused: the album is read first, then the caller's right to take
	// assets out of it (the owner's or an editor's).
	for _, tt := range []struct {
		name, album, body, key string
		status                 int
		message                any
	}{
		{"a viewer", id, `{"ids":["` + a1 + `"]}`, keyCarol, 400, "Not found or no album.removeAsset access"},
		{"a viewer of another album", testAlbumID, `{"ids":["` + aliceAssetID + `"]}`, keyBob, 400, "Not found or no album.removeAsset access"},
		{"a stranger", testAlbumID, `{"ids":["` + aliceAssetID + `"]}`, keyCarol, 400, "Not found or no album.removeAsset access"},
		{"an unknown album", libUnknownID, `{"ids":["` + a1 + `"]}`, keyAlice, 400, "Album not found"},
		{"no ids", id, `{}`, keyAlice, 400, []any{"each value in ids must be a UUID", "ids should not be empty", "ids must be an array"}},
		{"an id not a UUID", id, `{"ids":["x"]}`, keyAlice, 400, []any{"each value in ids must be a UUID"}},
		{"an album id not a UUID", "nope", `{"ids":["` + a1 + `"]}`, keyAlice, 400, []any{"id must be a UUID"}},
		{"no credentials", id, `{"ids":["` + a1 + `"]}`, "", 401, "Authentication required"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, libSend(t, srv, http.MethodDelete, "/api/albums/"+tt.album+"/assets", tt.body, tt.key), tt.status, tt.message)
		})
	}
	requireError(t, sendJSON(t, srv, http.MethodDelete, "/api/albums/"+testAlbumID+"/assets", `{"ids":["`+aliceAssetID+`"]}`, "x-immich-share-key", linkUpload), 403, "Forbidden resource")
	assert.EqualValues(t, 3, libRead(t, srv, "/api/albums/"+id, keyAlice)["assetCount"], "nothing was taken out")

	// Each id answers for itself, in request order: only an asset's owner
	// (or a partner of theirs) takes it out, the album's owner included.
	unchanged := libRead(t, srv, "/api/albums/"+id, keyAlice)["updatedAt"]
	for _, tt := range []struct {
		name, key, ids, want string
		count                float64
	}{
		{"the owner, an editor's asset", keyAlice, libBobAsset, `[{"id":"` + libBobAsset + `","success":false,"error":"no_permission"}]`, 3},
		{"an editor, the owner's asset", keyBob, a1, `[{"id":"` + a1 + `","success":false,"error":"no_permission"}]`, 3},
		{"assets not in the album", keyAlice, aliceAssetID + `","` + libUnknownID, `[{"id":"` + aliceAssetID + `","success":false,"error":"not_found"},{"id":"` + libUnknownID + `","success":false,"error":"not_found"}]`, 3},
		{"an empty list", keyAlice, "", `[]`, 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			body := `{"ids":["` + tt.ids + `"]}`
			if tt.ids == "" {
				body = `{"ids":[]}`
			}
			rep := libSend(t, srv, http.MethodDelete, path, body, tt.key)
			require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
			assert.JSONEq(t, tt.want, string(rep.body))
			after := libRead(t, srv, "/api/albums/"+id, keyAlice)
			assert.EqualValues(t, tt.count, after["assetCount"])
			assert.Equal(t, unchanged, after["updatedAt"], "nothing taken out, nothing changed")
		})
	}

	// The editor takes his own out; a repeat is not_found.
	rep := libSend(t, srv, http.MethodDelete, path, `{"ids":["`+libBobAsset+`","`+libUnknownID+`","`+libBobAsset+`"]}`, keyBob)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.JSONEq(t, `[{"id":"`+libBobAsset+`","success":true},{"id":"`+libUnknownID+`","success":false,"error":"not_found"},{"id":"`+libBobAsset+`","success":false,"error":"not_found"}]`, string(rep.body))
	after := libRead(t, srv, "/api/albums/"+id, keyAlice)
	assert.ElementsMatch(t, []string{a1, a2}, libIDsIn(after["assets"]))
	assert.Greater(t, after["updatedAt"], unchanged)
	assert.Equal(t, a1, after["albumThumbnailAssetId"], "the thumbnail stays where it is not taken out")

	// The owner takes out the thumbnail: the one left becomes it; the last
	// one out leaves none.
	rep = libSend(t, srv, http.MethodDelete, path, `{"ids":["`+a1+`","`+a1+`"]}`, keyAlice)
	assert.JSONEq(t, `[{"id":"`+a1+`","success":true},{"id":"`+a1+`","success":false,"error":"not_found"}]`, string(rep.body))
	after = libRead(t, srv, "/api/albums/"+id, keyAlice)
	assert.Equal(t, a2, after["albumThumbnailAssetId"])
	assert.Equal(t, []string{a2}, libIDsIn(after["assets"]))
	rep = libSend(t, srv, http.MethodDelete, path, `{"ids":["`+a2+`"]}`, keyAlice)
	assert.JSONEq(t, `[{"id":"`+a2+`","success":true}]`, string(rep.body))
	after = libRead(t, srv, "/api/albums/"+id, keyAlice)
	assert.Nil(t, after["albumThumbnailAssetId"])
	assert.EqualValues(t, 0, after["assetCount"])
	assert.NotContains(t, after, "startDate", "no dates without assets")

	// The asset stays in the library.
	assert.Equal(t, a1, libRead(t, srv, "/api/asset/"+a1, keyAlice)["id"])
}

func TestLibraryRemovedThumbnailIsTheNewestLeft(t *testing.T) {
	srv := newTestServer(t)
	thumb := libUpload(t, srv, keyAlice, "thumb", "fileCreatedAt", "2026-03-01T10:00:00.000Z")
	older := libUpload(t, srv, keyAlice, "older", "fileCreatedAt", "2020-03-01T10:00:00.000Z")
	newer := libUpload(t, srv, keyAlice, "newer", "fileCreatedAt", "2025-03-01T10:00:00.000Z")
	id := createAlbum(t, srv, keyAlice, `{"albumName":"Thumbs","assetIds":["`+thumb+`","`+older+`","`+newer+`"]}`)["id"].(string)
	rep := libSend(t, srv, http.MethodDelete, "/api/albums/"+id+"/assets", `{"ids":["`+thumb+`"]}`, keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.Equal(t, newer, libRead(t, srv, "/api/albums/"+id, keyAlice)["albumThumbnailAssetId"])
}

// TestLibraryTrashedCover: an album whose cover its owner moves to the
// trash keeps naming it, in its answer and in the listing, as the
// reference does (asked at 66fced40e: its albums_assets row stays, so its
// updateThumbnails finds nothing to fix), and names it again when it is
// restored; emptied from the trash, the cover is the newest photo left. An
// album stored without a cover shows its newest asset out of the trash,
// none while all are in it.
func TestLibraryTrashedCover(t *testing.T) {
	srv := newTestServer(t)
	cover := libUpload(t, srv, keyAlice, "cover", "fileCreatedAt", "2025-03-01T10:00:00.000Z")
	other := libUpload(t, srv, keyAlice, "other", "fileCreatedAt", "2020-03-01T10:00:00.000Z")
	id := createAlbum(t, srv, keyAlice, `{"albumName":"Covers","assetIds":["`+other+`","`+cover+`"]}`)["id"].(string)
	rep := libSend(t, srv, http.MethodPatch, "/api/albums/"+id, `{"albumThumbnailAssetId":"`+cover+`"}`, keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	listed := func() any {
		for _, al := range libList(t, srv, "/api/albums", keyAlice) {
			if al["id"] == id {
				return al["albumThumbnailAssetId"]
			}
		}
		return nil
	}

	libNoContent(t, libSend(t, srv, http.MethodDelete, "/api/asset", `{"ids":["`+cover+`"]}`, keyAlice))
	al := libRead(t, srv, "/api/albums/"+id, keyAlice)
	assert.Equal(t, cover, al["albumThumbnailAssetId"], "a trashed cover stays the cover")
	assert.Equal(t, []string{other}, libIDsIn(al["assets"]), "the album shows no photo in the trash")
	assert.Equal(t, cover, listed())

	libNoContent(t, libSend(t, srv, http.MethodPost, "/api/trash/restore", "", keyAlice))
	assert.Equal(t, cover, libRead(t, srv, "/api/albums/"+id, keyAlice)["albumThumbnailAssetId"])

	libNoContent(t, libSend(t, srv, http.MethodDelete, "/api/asset", `{"ids":["`+cover+`"]}`, keyAlice))
	libNoContent(t, libSend(t, srv, http.MethodPost, "/api/trash/empty", "", keyAlice))
	assert.Equal(t, other, libRead(t, srv, "/api/albums/"+id, keyAlice)["albumThumbnailAssetId"], "emptied, the cover is the newest photo left")
	assert.Equal(t, other, listed())

	// testAlbumID is stored without a cover: its one photo is it, until
	// that photo is in the trash.
	assert.Equal(t, aliceAssetID, libRead(t, srv, "/api/albums/"+testAlbumID, keyAlice)["albumThumbnailAssetId"])
	libNoContent(t, libSend(t, srv, http.MethodDelete, "/api/asset", `{"ids":["`+aliceAssetID+`"]}`, keyAlice))
	assert.Nil(t, libRead(t, srv, "/api/albums/"+testAlbumID, keyAlice)["albumThumbnailAssetId"], "an album that shows no photo has no cover")
}

func TestLibraryAddAlbumUsers(t *testing.T) {
	srv := newTestServer(t)
	album := createAlbum(t, srv, keyAlice, `{"albumName":"To share","assetIds":["`+aliceAssetID+`"]}`)
	id := album["id"].(string)
	path := "/api/albums/" + id + "/users"
	assert.Equal(t, false, album["shared"])

	rep := libSend(t, srv, http.MethodPut, path, `{"albumUsers":[{"userId":"`+carolID+`","role":"viewer"},{"userId":"`+strings.ToUpper(bobID)+`"}]}`, keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	var al map[string]any
	rep.json(t, &al)
	assert.Equal(t, []string{bobID + ":editor", carolID + ":viewer"}, libRoles(al), "editor when no role is given; by role, then name")
	assert.Equal(t, true, al["shared"])
	assert.Equal(t, []any{}, al["assets"], "the album without its assets")
	assert.EqualValues(t, 1, al["assetCount"])
	assert.Equal(t, "To share", al["albumName"])
	assert.Equal(t, []string{id, testAlbumID}, libIDs(libList(t, srv, "/api/albums?shared=true", keyBob)), "newest first")
	assert.Equal(t, []string{id}, libIDs(libList(t, srv, "/api/albums?shared=true", keyCarol)))
	assert.Equal(t, map[string]any{"owned": 2.0, "shared": 2.0, "notShared": 0.0}, libCount(t, srv, keyAlice))

	for _, tt := range []struct {
		name, album, body, key string
		message                any
	}{
		{"the owner", id, `{"albumUsers":[{"userId":"` + aliceID + `","role":"editor"}]}`, keyAlice, "Cannot be shared with owner"},
		{"a user already added", id, `{"albumUsers":[{"userId":"` + bobID + `","role":"viewer"}]}`, keyAlice, "User already added"},
		{"an unknown user", id, `{"albumUsers":[{"userId":"` + libUnknownID + `","role":"viewer"}]}`, keyAlice, "User not found"},
		{"an editor", id, `{"albumUsers":[{"userId":"` + libUnknownID + `","role":"viewer"}]}`, keyBob, "Not found or no album.share access"},
		{"a viewer", testAlbumID, `{"albumUsers":[{"userId":"` + carolID + `","role":"viewer"}]}`, keyBob, "Not found or no album.share access"},
		{"a stranger", testAlbumID, `{"albumUsers":[{"userId":"` + carolID + `","role":"viewer"}]}`, keyCarol, "Not found or no album.share access"},
		{"an unknown album", libUnknownID, `{"albumUsers":[{"userId":"` + carolID + `","role":"viewer"}]}`, keyAlice, "Not found or no album.share access"},
		{"no users", id, `{}`, keyAlice, []any{"albumUsers should not be empty"}},
		{"an empty list", id, `{"albumUsers":[]}`, keyAlice, []any{"albumUsers should not be empty"}},
		// The reference judges nothing more and fails with a 500 later;
		// the mock judges each user as AlbumUserAddDto declares it.
		{"a user of the wrong shape", id, `{"albumUsers":[{"userId":"x","role":"owner"}]}`, keyAlice,
			[]any{"albumUsers.0.userId must be a UUID", "albumUsers.0.role must be one of the following values: editor, viewer"}},
		{"an album id not a UUID", "nope", `{"albumUsers":[{"userId":"` + carolID + `"}]}`, keyAlice, []any{"id must be a UUID"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, libSend(t, srv, http.MethodPut, "/api/albums/"+tt.album+"/users", tt.body, tt.key), 400, tt.message)
		})
	}
	requireError(t, libSend(t, srv, http.MethodPut, path, `{"albumUsers":[{"userId":"`+carolID+`"}]}`, ""), 401, "Authentication required")
	assert.Equal(t, []string{bobID + ":editor", carolID + ":viewer"}, libRoles(libRead(t, srv, "/api/albums/"+id, keyAlice)))

	// A deleted user is no user to share with.
	other := createAlbum(t, srv, keyAlice, `{"albumName":"Later"}`)["id"].(string)
	rep = libSend(t, srv, http.MethodDelete, "/api/admin/users/"+carolID, `{}`, keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	requireError(t, libSend(t, srv, http.MethodPut, "/api/albums/"+other+"/users", `{"albumUsers":[{"userId":"`+carolID+`","role":"viewer"}]}`, keyAlice), 400, "User not found")
	assert.Equal(t, []string{bobID + ":editor"}, libRoles(libRead(t, srv, "/api/albums/"+id, keyAlice)), "a deleted user is left out of the album's users")
}

// libCount is GET /api/albums/count as the user of key.
func libCount(t *testing.T, srv *httptest.Server, key string) map[string]any {
	t.Helper()
	return libRead(t, srv, "/api/albums/count", key)
}

func TestLibraryUpdateAlbumUserRole(t *testing.T) {
	srv := newTestServer(t)
	path := "/api/albums/" + testAlbumID + "/user/"
	assert.Equal(t, []string{bobID + ":viewer"}, libRoles(libRead(t, srv, "/api/albums/"+testAlbumID, keyAlice)))
	requireError(t, libSend(t, srv, http.MethodPut, "/api/albums/"+testAlbumID+"/assets", `{"ids":["`+libBobAsset+`"]}`, keyBob), 400, "Not found or no album.addAsset access")

	libEmptyOK(t, libSend(t, srv, http.MethodPut, path+strings.ToUpper(bobID), `{"role":"editor"}`, keyAlice))
	assert.Equal(t, []string{bobID + ":editor"}, libRoles(libRead(t, srv, "/api/albums/"+testAlbumID, keyBob)))
	rep := libSend(t, srv, http.MethodPut, "/api/albums/"+testAlbumID+"/assets", `{"ids":["`+libBobAsset+`"]}`, keyBob)
	assert.JSONEq(t, `[{"id":"`+libBobAsset+`","success":true}]`, string(rep.body), "an editor adds his own")
	libEmptyOK(t, libSend(t, srv, http.MethodPut, path+bobID, `{"role":"viewer"}`, keyAlice))
	assert.Equal(t, []string{bobID + ":viewer"}, libRoles(libRead(t, srv, "/api/albums/"+testAlbumID, keyAlice)))

	for _, tt := range []struct {
		name, album, user, body, key string
		status                       int
		message                      any
	}{
		{"the user themselves", testAlbumID, bobID, `{"role":"editor"}`, keyBob, 400, "Not found or no album.share access"},
		{"the user themselves, as me", testAlbumID, "me", `{"role":"editor"}`, keyBob, 400, "Not found or no album.share access"},
		{"a stranger", testAlbumID, bobID, `{"role":"editor"}`, keyCarol, 400, "Not found or no album.share access"},
		{"an unknown album", libUnknownID, bobID, `{"role":"editor"}`, keyAlice, 400, "Not found or no album.share access"},
		{"no role", testAlbumID, bobID, `{}`, keyAlice, 400, []any{"role must be one of the following values: editor, viewer"}},
		{"the owner's role", testAlbumID, bobID, `{"role":"owner"}`, keyAlice, 400, []any{"role must be one of the following values: editor, viewer"}},
		{"a user id not a UUID", testAlbumID, "bob", `{"role":"editor"}`, keyAlice, 400, "Validation failed (uuid v 4 is expected)"},
		{"a user id not a v4 UUID", testAlbumID, "00000000-0000-0000-0000-000000000000", `{"role":"editor"}`, keyAlice, 400, "Validation failed (uuid v 4 is expected)"},
		{"an album id not a UUID", "nope", bobID, `{"role":"editor"}`, keyAlice, 400, []any{"id must be a UUID"}},
		// The reference fails with a 500 for these two (findOneOrFail on no
		// row, and "me" sent on to the database as a user id); the mock
		// says what is wrong.
		{"a user not in the album", testAlbumID, carolID, `{"role":"editor"}`, keyAlice, 400, "Album not shared with user"},
		{"the owner, as me", testAlbumID, "me", `{"role":"editor"}`, keyAlice, 400, "Album not shared with user"},
		{"no credentials", testAlbumID, bobID, `{"role":"editor"}`, "", 401, "Authentication required"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, libSend(t, srv, http.MethodPut, "/api/albums/"+tt.album+"/user/"+tt.user, tt.body, tt.key), tt.status, tt.message)
		})
	}
	requireError(t, sendJSON(t, srv, http.MethodPut, path+bobID, `{"role":"editor"}`, "x-immich-share-key", linkUpload), 403, "Forbidden resource")
	assert.Equal(t, []string{bobID + ":viewer"}, libRoles(libRead(t, srv, "/api/albums/"+testAlbumID, keyAlice)), "no refused change was made")
}

func TestLibraryRemoveAlbumUser(t *testing.T) {
	srv := newTestServer(t)
	id := createAlbum(t, srv, keyAlice, `{"albumName":"Three of us","assetIds":["`+aliceAssetID+`"],"albumUsers":[{"userId":"`+bobID+`","role":"editor"},{"userId":"`+carolID+`","role":"viewer"}]}`)["id"].(string)
	path := "/api/albums/" + id + "/user/"

	for _, tt := range []struct {
		name, album, user, key string
		status                 int
		message                any
	}{
		{"the owner", id, aliceID, keyAlice, 400, "Cannot remove album owner"},
		{"the owner, as me", id, "me", keyAlice, 400, "Cannot remove album owner"},
		{"an editor removes another user", id, carolID, keyBob, 400, "Not found or no album.share access"},
		{"a viewer removes another user", id, bobID, keyCarol, 400, "Not found or no album.share access"},
		{"a user not in the album", testAlbumID, carolID, keyAlice, 400, "Album not shared with user"},
		{"a stranger removes themselves", testAlbumID, "me", keyCarol, 400, "Album not shared with user"},
		{"a stranger removes a user", testAlbumID, bobID, keyCarol, 400, "Not found or no album.share access"},
		{"an unknown album", libUnknownID, "me", keyAlice, 400, "Album not found"},
		{"a user id not a UUID", id, "bob", keyAlice, 400, "Validation failed (uuid v 4 is expected)"},
		{"an album id not a UUID", "nope", bobID, keyAlice, 400, []any{"id must be a UUID"}},
		{"no credentials", id, bobID, "", 401, "Authentication required"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, libSend(t, srv, http.MethodDelete, "/api/albums/"+tt.album+"/user/"+tt.user, "", tt.key), tt.status, tt.message)
		})
	}
	assert.Equal(t, []string{bobID + ":editor", carolID + ":viewer"}, libRoles(libRead(t, srv, "/api/albums/"+id, keyAlice)), "no refused change was made")

	// A user leaves on their own ("me"); the owner removes another by id.
	libEmptyOK(t, libSend(t, srv, http.MethodDelete, path+"me", "", keyCarol))
	requireError(t, getJSON(t, srv, "/api/albums/"+id, nil, libKey(keyCarol)...), 400, "Not found or no album.read access")
	assert.Empty(t, libList(t, srv, "/api/albums?shared=true", keyCarol))
	libEmptyOK(t, libSend(t, srv, http.MethodDelete, path+strings.ToUpper(bobID), "", keyAlice))
	requireError(t, getJSON(t, srv, "/api/albums/"+id, nil, libKey(keyBob)...), 400, "Not found or no album.read access")
	assert.Equal(t, []string{testAlbumID}, libIDs(libList(t, srv, "/api/albums?shared=true", keyBob)))

	al := libRead(t, srv, "/api/albums/"+id, keyAlice)
	assert.Equal(t, []any{}, al["albumUsers"])
	assert.Equal(t, false, al["shared"], "no users and no link: not shared")
	assert.Equal(t, []string{id}, libIDs(libList(t, srv, "/api/albums?shared=false", keyAlice)))
	requireError(t, libSend(t, srv, http.MethodDelete, path+bobID, "", keyAlice), 400, "Album not shared with user")
}

func TestLibraryAlbumCountAndSharedListing(t *testing.T) {
	srv := newTestServer(t)
	count := func(key string) []float64 {
		c := libCount(t, srv, key)
		require.Len(t, c, 3, "owned, shared and notShared: %v", c)
		return []float64{c["owned"].(float64), c["shared"].(float64), c["notShared"].(float64)}
	}
	names := func(query, key string) []string {
		return libNames(libList(t, srv, "/api/albums"+query, key))
	}
	lisbon := "Lisbon, October 2026"
	assert.Equal(t, []float64{1, 1, 0}, count(keyAlice))
	assert.Equal(t, []float64{0, 1, 0}, count(keyBob), "shared counts the albums shared with him")
	assert.Equal(t, []float64{0, 0, 0}, count(keyCarol))

	// An album of Alice's alone, one with a link only, and one of Bob's
	// that he shares with Alice.
	createAlbum(t, srv, keyAlice, `{"albumName":"Alone"}`)
	linked := createAlbum(t, srv, keyAlice, `{"albumName":"Linked"}`)["id"].(string)
	createLink(t, srv, keyAlice, `{"type":"ALBUM","albumId":"`+linked+`"}`)
	createAlbum(t, srv, keyBob, `{"albumName":"Bob's, with Alice","albumUsers":[{"userId":"`+aliceID+`","role":"viewer"}]}`)
	createAlbum(t, srv, keyBob, `{"albumName":"Bob's own"}`)

	for _, tt := range []struct {
		name, query, key string
		want             []string
	}{
		{"Alice's own", "", keyAlice, []string{"Linked", "Alone", lisbon}},
		{"Alice's shared", "?shared=true", keyAlice, []string{"Bob's, with Alice", "Linked", lisbon}},
		{"Alice's not shared", "?shared=false", keyAlice, []string{"Alone"}},
		{"Bob's own", "", keyBob, []string{"Bob's own", "Bob's, with Alice"}},
		{"Bob's shared", "?shared=true", keyBob, []string{"Bob's, with Alice", lisbon}},
		{"Bob's not shared", "?shared=false", keyBob, []string{"Bob's own"}},
		{"Carol's shared", "?shared=true", keyCarol, []string{}},
	} {
		t.Run(tt.name, func(t *testing.T) { assert.Equal(t, tt.want, names(tt.query, tt.key)) })
	}
	for _, al := range libList(t, srv, "/api/albums?shared=true", keyAlice) {
		assert.Equal(t, true, al["shared"], "%s", al["albumName"])
	}
	assert.Equal(t, []float64{3, 3, 1}, count(keyAlice))
	assert.Equal(t, []float64{2, 2, 1}, count(keyBob))

	// A deleted owner's albums leave every listing and count, and come
	// back with them; their albums' users are left out of the answers.
	rep := libSend(t, srv, http.MethodDelete, "/api/admin/users/"+bobID, `{}`, keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.Equal(t, []string{"Linked", lisbon}, names("?shared=true", keyAlice))
	assert.Equal(t, []float64{3, 2, 1}, count(keyAlice))
	assert.Equal(t, []any{}, libRead(t, srv, "/api/albums/"+testAlbumID, keyAlice)["albumUsers"])

	rep = libSend(t, srv, http.MethodPost, "/api/admin/users/"+bobID+"/restore", "", keyAlice)
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	assert.Equal(t, []string{"Bob's, with Alice", "Linked", lisbon}, names("?shared=true", keyAlice))
	assert.Equal(t, []float64{3, 3, 1}, count(keyAlice))
	assert.Equal(t, []string{bobID + ":viewer"}, libRoles(libRead(t, srv, "/api/albums/"+testAlbumID, keyAlice)))

	requireError(t, getJSON(t, srv, "/api/albums/count", nil), 401, "Authentication required")
	requireError(t, getJSON(t, srv, "/api/albums/count?key="+linkUpload, nil), 403, "Forbidden resource")
}

// TestLibraryEditorAndViewer is what each role of an album's users may do
// to it, in the order a client would try it.
func TestLibraryEditorAndViewer(t *testing.T) {
	srv := newTestServer(t)
	carolAsset := libUpload(t, srv, keyCarol, "c")
	id := createAlbum(t, srv, keyAlice, `{"albumName":"Roles","assetIds":["`+aliceAssetID+`"],"albumUsers":[{"userId":"`+bobID+`","role":"editor"},{"userId":"`+carolID+`","role":"viewer"}]}`)["id"].(string)
	album := "/api/albums/" + id
	for _, tt := range []struct {
		name, method, path, body, key string
		status                        int
		want                          string // the JSON body of a 200, or the error message
	}{
		{"the editor reads it", http.MethodGet, album, "", keyBob, 200, ""},
		{"the viewer reads it", http.MethodGet, album, "", keyCarol, 200, ""},
		{"the editor adds his asset", http.MethodPut, album + "/assets", `{"ids":["` + libBobAsset + `"]}`, keyBob, 200, `[{"id":"` + libBobAsset + `","success":true}]`},
		{"the viewer adds hers", http.MethodPut, album + "/assets", `{"ids":["` + carolAsset + `"]}`, keyCarol, 400, "Not found or no album.addAsset access"},
		{"the viewer takes one out", http.MethodDelete, album + "/assets", `{"ids":["` + aliceAssetID + `"]}`, keyCarol, 400, "Not found or no album.removeAsset access"},
		{"the editor takes the owner's out", http.MethodDelete, album + "/assets", `{"ids":["` + aliceAssetID + `"]}`, keyBob, 200, `[{"id":"` + aliceAssetID + `","success":false,"error":"no_permission"}]`},
		{"the editor renames it", http.MethodPatch, album, `{"albumName":"Mine now"}`, keyBob, 400, "Not found or no album.update access"},
		{"the viewer renames it", http.MethodPatch, album, `{"albumName":"Mine now"}`, keyCarol, 400, "Not found or no album.update access"},
		{"the editor shares it", http.MethodPut, album + "/users", `{"albumUsers":[{"userId":"` + aliceID + `"}]}`, keyBob, 400, "Not found or no album.share access"},
		{"the editor changes a role", http.MethodPut, album + "/user/" + carolID, `{"role":"editor"}`, keyBob, 400, "Not found or no album.share access"},
		{"the editor removes the viewer", http.MethodDelete, album + "/user/" + carolID, "", keyBob, 400, "Not found or no album.share access"},
		{"the editor deletes it", http.MethodDelete, album, "", keyBob, 400, "Not found or no album.delete access"},
		{"the viewer deletes it", http.MethodDelete, album, "", keyCarol, 400, "Not found or no album.delete access"},
		{"the editor takes his own out", http.MethodDelete, album + "/assets", `{"ids":["` + libBobAsset + `"]}`, keyBob, 200, `[{"id":"` + libBobAsset + `","success":true}]`},
		{"the viewer leaves", http.MethodDelete, album + "/user/me", "", keyCarol, 200, ""},
		{"the viewer, gone, reads it", http.MethodGet, album, "", keyCarol, 400, "Not found or no album.read access"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rep := libSend(t, srv, tt.method, tt.path, tt.body, tt.key)
			if tt.status != http.StatusOK {
				requireError(t, rep, tt.status, tt.want)
				return
			}
			require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
			if tt.want != "" {
				assert.JSONEq(t, tt.want, string(rep.body))
			}
		})
	}
	al := libRead(t, srv, album, keyAlice)
	assert.Equal(t, "Roles", al["albumName"])
	assert.Equal(t, []string{aliceAssetID}, libIDsIn(al["assets"]))
	assert.Equal(t, []string{bobID + ":editor"}, libRoles(al))
}

// Assets.

const libPersonID = "00000000-0000-4000-8000-0000000fe501" // Alice's person, on her asset

// libDataset is testDataset with a person of Alice's whose face is on her
// asset, as the upstream's asset spec seeds "Test Person".
func libDataset() model.Dataset {
	d := testDataset()
	d.People = append(d.People, model.PersonRecord{ID: libPersonID, OwnerID: aliceID, Name: "Test Person", ThumbnailPath: "/my/awesome/thumbnail.jpg"})
	for i := range d.Assets {
		if d.Assets[i].ID == aliceAssetID {
			d.Assets[i].Faces = []model.FaceRecord{{ID: "00000000-0000-4000-8000-0000000fac01", PersonID: libPersonID, BoundingBoxX2: 10, BoundingBoxY2: 10, ImageWidth: 100, ImageHeight: 100}}
		}
	}
	return d
}

func libServer(t *testing.T) *httptest.Server {
	return newTestServer(t, func(c *Config) { c.Dataset = libDataset })
}

func TestLibraryUpdateAsset(t *testing.T) {
	srv := libServer(t)
	path := "/api/asset/" + aliceAssetID
	before := libRead(t, srv, path, keyAlice)
	require.Equal(t, false, before["isFavorite"])

	put := func(body string) map[string]any {
		t.Helper()
		rep := libSend(t, srv, http.MethodPut, path, body, keyAlice)
		require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
		var a map[string]any
		rep.json(t, &a)
		require.Equal(t, aliceAssetID, a["id"])
		return a
	}

	// The answer is the asset as its owner reads it, with its owner, tags
	// and people, without its stack.
	a := put(`{"isFavorite":true}`)
	assert.Equal(t, true, a["isFavorite"])
	assert.Equal(t, false, a["isArchived"])
	assert.Equal(t, aliceID, a["owner"].(map[string]any)["id"])
	assert.Equal(t, []any{}, a["tags"])
	people := a["people"].([]any)
	require.Len(t, people, 1)
	person := people[0].(map[string]any)
	assert.Equal(t, libPersonID, person["id"])
	assert.Equal(t, "Test Person", person["name"])
	assert.Nil(t, person["birthDate"])
	assert.Equal(t, false, person["isHidden"])
	assert.Equal(t, "/my/awesome/thumbnail.jpg", person["thumbnailPath"])
	assert.NotContains(t, a, "stackParentId")
	assert.NotContains(t, a, "stack")
	assert.Nil(t, a["stackCount"])
	assert.Greater(t, a["updatedAt"], before["updatedAt"])
	assert.Equal(t, true, libRead(t, srv, path, keyAlice)["isFavorite"])
	assert.Equal(t, false, libRead(t, srv, path, keyBob)["isFavorite"], "her favourite, not the album viewer's")

	a = put(`{"isArchived":true}`)
	assert.Equal(t, true, a["isArchived"])
	assert.Equal(t, true, a["isFavorite"], "a member left out is kept")
	a = put(`{"isFavorite":false,"isArchived":false}`)
	assert.Equal(t, false, a["isFavorite"])
	assert.Equal(t, false, a["isArchived"])

	a = put(`{"description":"Test asset description"}`)
	assert.Equal(t, "Test asset description", a["exifInfo"].(map[string]any)["description"])

	// The upstream's asset spec: the date taken, in UTC.
	a = put(`{"dateTimeOriginal":"2023-11-19T18:11:00.000-07:00"}`)
	exif := a["exifInfo"].(map[string]any)
	assert.Equal(t, "2023-11-20T01:11:00.000Z", exif["dateTimeOriginal"])
	assert.Equal(t, "Test asset description", exif["description"], "the description stays")
	// The reference gets the rest from its metadata job a moment later;
	// the mock has it at once: the wall clock as localDateTime, the
	// instant as fileCreatedAt, the offset as the zone.
	assert.Equal(t, "2023-11-19T18:11:00.000Z", a["localDateTime"])
	assert.Equal(t, "2023-11-20T01:11:00.000Z", a["fileCreatedAt"])
	assert.Equal(t, "UTC-7", exif["timeZone"])

	a = put(`{"latitude":12,"longitude":12}`)
	exif = a["exifInfo"].(map[string]any)
	assert.EqualValues(t, 12, exif["latitude"])
	assert.EqualValues(t, 12, exif["longitude"])
	a = put(`{"latitude":"38.7223","longitude":"-9.1393"}`)
	exif = a["exifInfo"].(map[string]any)
	assert.EqualValues(t, 38.7223, exif["latitude"], "a string of a number is a number")
	assert.EqualValues(t, -9.1393, exif["longitude"])
	assert.Equal(t, "Lisbon", exif["city"])
	assert.Equal(t, "Portugal", exif["country"])
	assert.Equal(t, "2023-11-20T01:11:00.000Z", exif["dateTimeOriginal"], "the date stays")

	stored := libRead(t, srv, path, keyAlice)
	for _, k := range []string{"isFavorite", "isArchived", "localDateTime", "fileCreatedAt"} {
		assert.Equal(t, a[k], stored[k], k)
	}
	assert.Equal(t, a["exifInfo"], stored["exifInfo"])

	// The upstream's asset spec rejects every one of these positions; the
	// messages are the reference server's.
	lat, lon := "latitude must be a latitude string or number", "longitude must be a longitude string or number"
	for _, tt := range []struct {
		name, body string
		message    []any
	}{
		{"a latitude alone", `{"latitude":12}`, []any{"longitude should not be empty", lon}},
		{"a longitude alone", `{"longitude":12}`, []any{"latitude should not be empty", lat}},
		{"a longitude not a number", `{"latitude":12,"longitude":"abc"}`, []any{lon}},
		{"a latitude not a number", `{"latitude":"abc","longitude":12}`, []any{lat}},
		{"a null latitude", `{"latitude":null,"longitude":12}`, []any{"latitude should not be empty", lat}},
		{"a null longitude", `{"latitude":12,"longitude":null}`, []any{"longitude should not be empty", lon}},
		{"a latitude over 90", `{"latitude":91,"longitude":12}`, []any{lat}},
		{"a latitude under -90", `{"latitude":-91,"longitude":12}`, []any{lat}},
		{"a longitude under -180", `{"latitude":12,"longitude":-181}`, []any{lon}},
		{"a longitude over 180", `{"latitude":12,"longitude":181}`, []any{lon}},
		{"both out of range", `{"latitude":91,"longitude":181}`, []any{lat, lon}},
		{"every other member wrong", `{"isFavorite":"yes","isArchived":1,"description":5,"dateTimeOriginal":"yesterday"}`,
			[]any{"description must be a string", "isFavorite must be a boolean value", "isArchived must be a boolean value", "dateTimeOriginal must be a valid ISO 8601 date string"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, libSend(t, srv, http.MethodPut, path, tt.body, keyAlice), 400, tt.message)
		})
	}
	for _, tt := range []struct {
		name, id, key string
		status        int
		message       any
	}{
		{"another's asset", libBobAsset, keyAlice, 400, "Not found or no asset.update access"},
		{"an album viewer", aliceAssetID, keyBob, 400, "Not found or no asset.update access"},
		{"an unknown asset", libUnknownID, keyAlice, 400, "Not found or no asset.update access"},
		{"an id not a UUID", "nope", keyAlice, 400, []any{"id must be a UUID"}},
		{"no credentials", aliceAssetID, "", 401, "Authentication required"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, libSend(t, srv, http.MethodPut, "/api/asset/"+tt.id, `{"isFavorite":true}`, tt.key), tt.status, tt.message)
		})
	}
	requireError(t, sendJSON(t, srv, http.MethodPut, path, `{"isFavorite":true}`, "x-immich-share-key", linkView), 403, "Forbidden resource")
	assert.Equal(t, stored, libRead(t, srv, path, keyAlice), "no refused change was made")
}

func TestLibraryUpdateAssets(t *testing.T) {
	srv := newTestServer(t)
	a1 := libUpload(t, srv, keyAlice, "bulk-1")
	a2 := libUpload(t, srv, keyAlice, "bulk-2")
	get := func(id string) map[string]any { return libRead(t, srv, "/api/asset/"+id, keyAlice) }

	libNoContent(t, libSend(t, srv, http.MethodPut, "/api/asset", `{"ids":["`+a1+`","`+strings.ToUpper(a2)+`"],"isFavorite":true,"isArchived":true}`, keyAlice))
	for _, id := range []string{a1, a2} {
		a := get(id)
		assert.Equal(t, true, a["isFavorite"], id)
		assert.Equal(t, true, a["isArchived"], id)
	}
	assert.Equal(t, false, get(aliceAssetID)["isFavorite"], "only the ids sent")

	// The date and the position go to every asset; a description is no
	// member of AssetBulkUpdateDto and is dropped.
	description := get(a1)["exifInfo"].(map[string]any)["description"]
	libNoContent(t, libSend(t, srv, http.MethodPut, "/api/asset", `{"ids":["`+a1+`","`+a2+`"],"dateTimeOriginal":"2024-02-29T12:00:00.000Z","latitude":38.7223,"longitude":-9.1393,"description":"dropped"}`, keyAlice))
	for _, id := range []string{a1, a2} {
		exif := get(id)["exifInfo"].(map[string]any)
		assert.Equal(t, "2024-02-29T12:00:00.000Z", exif["dateTimeOriginal"], id)
		assert.EqualValues(t, 38.7223, exif["latitude"], id)
		assert.EqualValues(t, -9.1393, exif["longitude"], id)
		assert.Equal(t, description, exif["description"], id)
		assert.Equal(t, true, get(id)["isFavorite"], "members left out are kept")
	}
	libNoContent(t, libSend(t, srv, http.MethodPut, "/api/asset", `{"ids":[]}`, keyAlice))

	for _, tt := range []struct {
		name, body string
		message    any
	}{
		{"one of another's", `{"ids":["` + a1 + `","` + libBobAsset + `"],"isFavorite":false}`, "Not found or no asset.update access"},
		{"an unknown one", `{"ids":["` + libUnknownID + `"],"isFavorite":false}`, "Not found or no asset.update access"},
		{"no ids", `{}`, []any{"each value in ids must be a UUID", "ids should not be empty", "ids must be an array"}},
		{"members of the wrong kind", `{"ids":["bad"],"stackParentId":"bad","removeParent":"x"}`, []any{"each value in ids must be a UUID", "stackParentId must be a UUID", "removeParent must be a boolean value"}},
		{"a latitude alone", `{"ids":["` + a1 + `"],"latitude":12}`, []any{"longitude should not be empty", "longitude must be a longitude string or number"}},
		{"a favourite not a boolean", `{"ids":["` + a1 + `"],"isFavorite":"no"}`, []any{"isFavorite must be a boolean value"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, libSend(t, srv, http.MethodPut, "/api/asset", tt.body, keyAlice), 400, tt.message)
		})
	}
	requireError(t, libSend(t, srv, http.MethodPut, "/api/asset", `{"ids":["`+a1+`"]}`, ""), 401, "Authentication required")
	requireError(t, sendJSON(t, srv, http.MethodPut, "/api/asset", `{"ids":["`+a1+`"]}`, "x-immich-share-key", linkUpload), 403, "Forbidden resource")
	assert.Equal(t, true, get(a1)["isFavorite"], "a refused bulk changes none of its assets")
}

// libStack is what an asset shows of its stack: the parent's id, the
// others than the parent, and the count with the parent.
type libStack struct {
	parent string
	others []string
	count  any
}

func libStackOf(t *testing.T, srv *httptest.Server, id string) libStack {
	t.Helper()
	a := libRead(t, srv, "/api/asset/"+id, keyAlice)
	s := libStack{count: a["stackCount"]}
	if p, ok := a["stackParentId"]; ok {
		s.parent = p.(string)
	}
	if _, ok := a["stack"]; ok {
		s.others = libIDsIn(a["stack"])
	}
	return s
}

func TestLibraryStacks(t *testing.T) {
	srv := newTestServer(t)
	var s [5]string
	for i := range s {
		s[i] = libUpload(t, srv, keyAlice, "stacked-"+string(rune('0'+i)))
	}
	put := func(body string) {
		t.Helper()
		libNoContent(t, libSend(t, srv, http.MethodPut, "/api/asset", body, keyAlice))
	}
	check := func(id, parent string, others ...string) {
		t.Helper()
		got := libStackOf(t, srv, id)
		if parent == "" {
			assert.Equal(t, libStack{count: nil}, got, "%s is in no stack", id)
			return
		}
		assert.Equal(t, parent, got.parent, "%s's parent", id)
		assert.ElementsMatch(t, others, got.others, "%s's stack", id)
		assert.EqualValues(t, len(others)+1, got.count, "%s's count", id)
	}

	// The upstream's asset spec, step by step.
	put(`{"stackParentId":"` + s[0] + `","ids":["` + s[1] + `","` + s[2] + `"]}`)
	check(s[0], s[0], s[1], s[2])
	check(s[1], s[0], s[1], s[2])
	check(s[3], "")

	put(`{"stackParentId":"` + s[0] + `","ids":["` + s[3] + `"]}`)
	check(s[0], s[0], s[1], s[2], s[3])

	put(`{"removeParent":true,"ids":["` + s[1] + `"]}`)
	check(s[0], s[0], s[2], s[3])
	check(s[1], "")

	put(`{"removeParent":true,"ids":["` + s[2] + `","` + s[3] + `"]}`)
	for _, id := range s {
		check(id, "")
	}

	// Stacking onto a stack's parent, or with its parent among the ids,
	// merges the stacks under the new parent.
	put(`{"stackParentId":"` + s[0] + `","ids":["` + s[1] + `","` + s[2] + `"]}`)
	put(`{"stackParentId":"` + s[3] + `","ids":["` + s[0] + `"]}`)
	check(s[3], s[3], s[0], s[1], s[2])
	check(s[0], s[3], s[0], s[1], s[2])
	check(s[4], "")

	// What else the bulk changes goes to every asset of the new stack.
	put(`{"stackParentId":"` + s[4] + `","ids":["` + s[3] + `"],"isFavorite":true}`)
	check(s[4], s[4], s[0], s[1], s[2], s[3])
	for _, id := range s {
		assert.Equal(t, true, libRead(t, srv, "/api/asset/"+id, keyAlice)["isFavorite"], id)
	}

	// Another's parent, or another's child, is refused, and nothing moves.
	requireError(t, libSend(t, srv, http.MethodPut, "/api/asset", `{"stackParentId":"`+s[4]+`","ids":["`+libBobAsset+`"]}`, keyBob), 400, "Not found or no asset.update access")
	requireError(t, libSend(t, srv, http.MethodPut, "/api/asset", `{"stackParentId":"`+libBobAsset+`","ids":["`+s[0]+`"]}`, keyAlice), 400, "Not found or no asset.update access")
	requireError(t, libSend(t, srv, http.MethodPut, "/api/asset", `{"stackParentId":"`+libUnknownID+`","ids":["`+s[0]+`"]}`, keyAlice), 400, "Not found or no asset.update access")
	check(s[4], s[4], s[0], s[1], s[2], s[3])
	assert.Nil(t, libRead(t, srv, "/api/asset/"+libBobAsset, keyBob)["stackCount"])
}

func TestLibraryUpdateStackParent(t *testing.T) {
	srv := newTestServer(t)
	var s [4]string
	for i := range s {
		s[i] = libUpload(t, srv, keyAlice, "parent-"+string(rune('0'+i)))
	}
	libNoContent(t, libSend(t, srv, http.MethodPut, "/api/asset", `{"stackParentId":"`+s[0]+`","ids":["`+s[1]+`","`+s[2]+`"]}`, keyAlice))
	parentOf := func(id string) string { return libStackOf(t, srv, id).parent }

	for _, tt := range []struct {
		name, body, key string
		status          int
		message         any
	}{
		{"no ids", `{}`, keyAlice, 400, []any{"oldParentId must be a UUID", "oldParentId should not be empty", "oldParentId must be a string", "newParentId must be a UUID", "newParentId should not be empty", "newParentId must be a string"}},
		{"ids not UUIDs", `{"oldParentId":"x","newParentId":"y"}`, keyAlice, 400, []any{"oldParentId must be a UUID", "newParentId must be a UUID"}},
		{"another's stack", `{"oldParentId":"` + s[0] + `","newParentId":"` + s[1] + `"}`, keyBob, 400, "Not found or no asset.read access"},
		{"an unknown old parent", `{"oldParentId":"` + libUnknownID + `","newParentId":"` + s[1] + `"}`, keyAlice, 400, "Not found or no asset.read access"},
		{"another's new parent", `{"oldParentId":"` + s[0] + `","newParentId":"` + libBobAsset + `"}`, keyAlice, 400, "Not found or no asset.update access"},
		// The reference throws a plain Error here (a 500), and takes a new
		// parent from outside the stack; the mock refuses both with a 400.
		{"an old parent in no stack", `{"oldParentId":"` + s[3] + `","newParentId":"` + s[3] + `"}`, keyAlice, 400, "Asset not found or not in a stack"},
		{"a new parent outside the stack", `{"oldParentId":"` + s[0] + `","newParentId":"` + s[3] + `"}`, keyAlice, 400, "Asset not found or not in a stack"},
		{"no credentials", `{"oldParentId":"` + s[0] + `","newParentId":"` + s[1] + `"}`, "", 401, "Authentication required"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, libSend(t, srv, http.MethodPut, "/api/asset/stack/parent", tt.body, tt.key), tt.status, tt.message)
		})
	}
	assert.Equal(t, s[0], parentOf(s[2]), "nothing moved")

	libEmptyOK(t, libSend(t, srv, http.MethodPut, "/api/asset/stack/parent", `{"oldParentId":"`+s[0]+`","newParentId":"`+s[2]+`"}`, keyAlice))
	st := libStackOf(t, srv, s[2])
	assert.Equal(t, s[2], st.parent)
	assert.ElementsMatch(t, []string{s[0], s[1]}, st.others)
	assert.EqualValues(t, 3, st.count)
	for _, id := range s[:3] {
		assert.Equal(t, s[2], parentOf(id), id)
	}

	// Any asset of the stack names it as the old parent.
	libEmptyOK(t, libSend(t, srv, http.MethodPut, "/api/asset/stack/parent", `{"oldParentId":"`+s[0]+`","newParentId":"`+s[1]+`"}`, keyAlice))
	assert.ElementsMatch(t, []string{s[0], s[2]}, libStackOf(t, srv, s[1]).others)
	assert.Equal(t, s[1], parentOf(s[0]))
}

// The trash.

// libSeen is where an asset shows, to each who may see it.
type libSeen struct {
	ownerReads, viewerReads, linkReads bool
	inAlbum, inLinks, inLinkOpened     bool
	albumCount                         float64
	monthBucket                        bool
}

// libWhereSeen looks for aliceAssetID everywhere testDataset shares it:
// its album (Bob views it), the album's link and the INDIVIDUAL link.
func libWhereSeen(t *testing.T, srv *httptest.Server) libSeen {
	t.Helper()
	var s libSeen
	reads := func(headers ...string) bool {
		rep := getJSON(t, srv, "/api/asset/"+aliceAssetID, nil, headers...)
		if rep.status != http.StatusOK {
			requireError(t, rep, 400, "Not found or no asset.read access")
		}
		return rep.status == http.StatusOK
	}
	s.ownerReads = reads(libKey(keyAlice)...)
	s.viewerReads = reads(libKey(keyBob)...)
	s.linkReads = reads("x-immich-share-key", linkView)
	al := libRead(t, srv, "/api/albums/"+testAlbumID, keyBob)
	s.inAlbum = len(libIDsIn(al["assets"])) == 1
	s.albumCount = al["assetCount"].(float64)
	seen := 0
	for _, l := range listLinks(t, srv, keyAlice) {
		switch l.ID {
		case viewLinkID:
			seen += len(l.Assets)
		case uploadLinkID:
			seen += len(l.Album.Assets)
		}
	}
	s.inLinks = seen == 2
	require.Contains(t, []int{0, 2}, seen, "both links show it, or neither")
	var opened model.SharedLink
	rep := getJSON(t, srv, "/api/shared-links/me?key="+linkView, &opened)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	s.inLinkOpened = len(opened.Assets) == 1
	for _, b := range libList(t, srv, "/api/timeline/buckets?size=MONTH&isArchived=false", keyAlice) {
		s.monthBucket = s.monthBucket || b["timeBucket"] == "2026-10-01T00:00:00.000Z" // its month
	}
	return s
}

func TestLibraryTrashAndRestore(t *testing.T) {
	srv := newTestServer(t)
	everywhere := libSeen{ownerReads: true, viewerReads: true, linkReads: true, inAlbum: true, inLinks: true, inLinkOpened: true, albumCount: 1, monthBucket: true}
	inTrash := libSeen{ownerReads: true}
	trashed := func() any { return libRead(t, srv, "/api/asset/"+aliceAssetID, keyAlice)["isTrashed"] }
	stats := func(query string) map[string]any { return libRead(t, srv, "/api/asset/statistics"+query, keyAlice) }
	require.Equal(t, everywhere, libWhereSeen(t, srv))

	// In the trash, only its owner sees it: it leaves its album, its links
	// and the timeline.
	libNoContent(t, libSend(t, srv, http.MethodDelete, "/api/asset", `{"ids":["`+aliceAssetID+`"]}`, keyAlice))
	assert.Equal(t, true, trashed())
	assert.Equal(t, inTrash, libWhereSeen(t, srv))
	assert.Equal(t, map[string]any{"images": 1.0, "videos": 0.0, "total": 1.0}, stats("?isTrashed=true"))
	assert.Equal(t, []map[string]any{{"count": 1.0, "timeBucket": "2026-10-01T00:00:00.000Z"}}, libList(t, srv, "/api/timeline/buckets?size=MONTH&isTrashed=true", keyAlice))
	libNoContent(t, libSend(t, srv, http.MethodDelete, "/api/asset", `{"ids":["`+aliceAssetID+`"]}`, keyAlice))
	assert.Equal(t, true, trashed(), "trashing it again changes nothing")

	// Restored, it is back everywhere.
	libNoContent(t, libSend(t, srv, http.MethodPost, "/api/trash/restore/assets", `{"ids":["`+aliceAssetID+`"]}`, keyAlice))
	assert.Equal(t, false, trashed())
	assert.Equal(t, everywhere, libWhereSeen(t, srv))
	assert.Equal(t, map[string]any{"images": 0.0, "videos": 0.0, "total": 0.0}, stats("?isTrashed=true"))
	libNoContent(t, libSend(t, srv, http.MethodPost, "/api/trash/restore/assets", `{"ids":["`+aliceAssetID+`"]}`, keyAlice))
	assert.Equal(t, false, trashed(), "restoring what is not in the trash changes nothing")

	// POST /trash/restore takes back everything in the caller's trash, and
	// only theirs.
	other := libUpload(t, srv, keyAlice, "trash-2")
	libNoContent(t, libSend(t, srv, http.MethodDelete, "/api/asset", `{"ids":["`+aliceAssetID+`","`+other+`"]}`, keyAlice))
	libNoContent(t, libSend(t, srv, http.MethodDelete, "/api/asset", `{"ids":["`+libBobAsset+`"]}`, keyBob))
	assert.Equal(t, 2.0, stats("?isTrashed=true")["total"])
	libNoContent(t, libSend(t, srv, http.MethodPost, "/api/trash/restore", "", keyAlice))
	assert.Equal(t, 0.0, stats("?isTrashed=true")["total"])
	assert.Equal(t, everywhere, libWhereSeen(t, srv))
	assert.Equal(t, false, libRead(t, srv, "/api/asset/"+other, keyAlice)["isTrashed"])
	assert.Equal(t, true, libRead(t, srv, "/api/asset/"+libBobAsset, keyBob)["isTrashed"], "Bob's trash is his")

	for _, tt := range []struct {
		name, method, path, body, key string
		status                        int
		message                       any
	}{
		{"trashing another's", http.MethodDelete, "/api/asset", `{"ids":["` + aliceAssetID + `","` + libBobAsset + `"]}`, keyAlice, 400, "Not found or no asset.delete access"},
		{"trashing as an album viewer", http.MethodDelete, "/api/asset", `{"ids":["` + aliceAssetID + `"]}`, keyBob, 400, "Not found or no asset.delete access"},
		{"trashing an unknown one", http.MethodDelete, "/api/asset", `{"ids":["` + libUnknownID + `"]}`, keyAlice, 400, "Not found or no asset.delete access"},
		{"trashing no ids", http.MethodDelete, "/api/asset", `{}`, keyAlice, 400, []any{"each value in ids must be a UUID", "ids should not be empty", "ids must be an array"}},
		{"trashing with force not a boolean", http.MethodDelete, "/api/asset", `{"ids":["` + aliceAssetID + `"],"force":"x"}`, keyAlice, 400, []any{"force must be a boolean value"}},
		{"restoring another's", http.MethodPost, "/api/trash/restore/assets", `{"ids":["` + libBobAsset + `"]}`, keyAlice, 400, "Not found or no asset.restore access"},
		{"restoring an unknown one", http.MethodPost, "/api/trash/restore/assets", `{"ids":["` + libUnknownID + `"]}`, keyAlice, 400, "Not found or no asset.restore access"},
		{"restoring no ids", http.MethodPost, "/api/trash/restore/assets", `{}`, keyAlice, 400, []any{"each value in ids must be a UUID", "ids should not be empty", "ids must be an array"}},
		{"trashing, no credentials", http.MethodDelete, "/api/asset", `{"ids":["` + aliceAssetID + `"]}`, "", 401, "Authentication required"},
		{"restoring, no credentials", http.MethodPost, "/api/trash/restore", "", "", 401, "Authentication required"},
		{"restoring ids, no credentials", http.MethodPost, "/api/trash/restore/assets", `{"ids":["` + aliceAssetID + `"]}`, "", 401, "Authentication required"},
		{"emptying, no credentials", http.MethodPost, "/api/trash/empty", "", "", 401, "Authentication required"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, libSend(t, srv, tt.method, tt.path, tt.body, tt.key), tt.status, tt.message)
		})
	}
	for _, path := range []string{"/api/trash/restore", "/api/trash/empty"} {
		requireError(t, sendJSON(t, srv, http.MethodPost, path, "", "x-immich-share-key", linkUpload), 403, "Forbidden resource")
	}
	requireError(t, sendJSON(t, srv, http.MethodDelete, "/api/asset", `{"ids":["`+aliceAssetID+`"]}`, "x-immich-share-key", linkUpload), 403, "Forbidden resource")
	libNoContent(t, libSend(t, srv, http.MethodDelete, "/api/asset", `{"ids":[]}`, keyAlice))
	libNoContent(t, libSend(t, srv, http.MethodPost, "/api/trash/restore/assets", `{"ids":[]}`, keyAlice))
	assert.Equal(t, everywhere, libWhereSeen(t, srv), "no refused change was made")
}

func TestLibraryDeleteForGood(t *testing.T) {
	srv := newTestServer(t)
	kept := libUpload(t, srv, keyAlice, "kept", "fileCreatedAt", "2026-11-05T09:30:00.000Z")
	gone := libUpload(t, srv, keyAlice, "gone")
	trashedA := libUpload(t, srv, keyAlice, "trashed-a")
	trashedB := libUpload(t, srv, keyAlice, "trashed-b")
	album := createAlbum(t, srv, keyAlice, `{"albumName":"Going","assetIds":["`+gone+`","`+kept+`","`+trashedA+`"]}`)["id"].(string)
	link := createLink(t, srv, keyAlice, `{"type":"INDIVIDUAL","assetIds":["`+gone+`","`+kept+`"]}`)["id"].(string)
	ids := func() []string {
		var out []string
		for _, a := range listAssets(t, srv, keyAlice) {
			out = append(out, a.ID)
		}
		return out
	}
	require.ElementsMatch(t, []string{aliceAssetID, kept, gone, trashedA, trashedB}, ids())

	// With force, an asset goes at once, trashed or not, and every
	// reference to it with it.
	libNoContent(t, libSend(t, srv, http.MethodDelete, "/api/asset", `{"ids":["`+gone+`"],"force":true}`, keyAlice))
	requireError(t, getJSON(t, srv, "/api/asset/"+gone, nil, libKey(keyAlice)...), 400, "Not found or no asset.read access")
	al := libRead(t, srv, "/api/albums/"+album, keyAlice)
	assert.ElementsMatch(t, []string{kept, trashedA}, libIDsIn(al["assets"]))
	assert.Equal(t, kept, al["albumThumbnailAssetId"], "the thumbnail went with it: the next one stored, here also the newest")
	assert.Equal(t, []string{kept}, libIDsIn(libRead(t, srv, "/api/shared-links/"+link, keyAlice)["assets"]))

	// Emptying the trash deletes what is in it, and nothing else.
	libNoContent(t, libSend(t, srv, http.MethodDelete, "/api/asset", `{"ids":["`+trashedA+`","`+trashedB+`"]}`, keyAlice))
	libNoContent(t, libSend(t, srv, http.MethodDelete, "/api/asset", `{"ids":["`+libBobAsset+`"]}`, keyBob))
	assert.EqualValues(t, 1, libRead(t, srv, "/api/albums/"+album, keyAlice)["assetCount"], "the trash is out of the album")
	libNoContent(t, libSend(t, srv, http.MethodPost, "/api/trash/empty", "", keyAlice))
	assert.ElementsMatch(t, []string{aliceAssetID, kept}, ids())
	assert.Equal(t, map[string]any{"images": 0.0, "videos": 0.0, "total": 0.0}, libRead(t, srv, "/api/asset/statistics?isTrashed=true", keyAlice))
	assert.Equal(t, []string{kept}, libIDsIn(libRead(t, srv, "/api/albums/"+album, keyAlice)["assets"]))
	assert.Equal(t, true, libRead(t, srv, "/api/asset/"+libBobAsset, keyBob)["isTrashed"], "another's trash is not emptied")
	libNoContent(t, libSend(t, srv, http.MethodPost, "/api/trash/empty", "", keyAlice))
	assert.ElementsMatch(t, []string{aliceAssetID, kept}, ids(), "an empty trash empties to nothing")

	// Deleting another's for good is refused as trashing it is.
	requireError(t, libSend(t, srv, http.MethodDelete, "/api/asset", `{"ids":["`+kept+`"],"force":true}`, keyBob), 400, "Not found or no asset.delete access")
	assert.Equal(t, kept, libRead(t, srv, "/api/asset/"+kept, keyAlice)["id"])
}

// Seeded libraries: assets placed in time, for the queries that read
// them (random, memory lane, statistics, and the timeline).

// libAsset is an image of the owner for a test dataset, taken at local
// (its localDateTime, which the reference reads as UTC), its file made
// then, with its pictures made.
func libAsset(id, owner, local string, change ...func(a *model.AssetRecord)) model.AssetRecord {
	at, ok := parseLibTime(local)
	if !ok {
		panic("libAsset: bad time " + local)
	}
	a := model.AssetRecord{
		ID: id, OwnerID: owner, DeviceAssetID: "seeded-" + id, DeviceID: "seeded", Type: model.AssetImage,
		OriginalPath: "upload/library/" + owner + "/" + id + ".jpg", OriginalFileName: id + ".jpg",
		Checksum: sha1Base64([]byte(id)), Duration: model.DefaultDuration,
		FileCreatedAt: at, FileModifiedAt: at, LocalDateTime: at, CreatedAt: at, UpdatedAt: at,
		IsVisible: true, Resized: true, ExifInfo: &model.Exif{},
	}
	for _, c := range change {
		c(&a)
	}
	return a
}

func parseLibTime(s string) (model.Time, bool) {
	var t model.Time
	err := json.Unmarshal([]byte(`"`+s+`"`), &t)
	return t, err == nil
}

// The changes libAsset takes.
var (
	libFavorite = func(a *model.AssetRecord) { a.IsFavorite = true }
	libArchived = func(a *model.AssetRecord) { a.IsArchived = true }
	libTrashed  = func(a *model.AssetRecord) { a.IsTrashed = true }
	libHidden   = func(a *model.AssetRecord) { a.IsVisible = false }
	libVideo    = func(a *model.AssetRecord) { a.Type, a.Duration = model.AssetVideo, "0:00:05.000000" }
)

// libSeeded is testDataset with more assets and partnerships.
func libSeeded(assets []model.AssetRecord, partners ...model.PartnerRecord) func() model.Dataset {
	return func() model.Dataset {
		d := testDataset()
		d.Assets = append(d.Assets, assets...)
		d.Partners = append(d.Partners, partners...)
		return d
	}
}

// libID is the n-th seeded id of a kind (a letter of a hex digit).
func libID(kind byte, n int) string {
	return "00000000-0000-4000-8000-0000" + string(kind) + string(kind) + "00" + string(rune('0'+n/10)) + string(rune('0'+n%10)) + "00"
}

func TestLibraryRandomAssets(t *testing.T) {
	var seeded []model.AssetRecord
	pool := []string{aliceAssetID}
	for i := range 4 {
		seeded = append(seeded, libAsset(libID('a', i), aliceID, "2026-0"+string(rune('1'+i))+"-10T10:00:00.000Z"))
		pool = append(pool, libID('a', i))
	}
	seeded = append(seeded,
		libAsset(libID('a', 10), aliceID, "2026-05-10T10:00:00.000Z", libTrashed),
		libAsset(libID('a', 11), aliceID, "2026-05-11T10:00:00.000Z", libHidden))
	srv := newTestServer(t, func(c *Config) { c.Dataset = libSeeded(seeded) })
	random := func(query, key string) []map[string]any {
		return libList(t, srv, "/api/asset/random"+query, key)
	}

	// Any of the caller's visible assets out of the trash, no asset twice.
	for range 10 {
		one := random("", keyAlice)
		require.Len(t, one, 1)
		assert.Contains(t, pool, one[0]["id"])
		assert.Equal(t, aliceID, one[0]["ownerId"])
		assert.Contains(t, one[0], "exifInfo")
		two := libIDs(random("?count=2", keyAlice))
		require.Len(t, two, 2)
		assert.NotEqual(t, two[0], two[1])
		assert.Subset(t, pool, two)
	}
	assert.ElementsMatch(t, pool, libIDs(random("?count=100", keyAlice)), "no more than there are")
	assert.Equal(t, []string{libBobAsset}, libIDs(random("?count=5", keyBob)), "the caller's own only")
	assert.Equal(t, []map[string]any{}, random("?count=3", keyCarol))

	for _, tt := range []struct {
		name, query string
		message     []any
		differs     string
	}{
		{"zero", "?count=0", []any{"count must be a positive number"}, ""},
		{"negative", "?count=-1", []any{"count must be a positive number"}, ""},
		{"not a number", "?count=ABC", []any{"count must be a positive number", "count must be an integer number"}, ""},
		{"a fraction", "?count=1.5", []any{"count must be an integer number"}, ""},
		{"empty", "?count=", []any{"count must be a positive number"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.differs != "" {
				t.Skip("mock differs: " + tt.differs)
			}
			requireError(t, getJSON(t, srv, "/api/asset/random"+tt.query, nil, libKey(keyAlice)...), 400, tt.message)
		})
	}
	requireError(t, getJSON(t, srv, "/api/asset/random", nil), 401, "Authentication required")
	requireError(t, getJSON(t, srv, "/api/asset/random?key="+linkUpload, nil), 403, "Forbidden resource")

	t.Run("archived assets are in the pool", func(t *testing.T) {
		rep := libSend(t, srv, http.MethodPut, "/api/asset/"+pool[1], `{"isArchived":true}`, keyAlice)
		require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
		assert.ElementsMatch(t, pool, libIDs(random("?count=100", keyAlice)))
	})
	t.Run("no owner", func(t *testing.T) {
		assert.NotContains(t, random("", keyAlice)[0], "owner")
	})
}

func TestLibraryMemoryLane(t *testing.T) {
	// testNow is 2026-11-22: the lane of November 22 is the years before.
	seeded := []model.AssetRecord{
		libAsset(libID('a', 1), aliceID, "2025-11-22T08:00:00.000Z", libFavorite),
		libAsset(libID('a', 2), aliceID, "2024-11-22T09:00:00.000Z"),
		libAsset(libID('a', 3), aliceID, "2024-11-22T07:00:00.000Z"),
		libAsset(libID('a', 4), aliceID, "2019-11-22T23:30:00.000Z"),
		libAsset(libID('a', 5), aliceID, "2026-11-22T06:00:00.000Z"),              // this year
		libAsset(libID('a', 6), aliceID, "2020-11-22T10:00:00.000Z", libArchived), // archived
		libAsset(libID('a', 7), aliceID, "2023-11-22T10:00:00.000Z", libTrashed),  // trashed
		libAsset(libID('a', 8), aliceID, "2022-11-22T10:00:00.000Z", libHidden),   // hidden
		libAsset(libID('a', 9), aliceID, "2025-11-23T10:00:00.000Z"),              // another day
		libAsset(libID('a', 10), aliceID, "2025-10-22T10:00:00.000Z"),             // another month
		libAsset(libID('b', 1), bobID, "2023-11-22T10:00:00.000Z", libFavorite),   // a partner's, in her timeline
		libAsset(libID('b', 2), bobID, "2021-11-22T10:00:00.000Z", libArchived),
		libAsset(libID('c', 1), carolID, "2021-11-22T10:00:00.000Z"), // a partner's, not in her timeline
	}
	partners := []model.PartnerRecord{
		{SharedByID: bobID, SharedWithID: aliceID, InTimeline: true, CreatedAt: model.At(testNow())},
		{SharedByID: carolID, SharedWithID: aliceID, CreatedAt: model.At(testNow())},
	}
	srv := newTestServer(t, func(c *Config) { c.Dataset = libSeeded(seeded, partners...) })

	lanes := libList(t, srv, "/api/asset/memory-lane?day=22&month=11", keyAlice)
	type lane struct {
		yearsAgo float64
		title    string
		ids      []string
	}
	var got []lane
	for _, l := range lanes {
		got = append(got, lane{l["yearsAgo"].(float64), l["title"].(string), libIDsIn(l["assets"])})
	}
	assert.Equal(t, []lane{
		{1, "1 year ago", []string{libID('a', 1)}},
		{2, "2 years ago", []string{libID('a', 3), libID('a', 2)}},
		{3, "3 years ago", []string{libID('b', 1)}},
		{7, "7 years ago", []string{libID('a', 4)}},
	}, got, "by years ago; in a year, by localDateTime")
	first := lanes[0]["assets"].([]any)[0].(map[string]any)
	assert.Equal(t, true, first["isFavorite"])
	assert.Contains(t, first, "exifInfo")
	assert.NotContains(t, first, "owner")
	assert.Equal(t, false, lanes[2]["assets"].([]any)[0].(map[string]any)["isFavorite"], "a partner's favourite is not hers")

	assert.Equal(t, []map[string]any{}, libList(t, srv, "/api/asset/memory-lane?day=1&month=1", keyAlice))
	bob := libList(t, srv, "/api/asset/memory-lane?day=22&month=11", keyBob)
	require.Len(t, bob, 1, "Alice shares nothing with Bob")
	assert.Equal(t, []string{libID('b', 1)}, libIDsIn(bob[0]["assets"]))

	// The partner's library leaves the lane with the partnership's
	// inTimeline.
	rep := libSend(t, srv, http.MethodPut, "/api/partners/"+bobID, `{"inTimeline":false}`, keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.Len(t, libList(t, srv, "/api/asset/memory-lane?day=22&month=11", keyAlice), 3)

	// MemoryLaneDto: @IsInt() @Type(() => Number) @Max() @Min(1), the
	// messages as the reference server gives them.
	for _, tt := range []struct {
		name, query string
		message     []any
	}{
		{"neither", "", []any{"day must not be less than 1", "day must not be greater than 31", "day must be an integer number",
			"month must not be less than 1", "month must not be greater than 12", "month must be an integer number"}},
		{"day 0, month 13", "?day=0&month=13", []any{"day must not be less than 1", "month must not be greater than 12"}},
		{"day 32, month 0", "?day=32&month=0", []any{"day must not be greater than 31", "month must not be less than 1"}},
		{"a day not a number", "?day=x&month=1", []any{"day must not be less than 1", "day must not be greater than 31", "day must be an integer number"}},
		{"a fraction", "?day=1.5&month=2", []any{"day must be an integer number"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, getJSON(t, srv, "/api/asset/memory-lane"+tt.query, nil, libKey(keyAlice)...), 400, tt.message)
		})
	}
	requireError(t, getJSON(t, srv, "/api/asset/memory-lane?day=22&month=11", nil), 401, "Authentication required")
}

func TestLibraryAssetStatistics(t *testing.T) {
	// As the upstream's asset spec seeds its statistics user (Carol here),
	// with a hidden asset and one of another type besides.
	seeded := []model.AssetRecord{
		libAsset(libID('c', 1), carolID, "2026-01-01T10:00:00.000Z"),
		libAsset(libID('c', 2), carolID, "2026-01-02T10:00:00.000Z", libFavorite),
		libAsset(libID('c', 3), carolID, "2026-01-03T10:00:00.000Z", libArchived),
		libAsset(libID('c', 4), carolID, "2026-01-04T10:00:00.000Z", libArchived, libFavorite, libVideo),
		libAsset(libID('c', 5), carolID, "2026-01-05T10:00:00.000Z", libHidden),
		libAsset(libID('c', 6), carolID, "2026-01-06T10:00:00.000Z", func(a *model.AssetRecord) { a.Type = model.AssetOther }),
	}
	srv := newTestServer(t, func(c *Config) { c.Dataset = libSeeded(seeded) })
	stats := func(query, key string) map[string]any {
		return libRead(t, srv, "/api/asset/statistics"+query, key)
	}
	for _, tt := range []struct {
		name, query           string
		images, videos, total float64
	}{
		{"all", "", 3, 1, 5},
		{"favourites", "?isFavorite=true", 1, 1, 2},
		{"archived", "?isArchived=true", 1, 1, 2},
		{"archived favourites", "?isFavorite=true&isArchived=true", 0, 1, 1},
		{"neither", "?isFavorite=false&isArchived=false", 1, 0, 2},
		{"trashed", "?isTrashed=true", 0, 0, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, map[string]any{"images": tt.images, "videos": tt.videos, "total": tt.total}, stats(tt.query, keyCarol))
		})
	}
	assert.Equal(t, map[string]any{"images": 1.0, "videos": 0.0, "total": 1.0}, stats("", keyBob), "the caller's own")

	rep := libSend(t, srv, http.MethodDelete, "/api/asset", `{"ids":["`+libID('c', 1)+`","`+libID('c', 4)+`"]}`, keyCarol)
	libNoContent(t, rep)
	assert.Equal(t, map[string]any{"images": 1.0, "videos": 1.0, "total": 2.0}, stats("?isTrashed=true", keyCarol))
	t.Run("the trash is left out unless asked for", func(t *testing.T) {
		assert.Equal(t, map[string]any{"images": 2.0, "videos": 0.0, "total": 3.0}, stats("", keyCarol))
	})

	requireError(t, getJSON(t, srv, "/api/asset/statistics?isArchived=x&isFavorite=y&isTrashed=z", nil, libKey(keyCarol)...), 400,
		[]any{"isArchived must be a boolean value", "isFavorite must be a boolean value", "isTrashed must be a boolean value"})
	requireError(t, getJSON(t, srv, "/api/asset/statistics", nil), 401, "Authentication required")
	requireError(t, getJSON(t, srv, "/api/asset/statistics?key="+linkUpload, nil), 403, "Forbidden resource")
}

// Partners.

// libPartners is GET /api/partners?direction as the user of key.
func libPartners(t *testing.T, srv *httptest.Server, direction, key string) []map[string]any {
	t.Helper()
	return libList(t, srv, "/api/partners?direction="+direction, key)
}

func TestLibraryPartners(t *testing.T) {
	srv := newTestServer(t)
	bob := `{"id":"` + bobID + `","name":"Bob Tanaka","email":"bob@example.com","avatarColor":"blue","profileImagePath":"","inTimeline":%s}`
	alice := `{"id":"` + aliceID + `","name":"Alice Moreau","email":"alice@example.com","avatarColor":"green","profileImagePath":"","inTimeline":%s}`
	jsonOf := func(v any) string {
		b, err := json.Marshal(v)
		require.NoError(t, err)
		return string(b)
	}
	for _, key := range []string{keyAlice, keyBob} {
		assert.Empty(t, libPartners(t, srv, "shared-by", key))
		assert.Empty(t, libPartners(t, srv, "shared-with", key))
	}

	// Alice shares her library with Bob: he is her partner, not in his
	// timeline until he says so.
	rep := libSend(t, srv, http.MethodPost, "/api/partners/"+bobID, "", keyAlice)
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	assert.JSONEq(t, strings.ReplaceAll(bob, "%s", "false"), string(rep.body))
	requireError(t, libSend(t, srv, http.MethodPost, "/api/partners/"+bobID, "", keyAlice), 400, "Partner already exists")
	assert.JSONEq(t, "["+strings.ReplaceAll(bob, "%s", "false")+"]", jsonOf(libPartners(t, srv, "shared-by", keyAlice)))
	assert.Empty(t, libPartners(t, srv, "shared-with", keyAlice))
	assert.JSONEq(t, "["+strings.ReplaceAll(alice, "%s", "false")+"]", jsonOf(libPartners(t, srv, "shared-with", keyBob)))
	assert.Empty(t, libPartners(t, srv, "shared-by", keyBob))

	rep = libSend(t, srv, http.MethodPut, "/api/partners/"+aliceID, `{"inTimeline":true}`, keyBob)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.JSONEq(t, strings.ReplaceAll(alice, "%s", "true"), string(rep.body))
	assert.Equal(t, true, libPartners(t, srv, "shared-with", keyBob)[0]["inTimeline"])
	assert.Equal(t, true, libPartners(t, srv, "shared-by", keyAlice)[0]["inTimeline"])

	for _, tt := range []struct {
		name, method, path, body, key string
		status                        int
		message                       any
		differs                       string
	}{
		{"the sharer sets the timeline", http.MethodPut, "/api/partners/" + bobID, `{"inTimeline":false}`, keyAlice, 400, "Not found or no partner.update access", ""},
		{"no partnership", http.MethodPut, "/api/partners/" + carolID, `{"inTimeline":true}`, keyBob, 400, "Not found or no partner.update access", ""},
		{"no inTimeline", http.MethodPut, "/api/partners/" + aliceID, `{}`, keyBob, 400, []any{"inTimeline should not be empty"}, ""},
		{"a null inTimeline", http.MethodPut, "/api/partners/" + aliceID, `{"inTimeline":null}`, keyBob, 400, []any{"inTimeline should not be empty"}, ""},
		// The reference asks only that it is there; the mock asks for the
		// boolean it stores.
		{"inTimeline not a boolean", http.MethodPut, "/api/partners/" + aliceID, `{"inTimeline":"yes"}`, keyBob, 400, []any{"inTimeline must be a boolean value"}, ""},
		{"the other way round", http.MethodDelete, "/api/partners/" + aliceID, "", keyBob, 400, "Partner not found", ""},
		{"no partnership to remove", http.MethodDelete, "/api/partners/" + carolID, "", keyAlice, 400, "Partner not found", ""},
		{"an id not a UUID", http.MethodPost, "/api/partners/bob", "", keyAlice, 400, []any{"id must be a UUID"}, ""},
		// The reference fails with a 500 (a foreign key) for these.
		{"an unknown user", http.MethodPost, "/api/partners/" + libUnknownID, "", keyAlice, 400, "User not found", ""},
		{"oneself", http.MethodPost, "/api/partners/" + aliceID, "", keyAlice, 400, "User not found", ""},
		{"no credentials", http.MethodPost, "/api/partners/" + carolID, "", "", 401, "Authentication required", ""},
		{"listing, no credentials", http.MethodGet, "/api/partners?direction=shared-by", "", "", 401, "Authentication required", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.differs != "" {
				t.Skip("mock differs: " + tt.differs)
			}
			requireError(t, libSend(t, srv, tt.method, tt.path, tt.body, tt.key), tt.status, tt.message)
		})
	}
	requireError(t, getJSON(t, srv, "/api/partners?direction=shared-by&key="+linkUpload, nil), 403, "Forbidden resource")
	t.Run("a direction that is neither", func(t *testing.T) {
		assert.JSONEq(t, "["+strings.ReplaceAll(alice, "%s", "true")+"]", jsonOf(libPartners(t, srv, "xyz", keyBob)))
	})

	// A partner reads the other's assets: not the archived, not the trashed.
	reads := func() int {
		return getJSON(t, srv, "/api/asset/"+aliceAssetID, nil, libKey(keyBob)...).status
	}
	libEmptyOK(t, libSend(t, srv, http.MethodDelete, "/api/albums/"+testAlbumID+"/user/me", "", keyBob)) // not through the album
	require.Equal(t, http.StatusOK, reads())
	edit := func(body string) {
		t.Helper()
		rep := libSend(t, srv, http.MethodPut, "/api/asset/"+aliceAssetID, body, keyAlice)
		require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	}
	edit(`{"isFavorite":true}`)
	a := libRead(t, srv, "/api/asset/"+aliceAssetID, keyBob)
	assert.Equal(t, false, a["isFavorite"], "her favourite, not his")
	assert.Equal(t, aliceID, a["owner"].(map[string]any)["id"])
	assert.Equal(t, []any{}, a["people"])
	edit(`{"isArchived":true}`)
	requireError(t, getJSON(t, srv, "/api/asset/"+aliceAssetID, nil, libKey(keyBob)...), 400, "Not found or no asset.read access")
	edit(`{"isArchived":false}`)
	assert.Equal(t, http.StatusOK, reads())
	libNoContent(t, libSend(t, srv, http.MethodDelete, "/api/asset", `{"ids":["`+aliceAssetID+`"]}`, keyAlice))
	requireError(t, getJSON(t, srv, "/api/asset/"+aliceAssetID, nil, libKey(keyBob)...), 400, "Not found or no asset.read access")
	libNoContent(t, libSend(t, srv, http.MethodPost, "/api/trash/restore", "", keyAlice))
	assert.Equal(t, http.StatusOK, reads())
	requireError(t, libSend(t, srv, http.MethodPut, "/api/asset/"+aliceAssetID, `{"isFavorite":false}`, keyBob), 400, "Not found or no asset.update access")
	requireError(t, libSend(t, srv, http.MethodDelete, "/api/asset", `{"ids":["`+aliceAssetID+`"]}`, keyBob), 400, "Not found or no asset.delete access")
	// The sharing goes one way.
	requireError(t, getJSON(t, srv, "/api/asset/"+libBobAsset, nil, libKey(keyAlice)...), 400, "Not found or no asset.read access")

	// A partner may take the other's assets out of an album he edits.
	album := createAlbum(t, srv, keyAlice, `{"albumName":"Together","assetIds":["`+aliceAssetID+`"],"albumUsers":[{"userId":"`+bobID+`","role":"editor"}]}`)["id"].(string)
	t.Run("a partner adds the other's asset to an album", func(t *testing.T) {
		other := createAlbum(t, srv, keyBob, `{"albumName":"Bob's"}`)["id"].(string)
		rep := libSend(t, srv, http.MethodPut, "/api/albums/"+other+"/assets", `{"ids":["`+aliceAssetID+`"]}`, keyBob)
		assert.JSONEq(t, `[{"id":"`+aliceAssetID+`","success":true}]`, string(rep.body))
		// Out again: an album of his would let him read it still, once the
		// partnership ends below.
		rep = libSend(t, srv, http.MethodDelete, "/api/albums/"+other+"/assets", `{"ids":["`+aliceAssetID+`"]}`, keyBob)
		assert.JSONEq(t, `[{"id":"`+aliceAssetID+`","success":true}]`, string(rep.body))
	})
	rep = libSend(t, srv, http.MethodDelete, "/api/albums/"+album+"/assets", `{"ids":["`+aliceAssetID+`"]}`, keyBob)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.JSONEq(t, `[{"id":"`+aliceAssetID+`","success":true}]`, string(rep.body))

	// Alice stops sharing: Bob reads her asset no more.
	libEmptyOK(t, libSend(t, srv, http.MethodDelete, "/api/partners/"+bobID, "", keyAlice))
	requireError(t, getJSON(t, srv, "/api/asset/"+aliceAssetID, nil, libKey(keyBob)...), 400, "Not found or no asset.read access")
	assert.Empty(t, libPartners(t, srv, "shared-with", keyBob))
	assert.Empty(t, libPartners(t, srv, "shared-by", keyAlice))
	requireError(t, libSend(t, srv, http.MethodDelete, "/api/partners/"+bobID, "", keyAlice), 400, "Partner not found")
	requireError(t, libSend(t, srv, http.MethodPut, "/api/partners/"+aliceID, `{"inTimeline":true}`, keyBob), 400, "Not found or no partner.update access")
}

func TestLibraryPartnersOfDeletedUsers(t *testing.T) {
	srv := newTestServer(t)
	for _, with := range []string{bobID, carolID} {
		rep := libSend(t, srv, http.MethodPost, "/api/partners/"+with, "", keyAlice)
		require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	}
	rep := libSend(t, srv, http.MethodPost, "/api/partners/"+aliceID, "", keyBob)
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	rep = libSend(t, srv, http.MethodDelete, "/api/admin/users/"+carolID, `{}`, keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)

	// The listing leaves out partnerships with a deleted user, as the
	// upstream's getAll filters them.
	assert.Equal(t, []string{bobID}, libIDs(libPartners(t, srv, "shared-by", keyAlice)))
	assert.Equal(t, []string{bobID}, libIDs(libPartners(t, srv, "shared-with", keyAlice)))
	requireError(t, libSend(t, srv, http.MethodPost, "/api/partners/"+carolID, "", keyBob), 400, "User not found")
}

// People.

func TestLibraryCreatePerson(t *testing.T) {
	srv := newTestServer(t)
	create := func(body string) map[string]any {
		t.Helper()
		rep := libSend(t, srv, http.MethodPost, "/api/people", body, keyAlice)
		require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
		var p map[string]any
		rep.json(t, &p)
		return p
	}
	p := create(`{"name":"New Person","birthDate":"1990-01-01","isHidden":true}`)
	id, _ := p["id"].(string)
	assert.Len(t, id, 36)
	assert.Equal(t, "New Person", p["name"])
	assert.Equal(t, "1990-01-01T00:00:00.000Z", p["birthDate"], "as sent, read as a date")
	assert.Equal(t, true, p["isHidden"])
	assert.Equal(t, "", p["thumbnailPath"])
	assert.Equal(t, aliceID, p["ownerId"])
	assert.Nil(t, p["faceAssetId"])
	assert.Equal(t, p["createdAt"], p["updatedAt"])

	p = create(`{}`)
	assert.Equal(t, "", p["name"])
	assert.Nil(t, p["birthDate"])
	assert.Equal(t, false, p["isHidden"])
	assert.NotEqual(t, id, p["id"])
	assert.Nil(t, create(`{"birthDate":null}`)["birthDate"])
	assert.Equal(t, "2026-11-22T00:00:00.000Z", create(`{"birthDate":"2026-11-22"}`)["birthDate"], "today is no future")

	for _, tt := range []struct {
		name, body string
		message    any
	}{
		// The upstream's person spec and the reference server: a date
		// that is no date is one message; the future is a list of one.
		{"a birth date of false", `{"birthDate":"false"}`, "birthDate must be a date string"},
		{"a birth date of digits", `{"birthDate":"123567"}`, "birthDate must be a date string"},
		{"a birth date as a number", `{"birthDate":123567}`, "birthDate must be a date string"},
		{"an empty birth date", `{"birthDate":""}`, "birthDate must be a date string"},
		{"a birth date in the future", `{"birthDate":"9999-01-01T00:00:00.000Z"}`, []any{"Birth date cannot be in the future"}},
		{"tomorrow", `{"birthDate":"2026-11-23T12:00:00.000Z"}`, []any{"Birth date cannot be in the future"}},
		{"members of the wrong kind", `{"name":5,"isHidden":"x"}`, []any{"name must be a string", "isHidden must be a boolean value"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, libSend(t, srv, http.MethodPost, "/api/people", tt.body, keyAlice), 400, tt.message)
		})
	}
	requireError(t, libSend(t, srv, http.MethodPost, "/api/people", `{}`, ""), 401, "Authentication required")
	requireError(t, sendJSON(t, srv, http.MethodPost, "/api/people", `{}`, "x-immich-share-key", linkUpload), 403, "Forbidden resource")

	t.Run("the birth date as sent", func(t *testing.T) {
		assert.Equal(t, "1990-01-01T05:00:00.000Z", create(`{"name":"New Person","birthDate":"1990-01-01T05:00:00.000Z"}`)["birthDate"])
	})
}

func TestLibraryAlbumOfADeletedUser(t *testing.T) {
	srv := newTestServer(t)
	id := createAlbum(t, srv, keyAlice, `{"albumName":"With Carol","albumUsers":[{"userId":"`+carolID+`","role":"viewer"}]}`)["id"].(string)
	rep := libSend(t, srv, http.MethodDelete, "/api/admin/users/"+carolID, `{}`, keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	al := libRead(t, srv, "/api/albums/"+id, keyAlice)
	assert.Equal(t, []any{}, al["albumUsers"], "a deleted user is left out")
	t.Run("shared as its users left show it", func(t *testing.T) {
		assert.Equal(t, false, al["shared"])
	})
}
