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

// Shared says whether an album is shared: it has users or a link.
func (v *View) Shared(al *model.AlbumRecord) bool {
	return len(al.AlbumUsers) > 0 || v.AlbumHasLink(al.ID)
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
		if role == "" {
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
// its outcome. The owner and editors add their own assets; the key of an
// ALBUM link of the album that allows uploads adds its owner's.
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
		case a == nil || a.OwnerID != adder:
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
