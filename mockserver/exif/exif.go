// Package exif reads the EXIF metadata of an uploaded file into the API's
// ExifInfo, so that a frontend sees its own photo's camera, time and place.
//
// Uploads are streamed: only the head of a file is kept, and Read works on
// that head alone. The EXIF of JPEG, TIFF-based RAW (ARW, NEF, DNG, CR2, PEF:
// those that start with a TIFF header), PNG, WebP and HEIC/AVIF files sits
// near the start, so the head is enough. Formats with their own headers
// (CR3, RW2, ORF, RAF) and videos are not read.
// github.com/bep/imagemeta walks the containers and IFDs; this package turns
// its tag values into the API's fields the way the reference server prints
// them.
package exif

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/bep/imagemeta"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// MaxHead is how many bytes of a file Read looks at; the rest is ignored.
// Callers keep this much of a streamed upload.
const MaxHead = 256 << 10

// ErrNoExif reports that a file's head carries no EXIF that Read can use: a
// format without EXIF (MP4, XMP, a PNG without an eXIf chunk), a JPEG without
// an Exif segment, or EXIF none of whose tags Read reports.
var ErrNoExif = errors.New("no exif metadata")

// Read returns the EXIF-derived fields of a file from its head (at most
// MaxHead bytes are used). FileSizeInByte is left to the caller, and so are
// City, State, Country and ProjectionType, which EXIF does not carry.
//
// It returns a non-nil *model.Exif with at least one field set and a nil
// error, or nil and an error for which errors.Is(err, ErrNoExif) holds: the
// head has no EXIF, or none that can be read (the error then names the
// cause). A head cut inside the metadata yields the fields before the cut.
// Read never panics, whatever the bytes.
//
// Date-times carry the zone of the OffsetTimeOriginal tag (or OffsetTime),
// and are taken as UTC when the file has neither; DateTimeOriginal,
// CreateDate and ModifyDate take their sub-second tags, as the reference's
// exiftool composes them.
func Read(head []byte) (*model.Exif, error) {
	if len(head) > MaxHead {
		head = head[:MaxHead]
	}
	return readFrom(bytes.NewReader(head), head[:min(len(head), SniffSize)])
}

// maxMetadataRead bounds the bytes ReadFrom reads of a file: the metadata
// of a HEIF file lies where its boxes say, which a hostile file may say is
// everywhere.
const maxMetadataRead = 4 << 20

// ReadFrom is Read of a whole file, for the formats whose metadata may lie
// past the head: a HEIF file (HEIC, AVIF) may put its meta box after its
// pictures, as Samsung's phones do. At most 4 MiB of it are read.
func ReadFrom(r io.ReadSeeker) (*model.Exif, error) {
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoExif, err)
	}
	head := make([]byte, SniffSize)
	n, _ := io.ReadFull(r, head)
	return readFrom(r, head[:n])
}

// SniffSize is how much of a file's start tells its format: an ftyp box's
// brands.
const SniffSize = 4096

// readFrom reads the metadata of r, whose first bytes (up to SniffSize) are
// head.
func readFrom(r io.ReadSeeker, head []byte) (*model.Exif, error) {
	format, ok := sniff(head)
	if !ok {
		return nil, ErrNoExif
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoExif, err)
	}
	rec := &recorder{r: r, budget: maxMetadataRead}
	t := tags{ownSize: format != imagemeta.DNG}
	res, err := imagemeta.Decode(imagemeta.Options{
		R:               rec,
		ImageFormat:     format,
		Sources:         imagemeta.EXIF | imagemeta.XMP | imagemeta.CONFIG,
		ShouldHandleTag: wanted,
		HandleTag:       t.handle,
	})
	t.configWidth, t.configHeight = res.ImageConfig.Width, res.ImageConfig.Height
	if format == imagemeta.HEIF {
		// As stored, not turned as imagemeta turns it.
		if _, err := r.Seek(0, io.SeekStart); err == nil {
			if w, h, err := heifPrimary(r); err == nil {
				t.configWidth, t.configHeight = w, h
			}
		}
	}
	t.subSeconds(rec.read)
	if x := t.exif(); x != nil {
		return x, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoExif, err)
	}
	return nil, ErrNoExif
}

// recorder is a reader that keeps what is read through it, within a
// budget: the bytes of the IFD entries imagemeta walks, in which the
// sub-second tags are found as they were written.
type recorder struct {
	r      io.ReadSeeker
	read   []byte
	budget int
}

// errBudget ends a read of more metadata than a file may have.
var errBudget = errors.New("more metadata than the bound")

func (r *recorder) Read(p []byte) (int, error) {
	if len(r.read)+len(p) > r.budget {
		return 0, errBudget
	}
	n, err := r.r.Read(p)
	r.read = append(r.read, p[:n]...)
	return n, err
}

func (r *recorder) Seek(offset int64, whence int) (int64, error) { return r.r.Seek(offset, whence) }

// Readable says whether head, a file's first bytes, starts as a format
// whose metadata Read reads; the first SniffSize bytes tell.
func Readable(head []byte) bool {
	_, ok := sniff(head)
	return ok
}

// sniff returns the image format of head from its magic bytes. Read is not
// told the file name, and imagemeta does not detect formats itself.
func sniff(head []byte) (imagemeta.ImageFormat, bool) {
	switch {
	case bytes.HasPrefix(head, []byte("\xff\xd8\xff")):
		return imagemeta.JPEG, true
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return imagemeta.PNG, true
	case bytes.HasPrefix(head, []byte("II*\x00")), bytes.HasPrefix(head, []byte("MM\x00*")):
		// TIFF and the TIFF-based RAW formats. imagemeta's RAW decoder
		// takes the image size from the largest IFD, not a RAW's preview.
		return imagemeta.DNG, true
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP":
		return imagemeta.WebP, true
	case isHEIF(head):
		return imagemeta.HEIF, true
	}
	return 0, false
}

// isHEIF reports whether head starts with the ftyp box of a HEIF image
// (HEIC, AVIF); other ISO media files (MP4, MOV, CR3) are not read.
func isHEIF(head []byte) bool {
	if len(head) < 16 || string(head[4:8]) != "ftyp" {
		return false
	}
	size := int(head[0])<<24 | int(head[1])<<16 | int(head[2])<<8 | int(head[3])
	if size < 16 || size > len(head) || size > 4096 {
		return false
	}
	for i := 8; i+4 <= size; i += 4 {
		if i == 12 {
			continue // minor version, not a brand
		}
		switch string(head[i : i+4]) {
		case "heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1", "avif", "avis":
			return true
		}
	}
	return false
}

// PastHead reports whether the metadata of a file that starts with head
// may lie past its head: a HEIF file's (HEIC, AVIF) meta box may follow
// its pictures, which ReadFrom and Size then read the whole file for.
func PastHead(head []byte) bool { return isHEIF(head) }
