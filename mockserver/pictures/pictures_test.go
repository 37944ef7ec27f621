package pictures

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/jpeg"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/image/draw"
	"golang.org/x/image/webp"

	"github.com/mediaspec/mediaspec/fixtures"
	"github.com/mediaspec/mediaspec/mockserver/thumbhash"
)

func TestFit(t *testing.T) {
	tests := []struct{ w, h, side, ww, wh int }{
		{3000, 2000, ThumbnailSide, 375, 250}, // the reference's example
		{3000, 2000, PreviewSide, 2160, 1440},
		{2000, 3000, ThumbnailSide, 250, 375},
		{4032, 3024, ThumbnailSide, 333, 250},
		{16, 16, ThumbnailSide, 16, 16}, // never enlarged
		{250, 9000, ThumbnailSide, 250, 9000},
		{100000, 251, ThumbnailSide, 99602, 250},
		{0, 0, ThumbnailSide, 1, 1},
	}
	for _, tt := range tests {
		w, h := Fit(tt.w, tt.h, tt.side)
		assert.Equal(t, [2]int{tt.ww, tt.wh}, [2]int{w, h}, "%d×%d to %d", tt.w, tt.h, tt.side)
	}
}

// seededHash is a ThumbHash of the generated dataset (a 4:3 landscape).
const seededHash = "2EgKRQqId414B3eId3h3d4iEgFgI"

// meanColour is the picture's mean colour, each channel in [0, 1], and how
// far its pixels spread from it (so that a flat picture shows up as blank).
func meanColour(img image.Image) (mean [3]float64, spread float64) {
	b := img.Bounds()
	n := float64(b.Dx() * b.Dy())
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			mean[0] += float64(r) / 0xffff / n
			mean[1] += float64(g) / 0xffff / n
			mean[2] += float64(bl) / 0xffff / n
		}
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, _, _, _ := img.At(x, y).RGBA()
			d := float64(r)/0xffff - mean[0]
			spread += d * d / n
		}
	}
	return mean, spread
}

// TestPicturesShowTheirThumbhash: a rendered picture has the placeholder's
// colours, and what WebP and JPEG write decodes (with the decoders browsers
// agree with) to a picture of that size that is not blank.
func TestPicturesShowTheirThumbhash(t *testing.T) {
	hash, err := base64.StdEncoding.DecodeString(seededHash)
	require.NoError(t, err)
	hw, hh, rgba, err := thumbhash.Decode(hash)
	require.NoError(t, err)
	placeholder, _ := meanColour(&image.RGBA{Pix: rgba, Stride: 4 * hw, Rect: image.Rect(0, 0, hw, hh)})
	r, g, b := placeholder[0], placeholder[1], placeholder[2]
	w, h := Fit(4032, 3024, ThumbnailSide)
	img := fromThumbhash(t, hash, w, h)
	mean, spread := meanColour(img)
	assert.InDeltaSlice(t, []float64{r, g, b}, mean[:], 0.06, "the placeholder's average colour")
	assert.Greater(t, spread, 1e-4, "not flat")

	wb, err := WebP(img)
	require.NoError(t, err)
	got, err := webp.Decode(bytes.NewReader(wb))
	require.NoError(t, err)
	assert.Equal(t, image.Rect(0, 0, 333, 250), got.Bounds())
	gm, _ := meanColour(got)
	assert.InDeltaSlice(t, mean[:], gm[:], 0.01, "lossless")

	jb, err := JPEG(img)
	require.NoError(t, err)
	got, err = jpeg.Decode(bytes.NewReader(jb))
	require.NoError(t, err)
	assert.Equal(t, image.Rect(0, 0, 333, 250), got.Bounds())
	gm, spread = meanColour(got)
	assert.InDeltaSlice(t, mean[:], gm[:], 0.03)
	assert.Greater(t, spread, 1e-4, "not blank")
}

func TestPaintRefusesBadInput(t *testing.T) {
	hash, _ := base64.StdEncoding.DecodeString(seededHash)
	_, err := Paint(hash, 0, 10, "image/jpeg")
	assert.Error(t, err)
	_, err = Paint(hash[:3], 10, 10, "image/jpeg")
	assert.Error(t, err)
	_, err = Paint(hash, 10, 10, "image/heic")
	assert.Error(t, err)
}

