package pictures

import (
	"bytes"
	"errors"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testdata/testsrc.{avif,jxl} are ffmpeg's testsrc2 pattern at 64×48,
// encoded lossily by libaom and libjxl; testsrc.avif.png and
// testsrc.jxl.png are those files as ffmpeg decodes them (dav1d, libjxl).

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return b
}

// TestDecodeAVIFAndJXL: AVIF (libavif, dav1d) and JPEG XL (libjxl) files
// decode to their own pictures, in WebAssembly, at once from several
// goroutines; a bound, a cut file and one that is not a picture are
// refused without a panic, and the decoders work on after them.
func TestDecodeAVIFAndJXL(t *testing.T) {
	for _, name := range []string{"testsrc.avif", "testsrc.jxl"} {
		want, err := png.Decode(bytes.NewReader(readTestdata(t, name+".png")))
		require.NoError(t, err)
		data := readTestdata(t, name)
		var wg sync.WaitGroup
		for range 3 {
			wg.Go(func() {
				img, err := Decode(bytes.NewReader(data), DefaultMaxDecodePixels)
				if assert.NoError(t, err, name) {
					assert.Equal(t, image.Rect(0, 0, 64, 48), img.Bounds(), name)
					assert.Less(t, meanDifference(img, want), 2.0, "%s: mean difference per channel from ffmpeg's decoding", name)
				}
			})
		}
		wg.Wait()

		_, err = Decode(bytes.NewReader(data), 64*48-1)
		assert.True(t, errors.Is(err, ErrTooLarge), "%s: %v", name, err)
		_, err = Decode(bytes.NewReader(data[:len(data)/2]), DefaultMaxDecodePixels)
		assert.Error(t, err, "%s cut in half", name)
		broken := bytes.Clone(data)
		for i := 40; i < len(broken); i += 7 {
			broken[i] ^= 0x5a
		}
		_, _ = Decode(bytes.NewReader(broken), DefaultMaxDecodePixels) // an error or a picture, never a panic
		img, err := Decode(bytes.NewReader(data), DefaultMaxDecodePixels)
		require.NoError(t, err, "%s after the broken ones", name)
		assert.Less(t, meanDifference(img, want), 2.0, name)
	}
}

// TestDecodeUpstreamAVIF decodes the upstream e2e suite's AVIF, on which
// libavif overflowed emscripten's 64 KiB stack (an out of bounds trap)
// until its stack was moved into its heap.
func TestDecodeUpstreamAVIF(t *testing.T) {
	dir := os.Getenv("UPSTREAM_TEST_ASSETS")
	if dir == "" {
		dir = "/tmp/upstream-cache/upstream-e2e/66fced40e/e2e/test-assets"
	}
	data, err := os.ReadFile(filepath.Join(dir, "formats/avif/8bit-sRGB.avif"))
	if err != nil {
		t.Skipf("the upstream e2e suite's test assets are absent (%v); set UPSTREAM_TEST_ASSETS", err)
	}
	img, err := Decode(bytes.NewReader(data), DefaultMaxDecodePixels)
	require.NoError(t, err)
	assert.Equal(t, image.Rect(0, 0, 1617, 1080), img.Bounds())
}

func TestIsAVIF(t *testing.T) {
	ftyp := func(major string, brands ...string) []byte {
		b := []byte{0, 0, 0, byte(16 + 4*len(brands))}
		b = append(append(append(b, "ftyp"...), major...), 0, 0, 0, 0)
		for _, x := range brands {
			b = append(b, x...)
		}
		return b
	}
	assert.True(t, isAVIF(ftyp("avif", "mif1")))
	assert.True(t, isAVIF(ftyp("mif1", "avif", "miaf")))
	assert.False(t, isAVIF(ftyp("mif1", "heic")))
	assert.False(t, isAVIF(ftyp("heic", "mif1", "avif")))
	assert.False(t, isAVIF(ftyp("isom", "mp42")))
	assert.False(t, isAVIF([]byte("ftyp")))
}
