package conformance_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/conformance"
	"github.com/mediaspec/mediaspec/mockserver/fake"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// TestMockPassesEverything runs every feature against the in-process mock:
// every scenario must pass, none may be skipped.
func TestMockPassesEverything(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	res, err := conformance.Run(t.Context(), conformance.Config{
		Target:      startMock(t, defaultData, nil),
		APIKey:      apiKey,
		Password:    fake.DefaultPassword,
		AdminAPIKey: apiKey,
		Output:      &out,
		Concurrency: 4,
	})
	require.NoError(t, err, out.String())
	var summary bytes.Buffer
	require.NoError(t, res.WriteSummary(&summary))
	t.Log(summary.String())
	assert.NotEmpty(t, res.Scenarios)
	assert.Zero(t, res.Failed, "failed scenarios")
	assert.Zero(t, res.Skipped, "skipped scenarios")
	assert.Empty(t, res.Violations)
	assert.Equal(t, len(res.Scenarios), res.Passed)
}

// TestScenariosWaitForMetadata runs the scenarios that judge a file's EXIF
// against a target that reads it half a second after the upload, as a real
// server does: they wait for it, within --settle, and fail, saying how long
// they waited, when it takes longer than that.
func TestScenariosWaitForMetadata(t *testing.T) {
	t.Parallel()
	lateExif := func(h http.Handler, _ model.Dataset) http.Handler {
		var mu sync.Mutex
		uploaded := map[string]time.Time{}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			id, isAsset := strings.CutPrefix(r.URL.Path, "/api/asset/")
			mu.Lock()
			at, seen := uploaded[id]
			if isAsset && r.Method == http.MethodGet && !seen {
				uploaded[id], at = time.Now(), time.Now()
			}
			mu.Unlock()
			if !isAsset || r.Method != http.MethodGet || time.Since(at) > 500*time.Millisecond {
				h.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			body, _ := decode(rec.Body.Bytes()).(map[string]any)
			if body != nil {
				delete(body, "exifInfo")
			}
			writeJSON(w, rec.Code, body)
		})
	}
	for _, tt := range []struct {
		settle time.Duration
		failed bool
	}{{5 * time.Second, false}, {100 * time.Millisecond, true}} {
		var out bytes.Buffer
		res, err := conformance.Run(t.Context(), conformance.Config{
			Target: startMock(t, smallData, lateExif), APIKey: apiKey, AdminAPIKey: apiKey,
			Tags: "@shared-links", Settle: tt.settle, Output: &out, Concurrency: 4,
		})
		require.NoError(t, err)
		var failures []string
		for _, s := range res.Scenarios {
			if s.Status == conformance.Failed {
				failures = append(failures, s.Failure)
			}
		}
		if !tt.failed {
			assert.Empty(t, failures, "with --settle %s", tt.settle)
			continue
		}
		require.NotEmpty(t, failures, "with --settle %s", tt.settle)
		for _, f := range failures {
			assert.Contains(t, f, "the photo has no exifInfo (still so after")
		}
	}
}
