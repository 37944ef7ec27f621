package exif

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/bep/imagemeta"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// dateLayout is how EXIF writes a date-time, without zone.
const dateLayout = "2006:01:02 15:04:05"

// ifd names the IFDs whose tags Read uses.
type ifd int

const (
	ifdOther ifd = iota
	ifd0         // the main image
	ifdExif      // its Exif sub-IFD
	ifdGPS       // its GPS sub-IFD
)

// ifdOf returns the IFD of an imagemeta namespace ("IFD0", "IFD0/ExifIFDP",
// "IFD0/GPSInfoIFD"...). Tag names alone are ambiguous: imagemeta names the
// Interop IFD's tags 1 and 2 GPSLatitudeRef and GPSLatitude.
func ifdOf(namespace string) ifd {
	switch dir := path.Base(namespace); {
	case namespace == "IFD0":
		return ifd0
	case strings.HasPrefix(namespace, "IFD0/") && strings.HasPrefix(dir, "ExifIFD"):
		return ifdExif
	case strings.HasPrefix(namespace, "IFD0/") && dir == "GPSInfoIFD":
		return ifdGPS
	}
	return ifdOther
}

// wanted tells imagemeta which tags to decode: those of IFD0, Exif and GPS
// that Read reports.
func wanted(ti imagemeta.TagInfo) bool {
	if ti.Source == imagemeta.XMP {
		// The file's own XMP packet: its ModifyDate, where EXIF has none
		// (an editor's export), as exiftool merges them.
		return ti.Namespace == nsXMP && ti.Tag == "ModifyDate"
	}
	switch ifdOf(ti.Namespace) {
	case ifd0:
		switch ti.Tag {
		case "Make", "Model", "ImageDescription", "Orientation", "ModifyDate":
			return true
		}
	case ifdExif:
		switch ti.Tag {
		case "LensModel", "ExifImageWidth", "ExifImageHeight", "ExposureTime", "FNumber",
			"FocalLength", "ISO", "DateTimeOriginal", "CreateDate", "OffsetTimeOriginal", "OffsetTime",
			"SubSecTimeOriginal", "SubSecTimeDigitized", "SubSecTime":
			return true
		}
	case ifdGPS:
		switch ti.Tag {
		case "GPSLatitudeRef", "GPSLatitude", "GPSLongitudeRef", "GPSLongitude":
			return true
		}
	}
	return false
}

// tags holds the values of the tags Read reports. A zero value means the tag
// was absent or unusable.
type tags struct {
	make, model, lens, description string
	exifWidth, exifHeight          int  // ExifImageWidth/Height (PixelX/YDimension)
	configWidth, configHeight      int  // the image's own size, as imagemeta finds it
	ownSize                        bool // the image's own size wins over the EXIF's (all but RAW)
	orientation                    int
	dateTimeOriginal, createDate   string
	modifyDate                     string
	xmpModifyDate                  string // the file's XMP xmp:ModifyDate
	offsetOriginal, offset         string
	// The sub-second tags, as written ("060"): their index is subSec*.
	subSec                         [3]string
	exposure, fNumber, focalLength float64 // seconds, f-number, millimetres
	iso                            int
	latitudeRef, longitudeRef      string
	latitude, longitude            float64
	hasLatitude, hasLongitude      bool
}

