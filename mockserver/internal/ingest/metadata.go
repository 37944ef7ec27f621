// Package ingest reads what the reference's metadata job derives from an
// uploaded or imported file: its EXIF, a video's boxes, an XMP sidecar, the
// picture's own size, the zone and place of its position, and the video a
// motion photo carries. It reads bytes it is given and writes nothing.
package ingest

import (
	"bytes"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"strconv"
	"strings"
	"time"

	"golang.org/x/image/bmp"
	"golang.org/x/image/webp"

	"github.com/mediaspec/mediaspec/mockserver/exif"
	"github.com/mediaspec/mediaspec/mockserver/gazetteer"
	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/mockserver/mp4"
)

// Read sets what the reference's metadata job derives from a file on its
// asset, at once: the mock's answer to the next request is already final.
// In order:
//
//   - the file's EXIF (JPEG, HEIC, TIFF-based RAW, PNG, WebP), or a video's
//     boxes (creation time, size, duration, location);
//   - an XMP sidecar's values over them (the still's only);
//   - the picture's own size where EXIF gives none (PNG, GIF, WebP, BMP);
//   - the zone: the file's offset tags, else the zone of its GPS position,
//     else none; a sidecar's capture time takes the zone of the position,
//     else its own offset;
//   - the place its position names (by places), and the form's dates
//     (created, modified) where the file has none.
//
// The capture time then becomes fileCreatedAt, and its wall clock in its
// zone localDateTime; a video's duration replaces the form's. A file with
// no metadata, or metadata that lies (a year 0000, a position off the
// globe, an offset of +25:00), keeps the form's values for those fields.
func Read(a *model.AssetRecord, f File, sidecar []byte, created, modified time.Time, places Places) {
	r := readTags{x: fileExif(f.Head, f.Whole), places: places}
	r.zoneFromGPS = r.x.TimeZone == nil  // no offset tag: the position may tell
	r.fileModify = r.x.ModifyDate != nil // the file's own, not a sidecar's
	if info, ok := f.videoInfo(); ok {
		r.video(a, info)
	}
	if sidecar != nil {
		if s, err := exif.ReadXMP(sidecar); err == nil {
			r.sidecar(s)
		}
	}
	x := r.x
	if x.ExifImageWidth == nil {
		if pw, ph, ok := pictureSize(f.Head, f.Whole); ok {
			w, h := pw, ph // their own variables, made only for a size found
			x.ExifImageWidth, x.ExifImageHeight = &w, &h
		}
	}
	if x.Latitude != nil && x.Longitude != nil {
		r.place()
	}
	if x.Description == nil {
		x.Description = ptr("")
	}
	if x.DateTimeOriginal == nil {
		x.DateTimeOriginal = model.At(created).Ptr()
	}
	if x.ModifyDate == nil {
		x.ModifyDate = model.At(modified).Ptr()
	}
	size := f.Size
	x.FileSizeInByte = &size
	a.ExifInfo, a.HasMetadata = x, true
	a.FileCreatedAt = *x.DateTimeOriginal
	a.LocalDateTime = model.At(wallClock(x.DateTimeOriginal.Time, x.TimeZone))
}

// Places names the place at a position: its city, state and country, nil
// where it names none: a GeoNames index's PlaceAt (the reference's own,
// built in, or serve --geodata's), as the reference's names it.
type Places func(lat, lon float64) (city, state, country *string)

// File is a file as Read reads it.
type File struct {
	Head  []byte            // its first bytes (exif.SniffSize of them)
	Whole *io.SectionReader // the whole file, where it is kept; else nil
	Video *mp4.Scanner      // its boxes as they were read, for a video; else nil
	Size  int64             // its size in bytes
	// IsVideo: a video whose boxes are to be read from Whole (a file on
	// disk, which Video did not see stream past).
	IsVideo bool
}

// videoInfo is a video's boxes: as they streamed past, or read from the
// whole file; ok false for no video, or one whose boxes do not read.
func (f File) videoInfo() (mp4.Info, bool) {
	switch {
	case f.Video != nil:
		info, err := f.Video.Info()
		return info, err == nil
	case f.IsVideo && f.Whole != nil:
		info, err := mp4.Read(f.Whole, f.Size)
		return info, err == nil
	}
	return mp4.Info{}, false
}

