package media

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The originals of an external library's assets stay where they are: the
// folder names them (Link), and Open reads them in place, read-only, never
// copying them into the folder. A file is opened only while it still lies
// within the folder it was found in: a symbolic link put in its place, or
// in the place of a folder above it, that leads out is refused.

// external is a file outside the media folder that is an asset's
// original: its path, and the real path of the import folder it must
// stay within.
type external struct {
	path, root string
}

// Link makes the file at path, found in the import folder whose real path
// is root, the original of the asset key. Its bytes are not read.
func (m *Folder) Link(key, path, root string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.external == nil {
		m.external = map[string]external{}
	}
	m.external[key] = external{path: path, root: root}
}

// Unlink forgets the originals of the assets keys (gone from the store).
func (m *Folder) Unlink(keys ...string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, k := range keys {
		delete(m.external, k)
	}
}

// Linked is how many assets' originals lie outside the folder: a few
// bytes of memory each, let go of once their assets are gone.
func (m *Folder) Linked() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.external)
}

// linked is the file the asset key's original is, if it is one.
func (m *Folder) linked(key string) (external, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.external[key]
	return e, ok
}

// openExternal opens a linked original for reading, with its size and
// mtime; a file that vanished, is no regular file, or leads out of its
// import folder, is not there.
func openExternal(e external) (*KeptFile, time.Time, bool) {
	f, err := OpenWithin(e.path, e.root)
	if err != nil {
		return nil, time.Time{}, false
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, time.Time{}, false
	}
	return &KeptFile{SectionReader: io.NewSectionReader(f, 0, info.Size()), file: f}, info.ModTime(), true
}

// ErrOutside is the error of OpenWithin for a file that is not a regular
// file within its folder.
var ErrOutside = errors.New("not a regular file within its import folder")

// OpenWithin opens the regular file at path for reading only if its real
// path lies within root (a real path itself): a symbolic link that leads
// out, anywhere on the way, is not followed.
func OpenWithin(path, root string) (*os.File, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, err
	}
	if !Within(real, root) {
		return nil, fmt.Errorf("%s: %w", path, ErrOutside)
	}
	// O_NOFOLLOW: the real path's last element cannot have become a link
	// since it was resolved.
	f, err := os.OpenFile(real, os.O_RDONLY|noFollow, 0)
	if err != nil {
		return nil, err
	}
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, ErrOutside)
	}
	return f, nil
}

// Within says whether path is root or lies below it (both clean and
// absolute).
func Within(path, root string) bool {
	return path == root || strings.HasPrefix(path, strings.TrimSuffix(root, string(filepath.Separator))+string(filepath.Separator))
}
