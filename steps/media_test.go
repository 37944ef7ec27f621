package steps

import (
	"bytes"
	"encoding/binary"
	"mime"
	"mime/multipart"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/fixtures"
)

func TestNewFilesAreUniqueAndKeepTheirKind(t *testing.T) {
	for _, tc := range []struct {
		name, fixture string
	}{
		{"IMG_4021.JPG", fixtures.LisbonJPEG},
		{"photo.jpeg", fixtures.LisbonJPEG},
		{"IMG_4022.HEIC", fixtures.LisbonHEIC},
		{"clip.MOV", fixtures.ClipMP4},
		{"IMG_4021.JPG.xmp", fixtures.LisbonXMP},
		{"Screenshot_20240301-091500.png", fixtures.ScreenshotPNG},
		{"notes.txt", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := newFile(tc.name), newFile(tc.name)
			assert.Equal(t, tc.name, a.name)
			assert.NotEqual(t, a.checksumBase64(), b.checksumBase64(), "two new files differ")
			assert.Len(t, a.checksumBase64(), 28)
			assert.Len(t, a.checksumHex(), 40)
			if tc.fixture == "" {
				return
			}
			base, err := fixtures.ReadFile(tc.fixture)
			require.NoError(t, err)
			assert.True(t, bytes.HasPrefix(a.content, base), "the real file comes first, untouched")
			if tc.fixture == fixtures.ClipMP4 || tc.fixture == fixtures.LisbonHEIC {
				box := a.content[len(base):]
				require.GreaterOrEqual(t, len(box), 8)
				assert.Equal(t, uint32(len(box)), binary.BigEndian.Uint32(box), "a whole box")
				assert.Equal(t, "free", string(box[4:8]))
			}
		})
	}
}

func TestFormEncodes(t *testing.T) {
	f := uploadForm(newFile("IMG_4021.JPG"))
	f.set("isFavorite", "true")
	f.remove("deviceId")
	body, contentType, err := f.encode()
	require.NoError(t, err)
	_, params, err := mime.ParseMediaType(contentType)
	require.NoError(t, err)
	form, err := multipart.NewReader(bytes.NewReader(body), params["boundary"]).ReadForm(1 << 20)
	require.NoError(t, err)
	assert.Equal(t, []string{"true"}, form.Value["isFavorite"])
	assert.NotContains(t, form.Value, "deviceId")
	assert.Equal(t, []string{createdAt}, form.Value["fileCreatedAt"])
	require.Len(t, form.File["assetData"], 1)
	assert.Equal(t, "IMG_4021.JPG", form.File["assetData"][0].Filename)
}
