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

	"github.com/mediaspec/mediaspec/mockserver/internal/httpx/httpxtest"
	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// activitiesOf lists an album's activities as key, with query added, by
// type, asset (or "-") and user: "like:-:bob".
func activitiesOf(t *testing.T, srv *httptest.Server, key, query string) []string {
	t.Helper()
	var out []model.Activity
	rep := getJSON(t, srv, "/api/activities?albumId="+testAlbumID+query, &out, "x-api-key", key)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	names := map[string]string{aliceID: "alice", bobID: "bob", carolID: "carol"}
	list := []string{}
	for _, a := range out {
		asset := "-"
		if a.AssetID != nil {
			asset = "asset"
		}
		list = append(list, a.Type+":"+asset+":"+names[a.User.ID])
	}
	return list
}

// postActivity posts body as key and reads the activity answered.
func postActivity(t *testing.T, srv *httptest.Server, key, body string, status int) map[string]any {
	t.Helper()
	rep := postJSON(t, srv, "/api/activities", body, "x-api-key", key)
	require.Equal(t, status, rep.status, "%s", rep.body)
	var a map[string]any
	rep.json(t, &a)
	return a
}

func TestActivities(t *testing.T) {
	srv := newTestServer(t)
	album := `"albumId":"` + testAlbumID + `"`
	assert.Equal(t, []string{}, activitiesOf(t, srv, keyAlice, ""), "none yet")

	rep := postJSON(t, srv, "/api/activities", `{`+album+`,"type":"like","comment":5}`, "x-api-key", keyBob)
	require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
	assert.Equal(t, []string{"id", "assetId", "createdAt", "comment", "type", "user"}, keyOrder(t, rep.body), "the reference's keys, in its order")
	var like map[string]any
	rep.json(t, &like)
	assert.Nil(t, like["assetId"])
	assert.Nil(t, like["comment"], "a like's comment is not judged, and not kept")
	assert.Equal(t, "like", like["type"])
	assert.Equal(t, map[string]any{"id": bobID, "name": "Bob Tanaka", "email": "bob@example.com", "avatarColor": "blue", "profileImagePath": ""}, like["user"])
	again := postActivity(t, srv, keyBob, `{`+album+`,"type":"like"}`, http.StatusOK)
	assert.Equal(t, like, again, "a like once: the first one, with 200")

	comment := postActivity(t, srv, keyBob, `{`+album+`,"type":"comment","comment":"Lovely light","assetId":"`+strings.ToUpper(aliceAssetID)+`"}`, http.StatusCreated)
	assert.Equal(t, aliceAssetID, comment["assetId"])
	assert.Equal(t, "Lovely light", comment["comment"])
	assetLike := postActivity(t, srv, keyBob, `{`+album+`,"type":"like","assetId":"`+aliceAssetID+`"}`, http.StatusCreated)
	assert.NotEqual(t, like["id"], assetLike["id"], "a like of an asset is another than the album's")
	postActivity(t, srv, keyAlice, `{`+album+`,"type":"comment","comment":"Our trip"}`, http.StatusCreated)

	all := []string{"like:-:bob", "comment:asset:bob", "like:asset:bob", "comment:-:alice"}
	assert.Equal(t, all, activitiesOf(t, srv, keyAlice, ""), "the oldest first")
	assert.Equal(t, all, activitiesOf(t, srv, keyBob, ""), "the viewer reads them too")
	for query, want := range map[string][]string{
		"&level=album":             {"like:-:bob", "comment:-:alice"},
		"&level=asset":             all,
		"&type=like":               {"like:-:bob", "like:asset:bob"},
		"&type=comment":            {"comment:asset:bob", "comment:-:alice"},
		"&assetId=" + aliceAssetID: {"comment:asset:bob", "like:asset:bob"},
		"&assetId=" + aliceAssetID + "&level=album": {"like:-:bob", "comment:-:alice"},
		"&userId=" + aliceID:                        {"comment:-:alice"},
		"&level=album&type=like&userId=" + bobID:    {"like:-:bob"},
	} {
		assert.Equal(t, want, activitiesOf(t, srv, keyAlice, query), query)
	}

	var stats map[string]int
	getJSON(t, srv, "/api/activities/statistics?albumId="+testAlbumID, &stats, "x-api-key", keyBob)
	assert.Equal(t, map[string]int{"comments": 2}, stats)
	getJSON(t, srv, "/api/activities/statistics?albumId="+testAlbumID+"&assetId="+aliceAssetID, &stats, "x-api-key", keyBob)
	assert.Equal(t, map[string]int{"comments": 1}, stats)

	// Who may delete: the author, or the album's owner.
	del := func(id, key string) reply {
		return do(t, newRequest(t, http.MethodDelete, srv.URL+"/api/activities/"+id, nil, "x-api-key", key))
	}
	aliceComment := postActivity(t, srv, keyAlice, `{`+album+`,"type":"comment","comment":"mine"}`, http.StatusCreated)
	requireError(t, del(aliceComment["id"].(string), keyBob), 400, "Not found or no activity.delete access")
	requireError(t, del(aliceComment["id"].(string), keyCarol), 400, "Not found or no activity.delete access")
	assert.Equal(t, http.StatusNoContent, del(like["id"].(string), keyBob).status, "its author")
	assert.Equal(t, http.StatusNoContent, del(comment["id"].(string), keyAlice).status, "the album's owner")
	requireError(t, del(comment["id"].(string), keyAlice), 400, "Not found or no activity.delete access")
	assert.Equal(t, []string{"like:asset:bob", "comment:-:alice", "comment:-:alice"}, activitiesOf(t, srv, keyAlice, ""))

	// An album whose activity is off takes none, and still lists and deletes.
	rep = sendJSON(t, srv, http.MethodPatch, "/api/albums/"+testAlbumID, `{"isActivityEnabled":false}`, "x-api-key", keyAlice)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	requireError(t, postJSON(t, srv, "/api/activities", `{`+album+`,"type":"like"}`, "x-api-key", keyAlice), 400, "Not found or no activity.create access")
	assert.Len(t, activitiesOf(t, srv, keyBob, ""), 3)
	assert.Equal(t, http.StatusNoContent, del(aliceComment["id"].(string), keyAlice).status)

	// Deleting the album takes its activities with it.
	assert.Contains(t, datasetOf(t, srv), `"activities":[`)
	require.Equal(t, http.StatusOK, do(t, newRequest(t, http.MethodDelete, srv.URL+"/api/albums/"+testAlbumID, nil, "x-api-key", keyAlice)).status)
	assert.NotContains(t, datasetOf(t, srv), `"activities"`)
}

