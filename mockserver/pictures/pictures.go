// Package pictures makes the images the mock serves: thumbnails and
// previews of the sizes the reference makes, and pictures of seeded assets
// rendered from their own ThumbHash, so that a page shows, once loaded, the
// colours its placeholder promised.
package pictures

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"math"

	"github.com/HugoSmits86/nativewebp"
	"golang.org/x/image/draw"
)

// The smaller side of the reference's thumbnails (WEBP) and previews (JPEG).
const (
	ThumbnailSide = 250
	PreviewSide   = 1440
)

// JPEGQuality is the quality of every JPEG the mock writes.
const JPEGQuality = 80

// Fit is the size of a w×h picture scaled so that its smaller side is
// side, keeping its aspect ratio and never enlarging it (the reference:
// 3000×2000 → 375×250, 16×16 stays 16×16). Sizes below 1 are taken as 1.
func Fit(w, h, side int) (int, int) {
	w, h = max(w, 1), max(h, 1)
	short := min(w, h)
	if short <= side {
		return w, h
	}
	scale := float64(side) / float64(short)
	fw := max(1, int(float64(w)*scale+0.5))
	fh := max(1, int(float64(h)*scale+0.5))
	if w <= h {
		fw = side
	} else {
		fh = side
	}
	return fw, fh
}

// Within is w×h scaled down, keeping its shape, to at most maxPixels.
func Within(w, h, maxPixels int) (int, int) {
	w, h = max(w, 1), max(h, 1)
	if int64(w)*int64(h) <= int64(maxPixels) {
		return w, h
	}
	scale := math.Sqrt(float64(maxPixels) / (float64(w) * float64(h)))
	w, h = max(1, int(float64(w)*scale)), max(1, int(float64(h)*scale))
	// A sliver's short side stops at one pixel: its long side gives way.
	if h == 1 {
		w = min(w, maxPixels)
	}
	if w == 1 {
		h = min(h, maxPixels)
	}
	return w, h
}

// Resize scales img to w×h. A picture already of that size (a phone's
// screenshot, a small photo, whose preview is its own size) is copied, as
// the kernel would leave every pixel as it is, at a fraction of its cost.
func Resize(img image.Image, w, h int) *image.RGBA {
	if b := img.Bounds(); b.Dx() == w && b.Dy() == h {
		return toRGBA(img)
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.CatmullRom.Scale(dst, dst.Bounds(), img, img.Bounds(), draw.Src, nil)
	return dst
}

// toRGBA is a copy of img as an *image.RGBA at the origin, made by draw's
// fast paths for the types decoders return.
func toRGBA(img image.Image) *image.RGBA {
	b := img.Bounds()
	dst := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(dst, dst.Bounds(), img, b.Min, draw.Src)
	return dst
}

// WebP encodes img as a lossless WebP, which every browser shows.
//
// The encoder panics on a few degenerate pictures (a single black pixel:
// one of its Huffman codes gets a depth of -1). Such a picture is encoded
// again with its first pixel's alpha one step off, which no eye tells
// apart, and an error is returned where that fails too: a picture is
// never worth a crash.
func WebP(img image.Image) ([]byte, error) {
	b, err := encodeWebP(img)
	for nudge := uint8(1); err != nil && errors.Is(err, errEncoderPanicked) && nudge <= 3; nudge++ {
		b, err = encodeWebP(nudged(img, nudge))
	}
	if err != nil {
		return nil, fmt.Errorf("pictures: webp: %w", err)
	}
	return b, nil
}

// errEncoderPanicked is the WebP encoder's panic, as an error.
var errEncoderPanicked = errors.New("the encoder failed on this picture")

func encodeWebP(img image.Image) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("%w: %v", errEncoderPanicked, r)
		}
	}()
	var b bytes.Buffer
	if err := nativewebp.Encode(&b, img, nil); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// nudged is a copy of img with its first pixel's alpha changed by n.
func nudged(img image.Image, n uint8) *image.NRGBA {
	b := img.Bounds()
	dst := image.NewNRGBA(b)
	draw.Draw(dst, b, img, b.Min, draw.Src)
	if len(dst.Pix) >= 4 {
		if dst.Pix[3] >= n {
			dst.Pix[3] -= n
		} else {
			dst.Pix[3] += n
		}
	}
	return dst
}

// JPEG encodes img at JPEGQuality.
func JPEG(img image.Image) ([]byte, error) {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: JPEGQuality}); err != nil {
		return nil, fmt.Errorf("pictures: jpeg: %w", err)
	}
	return b.Bytes(), nil
}
