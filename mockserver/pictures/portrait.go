package pictures

import (
	"hash/fnv"
	"image"
	"image/color"
	"math"
)

// PortraitSide is the side of the square profile pictures the mock makes.
const PortraitSide = 256

// avatarRGB are the colours of the API's avatarColor values, as its web
// client paints them.
var avatarRGB = map[string]color.RGBA{
	"primary": {66, 80, 175, 255}, "pink": {222, 127, 179, 255}, "red": {229, 52, 52, 255},
	"yellow": {255, 176, 34, 255}, "blue": {29, 120, 184, 255}, "green": {48, 146, 93, 255},
	"purple": {161, 86, 200, 255}, "orange": {222, 116, 53, 255}, "gray": {85, 85, 85, 255},
	"amber": {209, 124, 14, 255},
}

// skin and hair tones a portrait picks from, by its seed.
var (
	skins = []color.RGBA{{255, 219, 172, 255}, {241, 194, 125, 255}, {224, 172, 105, 255}, {198, 134, 66, 255}, {141, 85, 36, 255}, {94, 58, 30, 255}}
	hairs = []color.RGBA{{35, 25, 20, 255}, {90, 56, 37, 255}, {160, 110, 60, 255}, {220, 190, 120, 255}, {120, 120, 120, 255}}
)

// Portrait paints a profile picture: a head and shoulders before the
// avatar colour, the same for the same seed (a user's id).
func Portrait(seed, avatarColor string) *image.RGBA {
	h := fnv.New64a()
	h.Write([]byte(seed))
	n := h.Sum64()
	bg, ok := avatarRGB[avatarColor]
	if !ok {
		bg = avatarRGB["primary"]
	}
	skin, hair := skins[n%uint64(len(skins))], hairs[(n>>8)%uint64(len(hairs))]
	shirt := color.RGBA{uint8(n >> 16), uint8(n >> 24), uint8(n >> 32), 255}
	const s = PortraitSide
	img := image.NewRGBA(image.Rect(0, 0, s, s))
	// inside: how much of the pixel at (x, y) lies inside an ellipse, for
	// soft edges.
	inside := func(x, y, cx, cy, rx, ry float64) float64 {
		d := math.Hypot((x-cx)/rx, (y-cy)/ry)
		return math.Max(0, math.Min(1, (1-d)*math.Min(rx, ry)+0.5))
	}
	blend := func(a, b color.RGBA, t float64) color.RGBA {
		m := func(p, q uint8) uint8 { return uint8(float64(p)*(1-t) + float64(q)*t + 0.5) }
		return color.RGBA{m(a.R, b.R), m(a.G, b.G), m(a.B, b.B), 255}
	}
	for y := range s {
		for x := range s {
			fx, fy := float64(x)+0.5, float64(y)+0.5
			// The background darkens a little towards the bottom.
			c := blend(bg, color.RGBA{0, 0, 0, 255}, 0.25*fy/s)
			c = blend(c, shirt, inside(fx, fy, s/2, s*1.05, s*0.42, s*0.36))
			c = blend(c, skin, inside(fx, fy, s/2, s*0.66, s*0.08, s*0.12)) // neck
			c = blend(c, hair, inside(fx, fy, s/2, s*0.38, s*0.2, s*0.22))
			c = blend(c, skin, inside(fx, fy, s/2, s*0.43, s*0.17, s*0.2))
			img.SetRGBA(x, y, c)
		}
	}
	return img
}