// keyOrder is the keys of a JSON object in the order the body has them.
func keyOrder(t *testing.T, body []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	tok, err := dec.Token()
	require.NoError(t, err)
	require.Equal(t, json.Delim('{'), tok)
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		require.NoError(t, err)
		keys = append(keys, k.(string))
		var skip json.RawMessage
		require.NoError(t, dec.Decode(&skip))
	}
	return keys
}

// datasetOf is GET /__mock/dataset.
func datasetOf(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	rep := do(t, newRequest(t, http.MethodGet, srv.URL+"/__mock/dataset", nil))
	require.Equal(t, http.StatusOK, rep.status)
	return string(rep.body)
}

func TestActivityRefusals(t *testing.T) {
	srv := newTestServer(t)
	album := `"albumId":"` + testAlbumID + `"`
	unknown := "00000000-0000-4000-8000-00000000beef"
	albumIDProblems := []any{"albumId must be a UUID", "albumId should not be empty", "albumId must be a string"}
	for _, tt := range []struct {
		name, method, path, body string
		headers                  []string
		status                   int
		message                  any
	}{
		{"list without an album", "GET", "/api/activities", "", []string{"x-api-key", keyAlice}, 400, albumIDProblems},
		{"list with every filter wrong", "GET", "/api/activities?albumId=x&assetId=y&type=z&level=q&userId=w", "", []string{"x-api-key", keyAlice}, 400,
			[]any{"type must be one of the following values: comment, like", "level must be one of the following values: album, asset", "userId must be a UUID", "albumId must be a UUID", "assetId must be a UUID"}},
		{"list of another's album", "GET", "/api/activities?" + "albumId=" + testAlbumID, "", []string{"x-api-key", keyCarol}, 400, "Not found or no album.read access"},
		{"list of an unknown album", "GET", "/api/activities?albumId=" + unknown, "", []string{"x-api-key", keyAlice}, 400, "Not found or no album.read access"},
		{"list without credentials", "GET", "/api/activities?albumId=" + testAlbumID, "", nil, 401, "Authentication required"},
		{"list with a link's key", "GET", "/api/activities?albumId=" + testAlbumID, "", []string{"x-immich-share-key", linkUpload}, 403, "Forbidden resource"},
		{"statistics without an album", "GET", "/api/activities/statistics?assetId=x", "", []string{"x-api-key", keyAlice}, 400, append(albumIDProblems, "assetId must be a UUID")},
		{"statistics of another's album", "GET", "/api/activities/statistics?albumId=" + testAlbumID, "", []string{"x-api-key", keyCarol}, 400, "Not found or no album.read access"},
		{"statistics with a link's key", "GET", "/api/activities/statistics?albumId=" + testAlbumID, "", []string{"x-immich-share-key", linkUpload}, 403, "Forbidden resource"},
		{"an empty body", "POST", "/api/activities", `{}`, []string{"x-api-key", keyAlice}, 400,
			append([]any{"type must be one of the following values: comment, like"}, albumIDProblems...)},
		{"a comment without text", "POST", "/api/activities", `{` + album + `,"type":"comment"}`, []string{"x-api-key", keyAlice}, 400, []any{"comment must be a string", "comment should not be empty"}},
		{"an empty comment", "POST", "/api/activities", `{` + album + `,"type":"comment","comment":""}`, []string{"x-api-key", keyAlice}, 400, []any{"comment should not be empty"}},
		{"a comment not a text", "POST", "/api/activities", `{` + album + `,"type":"comment","comment":5}`, []string{"x-api-key", keyAlice}, 400, []any{"comment must be a string"}},
		{"a comment too long", "POST", "/api/activities", `{` + album + `,"type":"comment","comment":"` + strings.Repeat("c", 4097) + `"}`, []string{"x-api-key", keyAlice}, 400, []any{"comment must be shorter than or equal to 4096 characters"}},
		{"a bad asset id", "POST", "/api/activities", `{` + album + `,"type":"like","assetId":"x"}`, []string{"x-api-key", keyAlice}, 400, []any{"assetId must be a UUID"}},
		{"an unknown asset", "POST", "/api/activities", `{` + album + `,"type":"like","assetId":"` + unknown + `"}`, []string{"x-api-key", keyAlice}, 400, "Asset not found"},
		{"in another's album", "POST", "/api/activities", `{` + album + `,"type":"like"}`, []string{"x-api-key", keyCarol}, 400, "Not found or no activity.create access"},
		{"in an unknown album", "POST", "/api/activities", `{"albumId":"` + unknown + `","type":"like"}`, []string{"x-api-key", keyAlice}, 400, "Not found or no activity.create access"},
		{"with a link's key", "POST", "/api/activities", `{` + album + `,"type":"like"}`, []string{"x-immich-share-key", linkUpload}, 403, "Forbidden resource"},
		{"malformed JSON", "POST", "/api/activities", `{"type":`, []string{"x-api-key", keyAlice}, 400, nil},
		{"delete a bad id", "DELETE", "/api/activities/xyz", "", []string{"x-api-key", keyAlice}, 400, []any{"id must be a UUID"}},
		{"delete an unknown one", "DELETE", "/api/activities/" + unknown, "", []string{"x-api-key", keyAlice}, 400, "Not found or no activity.delete access"},
		{"delete without credentials", "DELETE", "/api/activities/" + unknown, "", nil, 401, "Authentication required"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			requireError(t, sendJSON(t, srv, tt.method, tt.path, tt.body, tt.headers...), tt.status, tt.message)
		})
	}
	assert.Equal(t, []string{}, activitiesOf(t, srv, keyAlice, ""), "nothing was made")
}

// TestDatasetStreamsActivitiesAndSettings: the dataset document carries
// activities and changed settings as encoding/json writes them, and
// loads back.
func TestDatasetStreamsActivitiesAndSettings(t *testing.T) {
	d := testDataset()
	d.People, d.Tags = []model.PersonRecord{}, []model.Tag{}
	d.Activities = []model.ActivityRecord{{ID: "00000000-0000-4000-8000-0000000ac701", AlbumID: testAlbumID, UserID: bobID, IsLiked: true, CreatedAt: model.At(testNow())}}
	c := model.DefaultSystemConfig()
	c.Server.LoginPageMessage = "Welcome"
	d.SystemConfig = &c
	want, err := json.Marshal(d)
	require.NoError(t, err)
	db, err := store.New(d, testNow)
	require.NoError(t, err)
	w := httpxtest.NewDeadlineRecorder()
	require.NoError(t, streamDataset(w, db.Records()))
	assert.Equal(t, string(want), w.Body.String())
}

// madeActivity is the id of a comment Alice makes on her album, for a
// test to delete.
func madeActivity(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	return postActivity(t, srv, keyAlice, `{"albumId":"`+testAlbumID+`","type":"comment","comment":"to delete"}`, http.StatusCreated)["id"].(string)
}
