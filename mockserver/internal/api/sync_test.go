package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/internal/httpx/httpxtest"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/internal/store/storetest"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// syncServer is a mock on storetest.DownloadsDataset: Alice's assets of
// every kind (hidden, trashed, archived), and Bob's, who shares his
// library with her.
func syncServer(t *testing.T, opts ...func(*Config)) *httptest.Server {
	t.Helper()
	return newTestServer(t, append([]func(*Config){func(c *Config) { c.Dataset = storetest.DownloadsDataset }}, opts...)...)
}

// isoTime writes a time as the bodies carry it.
func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// fullSyncIDs posts a full sync as key and lists the ids answered.
func fullSyncIDs(t *testing.T, srv *httptest.Server, key, body string) []string {
	t.Helper()
	rep := postJSON(t, srv, "/api/sync/full-sync", body, "x-api-key", key)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	var out []model.Asset
	rep.json(t, &out)
	ids := []string{}
	for _, a := range out {
		ids = append(ids, a.ID)
	}
	return ids
}

// deltaSync posts a delta sync as key.
func deltaSync(t *testing.T, srv *httptest.Server, key string, after time.Time, userIDs ...string) model.DeltaSync {
	t.Helper()
	body := `{"updatedAfter":"` + isoTime(after) + `","userIds":["` + strings.Join(userIDs, `","`) + `"]}`
	rep := postJSON(t, srv, "/api/sync/delta-sync", body, "x-api-key", key)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	var out model.DeltaSync
	rep.json(t, &out)
	return out
}

// auditDeletes asks GET /api/audit/deletes as key.
func auditDeletes(t *testing.T, srv *httptest.Server, key, query string) model.AuditDeletes {
	t.Helper()
	var out model.AuditDeletes
	rep := getJSON(t, srv, "/api/audit/deletes?"+query, &out, "x-api-key", key)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	return out
}

func upsertedIDs(d model.DeltaSync) []string {
	ids := []string{}
	for _, a := range d.Upserted {
		ids = append(ids, a.ID)
	}
	return ids
}

