package exif_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/fixtures"
	"github.com/mediaspec/mediaspec/mockserver/exif"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// photos are the fixtures that carry EXIF; fixtures_test checks their
// values field by field.
var photos = []string{fixtures.LisbonJPEG, fixtures.LisbonHEIC, fixtures.TokyoJPEG, fixtures.CapeTownARW}

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := fixtures.ReadFile(name)
	require.NoError(t, err)
	return b
}

func TestReadPhotos(t *testing.T) {
	for _, name := range photos {
		x, err := exif.Read(readFixture(t, name))
		require.NoError(t, err, name)
		require.NotNil(t, x, name)
		assert.NotNil(t, x.Make, name)
		assert.NotNil(t, x.DateTimeOriginal, name)
		assert.NotNil(t, x.Latitude, name)
		assert.Nil(t, x.FileSizeInByte, "the caller sets the size")
	}
}

// TestReadConcurrently reads the photos from many goroutines at once, as
// concurrent uploads do; run with -race.
func TestReadConcurrently(t *testing.T) {
	var heads [][]byte
	for _, name := range photos {
		heads = append(heads, readFixture(t, name))
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 20 {
				x, err := exif.Read(heads[(i+j)%len(heads)])
				assert.NoError(t, err)
				assert.NotNil(t, x)
			}
		})
	}
	wg.Wait()
}

func TestReadNoExif(t *testing.T) {
	random := make([]byte, 4096)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	tests := []struct {
		name string
		head []byte
	}{
		{"nil", nil},
		{"empty", []byte{}},
		{"text", []byte("hello, world")},
		{"zeros", make([]byte, 1024)},
		{"random", random},
		{"JPEG SOI only", []byte{0xff, 0xd8, 0xff}},
		{"JPEG without APP1", []byte("\xff\xd8\xff\xdb\x00\x04\x00\x00\xff\xd9")},
		{"PNG signature only", []byte("\x89PNG\r\n\x1a\n")},
		{"TIFF header only", []byte("II*\x00\x08\x00\x00\x00")},
		{"TIFF header, IFD outside", []byte("MM\x00*\x7f\xff\xff\xff")},
		{"MP4 head", []byte("\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom")},
		{"HEIC ftyp only", []byte("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic")},
		{"WebP header only", []byte("RIFF\x04\x00\x00\x00WEBP")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, err := exif.Read(tt.head)
			assert.ErrorIs(t, err, exif.ErrNoExif)
			assert.Nil(t, x)
		})
	}
	for _, name := range []string{fixtures.ScreenshotPNG, fixtures.ClipMP4, fixtures.LisbonXMP} {
		x, err := exif.Read(readFixture(t, name))
		assert.ErrorIs(t, err, exif.ErrNoExif, name)
		assert.Nil(t, x, name)
	}
}

// TestReadTruncated cuts each photo at many places, as an upload's head may
// be cut anywhere: Read never panics, returns EXIF or an error, and once the
// head holds all the metadata it returns what it returns for the whole file.
func TestReadTruncated(t *testing.T) {
	for _, name := range photos {
		b := readFixture(t, name)
		whole, err := exif.Read(b)
		require.NoError(t, err)
		metadataEnd := metadataEnd(t, name, b)
		for n := 0; n <= len(b); n += 1 + n/64 {
			x, err := exif.Read(b[:n])
			assert.Equal(t, x == nil, err != nil, "%s[:%d]: exactly one of exif and error", name, n)
			if err != nil {
				assert.ErrorIs(t, err, exif.ErrNoExif, "%s[:%d]", name, n)
			}
			if n >= metadataEnd {
				assert.Equal(t, whole, x, "%s[:%d]", name, n)
			}
		}
	}
}

// metadataEnd returns how much of a fixture its metadata spans.
func metadataEnd(t *testing.T, name string, b []byte) int {
	switch name {
	case fixtures.LisbonJPEG, fixtures.TokyoJPEG:
		// SOI, then the APP1 segment, then the frame header.
		require.Equal(t, []byte{0xff, 0xd8, 0xff, 0xe1}, b[:4])
		return 4 + int(binary.BigEndian.Uint16(b[4:]))
	case fixtures.CapeTownARW:
		return len(b) - 240*160*3 // everything before the preview strip
	}
	return len(b)
}

