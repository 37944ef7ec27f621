package api

import (
	"net/http"
	"testing"
)

// TestPictureRangesPastTheEndAreJSON: a range past a picture is the JSON
// 416 of every other error, on every route that answers ranges, not
// http.ServeContent's text.
func TestPictureRangesPastTheEndAreJSON(t *testing.T) {
	srv := newTestServer(t, func(c *Config) { c.Dataset = pictureDataset })
	for _, path := range []string{
		"/api/asset/file/" + aliceAssetID,
		"/api/asset/thumbnail/" + aliceAssetID,
		"/api/users/" + bobID + "/profile-image",
	} {
		t.Run(path, func(t *testing.T) {
			rep := do(t, newRequest(t, http.MethodGet, srv.URL+path, nil, "x-api-key", keyAlice, "Range", "bytes=100000000-"))
			requireError(t, rep, http.StatusRequestedRangeNotSatisfiable, "Requested Range Not Satisfiable")
		})
	}
}
