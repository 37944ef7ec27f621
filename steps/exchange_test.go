package steps

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/spec"
)

// TestSendTellsExchanges: every request send makes is told to
// Config.Exchanged with its answer and the answer's violations, and a
// request that got no answer is told too, with the error.
func TestSendTellsExchanges(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"not": "a list"}`)
	}))
	t.Cleanup(srv.Close)
	v, err := spec.Load(t.Context())
	require.NoError(t, err)

	var mu sync.Mutex
	var got []Exchange
	cfg, err := Config{BaseURL: srv.URL + "/api", Client: srv.Client(), Validator: v, Exchanged: func(e Exchange) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, e)
	}}.check()
	require.NoError(t, err)

	_, err = cfg.send(t.Context(), apiRequest{method: http.MethodGet, path: "/shared-links", creds: credentials{apiKey: "secret-key", linkKey: "link-key"}})
	require.Error(t, err, "the answer breaks the document")
	srv.Close()
	_, err = cfg.send(t.Context(), apiRequest{method: http.MethodPost, path: "/albums", contentType: "application/json", body: []byte(`{"albumName":"a"}`)})
	require.Error(t, err, "no answer")

	require.Len(t, got, 2)
	first := got[0]
	assert.Equal(t, http.MethodGet, first.Method)
	assert.Equal(t, "/api/shared-links", first.Path)
	assert.Equal(t, "link-key", first.URL.Query().Get("key"))
	assert.Equal(t, "secret-key", first.RequestHeader.Get("x-api-key"))
	assert.Equal(t, http.StatusOK, first.Status)
	assert.JSONEq(t, `{"not": "a list"}`, string(first.ResponseBody))
	assert.NotEmpty(t, first.Violations)
	assert.NoError(t, first.Err, "a violation is not an error of the exchange")

	second := got[1]
	assert.Zero(t, second.Status)
	assert.Error(t, second.Err)
	assert.Equal(t, `{"albumName":"a"}`, string(second.RequestBody))
	assert.EqualValues(t, len(`{"albumName":"a"}`), second.RequestSize)
}
