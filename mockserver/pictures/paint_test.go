package pictures

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/png"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/image/draw"
	"golang.org/x/image/webp"

	"github.com/mediaspec/mediaspec/mockserver/thumbhash"
)

// fromThumbhash is hash painted at w×h, whole, by golang.org/x/image/draw
// itself: the picture Paint must encode.
func fromThumbhash(t testing.TB, hash []byte, w, h int) *image.RGBA {
	t.Helper()
	src, err := decodeHash(hash)
	require.NoError(t, err)
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.BiLinear.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
	return dst
}

// testHashes are ThumbHashes of each shape: the seeded landscape, a
// portrait, and one with transparent pixels (its PNG has alpha).
func testHashes(t testing.TB) map[string][]byte {
	t.Helper()
	seeded, err := base64.StdEncoding.DecodeString(seededHash)
	require.NoError(t, err)
	portrait := make([]byte, 30*80*4)
	for i := 0; i < len(portrait); i += 4 {
		portrait[i], portrait[i+1], portrait[i+2], portrait[i+3] = byte(i/7), byte(i/300), 200, 255
	}
	alpha := make([]byte, 64*48*4)
	for i := 0; i < len(alpha); i += 4 {
		alpha[i], alpha[i+1], alpha[i+2], alpha[i+3] = 250, byte(i/50), 40, byte(255-i/48)
	}
	return map[string][]byte{"seeded": seeded, "portrait": thumbhash.Encode(30, 80, portrait), "alpha": thumbhash.Encode(64, 48, alpha)}
}

// TestBandsAreDrawsPixels: the scaler's pixels, painted whole or in bands,
// are golang.org/x/image/draw's BiLinear to the bit, enlarging and
// shrinking, at sizes that are not whole bands.
func TestBandsAreDrawsPixels(t *testing.T) {
	for name, hash := range testHashes(t) {
		for _, size := range [][2]int{{1, 1}, {7, 3}, {31, 40}, {333, 250}, {3000, 2}, {2, 3000}, {700, 517}} {
			w, h := size[0], size[1]
			t.Run(fmt.Sprintf("%s %d×%d", name, w, h), func(t *testing.T) {
				want := fromThumbhash(t, hash, w, h)
				src, err := decodeHash(hash)
				require.NoError(t, err)
				assert.Equal(t, want.Pix, paintWhole(src, w, h).Pix, "whole")
				b := newBands(src, w, h)
				got := image.NewRGBA(want.Rect)
				for y := range h {
					for x := range w {
						r, g, bl, a := b.At(x, y).RGBA()
						i := got.PixOffset(x, y)
						got.Pix[i], got.Pix[i+1], got.Pix[i+2], got.Pix[i+3] = byte(r>>8), byte(g>>8), byte(bl>>8), byte(a>>8)
					}
				}
				assert.Equal(t, want.Pix, got.Pix, "in bands")
				assert.Equal(t, want.Opaque(), b.Opaque())
			})
		}
	}
}

// TestPaintIsTheWholeRastersEncoding: a picture painted in bands is
// encoded to the bytes of the whole raster's encoding, so that the same
// seed answers the same bytes.
func TestPaintIsTheWholeRastersEncoding(t *testing.T) {
	w, h := 620, 437 // in bands: over bandedAbove, and not whole bands
	require.Greater(t, w*h, bandedAbove)
	for name, hash := range testHashes(t) {
		raster := fromThumbhash(t, hash, w, h)
		var wantPNG bytes.Buffer
		require.NoError(t, png.Encode(&wantPNG, raster))
		wantJPEG, err := JPEG(raster)
		require.NoError(t, err)
		gotPNG, err := Paint(hash, w, h, "image/png")
		require.NoError(t, err)
		gotJPEG, err := Paint(hash, w, h, "image/jpeg")
		require.NoError(t, err)
		assert.True(t, bytes.Equal(wantPNG.Bytes(), gotPNG), "%s: PNG", name)
		assert.True(t, bytes.Equal(wantJPEG, gotJPEG), "%s: JPEG", name)
	}
}

