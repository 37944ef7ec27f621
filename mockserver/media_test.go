package mockserver

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// openPacks is how many of the process's file descriptors are pack files
// of the media folder dir, as Linux's /proc lists them.
func openPacks(t *testing.T, dir string) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd to count file descriptors in")
	}
	packs := filepath.Join(dir, "packs") + string(filepath.Separator)
	n := 0
	for _, fd := range fds {
		if target, err := os.Readlink("/proc/self/fd/" + fd.Name()); err == nil && strings.HasPrefix(target, packs) {
			n++
		}
	}
	return n
}

// TestPackFilesAreOpenOnlyWhileUsed: ten uploads written at once take ten
// packs; once they are kept, no more than maxIdlePacks stay open, beside
// a pack a reader holds, whose blob reads whole after the others closed;
// a closed pack opens again for its next reader.
func TestPackFilesAreOpenOnlyWhileUsed(t *testing.T) {
	dir := t.TempDir()
	m, err := openMedia(dir, 64)
	require.NoError(t, err)
	t.Cleanup(func() { _ = m.close() })

	const n = 10
	files := make([]*arriving, n)
	for i := range files {
		files[i], err = m.incoming()
		require.NoError(t, err)
		_, err = fmt.Fprintf(files[i], "the file of upload %d", i)
		require.NoError(t, err)
	}
	assert.Equal(t, n, openPacks(t, dir), "a pack for each writer")
	require.NoError(t, files[0].keep(blobOriginal, "a0"))
	first, _, ok := m.read(blobOriginal, "a0")
	require.True(t, ok)
	for i := 1; i < n; i++ {
		require.NoError(t, files[i].keep(blobOriginal, fmt.Sprintf("a%d", i)))
	}
	assert.Equal(t, 1+maxIdlePacks, openPacks(t, dir), "the reader's pack, and the idle few")
	b, err := io.ReadAll(first)
	require.NoError(t, err)
	assert.Equal(t, "the file of upload 0", string(b), "a reader's pack stays open under it")
	require.NoError(t, first.Close())
	require.NoError(t, first.Close(), "twice is no harm")
	assert.Equal(t, maxIdlePacks, openPacks(t, dir))

	for _, key := range []string{"a1", "a9"} { // closed, and still open
		f, _, ok := m.read(blobOriginal, key)
		require.True(t, ok)
		b, err := io.ReadAll(f)
		require.NoError(t, err)
		assert.Equal(t, "the file of upload "+key[1:], string(b))
		require.NoError(t, f.Close())
	}
	assert.Equal(t, maxIdlePacks, openPacks(t, dir))

	// A dropped file gives its pack back as a kept one does.
	f, err := m.incoming()
	require.NoError(t, err)
	f.drop()
	assert.Len(t, m.open, 0, "every place is free")
	assert.LessOrEqual(t, openPacks(t, dir), maxIdlePacks)
}

// TestPacksOfAnEarlierRunOpenWhenRead: a media folder opened again opens
// no pack until a blob of it is read.
func TestPacksOfAnEarlierRunOpenWhenRead(t *testing.T) {
	dir := t.TempDir()
	m, err := openMedia(dir, 64)
	require.NoError(t, err)
	files := make([]*arriving, 3)
	for i := range files {
		files[i], err = m.incoming()
		require.NoError(t, err)
		_, err = fmt.Fprintf(files[i], "file %d", i)
		require.NoError(t, err)
	}
	for i, f := range files {
		require.NoError(t, f.keep(blobOriginal, fmt.Sprint(i)))
	}
	require.NoError(t, m.close())
	assert.Zero(t, openPacks(t, dir))

	m, err = openMedia(dir, 64)
	require.NoError(t, err)
	t.Cleanup(func() { _ = m.close() })
	assert.Zero(t, openPacks(t, dir), "no pack is open before it is used")
	f, _, ok := m.read(blobOriginal, "2")
	require.True(t, ok)
	b, err := io.ReadAll(f)
	require.NoError(t, err)
	assert.Equal(t, "file 2", string(b))
	require.NoError(t, f.Close())
	assert.Equal(t, 1, openPacks(t, dir))
}

// TestEveryReaderLetsItsPackGo: eight uploads arriving at once are kept
// in eight packs; once their pictures are made (each original read), and
// every answer that reads a kept file has been given (thumbnail, preview,
// original, download, archive), no pack has a user left, and no more than
// maxIdlePacks are open.
func TestEveryReaderLetsItsPackGo(t *testing.T) {
	dir := t.TempDir()
	h, err := New(Config{Dataset: testDataset, Now: testNow, MediaDir: dir})
	require.NoError(t, err)
	t.Cleanup(func() { _ = h.Close() })
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)

	const n = 8
	stalled := make([]*stalledImage, n)
	for i := range stalled {
		body, ct := validForm("").onlyFields().withFile("assetData", fmt.Sprintf("IMG_%04d.jpg", i), string(testJPEG(t, 64+i, 48))).encode(t)
		stalled[i] = stallBody(t, srv, "/api/asset/upload", keyAlice, body, ct)
	}
	require.Eventually(t, func() bool { return openPacks(t, dir) == n }, 5*time.Second, 10*time.Millisecond, "a pack for each upload arriving")
	ids := make([]string, n)
	for i, s := range stalled {
		rep := s.finish()
		require.Equal(t, http.StatusCreated, rep.status, "%s", rep.body)
		var res struct{ ID string }
		rep.json(t, &res)
		ids[i] = res.ID
	}
	for _, id := range ids {
		require.Eventually(t, func() bool {
			var a struct{ Resized bool }
			do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/"+id, nil, "x-api-key", keyAlice)).json(t, &a)
			return a.Resized
		}, 10*time.Second, 20*time.Millisecond, "the pictures of %s are made", id)
	}
	for _, id := range ids {
		for _, path := range []string{"/api/asset/thumbnail/" + id, "/api/asset/thumbnail/" + id + "?format=JPEG", "/api/asset/file/" + id} {
			assert.Equal(t, http.StatusOK, do(t, newRequest(t, http.MethodGet, srv.URL+path, nil, "x-api-key", keyAlice)).status, path)
		}
		assert.Equal(t, http.StatusOK, do(t, newRequest(t, http.MethodPost, srv.URL+"/api/download/asset/"+id, nil, "x-api-key", keyAlice)).status)
	}
	archive := controlJSON(t, srv, http.MethodPost, "/api/download/archive", keyAlice, map[string]any{"assetIds": ids})
	require.Equal(t, http.StatusOK, archive.status, "%s", archive.body)

	m := h.s.folder
	m.mu.Lock()
	for _, p := range m.packs {
		assert.Zero(t, p.users, "users left of pack %d", p.n)
	}
	m.mu.Unlock()
	assert.LessOrEqual(t, openPacks(t, dir), maxIdlePacks)
}
