package pictures

import (
	"bytes"
	"image"
	"image/color"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/fixtures"
)

// TestDecodeHEIC: a phone's HEIC is decoded to its own picture, of its
// size, with the colours it was painted with; a bomb and a cut file are
// refused without a panic.
func TestDecodeHEIC(t *testing.T) {
	data, err := fixtures.ReadFile(fixtures.LisbonHEIC)
	require.NoError(t, err)
	img, err := Decode(bytes.NewReader(data), DefaultMaxDecodePixels)
	require.NoError(t, err)
	require.Equal(t, image.Rect(0, 0, 480, 360), img.Bounds())
	// The HEIC holds the same picture as the Lisbon JPEG: both encoders lose
	// a little, so the two agree within a few levels on average.
	jpegData, err := fixtures.ReadFile(fixtures.LisbonJPEG)
	require.NoError(t, err)
	same, err := Decode(bytes.NewReader(jpegData), DefaultMaxDecodePixels)
	require.NoError(t, err)
	assert.Less(t, meanDifference(img, same), 6.0, "mean difference per channel from the JPEG")
	assert.False(t, blank(img), "the picture has more than one colour")

	_, err = Decode(bytes.NewReader(data), 480*360-1)
	assert.ErrorIs(t, err, ErrTooLarge)
	_, err = Decode(bytes.NewReader(data[:len(data)/2]), DefaultMaxDecodePixels)
	assert.Error(t, err)
}

// TestDecodeHEICAtOnce: the decoder serves one call at a time, and the
// pictures it gives are the caller's own: decoded side by side, they are
// the same, and none is written by the next decode.
func TestDecodeHEICAtOnce(t *testing.T) {
	data, err := fixtures.ReadFile(fixtures.LisbonHEIC)
	require.NoError(t, err)
	first, err := Decode(bytes.NewReader(data), DefaultMaxDecodePixels)
	require.NoError(t, err)
	want := append([]byte(nil), first.(*image.NRGBA).Pix...)
	clear(first.(*image.NRGBA).Pix) // a later decode must not write here
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			img, err := Decode(bytes.NewReader(data), DefaultMaxDecodePixels)
			if assert.NoError(t, err) {
				assert.Equal(t, want, img.(*image.NRGBA).Pix)
			}
		})
	}
	wg.Wait()
	assert.Equal(t, make([]byte, len(want)), first.(*image.NRGBA).Pix, "the first picture is untouched by the later decodes")
}

// meanDifference is the mean absolute difference per channel of two
// pictures of the same size.
func meanDifference(a, b image.Image) float64 {
	var sum, n float64
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			ca := color.RGBAModel.Convert(a.At(x, y)).(color.RGBA)
			cb := color.RGBAModel.Convert(b.At(x, y)).(color.RGBA)
			for _, d := range [3]int{int(ca.R) - int(cb.R), int(ca.G) - int(cb.G), int(ca.B) - int(cb.B)} {
				sum += float64(max(d, -d))
				n++
			}
		}
	}
	return sum / n
}

// blank reports whether every pixel of img has the colour of the first.
func blank(img image.Image) bool {
	b := img.Bounds()
	first := color.RGBAModel.Convert(img.At(b.Min.X, b.Min.Y))
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if color.RGBAModel.Convert(img.At(x, y)) != first {
				return false
			}
		}
	}
	return true
}
