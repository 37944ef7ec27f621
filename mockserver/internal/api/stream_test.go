package api

import (
	"crypto/sha1"
	"encoding/base64"
	"io"
	"mime/multipart"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/internal/media"
)

// patternReader yields n bytes of a fixed pattern without holding them. It
// copies from one block, so generating a gigabyte costs little even under -race.
type patternReader struct {
	left  int64
	off   int
	block []byte
}

func newPatternReader(n int64) *patternReader {
	block := make([]byte, 251*256)
	for i := range block {
		block[i] = byte(i % 251)
	}
	return &patternReader{left: n, block: block}
}

func (p *patternReader) Read(b []byte) (int, error) {
	if p.left == 0 {
		return 0, io.EOF
	}
	n := copy(b[:min(int64(len(b)), p.left)], p.block[p.off:])
	p.off = (p.off + n) % len(p.block)
	p.left -= int64(n)
	return n, nil
}

// TestUploadStreamsLargeFiles sends a 1 GiB file and samples the heap while
// the mock reads it: memory must not grow with the size of the file.
func TestUploadStreamsLargeFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 1 GiB")
	}
	const size = 1 << 30
	const limit = 64 << 20
	dir := t.TempDir()
	srv := newTestServer(t, func(c *Config) { c.MediaDir = dir }) // streamed to disk too

	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	want := sha1.New()
	go func() {
		for _, kv := range validForm("").fields {
			_ = mw.WriteField(kv[0], kv[1])
		}
		w, err := mw.CreateFormFile("assetData", "VID_20260101_120000.mp4")
		if err == nil {
			_, err = io.Copy(io.MultiWriter(w, want), newPatternReader(size))
		}
		if err == nil {
			err = mw.Close()
		}
		pw.CloseWithError(err)
	}()

	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	runtime.GC()
	wg.Go(func() {
		var ms runtime.MemStats
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})

	r := newRequest(t, http.MethodPost, srv.URL+"/api/asset/upload", pr, "Content-Type", mw.FormDataContentType(), "x-api-key", keyAlice)
	rep := do(t, r)
	close(done)
	wg.Wait()
	require.Equal(t, http.StatusCreated, rep.status, "body: %s", rep.body)
	t.Logf("peak heap in use while streaming 1 GiB: %.1f MiB", float64(peak.Load())/(1<<20))
	assert.Less(t, peak.Load(), uint64(limit))

	assets := listAssets(t, srv, keyAlice)
	assert.Equal(t, base64.StdEncoding.EncodeToString(want.Sum(nil)), assets[0].Checksum)
	assert.EqualValues(t, size, *assets[0].ExifInfo.FileSizeInByte)
	assert.EqualValues(t, size, indexed(dir, media.Original)[assets[0].ID], "the whole file is kept")
}
