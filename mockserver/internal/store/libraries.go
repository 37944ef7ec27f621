package store

import (
	"crypto/sha1"
	"encoding/base64"
	"fmt"
	"maps"
	"slices"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// External libraries: folders on the mock's machine whose media files a
// scan imports as assets of the library's owner. The store keeps the
// libraries and their assets' records; the files stay where they are.

// Bounds of a library's texts: the reference's DTO allows 128 import
// paths and 128 exclusion patterns; a path is as long as Linux allows.
const (
	MaxImportPaths = 128
	MaxPathBytes   = 4096
)

// DefaultLibraryName is the name of a library made without one.
const DefaultLibraryName = "New External Library"

// addLibrary checks l against the state and adds it, recording in tx how
// to take it back.
func (tx *Tx) addLibrary(l model.LibraryRecord) error {
	st := tx.st
	if err := tx.room(); err != nil {
		return err
	}
	switch {
	case l.ID == "" || st.libraryByID[l.ID] != nil:
		return fmt.Errorf("id %q is empty or not unique", l.ID)
	case st.userByID[l.OwnerID] == nil:
		return fmt.Errorf("owner %q is not a user", l.OwnerID)
	}
	if err := checkLibrary(&l); err != nil {
		return err
	}
	if err := inRange(timeField{"createdAt", &l.CreatedAt}, timeField{"updatedAt", &l.UpdatedAt}, timeField{"refreshedAt", l.RefreshedAt}); err != nil {
		return err
	}
	if st.libraryByID == nil {
		st.libraryByID = map[string]*model.LibraryRecord{}
	}
	before := st.libraries
	st.libraries = append(before, &l)
	st.libraryByID[l.ID] = &l
	tx.did(Assets, func() {
		st.libraries = before
		delete(st.libraryByID, l.ID)
	})
	return nil
}

// checkLibrary checks what a library holds, whoever else is stored.
func checkLibrary(l *model.LibraryRecord) error {
	if err := checkText("name", l.Name, MaxNameChars); err != nil {
		return err
	}
	for _, list := range []struct {
		name string
		v    []string
	}{{"importPaths", l.ImportPaths}, {"exclusionPatterns", l.ExclusionPatterns}} {
		if len(list.v) > MaxImportPaths {
			return fmt.Errorf("%s holds %d, over the limit of %d", list.name, len(list.v), MaxImportPaths)
		}
		for _, p := range list.v {
			if len(p) > MaxPathBytes {
				return fmt.Errorf("%s: one is %d bytes long, over the limit of %d", list.name, len(p), MaxPathBytes)
			}
		}
	}
	return nil
}

// Libraries is every library, the oldest first.
func (v *View) Libraries() []*model.LibraryRecord { return slices.Clone(v.st.libraries) }

// Library is the library id, or nil.
func (v *View) Library(id string) *model.LibraryRecord { return v.st.libraryByID[id] }

// libraryAssets calls f with each asset of the library, hidden ones too,
// in the order they were stored.
func (v *View) libraryAssets(l *model.LibraryRecord, f func(a *model.AssetRecord)) {
	for _, a := range v.st.byOwner[l.OwnerID] {
		if a.LibraryID != nil && *a.LibraryID == l.ID {
			f(a)
		}
	}
}

// LibraryAssetCount is how many assets the library holds, trashed and
// offline ones too, as the reference counts them.
func (v *View) LibraryAssetCount(id string) int {
	l := v.st.libraryByID[id]
	if l == nil {
		return 0
	}
	n := 0
	v.libraryAssets(l, func(*model.AssetRecord) { n++ })
	return n
}

// LibraryStatistics counts the library's visible photos and videos and
// the bytes of all its assets, as the reference's query does.
func (v *View) LibraryStatistics(id string) (model.LibraryStats, error) {
	l := v.st.libraryByID[id]
	if l == nil {
		return model.LibraryStats{}, Fail(Invalid, "Library not found")
	}
	var s model.LibraryStats
	v.libraryAssets(l, func(a *model.AssetRecord) {
		switch {
		case !a.IsVisible:
		case a.Type == model.AssetImage:
			s.Photos++
		case a.Type == model.AssetVideo:
			s.Videos++
		}
		s.Usage += assetSize(a)
	})
	s.Total = s.Photos + s.Videos
	return s, nil
}

// LibraryFile is what a scan needs to know of an asset it imported.
type LibraryFile struct {
	ID       string
	Modified model.Time // the file's mtime when it was read
	Offline  bool
}

// LibraryFiles is every asset of the library by its original path; nil
// for no library.
func (v *View) LibraryFiles(id string) map[string]LibraryFile {
	l := v.st.libraryByID[id]
	if l == nil {
		return nil
	}
	out := map[string]LibraryFile{}
	v.libraryAssets(l, func(a *model.AssetRecord) {
		out[a.OriginalPath] = LibraryFile{ID: a.ID, Modified: a.FileModifiedAt, Offline: a.IsOffline}
	})
	return out
}

// NewLibrary is what an admin gives a new library.
type NewLibrary struct {
	OwnerID, Name                  string
	ImportPaths, ExclusionPatterns []string
}

// CreateLibrary makes a library; an owner who is no user is NotFound.
func (tx *Tx) CreateLibrary(n NewLibrary) (*model.LibraryRecord, error) {
	if tx.st.userByID[n.OwnerID] == nil {
		return nil, Fail(NotFound, "user %s not found", n.OwnerID)
	}
	now := tx.Tick()
	l := model.LibraryRecord{
		ID: tx.db.newID(), OwnerID: n.OwnerID, Name: n.Name,
		ImportPaths: orEmpty(n.ImportPaths), ExclusionPatterns: orEmpty(n.ExclusionPatterns),
		CreatedAt: now, UpdatedAt: now,
	}
	if l.Name == "" {
		l.Name = DefaultLibraryName
	}
	if err := tx.addLibrary(l); err != nil {
		return nil, internal(err)
	}
	return tx.st.libraryByID[l.ID], nil
}

func orEmpty(v []string) []string {
	if v == nil {
		return []string{}
	}
	return slices.Clone(v)
}

// LibraryPatch is what an admin changes of a library: nil fields stay.
type LibraryPatch struct {
	Name                           *string
	ImportPaths, ExclusionPatterns []string // nil: unchanged
}

// UpdateLibrary changes a library; no library is NotFound.
func (tx *Tx) UpdateLibrary(id string, p LibraryPatch) (*model.LibraryRecord, error) {
	old := tx.st.libraryByID[id]
	if old == nil {
		return nil, Fail(NotFound, "Library not found")
	}
	l := *old
	if p.Name != nil {
		l.Name = *p.Name
	}
	if p.ImportPaths != nil {
		l.ImportPaths = slices.Clone(p.ImportPaths)
	}
	if p.ExclusionPatterns != nil {
		l.ExclusionPatterns = slices.Clone(p.ExclusionPatterns)
	}
	l.UpdatedAt = tx.Tick()
	return tx.replaceLibrary(old, &l)
}

// SetLibraryRefreshed notes that a scan of the library ended now; a
// library deleted since is no error.
func (tx *Tx) SetLibraryRefreshed(id string) error {
	old := tx.st.libraryByID[id]
	if old == nil {
		return nil
	}
	l := *old
	now := tx.Tick()
	l.RefreshedAt, l.UpdatedAt = &now, now
	_, err := tx.replaceLibrary(old, &l)
	return err
}

func (tx *Tx) replaceLibrary(old, l *model.LibraryRecord) (*model.LibraryRecord, error) {
	if err := checkLibrary(l); err != nil {
		return nil, internal(err)
	}
	st := tx.st
	i := slices.Index(st.libraries, old)
	if i < 0 {
		return nil, internal(fmt.Errorf("library %s is not stored as it was", old.ID))
	}
	before := st.libraries
	st.libraries = slices.Clone(before)
	st.libraries[i] = l
	st.libraryByID[l.ID] = l
	tx.did(Assets, func() {
		st.libraries = before
		st.libraryByID[l.ID] = old
	})
	return l, nil
}

// DeleteLibrary removes a library and every asset of it, from albums,
// links and stacks too, as the reference's deletion job does; the files
// are not touched. It answers the ids of the assets removed.
func (tx *Tx) DeleteLibrary(id string) ([]string, error) {
	l := tx.st.libraryByID[id]
	if l == nil {
		return nil, Fail(NotFound, "Library not found")
	}
	gone := map[string]bool{}
	tx.libraryAssets(l, func(a *model.AssetRecord) { gone[a.ID] = true })
	if err := tx.removeAssetsAnd(gone, func(d *model.Dataset) {
		d.Libraries = slices.DeleteFunc(d.Libraries, func(o model.LibraryRecord) bool { return o.ID == id })
	}); err != nil {
		return nil, err
	}
	return slices.Sorted(maps.Keys(gone)), nil
}

// RemoveOfflineAssets removes the library's offline assets; it answers
// their ids. No library removes nothing, as the reference's job does.
func (tx *Tx) RemoveOfflineAssets(id string) ([]string, error) {
	l := tx.st.libraryByID[id]
	if l == nil {
		return nil, nil
	}
	gone := map[string]bool{}
	tx.libraryAssets(l, func(a *model.AssetRecord) {
		if a.IsOffline {
			gone[a.ID] = true
		}
	})
	if len(gone) == 0 {
		return nil, nil
	}
	if err := tx.removeAssets(gone); err != nil {
		return nil, err
	}
	return slices.Sorted(maps.Keys(gone)), nil
}

// LibraryChecksum is the checksum the reference gives an imported file:
// the SHA-1 of its path, not of its content, which it does not read.
func LibraryChecksum(path string) string {
	sum := sha1.Sum([]byte("path:" + path))
	return base64.StdEncoding.EncodeToString(sum[:])
}

// AddLibraryAssets stores files a scan found as assets of the library's
// owner, each with the reference's path checksum; a path the library
// already holds (two import paths that overlap) is skipped. It answers
// the new assets' ids, "" for one skipped; a library deleted meanwhile is
// NotFound.
func (tx *Tx) AddLibraryAssets(id string, assets []model.AssetRecord) ([]string, error) {
	l := tx.st.libraryByID[id]
	if l == nil {
		return nil, Fail(NotFound, "Library not found")
	}
	now := tx.Tick()
	ids := make([]string, len(assets))
	for i, a := range assets {
		a.OwnerID, a.LibraryID = l.OwnerID, &l.ID
		a.Checksum = LibraryChecksum(a.OriginalPath)
		key, err := checksumKeyOf(&a)
		if err != nil {
			return nil, internal(err)
		}
		if tx.st.bySum[key] != nil {
			continue
		}
		a.ID, a.CreatedAt, a.UpdatedAt = tx.db.newID(), now, now
		if err := tx.addAsset(a); err != nil {
			return nil, internal(err)
		}
		ids[i] = a.ID
	}
	return ids, nil
}

// RefreshLibraryAsset puts what a scan read anew of a file on its asset
// (its metadata, its mtime; online again), keeping who and what it is.
func (tx *Tx) RefreshLibraryAsset(id string, read model.AssetRecord) error {
	old := tx.st.assetBy[id]
	if old == nil || old.LibraryID == nil {
		return nil // gone meanwhile
	}
	a := *old
	a.Type, a.OriginalFileName, a.Duration = read.Type, read.OriginalFileName, read.Duration
	a.FileCreatedAt, a.FileModifiedAt, a.LocalDateTime = read.FileCreatedAt, read.FileModifiedAt, read.LocalDateTime
	a.ExifInfo, a.HasMetadata, a.IsOffline = read.ExifInfo, read.HasMetadata, false
	a.UpdatedAt = tx.Tick()
	if err := tx.replaceAsset(old, &a); err != nil {
		return internal(err)
	}
	st, used := tx.st, tx.st.usage[a.OwnerID]
	st.usage[a.OwnerID] = used + assetSize(&a) - assetSize(old)
	tx.did(Assets, func() { st.usage[a.OwnerID] = used })
	return nil
}

// SetOffline marks the library's assets ids offline (or online again).
func (tx *Tx) SetOffline(ids []string, offline bool) error {
	for _, id := range ids {
		old := tx.st.assetBy[id]
		if old == nil || old.LibraryID == nil || old.IsOffline == offline {
			continue
		}
		a := *old
		a.IsOffline = offline
		if err := tx.replaceAsset(old, &a); err != nil {
			return internal(err)
		}
	}
	return nil
}
