package mockserver

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Albums: the store's side of the album operations.

// assetLook says what of an asset a view shows: the nested owner, tags and
// exifInfo, and the real isFavorite (else false), which only the owner sees.
type assetLook struct {
	owner, tags, exif, favorite bool
}

// assetShown is a as look shows it.
func (st *state) assetShown(a *model.AssetRecord, look assetLook) model.Asset {
	v := st.assetView(a, true)
	if !look.owner {
		v.Owner = nil
	}
	if !look.tags {
		v.Tags = nil
	}
	if !look.exif {
		v.ExifInfo = nil
	}
	if !look.favorite {
		v.IsFavorite = false
	}
	return v
}

// albumShown is an album as the album operations show it: its flags from
// the one store (shared: it has users or a link), its assets when asked
// for, in the order given, as look shows them (isFavorite only for viewer's
// own assets).
func (st *state) albumShown(al *model.AlbumRecord, viewer string, withAssets bool, order func(a, b *model.AssetRecord) int, look assetLook) model.Album {
	v := st.albumView(al)
	v.LastModifiedAssetTimestamp = nil
	v.Assets = []model.Asset{}
	if !withAssets {
		return v
	}
	assets := make([]*model.AssetRecord, 0, len(al.AssetIDs))
	for _, id := range al.AssetIDs {
		assets = append(assets, st.assetBy[id])
	}
	slices.SortStableFunc(assets, order)
	for _, a := range assets {
		l := look
		l.favorite = look.favorite && a.OwnerID == viewer
		v.Assets = append(v.Assets, st.assetShown(a, l))
	}
	return v
}

// byFileCreatedDesc and byFileCreatedAsc order assets by when their file
// was made; ids break ties, so that the order is the same in every process.
func byFileCreatedDesc(a, b *model.AssetRecord) int {
	return cmp.Or(b.FileCreatedAt.Compare(a.FileCreatedAt.Time), cmp.Compare(a.ID, b.ID))
}

func byFileCreatedAsc(a, b *model.AssetRecord) int {
	return cmp.Or(a.FileCreatedAt.Compare(b.FileCreatedAt.Time), cmp.Compare(a.ID, b.ID))
}

// roleOf is the user's role in the album: "owner", an album user's role, or "".
func roleOf(al *model.AlbumRecord, userID string) string {
	if al.OwnerID == userID {
		return "owner"
	}
	for _, au := range al.AlbumUsers {
		if au.UserID == userID {
			return au.Role
		}
	}
	return ""
}

// albumFilter is what GET /api/albums asks for.
type albumFilter struct {
	shared  *bool   // nil: the caller's own albums
	assetID *string // albums holding this asset, the caller's or shared with them
}

// albums lists the albums the filter selects for the user, newest first,
// without their assets but with their counts and dates.
func (db *store) albums(userID string, f albumFilter) []model.Album {
	db.mu.RLock()
	defer db.mu.RUnlock()
	st := db.state
	var picked []*model.AlbumRecord
	for _, al := range st.albums {
		role := roleOf(al, userID)
		if role == "" {
			continue
		}
		shared := len(al.AlbumUsers) > 0 || st.albumLinks[al.ID] > 0
		switch {
		case f.assetID != nil:
			if !slices.Contains(al.AssetIDs, *f.assetID) {
				continue
			}
		case f.shared == nil:
			if role != "owner" {
				continue
			}
		case *f.shared:
			if role == "owner" && !shared {
				continue
			}
		default:
			if role != "owner" || shared {
				continue
			}
		}
		picked = append(picked, al)
	}
	slices.SortFunc(picked, func(a, b *model.AlbumRecord) int {
		return cmp.Or(b.CreatedAt.Compare(a.CreatedAt.Time), cmp.Compare(a.ID, b.ID))
	})
	out := make([]model.Album, 0, len(picked))
	for _, al := range picked {
		v := st.albumShown(al, userID, false, byFileCreatedDesc, assetLook{})
		v.LastModifiedAssetTimestamp = st.lastModified(al)
		if f.assetID != nil && db.referenceShapes {
			referenceAlbumsHolding(&v)
		}
		out = append(out, v)
	}
	return out
}

// lastModified is the fileModifiedAt of the album's asset updated last.
func (st *state) lastModified(al *model.AlbumRecord) *model.Time {
	var last *model.AssetRecord
	for _, id := range al.AssetIDs {
		if a := st.assetBy[id]; last == nil || a.UpdatedAt.After(last.UpdatedAt.Time) {
			last = a
		}
	}
	if last == nil {
		return nil
	}
	return last.FileModifiedAt.Ptr()
}

// newAlbum is what POST /api/albums asks for.
type newAlbum struct {
	name, description string
	assetIDs          []string
	users             []model.AlbumUserRecord
}

