// Package mp4 reads what a frontend sees of an MP4 or QuickTime video from
// its boxes: when it was made, how large its picture is, how long it runs,
// where it was made, and the cover picture a phone or an editor stored in it.
//
// Only the boxes that say so are read (mvhd, tkhd, hdlr, keys, ©xyz, the
// metadata items); the sample tables and the media data are skipped,
// wherever they sit. A Scanner reads a file as it streams past, keeping
// only those boxes, so a movie whose moov box comes after gigabytes of
// media is read without holding any of it; Read does the same on a file on
// disk, seeking over what it skips. Both are bounded in depth, in boxes and
// in bytes kept, and never fail on hostile bytes: they stop.
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

// MaxCover bounds the cover picture kept.
const MaxCover = 16 << 20

// Limits of the walk: how deep boxes nest, how many are looked at, and
// how large a header box may be to be read.
const (
	maxDepth  = 8
	maxBoxes  = 4096
	maxHeader = 64 << 10
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
	// Rotation is how far the video track is turned clockwise when it is
	// shown (0, 90, 180 or 270 degrees), from its header's matrix: a
	// phone's portrait video is stored landscape and turned 90.
	Rotation int
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

// String shows the info for a test's failure message.
func (i Info) String() string {
	return fmt.Sprintf("created %s, %s, %d×%d, location %v (%g, %g), cover %d bytes",
		i.Created.Format(time.RFC3339), i.Duration, i.Width, i.Height, i.HasLocation, i.Latitude, i.Longitude, len(i.Cover))
}

// Read reads the boxes of the size bytes of r, seeking over those it
// skips. It never panics, whatever the bytes.
func Read(r io.ReaderAt, size int64) (Info, error) {
	var s Scanner
	var pos int64
	buf := make([]byte, 0, 512)
	for !s.stopped && pos < size {
		if s.skip > 0 {
			pos += s.skipped(min(s.skip, size-pos))
			continue
		}
		n := min(int64(s.want-len(s.buf)), size-pos)
		buf = buf[:0]
		if int64(cap(buf)) < n {
			buf = make([]byte, 0, n)
		}
		k, err := r.ReadAt(buf[:n], pos)
		if k == 0 && err != nil {
			break
		}
		_, _ = s.Write(buf[:k])
		pos += int64(k)
	}
	return s.Info()
}

// Scanner reads an MP4 or QuickTime file written to it, keeping only the
// boxes Info reports; the zero Scanner is ready. Write never fails: bytes
// past what a Scanner can read are let through unread.
type Scanner struct {
	// SkipCover leaves the cover picture unread: a reader of the file's
	// metadata has no use for it, and it may be megabytes.
	SkipCover bool

	started, stopped bool
	off              int64  // bytes seen
	skip             int64  // bytes to let through unread
	want             int    // bytes of buf the current step needs
	buf              []byte // the header, probe or box being read
	step             func() // what to do once buf holds want bytes

	start, end int64  // the box being read: where it starts and ends
	typ        string // its type
	open       []frame
	boxes      int

	info  Info
	movie bool
	// The handler of the track being read, and its header's size, kept
	// until the track ends.
	handler        string
	trackW, trackH int
	trackRotation  int
	// mdta keys: their names by index, and the location's value.
	keys        []string
	keyLocation string
}

// frame is a box whose children are being read.
type frame struct {
	typ string
	end int64
}

// Write reads b as the next bytes of the file.
func (s *Scanner) Write(b []byte) (int, error) {
	n := len(b)
	if !s.started {
		s.started = true
		s.header()
	}
	for len(b) > 0 && !s.stopped {
		if s.skip > 0 {
			b = b[s.skipped(min(s.skip, int64(len(b)))):]
			continue
		}
		k := min(s.want-len(s.buf), len(b))
		s.buf = append(s.buf, b[:k]...)
		s.off += int64(k)
		b = b[k:]
		if len(s.buf) == s.want {
			s.step()
		}
	}
	return n, nil
}

// skipped lets n bytes of those to skip through, and returns n.
func (s *Scanner) skipped(n int64) int64 {
	s.skip -= n
	s.off += n
	if s.skip == 0 {
		s.next()
	}
	return n
}

// Info is what the boxes read so far say, or ErrNotMP4 where they hold no
// movie header.
func (s *Scanner) Info() (Info, error) {
	if !s.movie {
		return Info{}, ErrNotMP4
	}
	info := s.info
	if s.keyLocation != "" && !info.HasLocation {
		info.Latitude, info.Longitude, info.HasLocation = parseISO6709(s.keyLocation)
	}
	return info, nil
}

// read asks for n bytes into buf, then calls then.
func (s *Scanner) read(n int, then func()) {
	s.buf, s.want, s.step = s.buf[:0], n, then
	if n == 0 {
		then()
	}
}

// header reads the next box's header.
func (s *Scanner) header() {
	s.start = s.off
	s.read(8, s.gotHeader)
}

// firstBoxes are the boxes an MP4 or QuickTime file starts with.
var firstBoxes = map[string]bool{"ftyp": true, "moov": true, "mdat": true, "free": true, "wide": true, "skip": true}

func (s *Scanner) gotHeader() {
	size, typ := int64(binary.BigEndian.Uint32(s.buf[:4])), string(s.buf[4:8])
	if s.start == 0 && !firstBoxes[typ] {
		s.stopped = true
		return
	}
	s.boxes++
	if s.boxes > maxBoxes {
		s.stopped = true
		return
	}
	s.typ = typ
	switch size {
	case 0: // to the end of its parent, or of the file
		s.box(math.MaxInt64, 8)
	case 1: // a 64-bit size follows
		s.want, s.step = 16, func() { // after the 8 bytes read
			s.box(int64(binary.BigEndian.Uint64(s.buf[8:16])), 16)
		}
	default:
		s.box(size, 8)
	}
}

// box decides what to do with the box whose header has been read.
func (s *Scanner) box(size, headerLen int64) {
	parentEnd := int64(math.MaxInt64)
	if len(s.open) > 0 {
		parentEnd = s.open[len(s.open)-1].end
	}
	end := parentEnd
	if size >= headerLen && size <= math.MaxInt64-s.start {
		end = min(s.start+size, parentEnd) // a box claiming more than its parent holds ends there
	}
	s.end = end
	body := end - s.off
	if body < 0 {
		s.stopped = true
		return
	}
	parent := ""
	if len(s.open) > 0 {
		parent = s.open[len(s.open)-1].typ
	}
	switch {
	case containers[s.typ] || parent == "ilst":
		s.enter(s.typ, end)
	case s.typ == "meta":
		// ISO meta boxes carry a version and flags before their children;
		// QuickTime's do not: their first child, hdlr, tells.
		if body < 8 {
			s.skipTo(end)
			return
		}
		typ := s.typ
		s.read(8, func() {
			probe := append([]byte(nil), s.buf...)
			s.open = append(s.open, frame{typ, end})
			if string(probe[4:8]) == "hdlr" {
				s.start = s.off - 8
				s.buf = append(s.buf[:0], probe...)
				s.gotHeader()
				return
			}
			s.start = s.off - 4
			s.buf = append(s.buf[:0], probe[4:]...)
			s.want, s.step = 8, s.gotHeader
		})
	default:
		limit := wanted(s.typ, parent)
		if s.SkipCover && parent == "covr" {
			limit = 0
		}
		if limit == 0 || body > limit {
			s.skipTo(end)
			return
		}
		typ := s.typ
		s.read(int(body), func() {
			s.leaf(typ, parent, s.buf)
			s.next()
		})
	}
}

// containers are the boxes whose children are read.
var containers = map[string]bool{"moov": true, "trak": true, "mdia": true, "udta": true, "ilst": true}

// wanted is how many bytes of a leaf box are read (0: it is skipped).
func wanted(typ, parent string) int64 {
	switch {
	case typ == "mvhd" || typ == "tkhd" || typ == "keys" || typ == "\xa9xyz" || (typ == "hdlr" && parent == "mdia"):
		return maxHeader
	case typ == "data" && parent == "covr":
		return MaxCover + 8
	case typ == "data":
		return 256
	}
	return 0
}

// enter starts reading the children of a container.
func (s *Scanner) enter(typ string, end int64) {
	if len(s.open) >= maxDepth {
		s.skipTo(end)
		return
	}
	if typ == "trak" {
		s.handler, s.trackW, s.trackH = "", 0, 0
	}
	s.open = append(s.open, frame{typ, end})
	s.next()
}

// skipTo lets the bytes up to end through unread.
func (s *Scanner) skipTo(end int64) {
	if end == math.MaxInt64 {
		s.stopped = true // the rest of the file is one box of no interest
		return
	}
	s.buf = s.buf[:0]
	if s.skip = end - s.off; s.skip <= 0 {
		s.skip = 0
		s.next()
	}
}

// next closes the containers that end here, and reads the next header.
func (s *Scanner) next() {
	for len(s.open) > 0 && s.open[len(s.open)-1].end <= s.off {
		f := s.open[len(s.open)-1]
		s.open = s.open[:len(s.open)-1]
		if f.typ == "trak" && s.handler == "vide" && s.info.Width == 0 && s.trackW > 0 && s.trackH > 0 {
			s.info.Width, s.info.Height, s.info.Rotation = s.trackW, s.trackH, s.trackRotation
		}
	}
	s.header()
}

// rotation reads a track header's matrix (a, b, u, c, d, v, x, y, w; a to
// d in 16.16 fixed point) as a turn clockwise; 0 for any other matrix.
func rotation(m []byte) int {
	at := func(i int) int32 { return int32(binary.BigEndian.Uint32(m[4*i:])) }
	const one = 1 << 16
	switch a, b, c, d := at(0), at(1), at(3), at(4); {
	case a == 0 && b == one && c == -one && d == 0:
		return 90
	case a == -one && b == 0 && c == 0 && d == -one:
		return 180
	case a == 0 && b == -one && c == one && d == 0:
		return 270
	}
	return 0
}

// epoch is where MP4 times start.
var epoch = time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC)

