package pictures

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"io"
	"math"
	"sync"

	// The decoders of the other formats an upload's pictures are made from.
	_ "image/gif"
	_ "image/png"

	_ "golang.org/x/image/bmp"
	_ "golang.org/x/image/tiff"
	_ "golang.org/x/image/webp"

	"github.com/mediaspec/mediaspec/mockserver/thumbhash"
)

// DefaultMaxDecodePixels is how many pixels a file may declare and still be
// decoded: a bomb that declares 100,000 × 100,000 is refused before a byte
// of it is decoded.
const DefaultMaxDecodePixels = 50_000_000

// ErrTooLarge is the error of a picture that declares more pixels than the
// bound.
var ErrTooLarge = errors.New("pictures: more pixels than the bound")

// decodes are the extensions of the files Decode reads whole, beside the
// TIFF-based RAW files it reads only where their first image is a picture.
var decodes = map[string]bool{
	".jpg": true, ".jpeg": true, ".jpe": true, ".png": true, ".gif": true, ".webp": true, ".bmp": true,
	".heic": true, ".heif": true, ".hif": true, ".avif": true, ".jxl": true,
}

// Decodes reports whether a file named with ext (lower case, with its dot)
// is a format Decode reads: one that fails to decode is broken, and holds
// no embedded preview worth looking for.
func Decodes(ext string) bool { return decodes[ext] }

// Decode decodes a picture (JPEG, PNG, GIF, WebP, BMP, TIFF, HEIC, AVIF,
// JPEG XL) after checking the size it declares against maxPixels.
func Decode(r io.ReadSeeker, maxPixels int) (image.Image, error) {
	head := make([]byte, 64)
	n, _ := io.ReadFull(r, head)
	switch head = head[:n]; {
	case isAVIF(head):
		return avifDecoder.decode(r, maxPixels)
	case isJXL(head):
		return jxlDecoder.decode(r, maxPixels)
	case isHEIC(head):
		return decodeHEIC(r, maxPixels)
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("pictures: %w", err)
	}
	cfg, _, err := image.DecodeConfig(r)
	if err != nil {
		return nil, fmt.Errorf("pictures: %w", err)
	}
	if cfg.Width < 1 || cfg.Height < 1 || int64(cfg.Width)*int64(cfg.Height) > int64(maxPixels) {
		return nil, fmt.Errorf("%w: %d×%d", ErrTooLarge, cfg.Width, cfg.Height)
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("pictures: %w", err)
	}
	img, _, err := image.Decode(r)
	if err != nil {
		return nil, fmt.Errorf("pictures: %w", err)
	}
	return img, nil
}

// Orient turns img upright as an EXIF orientation (1–8) says it was stored.
func Orient(img image.Image, orientation int) image.Image {
	if orientation < 2 || orientation > 8 {
		return img
	}
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	ow, oh := w, h
	if orientation >= 5 {
		ow, oh = h, w
	}
	src := toRGBA(img) // its pixels are moved four bytes at a time
	out := image.NewRGBA(image.Rect(0, 0, ow, oh))
	for y := range h {
		row := src.Pix[y*src.Stride:][:w*4]
		for x := range w {
			var dx, dy int
			switch orientation {
			case 2: // mirrored
				dx, dy = w-1-x, y
			case 3: // turned half
				dx, dy = w-1-x, h-1-y
			case 4: // mirrored upside down
				dx, dy = x, h-1-y
			case 5: // mirrored, turned a quarter left
				dx, dy = y, x
			case 6: // turned a quarter right to be upright
				dx, dy = h-1-y, x
			case 7: // mirrored, turned a quarter right
				dx, dy = h-1-y, w-1-x
			case 8: // turned a quarter left to be upright
				dx, dy = y, w-1-x
			}
			copy(out.Pix[dy*out.Stride+dx*4:][:4], row[x*4:][:4])
		}
	}
	return out
}

// Hash is the ThumbHash of img, made from a copy of at most 100 pixels a
// side, as the reference makes it.
func Hash(img image.Image) []byte {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if long := max(w, h); long > 100 {
		w, h = max(1, w*100/long), max(1, h*100/long)
	}
	small := Resize(img, w, h)
	return thumbhash.Encode(w, h, small.Pix)
}

