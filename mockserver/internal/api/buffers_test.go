package api

import (
	"bytes"
	"io"
	"mime/multipart"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLargeBuffersAreBounded: however many uploads are under way (stalled
// ones included), at most maxLargeBuffers hold large buffers; the rest read
// through small ones, and every buffer handed back frees its place.
func TestLargeBuffersAreBounded(t *testing.T) {
	p := newBufferPool()
	var held []*uploadBuffers
	large := 0
	for range 3 * maxLargeBuffers {
		b := p.get()
		held = append(held, b)
		if b.large {
			large++
			assert.Equal(t, largeReadSize, b.read.Size())
		} else {
			assert.Equal(t, smallReadSize, b.read.Size())
		}
	}
	assert.Equal(t, maxLargeBuffers, large)
	for _, b := range held {
		p.put(b)
	}
	assert.Zero(t, p.inUse.Load())
	assert.True(t, p.get().large, "a freed place is taken again")
}

// TestPartReadsAreSmall is why the copy buffer is copyBufferSize: a
// multipart part never hands out more than that in one read, however large
// the buffer it is given.
func TestPartReadsAreSmall(t *testing.T) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("assetData", "big.jpg")
	require.NoError(t, err)
	_, err = fw.Write(bytes.Repeat([]byte("x"), 1<<20))
	require.NoError(t, err)
	require.NoError(t, mw.Close())

	part, err := multipart.NewReader(&body, mw.Boundary()).NextPart()
	require.NoError(t, err)
	buf := make([]byte, 64<<10)
	most, total := 0, 0
	for {
		n, err := part.Read(buf)
		most, total = max(most, n), total+n
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
	}
	assert.Equal(t, 1<<20, total)
	assert.LessOrEqual(t, most, copyBufferSize)
}
