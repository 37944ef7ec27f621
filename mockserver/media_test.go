package mockserver

import (
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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

// TestReusedMediaFolderStartsClean: a file a mock that stopped left half
// written belongs to no asset; a mock that reuses the folder writes over
// it, and keeps the blobs its index names.
func TestReusedMediaFolderStartsClean(t *testing.T) {
	dir := t.TempDir()
	m, err := openMedia(dir, 0)
	require.NoError(t, err)
	require.NoError(t, m.put(blobOriginal, "kept", []byte("an original")))
	half, err := m.incoming()
	require.NoError(t, err)
	_, err = half.Write([]byte("half of a file, then the mock stopped"))
	require.NoError(t, err)

	again, err := openMedia(dir, 0)
	require.NoError(t, err)
	r, _, ok := again.read(blobOriginal, "kept")
	require.True(t, ok)
	kept, err := io.ReadAll(r)
	require.NoError(t, err)
	assert.Equal(t, "an original", string(kept))
	assert.Len(t, indexed(dir, blobOriginal), 1, "the half-written file is no blob")
	next, err := again.incoming()
	require.NoError(t, err)
	assert.EqualValues(t, len("an original"), next.off, "the next file writes over the half-written one")
	next.drop()
}
