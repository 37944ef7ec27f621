package fake

import (
	"encoding/base64"
	"math"
)

// thumbHash encodes a w×h RGBA image (w, h ≤ 100) as a ThumbHash, following
// the reference encoder (github.com/evanw/thumbhash, rgbaToThumbHash) step
// by step, so that any ThumbHash decoder renders it.
func thumbHash(w, h int, rgba []byte) []byte {
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
	lx := max(1, jsRound(float64(lLimit*w)/float64(longest)))
	ly := max(1, jsRound(float64(lLimit*h)/float64(longest)))

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
	header24 := jsRound(63*lDC) | jsRound(31.5+31.5*pDC)<<6 | jsRound(31.5+31.5*qDC)<<12 | jsRound(31*lScale)<<18 | alphaBit<<23
	side := lx
	if isLandscape == 1 {
		side = ly
	}
	header16 := side | jsRound(63*pScale)<<3 | jsRound(63*qScale)<<9 | isLandscape<<15
	hash := []byte{byte(header24), byte(header24 >> 8), byte(header24 >> 16), byte(header16), byte(header16 >> 8)}
	acStart := 5
	if hasAlpha {
		acStart = 6
		hash = append(hash, byte(jsRound(15*aDC)|jsRound(15*aScale)<<4))
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
			hash[i] |= byte(jsRound(15*f) << ((acIndex & 1) << 2))
			acIndex++
		}
	}
	return hash
}

// jsRound rounds like JavaScript's Math.round (halves towards +∞), as the
// reference encoder does.
func jsRound(x float64) int { return int(math.Floor(x + 0.5)) }

// thumbKey names a set of thumbhashes: a scene in one of the few shapes a
// ThumbHash tells apart. A hash keeps the aspect ratio only as the number
// of luminance terms along each side (lx, ly up to 7), so pictures of 4:3
// and 3:2 get the same header; one rendering per shape is exact.
type thumbKey struct {
	scene    int
	portrait bool
	short    int // terms along the short side, 1 to 7
}

// thumbVariants is how many different pictures each scene and shape gets.
const thumbVariants = 3

// thumbhash returns the base64 ThumbHash of a picture of scene s displayed
// at w×h: one of a few variants rendered once per Generate and reused.
func (g *gen) thumbhash(s, w, h int) string {
	long, short := max(w, h), min(w, h)
	key := thumbKey{scene: s, portrait: h > w, short: max(1, jsRound(7*float64(short)/float64(long)))}
	set, ok := g.thumbs[key]
	if !ok {
		// Render at 28 px on the long side, 4 px per luminance term.
		pw, ph := 28, 4*key.short
		if key.portrait {
			pw, ph = ph, pw
		}
		set = make([]string, thumbVariants)
		for i := range set {
			set[i] = base64.StdEncoding.EncodeToString(thumbHash(pw, ph, g.render(&scenes[s], pw, ph)))
		}
		g.thumbs[key] = set
	}
	return set[g.n(len(set))]
}

// render paints a small picture of sc: sky, a middle band at the horizon,
// ground, and a soft spot of the accent colour, each jittered a little.
func (g *gen) render(sc *scene, w, h int) []byte {
	jitter := func(c rgb) rgb {
		for i := range c {
			c[i] = math.Min(255, math.Max(0, c[i]+g.frac(-18, 18)))
		}
		return c
	}
	sky, middle, ground, accent := jitter(sc.sky), jitter(sc.middle), jitter(sc.ground), jitter(sc.accent)
	horizon := math.Min(0.85, math.Max(0.15, sc.horizon+g.frac(-0.12, 0.12)))
	cx, cy := g.frac(0.15, 0.85), g.frac(0.2, 0.8)
	radius := g.frac(0.12, 0.3)
	tilt := g.frac(-0.15, 0.15)

	px := make([]byte, 0, w*h*4)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			u, v := (float64(x)+0.5)/float64(w), (float64(y)+0.5)/float64(h)
			hz := horizon + tilt*(u-0.5)
			var c rgb
			if v < hz {
				r := v / hz
				c = mix(sky, middle, r*r)
			} else {
				c = mix(middle, ground, math.Sqrt((v-hz)/(1-hz)))
			}
			d := math.Hypot(u-cx, (v-cy)*float64(h)/float64(w))
			if d < radius {
				c = mix(c, accent, 1-d/radius)
			}
			px = append(px, byte(c[0]), byte(c[1]), byte(c[2]), 255)
		}
	}
	return px
}

func mix(a, b rgb, t float64) rgb {
	t = math.Min(1, math.Max(0, t))
	return rgb{a[0] + (b[0]-a[0])*t, a[1] + (b[1]-a[1])*t, a[2] + (b[2]-a[2])*t}
}
