// Package libraryfs reads the folders of an external library as the
// reference's scan does: whether an import path will do (its messages),
// the media files below it in streaming order, and the exclusion patterns
// that leave some out. It only reads: it never writes, removes or renames
// anything, it reads nothing outside an import path, and it follows no
// symbolic link that leads out of one.
package libraryfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/mediaspec/mediaspec/mockserver/internal/media"
)

// The reference's messages for an import path that will not do.
const (
	MsgMediaFolder = "Cannot use media upload folder for external libraries"
	MsgNotExist    = "Path does not exist (ENOENT)"
	MsgNotDir      = "Not a directory"
	MsgNoRead      = "Lacking read permission for folder"
)

// Check judges an import path as the reference's validateImportPath does,
// and answers "" for one that will do, else its message. A relative path
// is judged from the working directory, as the reference judges it;
// mediaDir (absolute; "" for none) is the mock's media folder, which no
// library may read.
func Check(path, mediaDir string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err.Error()
	}
	if mediaDir != "" && media.Within(abs, mediaDir) {
		return MsgMediaFolder
	}
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return MsgNotExist
	case err != nil:
		return nodeError(err, path)
	case !info.IsDir():
		return MsgNotDir
	}
	if !readable(path) {
		return MsgNoRead
	}
	return ""
}

// nodeError is err as Node.js writes an error of fs.stat: its code, its
// description, the call and the path.
func nodeError(err error, path string) string {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return "Error: " + err.Error()
	}
	code, text := errnoName(errno)
	return fmt.Sprintf("Error: %s: %s, stat '%s'", code, text, path)
}

// errnoName is libuv's name and description of an errno.
func errnoName(e syscall.Errno) (code, text string) {
	switch e {
	case syscall.EACCES:
		return "EACCES", "permission denied"
	case syscall.ENOTDIR:
		return "ENOTDIR", "not a directory"
	case syscall.ENAMETOOLONG:
		return "ENAMETOOLONG", "name too long"
	case syscall.ELOOP:
		return "ELOOP", "too many symbolic links encountered"
	case syscall.EIO:
		return "EIO", "i/o error"
	}
	return "E" + fmt.Sprint(int(e)), e.Error()
}