// handle stores one decoded tag; wanted has already chosen it.
func (t *tags) handle(ti imagemeta.TagInfo) error {
	v := ti.Value
	if ti.Source == imagemeta.XMP {
		if ti.Tag == "ModifyDate" {
			t.xmpModifyDate = text(v)
		}
		return nil
	}
	switch ti.Tag {
	case "Make":
		t.make = text(v)
	case "Model":
		t.model = text(v)
	case "ImageDescription":
		t.description = text(v)
	case "Orientation":
		t.orientation = integer(v)
	case "ModifyDate":
		t.modifyDate = text(v)
	case "LensModel":
		t.lens = text(v)
	case "ExifImageWidth":
		t.exifWidth = integer(v)
	case "ExifImageHeight":
		t.exifHeight = integer(v)
	case "ExposureTime":
		t.exposure = number(v)
	case "FNumber":
		t.fNumber = number(v)
	case "FocalLength":
		t.focalLength = number(v)
	case "ISO":
		t.iso = integer(v)
	case "DateTimeOriginal":
		t.dateTimeOriginal = text(v)
	case "CreateDate":
		t.createDate = text(v)
	case "OffsetTimeOriginal":
		t.offsetOriginal = text(v)
	case "OffsetTime":
		t.offset = text(v)
	case "SubSecTimeOriginal", "SubSecTimeDigitized", "SubSecTime":
		// imagemeta hands these over as integers, without their leading
		// zeros ("060" is 60); subSeconds finds them as written.
		if n := integer(v); n > 0 && t.subSec[subSecIndex(ti.Tag)] == "" {
			t.subSec[subSecIndex(ti.Tag)] = strconv.Itoa(n)
		}
	case "GPSLatitudeRef":
		t.latitudeRef = text(v)
	case "GPSLongitudeRef":
		t.longitudeRef = text(v)
	case "GPSLatitude":
		t.latitude, t.hasLatitude = coordinate(v)
	case "GPSLongitude":
		t.longitude, t.hasLongitude = coordinate(v)
	}
	return nil
}

// exif returns the API fields of t, or nil when t has none. The image size
// alone is not EXIF: it counts only beside other fields.
func (t *tags) exif() *model.Exif {
	var x model.Exif
	set := false
	str := func(s string) *string {
		if s == "" {
			return nil
		}
		set = true
		return &s
	}
	positive := func(f float64) *float64 {
		if !(f > 0) || math.IsInf(f, 0) {
			return nil
		}
		set = true
		return &f
	}
	x.Make = str(t.make)
	x.Model = str(t.model)
	x.LensModel = str(t.lens)
	x.Description = str(t.description)
	if t.orientation >= 1 && t.orientation <= 8 {
		x.Orientation = str(strconv.Itoa(t.orientation))
	}
	x.ExposureTime = str(exposureTime(t.exposure))
	x.FNumber = positive(fNumber(t.fNumber))
	x.FocalLength = positive(t.focalLength)
	x.ISO = positive(float64(t.iso))

	// A date-time without zone is taken in the zone of the file's other
	// offset tag, as exiftool does, and else as UTC.
	zoneOriginal, okOriginal := zone(t.offsetOriginal)
	zoneModify, okModify := zone(t.offset)
	if !okOriginal {
		zoneOriginal, okOriginal = zoneModify, okModify
	}
	if !okModify {
		zoneModify = zoneOriginal
	}
	if d, ok := date(t.dateTimeOriginal, t.subSec[subSecOriginal], zoneOriginal); ok {
		x.DateTimeOriginal, set = d.Ptr(), true
	} else if d, ok := date(t.createDate, t.subSec[subSecDigitized], zoneOriginal); ok {
		x.DateTimeOriginal, set = d.Ptr(), true
	}
	if d, ok := date(t.modifyDate, t.subSec[subSecModify], zoneModify); ok {
		x.ModifyDate, set = d.Ptr(), true
	} else if d, _, ok := xmpDate(t.xmpModifyDate); ok && set {
		x.ModifyDate = d.Ptr()
	}
	if okOriginal {
		x.TimeZone = str(zoneName(zoneOriginal))
	}
	if lat, lon, ok := t.position(); ok {
		// As exiftool prints them: 15 significant digits.
		lat, lon = significant(lat), significant(lon)
		x.Latitude, x.Longitude, set = &lat, &lon, true
	}
	if !set {
		return nil
	}

	// The image's own size, as the reference gives it (exiftool's
	// ImageWidth: a WebP resized from a camera's photo says 600×315, not
	// the 5184×2720 its EXIF kept); else ExifImageWidth/Height. A RAW file
	// gives the size its EXIF declares: its first image may be a preview.
	width, height := t.configWidth, t.configHeight
	if !t.ownSize || width <= 0 || height <= 0 {
		width, height = t.exifWidth, t.exifHeight
	}
	if width <= 0 || height <= 0 {
		width, height = t.configWidth, t.configHeight
	}
	if width > 0 && height > 0 {
		w, h := float64(width), float64(height)
		x.ExifImageWidth, x.ExifImageHeight = &w, &h
	}
	return &x
}

