package store

import (
	"slices"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// The records, as a reader finds them. A nil record is not stored.

// User is the user of that id.
func (v *View) User(id string) *model.UserRecord { return v.st.userByID[id] }

// UserByEmail is the user of that email, in any case.
func (v *View) UserByEmail(email string) *model.UserRecord {
	return v.st.userByEmail[lowerEmail(email)]
}

// Users is every user, in the order they were stored.
func (v *View) Users() []*model.UserRecord { return slices.Clone(v.st.users) }

// Usage is the bytes of the user's assets, which their quota bounds.
func (v *View) Usage(userID string) int64 { return v.st.usage[userID] }

// Asset is the asset of that id.
func (v *View) Asset(id string) *model.AssetRecord { return v.st.assetBy[id] }

// AssetsOwnedBy is every asset of a user in the order they were stored,
// hidden, archived and trashed ones included. The caller must not change it.
func (v *View) AssetsOwnedBy(userID string) []*model.AssetRecord { return v.st.byOwner[userID] }

// AssetByChecksum is the owner's asset of that content, by its SHA-1.
func (v *View) AssetByChecksum(owner string, sum [20]byte) *model.AssetRecord {
	return v.st.bySum[checksumKey{owner: owner, sum: sum}]
}

// Stack is the stack a belongs to, its parent first, or nil when a is in
// none.
func (v *View) Stack(a *model.AssetRecord) []*model.AssetRecord {
	parent := a
	if a.StackParentID != nil {
		parent = v.st.assetBy[*a.StackParentID]
	}
	rest := v.st.children[parent.ID]
	if len(rest) == 0 {
		return nil
	}
	return append([]*model.AssetRecord{parent}, rest...)
}

// Tag is the tag of that id.
func (v *View) Tag(id string) *model.Tag { return v.st.tagByID[id] }

// Person is the person of that id.
func (v *View) Person(id string) *model.PersonRecord { return v.st.personByID[id] }

// Album is the album of that id.
func (v *View) Album(id string) *model.AlbumRecord { return v.st.albumByID[id] }

// AlbumHasLink says whether a shared link carries the album.
func (v *View) AlbumHasLink(albumID string) bool { return v.st.albumLinks[albumID] > 0 }

// Link is the shared link of that id.
func (v *View) Link(id string) *model.SharedLinkRecord { return v.st.linkByID[id] }

// LinksOf is the user's shared links, in the order they were stored.
func (v *View) LinksOf(userID string) []*model.SharedLinkRecord {
	return slices.Clone(v.st.linksByUser[userID])
}