// BenchmarkSeededThumbnail is the first render of a seeded asset's 250 px
// WEBP: decode the hash, scale, encode.
func BenchmarkSeededThumbnail(b *testing.B) {
	hash, _ := base64.StdEncoding.DecodeString(seededHash)
	w, h := Fit(4032, 3024, ThumbnailSide)
	for b.Loop() {
		if _, err := Paint(hash, w, h, "image/webp"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSeededPreview(b *testing.B) {
	hash, _ := base64.StdEncoding.DecodeString(seededHash)
	w, h := Fit(4032, 3024, PreviewSide)
	for b.Loop() {
		if _, err := Paint(hash, w, h, "image/jpeg"); err != nil {
			b.Fatal(err)
		}
	}
}

func TestPortraitIsTheSameForTheSameUser(t *testing.T) {
	a, b, c := Portrait("user-1", "blue"), Portrait("user-1", "blue"), Portrait("user-2", "blue")
	assert.Equal(t, a.Pix, b.Pix)
	assert.NotEqual(t, a.Pix, c.Pix)
	assert.Equal(t, image.Rect(0, 0, PortraitSide, PortraitSide), a.Bounds())
	_, spread := meanColour(a)
	assert.Greater(t, spread, 1e-3, "a face, not a flat square")
	corner := a.RGBAAt(2, 2)
	assert.InDelta(t, 29, int(corner.R), 4, "the avatar colour behind")
}

// TestOrient: each EXIF orientation turns a stored picture upright. The
// stored picture is 3×2: a at the top left, b at the top right.
func TestOrient(t *testing.T) {
	a, b := color.RGBA{255, 0, 0, 255}, color.RGBA{0, 0, 255, 255}
	src := image.NewRGBA(image.Rect(0, 0, 3, 2))
	src.Set(0, 0, a)
	src.Set(2, 0, b)
	tests := []struct {
		orientation int
		w, h        int
		at, bt      image.Point // where a and b are once upright
	}{
		{1, 3, 2, image.Pt(0, 0), image.Pt(2, 0)},
		{2, 3, 2, image.Pt(2, 0), image.Pt(0, 0)},
		{3, 3, 2, image.Pt(2, 1), image.Pt(0, 1)},
		{4, 3, 2, image.Pt(0, 1), image.Pt(2, 1)},
		{5, 2, 3, image.Pt(0, 0), image.Pt(0, 2)},
		{6, 2, 3, image.Pt(1, 0), image.Pt(1, 2)},
		{7, 2, 3, image.Pt(1, 2), image.Pt(1, 0)},
		{8, 2, 3, image.Pt(0, 2), image.Pt(0, 0)},
	}
	for _, tt := range tests {
		got := Orient(src, tt.orientation)
		assert.Equal(t, image.Rect(0, 0, tt.w, tt.h), got.Bounds(), "orientation %d", tt.orientation)
		assert.Equal(t, a, color.RGBAModel.Convert(got.At(tt.at.X, tt.at.Y)), "orientation %d: a", tt.orientation)
		assert.Equal(t, b, color.RGBAModel.Convert(got.At(tt.bt.X, tt.bt.Y)), "orientation %d: b", tt.orientation)

		// The same picture within a larger one, not at the origin.
		big := image.NewRGBA(image.Rect(-4, -3, 9, 8))
		draw.Draw(big, image.Rect(1, 2, 4, 4), src, image.Point{}, draw.Src)
		inner := Orient(big.SubImage(image.Rect(1, 2, 4, 4)), tt.orientation)
		assert.Equal(t, toRGBA(got).Pix, toRGBA(inner).Pix, "orientation %d, from a picture not at the origin", tt.orientation)
	}
}

// TestDecodeRefusesBombs: a picture that declares more pixels than the
// bound is refused before it is decoded.
func TestDecodeRefusesBombs(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, jpeg.Encode(&b, image.NewGray(image.Rect(0, 0, 200, 100)), nil))
	_, err := Decode(bytes.NewReader(b.Bytes()), 19_999)
	assert.ErrorIs(t, err, ErrTooLarge)
	img, err := Decode(bytes.NewReader(b.Bytes()), 20_000)
	require.NoError(t, err)
	assert.Equal(t, image.Rect(0, 0, 200, 100), img.Bounds())
	_, err = Decode(bytes.NewReader([]byte("not a picture")), DefaultMaxDecodePixels)
	assert.Error(t, err)
}

// FuzzDecode: no file makes Decode or EmbeddedJPEG panic, or decode more
// than the bound.
// The seeds are the project's fixture files (JPEG, PNG, HEIC, RAW, MP4).
func FuzzDecode(f *testing.F) {
	var b bytes.Buffer
	_ = jpeg.Encode(&b, image.NewGray(image.Rect(0, 0, 16, 8)), nil)
	f.Add(b.Bytes())
	f.Add([]byte("\x89PNG\r\n\x1a\n"))
	for _, name := range fixtures.Names() {
		data, err := fixtures.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		img, err := Decode(bytes.NewReader(data), 1<<16)
		if err == nil && img.Bounds().Dx()*img.Bounds().Dy() > 1<<16 {
			t.Fatalf("decoded %v, over the bound", img.Bounds())
		}
		img, err = EmbeddedJPEG(bytes.NewReader(data), 1<<16)
		if err == nil && img.Bounds().Dx()*img.Bounds().Dy() > 1<<16 {
			t.Fatalf("decoded an embedded %v, over the bound", img.Bounds())
		}
	})
}

// TestEmbeddedJPEG: the largest JPEG a file carries (a RAW's preview beside
// its small thumbnail) is found and decoded; one over the bound is passed
// over; a file without one is an error.
func TestEmbeddedJPEG(t *testing.T) {
	encode := func(w, h int) []byte {
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		for i := range img.Pix {
			img.Pix[i] = byte(i)
		}
		var b bytes.Buffer
		require.NoError(t, jpeg.Encode(&b, img, nil))
		return b.Bytes()
	}
	raw := slices.Concat([]byte("II*\x00 a RAW file's own data "), encode(160, 120), []byte(" sensor data \xff\xd8\xff not a JPEG "), encode(640, 480), []byte(" more data"))
	img, err := EmbeddedJPEG(bytes.NewReader(raw), DefaultMaxDecodePixels)
	require.NoError(t, err)
	assert.Equal(t, image.Rect(0, 0, 640, 480), img.Bounds(), "the largest")
	img, err = EmbeddedJPEG(bytes.NewReader(raw), 640*480-1)
	require.NoError(t, err)
	assert.Equal(t, image.Rect(0, 0, 160, 120), img.Bounds(), "the largest within the bound")
	_, err = EmbeddedJPEG(bytes.NewReader([]byte("no picture in here")), DefaultMaxDecodePixels)
	assert.Error(t, err)
	// A file of nothing but JPEG starts is given up on after a few.
	_, err = EmbeddedJPEG(bytes.NewReader(bytes.Repeat([]byte{0xFF, 0xD8, 0xFF}, 1<<20)), DefaultMaxDecodePixels)
	assert.Error(t, err)
}

func TestWithin(t *testing.T) {
	assert.Equal(t, [2]int{4032, 3024}, pair(Within(4032, 3024, DefaultMaxDecodePixels)), "within: as it is")
	w, h := Within(100_000, 100_000, DefaultMaxDecodePixels)
	assert.LessOrEqual(t, w*h, DefaultMaxDecodePixels)
	assert.Equal(t, w, h, "the shape kept")
	w, h = Within(1_000_000, 10, 1000)
	assert.LessOrEqual(t, w*h, 1000)
	assert.Positive(t, h)
}

func pair(a, b int) [2]int { return [2]int{a, b} }

// TestWebPOfDegeneratePictures: the encoder panics on a single black
// pixel; WebP gives a picture all the same, and never panics.
func TestWebPOfDegeneratePictures(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 1, 1))
	img.Pix[3] = 255 // opaque black
	b, err := WebP(img)
	require.NoError(t, err)
	got, err := webp.Decode(bytes.NewReader(b))
	require.NoError(t, err)
	assert.Equal(t, image.Rect(0, 0, 1, 1), got.Bounds())
	r, g, bl, _ := got.At(0, 0).RGBA()
	assert.Equal(t, [3]uint32{0, 0, 0}, [3]uint32{r, g, bl}, "still black")
}

