package store

import (
	"cmp"
	"slices"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// Downloads: who may take the originals of what, as the reference's
// asset.download, album.download and timeline.download permissions say,
// and how a download is split into archives.
//
// asset.download: a user downloads their own assets (trashed ones too),
// the assets of the albums they own or are a user of, and the live photo
// videos of those, and the assets of the partners who share their library
// with them, but the archived ones; a link's holder, only where the link
// allows downloads, the link's own assets and its album's, with their live
// photo videos. Trashed assets are no one's to download but their owner's.

// DefaultArchiveSize is the size at which a download's next file starts a
// new archive, when the request names none: 4 GiB, as the reference.
const DefaultArchiveSize = 4 << 30

// DownloadRequest is what POST /api/download/info asks for: the assets
// named (AssetIDs non-nil, even empty), else an album's, else a user's
// timeline.
type DownloadRequest struct {
	AssetIDs    []string
	AlbumID     *string
	UserID      *string
	ArchiveSize int64 // 0: DefaultArchiveSize
}

// Archive is one archive of a download: the assets it holds, in order,
// and the bytes their files take, as their EXIF says.
type Archive struct {
	Size     int64
	AssetIDs []string
}

// DownloadPlan is the archives a download is made of, and their total size.
type DownloadPlan struct {
	TotalSize int64
	Archives  []Archive
}

// Download errors, in the reference's words.
var (
	errNoAssetDownload    = Fail(NoAccess, "Not found or no asset.download access")
	errNoAlbumDownload    = Fail(NoAccess, "Not found or no album.download access")
	errNoTimelineDownload = Fail(NoAccess, "Not found or no timeline.download access")
)

// DownloadInfo plans a download for p: which assets, then the live photo
// videos of those, split into archives of about r.ArchiveSize bytes. The assets are those named, in the order
// named (repeats collapse); or an album's, in the album's order, without
// trashed ones; or the user's own timeline, by the time they were added,
// without hidden, archived or trashed ones. p must be allowed every one of
// them, the album, or the timeline: else nothing is planned.
func (v *View) DownloadInfo(p Principal, r DownloadRequest) (DownloadPlan, error) {
	var list []*model.AssetRecord
	switch {
	case r.AssetIDs != nil:
		assets, err := v.DownloadableAssets(p, r.AssetIDs)
		if err != nil {
			return DownloadPlan{}, err
		}
		seen := make(map[string]bool, len(assets))
		for _, a := range assets {
			if !seen[a.ID] {
				seen[a.ID] = true
				list = append(list, a)
			}
		}
	case r.AlbumID != nil:
		al := v.downloadableAlbum(p, *r.AlbumID)
		if al == nil {
			return DownloadPlan{}, errNoAlbumDownload
		}
		for _, id := range al.AssetIDs {
			if a := v.st.assetBy[id]; a != nil && Live(a) {
				list = append(list, a)
			}
		}
	case r.UserID != nil:
		if p.Link != nil || *r.UserID != p.User.ID {
			return DownloadPlan{}, errNoTimelineDownload
		}
		for _, a := range v.st.assets {
			if a.OwnerID == p.User.ID && a.IsVisible && !a.IsArchived && Live(a) {
				list = append(list, a)
			}
		}
		slices.SortStableFunc(list, func(a, b *model.AssetRecord) int {
			return cmp.Or(a.CreatedAt.Compare(b.CreatedAt.Time), cmp.Compare(a.ID, b.ID))
		})
	default:
		return DownloadPlan{}, Fail(Invalid, "assetIds, albumId, or userId is required")
	}
	return planArchives(v.withLiveVideos(list), cmp.Or(r.ArchiveSize, DefaultArchiveSize)), nil
}

// withLiveVideos is list followed by the live photo videos of its assets
// that it does not hold already, as the reference adds them (it lists a
// video it was also asked for twice, and counts it twice; the mock does
// not).
func (v *View) withLiveVideos(list []*model.AssetRecord) []*model.AssetRecord {
	listed := make(map[string]bool, len(list))
	for _, a := range list {
		listed[a.ID] = true
	}
	out := list
	for _, a := range list {
		if a.LivePhotoVideoID == nil || listed[*a.LivePhotoVideoID] {
			continue
		}
		if video := v.st.assetBy[*a.LivePhotoVideoID]; video != nil {
			listed[video.ID] = true
			out = append(out, video)
		}
	}
	return out
}

// planArchives splits list into archives as the reference does: each file
// is added to the current archive, which is closed once its size passes
// target; a file larger than target is an archive of its own (with the
// files before it). A file's size is its EXIF's fileSizeInByte, 0 without.
func planArchives(list []*model.AssetRecord, target int64) DownloadPlan {
	plan := DownloadPlan{Archives: []Archive{}}
	var cur Archive
	for _, a := range list {
		cur.Size += fileSize(a)
		cur.AssetIDs = append(cur.AssetIDs, a.ID)
		if cur.Size > target {
			plan.Archives = append(plan.Archives, cur)
			cur = Archive{}
		}
	}
	if len(cur.AssetIDs) > 0 {
		plan.Archives = append(plan.Archives, cur)
	}
	for _, ar := range plan.Archives {
		plan.TotalSize += ar.Size
	}
	return plan
}

// fileSize is the size of an asset's file as its EXIF says, or 0.
func fileSize(a *model.AssetRecord) int64 {
	if a.ExifInfo == nil || a.ExifInfo.FileSizeInByte == nil {
		return 0
	}
	return max(0, *a.ExifInfo.FileSizeInByte)
}

// DownloadableAssets are the assets of ids, in their order and with their
// repeats, when p may download every one of them; else none, and the
// reference's error, alike for unknown ids and others' assets.
func (v *View) DownloadableAssets(p Principal, ids []string) ([]*model.AssetRecord, error) {
	may := v.downloadRule(p)
	out := make([]*model.AssetRecord, 0, len(ids))
	for _, id := range ids {
		a := v.st.assetBy[id]
		if a == nil || !may(a) {
			return nil, errNoAssetDownload
		}
		out = append(out, a)
	}
	return out, nil
}

// DownloadableOriginal is the asset of id whose original p may download
// on its own: the reference's refusal of an offline asset comes after the
// access check.
func (v *View) DownloadableOriginal(p Principal, id string) (*model.AssetRecord, error) {
	as, err := v.DownloadableAssets(p, []string{id})
	if err != nil {
		return nil, err
	}
	if as[0].IsOffline {
		return nil, Fail(Invalid, "Asset is offline")
	}
	return as[0], nil
}

// downloadRule is asset.download for p: whether p may download an asset.
// The assets p reaches through albums or a link are gathered once, so that
// a download of many assets costs one pass over them.
func (v *View) downloadRule(p Principal) func(a *model.AssetRecord) bool {
	st := v.st
	reach := map[string]bool{}
	// shares adds the assets of ids that are not trashed, and their live
	// photo videos.
	shares := func(ids []string) {
		for _, id := range ids {
			a := st.assetBy[id]
			if a == nil || !Live(a) {
				continue
			}
			reach[id] = true
			if a.LivePhotoVideoID != nil {
				reach[*a.LivePhotoVideoID] = true
			}
		}
	}
	if l := p.Link; l != nil {
		if !l.AllowDownload {
			return func(*model.AssetRecord) bool { return false }
		}
		shares(l.AssetIDs)
		if l.AlbumID != nil {
			if al := st.albumByID[*l.AlbumID]; al != nil {
				shares(al.AssetIDs)
			}
		}
		return func(a *model.AssetRecord) bool { return reach[a.ID] }
	}
	userID := p.User.ID
	for _, al := range st.albums {
		if RoleOf(al, userID) != "" && v.AlbumVisible(al) {
			shares(al.AssetIDs)
		}
	}
	partners := map[string]bool{} // the users who share their library with p
	for _, pr := range st.partners {
		if pr.SharedWithID == userID {
			partners[pr.SharedByID] = true
		}
	}
	return func(a *model.AssetRecord) bool {
		return a.OwnerID == userID || reach[a.ID] || Live(a) && !a.IsArchived && partners[a.OwnerID]
	}
}

// downloadableAlbum is the album of id when p may download it
// (album.download): its owner and its users, editors and viewers alike;
// the holder of a link that carries it (of either type) where the link
// allows downloads.
func (v *View) downloadableAlbum(p Principal, id string) *model.AlbumRecord {
	al := v.st.albumByID[id]
	switch {
	case al == nil:
		return nil
	case p.Link != nil:
		if p.Link.AllowDownload && p.Link.AlbumID != nil && *p.Link.AlbumID == id {
			return al
		}
		return nil
	case RoleOf(al, p.User.ID) != "" && v.AlbumVisible(al):
		return al
	}
	return nil
}
