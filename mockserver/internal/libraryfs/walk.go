package libraryfs

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/mediaspec/mediaspec/mockserver/internal/media"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// MaxDepth bounds how deep below an import path a walk goes: each level
// holds one folder open.
const MaxDepth = 64

// dirChunk is how many entries of a folder a walk reads at a time: a
// folder of a million files costs no more memory than one of a thousand.
const dirChunk = 256

// File is a media file a walk found.
type File struct {
	// Path is the file's path below the import path as the admin named it
	// (made absolute): the asset's originalPath, as the reference's.
	Path string
	// Root is the import path's real path, which the file lies within.
	Root string
	// Type is IMAGE or VIDEO, by the file's extension.
	Type string
}

// Walk calls yield with each media file below the import path dir, in the
// order the folders list them, as the reference's crawl finds them: files
// whose extension the reference takes, not hidden (a name starting with a
// dot, or in such a folder), not excluded by ex. A symbolic link is
// followed only to a file within the import path; a folder is not entered
// through one. An error of yield, or ctx's end, stops the walk and is its
// error; a folder that cannot be read is skipped.
func Walk(ctx context.Context, dir string, ex *Exclusions, yield func(File) error) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	root, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return err
	}
	w := walker{ctx: ctx, root: root, ex: ex, yield: yield}
	return w.folder(abs, root, 0)
}

type walker struct {
	ctx   context.Context
	root  string
	ex    *Exclusions
	yield func(File) error
}

// folder walks the folder named path, whose real path is real.
func (w *walker) folder(path, real string, depth int) error {
	f, err := os.Open(real)
	if err != nil {
		return nil // gone, or unreadable: as the reference's crawl, skipped
	}
	defer f.Close()
	for {
		entries, err := f.ReadDir(dirChunk)
		for _, e := range entries {
			if err := w.entry(e, path, depth); err != nil {
				return err
			}
		}
		if err != nil { // io.EOF at the end
			return nil
		}
	}
}

// entry walks one entry of the folder path.
func (w *walker) entry(e os.DirEntry, dir string, depth int) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	name := e.Name()
	if strings.HasPrefix(name, ".") {
		return nil
	}
	path := filepath.Join(dir, name)
	if w.ex.Match(path) {
		return nil
	}
	switch t := e.Type(); {
	case t.IsDir():
		if depth+1 >= MaxDepth {
			return nil
		}
		// Its real path, checked: a folder swapped for a link that leads
		// out since it was listed is not entered.
		real, err := filepath.EvalSymlinks(path)
		if err != nil || !media.Within(real, w.root) {
			return nil
		}
		return w.folder(path, real, depth+1)
	case t.IsRegular(), t&os.ModeSymlink != 0:
		typ := model.AssetTypeOf(strings.ToLower(filepath.Ext(name)))
		if typ == "" {
			return nil
		}
		if t&os.ModeSymlink != 0 && !w.linkedFile(path) {
			return nil
		}
		return w.yield(File{Path: path, Root: w.root, Type: typ})
	}
	return nil
}

// linkedFile says whether the symbolic link path leads to a regular file
// within the import path.
func (w *walker) linkedFile(path string) bool {
	real, err := filepath.EvalSymlinks(path)
	if err != nil || !media.Within(real, w.root) {
		return false
	}
	info, err := os.Stat(real)
	return err == nil && info.Mode().IsRegular()
}