// position returns the signed decimal degrees of the GPS tags. Like the
// reference, it takes 0,0 for "no position": devices write it without a fix.
func (t *tags) position() (lat, lon float64, ok bool) {
	if !t.hasLatitude || !t.hasLongitude {
		return 0, 0, false
	}
	lat, lon = t.latitude, t.longitude
	if strings.HasPrefix(t.latitudeRef, "S") {
		lat = -lat
	}
	if strings.HasPrefix(t.longitudeRef, "W") {
		lon = -lon
	}
	if lat < -90 || lat > 90 || lon < -180 || lon > 180 || (lat == 0 && lon == 0) {
		return 0, 0, false
	}
	return lat, lon, true
}

// fNumber rounds an f-number as exiftool prints it, and the reference
// stores it: one decimal ("1.8" for 1.78), two below 1.
func fNumber(f float64) float64 {
	if !(f > 0) || math.IsInf(f, 0) {
		return 0
	}
	digits := 1
	if f < 1 {
		digits = 2
	}
	v, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'f', digits, 64), 64)
	return v
}

// significant rounds f to the 15 significant digits exiftool prints.
func significant(f float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 15, 64), 64)
	return v
}

// exposureTime prints an exposure time in seconds as exiftool does: "1/N"
// below a quarter second, else seconds to one decimal without a trailing
// ".0" ("0.5", "2").
func exposureTime(secs float64) string {
	switch {
	case !(secs > 0) || math.IsInf(secs, 0):
		return ""
	case secs < 0.25001:
		return fmt.Sprintf("1/%d", int(0.5+1/secs))
	}
	return strings.TrimSuffix(strconv.FormatFloat(secs, 'f', 1, 64), ".0")
}

// zone parses an EXIF offset tag, "+HH:MM" or "-HH:MM".
func zone(s string) (*time.Location, bool) {
	if len(s) < 6 || (s[0] != '+' && s[0] != '-') || s[3] != ':' {
		return time.UTC, false
	}
	h, errH := strconv.ParseUint(s[1:3], 10, 8)
	m, errM := strconv.ParseUint(s[4:6], 10, 8)
	if errH != nil || errM != nil || h > 14 || m > 59 {
		return time.UTC, false
	}
	offset := int(h*3600 + m*60)
	if s[0] == '-' {
		offset = -offset
	}
	return time.FixedZone("", offset), true
}

// zoneName names a zone as the reference does for an offset: "UTC",
// "UTC+1", "UTC-3", "UTC+5:30".
func zoneName(loc *time.Location) string {
	_, offset := time.Date(2000, 1, 1, 0, 0, 0, 0, loc).Zone()
	if offset == 0 {
		return "UTC"
	}
	sign := '+'
	if offset < 0 {
		sign, offset = '-', -offset
	}
	h, m := offset/3600, offset%3600/60
	if m == 0 {
		return fmt.Sprintf("UTC%c%d", sign, h)
	}
	return fmt.Sprintf("UTC%c%d:%02d", sign, h, m)
}

// plausible reports whether a capture date may be true: from the first
// photographs to the year 2999. Tools write 0000:00:00 and 9999:12:31 for
// "no date"; those are none.
func plausible(t time.Time) bool {
	return t.Year() >= 1800 && t.Year() < 3000 && model.InRange(t)
}

