// Package mp4 reads what a frontend sees of an MP4 or QuickTime video from
// its boxes: when it was made, how large its picture is, how long it runs,
// where it was made, and the cover picture a phone or an editor stored in it.
//
// Only the boxes that say so are read (mvhd, tkhd, mdhd, hdlr, the udta and
// meta boxes); the media data is never touched, wherever it sits in the file.
// The walk is bounded in depth, in boxes and in bytes read, so a hostile
// file costs a few kilobytes of reads.
package mp4

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"time"
)

// MaxCover bounds the cover picture Read keeps.
const MaxCover = 16 << 20

// Limits of the walk: how deep boxes nest, and how many are looked at.
const (
	maxDepth = 8
	maxBoxes = 4096
	maxLeaf  = 64 << 10 // the header boxes read whole
)

// ErrNotMP4 reports a file that is not an ISO base media (MP4, MOV, 3GP)
// file, or carries no movie header.
var ErrNotMP4 = errors.New("mp4: not an MP4 or QuickTime file with a movie header")

// Info is what a video's boxes say about it. A zero field was not found.
type Info struct {
	// Created is the movie header's creation time, in UTC; zero where the
	// file leaves it at the epoch of 1904, as many tools do.
	Created time.Time
	// Duration is the movie's duration.
	Duration time.Duration
	// Width and Height are the picture's size, from the video track's
	// header.
	Width, Height int
	// Latitude and Longitude come from the ISO 6709 location a phone
	// writes (QuickTime's ©xyz, or the mdta key
	// com.apple.quicktime.location.ISO6709); HasLocation says whether
	// there is one.
	Latitude, Longitude float64
	HasLocation         bool
	// Cover is the picture stored as the file's cover art (covr), JPEG or
	// PNG, at most MaxCover bytes.
	Cover []byte
}

// epoch is where MP4 times start.
var epoch = time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC)

// Read reads the boxes of the size bytes of r. It never panics, whatever
// the bytes.
func Read(r io.ReaderAt, size int64) (Info, error) {
	w := walker{r: r}
	var head [8]byte
	if _, err := r.ReadAt(head[:], 0); err != nil || !firstBoxes[string(head[4:])] {
		return Info{}, ErrNotMP4
	}
	if err := w.walk(0, size, 0, ""); err != nil {
		return Info{}, err
	}
	if !w.movie {
		return Info{}, ErrNotMP4
	}
	w.info.Cover = w.cover
	if w.keyLocation != "" && !w.info.HasLocation {
		w.info.Latitude, w.info.Longitude, w.info.HasLocation = parseISO6709(w.keyLocation)
	}
	return w.info, nil
}

// firstBoxes are the boxes an MP4 or QuickTime file starts with.
var firstBoxes = map[string]bool{"ftyp": true, "moov": true, "mdat": true, "free": true, "wide": true, "skip": true}

type walker struct {
	r     io.ReaderAt
	boxes int
	info  Info
	movie bool
	cover []byte

	// The handler of the track being walked: "vide" for a video track.
	handler string
	// A track's header size, kept until its handler is known.
	trackW, trackH int
	// mdta keys: their names by index, and the location's value.
	keys        []string
	keyLocation string
}

// walk reads the boxes between from and to, inside a box of type parent.
func (w *walker) walk(from, to int64, depth int, parent string) error {
	if depth > maxDepth {
		return nil
	}
	for at := from; at+8 <= to; {
		w.boxes++
		if w.boxes > maxBoxes {
			return nil
		}
		var h [16]byte
		if _, err := w.r.ReadAt(h[:8], at); err != nil {
			return nil // a cut file: what was read stands
		}
		size, typ, header := int64(binary.BigEndian.Uint32(h[:4])), string(h[4:8]), int64(8)
		switch size {
		case 0:
			size = to - at
		case 1:
			if _, err := w.r.ReadAt(h[8:16], at+8); err != nil {
				return nil
			}
			size, header = int64(binary.BigEndian.Uint64(h[8:16])), 16
		}
		if size < header || size > to-at {
			size = to - at // a box that claims more than its parent holds ends there
			if size < header {
				return nil
			}
		}
		body, end := at+header, at+size
		if err := w.box(typ, body, end, depth, parent); err != nil {
			return err
		}
		at = end
	}
	return nil
}

