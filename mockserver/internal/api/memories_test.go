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
)

// memoryServer is a mock of the downloads' dataset: Alice with assets in
// the trash and the archive, Bob sharing his library with her.
func memoryServer(t *testing.T, opts ...func(*Config)) *httptest.Server {
	t.Helper()
	return newTestServer(t, append([]func(*Config){func(c *Config) { c.Dataset = storetest.DownloadsDataset }}, opts...)...)
}

// createMemory posts a memory of year with assetIds as key, and reads it.
func createMemory(t *testing.T, srv *httptest.Server, key, memoryAt string, assetIDs ...string) model.Memory {
	t.Helper()
	ids := `[]`
	if len(assetIDs) > 0 {
		ids = `["` + strings.Join(assetIDs, `","`) + `"]`
	}
	rep := postJSON(t, srv, "/api/memories", `{"type":"on_this_day","data":{"year":2021},"memoryAt":"`+memoryAt+`","assetIds":`+ids+`}`, "x-api-key", key)
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var m model.Memory
	rep.json(t, &m)
	return m
}

// memoryOf reads a memory as key.
func memoryOf(t *testing.T, srv *httptest.Server, key, id string) model.Memory {
	t.Helper()
	var m model.Memory
	rep := getJSON(t, srv, "/api/memories/"+id, &m, "x-api-key", key)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	return m
}

func idsOfAssets(assets []model.Asset) []string {
	out := []string{}
	for _, a := range assets {
		out = append(out, a.ID)
	}
	return out
}

func TestMemoryBodiesAreJudgedAsTheReference(t *testing.T) {
	srv := memoryServer(t)
	for _, tt := range []struct {
		name, body string
		message    any
	}{
		{"nothing", `{}`, []string{"type must be one of the following values: on_this_day", "data must be an object", "memoryAt must be a Date instance", "memoryAt should not be empty"}},
		{"no year", `{"type":"on_this_day","data":{},"memoryAt":"2021-01-01"}`, []string{"data.year must be a positive number", "data.year must be an integer number"}},
		{"a year of text", `{"type":"on_this_day","data":{"year":"2021"},"memoryAt":"2021-01-01"}`, []string{"data.year must be a positive number", "data.year must be an integer number"}},
		{"a fraction", `{"type":"on_this_day","data":{"year":1.5},"memoryAt":"2021-01-01"}`, []string{"data.year must be an integer number"}},
		{"past the mock's bound", `{"type":"on_this_day","data":{"year":1e300},"memoryAt":"2021-01-01"}`, []string{"data.year must not be greater than 9007199254740991"}},
		{"another type: its data is not judged", `{"type":"foo","data":{"year":-1},"memoryAt":"2021-01-01"}`, []string{"type must be one of the following values: on_this_day"}},
		{"data no object", `{"type":"on_this_day","data":"x","memoryAt":"2021-01-01"}`, []string{"data must be an object", "nested property data must be either object or array"}},
		{"data a list", `{"type":"on_this_day","data":[],"memoryAt":"2021-01-01"}`, []string{"data must be an object"}},
		{"nulls", `{"type":"on_this_day","data":null,"memoryAt":"2021-01-01","isSaved":"x","assetIds":null}`, []string{"data must be an object", "nested property data must be either object or array", "each value in assetIds must be a UUID", "assetIds must be an array", "isSaved must be a boolean value"}},
		{"no date", `{"type":"foo","memoryAt":"x"}`, "memoryAt must be a date string"},
		{"seenAt no date", `{"type":"on_this_day","data":{"year":1},"memoryAt":"2021-01-01","seenAt":"y"}`, "seenAt must be a date string"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, postJSON(t, srv, "/api/memories", tt.body, "x-api-key", keyAlice), http.StatusBadRequest, tt.message)
		})
	}
	m := createMemory(t, srv, keyAlice, "2021-01-01")
	for _, tt := range []struct {
		name, body string
		message    any
	}{
		{"isSaved", `{"isSaved":"yes"}`, []string{"isSaved must be a boolean value"}},
		{"isSaved null", `{"isSaved":null}`, []string{"isSaved must be a boolean value"}},
		{"seenAt", `{"seenAt":"x"}`, "seenAt must be a date string"},
		{"memoryAt null: the mock's rule", `{"memoryAt":null}`, []string{"memoryAt should not be empty"}},
	} {
		t.Run("update "+tt.name, func(t *testing.T) {
			requireError(t, sendJSON(t, srv, http.MethodPut, "/api/memories/"+m.ID, tt.body, "x-api-key", keyAlice), http.StatusBadRequest, tt.message)
		})
	}
	requireError(t, getJSON(t, srv, "/api/memories/abc", nil, "x-api-key", keyAlice), http.StatusBadRequest, []string{"id must be a UUID"})
	requireError(t, sendJSON(t, srv, http.MethodPut, "/api/memories/"+m.ID+"/assets", `{}`, "x-api-key", keyAlice), http.StatusBadRequest,
		[]string{"each value in ids must be a UUID", "ids should not be empty", "ids must be an array"})
}

