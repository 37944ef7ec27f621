package ingest

import (
	"bytes"
	"encoding/binary"
	"io"
	"strconv"

	"github.com/mediaspec/mediaspec/mockserver/exif"
)

// FindMotionVideo is where the video of a motion photo lies in its file,
// found as the reference's exiftool finds it, in its order: a HEIC's mpvd
// box (MotionPhotoVideo), Samsung's trailer (EmbeddedVideoFile), then the
// length the XMP in head names. A video found must start as an MP4 does.
func FindMotionVideo(r *io.SectionReader, head []byte) (off, n int64, ok bool) {
	size := r.Size()
	switch {
	case exif.PastHead(head):
		off, n, ok = heifMotionVideo(r)
	case bytes.HasPrefix(head, []byte{0xff, 0xd8}):
		if off, n, ok = samsungTrailerVideo(r); !ok {
			var length, padding int64
			if length, padding, ok = xmpMotionVideo(head); ok {
				off, n = size-length-padding, length
			}
		}
	}
	if !ok || off < 0 || n < 16 || off+n > size {
		return 0, 0, false
	}
	var ftyp [8]byte
	if _, err := r.ReadAt(ftyp[:], off); err != nil || string(ftyp[4:]) != "ftyp" {
		return 0, 0, false
	}
	return off, n, true
}

// maxTopBoxes bounds the top-level boxes of a HEIC walked for its video.
const maxTopBoxes = 256

// heifMotionVideo is the body of a HEIC's top-level mpvd box.
func heifMotionVideo(r *io.SectionReader) (off, n int64, ok bool) {
	var hdr [16]byte
	for at, i := int64(0), 0; at+8 <= r.Size() && i < maxTopBoxes; i++ {
		if _, err := r.ReadAt(hdr[:8], at); err != nil {
			return 0, 0, false
		}
		size, body := int64(binary.BigEndian.Uint32(hdr[:])), int64(8)
		switch size {
		case 0:
			size = r.Size() - at
		case 1:
			if _, err := r.ReadAt(hdr[8:], at+8); err != nil {
				return 0, 0, false
			}
			size, body = int64(binary.BigEndian.Uint64(hdr[8:])), 16
		}
		if size < body || at+size > r.Size() {
			return 0, 0, false
		}
		if string(hdr[4:8]) == "mpvd" {
			return at + body, size - body, true
		}
		at += size
	}
	return 0, 0, false
}

// maxSEFEntries bounds the entries of a Samsung trailer read.
const maxSEFEntries = 256

// samsungTrailerVideo is the MotionPhoto_Data record of the trailer
// Samsung's camera appends to a JPEG: at the file's end, a directory
// ("SEFH", version, count, then per record a type, its offset back from
// the directory and its length), its length and "SEFT"; each record is 2
// bytes, its type, its name's length, its name, and its data.
func samsungTrailerVideo(r *io.SectionReader) (off, n int64, ok bool) {
	size := r.Size()
	var tail [8]byte
	if size < 8 {
		return 0, 0, false
	}
	if _, err := r.ReadAt(tail[:], size-8); err != nil || string(tail[4:]) != "SEFT" {
		return 0, 0, false
	}
	dirLen := int64(binary.LittleEndian.Uint32(tail[:]))
	dirStart := size - 8 - dirLen
	if dirLen < 12 || dirStart < 0 || dirLen > 1<<20 {
		return 0, 0, false
	}
	dir := make([]byte, dirLen)
	if _, err := r.ReadAt(dir, dirStart); err != nil || string(dir[:4]) != "SEFH" {
		return 0, 0, false
	}
	count := min(int(binary.LittleEndian.Uint32(dir[8:])), maxSEFEntries)
	for i := range count {
		e := 12 + 12*i
		if e+12 > len(dir) {
			break
		}
		back := int64(binary.LittleEndian.Uint32(dir[e+4:]))
		length := int64(binary.LittleEndian.Uint32(dir[e+8:]))
		start := dirStart - back
		if start < 0 || length < 8 || start+length > dirStart {
			continue
		}
		var rec [8]byte
		if _, err := r.ReadAt(rec[:], start); err != nil {
			continue
		}
		nameLen := int64(binary.LittleEndian.Uint32(rec[4:]))
		if nameLen > 64 || 8+nameLen > length {
			continue
		}
		name := make([]byte, nameLen)
		if _, err := r.ReadAt(name, start+8); err != nil || string(name) != "MotionPhoto_Data" {
			continue
		}
		return start + 8 + nameLen, length - 8 - nameLen, true
	}
	return 0, 0, false
}

// xmpMotionVideo reads the video's length (and the padding after it) at
// the file's end from a motion photo's XMP: a Container:Directory item of
// Item:Semantic "MotionPhoto" (Camera:MotionPhoto 1), or the older
// GCamera:MicroVideo 1 with MicroVideoOffset.
func xmpMotionVideo(head []byte) (length, padding int64, ok bool) {
	start := bytes.Index(head, []byte("<x:xmpmeta"))
	end := bytes.Index(head, []byte("</x:xmpmeta>"))
	if start < 0 || end < start {
		return 0, 0, false
	}
	xmp := head[start:end]
	if i := bytes.Index(xmp, []byte(`Semantic="MotionPhoto"`)); i >= 0 && bytes.Contains(xmp, []byte(`MotionPhoto="1"`)) {
		// The item's attributes: from its element's start to its end.
		from := bytes.LastIndexByte(xmp[:i], '<')
		to := bytes.IndexByte(xmp[i:], '>')
		if from >= 0 && to >= 0 {
			item := xmp[from : i+to]
			length, _ = attribute(item, "Length")
			padding, _ = attribute(item, "Padding")
			return length, padding, length > 0
		}
	}
	if bytes.Contains(xmp, []byte(`MicroVideo="1"`)) {
		length, ok = attribute(xmp, "MicroVideoOffset")
		return length, 0, ok && length > 0
	}
	return 0, 0, false
}

// attribute is the number a namespaced XML attribute ("Item:Length") of
// an element's text holds.
func attribute(element []byte, name string) (int64, bool) {
	i := bytes.Index(element, []byte(":"+name+`="`))
	if i < 0 {
		return 0, false
	}
	v := element[i+len(name)+3:]
	j := bytes.IndexByte(v, '"')
	if j < 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(string(v[:j]), 10, 64)
	return n, err == nil && n >= 0
}
