package steps

import (
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"path"
	"strings"

	"github.com/mediaspec/mediaspec/fixtures"
)

// file is a file the harness uploads: a name and bytes no server has seen.
type file struct {
	name    string
	content []byte
}

func (f *file) sha1() [20]byte { return sha1.Sum(f.content) }

// checksumBase64 is the file's SHA-1 as assets show it.
func (f *file) checksumBase64() string {
	s := f.sha1()
	return base64.StdEncoding.EncodeToString(s[:])
}

func (f *file) checksumHex() string {
	s := f.sha1()
	return hex.EncodeToString(s[:])
}

// fixtureFor names the real media file a new file of this name is made
// from: the fixture of that name, else one of the same kind.
func fixtureFor(name string) string {
	for _, n := range fixtures.Names() {
		if n == name {
			return n
		}
	}
	switch strings.ToLower(path.Ext(name)) {
	case ".jpg", ".jpeg", ".jpe":
		return fixtures.LisbonJPEG
	case ".heic", ".heif":
		return fixtures.LisbonHEIC
	case ".png":
		return fixtures.ScreenshotPNG
	case ".arw", ".dng", ".tif", ".tiff":
		return fixtures.CapeTownARW
	case ".mp4", ".mov", ".m4v", ".3gp":
		return fixtures.ClipMP4
	case ".xmp":
		return fixtures.LisbonXMP
	}
	return ""
}

// newFile makes a file called name that no server has seen: a real media
// file of its kind, made unique with random bytes placed where readers of
// that format ignore them, so that every scenario uploads new content and
// scenarios can run at once, and again, against a server that keeps its data.
func newFile(name string) *file {
	marker := make([]byte, 16)
	_, _ = rand.Read(marker)
	tag := "mediaspec-conformance-" + hex.EncodeToString(marker)

	fixture := fixtureFor(name)
	if fixture == "" { // a name of no media kind: any bytes will do
		return &file{name: name, content: []byte("notes of a conformance run\n" + tag + "\n")}
	}
	base, err := fixtures.ReadFile(fixture)
	if err != nil {
		panic("steps: the embedded fixture " + fixture + " cannot be read: " + err.Error()) // a bug of the build, not of the server
	}
	content := make([]byte, 0, len(base)+64)
	content = append(content, base...)
	switch strings.ToLower(path.Ext(fixture)) {
	case ".mp4", ".heic":
		// An ISO base media file ends with a box of its own: 'free' boxes
		// are for padding and every reader skips them.
		content = binary.BigEndian.AppendUint32(content, uint32(8+len(tag)))
		content = append(content, "free"...)
		content = append(content, tag...)
	case ".xmp":
		content = append(content, "\n<!-- "+tag+" -->\n"...)
	default:
		// JPEG after its end-of-image marker, PNG after IEND, TIFF after
		// the data its offsets point to: readers stop before.
		content = append(content, tag...)
	}
	return &file{name: name, content: content}
}

// randomChecksum is the SHA-1 of bytes no server has seen, in base64.
func randomChecksum() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	s := sha1.Sum(b)
	return base64.StdEncoding.EncodeToString(s[:])
}

// randomHex is n random bytes in hex, for unique names.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
