// Package thumbhash encodes and decodes ThumbHashes
// (github.com/evanw/thumbhash), the tiny placeholders the API gives each
// asset, following the reference implementation step by step: the hashes
// the mock makes render in every client as they do in the reference's, and
// the pictures the mock serves are rendered from them.
package thumbhash

import (
	"errors"
	"math"
)

// Encode encodes a w×h RGBA image (w, h ≤ 100) as a ThumbHash, following
// the reference encoder (github.com/evanw/thumbhash, rgbaToThumbHash) step
// by step, so that any ThumbHash decoder renders it.
func Encode(w, h int, rgba []byte) []byte {
	n := w * h
	avgR, avgG, avgB, avgA := averageColor(n, rgba)

	hasAlpha := avgA < float64(n)
	lLimit := 7
	if hasAlpha {
		lLimit = 5 // fewer luminance bits when there is alpha
	}
	longest := max(w, h)
	lx := max(1, JSRound(float64(lLimit*w)/float64(longest)))
	ly := max(1, JSRound(float64(lLimit*h)/float64(longest)))

	l, p, q, a := toLPQA(n, rgba, avgR, avgG, avgB)
	t := newCosines(w, h)
	lf := t.encode(l, max(3, lx), max(3, ly))
	pf := t.encode(p, 3, 3)
	qf := t.encode(q, 3, 3)
	var af factors
	if hasAlpha {
		af = t.encode(a, 5, 5)
	}
	return pack(lx, ly, w > h, hasAlpha, lf, pf, qf, af)
}

// averageColor returns the image's average colour, weighted by alpha, and
// its total alpha (n when the image is opaque).
func averageColor(n int, rgba []byte) (avgR, avgG, avgB, avgA float64) {
	for i, j := 0, 0; i < n; i, j = i+1, j+4 {
		alpha := float64(rgba[j+3]) / 255
		avgR += alpha / 255 * float64(rgba[j])
		avgG += alpha / 255 * float64(rgba[j+1])
		avgB += alpha / 255 * float64(rgba[j+2])
		avgA += alpha
	}
	if avgA > 0 {
		avgR /= avgA
		avgG /= avgA
		avgB /= avgA
	}
	return avgR, avgG, avgB, avgA
}

// toLPQA converts the pixels, composited over the average colour, to the
// channels ThumbHash encodes: luminance, yellow - blue, red - green, alpha.
func toLPQA(n int, rgba []byte, avgR, avgG, avgB float64) (l, p, q, a []float64) {
	l = make([]float64, n) // luminance
	p = make([]float64, n) // yellow - blue
	q = make([]float64, n) // red - green
	a = make([]float64, n) // alpha
	for i, j := 0, 0; i < n; i, j = i+1, j+4 {
		alpha := float64(rgba[j+3]) / 255
		r := avgR*(1-alpha) + alpha/255*float64(rgba[j])
		g := avgG*(1-alpha) + alpha/255*float64(rgba[j+1])
		b := avgB*(1-alpha) + alpha/255*float64(rgba[j+2])
		l[i] = (r + g + b) / 3
		p[i] = (r+g)/2 - b
		q[i] = r - g
		a[i] = alpha
	}
	return l, p, q, a
}

// cosines are the cosine tables of a w×h image, shared by the channels:
// cosX[cx*w+x], cosY[cy*h+y].
type cosines struct {
	w, h       int
	cosX, cosY []float64
}

// newCosines computes the cosine tables for up to 7 terms along each side.
func newCosines(w, h int) *cosines {
	const maxN = 7
	cosX := make([]float64, maxN*w)
	for cx := range maxN {
		for x := range w {
			cosX[cx*w+x] = math.Cos(math.Pi / float64(w) * float64(cx) * (float64(x) + 0.5))
		}
	}
	cosY := make([]float64, maxN*h)
	for cy := range maxN {
		for y := range h {
			cosY[cy*h+y] = math.Cos(math.Pi / float64(h) * float64(cy) * (float64(y) + 0.5))
		}
	}
	return &cosines{w: w, h: h, cosX: cosX, cosY: cosY}
}

// factors are a channel's cosine transform: its average (dc), its varying
// terms (ac) scaled to 0..1, and the scale they were divided by.
type factors struct {
	dc    float64
	ac    []float64
	scale float64
}

// encode computes the nx×ny cosine transform of a channel, keeping the
// terms of the triangle the reference keeps.
func (t *cosines) encode(channel []float64, nx, ny int) (f factors) {
	w, h := t.w, t.h
	n := w * h
	for cy := 0; cy < ny; cy++ {
		for cx := 0; cx*ny < nx*(ny-cy); cx++ {
			v := 0.0
			fx := t.cosX[cx*w : cx*w+w]
			for y := 0; y < h; y++ {
				fy := t.cosY[cy*h+y]
				row := channel[y*w : y*w+w]
				for x, c := range row {
					v += c * fx[x] * fy
				}
			}
			v /= float64(n)
			if cx > 0 || cy > 0 {
				f.ac = append(f.ac, v)
				f.scale = math.Max(f.scale, math.Abs(v))
			} else {
				f.dc = v
			}
		}
	}
	if f.scale > 0 {
		for i := range f.ac {
			f.ac[i] = 0.5 + 0.5/f.scale*f.ac[i]
		}
	}
	return f
}

