package api

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/fake"
	"github.com/mediaspec/mediaspec/mockserver/internal/httpx"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// fillSlots takes every slot of l, and gives them back at the test's end.
func fillSlots(t *testing.T, l httpx.LargeAnswers) {
	t.Helper()
	for range cap(l) {
		l <- struct{}{}
	}
	t.Cleanup(func() {
		for len(l) > 0 {
			l.Release()
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

	s.painters.originals.Release()
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

// smallSendBuffers is a listener whose connections have small kernel send
// buffers: what its client has not read waits in the server's writes, not
// in megabytes of the kernel's, so a test can time the server's deadlines.
type smallSendBuffers struct{ net.Listener }

func (l smallSendBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(32 << 10)
	}
	return c, err
}

// TestTricklingArchiveReaderIsCutOff: a client that takes each piece of an
// archive in time, but the whole far slower than the pace, no longer
// holds its slot for as long as the archive lasts: it is cut off once its
// writes have waited longer than the pace allows for what it took. One
// that reads as fast as it can takes the whole archive.
func TestTricklingArchiveReaderIsCutOff(t *testing.T) {
	h, err := New(Config{Dataset: testDataset, Now: testNow, MediaDir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(func() { _ = h.Close() })
	// Each 256 KiB piece may take 560 ms, and the client takes one in
	// 320 ms: each deadline alone would be renewed in time, all archive
	// long. The client reads at a fifth of the pace.
	p := pace{base: 500 * time.Millisecond, rate: 4 << 20}
	h.s.archivePace = p
	serve := func(wrap func(net.Listener) net.Listener) *httptest.Server {
		srv := httptest.NewUnstartedServer(h)
		srv.Config = httpx.HTTPServer(h, slog.New(slog.DiscardHandler))
		srv.Listener = httpx.Listener(wrap(srv.Listener), 0)
		srv.Start()
		t.Cleanup(srv.Close)
		return srv
	}
	srv := serve(func(l net.Listener) net.Listener { return l })
	// A loopback connection of small buffers is slower than the pace:
	// only the trickling client uses one.
	small := serve(func(l net.Listener) net.Listener { return smallSendBuffers{l} })
	big := uploadNamed(t, srv, "VID_0001.mp4", bytes.Repeat([]byte("frames "), 600_000)) // 4 MiB
	ids := strings.Repeat(`"`+big.id+`",`, 10)
	body := `{"assetIds":[` + ids[:len(ids)-1] + `]}`
	archiveSize := 10 * len(big.content)

	t.Run("a fast reader", func(t *testing.T) {
		resp, err := srv.Client().Do(newRequest(t, http.MethodPost, srv.URL+"/api/download/archive", strings.NewReader(body), "Content-Type", "application/json", "x-api-key", keyAlice))
		require.NoError(t, err)
		defer resp.Body.Close()
		n, err := io.Copy(io.Discard, resp.Body)
		require.NoError(t, err)
		assert.Greater(t, n, int64(archiveSize))
	})

	t.Run("a trickling reader", func(t *testing.T) {
		conn, err := net.DialTimeout("tcp", small.Listener.Addr().String(), 5*time.Second)
		require.NoError(t, err)
		defer conn.Close()
		_ = conn.(*net.TCPConn).SetReadBuffer(32 << 10)
		require.NoError(t, conn.SetDeadline(time.Now().Add(30*time.Second)))
		start := time.Now()
		_, err = fmt.Fprintf(conn, "POST /api/download/archive HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", keyAlice, len(body), body)
		require.NoError(t, err)
		var read atomic.Int64
		go func() {
			buf := make([]byte, 16<<10)
			for {
				n, err := conn.Read(buf)
				read.Add(int64(n))
				if err != nil {
					return
				}
				time.Sleep(20 * time.Millisecond) // 800 KiB/s at most
			}
		}()
		require.Eventually(t, func() bool { return len(h.s.archives) == 1 }, 5*time.Second, time.Millisecond, "the archive under way")
		// The pace grants it base, plus what it read (and the kernel's
		// buffers hold) at its rate: the cut comes after about 0.7 s. The
		// old deadline, renewed at each piece, never cut it.
		require.Eventually(t, func() bool { return len(h.s.archives) == 0 }, 5*time.Second, 10*time.Millisecond, "the archive cut off, its slot let go")
		took := time.Since(start)
		t.Logf("cut off after %s, the client having read %d KiB", took.Round(time.Millisecond), read.Load()>>10)
		assert.Greater(t, took, p.base, "not before the pace's base")
		assert.Less(t, read.Load(), int64(archiveSize), "before the archive's end")
	})
}