// box handles one box whose content lies between body and end.
func (w *walker) box(typ string, body, end int64, depth int, parent string) error {
	switch typ {
	case "moov", "udta", "mdia", "minf", "ilst", "edts":
		return w.walk(body, end, depth+1, typ)
	case "trak":
		w.handler, w.trackW, w.trackH = "", 0, 0
		if err := w.walk(body, end, depth+1, typ); err != nil {
			return err
		}
		if w.handler == "vide" && w.info.Width == 0 && w.trackW > 0 && w.trackH > 0 {
			w.info.Width, w.info.Height = w.trackW, w.trackH
		}
		return nil
	case "meta":
		// ISO meta boxes carry a version and flags first; QuickTime's do not.
		var probe [8]byte
		if _, err := w.r.ReadAt(probe[:], body); err == nil && string(probe[4:8]) == "hdlr" {
			return w.walk(body, end, depth+1, typ)
		}
		return w.walk(body+4, end, depth+1, typ)
	case "mvhd":
		b := w.leaf(body, end)
		w.movie = true
		w.movieHeader(b)
	case "tkhd":
		b := w.leaf(body, end)
		if len(b) >= 8 {
			// The last 8 bytes are the width and height, 16.16 fixed point.
			w.trackW = int(binary.BigEndian.Uint32(b[len(b)-8:]) >> 16)
			w.trackH = int(binary.BigEndian.Uint32(b[len(b)-4:]) >> 16)
		}
	case "hdlr":
		if b := w.leaf(body, end); len(b) >= 12 && parent == "mdia" {
			w.handler = string(b[8:12])
		}
	case "keys":
		w.readKeys(w.leaf(body, end))
	case "covr":
		if w.cover == nil {
			w.cover = w.dataOf(body, end, MaxCover)
		}
	case "\xa9xyz":
		// QuickTime user data text: 2 bytes length, 2 bytes language, text.
		if b := w.leaf(body, end); len(b) >= 4 {
			n := min(int(binary.BigEndian.Uint16(b[:2])), len(b)-4)
			w.info.Latitude, w.info.Longitude, w.info.HasLocation = parseISO6709(string(b[4 : 4+n]))
		}
	default:
		// An ilst entry of an mdta-keyed meta box is named by its key's
		// index, as a 32-bit number.
		if parent == "ilst" && len(w.keys) > 0 {
			if i := int(binary.BigEndian.Uint32([]byte(typ))); i >= 1 && i <= len(w.keys) &&
				w.keys[i-1] == "com.apple.quicktime.location.ISO6709" {
				w.keyLocation = string(w.dataOf(body, end, 256))
			}
		}
	}
	return nil
}

// leaf reads a small box's content whole (at most maxLeaf bytes).
func (w *walker) leaf(body, end int64) []byte {
	n := min(end-body, maxLeaf)
	if n <= 0 {
		return nil
	}
	b := make([]byte, n)
	k, _ := w.r.ReadAt(b, body)
	return b[:k]
}

// dataOf is the value of the first data box within an ilst entry: its
// 8-byte type and locale skipped, at most limit bytes, or nil.
func (w *walker) dataOf(body, end int64, limit int64) []byte {
	var h [8]byte
	if _, err := w.r.ReadAt(h[:], body); err != nil || string(h[4:8]) != "data" {
		return nil
	}
	size := int64(binary.BigEndian.Uint32(h[:4]))
	if size < 16 || size > end-body || size-16 > limit {
		return nil
	}
	b := make([]byte, size-16)
	if _, err := w.r.ReadAt(b, body+16); err != nil {
		return nil
	}
	return b
}

// movieHeader reads mvhd: version, flags, then creation and modification
// times, the time scale and the duration, in 32 bits (version 0) or 64.
func (w *walker) movieHeader(b []byte) {
	var created, scale, duration uint64
	switch {
	case len(b) >= 20 && b[0] == 0:
		created = uint64(binary.BigEndian.Uint32(b[4:8]))
		scale = uint64(binary.BigEndian.Uint32(b[12:16]))
		duration = uint64(binary.BigEndian.Uint32(b[16:20]))
	case len(b) >= 32 && b[0] == 1:
		created = binary.BigEndian.Uint64(b[4:12])
		scale = uint64(binary.BigEndian.Uint32(b[20:24]))
		duration = binary.BigEndian.Uint64(b[24:32])
	default:
		return
	}
	// Times past the year 2200 or so are nonsense, not dates.
	if created > 0 && created < 10_000_000_000 {
		w.info.Created = epoch.Add(time.Duration(created) * time.Second)
	}
	if scale > 0 && duration != math.MaxUint32 && duration != math.MaxUint64 {
		if secs := float64(duration) / float64(scale); secs < 1e6 {
			w.info.Duration = time.Duration(secs * float64(time.Second))
		}
	}
}

// readKeys reads an mdta keys box: version and flags, a count, then each
// key as size, namespace and name.
func (w *walker) readKeys(b []byte) {
	if len(b) < 8 {
		return
	}
	count := int(binary.BigEndian.Uint32(b[4:8]))
	for at := 8; len(w.keys) < min(count, 256) && at+8 <= len(b); {
		size := int(binary.BigEndian.Uint32(b[at : at+4]))
		if size < 8 || at+size > len(b) {
			return
		}
		w.keys = append(w.keys, string(b[at+8:at+size]))
		at += size
	}
}

// iso6709 is the start of an ISO 6709 location: signed latitude and
// longitude in decimal degrees ("+35.6595+139.7006+040.000/").
var iso6709 = regexp.MustCompile(`^([+-]\d{1,2}(?:\.\d+)?)([+-]\d{1,3}(?:\.\d+)?)`)

func parseISO6709(s string) (lat, lon float64, ok bool) {
	m := iso6709.FindStringSubmatch(s)
	if m == nil {
		return 0, 0, false
	}
	lat, err1 := strconv.ParseFloat(m[1], 64)
	lon, err2 := strconv.ParseFloat(m[2], 64)
	if err1 != nil || err2 != nil || math.Abs(lat) > 90 || math.Abs(lon) > 180 {
		return 0, 0, false
	}
	return lat, lon, true
}

// String shows the info for a test's failure message.
func (i Info) String() string {
	return fmt.Sprintf("created %s, %s, %d×%d, location %v (%g, %g), cover %d bytes",
		i.Created.Format(time.RFC3339), i.Duration, i.Width, i.Height, i.HasLocation, i.Latitude, i.Longitude, len(i.Cover))
}
