package api

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/fixtures"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// TestUploadedEXIFIsListed uploads the fixture photos and finds, in a link
// made for each, the camera, time and place their EXIF carries.
func TestUploadedEXIFIsListed(t *testing.T) {
	tests := []struct {
		file, make, model, taken string
		lat, lon                 float64
		city, country            string
	}{
		{fixtures.LisbonJPEG, "Apple", "iPhone 15 Pro", "2023-06-14T19:42:07Z", 38.711815, -9.129682, "Lisbon", "Portugal"},
		{fixtures.LisbonHEIC, "Apple", "iPhone 15 Pro", "2023-06-14T19:42:07Z", 38.711815, -9.129682, "Lisbon", "Portugal"},
		{fixtures.TokyoJPEG, "SONY", "ILCE-7M4", "2024-04-03T10:15:30Z", 35.659482, 139.700559, "Motoyoyogichō", "Japan"},
		{fixtures.CapeTownARW, "SONY", "ILCE-7M4", "2024-12-28T18:31:10Z", -33.807613, 18.464927, "Cape Town", "South Africa"},
	}
	srv := newTestServer(t)
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			content, err := fixtures.ReadFile(tt.file)
			require.NoError(t, err)
			f := validForm(string(content))
			f.files[0].filename = tt.file
			res := requireUpload(t, srv, f, keyAlice, http.StatusCreated)

			rep := controlJSON(t, srv, http.MethodPost, "/__mock/shared-links", keyAlice, map[string]any{"type": "INDIVIDUAL", "assetIds": []string{res.ID}})
			require.Equal(t, http.StatusCreated, rep.status, "body: %s", rep.body)
			var asset model.Asset
			for _, l := range listLinks(t, srv, keyAlice) {
				if len(l.Assets) == 1 && l.Assets[0].ID == res.ID {
					asset = l.Assets[0]
				}
			}
			require.Equal(t, res.ID, asset.ID, "the link lists the upload")
			e := asset.ExifInfo
			require.NotNil(t, e)
			assert.True(t, asset.HasMetadata)
			assert.Equal(t, tt.make, deref(e.Make))
			assert.Equal(t, tt.model, deref(e.Model))
			require.NotNil(t, e.DateTimeOriginal)
			assert.Equal(t, tt.taken, e.DateTimeOriginal.Format("2006-01-02T15:04:05Z07:00"))
			require.NotNil(t, e.Latitude)
			require.NotNil(t, e.Longitude)
			assert.InDelta(t, tt.lat, *e.Latitude, 1e-6)
			assert.InDelta(t, tt.lon, *e.Longitude, 1e-6)
			assert.Equal(t, tt.city, deref(e.City))
			assert.Equal(t, tt.country, deref(e.Country))
			assert.EqualValues(t, len(content), *e.FileSizeInByte)
		})
	}
	t.Run("a file without EXIF has the form's dates and its own size", func(t *testing.T) {
		content, err := fixtures.ReadFile(fixtures.ScreenshotPNG)
		require.NoError(t, err)
		f := validForm(string(content))
		f.files[0].filename = fixtures.ScreenshotPNG
		requireUpload(t, srv, f, keyAlice, http.StatusCreated)
		a := listAssets(t, srv, keyAlice)[0]
		assert.True(t, a.HasMetadata, "the file was read, as the reference reads every file")
		e := a.ExifInfo
		assert.Nil(t, e.Make)
		assert.Nil(t, e.TimeZone)
		assert.Equal(t, "", deref(e.Description))
		assert.Equal(t, [2]float64{320, 200}, [2]float64{deref(e.ExifImageWidth), deref(e.ExifImageHeight)}, "the PNG's own size")
		require.NotNil(t, e.DateTimeOriginal)
		assert.Equal(t, "2026-11-01T09:30:00Z", e.DateTimeOriginal.Format("2006-01-02T15:04:05Z07:00"), "the form's fileCreatedAt")
		assert.EqualValues(t, len(content), *e.FileSizeInByte)
	})
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
