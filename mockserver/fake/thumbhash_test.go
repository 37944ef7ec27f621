package fake

import (
	"encoding/base64"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testImage is the image the golden hashes were made from with the reference
// encoder (npm thumbhash 0.1.1, rgbaToThumbHash), by the same integer formulas.
func testImage(w, h int, alpha bool) []byte {
	p := make([]byte, w*h*4)
	for y := range h {
		for x := range w {
			i := (y*w + x) * 4
			p[i] = byte(x * 255 / (w - 1))
			p[i+1] = byte(y * 255 / (h - 1))
			p[i+2] = byte((x + y) * 7 % 256)
			p[i+3] = 255
			if alpha {
				p[i+3] = byte(x * y * 3 % 256)
			}
		}
	}
	return p
}

func TestThumbHashMatchesReferenceEncoder(t *testing.T) {
	tests := []struct {
		w, h  int
		alpha bool
		want  string
	}{
		{28, 20, false, "oAcOLZpgd3dheYeHd3h3eOTgC/h4"},
		{20, 28, false, "oPcNLRpxh2B4Z3l3d3d4eLDkDvh4"},
		{32, 32, true, "IQiGHQwXoJhwp3qMmpDACfh4EDJQdmEnNw=="},
		{100, 75, false, "3wcKPZpwd4dweHh3h3eHd4CACPh3"},
	}
	for _, tt := range tests {
		got := base64.StdEncoding.EncodeToString(thumbHash(tt.w, tt.h, testImage(tt.w, tt.h, tt.alpha)))
		assert.Equal(t, tt.want, got, "%dx%d alpha=%v", tt.w, tt.h, tt.alpha)
	}
}

// averageColor decodes a ThumbHash's average colour, as the reference
// thumbHashToAverageRGBA does.
func averageColor(hash []byte) (r, g, b float64) {
	header := int(hash[0]) | int(hash[1])<<8 | int(hash[2])<<16
	l := float64(header&63) / 63
	p := float64(header>>6&63)/31.5 - 1
	q := float64(header>>12&63)/31.5 - 1
	b = l - 2.0/3*p
	r = (3*l - b + q) / 2
	g = r - q
	clamp := func(v float64) float64 { return math.Max(0, math.Min(1, v)) }
	return clamp(r), clamp(g), clamp(b)
}

// aspectRatio decodes a ThumbHash's approximate aspect ratio, as the
// reference thumbHashToApproximateAspectRatio does.
func aspectRatio(hash []byte) float64 {
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
	return float64(lx) / float64(ly)
}

func TestSceneThumbHashesKeepShapeAndColour(t *testing.T) {
	g := newGen(Options{Seed: 3})
	tests := []struct {
		scene      int
		w, h       int
		wantAspect float64
	}{
		{sceneBeach, 4032, 3024, 7.0 / 5},
		{sceneSnow, 3024, 4032, 5.0 / 7},
		{sceneCity, 1920, 1080, 7.0 / 4},
		{sceneFestive, 5760, 2880, 7.0 / 4},
		{sceneFood, 4000, 4000, 1},
	}
	for _, tt := range tests {
		s := g.thumbhash(tt.scene, tt.w, tt.h)
		hash, err := base64.StdEncoding.DecodeString(s)
		require.NoError(t, err)
		assert.InDelta(t, tt.wantAspect, aspectRatio(hash), 1e-9, "scene %s %dx%d", scenes[tt.scene].name, tt.w, tt.h)
	}

	// The average colour follows the palette: snow is bright, a festive
	// evening dark and red.
	hash, _ := base64.StdEncoding.DecodeString(g.thumbhash(sceneSnow, 4032, 3024))
	r, gr, b := averageColor(hash)
	assert.Greater(t, (r+gr+b)/3, 0.7, "snow is bright")
	hash, _ = base64.StdEncoding.DecodeString(g.thumbhash(sceneFestive, 4032, 3024))
	r, gr, b = averageColor(hash)
	assert.Less(t, (r+gr+b)/3, 0.5, "a festive evening is dark")
	assert.Greater(t, r, b, "and warm")
}
