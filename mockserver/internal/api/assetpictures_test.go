package api

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/image/webp"

	"github.com/mediaspec/mediaspec/mockserver/fake"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// pictureDataset is the tests' dataset with pictures: Alice's photo has a
// ThumbHash and is 2000×1500 as stored, turned a quarter (orientation 6),
// so 1500×2000 as shown, with Maria's face, a person with a picture, and
// a position in Lisbon; Bob has a profile image.
func pictureDataset() model.Dataset {
	d := testDataset()
	a := &d.Assets[0]
	a.Thumbhash = new("2EgKRQqId414B3eId3h3d4iEgFgI")
	x := *a.ExifInfo
	x.ExifImageWidth, x.ExifImageHeight, x.Orientation = new(2000.0), new(1500.0), new("6")
	x.City, x.State, x.Country, x.Latitude, x.Longitude = new("Lisbon"), new("Lisbon"), new("Portugal"), new(38.7118), new(-9.1297)
	a.ExifInfo = &x
	d.People = []model.PersonRecord{{ID: mariaID, OwnerID: aliceID, Name: "Maria Silva", ThumbnailPath: "upload/thumbs/" + mariaID + ".jpeg"}}
	a.Faces = []model.FaceRecord{{ID: "00000000-0000-4000-8000-0000000f0001", PersonID: mariaID, BoundingBoxX2: 50, BoundingBoxY2: 50, ImageWidth: 2000, ImageHeight: 1500}}
	d.Users[1].ProfileImagePath = "upload/profile/" + bobID + "/portrait.jpg"
	return d
}

// decodeImage decodes a served picture with the decoder browsers agree
// with for its type, and checks that it is not blank.
func decodeImage(t *testing.T, rep reply) image.Image {
	t.Helper()
	require.Equal(t, http.StatusOK, rep.status, "%.200q", rep.body)
	var img image.Image
	var err error
	switch ct := rep.header.Get("Content-Type"); ct {
	case "image/webp":
		img, err = webp.Decode(bytes.NewReader(rep.body))
	case "image/jpeg":
		img, err = jpeg.Decode(bytes.NewReader(rep.body))
	default:
		t.Fatalf("Content-Type %q", ct)
	}
	require.NoError(t, err)
	b := img.Bounds()
	first := img.At(b.Min.X, b.Min.Y)
	same := true
	for y := b.Min.Y; y < b.Max.Y && same; y += 7 {
		for x := b.Min.X; x < b.Max.X && same; x += 7 {
			same = img.At(x, y) == first
		}
	}
	assert.False(t, same, "the picture is not one flat colour")
	return img
}

// TestAssetPictures: thumbnails (WEBP, smaller side 250), previews (JPEG,
// 1440) and originals (the asset's size), upright as the EXIF orientation
// says, with the reference's headers, Range and conditional requests.
func TestAssetPictures(t *testing.T) {
	srv := newTestServer(t, func(c *Config) { c.Dataset = pictureDataset })
	get := func(path string, headers ...string) reply {
		return do(t, newRequest(t, http.MethodGet, srv.URL+path, nil, append([]string{"x-api-key", keyAlice}, headers...)...))
	}
	base := "/api/asset/"
	tests := []struct {
		path        string
		contentType string
		w, h        int
	}{
		{"thumbnail/" + aliceAssetID, "image/webp", 250, 333},
		{"thumbnail/" + aliceAssetID + "?format=WEBP", "image/webp", 250, 333},
		{"thumbnail/" + aliceAssetID + "?format=JPEG", "image/jpeg", 1440, 1920},
		{"file/" + aliceAssetID, "image/jpeg", 1500, 2000},
		{"file/" + aliceAssetID + "?isThumb=true", "image/webp", 250, 333},
		{"file/" + aliceAssetID + "?isWeb=true", "image/jpeg", 1440, 1920},
		{"file/" + aliceAssetID + "?isThumb=false&isWeb=false", "image/jpeg", 1500, 2000},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			rep := get(base + tt.path)
			assert.Equal(t, tt.contentType, rep.header.Get("Content-Type"))
			assert.Equal(t, "private, max-age=86400, no-transform", rep.header.Get("Cache-Control"))
			assert.Equal(t, "bytes", rep.header.Get("Accept-Ranges"))
			assert.Empty(t, rep.header.Get("Content-Disposition"))
			img := decodeImage(t, rep)
			assert.Equal(t, image.Rect(0, 0, tt.w, tt.h), img.Bounds())
		})
	}

	whole := get(base + "thumbnail/" + aliceAssetID)
	rep := get(base+"thumbnail/"+aliceAssetID, "Range", "bytes=0-99")
	assert.Equal(t, http.StatusPartialContent, rep.status)
	assert.Equal(t, fmt.Sprintf("bytes 0-99/%d", len(whole.body)), rep.header.Get("Content-Range"))
	assert.Equal(t, whole.body[:100], rep.body)
	etag := whole.header.Get("ETag")
	require.NotEmpty(t, etag)
	rep = get(base+"thumbnail/"+aliceAssetID, "If-None-Match", etag)
	assert.Equal(t, http.StatusNotModified, rep.status)
	assert.Empty(t, rep.body)
}

