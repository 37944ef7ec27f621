package mp4

import (
	"encoding/binary"
	"testing"
)

// TestRotation reads a track header's matrix as the turn ffprobe reports
// (a phone's portrait video: [0 1 -1 0], rotation -90, shown turned 90
// clockwise), as the reference's orientation "6".
func TestRotation(t *testing.T) {
	const one, minus = 1 << 16, -(1 << 16)
	for _, tt := range []struct {
		a, b, c, d int32
		want       int
	}{
		{one, 0, 0, one, 0},
		{0, one, minus, 0, 90},
		{minus, 0, 0, minus, 180},
		{0, minus, one, 0, 270},
		{one, one, 0, one, 0}, // a shear: no turn
	} {
		m := make([]byte, 36)
		for i, v := range []int32{tt.a, tt.b, 0, tt.c, tt.d, 0, 0, 0, 1 << 30} {
			binary.BigEndian.PutUint32(m[4*i:], uint32(v))
		}
		if got := rotation(m); got != tt.want {
			t.Errorf("rotation(%d %d %d %d) = %d, want %d", tt.a, tt.b, tt.c, tt.d, got, tt.want)
		}
	}
}
