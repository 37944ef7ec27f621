package store

import (
	"cmp"
	"slices"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Albums: the store's side of the album operations.

// Owner is the role RoleOf gives an album's owner.
const Owner = "owner"

// RoleOf is the user's role in the album: Owner, an album user's role, or "".
func RoleOf(al *model.AlbumRecord, userID string) string {
	if al.OwnerID == userID {
		return Owner
	}
	for _, au := range al.AlbumUsers {
		if au.UserID == userID {
			return au.Role
		}
	}
	return ""
}

// Shared says whether an album is shared: it has users (not deleted) or a
// link.
func (v *View) Shared(al *model.AlbumRecord) bool {
	return slices.ContainsFunc(al.AlbumUsers, func(au model.AlbumUserRecord) bool { return v.ActiveUser(au.UserID) != nil }) ||
		v.AlbumHasLink(al.ID)
}

// AlbumFilter is what GET /api/albums asks for.
type AlbumFilter struct {
	Shared  *bool   // nil: the caller's own albums
	AssetID *string // albums holding this asset, the caller's or shared with them
}

// Albums lists the albums the filter selects for the user, newest first.
func (v *View) Albums(userID string, f AlbumFilter) []*model.AlbumRecord {
	var picked []*model.AlbumRecord
	for _, al := range v.st.albums {
		role := RoleOf(al, userID)
		if role == "" || !v.AlbumVisible(al) {
			continue
		}
		switch {
		case f.AssetID != nil:
			if !slices.Contains(al.AssetIDs, *f.AssetID) {
				continue
			}
		case f.Shared == nil:
			if role != Owner {
				continue
			}
		case *f.Shared:
			if role == Owner && !v.Shared(al) {
				continue
			}
		default:
			if role != Owner || v.Shared(al) {
				continue
			}
		}
		picked = append(picked, al)
	}
	slices.SortFunc(picked, func(a, b *model.AlbumRecord) int {
		return cmp.Or(b.CreatedAt.Compare(a.CreatedAt.Time), cmp.Compare(a.ID, b.ID))
	})
	return picked
}

// NewAlbum is what POST /api/albums asks for.
type NewAlbum struct {
	Name, Description string
	AssetIDs          []string
	Users             []model.AlbumUserRecord
}

// CreateAlbum makes an album of the owner. Asset ids the owner does not own
// are dropped, repeats collapse; its thumbnail is the first asset kept.
func (tx *Tx) CreateAlbum(owner string, na NewAlbum) (*model.AlbumRecord, error) {
	st := tx.st
	if st.userByID[owner] == nil {
		return nil, Fail(Unauthenticated, "Invalid user token")
	}
	seenUser := map[string]bool{}
	for _, au := range na.Users {
		switch {
		case st.userByID[au.UserID] == nil:
			return nil, Fail(Invalid, "User not found")
		case au.UserID == owner:
			return nil, Fail(Invalid, "Cannot be shared with owner")
		case seenUser[au.UserID]:
			return nil, Fail(Invalid, "User already added")
		}
		seenUser[au.UserID] = true
	}
	ids := make([]string, 0, len(na.AssetIDs))
	seen := map[string]bool{}
	for _, id := range na.AssetIDs {
		if a := st.assetBy[id]; a != nil && a.OwnerID == owner && !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	now := tx.Tick()
	al := model.AlbumRecord{
		ID: tx.db.newID(), OwnerID: owner, AlbumName: na.Name, Description: na.Description,
		AlbumUsers: slices.Clone(na.Users), AssetIDs: ids, CreatedAt: now, UpdatedAt: now,
		IsActivityEnabled: true, Order: new("desc"),
	}
	if al.AlbumUsers == nil {
		al.AlbumUsers = []model.AlbumUserRecord{}
	}
	if len(ids) > 0 {
		al.AlbumThumbnailAssetID = &ids[0]
	}
	if err := tx.addAlbum(al); err != nil {
		return nil, internal(err)
	}
	return st.albumByID[al.ID], nil
}

// ReadableAlbum finds an album p may read: its owner, its users, or the
// key of an ALBUM link of it.
func (v *View) ReadableAlbum(p Principal, id string) *model.AlbumRecord {
	al := v.st.albumByID[id]
	switch {
	case al == nil:
		return nil
	case p.Link != nil:
		if p.Link.AlbumID != nil && *p.Link.AlbumID == id && p.Link.Type == model.LinkAlbum {
			return al
		}
		return nil
	case RoleOf(al, p.User.ID) != "":
		return al
	}
	return nil
}

// What became of an id that a bulk change did not take.
const (
	BulkDuplicate    = "duplicate"
	BulkNoPermission = "no_permission"
	BulkNotFound     = "not_found"
)

// AddAlbumAssets adds assets to an album for p, in request order, each with
// its outcome. The owner and editors add their own assets and their
// partners'; the key of an ALBUM link of the album that allows uploads adds
// its owner's.
func (tx *Tx) AddAlbumAssets(p Principal, albumID string, ids []string) ([]model.BulkIDResult, error) {
	st := tx.st
	al := st.albumByID[albumID]
	if al == nil {
		return nil, Fail(NotFound, "Album not found")
	}
	adder := p.User.ID
	switch {
	case p.Link != nil:
		if p.Link.Type != model.LinkAlbum || p.Link.AlbumID == nil || *p.Link.AlbumID != albumID || !p.Link.AllowUpload {
			return nil, Fail(NoAccess, "Not found or no album.addAsset access")
		}
	case RoleOf(al, adder) != Owner && RoleOf(al, adder) != model.RoleEditor:
		return nil, Fail(NoAccess, "Not found or no album.addAsset access")
	}
	in := make(map[string]bool, len(al.AssetIDs))
	for _, id := range al.AssetIDs {
		in[id] = true
	}
	out := make([]model.BulkIDResult, 0, len(ids))
	added := slices.Clone(al.AssetIDs)
	for _, id := range ids {
		switch a := st.assetBy[id]; {
		case in[id]:
			out = append(out, model.BulkIDResult{ID: id, Error: BulkDuplicate})
		case a == nil || a.OwnerID != adder && (p.Link != nil || !tx.canShare(adder, a)):
			out = append(out, model.BulkIDResult{ID: id, Error: BulkNoPermission})
		default:
			in[id] = true
			added = append(added, id)
			out = append(out, model.BulkIDResult{ID: id, Success: true})
		}
	}
	if len(added) == len(al.AssetIDs) {
		return out, nil
	}
	next := *al
	next.AssetIDs = added
	next.UpdatedAt = tx.Tick()
	if next.AlbumThumbnailAssetID == nil {
		next.AlbumThumbnailAssetID = &added[len(al.AssetIDs)]
	}
	if err := tx.replaceAlbum(&next); err != nil {
		return nil, internal(err)
	}
	return out, nil
}

// replaceAlbum puts a changed album in the place of the stored one.
func (tx *Tx) replaceAlbum(al *model.AlbumRecord) error {
	st := tx.st
	old := st.albumByID[al.ID]
	i := slices.Index(st.albums, old)
	if old == nil || i < 0 {
		return errAlbumGone(al.ID)
	}
	if err := st.albumGrowthListed(old, len(al.AssetIDs)); err != nil {
		return err
	}
	st.albums[i] = al
	st.albumByID[al.ID] = al
	tx.did(Albums, func() {
		st.albums[i] = old
		st.albumByID[al.ID] = old
	})
	return nil
}

type errAlbumGone string

func (e errAlbumGone) Error() string { return "album " + string(e) + " is not stored" }

// AlbumVisible says whether an album is in sight: its owner is not
// deleted (a deleted user's albums go with them, and come back with them).
func (v *View) AlbumVisible(al *model.AlbumRecord) bool { return v.ActiveUser(al.OwnerID) != nil }

// AlbumUsers is an album's users that are not deleted.
func (v *View) AlbumUsers(al *model.AlbumRecord) []model.AlbumUserRecord {
	out := make([]model.AlbumUserRecord, 0, len(al.AlbumUsers))
	for _, au := range al.AlbumUsers {
		if v.ActiveUser(au.UserID) != nil {
			out = append(out, au)
		}
	}
	return out
}

// AlbumCount is how many albums the user owns, how many are shared with
// them or by them, and how many of theirs are not shared.
func (v *View) AlbumCount(userID string) (owned, shared, notShared int) {
	return len(v.Albums(userID, AlbumFilter{})), len(v.Albums(userID, AlbumFilter{Shared: new(true)})),
		len(v.Albums(userID, AlbumFilter{Shared: new(false)}))
}

// album is the album of that id, in sight, or the reference's 400.
func (v *View) album(id string) (*model.AlbumRecord, error) {
	al := v.st.albumByID[id]
	if al == nil || !v.AlbumVisible(al) {
		return nil, Fail(NotFound, "Album not found")
	}
	return al, nil
}

// AlbumPatch is what PATCH /api/albums/{id} changes: a nil field is kept.
type AlbumPatch struct {
	Name, Description, ThumbnailAssetID, Order *string
	IsActivityEnabled                          *bool
}

// UpdateAlbum changes an album of its owner.
func (tx *Tx) UpdateAlbum(p Principal, id string, patch AlbumPatch) (*model.AlbumRecord, error) {
	old := tx.st.albumByID[id]
	if old == nil || !tx.AlbumVisible(old) || old.OwnerID != p.User.ID {
		return nil, Fail(NoAccess, "Not found or no album.update access")
	}
	if t := patch.ThumbnailAssetID; t != nil && !slices.Contains(old.AssetIDs, *t) {
		return nil, Fail(Invalid, "Invalid album thumbnail")
	}
	al := *old
	if patch.Name != nil {
		al.AlbumName = *patch.Name
	}
	if patch.Description != nil {
		al.Description = *patch.Description
	}
	if patch.ThumbnailAssetID != nil {
		al.AlbumThumbnailAssetID = patch.ThumbnailAssetID
	}
	if patch.IsActivityEnabled != nil {
		al.IsActivityEnabled = *patch.IsActivityEnabled
	}
	if patch.Order != nil {
		al.Order = patch.Order
	}
	al.UpdatedAt = tx.Tick()
	if err := tx.replaceAlbum(&al); err != nil {
		return nil, internal(err)
	}
	return &al, nil
}

// DeleteAlbum deletes an album of its owner, and the links that share it.
func (tx *Tx) DeleteAlbum(p Principal, id string) error {
	st := tx.st
	al := st.albumByID[id]
	if al == nil || !tx.AlbumVisible(al) || al.OwnerID != p.User.ID {
		return Fail(NoAccess, "Not found or no album.delete access")
	}
	for _, l := range slices.Clone(st.links) {
		if l.AlbumID != nil && *l.AlbumID == id {
			if err := tx.RemoveLink(l.UserID, l.ID); err != nil {
				return internal(err)
			}
		}
	}
	tx.dropActivities(func(a *model.ActivityRecord) bool { return a.AlbumID == id })
	tx.audit(model.AuditAlbum, map[string]string{id: al.OwnerID})
	forget(tx, Albums, &st.albums, st.albumByID, id, al)
	return nil
}

// RemoveAlbumAssets takes assets out of an album, in request order, each
// with its outcome: not_found where the album does not hold it,
// no_permission where the caller does not own the asset (the reference
// lets only an asset's owner take it out, the album's owner included).
func (tx *Tx) RemoveAlbumAssets(p Principal, albumID string, ids []string) ([]model.BulkIDResult, error) {
	al, err := tx.album(albumID)
	if err != nil {
		return nil, err
	}
	if role := RoleOf(al, p.User.ID); role != Owner && role != model.RoleEditor {
		return nil, Fail(NoAccess, "Not found or no album.removeAsset access")
	}
	in := make(map[string]bool, len(al.AssetIDs))
	for _, id := range al.AssetIDs {
		in[id] = true
	}
	out := make([]model.BulkIDResult, 0, len(ids))
	removed := map[string]bool{}
	for _, id := range ids {
		switch a := tx.st.assetBy[id]; {
		case !in[id]:
			out = append(out, model.BulkIDResult{ID: id, Error: BulkNotFound})
		case a == nil || !tx.canShare(p.User.ID, a):
			out = append(out, model.BulkIDResult{ID: id, Error: BulkNoPermission})
		default:
			delete(in, id)
			removed[id] = true
			out = append(out, model.BulkIDResult{ID: id, Success: true})
		}
	}
	if len(removed) == 0 {
		return out, nil
	}
	next := *al
	next.AssetIDs = slices.DeleteFunc(slices.Clone(al.AssetIDs), func(id string) bool { return removed[id] })
	next.UpdatedAt = tx.Tick()
	if t := next.AlbumThumbnailAssetID; t != nil && removed[*t] {
		next.AlbumThumbnailAssetID = tx.newestOf(next.AssetIDs)
	}
	if err := tx.replaceAlbum(&next); err != nil {
		return nil, internal(err)
	}
	return out, nil
}

// newestOf is the id of the asset created last (by fileCreatedAt) among
// ids, as the upstream picks an album's next thumbnail; nil for none.
func (v *View) newestOf(ids []string) *string {
	var newest *model.AssetRecord
	for _, id := range ids {
		if a := v.st.assetBy[id]; a != nil && (newest == nil || a.FileCreatedAt.After(newest.FileCreatedAt.Time)) {
			newest = a
		}
	}
	if newest == nil {
		return nil
	}
	return new(newest.ID)
}

// canShare says whether the user may share an asset (add it to an album
// or a link): it is theirs (or, later, a partner's).
func (v *View) canShare(userID string, a *model.AssetRecord) bool {
	return a.OwnerID == userID || v.IsPartner(a.OwnerID, userID)
}

// AddAlbumUsers shares an album of its owner with users, each with a role
// (editor when none is given).
func (tx *Tx) AddAlbumUsers(p Principal, id string, users []model.AlbumUserRecord) (*model.AlbumRecord, error) {
	old := tx.st.albumByID[id]
	if old == nil || !tx.AlbumVisible(old) || old.OwnerID != p.User.ID {
		return nil, Fail(NoAccess, "Not found or no album.share access")
	}
	al := *old
	al.AlbumUsers = slices.Clone(old.AlbumUsers)
	for _, u := range users {
		switch {
		case u.UserID == al.OwnerID:
			return nil, Fail(Invalid, "Cannot be shared with owner")
		case slices.ContainsFunc(al.AlbumUsers, func(au model.AlbumUserRecord) bool { return au.UserID == u.UserID }):
			return nil, Fail(Invalid, "User already added")
		case tx.ActiveUser(u.UserID) == nil:
			return nil, Fail(Invalid, "User not found")
		}
		if u.Role == "" {
			u.Role = model.RoleEditor
		}
		al.AlbumUsers = append(al.AlbumUsers, u)
	}
	if err := tx.replaceAlbum(&al); err != nil {
		return nil, internal(err)
	}
	return &al, nil
}

// SetAlbumUserRole changes the role of one of an album's users, as the
// album's owner.
func (tx *Tx) SetAlbumUserRole(p Principal, id, userID, role string) error {
	old := tx.st.albumByID[id]
	if old == nil || !tx.AlbumVisible(old) || old.OwnerID != p.User.ID {
		return Fail(NoAccess, "Not found or no album.share access")
	}
	i := slices.IndexFunc(old.AlbumUsers, func(au model.AlbumUserRecord) bool { return au.UserID == userID })
	if i < 0 {
		return Fail(Invalid, "Album not shared with user")
	}
	al := *old
	al.AlbumUsers = slices.Clone(old.AlbumUsers)
	al.AlbumUsers[i].Role = role
	if err := tx.replaceAlbum(&al); err != nil {
		return internal(err)
	}
	return nil
}

// RemoveAlbumUser stops sharing an album with a user: its owner may
// remove anyone, a user themselves.
func (tx *Tx) RemoveAlbumUser(p Principal, id, userID string) error {
	old, err := tx.album(id)
	if err != nil {
		return err
	}
	if old.OwnerID == userID {
		return Fail(Invalid, "Cannot remove album owner")
	}
	i := slices.IndexFunc(old.AlbumUsers, func(au model.AlbumUserRecord) bool { return au.UserID == userID })
	if i < 0 {
		return Fail(Invalid, "Album not shared with user")
	}
	if p.User.ID != userID && old.OwnerID != p.User.ID {
		return Fail(NoAccess, "Not found or no album.share access")
	}
	al := *old
	al.AlbumUsers = slices.Delete(slices.Clone(old.AlbumUsers), i, i+1)
	if err := tx.replaceAlbum(&al); err != nil {
		return internal(err)
	}
	return nil
}