// pack writes the hash: the headers with the averages and scales, then
// the varying terms of every channel, four bits each.
func pack(lx, ly int, landscape, hasAlpha bool, l, p, q, a factors) []byte {
	isLandscape := 0
	if landscape {
		isLandscape = 1
	}
	alphaBit := 0
	if hasAlpha {
		alphaBit = 1
	}
	header24 := JSRound(63*l.dc) | JSRound(31.5+31.5*p.dc)<<6 | JSRound(31.5+31.5*q.dc)<<12 | JSRound(31*l.scale)<<18 | alphaBit<<23
	side := lx
	if isLandscape == 1 {
		side = ly
	}
	header16 := side | JSRound(63*p.scale)<<3 | JSRound(63*q.scale)<<9 | isLandscape<<15
	hash := []byte{byte(header24), byte(header24 >> 8), byte(header24 >> 16), byte(header16), byte(header16 >> 8)}
	acStart := 5
	if hasAlpha {
		acStart = 6
		hash = append(hash, byte(JSRound(15*a.dc)|JSRound(15*a.scale)<<4))
	}
	channels := [][]float64{l.ac, p.ac, q.ac}
	if hasAlpha {
		channels = append(channels, a.ac)
	}
	acIndex := 0
	for _, ac := range channels {
		for _, f := range ac {
			i := acStart + acIndex>>1
			for len(hash) <= i {
				hash = append(hash, 0)
			}
			hash[i] |= byte(JSRound(15*f) << ((acIndex & 1) << 2))
			acIndex++
		}
	}
	return hash
}

// JSRound rounds like JavaScript's Math.round (halves towards +∞), as the
// reference encoder does.
func JSRound(x float64) int { return int(math.Floor(x + 0.5)) }

// ErrShort is the error of a hash too short to be a ThumbHash.
var ErrShort = errors.New("thumbhash: too short")

// AspectRatio is a hash's approximate aspect ratio (width / height), as
// the reference thumbHashToApproximateAspectRatio gives it.
func AspectRatio(hash []byte) (float64, error) {
	if len(hash) < 5 {
		return 0, ErrShort
	}
	header := int(hash[3])
	hasAlpha := hash[2]&0x80 != 0
	landscape := hash[4]&0x80 != 0
	side := 7
	if hasAlpha {
		side = 5
	}
	lx, ly := header&7, side
	if landscape {
		lx, ly = side, header&7
	}
	if lx == 0 || ly == 0 {
		return 0, errors.New("thumbhash: no luminance terms")
	}
	return float64(lx) / float64(ly), nil
}

// Check says whether hash is a ThumbHash Decode can render: long enough
// for every term its header announces, with luminance terms along both
// sides. It is cheap: nothing is rendered.
func Check(hash []byte) error {
	if _, err := AspectRatio(hash); err != nil {
		return err
	}
	header16 := int(hash[3]) | int(hash[4])<<8
	hasAlpha := hash[2]&0x80 != 0
	side := 7
	if hasAlpha {
		side = 5
	}
	lx, ly := max(3, header16&7), max(3, side)
	if header16>>15 != 0 {
		lx, ly = max(3, side), max(3, header16&7)
	}
	terms := func(nx, ny int) int {
		n := 0
		for cy := range ny {
			cx := 0
			if cy == 0 {
				cx = 1
			}
			for ; cx*ny < nx*(ny-cy); cx++ {
				n++
			}
		}
		return n
	}
	n, start := terms(lx, ly)+2*terms(3, 3), 5
	if hasAlpha {
		n, start = n+terms(5, 5), 6
	}
	if len(hash) < start+(n+1)/2 {
		return ErrShort
	}
	return nil
}

// Decode renders a hash as the reference thumbHashToRGBA does: an RGBA
// picture of at most 32 pixels a side, at the hash's aspect ratio.
func Decode(hash []byte) (w, h int, rgba []byte, err error) {
	ratio, err := AspectRatio(hash)
	if err != nil {
		return 0, 0, nil, err
	}
	t, err := readHash(hash)
	if err != nil {
		return 0, 0, nil, err
	}
	if ratio > 1 {
		w, h = 32, JSRound(32/ratio)
	} else {
		w, h = JSRound(32*ratio), 32
	}
	return w, h, t.render(w, h), nil
}

// decoded is what a hash holds: each channel's average and varying terms,
// and how many luminance terms lie along each side.
type decoded struct {
	lDC, pDC, qDC, aDC float64
	lAC, pAC, qAC, aAC []float64
	lx, ly             int
	hasAlpha           bool
}

