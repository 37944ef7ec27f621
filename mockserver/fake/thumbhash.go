package fake

import (
	"encoding/base64"
	"math"

	"github.com/mediaspec/mediaspec/mockserver/thumbhash"
)

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
	key := thumbKey{scene: s, portrait: h > w, short: max(1, thumbhash.JSRound(7*float64(short)/float64(long)))}
	set, ok := g.thumbs[key]
	if !ok {
		// Render at 28 px on the long side, 4 px per luminance term.
		pw, ph := 28, 4*key.short
		if key.portrait {
			pw, ph = ph, pw
		}
		set = make([]string, thumbVariants)
		for i := range set {
			set[i] = base64.StdEncoding.EncodeToString(thumbhash.Encode(pw, ph, g.render(&scenes[s], pw, ph)))
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
