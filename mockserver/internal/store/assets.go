package store

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Assets: the store's side of uploads, of the uploader's batch check, of
// reading one asset and of who may see an asset's pictures.

// DecodeChecksum reads a SHA-1 written as base64 (28 characters) or hex
// (40 characters), as clients send it in the checksum header.
func DecodeChecksum(v string) ([20]byte, bool) { return decodeChecksum(v) }

// Upload is what an upload stored: the asset's id, or the id of the
// owner's asset of the same content, which makes it a duplicate.
type Upload struct {
	ID        string
	Duplicate bool
	// LiveVideoID is the id of the live photo's video, new or the owner's
	// of the same content; "" without one.
	LiveVideoID string
}

// AddUpload stores an asset uploaded by the owner, and the hidden video of
// a live photo, unless the owner has an asset of the same content: then it
// answers that asset's id as a duplicate and stores nothing. Checking and
// adding in one write makes identical concurrent uploads create exactly
// one asset. The store gives the records their ids and times.
func (tx *Tx) AddUpload(owner string, a model.AssetRecord, live *model.AssetRecord) (Upload, error) {
	st := tx.st
	u := st.userByID[owner]
	if u == nil { // the user went away with a reset while the body streamed in
		return Upload{}, Fail(Unauthenticated, "Invalid API key")
	}
	a.OwnerID = owner
	key, err := checksumKeyOf(&a)
	if err != nil {
		return Upload{}, internal(err)
	}
	if dup := st.bySum[key]; dup != nil {
		return Upload{ID: dup.ID, Duplicate: true}, nil
	}
	var liveDup *model.AssetRecord
	size := assetSize(&a)
	if live != nil {
		live.OwnerID = owner
		if live.Checksum == a.Checksum {
			return Upload{}, Fail(Invalid, "livePhotoData is the same file as assetData")
		}
		key, err := checksumKeyOf(live)
		if err != nil {
			return Upload{}, internal(err)
		}
		switch liveDup = st.bySum[key]; {
		case liveDup == nil:
			size += assetSize(live)
		case liveDup.Type != model.AssetVideo:
			return Upload{}, Fail(Invalid, "livePhotoData is the same file as the %s asset %s, not a video", liveDup.Type, liveDup.ID)
		}
	}
	if q := u.QuotaSizeInBytes; q != nil && st.usage[u.ID]+size > *q {
		return Upload{}, Fail(Invalid, "Quota has been exceeded!")
	}
	now := tx.Tick()
	var res Upload
	if live != nil {
		if liveDup == nil {
			v := *live
			v.ID, v.CreatedAt, v.UpdatedAt = tx.db.newID(), now, now
			if err := tx.addAsset(v); err != nil {
				return Upload{}, internal(fmt.Errorf("the live photo's video: %w", err))
			}
			liveDup = st.assetBy[v.ID]
		}
		a.LivePhotoVideoID = &liveDup.ID
		res.LiveVideoID = liveDup.ID
	}
	a.ID, a.CreatedAt, a.UpdatedAt = tx.db.newID(), now, now
	if err := tx.addAsset(a); err != nil {
		return Upload{}, internal(fmt.Errorf("the upload: %w", err))
	}
	res.ID = a.ID
	return res, nil
}

// BulkCheckItem is one file of the uploader's batch: its id in the batch
// and its SHA-1, as the client wrote it.
type BulkCheckItem struct {
	ID, Checksum string
}

// bulkCheckSum reads a batch check's checksum as the reference does: 28
// characters are base64, anything else hex (either case). The bool is
// false for a checksum that does not decode, which is no duplicate.
func bulkCheckSum(v string) ([20]byte, bool) {
	var sum [20]byte
	var b []byte
	var err error
	if len(v) == 28 {
		b, err = base64.StdEncoding.DecodeString(v)
	} else {
		b, err = hex.DecodeString(v)
	}
	if err != nil || len(b) != len(sum) {
		return sum, false
	}
	copy(sum[:], b)
	return sum, true
}

// BulkCheck answers, in order, whether the owner already has each file:
// reject as a duplicate, with the asset's id, or accept. One lookup per
// item.
func (v *View) BulkCheck(owner string, items []BulkCheckItem) []model.BulkCheckResult {
	out := make([]model.BulkCheckResult, len(items))
	for i, it := range items {
		out[i] = model.BulkCheckResult{ID: it.ID, Action: "accept"}
		if sum, ok := bulkCheckSum(it.Checksum); ok {
			if a := v.AssetByChecksum(owner, sum); a != nil {
				out[i] = model.BulkCheckResult{ID: it.ID, AssetID: a.ID, Action: "reject", Reason: "duplicate"}
			}
		}
	}
	return out
}