// TestReadHeadOfLongFile reads a file larger than MaxHead: only its head
// counts.
func TestReadHeadOfLongFile(t *testing.T) {
	b := readFixture(t, fixtures.TokyoJPEG)
	long := append(bytes.Clone(b), make([]byte, 2*exif.MaxHead)...)
	want, err := exif.Read(b)
	require.NoError(t, err)
	got, err := exif.Read(long)
	require.NoError(t, err)
	assert.Equal(t, want, got)
}

// TestReadWithoutOffsetIsUTC reads a photo whose offset tags are blanked:
// its date-times are then taken as UTC, and it has no time zone.
func TestReadWithoutOffsetIsUTC(t *testing.T) {
	b := readFixture(t, fixtures.TokyoJPEG)
	blanked := bytes.ReplaceAll(b, []byte("+09:00\x00"), []byte("      \x00"))
	require.NotEqual(t, b, blanked)
	x, err := exif.Read(blanked)
	require.NoError(t, err)
	require.NotNil(t, x.DateTimeOriginal)
	assert.Equal(t, "2024-04-03T19:15:30Z", x.DateTimeOriginal.Format("2006-01-02T15:04:05Z07:00"))
	require.NotNil(t, x.ModifyDate)
	assert.Equal(t, *x.DateTimeOriginal, *x.ModifyDate)
	assert.Nil(t, x.TimeZone)
}

// TestReadValuesBeforeDirectory reads EXIF laid out as Adobe's tools write
// it: the values first, IFD0 after them. Streaming readers that only look
// forward miss every value of such files.
func TestReadValuesBeforeDirectory(t *testing.T) {
	order := binary.BigEndian
	values := []byte("Canon\x002020:01:02 03:04:05\x00")
	tiff := []byte("MM\x00*")
	tiff = order.AppendUint32(tiff, uint32(8+len(values))) // IFD0 after the values
	tiff = append(tiff, values...)
	tiff = order.AppendUint16(tiff, 3)
	for _, e := range []struct {
		tag, typ     uint16
		count, value uint32
	}{
		{0x010f, 2, 6, 8},       // Make, at offset 8
		{0x0112, 3, 1, 3 << 16}, // Orientation 3, inline
		{0x0132, 2, 20, 14},     // ModifyDate, at offset 14
	} {
		tiff = order.AppendUint16(tiff, e.tag)
		tiff = order.AppendUint16(tiff, e.typ)
		tiff = order.AppendUint32(tiff, e.count)
		tiff = order.AppendUint32(tiff, e.value)
	}
	tiff = order.AppendUint32(tiff, 0)

	app1 := append([]byte("Exif\x00\x00"), tiff...)
	jpg := []byte{0xff, 0xd8, 0xff, 0xe1}
	jpg = order.AppendUint16(jpg, uint16(len(app1)+2))
	jpg = append(jpg, app1...)
	jpg = append(jpg, 0xff, 0xd9)

	for name, head := range map[string][]byte{"TIFF": tiff, "JPEG": jpg} {
		x, err := exif.Read(head)
		require.NoError(t, err, name)
		assert.Equal(t, "Canon", *x.Make, name)
		assert.Equal(t, "3", *x.Orientation, name)
		require.NotNil(t, x.ModifyDate, name)
		assert.Equal(t, "2020-01-02T03:04:05Z", x.ModifyDate.Format(time.RFC3339), name)
	}
}

