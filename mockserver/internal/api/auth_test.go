package api

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The credential headers are looked up by name as http.Header keys them:
// a name not in its canonical form would never be found.
func TestCredentialHeadersAreCanonical(t *testing.T) {
	for _, name := range []string{headerShareKey, headerUserToken, headerSessionToken, headerAPIKey, "Authorization"} {
		assert.Equal(t, http.CanonicalHeaderKey(name), name)
	}
}

// The credential that decides is the first the reference tries, whatever
// the case its header was sent in.
func TestCredentialOrder(t *testing.T) {
	r := httptest.NewRequest(http.MethodGet, "/api/shared-links?apiKey=query-key&sessionKey=query-session", nil)
	r.Header.Set("x-api-key", "header-key")
	r.Header.Set("authorization", "Bearer bearer-token")
	c := credentialOf(r)
	assert.Equal(t, "user-token", c.kind)
	assert.Equal(t, "query-session", *c.value)

	creds := credentialsOf(r)
	assert.Equal(t, "query-session", *creds.Session)
	assert.Equal(t, "header-key", *creds.APIKey)
	assert.Nil(t, creds.ShareKey)

	r.Header.Set("X-IMMICH-SHARE-KEY", " share ")
	c = credentialOf(r)
	assert.Equal(t, "share-key", c.kind)
	assert.Equal(t, "share", *c.value)

	none := httptest.NewRequest(http.MethodGet, "/api/shared-links", nil)
	assert.Nil(t, credentialOf(none).value)
}
