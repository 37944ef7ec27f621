package mockserver

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestControlRefusesLinkKeys checks that the control API acts for users
// only: "x-api-key names the acting user". A shared link's key, which may
// not even list links, may not create links or read its owner's assets
// either, whether or not an API key stands beside it.
func TestControlRefusesLinkKeys(t *testing.T) {
	srv := newTestServer(t)
	for _, tt := range []struct {
		name, method, path, body string
	}{
		{"create a link", http.MethodPost, "/__mock/shared-links", `{"type":"INDIVIDUAL","assetIds":["` + aliceAssetID + `"]}`},
		{"list the assets", http.MethodGet, "/__mock/assets", ""},
	} {
		for _, key := range []string{linkUpload, linkView} {
			t.Run(tt.name+" with "+key[:8], func(t *testing.T) {
				r := newRequest(t, tt.method, srv.URL+tt.path+"?key="+key, bytes.NewReader([]byte(tt.body)), "Content-Type", "application/json")
				requireError(t, do(t, r), http.StatusForbidden, "Forbidden resource")
				r = newRequest(t, tt.method, srv.URL+tt.path+"?key="+key, bytes.NewReader([]byte(tt.body)), "Content-Type", "application/json", "x-api-key", keyAlice)
				requireError(t, do(t, r), http.StatusForbidden, "Forbidden resource")
			})
		}
	}
	// The link holder created nothing.
	assert.Len(t, listLinks(t, srv, keyAlice), 3, "Alice's links")
}
