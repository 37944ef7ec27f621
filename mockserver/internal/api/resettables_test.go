package api

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/internal/store/storetest"
)

// TestResetTables: a reset with tables empties those alone, as the
// upstream's harness empties `activity` before each test of its activity
// spec: the users, their sessions, albums and assets stay.
func TestResetTables(t *testing.T) {
	srv := syncServer(t)
	token := login(t, srv, "bob@example.com")
	postActivity(t, srv, keyBob, `{"albumId":"`+testAlbumID+`","type":"like"}`, http.StatusCreated)
	require.Len(t, activitiesOf(t, srv, keyAlice, ""), 1)

	rep := postJSON(t, srv, "/__mock/reset", `{"empty":true,"keepDefaultUser":false,"tables":["activity"]}`)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.Empty(t, activitiesOf(t, srv, keyAlice, ""))
	assert.Equal(t, http.StatusOK, getJSON(t, srv, "/api/users/me", nil, "Authorization", "Bearer "+token).status, "the session stays")
	assert.Len(t, listAssets(t, srv, keyAlice), len(fullSyncIDs(t, srv, keyAlice, `{"limit":100,"updatedUntil":"2100-01-01"}`))+1, "the assets stay (the hidden video aside)")

	rep = postJSON(t, srv, "/__mock/reset", `{"tables":["assets","albums"]}`)
	require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
	assert.Empty(t, listAssets(t, srv, keyAlice))
	var albums []map[string]any
	getJSON(t, srv, "/api/albums", &albums, "x-api-key", keyAlice)
	assert.Empty(t, albums)
	var link map[string]any
	assert.Equal(t, http.StatusOK, getJSON(t, srv, "/api/shared-links/me?key="+storetest.LinkDownload, &link).status, "an asset link stays, empty")
	assert.Empty(t, link["assets"])
	assert.Equal(t, http.StatusUnauthorized, getJSON(t, srv, "/api/shared-links/me?key="+storetest.LinkPassword, nil).status, "an album's link goes with it")

	requireError(t, postJSON(t, srv, "/__mock/reset", `{"tables":["exif"]}`), 400,
		`tables: "exif" is none of those a reset empties (activity, albums, api_keys, asset_faces, asset_stack, assets, libraries, memories, partners, person, sessions, shared_links, system_metadata, tags, users)`)
}
