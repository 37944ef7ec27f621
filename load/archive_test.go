package load

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestArchiveScenario: the archive scenario uploads its files once, each
// of the size asked, then asks for the archive of exactly those.
func TestArchiveScenario(t *testing.T) {
	var (
		mu       sync.Mutex
		uploaded []string
		sizes    []int64
		archives atomic.Int64
		wrong    atomic.Int64
	)
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/asset/upload", func(w http.ResponseWriter, r *http.Request) {
		n, _ := io.Copy(io.Discard, r.Body)
		mu.Lock()
		id := fmt.Sprintf("id-%d", len(uploaded))
		uploaded, sizes = append(uploaded, id), append(sizes, n)
		mu.Unlock()
		w.WriteHeader(http.StatusCreated)
		_, _ = fmt.Fprintf(w, `{"id":%q,"duplicate":false}`, id)
	})
	mux.HandleFunc("POST /api/download/archive", func(w http.ResponseWriter, r *http.Request) {
		var in struct{ AssetIDs []string }
		mu.Lock()
		want := slices.Clone(uploaded)
		mu.Unlock()
		if json.NewDecoder(r.Body).Decode(&in) != nil || !slices.Equal(in.AssetIDs, want) || r.Header.Get("x-api-key") != testKey {
			wrong.Add(1)
		}
		archives.Add(1)
		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = w.Write(make([]byte, 4096))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	res, err := Run(t.Context(), Config{Target: srv.URL + "/api", Scenario: ScenarioArchive, ArchiveFiles: 3, UploadSize: 1000, APIKey: testKey, Duration: 200 * time.Millisecond, Concurrency: 2})
	require.NoError(t, err)
	require.Len(t, uploaded, 3, "the files are uploaded once, before the run")
	for _, n := range sizes {
		assert.Greater(t, n, int64(1000), "each upload carries a file of the size asked")
	}
	op := res.Operations["archive"]
	assert.Positive(t, op.Requests)
	assert.Equal(t, archives.Load(), op.Requests)
	assert.Zero(t, wrong.Load(), "every request asks for exactly the files uploaded")
	assert.Equal(t, 4096*op.Requests, op.BodyBytesReceived, "every archive is read to its end")
}