// createAlbum makes an album of the owner. Asset ids the owner does not own
// are dropped, repeats collapse; its thumbnail is the first asset kept.
func (db *store) createAlbum(owner string, na newAlbum) (model.Album, error) {
	var out model.Album
	err := db.write(func(st *state, tx *undo) error {
		if st.userByID[owner] == nil {
			return fail(errUnauthenticated, "Invalid user token")
		}
		seenUser := map[string]bool{}
		for _, au := range na.users {
			switch {
			case st.userByID[au.UserID] == nil:
				return fail(errInvalid, "User not found")
			case au.UserID == owner:
				return fail(errInvalid, "Cannot be shared with owner")
			case seenUser[au.UserID]:
				return fail(errInvalid, "User already added")
			}
			seenUser[au.UserID] = true
		}
		ids := make([]string, 0, len(na.assetIDs))
		seen := map[string]bool{}
		for _, id := range na.assetIDs {
			if a := st.assetBy[id]; a != nil && a.OwnerID == owner && !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
		now := db.tick()
		al := model.AlbumRecord{
			ID: db.newID(), OwnerID: owner, AlbumName: na.name, Description: na.description,
			AlbumUsers: slices.Clone(na.users), AssetIDs: ids, CreatedAt: now, UpdatedAt: now,
			IsActivityEnabled: true, Order: new("desc"),
		}
		if al.AlbumUsers == nil {
			al.AlbumUsers = []model.AlbumUserRecord{}
		}
		if len(ids) > 0 {
			al.AlbumThumbnailAssetID = &ids[0]
		}
		if err := st.addAlbum(al, tx); err != nil {
			return internal(err)
		}
		out = st.albumShown(st.albumByID[al.ID], owner, true, byFileCreatedDesc, assetLook{favorite: false})
		return nil
	})
	return out, err
}

// albumReadable finds an album p may read: its owner, its users, or the key
// of an ALBUM link of it.
func (st *state) albumReadable(p principal, id string) *model.AlbumRecord {
	al := st.albumByID[id]
	switch {
	case al == nil:
		return nil
	case p.link != nil:
		if p.link.AlbumID != nil && *p.link.AlbumID == id && p.link.Type == model.LinkAlbum {
			return al
		}
		return nil
	case roleOf(al, p.user.ID) != "":
		return al
	}
	return nil
}

// albumJSON is an album as GET /api/albums/{id} shows it to p, encoded: a
// model.Album, or through a link that hides metadata, a
// model.SanitizedAlbum. Encoded once per viewer until the next write.
func (db *store) albumJSON(p principal, id string, withoutAssets bool) ([]byte, error) {
	viewer := "user\x00" + p.user.ID
	if p.link != nil {
		viewer = "link\x00" + p.link.ID
	}
	key := fmt.Sprintf("album\x00%s\x00%s\x00%t", id, viewer, withoutAssets)
	return db.encoded(key, func(st *state) (any, error) {
		al := st.albumReadable(p, id)
		if al == nil {
			return nil, fail(errNoAccess, "Not found or no album.read access")
		}
		look := assetLook{exif: true, favorite: p.link == nil}
		v := st.albumShown(al, p.user.ID, !withoutAssets, byFileCreatedDesc, look)
		if p.link != nil && !p.link.ShowMetadata {
			return model.SanitizedAlbum{Album: v, Assets: sanitizedAll(v.Assets)}, nil
		}
		return v, nil
	})
}

// sanitized is an asset as a link that hides metadata shows it: only what a
// page needs to show the picture.
func sanitized(a model.Asset) model.SanitizedAsset {
	return model.SanitizedAsset{
		ID: a.ID, Type: a.Type, Thumbhash: a.Thumbhash, LocalDateTime: a.LocalDateTime,
		Resized: a.Resized, Duration: a.Duration, LivePhotoVideoID: a.LivePhotoVideoID,
	}
}

func sanitizedAll(as []model.Asset) []model.SanitizedAsset {
	out := make([]model.SanitizedAsset, 0, len(as))
	for _, a := range as {
		out = append(out, sanitized(a))
	}
	return out
}

// Answers of PUT /api/albums/{id}/assets for an id that was not added.
const (
	bulkDuplicate    = "duplicate"
	bulkNoPermission = "no_permission"
	bulkNotFound     = "not_found"
)

// addAlbumAssets adds assets to an album for p, in request order, each with
// its outcome. The owner and editors add their own assets; the key of an
// ALBUM link of the album that allows uploads adds its owner's.
func (db *store) addAlbumAssets(p principal, albumID string, ids []string) ([]model.BulkIDResult, error) {
	var out []model.BulkIDResult
	err := db.write(func(st *state, tx *undo) error {
		al := st.albumByID[albumID]
		if al == nil {
			return fail(errNotFound, "Album not found")
		}
		adder := p.user.ID
		switch {
		case p.link != nil:
			if p.link.Type != model.LinkAlbum || p.link.AlbumID == nil || *p.link.AlbumID != albumID || !p.link.AllowUpload {
				return fail(errNoAccess, "Not found or no album.addAsset access")
			}
		case roleOf(al, adder) != "owner" && roleOf(al, adder) != model.RoleEditor:
			return fail(errNoAccess, "Not found or no album.addAsset access")
		}
		in := make(map[string]bool, len(al.AssetIDs))
		for _, id := range al.AssetIDs {
			in[id] = true
		}
		out = make([]model.BulkIDResult, 0, len(ids))
		added := slices.Clone(al.AssetIDs)
		for _, id := range ids {
			switch a := st.assetBy[id]; {
			case in[id]:
				out = append(out, model.BulkIDResult{ID: id, Error: bulkDuplicate})
			case a == nil || a.OwnerID != adder:
				out = append(out, model.BulkIDResult{ID: id, Error: bulkNoPermission})
			default:
				in[id] = true
				added = append(added, id)
				out = append(out, model.BulkIDResult{ID: id, Success: true})
			}
		}
		if len(added) == len(al.AssetIDs) {
			return nil
		}
		next := *al
		next.AssetIDs = added
		next.UpdatedAt = db.tick()
		if next.AlbumThumbnailAssetID == nil {
			next.AlbumThumbnailAssetID = &added[len(al.AssetIDs)]
		}
		if err := st.replaceAlbum(&next, tx); err != nil {
			return internal(err)
		}
		db.changed()
		return nil
	})
	return out, err
}

// replaceAlbum puts a changed album in the place of the stored one.
func (st *state) replaceAlbum(al *model.AlbumRecord, tx *undo) error {
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
	tx.push(func() {
		st.albums[i] = old
		st.albumByID[al.ID] = old
	})
	return nil
}

type errAlbumGone string

func (e errAlbumGone) Error() string { return "album " + string(e) + " is not stored" }
