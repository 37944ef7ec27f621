package fake

import (
	"encoding/base64"
	"testing"

	"github.com/mediaspec/mediaspec/mockserver/thumbhash"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
		assert.InDelta(t, tt.wantAspect, mustRatio(t, hash), 1e-9, "scene %s %dx%d", scenes[tt.scene].name, tt.w, tt.h)
	}

	// The average colour follows the palette: snow is bright, a festive
	// evening dark and red.
	hash, _ := base64.StdEncoding.DecodeString(g.thumbhash(sceneSnow, 4032, 3024))
	r, gr, b, err := averageColor(hash)
	require.NoError(t, err)
	assert.Greater(t, (r+gr+b)/3, 0.7, "snow is bright")
	hash, _ = base64.StdEncoding.DecodeString(g.thumbhash(sceneFestive, 4032, 3024))
	r, gr, b, err = averageColor(hash)
	require.NoError(t, err)
	assert.Less(t, (r+gr+b)/3, 0.5, "a festive evening is dark")
	assert.Greater(t, r, b, "and warm")
}

func mustRatio(t *testing.T, hash []byte) float64 {
	t.Helper()
	r, err := thumbhash.AspectRatio(hash)
	require.NoError(t, err)
	return r
}

// averageColor is the mean colour of the reference decoder's picture of a
// hash, each channel in [0, 1].
func averageColor(hash []byte) (r, g, b float64, err error) {
	_, _, rgba, err := thumbhash.Decode(hash)
	if err != nil {
		return 0, 0, 0, err
	}
	n := float64(len(rgba) / 4)
	for i := 0; i < len(rgba); i += 4 {
		r, g, b = r+float64(rgba[i])/255/n, g+float64(rgba[i+1])/255/n, b+float64(rgba[i+2])/255/n
	}
	return r, g, b, nil
}
