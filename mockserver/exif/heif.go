package exif

import (
	"encoding/binary"
	"errors"
	"io"
)

// maxMetaBox bounds the meta box heifPrimary reads whole: a phone's is a
// few KiB (Samsung's 3 KiB, with 80 items).
const maxMetaBox = 1 << 20

// maxTopBoxes bounds the top-level boxes walked to find the meta box.
const maxTopBoxes = 64

// heifPrimary is the size (ispe) of a HEIF file's primary item as it is
// stored, before its rotation (irot), as exiftool's ImageWidth and
// ImageHeight give it; imagemeta gives it rotated. The meta box is found
// wherever it lies among the top-level boxes.
func heifPrimary(r io.ReadSeeker) (w, h int, err error) {
	w, h, _, err = heifItem(r)
	return w, h, err
}

// HEIFTurns reports whether a HEIF file's primary item is turned or
// mirrored by its own properties (irot, imir), which its decoder applies:
// its EXIF orientation (Samsung's phones write both) then says the same
// once more, and must not turn it again.
func HEIFTurns(r io.ReadSeeker) bool {
	head := make([]byte, 4096)
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return false
	}
	n, _ := io.ReadFull(r, head)
	if !isHEIF(head[:n]) {
		return false
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return false
	}
	_, _, turns, err := heifItem(r)
	return err == nil && turns
}

// heifItem is the size of a HEIF file's primary item, and whether it has
// a rotation or mirroring.
func heifItem(r io.ReadSeeker) (w, h int, turns bool, err error) {
	meta, err := topBox(r, "meta")
	if err != nil {
		return 0, 0, false, err
	}
	if len(meta) < 4 {
		return 0, 0, false, errors.New("heif: a short meta box")
	}
	var primary uint32
	var props [][]byte // ipco's properties, by index - 1
	var assoc []byte   // ipma's body
	walk(meta[4:], func(typ string, body []byte) {
		switch typ {
		case "pitm":
			if len(body) >= 6 && body[0] == 0 {
				primary = uint32(binary.BigEndian.Uint16(body[4:]))
			} else if len(body) >= 8 {
				primary = binary.BigEndian.Uint32(body[4:])
			}
		case "iprp":
			walk(body, func(typ string, body []byte) {
				switch typ {
				case "ipco":
					walk(body, func(typ string, body []byte) {
						props = append(props, append([]byte(typ), body...))
					})
				case "ipma":
					assoc = body
				}
			})
		}
	})
	for _, i := range associated(assoc, primary) {
		if i < 1 || i > len(props) {
			continue
		}
		switch p := props[i-1]; {
		case string(p[:4]) == "ispe" && len(p) >= 16:
			w, h = int(binary.BigEndian.Uint32(p[8:])), int(binary.BigEndian.Uint32(p[12:]))
		case string(p[:4]) == "irot" && len(p) >= 5 && p[4]&3 != 0, string(p[:4]) == "imir":
			turns = true
		}
	}
	if w == 0 || h == 0 {
		return 0, 0, false, errors.New("heif: no size for the primary item")
	}
	return w, h, turns, nil
}

// topBox reads the body of the first top-level box of type typ.
func topBox(r io.ReadSeeker, typ string) ([]byte, error) {
	var at int64
	hdr := make([]byte, 16)
	for range maxTopBoxes {
		if _, err := r.Seek(at, io.SeekStart); err != nil {
			return nil, err
		}
		if _, err := io.ReadFull(r, hdr[:8]); err != nil {
			return nil, err
		}
		size, head := int64(binary.BigEndian.Uint32(hdr)), int64(8)
		if size == 1 {
			if _, err := io.ReadFull(r, hdr[8:16]); err != nil {
				return nil, err
			}
			size, head = int64(binary.BigEndian.Uint64(hdr[8:])), 16
		}
		if string(hdr[4:8]) == typ {
			if size < head || size-head > maxMetaBox {
				return nil, errors.New("heif: a meta box of an unlikely size")
			}
			body := make([]byte, size-head)
			_, err := io.ReadFull(r, body)
			return body, err
		}
		if size < head {
			break // 0: the box runs to the end
		}
		at += size
	}
	return nil, errors.New("heif: no meta box")
}

// walk calls fn for each box of a box's body.
func walk(b []byte, fn func(typ string, body []byte)) {
	for len(b) >= 8 {
		size := int(binary.BigEndian.Uint32(b))
		if size < 8 || size > len(b) {
			return
		}
		fn(string(b[4:8]), b[8:size])
		b = b[size:]
	}
}

// associated is the property indices ipma gives an item.
func associated(ipma []byte, item uint32) []int {
	if len(ipma) < 8 {
		return nil
	}
	version, flags := ipma[0], ipma[3]
	count := binary.BigEndian.Uint32(ipma[4:])
	b := ipma[8:]
	for range min(count, 1<<16) {
		var id uint32
		if version < 1 {
			if len(b) < 3 {
				return nil
			}
			id, b = uint32(binary.BigEndian.Uint16(b)), b[2:]
		} else {
			if len(b) < 5 {
				return nil
			}
			id, b = binary.BigEndian.Uint32(b), b[4:]
		}
		n := int(b[0])
		b = b[1:]
		var out []int
		for range n {
			if flags&1 == 1 {
				if len(b) < 2 {
					return nil
				}
				out, b = append(out, int(binary.BigEndian.Uint16(b)&0x7fff)), b[2:]
			} else {
				if len(b) < 1 {
					return nil
				}
				out, b = append(out, int(b[0]&0x7f)), b[1:]
			}
		}
		if id == item {
			return out
		}
	}
	return nil
}