// allocated is what f allocates, in bytes. No test of this package runs in
// parallel with another, and the race detector does not change what Go's
// heap allocates. What a call allocates bounds what it holds at its peak.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestPaintingALargePictureHoldsLittle: a 4 MP original is painted and
// encoded allocating less than half of what its raster alone would be
// (the mock held 16 MiB for it, 98 MiB for 24 MP); a 24 MP one allocates
// 8 MiB (BenchmarkPaintOriginal).
func TestPaintingALargePictureHoldsLittle(t *testing.T) {
	hash := testHashes(t)["seeded"]
	w, h := 2400, 1600
	for _, contentType := range []string{"image/jpeg", "image/png"} {
		var body []byte
		n := allocated(func() {
			var err error
			body, err = Paint(hash, w, h, contentType)
			require.NoError(t, err)
		})
		t.Logf("%s: %d bytes, %.1f MiB allocated", contentType, len(body), float64(n)/(1<<20))
		assert.Less(t, n, uint64(2*w*h), "%s: allocated %d bytes", contentType, n)
		c, _, err := image.DecodeConfig(bytes.NewReader(body))
		require.NoError(t, err)
		assert.Equal(t, [2]int{w, h}, [2]int{c.Width, c.Height})
	}
}

// TestAbsurdSizesArePaintedSmaller: a dataset may declare any size; what
// the scaler would hold for it is bounded, and the picture is painted
// smaller at its shape. WebP and GIF, whose encoders need the whole
// raster, are painted within WholeMaxPixels.
func TestAbsurdSizesArePaintedSmaller(t *testing.T) {
	hashes := testHashes(t)
	for _, tt := range []struct {
		name        string
		hash        []byte
		w, h        int
		contentType string
		want        [2]int
		allocates   uint64 // at most, painting it
	}{
		{"a seeded original", hashes["seeded"], 6048, 4032, "image/jpeg", [2]int{6048, 4032}, 0},
		{"a long sliver", hashes["seeded"], 50_000_000, 1, "image/png", [2]int{15534, 1}, maxScalerBytes + 8<<20},
		{"a tall sliver", hashes["seeded"], 1, 50_000_000, "image/jpeg", [2]int{1, maxSide}, maxScalerBytes + 8<<20},
		// A portrait's hash on a panorama: the hash's 32 rows, 60,000 columns.
		{"a wide picture of a tall hash", hashes["portrait"], 60_000, 800, "image/jpeg", [2]int{15523, 206}, maxScalerBytes + 8<<20},
		{"a large WebP", hashes["seeded"], 4000, 3000, "image/webp", [2]int{1182, 886}, 80 << 20}, // its encoder: 56 bytes a pixel
		{"a large GIF", hashes["seeded"], 4000, 3000, "image/gif", [2]int{1182, 886}, 0},
		{"a WebP thumbnail", hashes["seeded"], 333, 250, "image/webp", [2]int{333, 250}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src, err := decodeHash(tt.hash)
			require.NoError(t, err)
			w, h := paintedSize(tt.contentType, tt.w, tt.h, src.Rect.Dy())
			assert.Equal(t, tt.want, [2]int{w, h})
			assert.LessOrEqual(t, bilinearBytes(w, h, src.Rect.Dy()), int64(maxScalerBytes))
			if wholeFormat(tt.contentType) {
				assert.LessOrEqual(t, w*h, WholeMaxPixels)
			}
			if tt.allocates == 0 {
				return
			}
			var body []byte
			n := allocated(func() {
				body, err = Paint(tt.hash, tt.w, tt.h, tt.contentType)
				require.NoError(t, err)
			})
			t.Logf("%.1f MiB allocated", float64(n)/(1<<20))
			assert.Less(t, n, tt.allocates)
			c, _, err := image.DecodeConfig(bytes.NewReader(body))
			if tt.contentType == "image/webp" {
				c, err = webp.DecodeConfig(bytes.NewReader(body))
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, [2]int{c.Width, c.Height}, "painted at that size")
		})
	}
}

// BenchmarkPaintOriginal is painting and encoding a seeded 24 MP original
// (6048×4032), in bands.
func BenchmarkPaintOriginal(b *testing.B) {
	hash := testHashes(b)["seeded"]
	for _, contentType := range []string{"image/jpeg", "image/png"} {
		b.Run(contentType, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Paint(hash, 6048, 4032, contentType); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
