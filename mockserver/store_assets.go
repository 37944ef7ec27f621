package mockserver

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Assets: the store's side of the uploader's batch check, of reading one
// asset, and of who may see an asset's pictures.

// bulkCheckItem is one file of the uploader's batch: its id in the batch
// and its SHA-1, as the client wrote it.
type bulkCheckItem struct {
	id, checksum string
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

// bulkCheck answers, in order, whether the owner already has each file:
// reject as a duplicate, with the asset's id, or accept. One read lock, one
// lookup per item.
func (db *store) bulkCheck(owner string, items []bulkCheckItem) []model.BulkCheckResult {
	out := make([]model.BulkCheckResult, len(items))
	db.mu.RLock()
	defer db.mu.RUnlock()
	for i, it := range items {
		out[i] = model.BulkCheckResult{ID: it.id, Action: "accept"}
		if sum, ok := bulkCheckSum(it.checksum); ok {
			if a := db.state.bySum[checksumKey{owner: owner, sum: sum}]; a != nil {
				out[i] = model.BulkCheckResult{ID: it.id, AssetID: a.ID, Action: "reject", Reason: "duplicate"}
			}
		}
	}
	return out
}

// assetReadable finds an asset p may see: its owner's, one in an album p
// owns or is a user of (an editor's asset in the owner's album too), or
// one of the assets of p's link (its own, then its album's).
func (st *state) assetReadable(p principal, id string) *model.AssetRecord {
	a := st.assetBy[id]
	switch {
	case a == nil:
		return nil
	case p.link != nil:
		if slices.Contains(p.link.AssetIDs, id) {
			return a
		}
		if p.link.AlbumID != nil && slices.Contains(st.albumByID[*p.link.AlbumID].AssetIDs, id) {
			return a
		}
		return nil
	case a.OwnerID == p.user.ID:
		return a
	}
	for _, al := range st.albums {
		if roleOf(al, p.user.ID) != "" && slices.Contains(al.AssetIDs, id) {
			return a
		}
	}
	return nil
}

// asset is an asset as GET /api/asset/{id} shows it to p: with its owner
// (not through a link), its tags and people as lists, the real isFavorite
// only for its owner; sanitized through a link that hides metadata.
func (db *store) asset(p principal, id string) (any, error) {
	db.mu.RLock()
	defer db.mu.RUnlock()
	st := db.state
	a := st.assetReadable(p, id)
	if a == nil {
		return nil, fail(errNoAccess, "Not found or no asset.read access")
	}
	v := st.assetShown(a, assetLook{owner: p.link == nil, tags: true, exif: true, favorite: a.OwnerID == p.user.ID})
	if p.link != nil && !p.link.ShowMetadata {
		return sanitized(v), nil
	}
	full := model.AssetInfo{Asset: v, Tags: v.Tags, People: v.People}
	if full.Tags == nil {
		full.Tags = []model.Tag{}
	}
	if full.People == nil {
		full.People = []model.Person{}
	}
	return full, nil
}

// statistics counts the user's own assets, of the kinds the filter keeps.
func (db *store) statistics(userID string, archived, favorite, trashed *bool) model.AssetStats {
	db.mu.RLock()
	defer db.mu.RUnlock()
	var s model.AssetStats
	keep := func(want *bool, v bool) bool { return want == nil || *want == v }
	for _, a := range db.state.assets {
		if a.OwnerID != userID || !a.IsVisible || !keep(archived, a.IsArchived) || !keep(favorite, a.IsFavorite) || !keep(trashed, a.IsTrashed) {
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

// user is the user of that id.
func (db *store) user(id string) (model.UserRecord, bool) {
	db.mu.RLock()
	defer db.mu.RUnlock()
	u := db.state.userByID[id]
	if u == nil {
		return model.UserRecord{}, false
	}
	return *u, true
}

// assetRecord is a copy of the stored asset of that id.
func (db *store) assetRecord(id string) (model.AssetRecord, bool) {
	db.mu.RLock()
	defer db.mu.RUnlock()
	a := db.state.assetBy[id]
	if a == nil {
		return model.AssetRecord{}, false
	}
	return *a, true
}

// setPictures marks an asset's pictures made: its thumbhash, and resized.
// An asset gone since (a reset) is no error.
func (db *store) setPictures(id, hash string) error {
	return db.write(func(st *state, tx *undo) error {
		old := st.assetBy[id]
		if old == nil {
			return nil
		}
		a := *old
		a.Thumbhash, a.Resized = &hash, true
		if err := st.replaceAsset(old, &a, tx); err != nil {
			return internal(err)
		}
		db.changed()
		return nil
	})
}

// replaceAsset puts a changed asset, of the same id, owner and checksum, in
// the place of the stored one, in every index.
func (st *state) replaceAsset(old, a *model.AssetRecord, tx *undo) error {
	i := len(st.assets) - 1 // uploads, whose pictures change, are at the end
	for i >= 0 && st.assets[i] != old {
		i--
	}
	key, err := checksumKeyOf(old)
	if i < 0 || err != nil || a.ID != old.ID || a.OwnerID != old.OwnerID || a.Checksum != old.Checksum || st.bySum[key] != old {
		return fmt.Errorf("asset %s is not stored as it was", old.ID)
	}
	var stack []*model.AssetRecord
	if old.StackParentID != nil {
		stack = st.children[*old.StackParentID]
		next := slices.Clone(stack)
		if j := slices.Index(next, old); j >= 0 {
			next[j] = a
		}
		st.children[*old.StackParentID] = next
	}
	st.assets[i], st.assetBy[a.ID], st.bySum[key] = a, a, a
	tx.push(func() {
		st.assets[i], st.assetBy[a.ID], st.bySum[key] = old, old, old
		if old.StackParentID != nil {
			st.children[*old.StackParentID] = stack
		}
	})
	return nil
}
