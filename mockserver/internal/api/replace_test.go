package api

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// replaceRequest is PUT /api/asset/{id}/file with f, as key ("" for none).
func replaceRequest(t *testing.T, srv *httptest.Server, id string, f form, key string) *http.Request {
	t.Helper()
	body, ct := f.encode(t)
	r := newRequest(t, http.MethodPut, srv.URL+"/api/asset/"+id+"/file", bytes.NewReader(body), "Content-Type", ct)
	if key != "" {
		r.Header.Set("x-api-key", key)
	}
	return r
}

// replaced sends a replacement and reads its answer, which must have status 200.
func replaced(t *testing.T, srv *httptest.Server, id string, f form, key string) (status, answerID string) {
	t.Helper()
	rep := do(t, replaceRequest(t, srv, id, f, key))
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.Equal(t, []string{"status", "id"}, keyOrder(t, rep.body))
	var out struct{ Status, ID string }
	rep.json(t, &out)
	return out.Status, out.ID
}

func TestReplaceAsset(t *testing.T) {
	srv := newTestServer(t, func(c *Config) { c.MediaDir = t.TempDir() })
	id := uploadAsset(t, srv, keyAlice, "the first file")
	require.Equal(t, http.StatusOK, sendJSON(t, srv, http.MethodPut, "/api/asset/"+id, `{"isFavorite":true}`, "x-api-key", keyAlice).status)
	album := createAlbum(t, srv, keyAlice, `{"albumName":"Kept","assetIds":["`+id+`"]}`)["id"].(string)

	next := validForm("the second file").with("deviceAssetId", "second-1").with("deviceId", "tablet").
		with("fileCreatedAt", "2020-01-02T03:04:05.000Z").with("isFavorite", "maybe")
	next.files[0].filename = "SECOND.jpg"
	status, copyID := replaced(t, srv, id, next, keyAlice)
	assert.Equal(t, "replaced", status)
	assert.NotEqual(t, id, copyID, "the answer names the copy")

	var a, c model.Asset
	require.Equal(t, http.StatusOK, getJSON(t, srv, "/api/asset/"+id, &a, "x-api-key", keyAlice).status)
	assert.Equal(t, "SECOND.jpg", a.OriginalFileName)
	assert.Equal(t, sha1Base64([]byte("the second file")), a.Checksum)
	assert.Equal(t, "second-1", a.DeviceAssetID)
	assert.Equal(t, "tablet", a.DeviceID)
	assert.Equal(t, "2020-01-02T03:04:05.000Z", a.FileCreatedAt.Format("2006-01-02T15:04:05.000Z"))
	assert.True(t, a.IsFavorite, "the asset keeps its flags")
	assert.False(t, a.IsTrashed)
	require.Equal(t, http.StatusOK, getJSON(t, srv, "/api/asset/"+copyID, &c, "x-api-key", keyAlice).status)
	assert.Equal(t, "PXL_20261101_093000000.jpg", c.OriginalFileName)
	assert.Equal(t, sha1Base64([]byte("the first file")), c.Checksum)
	assert.True(t, c.IsTrashed, "the copy is in the trash")
	assert.False(t, c.IsFavorite)

	original := func(id string) string {
		rep := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/file/"+id, nil, "x-api-key", keyAlice))
		require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
		return string(rep.body)
	}
	assert.Equal(t, "the second file", original(id))
	assert.Equal(t, "the first file", original(copyID), "the copy keeps the old file")
	var al model.Album
	require.Equal(t, http.StatusOK, getJSON(t, srv, "/api/albums/"+album, &al, "x-api-key", keyAlice).status)
	require.Len(t, al.Assets, 1)
	assert.Equal(t, id, al.Assets[0].ID, "the album keeps the asset")

	// A file the owner holds already: a duplicate, and nothing changes.
	status, dup := replaced(t, srv, id, validForm("the first file"), keyAlice)
	assert.Equal(t, []string{"duplicate", copyID}, []string{status, dup}, "the trashed copy's file")
	status, dup = replaced(t, srv, id, validForm("the second file"), keyAlice)
	assert.Equal(t, []string{"duplicate", id}, []string{status, dup}, "its own file")
	var again model.Asset
	getJSON(t, srv, "/api/asset/"+id, &again, "x-api-key", keyAlice)
	assert.Equal(t, a.DeviceAssetID, again.DeviceAssetID, "a duplicate changes nothing")

	// The trashed copy may be replaced too; the copy of the copy is trashed.
	status, _ = replaced(t, srv, copyID, validForm("a third file"), keyAlice)
	assert.Equal(t, "replaced", status)
}