// leaf takes what a header box says.
func (s *Scanner) leaf(typ, parent string, b []byte) {
	switch typ {
	case "mvhd":
		s.movie = true
		s.movieHeader(b)
	case "tkhd":
		if len(b) >= 8 {
			// The last 8 bytes are the width and height, 16.16 fixed point.
			s.trackW = int(binary.BigEndian.Uint32(b[len(b)-8:]) >> 16)
			s.trackH = int(binary.BigEndian.Uint32(b[len(b)-4:]) >> 16)
		}
		if len(b) >= 44 {
			s.trackRotation = rotation(b[len(b)-44 : len(b)-8])
		}
	case "hdlr":
		if len(b) >= 12 {
			s.handler = string(b[8:12])
		}
	case "keys":
		s.readKeys(b)
	case "\xa9xyz":
		// QuickTime user data text: 2 bytes length, 2 bytes language, text.
		if len(b) >= 4 {
			n := min(int(binary.BigEndian.Uint16(b[:2])), len(b)-4)
			s.info.Latitude, s.info.Longitude, s.info.HasLocation = parseISO6709(string(b[4 : 4+n]))
		}
	case "data":
		// A metadata item's value follows its type and locale.
		if len(b) < 8 {
			return
		}
		value := b[8:]
		if parent == "covr" {
			if s.info.Cover == nil && len(value) <= MaxCover {
				s.info.Cover = append([]byte(nil), value...)
			}
			return
		}
		// An item of an mdta-keyed list is named by its key's index.
		if i := int(binary.BigEndian.Uint32([]byte(parent))); i >= 1 && i <= len(s.keys) &&
			s.keys[i-1] == "com.apple.quicktime.location.ISO6709" {
			s.keyLocation = string(value)
		}
	}
}

// movieHeader reads mvhd: version, flags, then creation and modification
// times, the time scale and the duration, in 32 bits (version 0) or 64.
func (s *Scanner) movieHeader(b []byte) {
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
		s.info.Created = epoch.Add(time.Duration(created) * time.Second)
	}
	if scale > 0 && duration != math.MaxUint32 && duration != math.MaxUint64 {
		if secs := float64(duration) / float64(scale); secs < 1e6 {
			s.info.Duration = time.Duration(secs * float64(time.Second))
		}
	}
}

// readKeys reads an mdta keys box: version and flags, a count, then each
// key as size, namespace and name.
func (s *Scanner) readKeys(b []byte) {
	if len(b) < 8 {
		return
	}
	count := int(binary.BigEndian.Uint32(b[4:8]))
	for at := 8; len(s.keys) < min(count, 256) && at+8 <= len(b); {
		size := int(binary.BigEndian.Uint32(b[at : at+4]))
		if size < 8 || size > len(b)-at {
			return
		}
		s.keys = append(s.keys, string(b[at+8:at+size]))
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
