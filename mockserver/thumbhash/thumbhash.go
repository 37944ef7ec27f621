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
	var avgR, avgG, avgB, avgA float64
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

	hasAlpha := avgA < float64(n)
	lLimit := 7
	if hasAlpha {
		lLimit = 5 // fewer luminance bits when there is alpha
	}
	longest := max(w, h)
	lx := max(1, JSRound(float64(lLimit*w)/float64(longest)))
	ly := max(1, JSRound(float64(lLimit*h)/float64(longest)))

	l := make([]float64, n) // luminance
	p := make([]float64, n) // yellow - blue
	q := make([]float64, n) // red - green
	a := make([]float64, n) // alpha
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

	// Cosine tables, shared by the channels: cosX[cx*w+x], cosY[cy*h+y].
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
	encode := func(channel []float64, nx, ny int) (dc float64, ac []float64, scale float64) {
		for cy := 0; cy < ny; cy++ {
			for cx := 0; cx*ny < nx*(ny-cy); cx++ {
				f := 0.0
				fx := cosX[cx*w : cx*w+w]
				for y := 0; y < h; y++ {
					fy := cosY[cy*h+y]
					row := channel[y*w : y*w+w]
					for x, v := range row {
						f += v * fx[x] * fy
					}
				}
				f /= float64(n)
				if cx > 0 || cy > 0 {
					ac = append(ac, f)
					scale = math.Max(scale, math.Abs(f))
				} else {
					dc = f
				}
			}
		}
		if scale > 0 {
			for i := range ac {
				ac[i] = 0.5 + 0.5/scale*ac[i]
			}
		}
		return dc, ac, scale
	}
	lDC, lAC, lScale := encode(l, max(3, lx), max(3, ly))
	pDC, pAC, pScale := encode(p, 3, 3)
	qDC, qAC, qScale := encode(q, 3, 3)
	var aDC, aScale float64
	var aAC []float64
	if hasAlpha {
		aDC, aAC, aScale = encode(a, 5, 5)
	}

	isLandscape := 0
	if w > h {
		isLandscape = 1
	}
	alphaBit := 0
	if hasAlpha {
		alphaBit = 1
	}
	header24 := JSRound(63*lDC) | JSRound(31.5+31.5*pDC)<<6 | JSRound(31.5+31.5*qDC)<<12 | JSRound(31*lScale)<<18 | alphaBit<<23
	side := lx
	if isLandscape == 1 {
		side = ly
	}
	header16 := side | JSRound(63*pScale)<<3 | JSRound(63*qScale)<<9 | isLandscape<<15
	hash := []byte{byte(header24), byte(header24 >> 8), byte(header24 >> 16), byte(header16), byte(header16 >> 8)}
	acStart := 5
	if hasAlpha {
		acStart = 6
		hash = append(hash, byte(JSRound(15*aDC)|JSRound(15*aScale)<<4))
	}
	channels := [][]float64{lAC, pAC, qAC}
	if hasAlpha {
		channels = append(channels, aAC)
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
	header24 := int(hash[0]) | int(hash[1])<<8 | int(hash[2])<<16
	header16 := int(hash[3]) | int(hash[4])<<8
	lDC := float64(header24&63) / 63
	pDC := float64(header24>>6&63)/31.5 - 1
	qDC := float64(header24>>12&63)/31.5 - 1
	lScale := float64(header24>>18&31) / 31
	hasAlpha := header24>>23 != 0
	pScale := float64(header16>>3&63) / 63
	qScale := float64(header16>>9&63) / 63
	landscape := header16>>15 != 0
	side := 7
	if hasAlpha {
		side = 5
	}
	lx, ly := max(3, header16&7), max(3, side)
	if landscape {
		lx, ly = max(3, side), max(3, header16&7)
	}
	aDC, aScale := 1.0, 0.0
	acStart := 5
	if hasAlpha {
		if len(hash) < 6 {
			return 0, 0, nil, ErrShort
		}
		aDC = float64(hash[5]&15) / 15
		aScale = float64(hash[5]>>4) / 15
		acStart = 6
	}

	// The varying factors; saturation boosted by 1.25 against quantization.
	acIndex := 0
	short := false
	channel := func(nx, ny int, scale float64) []float64 {
		var ac []float64
		for cy := range ny {
			cx := 0
			if cy == 0 {
				cx = 1
			}
			for ; cx*ny < nx*(ny-cy); cx++ {
				i := acStart + acIndex>>1
				if i >= len(hash) {
					short = true
					return ac
				}
				ac = append(ac, (float64(int(hash[i])>>((acIndex&1)<<2)&15)/7.5-1)*scale)
				acIndex++
			}
		}
		return ac
	}
	lAC := channel(lx, ly, lScale)
	pAC := channel(3, 3, pScale*1.25)
	qAC := channel(3, 3, qScale*1.25)
	var aAC []float64
	if hasAlpha {
		aAC = channel(5, 5, aScale)
	}
	if short {
		return 0, 0, nil, ErrShort
	}

	if ratio > 1 {
		w, h = 32, JSRound(32/ratio)
	} else {
		w, h = JSRound(32*ratio), 32
	}
	rgba = make([]byte, w*h*4)
	nx, ny := max(lx, 3), max(ly, 3)
	if hasAlpha {
		nx, ny = max(lx, 5), max(ly, 5)
	}
	fx, fy := make([]float64, nx), make([]float64, ny)
	to8 := func(v float64) byte { return byte(math.Max(0, 255*math.Min(1, v))) }
	for y, i := 0, 0; y < h; y++ {
		for cy := range ny {
			fy[cy] = math.Cos(math.Pi / float64(h) * (float64(y) + 0.5) * float64(cy))
		}
		for x := 0; x < w; x, i = x+1, i+4 {
			l, p, q, a := lDC, pDC, qDC, aDC
			for cx := range nx {
				fx[cx] = math.Cos(math.Pi / float64(w) * (float64(x) + 0.5) * float64(cx))
			}
			for cy, j := 0, 0; cy < ly; cy++ {
				fy2 := fy[cy] * 2
				cx := 0
				if cy == 0 {
					cx = 1
				}
				for ; cx*ly < lx*(ly-cy); cx, j = cx+1, j+1 {
					l += lAC[j] * fx[cx] * fy2
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
					p += pAC[j] * f
					q += qAC[j] * f
				}
			}
			if hasAlpha {
				for cy, j := 0, 0; cy < 5; cy++ {
					fy2 := fy[cy] * 2
					cx := 0
					if cy == 0 {
						cx = 1
					}
					for ; cx < 5-cy; cx, j = cx+1, j+1 {
						a += aAC[j] * fx[cx] * fy2
					}
				}
			}
			b := l - 2.0/3*p
			r := (3*l - b + q) / 2
			g := r - q
			rgba[i], rgba[i+1], rgba[i+2], rgba[i+3] = to8(r), to8(g), to8(b), to8(a)
		}
	}
	return w, h, rgba, nil
}