// TestReadPNGWithExif reads a PNG whose eXIf chunk holds the Tokyo photo's
// EXIF.
func TestReadPNGWithExif(t *testing.T) {
	jpg := readFixture(t, fixtures.TokyoJPEG)
	want, err := exif.Read(jpg)
	require.NoError(t, err)
	// The APP1 segment is "Exif\0\0" and then the TIFF structure.
	end := 4 + int(binary.BigEndian.Uint16(jpg[4:]))
	tiff := jpg[4+2+6 : end]

	png := readFixture(t, fixtures.ScreenshotPNG)
	const ihdrEnd = 8 + 4 + 4 + 13 + 4 // signature, then the IHDR chunk
	withExif := append(bytes.Clone(png[:ihdrEnd]), chunk("eXIf", tiff)...)
	withExif = append(withExif, png[ihdrEnd:]...)

	got, err := exif.Read(withExif)
	require.NoError(t, err)
	want.ExifImageWidth, want.ExifImageHeight = nil, nil
	got.ExifImageWidth, got.ExifImageHeight = nil, nil
	assert.Equal(t, want, got)
}

func chunk(kind string, data []byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	b = append(b, kind...)
	b = append(b, data...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b[4:]))
}

// FuzzRead feeds Read arbitrary bytes, starting from the fixtures: it must
// not panic, and must return either EXIF with sane values or an error.
func FuzzRead(f *testing.F) {
	for _, name := range fixtures.Names() {
		b := readFixture(f, name)
		if len(b) > 8<<10 {
			// Small seeds fuzz and minimize faster; the metadata is at the
			// start of every fixture.
			b = b[:8<<10]
		}
		f.Add(b)
	}
	f.Add([]byte("II*\x00\x08\x00\x00\x00"))
	f.Add([]byte("\xff\xd8\xff\xe1\x00\x10Exif\x00\x00MM\x00*\x00\x00\x00\x08"))
	f.Fuzz(func(t *testing.T, head []byte) {
		x, err := exif.Read(head)
		if (x == nil) == (err == nil) {
			t.Fatalf("Read returned exif %v and error %v: want exactly one", x, err)
		}
		if err != nil && !errors.Is(err, exif.ErrNoExif) {
			t.Fatalf("error %v is not ErrNoExif", err)
		}
		if x != nil {
			checkSane(t, x)
		}
		// The whole-file readers walk boxes the file names: they must
		// neither panic nor read past the bounds.
		if x, err := exif.ReadFrom(bytes.NewReader(head)); x != nil {
			checkSane(t, x)
		} else if !errors.Is(err, exif.ErrNoExif) {
			t.Fatalf("ReadFrom: error %v is not ErrNoExif", err)
		}
		if w, h, ok := exif.Size(bytes.NewReader(head)); ok && (w < 1 || h < 1) {
			t.Fatalf("Size gave %d×%d", w, h)
		}
		exif.HEIFTurns(bytes.NewReader(head))
	})
}

func checkSane(t *testing.T, x *model.Exif) {
	t.Helper()
	if (x.Latitude == nil) != (x.Longitude == nil) {
		t.Fatalf("latitude %v without longitude %v", x.Latitude, x.Longitude)
	}
	if x.Latitude != nil && (*x.Latitude < -90 || *x.Latitude > 90 || *x.Longitude < -180 || *x.Longitude > 180) {
		t.Fatalf("position %v,%v out of range", *x.Latitude, *x.Longitude)
	}
	if x.Orientation != nil && (len(*x.Orientation) != 1 || (*x.Orientation)[0] < '1' || (*x.Orientation)[0] > '8') {
		t.Fatalf("orientation %q", *x.Orientation)
	}
	for name, p := range map[string]*string{"make": x.Make, "model": x.Model, "exposure": x.ExposureTime, "timeZone": x.TimeZone} {
		if p != nil && *p == "" {
			t.Fatalf("%s is set but empty", name)
		}
	}
	for name, p := range map[string]*float64{"fNumber": x.FNumber, "focalLength": x.FocalLength, "iso": x.ISO, "width": x.ExifImageWidth, "height": x.ExifImageHeight} {
		if p != nil && !(*p > 0) {
			t.Fatalf("%s is %v", name, *p)
		}
	}
	for name, p := range map[string]*model.Time{"dateTimeOriginal": x.DateTimeOriginal, "modifyDate": x.ModifyDate} {
		if p != nil && (p.Year() < 1800 || p.Year() > 9999) {
			t.Fatalf("%s is %v", name, p)
		}
	}
}

func BenchmarkRead(b *testing.B) {
	for _, name := range photos {
		head := readFixture(b, name)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := exif.Read(head); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