// TestAssetPicturesThroughALink: a link's holder sees its assets' pictures;
// where the link does not allow downloads, the original is never sent (the
// file route gives the WEBP thumbnail); others get the reference's errors.
func TestAssetPicturesThroughALink(t *testing.T) {
	srv := newTestServer(t, func(c *Config) { c.Dataset = pictureDataset })
	get := func(path string, headers ...string) reply {
		return do(t, newRequest(t, http.MethodGet, srv.URL+path, nil, headers...))
	}
	// linkUpload allows downloads; linkView does not.
	rep := get("/api/asset/file/"+aliceAssetID, "x-immich-share-key", linkUpload)
	assert.Equal(t, image.Rect(0, 0, 1500, 2000), decodeImage(t, rep).Bounds())
	rep = get("/api/asset/file/" + aliceAssetID + "?key=" + linkView)
	assert.Equal(t, "image/webp", rep.header.Get("Content-Type"), "no download: the thumbnail")
	assert.Equal(t, image.Rect(0, 0, 250, 333), decodeImage(t, rep).Bounds())
	rep = get("/api/asset/file/" + aliceAssetID + "?isWeb=true&key=" + linkView)
	assert.Equal(t, image.Rect(0, 0, 1440, 1920), decodeImage(t, rep).Bounds(), "the preview is not the original")

	requireError(t, get("/api/asset/thumbnail/"+aliceAssetID, "x-api-key", keyCarol), 400, "Not found or no asset.view access")
	requireError(t, get("/api/asset/thumbnail/"+aliceAssetID+"?format=GIF", "x-api-key", keyAlice), 400, []any{"format must be one of the following values: JPEG, WEBP"})
	requireError(t, get("/api/asset/file/"+aliceAssetID+"?isThumb=maybe", "x-api-key", keyAlice), 400, []any{"isThumb must be a boolean value"})
	rep = get("/api/asset/thumbnail/00000000-0000-4000-8000-000000b0a5e7", "x-api-key", keyBob)
	requireError(t, rep, 404, "No thumbnail found for asset 00000000-0000-4000-8000-000000b0a5e7")
	assert.Equal(t, "none", rep.header.Get("Cache-Control"), "the picture routes' errors, as the reference's")
}

func TestProfileImage(t *testing.T) {
	srv := newTestServer(t, func(c *Config) { c.Dataset = pictureDataset })
	get := func(id string) reply {
		return do(t, newRequest(t, http.MethodGet, srv.URL+"/api/users/"+id+"/profile-image", nil, "x-api-key", keyAlice))
	}
	rep := get(bobID)
	assert.Equal(t, "image/jpeg", rep.header.Get("Content-Type"))
	assert.Equal(t, "public, max-age=0", rep.header.Get("Cache-Control"))
	assert.Equal(t, "bytes", rep.header.Get("Accept-Ranges"))
	img := decodeImage(t, rep)
	assert.Equal(t, image.Rect(0, 0, 256, 256), img.Bounds())
	assert.Equal(t, rep.body, get(bobID).body, "the same picture each time")

	requireError(t, get(aliceID), 404, "User does not have a profile image")
	requireError(t, get("00000000-0000-4000-8000-00000000dead"), 400, "User not found")
}

// TestEverySeededPictureIsServed: assets of a generated dataset with a
// ThumbHash (15 of them, of several shapes) have a thumbnail of the promised
// size; the picture cache stays within its bound throughout.
func TestEverySeededPictureIsServed(t *testing.T) {
	d := fake.Generate(fake.Options{Seed: 5, Anchor: testNow(), Links: 6, APIKey: keyAlice})
	const bound = 256 << 10
	s, err := newServer(Config{Dataset: func() model.Dataset { return d }, Now: testNow, ThumbnailCache: bound})
	require.NoError(t, err)
	srv := httptest.NewServer(s.middleware(s.dispatch()))
	t.Cleanup(srv.Close)
	served := 0
	for _, a := range d.Assets {
		if a.OwnerID != d.Users[0].ID || a.Thumbhash == nil || served == 15 {
			continue
		}
		rep := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/thumbnail/"+a.ID, nil, "x-api-key", keyAlice))
		img := decodeImage(t, rep)
		assert.Equal(t, 250, min(img.Bounds().Dx(), img.Bounds().Dy()), "asset %s", a.ID)
		assert.LessOrEqual(t, s.pictures.Bytes(), int64(bound))
		served++
	}
	assert.Equal(t, 15, served)
}

// TestPaintedPicturesAreBounded: a dataset may claim any size; a painted
// original is never larger than an upload may be decoded at.
func TestPaintedPicturesAreBounded(t *testing.T) {
	d := pictureDataset()
	x := *d.Assets[0].ExifInfo
	x.ExifImageWidth, x.ExifImageHeight, x.Orientation = new(100_000.0), new(100_000.0), nil
	d.Assets[0].ExifInfo = &x
	srv := newTestServer(t, func(c *Config) {
		c.Dataset = func() model.Dataset { return d }
		c.MaxDecodePixels = 1_000_000
	})
	rep := do(t, newRequest(t, http.MethodGet, srv.URL+"/api/asset/file/"+aliceAssetID, nil, "x-api-key", keyAlice))
	img := decodeImage(t, rep)
	assert.LessOrEqual(t, img.Bounds().Dx()*img.Bounds().Dy(), 1_000_000)
	assert.Equal(t, img.Bounds().Dx(), img.Bounds().Dy(), "of the claimed shape")
}
