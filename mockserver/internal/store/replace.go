package store

import (
	"fmt"
	"slices"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Replacement is what replacing an asset's file did: the trashed copy that
// keeps the old file, or the owner's asset the new file duplicates (then
// nothing changed).
type Replacement struct {
	CopyID      string
	DuplicateOf string
}

// ReplaceFile is PUT /api/asset/{id}/file: one of the user's assets (in the
// trash too) gets the file of upload, keeping its id, albums, flags,
// people and stack, and a new asset, at once in the trash, keeps the old
// file and what was read of it, as the reference's copy does. A file the
// user holds already (this asset's own, a trashed one's) is a duplicate,
// and changes nothing (the reference changes the asset before it finds
// out). upload is the record an upload of the file would make.
func (tx *Tx) ReplaceFile(userID, id string, upload model.AssetRecord) (Replacement, error) {
	st := tx.st
	old, err := tx.ownAsset(userID, id, "asset.update")
	if err != nil {
		return Replacement{}, err
	}
	upload.OwnerID = userID
	key, err := checksumKeyOf(&upload)
	if err != nil {
		return Replacement{}, internal(err)
	}
	if q := st.userByID[userID].QuotaSizeInBytes; q != nil && st.usage[userID]+assetSize(&upload) > *q {
		return Replacement{}, Fail(Invalid, "Quota has been exceeded!")
	}
	if dup := st.bySum[key]; dup != nil {
		return Replacement{DuplicateOf: dup.ID}, nil
	}
	now := tx.Tick()
	cp := model.AssetRecord{
		ID: tx.db.newID(), OwnerID: old.OwnerID, DeviceAssetID: old.DeviceAssetID, DeviceID: old.DeviceID,
		Type: old.Type, OriginalPath: old.OriginalPath, OriginalFileName: old.OriginalFileName,
		Checksum: old.Checksum, Thumbhash: old.Thumbhash, Duration: old.Duration,
		FileCreatedAt: old.FileCreatedAt, FileModifiedAt: old.FileModifiedAt, LocalDateTime: old.LocalDateTime,
		CreatedAt: now, UpdatedAt: now, IsTrashed: true, IsVisible: true, HasMetadata: old.HasMetadata,
		Resized: old.Resized, LibraryID: old.LibraryID, LivePhotoVideoID: old.LivePhotoVideoID, ExifInfo: old.ExifInfo,
	}
	a := *old
	a.Checksum, a.Type, a.OriginalPath, a.OriginalFileName = upload.Checksum, upload.Type, upload.OriginalPath, upload.OriginalFileName
	a.DeviceAssetID, a.DeviceID, a.Duration = upload.DeviceAssetID, upload.DeviceID, upload.Duration
	a.FileCreatedAt, a.FileModifiedAt, a.LocalDateTime = upload.FileCreatedAt, upload.FileModifiedAt, upload.LocalDateTime
	a.ExifInfo, a.HasMetadata, a.Thumbhash, a.Resized = upload.ExifInfo, upload.HasMetadata, nil, false
	a.LivePhotoVideoID, a.UpdatedAt = nil, now
	if err := tx.rebuildWith(&a, cp); err != nil {
		return Replacement{}, err
	}
	return Replacement{CopyID: cp.ID}, nil
}

// rebuildWith builds the state anew with a in the place of the stored
// asset of its id, and added after the uploads: every index (checksums,
// stacks, owners, usage) follows, as for assets removed.
func (tx *Tx) rebuildWith(a *model.AssetRecord, added model.AssetRecord) error {
	d := tx.db.recordsLocked().Dataset()
	i := slices.IndexFunc(d.Assets, func(o model.AssetRecord) bool { return o.ID == a.ID })
	if i < 0 {
		return internal(fmt.Errorf("asset %s is not stored", a.ID))
	}
	d.Assets[i] = *a
	d.Assets = append(d.Assets, added)
	next, err := newState(d, tx.st.maxListed)
	if err != nil {
		return internal(err)
	}
	next.loaded = tx.st.loaded
	next.base, next.maxMade = tx.st.base, tx.st.maxMade
	prev := tx.st
	tx.db.state, tx.st = next, next
	tx.did(Everything, func() { tx.db.state, tx.st = prev, prev })
	return nil
}
