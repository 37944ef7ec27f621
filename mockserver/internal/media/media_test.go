package media

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mediaspec/mediaspec/mockserver/internal/media/mediatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPackFilesAreOpenOnlyWhileUsed: ten uploads written at once take ten
// packs; once they are kept, no more than MaxIdlePacks stay open, beside
// a pack a reader holds, whose blob reads whole after the others closed;
// a closed pack opens again for its next reader.
func TestPackFilesAreOpenOnlyWhileUsed(t *testing.T) {
	dir := t.TempDir()
	m, err := Open(dir, 64)
	require.NoError(t, err)
	t.Cleanup(func() { _ = m.Close() })

	const n = 10
	files := make([]*Arriving, n)
	for i := range files {
		files[i], err = m.Incoming()
		require.NoError(t, err)
		_, err = fmt.Fprintf(files[i], "the file of upload %d", i)
		require.NoError(t, err)
	}
	assert.Equal(t, n, mediatest.OpenPacks(t, dir), "a pack for each writer")
	require.NoError(t, files[0].Keep(Original, "a0"))
	first, _, ok := m.Open(Original, "a0")
	require.True(t, ok)
	for i := 1; i < n; i++ {
		require.NoError(t, files[i].Keep(Original, fmt.Sprintf("a%d", i)))
	}
	assert.Equal(t, 1+MaxIdlePacks, mediatest.OpenPacks(t, dir), "the reader's pack, and the idle few")
	b, err := io.ReadAll(first)
	require.NoError(t, err)
	assert.Equal(t, "the file of upload 0", string(b), "a reader's pack stays open under it")
	require.NoError(t, first.Close())
	require.NoError(t, first.Close(), "twice is no harm")
	assert.Equal(t, MaxIdlePacks, mediatest.OpenPacks(t, dir))

	for _, key := range []string{"a1", "a9"} { // closed, and still open
		f, _, ok := m.Open(Original, key)
		require.True(t, ok)
		b, err := io.ReadAll(f)
		require.NoError(t, err)
		assert.Equal(t, "the file of upload "+key[1:], string(b))
		require.NoError(t, f.Close())
	}
	assert.Equal(t, MaxIdlePacks, mediatest.OpenPacks(t, dir))

	// A dropped file gives its pack back as a kept one does.
	f, err := m.Incoming()
	require.NoError(t, err)
	f.Drop()
	assert.Len(t, m.open, 0, "every place is free")
	assert.LessOrEqual(t, mediatest.OpenPacks(t, dir), MaxIdlePacks)
}

// TestPacksOfAnEarlierRunOpenWhenRead: a media folder opened again opens
// no pack until a blob of it is read.
func TestPacksOfAnEarlierRunOpenWhenRead(t *testing.T) {
	dir := t.TempDir()
	m, err := Open(dir, 64)
	require.NoError(t, err)
	files := make([]*Arriving, 3)
	for i := range files {
		files[i], err = m.Incoming()
		require.NoError(t, err)
		_, err = fmt.Fprintf(files[i], "file %d", i)
		require.NoError(t, err)
	}
	for i, f := range files {
		require.NoError(t, f.Keep(Original, fmt.Sprint(i)))
	}
	require.NoError(t, m.Close())
	assert.Zero(t, mediatest.OpenPacks(t, dir))

	m, err = Open(dir, 64)
	require.NoError(t, err)
	t.Cleanup(func() { _ = m.Close() })
	assert.Zero(t, mediatest.OpenPacks(t, dir), "no pack is open before it is used")
	f, _, ok := m.Open(Original, "2")
	require.True(t, ok)
	b, err := io.ReadAll(f)
	require.NoError(t, err)
	assert.Equal(t, "file 2", string(b))
	require.NoError(t, f.Close())
	assert.Equal(t, 1, mediatest.OpenPacks(t, dir))
}

// TestReusedMediaFolderStartsClean: a file a mock that stopped left half
// written belongs to no asset; a mock that reuses the folder writes over
// it, and keeps the blobs its index names.
func TestReusedMediaFolderStartsClean(t *testing.T) {
	dir := t.TempDir()
	m, err := Open(dir, 64)
	require.NoError(t, err)
	require.NoError(t, m.Put(Original, "kept", []byte("an original")))
	half, err := m.Incoming()
	require.NoError(t, err)
	_, err = half.Write([]byte("half of a file, then the mock stopped"))
	require.NoError(t, err)

	again, err := Open(dir, 64)
	require.NoError(t, err)
	r, _, ok := again.Open(Original, "kept")
	require.True(t, ok)
	kept, err := io.ReadAll(r)
	require.NoError(t, err)
	assert.Equal(t, "an original", string(kept))
	assert.Len(t, indexed(dir, Original), 1, "the half-written file is no blob")
	next, err := again.Incoming()
	require.NoError(t, err)
	assert.EqualValues(t, len("an original"), next.off, "the next file writes over the half-written one")
	next.Drop()
}

// indexed are the keys of the blobs of kind a media folder's index names,
// with their sizes.
func indexed(dir string, kind Kind) map[string]int64 {
	b, _ := os.ReadFile(filepath.Join(dir, "blobs.index"))
	keys := map[string]int64{}
	for line := range strings.Lines(string(b)) {
		f := strings.Fields(line)
		if len(f) == 6 && f[0] == string(kind) {
			size, _ := strconv.ParseInt(f[4], 10, 64)
			keys[f[1]] = size
		}
	}
	return keys
}