func TestFullSync(t *testing.T) {
	srv := syncServer(t)
	until := isoTime(testNow().Add(time.Hour))
	all := fullSyncIDs(t, srv, keyAlice, `{"limit":100,"updatedUntil":"`+until+`"}`)
	// The newest first; the hidden video of the live photo left out, the
	// trashed and archived ones in.
	assert.Equal(t, []string{storetest.NoExifID, storetest.LooseID, storetest.TrashedID, storetest.LiveStillID, aliceAssetID, storetest.ArchivedID}, all)

	// Pages: each begins after the last of the one before.
	first := fullSyncIDs(t, srv, keyAlice, `{"limit":2,"updatedUntil":"`+until+`"}`)
	assert.Equal(t, all[:2], first)
	var page []model.Asset
	rep := postJSON(t, srv, "/api/sync/full-sync", `{"limit":2,"updatedUntil":"`+until+`"}`, "x-api-key", keyAlice)
	rep.json(t, &page)
	next := fullSyncIDs(t, srv, keyAlice, `{"limit":3,"updatedUntil":"`+until+`","lastId":"`+strings.ToUpper(page[1].ID)+`","lastCreationDate":"`+isoTime(page[1].FileCreatedAt.Time)+`"}`)
	assert.Equal(t, all[2:5], next)
	assert.Equal(t, all, fullSyncIDs(t, srv, keyAlice, `{"limit":100,"updatedUntil":"`+until+`","lastId":"`+page[1].ID+`"}`), "lastId alone is no page")

	// Changed after updatedUntil: not yet.
	before := isoTime(testNow().Add(-time.Second))
	rep = sendJSON(t, srv, http.MethodPut, "/api/asset/"+storetest.LooseID, `{"isFavorite":true}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.NotContains(t, fullSyncIDs(t, srv, keyAlice, `{"limit":100,"updatedUntil":"`+before+`"}`), storetest.LooseID)

	// A partner's library: every asset of it; another's: refused.
	assert.ElementsMatch(t, []string{storetest.BobAssetID, storetest.BobArchivedID, storetest.BobTrashedID},
		fullSyncIDs(t, srv, keyAlice, `{"limit":100,"updatedUntil":"`+until+`","userId":"`+bobID+`"}`))
	requireError(t, postJSON(t, srv, "/api/sync/full-sync", `{"limit":1,"updatedUntil":"`+until+`","userId":"`+aliceID+`"}`, "x-api-key", keyBob),
		400, "Not found or no timeline.read access")
	requireError(t, postJSON(t, srv, "/api/sync/full-sync", `{"limit":1,"updatedUntil":"`+until+`","userId":"`+carolID+`"}`, "x-api-key", keyAlice),
		400, "Not found or no timeline.read access")

	for body, message := range map[string]any{
		`{}`: []any{"updatedUntil must be a Date instance", "updatedUntil should not be empty", "limit must be a positive number", "limit must be an integer number"},
		`{"limit":1.5,"updatedUntil":"2030-01-01"}`:                    []any{"limit must be an integer number"},
		`{"limit":0,"updatedUntil":"2030-01-01","userId":"nope"}`:      []any{"limit must be a positive number", "userId must be a UUID"},
		`{"limit":1,"updatedUntil":"soon"}`:                            "updatedUntil must be a date string",
		`{"limit":1,"updatedUntil":"2030-01-01","lastId":"x"}`:         []any{"lastId must be a UUID"},
		`{"limit":1,"updatedUntil":"2030-01-01","lastCreationDate":5}`: "lastCreationDate must be a date string",
	} {
		requireError(t, postJSON(t, srv, "/api/sync/full-sync", body, "x-api-key", keyAlice), 400, message)
	}
	requireError(t, postJSON(t, srv, "/api/sync/full-sync", `{}`), 401, "Authentication required")
	requireError(t, postJSON(t, srv, "/api/sync/full-sync?key="+storetest.LinkDownload, `{}`), 403, "Forbidden resource")
}

func TestDeltaSync(t *testing.T) {
	srv := syncServer(t)
	now := testNow()
	hourAgo := now.Add(-time.Hour)
	nothing := deltaSync(t, srv, keyAlice, hourAgo, aliceID, bobID)
	assert.Equal(t, model.DeltaSync{Upserted: []model.Asset{}, Deleted: []string{}}, nothing)

	full := model.DeltaSync{NeedsFullSync: true, Upserted: []model.Asset{}, Deleted: []string{}}
	assert.Equal(t, full, deltaSync(t, srv, keyAlice, hourAgo, aliceID), "Bob shares with her: he must be asked for")
	assert.Equal(t, full, deltaSync(t, srv, keyAlice, hourAgo, aliceID, bobID, carolID), "Carol does not")
	assert.Equal(t, full, deltaSync(t, srv, keyBob, hourAgo, bobID, aliceID), "Alice does not share with Bob")
	assert.Equal(t, full, deltaSync(t, srv, keyAlice, now.Add(-101*24*time.Hour), aliceID, bobID), "older than the audit keeps")
	assert.False(t, deltaSync(t, srv, keyAlice, hourAgo, bobID, strings.ToUpper(aliceID), aliceID).NeedsFullSync, "a set: order, case and repeats aside")

	// Changes: a favourite, a trashed asset, Bob's own changes.
	for _, change := range []struct{ method, path, body, key string }{
		{http.MethodPut, "/api/asset/" + storetest.LooseID, `{"isFavorite":true}`, keyAlice},
		{http.MethodDelete, "/api/asset", `{"ids":["` + storetest.NoExifID + `"]}`, keyAlice},
		{http.MethodPut, "/api/asset/" + storetest.BobAssetID, `{"description":"harbour"}`, keyBob},
		{http.MethodPut, "/api/asset/" + storetest.BobArchivedID, `{"description":"still archived"}`, keyBob},
	} {
		rep := sendJSON(t, srv, change.method, change.path, change.body, "x-api-key", change.key)
		require.Less(t, rep.status, 300, "%s %s: %s", change.method, change.path, rep.body)
	}
	d := deltaSync(t, srv, keyAlice, hourAgo, aliceID, bobID)
	assert.False(t, d.NeedsFullSync)
	assert.Equal(t, []string{storetest.LooseID, storetest.NoExifID, storetest.BobAssetID}, upsertedIDs(d), "in the order they changed; Bob's archived one left out")
	assert.True(t, d.Upserted[0].IsFavorite)
	assert.True(t, d.Upserted[1].IsTrashed)
	assert.Equal(t, []string{storetest.BobAssetID, storetest.BobArchivedID}, upsertedIDs(deltaSync(t, srv, keyBob, hourAgo, bobID)), "Bob sees his own archived one")

	// Deleted for good: the live photo with its video; the trash emptied.
	rep := sendJSON(t, srv, http.MethodDelete, "/api/asset", `{"ids":["`+storetest.LiveStillID+`"],"force":true}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusNoContent, rep.status, "%s", rep.body)
	require.Equal(t, http.StatusNoContent, postJSON(t, srv, "/api/trash/empty", ``, "x-api-key", keyBob).status)
	d = deltaSync(t, srv, keyAlice, hourAgo, aliceID, bobID)
	assert.Equal(t, []string{storetest.LiveStillID, storetest.LiveVideoID, storetest.BobTrashedID}, d.Deleted, "in the order of their ids")
	assert.NotContains(t, upsertedIDs(d), storetest.LiveStillID)
	later := deltaSync(t, srv, keyAlice, d.Upserted[len(d.Upserted)-1].UpdatedAt.Time.Add(time.Hour), aliceID, bobID)
	assert.Empty(t, later.Deleted, "nothing deleted after")

	for body, message := range map[string]any{
		`{}`:                                   []any{"updatedAfter must be a Date instance", "updatedAfter should not be empty", "each value in userIds must be a UUID", "userIds should not be empty", "userIds must be an array"},
		`{"updatedAfter":"x","userIds":["a"]}`: "updatedAfter must be a date string",
		`{"updatedAfter":"2026-11-01","userIds":"a"}`:   []any{"each value in userIds must be a UUID", "userIds must be an array"},
		`{"updatedAfter":"2026-11-01","userIds":["a"]}`: []any{"each value in userIds must be a UUID"},
	} {
		requireError(t, postJSON(t, srv, "/api/sync/delta-sync", body, "x-api-key", keyAlice), 400, message)
	}
}