// ReadableAsset finds an asset p may see: its owner's, even in the trash;
// out of the trash, one in an album p owns or is a user of (an editor's
// asset in the owner's album too), one of a partner's not archived, or
// one of the assets of p's link (its own, then its album's).
func (v *View) ReadableAsset(p Principal, id string) *model.AssetRecord {
	st := v.st
	a := st.assetBy[id]
	switch {
	case a == nil:
		return nil
	case p.Link != nil:
		if !Live(a) {
			return nil
		}
		if slices.Contains(p.Link.AssetIDs, id) {
			return a
		}
		if p.Link.AlbumID != nil && slices.Contains(st.albumByID[*p.Link.AlbumID].AssetIDs, id) {
			return a
		}
		return nil
	case a.OwnerID == p.User.ID:
		return a
	case !Live(a):
		return nil
	case !a.IsArchived && v.IsPartner(a.OwnerID, p.User.ID):
		return a
	}
	for _, al := range st.albums {
		if RoleOf(al, p.User.ID) != "" && v.AlbumVisible(al) && slices.Contains(al.AssetIDs, id) {
			return a
		}
	}
	return nil
}

// Statistics counts the user's own assets, of the kinds the filter keeps:
// out of the trash, unless trashed says true.
func (v *View) Statistics(userID string, archived, favorite, trashed *bool) model.AssetStats {
	var s model.AssetStats
	keep := func(want *bool, v bool) bool { return want == nil || *want == v }
	inTrash := false // the trash is counted only when asked for
	if trashed != nil {
		inTrash = *trashed
	}
	for _, a := range v.st.byOwner[userID] {
		if !a.IsVisible || !keep(archived, a.IsArchived) || !keep(favorite, a.IsFavorite) || a.IsTrashed != inTrash {
			continue
		}
		switch a.Type {
		case model.AssetImage:
			s.Images++
		case model.AssetVideo:
			s.Videos++
		}
		s.Total++
	}
	return s
}

// AssetsOf is every asset of a user, hidden ones included, the most
// recently added first.
func (v *View) AssetsOf(userID string) []*model.AssetRecord {
	st := v.st
	// The most recently uploaded first: the uploads, newest first, then the
	// dataset's own assets, which are stored in no such order, by createdAt
	// (when they were uploaded), newest first. Uploads come first even where
	// the dataset's dates lie ahead of the wall clock (a future --anchor).
	var uploaded, loaded []*model.AssetRecord
	for i := len(st.assets) - 1; i >= 0; i-- {
		if a := st.assets[i]; a.OwnerID == userID {
			if i >= st.loaded {
				uploaded = append(uploaded, a)
			} else {
				loaded = append(loaded, a)
			}
		}
	}
	slices.SortStableFunc(loaded, func(a, b *model.AssetRecord) int { return b.CreatedAt.Compare(a.CreatedAt.Time) })
	return slices.Concat(uploaded, loaded)
}

// SetPictures marks an asset's pictures made: its thumbhash, and resized;
// the asset changed then (updatedAt), as the reference's does when it
// stores its pictures, so that the mobile app's delta sync brings it.
// An asset gone since (a reset) is no error.
func (tx *Tx) SetPictures(id, hash string) error {
	old := tx.st.assetBy[id]
	if old == nil {
		return nil
	}
	a := *old
	a.Thumbhash, a.Resized, a.UpdatedAt = &hash, true, tx.Tick()
	if err := tx.replaceAsset(old, &a); err != nil {
		return internal(err)
	}
	return nil
}

// replaceAsset puts a changed asset, of the same id, owner, checksum and
// stack, in the place of the stored one, in every index.
func (tx *Tx) replaceAsset(old, a *model.AssetRecord) error {
	st := tx.st
	if (old.StackParentID == nil) != (a.StackParentID == nil) || (old.StackParentID != nil && *old.StackParentID != *a.StackParentID) {
		return fmt.Errorf("asset %s changes its stack: restack it", old.ID)
	}
	var stack []*model.AssetRecord
	if old.StackParentID != nil {
		stack = st.children[*old.StackParentID]
		next := slices.Clone(stack)
		if j := slices.Index(next, old); j >= 0 {
			next[j] = a
		}
		st.children[*old.StackParentID] = next
		tx.did(Assets, func() { st.children[*old.StackParentID] = stack })
	}
	return tx.replaceAssetAs(old, a)
}

// replaceAssetAs puts a changed asset in the place of the stored one in
// every index but the stacks'.
func (tx *Tx) replaceAssetAs(old, a *model.AssetRecord) error {
	st := tx.st
	i := len(st.assets) - 1 // uploads, whose pictures change, are at the end
	for i >= 0 && st.assets[i] != old {
		i--
	}
	key, err := checksumKeyOf(old)
	if i < 0 || err != nil || a.ID != old.ID || a.OwnerID != old.OwnerID || a.Checksum != old.Checksum || st.bySum[key] != old {
		return fmt.Errorf("asset %s is not stored as it was", old.ID)
	}
	mine := st.byOwner[a.OwnerID]
	j := len(mine) - 1
	for j >= 0 && mine[j] != old {
		j--
	}
	if j < 0 {
		return fmt.Errorf("asset %s is not among its owner's", old.ID)
	}
	st.assets[i], st.assetBy[a.ID], st.bySum[key], mine[j] = a, a, a, a
	tx.did(Assets, func() { st.assets[i], st.assetBy[a.ID], st.bySum[key], mine[j] = old, old, old, old })
	return nil
}
