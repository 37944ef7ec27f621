package pictures

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/png"

	"github.com/mediaspec/mediaspec/mockserver/thumbhash"
)

// Painting a ThumbHash at a picture's full size (a 24 MP original) would
// hold its whole raster, 4 bytes a pixel, while it is encoded. JPEG and
// PNG are encoded row by row, so a large picture is painted for them a
// band of rows at a time, as the encoder reads it: a painting then holds
// the scaler (its buffer: the picture's width by the hash's height, 32
// bytes a pixel, 4.6 MiB for 24 MP) and one band, a few MiB whatever the
// picture's size, and its bytes are the same as the whole raster's.
const (
	// bandRows is the height of a band: the JPEG encoder reads 16 rows at
	// a time.
	bandRows = 16
	// bandedAbove is the size, in pixels, above which a picture is painted
	// in bands. Below, the raster (1 MiB at most) is painted at once and
	// encoded through the encoders' fast paths (a 24 MP JPEG: 0.53 s
	// whole, 0.70 s in bands).
	bandedAbove = 1 << 18
	// maxScalerBytes bounds what the scaler holds (bilinearBytes) and
	// maxSide each side of a painting (JPEG cannot encode a longer side):
	// a dataset may declare any size, and one that asks for more is
	// painted smaller, at its shape. A ThumbHash of the picture's own
	// shape needs about 1 KiB a pixel of the shorter side: 8 MiB at 50 MP.
	maxScalerBytes = 16 << 20
	maxSide        = 65535
	// WholeMaxPixels bounds the pictures whose encoder needs the whole
	// raster at once (WebP, GIF): they are painted within it, smaller than
	// declared if need be. The WebP encoder allocates about 56 bytes a
	// pixel. Thumbnails are far within it; the seeded data has no WebP or
	// GIF originals, a hand-written dataset may.
	WholeMaxPixels = 1 << 20
)

// Paint encodes a ThumbHash painted at w×h (smoothly scaled from the
// reference decoder's picture) as contentType: image/jpeg, image/png,
// image/webp or image/gif. A size past the bounds above is painted
// smaller, at its shape. The same hash and size give the same bytes.
func Paint(hash []byte, w, h int, contentType string) ([]byte, error) {
	if w < 1 || h < 1 {
		return nil, fmt.Errorf("pictures: a %d×%d picture", w, h)
	}
	src, err := decodeHash(hash)
	if err != nil {
		return nil, err
	}
	w, h = paintedSize(contentType, w, h, src.Rect.Dy())
	var img image.Image
	if wholeFormat(contentType) || w*h <= bandedAbove {
		img = paintWhole(src, w, h)
	} else {
		img = newBands(src, w, h)
	}
	switch contentType {
	case "image/jpeg":
		return JPEG(img)
	case "image/png":
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			return nil, fmt.Errorf("pictures: png: %w", err)
		}
		return b.Bytes(), nil
	case "image/webp":
		return WebP(img)
	case "image/gif":
		var b bytes.Buffer
		if err := gif.Encode(&b, img, nil); err != nil {
			return nil, fmt.Errorf("pictures: gif: %w", err)
		}
		return b.Bytes(), nil
	}
	return nil, fmt.Errorf("pictures: cannot paint %s", contentType)
}

// decodeHash is the reference decoder's picture of hash.
func decodeHash(hash []byte) (*image.RGBA, error) {
	tw, th, rgba, err := thumbhash.Decode(hash)
	if err != nil {
		return nil, err
	}
	return &image.RGBA{Pix: rgba, Stride: tw * 4, Rect: image.Rect(0, 0, tw, th)}, nil
}

// paintWhole is src scaled to w×h, the whole raster at once.
func paintWhole(src *image.RGBA, w, h int) *image.RGBA {
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	newBilinear(src, w, h).rows(dst)
	return dst
}

// wholeFormat says whether the encoder of contentType needs the whole
// raster at once.
func wholeFormat(contentType string) bool {
	return contentType == "image/webp" || contentType == "image/gif"
}

// paintedSize is the size a picture declared w×h is painted at as
// contentType, from a source srcHeight rows high: within WholeMaxPixels for
// a whole format, and within maxSide a side and a scaler of maxScalerBytes,
// at its shape. What a scaler holds grows with each side: shrinking both
// by a factor shrinks it as much.
func paintedSize(contentType string, w, h, srcHeight int) (int, int) {
	if wholeFormat(contentType) {
		w, h = Within(w, h, WholeMaxPixels)
	}
	scale := min(1, float64(maxSide)/float64(max(w, h)), float64(maxScalerBytes)/float64(bilinearBytes(w, h, srcHeight)))
	if scale == 1 {
		return w, h
	}
	return max(1, int(float64(w)*scale)), max(1, int(float64(h)*scale))
}

// bands is a picture painted a band of bandRows rows at a time, as it is
// read: At paints the band of the row it is asked for when that is not
// the band it holds.
//
// At returns the same *pixel each time, overwritten by the next call: the
// JPEG and PNG encoders read a colour's RGBA at once and keep nothing, and
// a color.RGBA put in an interface would cost an allocation a pixel. A
// bands is only ever handed to those encoders.
type bands struct {
	scaler *bilinear
	rect   image.Rectangle
	band   *image.RGBA // rows band.Rect.Min.Y up to band.Rect.Max.Y
	px     pixel
	opaque bool
}

func newBands(src *image.RGBA, w, h int) *bands {
	b := &bands{
		scaler: newBilinear(src, w, h),
		rect:   image.Rect(0, 0, w, h),
		band:   image.NewRGBA(image.Rect(0, 0, w, min(bandRows, h))),
		opaque: src.Opaque(),
	}
	b.scaler.rows(b.band)
	return b
}

func (b *bands) ColorModel() color.Model { return color.RGBAModel }
func (b *bands) Bounds() image.Rectangle { return b.rect }

// Opaque says whether every pixel is opaque, as the PNG encoder asks
// before it encodes: a bilinear scaling of opaque pixels is opaque, so no
// band need be painted to tell.
func (b *bands) Opaque() bool { return b.opaque }

func (b *bands) At(x, y int) color.Color {
	if !(image.Point{x, y}.In(b.rect)) {
		b.px = pixel{}
		return &b.px
	}
	if y < b.band.Rect.Min.Y || y >= b.band.Rect.Max.Y {
		y0 := y - y%bandRows
		b.band.Rect = image.Rect(0, y0, b.rect.Dx(), min(y0+bandRows, b.rect.Dy()))
		b.scaler.rows(b.band)
	}
	i := b.band.PixOffset(x, y)
	s := b.band.Pix[i : i+4 : i+4]
	b.px = pixel{s[0], s[1], s[2], s[3]}
	return &b.px
}

// pixel is a colour of a bands, as color.RGBA.
type pixel color.RGBA

func (p *pixel) RGBA() (r, g, b, a uint32) { return color.RGBA(*p).RGBA() }
