package api

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/fixtures"
	"github.com/mediaspec/mediaspec/mockserver/exif"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// The head of every picture among the fixtures is kept whole; of the
// video, its first bytes only, which tell it is none.
func TestHeadIsKeptOfPictures(t *testing.T) {
	for _, name := range fixtures.Names() {
		if name == fixtures.LisbonXMP {
			continue // a sidecar, read through its own head
		}
		b, err := fixtures.ReadFile(name)
		require.NoError(t, err)
		hw := &headWriter{max: exif.MaxHead, sniff: exif.SniffSize}
		for rest := b; len(rest) > 0; {
			n := min(len(rest), 1000)
			_, _ = hw.Write(rest[:n])
			rest = rest[n:]
		}
		want := b[:min(len(b), exif.MaxHead)]
		if name == fixtures.ClipMP4 {
			want = b[:exif.SniffSize]
		}
		assert.Equal(t, want, hw.b, name)
	}
}

// Of a file whose first bytes are no picture's, those alone are kept, in
// writes of any size; a file shorter than them is kept whole.
func TestHeadOfOtherFiles(t *testing.T) {
	random := make([]byte, 100<<10)
	_, _ = rand.NewChaCha8([32]byte{7}).Read(random)
	random[0] = 'x' // no magic by chance
	for _, chunk := range []int{1, 100, exif.SniffSize, 64 << 10, len(random)} {
		hw := &headWriter{max: exif.MaxHead, sniff: exif.SniffSize}
		for rest := random; len(rest) > 0; {
			n := min(len(rest), chunk)
			m, err := hw.Write(rest[:n])
			require.NoError(t, err)
			require.Equal(t, n, m)
			rest = rest[n:]
		}
		assert.Equal(t, random[:exif.SniffSize], hw.b, "writes of %d", chunk)
	}
	hw := &headWriter{max: exif.MaxHead, sniff: exif.SniffSize}
	_, _ = hw.Write([]byte("short"))
	assert.Equal(t, []byte("short"), hw.b)

	jpeg := append([]byte("\xff\xd8\xff\xe1"), random[4:]...)
	hw = &headWriter{max: exif.MaxHead, sniff: exif.SniffSize}
	_, _ = hw.Write(jpeg)
	assert.True(t, bytes.Equal(jpeg, hw.b), "a JPEG's head is kept in one write too")
}

// An upload's answer is what json.Marshal writes of it, whatever its id.
func TestUploadAnswerAsJSON(t *testing.T) {
	for _, id := range []string{"8f1c5a9e-6b3d-4c2a-9e7f-0a1b2c3d4e5f", "8F1C5A9E-6B3D-4C2A-9E7F-0A1B2C3D4E5F", "", "<a&b>", `q"uote\`, "été"} {
		for _, dup := range []bool{false, true} {
			r := model.UploadResult{ID: id, Duplicate: dup}
			want, err := json.Marshal(r)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(uploadAnswer(r)))
		}
	}
}
