package mockserver

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"

	"github.com/mediaspec/mediaspec/mockserver/pictures"
)

// media is the folder where uploads are kept: each original as it came,
// and the thumbnail and preview made from it.
//
//	DIR/originals/<asset id>
//	DIR/thumbs/<asset id>.webp
//	DIR/previews/<asset id>.jpeg
//	DIR/incoming/            files still arriving
//	DIR/placeholders/        the pictures of files that cannot be decoded, by size
type media struct {
	dir string
	// open holds a place for each upload file open: each takes a file
	// descriptor, beside its connection's (DefaultMaxUploadFiles).
	open chan struct{}
}

// DefaultMaxUploadFiles is how many uploads may be writing their files at
// once: a tenth of the process's file descriptors, which
// DefaultMaxConnections leaves beside the connections; 512 where the limit
// cannot be read. One more is answered 503 before its file is opened, and
// the mock never runs out of descriptors, whatever its clients do.
func DefaultMaxUploadFiles() int {
	n, ok := fileLimit()
	if !ok {
		return 512
	}
	return int(max(16, min(n/10, 10_000)/2))
}

var mediaFolders = []string{"originals", "thumbs", "previews", "incoming", "placeholders"}

func openMedia(dir string, maxFiles int) (*media, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("media folder: %w", err)
	}
	for _, f := range mediaFolders {
		if err := os.MkdirAll(filepath.Join(dir, f), 0o750); err != nil {
			return nil, fmt.Errorf("media folder: %w", err)
		}
	}
	// Files a mock stopped in the middle of left arriving belong to no
	// asset: a reused folder starts without them.
	left, err := os.ReadDir(filepath.Join(dir, "incoming"))
	if err != nil {
		return nil, fmt.Errorf("media folder: %w", err)
	}
	for _, e := range left {
		if err := os.Remove(filepath.Join(dir, "incoming", e.Name())); err != nil {
			return nil, fmt.Errorf("media folder: %w", err)
		}
	}
	if maxFiles <= 0 {
		maxFiles = DefaultMaxUploadFiles()
	}
	return &media{dir: dir, open: make(chan struct{}, maxFiles)}, nil
}

// errTooManyFiles is the answer to an upload while every place for an
// upload file is taken.
var errTooManyFiles = errorf(http.StatusServiceUnavailable, "Too many uploads are arriving at once; try again in a moment")

// incoming is a new file for an upload that is arriving, and how to close
// it, which frees its place.
func (m *media) incoming() (*os.File, func(), error) {
	select {
	case m.open <- struct{}{}:
	default:
		return nil, nil, errTooManyFiles
	}
	f, err := os.CreateTemp(filepath.Join(m.dir, "incoming"), "upload-")
	if err != nil {
		<-m.open
		return nil, nil, internal(fmt.Errorf("a file for the upload: %w", err))
	}
	return f, func() {
		_ = f.Close()
		<-m.open
	}, nil
}

// keep makes an arrived file the original of an asset.
func (m *media) keep(incoming, id string) error {
	if err := os.Rename(incoming, m.original(id)); err != nil {
		return fmt.Errorf("keeping the original of %s: %w", id, err)
	}
	return nil
}

// drop removes an arrived file no asset keeps (a duplicate, a refused
// upload); one already kept or removed is no error.
func (m *media) drop(incoming string) error {
	if err := os.Remove(incoming); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("dropping an upload's file: %w", err)
	}
	return nil
}

// has reports whether the asset id's original is kept.
func (m *media) has(id string) bool {
	_, err := os.Stat(m.original(id))
	return err == nil
}

func (m *media) original(id string) string { return filepath.Join(m.dir, "originals", id) }
func (m *media) thumb(id string) string    { return filepath.Join(m.dir, "thumbs", id+".webp") }
func (m *media) preview(id string) string  { return filepath.Join(m.dir, "previews", id+".jpeg") }

func (m *media) placeholder(kind pictures.Kind, w, h int, ext string) string {
	name := "still"
	if kind == pictures.Video {
		name = "video"
	}
	return filepath.Join(m.dir, "placeholders", fmt.Sprintf("%s-%dx%d%s", name, w, h, ext))
}

// link makes path name the same file as from: a placeholder's pictures are
// one file, whatever the uploads that show it. Where links cannot be made,
// it is copied.
func (m *media) link(from, path string) error {
	_ = os.Remove(path)
	if err := os.Link(from, path); err == nil {
		return nil
	}
	body, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return m.write(path, body)
}

// write writes a made picture, whole or not at all.
func (m *media) write(path string, body []byte) error {
	tmp, err := os.CreateTemp(filepath.Join(m.dir, "incoming"), "picture-")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(body); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
