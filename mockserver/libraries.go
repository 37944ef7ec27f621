package mockserver

import (
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"time"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// WithImportedLibrary is d with an external library of the folders dirs
// (made absolute) for its default user (its first), named after the first
// folder, for `serve --import`: with Config.ScanLibraries the mock scans
// it at start, and a frontend shows the developer's own pictures. Its id
// is derived from the folders, so that the same folders make the same
// library.
func WithImportedLibrary(d model.Dataset, dirs []string, now time.Time) (model.Dataset, error) {
	if len(d.Users) == 0 {
		return d, fmt.Errorf("no user to own the library")
	}
	abs := make([]string, len(dirs))
	h := sha256.New()
	for i, dir := range dirs {
		a, err := filepath.Abs(dir)
		if err != nil {
			return d, err
		}
		abs[i] = a
		h.Write([]byte(a + "\x00"))
	}
	sum := h.Sum(nil)
	sum[6] = sum[6]&0x0f | 0x40 // a version 4 UUID, as every id of the mock
	sum[8] = sum[8]&0x3f | 0x80
	id := fmt.Sprintf("%x-%x-%x-%x-%x", sum[0:4], sum[4:6], sum[6:8], sum[8:10], sum[10:16])
	for _, l := range d.Libraries {
		if l.ID == id {
			return d, nil // a dataset saved with it
		}
	}
	at := model.At(now)
	d.Libraries = append(d.Libraries, model.LibraryRecord{
		ID: id, OwnerID: d.Users[0].ID, Name: filepath.Base(abs[0]),
		ImportPaths: abs, ExclusionPatterns: []string{}, CreatedAt: at, UpdatedAt: at,
	})
	return d, nil
}
