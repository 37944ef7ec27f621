package exif_test

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/mockserver/exif"
)

// tiffWithSubSeconds is a TIFF whose Exif IFD has DateTimeOriginal and
// SubSecTimeOriginal sub, inline as cameras write it.
type byteOrder interface {
	binary.ByteOrder
	binary.AppendByteOrder
}

func tiffWithSubSeconds(order byteOrder, sub string) []byte {
	magic := "II*\x00"
	if order.String() == binary.BigEndian.String() {
		magic = "MM\x00*"
	}
	date := "2016:09:22 22:10:29\x00"
	entry := func(b []byte, tag, typ uint16, count uint32, value []byte) []byte {
		b = order.AppendUint16(b, tag)
		b = order.AppendUint16(b, typ)
		b = order.AppendUint32(b, count)
		return append(b, value...)
	}
	u32 := func(v uint32) []byte { return order.AppendUint32(nil, v) }
	inline := func(s string) []byte { return append([]byte(s), make([]byte, 4-len(s))...) }
	const ifd0 = 8
	const exifIFD = ifd0 + 2 + 2*12 + 4
	const dateAt = exifIFD + 2 + 2*12 + 4
	b := append([]byte(magic), u32(ifd0)...)
	b = order.AppendUint16(b, 2)
	b = entry(b, 0x010f, 2, 4, inline("Cam"))
	b = entry(b, 0x8769, 4, 1, u32(exifIFD))
	b = append(b, u32(0)...)
	b = order.AppendUint16(b, 2)
	b = entry(b, 0x9003, 2, uint32(len(date)), u32(dateAt))
	b = entry(b, 0x9291, 2, uint32(len(sub)+1), inline(sub))
	b = append(b, u32(0)...)
	return append(b, date...)
}

// TestSubSecondsAsWritten: the sub-second tag is read as written, leading
// zeros and all ("060" is 60 ms, "85" 850 ms), as the reference's exiftool
// composes SubSecDateTimeOriginal.
func TestSubSecondsAsWritten(t *testing.T) {
	for _, order := range []byteOrder{binary.BigEndian, binary.LittleEndian} {
		for sub, want := range map[string]string{"060": ".060", "85": ".850", "348": ".348", "5": ".500"} {
			x, err := exif.Read(tiffWithSubSeconds(order, sub))
			require.NoError(t, err, sub)
			require.NotNil(t, x.DateTimeOriginal, sub)
			assert.Equal(t, "2016-09-22T22:10:29"+want+"Z", x.DateTimeOriginal.Format("2006-01-02T15:04:05.000Z07:00"), "%s in %v", sub, order)
		}
	}
}

// bitWriter writes a JPEG XL bit stream, least significant bit first.
type bitWriter struct {
	b []byte
	n int
}

func (w *bitWriter) write(v, bits int) {
	for i := range bits {
		if w.n%8 == 0 {
			w.b = append(w.b, 0)
		}
		w.b[len(w.b)-1] |= byte(v>>i&1) << (w.n % 8)
		w.n++
	}
}

// TestJXLSize reads the size header of bare and contained codestreams.
func TestJXLSize(t *testing.T) {
	u32 := func(w *bitWriter, v int) { w.write(2, 2); w.write(v-1, 18) } // selector 2: 1 + u(18)
	ratio := &bitWriter{}
	ratio.write(0, 1) // not div8
	u32(ratio, 1080)
	ratio.write(3, 3) // 4:3
	explicit := &bitWriter{}
	explicit.write(0, 1)
	u32(explicit, 341)
	explicit.write(0, 3)
	u32(explicit, 512)
	small := &bitWriter{}
	small.write(1, 1)
	small.write(15, 5) // 8 × 16
	small.write(0, 3)
	small.write(31, 5) // 8 × 32
	code := func(w *bitWriter) []byte { return append([]byte{0xff, 0x0a}, w.b...) }
	box := func(typ string, body []byte) []byte {
		return append(append(binary.BigEndian.AppendUint32(nil, uint32(8+len(body))), typ...), body...)
	}
	container := append([]byte("\x00\x00\x00\x0cJXL \x0d\x0a\x87\x0a"), box("ftyp", []byte("jxl \x00\x00\x00\x00jxl "))...)
	for name, tt := range map[string]struct {
		file []byte
		w, h int
	}{
		"ratio":    {code(ratio), 1440, 1080},
		"explicit": {code(explicit), 512, 341},
		"small":    {code(small), 256, 128},
		"jxlc":     {append(bytes.Clone(container), box("jxlc", code(explicit))...), 512, 341},
		"jxlp":     {append(bytes.Clone(container), box("jxlp", append([]byte{0x80, 0, 0, 0}, code(ratio)...))...), 1440, 1080},
	} {
		w, h, ok := exif.Size(bytes.NewReader(tt.file))
		assert.True(t, ok, name)
		assert.Equal(t, [2]int{tt.w, tt.h}, [2]int{w, h}, name)
	}
	_, _, ok := exif.Size(bytes.NewReader([]byte{0xff, 0x0a}))
	assert.False(t, ok, "a cut header")
}

