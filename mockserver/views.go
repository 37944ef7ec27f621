package mockserver

import (
	"cmp"
	"slices"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// The views turn records into the API's shapes. Every nested copy of a user,
// album or asset is built here from the one stored record, so all copies agree.

func (st *state) assetView(a *model.AssetRecord, withStack bool) model.Asset {
	owner := st.userByID[a.OwnerID].User
	v := model.Asset{
		ID:               a.ID,
		DeviceAssetID:    a.DeviceAssetID,
		OwnerID:          a.OwnerID,
		Owner:            &owner,
		DeviceID:         a.DeviceID,
		LibraryID:        a.LibraryID,
		Type:             a.Type,
		OriginalPath:     a.OriginalPath,
		OriginalFileName: a.OriginalFileName,
		FileCreatedAt:    a.FileCreatedAt,
		FileModifiedAt:   a.FileModifiedAt,
		LocalDateTime:    a.LocalDateTime,
		UpdatedAt:        a.UpdatedAt,
		IsFavorite:       a.IsFavorite,
		IsArchived:       a.IsArchived,
		IsTrashed:        a.IsTrashed,
		IsOffline:        a.IsOffline,
		HasMetadata:      a.HasMetadata,
		Resized:          a.Resized,
		Duration:         a.Duration,
		ExifInfo:         a.ExifInfo,
		SmartInfo:        a.SmartInfo,
		LivePhotoVideoID: a.LivePhotoVideoID,
		Checksum:         a.Checksum,
		StackParentID:    a.StackParentID,
		DuplicateID:      a.DuplicateID,
		Thumbhash:        a.Thumbhash,
	}
	for _, id := range a.TagIDs {
		v.Tags = append(v.Tags, *st.tagByID[id])
	}
	v.People = st.peopleView(a.Faces)

	parent := a.ID
	if a.StackParentID != nil {
		parent = *a.StackParentID
	}
	if rest := st.children[parent]; len(rest) > 0 {
		n := len(rest) + 1
		v.StackCount = &n
		if withStack && a.StackParentID == nil {
			v.Stack = make([]model.Asset, 0, len(rest))
			for _, c := range rest {
				v.Stack = append(v.Stack, st.assetView(c, false))
			}
		}
	}
	return v
}

// peopleView groups an asset's faces by person, in the order the faces come.
func (st *state) peopleView(faces []model.FaceRecord) []model.Person {
	var people []model.Person
	for _, f := range faces {
		face := model.Face{
			ID:            f.ID,
			BoundingBoxX1: f.BoundingBoxX1, BoundingBoxY1: f.BoundingBoxY1,
			BoundingBoxX2: f.BoundingBoxX2, BoundingBoxY2: f.BoundingBoxY2,
			ImageWidth: f.ImageWidth, ImageHeight: f.ImageHeight,
		}
		i := slices.IndexFunc(people, func(p model.Person) bool { return p.ID == f.PersonID })
		if i < 0 {
			p := st.personByID[f.PersonID]
			people = append(people, model.Person{
				ID: p.ID, Name: p.Name, BirthDate: p.BirthDate,
				ThumbnailPath: p.ThumbnailPath, IsHidden: p.IsHidden,
			})
			i = len(people) - 1
		}
		people[i].Faces = append(people[i].Faces, face)
	}
	return people
}

func (st *state) albumView(al *model.AlbumRecord) model.Album {
	v := model.Album{
		ID:                    al.ID,
		OwnerID:               al.OwnerID,
		AlbumName:             al.AlbumName,
		Description:           al.Description,
		CreatedAt:             al.CreatedAt,
		UpdatedAt:             al.UpdatedAt,
		AlbumThumbnailAssetID: al.AlbumThumbnailAssetID,
		Shared:                len(al.AlbumUsers) > 0 || st.albumLinks[al.ID] > 0,
		AlbumUsers:            make([]model.AlbumUser, 0, len(al.AlbumUsers)),
		HasSharedLink:         st.albumLinks[al.ID] > 0,
		Assets:                make([]model.Asset, 0, len(al.AssetIDs)),
		Owner:                 st.userByID[al.OwnerID].User,
		AssetCount:            len(al.AssetIDs),
		IsActivityEnabled:     al.IsActivityEnabled,
		Order:                 cmp.Or(al.Order, ptr("desc")), // the reference's default
	}
	for _, au := range al.AlbumUsers {
		v.AlbumUsers = append(v.AlbumUsers, model.AlbumUser{Role: au.Role, User: st.userByID[au.UserID].User})
	}
	for _, id := range al.AssetIDs {
		a := st.assetBy[id]
		v.Assets = append(v.Assets, st.assetView(a, true))
		if v.StartDate == nil || a.FileCreatedAt.Before(v.StartDate.Time) {
			v.StartDate = a.FileCreatedAt.Ptr()
		}
		if v.EndDate == nil || a.FileCreatedAt.After(v.EndDate.Time) {
			v.EndDate = a.FileCreatedAt.Ptr()
		}
		if v.LastModifiedAssetTimestamp == nil || a.UpdatedAt.After(v.LastModifiedAssetTimestamp.Time) {
			v.LastModifiedAssetTimestamp = a.UpdatedAt.Ptr()
		}
	}
	if v.AlbumThumbnailAssetID == nil && len(al.AssetIDs) > 0 {
		v.AlbumThumbnailAssetID = &al.AssetIDs[0]
	}
	return v
}

func (st *state) linkView(l *model.SharedLinkRecord) model.SharedLink {
	v := model.SharedLink{
		ID:            l.ID,
		Description:   l.Description,
		Password:      l.Password,
		UserID:        l.UserID,
		Key:           l.Key,
		Type:          l.Type,
		CreatedAt:     l.CreatedAt,
		ExpiresAt:     l.ExpiresAt,
		AllowUpload:   l.AllowUpload,
		AllowDownload: l.AllowDownload,
		ShowMetadata:  l.ShowMetadata,
	}
	v.Assets = make([]model.Asset, 0, len(l.AssetIDs))
	for _, id := range l.AssetIDs {
		v.Assets = append(v.Assets, st.assetView(st.assetBy[id], true))
	}
	if l.AlbumID != nil {
		album := st.albumView(st.albumByID[*l.AlbumID])
		v.Album = &album
		// As the reference does, a link's assets include its album's.
		if len(v.Assets) == 0 {
			v.Assets = album.Assets
		} else {
			for _, a := range album.Assets {
				if !slices.Contains(l.AssetIDs, a.ID) {
					v.Assets = append(v.Assets, a)
				}
			}
		}
	}
	return v
}

// newestFirst orders links by createdAt, newest first; ids break ties so the
// order is the same in every process.
func newestFirst(a, b *model.SharedLinkRecord) int {
	if c := b.CreatedAt.Compare(a.CreatedAt.Time); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}
