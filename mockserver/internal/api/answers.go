package api

import (
	"cmp"
	"slices"

	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// The answers: one projection per response type, from a stored record to
// what one audience is shown of it, as the upstream builds its answers
// (mapAsset with its options and the relations its query loaded, mapAlbum,
// mapSharedLink). A projection names every field it shows: a field added
// to a record reaches no answer that does not name it. Every nested copy of
// a user, album or asset is built here from the one stored record, so all
// copies agree.
//
// Each operation chooses its look for whoever asks: the owner, an album
// user, a link's holder with or without metadata, and, with
// Config.ReferenceShapes, the reference's own thin or quirky shapes
// (docs/differences.md names each).

// assetLook says what of an asset an answer shows.
type assetLook struct {
	// owner: the nested owner.
	owner bool
	// exif: exifInfo.
	exif bool
	// detail: what only reading or changing the asset itself loads: its
	// tags and smartInfo.
	detail bool
	// stack: its stack (stackParentId, stack and stackCount), where the
	// upstream loads it.
	stack bool
	// stackCount: only the stack's count, where the upstream loads the
	// stack without showing it.
	stackCount bool
	// people: the people of its faces; else an empty list.
	people bool
	// favoriteOf is the user whose favourite the answer tells; for anyone
	// else isFavorite is false.
	favoriteOf string
}

// userAnswer is a user as every nested copy shows them.
func userAnswer(u *model.UserRecord) model.User { return u.User }

// assetAnswer is a as look shows it.
func assetAnswer(v *store.View, a *model.AssetRecord, look assetLook) model.Asset {
	out := model.Asset{
		ID:               a.ID,
		DeviceAssetID:    a.DeviceAssetID,
		OwnerID:          a.OwnerID,
		DeviceID:         a.DeviceID,
		LibraryID:        a.LibraryID,
		Type:             a.Type,
		OriginalPath:     a.OriginalPath,
		OriginalFileName: a.OriginalFileName,
		FileCreatedAt:    a.FileCreatedAt,
		FileModifiedAt:   a.FileModifiedAt,
		LocalDateTime:    a.LocalDateTime,
		UpdatedAt:        a.UpdatedAt,
		IsFavorite:       a.IsFavorite && look.favoriteOf == a.OwnerID,
		IsArchived:       a.IsArchived,
		IsTrashed:        a.IsTrashed,
		IsOffline:        a.IsOffline,
		HasMetadata:      a.HasMetadata,
		Resized:          a.Resized,
		Duration:         a.Duration,
		LivePhotoVideoID: a.LivePhotoVideoID,
		Checksum:         a.Checksum,
		DuplicateID:      a.DuplicateID,
		Thumbhash:        a.Thumbhash,
		People:           []model.Person{},
	}
	if look.owner {
		owner := userAnswer(v.User(a.OwnerID))
		out.Owner = &owner
	}
	if look.exif {
		out.ExifInfo = a.ExifInfo
	}
	if look.people {
		out.People = peopleAnswer(v, a.Faces)
	}
	if look.detail {
		out.SmartInfo = a.SmartInfo
		out.Tags = make([]model.Tag, 0, len(a.TagIDs))
		for _, id := range a.TagIDs {
			out.Tags = append(out.Tags, *v.Tag(id))
		}
	}
	if look.stackCount && !look.stack {
		if stack := v.Stack(a); stack != nil {
			out.StackCount = new(len(stack))
		}
	}
	if look.stack {
		if stack := v.Stack(a); stack != nil {
			// As the upstream: the parent's id on every asset of the stack,
			// the others than the parent as its stack, and their count
			// with the parent.
			n := len(stack)
			out.StackCount = &n
			out.StackParentID = &stack[0].ID
			out.Stack = make([]model.Asset, 0, n-1)
			rest := look
			rest.detail, rest.people, rest.stack = false, false, false
			for _, s := range stack[1:] {
				out.Stack = append(out.Stack, assetAnswer(v, s, rest))
			}
		}
	}
	return out
}

// sanitizedAsset is an asset as a link that hides metadata shows it: only
// what a page needs to show the picture, named field by field.
func sanitizedAsset(a *model.AssetRecord) model.SanitizedAsset {
	return model.SanitizedAsset{
		ID: a.ID, Type: a.Type, Thumbhash: a.Thumbhash, LocalDateTime: a.LocalDateTime,
		Resized: a.Resized, Duration: a.Duration, LivePhotoVideoID: a.LivePhotoVideoID,
	}
}

// sanitizedAll is assets as a link that hides metadata shows them.
func sanitizedAll(assets []*model.AssetRecord) []model.SanitizedAsset {
	out := make([]model.SanitizedAsset, 0, len(assets))
	for _, a := range assets {
		out = append(out, sanitizedAsset(a))
	}
	return out
}

// assetAnswers is assets as look shows them, in their order.
func assetAnswers(v *store.View, assets []*model.AssetRecord, look assetLook) []model.Asset {
	out := make([]model.Asset, 0, len(assets))
	for _, a := range assets {
		out = append(out, assetAnswer(v, a, look))
	}
	return out
}

// peopleAnswer groups an asset's faces by person, in the order the faces come.
func peopleAnswer(v *store.View, faces []model.FaceRecord) []model.Person {
	people := []model.Person{}
	for _, f := range faces {
		face := model.Face{
			ID:            f.ID,
			BoundingBoxX1: f.BoundingBoxX1, BoundingBoxY1: f.BoundingBoxY1,
			BoundingBoxX2: f.BoundingBoxX2, BoundingBoxY2: f.BoundingBoxY2,
			ImageWidth: f.ImageWidth, ImageHeight: f.ImageHeight,
		}
		i := slices.IndexFunc(people, func(p model.Person) bool { return p.ID == f.PersonID })
		if i < 0 {
			p := v.Person(f.PersonID)
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

// albumLook says what of an album an answer shows.
type albumLook struct {
	// assets: the album's assets, ordered by order, as assetLook shows
	// them; else an empty list (with the count and dates kept).
	assets    bool
	order     func(a, b *model.AssetRecord) int
	assetLook assetLook
	// lastModified: lastModifiedAssetTimestamp, as only the album list has it.
	lastModified bool
	// linkQuirk: the reference's album inside a link's answer: no users,
	// and shared and hasSharedLink false, whatever is true.
	linkQuirk bool
	// thin: the reference's album inside the link listing: besides the
	// quirk, no count and no dates.
	thin bool
	// holdingQuirk: the reference's album in GET /albums?assetId:
	// hasSharedLink false, and shared counting users only.
	holdingQuirk bool
}

// albumAnswer is al as look shows it.
func albumAnswer(v *store.View, al *model.AlbumRecord, look albumLook) model.Album {
	out := model.Album{
		ID:                    al.ID,
		OwnerID:               al.OwnerID,
		AlbumName:             al.AlbumName,
		Description:           al.Description,
		CreatedAt:             al.CreatedAt,
		UpdatedAt:             al.UpdatedAt,
		AlbumThumbnailAssetID: al.AlbumThumbnailAssetID,
		Shared:                v.Shared(al),
		HasSharedLink:         v.AlbumHasLink(al.ID),
		AlbumUsers:            make([]model.AlbumUser, 0, len(al.AlbumUsers)),
		Assets:                []model.Asset{},
		Owner:                 userAnswer(v.User(al.OwnerID)),
		AssetCount:            0,
		IsActivityEnabled:     al.IsActivityEnabled,
		Order:                 cmp.Or(al.Order, new("desc")), // the reference's default
	}
	if out.AlbumThumbnailAssetID == nil {
		// As the reference fills a missing cover when it reads an album:
		// its newest asset out of the trash, none when it shows none.
		out.AlbumThumbnailAssetID = newestShown(v, al.AssetIDs)
	}
	for _, au := range v.AlbumUsers(al) {
		out.AlbumUsers = append(out.AlbumUsers, model.AlbumUser{Role: au.Role, User: userAnswer(v.User(au.UserID))})
	}
	// As the upstream orders them: by role, then by name.
	slices.SortStableFunc(out.AlbumUsers, func(a, b model.AlbumUser) int {
		return cmp.Or(cmp.Compare(a.Role, b.Role), cmp.Compare(a.User.Name, b.User.Name))
	})
	assets := make([]*model.AssetRecord, 0, len(al.AssetIDs))
	var last *model.AssetRecord
	for _, id := range al.AssetIDs {
		a := v.Asset(id)
		if !store.Live(a) {
			continue // the trash is out of every album
		}
		assets = append(assets, a)
		out.AssetCount++
		if out.StartDate == nil || a.FileCreatedAt.Before(out.StartDate.Time) {
			out.StartDate = a.FileCreatedAt.Ptr()
		}
		if out.EndDate == nil || a.FileCreatedAt.After(out.EndDate.Time) {
			out.EndDate = a.FileCreatedAt.Ptr()
		}
		if last == nil || a.UpdatedAt.After(last.UpdatedAt.Time) {
			last = a
		}
	}
	if look.lastModified && last != nil {
		out.LastModifiedAssetTimestamp = last.FileModifiedAt.Ptr()
	}
	if look.assets {
		slices.SortStableFunc(assets, look.order)
		out.Assets = make([]model.Asset, 0, len(assets))
		for _, a := range assets {
			out.Assets = append(out.Assets, assetAnswer(v, a, look.assetLook))
		}
	}
	if look.linkQuirk || look.thin {
		out.AlbumUsers, out.Shared, out.HasSharedLink = []model.AlbumUser{}, false, false
	}
	if look.thin {
		out.AssetCount, out.StartDate, out.EndDate = 0, nil, nil
	}
	if look.holdingQuirk {
		out.HasSharedLink, out.Shared = false, len(al.AlbumUsers) > 0
	}
	return out
}

// newestShown is the id of the asset of ids out of the trash taken last
// (by fileCreatedAt), nil when all are in the trash.
func newestShown(v *store.View, ids []string) *string {
	var newest *model.AssetRecord
	for _, id := range ids {
		if a := v.Asset(id); a != nil && store.Live(a) && (newest == nil || a.FileCreatedAt.After(newest.FileCreatedAt.Time)) {
			newest = a
		}
	}
	if newest == nil {
		return nil
	}
	return &newest.ID
}

// sanitizedAlbum is an album whose assets a link that hides metadata shows.
func sanitizedAlbum(v *store.View, al *model.AlbumRecord, look albumLook) model.SanitizedAlbum {
	shown := look
	shown.assets = false
	out := model.SanitizedAlbum{Album: albumAnswer(v, al, shown), Assets: []model.SanitizedAsset{}}
	if look.assets {
		assets := make([]*model.AssetRecord, 0, len(al.AssetIDs))
		for _, id := range al.AssetIDs {
			if a := v.Asset(id); store.Live(a) {
				assets = append(assets, a)
			}
		}
		slices.SortStableFunc(assets, look.order)
		for _, a := range assets {
			out.Assets = append(out.Assets, sanitizedAsset(a))
		}
	}
	return out
}

// stored keeps the order in which assets were added.
func stored(a, b *model.AssetRecord) int { return 0 }

// linkLook says what of a shared link an answer shows.
type linkLook struct {
	// assets shows the link's assets (its own, then its album's, without
	// repeats, each group ordered by order); nil shows none (an empty list).
	assets *assetLook
	order  func(a, b *model.AssetRecord) int
	// album shows the album the link carries; nil shows none.
	album *albumLook
	// hidePassword: null in place of the password.
	hidePassword bool
}

// linkAssets is the link's assets: its own, then its album's, without
// repeats, each group in order.
func linkAssets(v *store.View, l *model.SharedLinkRecord, order func(a, b *model.AssetRecord) int) []*model.AssetRecord {
	own := make([]*model.AssetRecord, 0, len(l.AssetIDs))
	seen := make(map[string]bool, len(l.AssetIDs))
	for _, id := range l.AssetIDs {
		seen[id] = true
		if a := v.Asset(id); store.Live(a) {
			own = append(own, a)
		}
	}
	slices.SortStableFunc(own, order)
	if l.AlbumID == nil {
		return own
	}
	al := v.Album(*l.AlbumID)
	theirs := make([]*model.AssetRecord, 0, len(al.AssetIDs))
	for _, id := range al.AssetIDs {
		if a := v.Asset(id); !seen[id] && store.Live(a) {
			theirs = append(theirs, a)
		}
	}
	slices.SortStableFunc(theirs, order)
	return append(own, theirs...)
}

// linkAnswer is l as look shows it.
func linkAnswer(v *store.View, l *model.SharedLinkRecord, look linkLook) model.SharedLink {
	out := model.SharedLink{
		ID: l.ID, Description: l.Description, Password: l.Password, UserID: l.UserID, Key: l.Key,
		Type: l.Type, CreatedAt: l.CreatedAt, ExpiresAt: l.ExpiresAt, AllowUpload: l.AllowUpload,
		AllowDownload: l.AllowDownload, ShowMetadata: l.ShowMetadata, Assets: []model.Asset{},
	}
	if look.hidePassword {
		out.Password = nil
	}
	if look.assets != nil {
		assets := linkAssets(v, l, look.order)
		out.Assets = make([]model.Asset, 0, len(assets))
		for _, a := range assets {
			out.Assets = append(out.Assets, assetAnswer(v, a, *look.assets))
		}
	}
	if look.album != nil && l.AlbumID != nil {
		album := albumAnswer(v, v.Album(*l.AlbumID), *look.album)
		out.Album = &album
	}
	return out
}

// The looks of each place, for whoever asks.

// audience is who an answer is for.
type audience struct {
	p store.Principal
	// reference: the reference's own shapes (Config.ReferenceShapes).
	reference bool
}

// viewer is the user an answer is for: the caller, or a link's owner.
func (a audience) viewer() string { return a.p.User.ID }

// hidesMetadata says whether the caller holds a link that hides metadata.
func (a audience) hidesMetadata() bool { return a.p.Link != nil && !a.p.Link.ShowMetadata }

// asset is one asset as the audience may see it: as look shows it, or
// sanitized for a link that hides metadata. Every operation that answers
// an asset a link's holder may call answers it so.
func (a audience) asset(v *store.View, asset *model.AssetRecord, look assetLook) any {
	if a.hidesMetadata() {
		return sanitizedAsset(asset)
	}
	return assetAnswer(v, asset, look)
}

// assets is asset for a list of them.
func (a audience) assets(v *store.View, assets []*model.AssetRecord, look assetLook) any {
	if a.hidesMetadata() {
		return sanitizedAll(assets)
	}
	return assetAnswers(v, assets, look)
}

// album is an album as the audience may see it: sanitized for a link that
// hides metadata.
func (a audience) album(v *store.View, al *model.AlbumRecord, look albumLook) any {
	if a.hidesMetadata() {
		return sanitizedAlbum(v, al, look)
	}
	return albumAnswer(v, al, look)
}

// libraryRead is the caller's own library as the upstream's queries of
// it load it (the memory lane, the cities, the explore page): with
// exifInfo, without the owner.
func (a audience) libraryRead() assetLook { return assetLook{exif: true, favoriteOf: a.viewer()} }

// randomRead is GET /api/asset/random: as libraryRead, the stack counted.
func (a audience) randomRead() assetLook {
	look := a.libraryRead()
	look.stackCount = true
	return look
}

// personAssetsRead is GET /api/people/{id}/assets: with exifInfo and people.
func (a audience) personAssetsRead() assetLook {
	look := a.libraryRead()
	look.people = true
	return look
}

// timelineRead is GET /api/timeline/bucket: with exifInfo and stacks.
func (a audience) timelineRead() assetLook {
	look := a.libraryRead()
	look.stack = true
	return look
}

// assetRead is GET /api/asset/{id}: everything its query loads, the owner
// only to a user, the people of its faces only to its owner.
func (a audience) assetRead(asset *model.AssetRecord) assetLook {
	return assetLook{
		owner: a.p.Link == nil, exif: true, detail: true, stack: true,
		people:     a.p.Link == nil && asset.OwnerID == a.viewer(),
		favoriteOf: a.viewer(),
	}
}

// albumRead is GET /api/albums/{id}: its assets newest first, with exifInfo.
func (a audience) albumRead(withAssets bool) albumLook {
	return albumLook{assets: withAssets, order: model.NewestFirst, assetLook: assetLook{exif: true, favoriteOf: a.viewer()}}
}

// albumMade is POST /api/albums: its assets without exifInfo, and no
// favourites.
func albumMade() albumLook {
	return albumLook{assets: true, order: model.NewestFirst}
}

// albumListed is GET /api/albums: without assets, with the timestamp of
// the asset changed last.
func (a audience) albumListed(holding bool) albumLook {
	return albumLook{lastModified: true, holdingQuirk: holding && a.reference}
}

// linkRead is a link as its own operations show it: its assets with
// exifInfo, oldest first, its album without assets, and with the
// reference's flags there (no users, shared and hasSharedLink false),
// which the upstream's own tests expect.
func (a audience) linkRead() linkLook {
	return linkLook{
		assets: &assetLook{exif: true},
		order:  model.OldestFirst,
		album:  &albumLook{linkQuirk: true},
	}
}

// linkMade is the answer of making or changing a link: as it reads, or
// in the reference's shapes, no assets and no album.
func (a audience) linkMade() linkLook {
	if a.reference {
		return linkLook{}
	}
	return a.linkRead()
}

// linkOpened is a link as its holder opens it: as it reads, the password
// hidden (shown in the reference's shapes).
func (a audience) linkOpened() linkLook {
	look := a.linkRead()
	look.hidePassword = !a.reference
	return look
}

// linkListed is a link in the owner's listing: its assets, and its album
// with every asset, owner and exifInfo shown; in the reference's shapes
// an album link has no assets and a thin album, and an asset no owner and
// no exifInfo.
func (a audience) linkListed(l *model.SharedLinkRecord) linkLook {
	if a.reference {
		look := linkLook{album: &albumLook{thin: true}, order: stored}
		if l.AlbumID == nil {
			look.assets = &assetLook{}
		}
		return look
	}
	shown := assetLook{owner: true, exif: true}
	return linkLook{
		assets: &shown, order: stored,
		album: &albumLook{assets: true, order: stored, assetLook: shown},
	}
}

// assetControl is an asset as the control API lists it: as its owner
// reads it.
func assetControl(owner string) assetLook {
	return assetLook{owner: true, exif: true, detail: true, stack: true, people: true, favoriteOf: owner}
}

// userAdminAnswer is u as UserAdminResponseDto shows them.
func userAdminAnswer(v *store.View, u *model.UserRecord) model.UserAdmin {
	updated := u.UpdatedAt
	if updated.IsZero() {
		updated = u.CreatedAt
	}
	usage := v.Usage(u.ID)
	status := store.StatusActive
	if store.Deleted(u) {
		status = store.StatusDeleted
	}
	return model.UserAdmin{
		User: u.User, StorageLabel: u.StorageLabel, ShouldChangePassword: u.ShouldChangePassword,
		IsAdmin: u.IsAdmin, CreatedAt: u.CreatedAt, UpdatedAt: updated, DeletedAt: u.DeletedAt,
		QuotaSizeInBytes: u.QuotaSizeInBytes, QuotaUsageInBytes: &usage, Status: status,
	}
}

// sessionAnswer is a login as its user sees it, current the one the
// request came with.
func sessionAnswer(se, current *model.SessionRecord) model.Session {
	updated := se.UpdatedAt
	if updated.IsZero() {
		updated = se.CreatedAt
	}
	return model.Session{
		ID: se.ID, CreatedAt: se.CreatedAt, UpdatedAt: updated, Current: current != nil && current.ID == se.ID,
		DeviceOS: se.DeviceOS, DeviceType: se.DeviceType,
	}
}

// apiKeyAnswer is a key as its user sees it: never its secret.
func apiKeyAnswer(k *model.APIKeyRecord) model.APIKey {
	return model.APIKey{ID: k.ID, Name: k.Name, CreatedAt: k.CreatedAt, UpdatedAt: k.UpdatedAt}
}