// TestUpstreamFormatFiles reads the upstream e2e suite's format files as
// the reference did, where this machine keeps them.
func TestUpstreamFormatFiles(t *testing.T) {
	dir := os.Getenv("UPSTREAM_TEST_ASSETS")
	if dir == "" {
		dir = "/tmp/upstream-cache/upstream-e2e/66fced40e/e2e/test-assets"
	}
	if _, err := os.Stat(filepath.Join(dir, "formats")); err != nil {
		t.Skipf("the upstream e2e suite's test assets are absent (%v); set UPSTREAM_TEST_ASSETS", err)
	}
	read := func(name string) *bytes.Reader {
		b, err := os.ReadFile(filepath.Join(dir, "formats", name))
		require.NoError(t, err)
		return bytes.NewReader(b)
	}
	iso := func(d interface{ Format(string) string }) string { return d.Format("2006-01-02T15:04:05.000Z07:00") }

	for name, want := range map[string][2]int{"avif/8bit-sRGB.avif": {1617, 1080}, "jxl/8bit-sRGB.jxl": {1440, 1080},
		"motionphoto/Samsung One UI 6.heic": {4000, 3000}} {
		w, h, ok := exif.Size(read(name))
		assert.True(t, ok, name)
		assert.Equal(t, want, [2]int{w, h}, name)
	}

	// Samsung's HEIC keeps its meta box after its pictures, past the head.
	samsung := read("motionphoto/Samsung One UI 6.heic")
	x, err := exif.ReadFrom(samsung)
	require.NoError(t, err)
	assert.Equal(t, "samsung", *x.Make)
	assert.Equal(t, "6", *x.Orientation)
	assert.Equal(t, [2]float64{4000, 3000}, [2]float64{*x.ExifImageWidth, *x.ExifImageHeight}, "as stored, not turned")
	assert.Equal(t, "2024-01-13T05:38:53.853Z", iso(x.DateTimeOriginal.UTC()))
	assert.Equal(t, "UTC-8", *x.TimeZone)

	x, err = exif.ReadFrom(read("heic/IMG_2682.heic"))
	require.NoError(t, err)
	assert.Equal(t, "2019-03-21T11:04:22.348Z", iso(x.DateTimeOriginal.UTC()), "no offset: the position's zone comes later")

	x, err = exif.ReadFrom(read("jpg/el_torcal_rocks.jpg"))
	require.NoError(t, err)
	assert.Equal(t, "2023-09-27T12:35:33.000Z", iso(x.ModifyDate.UTC()), "the XMP's xmp:ModifyDate, where EXIF has none")

	x, err = exif.ReadFrom(read("webp/denali.webp"))
	require.NoError(t, err)
	assert.Equal(t, [2]float64{600, 315}, [2]float64{*x.ExifImageWidth, *x.ExifImageHeight}, "the picture's size, not the camera's")
	assert.Equal(t, "2010-08-13T21:00:01.850Z", iso(x.DateTimeOriginal.UTC()))
	assert.Equal(t, time.UTC, x.DateTimeOriginal.UTC().Location())
}