func TestReplaceAssetRefusals(t *testing.T) {
	srv := newTestServer(t)
	id := uploadAsset(t, srv, keyAlice, "mine")
	fields := []any{"deviceAssetId must be a string", "deviceAssetId should not be empty", "deviceId must be a string", "deviceId should not be empty",
		"fileCreatedAt must be a Date instance", "fileCreatedAt should not be empty", "fileModifiedAt must be a Date instance", "fileModifiedAt should not be empty"}
	for _, tt := range []struct {
		name    string
		req     *http.Request
		status  int
		message any
	}{
		{"another's asset", replaceRequest(t, srv, id, validForm("x"), keyBob), 400, "Not found or no asset.update access"},
		{"no asset", replaceRequest(t, srv, "00000000-0000-4000-8000-00000000dead", validForm("x"), keyAlice), 400, "Not found or no asset.update access"},
		{"a link's holder", func() *http.Request {
			r := replaceRequest(t, srv, id, validForm("x"), "")
			r.Header.Set("x-immich-share-key", linkUpload)
			return r
		}(), 400, "Not found or no asset.update access"},
		{"no file", replaceRequest(t, srv, id, validForm("x").onlyFields(), keyAlice), 400, "File is required"},
		{"a sidecar only", replaceRequest(t, srv, id, form{fields: validForm("x").fields, files: []formFile{{"sidecarData", "a.xmp", "<x/>"}}}, keyAlice), 400, "Field(s) assetData should not be empty"},
		{"no fields, the fields first", replaceRequest(t, srv, id, validForm("x").onlyFiles(), keyAlice), 400, fields},
		{"not multipart", newRequest(t, http.MethodPut, srv.URL+"/api/asset/"+id+"/file", bytes.NewReader([]byte(`{}`)), "Content-Type", "application/json", "x-api-key", keyAlice), 400, fields},
		{"a bad date", replaceRequest(t, srv, id, validForm("x").with("fileCreatedAt", "nope"), keyAlice), 400, "fileCreatedAt must be a date string"},
		{"a file of no media kind", replaceRequest(t, srv, id, form{fields: validForm("x").fields, files: []formFile{{"assetData", "notes.txt", "x"}}}, keyAlice), 400, "Unsupported file type notes.txt"},
		{"not a UUID", replaceRequest(t, srv, "abc", validForm("x"), keyAlice), 400, []any{"id must be a UUID"}},
		// The reference judges the fields, then the path's id, then the files.
		{"not a UUID, no fields", replaceRequest(t, srv, "abc", validForm("x").onlyFiles(), keyAlice), 400, fields},
		{"not a UUID, no file", replaceRequest(t, srv, "abc", validForm("x").onlyFields(), keyAlice), 400, []any{"id must be a UUID"}},
		{"not a UUID, no credentials", replaceRequest(t, srv, "abc", validForm("x").onlyFiles(), ""), 401, "Authentication required"},
		{"no credentials", replaceRequest(t, srv, id, validForm("x"), ""), 401, "Authentication required"},
		{"another's asset, whoever's quota", replaceRequest(t, srv, id, validForm(string(make([]byte, 4096))), keyCarol), 400, "Not found or no asset.update access"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, do(t, tt.req), tt.status, tt.message)
		})
	}
	var a model.Asset
	getJSON(t, srv, "/api/asset/"+id, &a, "x-api-key", keyAlice)
	assert.Equal(t, sha1Base64([]byte("mine")), a.Checksum, "nothing refused changed the asset")
}

func TestReplaceAssetQuota(t *testing.T) {
	srv := newTestServer(t)
	carolsID := uploadAsset(t, srv, keyCarol, "small")
	rep := do(t, replaceRequest(t, srv, carolsID, validForm(string(make([]byte, 4096))), keyCarol))
	requireError(t, rep, 400, "Quota has been exceeded!")
	var a model.Asset
	require.Equal(t, http.StatusOK, getJSON(t, srv, "/api/asset/"+carolsID, &a, "x-api-key", keyCarol).status)
	assert.Equal(t, sha1Base64([]byte("small")), a.Checksum, "over the quota, nothing changes")
}
