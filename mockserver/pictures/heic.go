package pictures

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"io"
	"sync"

	"github.com/gen2brain/heic"
)

// maxHEICBytes bounds the HEIC file decoded: the decoder reads a file
// whole, and a phone's HEIC is a few MiB.
const maxHEICBytes = 64 << 20

// heicBrands are the ftyp brands of HEIF files whose pictures are HEVC.
var heicBrands = map[string]bool{
	"heic": true, "heix": true, "heim": true, "heis": true,
	"hevc": true, "hevx": true, "mif1": true, "msf1": true,
}

// isHEIC reports whether head starts a HEIF file of HEVC pictures.
func isHEIC(head []byte) bool {
	return len(head) >= 12 && string(head[4:8]) == "ftyp" && heicBrands[string(head[8:12])]
}

// isAVIF reports whether head starts an AVIF file: an ftyp box whose major
// brand is avif or avis, or a HEIF (mif1, msf1) that names avif among its
// brands and not heic.
func isAVIF(head []byte) bool {
	if len(head) < 16 || string(head[4:8]) != "ftyp" {
		return false
	}
	size := min(len(head), int(binary.BigEndian.Uint32(head)))
	brands := map[string]bool{}
	for i := 16; i+4 <= size; i += 4 {
		brands[string(head[i:i+4])] = true
	}
	switch major := string(head[8:12]); major {
	case "avif", "avis":
		return true
	case "mif1", "msf1":
		return (brands["avif"] || brands["avis"]) && !brands["heic"] && !brands["heix"]
	}
	return false
}

// isJXL reports whether head starts a JPEG XL file: a bare codestream, or
// one in its ISO media container.
func isJXL(head []byte) bool {
	return bytes.HasPrefix(head, []byte{0xff, 0x0a}) || bytes.HasPrefix(head, []byte("\x00\x00\x00\x0cJXL \x0d\x0a\x87\x0a"))
}

// heicDecoder serialises the HEIC decoder. github.com/gen2brain/heic
// v0.1.0 runs libheif and libde265, compiled to WebAssembly, in one wazero
// module of the process: its calls must not overlap, and the pixels it hands
// back live in that module's memory until the next call, so they are copied
// out before the lock is let go. Later versions of the module open a system
// libheif when there is one, which makes the binary dynamically linked
// (TestBinaryIsStatic) and its pictures depend on the host.
var heicDecoder sync.Mutex

// decodeHEIC decodes the primary picture of a HEIC file after checking the
// size it declares against maxPixels.
func decodeHEIC(r io.ReadSeeker, maxPixels int) (img image.Image, err error) {
	size, err := r.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, fmt.Errorf("pictures: %w", err)
	}
	if size > maxHEICBytes {
		return nil, fmt.Errorf("%w: a HEIC file of %d bytes", ErrTooLarge, size)
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("pictures: %w", err)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("pictures: %w", err)
	}
	heicDecoder.Lock()
	defer heicDecoder.Unlock()
	defer func() {
		if v := recover(); v != nil {
			img, err = nil, fmt.Errorf("pictures: the HEIC decoder failed: %v", v)
		}
	}()
	cfg, err := heic.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("pictures: %w", err)
	}
	if cfg.Width < 1 || cfg.Height < 1 || int64(cfg.Width)*int64(cfg.Height) > int64(maxPixels) {
		return nil, fmt.Errorf("%w: %d×%d", ErrTooLarge, cfg.Width, cfg.Height)
	}
	decoded, err := heic.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("pictures: %w", err)
	}
	return ownPixels(decoded)
}

// ownPixels copies the decoder's picture into memory of the Go heap.
func ownPixels(img image.Image) (image.Image, error) {
	switch p := img.(type) {
	case *image.NRGBA:
		out := image.NewNRGBA(p.Rect)
		copy(out.Pix, p.Pix)
		return out, nil
	case *image.RGBA:
		out := image.NewRGBA(p.Rect)
		copy(out.Pix, p.Pix)
		return out, nil
	}
	return nil, errors.New("pictures: the HEIC decoder gave an unexpected picture")
}