// date parses an EXIF date-time in loc, with its sub-second tag's digits
// ("348" is .348 s, "85" .85 s; the API keeps milliseconds).
func date(s, subSec string, loc *time.Location) (model.Time, bool) {
	if len(s) < len(dateLayout) {
		return model.Time{}, false
	}
	d, err := time.ParseInLocation(dateLayout, s[:len(dateLayout)], loc)
	if err != nil || !plausible(d) {
		return model.Time{}, false
	}
	if digits := (subSec + "000")[:3]; subSec != "" {
		if ms, err := strconv.Atoi(digits); err == nil && ms >= 0 {
			d = d.Add(time.Duration(ms) * time.Millisecond)
		}
	}
	return model.At(d), true
}

// The sub-second tags, by their index in tags.subSec.
const (
	subSecOriginal  = iota // SubSecTimeOriginal, 0x9291
	subSecDigitized        // SubSecTimeDigitized, 0x9292
	subSecModify           // SubSecTime, 0x9290
)

var subSecTags = [...]uint16{subSecOriginal: 0x9291, subSecDigitized: 0x9292, subSecModify: 0x9290}

func subSecIndex(tag string) int {
	switch tag {
	case "SubSecTimeOriginal":
		return subSecOriginal
	case "SubSecTimeDigitized":
		return subSecDigitized
	}
	return subSecModify
}

// subSeconds sets the sub-second tags as they were written, from the IFD
// entries among the bytes read: a tag of type ASCII whose value (up to
// three digits and a NUL) sits in the entry itself, in either byte order.
// The value imagemeta gave must agree; one that does not, or is not
// found, stays as imagemeta gave it.
func (t *tags) subSeconds(read []byte) {
	for i, tag := range subSecTags {
		if t.subSec[i] == "" {
			continue
		}
		for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
			entry := make([]byte, 8)
			order.PutUint16(entry, tag)
			order.PutUint16(entry[2:], 2) // ASCII
			for at := 0; ; {
				j := bytes.Index(read[at:], entry[:4])
				if j < 0 {
					break
				}
				at += j + 4
				if at+8 > len(read) {
					break
				}
				count := order.Uint32(read[at:])
				if count < 1 || count > 4 {
					continue
				}
				digits := string(bytes.TrimRight(read[at+4:at+4+int(count)], "\x00 "))
				if n, err := strconv.Atoi(digits); err == nil && strconv.Itoa(n) == t.subSec[i] {
					t.subSec[i] = digits
					break
				}
			}
		}
	}
}

// text returns a string tag's value, trimmed, or "".
func text(v any) string {
	s, ok := v.(string)
	if !ok {
		return ""
	}
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(strings.ToValidUTF8(s, "\uFFFD"))
}

// integer returns the (first) value of an integer tag, or 0.
func integer(v any) int {
	switch n := v.(type) {
	case uint8:
		return int(n)
	case uint16:
		return int(n)
	case uint32:
		return int(min(n, math.MaxInt32))
	case int:
		return n
	case []any:
		if len(n) > 0 {
			return integer(n[0])
		}
	}
	return 0
}

// number returns the (first) value of a rational tag, or 0 when it is not a
// finite number (imagemeta gives "undef" for a zero denominator).
func number(v any) float64 {
	var f float64
	switch n := v.(type) {
	case imagemeta.Rat[uint32]:
		f = n.Float64()
	case imagemeta.Rat[int32]:
		f = n.Float64()
	case float64:
		f = n
	case uint16, uint32:
		f = float64(integer(n))
	case []any:
		if len(n) > 0 {
			return number(n[0])
		}
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return f
}

// coordinate returns a GPS latitude or longitude, which imagemeta gives in
// unsigned decimal degrees.
func coordinate(v any) (float64, bool) {
	f, ok := v.(float64)
	if !ok || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
		return 0, false
	}
	return f, true
}
