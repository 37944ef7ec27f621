package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// seededPhoto is what the tests read of an asset.
type seededPhoto struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	ExifInfo *struct {
		Width  float64 `json:"exifImageWidth"`
		Height float64 `json:"exifImageHeight"`
	} `json:"exifInfo"`
}

// largestOriginals are the ids of the n seeded photos with the most pixels
// that the server at base holds for the default user.
func largestOriginals(t *testing.T, base string, n int) []string {
	t.Helper()
	var assets []seededPhoto
	root := strings.TrimSuffix(base, "/api")
	require.NoError(t, json.Unmarshal(get(t, root+"/__mock/assets", defaultAPIKey), &assets))
	assets = slices.DeleteFunc(assets, func(a seededPhoto) bool {
		return a.Type != "IMAGE" || a.ExifInfo == nil
	})
	slices.SortFunc(assets, func(a, b seededPhoto) int {
		return int(b.ExifInfo.Width*b.ExifInfo.Height - a.ExifInfo.Width*a.ExifInfo.Height)
	})
	require.GreaterOrEqual(t, len(assets), n, "the seeded data has photos enough")
	ids := make([]string, n)
	for i := range ids {
		ids[i] = assets[i].ID
	}
	t.Logf("the largest seeded photo: %.0f × %.0f", assets[0].ExifInfo.Width, assets[0].ExifInfo.Height)
	return ids
}

// TestBurstsOfPaintedOriginalsStaySmall: 16 download archives of the
// largest seeded originals and 32 requests for distinct large originals,
// all at once: each picture is painted a band of rows at a time in one of
// a few slots, so the process stays under 512 MiB (such bursts once took
// it to 3.1 and 2.8 GB). Every answer is the picture, or 503 with
// Retry-After once the wait for a slot is over.
func TestBurstsOfPaintedOriginalsStaySmall(t *testing.T) {
	base, pid := serveBuilt(t)
	ids := largestOriginals(t, base, 32)
	client := &http.Client{Timeout: 2 * time.Minute}
	var served atomic.Int32
	check := func(what string, req *http.Request) {
		req.Header.Set("x-api-key", defaultAPIKey)
		resp, err := client.Do(req)
		if !assert.NoError(t, err, what) {
			return
		}
		defer resp.Body.Close()
		n, err := io.Copy(io.Discard, resp.Body)
		assert.NoError(t, err, what)
		switch resp.StatusCode {
		case http.StatusOK:
			served.Add(1)
			assert.Positive(t, n, what)
		case http.StatusServiceUnavailable:
			assert.Equal(t, "1", resp.Header.Get("Retry-After"), what)
		default:
			t.Errorf("%s: status %d", what, resp.StatusCode)
		}
	}
	burst(16+32, func(i int) {
		if i < 16 {
			body := fmt.Sprintf(`{"assetIds":[%q,%q]}`, ids[i], ids[(i+16)%len(ids)])
			req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, base+"/download/archive", bytes.NewReader([]byte(body)))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			check(fmt.Sprintf("archive %d", i), req)
			return
		}
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, base+"/asset/file/"+ids[i-16], nil)
		require.NoError(t, err)
		check(fmt.Sprintf("original %d", i-16), req)
	})
	assert.Positive(t, served.Load(), "some were painted while the others waited")
	requirePeakUnder(t, pid, 512<<20, fmt.Sprintf("16 archives and 32 originals at once (%d painted, the rest 503)", served.Load()))
}
