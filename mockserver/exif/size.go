package exif

import (
	"bytes"
	"encoding/binary"
	"io"
)

// Size is the size a HEIF (HEIC, AVIF) or JPEG XL file declares for its
// picture, for files whose EXIF gives none: the reference names it
// (exiftool's ImageWidth) whatever else the file holds. HEIF's is its
// primary item's ispe property, read from a meta box that may lie past
// the head; JPEG XL's is its codestream's size header.
func Size(r io.ReadSeeker) (w, h int, ok bool) {
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return 0, 0, false
	}
	head := make([]byte, 4096)
	n, _ := io.ReadFull(r, head)
	head = head[:n]
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return 0, 0, false
	}
	switch {
	case isHEIF(head):
		w, h, err := heifPrimary(r)
		return w, h, err == nil && w > 0 && h > 0
	case IsJXL(head):
		return jxlSize(head)
	}
	return 0, 0, false
}

// jxlContainer starts a JPEG XL file in its ISO media container; a bare
// codestream starts with jxlCodestream.
var (
	jxlContainer  = []byte("\x00\x00\x00\x0cJXL \x0d\x0a\x87\x0a")
	jxlCodestream = []byte{0xff, 0x0a}
)

// IsJXL reports whether head starts a JPEG XL file, bare or contained.
func IsJXL(head []byte) bool {
	return bytes.HasPrefix(head, jxlCodestream) || bytes.HasPrefix(head, jxlContainer)
}

// jxlSize reads the SizeHeader of a JPEG XL codestream (ISO/IEC 18181-1,
// A.3.1), found in the container's jxlc box or first jxlp box when there
// is one.
func jxlSize(head []byte) (w, h int, ok bool) {
	code := head
	if bytes.HasPrefix(head, jxlContainer) {
		code = nil
		for at := len(jxlContainer); at+8 <= len(head); {
			size := int(binary.BigEndian.Uint32(head[at:]))
			typ := string(head[at+4 : at+8])
			body := at + 8
			if size == 1 && at+16 <= len(head) {
				body = at + 16
				size = int(min(binary.BigEndian.Uint64(head[at+8:]), 1<<31))
			}
			if typ == "jxlc" {
				code = head[body:]
				break
			}
			if typ == "jxlp" && body+4 <= len(head) {
				code = head[body+4:] // after the part's index
				break
			}
			if size < 8 {
				break
			}
			at += size
		}
	}
	if !bytes.HasPrefix(code, jxlCodestream) {
		return 0, 0, false
	}
	b := bits{data: code[2:]}
	u32 := func() int {
		// U32(1 + u(9), 1 + u(13), 1 + u(18), 1 + u(30))
		return 1 + b.read([4]int{9, 13, 18, 30}[b.read(2)])
	}
	small := b.read(1) == 1
	if small {
		h = 8 * (1 + b.read(5))
	} else {
		h = u32()
	}
	switch ratio := b.read(3); {
	case ratio != 0:
		num := [8]int{0, 1, 12, 4, 3, 16, 5, 2}[ratio]
		den := [8]int{0, 1, 10, 3, 2, 9, 4, 1}[ratio]
		w = h * num / den
	case small:
		w = 8 * (1 + b.read(5))
	default:
		w = u32()
	}
	return w, h, !b.short && w > 0 && h > 0
}

// bits reads a JPEG XL bit stream: least significant bit first.
type bits struct {
	data  []byte
	at    int // in bits
	short bool
}

func (b *bits) read(n int) int {
	v := 0
	for i := range n {
		if b.at/8 >= len(b.data) {
			b.short = true
			return 0
		}
		v |= int(b.data[b.at/8]>>(b.at%8)&1) << i
		b.at++
	}
	return v
}