func TestMemories(t *testing.T) {
	srv := memoryServer(t)
	var none []model.Memory
	getJSON(t, srv, "/api/memories", &none, "x-api-key", keyAlice)
	assert.Empty(t, none)

	rep := postJSON(t, srv, "/api/memories", `{"type":"on_this_day","data":{"year":2021,"extra":1},"memoryAt":"2021-05-03T10:00:00.123456Z","isSaved":"true","seenAt":"2022-02-02","assetIds":["`+
		strings.Join([]string{aliceAssetID, storetest.TrashedID, storetest.ArchivedID, storetest.BobAssetID, storetest.BobArchivedID, storetest.BobTrashedID, aliceAssetID, "00000000-0000-4000-8000-000000000000"}, `","`)+`"]}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	assert.Equal(t, []string{"id", "createdAt", "updatedAt", "deletedAt", "memoryAt", "seenAt", "ownerId", "type", "data", "isSaved", "assets"}, keyOrder(t, rep.body), "the reference's keys, in its order")
	assert.Contains(t, string(rep.body), `"data":{"year":2021},`, "unknown members of data are dropped")
	assert.Contains(t, string(rep.body), `"deletedAt":null,"memoryAt":"2021-05-03T10:00:00.123Z","seenAt":"2022-02-02T00:00:00.000Z"`)
	var m model.Memory
	rep.json(t, &m)
	assert.Equal(t, aliceID, m.OwnerID)
	assert.True(t, m.IsSaved)
	assert.Equal(t, []string{aliceAssetID, storetest.ArchivedID, storetest.BobAssetID}, idsOfAssets(m.Assets),
		"the caller's own (the trashed one kept out of sight) and a partner's out of the archive and the trash")
	assert.Equal(t, m, memoryOf(t, srv, keyAlice, m.ID))

	// Only the owner reads, changes or deletes it.
	requireError(t, getJSON(t, srv, "/api/memories/"+m.ID, nil, "x-api-key", keyBob), http.StatusBadRequest, "Not found or no memory.read access")
	requireError(t, getJSON(t, srv, "/api/memories/00000000-0000-4000-8000-000000000000", nil, "x-api-key", keyAlice), http.StatusBadRequest, "Not found or no memory.read access")
	requireError(t, sendJSON(t, srv, http.MethodPut, "/api/memories/"+m.ID, `{"isSaved":false}`, "x-api-key", keyBob), http.StatusBadRequest, "Not found or no memory.write access")
	requireError(t, sendJSON(t, srv, http.MethodDelete, "/api/memories/"+m.ID, ``, "x-api-key", keyBob), http.StatusBadRequest, "Not found or no memory.delete access")
	getJSON(t, srv, "/api/memories", &none, "x-api-key", keyBob)
	assert.Empty(t, none, "Bob has none")

	// A change that changes nothing leaves updatedAt; one that does moves it.
	same := sendJSON(t, srv, http.MethodPut, "/api/memories/"+m.ID, `{"isSaved":true}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusOK, same.status, "%s", same.body)
	var got model.Memory
	same.json(t, &got)
	assert.Equal(t, m.UpdatedAt, got.UpdatedAt)
	changed := sendJSON(t, srv, http.MethodPut, "/api/memories/"+m.ID, `{"isSaved":false,"seenAt":null,"memoryAt":"2020-01-01"}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusOK, changed.status, "%s", changed.body)
	changed.json(t, &got)
	assert.True(t, got.UpdatedAt.After(m.UpdatedAt.Time))
	assert.False(t, got.IsSaved)
	assert.Nil(t, got.SeenAt)
	assert.Equal(t, "2020-01-01T00:00:00Z", got.MemoryAt.Format("2006-01-02T15:04:05Z07:00"))

	// The listing: the latest memoryAt first.
	later := createMemory(t, srv, keyAlice, "2024-01-01")
	earlier := createMemory(t, srv, keyAlice, "2019-01-01")
	var all []model.Memory
	getJSON(t, srv, "/api/memories", &all, "x-api-key", keyAlice)
	var order []string
	for _, o := range all {
		order = append(order, o.ID)
	}
	assert.Equal(t, []string{later.ID, m.ID, earlier.ID}, order)

	del := sendJSON(t, srv, http.MethodDelete, "/api/memories/"+m.ID, ``, "x-api-key", keyAlice)
	assert.Equal(t, http.StatusNoContent, del.status)
	requireError(t, sendJSON(t, srv, http.MethodDelete, "/api/memories/"+m.ID, ``, "x-api-key", keyAlice), http.StatusBadRequest, "Not found or no memory.delete access")
}

func TestMemoryAssets(t *testing.T) {
	srv := memoryServer(t)
	m := createMemory(t, srv, keyAlice, "2021-01-01", aliceAssetID)
	results := func(rep reply) []model.BulkIDResult {
		t.Helper()
		require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
		var out []model.BulkIDResult
		rep.json(t, &out)
		return out
	}
	put := func(key string, ids ...string) reply {
		return sendJSON(t, srv, http.MethodPut, "/api/memories/"+m.ID+"/assets", `{"ids":["`+strings.Join(ids, `","`)+`"]}`, "x-api-key", key)
	}
	remove := func(key string, ids ...string) reply {
		return sendJSON(t, srv, http.MethodDelete, "/api/memories/"+m.ID+"/assets", `{"ids":["`+strings.Join(ids, `","`)+`"]}`, "x-api-key", key)
	}
	nobody := "00000000-0000-4000-8000-000000000000"
	requireError(t, put(keyBob, storetest.BobAssetID), http.StatusBadRequest, "Not found or no memory.read access")
	requireError(t, remove(keyBob, aliceAssetID), http.StatusBadRequest, "Not found or no memory.write access")

	assert.Equal(t, []model.BulkIDResult{
		{ID: aliceAssetID, Error: "duplicate"},
		{ID: storetest.LooseID, Success: true},
		{ID: storetest.BobArchivedID, Error: "no_permission"},
		{ID: storetest.LooseID, Error: "duplicate"},
		{ID: nobody, Error: "no_permission"},
		{ID: storetest.TrashedID, Success: true},
	}, results(put(keyAlice, aliceAssetID, strings.ToUpper(storetest.LooseID), storetest.BobArchivedID, storetest.LooseID, nobody, storetest.TrashedID)))
	after := memoryOf(t, srv, keyAlice, m.ID)
	assert.True(t, after.UpdatedAt.After(m.UpdatedAt.Time), "an asset added moves updatedAt")
	assert.Equal(t, []string{aliceAssetID, storetest.LooseID}, idsOfAssets(after.Assets), "the trashed one out of sight")

	assert.Equal(t, []model.BulkIDResult{{ID: aliceAssetID, Error: "duplicate"}}, results(put(keyAlice, aliceAssetID)))
	assert.Equal(t, after.UpdatedAt, memoryOf(t, srv, keyAlice, m.ID).UpdatedAt, "nothing added: updatedAt stays")

	assert.Equal(t, []model.BulkIDResult{
		{ID: storetest.LooseID, Success: true},
		{ID: storetest.BobAssetID, Error: "not_found"},
		{ID: storetest.LooseID, Error: "not_found"},
		{ID: storetest.TrashedID, Success: true},
	}, results(remove(keyAlice, storetest.LooseID, storetest.BobAssetID, storetest.LooseID, storetest.TrashedID)))
	assert.Equal(t, []string{aliceAssetID}, idsOfAssets(memoryOf(t, srv, keyAlice, m.ID).Assets))

	// A partner's asset goes in while it is out of the archive; archived
	// since, it is no longer one Alice may take out (as on the reference).
	assert.Equal(t, []model.BulkIDResult{{ID: storetest.BobAssetID, Success: true}}, results(put(keyAlice, storetest.BobAssetID)))
	archived := sendJSON(t, srv, http.MethodPut, "/api/asset/"+storetest.BobAssetID, `{"isArchived":true}`, "x-api-key", keyBob)
	require.Equal(t, http.StatusOK, archived.status, "%s", archived.body)
	assert.Equal(t, []model.BulkIDResult{{ID: storetest.BobAssetID, Error: "no_permission"}}, results(remove(keyAlice, storetest.BobAssetID)))
}

func TestMemoriesFollowTheTrashAndDeletions(t *testing.T) {
	srv := memoryServer(t)
	m := createMemory(t, srv, keyAlice, "2021-01-01", aliceAssetID, storetest.LooseID, storetest.BobAssetID)
	trash := sendJSON(t, srv, http.MethodDelete, "/api/asset", `{"ids":["`+aliceAssetID+`"]}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusNoContent, trash.status, "%s", trash.body)
	assert.Equal(t, []string{storetest.LooseID, storetest.BobAssetID}, idsOfAssets(memoryOf(t, srv, keyAlice, m.ID).Assets), "a trashed asset out of sight")
	rep := sendJSON(t, srv, http.MethodPut, "/api/memories/"+m.ID+"/assets", `{"ids":["`+aliceAssetID+`"]}`, "x-api-key", keyAlice)
	assert.JSONEq(t, `[{"id":"`+aliceAssetID+`","success":false,"error":"duplicate"}]`, string(rep.body), "still held")

	restore := sendJSON(t, srv, http.MethodPost, "/api/trash/restore/assets", `{"ids":["`+aliceAssetID+`"]}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusNoContent, restore.status, "%s", restore.body)
	assert.Equal(t, []string{aliceAssetID, storetest.LooseID, storetest.BobAssetID}, idsOfAssets(memoryOf(t, srv, keyAlice, m.ID).Assets), "back in its place")

	gone := sendJSON(t, srv, http.MethodDelete, "/api/asset", `{"ids":["`+storetest.LooseID+`"],"force":true}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusNoContent, gone.status, "%s", gone.body)
	assert.Equal(t, []string{aliceAssetID, storetest.BobAssetID}, idsOfAssets(memoryOf(t, srv, keyAlice, m.ID).Assets))
	rep = sendJSON(t, srv, http.MethodDelete, "/api/memories/"+m.ID+"/assets", `{"ids":["`+storetest.LooseID+`"]}`, "x-api-key", keyAlice)
	assert.JSONEq(t, `[{"id":"`+storetest.LooseID+`","success":false,"error":"not_found"}]`, string(rep.body), "deleted for good: no longer held")

	// Bob deleted for good: his asset leaves Alice's memory; his own
	// memories and tags go with him.
	createMemory(t, srv, keyBob, "2021-01-01", storetest.BobAssetID)
	bobsTag := createTag(t, srv, keyBob, "bob's")
	assert.Contains(t, datasetOf(t, srv), storetest.BobID+`","type":"on_this_day"`)
	assert.Contains(t, datasetOf(t, srv), bobsTag.ID)
	del := sendJSON(t, srv, http.MethodDelete, "/api/admin/users/"+bobID, `{"force":true}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusOK, del.status, "%s", del.body)
	assert.Equal(t, []string{aliceAssetID}, idsOfAssets(memoryOf(t, srv, keyAlice, m.ID).Assets))
	assert.NotContains(t, datasetOf(t, srv), storetest.BobID+`","type":"on_this_day"`)
	assert.NotContains(t, datasetOf(t, srv), bobsTag.ID, "his tags go with him")
}

func TestMemoryAnswersInBothShapes(t *testing.T) {
	for _, reference := range []bool{false, true} {
		srv := memoryServer(t, func(c *Config) { c.ReferenceShapes = reference })
		m := createMemory(t, srv, keyAlice, "2021-01-01", aliceAssetID)
		require.Len(t, m.Assets, 1)
		a := m.Assets[0]
		if reference {
			assert.Nil(t, a.Owner, "the reference loads no owner")
			assert.Nil(t, a.ExifInfo, "nor exifInfo")
		} else {
			require.NotNil(t, a.Owner)
			assert.Equal(t, aliceID, a.Owner.ID)
			assert.NotNil(t, a.ExifInfo)
		}
		assert.Nil(t, a.Tags, "no tags either way")
	}
}

func TestMemoriesCountAgainstMadeRecords(t *testing.T) {
	srv := memoryServer(t, func(c *Config) { c.MaxMadeRecords = 1 })
	createMemory(t, srv, keyAlice, "2021-01-01")
	rep := postJSON(t, srv, "/api/memories", `{"type":"on_this_day","data":{"year":2021},"memoryAt":"2021-01-01"}`, "x-api-key", keyAlice)
	assert.Equal(t, http.StatusInsufficientStorage, rep.status, "%s", rep.body)
	rep = postJSON(t, srv, "/api/tags", `{"name":"one more","type":"CUSTOM"}`, "x-api-key", keyAlice)
	assert.Equal(t, http.StatusInsufficientStorage, rep.status, "%s", rep.body)
}

// TestResetOfAssetsEmptiesMemories: a reset of the upstream's assets table
// leaves a memory without its assets, as its foreign key cascades.
func TestResetOfAssetsEmptiesMemories(t *testing.T) {
	srv := memoryServer(t)
	m := createMemory(t, srv, keyAlice, "2021-01-01", aliceAssetID)
	rep := postJSON(t, srv, "/__mock/reset", `{"tables":["assets"]}`)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.Empty(t, memoryOf(t, srv, keyAlice, m.ID).Assets)
}
