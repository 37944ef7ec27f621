package mp4

import (
	"bytes"
	"encoding/binary"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/fixtures"
)

// box is an MP4 box of type typ around content.
func box(typ string, content ...[]byte) []byte {
	body := bytes.Join(content, nil)
	out := binary.BigEndian.AppendUint32(nil, uint32(8+len(body)))
	return append(append(out, typ...), body...)
}

func u32(v uint32) []byte { return binary.BigEndian.AppendUint32(nil, v) }
func u64(v uint64) []byte { return binary.BigEndian.AppendUint64(nil, v) }

// mvhd0 is a version 0 movie header.
func mvhd0(created, scale, duration uint32) []byte {
	return box("mvhd", []byte{0, 0, 0, 0}, u32(created), u32(created), u32(scale), u32(duration), make([]byte, 80))
}

// track is a trak of handler hdlr whose header says w×h.
func track(hdlr string, w, h uint32) []byte {
	tkhd := box("tkhd", []byte{0, 0, 0, 3}, make([]byte, 72), u32(w<<16), u32(h<<16))
	return box("trak", tkhd, box("mdia", box("hdlr", make([]byte, 8), []byte(hdlr), make([]byte, 13))))
}

func read(t *testing.T, data []byte) Info {
	t.Helper()
	info, err := Read(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	return info
}

// TestReadFixture: the fixture clip's boxes say what the reference showed
// of it: made 2024-01-01 12:00 UTC, one second long, 64×64.
func TestReadFixture(t *testing.T) {
	data, err := fixtures.ReadFile(fixtures.ClipMP4)
	require.NoError(t, err)
	info := read(t, data)
	assert.Equal(t, time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC), info.Created)
	assert.Equal(t, time.Second, info.Duration)
	assert.Equal(t, [2]int{64, 64}, [2]int{info.Width, info.Height})
	assert.False(t, info.HasLocation)
	assert.Nil(t, info.Cover)
}

// TestRead: each box Read looks at, as phones and editors write them.
func TestRead(t *testing.T) {
	ftyp := box("ftyp", []byte("isom"), u32(0x200), []byte("isommp41"))
	cover := []byte("\xff\xd8\xff\xe0 a JPEG cover")
	tests := []struct {
		name string
		file []byte
		want Info
	}{{
		name: "the picture's size is the video track's, not the sound's",
		file: slices(ftyp, box("moov", mvhd0(3786955200, 600, 1500), track("soun", 0, 0), track("vide", 1920, 1080))),
		want: Info{Created: time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC), Duration: 2500 * time.Millisecond, Width: 1920, Height: 1080},
	}, {
		name: "a version 1 header, at the end of the file after the media",
		file: slices(ftyp, box("mdat", make([]byte, 1000)), box("moov",
			box("mvhd", []byte{1, 0, 0, 0}, u64(3786955200), u64(3786955200), u32(1000), u64(61_500), make([]byte, 80)))),
		want: Info{Created: time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC), Duration: 61500 * time.Millisecond},
	}, {
		name: "a creation time left at 1904 is no date",
		file: slices(ftyp, box("moov", mvhd0(0, 1000, 1000))),
		want: Info{Duration: time.Second},
	}, {
		name: "QuickTime's ©xyz location",
		file: slices(ftyp, box("moov", mvhd0(0, 1000, 1000), box("udta", box("\xa9xyz", []byte{0, 18, 0x15, 0xc7}, []byte("+38.7118-009.1305/"))))),
		want: Info{Duration: time.Second, Latitude: 38.7118, Longitude: -9.1305, HasLocation: true},
	}, {
		name: "an mdta key's location and a cover",
		file: slices(ftyp, box("moov", mvhd0(0, 1000, 1000), box("meta",
			box("hdlr", make([]byte, 8), []byte("mdta"), make([]byte, 13)),
			box("keys", u32(0), u32(1), box("mdta", []byte("com.apple.quicktime.location.ISO6709"))),
			box("ilst",
				box(string(u32(1)), box("data", u32(1), u32(0), []byte("+35.6595+139.7006+040.000/"))),
				box("covr", box("data", u32(13), u32(0), cover)))))),
		want: Info{Duration: time.Second, Latitude: 35.6595, Longitude: 139.7006, HasLocation: true, Cover: cover},
	}, {
		name: "an iTunes-style cover under udta/meta",
		file: slices(ftyp, box("moov", mvhd0(0, 1000, 1000), box("udta", box("meta", u32(0),
			box("hdlr", make([]byte, 8), []byte("mdir"), make([]byte, 13)),
			box("ilst", box("covr", box("data", u32(13), u32(0), cover))))))),
		want: Info{Duration: time.Second, Cover: cover},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want.String(), read(t, tt.file).String())
		})
	}
}

