package api

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/internal/media"
	"github.com/mediaspec/mediaspec/mockserver/internal/media/mediatest"
)

// stalledImage is a profile image whose client stops before the last
// bytes of its body.
type stalledImage struct {
	t      *testing.T
	pw     *io.PipeWriter
	rest   []byte
	answer chan reply
}

// stallProfileImage sends a profile image of size bytes as key, all but
// the last 100 bytes of its body, and returns once they are written.
func stallProfileImage(t *testing.T, srv *httptest.Server, key string, size int) *stalledImage {
	t.Helper()
	form, ct := profileForm(t, "file", "me.jpg", bytes.Repeat([]byte{0xab}, size))
	return stallBody(t, srv, "/api/users/profile-image", key, form.Bytes(), ct)
}

// stallBody posts a multipart body to path as key, all but its last 100
// bytes, and returns once they are written.
func stallBody(t *testing.T, srv *httptest.Server, path, key string, body []byte, ct string) *stalledImage {
	t.Helper()
	pr, pw := io.Pipe()
	s := &stalledImage{t: t, pw: pw, rest: body[len(body)-100:], answer: make(chan reply, 1)}
	t.Cleanup(func() { _ = pw.CloseWithError(io.ErrUnexpectedEOF) })
	go func() {
		r, _ := http.NewRequest(http.MethodPost, srv.URL+path, pr)
		r.Header.Set("Content-Type", ct)
		r.Header.Set("x-api-key", key)
		r.ContentLength = int64(len(body))
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			s.answer <- reply{}
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		s.answer <- reply{status: resp.StatusCode, header: resp.Header, body: b}
	}()
	_, err := pw.Write(body[:len(body)-100])
	require.NoError(t, err)
	return s
}

// finish sends the rest of the body, and is the answer.
func (s *stalledImage) finish() reply {
	s.t.Helper()
	_, err := s.pw.Write(s.rest)
	require.NoError(s.t, err)
	require.NoError(s.t, s.pw.Close())
	return <-s.answer
}

// abandon cuts the body short: the client is gone.
func (s *stalledImage) abandon() {
	_ = s.pw.CloseWithError(io.ErrUnexpectedEOF)
	<-s.answer
}

func postProfileImage(t *testing.T, srv *httptest.Server, key string, field, name string, content []byte) reply {
	t.Helper()
	body, ct := profileForm(t, field, name, content)
	return do(t, newRequest(t, http.MethodPost, srv.URL+"/api/users/profile-image", body, "Content-Type", ct, "x-api-key", key))
}

// TestProfileImagesHoldAPlaceForAFile: a profile image is written to the
// media folder as it arrives, holding one of the places an upload holds:
// while a stalled one holds the only place, another profile image and an
// upload are answered 503.
func TestProfileImagesHoldAPlaceForAFile(t *testing.T) {
	srv := newTestServer(t, func(c *Config) { c.MediaDir, c.MaxUploadFiles = t.TempDir(), 1 })
	stalled := stallProfileImage(t, srv, keyBob, 256<<10)
	var refused reply
	require.Eventually(t, func() bool {
		refused = postProfileImage(t, srv, keyAlice, "file", "me.jpg", testJPEG(t, 8, 8))
		return refused.status == http.StatusServiceUnavailable
	}, 5*time.Second, 10*time.Millisecond, "the stalled image holds the only place")
	requireError(t, refused, 503, "Too many uploads are arriving at once; try again in a moment")
	upload := do(t, uploadRequest(t, srv, validForm("").onlyFields().withFile("assetData", "IMG_0300.jpg", string(testJPEG(t, 32, 24))), keyAlice))
	requireError(t, upload, 503, "Too many uploads are arriving at once; try again in a moment")

	assert.Equal(t, http.StatusCreated, stalled.finish().status)
	assert.Equal(t, http.StatusCreated, postProfileImage(t, srv, keyAlice, "file", "me.jpg", testJPEG(t, 8, 8)).status, "the freed place serves again")
}