// TestResizeToItsOwnSizeCopies: a picture resized to its own size (the
// preview of a photo no larger than a preview) is copied rather than
// scaled, which is the reason it is: the kernel's result, to the byte, for
// the types decoders return, and from a picture that does not start at the
// origin.
func TestResizeToItsOwnSizeCopies(t *testing.T) {
	for _, name := range []string{fixtures.LisbonJPEG, fixtures.ScreenshotPNG} {
		b, err := fixtures.ReadFile(name)
		require.NoError(t, err)
		img, _, err := image.Decode(bytes.NewReader(b))
		require.NoError(t, err)
		sub := img.(interface {
			SubImage(image.Rectangle) image.Image
		}).SubImage(image.Rect(7, 5, 207, 105))
		for _, src := range []image.Image{img, sub} {
			bounds := src.Bounds()
			want := image.NewRGBA(image.Rect(0, 0, bounds.Dx(), bounds.Dy()))
			draw.CatmullRom.Scale(want, want.Bounds(), src, bounds, draw.Src, nil)
			got := Resize(src, bounds.Dx(), bounds.Dy())
			assert.Equal(t, want.Rect, got.Rect, "%s %T %v", name, src, bounds)
			assert.True(t, bytes.Equal(want.Pix, got.Pix), "%s %T %v: the copy differs from the kernel's result", name, src, bounds)
		}
	}
}
