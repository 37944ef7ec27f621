package media

import (
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProfileImagesHeldInMemoryStayWithinTheirRoom: without a media
// folder, an image takes the room Reserve took for it, gives it back when
// discarded or dropped, and reads back as it was kept.
func TestProfileImagesHeldInMemoryStayWithinTheirRoom(t *testing.T) {
	p := NewProfileImages(nil)
	at := time.Unix(1_700_000_000, 0)
	const size = 1 << 10
	require.True(t, p.Reserve(size))
	assert.False(t, p.Reserve(MaxProfileImagesHeld-size+1), "no room past the bound")

	img := &NewImage{Name: "me.jpg", Body: append(make([]byte, 0, size), "face"...)}
	require.NoError(t, p.Put("upload/profile/u/1.jpg", img, at))
	assert.Nil(t, img.Body, "kept: Discard gives nothing back")
	p.Discard(img)
	assert.False(t, p.Reserve(MaxProfileImagesHeld-size+1), "the kept image holds its room")

	r, kept, ok := p.Get("upload/profile/u/1.jpg")
	require.True(t, ok)
	b, err := io.ReadAll(r)
	require.NoError(t, err)
	require.NoError(t, r.Close())
	assert.Equal(t, "face", string(b))
	assert.Equal(t, at, kept)

	p.Drop("upload/profile/u/1.jpg")
	_, _, ok = p.Get("upload/profile/u/1.jpg")
	assert.False(t, ok)
	require.True(t, p.Reserve(MaxProfileImagesHeld-size), "the dropped image's room is free")
	assert.False(t, p.Reserve(size+1))
	p.Discard(&NewImage{Body: make([]byte, 0, size)})
	assert.True(t, p.Reserve(size+1), "a discarded image's room is free")
}

// TestProfileImagesInAFolderAreItsBlobs: with a media folder, an image
// kept is a blob of kind Profile; one discarded gives its place back.
func TestProfileImagesInAFolderAreItsBlobs(t *testing.T) {
	dir := t.TempDir()
	m, err := Open(dir, 1)
	require.NoError(t, err)
	t.Cleanup(func() { _ = m.Close() })
	p := NewProfileImages(m)

	f, err := m.Incoming()
	require.NoError(t, err)
	_, err = f.Write([]byte("face"))
	require.NoError(t, err)
	require.NoError(t, p.Put("upload/profile/u/1.jpg", &NewImage{Name: "me.jpg", File: f}, time.Now()))
	assert.Contains(t, indexed(dir, Profile), "upload/profile/u/1.jpg")

	r, _, ok := p.Get("upload/profile/u/1.jpg")
	require.True(t, ok)
	b, err := io.ReadAll(r)
	require.NoError(t, err)
	require.NoError(t, r.Close())
	assert.Equal(t, "face", string(b))

	f, err = m.Incoming()
	require.NoError(t, err)
	_, err = m.Incoming()
	assert.ErrorIs(t, err, ErrTooManyFiles, "the only place is taken")
	p.Discard(&NewImage{File: f})
	f, err = m.Incoming()
	require.NoError(t, err, "the discarded image's place is free")
	f.Drop()
	assert.Len(t, indexed(dir, Profile), 1)
}
