package api

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReferenceShapes: with ReferenceShapes, each place WORKFLOWS.md marks
// thin or quirky answers as the reference does; by default, fully.
func TestReferenceShapes(t *testing.T) {
	for _, reference := range []bool{false, true} {
		name := "full shapes"
		if reference {
			name = "reference shapes"
		}
		t.Run(name, func(t *testing.T) {
			srv := newTestServer(t, func(c *Config) { c.ReferenceShapes = reference })
			get := func(path, key string) any {
				var v any
				rep := getJSON(t, srv, path, &v, "x-api-key", key)
				require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
				return v
			}

			// getAllSharedLinks: the album link and the individual one.
			var albumLink, individual map[string]any
			for _, l := range get("/api/shared-links", keyAlice).([]any) {
				switch l := l.(map[string]any); l["key"] {
				case linkUpload:
					albumLink = l
				case linkView:
					individual = l
				}
			}
			require.NotNil(t, albumLink)
			require.NotNil(t, individual)
			al := albumLink["album"].(map[string]any)
			asset := individual["assets"].([]any)[0].(map[string]any)
			if reference {
				assert.Empty(t, albumLink["assets"], "an album link lists no assets")
				assert.Empty(t, al["assets"])
				assert.EqualValues(t, 0, al["assetCount"])
				assert.NotContains(t, al, "startDate")
				assert.Empty(t, al["albumUsers"])
				assert.Equal(t, false, al["shared"])
				assert.Equal(t, false, al["hasSharedLink"])
				assert.NotContains(t, asset, "owner")
				assert.NotContains(t, asset, "exifInfo")
			} else {
				assert.Len(t, albumLink["assets"], 1)
				assert.EqualValues(t, 1, al["assetCount"])
				assert.Len(t, al["albumUsers"], 1)
				assert.Equal(t, true, al["shared"])
				assert.Equal(t, true, al["hasSharedLink"])
				assert.Contains(t, asset, "owner")
				assert.Contains(t, asset, "exifInfo")
			}

			// getSharedLinkById: the album's flags in a link body are the
			// reference's in both shapes, as its clients expect them.
			read := get("/api/shared-links/"+albumLink["id"].(string), keyAlice).(map[string]any)
			readAlbum := read["album"].(map[string]any)
			assert.Equal(t, false, readAlbum["shared"])
			assert.Equal(t, false, readAlbum["hasSharedLink"])
			assert.Empty(t, readAlbum["albumUsers"])
			assert.EqualValues(t, 1, readAlbum["assetCount"], "the real count, in both")

			// createSharedLink: no assets and no album in the answer.
			rep := controlJSON(t, srv, http.MethodPost, "/api/shared-links", keyAlice, map[string]any{"type": "ALBUM", "albumId": testAlbumID, "password": "azulejo"})
			require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
			var made map[string]any
			rep.json(t, &made)
			if reference {
				assert.Empty(t, made["assets"])
				assert.NotContains(t, made, "album")
			} else {
				assert.Len(t, made["assets"], 1)
				assert.Contains(t, made, "album")
			}

			// getMySharedLink: the password shown to its holder.
			rep = getJSON(t, srv, "/api/shared-links/me?password=azulejo&key="+made["key"].(string), nil)
			require.Equal(t, http.StatusOK, rep.status, "%s", rep.body)
			var mine map[string]any
			rep.json(t, &mine)
			if reference {
				assert.Equal(t, "azulejo", mine["password"])
			} else {
				assert.Nil(t, mine["password"])
			}

			// getAllAlbums?assetId: the album's flags.
			albums := get("/api/albums?assetId="+aliceAssetID, keyAlice).([]any)
			require.Len(t, albums, 1)
			holding := albums[0].(map[string]any)
			assert.Equal(t, !reference, holding["hasSharedLink"])
			assert.Equal(t, true, holding["shared"], "it has Bob: shared in both")
		})
	}
}