// TestProfileImageBurstIsWrittenAsItArrives: images arriving at once are
// written to the media folder as they come, each in a pack of its own,
// without their bytes in memory; once they are kept, their packs close
// but for the idle few, and the last one set reads back whole. Images
// refused leave nothing in the index.
func TestProfileImageBurstIsWrittenAsItArrives(t *testing.T) {
	dir := t.TempDir()
	srv := newTestServer(t, func(c *Config) { c.MediaDir = dir })
	const n, size = 8, 8 << 20
	// The clients' body is made before the server's memory is measured.
	form, ct := profileForm(t, "file", "me.jpg", bytes.Repeat([]byte{0xab}, size))
	body := form.Bytes()
	var before, during runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	stalled := make([]*stalledImage, n)
	for i := range stalled {
		stalled[i] = stallBody(t, srv, "/api/users/profile-image", keyBob, body, ct)
	}
	require.Eventually(t, func() bool { return mediatest.OpenPacks(t, dir) == n }, 5*time.Second, 10*time.Millisecond, "a pack for each image arriving")
	runtime.GC()
	runtime.ReadMemStats(&during)
	grown := int64(during.HeapInuse) - int64(before.HeapInuse)
	t.Logf("%d images of %d MiB arriving: the heap grew by %d KiB", n, size>>20, grown>>10)
	assert.Less(t, grown, int64(16<<20), "an image arriving is not held in memory")

	var last reply
	for _, s := range stalled {
		last = s.finish()
		require.Equal(t, http.StatusCreated, last.status, "%s", last.body)
	}
	assert.LessOrEqual(t, mediatest.OpenPacks(t, dir), media.MaxIdlePacks, "the writers' packs are closed")
	got := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/"+bobID+"/profile-image", nil, "x-api-key", keyAlice))
	require.Equal(t, http.StatusOK, got.status)
	assert.Equal(t, bytes.Repeat([]byte{0xab}, size), got.body)
	assert.LessOrEqual(t, mediatest.OpenPacks(t, dir), media.MaxIdlePacks, "the reader's pack is let go")

	kept := len(indexed(dir, media.Profile))
	var twice bytes.Buffer
	mw := multipart.NewWriter(&twice)
	for range 2 {
		fw, err := mw.CreateFormFile("file", "me.jpg")
		require.NoError(t, err)
		_, err = fw.Write(testJPEG(t, 8, 8))
		require.NoError(t, err)
	}
	require.NoError(t, mw.Close())
	requireError(t, do(t, newRequest(t, http.MethodPost, srv.URL+"/api/users/profile-image", &twice, "Content-Type", mw.FormDataContentType(), "x-api-key", keyBob)), 400, "Unexpected field")
	requireError(t, postProfileImage(t, srv, keyBob, "file", "me.jpg", make([]byte, maxProfileImage+1)), 413, "A profile image is at most 16777216 bytes")
	assert.Len(t, indexed(dir, media.Profile), kept, "a refused image is not kept")
	assert.LessOrEqual(t, mediatest.OpenPacks(t, dir), media.MaxIdlePacks)
}

// TestProfileImagesBeingReadCountAgainstTheRoomHeld: without a media
// folder, images are held in memory within media.MaxProfileImagesHeld, and
// those being read take their room as they start: four stalled images of
// 16 MiB leave no room for a fifth of 64 KiB, until they are gone.
func TestProfileImagesBeingReadCountAgainstTheRoomHeld(t *testing.T) {
	srv := newTestServer(t)
	stalled := make([]*stalledImage, 4)
	for i := range stalled {
		stalled[i] = stallProfileImage(t, srv, keyBob, maxProfileImage-1024)
	}
	small := bytes.Repeat([]byte{0xcd}, 64<<10)
	var refused reply
	require.Eventually(t, func() bool {
		refused = postProfileImage(t, srv, keyAlice, "file", "me.jpg", small)
		return refused.status == http.StatusInsufficientStorage
	}, 5*time.Second, 10*time.Millisecond, "the images being read take the room")
	requireError(t, refused, 507, nil)

	for _, s := range stalled[1:] {
		s.abandon()
	}
	assert.Equal(t, http.StatusCreated, stalled[0].finish().status, "an image read whole is held")
	assert.Equal(t, http.StatusCreated, postProfileImage(t, srv, keyAlice, "file", "me.jpg", small).status, "the room of the abandoned ones is free again")
	got := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/"+aliceID+"/profile-image", nil, "x-api-key", keyBob))
	assert.Equal(t, small, got.body)
	requireError(t, postProfileImage(t, srv, keyCarol, "file", "me.jpg", make([]byte, maxProfileImage+1)), 413, "A profile image is at most 16777216 bytes")
}