func TestAuditDeletes(t *testing.T) {
	srv := syncServer(t)
	hourAgo := "after=" + isoTime(testNow().Add(-time.Hour))
	assert.Equal(t, model.AuditDeletes{IDs: []string{}}, auditDeletes(t, srv, keyAlice, hourAgo+"&entityType=ASSET"))

	rep := sendJSON(t, srv, http.MethodDelete, "/api/asset", `{"ids":["`+storetest.LooseID+`"],"force":true}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusNoContent, rep.status, "%s", rep.body)
	rep = do(t, newRequest(t, http.MethodDelete, srv.URL+"/api/albums/"+storetest.AlbumID, nil, "x-api-key", keyAlice))
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	require.Equal(t, http.StatusNoContent, postJSON(t, srv, "/api/trash/empty", ``, "x-api-key", keyBob).status)

	assert.Equal(t, []string{storetest.LooseID}, auditDeletes(t, srv, keyAlice, hourAgo+"&entityType=ASSET").IDs)
	assert.Equal(t, []string{storetest.AlbumID}, auditDeletes(t, srv, keyAlice, hourAgo+"&entityType=ALBUM").IDs)
	assert.Equal(t, []string{storetest.BobTrashedID}, auditDeletes(t, srv, keyAlice, hourAgo+"&entityType=ASSET&userId="+bobID).IDs, "a partner's")
	assert.Equal(t, []string{storetest.BobTrashedID}, auditDeletes(t, srv, keyBob, hourAgo+"&entityType=ASSET").IDs)
	assert.Empty(t, auditDeletes(t, srv, keyAlice, "after="+isoTime(testNow().Add(time.Hour))+"&entityType=ASSET").IDs)
	old := auditDeletes(t, srv, keyAlice, "after=2026-01-01&entityType=ASSET")
	assert.Equal(t, model.AuditDeletes{NeedsFullSync: true, IDs: []string{storetest.LooseID}}, old, "older than the audit keeps")
	assert.Contains(t, datasetOf(t, srv), `"audit":{"entries":[{"entityType":"ASSET","entityId":"`+storetest.LooseID+`"`, "the dataset keeps it")

	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/audit/deletes?"+hourAgo+"&entityType=ASSET&userId="+aliceID, nil, "x-api-key", keyBob)),
		400, "Not found or no timeline.read access")
	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/audit/deletes", nil, "x-api-key", keyAlice)),
		400, []any{"after must be a Date instance", "after should not be empty", "entityType must be one of the following values: ASSET, ALBUM"})
	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/audit/deletes?after=x&entityType=FOO", nil, "x-api-key", keyAlice)),
		400, "after must be a date string")
	requireError(t, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/audit/deletes?after=2026-01-01&entityType=ASSET&userId="+strings.Replace(bobID, "-4000-", "-1000-", 1), nil, "x-api-key", keyAlice)),
		400, []any{"userId must be a UUID"})

	// A reset forgets it.
	require.Equal(t, http.StatusOK, postJSON(t, srv, "/__mock/reset", `{}`).status)
	assert.Empty(t, auditDeletes(t, srv, keyAlice, hourAgo+"&entityType=ASSET").IDs)
}

// TestDatasetStreamsTheAudit: the dataset document carries the audit of
// deletions as encoding/json writes it, and loads it back.
func TestDatasetStreamsTheAudit(t *testing.T) {
	d := testDataset()
	d.People, d.Tags = []model.PersonRecord{}, []model.Tag{}
	since := model.At(testNow().Add(-time.Hour))
	d.Audit = &model.AuditLog{Since: &since, Entries: []model.AuditRecord{
		{EntityType: model.AuditAsset, EntityID: "00000000-0000-4000-8000-0000000a0d01", OwnerID: aliceID, CreatedAt: model.At(testNow())},
	}}
	want, err := json.Marshal(d)
	require.NoError(t, err)
	db, err := store.New(d, testNow)
	require.NoError(t, err)
	w := httpxtest.NewDeadlineRecorder()
	require.NoError(t, streamDataset(w, db.Records()))
	assert.Equal(t, string(want), w.Body.String())

	d.Audit.Entries[0].EntityType = "PERSON"
	_, err = store.New(d, testNow)
	assert.ErrorContains(t, err, `entityType "PERSON"`)
}

// TestDeltaSyncBringsPictures: an asset's pictures are made after its
// upload; it changes then, so that a delta sync since the upload brings
// it with its thumbhash.
func TestDeltaSyncBringsPictures(t *testing.T) {
	srv, _ := newMediaServer(t)
	rep := do(t, uploadRequest(t, srv, validForm("").onlyFields().withFile("assetData", "IMG_0042.jpg", string(testJPEG(t, 64, 48))), keyAlice))
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	var made struct{ ID string }
	rep.json(t, &made)
	a := waitForResized(t, srv, made.ID)
	require.Equal(t, true, a["resized"])
	// The store's clock stands still in tests: the upload is its first
	// tick, at testNow, and every later change a millisecond on.
	assert.Equal(t, isoTime(testNow().Add(time.Millisecond)), a["updatedAt"], "changed once after the upload")

	d := deltaSync(t, srv, keyAlice, testNow(), aliceID)
	require.Equal(t, []string{made.ID}, upsertedIDs(d), "changed once its pictures were made")
	assert.NotNil(t, d.Upserted[0].Thumbhash)
	assert.True(t, d.Upserted[0].Resized)
}