// readHash reads the headers and the varying terms of a hash, or
// ErrShort when it ends before the terms its header announces.
func readHash(hash []byte) (decoded, error) {
	header24 := int(hash[0]) | int(hash[1])<<8 | int(hash[2])<<16
	header16 := int(hash[3]) | int(hash[4])<<8
	t := decoded{
		lDC:      float64(header24&63) / 63,
		pDC:      float64(header24>>6&63)/31.5 - 1,
		qDC:      float64(header24>>12&63)/31.5 - 1,
		hasAlpha: header24>>23 != 0,
	}
	lScale := float64(header24>>18&31) / 31
	pScale := float64(header16>>3&63) / 63
	qScale := float64(header16>>9&63) / 63
	landscape := header16>>15 != 0
	side := 7
	if t.hasAlpha {
		side = 5
	}
	t.lx, t.ly = max(3, header16&7), max(3, side)
	if landscape {
		t.lx, t.ly = max(3, side), max(3, header16&7)
	}
	t.aDC = 1.0
	aScale := 0.0
	r := acReader{hash: hash, start: 5}
	if t.hasAlpha {
		if len(hash) < 6 {
			return decoded{}, ErrShort
		}
		t.aDC = float64(hash[5]&15) / 15
		aScale = float64(hash[5]>>4) / 15
		r.start = 6
	}

	// The varying factors; saturation boosted by 1.25 against quantization.
	t.lAC = r.channel(t.lx, t.ly, lScale)
	t.pAC = r.channel(3, 3, pScale*1.25)
	t.qAC = r.channel(3, 3, qScale*1.25)
	if t.hasAlpha {
		t.aAC = r.channel(5, 5, aScale)
	}
	if r.short {
		return decoded{}, ErrShort
	}
	return t, nil
}

// acReader reads the varying terms of a hash, four bits each, channel
// after channel; short is set when the hash ends before them.
type acReader struct {
	hash    []byte
	start   int // index of the first byte of terms
	acIndex int // terms read so far
	short   bool
}

// channel reads the nx×ny triangle of terms of one channel, scaled to
// -scale..scale.
func (r *acReader) channel(nx, ny int, scale float64) []float64 {
	var ac []float64
	for cy := range ny {
		cx := 0
		if cy == 0 {
			cx = 1
		}
		for ; cx*ny < nx*(ny-cy); cx++ {
			i := r.start + r.acIndex>>1
			if i >= len(r.hash) {
				r.short = true
				return ac
			}
			ac = append(ac, (float64(int(r.hash[i])>>((r.acIndex&1)<<2)&15)/7.5-1)*scale)
			r.acIndex++
		}
	}
	return ac
}

// render draws the w×h RGBA picture the hash describes.
func (t *decoded) render(w, h int) []byte {
	rgba := make([]byte, w*h*4)
	nx, ny := max(t.lx, 3), max(t.ly, 3)
	if t.hasAlpha {
		nx, ny = max(t.lx, 5), max(t.ly, 5)
	}
	fx, fy := make([]float64, nx), make([]float64, ny)
	to8 := func(v float64) byte { return byte(math.Max(0, 255*math.Min(1, v))) }
	for y, i := 0, 0; y < h; y++ {
		for cy := range ny {
			fy[cy] = math.Cos(math.Pi / float64(h) * (float64(y) + 0.5) * float64(cy))
		}
		for x := 0; x < w; x, i = x+1, i+4 {
			for cx := range nx {
				fx[cx] = math.Cos(math.Pi / float64(w) * (float64(x) + 0.5) * float64(cx))
			}
			l, p, q, a := t.pixel(fx, fy)
			b := l - 2.0/3*p
			r := (3*l - b + q) / 2
			g := r - q
			rgba[i], rgba[i+1], rgba[i+2], rgba[i+3] = to8(r), to8(g), to8(b), to8(a)
		}
	}
	return rgba
}

// pixel sums the terms at one pixel, given the cosines of its column (fx)
// and of its row (fy): its luminance, yellow - blue, red - green and alpha.
func (t *decoded) pixel(fx, fy []float64) (l, p, q, a float64) {
	l, p, q, a = t.lDC, t.pDC, t.qDC, t.aDC
	for cy, j := 0, 0; cy < t.ly; cy++ {
		fy2 := fy[cy] * 2
		cx := 0
		if cy == 0 {
			cx = 1
		}
		for ; cx*t.ly < t.lx*(t.ly-cy); cx, j = cx+1, j+1 {
			l += t.lAC[j] * fx[cx] * fy2
		}
	}
	for cy, j := 0, 0; cy < 3; cy++ {
		fy2 := fy[cy] * 2
		cx := 0
		if cy == 0 {
			cx = 1
		}
		for ; cx < 3-cy; cx, j = cx+1, j+1 {
			f := fx[cx] * fy2
			p += t.pAC[j] * f
			q += t.qAC[j] * f
		}
	}
	if t.hasAlpha {
		for cy, j := 0, 0; cy < 5; cy++ {
			fy2 := fy[cy] * 2
			cx := 0
			if cy == 0 {
				cx = 1
			}
			for ; cx < 5-cy; cx, j = cx+1, j+1 {
				a += t.aAC[j] * fx[cx] * fy2
			}
		}
	}
	return l, p, q, a
}
