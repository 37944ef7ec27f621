package api

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/internal/store/storetest"
	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/spec"
)

// createTag posts a tag as key, and reads it.
func createTag(t *testing.T, srv *httptest.Server, key, name string) model.Tag {
	t.Helper()
	rep := postJSON(t, srv, "/api/tags", `{"name":"`+name+`","type":"CUSTOM"}`, "x-api-key", key)
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var tag model.Tag
	rep.json(t, &tag)
	return tag
}

// tagResults sends assetIds to a tag's assets with method as key.
func tagResults(t *testing.T, srv *httptest.Server, method, key, tagID string, ids ...string) []model.AssetIDResult {
	t.Helper()
	rep := sendJSON(t, srv, method, "/api/tags/"+tagID+"/assets", `{"assetIds":["`+strings.Join(ids, `","`)+`"]}`, "x-api-key", key)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	var out []model.AssetIDResult
	rep.json(t, &out)
	return out
}

// tagNamesOf is the names of the tags GET /api/asset/{id} shows.
func tagNamesOf(t *testing.T, srv *httptest.Server, key, assetID string) []string {
	t.Helper()
	var a model.Asset
	rep := getJSON(t, srv, "/api/asset/"+assetID, &a, "x-api-key", key)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	names := []string{}
	for _, tag := range a.Tags {
		names = append(names, tag.Name)
	}
	return names
}

func TestTagBodiesAreJudgedAsTheReference(t *testing.T) {
	srv := memoryServer(t)
	for _, tt := range []struct {
		name, body string
		message    any
	}{
		{"nothing", `{}`, []string{"name should not be empty", "name must be a string", "type should not be empty", "type must be one of the following values: OBJECT, FACE, CUSTOM"}},
		{"empty", `{"name":"","type":"x"}`, []string{"name should not be empty", "type must be one of the following values: OBJECT, FACE, CUSTOM"}},
		{"a number, null", `{"name":5,"type":null}`, []string{"name must be a string", "type should not be empty", "type must be one of the following values: OBJECT, FACE, CUSTOM"}},
		{"too long", `{"name":"` + strings.Repeat("a", 1025) + `","type":"CUSTOM"}`, []string{"name must be shorter than or equal to 1024 characters"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, postJSON(t, srv, "/api/tags", tt.body, "x-api-key", keyAlice), http.StatusBadRequest, tt.message)
		})
	}
	tag := createTag(t, srv, keyAlice, "beach")
	requireError(t, sendJSON(t, srv, http.MethodPatch, "/api/tags/"+tag.ID, `{"name":null}`, "x-api-key", keyAlice), http.StatusBadRequest, []string{"name must be a string"})
	requireError(t, sendJSON(t, srv, http.MethodPut, "/api/tags/"+tag.ID+"/assets", `{}`, "x-api-key", keyAlice), http.StatusBadRequest,
		[]string{"each value in assetIds must be a UUID", "assetIds should not be empty", "assetIds must be an array"})
	requireError(t, getJSON(t, srv, "/api/tags/abc", nil, "x-api-key", keyAlice), http.StatusBadRequest, []string{"id must be a UUID"})
}

