package ingest

import (
	"bytes"
	"image"
	"image/png"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/gazetteer"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// TestZoneLocation: a zone as the reference names it, UTC with or without
// an offset, or an IANA name; an offset past ±14:59 or not a number is none.
func TestZoneLocation(t *testing.T) {
	at := time.Date(2024, 7, 1, 12, 0, 0, 0, time.UTC)
	for name, offset := range map[string]int{"UTC": 0, "UTC+9": 9 * 3600, "UTC-3:30": -(3*3600 + 30*60), "Europe/Berlin": 2 * 3600} {
		loc, ok := zoneLocation(name)
		require.True(t, ok, name)
		_, got := at.In(loc).Zone()
		assert.Equal(t, offset, got, name)
	}
	for _, name := range []string{"UTC+15", "UTC+1:60", "UTC+x", "Nowhere/Atlantis"} {
		_, ok := zoneLocation(name)
		assert.False(t, ok, name)
	}
}

// TestWallClock: localDateTime is the wall clock in the zone, written as
// UTC; without a zone, or with one that cannot be read, the instant itself.
func TestWallClock(t *testing.T) {
	at := time.Date(2024, 1, 2, 23, 30, 0, 0, time.UTC)
	assert.Equal(t, time.Date(2024, 1, 3, 8, 30, 0, 0, time.UTC), wallClock(at, ptr("UTC+9")))
	assert.Equal(t, at, wallClock(at, nil))
	assert.Equal(t, at, wallClock(at, ptr("UTC+99")))
}

// TestVideoDuration is written as the reference writes it.
func TestVideoDuration(t *testing.T) {
	assert.Equal(t, "00:00:01.000", videoDuration(time.Second))
	assert.Equal(t, "01:02:03.456", videoDuration(time.Hour+2*time.Minute+3*time.Second+456*time.Millisecond))
}

// TestReadKeepsTheFormsDatesWithoutMetadata: a picture without EXIF has
// its own size, the form's dates, no zone, and its size in bytes.
func TestReadKeepsTheFormsDatesWithoutMetadata(t *testing.T) {
	var pic bytes.Buffer
	require.NoError(t, png.Encode(&pic, image.NewRGBA(image.Rect(0, 0, 7, 5))))
	created := time.Date(2023, 5, 6, 7, 8, 9, 0, time.UTC)
	modified := created.Add(time.Hour)
	var a model.AssetRecord
	Read(&a, File{Head: pic.Bytes(), Size: int64(pic.Len())}, nil, created, modified, gazetteer.PlaceAt)
	x := a.ExifInfo
	require.NotNil(t, x)
	assert.True(t, a.HasMetadata)
	assert.Equal(t, 7.0, *x.ExifImageWidth)
	assert.Equal(t, 5.0, *x.ExifImageHeight)
	assert.Equal(t, int64(pic.Len()), *x.FileSizeInByte)
	assert.True(t, x.DateTimeOriginal.Equal(created))
	assert.True(t, x.ModifyDate.Equal(modified))
	assert.Nil(t, x.TimeZone)
	assert.True(t, a.FileCreatedAt.Equal(created))
	assert.True(t, a.LocalDateTime.Equal(created))
}

// TestNoMotionVideoInAPlainPicture: a file that carries no video, or whose
// named video does not start as an MP4 does, has none.
func TestNoMotionVideoInAPlainPicture(t *testing.T) {
	var pic bytes.Buffer
	require.NoError(t, png.Encode(&pic, image.NewRGBA(image.Rect(0, 0, 3, 3))))
	_, _, ok := FindMotionVideo(io.NewSectionReader(bytes.NewReader(pic.Bytes()), 0, int64(pic.Len())), pic.Bytes())
	assert.False(t, ok)
	jpeg := append([]byte("\xff\xd8\xff\xe0"), bytes.Repeat([]byte{0}, 64)...)
	jpeg = append(jpeg, "\xff\xd9not a video at all"...)
	_, _, ok = FindMotionVideo(io.NewSectionReader(bytes.NewReader(jpeg), 0, int64(len(jpeg))), jpeg)
	assert.False(t, ok)
}