// readTags is the metadata of an upload as it is read: its tags, whether
// its zone is still to be found from its position, whether its modify
// date is the file's own, and what names its place.
type readTags struct {
	x           *model.Exif
	zoneFromGPS bool
	fileModify  bool
	places      Places
}

// fileExif is the EXIF of a file: from its head, else from the whole file
// kept when the tags lie past the head, else none.
func fileExif(head []byte, whole *io.SectionReader) *model.Exif {
	if e, err := exif.Read(head); err == nil {
		return e
	}
	if whole != nil && exif.PastHead(head) {
		if e, err := exif.ReadFrom(whole); err == nil {
			return e
		}
	}
	return &model.Exif{}
}

// video takes what a video's boxes tell: its size, its capture time (in
// UTC, as QuickTime writes it), its position, duration and rotation.
func (r *readTags) video(a *model.AssetRecord, info mp4.Info) {
	x := r.x
	if info.Width > 0 && info.Height > 0 {
		w, h := float64(info.Width), float64(info.Height)
		x.ExifImageWidth, x.ExifImageHeight = &w, &h
	}
	if !info.Created.IsZero() && model.InRange(info.Created) {
		created := model.At(info.Created)
		x.DateTimeOriginal, x.ModifyDate, x.TimeZone = created.Ptr(), created.Ptr(), ptr("UTC")
		r.zoneFromGPS = false
	}
	// 0,0 is a phone's "no fix", which the reference drops.
	if info.HasLocation && (info.Latitude != 0 || info.Longitude != 0) {
		x.Latitude, x.Longitude = &info.Latitude, &info.Longitude
	}
	if info.Duration > 0 {
		a.Duration = videoDuration(info.Duration)
	}
	x.Orientation = ptr(videoOrientations[info.Rotation])
}

// sidecar lays an XMP sidecar's tags over the file's: its capture time
// takes the zone of the position, else the sidecar's own offset.
func (r *readTags) sidecar(s *exif.XMP) {
	overlay(r.x, &s.Exif)
	if s.Exif.ModifyDate != nil {
		r.fileModify = false
	}
	if s.Exif.DateTimeOriginal != nil {
		r.x.TimeZone, r.zoneFromGPS = nil, true
		if s.ZoneFromOffset != "" {
			r.x.TimeZone = &s.ZoneFromOffset
		}
	}
}

// place takes what the position tells: the zone, when no offset told it,
// and the city, state and country.
func (r *readTags) place() {
	x := r.x
	if r.zoneFromGPS {
		if zone, ok := gazetteer.ZoneAt(*x.Latitude, *x.Longitude); ok {
			// A capture time without its own offset is a wall clock there.
			if x.TimeZone == nil && x.DateTimeOriginal != nil {
				x.DateTimeOriginal = inZone(*x.DateTimeOriginal, zone).Ptr()
				// exiftool takes the file's other dates in that zone too.
				if x.ModifyDate != nil && r.fileModify {
					x.ModifyDate = inZone(*x.ModifyDate, zone).Ptr()
				}
			}
			x.TimeZone = &zone
		}
	}
	if x.City == nil {
		x.City, x.State, x.Country = r.places(*x.Latitude, *x.Longitude)
	}
}

// overlay sets on x every field s sets.
func overlay(x, s *model.Exif) {
	for _, f := range []struct{ dst, src **string }{
		{&x.Make, &s.Make}, {&x.Model, &s.Model}, {&x.Orientation, &s.Orientation}, {&x.LensModel, &s.LensModel},
		{&x.ExposureTime, &s.ExposureTime}, {&x.Description, &s.Description},
	} {
		if *f.src != nil {
			*f.dst = *f.src
		}
	}
	for _, f := range []struct{ dst, src **float64 }{
		{&x.ExifImageWidth, &s.ExifImageWidth}, {&x.ExifImageHeight, &s.ExifImageHeight}, {&x.FNumber, &s.FNumber},
		{&x.FocalLength, &s.FocalLength}, {&x.ISO, &s.ISO}, {&x.Latitude, &s.Latitude}, {&x.Longitude, &s.Longitude},
	} {
		if *f.src != nil {
			*f.dst = *f.src
		}
	}
	if s.DateTimeOriginal != nil {
		x.DateTimeOriginal = s.DateTimeOriginal
	}
	if s.ModifyDate != nil {
		x.ModifyDate = s.ModifyDate
	}
}