// Poster is the frame shown for a video without a cover picture: a dark
// slate of the video's shape with a play button in its middle, so a grid
// tells it from a photo that failed.
func Poster(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	cx, cy := float64(w)/2, float64(h)/2
	r := float64(min(w, h)) / 6
	for y := range h {
		for x := range w {
			v := uint8(40 + 24*(x+y)/max(1, w+h))
			c := [3]uint8{v, v + 6, v + 14}
			dx, dy := float64(x)+0.5-cx, float64(y)+0.5-cy
			if dx*dx+dy*dy <= r*r {
				c = [3]uint8{90, 98, 112} // the button
				// The triangle pointing right, its tip at 0.6 r.
				if tx := dx + 0.3*r; tx >= 0 && dx <= 0.6*r && math.Abs(dy) <= 0.5*r*(0.9*r-tx)/(0.9*r) {
					c = [3]uint8{245, 245, 245}
				}
			}
			i := y*img.Stride + 4*x
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c[0], c[1], c[2], 255
		}
	}
	return img
}

// PosterPictures are a poster's thumbnail (WEBP) and preview (JPEG) for a
// video of w×h, and its ThumbHash: encoded once per size in the process,
// as they depend on nothing else.
func PosterPictures(w, h int) (thumb, preview, hash []byte, err error) {
	pw, ph := Fit(w, h, PreviewSide)
	tw, th := Fit(w, h, ThumbnailSide)
	v, _ := posters.LoadOrStore([4]int{tw, th, pw, ph}, &encodedPoster{})
	e := v.(*encodedPoster)
	e.once.Do(func() {
		thumbImg := Poster(tw, th)
		e.hash = Hash(thumbImg)
		if e.thumb, e.err = WebP(thumbImg); e.err == nil {
			e.preview, e.err = JPEG(Poster(pw, ph))
		}
	})
	return e.thumb, e.preview, e.hash, e.err
}

type encodedPoster struct {
	once                 sync.Once
	thumb, preview, hash []byte
	err                  error
}

var posters sync.Map // [4]int{thumb w, h, preview w, h} → *encodedPoster

// maxEmbeddedScan bounds the file EmbeddedJPEG reads whole: RAW files carry
// their previews anywhere in them. maxEmbeddedTries bounds the JPEG starts
// it tries, which a hostile file could repeat millions of times.
const (
	maxEmbeddedScan  = 64 << 20
	maxEmbeddedTries = 256
)

// EmbeddedJPEG is the largest JPEG a file carries inside it (the preview a
// camera writes into its RAW files, or a HEIC's EXIF thumbnail) that
// declares at most maxPixels; for files Go cannot decode as a whole.
func EmbeddedJPEG(r io.ReadSeeker, maxPixels int) (image.Image, error) {
	size, err := r.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, fmt.Errorf("pictures: %w", err)
	}
	if size > maxEmbeddedScan {
		return nil, fmt.Errorf("pictures: %d bytes are more than a preview is looked for in", size)
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("pictures: %w", err)
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(r, data); err != nil {
		return nil, fmt.Errorf("pictures: %w", err)
	}
	best, bestPixels := -1, 0
	for at, tried := 0, 0; tried < maxEmbeddedTries; at, tried = at+1, tried+1 {
		i := bytes.Index(data[at:], []byte{0xFF, 0xD8, 0xFF})
		if i < 0 {
			break
		}
		at += i
		cfg, err := jpeg.DecodeConfig(bytes.NewReader(data[at:]))
		if err != nil {
			continue
		}
		if px := cfg.Width * cfg.Height; px > bestPixels && px <= maxPixels {
			best, bestPixels = at, px
		}
	}
	if best < 0 {
		return nil, errors.New("pictures: no embedded JPEG")
	}
	img, err := jpeg.Decode(bytes.NewReader(data[best:]))
	if err != nil {
		return nil, fmt.Errorf("pictures: the embedded JPEG: %w", err)
	}
	return img, nil
}