func slices(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// TestReadRefuses: files that are not videos, or have no movie header.
func TestReadRefuses(t *testing.T) {
	for name, data := range map[string][]byte{
		"empty":          nil,
		"a JPEG":         []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00"),
		"no movie":       box("ftyp", []byte("isom")),
		"a box too long": append(u32(1<<30), "ftypisom"...),
	} {
		_, err := Read(bytes.NewReader(data), int64(len(data)))
		assert.ErrorIs(t, err, ErrNotMP4, name)
	}
}

// scan streams data through a Scanner in pieces of n bytes.
func scan(data []byte, n int) (Info, error) {
	var s Scanner
	for len(data) > 0 {
		k := min(n, len(data))
		_, _ = s.Write(data[:k])
		data = data[k:]
	}
	return s.Info()
}

// TestScannerReadsAsItStreams: streamed in pieces of any size, a file
// reads as Read reads it; a movie header after a gigabyte of media is read
// without the media being kept.
func TestScannerReadsAsItStreams(t *testing.T) {
	clip, err := fixtures.ReadFile(fixtures.ClipMP4)
	require.NoError(t, err)
	want := read(t, clip)
	for _, n := range []int{1, 3, 7, 64, 4096, len(clip)} {
		got, err := scan(clip, n)
		require.NoError(t, err, "pieces of %d", n)
		assert.Equal(t, want.String(), got.String(), "pieces of %d", n)
	}

	var s Scanner
	_, _ = s.Write(box("ftyp", []byte("qt  \x00\x00\x00\x00")))
	_, _ = s.Write(append(u32(1), "mdat"...))
	_, _ = s.Write(u64(16 + 1<<30))
	piece := make([]byte, 1<<20)
	for range 1 << 10 {
		_, _ = s.Write(piece)
	}
	_, _ = s.Write(box("moov", mvhd0(3786955200, 1000, 90_000), track("vide", 3840, 2160)))
	info, err := s.Info()
	require.NoError(t, err)
	assert.Equal(t, Info{Created: time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC), Duration: 90 * time.Second, Width: 3840, Height: 2160}.String(), info.String())
	assert.Less(t, cap(s.buf), 1<<10, "the media was not kept")
}

// FuzzRead: no file makes Read or a Scanner panic or disagree, and a cover
// is never over its bound.
func FuzzRead(f *testing.F) {
	for _, name := range fixtures.Names() {
		data, err := fixtures.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add(box("moov", box("mvhd", []byte{1}), box("trak", box("tkhd")), box("udta", box("\xa9xyz", []byte{0xff, 0xff}))))
	f.Fuzz(func(t *testing.T, data []byte) {
		info, err := Read(bytes.NewReader(data), int64(len(data)))
		if err == nil && len(info.Cover) > MaxCover {
			t.Fatalf("a cover of %d bytes", len(info.Cover))
		}
		// Streamed in odd pieces, the same file reads the same.
		streamed, serr := scan(data, 5)
		if (err == nil) != (serr == nil) || info.String() != streamed.String() {
			t.Fatalf("Read: %v %v; streamed: %v %v", info, err, streamed, serr)
		}
	})
}