// inZone is the instant at which the wall clock of t (read as UTC) shows
// in the named zone.
func inZone(t model.Time, zone string) model.Time {
	loc, err := gazetteer.Location(zone)
	if err != nil {
		return t
	}
	u := t.Time.UTC()
	return model.At(time.Date(u.Year(), u.Month(), u.Day(), u.Hour(), u.Minute(), u.Second(), u.Nanosecond(), loc))
}

// wallClock is the reference's localDateTime: the wall clock of t in its
// zone, written as if it were UTC. Without a zone it is t.
func wallClock(t time.Time, zone *string) time.Time {
	if zone == nil {
		return t.UTC()
	}
	loc, ok := zoneLocation(*zone)
	if !ok {
		return t.UTC()
	}
	w := t.In(loc)
	return time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), time.UTC)
}

// zoneLocation reads a zone as the reference names it: "UTC", "UTC+9",
// "UTC-3:30", or an IANA name.
func zoneLocation(name string) (*time.Location, bool) {
	if name == "UTC" {
		return time.UTC, true
	}
	if rest, ok := strings.CutPrefix(name, "UTC"); ok && len(rest) > 1 && (rest[0] == '+' || rest[0] == '-') {
		hours, minutes, _ := strings.Cut(rest[1:], ":")
		h, errH := strconv.Atoi(hours)
		m, errM := 0, error(nil)
		if minutes != "" {
			m, errM = strconv.Atoi(minutes)
		}
		if errH != nil || errM != nil || h > 14 || m > 59 {
			return nil, false
		}
		offset := h*3600 + m*60
		if rest[0] == '-' {
			offset = -offset
		}
		return time.FixedZone(name, offset), true
	}
	loc, err := gazetteer.Location(name)
	return loc, err == nil
}

// videoDuration writes a duration as the reference does for a video it
// has read: "00:00:01.000".
func videoDuration(d time.Duration) string {
	ms := d.Milliseconds()
	return fmt.Sprintf("%02d:%02d:%02d.%03d", ms/3_600_000, ms/60_000%60, ms/1000%60, ms%1000)
}

// videoOrientations are the EXIF orientations the reference gives a video
// turned clockwise by so many degrees (ffprobe's rotation -90 is "6").
var videoOrientations = map[int]string{0: "1", 90: "6", 180: "3", 270: "8"}

// pictureSize is the size a picture's header declares, for the formats
// whose size EXIF may not give: HEIF (HEIC, AVIF) and JPEG XL are read by
// exif.Size, a HEIF from the whole file where it is kept (its meta box may
// follow its pictures); their decoders are not ones to call here.
// HoldsMetadata says whether a file whose first bytes are head
// (exif.SniffSize of them) is one whose head an upload reads past them: a
// picture whose metadata (exif.Read) or size (pictureSize) is read from
// it, or a JPEG that may carry a motion photo's video (FindMotionVideo).
// Each of them tells a format by its first bytes, these.
func HoldsMetadata(head []byte) bool {
	return exif.Readable(head) || exif.PastHead(head) || exif.IsJXL(head) ||
		bytes.HasPrefix(head, []byte("\xff\xd8")) || bytes.HasPrefix(head, []byte("GIF8")) || bytes.HasPrefix(head, []byte("BM"))
}

func pictureSize(head []byte, whole io.ReadSeeker) (w, h float64, ok bool) {
	if exif.PastHead(head) || exif.IsJXL(head) {
		src := io.ReadSeeker(bytes.NewReader(head))
		if whole != nil && exif.PastHead(head) {
			src = whole
		}
		iw, ih, ok := exif.Size(src)
		return float64(iw), float64(ih), ok
	}
	var decode func(io.Reader) (image.Config, error)
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		decode = png.DecodeConfig
	case bytes.HasPrefix(head, []byte("GIF8")):
		decode = gif.DecodeConfig
	case bytes.HasPrefix(head, []byte("\xff\xd8\xff")):
		decode = jpeg.DecodeConfig
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP":
		decode = webp.DecodeConfig
	case bytes.HasPrefix(head, []byte("BM")):
		decode = bmp.DecodeConfig
	default:
		return 0, 0, false
	}
	cfg, err := decode(bytes.NewReader(head))
	if err != nil || cfg.Width < 1 || cfg.Height < 1 {
		return 0, 0, false
	}
	return float64(cfg.Width), float64(cfg.Height), true
}

func ptr[T any](v T) *T { return &v }
