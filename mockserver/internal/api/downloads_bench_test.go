package api

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/internal/media"
)

// BenchmarkArchive streams a zip of 20 uploaded files of 8 MiB (160 MiB)
// over a loopback connection to a client that reads it to its end
// ("archive"), beside the same files read from the media folder
// (MEDIASPEC_BENCH_MEDIA, else a temporary folder) through the same
// buffer ("disk"): the first's MB/s over the second's is how much of the
// disk's speed (or its cache's) an archive keeps.
func BenchmarkArchive(b *testing.B) {
	const files, size = 20, 8 << 20
	dir := b.TempDir()
	if d := os.Getenv("MEDIASPEC_BENCH_MEDIA"); d != "" {
		dir = d
	}
	h, err := New(Config{Dataset: testDataset, Now: testNow, MediaDir: dir})
	require.NoError(b, err)
	b.Cleanup(func() { _ = h.Close() })
	srv := httptest.NewServer(h)
	b.Cleanup(srv.Close)
	ids := make([]string, files)
	content := make([]byte, size)
	for i := range ids {
		binary.LittleEndian.PutUint64(content, uint64(i)+1) // new content each
		f := validForm("")
		f.files = []formFile{{"assetData", fmt.Sprintf("VID_%04d.mp4", i), string(content)}}
		form, ct := f.encode(b)
		r, err := http.NewRequestWithContext(b.Context(), http.MethodPost, srv.URL+"/api/asset/upload", bytes.NewReader(form))
		require.NoError(b, err)
		r.Header.Set("Content-Type", ct)
		r.Header.Set("x-api-key", keyAlice)
		resp, err := http.DefaultClient.Do(r)
		require.NoError(b, err)
		var res struct{ ID string }
		require.NoError(b, json.NewDecoder(resp.Body).Decode(&res))
		_ = resp.Body.Close()
		require.Equal(b, http.StatusCreated, resp.StatusCode)
		ids[i] = res.ID
	}
	body, err := json.Marshal(map[string]any{"assetIds": ids})
	require.NoError(b, err)
	buf := make([]byte, archiveBuffer)

	b.Run("archive", func(b *testing.B) {
		b.SetBytes(files * size)
		b.ReportAllocs()
		for b.Loop() {
			r, err := http.NewRequestWithContext(b.Context(), http.MethodPost, srv.URL+"/api/download/archive", bytes.NewReader(body))
			require.NoError(b, err)
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("x-api-key", keyAlice)
			resp, err := http.DefaultClient.Do(r)
			require.NoError(b, err)
			n, err := io.CopyBuffer(io.Discard, resp.Body, buf)
			_ = resp.Body.Close()
			require.NoError(b, err)
			require.Greater(b, n, int64(files*size))
		}
	})
	b.Run("disk", func(b *testing.B) {
		b.SetBytes(files * size)
		for b.Loop() {
			for _, id := range ids {
				f, _, ok := h.s.folder.Open(media.Original, id)
				require.True(b, ok)
				_, err := io.CopyBuffer(io.Discard, struct{ io.Reader }{f}, buf)
				require.NoError(b, err)
			}
		}
	})
}