func TestTags(t *testing.T) {
	srv := memoryServer(t)
	rep := postJSON(t, srv, "/api/tags", `{"name":"beach","type":"CUSTOM"}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var beach model.Tag
	rep.json(t, &beach)
	assert.Equal(t, model.Tag{ID: beach.ID, Name: "beach", Type: "CUSTOM", UserID: aliceID}, beach)
	requireError(t, postJSON(t, srv, "/api/tags", `{"name":"beach","type":"OBJECT"}`, "x-api-key", keyAlice), http.StatusBadRequest, "A tag with that name already exists")
	upper := createTag(t, srv, keyAlice, "BEACH")
	bobs := createTag(t, srv, keyBob, "beach")

	var list []model.Tag
	getJSON(t, srv, "/api/tags", &list, "x-api-key", keyAlice)
	assert.Equal(t, []model.Tag{beach, upper}, list, "the caller's, in the order made")
	getJSON(t, srv, "/api/tags", &list, "x-api-key", keyCarol)
	assert.Empty(t, list)

	var got model.Tag
	getJSON(t, srv, "/api/tags/"+beach.ID, &got, "x-api-key", keyAlice)
	assert.Equal(t, beach, got)
	for _, tt := range []struct{ method, path, body string }{
		{http.MethodGet, "", ""},
		{http.MethodPatch, "", `{"name":"x"}`},
		{http.MethodDelete, "", ""},
		{http.MethodGet, "/assets", ""},
		{http.MethodPut, "/assets", `{"assetIds":["` + aliceAssetID + `"]}`},
		{http.MethodDelete, "/assets", `{"assetIds":["` + aliceAssetID + `"]}`},
	} {
		requireError(t, sendJSON(t, srv, tt.method, "/api/tags/"+bobs.ID+tt.path, tt.body, "x-api-key", keyAlice), http.StatusBadRequest, "Tag not found")
	}

	// Renamed: as it is with no name; refused with the name of another.
	same := sendJSON(t, srv, http.MethodPatch, "/api/tags/"+beach.ID, `{}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusOK, same.status, "%s", same.body)
	same.json(t, &got)
	assert.Equal(t, beach, got)
	requireError(t, sendJSON(t, srv, http.MethodPatch, "/api/tags/"+beach.ID, `{"name":"BEACH"}`, "x-api-key", keyAlice), http.StatusBadRequest, "A tag with that name already exists")
	assert.Equal(t, []model.AssetIDResult{{AssetID: aliceAssetID, Success: true}}, tagResults(t, srv, http.MethodPut, keyAlice, beach.ID, aliceAssetID))
	renamed := sendJSON(t, srv, http.MethodPatch, "/api/tags/"+beach.ID, `{"name":"seaside"}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusOK, renamed.status, "%s", renamed.body)
	assert.Equal(t, []string{"seaside"}, tagNamesOf(t, srv, keyAlice, aliceAssetID), "the asset shows it renamed")

	del := do(t, newRequest(t, http.MethodDelete, srv.URL+"/api/tags/"+beach.ID, nil, "x-api-key", keyAlice))
	assert.Equal(t, http.StatusOK, del.status)
	assert.Empty(t, del.body)
	assert.Empty(t, del.header.Get("Content-Type"))
	assert.Equal(t, []string{}, tagNamesOf(t, srv, keyAlice, aliceAssetID), "off the asset")
	requireError(t, getJSON(t, srv, "/api/tags/"+beach.ID, nil, "x-api-key", keyAlice), http.StatusBadRequest, "Tag not found")
	assert.NotContains(t, datasetOf(t, srv), beach.ID)
}

func TestTagAssets(t *testing.T) {
	srv := memoryServer(t)
	tag := createTag(t, srv, keyAlice, "family")
	nobody := "00000000-0000-4000-8000-000000000000"
	assert.Equal(t, []model.AssetIDResult{
		{AssetID: storetest.LooseID, Success: true},
		{AssetID: aliceAssetID, Success: true},
		{AssetID: storetest.LooseID, Success: true},
		{AssetID: storetest.TrashedID, Error: "not_found"},
		{AssetID: storetest.BobAssetID, Error: "no_permission"},
		{AssetID: nobody, Error: "no_permission"},
	}, tagResults(t, srv, http.MethodPut, keyAlice, tag.ID, storetest.LooseID, aliceAssetID, strings.ToUpper(storetest.LooseID), storetest.TrashedID, storetest.BobAssetID, nobody),
		"an id given twice is a success twice, as on the reference")
	assert.Equal(t, []model.AssetIDResult{{AssetID: aliceAssetID, Error: "duplicate"}}, tagResults(t, srv, http.MethodPut, keyAlice, tag.ID, aliceAssetID))
	assert.Equal(t, []string{"family"}, tagNamesOf(t, srv, keyAlice, storetest.LooseID))

	listed := func() []string {
		var out []model.Asset
		rep := getJSON(t, srv, "/api/tags/"+tag.ID+"/assets", &out, "x-api-key", keyAlice)
		require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
		for _, a := range out {
			require.Len(t, a.Tags, 1, "with its tags")
		}
		return idsOfAssets(out)
	}
	assert.Equal(t, []string{aliceAssetID, storetest.LooseID}, listed(), "the oldest made first, whatever the order tagged")

	// The trash hides it, and keeps its tag; deleted for good, it is gone.
	trash := sendJSON(t, srv, http.MethodDelete, "/api/asset", `{"ids":["`+storetest.LooseID+`"]}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusNoContent, trash.status, "%s", trash.body)
	assert.Equal(t, []string{aliceAssetID}, listed())
	assert.Equal(t, []model.AssetIDResult{{AssetID: storetest.LooseID, Error: "not_found"}}, tagResults(t, srv, http.MethodDelete, keyAlice, tag.ID, storetest.LooseID))
	restore := sendJSON(t, srv, http.MethodPost, "/api/trash/restore/assets", `{"ids":["`+storetest.LooseID+`"]}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusNoContent, restore.status, "%s", restore.body)
	assert.Equal(t, []string{aliceAssetID, storetest.LooseID}, listed(), "restored with its tag")
	gone := sendJSON(t, srv, http.MethodDelete, "/api/asset", `{"ids":["`+storetest.LooseID+`"],"force":true}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusNoContent, gone.status, "%s", gone.body)
	assert.Equal(t, []string{aliceAssetID}, listed())

	assert.Equal(t, []model.AssetIDResult{
		{AssetID: aliceAssetID, Success: true},
		{AssetID: aliceAssetID, Success: true},
		{AssetID: storetest.ArchivedID, Error: "not_found"},
	}, tagResults(t, srv, http.MethodDelete, keyAlice, tag.ID, aliceAssetID, aliceAssetID, storetest.ArchivedID))
	assert.Equal(t, []string{}, listed())
	assert.Equal(t, []string{}, tagNamesOf(t, srv, keyAlice, aliceAssetID))
}

