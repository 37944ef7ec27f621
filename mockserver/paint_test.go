package mockserver

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/fake"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// fillSlots takes every slot of l, and gives them back at the test's end.
func fillSlots(t *testing.T, l largeAnswers) {
	t.Helper()
	for range cap(l) {
		l <- struct{}{}
	}
	t.Cleanup(func() {
		for len(l) > 0 {
			l.release()
		}
	})
}

// TestPaintersAreBounded: with every painter of originals busy past the
// wait, a seeded original is answered 503 with Retry-After, by each route
// that paints one (an archive too, before it starts); a thumbnail is
// painted all the same, and an original the cache holds needs no painter.
func TestPaintersAreBounded(t *testing.T) {
	s, err := newServer(Config{Dataset: pictureDataset, Now: testNow})
	require.NoError(t, err)
	s.painters.wait = 50 * time.Millisecond
	srv := httptest.NewServer(s.middleware(s.dispatch()))
	t.Cleanup(srv.Close)
	file := func() *http.Request {
		return newRequest(t, http.MethodGet, srv.URL+"/api/asset/file/"+aliceAssetID, nil, "x-api-key", keyAlice)
	}
	fillSlots(t, s.painters.originals)
	for name, r := range map[string]*http.Request{
		"file":     file(),
		"download": newRequest(t, http.MethodPost, srv.URL+"/api/download/asset/"+aliceAssetID, nil, "x-api-key", keyAlice),
		"archive":  newRequest(t, http.MethodPost, srv.URL+"/api/download/archive", strings.NewReader(`{"assetIds":["`+aliceAssetID+`"]}`), "Content-Type", "application/json", "x-api-key", keyAlice),
	} {
		rep := do(t, r)
		assert.Equal(t, http.StatusServiceUnavailable, rep.status, "%s: %s", name, rep.body)
		assert.Equal(t, "1", rep.header.Get("Retry-After"), name)
		assert.JSONEq(t, fmt.Sprintf(`{"message":"Busy: %d pictures are being painted; try again in a moment","error":"Service Unavailable","statusCode":503}`, paintSlots()), string(rep.body), name)
	}
	assert.Empty(t, s.archives, "the archive let its slot go")

	thumb := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/thumbnail/"+aliceAssetID, nil, "x-api-key", keyAlice))
	assert.Equal(t, http.StatusOK, thumb.status, "thumbnails have painters of their own")

	s.painters.originals.release()
	first := do(t, file())
	require.Equal(t, http.StatusOK, first.status, "a free painter paints")
	s.painters.originals <- struct{}{}
	again := do(t, file())
	require.Equal(t, http.StatusOK, again.status, "a painted original is kept")
	assert.Equal(t, first.body, again.body)
}

// TestThumbnailsAreNotStarvedByOriginals: a page that asks for 50
// thumbnails at once, while every painter of originals is busy, gets them
// all.
func TestThumbnailsAreNotStarvedByOriginals(t *testing.T) {
	d := fake.Generate(fake.Options{Seed: 7, Anchor: testNow(), Links: 12, APIKey: keyAlice})
	s, err := newServer(Config{Dataset: func() model.Dataset { return d }, Now: testNow})
	require.NoError(t, err)
	s.painters.wait = 50 * time.Millisecond
	srv := httptest.NewServer(s.middleware(s.dispatch()))
	t.Cleanup(srv.Close)
	var ids []string
	for _, a := range d.Assets {
		if a.OwnerID == d.Users[0].ID && a.Thumbhash != nil && len(ids) < 50 {
			ids = append(ids, a.ID)
		}
	}
	require.Len(t, ids, 50)
	fillSlots(t, s.painters.originals)
	statuses := make([]int, len(ids))
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Go(func() {
			resp, err := srv.Client().Do(newRequest(t, http.MethodGet, srv.URL+"/api/asset/thumbnail/"+id, nil, "x-api-key", keyAlice))
			if err == nil {
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				statuses[i] = resp.StatusCode
			}
		})
	}
	wg.Wait()
	for i, status := range statuses {
		assert.Equal(t, http.StatusOK, status, "thumbnail %d", i)
	}
	assert.Empty(t, s.painters.small, "every painter let go")
	rep := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/file/"+ids[0], nil, "x-api-key", keyAlice))
	assert.Equal(t, http.StatusServiceUnavailable, rep.status, "while the originals' painters are busy")
}

// TestArchiveWaitsForAPainterWithinABound: an archive whose later file
// finds every painter busy past the wait is cut short, its slot let go,
// rather than held for as long as the painters are.
func TestArchiveWaitsForAPainterWithinABound(t *testing.T) {
	d := pictureDataset()
	second := d.Assets[0]
	second.ID, second.OriginalFileName = "00000000-0000-4000-8000-000000000a02", "IMG_0002.jpg"
	second.Checksum, second.Faces = sha1Base64([]byte("the second")), nil
	d.Assets = append(d.Assets, second)
	s, err := newServer(Config{Dataset: func() model.Dataset { return d }, Now: testNow})
	require.NoError(t, err)
	s.painters.patientWait = 50 * time.Millisecond
	srv := httptest.NewServer(s.middleware(s.dispatch()))
	t.Cleanup(srv.Close)
	// The first file is in the cache: the archive starts without a painter.
	require.Equal(t, http.StatusOK, do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/file/"+aliceAssetID, nil, "x-api-key", keyAlice)).status)
	fillSlots(t, s.painters.originals)
	resp, err := srv.Client().Do(newRequest(t, http.MethodPost, srv.URL+"/api/download/archive", strings.NewReader(`{"assetIds":["`+aliceAssetID+`","`+second.ID+`"]}`), "Content-Type", "application/json", "x-api-key", keyAlice))
	if err == nil { // the first file may have been sent before the cut, or not
		defer resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
		_, err = io.Copy(io.Discard, resp.Body)
	}
	assert.Error(t, err, "the archive is cut short, not ended as whole")
	assert.Empty(t, s.archives, "its slot let go")
}