func TestTagAssetsInBothShapes(t *testing.T) {
	for _, reference := range []bool{false, true} {
		srv := newTestServer(t, func(c *Config) { c.Dataset = answersDataset; c.ReferenceShapes = reference })
		var out []model.Asset
		rep := getJSON(t, srv, "/api/tags/"+tagID+"/assets", &out, "x-api-key", keyAlice)
		require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
		require.Len(t, out, 1)
		a := out[0]
		assert.NotNil(t, a.ExifInfo)
		assert.Equal(t, []model.Tag{{ID: tagID, Name: "beach", Type: model.TagObject, UserID: aliceID}}, a.Tags)
		assert.NotEmpty(t, a.People, "the people of its faces")
		assert.Equal(t, !reference, a.Owner != nil, "the owner only in the mock's own shapes")
		if reference {
			assert.Nil(t, a.SmartInfo, "the reference loads tags, not smartInfo")
		}
	}
}

// TestMemoryAndTagAnswersValidate checks every kind of answer of the
// memories and tags against our document.
func TestMemoryAndTagAnswersValidate(t *testing.T) {
	v := loadValidators(t)
	srv := memoryServer(t)
	m := createMemory(t, srv, keyAlice, "2021-01-01", aliceAssetID)
	tag := createTag(t, srv, keyAlice, "validated")
	alice := []string{"x-api-key", keyAlice}
	for _, tt := range []struct {
		name, method, path, body string
		status                   int
	}{
		{"memories", "GET", "/api/memories", "", 200},
		{"new memory", "POST", "/api/memories", `{"type":"on_this_day","data":{"year":1},"memoryAt":"2021-01-01","seenAt":"2021-01-02"}`, 201},
		{"new memory refused", "POST", "/api/memories", `{}`, 400},
		{"memory", "GET", "/api/memories/" + m.ID, "", 200},
		{"memory changed", "PUT", "/api/memories/" + m.ID, `{"seenAt":null,"isSaved":true}`, 200},
		{"memory assets added", "PUT", "/api/memories/" + m.ID + "/assets", `{"ids":["` + aliceAssetID + `","` + storetest.LooseID + `"]}`, 200},
		{"memory assets taken out", "DELETE", "/api/memories/" + m.ID + "/assets", `{"ids":["` + storetest.LooseID + `","` + storetest.BobAssetID + `"]}`, 200},
		{"tags", "GET", "/api/tags", "", 200},
		{"new tag", "POST", "/api/tags", `{"name":"v","type":"FACE"}`, 201},
		{"tag", "GET", "/api/tags/" + tag.ID, "", 200},
		{"tag renamed", "PATCH", "/api/tags/" + tag.ID, `{"name":"w"}`, 200},
		{"tag assets added", "PUT", "/api/tags/" + tag.ID + "/assets", `{"assetIds":["` + aliceAssetID + `","` + storetest.BobAssetID + `"]}`, 200},
		{"tag assets", "GET", "/api/tags/" + tag.ID + "/assets", "", 200},
		{"tag assets taken off", "DELETE", "/api/tags/" + tag.ID + "/assets", `{"assetIds":["` + aliceAssetID + `","` + storetest.LooseID + `"]}`, 200},
		{"tag deleted", "DELETE", "/api/tags/" + tag.ID, "", 200},
		{"tag gone", "GET", "/api/tags/" + tag.ID, "", 400},
		{"memory deleted", "DELETE", "/api/memories/" + m.ID, "", 204},
		{"memory gone", "GET", "/api/memories/" + m.ID, "", 400},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRequest(t, tt.method, srv.URL+tt.path, strings.NewReader(tt.body), append([]string{"Content-Type", "application/json"}, alice...)...)
			rep := do(t, r)
			require.Equal(t, tt.status, rep.status, "body: %s", rep.body)
			resp := spec.Response{Status: rep.status, Header: rep.header, Body: rep.body}
			requireValid(t, "openapi/openapi.yaml", v.ours.ValidateResponse(t.Context(), r, resp), r, rep)
		})
	}
}
